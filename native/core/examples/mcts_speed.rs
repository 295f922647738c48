//! Simulations per second of the native MCTS on middle-game positions of both games
//! (seeded uniformly random play: 14 plies in Andantino, 30 in Abande, where the side to
//! move cannot win at once), in release mode:
//!
//!     cargo run --release -p hexgames-core --example mcts_speed [seconds] [positions]
//!
//! Prints each position's rate and the median per game, with the default options and
//! with plain UCT.

use std::time::Instant;

use hexgames_core::search::mcts::{Mcts, MctsGame, MctsOptions};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::{abande, andantino};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// A position after `plies` seeded random plies where the game goes on and the side to
/// move has no immediate win.
fn middle<G: MctsGame>(start: &G, seed: u64, plies: usize) -> G {
    let mut attempt = 0;
    loop {
        let mut rng = Rng::new(seed * 7919 + attempt);
        attempt += 1;
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.push(moves[rng.below(moves.len())]);
        }
        if g.result().is_none() && g.immediate_win().is_none() {
            return g;
        }
    }
}

fn measure<G: MctsGame>(name: &str, start: &G, plies: usize, seconds: f64, count: u64) {
    for (label, options) in [
        ("default (GRAVE, solver)", MctsOptions::default()),
        (
            "UCT, solver",
            MctsOptions {
                rave: false,
                ..MctsOptions::default()
            },
        ),
    ] {
        let mut rates = Vec::new();
        for i in 0..count {
            let board = middle(start, i + 1, plies);
            let Ok(mut mcts) = Mcts::<G>::new(MctsOptions {
                seed: i,
                ..options.clone()
            }) else {
                return;
            };
            let t = Instant::now();
            let limits = Limits {
                time: Some(seconds),
                ..Limits::default()
            };
            let Ok(result) = mcts.search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false)
            else {
                return;
            };
            let rate = result.info.nodes as f64 / t.elapsed().as_secs_f64();
            println!(
                "{name} {label}: position {i} (ply {}): {:.0} simulations/s, depth {}, {} nodes in tree",
                board.ply(),
                rate,
                result.info.depth,
                mcts.tree_nodes()
            );
            rates.push(rate);
        }
        println!("{name} {label}: median {:.0} simulations/s", median(rates));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let count: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    if let Ok(board) = andantino::Board::new(None, andantino::Rules::default()) {
        measure("andantino", &board, 14, seconds, count);
    }
    if let Ok(board) = abande::Board::new(None, abande::Rules::default()) {
        measure("abande", &board, 30, seconds, count);
    }
}
