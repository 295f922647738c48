//! What Monte Carlo tree search knows of each game beyond the [`Game`] trait: the
//! immediate-win test (MCTS-Solver's test at new nodes) and the playout policy.
//!
//! As in hexgames 0.1's pure-Python player:
//! - Andantino with the standard move rules (see [`Board::standard_moves`]): the win in
//!   one is a placement completing a line of five; decisive playouts play such a
//!   placement, else fill the opponent's, else play a random move, drawn again once if it
//!   lands in the opponent's pocket (a self-trap). The line threats of both sides are
//!   kept incrementally during a playout (a placement adds the cells completing a line
//!   through it; tiles never move). Under the other rules, uniformly random playouts
//!   and no immediate-win test.
//! - Abande: passing after the opponent's pass while ahead wins at once; decisive
//!   playouts end won by that pass and, when behind with an empty hand, do not pass
//!   (that would let the opponent end the game won). A playout may be cut off after a
//!   number of plies and scored by the awake-stack score difference `d` (Black minus
//!   White) as `1 / (1 + exp(-d / scale))` for Black.
//!
//! **Length.** A playout ends with the game, at the Abande cut-off, or after
//! [`MAX_PLAYOUT_PLIES`] plies, when it is scored as a draw (0.5). Under the default
//! rules no game gets that far: Abande lasts at most 144 plies, and an Andantino game
//! at most 998 placements (500 tiles a side) and 200 relocations (the default
//! `extended_move_limit`, after which the rules call it a draw). Only a raised
//! relocation limit (up to 999,999,999) makes longer games, and a random playout of
//! thousands of relocations says nothing a draw does not: the rules' own answer to an
//! overlong game is a draw, and the MCTS of Andantino has no evaluation to score a
//! position by. A playout also ends, unscored (`None`), when the search's [`Watch`]
//! says to stop; it is asked every [`CHECK_PLIES`] plies.

use crate::abande;
use crate::andantino::{self, Cell};
use crate::game::{Color, Game, GameResult};
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
fn count_ply(plies: &mut u32, watch: &mut Watch<'_>) -> Result<(), Option<f64>> {
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
    /// Abande: stop after this many plies and score the position (`None`: play out).
    pub cutoff: Option<u32>,
    /// Abande: points of score difference that move the cut-off's win probability from
    /// 0.5 to about 0.73.
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
fn uniform<G: Game>(
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

/// Buffers of an Andantino playout.
#[derive(Default)]
pub struct AndantinoScratch {
    moves: Vec<andantino::Move>,
    threats: [Vec<Cell>; 2],
}

/// Whether `cell` is empty and touches two or more tiles: in the standard game, a legal
/// placement.
#[inline]
fn placeable(board: &andantino::Board, cell: Cell) -> bool {
    board.tiles_touching(cell) >= 2 && board.color_at(cell).is_none()
}

impl MctsGame for andantino::Board {
    type Rules = andantino::Rules;
    type Scratch = AndantinoScratch;

    fn game_rules(&self) -> andantino::Rules {
        self.rules()
    }

    fn history(&self) -> Vec<andantino::Move> {
        self.moves()
    }

    #[inline]
    fn immediate_win(&self) -> Option<andantino::Move> {
        if !self.standard_moves() {
            return None;
        }
        self.line_completion(self.turn())
    }

    fn playout(
        &mut self,
        options: &PlayoutOptions,
        rng: &mut Rng,
        trace: &mut Vec<andantino::Move>,
        scratch: &mut AndantinoScratch,
        watch: &mut Watch<'_>,
    ) -> Option<(f64, Option<andantino::Move>)> {
        let AndantinoScratch { moves, threats } = scratch;
        if !options.decisive || !self.standard_moves() {
            return uniform(self, rng, trace, moves, watch).map(|v| (v, None));
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

/// The score difference for the side to move if the game ended now.
#[inline]
fn abande_lead(board: &abande::Board) -> i64 {
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
fn abande_hand(board: &abande::Board) -> u32 {
    let (black, white) = board.hands();
    if board.turn() == 0 {
        black
    } else {
        white
    }
}

impl MctsGame for abande::Board {
    type Rules = abande::Rules;
    type Scratch = Vec<abande::Move>;

    fn game_rules(&self) -> abande::Rules {
        self.rules()
    }

    fn history(&self) -> Vec<abande::Move> {
        self.moves().collect()
    }

    #[inline]
    fn immediate_win(&self) -> Option<abande::Move> {
        (self.passes() == 1
            && !self.is_game_over()
            && abande_hand(self) == 0
            && abande_lead(self) > 0)
            .then_some(abande::Move::PASS)
    }

    fn playout(
        &mut self,
        options: &PlayoutOptions,
        rng: &mut Rng,
        trace: &mut Vec<abande::Move>,
        moves: &mut Vec<abande::Move>,
        watch: &mut Watch<'_>,
    ) -> Option<(f64, Option<abande::Move>)> {
        let mut plies = 0u32;
        while self.result().is_none() {
            if options.cutoff.is_some_and(|c| plies >= c) {
                let (black, white) = self.score();
                let d = black as f64 - white as f64;
                return Some((1.0 / (1.0 + (-d / options.scale).exp()), None));
            }
            Game::legal_moves(self, moves);
            let turn = self.turn();
            let mut choices = moves.len();
            if options.decisive && moves.len() > 1 && abande_hand(self) == 0 {
                let lead = abande_lead(self);
                if lead > 0 && self.passes() > 0 {
                    return Some((if turn == 0 { 1.0 } else { 0.0 }, Some(abande::Move::PASS)));
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
