//! What the computer players know of Abande, in one place (the search algorithms in
//! `crate::search` know no game: they ask a game through their traits, implemented
//! here):
//!
//! - [`eval`]: the evaluation's terms from the board's bit sets, and their weights;
//! - [`learned`]: the learned evaluation (more terms, weights fitted to self-play);
//! - `search`: alpha-beta's view of the game ([`SearchGame`]): the evaluation at every
//!   leaf, captures first, the null move while both sides enter pieces, and the
//!   captures as the noisy moves ([`Captures`], the search's optional `Noisy` part),
//!   and the greedy player's view ([`GreedyGame`]: the same evaluation);
//! - `playout`: MCTS's immediate-win test (the winning pass) and playout policy
//!   ([`MctsGame`]);
//! - [`solver`]: the exact endgame solver (both hands empty), a player of its own.
//!
//! [`SearchGame`]: crate::search::alphabeta::SearchGame
//! [`MctsGame`]: crate::search::mcts::MctsGame
//! [`GreedyGame`]: crate::search::greedy::GreedyGame

pub mod eval;
pub mod learned;
mod playout;
mod search;
pub mod solver;

pub use eval::Weights;
pub use playout::PlayoutScratch;
pub use search::Captures;
