//! Tuning of the Abande evaluation's weights (`search::eval_abande::WEIGHTS`) by
//! Texel's method (Peter Österlund, "Texel's tuning method", 2014): self-play games of
//! the alpha-beta player give positions labelled with the game's result for the side
//! to move (1, 1/2, 0); the weights that minimise the mean squared error between the
//! result and the logistic `1 / (1 + exp(-value / 200))` of the evaluation are found
//! by gradient descent (the score weight stays 100, the unit of the evaluation).
//! Then a match of colour-swapped pairs from random openings, the tuned weights
//! against the base ones, says whether they play better.
//!
//!     cargo run --release -p hexgames-core --example abande_tune -- \
//!         [games] [depth] [match_pairs] [match_seconds] [seed] [base]
//!
//! (defaults 3000 games at depth 4, 50 pairs at 0.2 s a move, seed 1, and the base
//! weights `WEIGHTS`, or others written `100/25/20/30/15/6/30`: the self-play games
//! use them, the fit starts from them and the match is against them). Prints the fit
//! (error before and after, the weights) and the match score of the tuned weights.
//! Uses two threads.

use hexgames_core::abande::{Board, Rules};
use hexgames_core::game::{Color, Game};
use hexgames_core::search::alphabeta::{AlphaBeta, Options};
use hexgames_core::search::eval_abande::{terms, TERMS, WEIGHTS};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;

mod texel;
use texel::{error, fit, match_points, on_two_threads, result_for, Sample};

/// Random plies that open each game (as `hexgames match --opening-plies 6`).
const OPENING_PLIES: usize = 6;
/// The logistic's scale, in points (the player's `PROBABILITY_SCALE`).
const SCALE: f64 = 200.0;

fn opening(rng: &mut Rng) -> Board {
    let mut board = Board::new(None, Rules::default()).expect("the start");
    let mut moves = Vec::new();
    for _ in 0..OPENING_PLIES {
        Game::legal_moves(&board, &mut moves);
        board.push(moves[rng.below(moves.len())]);
    }
    board
}

fn options(weights: [i32; TERMS], randomness: i32, seed: u64) -> Options {
    Options {
        lmr: true,
        randomness,
        seed,
        abande_weights: weights,
        ..Options::default()
    }
}

/// Self-play games at `depth` (varied play within 20 points), their positions.
fn samples(base: [i32; TERMS], games: usize, depth: u32, seed: u64) -> Vec<Sample<TERMS>> {
    let mut rng = Rng::new(seed);
    let mut ab = AlphaBeta::<Board>::new(16, options(base, 20, seed)).expect("a player");
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
        out.extend(seen.into_iter().map(|(t, mover)| Sample {
            terms: t.map(f64::from),
            result: result_for(winner, mover),
        }));
    }
    out
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

    let data: Vec<Sample<TERMS>> =
        on_two_threads(move |k| samples(base, games / 2, depth, seed * 1000 + k))
            .into_iter()
            .flatten()
            .collect();
    println!(
        "{} positions from {games} games at depth {depth}",
        data.len()
    );
    let before = base.map(f64::from);
    println!(
        "error with the weights {base:?}: {:.6}",
        error(&before, &data, SCALE)
    );
    let w = fit(before, &data, SCALE, 1.0, |w| w[0] = before[0]);
    let tuned = w.map(|x| x.round() as i32);
    println!(
        "error with the tuned weights {tuned:?}: {:.6}",
        error(&tuned.map(f64::from), &data, SCALE)
    );
    if pairs == 0 {
        return;
    }
    let (a, b) = (options(tuned, 0, 0), options(base, 0, 0));
    let (mut points, mut played) = (0.0, 0);
    for (p, g) in on_two_threads(move |k| {
        let mut rng = Rng::new(seed * 1000 + 500 + k);
        let n = pairs / 2 + (pairs % 2) * usize::from(k == 0);
        let starts: Vec<Board> = (0..n).map(|_| opening(&mut rng)).collect();
        match_points(a, b, &starts, seconds)
    }) {
        points += p;
        played += g;
    }
    println!(
        "tuned against the base weights: {points} of {played} games ({:.1}%) at {seconds} s a move",
        100.0 * points / played as f64
    );
}
