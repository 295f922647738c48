//! What Monte Carlo tree search asks of a game beyond the [`Game`] trait ([`MctsGame`]):
//! the immediate-win test (MCTS-Solver's test at new nodes) and the playout policy. Each
//! game implements it in its AI module (`andantino::ai`, `abande::ai`), with the
//! policies of hexgames 0.1's pure-Python player; [`uniform`] is the plain policy.
//!
//! **Length.** A playout ends with the game, at the cut-off, or after
//! [`MAX_PLAYOUT_PLIES`] plies, when it is scored as a draw (0.5). Under the default
//! rules no game gets that far: Abande lasts at most 144 plies, and an Andantino game
//! at most 998 placements (500 tiles a side) and 200 relocations (the default
//! `extended_move_limit`, after which the rules call it a draw). Only a raised
//! relocation limit (up to 999,999,999) makes longer games, and a random playout of
//! thousands of relocations says nothing a draw does not: the rules' own answer to an
//! overlong game is a draw. A playout also ends, unscored (`None`), when the search's
//! [`Watch`] says to stop; it is asked every [`CHECK_PLIES`] plies.
//!
//! **The cut-off** (early playout termination: Lorentz, "Using evaluation functions in
//! Monte-Carlo tree search", Theoretical Computer Science 644, 2016; Winands,
//! Björnsson and Saito, "Monte Carlo tree search in Lines of Action", IEEE TCIAIG 2010):
//! after [`PlayoutOptions::cutoff`] plies a playout stops and its position is scored as
//! a win probability for the first player. With an evaluation
//! ([`PlayoutOptions::eval`]: alpha-beta's, with the weights the player gives, the
//! learned ones) both games score it by [`CutoffEval`]: the evaluation of the position
//! (its state brought there from the last cut-off's), through the logistic its weights
//! were fitted to. Without one, Abande scores it by its score difference (at
//! [`PlayoutOptions::scale`]) and Andantino, which has no score, plays out.

use crate::error;
use crate::game::{Game, GameResult};
use crate::search::alphabeta::SearchGame;
use crate::search::{win_probability, Watch};
use crate::zobrist::Rng;

/// The longest playout, in plies: one that reaches it is scored as a draw (see the
/// module text).
pub const MAX_PLAYOUT_PLIES: u32 = 2048;
/// Plies of a playout between two ticks of the search's [`Watch`].
pub const CHECK_PLIES: u32 = 16;

/// Count a ply of a playout: `Err(None)` to end it unscored (the watch says stop),
/// `Err(Some(0.5))` at [`MAX_PLAYOUT_PLIES`], else `Ok`.
#[inline]
pub(crate) fn count_ply(plies: &mut u32, watch: &mut Watch<'_>) -> Result<(), Option<f64>> {
    *plies += 1;
    if *plies % CHECK_PLIES == 0 {
        if watch.tick(u64::from(CHECK_PLIES)) {
            return Err(None);
        }
        if *plies >= MAX_PLAYOUT_PLIES {
            return Err(Some(0.5));
        }
    }
    Ok(())
}

/// How playouts are played; `W` is the weights of the game's evaluation
/// ([`MctsGame::EvalWeights`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutOptions<W> {
    /// Decisive and anti-decisive moves (F. Teytaud and O. Teytaud, CIG 2010).
    pub decisive: bool,
    /// Stop after this many plies and score the position, where the game can (`None`:
    /// play out; a game that cannot score a position ignores it: Andantino without
    /// `eval`).
    pub cutoff: Option<u32>,
    /// Points of the game's score difference that move the cut-off's win probability
    /// from 0.5 to about 0.73 (Abande's score; not used with `eval`).
    pub scale: f64,
    /// Score the cut-off's position by alpha-beta's evaluation with these weights
    /// ([`CutoffEval`]) instead of the game's score; `None`: by the score, where the
    /// game has one.
    pub eval: Option<W>,
}

/// The value of a playout's cut-off position by alpha-beta's evaluation
/// ([`SearchGame::evaluate`], with the player's weights): the evaluation state is made
/// for the position ([`SearchGame::sync_aux`]: it does not follow the tree and the
/// playout move by move, which the search plays on one board by make/unmake, but is
/// brought from the last cut-off's position to this one: Andantino's tracker removes
/// and places only the tiles that differ) and kept. A game's playout scratch holds one.
pub struct CutoffEval<G: SearchGame> {
    aux: Option<Box<G::Aux>>,
    weights: Option<G::Weights>,
}

impl<G: SearchGame> Default for CutoffEval<G> {
    fn default() -> Self {
        CutoffEval {
            aux: None,
            weights: None,
        }
    }
}

