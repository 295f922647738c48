//! Search: what every player of the native core shares (limits, the stop flag, the
//! clock, progress reports). The players are in submodules.
//!
//! A search runs on its own copy of a position (the caller's game is never changed),
//! checks its limits and the [`Stop`] flag as it works, and reports an [`Info`] as it
//! deepens. A time limit or a stop is honoured within a few milliseconds on any position
//! the rules allow, however much one node or one playout costs there (an extended-play
//! Andantino position of 500 tiles a side has some 500,000 moves): alpha-beta and the
//! Abande solver look at the clock by nodes and by time, MCTS and greedy by the work
//! done ([`Watch`]), inside a playout or a node's list of replies too. docs/limits.md,
//! "Searches", gives the measured latencies.

// The alpha-beta player (its table and time manager; each game's evaluation is in the
// game's `ai` module).
pub mod alphabeta;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicU64, Ordering};
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
/// thread, the binding on Ctrl-C). Cloning shares it.
///
/// The calls of a searcher are numbered: a caller takes a number with [`Stop::begin`]
/// as its call begins and makes it the running one with [`Stop::enter`] once it holds
/// the searcher; [`Stop::set`] stops every call numbered so far. So a stop that comes
/// after a call began but before its search looked at the flag is kept, and a stop
/// that comes when no search runs (or as one ends) does not end the next call. (A
/// plain flag cleared at each search's start lost the first kind: a stop 0.2 s into a
/// call whose big position took longer to copy was cleared, and the search ran its
/// whole minute.)
#[derive(Clone, Debug)]
pub struct Stop(Arc<Calls>);

/// The numbers of [`Stop`]: calls begun, the running call, and the last call to stop.
#[derive(Debug)]
struct Calls {
    begun: AtomicU64,
    running: AtomicU64,
    stop_upto: AtomicU64,
}

impl Default for Stop {
    fn default() -> Self {
        Stop::new()
    }
}

impl Stop {
    /// A new stop, not set: its first call (number 1) is running.
    pub fn new() -> Self {
        Stop(Arc::new(Calls {
            begun: AtomicU64::new(1),
            running: AtomicU64::new(1),
            stop_upto: AtomicU64::new(0),
        }))
    }

    /// Stop every call begun so far (the running search returns its best move so far).
    pub fn set(&self) {
        let begun = self.0.begun.load(Ordering::SeqCst);
        self.0.stop_upto.fetch_max(begun, Ordering::SeqCst);
    }

    /// Number a new call (as it begins, before it waits for the searcher).
    pub fn begin(&self) -> u64 {
        self.0.begun.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Make call `number` (from [`Stop::begin`]) the running one: the flag is set now
    /// if a stop came since the call began.
    pub fn enter(&self, number: u64) {
        self.0.running.store(number, Ordering::SeqCst);
    }

    /// Begin a new call and make it the running one (a search with no earlier point
    /// at which its call began).
    pub fn clear(&self) {
        self.enter(self.begin());
    }

    /// Whether the running call is to stop.
    #[inline]
    pub fn is_set(&self) -> bool {
        self.0.stop_upto.load(Ordering::Acquire) >= self.0.running.load(Ordering::Acquire)
    }
}

/// How a search looks at its limits while it works: the [`Stop`] flag, a deadline and
/// the caller's own poll (the binding's Ctrl-C check), by the work done rather than at
/// fixed points, so that a step of any cost ends within about a millisecond of a limit.
///
/// The searcher counts units of work with [`Watch::tick`] (a simulation, a playout ply,
/// a reply pushed; a long list counts one unit per [`Watch::UNIT_MOVES`] moves) and the
/// watch looks at the clock, the flag and the poll once the units since its last look
/// reach its stride. The stride adapts, from 1 to [`Watch::MAX_STRIDE`] units, so that
/// looks come about every [`Watch::LOOK_EVERY`]: a unit costs 50 ns in a standard
/// playout and 20 us in one of 1,000 tiles, and both look about as often. The flag
/// alone (an atomic load) can be read at every step with [`Watch::stop_set`].
pub struct Watch<'a> {
    stop: &'a Stop,
    deadline: Option<Instant>,
    poll: &'a mut dyn FnMut() -> bool,
    work: u64,
    stride: u64,
    last: Instant,
    done: bool,
}

impl<'a> Watch<'a> {
    /// The time between two looks the stride aims at.
    pub const LOOK_EVERY: Duration = Duration::from_micros(500);
    /// The most units between two looks.
    pub const MAX_STRIDE: u64 = 64;
    /// Moves of a list (a node's expansion, a move generation) that count as one unit.
    pub const UNIT_MOVES: u64 = 64;

