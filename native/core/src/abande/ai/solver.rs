//! The exact Abande solver: the final score difference under perfect play of any
//! position, with pieces in hand or not (hexgames 0.1's pure-Python `solve` handled only
//! empty hands).
//!
//! Abande is finite (docs/rules.md, "End"): every entry empties a hand by one, every
//! capture joins two stacks, a pass needs an empty hand and two passes in succession end
//! the game. So a full search settles any position; what limits it is size, and the
//! pieces in hand decide that (see `benchmarks/bench_abande_exact.py`). The search is
//! negamax with alpha-beta pruning (Knuth and Moore, "An analysis of alpha-beta
//! pruning", Artificial Intelligence 1975) on the final score difference (the side to
//! move's awake-stack score minus the opponent's), fail-soft, with a transposition table
//! keyed by the full Zobrist key holding a lower and an upper bound and the best move of
//! each position searched, and this move order: the table move; the pass when the
//! opponent has just passed (it ends the game, so its value is the score now and costs no
//! search); then the other moves best for the mover first, by the evaluation of the
//! alpha-beta player ([`evaluate`]) in the first `ORDER_PLIES` (6) plies and by the score
//! difference right after them deeper down. In those first plies the children's table
//! entries are probed before any is searched: the enhanced transposition cutoff
//! (Plaat, Schaeffer, Pijls and de Bruin, "Exploiting graph properties of game trees",
//! AAAI 1996).
//!
//! The sign of the best score difference is the game result under perfect play (the sign
//! is monotone, so it commutes with minimax). Every solve first searches the window -1 to
//! 1, which settles the sign (the result-only mode stops there); the exact mode then
//! finds the difference by MTD(f) from that bound (null-window searches, each moving a
//! bound, `Search::mtdf`), which took 1.5 s where one full-window search took 2.5 s
//! on ten positions with two pieces in hand (`examples/abande_exact.rs`, measured
//! while the ordering was by the score alone).
//!
//! The table has a fixed size (buckets of four entries, the entry with the least work
//! below it replaced first); it only saves work, so a full table never changes a value.

use std::time::Instant;

use crate::abande::ai::eval::evaluate;
use crate::abande::board::MAX_PLIES;
use crate::abande::{Board, Move};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::memory::zeroed_words;
use crate::search::Stop;

/// Beyond any score difference.
const INF: i32 = 1 << 20;
/// Positions between looks at the limits.
const CHECK_EVERY: u64 = 1024;
/// The largest table, in MB.
pub const MAX_TABLE_MB: u64 = 1 << 16;

/// What [`Solver::solve`] proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// The game result for the side to move under perfect play: +1 a win, 0 a draw, -1 a
    /// loss.
    pub value: i32,
    /// A move that reaches that result (with the exact score, the one with the best final
    /// difference); `None` if the game is already over.
    pub best: Option<Move>,
    /// The final (Black, White) score at the end of the principal line.
    pub score: (u32, u32),
    /// Positions searched (table hits included).
    pub nodes: u64,
    /// The final score difference for the side to move at the end of the principal line:
    /// the best difference under perfect play when solved with the exact score.
    pub diff: i32,
    /// The principal line, from the position to the end of the game.
    pub pv: Vec<Move>,
}

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solve {
    /// The position is solved.
    Solved(SolveResult),
    /// A limit, the stop flag or an interruption came first, after this many positions.
    GaveUp { nodes: u64 },
}

/// A transposition table entry (16 bytes): bounds on the value, the best move, and the
/// work (log2 of the positions) below it.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    mv: u16,
    /// 0 for an empty entry.
    work: u16,
}

/// The plies from the root at which the moves are ordered by the evaluation
/// ([`evaluate`]) rather than by the score alone, and the children's table entries are
/// probed for enhanced transposition cutoffs: near the root the subtrees are big
/// enough to pay for both. Measured with `examples/abande_exact.rs` (10 positions with
/// 4 pieces in hand, 10 s each): 3, 4, 6, 9 and 10 plies solved the same positions;
/// 6 took the least time (25.5 s for all, against 36.8 s probing at every ply).
const ORDER_PLIES: usize = 6;
const NO_MOVE: u16 = u16::MAX;

fn pack(mv: Move) -> u16 {
    let f = mv.from().map_or(0xff, |b| b as u16);
    let t = mv.to().map_or(0xff, |b| b as u16);
    f << 8 | t
}

fn unpack(code: u16) -> Option<Move> {
    if code == NO_MOVE {
        return None;
    }
    let (f, t) = ((code >> 8) as u32, (code & 0xff) as u32);
    Some(match (f, t) {
        (0xff, 0xff) => Move::PASS,
        (0xff, t) => Move::entry(t),
        (f, t) => Move::stack(f, t),
    })
}

