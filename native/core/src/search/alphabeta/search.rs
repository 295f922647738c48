//! The node search: negamax with principal variation search, the transposition
//! table's cutoffs, the selective options (null move, reverse futility pruning, late
//! move reductions and pruning), interior and frontier nodes, make and unmake.

use std::time::Instant;

use super::forcing::Forced;
use super::game::{Forcing, Noisy, SearchGame};
use super::history::{History, Killers};
#[cfg(doc)]
use super::{
    game::Leaf,
    movepick::{LeafPicker, MovePicker},
};
use super::{CHECK_EVERY, INF, LMP_DEPTH, MATE, MATE_BOUND, MAX_PLY, RFP_DEPTH, WORK_CHECK};
use crate::game::{Color, GameResult};
use crate::search::time::TimeManager;
use crate::search::tt::{Bound, Table};
use crate::search::Stop;

/// A mate score relative to the root, stored relative to the node at `ply`.
#[inline]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Undo [`to_tt`] at `ply`.
#[inline]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The table of logarithmic late move reductions for `lmr_log` (see
/// [`Options::lmr_log`](super::Options::lmr_log)); empty for 0.
pub(super) fn reductions(lmr_log: i32) -> Vec<[u8; 64]> {
    if lmr_log <= 0 {
        return Vec::new();
    }
    (0..64)
        .map(|d| {
            let mut row = [0u8; 64];
            for (i, r) in row.iter_mut().enumerate() {
                let x = (d.max(1) as f64).ln() * ((i + 1) as f64).ln() * 100.0 / f64::from(lmr_log);
                let most = (d - 2).max(1);
                *r = (x.round() as i32).clamp(1, most) as u8;
            }
            row
        })
        .collect()
}

/// How many plies shallower than usual the null move is searched at `depth` (the
/// adaptive R of Heinz, "Adaptive null-move pruning", ICCA Journal 1999: 3 in deep
/// nodes, 2 in shallow ones).
#[inline]
pub fn null_reduction(depth: i32) -> i32 {
    if depth >= 7 {
        3
    } else {
        2
    }
}

/// Whether a node searched with the window (`alpha`, `beta`) is a PV node (an open
/// window: its value is wanted exactly, as on the principal variation) rather than a
/// non-PV node (a null window, `beta = alpha + 1`, that only proves a bound). The
/// selective options (null move, reverse futility and late move pruning) act at
/// non-PV nodes only.
#[inline]
pub(super) fn pv_node(alpha: i32, beta: i32) -> bool {
    beta - alpha != 1
}

/// The value for `mover`, whose move at `ply` ended the game with `result`.
#[inline]
pub(super) fn terminal(result: GameResult, mover: Color, ply: usize) -> i32 {
    match result.winner {
        None => 0,
        Some(w) if w == mover => MATE - ply as i32 - 1,
        Some(_) => -(MATE - ply as i32 - 1),
    }
}

/// A last-ply node's window, best move so far and place in its move order.
struct FrontierNode<M> {
    alpha: i32,
    beta: i32,
    best: i32,
    best_move: Option<M>,
    /// How many moves of the order were taken (tried or pruned).
    place: usize,
    /// Late move pruning's place ([`Search::late_moves`]).
    prune_after: usize,
}

/// One search: the game (a clone), its evaluation state, the tables and the counters.
pub(super) struct Search<'a, G: SearchGame> {
    pub(super) game: G,
    pub(super) aux: &'a mut G::Aux,
    pub(super) tt: Option<&'a mut Table<G::Move>>,
    pub(super) history: &'a mut History,
    pub(super) killers: Killers<G::Move>,
    pub(super) pv: Vec<Vec<G::Move>>,
    pub(super) buffers: Vec<Vec<G::Move>>,
    /// `legal[ply]`: the legal moves of the interior node at `ply`.
    pub(super) legal: Vec<Vec<G::Move>>,
    pub(super) scored: Vec<Vec<(i64, i32, G::Move)>>,
    pub(super) threats: Vec<G::Move>,
    pub(super) nodes: u64,
    pub(super) node_limit: u64,
    pub(super) check_at: u64,
    pub(super) stop: &'a Stop,
    pub(super) poll: &'a mut dyn FnMut() -> bool,
    /// Moves scored or sorted for an order since the last look at the limits by them.
    pub(super) work: u64,
    pub(super) time: TimeManager,
    pub(super) pvs: bool,
    pub(super) forcing: bool,
    pub(super) leaf_threats: bool,
    pub(super) lmr: bool,
    /// `reductions[depth][place]` of late move reductions (empty: the fixed scheme).
    pub(super) reductions: Vec<[u8; 64]>,
    pub(super) tt_deeper: bool,
    pub(super) null_move: bool,
    pub(super) rfp: i32,
    pub(super) lmp: i32,
    pub(super) quiescence: bool,
    pub(super) history_malus: bool,
    pub(super) order_weight: i64,
    pub(super) settle_leaves: bool,
    /// `nulled[ply]`: the node at `ply` was reached by a null move.
    pub(super) nulled: Vec<bool>,
    pub(super) aborted: bool,
    pub(super) seldepth: usize,
    pub(super) start: Instant,
}

