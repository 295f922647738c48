//! Andantino's fixed spaces, exactly those of `hexgames.integrations.encoding.
//! AndantinoEncoding`.
//!
//! **The hexagon.** Under docs/rules.md with `T = tiles_per_player` tiles each, no game from
//! the start leaves the hexagon of radius `T` around White's set-up tile (the proof is
//! in the Python module's docstring), so its `3T(T + 1) + 1` cells (1951 for the
//! standard game) hold every placement. Extended play can walk tiles farther: it is
//! played confined to the hexagon (relocations are (from, to) pairs of its cells, moves
//! leaving it are not offered, and a side left without an action there ends the game
//! drawn for a framework). Unlimited tiles have no fixed space and are refused.
//!
//! **Actions.** `index(to)` for a placement, cells numbered as [`Hexagon`]; in extended
//! play also `N + index(from) * N + index(to)` for a relocation (N cells).
//!
//! **Planes** (`ANDANTINO_PLANES`), from `player`'s point of view: own tiles, the
//! opponent's, the target cells of the side to move's legal moves, the hexagon, then on
//! the hexagon only: own and opponent tiles in hand divided by `tiles_per_player`, 1 if
//! `player` is to move, 1 while Red may still make its balance-variant placement, and
//! relocations so far divided by `extended_move_limit` (0 outside extended play).

use super::{check_observe, Encoding, Hexagon, Layout, Planes, MAX_SIZE};
use crate::andantino::{Board, Cell, Move, Rules};
use crate::error::{Error, Result};
use crate::game::{Color, Game};

/// The observation planes, in order (the Python `ANDANTINO_PLANES`).
pub const PLANES: [&str; 9] = [
    "own",
    "opponent",
    "legal",
    "hexagon",
    "own_hand",
    "opponent_hand",
    "to_move",
    "single_right",
    "relocations",
];

/// The most tiles each with extended play, and without, that the spaces allow (the
/// Python `MAX_EXTENDED_TILES` and `MAX_TILES`).
pub const MAX_EXTENDED_TILES: u32 = 36;
pub const MAX_TILES: u32 = 682;

/// `n` with a comma every three digits, as Python's `f"{n:,}"`.
fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Actions and observations of Andantino on the hexagon of radius `tiles_per_player`.
#[derive(Clone, Debug)]
pub struct AndantinoEncoding {
    rules: Rules,
    hexagon: Hexagon,
    start: Board,
}

impl AndantinoEncoding {
    /// The encoding of games under `rules`.
    ///
    /// Errors: `Error::InvalidRules` (the Python encoding's messages) for unlimited
    /// tiles, for spaces above [`MAX_SIZE`] (more than [`MAX_EXTENDED_TILES`] tiles each
    /// with extended play, [`MAX_TILES`] without), or rules whose start has no legal
    /// move; and whatever `Rules::check` refuses.
    pub fn new(rules: Rules) -> Result<AndantinoEncoding> {
        rules.check()?;
        let Some(radius) = rules.tiles_per_player else {
            return Err(Error::InvalidRules(
                "Andantino with unlimited tiles (tiles_per_player=None) has no fixed action \
                 space: a game can grow beyond any hexagon; give a tile count"
                    .to_string(),
            ));
        };
        let big = radius as u128;
        let cells = 3 * big * (big + 1) + 1;
        let actions = cells + if rules.extended { cells * cells } else { 0 };
        let floats = PLANES.len() as u128 * (2 * big + 1) * (2 * big + 1);
        if actions > MAX_SIZE as u128 || floats > MAX_SIZE as u128 {
            return Err(Error::InvalidRules(format!(
                "Andantino with tiles_per_player={radius}{} needs {} actions and observations \
                 of {} values; the fixed spaces are capped at {} of each (a mask or a tensor \
                 of that size is made at every step): at most {MAX_EXTENDED_TILES} tiles each \
                 with extended play, {MAX_TILES} without",
                if rules.extended {
                    " and extended play"
                } else {
                    ""
                },
                thousands(actions),
                thousands(floats),
                thousands(MAX_SIZE as u128),
            )));
        }
        let start = Board::new(None, rules).map_err(|e| {
            Error::InvalidRules(format!(
                "Andantino with {} has no legal first move: {}",
                rules.options().join(" "),
                e.message()
            ))
        })?;
        Ok(AndantinoEncoding {
            rules,
            hexagon: Hexagon::new(radius),
            start,
        })
    }

    /// The rules encoded.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The hexagon of cells (radius `tiles_per_player`).
    pub fn hexagon(&self) -> &Hexagon {
        &self.hexagon
    }

