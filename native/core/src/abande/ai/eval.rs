//! Abande evaluation from the board's bit sets (docs/rules.md, "Scoring"): the terms of
//! hexgames 0.1's pure-Python evaluation (see `hexgames.engine.alphabeta`), with
//! weights fitted to self-play results by Texel's method (`examples/abande_tune.rs`:
//! 195,570 positions of 4,000 games of this player at depth 4; the fitted weights won
//! 69 of 100 games at 0.2 s a move against hexgames 0.1's, which were 100, 25, 20, 30,
//! 15, 6, 30).
//!
//! Points for the side to move; 100 points are one point of the game's score (the height
//! of an awake stack). Terms, each the side to move's value minus the opponent's:
//!
//! - **score**: the game score now (heights of awake stacks), x[`SCORE_WEIGHT`];
//! - **material**: heights of the stacks each side controls, awake or asleep,
//!   x[`MATERIAL_WEIGHT`] (a sleeping stack scores if woken later);
//! - **frozen**: stacks at the maximum height (they can neither move nor be captured),
//!   x[`FROZEN_WEIGHT`];
//! - **threats**: enemy stacks the side to move could capture now (x[`THREAT_WEIGHT`]
//!   by height) against its own stacks the opponent could capture on its turn
//!   (x[`EXPOSED_WEIGHT`] by height); band connectivity is ignored here;
//! - **mobility**: stacks that have a capture, x[`MOBILITY_WEIGHT`];
//! - **hand**: pieces still in hand, x[`HAND_WEIGHT`].

use super::learned::LEARNED_TERMS;
use crate::abande::bits::dilate;
use crate::abande::Board;

pub const SCORE_WEIGHT: i32 = 100;
pub const MATERIAL_WEIGHT: i32 = 8;
pub const FROZEN_WEIGHT: i32 = 0;
pub const THREAT_WEIGHT: i32 = 81;
pub const EXPOSED_WEIGHT: i32 = 81;
pub const MOBILITY_WEIGHT: i32 = 94;
pub const HAND_WEIGHT: i32 = 163;

/// Black's hand while captures are still forbidden (docs/rules.md, "Opening restriction").
pub(super) const OPENING_HAND: u32 = 16;

/// The heights of the stacks of the set `x` added up.
#[inline(always)]
fn weighted(x: u64, heights: &[u64]) -> i32 {
    let mut total = 0;
    for (h, &set) in heights.iter().enumerate().skip(1) {
        total += h as i32 * (x & set).count_ones() as i32;
    }
    total
}

/// The number of terms of the evaluation ([`terms`]).
pub const TERMS: usize = 7;
/// The weights of the terms, in the order of [`terms`].
pub const WEIGHTS: [i32; TERMS] = [
    SCORE_WEIGHT,
    MATERIAL_WEIGHT,
    FROZEN_WEIGHT,
    THREAT_WEIGHT,
    EXPOSED_WEIGHT,
    MOBILITY_WEIGHT,
    HAND_WEIGHT,
];

