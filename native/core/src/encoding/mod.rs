//! Fixed action spaces and observation planes for both games, exactly those of the
//! Python module `hexgames.integrations.encoding` (the reference; a differential test
//! compares both on every ply of random games), for reinforcement-learning frameworks
//! (OpenSpiel, PettingZoo, the vector environment of `hexgames.integrations.vector`).
//!
//! - [`Encoding`]: what both games' encodings offer, the trait [`vector::VectorEnv`] is
//!   generic over;
//! - [`andantino::AndantinoEncoding`]: placements on the hexagon of radius
//!   `tiles_per_player` around White's set-up tile (and relocations as (from, to) pairs
//!   of its cells in extended play, which is confined to it);
//! - [`abande::AbandeEncoding`]: 37 entries, 37 x 6 stack moves, the pass;
//! - [`Hexagon`]: the cells of a hexagon in the order of `hexgrid.hexagon` (by r, then
//!   q) and their place on the square grid of the planes;
//! - [`vector::VectorEnv`]: N games stepped together, with same-step autoreset.
//!
//! **Grid.** The axial cell `(q, r)` lies at row `r + R`, column `q + R` of a
//! `(2R + 1) x (2R + 1)` square; squares outside the hexagon are 0 in every plane.
//! Observations are `f32` planes from the point of view of one player, written into a
//! caller's slice in either [`Layout`].

pub mod abande;
pub mod andantino;
pub mod vector;

#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::game::{Color, Game};

/// The most actions, and observation values, an encoding may have (the Python
/// `encoding.MAX_SIZE`): frameworks build a mask and an observation of that size at
/// every step.
pub const MAX_SIZE: usize = 1 << 24;

/// How the planes of an observation are laid out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// `(planes, rows, columns)`, C order (OpenSpiel's layout, and PyTorch's).
    ChannelsFirst,
    /// `(rows, columns, planes)`, C order (PettingZoo's layout).
    ChannelsLast,
}

impl Layout {
    /// `ChannelsFirst` if `channels_first`, else `ChannelsLast`.
    pub fn of(channels_first: bool) -> Layout {
        if channels_first {
            Layout::ChannelsFirst
        } else {
            Layout::ChannelsLast
        }
    }
}

/// The cells of the hexagon of radius R around (0, 0), numbered as `hexgrid.hexagon(R)`
/// lists them: row by row (`r` from `-R` to `R`), each row by `q`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hexagon {
    radius: i32,
    /// `rows[r + R]`: the number of the row's first cell; one more entry at the end
    /// holds the number of cells.
    rows: Vec<u32>,
    /// The square grid, row-major: 1 on the hexagon's cells, 0 elsewhere (a constant
    /// plane is this times its value: one pass the compiler vectorises).
    mask: Vec<f32>,
}

impl Hexagon {
    /// The hexagon of `radius` cells around (0, 0) (0 is the single cell).
    pub fn new(radius: u32) -> Hexagon {
        let r = radius as i32;
        let mut rows = Vec::with_capacity(2 * radius as usize + 2);
        let mut n = 0u32;
        for row in -r..=r {
            rows.push(n);
            n += (2 * r + 1 - row.abs()) as u32;
        }
        rows.push(n);
        let side = 2 * radius as usize + 1;
        let mut mask = vec![0.0f32; side * side];
        for row in -r..=r {
            let lo = (-r).max(-r - row);
            let hi = r.min(r - row);
            let start = (row + r) as usize * side;
            mask[start + (lo + r) as usize..=start + (hi + r) as usize].fill(1.0);
        }
        Hexagon {
            radius: r,
            rows,
            mask,
        }
    }

    /// R.
    #[inline]
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// The side of the square grid, `2R + 1`.
    #[inline]
    pub fn side(&self) -> usize {
        2 * self.radius as usize + 1
    }

    /// The number of cells, `3R(R + 1) + 1`.
    #[inline]
    pub fn len(&self) -> usize {
        self.rows[self.rows.len() - 1] as usize
    }

    /// Never: a hexagon has at least one cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The lowest `q` of row `r` (`-R <= r <= R`).
    #[inline]
    fn q_min(&self, r: i32) -> i32 {
        (-self.radius).max(-self.radius - r)
    }

