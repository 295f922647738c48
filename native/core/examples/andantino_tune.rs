//! Texel's method (Peter Österlund, "Texel's tuning method", 2014) on the Andantino
//! evaluation (`andantino::ai::eval`): self-play games of the alpha-beta player under
//! the balance variant give positions labelled with the result for the side to move
//! (1, 1/2, 0); the line weights (windows of five holding 1 to 4 tiles of one colour)
//! and enclosure weights (a tile with 2 to 5 opponent neighbours) that minimise the
//! mean squared error between the result and `1 / (1 + exp(-value / 250))` are found by
//! projected gradient descent (Adam; the weights kept 0 or more and growing with the
//! tiles and the neighbours), starting from the weights in use. A ninth term, the side to
//! move's colour (+1 White, -1 Red), takes up the variant's advantage of one colour in
//! the fit and is left out of the evaluation. Then a match of colour-swapped pairs from
//! random openings, the fitted weights against those in use, says whether they play
//! better.
//!
//!     cargo run --release -p hexgames-core --example andantino_tune -- \
//!         [games] [depth] [match_pairs] [match_seconds] [seed]
//!
//! (defaults 2000 games at depth 4, 50 pairs at 0.2 s a move, seed 1). Prints the error
//! before and after, the fitted weights and the match score. Uses two threads.

use std::collections::HashMap;

use hexgames_core::andantino::ai::eval::{Weights, AXES, DELTAS, ENCLOSURE_WEIGHTS, LINE_WEIGHTS};
use hexgames_core::andantino::Board;
use hexgames_core::game::{Color, Game};
use hexgames_core::search::alphabeta::{Options, SearchGame};

mod texel;
use texel::{andantino_opening as opening, arguments, error, fit, pair_match, samples, value};

/// The logistic's scale, in points (the player's `PROBABILITY_SCALE`).
const SCALE: f64 = 250.0;
/// Line weights for 1-4 tiles, enclosure weights for 2-5 opponent neighbours, and the
/// colour of the side to move.
const TERMS: usize = 9;

/// The terms for the side to move: windows by tiles and tiles by opponent neighbours,
/// its count minus the opponent's (an enclosure term counts for the opponent of the
/// tile).
fn terms(board: &Board) -> [f64; TERMS] {
    let mut at = HashMap::new();
    for c in 0..2u8 {
        for t in board.tiles(c) {
            at.insert((t.q(), t.r()), c);
        }
    }
    let me = board.turn();
    let sign = |c: Color| if c == me { 1.0 } else { -1.0 };
    let mut t = [0.0; TERMS];
    let mut windows = std::collections::HashSet::new();
    for &(q, r) in at.keys() {
        for (a, &(dq, dr)) in AXES.iter().enumerate() {
            for i in 0..5 {
                windows.insert((q - i * dq, r - i * dr, a));
            }
        }
    }
    for (q, r, a) in windows {
        let (dq, dr) = AXES[a];
        let mut n = [0usize; 2];
        for i in 0..5 {
            if let Some(&c) = at.get(&(q + i * dq, r + i * dr)) {
                n[c as usize] += 1;
            }
        }
        for c in 0..2u8 {
            let (own, other) = (n[c as usize], n[1 - c as usize]);
            if other == 0 && (1..=4).contains(&own) {
                t[own - 1] += sign(c);
            }
        }
    }
    for (&(q, r), &c) in &at {
        let enemies = DELTAS
            .iter()
            .filter(|&&(dq, dr)| at.get(&(q + dq, r + dr)) == Some(&(1 - c)))
            .count();
        if enemies >= 2 {
            t[4 + enemies.min(5) - 2] -= sign(c);
        }
    }
    t[8] = if me == 0 { 1.0 } else { -1.0 };
    t
}

/// [`terms`], checked against the native evaluation (the colour term left out).
fn checked_terms(board: &Board) -> [f64; TERMS] {
    let t = terms(board);
    let mut plain = t;
    plain[8] = 0.0;
    let native = SearchGame::evaluate(board, &board.new_aux());
    assert_eq!(
        value(&weights_in_use(), &plain) as i32,
        native,
        "{}",
        board.position()
    );
    t
}

/// The evaluation's weights, in the order of [`terms`].
fn weights_in_use() -> [f64; TERMS] {
    let mut w = [0.0; TERMS];
    for i in 0..4 {
        w[i] = f64::from(LINE_WEIGHTS[i + 1]);
        w[4 + i] = f64::from(ENCLOSURE_WEIGHTS[i + 2]);
    }
    w
}

/// The player with `w` (fitted terms) as the evaluation's weights.
fn player_of(w: &[i64]) -> (Options, Weights) {
    let line = [0, w[0], w[1], w[2], w[3], w[3]].map(|x| x as i32);
    let enc = [0, 0, w[4], w[5], w[6], w[7], w[7]].map(|x| x as i32);
    let options = Options {
        lmr: true,
        ..Options::default()
    };
    let weights = Weights {
        line,
        enclosure: enc,
        three: line[3],
        ..Weights::default()
    };
    (options, weights)
}

fn main() {
    let args = arguments(2000);
    let self_play_player = |seed| {
        let options = Options {
            lmr: true,
            randomness: 20,
            seed,
            ..Options::default()
        };
        (options, Weights::default())
    };
    let data = samples(args, self_play_player, opening, checked_terms);
    let start = weights_in_use();
    println!(
        "error with the weights {start:?}: {:.6}",
        error(&start, &data, SCALE)
    );
    // The weights stay 0 or more and grow with the tiles and with the neighbours (the
    // evaluation's incremental gains assume it).
    let w = fit(start, &data, SCALE, 0.5, |w| {
        for group in [0..4, 4..8] {
            let mut floor = 0.0;
            for x in &mut w[group] {
                *x = x.max(floor);
                floor = *x;
            }
        }
    });
    let fitted: Vec<i64> = w.iter().map(|x| x.round() as i64).collect();
    println!(
        "error with the fitted weights {fitted:?}: {:.6}",
        error(&w, &data, SCALE)
    );
    if args.pairs == 0 {
        return;
    }
    let (a, b) = (
        player_of(&fitted),
        player_of(&weights_in_use().map(|x| x as i64)),
    );
    let (points, played) = pair_match(a, b, args.pairs, args.seconds, args.seed, opening);
    println!(
        "fitted against the weights in use: {points} of {played} games ({:.1}%) at {} s a move",
        100.0 * points / played as f64,
        args.seconds
    );
}
