//! Move ordering: the order in which a node's moves are searched (the table move, the
//! killers, then the rest by static guess and history), handed out in stages by a
//! move picker as in Stockfish's `movepick.cpp` ([`MovePicker`] at interior nodes,
//! [`LeafPicker`] at the last ply), and the sort in steps that lets a search stop
//! while a huge node is ordered.

use super::game::{Leaf, SearchGame};
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
        let [k1, k2] = self.killers.at(ply);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        for chunk in moves.chunks(WORK_CHECK as usize) {
            let history = self.history.side(mover);
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

    /// The move picker of the interior node at `ply` ([`MovePicker`]): the forcing
    /// analysis's `block` alone, or the table move `tt_move` first if it is legal, or
    /// all the legal moves ordered at once.
    pub(super) fn move_picker(
        &mut self,
        ply: usize,
        mover: Color,
        tt_move: Option<G::Move>,
        block: Option<G::Move>,
    ) -> MovePicker<G::Move> {
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let mut stage = Stage::Listed;
        if let Some(mv) = block {
            moves.push(mv);
        } else {
            let mut legal = std::mem::take(&mut self.legal[ply]);
            self.game.legal_moves(&mut legal);
            match tt_move.filter(|m| legal.contains(m)) {
                Some(mv) => {
                    moves.push(mv);
                    stage = Stage::TtMove;
                }
                None => {
                    self.order_into(&legal, None, ply, mover);
                    moves.extend(self.scored[ply].iter().map(|&(_, _, m)| m));
                    if self.aborted {
                        moves.clear(); // (a part of them, partly ordered)
                    }
                }
            }
            self.legal[ply] = legal;
        }
        MovePicker {
            moves,
            next: 0,
            stage,
            tt_move,
        }
    }

    /// The next move of `picker` (the node at `ply`, `mover` to move) and its place in
    /// the order, or `None` when no move is left.
    #[inline]
    pub(super) fn next_move(
        &mut self,
        picker: &mut MovePicker<G::Move>,
        ply: usize,
        mover: Color,
    ) -> Option<(usize, G::Move)> {
        if picker.next == picker.moves.len() {
            if picker.stage != Stage::TtMove {
                return None;
            }
            // The table move was searched; the others follow, ordered now.
            picker.stage = Stage::Listed;
            let legal = std::mem::take(&mut self.legal[ply]);
            self.order_into(&legal, picker.tt_move, ply, mover);
            self.legal[ply] = legal;
            let tt_move = picker.tt_move;
            picker.moves.extend(
                self.scored[ply]
                    .iter()
                    .map(|&(_, _, m)| m)
                    .filter(|&m| Some(m) != tt_move),
            );
            if picker.next == picker.moves.len() {
                return None;
            }
        }
        let i = picker.next;
        picker.next += 1;
        Some((i, picker.moves[i]))
    }

    /// Give `picker`'s list back to the buffers of `ply`.
    pub(super) fn release_moves(&mut self, picker: MovePicker<G::Move>, ply: usize) {
        self.buffers[ply] = picker.moves;
    }

    /// The move picker of the frontier node at `ply` ([`LeafPicker`]).
    pub(super) fn leaf_picker(
        &mut self,
        ply: usize,
        mover: Color,
        tt_move: Option<G::Move>,
    ) -> LeafPicker<G::Move> {
        let mut legal = std::mem::take(&mut self.buffers[ply]);
        self.game.legal_moves(&mut legal);
        let mut scored = std::mem::take(&mut self.scored[ply]);
        scored.clear();
        let incremental = self.game.incremental_leaves();
        let (mut base, mut firsts, mut stage) = (0, [None; 3], LeafStage::Scored);
        if incremental {
            base = self.game.evaluate(self.aux);
            let [k1, k2] = self.killers.at(ply);
            firsts = [tt_move, k1, k2];
            stage = LeafStage::Firsts(0);
        } else {
            self.scored[ply] = scored;
            self.order_into(&legal, tt_move, ply, mover);
            scored = std::mem::take(&mut self.scored[ply]);
        }
        LeafPicker {
            legal,
            scored,
            firsts,
            base,
            stage,
            next: 0,
            incremental,
        }
    }

    /// The next move of `picker` and its leaf code ([`Search::leaf_code`]; with
    /// incremental leaves a value, else 0), or `None` when no move is left or the
    /// search has stopped.
    #[inline]
    pub(super) fn next_leaf(&mut self, picker: &mut LeafPicker<G::Move>) -> Option<(G::Move, i32)> {
        let p = picker;
        if let LeafStage::Firsts(from) = p.stage {
            for j in from..p.firsts.len() {
                let first = p.firsts[j];
                let Some(mv) = first else { continue };
                if p.firsts[..j].contains(&first) || !p.legal.contains(&mv) {
                    continue;
                }
                let leaf = self.leaf_code(p.base, mv);
                p.scored.push((0, leaf, mv));
                p.stage = LeafStage::Firsts(j + 1);
                return Some((mv, leaf));
            }
            // None of them cut off: the others, scored and sorted by value.
            let tried = p.scored.len();
            for chunk in p.legal.chunks(WORK_CHECK as usize) {
                for &mv in chunk {
                    if !p.scored[..tried].iter().any(|&(_, _, m)| m == mv) {
                        let leaf = self.leaf_code(p.base, mv);
                        p.scored.push((i64::from(leaf >> 2), leaf, mv));
                    }
                }
                if chunk.len() == WORK_CHECK as usize && self.busy(chunk.len()) {
                    break;
                }
            }
            if !self.aborted {
                self.sort_scored(&mut p.scored[tried..]);
            }
            p.stage = LeafStage::Scored;
            p.next = tried;
        }
        if self.aborted || p.next == p.scored.len() {
            return None;
        }
        let (_, leaf, mv) = p.scored[p.next];
        p.next += 1;
        Some((mv, leaf))
    }

    /// Give `picker`'s lists back to the buffers of `ply`.
    pub(super) fn release_leaves(&mut self, picker: LeafPicker<G::Move>, ply: usize) {
        self.buffers[ply] = picker.legal;
        self.scored[ply] = picker.scored;
    }

    /// `mv`'s last-ply code: its value times 4, plus 2 if it is settled (pushing it
    /// would only confirm the value; a forcing move is followed deeper with
    /// `leaf_threats`, so it is pushed) and 1 if it forces the reply.
    #[inline]
    pub(super) fn leaf_code(&self, base: i32, mv: G::Move) -> i32 {
        let Leaf {
            value,
            forcing,
            settled,
        } = self.game.leaf_value(self.aux, base, mv).unwrap_or(Leaf {
            value: base,
            forcing: false,
            settled: false,
        });
        let settled = settled && self.settle_leaves && !(forcing && self.leaf_threats);
        value * 4 + i32::from(settled) * 2 + i32::from(forcing)
    }
}

