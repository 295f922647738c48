//! The exact Abande solver on positions of seeded random games with H pieces left in
//! both hands together, in release mode (for tuning the solver; the figures of record
//! come from `benchmarks/bench_abande_exact.py`):
//!
//!     cargo run --release -p hexgames-core --example abande_exact -- \
//!         [H=4] [positions=10] [seconds=5] [value]
//!
//! Prints each position's value, difference, nodes and time, then the totals; with
//! `value`, the result-only search.
use std::time::Instant;

use hexgames_core::abande::ai::solver::{Solve, Solver};
use hexgames_core::abande::{Board, Rules};
use hexgames_core::game::Game;
use hexgames_core::search::Stop;
use hexgames_core::zobrist::Rng;

fn position(seed: u64, hand: u32) -> Option<Board> {
    let mut rng = Rng::new(seed);
    let mut b = Board::new(None, Rules::default()).unwrap();
    while !b.is_game_over() {
        let (x, y) = b.hands();
        if x + y == hand {
            return Some(b);
        }
        let moves = b.legal_moves();
        b.push(moves[rng.below(moves.len())]);
    }
    None
}

fn main() {
    let mut args = std::env::args().skip(1);
    let hand: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(4);
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let secs: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let exact = args.next().map_or(true, |a| a != "value");
    let mut solver = Solver::new(256).unwrap();
    let (mut solved, mut total_t, mut total_n) = (0, 0.0, 0u64);
    for seed in 0..count {
        let Some(b) = position(seed, hand) else {
            continue;
        };
        let b = Board::new(Some(&b.position()), Rules::default()).unwrap();
        solver.clear();
        let t = Instant::now();
        let r = solver
            .solve(&b, exact, None, Some(secs), &Stop::new(), &mut || false)
            .unwrap();
        let dt = t.elapsed().as_secs_f64();
        total_t += dt;
        match r {
            Solve::Solved(r) => {
                solved += 1;
                total_n += r.nodes;
                println!(
                    "{seed}: diff {} value {} nodes {} {:.3}s",
                    r.diff, r.value, r.nodes, dt
                );
            }
            Solve::GaveUp { nodes } => {
                total_n += nodes;
                println!("{seed}: gave up nodes {nodes} {dt:.3}s");
            }
        }
    }
    println!(
        "H={hand} solved {solved}/{count} time {total_t:.2}s nodes {total_n} ({:.0}/s)",
        total_n as f64 / total_t
    );
}
