//! Speed of the Andantino core: uniformly random playouts per second from the standard
//! start (`hexgames_core::playout::random_playouts`) and perft(9), in release mode:
//!
//!     cargo run --release -p hexgames-core --example andantino_speed [seconds] [rounds]
//!
//! Prints each round and the medians: per second of wall-clock time, and per second of
//! this thread's CPU time (Linux: `/proc/thread-self/stat`), which stays meaningful on a
//! machine shared with other work.

use std::time::Instant;

use hexgames_core::andantino::{Board, Rules};
use hexgames_core::perft::perft;
use hexgames_core::playout::random_playouts;

mod common;
use common::{cpu_seconds, median, per_cpu_second};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5);
    let Ok(mut board) = Board::new(None, Rules::default()) else {
        return;
    };
    let (mut rates, mut cpu_rates) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let cpu = cpu_seconds();
        let stats = random_playouts(&mut board, None, Some(seconds), round as u64, || false);
        let rate = stats.playouts as f64 / stats.seconds;
        let cpu_rate = per_cpu_second(stats.playouts as f64, cpu);
        println!(
            "round {round}: {} playouts, {:.1} plies each, {rate:.0} playouts/s, {cpu_rate:.0} \
             per CPU second",
            stats.playouts,
            stats.plies as f64 / stats.playouts as f64
        );
        rates.push(rate);
        cpu_rates.push(cpu_rate);
    }
    println!(
        "median: {:.0} playouts/s, {:.0} per CPU second",
        median(rates),
        median(cpu_rates)
    );
    let start = Instant::now();
    let nodes = perft(&mut board, 9);
    println!(
        "perft(9) = {nodes} in {:.3} s",
        start.elapsed().as_secs_f64()
    );
}
