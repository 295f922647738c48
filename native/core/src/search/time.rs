//! Time management of the alpha-beta search: how much of a move's time or of a game
//! clock one move may take.
//!
//! - **A per-move time** ([`Limits::time`]): the search runs until just before the
//!   budget (a small margin for the caller's own work), whatever iteration it is in;
//!   the move is the best of the last completed iteration, or of the current one once
//!   its first move has been searched and beaten.
//! - **A game clock** ([`Limits::clock`], [`Limits::increment`]): a soft budget of the
//!   time left shared over the moves still to come (at most [`MOVES_TO_GO`], fewer near
//!   the end of the game) plus most of the increment, and a hard budget of a few soft
//!   budgets (never more than a fraction of the clock). Between iterations the soft
//!   budget is scaled by [`TimeManager::factor`]: up when the best move keeps changing or
//!   the score falls, down when the best move has stayed the same for several
//!   iterations; a new iteration starts only while the elapsed time is below
//!   [`NEXT_ITERATION`] of the scaled budget (the next one would take several times
//!   as long). A single legal move or a proven result ends the search at once (the
//!   search's own rule).
//!
//! The scheme is the textbook one (soft/hard budgets, stability and score-drop
//! scaling, as in Stockfish's time manager), with this project's constants.

use std::time::{Duration, Instant};

use super::{Limits, TimeBudget};

/// The most moves the time left is shared over.
pub const MOVES_TO_GO: f64 = 30.0;
/// The share of the increment a move may spend on top of its part of the clock.
pub const INCREMENT_SHARE: f64 = 0.75;
/// The hard budget in soft budgets.
pub const HARD_FACTOR: f64 = 4.0;
/// The hard budget never exceeds this share of the time left.
pub const HARD_SHARE: f64 = 0.4;
/// A new iteration starts only below this share of the scaled soft budget.
pub const NEXT_ITERATION: f64 = 0.6;
/// Seconds kept back from a per-move time for the caller's own work.
pub const MOVE_MARGIN: f64 = 0.003;

/// The budgets of one move and what the search has seen so far.
#[derive(Clone, Debug)]
pub struct TimeManager {
    pub budget: TimeBudget,
    /// Whether a game clock (not a per-move time) sets the budget: only then do the
    /// soft budget and its scaling apply.
    pub clock: bool,
    best_changes: f64,
    stable: u32,
    last_best: Option<u64>,
    last_score: Option<i32>,
    drop: i32,
}

/// The longest time any search or playout batch is given, in seconds (about 31 years):
/// a longer limit means "no time limit" in practice and must not overflow a `Duration`.
pub const MAX_SECONDS: f64 = 1.0e9;

/// `s` seconds as a [`Duration`], clamped to `0..=MAX_SECONDS` (NaN counts as 0), so no
/// limit a caller passes can make `Duration::from_secs_f64` panic.
pub fn seconds(s: f64) -> Duration {
    if s.is_nan() {
        return Duration::ZERO;
    }
    Duration::from_secs_f64(s.clamp(0.0, MAX_SECONDS))
}

impl TimeManager {
    /// The budgets for one move under `limits`; `moves_left` is an estimate of the
    /// moves the mover has still to play in this game (at least 1).
    pub fn new(limits: &Limits, moves_left: u32, start: Instant) -> TimeManager {
        let mut soft = None;
        let mut hard = None;
        let mut clock = false;
        if let Some(left) = limits.clock {
            clock = true;
            let inc = limits.increment.unwrap_or(0.0);
            let to_go = MOVES_TO_GO.min(moves_left.max(1) as f64);
            let base = left / to_go + INCREMENT_SHARE * inc;
            let cap = (left * HARD_SHARE).max(0.0);
            let s = base.min(cap);
            soft = Some(s);
            hard = Some((s * HARD_FACTOR).min(cap.max(s)));
        }
        if let Some(t) = limits.time {
            let t = (t - MOVE_MARGIN.min(t * 0.1)).max(0.0);
            hard = Some(hard.map_or(t, |h: f64| h.min(t)));
            soft = Some(soft.map_or(t, |s: f64| s.min(t)));
        }
        TimeManager {
            budget: TimeBudget {
                start,
                soft: soft.map(seconds),
                hard: hard.map(seconds),
            },
            clock,
            best_changes: 0.0,
            stable: 0,
            last_best: None,
            last_score: None,
            drop: 0,
        }
    }

