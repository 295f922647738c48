//! What the computer players know of Andantino, in one place (the search algorithms in
//! `crate::search` know no game: they ask a game through their traits, implemented
//! here):
//!
//! - [`eval`]: the evaluation (line and enclosure potential), kept incrementally under
//!   make/unmake by a [`Tracker`], with the threat cells of the forcing analysis;
//! - `search`: alpha-beta's view of the game ([`SearchGame`]): the tracker as the
//!   evaluation, the last ply's values without a push, the null move;
//! - `forcing`: the forcing analysis's hooks ([`Threats`], the search's optional
//!   [`Forcing`] part): line wins, threat cells, traps in one;
//! - `threats`: the line threats and the moves that may win at once, read from the
//!   board's own cells (MCTS's playouts, and the greedy player's [`GreedyGame`], which
//!   evaluates with alpha-beta's evaluation);
//! - `playout`: MCTS's immediate-win test and playout policy ([`MctsGame`]);
//! - `replies`: what the proof search reads of a node once for the tests of its
//!   children ([`Replies`]: the opponent's wins at once after each move, the mover's
//!   threats).
//!
//! [`SearchGame`]: crate::search::alphabeta::SearchGame
//! [`Forcing`]: crate::search::alphabeta::Forcing
//! [`MctsGame`]: crate::search::mcts::MctsGame
//! [`GreedyGame`]: crate::search::greedy::GreedyGame

pub mod eval;
mod forcing;
mod playout;
mod replies;
mod search;
mod threats;

pub use eval::{Tracker, Weights};
pub use forcing::Threats;
pub use playout::{cutoff_value, PlayoutScratch, MAX_FORCED};
pub use replies::Replies;
