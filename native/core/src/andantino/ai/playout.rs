//! What Monte Carlo tree search knows of Andantino ([`MctsGame`]), as in hexgames 0.1's
//! pure-Python player: with the standard move rules (see [`Board::standard_moves`]) the
//! win in one is a placement completing a line of five; decisive playouts play such a
//! placement, else fill the opponent's, else play a random move, drawn again once if it
//! lands in the opponent's pocket (a self-trap). The line threats of both sides are kept
//! incrementally during a playout (a placement adds the cells completing a line through
//! it; tiles never move). Under the other rules, uniformly random playouts and no
//! immediate-win test.
//!
//! Andantino has no score: a playout is cut off only when it has an evaluation's
//! weights, and its position is then scored by alpha-beta's evaluation ([`CutoffEval`]:
//! the learned one, at the scale of its fit, 250 points), the [`Tracker`] brought to
//! the position from the last cut-off's ([`Tracker::sync`]), after the forced moves
//! that alpha-beta's forcing analysis sees at its leaves ([`cutoff_value`]): the
//! evaluation was fitted to quiet positions and knows a four only by its points, not
//! that the side to move completes it.
//!
//! [`Tracker`]: super::Tracker
//! [`Tracker::sync`]: super::Tracker::sync

use super::{Threats, Weights};
use crate::andantino::{Board, Cell, Move, Rules};
use crate::error::Result;
use crate::game::{Color, Game};
use crate::search::alphabeta::{Forcing, SearchGame};
use crate::search::mcts::playout::{count_ply, first_player_value, uniform};
use crate::search::mcts::{first_player_probability, CutoffEval, MctsGame, PlayoutOptions};
use crate::search::Watch;
use crate::zobrist::Rng;

/// Buffers of an Andantino playout.
#[derive(Default)]
pub struct PlayoutScratch {
    moves: Vec<Move>,
    threats: [Vec<Cell>; 2],
    eval: CutoffEval<Board>,
    forced: Vec<Move>,
}

/// The most forced moves [`cutoff_value`] plays before it evaluates.
pub const MAX_FORCED: usize = 8;