    /// The number of the cell `(q, r)`, or `None` outside the hexagon.
    #[inline]
    pub fn index(&self, q: i32, r: i32) -> Option<u32> {
        let big = self.radius;
        if q.abs() > big || r.abs() > big || (q + r).abs() > big {
            return None;
        }
        Some(self.rows[(r + big) as usize] + (q - self.q_min(r)) as u32)
    }

    /// The cell numbered `i`, or `None` if there is none.
    pub fn cell(&self, i: usize) -> Option<(i32, i32)> {
        if i >= self.len() {
            return None;
        }
        // The row holding i: the last whose first cell is at most i.
        let row = self.rows.partition_point(|&start| start as usize <= i) - 1;
        let r = row as i32 - self.radius;
        Some((self.q_min(r) + (i - self.rows[row] as usize) as i32, r))
    }

    /// For each row of the grid, the columns `lo..=hi` inside the hexagon.
    fn row_spans(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        let big = self.radius;
        (-big..=big).map(move |r| {
            let lo = self.q_min(r);
            let hi = big.min(big - r);
            ((r + big) as usize, (lo + big) as usize, (hi + big) as usize)
        })
    }
}

/// Where a [`Sketch`]'s mark keeps its plane, above the square's index.
const MARK_SHIFT: usize = 24;
const MARK_INDEX: u32 = (1 << MARK_SHIFT) - 1;

/// An observation described rather than written out: each plane's value on the cells
/// of the grid's hexagon (`fills`, 0 outside it) and the squares set to 1 (`marks`:
/// flat indices into one observation in its layout, each on a cell of the hexagon).
///
/// Writing one observation over another (`write_over`) touches only the
/// planes whose fill changed and the squares marked in either, which is what lets a
/// vector of games update its buffer in place where a ply changed a few cells (the
/// perspective swaps and the counts of the planes still change every ply).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sketch {
    /// The value of each plane on the hexagon's cells (`num_planes` values).
    pub fills: Vec<f32>,
    /// The squares holding 1: each the flat index of the square plus its plane times
    /// 2^24 (an observation has at most [`MAX_SIZE`] values; they may repeat).
    pub marks: Vec<u32>,
    /// Scratch space of the encodings (legal actions, targets), kept to reuse.
    pub(crate) scratch: Vec<u32>,
    planes: usize,
    side: usize,
    layout: Option<Layout>,
}

impl Sketch {
    /// The most values an observation drawn as a sketch may have (its marks keep the
    /// plane above the index).
    pub const MAX_LEN: usize = 1 << MARK_SHIFT;

    /// Become a copy of `other`, reusing this sketch's space.
    pub(crate) fn copy_from(&mut self, other: &Sketch) {
        self.fills.clone_from(&other.fills);
        self.marks.clone_from(&other.marks);
        self.planes = other.planes;
        self.side = other.side;
        self.layout = other.layout;
    }

    /// Mark `plane` at the grid square `(row, col)` (a cell of the hexagon).
    #[inline(always)]
    pub(crate) fn mark(&mut self, plane: usize, row: usize, col: usize) {
        let index = match self.layout {
            Some(Layout::ChannelsLast) => (row * self.side + col) * self.planes + plane,
            _ => (plane * self.side + row) * self.side + col,
        };
        self.marks.push((plane << MARK_SHIFT | index) as u32);
    }

    /// Write the observation into `out` (every value), on the grid of `hexagon`.
    pub(crate) fn write(&self, hexagon: &Hexagon, out: &mut [f32]) {
        let layout = self.layout.unwrap_or(Layout::ChannelsFirst);
        fill_all(out, self.planes, layout, hexagon, &self.fills);
        for &m in &self.marks {
            if let Some(slot) = out.get_mut((m & MARK_INDEX) as usize) {
                *slot = 1.0;
            }
        }
    }

