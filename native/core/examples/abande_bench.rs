//! Abande speed: uniformly random playouts from the start and perft, in release mode.
//!
//!     cargo run --release -p hexgames-core --example abande_bench [rounds] [seconds]
//!
//! Prints one line per round and the medians: playouts per second of wall-clock time,
//! and (on Linux) per second this thread spent on a CPU, which a busy machine disturbs
//! less.

use std::time::Instant;

use hexgames_core::abande::{Board, Rules};
use hexgames_core::perft::perft;
use hexgames_core::playout::random_playouts;

mod common;
use common::{cpu_seconds, median, per_cpu_second};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let seconds: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2.0);
    let mut rates = Vec::new();
    let mut cpu_rates = Vec::new();
    let mut perft_times = Vec::new();
    for round in 0..rounds {
        let mut board = Board::new(None, Rules::default()).expect("the start");
        let cpu_start = cpu_seconds();
        let stats = random_playouts(&mut board, None, Some(seconds), round as u64, || false);
        let rate = stats.playouts as f64 / stats.seconds;
        let cpu_rate = per_cpu_second(stats.playouts as f64, cpu_start);
        let start = Instant::now();
        let leaves = perft(&mut board, 5);
        let perft_seconds = start.elapsed().as_secs_f64();
        println!(
            "round {round}: {rate:.0} playouts/s, {cpu_rate:.0} per CPU second ({} playouts, \
             {:.1} plies each), perft(5) = {leaves} in {:.4} s",
            stats.playouts,
            stats.plies as f64 / stats.playouts as f64,
            perft_seconds
        );
        rates.push(rate);
        cpu_rates.push(cpu_rate);
        perft_times.push(perft_seconds);
    }
    println!(
        "median: {:.0} playouts/s, {:.0} per CPU second, perft(5) {:.4} s",
        median(rates),
        median(cpu_rates),
        median(perft_times)
    );
}
