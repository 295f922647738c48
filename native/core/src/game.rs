//! What search code sees of a game: the [`Game`] trait, in the manner of OpenSpiel's
//! state interface and the Python engine's `GameState` protocol, so that perft,
//! playouts, alpha-beta and MCTS serve both games.

use crate::zobrist::Rng;

/// A side: 0 for the player who moves first (White in Andantino, Black in Abande), 1 for
/// the second, as in the Python package.
pub type Color = u8;

/// Why a game ended; the names are the record's `Termination` tag (docs/notation.md,
/// "Results and terminations").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Line,
    Trap,
    LineAndTrap,
    SelfTrap,
    TilesExhausted,
    MoveLimit,
    Repetition,
    Score,
}

impl Termination {
    /// The record's `Termination` tag: `line`, `trap`, `line+trap`, ...
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Line => "line",
            Termination::Trap => "trap",
            Termination::LineAndTrap => "line+trap",
            Termination::SelfTrap => "self-trap",
            Termination::TilesExhausted => "tiles-exhausted",
            Termination::MoveLimit => "move-limit",
            Termination::Repetition => "repetition",
            Termination::Score => "score",
        }
    }
}

/// How a finished game ended, in brief: the winner (`None` for a draw) and why. The
/// games give the details (the line, the trapped tiles, the score) by methods of their
/// own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub termination: Termination,
    pub winner: Option<Color>,
}

impl GameResult {
    /// The result for `player`: 1.0 a win, 0.5 a draw, 0.0 a loss.
    #[inline]
    pub fn value_for(self, player: Color) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if w == player => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// A game position under make/unmake, as search code uses it.
///
/// `push` takes a legal move (one that `legal_moves` gave for this position); a caller
/// with a move from elsewhere checks it first with `check_move`. `pop` takes back the
/// last move pushed since the position was made.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move: a small `Copy` value.
    type Move: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static;

    /// The game's name in position strings: `andantino` or `abande`.
    const NAME: &'static str;

    /// The side to move.
    fn turn(&self) -> Color;

    /// Plies pushed since the position was made (not counting its own history).
    fn ply(&self) -> usize;

    /// The legal moves here into `out` (cleared first), in the order the Python board's
    /// `legal_moves` gives them where that order is defined; none once the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// A legal move drawn uniformly by `rng.below(n)` over the `n` moves of
    /// `legal_moves`' list (the same draw, so the same move, as indexing that list), or
    /// `None` with nothing drawn when there is none; `scratch` may be used as that list.
    /// A game that keeps its list of moves overrides this to skip the copy.
    #[inline]
    fn random_move(&self, rng: &mut Rng, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.legal_moves(scratch);
        if scratch.is_empty() {
            None
        } else {
            Some(scratch[rng.below(scratch.len())])
        }
    }

    /// Play a legal move.
    fn push(&mut self, mv: Self::Move);

    /// Take back the last move pushed. Panics if there is none (a bug of the caller).
    fn pop(&mut self);

    /// How the game ended, or `None` while it goes on.
    fn result(&self) -> Option<GameResult>;

    /// The 64-bit Zobrist key, equal to the Python board's `zobrist_hash()`.
    fn zobrist(&self) -> u64;

    /// A compact number for `mv`, unique among the moves of one game (for killer and
    /// history tables and move lists that outlive a position).
    fn move_id(mv: Self::Move) -> u64;

    /// The move's canonical text (docs/notation.md).
    fn notation(&self, mv: Self::Move) -> String;

    /// The legal move that `text` names here.
    ///
    /// Errors: `Error::InvalidMove` for text that is not a move, `Error::IllegalMove`
    /// (with the reason) for a move the rules forbid here.
    fn parse_move(&self, text: &str) -> crate::error::Result<Self::Move>;

    /// The position string (docs/notation.md), as the Python board's `position()` writes it.
    fn position(&self) -> String;
}
