//! Tuning of the Abande evaluation's weights (`abande::ai::eval::WEIGHTS`) by
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

use hexgames_core::abande::ai::eval::{terms, Weights, TERMS, WEIGHTS};
use hexgames_core::abande::Board;
use hexgames_core::search::alphabeta::Options;

mod texel;
use texel::{abande_opening as opening, arguments, error, fit, pair_match, samples};

/// The logistic's scale, in points (the player's `PROBABILITY_SCALE`).
const SCALE: f64 = 200.0;

fn player(weights: [i32; TERMS], randomness: i32, seed: u64) -> (Options, Weights) {
    let options = Options {
        lmr: true,
        randomness,
        seed,
        ..Options::default()
    };
    let weights = Weights {
        terms: weights,
        ..Weights::default()
    };
    (options, weights)
}

/// The evaluation's terms as numbers.
fn terms_of(board: &Board) -> [f64; TERMS] {
    terms(board).map(f64::from)
}

fn main() {
    let args = arguments(3000);
    let mut base = WEIGHTS;
    if let Some(text) = std::env::args().nth(6) {
        let parts: Vec<i32> = text.split('/').filter_map(|x| x.parse().ok()).collect();
        if parts.len() != TERMS {
            eprintln!("the base weights are {TERMS} whole numbers joined by '/', not {text:?}");
            std::process::exit(2);
        }
        base.copy_from_slice(&parts);
    }

    let data = samples(args, move |seed| player(base, 20, seed), opening, terms_of);
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
    if args.pairs == 0 {
        return;
    }
    let (a, b) = (player(tuned, 0, 0), player(base, 0, 0));
    let (points, played) = pair_match(a, b, args.pairs, args.seconds, args.seed, opening);
    println!(
        "tuned against the base weights: {points} of {played} games ({:.1}%) at {} s a move",
        100.0 * points / played as f64,
        args.seconds
    );
}
