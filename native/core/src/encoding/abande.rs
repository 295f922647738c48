//! Abande's fixed spaces, exactly those of `hexgames.integrations.encoding.
//! AbandeEncoding`.
//!
//! **Actions.** `0..=36` enter a piece on the i-th point in board order (a1, a2, ...,
//! g4, the Python `abande.POINTS`); `37 + 6 i + d` moves the stack on the i-th point one
//! step along direction `d` of `hexgrid.DIRECTIONS` ((1,0) (1,-1) (0,-1) (-1,0) (-1,1)
//! (0,1)); `259` passes. Stack-move actions that would leave the board name no move.
//!
//! **Planes** (`2 max_height + 6`), from `player`'s point of view: `own_h` and
//! `opponent_h` mark the stacks of height h that `player` / the opponent controls; then
//! `entry` (the points where the side to move may enter a piece), `hexagon` (the 37
//! points), and on the points only: own and opponent pieces in hand divided by 18, 1 if
//! `player` is to move, 1 if the previous ply was a pass; with
//! [`AbandeEncoding::with_move_count`], the plies over [`MAX_PLIES`] last.

use super::{
    check_observe, check_player, Direct, Encoding, Hexagon, Layout, Sink, Sketch, MAX_PLANES,
};
use crate::abande::bits::{self, cell_of, BOARD, RADIUS, RING, SIZE};
use crate::abande::board::height;
use crate::abande::keys::PIECES;
use crate::abande::{Board, Move, Rules};
use crate::error::{Error, Result};
use crate::game::{Color, Game};

/// The first stack-move action.
pub const STACK_MOVES: u32 = 37;
/// The pass.
pub const PASS: u32 = STACK_MOVES + 37 * 6;
/// The number of actions.
pub const NUM_ACTIONS: usize = PASS as usize + 1;

/// No point.
const NONE: u8 = u8::MAX;

/// The bit of each point in board order.
const POINT_BITS: [u8; 37] = point_bits();
/// The board-order number of each point's bit ([`NONE`] for bits of no point).
const POINT_INDEX: [u8; SIZE] = point_index();

/// The action of each stack move, by (source bit, target bit); 0 for none (no stack
/// move has action 0, an entry).
const STACK_ACTION: [[u16; SIZE]; SIZE] = stack_actions();

const fn stack_actions() -> [[u16; SIZE]; SIZE] {
    let mut out = [[0u16; SIZE]; SIZE];
    let mut k = 0;
    while k < 37 {
        let from = POINT_BITS[k] as usize;
        let mut d = 0;
        while d < 6 {
            let to = RING[from][d];
            if to != bits::OFF {
                out[from][to as usize] = (STACK_MOVES as usize + 6 * k + d) as u16;
            }
            d += 1;
        }
        k += 1;
    }
    out
}

const fn point_bits() -> [u8; 37] {
    let mut out = [0u8; 37];
    let mut b = 0;
    let mut k = 0;
    while b < SIZE {
        if BOARD >> b & 1 == 1 {
            out[k] = b as u8;
            k += 1;
        }
        b += 1;
    }
    out
}

const fn point_index() -> [u8; SIZE] {
    let mut out = [NONE; SIZE];
    let mut k = 0;
    while k < 37 {
        out[POINT_BITS[k] as usize] = k as u8;
        k += 1;
    }
    out
}

/// Actions and observations of Abande.
#[derive(Clone, Debug)]
pub struct AbandeEncoding {
    rules: Rules,
    hexagon: Hexagon,
    start: Board,
    /// Whether the observation ends with the move-count plane.
    move_count: bool,
}

/// The longest Abande game in plies (the Python `ABANDE_MAX_PLIES` of the OpenSpiel
/// game): 36 entries and at most 35 captures, a pass between any two, two at the end.
pub const MAX_PLIES: u32 = 2 * (36 + 35) + 1;

impl AbandeEncoding {
    /// The encoding of games under `rules`.
    ///
    /// Errors: `Error::InvalidRules` for a `max_height` that `Rules::new` refuses.
    pub fn new(rules: Rules) -> Result<AbandeEncoding> {
        let rules = Rules::new(i64::from(rules.max_height))?;
        Ok(AbandeEncoding {
            rules,
            hexagon: Hexagon::new(RADIUS as u32),
            start: Board::new(None, rules)?,
            move_count: false,
        })
    }

    /// The rules encoded.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The same encoding with the move-count plane last if `on` (see
    /// [`super::andantino::MOVE_COUNT`]).
    pub fn with_move_count(mut self, on: bool) -> AbandeEncoding {
        self.move_count = on;
        self
    }

    /// Whether the observation ends with the move-count plane.
    pub fn move_count(&self) -> bool {
        self.move_count
    }

    fn no_move(action: i64) -> Error {
        Error::InvalidArgument(format!(
            "action {action} names no Abande move (the actions are 0..{}; a stack move must \
             stay on the board)",
            NUM_ACTIONS - 1
        ))
    }
}

impl Encoding for AbandeEncoding {
    type Game = Board;

    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn num_planes(&self) -> usize {
        2 * self.rules.max_height as usize + 6 + usize::from(self.move_count)
    }

    fn side(&self) -> usize {
        self.hexagon.side()
    }

    fn new_game(&self) -> Board {
        self.start.clone()
    }

    fn fits(&self, game: &Board) -> bool {
        game.rules() == self.rules
    }

