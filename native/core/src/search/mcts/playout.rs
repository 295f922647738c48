//! What Monte Carlo tree search asks of a game beyond the [`Game`] trait ([`MctsGame`]):
//! the immediate-win test (MCTS-Solver's test at new nodes) and the playout policy. Each
//! game implements it in its AI module (`andantino::ai`, `abande::ai`), with the
//! policies of hexgames 0.1's pure-Python player; [`uniform`] is the plain policy.
//!
//! **Length.** A playout ends with the game, at the cut-off (Abande's), or after
//! [`MAX_PLAYOUT_PLIES`] plies, when it is scored as a draw (0.5). Under the default
//! rules no game gets that far: Abande lasts at most 144 plies, and an Andantino game
//! at most 998 placements (500 tiles a side) and 200 relocations (the default
//! `extended_move_limit`, after which the rules call it a draw). Only a raised
//! relocation limit (up to 999,999,999) makes longer games, and a random playout of
//! thousands of relocations says nothing a draw does not: the rules' own answer to an
//! overlong game is a draw, and the MCTS of Andantino has no evaluation to score a
//! position by. A playout also ends, unscored (`None`), when the search's [`Watch`]
//! says to stop; it is asked every [`CHECK_PLIES`] plies.

use crate::game::{Game, GameResult};
use crate::search::Watch;
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

/// How playouts are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutOptions {
    /// Decisive and anti-decisive moves (F. Teytaud and O. Teytaud, CIG 2010).
    pub decisive: bool,
    /// Stop after this many plies and score the position, where the game can (`None`:
    /// play out; a game that cannot score a position ignores it).
    pub cutoff: Option<u32>,
    /// Points of the game's score difference that move the cut-off's win probability
    /// from 0.5 to about 0.73.
    pub scale: f64,
}

/// A game that Monte Carlo tree search can play.
pub trait MctsGame: Game {
    /// The rules a position is played under (a tree is kept only for the same rules).
    type Rules: Copy + PartialEq + Send + Sync + 'static;
    /// Buffers a playout reuses.
    type Scratch: Default + Send;

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
        options: &PlayoutOptions,
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

/// Uniformly random moves to the end of the game (see [`MctsGame::playout`]).
#[inline]
pub(crate) fn uniform<G: Game>(
    game: &mut G,
    rng: &mut Rng,
    trace: &mut Vec<G::Move>,
    moves: &mut Vec<G::Move>,
    watch: &mut Watch<'_>,
) -> Option<f64> {
    let mut plies = 0;
    while game.result().is_none() {
        let Some(mv) = game.random_move(rng, moves) else {
            break;
        };
        game.push(mv);
        trace.push(mv);
        if let Err(end) = count_ply(&mut plies, watch) {
            return end;
        }
    }
    Some(first_player_value(game.result()))
}
