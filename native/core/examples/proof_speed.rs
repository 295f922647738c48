//! df-pn speed on Andantino positions N placements before the end of the standard game
//! (the solver ladder's positions, reached here by a shallow alpha-beta with seeded
//! random first moves): node visits per second of this thread's CPU time in the searches
//! (the table's clearing between positions left out), and how many were settled within
//! the node budget. For profiling the prover (`perf record`) and for comparing the
//! children's tests read from the node ([`Prover::set_replies`], the default) with
//! trying each child (`--old`; `--compare` runs both, interleaved, `--rounds` times).
//!
//! `cargo run --release --example proof_speed [N] [positions] [node budget] [first seed]
//! [--old | --compare] [--rounds R] [--file FILE] [--print]`: `--file` searches the
//! positions of a file instead (one position string a line, `#` a comment; N and the
//! positions' count then unused), `--print` prints the positions instead of searching.

use hexgames_core::andantino::{Board, Rules};
use hexgames_core::proof::{Goal, ProofLimits, Prover, Verdict};
use hexgames_core::search::alphabeta::{AlphaBeta, Options};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::Game;

#[allow(dead_code)] // (not every helper of the examples is used here)
mod common;
use common::{cpu_seconds, median};

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

/// Search every position once with the replies on or off: (nodes, CPU seconds of the
/// searches, positions settled), printing a line a position when `verbose`.
fn run(
    prover: &mut Prover,
    boards: &[(u64, Board)],
    budget: u64,
    replies: bool,
    verbose: bool,
) -> (u64, f64, usize) {
    prover.set_replies(replies);
    let (mut nodes, mut seconds, mut settled) = (0, 0.0, 0);
    for (seed, g) in boards {
        prover.clear();
        let goal = Goal {
            attacker: g.turn(),
            draw_ok: false,
        };
        let limits = ProofLimits {
            time: None,
            nodes: Some(budget),
        };
        let cpu = cpu_seconds().unwrap_or(f64::NAN);
        let report = prover.prove(g, goal, limits).expect("a position in play");
        seconds += cpu_seconds().unwrap_or(f64::NAN) - cpu;
        nodes += report.nodes;
        settled += usize::from(report.verdict != Verdict::Unknown);
        if verbose {
            println!(
                "seed {seed:>3}: {:?} in {} nodes, {:.2} s",
                report.verdict, report.nodes, report.time
            );
        }
    }
    (nodes, seconds, settled)
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| raw.iter().any(|a| a == name);
    let rounds = raw
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| raw.get(i + 1))
        .map_or(1, |r| r.parse::<usize>().expect("a number of rounds"));
    let args: Vec<u64> = raw
        .iter()
        .enumerate()
        .filter(|&(i, a)| {
            !a.starts_with("--")
                && (i == 0 || !["--file", "--rounds"].contains(&raw[i - 1].as_str()))
        })
        .map(|(_, a)| a)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let left = args.first().copied().unwrap_or(12);
    let count = args.get(1).copied().unwrap_or(6) as usize;
    let budget = args.get(2).copied().unwrap_or(2_000_000);
    let first_seed = args.get(3).copied().unwrap_or(1);
    let file = raw
        .iter()
        .position(|a| a == "--file")
        .and_then(|i| raw.get(i + 1));
    let mut boards = Vec::new();
    if let Some(path) = file {
        // one position string a line ('#' a comment): the line number as the seed
        let text = std::fs::read_to_string(path).expect("a file of positions");
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with('#') {
                let g = Board::new(Some(line), Rules::default()).expect("a position");
                boards.push((i as u64 + 1, g));
            }
        }
    }
    let mut seed = first_seed;
    while file.is_none() && boards.len() < count {
        seed += 1;
        if let Some(g) = position(seed, left) {
            boards.push((seed, g));
        }
    }
    if flag("--print") {
        for (seed, g) in &boards {
            println!("# seed {seed}\n{}", g.position());
        }
        return;
    }
    let count = boards.len();
    let mut prover = Prover::new(256).expect("a table");
    let modes: &[bool] = if flag("--compare") {
        &[false, true]
    } else if flag("--old") {
        &[false]
    } else {
        &[true]
    };
    let mut rates = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        for &replies in modes {
            let verbose = round == 0;
            let (nodes, seconds, settled) = run(&mut prover, &boards, budget, replies, verbose);
            let rate = nodes as f64 / seconds;
            rates[usize::from(replies)].push(rate);
            println!(
                "N={left} {}: {settled} of {count} settled; {nodes} nodes, {seconds:.2} CPU s, \
                 {rate:.0} nodes per CPU second",
                if replies { "replies" } else { "old    " }
            );
        }
    }
    if modes.len() == 2 {
        let ratios: Vec<f64> = rates[1].iter().zip(&rates[0]).map(|(a, b)| a / b).collect();
        println!(
            "median nodes per CPU second: old {:.0}, replies {:.0}; median ratio {:.2}",
            median(rates[0].clone()),
            median(rates[1].clone()),
            median(ratios)
        );
    }
}
