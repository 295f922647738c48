//! Andantino (David L. Smith, 1995): the rules of the project's docs/rules.md with every
//! option, exactly as `hexgames.andantino` plays them, at compiled speed.
//!
//! - [`Rules`] and [`SelfTrap`]: the options, read and written as the Python `Rules`;
//! - [`Cell`] and [`Move`]: axial cells and moves with their notation (docs/notation.md);
//! - [`Setup`] and [`parse_position`]: position strings, unchecked;
//! - [`Board`]: a position under make/unmake implementing [`crate::game::Game`], with
//!   Zobrist keys equal to the Python board's `zobrist_hash()`.
//!
//! - [`ai`]: what the computer players know of Andantino (evaluation, threats, the
//!   search's, MCTS's and greedy's views of the game).
//!
//! Inside, one module per concept: `surface` (one byte per cell, in a dense window or a
//! hash map), `state` (make/unmake, legal moves, lines, the verdict), `enclosure` (the
//! trap: which cells each colour walls off, kept incrementally).

pub mod ai;
mod board;
mod cell;
mod enclosure;
mod position;
mod rules;
mod state;
mod surface;

#[cfg(test)]
mod tests;

pub use board::{Board, Outcome};
pub use cell::{Cell, Move, COORDINATE_LIMIT};
pub use position::{parse_position, Setup};
pub use rules::{Rules, SelfTrap};
