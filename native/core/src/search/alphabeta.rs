//! The alpha-beta player of both games: negamax with principal variation search,
//! iterative deepening, a transposition table, killers and history, and Andantino's
//! exact forcing analysis; the algorithm of hexgames 0.1's pure-Python
//! player at compiled speed, with late move reductions.
//!
//! **Iterative deepening** runs full-width searches of depth 1, 2, ... until a limit
//! (time, nodes, depth) or the [`Stop`] flag; the move played is the best of the last
//! completed iteration, or of the current one once its first move (the previous best)
//! has been searched and beaten. Each node is searched by negamax with principal
//! variation search (Reinefeld, "An improvement to the Scout tree search algorithm",
//! ICCA Journal 1983): the first move with the full window, the others with a null
//! window and a re-search when they fall inside it.
//!
//! **Transposition table** ([`super::tt`]): kept between the moves of a game, cleared
//! by [`AlphaBeta::new_game`] and when the rules change. A stored score cuts the
//! search off only at exactly the depth it was searched to, so at a fixed depth the
//! table never changes the value; its move is searched first at any depth.
//!
//! **Move order**: the table's move, two killer moves per ply, then the rest by a static
//! guess ([`SearchGame::order_value`], weighted by [`SearchGame::ORDER_WEIGHT`]) plus the
//! history heuristic (Schaeffer, "The history heuristic and alpha-beta search
//! enhancements in practice", IEEE PAMI 1989). With the history malus
//! ([`SearchGame::HISTORY_MALUS`], as in today's chess programs) a cutoff also lowers the
//! history of the moves searched before the one that cut, by as much as it raises that
//! one's.
//!
//! **Scores** are in evaluation points for the side to move; a win in `n` plies scores
//! `MATE - n`, a loss `-(MATE - n)`, a draw 0.
//!
//! **Forcing analysis** (Andantino, [`Forcing`]; exact, no guesswork): each
//! node first plays the side to move's line win if it has one (the empty cell of its
//! four). Otherwise it collects the opponent's *threat cells* (cells completing a four
//! of the opponent, and cells where an opponent tile would enclose a tile of the side
//! to move). If there are any, every move that neither fills one nor wins at once loses
//! two plies later, so those moves are only pushed to test for an immediate trap win
//! (when they join two walls) and scored as lost; the one blocking move is searched one
//! ply deeper (the extension). With two threat cells nothing helps and the node is
//! scored as lost. At the last ply a placement next to four or more opponent tiles is
//! tested for an immediate trap. All of it depends on the position only, so the table
//! stays exact.
//!
//! **Leaves**: the last ply scores each move as the parent's evaluation plus the move's
//! gain where the game keeps its evaluation incrementally (Andantino placements), else
//! by pushing it and evaluating; every leaf is pushed to test for the end of the game.
//! No move is pruned without search other than as described, so PVS, plain alpha-beta
//! and the table all give the same value at a fixed depth.
//!
//! **MultiPV** (`multipv = n`): each iteration searches the root `n` times, each time
//! leaving out the moves of the lines already found, so each line has an exact score.
//! **Varied play** (`randomness = p` points): the root gives an exact score to every move
//! within `p` points of the best, and the move is drawn (uniformly, by the player's
//! seeded generator) among them; a proven win is always played and a proven loss never
//! chosen over a move that is not one.
//!
//! **Options measured by matches** (both off by default until a match says otherwise;
//! see `benchmarks/bench_strength.py`): `leaf_threats` searches a last-ply move that
//! makes a four one ply deeper (sequences of fours followed to the end), `lmr` reduces
//! late quiet moves (Heinz's late move reductions; selective, so off in the tests that
//! compare values with plain alpha-beta).
//!
//! Nodes are counted one per push (probes included), and one per last-ply move scored
//! without a push ([`Leaf::settled`]); limits and the stop flag are checked every
//! [`CHECK_EVERY`] nodes, and also every [`WORK_CHECK`] moves a node scores and sorts
//! for its order: a node of an extended-play Andantino position with 500 tiles a side
//! has some 500,000 moves, whose ordering took up to a second between two looks at the
//! clock (a search with 3 s overshot by up to 2 s). The sort of so many moves goes in
//! steps (sorted runs, then merges, each a few milliseconds; the same order as one
//! stable sort), so the search stops within a few milliseconds there too.

use std::time::Instant;

use super::time::TimeManager;
use super::tt::{Bound, Table};
use super::{win_probability, Info, Limits, Stop};
use crate::error::{Error, Result};
use crate::game::{Color, Game, GameResult};
use crate::zobrist::Rng;

/// The score of a win now; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 1_000_000;
/// Scores beyond this (in absolute value) are proven wins or losses.
pub const MATE_BOUND: i32 = MATE - 10_000;
/// Above every score.
pub const INF: i32 = 1_000_000_000;
/// The deepest ply the search reaches (beyond it a node is evaluated).
pub const MAX_PLY: usize = 120;
/// The deepest iteration started when no depth limit is given.
pub const MAX_DEPTH: u32 = 100;
/// Nodes between two looks at the limits and the stop flag.
pub const CHECK_EVERY: u64 = 256;
/// Moves scored or sorted for a node's order between two looks at the limits.
pub const WORK_CHECK: u64 = 4096;
/// Lists longer than this are sorted in steps ([`sort_in_steps`]).
const SORT_RUN: usize = 8192;

/// Sort `v` stably by `key`, largest first (the order of
/// `v.sort_by_key(|x| Reverse(key(x)))`), in steps: runs of [`SORT_RUN`] sorted, then
/// neighbouring runs merged, a pass over all of `v` at a time, with `step(elements)`
/// called after each step. If it returns true the sort stops there (`v` then holds its
/// elements partly sorted); returns whether the sort was completed.
fn sort_in_steps<T: Copy>(
    v: &mut [T],
    key: impl Fn(&T) -> i64,
    mut step: impl FnMut(usize) -> bool,
) -> bool {
    let n = v.len();
    if n <= SORT_RUN {
        v.sort_by_key(|x| std::cmp::Reverse(key(x)));
        return true;
    }
    for run in v.chunks_mut(SORT_RUN) {
        run.sort_by_key(|x| std::cmp::Reverse(key(x)));
        if step(run.len()) {
            return false;
        }
    }
    let mut merged: Vec<T> = Vec::with_capacity(n);
    let mut width = SORT_RUN;
    while width < n {
        merged.clear();
        for pair in v.chunks(2 * width) {
            let (left, right) = pair.split_at(width.min(pair.len()));
            let (mut a, mut b) = (0, 0);
            while a < left.len() && b < right.len() {
                // Ties to the left run: stable.
                if key(&right[b]) > key(&left[a]) {
                    merged.push(right[b]);
                    b += 1;
                } else {
                    merged.push(left[a]);
                    a += 1;
                }
            }
            merged.extend_from_slice(&left[a..]);
            merged.extend_from_slice(&right[b..]);
        }
        v.copy_from_slice(&merged);
        width *= 2;
        if step(n) {
            return width >= n;
        }
    }
    true
}

/// What the search needs of a game beyond [`Game`]: the evaluation, move-ordering hints,
/// the null move, and two optional parts behind associated types: the forcing analysis
/// ([`Forcing`]) and the noisy moves ([`Noisy`]).
pub trait SearchGame: Game {
    /// The evaluation's incremental state, kept by the search under make/unmake.
    type Aux: Clone + Send;
    /// The evaluation's weights (the player's options of it; `Default` gives the
    /// game's own).
    type Weights: Copy + Default + PartialEq + std::fmt::Debug + Send + Sync;
    /// The game's forcing analysis ([`Forcing`]; [`NoForcing`] for none).
    type Forcing: Forcing<Self>;
    /// The game's noisy moves ([`Noisy`]; [`AllQuiet`] for none).
    type Noisy: Noisy<Self>;
    /// The rules (a change of rules clears the table).
    type Rules: Copy + PartialEq + Send + Sync + std::fmt::Debug;
    /// Points at which the logistic of [`win_probability`] gives about 73% (the Python
    /// player's scales).
    const PROBABILITY_SCALE: f64;
    /// Slots of the history table of each side ([`SearchGame::history_index`]).
    const HISTORY_SIZE: usize;
    /// The weight of [`SearchGame::order_value`] against the history score in move
    /// ordering (the history of a move is at most 2^24). 16: once the history has grown
    /// it decides; 2^24 and more: the static guess decides, the history orders moves of
    /// equal guess.
    const ORDER_WEIGHT: i64 = 16;
    /// Whether a cutoff lowers the history of the moves searched before the one that
    /// cut (the history malus; the option [`Options::history_malus`] overrides it).
    const HISTORY_MALUS: bool = false;

    fn rules_of(&self) -> Self::Rules;
    /// The incremental state of this position.
    fn new_aux(&self) -> Self::Aux;
    /// Make `aux` that of this position again (reusing its memory).
    fn reset_aux(&self, aux: &mut Self::Aux);
    /// Check `weights` before a player takes them (the default: any will do).
    ///
    /// Errors: `Error::InvalidArgument` naming what is wrong.
    fn check_weights(_weights: &Self::Weights) -> Result<()> {
        Ok(())
    }
    /// Make `aux` evaluate with `weights`.
    fn configure_aux(&self, aux: &mut Self::Aux, weights: &Self::Weights);
    /// Account for `mv` by `mover`, just pushed (the game goes on).
    fn push_aux(&self, aux: &mut Self::Aux, mv: Self::Move, mover: Color);
    /// Undo [`SearchGame::push_aux`] (the move is popped already).
    fn pop_aux(&self, aux: &mut Self::Aux, mv: Self::Move, mover: Color);
    /// The static value for the side to move (points) of a position whose game goes on.
    fn evaluate(&self, aux: &Self::Aux) -> i32;
    /// A static guess of the worth of `mv` for the side to move, for move ordering.
    fn order_value(&self, aux: &Self::Aux, mv: Self::Move) -> i32;
    /// The slot of `mv` in the history table (below [`SearchGame::HISTORY_SIZE`]).
    fn history_index(mv: Self::Move) -> usize;
    /// An estimate of the moves the side to move has still to play (time management).
    fn moves_left(&self) -> u32;
    /// The last ply's value of `mv` for the side to move without pushing it for the
    /// evaluation, where the game keeps its evaluation incrementally, else `None` (the
    /// search pushes and evaluates); `base` is the position's own value
    /// ([`SearchGame::evaluate`]).
    fn leaf_value(&self, _aux: &Self::Aux, _base: i32, _mv: Self::Move) -> Option<Leaf> {
        None
    }
    /// Whether [`SearchGame::leaf_value`] gives the last ply's values here.
    fn incremental_leaves(&self) -> bool {
        false
    }

    /// Whether the search may try a null move here (option `null_move`): the side to
    /// move gives the move to the opponent, to see whether the position is good enough
    /// without its move. Only where doing nothing is never better than the best move
    /// (no zugzwang) and the opponent can move on.
    fn null_move_ok(&self) -> bool {
        false
    }
    /// Make (and, called again, unmake) the null move: the other side to move, the
    /// position and the evaluation state unchanged.
    fn flip_turn(&mut self) {}
}