    /// A watch of `stop`, `deadline` and `poll` (true: stop), starting now.
    pub fn new(
        stop: &'a Stop,
        deadline: Option<Instant>,
        poll: &'a mut dyn FnMut() -> bool,
    ) -> Watch<'a> {
        Watch {
            stop,
            deadline,
            poll,
            work: 0,
            stride: 8,
            last: Instant::now(),
            done: false,
        }
    }

    /// Count `units` of work; whether the search must stop (looking at the limits if
    /// the stride is reached, else as found at the last look).
    #[inline]
    pub fn tick(&mut self, units: u64) -> bool {
        self.work += units;
        if self.work >= self.stride && !self.done {
            self.look();
        }
        self.done
    }

    /// Whether the search must stop: the flag now, or a limit seen at the last look.
    #[inline]
    pub fn stop_set(&self) -> bool {
        self.done || self.stop.is_set()
    }

    /// When the watch last looked at the clock.
    #[inline]
    pub fn last_look(&self) -> Instant {
        self.last
    }

    #[cold]
    fn look(&mut self) {
        let now = Instant::now();
        let gap = now.saturating_duration_since(self.last);
        self.last = now;
        if gap < Self::LOOK_EVERY / 2 {
            self.stride = (self.stride * 2).min(Self::MAX_STRIDE);
        } else if gap > Self::LOOK_EVERY * 2 {
            self.stride = (self.stride / 2).max(1);
        }
        self.work = 0;
        self.done = self.stop.is_set() || self.deadline.is_some_and(|d| now >= d) || (self.poll)();
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
    /// The principal variation, as move texts (docs/notation.md) from the searched position.
    pub pv: Vec<String>,
    /// Positions visited (alpha-beta) or simulations (MCTS).
    pub nodes: u64,
    /// Seconds since the search began.
    pub time: f64,
    /// With MultiPV (alpha-beta's `multipv` above 1), the iteration's root lines, best
    /// first, each with its own score and PV (in a progress report; empty otherwise).
    pub lines: Vec<Info>,
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

#[cfg(test)]
pub(crate) mod big;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watch_sees_the_flag_the_deadline_and_the_poll() {
        let stop = Stop::new();
        let mut never = || false;
        let mut w = Watch::new(&stop, None, &mut never);
        assert!((0..10_000).all(|_| !w.tick(1)));
        stop.set();
        assert!(w.stop_set());
        assert!((0..=Watch::MAX_STRIDE).any(|_| w.tick(1)));
        let stop = Stop::new();
        let past = Instant::now();
        let mut w = Watch::new(&stop, Some(past), &mut never);
        assert!(!w.stop_set());
        assert!((0..=Watch::MAX_STRIDE).any(|_| w.tick(1)));
        assert!(
            w.tick(0) && w.stop_set(),
            "a watch that stopped stays stopped"
        );
        let mut calls = 0;
        let mut poll = || {
            calls += 1;
            calls >= 3
        };
        let mut w = Watch::new(&stop, None, &mut poll);
        assert!((0..1000).any(|_| w.tick(Watch::MAX_STRIDE)));
    }

    #[test]
    fn a_stop_reaches_the_calls_begun_before_it_and_no_later_one() {
        let stop = Stop::new();
        assert!(!stop.is_set());
        stop.set();
        assert!(stop.is_set(), "a stop stops the running call");
        // a stop with no search running does not end the next call
        stop.clear();
        assert!(!stop.is_set());
        // a stop that comes after a call began, before it entered its search, is kept
        let call = stop.begin();
        stop.set();
        stop.enter(call);
        assert!(stop.is_set());
        // two calls begun (one running, one waiting): one stop ends both
        let first = stop.begin();
        stop.enter(first);
        let second = stop.begin();
        assert!(!stop.is_set());
        stop.set();
        assert!(stop.is_set());
        stop.enter(second);
        assert!(stop.is_set(), "the waiting call was stopped too");
        // a call begun after the stop is not affected
        let third = stop.begin();
        stop.enter(third);
        assert!(!stop.is_set());
        // clones share the calls
        let other = stop.clone();
        other.set();
        assert!(stop.is_set());
    }

    #[test]
    fn the_stride_follows_the_cost_of_a_unit() {
        let stop = Stop::new();
        let mut never = || false;
        let mut w = Watch::new(&stop, None, &mut never);
        for _ in 0..1000 {
            w.tick(1); // cheap units: the stride grows to its most
        }
        assert_eq!(w.stride, Watch::MAX_STRIDE);
        let start = Instant::now();
        while w.stride > 1 && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Watch::LOOK_EVERY * 3); // dear units: it shrinks to one
            w.tick(1);
        }
        assert_eq!(w.stride, 1);
    }
}

// --- Monte Carlo tree search and the greedy player (the Abande endgame solver, which
// knows its game, is `abande::ai::solver`) ---
pub mod greedy;
pub mod mcts;
