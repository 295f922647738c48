//! What the search asks of a game ([`SearchGame`]), with its two optional parts: the
//! forcing analysis ([`Forcing`], Andantino's) and the noisy moves ([`Noisy`],
//! Abande's). Each game implements them in its `ai` module.

use crate::error::Result;
use crate::game::{Color, Game};
use crate::search::tt::TableMove;

/// What the search needs of a game beyond [`Game`]: the evaluation, move-ordering hints,
/// the null move, and two optional parts behind associated types: the forcing analysis
/// ([`Forcing`]) and the noisy moves ([`Noisy`]).
pub trait SearchGame: Game<Move: TableMove> {
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
    /// Points at which the logistic of [`win_probability`](crate::search::win_probability) gives about 73% (the Python
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
    /// cut (the history malus; the option [`Options::history_malus`](super::Options::history_malus) overrides it).
    const HISTORY_MALUS: bool = false;

    fn rules_of(&self) -> Self::Rules;
    /// The incremental state of this position.
    fn new_aux(&self) -> Self::Aux;
    /// Make `aux` that of this position again (reusing its memory).
    fn reset_aux(&self, aux: &mut Self::Aux);
    /// [`SearchGame::reset_aux`], faster where the game can update only what differs
    /// from the position `aux` was last made for (MCTS's cut-off evaluations, one
    /// position after another; the default resets).
    fn sync_aux(&self, aux: &mut Self::Aux) {
        self.reset_aux(aux);
    }
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
/// the wins in one and the threats the side to move must answer. An optional part of a
/// [`SearchGame`], named by [`SearchGame::Forcing`] (Andantino's threat finder
/// implements every hook); [`NoForcing`], these defaults, switches the analysis off.
/// Every answer must be exact where it decides a value: the analysis scores moves
/// without searching them.
pub trait Forcing<G: SearchGame> {
    /// Whether the rules of `game` allow the forcing analysis at all.
    fn enabled(_game: &G) -> bool {
        false
    }
    /// Whether this node gets the forcing analysis.
    fn node(_game: &G) -> bool {
        false
    }
    /// The side to move's candidate wins in one, probed before anything else at a node
    /// of the analysis, into `out` (cleared): moves that may win at once (the others
    /// are found, where they matter, by [`Forcing::may_win`]).
    fn win_candidates(_game: &G, _aux: &G::Aux, out: &mut Vec<G::Move>) {
        out.clear();
    }
    /// Whether the opponent still has a move after the side to move's that could
    /// carry out a threat (if not, the threats are not looked for).
    fn opponent_moves_on(_game: &G) -> bool {
        true
    }
    /// The opponent's threats: the side to move's moves onto the places where the
    /// opponent would win with its next move, into `out` (cleared, each once); `legal`
    /// holds the legal moves. With one, it is the only move that does not lose unless
    /// another wins at once; with two or more, none.
    fn threats(_game: &G, _aux: &mut G::Aux, _legal: &[G::Move], out: &mut Vec<G::Move>) {
        out.clear();
    }
    /// Whether `mv`, not a block of a threat, might still win at once (it is then
    /// pushed to see); `false` must be sure.
    fn may_win(_game: &G, _aux: &G::Aux, _mv: G::Move) -> bool {
        false
    }
    /// Whether `mv` loses at once, told without pushing it (`true` must be sure).
    fn loses_at_once(_game: &G, _mv: G::Move) -> bool {
        false
    }
    /// After `mv` by `mover` was pushed (the game goes on, `aux` not updated): whether
    /// the opponent surely wins with its next move, by a test the game makes cheaply at
    /// the last ply (`false` proves nothing).
    fn loses_next(_game: &G, _aux: &mut G::Aux, _mv: G::Move, _mover: Color) -> bool {
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
    /// The move threatens to win next move, so that the opponent's reply is forced:
    /// with the `leaf_threats` option such a move is searched one ply deeper instead of
    /// being scored statically.
    pub forcing: bool,
    /// The move cannot end the game and the position after it needs no test of the
    /// search's own ([`Forcing::loses_next`] among them), so `value` is its value
    /// exactly and the frontier need not push it (option `settle_leaves`).
    pub settled: bool,
}