    /// Turn `out`, which holds the observation `before` (written by [`Sketch::write`]
    /// or this, in the same layout), into this one: the planes whose fill changed are
    /// written again, the squares `before` marked get their plane's new fill, and this
    /// sketch's marks are set.
    pub(crate) fn write_over(&self, before: &Sketch, hexagon: &Hexagon, out: &mut [f32]) {
        if before.layout != self.layout || before.fills.len() != self.fills.len() {
            self.write(hexagon, out);
            return;
        }
        let layout = self.layout.unwrap_or(Layout::ChannelsFirst);
        for (p, (&old, &new)) in before.fills.iter().zip(&self.fills).enumerate() {
            if old.to_bits() != new.to_bits() {
                fill_plane(out, self.planes, layout, hexagon, p, new);
            }
        }
        for &m in &before.marks {
            let fill = self.fills.get((m >> MARK_SHIFT) as usize).copied();
            if let Some(slot) = out.get_mut((m & MARK_INDEX) as usize) {
                *slot = fill.unwrap_or(0.0);
            }
        }
        for &m in &self.marks {
            if let Some(slot) = out.get_mut((m & MARK_INDEX) as usize) {
                *slot = 1.0;
            }
        }
    }
}

/// The most planes an observation has (Abande with `max_height` 36: 78).
pub(crate) const MAX_PLANES: usize = 80;

/// Write `planes` planes (`values[p]` on the squares of `hexagon`, 0 outside it) into
/// `out`, every value, in one pass.
fn fill_all(out: &mut [f32], planes: usize, layout: Layout, hexagon: &Hexagon, values: &[f32]) {
    let side = hexagon.side();
    let area = side * side;
    match layout {
        Layout::ChannelsFirst => {
            let mask = &hexagon.mask;
            for (p, plane) in out.chunks_exact_mut(area).enumerate() {
                match values.get(p).copied() {
                    Some(1.0) => plane.copy_from_slice(mask),
                    Some(v) if v != 0.0 => {
                        for (o, &m) in plane.iter_mut().zip(mask) {
                            *o = m * v;
                        }
                    }
                    _ => plane.fill(0.0),
                }
            }
        }
        Layout::ChannelsLast => {
            // One square's planes inside the hexagon, and outside it (all 0).
            let mut inside = [0.0f32; MAX_PLANES];
            let count = planes.min(MAX_PLANES);
            for (slot, &v) in inside[..count].iter_mut().zip(values) {
                *slot = v;
            }
            let inside = &inside[..count];
            let width = side * planes;
            // The middle row (r = 0) lies wholly inside: it is written square by square
            // (by doubling copies), and each other row's span copied from it in one go.
            let middle = hexagon.radius() as usize * width;
            let Some(line) = out.get_mut(middle..middle + width) else {
                return;
            };
            if let Some(square) = line.get_mut(..planes) {
                let (head, tail) = square.split_at_mut(count);
                head.copy_from_slice(inside);
                tail.fill(0.0);
            }
            repeat_head(line, planes);
            for (row, lo, hi) in hexagon.row_spans() {
                let start = row * width;
                if start == middle {
                    continue;
                }
                let Some(line) = out.get_mut(start..start + width) else {
                    continue;
                };
                let (span_start, span_end) = (lo * planes, (hi + 1) * planes);
                line[..span_start].fill(0.0);
                line[span_end..].fill(0.0);
                out.copy_within(middle + span_start..middle + span_end, start + span_start);
            }
        }
    }
}

/// Copy `out`'s first `len` values over the rest of it, again and again (the last copy
/// cut short), doubling the length copied each time: a few `memcpy`s rather than one
/// short copy per square (channels last, a square's planes are a few values apart).
fn repeat_head(out: &mut [f32], len: usize) {
    let mut done = len.min(out.len());
    while done > 0 && done < out.len() {
        let count = done.min(out.len() - done);
        out.copy_within(..count, done);
        done += count;
    }
}

/// Write `value` on the squares of `hexagon` in plane `p` of `out` (the squares outside
/// it hold 0 already).
fn fill_plane(
    out: &mut [f32],
    planes: usize,
    layout: Layout,
    hexagon: &Hexagon,
    p: usize,
    value: f32,
) {
    // A full write stores 0.0 for any zero: keep the same bits.
    let value = if value == 0.0 { 0.0 } else { value };
    let side = hexagon.side();
    if layout == Layout::ChannelsFirst {
        // The whole plane in one vectorised pass (the mask is 0 outside the hexagon).
        let area = side * side;
        if let Some(plane) = out.get_mut(p * area..(p + 1) * area) {
            for (o, &m) in plane.iter_mut().zip(&hexagon.mask) {
                *o = m * value;
            }
        }
        return;
    }
    for (row, lo, hi) in hexagon.row_spans() {
        match layout {
            Layout::ChannelsFirst => {
                let start = (p * side + row) * side;
                if let Some(span) = out.get_mut(start + lo..=start + hi) {
                    span.fill(value);
                }
            }
            Layout::ChannelsLast => {
                for col in lo..=hi {
                    if let Some(slot) = out.get_mut((row * side + col) * planes + p) {
                        *slot = value;
                    }
                }
            }
        }
    }
}

