//! Tuning of the Abande evaluation's weights (`search::eval_abande::WEIGHTS`) by
//! Texel's method (Peter Österlund, "Texel's tuning method", 2014): self-play games of
//! the alpha-beta player give positions labelled with the game's result for the side
//! to move (1, 1/2, 0); the weights that minimise the mean squared error between the
//! result and the logistic `1 / (1 + exp(-value / scale))` of the evaluation are found
//! by gradient descent (the score weight stays 100, the unit of the evaluation).
//! Then a match of colour-swapped pairs from random openings, the tuned weights
//! against the old ones, says whether they play better.
//!
//!     cargo run --release -p hexgames-core --example abande_tune -- \
//!         [games] [depth] [match_pairs] [match_seconds] [seed] [base]
//!
//! (defaults 3000 games at depth 4, 50 pairs at 0.2 s a move, seed 1, and the base
//! weights `WEIGHTS`, or others written `100/25/20/30/15/6/30`: the self-play games
//! use them, the fit starts from them and the match is against them). Prints the fit
//! (error before and after, the weights) and the match score of the tuned weights.
//! Uses two threads.

use std::thread;

use hexgames_core::abande::{Board, Rules};
use hexgames_core::game::{Color, Game};
use hexgames_core::search::alphabeta::{AlphaBeta, Options};
use hexgames_core::search::eval_abande::{terms, TERMS, WEIGHTS};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;

/// Random plies that open each game (as `hexgames match --opening-plies 6`).
const OPENING_PLIES: usize = 6;
/// The logistic's scale, in points (the player's `PROBABILITY_SCALE`).
const SCALE: f64 = 200.0;

/// A position's terms and the result for its side to move.
struct Sample {
    terms: [f64; TERMS],
    result: f64,
}

fn opening(rng: &mut Rng) -> Board {
    let mut board = Board::new(None, Rules::default()).expect("the start");
    let mut moves = Vec::new();
    for _ in 0..OPENING_PLIES {
        Game::legal_moves(&board, &mut moves);
        board.push(moves[rng.below(moves.len())]);
    }
    board
}

fn player(weights: [i32; TERMS], randomness: i32, seed: u64) -> AlphaBeta<Board> {
    let options = Options {
        lmr: true,
        randomness,
        seed,
        abande_weights: weights,
        ..Options::default()
    };
    AlphaBeta::new(16, options).expect("a player")
}

/// Self-play games at `depth` (varied play within 20 points), their positions.
fn samples(base: [i32; TERMS], games: usize, depth: u32, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut ab = player(base, 20, seed);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut out = Vec::new();
    for _ in 0..games {
        let mut board = opening(&mut rng);
        ab.new_game();
        let mut seen: Vec<([i32; TERMS], Color)> = Vec::new();
        while board.result().is_none() {
            seen.push((terms(&board), board.turn()));
            let r = ab
                .search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                .expect("a move");
            board.push(r.best);
        }
        let winner = board.result().and_then(|r| r.winner);
        for (t, mover) in seen {
            let result = match winner {
                None => 0.5,
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
            };
            out.push(Sample {
                terms: t.map(f64::from),
                result,
            });
        }
    }
    out
}

fn value(w: &[f64; TERMS], t: &[f64; TERMS]) -> f64 {
    (0..TERMS).map(|i| w[i] * t[i]).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x / SCALE).exp())
}

fn error(w: &[f64; TERMS], data: &[Sample]) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(value(w, &s.terms))).powi(2))
        .sum::<f64>()
        / data.len() as f64
}

/// Gradient descent (Adam: Kingma and Ba, 2015; steps of about a point) on the mean
/// squared error, the score weight held at 100.
fn fit(base: [i32; TERMS], data: &[Sample]) -> [f64; TERMS] {
    let mut w = base.map(f64::from);
    let (mut m, mut v) = ([0.0; TERMS], [0.0; TERMS]);
    let (lr, b1, b2) = (1.0, 0.9, 0.999);
    for step in 1..=2000 {
        let mut grad = [0.0; TERMS];
        for s in data {
            let p = sigmoid(value(&w, &s.terms));
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / SCALE;
            for (gi, t) in grad.iter_mut().zip(&s.terms) {
                *gi += g * t;
            }
        }
        for i in 1..TERMS {
            let g = grad[i] / data.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        if step % 250 == 0 {
            let shown: Vec<i64> = w.iter().map(|x| x.round() as i64).collect();
            eprintln!("  step {step}: error {:.6} {shown:?}", error(&w, data));
        }
    }
    w
}

/// Score of `a` against `b` over `pairs` colour-swapped pairs at `seconds` a move.
fn score(a: [i32; TERMS], b: [i32; TERMS], pairs: usize, seconds: f64, seed: u64) -> (f64, usize) {
    let mut rng = Rng::new(seed);
    let limits = Limits {
        time: Some(seconds),
        ..Limits::default()
    };
    let mut points = 0.0;
    let mut games = 0;
    for _ in 0..pairs {
        let start = opening(&mut rng);
        for a_color in [0u8, 1u8] {
            let mut players = [player(a, 0, 0), player(b, 0, 0)];
            let mut board = start.clone();
            while board.result().is_none() {
                let who = usize::from(board.turn() != a_color);
                let r = players[who]
                    .search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                    .expect("a move");
                board.push(r.best);
            }
            points += match board.result().and_then(|r| r.winner) {
                None => 0.5,
                Some(w) if w == a_color => 1.0,
                Some(_) => 0.0,
            };
            games += 1;
        }
    }
    (points, games)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: f64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let games = arg(0, 3000.0) as usize;
    let depth = arg(1, 4.0) as u32;
    let pairs = arg(2, 50.0) as usize;
    let seconds = arg(3, 0.2);
    let seed = arg(4, 1.0) as u64;
    let mut base = WEIGHTS;
    if let Some(text) = args.get(5) {
        let parts: Vec<i32> = text.split('/').filter_map(|x| x.parse().ok()).collect();
        if parts.len() != TERMS {
            eprintln!("the base weights are {TERMS} whole numbers joined by '/', not {text:?}");
            std::process::exit(2);
        }
        base.copy_from_slice(&parts);
    }

    let halves: Vec<_> = (0..2)
        .map(|k| thread::spawn(move || samples(base, games / 2, depth, seed * 1000 + k)))
        .collect();
    let data: Vec<Sample> = halves
        .into_iter()
        .flat_map(|h| h.join().expect("a thread"))
        .collect();
    println!(
        "{} positions from {games} games at depth {depth}",
        data.len()
    );
    let before = base.map(f64::from);
    println!(
        "error with the weights {base:?}: {:.6}",
        error(&before, &data)
    );
    let w = fit(base, &data);
    let tuned = w.map(|x| x.round() as i32);
    println!(
        "error with the tuned weights {tuned:?}: {:.6}",
        error(&tuned.map(f64::from), &data)
    );
    if pairs == 0 {
        return;
    }
    let halves: Vec<_> = (0..2)
        .map(|k| {
            let n = pairs / 2 + (pairs % 2) * usize::from(k == 0);
            thread::spawn(move || score(tuned, base, n, seconds, seed * 1000 + 500 + k))
        })
        .collect();
    let (mut points, mut played) = (0.0, 0);
    for h in halves {
        let (p, g) = h.join().expect("a thread");
        points += p;
        played += g;
    }
    println!(
        "tuned against the base weights: {points} of {played} games ({:.1}%) at {seconds} s a move",
        100.0 * points / played as f64
    );
}