/// The terms of the evaluation of a position whose game goes on, each the side to
/// move's count minus the opponent's (see the module text): score, material, frozen,
/// threats, exposed (negated: the opponent's reach), mobility, hand. The threat,
/// exposed and mobility terms are 0 while the opening restriction lasts.
pub fn terms(board: &Board) -> [i32; TERMS] {
    let mover = board.turn();
    let max_height = board.rules().max_height as usize;
    let mut heights = [0u64; 40];
    let heights = &mut heights[..=max_height.min(39)];
    for (h, slot) in heights.iter_mut().enumerate().skip(1) {
        *slot = board.stacks_of_height(h as u32);
    }
    let heights = &*heights;
    let max_height = heights.len() - 1;
    let mine = board.controlled(mover);
    let theirs = board.controlled(1 - mover);
    let (near_mine, near_theirs) = (dilate(mine), dilate(theirs));
    let awake_mine = mine & near_theirs;
    let awake_theirs = theirs & near_mine;
    let mut t = [0i32; TERMS];
    t[0] = weighted(awake_mine, heights) - weighted(awake_theirs, heights);
    t[1] = weighted(mine, heights) - weighted(theirs, heights);
    let full = heights[max_height];
    t[2] = (mine & full).count_ones() as i32 - (theirs & full).count_ones() as i32;
    let (black_hand, white_hand) = board.hands();
    if black_hand <= OPENING_HAND {
        let (mut my_reach, mut their_reach, mut my_movers, mut their_movers) = (0, 0, 0, 0);
        let mut room = 0u64; // stacks of height <= max - h, grown as h falls
        for h in (1..max_height).rev() {
            room |= heights[max_height - h];
            let (mine_h, theirs_h) = (mine & heights[h], theirs & heights[h]);
            if mine_h & near_theirs != 0 {
                let targets = theirs & room & dilate(mine_h);
                my_reach |= targets;
                if targets != 0 {
                    my_movers |= mine_h & dilate(targets);
                }
            }
            if theirs_h & near_mine != 0 {
                let targets = mine & room & dilate(theirs_h);
                their_reach |= targets;
                if targets != 0 {
                    their_movers |= theirs_h & dilate(targets);
                }
            }
        }
        t[3] = weighted(my_reach, heights);
        t[4] = -weighted(their_reach, heights);
        t[5] = my_movers.count_ones() as i32 - their_movers.count_ones() as i32;
    }
    let hands = [black_hand as i32, white_hand as i32];
    t[6] = hands[mover as usize] - hands[1 - mover as usize];
    t
}

/// The evaluation (points, side to move's view) of a position whose game goes on,
/// with the terms weighted by `weights` (the search's are [`WEIGHTS`]).
#[inline]
pub fn evaluate_with(board: &Board, weights: &[i32; TERMS]) -> i32 {
    let t = terms(board);
    (0..TERMS).map(|i| weights[i] * t[i]).sum()
}

/// The evaluation (points, side to move's view) of a position whose game goes on.
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, &WEIGHTS)
}

/// The evaluation's weights in the search: the terms' and the side to move's (the
/// player's options of the evaluation, the search's
/// [`SearchGame::Weights`](crate::search::alphabeta::SearchGame::Weights)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// The weights of [`terms`] (default [`WEIGHTS`]).
    pub terms: [i32; TERMS],
    /// Points for the side to move. Measured, not a player option: 50 scored 56.2%
    /// against none over 120 games at 0.1 s a move, with `lmr_log=200` 46.2% at 0.2 s
    /// (`examples/options_match.rs`, `abande_tempo`). Not shown to help.
    pub tempo: i32,
    /// The learned evaluation's weights ([`super::learned`]): when given, the search
    /// evaluates with them instead of [`terms`] and [`Weights::terms`].
    pub learned: Option<[i32; LEARNED_TERMS]>,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            terms: WEIGHTS,
            tempo: 0,
            learned: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abande::Rules;

    fn eval(position: &str) -> i32 {
        evaluate(&Board::new(Some(position), Rules::default()).unwrap())
    }

    #[test]
    fn values_by_hand() {
        assert_eq!(evaluate(&Board::new(None, Rules::default()).unwrap()), 0);
        // Black d4, White to move: White has one more piece in hand (+163) and Black one
        // sleeping stack of height 1 (material -8).
        assert_eq!(eval("abande d4=B turn=w hands=b17,w18"), 163 - 8);
        // Black d4, White d5 (awake, next to each other), Black to move with 17 against
        // 17 in hand: scores 1-1, material 1-1; captures are still forbidden (Black has
        // entered only one piece). (The differential test in Python compares every term
        // with the Python evaluation on random positions.)
        assert_eq!(eval("abande d4=B d5=W turn=b hands=b17,w17"), 0);
    }
}
