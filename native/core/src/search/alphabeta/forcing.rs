//! The forcing analysis (see the module text of `alphabeta`): a node's wins in one, and
//! the opponent's threats that only one move answers.

use super::game::{Forcing, SearchGame};
use super::search::{terminal, Search};
use super::{INF, MATE, MATE_BOUND};
use crate::game::Color;

/// The outcome of the forcing analysis of a node.
pub(super) enum Forced<M> {
    /// An ordinary node.
    Open,
    /// The node's value is known.
    Decided(i32),
    /// The one move that does not lose at once: search it one ply deeper.
    Block(M),
}

impl<G: SearchGame> Search<'_, G> {
    pub(super) fn forced(&mut self, ply: usize, mover: Color) -> Forced<G::Move> {
        let mut wins = std::mem::take(&mut self.threats);
        G::Forcing::win_candidates(&self.game, self.aux, &mut wins);
        for &mv in &wins {
            let result = self.probe(mv);
            if self.aborted {
                self.threats = wins;
                return Forced::Open;
            }
            if result.is_some_and(|r| r.winner == Some(mover)) {
                self.set_pv_one(ply, Some(mv));
                self.threats = wins;
                return Forced::Decided(MATE - ply as i32 - 1);
            }
        }
        self.threats = wins;
        if !G::Forcing::opponent_moves_on(&self.game) {
            return Forced::Open; // our move ends the game drawn, whatever it is
        }
        let mut legal = std::mem::take(&mut self.buffers[ply]);
        self.game.legal_moves(&mut legal);
        let mut threats = std::mem::take(&mut self.threats);
        G::Forcing::threats(&self.game, self.aux, &legal, &mut threats);
        let outcome = if threats.is_empty() {
            Forced::Open
        } else {
            self.facing(&legal, &threats, ply, mover)
        };
        self.threats = threats;
        self.buffers[ply] = legal;
        outcome
    }

    /// Score a node facing `threats`, or return the one blocking move to search.
    fn facing(
        &mut self,
        legal: &[G::Move],
        threats: &[G::Move],
        ply: usize,
        mover: Color,
    ) -> Forced<G::Move> {
        let loss = -(MATE - ply as i32 - 2);
        let mut best = -INF;
        let mut block = None;
        let single = threats.len() == 1;
        for &mv in legal {
            if single && threats[0] == mv {
                block = Some(mv);
                continue;
            }
            if G::Forcing::may_win(&self.game, self.aux, mv) {
                if let Some(result) = self.probe(mv) {
                    let v = terminal(result, mover, ply);
                    if v > MATE_BOUND {
                        self.set_pv_one(ply, Some(mv));
                        return Forced::Decided(v);
                    }
                    best = best.max(v);
                    continue;
                }
                if self.aborted {
                    return Forced::Open;
                }
            } else if G::Forcing::loses_at_once(&self.game, mv) {
                best = best.max(-(MATE - ply as i32 - 1));
                continue;
            }
            best = best.max(loss);
        }
        if self.aborted {
            return Forced::Open;
        }
        match block {
            Some(mv) => Forced::Block(mv),
            None => {
                self.pv[ply].clear();
                Forced::Decided(best)
            }
        }
    }
}
