//! Alpha-beta's speed at a fixed depth on fixed positions: the same searches give the
//! same trees in two builds whose node counts agree (`node_counts`), so their times
//! compare directly. For each game and option set (the defaults; the arena's player:
//! late move reductions, quiescence, reverse futility pruning in Abande) it searches
//! each position once from an empty table and prints the nodes, this thread's CPU
//! seconds, wall seconds and nodes per CPU second; the last line is the total.
//!
//!     cargo run --release -p hexgames-core --example fixed_depth_speed
//!
//! It uses only what the core had before issue 33's native move (`AlphaBeta::new`,
//! `Options`, `Game::random_move`), so `benchmarks/bench_native_ab.py` can build it
//! against another version of the core and run the two in turn.

use std::time::Instant;

use hexgames_core::search::alphabeta::{AlphaBeta, Options, SearchGame};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::{abande, andantino};

#[allow(dead_code)]
mod common;
use common::{cpu_seconds, random_play};

/// Totals of a run: nodes, CPU seconds, wall seconds.
#[derive(Default)]
struct Total {
    nodes: u64,
    cpu: f64,
    wall: f64,
}

/// Search each of `positions` at `depth` with `options` (a fresh player each); print
/// the set's line and add it to `total`.
fn run<G: SearchGame>(
    name: &str,
    positions: &[G],
    options: Options,
    depth: u32,
    total: &mut Total,
) {
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let (mut nodes, mut cpu, mut wall) = (0u64, 0.0, 0.0);
    for g in positions {
        let mut ab = AlphaBeta::<G>::new(16, options).expect("a player");
        let (c0, w0) = (cpu_seconds(), Instant::now());
        let r = ab
            .search(g, &limits, &Stop::new(), &mut |_| {}, &mut || false)
            .expect("a search");
        wall += w0.elapsed().as_secs_f64();
        cpu += match (c0, cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => f64::NAN,
        };
        nodes += r.info.nodes;
    }
    println!(
        "{name:<18} d{depth} nodes {nodes:>10} cpu {cpu:>7.3} s wall {wall:>7.3} s nps {:>10.0}",
        nodes as f64 / cpu
    );
    total.nodes += nodes;
    total.cpu += cpu;
    total.wall += wall;
}

fn main() {
    let arena = |abande: bool| Options {
        lmr: true,
        quiescence: true,
        rfp: if abande { 150 } else { 0 },
        ..Options::default()
    };
    let start = andantino::Board::new(None, andantino::Rules::default()).expect("a board");
    let andantino: Vec<_> = (0..6)
        .map(|i| random_play(&start, 100 + i, 6 + 2 * i as usize))
        .collect();
    let start = abande::Board::new(None, abande::Rules::default()).expect("a board");
    let abande: Vec<_> = (0..6)
        .map(|i| random_play(&start, 200 + i, 16 + 4 * i as usize))
        .collect();
    // Depths for about a second of each set on this machine (2026); other depths as
    // arguments, in the order of the sets.
    let mut depths = [13, 14, 9, 12];
    for (d, a) in depths.iter_mut().zip(std::env::args().skip(1)) {
        *d = a.parse().expect("a depth");
    }
    let mut total = Total::default();
    run(
        "andantino default",
        &andantino,
        Options::default(),
        depths[0],
        &mut total,
    );
    run(
        "andantino arena",
        &andantino,
        arena(false),
        depths[1],
        &mut total,
    );
    run(
        "abande default",
        &abande,
        Options::default(),
        depths[2],
        &mut total,
    );
    run("abande arena", &abande, arena(true), depths[3], &mut total);
    println!(
        "total              nodes {:>10} cpu {:>7.3} s wall {:>7.3} s nps {:>10.0}",
        total.nodes,
        total.cpu,
        total.wall,
        total.nodes as f64 / total.cpu
    );
}