/// A game's fixed action space and observation planes (see the module docs).
///
/// Actions are `u32` numbers `0..num_actions()`; `legal_actions` lists those of the
/// legal moves ascending; observations are `num_planes() x side() x side()` values.
pub trait Encoding: Clone + Send + Sync + 'static {
    /// The game encoded.
    type Game: Game;

    /// The size of the action space.
    fn num_actions(&self) -> usize;

    /// The number of observation planes.
    fn num_planes(&self) -> usize;

    /// The side of the square grid of each plane (`2R + 1`).
    fn side(&self) -> usize;

    /// The values of one observation: `num_planes() * side()^2`.
    fn observation_len(&self) -> usize {
        self.num_planes() * self.side() * self.side()
    }

    /// A game at the standard start under the encoding's rules.
    fn new_game(&self) -> Self::Game;

    /// Whether `game` is played under the encoding's rules (the only games it encodes).
    fn fits(&self, game: &Self::Game) -> bool;

    /// The actions of the legal moves of `game` that the space holds, ascending, into
    /// `out` (cleared first); `moves` is scratch space.
    ///
    /// Errors: `Error::InvalidArgument` if a legal move has no action where the Python
    /// encoding raises too (an Andantino placement off the hexagon outside extended
    /// play, which no game from the start reaches).
    fn legal_actions(
        &self,
        game: &Self::Game,
        moves: &mut Vec<<Self::Game as Game>::Move>,
        out: &mut Vec<u32>,
    ) -> Result<()>;

    /// The move of `action`, legal or not.
    ///
    /// Errors: `Error::InvalidArgument` (the Python encoding's message) for an action
    /// outside the space or one that names no move.
    fn move_of(&self, action: i64) -> Result<<Self::Game as Game>::Move>;

    /// The action of `mv`.
    ///
    /// Errors: `Error::InvalidArgument` if the space has no action for it.
    fn action_of(&self, mv: <Self::Game as Game>::Move) -> Result<u32>;

    /// Why `mv` is illegal in `game` (the board's message, `illegal move ...: reason`),
    /// or `None` if it is legal.
    fn illegal(&self, game: &Self::Game, mv: <Self::Game as Game>::Move) -> Option<String>;

    /// Write the observation of `game` from `player`'s point of view into `out`
    /// (`observation_len()` values, every one written; [`Encoding::sketch`] written
    /// out); `moves` is scratch space.
    ///
    /// Errors: `Error::InvalidArgument` if `out` has another length or `player` is not
    /// 0 or 1.
    fn observe(
        &self,
        game: &Self::Game,
        player: Color,
        layout: Layout,
        moves: &mut Vec<<Self::Game as Game>::Move>,
        out: &mut [f32],
    ) -> Result<()> {
        self.observe_with(game, player, layout, None, moves, out)
    }

    /// [`Encoding::observe`], reading `legal`, if given, for the legal actions of `game`
    /// (`legal_actions(game)`) instead of generating its moves again.
    ///
    /// Errors: those of [`Encoding::observe`].
    fn observe_with(
        &self,
        game: &Self::Game,
        player: Color,
        layout: Layout,
        legal: Option<&[u32]>,
        moves: &mut Vec<<Self::Game as Game>::Move>,
        out: &mut [f32],
    ) -> Result<()>;

    /// The hexagon of the observation's grid (its cells are those a plane's fill
    /// covers).
    fn grid(&self) -> &Hexagon;

    /// The observation of `game` from `player`'s point of view as a [`Sketch`] (into
    /// `out`, reusing its space); `legal` as for [`Encoding::observe_with`]; `moves`
    /// is scratch space.
    ///
    /// Errors: `Error::InvalidArgument` if `player` is not 0 or 1.
    fn sketch(
        &self,
        game: &Self::Game,
        player: Color,
        layout: Layout,
        legal: Option<&[u32]>,
        moves: &mut Vec<<Self::Game as Game>::Move>,
        out: &mut Sketch,
    ) -> Result<()>;
}

