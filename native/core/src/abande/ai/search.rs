//! The alpha-beta search's view of Abande ([`SearchGame`]): the evaluation of
//! [`super::eval`] at every leaf, captures first (by the height they take) and followed
//! by the quiescence search, the null move while both sides enter pieces; the greedy
//! player's view ([`GreedyGame`]) is the same evaluation.

use super::eval::{evaluate_with, Weights, OPENING_HAND};
use super::learned::{evaluate_learned, MAX_LEARNED_WEIGHT};
use crate::abande::board::height;
use crate::abande::{Board, Move, Rules};
use crate::error::{Error, Result};
use crate::game::Color;
use crate::search::alphabeta::{NoForcing, Noisy, SearchGame};
use crate::search::greedy::GreedyGame;

/// The search's view of Abande: the evaluation from the bit sets at every leaf, captures
/// searched first, by the height they take, and followed by the quiescence search
/// ([`Captures`]); no forcing analysis.
impl SearchGame for Board {
    /// The weights of the evaluation's terms and the tempo (the player's options).
    type Aux = Weights;
    type Rules = Rules;
    type Weights = Weights;
    type Forcing = NoForcing;
    type Noisy = Captures;
    const PROBABILITY_SCALE: f64 = 200.0;
    const HISTORY_SIZE: usize = 1 << 16;
    /// Captures first, by the height they take (the history orders moves of equal
    /// height, and the entries); with the history malus. Measured against history-first
    /// ordering without the malus (`examples/options_match.rs`, 200 games at 0.2 s a
    /// move): captures first 63.0% (seed 83), the malus 60.5% (seed 82), both 65.0%
    /// (seed 88); both at 0.5 s a move, 56.2% over 120 games (seed 89).
    const ORDER_WEIGHT: i64 = 1 << 24;
    const HISTORY_MALUS: bool = true;

    fn rules_of(&self) -> Rules {
        self.rules()
    }

    fn check_weights(weights: &Weights) -> Result<()> {
        match &weights.learned {
            Some(w) if w.iter().any(|x| x.abs() > MAX_LEARNED_WEIGHT) => {
                Err(Error::InvalidArgument(format!(
                    "the learned evaluation's weights are -{MAX_LEARNED_WEIGHT} to \
                     {MAX_LEARNED_WEIGHT}, not {w:?}"
                )))
            }
            _ => Ok(()),
        }
    }

    fn new_aux(&self) -> Weights {
        Weights::default()
    }

    fn reset_aux(&self, _aux: &mut Weights) {}

    fn configure_aux(&self, aux: &mut Weights, weights: &Weights) {
        *aux = *weights;
    }

    #[inline]
    fn push_aux(&self, _aux: &mut Weights, _mv: Move, _mover: Color) {}

    #[inline]
    fn pop_aux(&self, _aux: &mut Weights, _mv: Move, _mover: Color) {}

    #[inline]
    fn evaluate(&self, aux: &Weights) -> i32 {
        match &aux.learned {
            None => evaluate_with(self, &aux.terms) + aux.tempo,
            Some(w) => evaluate_learned(self, w) + aux.tempo,
        }
    }

    #[inline]
    fn order_value(&self, _aux: &Weights, mv: Move) -> i32 {
        match (mv.from(), mv.to()) {
            (Some(_), Some(t)) => 4 * height(self.stack_code(t)) as i32,
            _ => 0,
        }
    }

    #[inline]
    fn history_index(mv: Move) -> usize {
        mv.id() as usize & 0xFFFF
    }

    fn moves_left(&self) -> u32 {
        let (b, w) = self.hands();
        (if self.turn() == 0 { b } else { w }) + 4
    }

    /// While both sides still enter pieces and captures are allowed (once hands are
    /// empty, passing is a move of the rules and doing nothing can be best).
    fn null_move_ok(&self) -> bool {
        let (b, w) = self.hands();
        b > 0 && w > 0 && b <= OPENING_HAND && self.passes() == 0
    }

    #[inline]
    fn flip_turn(&mut self) {
        Board::flip_turn(self)
    }
}

/// The greedy player's view of Abande: alpha-beta's evaluation, and every legal move as
/// one that may win at once (a pass can end the game).
impl GreedyGame for Board {}

/// Abande's noisy moves, the [`SearchGame::Noisy`] of its board: the captures (stack
/// moves), which change the score at once.
#[derive(Clone, Copy, Debug)]
pub struct Captures;

impl Noisy<Board> for Captures {
    const ANY: bool = true;

    fn moves(game: &Board, out: &mut Vec<Move>) {
        game.captures(out);
    }

    #[inline]
    fn is_noisy(_game: &Board, mv: Move) -> bool {
        mv.is_stack_move()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abande::ai::eval::evaluate;

    #[test]
    fn tempo_for_the_side_to_move() {
        let board = Board::new(
            Some("abande d4=B d5=W e4=B turn=w hands=b16,w17"),
            Rules::default(),
        )
        .unwrap();
        let mut aux = board.new_aux();
        let plain = board.evaluate(&aux);
        assert_eq!(plain, evaluate(&board));
        board.configure_aux(
            &mut aux,
            &Weights {
                tempo: 50,
                ..Weights::default()
            },
        );
        assert_eq!(board.evaluate(&aux), plain + 50);
    }
}
