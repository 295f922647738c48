//! The greedy player, the algorithm of hexgames 0.1's pure-Python greedy: one ply of
//! lookahead with alpha-beta's static evaluation, and no blunders in one.
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
//! **The evaluation** is the alpha-beta search's, [`SearchGame::evaluate`] with the
//! game's default weights, kept under push and pop by its incremental state
//! ([`SearchGame::Aux`]) as in the search; a finished game is worth [`DECIDED`] points
//! to the winner, 0 when drawn. The greedy player asks nothing else of a game but the
//! moves that may win at once ([`GreedyGame`]).
//!
//! **Cost and stopping.** The moves that may win at once are looked for first
//! ([`GreedyGame::may_win_at_once`]: in Andantino only those that pass push's first
//! tests of a line or a trap, a few cells' worth however many moves there are), so a
//! win in one is found at once, and whether the opponent has a winning reply costs
//! those few pushes, not one per reply: with extended play and 40 tiles a side a move
//! took 26 s before, growing with the fourth power of the tiles. A search stops at its
//! time or node limit, on [`Stop`] or when the caller's poll says so, looked at by the
//! work done ([`Watch`]); it then plays the best of the moves examined so far, or, if
//! none was, the first legal move, and reports depth 0 (1 when every move was
//! examined).

use std::time::Instant;

use super::alphabeta::SearchGame;
use super::{win_probability, Info, Limits, Stop, Watch};
use crate::error::{Error, Result};
use crate::zobrist::Rng;

/// What the greedy player asks of a game beyond alpha-beta's view of it
/// ([`SearchGame`], whose evaluation it scores moves with).
pub trait GreedyGame: SearchGame {
    /// The legal moves of the side to move that may win at once into `out` (cleared
    /// first), in any order: every move that does, and maybe others. By default every
    /// legal move.
    fn may_win_at_once(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
    }
}

/// The value of a finished game to its winner (the loser's is its negative), in the
/// points of the evaluation: above any value of a game that goes on.
pub const DECIDED: i32 = 300_000;

/// The greedy player: its random numbers and its noise.
#[derive(Clone, Debug)]
pub struct Greedy {
    rng: Rng,
    noise: f64,
}

/// The move chosen and the report on it (`mate` 1 and `score` 1 for a win in one, else
/// `eval` the move's value and `score` its win probability; `depth` 1, or 0 when a
/// limit or a stop came before every move was examined; `nodes` the positions
/// pushed).
#[derive(Clone, Debug, PartialEq)]
pub struct GreedyResult<M> {
    pub best: M,
    pub info: Info,
}