    fn legal_actions(&self, game: &Board, moves: &mut Vec<Move>, out: &mut Vec<u32>) -> Result<()> {
        Game::legal_moves(game, moves);
        // The actions as bits, read out in ascending order: the moves come in board
        // order, then stack moves by source point, which is not the actions' order.
        let mut actions = [0u64; NUM_ACTIONS.div_ceil(64)];
        for &mv in moves.iter() {
            // The tables give the action of every move `legal_moves` makes; the slow
            // path names any other.
            let fast = match (mv.from(), mv.to()) {
                (_, None) => Some(PASS),
                (None, Some(to)) => POINT_INDEX
                    .get(to as usize)
                    .filter(|&&i| i != NONE)
                    .map(|&i| u32::from(i)),
                (Some(from), Some(to)) => STACK_ACTION
                    .get(from as usize)
                    .and_then(|row| row.get(to as usize))
                    .filter(|&&a| a != 0)
                    .map(|&a| u32::from(a)),
            };
            let action = match fast {
                Some(a) => a,
                None => self.action_of(mv)?,
            };
            if let Some(word) = actions.get_mut(action as usize / 64) {
                *word |= 1 << (action % 64); // every action is below NUM_ACTIONS
            }
        }
        out.clear();
        for (word, &bits) in actions.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                out.push(word as u32 * 64 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        Ok(())
    }

    fn move_of(&self, action: i64) -> Result<Move> {
        let Some(a) = u32::try_from(action).ok().filter(|&a| a <= PASS) else {
            return Err(Self::no_move(action));
        };
        if a < STACK_MOVES {
            return Ok(Move::entry(u32::from(POINT_BITS[a as usize])));
        }
        if a == PASS {
            return Ok(Move::PASS);
        }
        let (i, d) = ((a - STACK_MOVES) / 6, (a - STACK_MOVES) % 6);
        let from = POINT_BITS[i as usize];
        match RING[from as usize][d as usize] {
            bits::OFF => Err(Self::no_move(action)),
            to => Ok(Move::stack(u32::from(from), u32::from(to))),
        }
    }

    fn action_of(&self, mv: Move) -> Result<u32> {
        let index = |b: u32| {
            POINT_INDEX
                .get(b as usize)
                .copied()
                .filter(|&i| i != NONE)
                .map(u32::from)
        };
        let none = || {
            Error::InvalidArgument(format!(
                "Move({mv}) has no action: not an Abande move between neighbouring points"
            ))
        };
        match (mv.from(), mv.to()) {
            (_, None) => Ok(PASS),
            (None, Some(to)) => index(to).ok_or_else(none),
            (Some(from), Some(to)) => {
                let i = index(from).ok_or_else(none)?;
                let d = RING[from as usize]
                    .iter()
                    .position(|&n| n != bits::OFF && u32::from(n) == to)
                    .ok_or_else(none)?;
                Ok(STACK_MOVES + 6 * i + d as u32)
            }
        }
    }

    fn illegal(&self, game: &Board, mv: Move) -> Option<String> {
        game.illegal_reason(mv)
            .map(|reason| format!("illegal move {mv}: {reason}"))
    }

    fn grid(&self) -> &Hexagon {
        &self.hexagon
    }

    fn observe_with(
        &self,
        game: &Board,
        player: Color,
        layout: Layout,
        _legal: Option<&[u32]>,
        _moves: &mut Vec<Move>,
        out: &mut [f32],
    ) -> Result<()> {
        check_observe(out.len(), self.observation_len(), player)?;
        self.draw(game, player, layout, &mut Direct::new(out));
        Ok(())
    }

    fn sketch(
        &self,
        game: &Board,
        player: Color,
        layout: Layout,
        _legal: Option<&[u32]>,
        _moves: &mut Vec<Move>,
        out: &mut Sketch,
    ) -> Result<()> {
        check_player(player)?;
        self.draw(game, player, layout, out);
        Ok(())
    }
}

impl AbandeEncoding {
    /// Draw the observation of `game` from `player`'s point of view (a checked player)
    /// into `sink`.
    fn draw<S: Sink>(&self, game: &Board, player: Color, layout: Layout, sink: &mut S) {
        let max = self.rules.max_height as usize;
        let base = 2 * max;
        let (black, white) = game.hands();
        let hands = [black, white];
        let share = |c: Color| (f64::from(hands[c as usize]) / PIECES as f64) as f32;
        let mut fills = [0.0f32; MAX_PLANES];
        let count = self.num_planes().min(MAX_PLANES);
        let values = [
            1.0,
            share(player),
            share(1 - player),
            f32::from(u8::from(game.turn() == player)),
            f32::from(u8::from(game.passes() == 1)),
        ];
        fills[base + 1..base + 6].copy_from_slice(&values);
        if self.move_count {
            let count = game.ply() as f64 / f64::from(MAX_PLIES);
            fills[base + 6] = count.min(1.0) as f32;
        }
        sink.begin(layout, &self.hexagon, &fills[..count]);
        let at = |b: u32| {
            let (q, r) = cell_of(b);
            ((r + RADIUS) as usize, (q + RADIUS) as usize)
        };
        for b in bits::bits(game.occupied()) {
            let h = height(game.stack_code(b)) as usize;
            let own = game.controller(b) == Some(player);
            let plane = h.wrapping_sub(1) + if own { 0 } else { max };
            if h >= 1 && plane < base {
                let (row, col) = at(b);
                sink.mark(plane, row, col);
            }
        }
        // The entries among the legal moves: none once the game is over or the side to
        // move has an empty hand.
        if !game.is_game_over() && hands[game.turn() as usize] > 0 {
            for b in bits::bits(game.entries()) {
                let (row, col) = at(b);
                sink.mark(base, row, col);
            }
        }
    }
}
