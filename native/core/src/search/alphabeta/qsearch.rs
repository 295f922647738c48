//! The leaves: the static value, or the quiescence search of the game's noisy moves.

use super::game::{Noisy, SearchGame};
use super::search::{terminal, Search};
use super::{MAX_PLY, MAX_QUIESCENCE};

impl<G: SearchGame> Search<'_, G> {
    /// The value of a leaf at `ply` (the game goes on): the static value, or with the
    /// `quiescence` option the quiescence search's.
    #[inline]
    pub(super) fn leaf(&mut self, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.quiescence {
            self.qsearch(alpha, beta, ply, 0)
        } else {
            self.game.evaluate(self.aux)
        }
    }

    /// The quiescence search (option `quiescence`): fail-soft, the static value as the
    /// side to move's floor ("stand pat"), the noisy moves by their ordering guess.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, plies: usize) -> i32 {
        let stand = self.game.evaluate(self.aux);
        if stand >= beta || plies >= MAX_QUIESCENCE || ply + 1 >= MAX_PLY {
            return stand;
        }
        self.seldepth = self.seldepth.max(ply);
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        G::Noisy::moves(&self.game, &mut moves);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        scored.extend(
            moves
                .iter()
                .map(|&mv| (i64::from(self.game.order_value(self.aux, mv)), 0, mv)),
        );
        scored.sort_by_key(|a| std::cmp::Reverse(a.0));
        let mover = self.game.turn();
        let mut best = stand;
        alpha = alpha.max(stand);
        for &(_, _, mv) in scored.iter() {
            let ended = self.push(mv, mover);
            let v = match ended {
                Some(result) => terminal(result, mover, ply),
                None => -self.qsearch(-beta, -alpha, ply + 1, plies + 1),
            };
            self.pop(mv, mover, ended.is_some());
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        self.buffers[ply] = moves;
        self.scored[ply] = scored;
        best
    }
}