/// Where an encoding draws an observation: straight into a buffer ([`Direct`]) or
/// into a [`Sketch`]. One drawing code serves both.
pub(crate) trait Sink {
    /// Begin an observation of `fills.len()` planes of `grid`'s squares in `layout`,
    /// each plane `fills[p]` on the grid's cells and 0 elsewhere.
    fn begin(&mut self, layout: Layout, grid: &Hexagon, fills: &[f32]);

    /// Set `plane` to 1 at the grid square `(row, col)` (a cell of the grid).
    fn mark(&mut self, plane: usize, row: usize, col: usize);
}

/// A [`Sink`] writing into a buffer of one observation.
pub(crate) struct Direct<'a> {
    out: &'a mut [f32],
    planes: usize,
    side: usize,
    layout: Layout,
}

impl<'a> Direct<'a> {
    pub(crate) fn new(out: &'a mut [f32]) -> Self {
        Direct {
            out,
            planes: 0,
            side: 0,
            layout: Layout::ChannelsFirst,
        }
    }
}

impl Sink for Direct<'_> {
    fn begin(&mut self, layout: Layout, grid: &Hexagon, fills: &[f32]) {
        self.planes = fills.len();
        self.side = grid.side();
        self.layout = layout;
        fill_all(self.out, fills.len(), layout, grid, fills);
    }

    #[inline(always)]
    fn mark(&mut self, plane: usize, row: usize, col: usize) {
        let i = match self.layout {
            Layout::ChannelsFirst => (plane * self.side + row) * self.side + col,
            Layout::ChannelsLast => (row * self.side + col) * self.planes + plane,
        };
        if let Some(slot) = self.out.get_mut(i) {
            *slot = 1.0;
        }
    }
}

impl Sink for Sketch {
    fn begin(&mut self, layout: Layout, grid: &Hexagon, fills: &[f32]) {
        self.fills.clear();
        self.fills.extend_from_slice(fills);
        self.marks.clear();
        self.planes = fills.len();
        self.side = grid.side();
        self.layout = Some(layout);
    }

    #[inline(always)]
    fn mark(&mut self, plane: usize, row: usize, col: usize) {
        Sketch::mark(self, plane, row, col);
    }
}

/// Checks `observe`'s arguments.
pub(crate) fn check_observe(len: usize, expected: usize, player: Color) -> Result<()> {
    if len != expected {
        return Err(Error::InvalidArgument(format!(
            "an observation has {expected} values, not {len}"
        )));
    }
    check_player(player)
}

/// Checks a point of view: 0 or 1.
pub(crate) fn check_player(player: Color) -> Result<()> {
    if player > 1 {
        return Err(Error::InvalidArgument(format!(
            "player must be 0 or 1, not {player}"
        )));
    }
    Ok(())
}

/// Whether the game is over for a framework (the Python `Encoding.is_over`): the rules
/// ended it, or the side to move has no action (`legal`, its legal actions, is empty;
/// only in Andantino's confined extended play).
#[inline]
pub fn is_over<G: Game>(game: &G, legal: &[u32]) -> bool {
    game.result().is_some() || legal.is_empty()
}

/// The final returns `[first player, second player]`: +1 a win, -1 a loss, 0 a draw,
/// and 0 while the game goes on or when a confined game ran out of actions (the Python
/// `Encoding.returns`).
#[inline]
pub fn returns<G: Game>(game: &G) -> [f64; 2] {
    match game.result().and_then(|r| r.winner) {
        Some(0) => [1.0, -1.0],
        Some(_) => [-1.0, 1.0],
        None => [0.0, 0.0],
    }
}

/// Play `action` in `game`: the move it names, if legal.
///
/// Errors: `Error::InvalidArgument` for an action outside the space or naming no move,
/// `Error::IllegalMove` (the board's message) for a move the rules forbid here.
pub fn push_action<E: Encoding>(encoding: &E, game: &mut E::Game, action: i64) -> Result<()> {
    let mv = encoding.move_of(action)?;
    if let Some(reason) = encoding.illegal(game, mv) {
        return Err(Error::IllegalMove(reason));
    }
    game.push(mv);
    Ok(())
}