/// Moves examined so far by their class, each with its value: safe, unsafe (the
/// opponent then wins at once), losing at once.
type Classes<M> = [Vec<(i32, M)>; 3];

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

    /// Choose a move for the side to move in `game` (which is not changed), examining
    /// every move.
    ///
    /// Errors: `Error::InvalidArgument` if the game is over.
    pub fn choose<G: GreedyGame>(&mut self, game: &G) -> Result<GreedyResult<G::Move>> {
        self.choose_within(game, &Limits::default(), &Stop::new(), &mut || false)
    }

    /// Choose a move for the side to move in `game` (which is not changed) within
    /// `limits` (`time` seconds, `nodes` positions pushed; the others do not apply),
    /// until `stop` is set or `interrupted` (polled about every millisecond) returns
    /// true: then the best move of those examined (see the module text).
    ///
    /// Errors: `Error::InvalidArgument` if the game is over, or for a negative or NaN
    /// time limit.
    pub fn choose_within<G: GreedyGame>(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Stop,
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<GreedyResult<G::Move>> {
        let start = Instant::now();
        if game.result().is_some() {
            return Err(Error::InvalidArgument(
                "the game is over: there is no move to play".into(),
            ));
        }
        if let Some(t) = limits.time {
            if t.is_nan() || t < 0.0 {
                return Err(Error::InvalidArgument(format!(
                    "time must be 0 or more seconds, not {t}"
                )));
            }
        }
        let deadline = limits.time.map(|t| start + super::time::seconds(t));
        let mut watch = Watch::new(stop, deadline, interrupted);
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut g = game.clone();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let first = *moves
            .first()
            .ok_or_else(|| Error::InvalidArgument("no legal move".into()))?;
        let mut replies = Vec::new();
        let mut nodes = 0u64;
        // A win in one first: the first in the order of the legal moves.
        let wins = winning_moves(&mut g, &mut replies, &mut nodes);
        if let Some(&mv) = moves.iter().find(|m| wins.contains(m)) {
            return Ok(self.result(game, mv, None, 1, nodes, start));
        }
        let mut classes: Classes<G::Move> = [Vec::new(), Vec::new(), Vec::new()];
        let mut aux = g.new_aux();
        g.configure_aux(&mut aux, &G::Weights::default());
        let mover = g.turn();
        let mut complete = true;
        for &mv in &moves {
            if nodes >= node_limit || watch.stop_set() || watch.tick(1) {
                complete = false;
                break;
            }
            g.push(mv);
            nodes += 1;
            let ended = g.result();
            // The move's class and value, or `None` if the watch said to stop.
            let examined = match ended {
                Some(r) if r.winner.is_some() => Some((2, -DECIDED)), // (wins were found above)
                Some(_) => Some((0, 0)),
                None => {
                    g.push_aux(&mut aux, mv, mover);
                    let value = -g.evaluate(&aux);
                    has_winning_reply(&mut g, &mut replies, &mut nodes, &mut watch)
                        .map(|lost| (usize::from(lost), value))
                }
            };
            g.pop();
            if ended.is_none() {
                g.pop_aux(&mut aux, mv, mover);
            }
            let Some((class, value)) = examined else {
                complete = false;
                break;
            };
            classes[class].push((value, mv));
        }
        let depth = u32::from(complete);
        let Some(choices) = classes.into_iter().find(|c| !c.is_empty()) else {
            // Stopped before a move was examined: a legal move all the same.
            let mut r = self.result(game, first, None, 0, nodes, start);
            (r.info.score, r.info.mate) = (0.5, None);
            return Ok(r);
        };
        if self.noise > 0.0 && self.rng.unit() < self.noise {
            let (value, mv) = choices[self.rng.below(choices.len())];
            return Ok(self.result(game, mv, Some(value), depth, nodes, start));
        }
        let best = choices.iter().map(|c| c.0).max().unwrap_or(0);
        let ties: Vec<G::Move> = choices
            .iter()
            .filter(|c| c.0 == best)
            .map(|c| c.1)
            .collect();
        let mv = ties[self.rng.below(ties.len())];
        Ok(self.result(game, mv, Some(best), depth, nodes, start))
    }

    fn result<G: GreedyGame>(
        &self,
        game: &G,
        mv: G::Move,
        value: Option<i32>,
        depth: u32,
        nodes: u64,
        start: Instant,
    ) -> GreedyResult<G::Move> {
        let (score, mate) = match value {
            None => (1.0, Some(1)),
            Some(v) => (win_probability(v as f64, G::PROBABILITY_SCALE), None),
        };
        GreedyResult {
            best: mv,
            info: Info {
                depth,
                seldepth: depth,
                eval: value,
                score,
                mate,
                pv: vec![game.notation(mv)],
                nodes,
                time: start.elapsed().as_secs_f64(),
                lines: Vec::new(),
            },
        }
    }
}

/// The moves with which the side to move wins at once (of the few that may), counting
/// the pushes in `nodes`.
fn winning_moves<G: GreedyGame>(
    g: &mut G,
    scratch: &mut Vec<G::Move>,
    nodes: &mut u64,
) -> Vec<G::Move> {
    let mover = g.turn();
    g.may_win_at_once(scratch);
    let mut wins = Vec::new();
    for &mv in scratch.iter() {
        g.push(mv);
        *nodes += 1;
        if g.result().is_some_and(|r| r.winner == Some(mover)) {
            wins.push(mv);
        }
        g.pop();
    }
    wins
}

/// Whether the side to move has a move that wins at once, counting the pushes in
/// `nodes`; `None` if `watch` said to stop first.
fn has_winning_reply<G: GreedyGame>(
    g: &mut G,
    replies: &mut Vec<G::Move>,
    nodes: &mut u64,
    watch: &mut Watch<'_>,
) -> Option<bool> {
    let mover = g.turn();
    g.may_win_at_once(replies);
    for &reply in replies.iter() {
        if watch.tick(1) {
            return None;
        }
        g.push(reply);
        *nodes += 1;
        let won = g.result().is_some_and(|r| r.winner == Some(mover));
        g.pop();
        if won {
            return Some(true);
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests;
