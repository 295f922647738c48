//! Simulations per second of the native MCTS on middle-game positions of both games
//! (seeded uniformly random play: 14 plies in Andantino, 30 in Abande, where the side to
//! move cannot win at once and 1,500 simulations prove nothing), in release mode:
//!
//!     cargo run --release -p hexgames-core --example mcts_speed [seconds] [positions] [game]
//!
//! Prints each position's rate (per second of wall-clock time and of this thread's CPU
//! time, which stays meaningful on a shared machine) and the medians per game, with the
//! default options and with UCT.

use std::time::Instant;

use hexgames_core::search::mcts::{Mcts, MctsGame, MctsOptions};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::{abande, andantino};

mod common;
use common::{cpu_seconds, median, per_cpu_second};

/// A position after `plies` seeded random plies where the game goes on, the side to
/// move has no immediate win and 1,500 simulations prove nothing.
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
            let Ok(mut probe) = Mcts::<G>::new(MctsOptions::default()) else {
                return g;
            };
            let limits = Limits {
                nodes: Some(1500),
                ..Limits::default()
            };
            if let Ok(r) = probe.search(&g, &limits, &Stop::new(), &mut |_| {}, &mut || false) {
                if r.info.mate.is_none() && r.info.nodes == 1500 {
                    return g;
                }
            }
        }
    }
}

fn measure<G: MctsGame>(name: &str, start: &G, plies: usize, seconds: f64, count: u64) {
    for (label, options) in [
        ("default (GRAVE, solver)", MctsOptions::default()),
        (
            "GRAVE, AMAF tables from 8 simulations",
            MctsOptions {
                amaf_start: 8,
                ..MctsOptions::default()
            },
        ),
        (
            "UCT, solver",
            MctsOptions {
                rave: false,
                ..MctsOptions::default()
            },
        ),
    ] {
        let (mut rates, mut cpu_rates) = (Vec::new(), Vec::new());
        for i in 0..count {
            let board = middle(start, i + 1, plies);
            let Ok(mut mcts) = Mcts::<G>::new(MctsOptions {
                seed: i,
                ..options.clone()
            }) else {
                return;
            };
            let t = Instant::now();
            let cpu = cpu_seconds();
            let limits = Limits {
                time: Some(seconds),
                ..Limits::default()
            };
            let Ok(result) = mcts.search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false)
            else {
                return;
            };
            let rate = result.info.nodes as f64 / t.elapsed().as_secs_f64();
            let cpu_rate = per_cpu_second(result.info.nodes as f64, cpu);
            println!(
                "{name} {label}: position {i} (ply {}): {rate:.0} simulations/s, {cpu_rate:.0} \
                 per CPU second, depth {}, {} nodes in tree, {:.0} MB",
                board.ply(),
                result.info.depth,
                mcts.tree_nodes(),
                mcts.tree_bytes() as f64 / 1e6
            );
            rates.push(rate);
            cpu_rates.push(cpu_rate);
        }
        println!(
            "{name} {label}: median {:.0} simulations/s, {:.0} per CPU second",
            median(rates),
            median(cpu_rates)
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let count: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let only = args.get(3).map(String::as_str);
    if only != Some("abande") {
        if let Ok(board) = andantino::Board::new(None, andantino::Rules::default()) {
            measure("andantino", &board, 14, seconds, count);
        }
    }
    if only != Some("andantino") {
        if let Ok(board) = abande::Board::new(None, abande::Rules::default()) {
            measure("abande", &board, 30, seconds, count);
        }
    }
}
