//! What Monte Carlo tree search knows of Abande ([`MctsGame`]), as in hexgames 0.1's
//! pure-Python player: passing after the opponent's pass while ahead wins at once;
//! decisive playouts end won by that pass and, when behind with an empty hand, do not
//! pass (that would let the opponent end the game won). A playout may be cut off after
//! a number of plies and scored by the awake-stack score difference `d` (Black minus
//! White) as `1 / (1 + exp(-d / scale))` for Black, or, given weights, by alpha-beta's
//! evaluation ([`CutoffEval`]: the learned one, at the scale of its fit, 200 points).

use super::Weights;
use crate::abande::{Board, Move, Rules};
use crate::error::Result;
use crate::game::Game;
use crate::search::alphabeta::SearchGame;
use crate::search::mcts::playout::{count_ply, first_player_value};
use crate::search::mcts::{CutoffEval, MctsGame, PlayoutOptions};
use crate::search::Watch;
use crate::zobrist::Rng;

/// The score difference for the side to move if the game ended now.
#[inline]
fn lead_of(board: &Board) -> i64 {
    let (black, white) = board.score();
    let d = black as i64 - white as i64;
    if board.turn() == 0 {
        d
    } else {
        -d
    }
}

/// The hand of the side to move.
#[inline]
fn hand_of(board: &Board) -> u32 {
    let (black, white) = board.hands();
    if board.turn() == 0 {
        black
    } else {
        white
    }
}

/// Buffers of an Abande playout.
#[derive(Default)]
pub struct PlayoutScratch {
    moves: Vec<Move>,
    eval: CutoffEval<Board>,
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
        self.moves().collect()
    }

    #[inline]
    fn immediate_win(&self) -> Option<Move> {
        (self.passes() == 1 && !self.is_game_over() && hand_of(self) == 0 && lead_of(self) > 0)
            .then_some(Move::PASS)
    }

    fn playout(
        &mut self,
        options: &PlayoutOptions<Weights>,
        rng: &mut Rng,
        trace: &mut Vec<Move>,
        scratch: &mut PlayoutScratch,
        watch: &mut Watch<'_>,
    ) -> Option<(f64, Option<Move>)> {
        let PlayoutScratch { moves, eval } = scratch;
        let mut plies = 0u32;
        while self.result().is_none() {
            if options.cutoff.is_some_and(|c| plies >= c) {
                if let Some(w) = &options.eval {
                    return Some((eval.value(self, w), None));
                }
                let (black, white) = self.score();
                let d = black as f64 - white as f64;
                return Some((1.0 / (1.0 + (-d / options.scale).exp()), None));
            }
            Game::legal_moves(self, moves);
            let turn = self.turn();
            let mut choices = moves.len();
            if options.decisive && moves.len() > 1 && hand_of(self) == 0 {
                let lead = lead_of(self);
                if lead > 0 && self.passes() > 0 {
                    return Some((if turn == 0 { 1.0 } else { 0.0 }, Some(Move::PASS)));
                }
                if lead < 0 {
                    // Passing lets the opponent end the game won: move instead (the pass
                    // comes last in the list).
                    choices -= 1;
                }
            }
            let mv = moves[rng.below(choices)];
            self.push(mv);
            trace.push(mv);
            if let Err(end) = count_ply(&mut plies, watch) {
                return end.map(|v| (v, None));
            }
        }
        Some((first_player_value(self.result()), None))
    }
}
