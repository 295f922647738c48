//! What the examples share: this thread's CPU time, the median of a round's figures,
//! and positions of seeded random play. (A folder without `main.rs`, so Cargo builds no
//! example of its own from it.)

use hexgames_core::zobrist::Rng;
use hexgames_core::Game;

/// This thread's CPU time (user + system) in seconds, where Linux tells it
/// (`/proc/thread-self/stat`, in clock ticks of 1/100 s): it stays meaningful on a
/// machine shared with other work.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which ends at the last ')'): utime and stime are
    // the 12th and 13th, in clock ticks (100 a second on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// `count` per second of this thread's CPU time since `start` (a [`cpu_seconds`]
/// reading), or NaN where the CPU time is unknown or did not advance.
pub fn per_cpu_second(count: f64, start: Option<f64>) -> f64 {
    match (start, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => count / (b - a),
        _ => f64::NAN,
    }
}

/// The median of the numbers of `xs` (the upper one of an even count; NaNs, unknown
/// rates, left out); NaN for none.
pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.retain(|x| !x.is_nan());
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// A position after `plies` seeded random plies from `start` (fewer if the game ends:
/// then the last position whose game goes on). Through the [`Game`] trait only, so the
/// positions do not depend on the search code.
#[allow(dead_code)] // (not every example plays at random)
pub fn random_play<G: Game>(start: &G, seed: u64, plies: usize) -> G {
    let mut rng = Rng::new(seed);
    let mut g = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let Some(mv) = g.random_move(&mut rng, &mut moves) else {
            break;
        };
        g.push(mv);
        if g.result().is_some() {
            g.pop();
            break;
        }
    }
    g
}
