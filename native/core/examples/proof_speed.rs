//! df-pn speed on Andantino positions N placements before the end of the standard game
//! (the solver ladder's positions, reached here by a shallow alpha-beta with seeded
//! random first moves): node visits per second of this thread's CPU time, and how many
//! were settled within the node budget. For profiling the prover (`perf record`).
//! `cargo run --release --example proof_speed [N] [positions] [node budget] [first seed]`.

use hexgames_core::andantino::{Board, Rules};
use hexgames_core::proof::{Goal, ProofLimits, Prover, Verdict};
use hexgames_core::search::alphabeta::{AlphaBeta, Options};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::Game;

#[allow(dead_code)] // (not every helper of the examples is used here)
mod common;
use common::{cpu_seconds, per_cpu_second};

/// A position with `left` placements to go, or None if the game ended before.
fn position(seed: u64, left: u64) -> Option<Board> {
    let mut g = Board::new(None, Rules::default()).ok()?;
    let mut rng = Rng::new(seed);
    let mut ab = AlphaBeta::<Board>::new(4, Options::default()).ok()?;
    let mut moves = Vec::new();
    let mut ply = 0;
    while g.hand_count(0) + g.hand_count(1) > left {
        let mv = if ply < 4 {
            g.legal_moves(&mut moves);
            moves[rng.below(moves.len())]
        } else {
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            ab.search(&g, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                .ok()?
                .best
        };
        g.push(mv);
        ply += 1;
        if g.result().is_some() {
            return None;
        }
    }
    Some(g)
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let left = args.first().copied().unwrap_or(12);
    let count = args.get(1).copied().unwrap_or(6) as usize;
    let budget = args.get(2).copied().unwrap_or(2_000_000);
    let first_seed = args.get(3).copied().unwrap_or(1);
    let mut prover = Prover::new(256).expect("a table");
    let mut seed = first_seed;
    let (mut nodes, mut settled, mut done) = (0u64, 0, 0);
    let cpu = cpu_seconds();
    while done < count {
        seed += 1;
        let Some(g) = position(seed, left) else {
            continue;
        };
        done += 1;
        prover.clear();
        let goal = Goal {
            attacker: g.turn(),
            draw_ok: false,
        };
        let limits = ProofLimits {
            time: None,
            nodes: Some(budget),
        };
        let report = prover.prove(&g, goal, limits).expect("a position in play");
        nodes += report.nodes;
        settled += usize::from(report.verdict != Verdict::Unknown);
        println!(
            "seed {seed:>3}: {:?} in {} nodes, {:.2} s",
            report.verdict, report.nodes, report.time
        );
    }
    println!(
        "N={left}: {settled} of {done} settled; {nodes} nodes, {:.0} nodes per CPU second",
        per_cpu_second(nodes as f64, cpu)
    );
}