impl<G: SearchGame> Search<'_, G> {
    #[inline]
    fn count(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.check_at {
            self.check();
        }
    }

    #[cold]
    fn check(&mut self) {
        if self.nodes >= self.node_limit
            || self.stop.is_set()
            || self.time.budget.hard_expired()
            || (self.poll)()
        {
            self.aborted = true;
            // Stay stopped: every later count checks again at once.
            self.check_at = self.nodes;
        } else {
            self.check_at = (self.nodes + CHECK_EVERY).min(self.node_limit);
        }
    }

    /// Count `moves` moves scored or sorted outside the node count, looking at the
    /// limits every [`WORK_CHECK`] of them: whether the search has stopped.
    #[inline]
    pub(super) fn busy(&mut self, moves: usize) -> bool {
        self.work += moves as u64;
        if self.work >= WORK_CHECK && !self.aborted {
            self.work = 0;
            if self.stop.is_set() || self.time.budget.hard_expired() || (self.poll)() {
                self.aborted = true;
                self.check_at = self.nodes;
            }
        }
        self.aborted
    }

    /// Push `mv` (counting the node); returns the result if the game ended, else
    /// updates the evaluation state.
    #[inline]
    pub(super) fn push(&mut self, mv: G::Move, mover: Color) -> Option<GameResult> {
        self.game.push(mv);
        self.count();
        let result = self.game.result();
        if result.is_none() {
            self.game.push_aux(self.aux, mv, mover);
        }
        result
    }

    #[inline]
    pub(super) fn pop(&mut self, mv: G::Move, mover: Color, ended: bool) {
        self.game.pop();
        if !ended {
            self.game.pop_aux(self.aux, mv, mover);
        }
    }

    /// Push and pop `mv` (one node) without touching the evaluation: its result.
    #[inline]
    pub(super) fn probe(&mut self, mv: G::Move) -> Option<GameResult> {
        self.game.push(mv);
        self.count();
        let result = self.game.result();
        self.game.pop();
        result
    }

    fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    pub(super) fn set_pv_one(&mut self, ply: usize, mv: Option<G::Move>) {
        self.pv[ply].clear();
        if let Some(mv) = mv {
            self.pv[ply].push(mv);
        }
    }

    pub(super) fn negamax(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let mover = self.game.turn();
        if ply >= MAX_PLY {
            return self.game.evaluate(self.aux);
        }
        let key = self.game.zobrist();
        let mut tt_move = None;
        if let Some(tt) = self.tt.as_deref() {
            if let Some(e) = tt.probe(key) {
                tt_move = e.mv;
                let deep_enough = if self.tt_deeper {
                    i32::from(e.depth) >= depth
                } else {
                    i32::from(e.depth) == depth
                };
                if deep_enough {
                    let score = from_tt(e.score, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                        Bound::None => false,
                    };
                    if cut {
                        self.set_pv_one(ply, tt_move);
                        return score;
                    }
                }
            }
        }
        let mut block = None;
        if self.forcing && G::Forcing::node(&self.game) {
            match self.forced(ply, mover) {
                Forced::Open => {}
                Forced::Decided(v) => return v,
                Forced::Block(mv) => block = Some(mv),
            }
            if self.aborted {
                return 0;
            }
        }
        let pv = pv_node(alpha, beta);
        if block.is_none()
            && self.rfp > 0
            && (1..=RFP_DEPTH).contains(&depth)
            && !pv
            && beta.abs() < MATE_BOUND
        {
            let stand = self.game.evaluate(self.aux);
            if stand.saturating_sub(self.rfp.saturating_mul(depth)) >= beta {
                return stand;
            }
        }
        if block.is_none()
            && self.null_move
            && depth >= 3
            && !pv
            && beta.abs() < MATE_BOUND
            && !self.nulled[ply]
            && ply + 2 < MAX_PLY
            && self.game.null_move_ok()
            && self.game.evaluate(self.aux) >= beta
        {
            self.game.flip_turn();
            self.count();
            self.nulled[ply + 1] = true;
            let v = -self.negamax(depth - 1 - null_reduction(depth), -beta, -beta + 1, ply + 1);
            self.nulled[ply + 1] = false;
            self.game.flip_turn();
            if self.aborted {
                return 0;
            }
            if v >= beta {
                // A proven win found without our move is not a proof: say beta.
                return if v > MATE_BOUND { beta } else { v };
            }
        }
        let (value, best) = if let Some(mv) = block {
            self.interior(depth + 1, alpha, beta, ply, mover, tt_move, Some(mv))
        } else if depth <= 0 {
            return self.leaf(alpha, beta, ply);
        } else if depth == 1 {
            self.frontier(alpha, beta, ply, mover, tt_move)
        } else {
            self.interior(depth, alpha, beta, ply, mover, tt_move, None)
        };
        if self.aborted {
            return 0;
        }
        if let Some(tt) = self.tt.as_deref_mut() {
            let bound = if value >= beta {
                Bound::Lower
            } else if value > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            tt.store(key, depth, bound, to_tt(value, ply), best);
        }
        value
    }

    /// An interior node (two plies or more to go, or the forcing analysis's `block`
    /// searched one ply deeper): its moves from a [`MovePicker`], the first with the
    /// node's window, the others (at a PV node) with a null window first, late quiet
    /// ones reduced with `lmr` and pruned with `lmp`.
    #[allow(clippy::too_many_arguments)]
    fn interior(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        mover: Color,
        tt_move: Option<G::Move>,
        block: Option<G::Move>,
    ) -> (i32, Option<G::Move>) {
        let mut picker = self.move_picker(ply, mover, tt_move, block);
        let mut best = -INF;
        let mut best_move = None;
        let child = depth - 1;
        let prune_after = self.late_moves(depth, alpha, beta, block.is_some());
        while let Some((i, mv)) = self.next_move(&mut picker, ply, mover) {
            if i >= prune_after && !G::Noisy::is_noisy(&self.game, mv) {
                continue;
            }
            let ended = self.push(mv, mover);
            self.pv[ply + 1].clear();
            let v = if let Some(result) = ended {
                terminal(result, mover, ply)
            } else if i == 0 || !self.pvs {
                -self.negamax(child, -beta, -alpha, ply + 1)
            } else {
                let reduce = self.reduction(depth, i, block.is_some());
                let mut v = alpha + 1;
                if reduce > 0 {
                    v = -self.negamax(child - reduce, -alpha - 1, -alpha, ply + 1);
                }
                if v > alpha && !self.aborted {
                    v = -self.negamax(child, -alpha - 1, -alpha, ply + 1);
                }
                if alpha < v && v < beta && !self.aborted {
                    v = -self.negamax(child, -beta, -alpha, ply + 1);
                }
                v
            };
            self.pop(mv, mover, ended.is_some());
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, mv);
                    if v >= beta {
                        self.cutoff(mv, ply, depth, mover);
                        if self.history_malus && block.is_none() {
                            self.malus(picker.before(i), depth, mover);
                        }
                        break;
                    }
                }
            }
        }
        self.release_moves(picker, ply);
        (best, best_move)
    }

    /// Late move reductions (option `lmr`): how many plies shallower the null-window
    /// search of the move at place `i` of a node of `depth` goes first (0: none; a
    /// move that beats alpha is searched again at full depth). Late quiet moves only:
    /// from the fourth, at depth 3 or more, not at the forcing analysis's `block`.
    #[inline]
    fn reduction(&self, depth: i32, i: usize, block: bool) -> i32 {
        if self.lmr && !block && depth >= 3 && i >= 3 {
            if !self.reductions.is_empty() {
                let d = (depth as usize).min(63);
                i32::from(self.reductions[d][i.min(63)])
            } else if i >= 8 && depth >= 4 {
                2
            } else {
                1
            }
        } else {
            0
        }
    }

    /// The last ply: each move scored without a deeper search, and pushed to test for
    /// the end of the game unless its score is settled ([`Leaf::settled`]); its moves
    /// come from a [`LeafPicker`].
    fn frontier(
        &mut self,
        alpha: i32,
        beta: i32,
        ply: usize,
        mover: Color,
        tt_move: Option<G::Move>,
    ) -> (i32, Option<G::Move>) {
        let mut node = FrontierNode {
            alpha,
            beta,
            best: -INF,
            best_move: None,
            place: 0,
            prune_after: self.late_moves(1, alpha, beta, false),
        };
        let mut picker = self.leaf_picker(ply, mover, tt_move);
        while let Some((mv, leaf)) = self.next_leaf(&mut picker) {
            if self.frontier_move(&mut node, mv, leaf, picker.incremental, ply, mover) {
                break;
            }
        }
        self.release_leaves(picker, ply);
        (node.best, node.best_move)
    }

    /// Try the last-ply move `mv` (code `leaf`, scored incrementally or not) as the next
    /// in `node`'s order; whether the node is done (a cutoff, or the search stopped).
    #[inline]
    fn frontier_move(
        &mut self,
        node: &mut FrontierNode<G::Move>,
        mv: G::Move,
        leaf: i32,
        incremental: bool,
        ply: usize,
        mover: Color,
    ) -> bool {
        let place = node.place;
        node.place += 1;
        if place >= node.prune_after && !G::Noisy::is_noisy(&self.game, mv) {
            return false;
        }
        let mut deep = false;
        let v = if incremental && leaf & 2 != 0 {
            self.count();
            leaf >> 2
        } else {
            let window = (node.alpha, node.beta);
            self.frontier_push(mv, leaf, incremental, window, ply, mover, &mut deep)
        };
        if self.aborted {
            return true;
        }
        if v > node.best {
            node.best = v;
            node.best_move = Some(mv);
            if v > node.alpha {
                node.alpha = v;
                if deep {
                    self.set_pv(ply, mv);
                } else {
                    self.set_pv_one(ply, Some(mv));
                }
                if v >= node.beta {
                    self.cutoff(mv, ply, 1, mover);
                    return true;
                }
            }
        }
        false
    }

    /// The value of the last-ply move `mv` for `mover`, pushed on the board and popped
    /// again (`leaf`: its code from [`Search::leaf_code`] when the node scores its
    /// leaves `incremental`ly, within the node's `(alpha, beta)` window); `deep` is set
    /// when a forcing move was followed a ply deeper.
    #[allow(clippy::too_many_arguments)]
    fn frontier_push(
        &mut self,
        mv: G::Move,
        leaf: i32,
        incremental: bool,
        (alpha, beta): (i32, i32),
        ply: usize,
        mover: Color,
        deep: &mut bool,
    ) -> i32 {
        let ply_before = self.game.ply();
        self.game.push(mv);
        self.count();
        let v = match self.game.result() {
            Some(result) => terminal(result, mover, ply),
            None if incremental => {
                if G::Forcing::loses_next(&self.game, self.aux, mv, mover) {
                    -(MATE - ply as i32 - 2)
                } else if self.leaf_threats && leaf & 1 != 0 && ply + 2 < MAX_PLY {
                    // A forcing move: the reply is forced; follow the line one ply deeper.
                    self.game.push_aux(self.aux, mv, mover);
                    self.pv[ply + 1].clear();
                    let v = -self.negamax(1, -beta, -alpha, ply + 1);
                    self.game.pop();
                    self.game.pop_aux(self.aux, mv, mover);
                    *deep = true;
                    v
                } else {
                    leaf >> 2
                }
            }
            None => {
                self.game.push_aux(self.aux, mv, mover);
                let v = -self.leaf(-beta, -alpha, ply + 1);
                self.game.pop();
                self.game.pop_aux(self.aux, mv, mover);
                v
            }
        };
        if self.game.ply() > ply_before {
            self.game.pop();
        }
        v
    }

    /// Late move pruning (option `lmp`): the place in search order from which a node of
    /// `depth` with the window (`alpha`, `beta`) skips quiet moves (`usize::MAX`: none).
    #[inline]
    fn late_moves(&self, depth: i32, alpha: i32, beta: i32, block: bool) -> usize {
        if self.lmp > 0
            && !block
            && (1..=LMP_DEPTH).contains(&depth)
            && !pv_node(alpha, beta)
            && beta.abs() < MATE_BOUND
        {
            self.lmp.saturating_add(depth * depth) as usize
        } else {
            usize::MAX
        }
    }
}
