//! The greedy player, the algorithm of hexgames 0.1's pure-Python greedy: one ply of
//! lookahead with the static evaluation, and no blunders in one.
//!
//! For each legal move, pushed: a move that wins at once is played; moves that lose at
//! once (a self-trap in Andantino) and moves after which the opponent has a winning
//! reply are unsafe; among the safe moves (which include those that block an opponent
//! threat) the one with the best evaluation of the position after it (negated) is
//! played; only when every move is unsafe is the best-evaluated move that does not lose
//! at once played, and only when all of those lose at once the best of the rest. Ties
//! are broken by the seeded random numbers. With `noise` > 0 (the `easy` level) a
//! uniformly random choice among those moves is made with that probability instead of
//! the best-evaluated one; wins in one are always taken.
//!
//! The evaluation is behind the small [`Evaluate`] trait; `legacy_eval` computes the
//! same terms as alpha-beta's incremental evaluations (`search/eval_andantino.rs`,
//! `search/eval_abande.rs`) from scratch. Putting greedy on those is left for later.

mod legacy_eval;

use std::time::Instant;

use super::{win_probability, Info};
use crate::error::{Error, Result};
use crate::game::Game;
use crate::zobrist::Rng;

/// A static evaluation for the greedy player.
pub trait Evaluate: Game {
    /// Points at which [`win_probability`] gives about 73% (the Python engine's
    /// `PROBABILITY_SCALE`).
    const SCALE: f64;

    /// The value of the position in points for the side to move (positive is good for
    /// it); a finished game is worth the game's win value to the winner (0 if drawn).
    fn evaluate(&self) -> i32;
}

/// The greedy player: its random numbers and its noise.
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: Rng,
    noise: f64,
}

/// The move chosen and the report on it (`mate` 1 and `score` 1 for a win in one, else
/// `eval` the move's value and `score` its win probability; `depth` 1, `nodes` the
/// positions pushed).
#[derive(Clone, Debug, PartialEq)]
pub struct GreedyResult<M> {
    pub best: M,
    pub info: Info,
}

impl Greedy {
    /// A greedy player with the seed of its tie-breaks and its `noise` (0 to 1).
    ///
    /// Errors: `Error::InvalidArgument` for a `noise` outside 0 to 1 (or NaN).
    pub fn new(seed: u64, noise: f64) -> Result<Greedy> {
        if !(0.0..=1.0).contains(&noise) {
            return Err(Error::InvalidArgument(format!(
                "noise is a probability from 0 to 1, not {noise}"
            )));
        }
        Ok(Greedy {
            rng: Rng::new(seed),
            noise,
        })
    }

    /// Choose a move for the side to move in `game` (which is not changed).
    ///
    /// Errors: `Error::InvalidArgument` if the game is over.
    pub fn choose<G: Evaluate>(&mut self, game: &G) -> Result<GreedyResult<G::Move>> {
        let start = Instant::now();
        if game.result().is_some() {
            return Err(Error::InvalidArgument(
                "the game is over: there is no move to play".into(),
            ));
        }
        let mut g = game.clone();
        let me = g.turn();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let mut replies = Vec::new();
        let mut nodes = 0u64;
        let (mut safe, mut unsafe_, mut suicide) = (Vec::new(), Vec::new(), Vec::new());
        for &mv in &moves {
            g.push(mv);
            nodes += 1;
            let result = g.result();
            if result.is_some_and(|r| r.winner == Some(me)) {
                g.pop();
                return Ok(self.result(game, mv, None, nodes, start));
            }
            let value = -g.evaluate();
            if result.is_some_and(|r| r.winner.is_some()) {
                suicide.push((value, mv));
            } else {
                let (winning, pushes) = if result.is_some() {
                    (false, 0)
                } else {
                    has_winning_reply(&mut g, &mut replies)
                };
                nodes += pushes;
                if winning {
                    unsafe_.push((value, mv));
                } else {
                    safe.push((value, mv));
                }
            }
            g.pop();
        }
        let choices = [safe, unsafe_, suicide]
            .into_iter()
            .find(|c| !c.is_empty())
            .ok_or_else(|| Error::InvalidArgument("no legal move".into()))?;
        if self.noise > 0.0 && self.rng.unit() < self.noise {
            let (value, mv) = choices[self.rng.below(choices.len())];
            return Ok(self.result(game, mv, Some(value), nodes, start));
        }
        let best = choices.iter().map(|c| c.0).max().unwrap_or(0);
        let ties: Vec<G::Move> = choices
            .iter()
            .filter(|c| c.0 == best)
            .map(|c| c.1)
            .collect();
        let mv = ties[self.rng.below(ties.len())];
        Ok(self.result(game, mv, Some(best), nodes, start))
    }

    fn result<G: Evaluate>(
        &self,
        game: &G,
        mv: G::Move,
        value: Option<i32>,
        nodes: u64,
        start: Instant,
    ) -> GreedyResult<G::Move> {
        let (score, mate) = match value {
            None => (1.0, Some(1)),
            Some(v) => (win_probability(v as f64, G::SCALE), None),
        };
        GreedyResult {
            best: mv,
            info: Info {
                depth: 1,
                seldepth: 1,
                eval: value,
                score,
                mate,
                pv: vec![game.notation(mv)],
                nodes,
                time: start.elapsed().as_secs_f64(),
            },
        }
    }
}

/// Whether the side to move has a move that wins at once, and the pushes it took.
fn has_winning_reply<G: Game>(g: &mut G, replies: &mut Vec<G::Move>) -> (bool, u64) {
    let mover = g.turn();
    g.legal_moves(replies);
    let mut pushes = 0;
    for &reply in replies.iter() {
        g.push(reply);
        pushes += 1;
        let won = g.result().is_some_and(|r| r.winner == Some(mover));
        g.pop();
        if won {
            return (true, pushes);
        }
    }
    (false, pushes)
}

#[cfg(test)]
mod tests;
