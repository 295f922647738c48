//! The greedy player's evaluation of Abande ([`Evaluate`]): that of hexgames 0.1's
//! pure-Python engine (`evaluation_abande.py`), computed from scratch: the terms of
//! [`super::eval`] with hexgames 0.1's weights (100 points per point of the game score;
//! the terms: `hexgames.engine.alphabeta`'s docstring). `tests/naive_evaluation.py`
//! computes the same values in Python for the greedy tests.

use crate::abande::{self, bits};
use crate::search::greedy::Evaluate;

const SCORE_WEIGHT: i32 = 100;
const MATERIAL_WEIGHT: i32 = 25;
const FROZEN_WEIGHT: i32 = 20;
const THREAT_WEIGHT: i32 = 30;
const EXPOSED_WEIGHT: i32 = 15;
const MOBILITY_WEIGHT: i32 = 6;
const HAND_WEIGHT: i32 = 30;
/// What a finished game is worth to the winner.
const WIN_VALUE: i32 = 300_000;

impl Evaluate for abande::Board {
    const SCALE: f64 = 200.0;

    fn evaluate(&self) -> i32 {
        let mover = self.turn();
        if let Some(outcome) = self.outcome() {
            return match outcome.winner {
                None => 0,
                Some(w) if w == mover => WIN_VALUE,
                Some(_) => -WIN_VALUE,
            };
        }
        let max = self.rules().max_height as usize;
        let mut heights = vec![0u64; max + 1];
        let mut top = [0u64; 2];
        for b in bits::bits(self.occupied()) {
            let h = abande::board::height(self.stack_code(b)) as usize;
            heights[h.min(max)] |= 1 << b;
            if let Some(c) = self.controller(b) {
                top[c as usize] |= 1 << b;
            }
        }
        let weighted = |x: u64| -> i32 {
            (1..=max)
                .map(|h| h as i32 * (x & heights[h]).count_ones() as i32)
                .sum()
        };
        let (mine, theirs) = (top[mover as usize], top[1 - mover as usize]);
        let (near_mine, near_theirs) = (bits::dilate(mine), bits::dilate(theirs));
        let (awake_mine, awake_theirs) = (mine & near_theirs, theirs & near_mine);
        let mut value = SCORE_WEIGHT * (weighted(awake_mine) - weighted(awake_theirs));
        value += MATERIAL_WEIGHT * (weighted(mine) - weighted(theirs));
        let full = heights[max];
        value += FROZEN_WEIGHT
            * ((mine & full).count_ones() as i32 - (theirs & full).count_ones() as i32);
        if !self.opening_restriction() {
            let (mut my_reach, mut their_reach, mut my_movers, mut their_movers) =
                (0u64, 0u64, 0u64, 0u64);
            for h in 1..max {
                let room = heights[1..=max - h].iter().fold(0, |a, &x| a | x);
                let (mine_h, theirs_h) = (mine & heights[h], theirs & heights[h]);
                if mine_h & near_theirs != 0 {
                    let targets = theirs & room & bits::dilate(mine_h);
                    my_reach |= targets;
                    if targets != 0 {
                        my_movers |= mine_h & bits::dilate(targets);
                    }
                }
                if theirs_h & near_mine != 0 {
                    let targets = mine & room & bits::dilate(theirs_h);
                    their_reach |= targets;
                    if targets != 0 {
                        their_movers |= theirs_h & bits::dilate(targets);
                    }
                }
            }
            value += THREAT_WEIGHT * weighted(my_reach);
            value -= EXPOSED_WEIGHT * weighted(their_reach);
            value += MOBILITY_WEIGHT
                * (my_movers.count_ones() as i32 - their_movers.count_ones() as i32);
        }
        let (b, w) = self.hands();
        let hand = |c: u8| if c == 0 { b as i32 } else { w as i32 };
        value + HAND_WEIGHT * (hand(mover) - hand(1 - mover))
    }
}