    /// N, the number of cells (and of placement actions).
    pub fn num_cells(&self) -> usize {
        self.hexagon.len()
    }

    #[inline]
    fn index(&self, c: Cell) -> Option<u32> {
        self.hexagon.index(c.q(), c.r())
    }

    fn cell(&self, i: usize) -> Result<Cell> {
        let (q, r) = self
            .hexagon
            .cell(i)
            .ok_or_else(|| Error::InvalidArgument(format!("no cell {i} in the hexagon")))?;
        Cell::new(q as i64, r as i64)
    }

    fn leaves(&self, mv: Move) -> Error {
        Error::InvalidArgument(format!(
            "move {mv} leaves the hexagon of radius {}",
            self.hexagon.radius()
        ))
    }
}

impl Encoding for AndantinoEncoding {
    type Game = Board;

    fn num_actions(&self) -> usize {
        let n = self.hexagon.len();
        n + if self.rules.extended { n * n } else { 0 }
    }

    fn num_planes(&self) -> usize {
        PLANES.len()
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
        game.legal_moves(moves);
        out.clear();
        let n = self.hexagon.len() as u32;
        for &mv in moves.iter() {
            let to = self.index(mv.to());
            match (mv.from(), to) {
                (None, Some(to)) => out.push(to),
                (Some(from), Some(to)) if self.rules.extended => {
                    if let Some(from) = self.index(from) {
                        out.push(n * (1 + from) + to);
                    }
                }
                // Extended play is confined to the hexagon; outside it no game from the
                // start gets here, and the Python encoding raises.
                _ if self.rules.extended => {}
                _ => return Err(self.leaves(mv)),
            }
        }
        out.sort_unstable();
        Ok(())
    }

    fn move_of(&self, action: i64) -> Result<Move> {
        let n = self.hexagon.len();
        let total = self.num_actions();
        let Some(a) = usize::try_from(action).ok().filter(|&a| a < total) else {
            return Err(Error::InvalidArgument(format!(
                "action {action} is outside 0..{}",
                total - 1
            )));
        };
        if a < n {
            return Ok(Move::place(self.cell(a)?));
        }
        let (from, to) = ((a - n) / n, (a - n) % n);
        Ok(Move::relocate(self.cell(from)?, self.cell(to)?))
    }

    fn action_of(&self, mv: Move) -> Result<u32> {
        let to = self.index(mv.to()).ok_or_else(|| self.leaves(mv))?;
        let Some(from) = mv.from() else {
            return Ok(to);
        };
        if !self.rules.extended {
            return Err(Error::InvalidArgument(format!(
                "relocation {mv} has no action: extended play is off"
            )));
        }
        let from = self.index(from).ok_or_else(|| self.leaves(mv))?;
        Ok(self.hexagon.len() as u32 * (1 + from) + to)
    }

    fn illegal(&self, game: &Board, mv: Move) -> Option<String> {
        game.check_move(mv).err().map(|e| e.message().to_string())
    }

    fn observe(
        &self,
        game: &Board,
        player: Color,
        layout: Layout,
        moves: &mut Vec<Move>,
        out: &mut [f32],
    ) -> Result<()> {
        check_observe(out.len(), self.observation_len(), player)?;
        let big = self.hexagon.radius();
        let hexagon = &self.hexagon;
        // The Python code divides in double precision and stores the quotient as f32.
        let rules = &self.rules;
        let tiles = f64::from(rules.tiles_per_player.unwrap_or(1));
        let hand = |c: Color| f64::from(game.hand(c).unwrap_or(0)) / tiles;
        let relocations = if rules.extended {
            game.relocations() as f64 / f64::from(rules.extended_move_limit)
        } else {
            0.0
        };
        let values = [
            1.0,
            hand(player) as f32,
            hand(1 - player) as f32,
            f32::from(u8::from(game.turn() == player)),
            f32::from(u8::from(
                rules.single_adjacency && !game.single_adjacency_used(),
            )),
            relocations as f32,
        ];
        let mut planes = Planes::filled(out, PLANES.len(), layout, hexagon, 3, &values);
        let mut mark = |plane: usize, c: Cell| {
            if hexagon.index(c.q(), c.r()).is_some() {
                planes.set(plane, (c.r() + big) as usize, (c.q() + big) as usize, 1.0);
            }
        };
        for (plane, color) in [(0, player), (1, 1 - player)] {
            for c in game.tiles(color) {
                mark(plane, c);
            }
        }
        game.legal_moves(moves);
        for mv in moves.iter() {
            mark(2, mv.to());
        }
        Ok(())
    }
}
