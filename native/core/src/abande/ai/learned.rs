//! Abande's learned evaluation: a linear function of [`LEARNED_TERMS`] terms whose
//! weights are fitted to self-play results by Texel's method (Peter Österlund,
//! "Texel's tuning method", 2014: the weights minimise the squared error between a
//! game's result and the logistic of the evaluation), by `tools/train_eval.py`, and
//! shipped with the package (`hexgames/data/abande_eval.json`; docs/evaluation.md).
//!
//! The terms are the hand-written evaluation's seven ([`super::eval::terms`]) and
//! nine more, each the side to move's value minus the opponent's unless said:
//!
//! 7. sleeping stacks (count);
//! 8. awake stacks of height 1 (the ones a capture takes most easily);
//! 9. stacks on the rim (the 18 points of the outer ring);
//! 10. stacks in the centre (the 7 points of the inner two rings);
//! 11. the game score (term 0) once both hands together hold 6 pieces or fewer, else 0;
//! 12. the hand difference (term 6) times the pieces in both hands (the phase);
//! 13. 1: the side to move's share (a tempo);
//! 14. +1 when the side to move is Black, -1 when White;
//! 15. awake stacks at the maximum height (points that can no longer be taken).
//!
//! The value is `clamp(sum(w[i] * t[i]) div_euclid LEARNED_SCALE, -LEARNED_BOUND,
//! LEARNED_BOUND)` points, so that the weights are whole numbers finer than a point;
//! the Python training code (`hexgames.engine.learned`) computes the same terms and the
//! same value (tests/test_learned_eval.py compares them on thousands of positions).

use super::eval::{terms, TERMS};
use crate::abande::bits::{bit_of, dilate, on_board, RADIUS};
use crate::abande::Board;

/// The number of terms of the learned evaluation ([`learned_terms`]).
pub const LEARNED_TERMS: usize = TERMS + 9;
/// The weights' unit: a weight of `LEARNED_SCALE` is one point a unit of its term.
pub const LEARNED_SCALE: i64 = 16;
/// The largest value (points, either sign) of the learned evaluation, far below the
/// search's mate scores.
pub const LEARNED_BOUND: i32 = 50_000;
/// The largest weight (either sign) a learned evaluation may have.
pub const MAX_LEARNED_WEIGHT: i32 = 1_000_000;

const fn ring_mask(lo: i32, hi: i32) -> u64 {
    let mut mask = 0u64;
    let mut q = -RADIUS;
    while q <= RADIUS {
        let mut r = -RADIUS;
        while r <= RADIUS {
            let ring = {
                let s = -q - r;
                let a = if q < 0 { -q } else { q };
                let b = if r < 0 { -r } else { r };
                let c = if s < 0 { -s } else { s };
                let m = if a > b { a } else { b };
                if m > c {
                    m
                } else {
                    c
                }
            };
            if on_board(q, r) && ring >= lo && ring <= hi {
                mask |= 1 << bit_of(q, r);
            }
            r += 1;
        }
        q += 1;
    }
    mask
}

/// The outer ring's 18 points.
pub const RIM: u64 = ring_mask(RADIUS, RADIUS);
/// The centre and its ring: 7 points.
pub const CENTRE: u64 = ring_mask(0, 1);

/// The terms of the learned evaluation of a position whose game goes on (see the
/// module text), side to move's view.
pub fn learned_terms(board: &Board) -> [i32; LEARNED_TERMS] {
    let base = terms(board);
    let mut t = [0i32; LEARNED_TERMS];
    t[..TERMS].copy_from_slice(&base);
    let mover = board.turn();
    let max_height = board.rules().max_height;
    let mine = board.controlled(mover);
    let theirs = board.controlled(1 - mover);
    let (awake_mine, awake_theirs) = (mine & dilate(theirs), theirs & dilate(mine));
    let count = |x: u64| x.count_ones() as i32;
    let ones = board.stacks_of_height(1);
    let full = board.stacks_of_height(max_height);
    let (black_hand, white_hand) = board.hands();
    let in_hands = (black_hand + white_hand) as i32;
    t[TERMS] = count(mine & !awake_mine) - count(theirs & !awake_theirs);
    t[TERMS + 1] = count(awake_mine & ones) - count(awake_theirs & ones);
    t[TERMS + 2] = count(mine & RIM) - count(theirs & RIM);
    t[TERMS + 3] = count(mine & CENTRE) - count(theirs & CENTRE);
    t[TERMS + 4] = if in_hands <= 6 { base[0] } else { 0 };
    t[TERMS + 5] = base[6] * in_hands;
    t[TERMS + 6] = 1;
    t[TERMS + 7] = if mover == 0 { 1 } else { -1 };
    t[TERMS + 8] = count(awake_mine & full) - count(awake_theirs & full);
    t
}

/// The learned evaluation (points, side to move's view) of a position whose game goes
/// on, with `weights` (see the module text).
#[inline]
pub fn evaluate_learned(board: &Board, weights: &[i32; LEARNED_TERMS]) -> i32 {
    let t = learned_terms(board);
    let sum: i64 = (0..LEARNED_TERMS)
        .map(|i| i64::from(weights[i]) * i64::from(t[i]))
        .sum();
    let bound = i64::from(LEARNED_BOUND);
    sum.div_euclid(LEARNED_SCALE).clamp(-bound, bound) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abande::Rules;

    #[test]
    fn rings() {
        assert_eq!(RIM.count_ones(), 18);
        assert_eq!(CENTRE.count_ones(), 7);
    }

    #[test]
    fn terms_by_hand() {
        // Black d4 (the centre), White d5, Black d6 and d7 (the rim, asleep) in a
        // column, White to move, 15 and 17 in hand.
        let board = Board::new(
            Some("abande d4=B d5=W d6=B d7=B turn=w hands=b15,w17"),
            Rules::default(),
        )
        .unwrap();
        let t = learned_terms(&board);
        // White's view: one sleeping Black stack (-1), awake singles 1-2 (-1), rim 0-1
        // (-1), centre 1-1 (0), not the endgame (0), hand +2 times 32, tempo 1, White -1,
        // no full stacks.
        assert_eq!(&t[TERMS..], &[-1, -1, -1, 0, 0, 64, 1, -1, 0]);
        let mut w = [0; LEARNED_TERMS];
        w[TERMS + 6] = 33; // 33 / 16 = 2.06: 2 points
        w[TERMS + 7] = 16; // -1 point
        assert_eq!(evaluate_learned(&board, &w), 1);
        w[TERMS + 7] = 17; // 33 - 17 = 16: 1 point
        assert_eq!(evaluate_learned(&board, &w), 1);
        w[TERMS + 7] = 50; // -17 / 16 rounds down: -2 points
        assert_eq!(evaluate_learned(&board, &w), -2);
        w[TERMS + 6] = MAX_LEARNED_WEIGHT;
        w[TERMS + 5] = MAX_LEARNED_WEIGHT;
        assert_eq!(evaluate_learned(&board, &w), LEARNED_BOUND);
    }
}
