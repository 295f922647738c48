//! The alpha-beta player of both games: negamax with principal variation search,
//! iterative deepening, a transposition table, killers and history, an exact forcing
//! analysis where the game has one, and a quiescence search where it has noisy moves;
//! the algorithm of hexgames 0.1's pure-Python player at compiled speed, with late move
//! reductions. The search knows no game: it asks one through [`SearchGame`], and each
//! game answers in its `ai` module (`andantino::ai`, `abande::ai`).
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
//! **Forcing analysis** (a game's optional [`Forcing`] part, Andantino's; exact, no
//! guesswork): each node first plays a win in one of the side to move if its
//! candidates ([`Forcing::win_candidates`]) hold one. Otherwise it asks for the
//! opponent's *threats* ([`Forcing::threats`]: the places where the opponent would win
//! next move). If there are any, every move that neither blocks one nor wins at once
//! loses two plies later, so those moves are only pushed to test for a win in one
//! ([`Forcing::may_win`]) and scored as lost ([`Forcing::loses_at_once`] a ply sooner);
//! the one blocking move is searched one ply deeper (the extension). With two threats
//! nothing helps and the node is scored as lost. At the last ply a move the game finds
//! lost next move ([`Forcing::loses_next`]) is scored so. All of it depends on the
//! position only, so the table stays exact.
//!
//! **Leaves**: the last ply scores each move as the parent's evaluation plus the move's
//! gain where the game keeps its evaluation incrementally ([`SearchGame::leaf_value`]),
//! else by pushing it and evaluating; every leaf is pushed to test for the end of the
//! game unless the game says its value is settled ([`Leaf::settled`]).
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
//! see `benchmarks/bench_strength.py`): `leaf_threats` searches a last-ply forcing move
//! ([`Leaf::forcing`]) one ply deeper (sequences of threats followed to the end), `lmr` reduces
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
//!
//! **Layout**, one file a concept (as Stockfish keeps `search.cpp` apart from
//! `movepick.cpp` and `history.h`, and tantabus `search.rs` from `history.rs`):
//! - this file: the player ([`AlphaBeta`]), its [`Options`] and the constants;
//! - `game`: what the search asks of a game ([`SearchGame`]) and its two optional
//!   parts, the forcing analysis ([`Forcing`]) and the noisy moves ([`Noisy`]);
//! - `root`: iterative deepening and the root's moves (MultiPV, varied play,
//!   aspiration windows);
//! - `search`: the node search (negamax, interior and frontier nodes, the selective
//!   options, make and unmake, the limits);
//! - `forcing`: the forcing analysis of a node;
//! - `movepick`: move ordering;
//! - `history`: the killers and the history heuristic;
//! - `qsearch`: the leaves and the quiescence search;
//! - `tests`.

mod forcing;
mod game;
mod history;
mod movepick;
mod qsearch;
mod root;
mod search;
#[cfg(test)]
mod tests;

use std::time::Instant;

use super::time::TimeManager;
use super::tt::Table;
use super::{Info, Limits, Stop};
use crate::error::{Error, Result};
use crate::zobrist::Rng;

pub use game::{AllQuiet, Forcing, Leaf, NoForcing, Noisy, SearchGame};
pub use history::HISTORY_MAX;
use history::{History, Killers};
pub use movepick::order_key;
pub use search::{from_tt, null_reduction, to_tt};
use search::{reductions, Search};

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
    /// Search the last ply's forcing moves ([`Leaf::forcing`]; Andantino's: a move
    /// making a four) one ply deeper, so that sequences of threats are followed to the
    /// end at the leaves (a victory-by-continuous-fours search).
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
    history: History,
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
        Ok(AlphaBeta {
            tt,
            history: History::new(G::HISTORY_SIZE)?,
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
        self.history.clear();
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
        self.history.age();
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
            killers: Killers::new(MAX_PLY + 2),
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