/// A game's forcing analysis (see the module text): the hooks that let the search see
/// the threats the side to move must answer. An optional part of a [`SearchGame`],
/// named by [`SearchGame::Forcing`]: Andantino's threat finder implements every hook;
/// [`NoForcing`], these defaults, switches the analysis off.
pub trait Forcing<G: SearchGame> {
    /// Whether the rules of `game` allow the forcing analysis at all.
    fn enabled(_game: &G) -> bool {
        false
    }
    /// Whether this node gets the forcing analysis (both sides place tiles).
    fn node(_game: &G) -> bool {
        false
    }
    /// Moves that may win at once by a line (the side to move's four cells that it may
    /// fill), into `out` (cleared).
    fn line_win_candidates(_game: &G, _aux: &G::Aux, out: &mut Vec<G::Move>) {
        out.clear();
    }
    /// Whether the opponent still has a tile to place after the side to move's move.
    fn opponent_moves_on(_game: &G) -> bool {
        true
    }
    /// The opponent's threat cells, as the side to move's placements onto them, into
    /// `out` (cleared, each once); `legal` holds the legal moves.
    fn threats(_game: &G, _aux: &mut G::Aux, _legal: &[G::Move], out: &mut Vec<G::Move>) {
        out.clear();
    }
    /// Whether `mv` might win at once by a trap (it joins two walls of the mover).
    fn may_trap(_game: &G, _aux: &G::Aux, _mv: G::Move) -> bool {
        false
    }
    /// Whether `mv` loses at once by a self-trap (without pushing it).
    fn self_trap_loses(_game: &G, _mv: G::Move) -> bool {
        false
    }
    /// After `mv` by `mover` was pushed (the game goes on, `aux` not updated): whether
    /// the opponent can enclose the tile just placed with its next tile.
    fn trapped_next(_game: &G, _aux: &mut G::Aux, _mv: G::Move, _mover: Color) -> bool {
        false
    }
}

/// No forcing analysis: the [`SearchGame::Forcing`] of a game without one.
#[derive(Clone, Copy, Debug)]
pub struct NoForcing;

impl<G: SearchGame> Forcing<G> for NoForcing {}

/// A game's noisy moves: those that change the material at once (Abande's captures),
/// which the quiescence search follows past the depth (option `quiescence`) and late
/// move pruning (option `lmp`) never prunes. An optional part of a [`SearchGame`],
/// named by [`SearchGame::Noisy`]; [`AllQuiet`], these defaults, has none (the leaves
/// are scored statically).
pub trait Noisy<G: SearchGame> {
    /// Whether the game has noisy moves: without them the option `quiescence` changes
    /// nothing.
    const ANY: bool = false;
    /// The noisy moves of `game` into `out` (cleared).
    fn moves(_game: &G, out: &mut Vec<G::Move>) {
        out.clear();
    }
    /// Whether `mv` is one of the noisy moves.
    fn is_noisy(_game: &G, _mv: G::Move) -> bool {
        false
    }
}

/// No noisy moves: the [`SearchGame::Noisy`] of a game whose moves are all quiet.
#[derive(Clone, Copy, Debug)]
pub struct AllQuiet;

impl<G: SearchGame> Noisy<G> for AllQuiet {}

/// A last-ply move scored without a push ([`SearchGame::leaf_value`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The value after the move, for the side that made it (points): the parent's
    /// value plus the move's gain.
    pub value: i32,
    /// The move threatens to win at once (Andantino: it makes a four), so that the
    /// opponent's reply is forced: with the `leaf_threats` option such a move is
    /// searched one ply deeper instead of being scored statically.
    pub forcing: bool,
    /// The move cannot end the game and the position after it needs no test of the
    /// search's own (Andantino: it makes no line of five, walls nothing off, does not
    /// wall in its own tile, leaves the opponent tiles to play, and cannot be trapped
    /// at once), so `value` is its value exactly and the frontier need not push it
    /// (option `settle_leaves`).
    pub settled: bool,
}

/// Options of the player (see the module text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Principal variation search (false: plain alpha-beta, for testing).
    pub pvs: bool,
    /// Use the transposition table (false for testing).
    pub use_tt: bool,
    /// Root lines with exact scores (1 or more).
    pub multipv: u32,
    /// Points within which a root move may be drawn instead of the best (0: always
    /// the best).
    pub randomness: i32,
    /// The seed of the generator of varied play.
    pub seed: u64,
    /// Search the last ply's forcing moves (Andantino: a move making a four) one ply
    /// deeper, so that sequences of fours are followed to the end at the leaves (a
    /// victory-by-continuous-fours search).
    pub leaf_threats: bool,
    /// Late move reductions: in PVS, moves after the third at a node of depth 3 or
    /// more are first searched with a null window one ply shallower (two after the
    /// eighth), and at full depth only if they beat alpha. A selective search: the
    /// value at a fixed depth may differ from plain alpha-beta's.
    pub lmr: bool,
    /// Let a table entry searched deeper than needed cut the search off too (the usual
    /// rule; without it only an entry of exactly the depth does, so that at a fixed
    /// depth the table never changes the value).
    pub tt_deeper: bool,
    /// Null-move pruning (Goetsch and Campbell, "Experiments with the null-move
    /// heuristic", 1990; Donninger, "Null move and deep search", ICCA Journal 1993): at
    /// a null-window node of depth 3 or more whose static value is at least beta and
    /// where the game allows it ([`SearchGame::null_move_ok`]), the opponent moves
    /// twice in a row in a search [`null_reduction`] plies shallower; if the side to
    /// move still reaches beta the node is cut off. Never two null moves in a row, nor
    /// at a node of the forcing analysis's one blocking move. Selective.
    pub null_move: bool,
    /// Late move reductions by the logarithms of the depth and the move's place (with
    /// `lmr`; the form of Stockfish's): `ln(depth) * ln(place) * 100 / lmr_log` plies
    /// rounded, at least 1 and leaving the reduced search at least one ply; 0 keeps the
    /// fixed scheme (one ply, two after the eighth move). Measured, not yet a player
    /// option: `lmr_log=200` scored 43.2% in Andantino (balance variant, 200 games) and
    /// 56.2% in Abande (120 games) at 0.1 s a move against the fixed scheme
    /// (`examples/options_match.rs`); with `abande_tempo=50`, 46.2% in Abande at 0.2 s
    /// (120 games). Not shown to help.
    pub lmr_log: i32,
    /// Reverse futility pruning (static null-move pruning; Heinz, "Extended futility
    /// pruning", ICCA Journal 1998, and the chess programs since): at a null-window node
    /// of depth 1 to [`RFP_DEPTH`] whose static value is at least beta plus `rfp` points a
    /// ply of depth, the node is cut off with the static value. 0: off. Selective.
    /// The arena's player uses 150 in Abande (`hexgames.engine.alphabeta.RFP`): against
    /// the same player without it `rfp=150` scored 57.2% over 200 games at 0.2 s a move
    /// (seed 90), 55.4% over 120 at 0.5 s (seed 91) and 53.8% over 40 at 1 s (seed 92)
    /// (`examples/options_match.rs`, with other work on the machine); not measured in
    /// Andantino, where it is 0.
    pub rfp: i32,
    /// Late move pruning (Heinz's "late move" idea taken to pruning, as in the chess
    /// programs since Fruit): at a null-window node of depth 1 to [`LMP_DEPTH`] (not a
    /// forcing analysis's block, beta no mate score), the quiet moves after the first
    /// `lmp + depth * depth` in search order are not searched
    /// ([`Noisy`] moves always are). 0: off. Selective; not measured
    /// yet.
    pub lmp: i32,
    /// A quiescence search at the leaves (Shannon's "quiescent" positions, 1950; the
    /// capture search of chess programs): past the depth the side to move may stand
    /// on the static value or play one of the game's noisy moves
    /// ([`Noisy`]: Abande's captures), at most
    /// [`MAX_QUIESCENCE`] plies on. A player option, on in the arena's player: in
    /// Abande it scored 63.3% over 120 games at 0.1 s a move and 60.4% over 120 at
    /// 0.3 s against the search without it (`examples/options_match.rs`, seeds 51 and
    /// 52); Andantino has no noisy moves.
    pub quiescence: bool,
    /// The history malus (see the module text); `None`: the game's
    /// ([`SearchGame::HISTORY_MALUS`]).
    pub history_malus: Option<bool>,
    /// The weight of the static order guess; `None`: the game's
    /// ([`SearchGame::ORDER_WEIGHT`]).
    pub order_weight: Option<i64>,
    /// At the last ply, score a move that [`SearchGame::leaf_value`] calls settled
    /// without pushing it on the board (it still counts as a node). The search is the
    /// same, node for node, as without it (false, for testing), only faster.
    pub settle_leaves: bool,
    /// Aspiration windows (points; 0: off): from depth [`ASPIRATION_DEPTH`] on, the
    /// root is searched first within this many points either side of the last
    /// iteration's score, and the side it fails on is widened (twice the margin each
    /// time) until the score falls inside. Only without MultiPV and varied play.
    /// Measured, not a player option: `aspiration=40` scored 50.0% over 200 games in
    /// Andantino (balance variant) at 0.2 s a move against the search without it
    /// (`examples/options_match.rs`, seed 314). Not shown to help.
    pub aspiration: i32,
}

/// The largest history score of a move (and with the history malus the lowest is its
/// negative).
pub const HISTORY_MAX: i32 = 1 << 24;

/// A move's ordering key (higher first) from its static guess, its history and the
/// guess's weight ([`SearchGame::ORDER_WEIGHT`]); saturating, so that any weight of
/// [`Options::order_weight`] orders moves without overflowing.
#[inline]
pub fn order_key(guess: i32, history: i32, weight: i64) -> i64 {
    i64::from(guess)
        .saturating_mul(weight)
        .saturating_add(i64::from(history))
}

/// The first depth searched with an aspiration window (option `aspiration`).
pub const ASPIRATION_DEPTH: u32 = 4;

/// The deepest node that reverse futility pruning (option `rfp`) may cut.
pub const RFP_DEPTH: i32 = 3;

/// The deepest node where late move pruning (option `lmp`) prunes.
pub const LMP_DEPTH: i32 = 3;

/// The most plies a quiescence search goes past the depth.
pub const MAX_QUIESCENCE: usize = 8;

impl Default for Options {
    fn default() -> Options {
        Options {
            pvs: true,
            use_tt: true,
            multipv: 1,
            randomness: 0,
            seed: 0,
            leaf_threats: false,
            lmr: false,
            tt_deeper: false,
            null_move: false,
            lmr_log: 0,
            rfp: 0,
            lmp: 0,
            quiescence: false,
            history_malus: None,
            order_weight: None,
            settle_leaves: true,
            aspiration: 0,
        }
    }
}

/// What a search returns: the move to play, the principal line and, with MultiPV, all
/// lines (the first being the principal one).
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    pub info: Info,
    pub lines: Vec<Info>,
}

