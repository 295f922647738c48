//! Abande (Dieter Stein, 2005): the rules of docs/rules.md ("Abande") exactly as the
//! Python board `hexgames.abande.Board` plays them, at compiled speed.
//!
//! - [`bits`]: the 37 points as bits of a `u64` (the Python layout), neighbours by
//!   shifts, flood fills, the ring tables of the band test;
//! - [`keys`]: the Zobrist keys, equal to the Python board's;
//! - [`rules`]: the options (`max_height`);
//! - [`moves`]: [`Move`] and its notation;
//! - [`position`]: position strings in;
//! - [`board`]: [`Board`], make/unmake, legal moves, scoring, the [`Game`](crate::Game)
//!   trait;
//! - [`ai`]: what the computer players know of Abande (evaluation, the search's, MCTS's
//!   and greedy's views of the game).
//!
//! ```
//! use hexgames_core::abande::{Board, Rules};
//! use hexgames_core::{perft::perft, Game};
//!
//! let mut board = Board::new(None, Rules::default()).unwrap();
//! assert_eq!(perft(&mut board, 3), 1176);
//! board.push_notation("d4").unwrap();
//! assert_eq!(board.position(), "abande d4=B turn=w hands=b17,w18");
//! ```

pub mod ai;
pub mod bits;
pub mod board;
pub mod keys;
pub mod moves;
pub mod position;
pub mod rules;

#[cfg(test)]
mod tests;

pub use board::{Board, Outcome};
pub use moves::Move;
pub use rules::Rules;
