//! Search: what every player of the native core shares (limits, the stop flag, the
//! clock, progress reports). The players are in submodules.
//!
//! A search runs on its own copy of a position (the caller's game is never changed),
//! checks its limits and the [`Stop`] flag every few hundred nodes, and reports an
//! [`Info`] as it deepens. A stop is honoured within a few milliseconds.

// The alpha-beta player (its table, evaluations and time manager).
pub mod alphabeta;
pub mod eval_abande;
pub mod eval_andantino;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When a search stops: the first limit reached ends it. With none set, a player uses
/// its own default.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Seconds of wall-clock time for this move.
    pub time: Option<f64>,
    /// Positions visited (alpha-beta) or simulations (MCTS).
    pub nodes: Option<u64>,
    /// Plies of full-width search (alpha-beta).
    pub depth: Option<u32>,
    /// Seconds left on the mover's game clock (the time manager then decides how much
    /// of it this move gets, see [`TimeBudget`]).
    pub clock: Option<f64>,
    /// Seconds added to the mover's clock after each move (Fischer increment).
    pub increment: Option<f64>,
}

impl Limits {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        self.time.is_none() && self.nodes.is_none() && self.depth.is_none() && self.clock.is_none()
    }
}

/// A stop request shared between a running search and whoever may stop it (another
/// thread, the binding on Ctrl-C). Cloning shares the flag.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A new, unset flag.
    pub fn new() -> Self {
        Stop(Arc::new(AtomicBool::new(false)))
    }

    /// Ask the search to stop soon and return its best move so far.
    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Clear the flag (at the start of a search).
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How much time one move may take: a soft limit (do not start another iteration past
/// it; a time manager may stretch it when the search is unsettled) and a hard limit
/// (stop at once). Both are `None` without a time limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeBudget {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl TimeBudget {
    /// The elapsed time since the search began.
    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// Whether the soft limit has passed.
    #[inline]
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s)
    }
}

/// What a search has found so far, as it reports it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Info {
    /// Completed depth in plies (alpha-beta), or the deepest tree path (MCTS).
    pub depth: u32,
    /// Deepest ply reached, extensions included.
    pub seldepth: u32,
    /// The evaluation for the side to move in the player's points (`None` for MCTS or a
    /// proven result).
    pub eval: Option<i32>,
    /// The chance (0 to 1) that the side to move wins, draws counting one half.
    pub score: f64,
    /// `n` when the side to move wins by force in `n` plies, `-n` when it loses in `n`.
    pub mate: Option<i32>,
    /// The principal variation, as move texts (NOTATION.md) from the searched position.
    pub pv: Vec<String>,
    /// Positions visited (alpha-beta) or simulations (MCTS).
    pub nodes: u64,
    /// Seconds since the search began.
    pub time: f64,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        if self.time > 0.0 {
            self.nodes as f64 / self.time
        } else {
            0.0
        }
    }
}

/// The logistic win probability of an evaluation of `points` at `scale` points (the
/// Python engine's `win_probability`: 1 / (1 + exp(-points / scale))).
pub fn win_probability(points: f64, scale: f64) -> f64 {
    let x = points / scale;
    if x > 40.0 {
        1.0
    } else if x < -40.0 {
        0.0
    } else {
        1.0 / (1.0 + (-x).exp())
    }
}

// --- Monte Carlo tree search, the Abande endgame solver, the greedy player ---
pub mod greedy;
pub mod mcts;
pub mod solver;
