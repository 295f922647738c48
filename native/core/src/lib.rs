//! hexgames-core: the rules of Andantino and Abande, playouts and search, at compiled
//! speed. This crate knows nothing of Python; `native/python` binds it as
//! `hexgames._native`.
//!
//! The rules are those of the project's `docs/rules.md` and the notation that of
//! `docs/notation.md`, exactly as the pure-Python boards (`hexgames.andantino`,
//! `hexgames.abande`) play them: the Python boards are the readable reference, and a
//! differential test in CI checks that both agree on every ply of thousands of games
//! (legal moves, outcomes, Zobrist keys, position strings).
//!
//! Layout, one module per concept (after shakmaty):
//! - [`error`]: the typed errors every fallible constructor returns (never a panic);
//! - [`zobrist`]: SplitMix64, from which both games' Zobrist keys come;
//! - [`game`]: the [`game::Game`] trait that search code is generic over;
//! - [`andantino`], [`abande`]: the two games, each with its `ai` module (what the
//!   players know of the game: its evaluation, threats, forcing moves, playout policy;
//!   Abande's endgame solver);
//! - [`search`]: the players, generic over game-level concepts (alpha-beta in
//!   `search::alphabeta`, MCTS, greedy, limits and the stop flag);
//! - [`proof`]: df-pn, the proof-number search, and the strategies it proves;
//! - [`perft`], [`playout`]: move-generation counts and random playouts;
//! - [`encoding`]: the fixed action spaces and observation planes for learning
//!   frameworks, and a vector of games stepped together;
//! - [`pytext`]: Python's string rules that the parsers must match (whitespace, case,
//!   `repr`).

pub mod abande;
pub mod andantino;
pub mod encoding;
pub mod error;
mod fxhash;
pub mod game;
mod memory;
pub mod perft;
pub mod playout;
pub mod proof;
pub mod pytext;
pub mod search;
pub mod zobrist;

pub use error::Error;
pub use game::{Color, Game, GameResult, Termination};