/// The stage of a [`MovePicker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// All the node's moves are listed, in search order.
    Listed,
    /// Only the table move is listed: the others are ordered once it has been searched
    /// (a cutoff by it spares their ordering), and follow it in the order they have
    /// then.
    TtMove,
}

/// The moves of an interior node in search order, handed out one at a time: the
/// forcing analysis's one blocking move; or the table move, then the others (the
/// killers, then by static guess and history) ordered only after it has been searched;
/// or all of them ordered at once. Made by [`Search::move_picker`], advanced by
/// [`Search::next_move`], its list given back by [`Search::release_moves`].
pub(super) struct MovePicker<M> {
    moves: Vec<M>,
    next: usize,
    stage: Stage,
    tt_move: Option<M>,
}

impl<M> MovePicker<M> {
    /// The moves handed out before place `i` (searched or pruned).
    #[inline]
    pub(super) fn before(&self, i: usize) -> &[M] {
        &self.moves[..i]
    }
}

/// The stage of a [`LeafPicker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LeafStage {
    /// The table move and the killers, scored one by one, from this one on.
    Firsts(usize),
    /// The moves of `scored`, from `next` on.
    Scored,
}

/// The moves of a frontier node (the last ply) in search order, each with its leaf
/// code. Where the game scores its leaves incrementally, the table move and the
/// killers come first, each scored when its turn comes, and the other moves are scored
/// and sorted by value only if none of them cuts off: the same order as scoring all,
/// for less work at a cut node. Elsewhere all are ordered at once, as at an interior
/// node. Made by [`Search::leaf_picker`], advanced by [`Search::next_leaf`], its lists
/// given back by [`Search::release_leaves`].
pub(super) struct LeafPicker<M> {
    legal: Vec<M>,
    scored: Vec<(i64, i32, M)>,
    firsts: [Option<M>; 3],
    /// The node's own value (incremental leaves).
    base: i32,
    stage: LeafStage,
    next: usize,
    /// Whether the leaves are scored incrementally (their codes hold their values).
    pub(super) incremental: bool,
}