    /// Note the result of a completed iteration: its best move (by id) and score.
    pub fn iteration(&mut self, best: u64, score: i32) {
        self.best_changes *= 0.5;
        if self.last_best.is_some_and(|b| b != best) {
            self.best_changes += 1.0;
            self.stable = 0;
        } else {
            self.stable += 1;
        }
        if let Some(last) = self.last_score {
            self.drop = (last - score).max(0);
        }
        self.last_best = Some(best);
        self.last_score = Some(score);
    }

    /// The scale of the soft budget from what the iterations showed: 0.6 to 2.5.
    pub fn factor(&self) -> f64 {
        let instability = 1.0 + 0.8 * self.best_changes;
        let falling = 1.0 + (self.drop as f64 / 100.0).min(1.0);
        let settled = if self.stable >= 4 { 0.75 } else { 1.0 };
        (instability * falling * settled).clamp(0.6, 2.5)
    }

    /// Whether to start another iteration.
    pub fn next_iteration(&self) -> bool {
        if self.budget.hard_expired() {
            return false;
        }
        match (self.clock, self.budget.soft) {
            (true, Some(soft)) => {
                let limit = soft.as_secs_f64() * self.factor() * NEXT_ITERATION;
                self.budget.elapsed().as_secs_f64() < limit
            }
            _ => true, // a per-move time: go on until the hard limit stops the search
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(time: Option<f64>, clock: Option<f64>, inc: Option<f64>) -> Limits {
        Limits {
            time,
            clock,
            increment: inc,
            ..Limits::default()
        }
    }

    #[test]
    fn seconds_never_overflow() {
        assert_eq!(seconds(f64::NAN), Duration::ZERO);
        assert_eq!(seconds(-1.0), Duration::ZERO);
        assert_eq!(seconds(1e300), Duration::from_secs_f64(MAX_SECONDS));
        assert_eq!(seconds(f64::INFINITY), Duration::from_secs_f64(MAX_SECONDS));
        assert_eq!(seconds(1.5), Duration::from_millis(1500));
    }

    #[test]
    fn per_move_time_uses_nearly_all_of_it() {
        let tm = TimeManager::new(&limits(Some(1.0), None, None), 20, Instant::now());
        let hard = tm.budget.hard.unwrap().as_secs_f64();
        assert!((0.99..1.0).contains(&hard), "{hard}");
        assert!(tm.next_iteration());
    }

    #[test]
    fn clock_budgets() {
        let tm = TimeManager::new(&limits(None, Some(60.0), Some(1.0)), 40, Instant::now());
        let soft = tm.budget.soft.unwrap().as_secs_f64();
        let hard = tm.budget.hard.unwrap().as_secs_f64();
        assert!((soft - (2.0 + 0.75)).abs() < 1e-9);
        assert!((hard - 4.0 * soft).abs() < 1e-9);
        // Few moves left: more of the clock each, the hard budget capped by the clock.
        let tm = TimeManager::new(&limits(None, Some(10.0), None), 2, Instant::now());
        assert!((tm.budget.soft.unwrap().as_secs_f64() - 4.0).abs() < 1e-9);
        assert!((tm.budget.hard.unwrap().as_secs_f64() - 4.0).abs() < 1e-9);
        // A per-move time caps a clock's budgets.
        let tm = TimeManager::new(&limits(Some(0.5), Some(60.0), None), 40, Instant::now());
        assert!(tm.budget.hard.unwrap().as_secs_f64() < 0.5);
    }

    #[test]
    fn instability_stretches_and_stability_shrinks() {
        let mut tm = TimeManager::new(&limits(None, Some(60.0), None), 40, Instant::now());
        assert_eq!(tm.factor(), 1.0);
        for (best, score) in [(1, 10), (2, 10), (1, 10), (2, 10)] {
            tm.iteration(best, score);
        }
        assert!(tm.factor() > 1.5, "{}", tm.factor());
        let mut calm = TimeManager::new(&limits(None, Some(60.0), None), 40, Instant::now());
        for _ in 0..8 {
            calm.iteration(1, 10);
        }
        assert!(calm.factor() < 1.0);
        let mut falling = TimeManager::new(&limits(None, Some(60.0), None), 40, Instant::now());
        falling.iteration(1, 100);
        falling.iteration(1, 0);
        assert!(falling.factor() > 1.5);
    }
}