impl<G: SearchGame> CutoffEval<G> {
    /// The evaluation state of `game` with `weights`, made for it the first time and
    /// then brought to it ([`SearchGame::sync_aux`]: only what differs from the last
    /// position; the caller may push moves onto it with [`SearchGame::push_aux`]).
    pub fn aux_of(&mut self, game: &G, weights: &G::Weights) -> &mut G::Aux {
        let aux = match self.aux.take() {
            Some(mut aux) => {
                game.sync_aux(&mut aux);
                aux
            }
            None => Box::new(game.new_aux()),
        };
        let aux = self.aux.insert(aux);
        if self.weights.as_ref() != Some(weights) {
            game.configure_aux(aux, weights);
            self.weights = Some(*weights);
        }
        aux
    }

    /// The evaluation of `game` (whose game goes on) with `weights`, in points for the
    /// side to move.
    pub fn points(&mut self, game: &G, weights: &G::Weights) -> i32 {
        game.evaluate(self.aux_of(game, weights))
    }

    /// The cut-off's value of `game` (whose game goes on): [`first_player_probability`]
    /// of its evaluation ([`CutoffEval::points`]).
    pub fn value(&mut self, game: &G, weights: &G::Weights) -> f64 {
        first_player_probability(game, self.points(game, weights))
    }
}

/// The win probability for the first player of `game` of an evaluation of `points` for
/// its side to move: `1 / (1 + exp(-points / G::PROBABILITY_SCALE))`, turned to the
/// first player's view. The scale is the one the learned weights were fitted with
/// (Texel's method: Abande 200 points, Andantino 250; `hexgames.engine.learned`).
pub fn first_player_probability<G: SearchGame>(game: &G, points: i32) -> f64 {
    let p = win_probability(f64::from(points), G::PROBABILITY_SCALE);
    if game.turn() == 0 {
        p
    } else {
        1.0 - p
    }
}

/// A game that Monte Carlo tree search can play.
pub trait MctsGame: Game {
    /// The rules a position is played under (a tree is kept only for the same rules).
    type Rules: Copy + PartialEq + Send + Sync + 'static;
    /// Buffers a playout reuses.
    type Scratch: Default + Send;
    /// The weights of the evaluation a playout's cut-off may score its position by
    /// ([`PlayoutOptions::eval`]): alpha-beta's ([`SearchGame::Weights`]).
    type EvalWeights: Copy + PartialEq + std::fmt::Debug + Send + Sync + 'static;

    /// Check `weights` before a player takes them (as alpha-beta does).
    ///
    /// Errors: `Error::InvalidArgument` naming what is wrong.
    fn check_eval_weights(weights: &Self::EvalWeights) -> error::Result<()>;

    /// The rules of this position.
    fn game_rules(&self) -> Self::Rules;

    /// The moves pushed since the position was set up, oldest first.
    fn history(&self) -> Vec<Self::Move>;

    /// A move with which the side to move wins at once, when the game's cheap test finds
    /// one (`None` does not prove there is none).
    fn immediate_win(&self) -> Option<Self::Move>;

    /// Play from here to the end of the game (or the cut-off, or
    /// [`MAX_PLAYOUT_PLIES`]), pushing every move and appending it to `trace`. Returns
    /// the value for the first player (1.0 won, 0.5 drawn, 0.0 lost, or a probability
    /// after a cut-off) and a winning move that ended the playout without being pushed,
    /// if any; `None` when `watch` said to stop first (the moves pushed stay pushed).
    fn playout(
        &mut self,
        options: &PlayoutOptions<Self::EvalWeights>,
        rng: &mut Rng,
        trace: &mut Vec<Self::Move>,
        scratch: &mut Self::Scratch,
        watch: &mut Watch<'_>,
    ) -> Option<(f64, Option<Self::Move>)>;
}

/// The value of a finished game for the first player.
#[inline]
pub(crate) fn first_player_value(result: Option<GameResult>) -> f64 {
    match result.and_then(|r| r.winner) {
        None => 0.5,
        Some(0) => 1.0,
        Some(_) => 0.0,
    }
}

/// Uniformly random moves to the end of the game (see [`MctsGame::playout`]), or until
/// `cutoff` plies, when `score` gives the value of the position reached (it may push
/// moves, and appends them to the trace it gets; `moves` is a buffer).
#[inline]
pub(crate) fn uniform<G: Game>(
    game: &mut G,
    rng: &mut Rng,
    trace: &mut Vec<G::Move>,
    moves: &mut Vec<G::Move>,
    watch: &mut Watch<'_>,
    cutoff: Option<u32>,
    mut score: impl FnMut(&mut G, &mut Vec<G::Move>, &mut Vec<G::Move>) -> (f64, Option<G::Move>),
) -> Option<(f64, Option<G::Move>)> {
    let mut plies = 0;
    while game.result().is_none() {
        if cutoff.is_some_and(|c| plies >= c) {
            return Some(score(game, trace, moves));
        }
        let Some(mv) = game.random_move(rng, moves) else {
            break;
        };
        game.push(mv);
        trace.push(mv);
        if let Err(end) = count_ply(&mut plies, watch) {
            return end.map(|v| (v, None));
        }
    }
    Some((first_player_value(game.result()), None))
}