/// The alpha-beta player of the game `G`, with what it keeps between moves: the table,
/// the history and the generator of varied play.
pub struct AlphaBeta<G: SearchGame> {
    tt: Option<Table<G::Move>>,
    history: [Vec<i32>; 2],
    options: Options,
    weights: G::Weights,
    rng: Rng,
    rules: Option<G::Rules>,
    aux: Option<G::Aux>,
}

impl<G: SearchGame> AlphaBeta<G> {
    /// A player with a table of `tt_mb` MiB and the game's own evaluation weights.
    ///
    /// Errors: `Error::InvalidArgument` for a table size out of range or that cannot
    /// be allocated (see [`Table::new`]), a `multipv` of 0, or a negative `randomness`.
    pub fn new(tt_mb: u64, options: Options) -> Result<AlphaBeta<G>> {
        Self::with_weights(tt_mb, options, G::Weights::default())
    }

    /// A player with a table of `tt_mb` MiB and the evaluation's `weights`.
    ///
    /// Errors: those of [`AlphaBeta::new`], and those of [`SearchGame::check_weights`].
    pub fn with_weights(tt_mb: u64, options: Options, weights: G::Weights) -> Result<AlphaBeta<G>> {
        if options.multipv < 1 {
            return Err(Error::InvalidArgument(
                "multipv must be 1 or more, not 0".to_string(),
            ));
        }
        G::check_weights(&weights)?;
        if options.randomness < 0 {
            return Err(Error::InvalidArgument(format!(
                "randomness must be 0 or more points, not {}",
                options.randomness
            )));
        }
        let tt = if options.use_tt {
            Some(Table::new(tt_mb)?)
        } else {
            if tt_mb < 1 {
                return Err(Error::InvalidArgument(format!(
                    "a transposition table needs at least 1 MB, not {tt_mb}"
                )));
            }
            None
        };
        let mut history = [Vec::new(), Vec::new()];
        for h in &mut history {
            h.try_reserve_exact(G::HISTORY_SIZE)
                .map_err(|_| Error::InvalidArgument("not enough memory".to_string()))?;
            h.resize(G::HISTORY_SIZE, 0);
        }
        Ok(AlphaBeta {
            tt,
            history,
            options,
            weights,
            rng: Rng::new(options.seed),
            rules: None,
            aux: None,
        })
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// The evaluation's weights.
    pub fn weights(&self) -> G::Weights {
        self.weights
    }

    /// The transposition table (`None` with `use_tt` off).
    pub fn table(&self) -> Option<&Table<G::Move>> {
        self.tt.as_ref()
    }

    /// Forget the table and the history (a new game).
    pub fn new_game(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        for h in &mut self.history {
            h.fill(0);
        }
    }

    /// Search `game` (a clone is searched; `game` is not changed) under `limits`
    /// (with none set: 1 second).
    ///
    /// `on_info` is called after each completed iteration; `poll` every
    /// [`CHECK_EVERY`] nodes, and the search stops when it returns true (the binding
    /// uses it for Ctrl-C), as it does when `stop` is set or a limit is reached.
    ///
    /// Errors: `Error::InvalidArgument` if the game is over (no move to play) or a
    /// limit is negative or not a number.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Stop,
        on_info: &mut dyn FnMut(&Info),
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<SearchResult<G::Move>> {
        check_limits(limits)?;
        if game.result().is_some() {
            return Err(Error::InvalidArgument(
                "the game is over: there is no move to play".to_string(),
            ));
        }
        let start = Instant::now();
        let mut limits = *limits;
        if limits.is_empty() {
            limits.time = Some(1.0);
        }
        let rules = game.rules_of();
        if self.rules != Some(rules) {
            self.new_game();
            self.rules = Some(rules);
        }
        if let Some(tt) = &mut self.tt {
            tt.new_search();
        }
        for h in &mut self.history {
            for x in h.iter_mut() {
                *x >>= 2;
            }
        }
        let mut aux = match self.aux.take() {
            Some(mut aux) => {
                game.reset_aux(&mut aux);
                aux
            }
            None => game.new_aux(),
        };
        game.configure_aux(&mut aux, &self.weights);
        let time = TimeManager::new(&limits, game.moves_left(), start);
        let node_limit = limits.nodes.map_or(u64::MAX, |n| n.max(1));
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
        let options = self.options;
        let mut search = Search {
            game: game.clone(),
            aux: &mut aux,
            tt: self.tt.as_mut(),
            history: &mut self.history,
            killers: vec![[None, None]; MAX_PLY + 2],
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(16)).collect(),
            buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            legal: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            scored: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(64)).collect(),
            threats: Vec::with_capacity(8),
            nodes: 0,
            node_limit,
            check_at: CHECK_EVERY.min(node_limit),
            stop,
            poll,
            work: 0,
            time,
            pvs: options.pvs,
            forcing: G::Forcing::enabled(game),
            leaf_threats: options.leaf_threats,
            lmr: options.lmr && options.pvs,
            reductions: reductions(options.lmr_log),
            tt_deeper: options.tt_deeper,
            null_move: options.null_move && options.pvs,
            rfp: if options.pvs { options.rfp.max(0) } else { 0 },
            lmp: if options.pvs { options.lmp.max(0) } else { 0 },
            quiescence: options.quiescence && G::Noisy::ANY,
            history_malus: options.history_malus.unwrap_or(G::HISTORY_MALUS),
            order_weight: options.order_weight.unwrap_or(G::ORDER_WEIGHT),
            settle_leaves: options.settle_leaves,
            nulled: vec![false; MAX_PLY + 2],
            aborted: false,
            seldepth: 0,
            start,
        };
        let result = search.run(max_depth, options, &mut self.rng, on_info);
        self.aux = Some(aux);
        Ok(result)
    }
}

fn check_limits(limits: &Limits) -> Result<()> {
    for (name, value) in [
        ("time", limits.time),
        ("clock", limits.clock),
        ("increment", limits.increment),
    ] {
        if let Some(v) = value {
            if !v.is_finite() || v < 0.0 {
                return Err(Error::InvalidArgument(format!(
                    "limit {name} must be a finite number of seconds, 0 or more, not {v}"
                )));
            }
        }
    }
    Ok(())
}

/// A mate score relative to the root, stored relative to the node at `ply`.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Undo [`to_tt`] at `ply`.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The table of logarithmic late move reductions for `lmr_log` (see
/// [`Options::lmr_log`]); empty for 0.
fn reductions(lmr_log: i32) -> Vec<[u8; 64]> {
    if lmr_log <= 0 {
        return Vec::new();
    }
    (0..64)
        .map(|d| {
            let mut row = [0u8; 64];
            for (i, r) in row.iter_mut().enumerate() {
                let x = (d.max(1) as f64).ln() * ((i + 1) as f64).ln() * 100.0 / f64::from(lmr_log);
                let most = (d - 2).max(1);
                *r = (x.round() as i32).clamp(1, most) as u8;
            }
            row
        })
        .collect()
}

/// How many plies shallower than usual the null move is searched at `depth` (the
/// adaptive R of Heinz, "Adaptive null-move pruning", ICCA Journal 1999: 3 in deep
/// nodes, 2 in shallow ones).
#[inline]
pub fn null_reduction(depth: i32) -> i32 {
    if depth >= 7 {
        3
    } else {
        2
    }
}

/// The value for `mover`, whose move at `ply` ended the game with `result`.
#[inline]
fn terminal(result: GameResult, mover: Color, ply: usize) -> i32 {
    match result.winner {
        None => 0,
        Some(w) if w == mover => MATE - ply as i32 - 1,
        Some(_) => -(MATE - ply as i32 - 1),
    }
}

/// `(mate in plies, win probability)` of a score.
fn mate_and_probability(score: i32, scale: f64) -> (Option<i32>, f64) {
    if score > MATE_BOUND {
        (Some(MATE - score), 1.0)
    } else if score < -MATE_BOUND {
        (Some(-(MATE + score)), 0.0)
    } else {
        (None, win_probability(score as f64, scale))
    }
}

/// The outcome of the forcing analysis of a node.
enum Forced<M> {
    /// An ordinary node.
    Open,
    /// The node's value is known.
    Decided(i32),
    /// The one move that does not lose at once: search it one ply deeper.
    Block(M),
}

/// One root line of an iteration.
#[derive(Clone)]
struct Line<M> {
    mv: M,
    score: i32,
    pv: Vec<M>,
}

/// One search: the game (a clone), its evaluation state, the tables and the counters.
/// A last-ply node's window, best move so far and place in its move order.
struct FrontierNode<M> {
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Option<M>,
    /// How many moves of the order were taken (tried or pruned).
    place: usize,
    /// Late move pruning's place ([`Search::late_moves`]).
    prune_after: usize,
}

struct Search<'a, G: SearchGame> {
    game: G,
    aux: &'a mut G::Aux,
    tt: Option<&'a mut Table<G::Move>>,
    history: &'a mut [Vec<i32>; 2],
    killers: Vec<[Option<G::Move>; 2]>,
    pv: Vec<Vec<G::Move>>,
    buffers: Vec<Vec<G::Move>>,
    /// `legal[ply]`: the legal moves of the interior node at `ply`.
    legal: Vec<Vec<G::Move>>,
    scored: Vec<Vec<(i64, i32, G::Move)>>,
    threats: Vec<G::Move>,
    nodes: u64,
    node_limit: u64,
    check_at: u64,
    stop: &'a Stop,
    poll: &'a mut dyn FnMut() -> bool,
    /// Moves scored or sorted for an order since the last look at the limits by them.
    work: u64,
    time: TimeManager,
    pvs: bool,
    forcing: bool,
    leaf_threats: bool,
    lmr: bool,
    /// `reductions[depth][place]` of late move reductions (empty: the fixed scheme).
    reductions: Vec<[u8; 64]>,
    tt_deeper: bool,
    null_move: bool,
    rfp: i32,
    lmp: i32,
    quiescence: bool,
    history_malus: bool,
    order_weight: i64,
    settle_leaves: bool,
    /// `nulled[ply]`: the node at `ply` was reached by a null move.
    nulled: Vec<bool>,
    aborted: bool,
    seldepth: usize,
    start: Instant,
}

