//! Alpha-beta speed on seeded random middle-game positions of both games: nodes per
//! second (of wall-clock time, and of this thread's CPU time, which stays meaningful on
//! a shared machine) and depth reached.
//! `cargo run --release --example search_speed [seconds]`.

use hexgames_core::search::alphabeta::{AlphaBeta, Options, SearchGame};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::{abande, andantino};

mod common;
use common::{cpu_seconds, median, per_cpu_second};

fn positions<G: SearchGame>(start: &G, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = start.clone();
        let plies = 10 + rng.below(11);
        for _ in 0..plies {
            g.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.push(moves[rng.below(moves.len())]);
        }
        if g.result().is_none() {
            out.push(g);
        }
    }
    out
}

fn measure<G: SearchGame>(name: &str, start: &G, seconds: f64) {
    let mut nodes = 0u64;
    let mut time = 0.0;
    let mut cpu_rates = Vec::new();
    let mut depths = Vec::new();
    for g in positions(start, 8, 1) {
        let options = Options {
            leaf_threats: std::env::var("LEAF_THREATS").is_ok(),
            ..Options::default()
        };
        let mut ab = AlphaBeta::<G>::new(64, options).unwrap();
        let limits = Limits {
            time: Some(seconds),
            ..Limits::default()
        };
        let cpu = cpu_seconds();
        let r = ab
            .search(&g, &limits, &Stop::new(), &mut |_| {}, &mut || false)
            .unwrap();
        let cpu_rate = per_cpu_second(r.info.nodes as f64, cpu);
        cpu_rates.push(cpu_rate);
        nodes += r.info.nodes;
        time += r.info.time;
        depths.push(r.info.depth);
        println!(
            "  depth {:>2} sel {:>2} nodes {:>9} {:>9.0}/s {cpu_rate:>9.0}/CPU s mate {:?} eval {:?}",
            r.info.depth,
            r.info.seldepth,
            r.info.nodes,
            r.info.nps(),
            r.info.mate,
            r.info.eval
        );
    }
    println!(
        "{name}: {:.0} nodes/s, median {:.0} per CPU second, depths {depths:?}",
        nodes as f64 / time,
        median(cpu_rates)
    );
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let a = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    measure("andantino", &a, seconds);
    let b = abande::Board::new(None, abande::Rules::default()).unwrap();
    measure("abande", &b, seconds);
}