fn to_i16(v: i32) -> i16 {
    v.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn from_i16(v: i16) -> i32 {
    match v {
        i16::MIN => -INF,
        i16::MAX => INF,
        v => v as i32,
    }
}

/// Bounds and the best move of a position.
#[derive(Clone, Copy, Debug)]
struct Probe {
    lower: i32,
    upper: i32,
    mv: Option<Move>,
}

/// The transposition table: `2^k` buckets of four entries, each two words (the key, and
/// the bounds, move and work packed: see [`Entry::word`]; an empty entry is all 0). The
/// words come zeroed from the allocator (calloc), so the system gives their pages as
/// the search first touches them, and an empty table is not cleared again.
struct Table {
    words: Vec<u64>,
    mask: usize,
    /// Whether an entry was stored since the table was made or cleared.
    used: bool,
}

const BUCKET: usize = 4;

impl Entry {
    /// The entry's fields but the key as one word: lower, upper, move, work, 16 bits each.
    fn word(&self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.mv) << 32
            | u64::from(self.work) << 48
    }

    fn of(key: u64, word: u64) -> Entry {
        Entry {
            key,
            lower: word as u16 as i16,
            upper: (word >> 16) as u16 as i16,
            mv: (word >> 32) as u16,
            work: (word >> 48) as u16,
        }
    }
}

impl Table {
    fn new(mb: u64) -> Result<Table> {
        if !(1..=MAX_TABLE_MB).contains(&mb) {
            return Err(Error::InvalidArgument(format!(
                "table_mb must be from 1 to {MAX_TABLE_MB}, not {mb}"
            )));
        }
        let bytes = (mb as usize).saturating_mul(1 << 20);
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Entry>())).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let words = zeroed_words(buckets * BUCKET * 2).ok_or_else(|| {
            Error::InvalidArgument(format!("not enough memory for a solver table of {mb} MB"))
        })?;
        Ok(Table {
            words,
            mask: buckets - 1,
            used: false,
        })
    }

    fn clear(&mut self) {
        if self.used {
            self.words.fill(0);
        }
        self.used = false;
    }

    /// The index of the first word of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET * 2
    }

    /// The entries of `key`'s bucket.
    #[inline]
    fn entries(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        let b = self.bucket(key);
        self.words[b..b + 2 * BUCKET]
            .chunks_exact(2)
            .map(|w| Entry::of(w[0], w[1]))
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<Probe> {
        self.entries(key)
            .find(|e| e.work != 0 && e.key == key)
            .map(|e| Probe {
                lower: from_i16(e.lower),
                upper: from_i16(e.upper),
                mv: unpack(e.mv),
            })
    }

    #[inline]
    fn store(&mut self, key: u64, lower: i32, upper: i32, mv: Option<Move>, nodes: u64) {
        let work = (64 - nodes.leading_zeros()) as u16 + 1;
        let mut bucket = [Entry::default(); BUCKET];
        for (slot, e) in bucket.iter_mut().zip(self.entries(key)) {
            *slot = e;
        }
        let i = bucket
            .iter()
            .position(|e| e.work != 0 && e.key == key)
            .or_else(|| bucket.iter().position(|e| e.work == 0))
            .unwrap_or_else(|| (0..BUCKET).min_by_key(|&i| bucket[i].work).unwrap_or(0));
        let entry = Entry {
            key,
            lower: to_i16(lower),
            upper: to_i16(upper),
            mv: mv.map_or(NO_MOVE, pack),
            work,
        };
        let at = self.bucket(key) + 2 * i;
        self.words[at] = key;
        self.words[at + 1] = entry.word();
        self.used = true;
    }
}

/// Gave up: a limit or a stop.
struct Abort;

/// One solve's search state.
struct Search<'a> {
    board: Board,
    table: &'a mut Table,
    nodes: u64,
    max_nodes: Option<u64>,
    deadline: Option<Instant>,
    stop: &'a Stop,
    interrupted: &'a mut dyn FnMut() -> bool,
    /// Move lists by ply from the root (reused).
    lists: Vec<Vec<Move>>,
    /// (key, index, move) of the moves to sort (reused).
    keyed: Vec<(i32, u32, Move)>,
}

