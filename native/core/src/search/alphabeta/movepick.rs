//! Move ordering: the order in which a node's moves are searched (the table move, the
//! killers, then the rest by static guess and history), and the sort in steps that
//! lets a search stop while a huge node is ordered.

use super::game::SearchGame;
use super::search::Search;
use super::WORK_CHECK;
use crate::game::Color;

/// Lists longer than this are sorted in steps ([`sort_in_steps`]).
pub(super) const SORT_RUN: usize = 8192;

/// Sort `v` stably by `key`, largest first (the order of
/// `v.sort_by_key(|x| Reverse(key(x)))`), in steps: runs of [`SORT_RUN`] sorted, then
/// neighbouring runs merged, a pass over all of `v` at a time, with `step(elements)`
/// called after each step. If it returns true the sort stops there (`v` then holds its
/// elements partly sorted); returns whether the sort was completed.
pub(super) fn sort_in_steps<T: Copy>(
    v: &mut [T],
    key: impl Fn(&T) -> i64,
    mut step: impl FnMut(usize) -> bool,
) -> bool {
    let n = v.len();
    if n <= SORT_RUN {
        v.sort_by_key(|x| std::cmp::Reverse(key(x)));
        return true;
    }
    for run in v.chunks_mut(SORT_RUN) {
        run.sort_by_key(|x| std::cmp::Reverse(key(x)));
        if step(run.len()) {
            return false;
        }
    }
    let mut merged: Vec<T> = Vec::with_capacity(n);
    let mut width = SORT_RUN;
    while width < n {
        merged.clear();
        for pair in v.chunks(2 * width) {
            let (left, right) = pair.split_at(width.min(pair.len()));
            let (mut a, mut b) = (0, 0);
            while a < left.len() && b < right.len() {
                // Ties to the left run: stable.
                if key(&right[b]) > key(&left[a]) {
                    merged.push(right[b]);
                    b += 1;
                } else {
                    merged.push(left[a]);
                    a += 1;
                }
            }
            merged.extend_from_slice(&left[a..]);
            merged.extend_from_slice(&right[b..]);
        }
        v.copy_from_slice(&merged);
        width *= 2;
        if step(n) {
            return width >= n;
        }
    }
    true
}

/// A move's ordering key (higher first) from its static guess, its history and the
/// guess's weight ([`SearchGame::ORDER_WEIGHT`]); saturating, so that any weight of
/// [`Options::order_weight`](super::Options::order_weight) orders moves without overflowing.
#[inline]
pub fn order_key(guess: i32, history: i32, weight: i64) -> i64 {
    i64::from(guess)
        .saturating_mul(weight)
        .saturating_add(i64::from(history))
}

impl<G: SearchGame> Search<'_, G> {
    /// Sort `scored` by its first field, largest first and stably, in steps that look
    /// at the limits ([`sort_in_steps`]).
    pub(super) fn sort_scored(&mut self, scored: &mut [(i64, i32, G::Move)]) {
        sort_in_steps(scored, |a| a.0, |n| self.busy(n));
    }

    /// The legal moves in search order into a buffer of `ply`: the table move, the
    /// killers, then by static guess and history.
    pub(super) fn ordered(
        &mut self,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        ply: usize,
        mover: Color,
    ) -> Vec<G::Move> {
        let mut out = Vec::with_capacity(moves.len());
        self.order_into(moves, tt_move, ply, mover);
        out.extend(self.scored[ply].iter().map(|&(_, _, m)| m));
        out
    }

    /// Score `moves` for the order of the node at `ply` into `self.scored[ply]` and
    /// sort them. If the search stops meanwhile, they are left partly scored or sorted
    /// (the node is then abandoned).
    pub(super) fn order_into(
        &mut self,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        ply: usize,
        mover: Color,
    ) {
        let [k1, k2] = self.killers[ply];
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for chunk in moves.chunks(WORK_CHECK as usize) {
            let history = &self.history[mover as usize];
            for &mv in chunk {
                // Above any guess and history (a guess times its weight stays below
                // 2^36).
                let s = if Some(mv) == tt_move {
                    1i64 << 50
                } else {
                    let mut s = order_key(
                        self.game.order_value(self.aux, mv),
                        history[G::history_index(mv)],
                        self.order_weight,
                    );
                    if Some(mv) == k1 {
                        s += 1 << 41;
                    } else if Some(mv) == k2 {
                        s += 1 << 40;
                    }
                    s
                };
                scored.push((s, 0, mv));
            }
            if chunk.len() == WORK_CHECK as usize && self.busy(chunk.len()) {
                break;
            }
        }
        // Stable: equal guesses keep the legal-move order.
        if !self.aborted {
            self.sort_scored(&mut scored);
        }
        self.scored[ply] = scored;
    }
}
