//! The killer moves and the history heuristic (Schaeffer, "The history heuristic and
//! alpha-beta search enhancements in practice", IEEE PAMI 1989): what a cutoff teaches
//! the search about the order of moves elsewhere.

use super::game::SearchGame;
use super::search::Search;
use crate::error::{Error, Result};
use crate::game::Color;

/// The largest history score of a move (and with the history malus the lowest is its
/// negative).
pub const HISTORY_MAX: i32 = 1 << 24;

/// The history table: a score for each side and each slot of a move
/// ([`SearchGame::history_index`]), raised by the square of the depth at a cutoff. The
/// player keeps it from one search to the next, a quarter of it each time.
pub(super) struct History {
    sides: [Vec<i32>; 2],
}

impl History {
    /// A table of `slots` slots a side, all 0.
    ///
    /// Errors: `Error::InvalidArgument` if there is not enough memory.
    pub(super) fn new(slots: usize) -> Result<History> {
        let mut sides = [Vec::new(), Vec::new()];
        for h in &mut sides {
            h.try_reserve_exact(slots)
                .map_err(|_| Error::InvalidArgument("not enough memory".to_string()))?;
            h.resize(slots, 0);
        }
        Ok(History { sides })
    }

    /// Every score back to 0 (a new game).
    pub(super) fn clear(&mut self) {
        for h in &mut self.sides {
            h.fill(0);
        }
    }

    /// Keep a quarter of every score (a new search).
    pub(super) fn age(&mut self) {
        for h in &mut self.sides {
            for x in h.iter_mut() {
                *x >>= 2;
            }
        }
    }

    /// The scores of `mover`'s moves, by slot.
    #[inline]
    pub(super) fn side(&self, mover: Color) -> &[i32] {
        &self.sides[mover as usize]
    }

    /// Raise the score of `mover`'s move in `slot` by `bonus` (at most [`HISTORY_MAX`]).
    #[inline]
    fn reward(&mut self, mover: Color, slot: usize, bonus: i32) {
        let h = &mut self.sides[mover as usize][slot];
        *h = h.saturating_add(bonus).min(HISTORY_MAX);
    }

    /// Lower the score of `mover`'s move in `slot` by `malus` (at least
    /// `-HISTORY_MAX`).
    #[inline]
    fn punish(&mut self, mover: Color, slot: usize, malus: i32) {
        let h = &mut self.sides[mover as usize][slot];
        *h = h.saturating_sub(malus).max(-HISTORY_MAX);
    }

    /// The lowest score in the table.
    #[cfg(test)]
    pub(super) fn lowest(&self) -> i32 {
        self.sides.iter().flatten().copied().min().unwrap_or(0)
    }
}

/// Two killer moves a ply: the last two different moves that cut off at that ply in
/// the search (its siblings' cutoffs), searched early at the nodes of the ply.
pub(super) struct Killers<M> {
    plies: Vec<[Option<M>; 2]>,
}

impl<M: Copy + PartialEq> Killers<M> {
    /// No killers yet, for `plies` plies.
    pub(super) fn new(plies: usize) -> Killers<M> {
        Killers {
            plies: vec![[None, None]; plies],
        }
    }

    /// The killers of `ply`, the newer first.
    #[inline]
    pub(super) fn at(&self, ply: usize) -> [Option<M>; 2] {
        self.plies[ply]
    }

    /// `mv` cut off at `ply`: the newer killer there, unless it is already.
    #[inline]
    fn store(&mut self, ply: usize, mv: M) {
        let killers = &mut self.plies[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
    }
}

impl<G: SearchGame> Search<'_, G> {
    /// `mv` by `mover` cut off at `ply` with `depth` plies to go: it becomes a killer
    /// of the ply and its history rises by `depth²`.
    pub(super) fn cutoff(&mut self, mv: G::Move, ply: usize, depth: i32, mover: Color) {
        self.killers.store(ply, mv);
        self.history
            .reward(mover, G::history_index(mv), depth * depth);
    }

    /// The history malus (option `history_malus`): the moves `searched` before the one
    /// that cut off, with `depth` plies to go, lose `depth²` of their history.
    pub(super) fn malus(&mut self, searched: &[G::Move], depth: i32, mover: Color) {
        for &m in searched {
            self.history
                .punish(mover, G::history_index(m), depth * depth);
        }
    }
}
