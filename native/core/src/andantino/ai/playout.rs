//! What Monte Carlo tree search knows of Andantino ([`MctsGame`]), as in hexgames 0.1's
//! pure-Python player: with the standard move rules (see [`Board::standard_moves`]) the
//! win in one is a placement completing a line of five; decisive playouts play such a
//! placement, else fill the opponent's, else play a random move, drawn again once if it
//! lands in the opponent's pocket (a self-trap). The line threats of both sides are kept
//! incrementally during a playout (a placement adds the cells completing a line through
//! it; tiles never move). Under the other rules, uniformly random playouts and no
//! immediate-win test.

use crate::andantino::{Board, Cell, Move, Rules};
use crate::game::{Color, Game};
use crate::search::mcts::playout::{count_ply, first_player_value, uniform};
use crate::search::mcts::{MctsGame, PlayoutOptions};
use crate::search::Watch;
use crate::zobrist::Rng;

/// Buffers of an Andantino playout.
#[derive(Default)]
pub struct PlayoutScratch {
    moves: Vec<Move>,
    threats: [Vec<Cell>; 2],
}

/// Whether `cell` is empty and touches two or more tiles: in the standard game, a legal
/// placement.
#[inline]
fn placeable(board: &Board, cell: Cell) -> bool {
    board.tiles_touching(cell) >= 2 && board.color_at(cell).is_none()
}

impl MctsGame for Board {
    type Rules = Rules;
    type Scratch = PlayoutScratch;

    fn game_rules(&self) -> Rules {
        self.rules()
    }

    fn history(&self) -> Vec<Move> {
        self.moves()
    }

    #[inline]
    fn immediate_win(&self) -> Option<Move> {
        if !self.standard_moves() {
            return None;
        }
        self.line_completion(self.turn())
    }

    fn playout(
        &mut self,
        options: &PlayoutOptions,
        rng: &mut Rng,
        trace: &mut Vec<Move>,
        scratch: &mut PlayoutScratch,
        watch: &mut Watch<'_>,
    ) -> Option<(f64, Option<Move>)> {
        let PlayoutScratch { moves, threats } = scratch;
        if !options.decisive || !self.standard_moves() {
            return uniform(self, rng, trace, moves, watch).map(|v| (v, None));
        }
        for (color, list) in threats.iter_mut().enumerate() {
            list.clear();
            for i in 0..self.tile_list(color as Color).len() {
                let tile = self.tile_list(color as Color)[i];
                self.line_threats_through(tile, color as Color, list);
            }
        }
        let mut plies = 0;
        while self.result().is_none() {
            let turn = self.turn() as usize;
            self.legal_moves(moves);
            if moves.is_empty() {
                break;
            }
            for &c in &threats[turn] {
                if placeable(self, c) {
                    if let Some(&mv) = moves.iter().find(|m| m.to() == c) {
                        return Some((if turn == 0 { 1.0 } else { 0.0 }, Some(mv)));
                    }
                }
            }
            let block = threats[1 - turn]
                .iter()
                .copied()
                .find(|&c| placeable(self, c))
                .and_then(|c| moves.iter().copied().find(|m| m.to() == c));
            let mv = block.unwrap_or_else(|| {
                let mv = moves[rng.below(moves.len())];
                if self.walled_off_by(mv.to(), 1 - turn as Color) {
                    moves[rng.below(moves.len())] // a self-trap loses at once: draw again
                } else {
                    mv
                }
            });
            self.push(mv);
            trace.push(mv);
            self.line_threats_through(mv.to(), turn as Color, &mut threats[turn]);
            if let Err(end) = count_ply(&mut plies, watch) {
                return end.map(|v| (v, None));
            }
        }
        Some((first_player_value(self.result()), None))
    }
}