impl Search<'_> {
    /// The score difference for the side to move if the game ended now.
    #[inline]
    fn diff_now(&self) -> i32 {
        let (black, white) = self.board.score();
        let d = black as i32 - white as i32;
        if self.board.turn() == 0 {
            d
        } else {
            -d
        }
    }

    #[inline]
    fn count(&mut self) -> std::result::Result<(), Abort> {
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0
            && (self.max_nodes.is_some_and(|m| self.nodes > m)
                || self.deadline.is_some_and(|d| Instant::now() > d)
                || self.stop.is_set()
                || (self.interrupted)())
        {
            return Err(Abort);
        }
        Ok(())
    }

    /// The legal moves into `self.lists[ply]`, best first: the table move, the pass
    /// that ends the game, then by the opponent's score difference right after the move
    /// (smallest first; ties in the board's order). On the way, the enhanced
    /// transposition cutoff: a child whose table bounds already prove a value of at
    /// least `beta` here ends the node with that value (returned with the move).
    fn order(&mut self, ply: usize, table_move: Option<Move>, beta: i32) -> Option<(i32, Move)> {
        while self.lists.len() <= ply {
            self.lists.push(Vec::with_capacity(64));
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        Game::legal_moves(&self.board, &mut list);
        let mut cutoff = None;
        if list.len() > 1 {
            let passes = self.board.passes() > 0;
            let mover = self.board.turn();
            self.keyed.clear();
            let mut first: [Option<Move>; 2] = [None, None];
            for (i, &mv) in list.iter().enumerate() {
                if Some(mv) == table_move {
                    first[1] = first[0];
                    first[0] = Some(mv);
                } else if mv.is_pass() && passes {
                    if first[0].is_none() {
                        first[0] = Some(mv);
                    } else {
                        first[1] = Some(mv);
                    }
                } else {
                    self.board.push(mv);
                    let key = if ply < ORDER_PLIES {
                        let child = self.table.probe(self.board.zobrist());
                        if let Some(p) = child.filter(|p| -p.upper >= beta) {
                            self.board.pop();
                            cutoff = Some((-p.upper, mv));
                            break;
                        }
                        evaluate(&self.board) // the opponent's view: smallest first
                    } else {
                        let (black, white) = self.board.score();
                        let d = black as i32 - white as i32;
                        if mover == 0 {
                            -d
                        } else {
                            d
                        }
                    };
                    self.board.pop();
                    self.keyed.push((key, i as u32, mv));
                }
            }
            self.keyed.sort_unstable_by_key(|&(k, i, _)| (k, i));
            list.clear();
            list.extend(first.iter().flatten());
            list.extend(self.keyed.iter().map(|&(_, _, mv)| mv));
        }
        self.lists[ply] = list;
        cutoff
    }

    fn negamax(&mut self, ply: usize, alpha: i32, beta: i32) -> std::result::Result<i32, Abort> {
        self.count()?;
        let start_nodes = self.nodes;
        if self.board.is_game_over() {
            // The previous player's pass ended the game; the side to move sees it.
            return Ok(self.diff_now());
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let key = self.board.zobrist();
        let (mut lower, mut upper, mut table_move) = (-INF, INF, None);
        if let Some(p) = self.table.probe(key) {
            (lower, upper, table_move) = (p.lower, p.upper, p.mv);
            if lower >= beta {
                return Ok(lower);
            }
            if upper <= alpha {
                return Ok(upper);
            }
            if lower == upper {
                return Ok(lower);
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -INF;
        let mut best_move = None;
        if let Some((value, mv)) = self.order(ply, table_move, beta) {
            self.table.store(key, value, upper, Some(mv), 1);
            return Ok(value);
        }
        let passes = self.board.passes() > 0;
        for k in 0..self.lists[ply].len() {
            let mv = self.lists[ply][k];
            let value = if mv.is_pass() && passes {
                self.diff_now() // passing now ends the game as it stands
            } else {
                self.board.push(mv);
                let v = self.negamax(ply + 1, -beta, -alpha);
                self.board.pop();
                -v?
            };
            if value > best {
                best = value;
                best_move = Some(mv);
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if best <= alpha0 {
            upper = upper.min(best);
        } else if best >= beta0 {
            lower = lower.max(best);
        } else {
            (lower, upper) = (best, best);
        }
        self.table
            .store(key, lower, upper, best_move, self.nodes - start_nodes + 1);
        Ok(best)
    }

    /// The exact value of the root by MTD(f) (Plaat, Schaeffer, Pijls and de Bruin,
    /// "Best-first fixed-depth minimax algorithms", Artificial Intelligence 1996):
    /// null-window searches from the first guess `guess`, each moving a bound on the
    /// value, until the bounds meet; the table keeps what each pass learnt.
    fn mtdf(&mut self, guess: i32) -> std::result::Result<i32, Abort> {
        let (mut g, mut lower, mut upper) = (guess, -INF, INF);
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.negamax(0, beta - 1, beta)?;
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        Ok(g)
    }

    /// Moves from the position to the end of the game that keep the solved `value` for
    /// the side to move at every step: the exact difference, or with `exact` false only
    /// its sign. Leaves the board as it was.
    fn principal_line(
        &mut self,
        mut value: i32,
        exact: bool,
    ) -> std::result::Result<Vec<Move>, Abort> {
        let mut line = Vec::new();
        let result = (|| {
            while !self.board.is_game_over() {
                if line.len() > MAX_PLIES {
                    return Err(Abort);
                }
                let table_move = self.table.probe(self.board.zobrist()).and_then(|p| p.mv);
                let ply = line.len();
                self.order(ply, table_move, INF);
                let passes = self.board.passes() > 0;
                let mut found = false;
                for k in 0..self.lists[ply].len() {
                    let mv = self.lists[ply][k];
                    let child = if mv.is_pass() && passes {
                        self.diff_now()
                    } else {
                        self.board.push(mv);
                        // A window of one value around it (or around the draw): the
                        // search returns the value itself when it lies inside.
                        let centre = if exact { -value } else { 0 };
                        let v = self.negamax(ply + 1, centre - 1, centre + 1);
                        self.board.pop();
                        -v?
                    };
                    if child == value || (!exact && child.signum() == value.signum()) {
                        line.push(mv);
                        self.board.push(mv);
                        found = true;
                        break;
                    }
                }
                if !found {
                    // The value was exact, so some move keeps it; never give a wrong line.
                    return Err(Abort);
                }
                value = -value;
            }
            Ok(())
        })();
        for _ in 0..line.len() {
            self.board.pop();
        }
        result.map(|()| line)
    }
}

/// The exact Abande solver with its transposition table, kept between solves.
pub struct Solver {
    table: Table,
}

impl Solver {
    /// A solver with a table of `table_mb` megabytes.
    ///
    /// Errors: `Error::InvalidArgument` for a size outside 1 to [`MAX_TABLE_MB`], or
    /// one the allocator refuses.
    pub fn new(table_mb: u64) -> Result<Solver> {
        Ok(Solver {
            table: Table::new(table_mb)?,
        })
    }

    /// Forget every position (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solve `board` (which is not changed; pieces in hand or not): with `exact`, the
    /// exact final score difference (by MTD(f)), else only the result (the window -1 to 1:
    /// `value` is exact and `best` reaches it, but `diff`, `score` and `pv` are those of
    /// one line that keeps the result). Gives up after about `max_nodes` positions or
    /// `time` seconds, or when `stop` is set or `interrupted` returns true (both looked
    /// at every 1,024 positions).
    ///
    /// Errors: `Error::InvalidArgument` for a negative or NaN time.
    pub fn solve(
        &mut self,
        board: &Board,
        exact: bool,
        max_nodes: Option<u64>,
        time: Option<f64>,
        stop: &Stop,
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<Solve> {
        let start = Instant::now();
        if let Some(t) = time {
            if t.is_nan() || t < 0.0 {
                return Err(Error::InvalidArgument(format!(
                    "time must be 0 or more seconds, not {t}"
                )));
            }
        }
        let side = |score: (u32, u32), turn: u8| {
            let d = score.0 as i32 - score.1 as i32;
            if turn == 0 {
                d
            } else {
                -d
            }
        };
        if let Some(outcome) = board.outcome() {
            let diff = side(outcome.score, board.turn());
            return Ok(Solve::Solved(SolveResult {
                value: diff.signum(),
                best: None,
                score: outcome.score,
                nodes: 0,
                diff,
                pv: Vec::new(),
            }));
        }
        let mut search = Search {
            board: board.clone(),
            table: &mut self.table,
            nodes: 0,
            max_nodes,
            deadline: time.map(|t| start + crate::search::time::seconds(t)),
            stop,
            interrupted,
            lists: Vec::new(),
            keyed: Vec::new(),
        };
        let line = search
            .negamax(0, -1, 1)
            .and_then(|d| {
                if exact {
                    search.mtdf(d)
                } else {
                    Ok(d.signum())
                }
            })
            .and_then(|d| search.principal_line(d, exact));
        let Ok(line) = line else {
            return Ok(Solve::GaveUp {
                nodes: search.nodes,
            });
        };
        let mut end = board.clone();
        for &mv in &line {
            end.push(mv);
        }
        let Some(outcome) = end.outcome() else {
            return Ok(Solve::GaveUp {
                nodes: search.nodes,
            });
        };
        let diff = side(outcome.score, board.turn());
        Ok(Solve::Solved(SolveResult {
            value: diff.signum(),
            best: line.first().copied(),
            score: outcome.score,
            nodes: search.nodes,
            diff,
            pv: line,
        }))
    }
}

#[cfg(test)]
mod tests;