impl<G: SearchGame> Search<'_, G> {
    // -- limits ---------------------------------------------------------------------

    #[inline]
    fn count(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.check_at {
            self.check();
        }
    }

    #[cold]
    fn check(&mut self) {
        if self.nodes >= self.node_limit
            || self.stop.is_set()
            || self.time.budget.hard_expired()
            || (self.poll)()
        {
            self.aborted = true;
            // Stay stopped: every later count checks again at once.
            self.check_at = self.nodes;
        } else {
            self.check_at = (self.nodes + CHECK_EVERY).min(self.node_limit);
        }
    }

    /// Count `moves` moves scored or sorted outside the node count, looking at the
    /// limits every [`WORK_CHECK`] of them: whether the search has stopped.
    #[inline]
    fn busy(&mut self, moves: usize) -> bool {
        self.work += moves as u64;
        if self.work >= WORK_CHECK && !self.aborted {
            self.work = 0;
            if self.stop.is_set() || self.time.budget.hard_expired() || (self.poll)() {
                self.aborted = true;
                self.check_at = self.nodes;
            }
        }
        self.aborted
    }

    /// Sort `scored` by its first field, largest first and stably, in steps that look
    /// at the limits ([`sort_in_steps`]).
    fn sort_scored(&mut self, scored: &mut [(i64, i32, G::Move)]) {
        sort_in_steps(scored, |a| a.0, |n| self.busy(n));
    }

    // -- make / unmake ---------------------------------------------------------------

    /// Push `mv` (counting the node); returns the result if the game ended, else
    /// updates the evaluation state.
    #[inline]
    fn push(&mut self, mv: G::Move, mover: Color) -> Option<GameResult> {
        self.game.push(mv);
        self.count();
        let result = self.game.result();
        if result.is_none() {
            self.game.push_aux(self.aux, mv, mover);
        }
        result
    }

    #[inline]
    fn pop(&mut self, mv: G::Move, mover: Color, ended: bool) {
        self.game.pop();
        if !ended {
            self.game.pop_aux(self.aux, mv, mover);
        }
    }

    /// Push and pop `mv` (one node) without touching the evaluation: its result.
    #[inline]
    fn probe(&mut self, mv: G::Move) -> Option<GameResult> {
        self.game.push(mv);
        self.count();
        let result = self.game.result();
        self.game.pop();
        result
    }

    fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    fn set_pv_one(&mut self, ply: usize, mv: Option<G::Move>) {
        self.pv[ply].clear();
        if let Some(mv) = mv {
            self.pv[ply].push(mv);
        }
    }

    // -- the root -------------------------------------------------------------------

    fn run(
        &mut self,
        max_depth: u32,
        options: Options,
        rng: &mut Rng,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        let mover = self.game.turn();
        let mut root: Vec<G::Move> = Vec::new();
        self.game.legal_moves(&mut root);
        let tt_move = self.tt_move();
        let mut order = self.ordered(&root, tt_move, 0, mover);
        let multipv = (options.multipv as usize).min(order.len()).max(1);
        let randomness = options.randomness;
        let mut best: Line<G::Move> = Line {
            mv: order[0],
            score: -INF,
            pv: vec![order[0]],
        };
        let mut completed: Vec<Line<G::Move>> = Vec::new();
        let mut candidates: Vec<(G::Move, i32)> = Vec::new();
        let mut depth_done = 0;
        let mut seldepth_done = 0;
        let mut scores: Vec<i32> = vec![-INF; order.len()];
        for depth in 1..=max_depth {
            let mut lines: Vec<Line<G::Move>> = Vec::with_capacity(multipv);
            let mut iteration_candidates: Vec<(G::Move, i32)> = Vec::new();
            for k in 0..multipv {
                let margin = if k == 0 { randomness } else { 0 };
                let excluded: Vec<G::Move> = lines.iter().map(|l| l.mv).collect();
                let last = completed.first().map(|l| l.score);
                let found = match last {
                    Some(last)
                        if multipv == 1
                            && margin == 0
                            && options.aspiration > 0
                            && depth >= ASPIRATION_DEPTH
                            && last.abs() < MATE_BOUND =>
                    {
                        self.aspirated(
                            depth,
                            &order,
                            &mut scores,
                            options.aspiration,
                            last,
                            mover,
                            &mut best,
                        )
                    }
                    _ => self.root(
                        depth,
                        &order,
                        &excluded,
                        &mut scores,
                        margin,
                        &mut iteration_candidates,
                        mover,
                        if k == 0 { Some(&mut best) } else { None },
                        (-INF, INF),
                    ),
                };
                match found {
                    Some(line) => lines.push(line),
                    None => break,
                }
                if self.aborted {
                    break;
                }
            }
            if self.aborted {
                break;
            }
            // The iteration is complete.
            best = lines[0].clone();
            depth_done = depth;
            seldepth_done = self.seldepth;
            candidates = iteration_candidates;
            if let Some(tt) = self.tt.as_deref_mut() {
                tt.store(
                    self.game.zobrist(),
                    depth as i32,
                    Bound::Exact,
                    best.score,
                    Some(best.mv),
                );
            }
            self.time.iteration(G::move_id(best.mv), best.score);
            completed = lines;
            let info = self.info(&best, depth_done, seldepth_done);
            on_info(&info);
            if best.score.abs() > MATE_BOUND || order.len() == 1 {
                break;
            }
            if self.stop.is_set() || !self.time.next_iteration() {
                break;
            }
            // Next iteration: the lines first, then by this iteration's scores (stably:
            // `keyed` is in the order's order).
            let mut keyed: Vec<(i64, usize, G::Move)> = order
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let line = completed.iter().position(|l| l.mv == m);
                    let key = match line {
                        Some(j) => i64::from(INF) * 2 - j as i64,
                        None => i64::from(scores[i]),
                    };
                    (key, i, m)
                })
                .collect();
            if !sort_in_steps(&mut keyed, |a| a.0, |n| self.busy(n)) {
                break;
            }
            let new_scores: Vec<i32> = keyed.iter().map(|&(_, i, _)| scores[i]).collect();
            order = keyed.into_iter().map(|(_, _, m)| m).collect();
            scores = new_scores;
        }
        // The move: the last completed iteration's, or the current one's if it beat it.
        let principal = match completed.first() {
            Some(line) if line.mv == best.mv => line.clone(),
            _ => best.clone(),
        };
        let mut chosen = principal.mv;
        if randomness > 0 && completed.first().is_some_and(|l| l.mv == best.mv) {
            chosen = choose(&candidates, principal.score, randomness, rng).unwrap_or(chosen);
        }
        let seldepth = seldepth_done.max(depth_done as usize);
        let mut info = self.info(&principal, depth_done, seldepth);
        if chosen != principal.mv {
            if let Some(&(_, s)) = candidates.iter().find(|c| c.0 == chosen) {
                info = self.info(
                    &Line {
                        mv: chosen,
                        score: s,
                        pv: vec![chosen],
                    },
                    depth_done,
                    seldepth,
                );
            }
        }
        let mut lines: Vec<Info> = completed
            .iter()
            .map(|l| self.info(l, depth_done, seldepth))
            .collect();
        match lines.first_mut() {
            Some(first) => *first = info.clone(),
            None => lines.push(info.clone()),
        }
        SearchResult {
            best: chosen,
            info,
            lines,
        }
    }

    fn info(&self, line: &Line<G::Move>, depth: u32, seldepth: usize) -> Info {
        let score = if line.score == -INF { 0 } else { line.score };
        let (mate, probability) = mate_and_probability(score, G::PROBABILITY_SCALE);
        Info {
            depth,
            seldepth: seldepth.max(depth as usize) as u32,
            eval: if mate.is_none() { Some(score) } else { None },
            score: probability,
            mate,
            pv: line.pv.iter().map(|&m| self.game.notation(m)).collect(),
            nodes: self.nodes,
            time: self.start.elapsed().as_secs_f64(),
        }
    }

    fn tt_move(&self) -> Option<G::Move> {
        let tt = self.tt.as_deref()?;
        tt.probe(self.game.zobrist()).and_then(|e| e.mv)
    }

    /// One search of the root at `depth` over the moves of `order` not in `excluded`.
    /// Updates `scores` (by place in `order`), `best` as soon as the first move is
    /// beaten (line 0 only), and with a `margin` the candidates of varied play.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        depth: u32,
        order: &[G::Move],
        excluded: &[G::Move],
        scores: &mut [i32],
        margin: i32,
        candidates: &mut Vec<(G::Move, i32)>,
        mover: Color,
        mut best: Option<&mut Line<G::Move>>,
        window: (i32, i32),
    ) -> Option<Line<G::Move>> {
        let depth = depth as i32;
        let (mut alpha, beta) = window;
        let mut cur: Option<Line<G::Move>> = None;
        let mut first = true;
        candidates.clear();
        for (i, &mv) in order.iter().enumerate() {
            if excluded.contains(&mv) {
                continue;
            }
            let ended = self.push(mv, mover);
            self.pv[1].clear();
            let mut exact = true;
            let v = if let Some(result) = ended {
                terminal(result, mover, 0)
            } else if margin > 0 && !first {
                // Varied play: exact scores down to `margin` below the best.
                let floor = alpha.saturating_sub(margin).max(-INF + 1);
                let mut v = -self.negamax(depth - 1, -floor, -(floor - 1), 1);
                if v >= floor && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -(floor - 1), 1);
                } else {
                    exact = false;
                }
                v
            } else if first || !self.pvs {
                -self.negamax(depth - 1, -beta, -alpha, 1)
            } else {
                let mut v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1);
                if v > alpha && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -alpha, 1);
                } else {
                    exact = false;
                }
                v
            };
            self.pop(mv, mover, ended.is_some());
            if self.aborted {
                break;
            }
            first = false;
            scores[i] = v;
            if margin > 0 && exact {
                candidates.push((mv, v));
            }
            if cur.as_ref().map_or(true, |c| v > c.score) {
                let mut pv = vec![mv];
                if ended.is_none() {
                    pv.extend_from_slice(&self.pv[1]);
                }
                let line = Line { mv, score: v, pv };
                if let Some(b) = best.as_deref_mut() {
                    *b = line.clone();
                }
                cur = Some(line);
            }
            if v > alpha {
                alpha = v;
            }
            if v >= beta {
                break; // fails high: the caller widens the window
            }
        }
        cur
    }

    /// The root searched within aspiration windows around `last` (the last iteration's
    /// score), `delta` points wide either side and twice as wide on the side it fails
    /// on, until its score falls inside: the line of [`Search::root`]. After a fail-low
    /// `best` goes back to what it was (its moves' scores were only bounds); if the
    /// search is cut off before a score falls inside, `best` is the last iteration's
    /// move or the last one that failed high.
    #[allow(clippy::too_many_arguments)]
    fn aspirated(
        &mut self,
        depth: u32,
        order: &[G::Move],
        scores: &mut [i32],
        mut delta: i32,
        last: i32,
        mover: Color,
        best: &mut Line<G::Move>,
    ) -> Option<Line<G::Move>> {
        // The move to play if the search is cut off before a score falls inside: the
        // last iteration's, or one that failed high since.
        let mut keep = best.clone();
        let (mut low, mut high) = (last.saturating_sub(delta), last.saturating_add(delta));
        let mut candidates = Vec::new();
        loop {
            low = low.max(-INF);
            high = high.min(INF);
            let line = self.root(
                depth,
                order,
                &[],
                scores,
                0,
                &mut candidates,
                mover,
                Some(&mut *best),
                (low, high),
            )?;
            if self.aborted {
                // Cut off: keep the search's best only if its score is exact (inside the
                // window), else the last good move.
                if line.score <= low || line.score >= high {
                    *best = keep;
                }
                return Some(line);
            }
            delta = delta.saturating_mul(2);
            if line.score <= low && low > -INF {
                *best = keep.clone();
                low = line.score.saturating_sub(delta);
            } else if line.score >= high && high < INF {
                keep = line.clone();
                high = line.score.saturating_add(delta);
            } else {
                return Some(line);
            }
        }
    }

    // -- the tree -------------------------------------------------------------------

    fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mover = self.game.turn();
        if ply >= MAX_PLY {
            return self.game.evaluate(self.aux);
        }
        let key = self.game.zobrist();
        let mut tt_move = None;
        if let Some(tt) = self.tt.as_deref() {
            if let Some(e) = tt.probe(key) {
                tt_move = e.mv;
                let deep_enough = if self.tt_deeper {
                    i32::from(e.depth) >= depth
                } else {
                    i32::from(e.depth) == depth
                };
                if deep_enough {
                    let score = from_tt(e.score, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                        Bound::None => false,
                    };
                    if cut {
                        self.set_pv_one(ply, tt_move);
                        return score;
                    }
                }
            }
        }
        let mut block = None;
        if self.forcing && G::Forcing::node(&self.game) {
            match self.forced(ply, mover) {
                Forced::Open => {}
                Forced::Decided(v) => return v,
                Forced::Block(mv) => block = Some(mv),
            }
            if self.aborted {
                return 0;
            }
        }
        if block.is_none()
            && self.rfp > 0
            && (1..=RFP_DEPTH).contains(&depth)
            && beta - alpha == 1
            && beta.abs() < MATE_BOUND
        {
            let stand = self.game.evaluate(self.aux);
            if stand.saturating_sub(self.rfp.saturating_mul(depth)) >= beta {
                return stand;
            }
        }
        if block.is_none()
            && self.null_move
            && depth >= 3
            && beta - alpha == 1
            && beta.abs() < MATE_BOUND
            && !self.nulled[ply]
            && ply + 2 < MAX_PLY
            && self.game.null_move_ok()
            && self.game.evaluate(self.aux) >= beta
        {
            self.game.flip_turn();
            self.count();
            self.nulled[ply + 1] = true;
            let v = -self.negamax(depth - 1 - null_reduction(depth), -beta, -beta + 1, ply + 1);
            self.nulled[ply + 1] = false;
            self.game.flip_turn();
            if self.aborted {
                return 0;
            }
            if v >= beta {
                // A proven win found without our move is not a proof: say beta.
                return if v > MATE_BOUND { beta } else { v };
            }
        }
        let (value, best) = if let Some(mv) = block {
            self.interior(depth + 1, alpha, beta, ply, mover, tt_move, Some(mv))
        } else if depth <= 0 {
            return self.leaf(alpha, beta, ply);
        } else if depth == 1 {
            self.frontier(alpha, beta, ply, mover, tt_move)
        } else {
            self.interior(depth, alpha, beta, ply, mover, tt_move, None)
        };
        if self.aborted {
            return 0;
        }
        if let Some(tt) = self.tt.as_deref_mut() {
            let bound = if value >= beta {
                Bound::Lower
            } else if value > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            tt.store(key, depth, bound, to_tt(value, ply), best);
        }
        value
    }

    /// The legal moves in search order into a buffer of `ply`: the table move, the
    /// killers, then by static guess and history.
    fn ordered(
        &mut self,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        ply: usize,
        mover: Color,
    ) -> Vec<G::Move> {
        let mut out = Vec::with_capacity(moves.len());
        self.order_into(moves, tt_move, ply, mover);
        out.extend(self.scored[ply].iter().map(|&(_, _, m)| m));
        out
    }

    /// Score `moves` for the order of the node at `ply` into `self.scored[ply]` and
    /// sort them. If the search stops meanwhile, they are left partly scored or sorted
    /// (the node is then abandoned).
    fn order_into(
        &mut self,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        ply: usize,
        mover: Color,
    ) {
        let [k1, k2] = self.killers[ply];
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for chunk in moves.chunks(WORK_CHECK as usize) {
            let history = &self.history[mover as usize];
            for &mv in chunk {
                // Above any guess and history (a guess times its weight stays below
                // 2^36).
                let s = if Some(mv) == tt_move {
                    1i64 << 50
                } else {
                    let mut s = order_key(
                        self.game.order_value(self.aux, mv),
                        history[G::history_index(mv)],
                        self.order_weight,
                    );
                    if Some(mv) == k1 {
                        s += 1 << 41;
                    } else if Some(mv) == k2 {
                        s += 1 << 40;
                    }
                    s
                };
                scored.push((s, 0, mv));
            }
            if chunk.len() == WORK_CHECK as usize && self.busy(chunk.len()) {
                break;
            }
        }
        // Stable: equal guesses keep the legal-move order.
        if !self.aborted {
            self.sort_scored(&mut scored);
        }
        self.scored[ply] = scored;
    }

    #[allow(clippy::too_many_arguments)]
    fn interior(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        mover: Color,
        tt_move: Option<G::Move>,
        block: Option<G::Move>,
    ) -> (i32, Option<G::Move>) {
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        // The table move is searched before the other moves are ordered (a cutoff by it
        // spares their ordering); they follow in the order they have then.
        let mut unordered = false;
        if let Some(mv) = block {
            moves.push(mv);
        } else {
            let mut legal = std::mem::take(&mut self.legal[ply]);
            self.game.legal_moves(&mut legal);
            match tt_move.filter(|m| legal.contains(m)) {
                Some(mv) => {
                    moves.push(mv);
                    unordered = true;
                }
                None => {
                    self.order_into(&legal, None, ply, mover);
                    moves.extend(self.scored[ply].iter().map(|&(_, _, m)| m));
                    if self.aborted {
                        moves.clear(); // (a part of them, partly ordered)
                    }
                }
            }
            self.legal[ply] = legal;
        }
        let mut best = -INF;
        let mut best_move = None;
        let child = depth - 1;
        let prune_after = self.late_moves(depth, alpha, beta, block.is_some());
        let mut next = 0;
        loop {
            if next == moves.len() {
                if !unordered {
                    break;
                }
                unordered = false;
                let legal = std::mem::take(&mut self.legal[ply]);
                self.order_into(&legal, tt_move, ply, mover);
                self.legal[ply] = legal;
                // The table move was searched; the others follow.
                moves.extend(
                    self.scored[ply]
                        .iter()
                        .map(|&(_, _, m)| m)
                        .filter(|&m| Some(m) != tt_move),
                );
                if next == moves.len() {
                    break;
                }
            }
            let (i, mv) = (next, moves[next]);
            next += 1;
            if i >= prune_after && !G::Noisy::is_noisy(&self.game, mv) {
                continue;
            }
            let ended = self.push(mv, mover);
            self.pv[ply + 1].clear();
            let v = if let Some(result) = ended {
                terminal(result, mover, ply)
            } else if i == 0 || !self.pvs {
                -self.negamax(child, -beta, -alpha, ply + 1)
            } else {
                // Late move reductions (option `lmr`): a late quiet move is first searched
                // one or two plies shallower, and again at full depth if it beats alpha.
                let reduce = if self.lmr && block.is_none() && depth >= 3 && i >= 3 {
                    if !self.reductions.is_empty() {
                        let d = (depth as usize).min(63);
                        i32::from(self.reductions[d][i.min(63)])
                    } else if i >= 8 && depth >= 4 {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                let mut v = alpha + 1;
                if reduce > 0 {
                    v = -self.negamax(child - reduce, -alpha - 1, -alpha, ply + 1);
                }
                if v > alpha && !self.aborted {
                    v = -self.negamax(child, -alpha - 1, -alpha, ply + 1);
                }
                if alpha < v && v < beta && !self.aborted {
                    v = -self.negamax(child, -beta, -alpha, ply + 1);
                }
                v
            };
            self.pop(mv, mover, ended.is_some());
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, mv);
                    if v >= beta {
                        self.cutoff(mv, ply, depth, mover);
                        if self.history_malus && block.is_none() {
                            let history = &mut self.history[mover as usize];
                            for &m in &moves[..i] {
                                let h = &mut history[G::history_index(m)];
                                *h = h.saturating_sub(depth * depth).max(-HISTORY_MAX);
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        (best, best_move)
    }

    fn cutoff(&mut self, mv: G::Move, ply: usize, depth: i32, mover: Color) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let h = &mut self.history[mover as usize][G::history_index(mv)];
        *h = h.saturating_add(depth * depth).min(HISTORY_MAX);
    }

    /// The last ply: each move scored without a deeper search, and pushed to test for
    /// the end of the game unless its score is settled ([`Leaf::settled`]). Where the
    /// game scores leaves incrementally the table move and the killers are scored and
    /// tried first, one by one, and the other moves are scored only if none of them
    /// cuts off: the same order as scoring all (the table move, the killers, then by
    /// value), for less work at a cut node.
    fn frontier(
        &mut self,
        alpha: i32,
        beta: i32,
        ply: usize,
        mover: Color,
        tt_move: Option<G::Move>,
    ) -> (i32, Option<G::Move>) {
        let mut legal = std::mem::take(&mut self.buffers[ply]);
        self.game.legal_moves(&mut legal);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        let mut node = FrontierNode {
            alpha,
            beta,
            best: -INF,
            best_move: None,
            place: 0,
            prune_after: self.late_moves(1, alpha, beta, false),
        };
        if self.game.incremental_leaves() {
            let base = self.game.evaluate(self.aux);
            let [k1, k2] = self.killers[ply];
            let firsts = [tt_move, k1, k2];
            let mut stop = false;
            for (j, &first) in firsts.iter().enumerate() {
                let Some(mv) = first else { continue };
                if firsts[..j].contains(&first) || !legal.contains(&mv) {
                    continue;
                }
                let leaf = self.leaf_code(base, mv);
                scored.push((0, leaf, mv));
                if self.frontier_move(&mut node, mv, leaf, true, ply, mover) {
                    stop = true;
                    break;
                }
            }
            if !stop {
                let tried = scored.len();
                for chunk in legal.chunks(WORK_CHECK as usize) {
                    for &mv in chunk {
                        if !scored[..tried].iter().any(|&(_, _, m)| m == mv) {
                            let leaf = self.leaf_code(base, mv);
                            scored.push((i64::from(leaf >> 2), leaf, mv));
                        }
                    }
                    if chunk.len() == WORK_CHECK as usize && self.busy(chunk.len()) {
                        break;
                    }
                }
                if !self.aborted {
                    self.sort_scored(&mut scored[tried..]);
                }
                for &(_, leaf, mv) in &scored[tried..] {
                    if self.aborted || self.frontier_move(&mut node, mv, leaf, true, ply, mover) {
                        break;
                    }
                }
            }
        } else {
            self.scored[ply] = scored;
            self.order_into(&legal, tt_move, ply, mover);
            scored = std::mem::take(&mut self.scored[ply]);
            for &(_, leaf, mv) in &scored {
                if self.aborted || self.frontier_move(&mut node, mv, leaf, false, ply, mover) {
                    break;
                }
            }
        }
        self.buffers[ply] = legal;
        self.scored[ply] = scored;
        (node.best, node.best_move)
    }

    /// `mv`'s last-ply code for [`Search::frontier`]: its value times 4, plus 2 if it is
    /// settled (pushing it would only confirm the value; a forcing move is followed
    /// deeper with `leaf_threats`, so it is pushed) and 1 if it forces the reply.
    #[inline]
    fn leaf_code(&self, base: i32, mv: G::Move) -> i32 {
        let Leaf {
            value,
            forcing,
            settled,
        } = self.game.leaf_value(self.aux, base, mv).unwrap_or(Leaf {
            value: base,
            forcing: false,
            settled: false,
        });
        let settled = settled && self.settle_leaves && !(forcing && self.leaf_threats);
        value * 4 + i32::from(settled) * 2 + i32::from(forcing)
    }

    /// Try the last-ply move `mv` (code `leaf`, scored incrementally or not) as the next
    /// in `node`'s order; whether the node is done (a cutoff, or the search stopped).
    #[inline]
    fn frontier_move(
        &mut self,
        node: &mut FrontierNode<G::Move>,
        mv: G::Move,
        leaf: i32,
        incremental: bool,
        ply: usize,
        mover: Color,
    ) -> bool {
        let place = node.place;
        node.place += 1;
        if place >= node.prune_after && !G::Noisy::is_noisy(&self.game, mv) {
            return false;
        }
        let mut deep = false;
        let v = if incremental && leaf & 2 != 0 {
            self.count();
            leaf >> 2
        } else {
            let window = (node.alpha, node.beta);
            self.frontier_push(mv, leaf, incremental, window, ply, mover, &mut deep)
        };
        if self.aborted {
            return true;
        }
        if v > node.best {
            node.best = v;
            node.best_move = Some(mv);
            if v > node.alpha {
                node.alpha = v;
                if deep {
                    self.set_pv(ply, mv);
                } else {
                    self.set_pv_one(ply, Some(mv));
                }
                if v >= node.beta {
                    self.cutoff(mv, ply, 1, mover);
                    return true;
                }
            }
        }
        false
    }

    /// The value of the last-ply move `mv` for `mover`, pushed on the board and popped
    /// again (`leaf`: its code from [`Search::leaf_code`] when the node scores its
    /// leaves `incremental`ly, within the node's `(alpha, beta)` window); `deep` is set
    /// when a forcing move was followed a ply deeper.
    #[allow(clippy::too_many_arguments)]
    fn frontier_push(
        &mut self,
        mv: G::Move,
        leaf: i32,
        incremental: bool,
        (alpha, beta): (i32, i32),
        ply: usize,
        mover: Color,
        deep: &mut bool,
    ) -> i32 {
        let ply_before = self.game.ply();
        self.game.push(mv);
        self.count();
        let v = match self.game.result() {
            Some(result) => terminal(result, mover, ply),
            None if incremental => {
                if G::Forcing::trapped_next(&self.game, self.aux, mv, mover) {
                    -(MATE - ply as i32 - 2)
                } else if self.leaf_threats && leaf & 1 != 0 && ply + 2 < MAX_PLY {
                    // A four: the reply is forced; follow the line one ply deeper.
                    self.game.push_aux(self.aux, mv, mover);
                    self.pv[ply + 1].clear();
                    let v = -self.negamax(1, -beta, -alpha, ply + 1);
                    self.game.pop();
                    self.game.pop_aux(self.aux, mv, mover);
                    *deep = true;
                    v
                } else {
                    leaf >> 2
                }
            }
            None => {
                self.game.push_aux(self.aux, mv, mover);
                let v = -self.leaf(-beta, -alpha, ply + 1);
                self.game.pop();
                self.game.pop_aux(self.aux, mv, mover);
                v
            }
        };
        if self.game.ply() > ply_before {
            self.game.pop();
        }
        v
    }

    /// Late move pruning (option `lmp`): the place in search order from which a node of
    /// `depth` with the window (`alpha`, `beta`) skips quiet moves (`usize::MAX`: none).
    #[inline]
    fn late_moves(&self, depth: i32, alpha: i32, beta: i32, block: bool) -> usize {
        if self.lmp > 0
            && !block
            && (1..=LMP_DEPTH).contains(&depth)
            && beta - alpha == 1
            && beta.abs() < MATE_BOUND
        {
            self.lmp.saturating_add(depth * depth) as usize
        } else {
            usize::MAX
        }
    }

    /// The value of a leaf at `ply` (the game goes on): the static value, or with the
    /// `quiescence` option the quiescence search's.
    #[inline]
    fn leaf(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.quiescence {
            self.quiesce(alpha, beta, ply, 0)
        } else {
            self.game.evaluate(self.aux)
        }
    }

    /// The quiescence search (option `quiescence`): fail-soft, the static value as the
    /// side to move's floor ("stand pat"), the noisy moves by their ordering guess.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize, plies: usize) -> i32 {
        let stand = self.game.evaluate(self.aux);
        if stand >= beta || plies >= MAX_QUIESCENCE || ply + 1 >= MAX_PLY {
            return stand;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        G::Noisy::moves(&self.game, &mut moves);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        scored.extend(
            moves
                .iter()
                .map(|&mv| (i64::from(self.game.order_value(self.aux, mv)), 0, mv)),
        );
        scored.sort_by_key(|a| std::cmp::Reverse(a.0));
        let mover = self.game.turn();
        let mut best = stand;
        alpha = alpha.max(stand);
        for &(_, _, mv) in scored.iter() {
            let ended = self.push(mv, mover);
            let v = match ended {
                Some(result) => terminal(result, mover, ply),
                None => -self.quiesce(-beta, -alpha, ply + 1, plies + 1),
            };
            self.pop(mv, mover, ended.is_some());
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.scored[ply] = scored;
        best
    }

    // -- forcing analysis (Andantino) ------------------------------------------------

    fn forced(&mut self, ply: usize, mover: Color) -> Forced<G::Move> {
        let mut wins = std::mem::take(&mut self.threats);
        G::Forcing::line_win_candidates(&self.game, self.aux, &mut wins);
        for &mv in &wins {
            let result = self.probe(mv);
            if self.aborted {
                self.threats = wins;
                return Forced::Open;
            }
            if result.is_some_and(|r| r.winner == Some(mover)) {
                self.set_pv_one(ply, Some(mv));
                self.threats = wins;
                return Forced::Decided(MATE - ply as i32 - 1);
            }
        }
        self.threats = wins;
        if !G::Forcing::opponent_moves_on(&self.game) {
            return Forced::Open; // our move ends the game drawn, whatever it is
        }
        let mut legal = std::mem::take(&mut self.buffers[ply]);
        self.game.legal_moves(&mut legal);
        let mut threats = std::mem::take(&mut self.threats);
        G::Forcing::threats(&self.game, self.aux, &legal, &mut threats);
        let outcome = if threats.is_empty() {
            Forced::Open
        } else {
            self.facing(&legal, &threats, ply, mover)
        };
        self.threats = threats;
        self.buffers[ply] = legal;
        outcome
    }

    /// Score a node facing `threats`, or return the one blocking move to search.
    fn facing(
        &mut self,
        legal: &[G::Move],
        threats: &[G::Move],
        ply: usize,
        mover: Color,
    ) -> Forced<G::Move> {
        let loss = -(MATE - ply as i32 - 2);
        let mut best = -INF;
        let mut block = None;
        let single = threats.len() == 1;
        for &mv in legal {
            if single && threats[0] == mv {
                block = Some(mv);
                continue;
            }
            if G::Forcing::may_trap(&self.game, self.aux, mv) {
                if let Some(result) = self.probe(mv) {
                    let v = terminal(result, mover, ply);
                    if v > MATE_BOUND {
                        self.set_pv_one(ply, Some(mv));
                        return Forced::Decided(v);
                    }
                    best = best.max(v);
                    continue;
                }
                if self.aborted {
                    return Forced::Open;
                }
            } else if G::Forcing::self_trap_loses(&self.game, mv) {
                best = best.max(-(MATE - ply as i32 - 1));
                continue;
            }
            best = best.max(loss);
        }
        if self.aborted {
            return Forced::Open;
        }
        match block {
            Some(mv) => Forced::Block(mv),
            None => {
                self.pv[ply].clear();
                Forced::Decided(best)
            }
        }
    }
}

/// A move drawn among `candidates` (exact root scores) within `margin` of `best`; a
/// proven win is always the best move, a proven loss is never drawn unless all are.
fn choose<M: Copy>(candidates: &[(M, i32)], best: i32, margin: i32, rng: &mut Rng) -> Option<M> {
    if best > MATE_BOUND {
        return None; // play the (fastest) win: the best move
    }
    let pool: Vec<M> = candidates
        .iter()
        .filter(|&&(_, s)| s >= best.saturating_sub(margin) && s >= -MATE_BOUND)
        .map(|&(m, _)| m)
        .collect();
    if pool.is_empty() {
        return None;
    }
    Some(pool[rng.below(pool.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abande::ai::Captures;
    use crate::{abande, andantino};
    use std::time::Duration;

    #[test]
    fn logarithmic_reductions() {
        assert!(reductions(0).is_empty());
        let r = reductions(200);
        for d in 3..64 {
            for i in 3..64 {
                let x = i32::from(r[d][i]);
                // At least one ply, and the reduced search keeps at least one.
                assert!(x >= 1 && d as i32 - 1 - x >= 1, "{d} {i} {x}");
                // Never less for a later move or a deeper node.
                assert!(r[d][i] >= r[d][i - 1] && r[d][i] >= r[d - 1][i]);
            }
        }
        // ln(10) * ln(21) / 2 = 3.5: four plies.
        assert_eq!(r[10][20], 4);
        assert_eq!(r[3][3], 1);
    }

    fn search<G: SearchGame>(game: &G, limits: Limits, options: Options) -> SearchResult<G::Move> {
        search_with(game, limits, options, G::Weights::default())
    }

    fn search_with<G: SearchGame>(
        game: &G,
        limits: Limits,
        options: Options,
        weights: G::Weights,
    ) -> SearchResult<G::Move> {
        let mut ab = AlphaBeta::<G>::with_weights(8, options, weights).unwrap();
        ab.search(game, &limits, &Stop::new(), &mut |_| {}, &mut || false)
            .unwrap()
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    fn random_positions<G: SearchGame>(start: &G, count: usize, seed: u64) -> Vec<G> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < count {
            let mut g = start.clone();
            for _ in 0..6 + rng.below(20) {
                g.legal_moves(&mut moves);
                g.push(moves[rng.below(moves.len())]);
                if g.result().is_some() {
                    break;
                }
            }
            if g.result().is_none() {
                out.push(g);
            }
        }
        out
    }

    fn andantino(position: &str) -> andantino::Board {
        andantino::Board::new(Some(position), andantino::Rules::default()).unwrap()
    }

    fn best(board: &andantino::Board, d: u32) -> (String, Info) {
        let r = search(board, depth(d), Options::default());
        (r.best.notation(), r.info)
    }

    #[test]
    fn mate_scores_through_the_table() {
        let win = MATE - 7;
        assert_eq!(from_tt(to_tt(win, 3), 3), win);
        assert_eq!(to_tt(win, 3), MATE - 4); // a win in 4 plies from the node
        assert_eq!(from_tt(to_tt(-win, 5), 5), -win);
        assert_eq!(to_tt(123, 9), 123);
        let (mate, p) = mate_and_probability(MATE - 3, 250.0);
        assert_eq!((mate, p), (Some(3), 1.0));
        assert_eq!(mate_and_probability(-(MATE - 2), 250.0), (Some(-2), 0.0));
        assert_eq!(mate_and_probability(0, 250.0), (None, 0.5));
    }

    #[test]
    fn forced_results_in_andantino() {
        // A line in one, a trap in one (RULES.md's example), defend a four, lose to a
        // double threat: hexgames 0.1's test positions.
        let (mv, info) = best(
            &andantino("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w"),
            3,
        );
        assert_eq!((mv.as_str(), info.mate), ("-1,0", Some(1)));
        let trap = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w";
        let (mv, info) = best(&andantino(trap), 3);
        assert_eq!((mv.as_str(), info.mate), ("-1,1", Some(1)));
        let block = "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w";
        let (mv, info) = best(&andantino(block), 3);
        assert_eq!((mv.as_str(), info.mate), ("-1,1", None));
        let double = "andantino w=1,-2;2,-1;-1,0;0,0;-1,1;0,1;-2,2;-1,2;0,2;-4,3;1,3;-1,4;0,4 \
                      r=-1,-1;0,-1;1,-1;1,0;1,1;2,1;-3,2;1,2;-3,3;-2,3;-1,3;0,3 turn=r \
                      hands=w12,r13";
        let mut board = andantino(double);
        let (mv, info) = best(&board, 3);
        assert_eq!((mv.as_str(), info.mate), ("-2,0", Some(3)));
        board.push(board.parse_move("-2,0").unwrap());
        let (_, info) = best(&board, 3);
        assert_eq!(info.mate, Some(-2));
        let open_four = "andantino w=0,0;1,0;2,0 r=-2,0;3,1;1,1 turn=w";
        let (mv, info) = best(&andantino(open_four), 3);
        assert_eq!((mv.as_str(), info.mate), ("3,0", Some(3)));
    }

    #[test]
    fn null_move_keeps_the_forced_results_and_the_board() {
        let options = Options {
            lmr: true,
            null_move: true,
            ..Options::default()
        };
        let cases = [
            (
                "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w",
                "-1,0",
                Some(1),
            ),
            (
                "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w",
                "-1,1",
                None,
            ),
            (
                "andantino w=0,0;1,0;2,0 r=-2,0;3,1;1,1 turn=w",
                "3,0",
                Some(3),
            ),
        ];
        for (position, mv, mate) in cases {
            let r = search(&andantino(position), depth(6), options);
            assert_eq!(
                (r.info.pv[0].as_str(), r.info.mate),
                (mv, mate),
                "{position}"
            );
        }
        // The null move is its own inverse and changes only the side to move.
        let start = andantino::Board::new(None, andantino::Rules::default()).unwrap();
        for mut g in random_positions(&start, 10, 14) {
            let (key, position) = (g.zobrist(), g.position());
            SearchGame::flip_turn(&mut g);
            assert_ne!(g.zobrist(), key);
            assert_ne!(g.turn(), andantino(&position).turn());
            SearchGame::flip_turn(&mut g);
            assert_eq!((g.zobrist(), g.position()), (key, position));
        }
    }

    fn values_agree<G: SearchGame>(start: &G, d: u32, a: Options, b: Options, seed: u64) -> u64 {
        let mut saved = 0i64;
        for g in random_positions(start, 25, seed) {
            let x = search(&g, depth(d), a);
            let y = search(&g, depth(d), b);
            assert_eq!(
                (x.info.eval, x.info.mate),
                (y.info.eval, y.info.mate),
                "{}",
                g.position()
            );
            saved += y.info.nodes as i64 - x.info.nodes as i64;
        }
        saved.max(0) as u64
    }

    /// Positions of games played half greedily (the best last-ply value), half at
    /// random, 10 to 49 plies in: lines, fours and walls come up.
    fn greedy_positions(
        start: &andantino::Board,
        count: usize,
        seed: u64,
    ) -> Vec<andantino::Board> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        while out.len() < count {
            let mut g = start.clone();
            let mut aux = g.new_aux();
            for _ in 0..10 + rng.below(40) {
                g.legal_moves(&mut moves);
                let base = g.evaluate(&aux);
                let mut mv = moves[rng.below(moves.len())];
                if rng.below(2) == 0 {
                    let value = |m| g.leaf_value(&aux, base, m).map_or(base, |l| l.value);
                    mv = *moves.iter().max_by_key(|&&m| value(m)).unwrap();
                }
                let mover = g.turn();
                g.push(mv);
                if g.result().is_some() {
                    break;
                }
                g.push_aux(&mut aux, mv, mover);
            }
            if g.result().is_none() {
                out.push(g);
            }
        }
        out
    }

    #[test]
    fn settled_leaves_search_the_same_tree() {
        // Scoring settled last-ply moves without a push changes nothing but the time:
        // the same value, move, line and node count at every depth, under rules whose
        // game ends differ, with and without the forcing moves followed at the leaves.
        let d = andantino::Rules::default();
        let rule_sets = [
            d,
            andantino::Rules {
                single_adjacency: true,
                ..d
            },
            andantino::Rules {
                self_trap: andantino::SelfTrap::Ignore,
                ..d
            },
            andantino::Rules {
                tiles_per_player: Some(12),
                ..d
            },
            andantino::Rules {
                tiles_per_player: None,
                ..d
            },
        ];
        for (k, rules) in rule_sets.into_iter().enumerate() {
            let start = andantino::Board::new(None, rules).unwrap();
            for (i, g) in greedy_positions(&start, 8, 40 + k as u64)
                .iter()
                .enumerate()
            {
                let options = Options {
                    lmr: true,
                    leaf_threats: i % 2 == 0,
                    ..Options::default()
                };
                let weights = andantino::ai::Weights {
                    tempo: 30,
                    right: 40,
                    ..Default::default()
                };
                let plain = Options {
                    settle_leaves: false,
                    ..options
                };
                for d in 1..=6 {
                    let x = search_with(g, depth(d), options, weights);
                    let y = search_with(g, depth(d), plain, weights);
                    let line = |r: &SearchResult<andantino::Move>| {
                        (
                            r.best,
                            r.info.eval,
                            r.info.mate,
                            r.info.nodes,
                            r.info.pv.clone(),
                        )
                    };
                    assert_eq!(line(&x), line(&y), "{} depth {d}", g.position());
                }
            }
        }
    }

    #[test]
    fn late_move_pruning_skips_only_quiet_moves() {
        // Abande at 4 plies: the tree shrinks and the move stays legal; captures are
        // the noisy moves that are never pruned.
        let start = abande::Board::new(None, abande::Rules::default()).unwrap();
        let pruned = Options {
            lmp: 2,
            ..Options::default()
        };
        let (mut fewer, mut legal) = (0, Vec::new());
        for g in random_positions(&start, 20, 71) {
            let (x, y) = (
                search(&g, depth(4), pruned),
                search(&g, depth(4), Options::default()),
            );
            Game::legal_moves(&g, &mut legal);
            assert!(legal.contains(&x.best));
            fewer += usize::from(x.info.nodes < y.info.nodes);
            for &mv in &legal {
                assert_eq!(Captures::is_noisy(&g, mv), mv.is_stack_move());
            }
        }
        assert!(fewer >= 10, "{fewer}");
        // Without it, and in plain alpha-beta, nothing is pruned.
        let plain = Options {
            pvs: false,
            lmp: 2,
            ..Options::default()
        };
        values_agree(
            &start,
            3,
            plain,
            Options {
                pvs: false,
                ..Options::default()
            },
            72,
        );
    }

    #[test]
    fn abande_searches_captures_first_and_andantino_by_history() {
        // A capture of a 1-stack (guess 4) without history against an entry (guess 0)
        // with the most history a move can have.
        let w = <abande::Board as SearchGame>::ORDER_WEIGHT;
        assert!(order_key(4, -HISTORY_MAX, w) > order_key(0, HISTORY_MAX, w));
        assert!(order_key(8, 0, w) > order_key(4, HISTORY_MAX, w));
        // Andantino: a grown history outweighs the static guess.
        let w = <andantino::Board as SearchGame>::ORDER_WEIGHT;
        assert!(order_key(0, 1 << 20, w) > order_key(1000, 0, w));
    }

    #[test]
    fn any_order_weight_orders_without_overflow() {
        for weight in [i64::MIN, -1, 0, i64::MAX] {
            for guess in [i32::MIN, -1, 0, 1, i32::MAX] {
                for history in [-HISTORY_MAX, 0, HISTORY_MAX] {
                    order_key(guess, history, weight);
                }
            }
        }
        assert_eq!(order_key(i32::MAX, HISTORY_MAX, i64::MAX), i64::MAX);
        assert!(order_key(2, 0, i64::MAX) >= order_key(1, HISTORY_MAX, i64::MAX));
    }

    #[test]
    fn the_history_malus_lowers_the_moves_searched_before_a_cutoff() {
        let b = abande::Board::new(None, abande::Rules::default()).unwrap();
        for malus in [false, true] {
            let options = Options {
                history_malus: Some(malus),
                ..Options::default()
            };
            let mut lowest = 0;
            for g in random_positions(&b, 5, 31) {
                let mut ab = AlphaBeta::<abande::Board>::new(8, options).unwrap();
                ab.search(&g, &depth(5), &Stop::new(), &mut |_| {}, &mut || false)
                    .unwrap();
                let h = ab.history.iter().flatten().copied().min().unwrap();
                lowest = lowest.min(h);
            }
            assert_eq!(lowest < 0, malus, "lowest history {lowest}");
        }
        // The malus is Abande's default, not Andantino's.
        const { assert!(<abande::Board as SearchGame>::HISTORY_MALUS) };
        const { assert!(!<andantino::Board as SearchGame>::HISTORY_MALUS) };
    }

    #[test]
    fn pvs_equals_plain_alphabeta_and_the_table_keeps_the_value() {
        let a = andantino::Board::new(None, andantino::Rules::default()).unwrap();
        let b = abande::Board::new(None, abande::Rules::default()).unwrap();
        let plain = Options {
            pvs: false,
            use_tt: false,
            ..Options::default()
        };
        let pvs = Options {
            use_tt: false,
            ..Options::default()
        };
        values_agree(&a, 4, pvs, plain, 1);
        values_agree(&b, 4, pvs, plain, 2);
        assert!(values_agree(&a, 5, Options::default(), pvs, 3) > 0);
        assert!(values_agree(&b, 5, Options::default(), pvs, 4) > 0);
        // The same with the leaf threats followed.
        let deep = |o: Options| Options {
            leaf_threats: true,
            ..o
        };
        values_agree(&a, 4, deep(pvs), deep(plain), 7);
        assert!(values_agree(&a, 5, deep(Options::default()), deep(pvs), 8) > 0);
        // And with the quiescence search.
        let quiet = |o: Options| Options {
            quiescence: true,
            ..o
        };
        values_agree(&b, 4, quiet(pvs), quiet(plain), 9);
        assert!(values_agree(&b, 5, quiet(Options::default()), quiet(pvs), 10) > 0);
    }

    #[test]
    fn relocations_at_the_last_ply_are_evaluated() {
        // Extended play, Red to place while White can only relocate: at the last ply
        // White relocates (its node does not score leaves incrementally) and each
        // relocation's value is the evaluation after it, though Red, to move there,
        // would score its own leaves incrementally. Two plies by brute force.
        let rules = andantino::Rules {
            extended: true,
            tiles_per_player: Some(7),
            ..andantino::Rules::default()
        };
        let plain = Options {
            pvs: false,
            use_tt: false,
            ..Options::default()
        };
        let mut rng = Rng::new(5);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let mut checked = 0;
        for _ in 0..100 {
            // A position of random play, then White's hand emptied and Red to move.
            let mut g = andantino::Board::new(None, rules).unwrap();
            for _ in 0..4 + rng.below(5) {
                g.legal_moves(&mut a);
                g.push(a[rng.below(a.len())]);
                if g.result().is_some() {
                    break;
                }
            }
            let position = g.position();
            let Some((tiles, _)) = position.split_once(" turn=") else {
                continue;
            };
            let Ok(mut g) =
                andantino::Board::new(Some(&format!("{tiles} turn=r hands=w0,r3")), rules)
            else {
                continue;
            };
            if g.result().is_some() {
                continue;
            }
            let mut expected = -INF;
            g.legal_moves(&mut a);
            for &m in &a {
                g.push(m);
                let v = if let Some(result) = g.result() {
                    terminal(result, 1, 0)
                } else {
                    let mut reply = -INF;
                    g.legal_moves(&mut b);
                    for &r in &b {
                        g.push(r);
                        reply = reply.max(match g.result() {
                            Some(result) => terminal(result, 0, 1),
                            None => -g.evaluate(&g.new_aux()),
                        });
                        g.pop();
                    }
                    -reply
                };
                g.pop();
                expected = expected.max(v);
            }
            let r = search(&g, depth(2), plain);
            if expected.abs() < MATE_BOUND {
                assert_eq!(r.info.eval, Some(expected), "{}", g.position());
                checked += 1;
            }
        }
        assert!(checked >= 20, "{checked} positions checked");
    }

    #[test]
    fn aspiration_windows_keep_the_value() {
        // A window of 1 point fails nearly every time, on either side: the re-searches
        // must end at the full-window value, with and without the table.
        let a = andantino::Board::new(None, andantino::Rules::default()).unwrap();
        let b = abande::Board::new(None, abande::Rules::default()).unwrap();
        for use_tt in [false, true] {
            let full = Options {
                use_tt,
                ..Options::default()
            };
            for aspiration in [1, 30] {
                let narrow = Options { aspiration, ..full };
                values_agree(&a, 5, narrow, full, 21);
                values_agree(&b, 5, narrow, full, 22);
            }
        }
    }

    /// Plain minimax to `d` plies, then the quiescence search's tree: the static value
    /// or a capture, whichever is best, at most `MAX_QUIESCENCE` plies on.
    fn minimax(g: &mut abande::Board, d: u32, ply: usize, plies: usize) -> i32 {
        let aux = g.new_aux();
        let mover = g.turn();
        let mut moves = Vec::new();
        let mut best = if d == 0 { g.evaluate(&aux) } else { -INF };
        if d > 0 {
            Game::legal_moves(g, &mut moves);
        } else if plies < MAX_QUIESCENCE {
            Captures::moves(g, &mut moves);
        }
        for mv in moves {
            g.push(mv);
            let v = match g.result() {
                Some(result) => terminal(result, mover, ply),
                None if d > 0 => -minimax(g, d - 1, ply + 1, 0),
                None => -minimax(g, 0, ply + 1, plies + 1),
            };
            g.pop();
            best = best.max(v);
        }
        best
    }

    #[test]
    fn quiescence_is_the_minimax_of_captures_at_the_leaves() {
        let start = abande::Board::new(None, abande::Rules::default()).unwrap();
        let options = Options {
            pvs: false,
            use_tt: false,
            quiescence: true,
            ..Options::default()
        };
        let (mut differ, mut captures) = (0, 0);
        let mut noisy = Vec::new();
        for mut g in random_positions(&start, 10, 12) {
            for d in [1, 2] {
                let value = minimax(&mut g, d, 0, 0);
                let r = search(&g, depth(d), options);
                if value.abs() < MATE_BOUND {
                    assert_eq!(r.info.eval, Some(value), "{} depth {d}", g.position());
                }
                let r = search(
                    &g,
                    depth(d),
                    Options {
                        quiescence: false,
                        ..options
                    },
                );
                differ += usize::from(r.info.eval != Some(value));
            }
            Captures::moves(&g, &mut noisy);
            captures += noisy.len();
            // The noisy moves are the legal captures.
            let mut legal = Vec::new();
            Game::legal_moves(&g, &mut legal);
            legal.retain(|m| m.is_stack_move());
            assert_eq!(noisy, legal);
        }
        // The positions have captures, and following them changes some values.
        assert!(captures > 0 && differ > 0, "{captures} {differ}");
    }

    #[test]
    fn moves_are_legal_and_the_position_is_unchanged() {
        fn check<G: SearchGame>(start: &G, seed: u64) {
            let selective = Options {
                lmr: true,
                null_move: true,
                rfp: 150,
                lmp: 2,
                quiescence: true,
                ..Options::default()
            };
            for options in [Options::default(), selective] {
                check_with(start, seed, options);
            }
        }
        fn check_with<G: SearchGame>(start: &G, seed: u64, options: Options) {
            let mut legal = Vec::new();
            let mut ab = AlphaBeta::<G>::new(4, options).unwrap();
            for g in random_positions(start, 30, seed) {
                let (key, position) = (g.zobrist(), g.position());
                let limits = Limits {
                    nodes: Some(5000),
                    ..Limits::default()
                };
                let r = ab
                    .search(&g, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                    .unwrap();
                g.legal_moves(&mut legal);
                assert!(legal.contains(&r.best));
                assert_eq!((g.zobrist(), g.position()), (key, position));
                let mut line = g.clone();
                for text in &r.info.pv {
                    let mv = line.parse_move(text).unwrap();
                    line.push(mv);
                }
            }
        }
        check(
            &andantino::Board::new(None, andantino::Rules::default()).unwrap(),
            5,
        );
        let balance = andantino::Rules {
            single_adjacency: true,
            ..andantino::Rules::default()
        };
        check(&andantino::Board::new(None, balance).unwrap(), 7);
        check(
            &abande::Board::new(None, abande::Rules::default()).unwrap(),
            6,
        );
    }

    #[test]
    fn stop_works_within_milliseconds() {
        let start = andantino::Board::new(None, andantino::Rules::default()).unwrap();
        let g = random_positions(&start, 1, 9).remove(0);
        let stop = Stop::new();
        let remote = stop.clone();
        let asked = std::sync::Arc::new(std::sync::Mutex::new(None));
        let asked2 = asked.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            *asked2.lock().unwrap() = Some(Instant::now());
            remote.set();
        });
        let mut ab = AlphaBeta::<andantino::Board>::new(4, Options::default()).unwrap();
        let limits = Limits {
            time: Some(60.0),
            ..Limits::default()
        };
        let r = ab
            .search(&g, &limits, &stop, &mut |_| {}, &mut || false)
            .unwrap();
        let done = Instant::now();
        t.join().unwrap();
        let asked = asked.lock().unwrap().unwrap();
        assert!(done.duration_since(asked) < Duration::from_millis(20));
        assert!(r.info.depth >= 1);
    }

    #[test]
    fn the_order_of_a_huge_node_looks_at_the_limits() {
        // White places, Red relocates (500 tiles, some 500,000 moves): each node of
        // Red's scores and sorts them for its order. Before, 256 such nodes went by
        // between two looks at the clock: 1 s of time took 1.74 s, 2 s took 2.86 s.
        let board = crate::search::big::board(499, 500, 4, 200);
        let mut ab = AlphaBeta::<andantino::Board>::new(4, Options::default()).unwrap();
        let limits = Limits {
            time: Some(1.0),
            ..Limits::default()
        };
        let start = Instant::now();
        let r = ab
            .search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false)
            .unwrap();
        let took = start.elapsed().as_secs_f64();
        assert!(took < 1.25, "{took} s");
        assert!(board.check_move(r.best).is_ok());
        assert!(r.info.depth >= 1);
    }

    #[test]
    fn a_sort_in_steps_is_the_stable_sort() {
        let mut rng = Rng::new(5);
        for n in [
            0,
            1,
            7,
            SORT_RUN - 1,
            SORT_RUN,
            SORT_RUN + 1,
            3 * SORT_RUN + 5,
            40_000,
        ] {
            // Few distinct keys, many ties: the index shows the order kept.
            let v: Vec<(i64, usize)> = (0..n).map(|i| (rng.below(50) as i64 - 25, i)).collect();
            let mut expected = v.clone();
            expected.sort_by_key(|a| std::cmp::Reverse(a.0));
            let mut steps = 0;
            let mut sorted = v.clone();
            assert!(sort_in_steps(
                &mut sorted,
                |a| a.0,
                |_| {
                    steps += 1;
                    false
                }
            ));
            assert_eq!(sorted, expected, "{n}");
            assert_eq!(steps > 0, n > SORT_RUN);
            // Stopped at its third step: the same elements, partly sorted.
            let mut partial = v.clone();
            let mut calls = 0;
            let done = sort_in_steps(
                &mut partial,
                |a| a.0,
                |_| {
                    calls += 1;
                    calls == 3
                },
            );
            assert_eq!(done, steps <= 3, "{n}");
            partial.sort_by_key(|a| a.1);
            assert_eq!(partial, v);
        }
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(AlphaBeta::<abande::Board>::new(0, Options::default()).is_err());
        let zero = Options {
            multipv: 0,
            ..Options::default()
        };
        assert!(AlphaBeta::<abande::Board>::new(1, zero).is_err());
        // Andantino's weights must not fall (the incremental gains assume it).
        let falling = andantino::ai::Weights {
            line: [0, 1, 6, 30, 20, 160],
            ..Default::default()
        };
        let options = Options::default();
        assert!(AlphaBeta::<andantino::Board>::with_weights(1, options, falling).is_err());
        let negative = andantino::ai::Weights {
            enclosure: [-1, 0, 1, 4, 16, 60, 60],
            ..Default::default()
        };
        assert!(AlphaBeta::<andantino::Board>::with_weights(1, options, negative).is_err());
        let mut ab = AlphaBeta::<abande::Board>::new(1, Options::default()).unwrap();
        let b = abande::Board::new(None, abande::Rules::default()).unwrap();
        let nan = Limits {
            time: Some(f64::NAN),
            ..Limits::default()
        };
        assert!(ab
            .search(&b, &nan, &Stop::new(), &mut |_| {}, &mut || false)
            .is_err());
    }
}