/// The value for the first player of a playout cut off at `board` (whose game goes on),
/// by alpha-beta's evaluation with `weights` after the forcing analysis alpha-beta runs
/// at its leaves ([`Threats`], where the rules allow it): a side to move that completes
/// a line ([`Forcing::win_candidates`], each pushed to see) has won, and the move is
/// returned; one facing two or more threats ([`Forcing::threats`]: the opponent's line
/// completions and traps) or one it cannot fill has lost; one facing a single threat
/// fills it (pushed on the board and appended to `trace`, at most [`MAX_FORCED`] such
/// moves, the tracker following). The first position without a threat, or the last
/// one, is evaluated.
pub fn cutoff_value(
    board: &mut Board,
    weights: &Weights,
    eval: &mut CutoffEval<Board>,
    trace: &mut Vec<Move>,
    moves: &mut Vec<Move>,
    forced: &mut Vec<Move>,
) -> (f64, Option<Move>) {
    let aux = eval.aux_of(board, weights);
    if !Threats::enabled(board) {
        return (first_player_probability(board, board.evaluate(aux)), None);
    }
    for _ in 0..MAX_FORCED {
        if !Threats::node(board) {
            break;
        }
        let me = board.turn();
        let won = if me == 0 { 1.0 } else { 0.0 };
        Threats::win_candidates(board, aux, forced);
        for &mv in forced.iter() {
            board.push(mv);
            let wins = board.result().is_some_and(|r| r.winner == Some(me));
            board.pop();
            if wins {
                return (won, Some(mv));
            }
        }
        if !Threats::opponent_moves_on(board) {
            break;
        }
        board.legal_moves(moves);
        Threats::threats(board, aux, moves, forced);
        match forced[..] {
            [] => break,
            [block] if moves.contains(&block) => {
                board.push(block);
                trace.push(block);
                if let Some(result) = board.result() {
                    return (first_player_value(Some(result)), None);
                }
                board.push_aux(aux, block, me);
            }
            _ => return (1.0 - won, None), // two threats, or one it cannot fill
        }
    }
    (first_player_probability(board, board.evaluate(aux)), None)
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
    type EvalWeights = Weights;

    fn check_eval_weights(weights: &Weights) -> Result<()> {
        <Board as SearchGame>::check_weights(weights)
    }

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
        options: &PlayoutOptions<Weights>,
        rng: &mut Rng,
        trace: &mut Vec<Move>,
        scratch: &mut PlayoutScratch,
        watch: &mut Watch<'_>,
    ) -> Option<(f64, Option<Move>)> {
        let PlayoutScratch {
            moves,
            threats,
            eval,
            forced,
        } = scratch;
        // Without an evaluation there is nothing to score a position by: played out.
        let cutoff = options.cutoff.filter(|_| options.eval.is_some());
        let weights = options.eval.unwrap_or_default();
        if !options.decisive || !self.standard_moves() {
            return uniform(self, rng, trace, moves, watch, cutoff, |b, trace, moves| {
                cutoff_value(b, &weights, eval, trace, moves, forced)
            });
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
            if cutoff.is_some_and(|c| plies >= c) {
                return Some(cutoff_value(self, &weights, eval, trace, moves, forced));
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::andantino::Cell;

    fn board(position: &str) -> Board {
        Board::new(Some(position), Rules::default()).unwrap()
    }

    /// [`cutoff_value`] of `position` with the hand-written weights: the value, the
    /// winning move, the moves it pushed, and the board after them.
    fn value_of(position: &str) -> ((f64, Option<Move>), Vec<Move>, Board) {
        let mut b = board(position);
        let (mut trace, mut moves, mut forced) = (Vec::new(), Vec::new(), Vec::new());
        let mut eval = CutoffEval::default();
        let w = Weights::default();
        let value = cutoff_value(&mut b, &w, &mut eval, &mut trace, &mut moves, &mut forced);
        (value, trace, b)
    }

    fn place(q: i64, r: i64) -> Move {
        Move::place(Cell::new(q, r).unwrap())
    }

    #[test]
    fn the_cutoff_plays_the_forced_moves_then_evaluates() {
        // White to move completes its line at 4,0: won, with the move (not pushed).
        let (value, trace, _) = value_of("andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w");
        assert_eq!((value, trace.len()), ((1.0, Some(place(4, 0))), 0));
        // Red to move in the same position wins at -1,1 or 4,1: 0 for White.
        let (value, _, _) = value_of("andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=r");
        assert_eq!(value.0, 0.0);
        assert!(value.1 == Some(place(-1, 1)) || value.1 == Some(place(4, 1)));
        // White must fill Red's -1,1; then nothing is forced: the evaluation of the
        // position after it.
        let (value, trace, after) =
            value_of("andantino w=0,0;1,0;2,0;2,-1 r=0,1;1,1;2,1;3,1 turn=w");
        assert_eq!((value.1, &trace[..]), (None, &[place(-1, 1)][..]));
        let mut expected = CutoffEval::default();
        let v = expected.points(&after, &Weights::default());
        assert_eq!(value.0, first_player_probability(&after, v));
        assert!(value.0 > 0.0 && value.0 < 1.0);
        // Two Red lines to stop: lost for White, nothing pushed.
        let (value, trace, _) = value_of("andantino w=0,0;1,0;2,-1;4,0 r=0,1;1,1;2,1;3,1 turn=w");
        assert_eq!((value, trace.len()), ((0.0, None), 0));
        // A quiet position is evaluated as it is.
        let quiet = "andantino w=0,0;0,1 r=1,0;1,1 turn=w";
        let (value, trace, after) = value_of(quiet);
        assert!(trace.is_empty());
        let v = CutoffEval::default().points(&after, &Weights::default());
        assert_eq!(value, (first_player_probability(&after, v), None));
    }
}
