//! The killer moves and the history heuristic: what a cutoff teaches the search about
//! the order of moves elsewhere.

use super::game::SearchGame;
use super::search::Search;
use crate::game::Color;

/// The largest history score of a move (and with the history malus the lowest is its
/// negative).
pub const HISTORY_MAX: i32 = 1 << 24;

impl<G: SearchGame> Search<'_, G> {
    pub(super) fn cutoff(&mut self, mv: G::Move, ply: usize, depth: i32, mover: Color) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let h = &mut self.history[mover as usize][G::history_index(mv)];
        *h = h.saturating_add(depth * depth).min(HISTORY_MAX);
    }
}
