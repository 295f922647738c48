//! Where the board keeps one byte (and one auxiliary number) per cell: a dense window for
//! the common compact game, or a hash map for the rare set-up with far-flung tiles.
//!
//! A cell's byte holds the number of tiles touching it (bits 0-2, kept for tiles too),
//! its tile (bit 3 White, bit 4 Red), whether White or Red walls it off from infinity
//! (bits 5 and 6) and a mark for flood fills (bit 7). The auxiliary number of an empty
//! cell touching two tiles is its place in the board's list of such cells; that of a
//! tile is its index in its colour's tile list.

use std::collections::HashMap;

use super::cell::{Cell, DELTAS};
use crate::fxhash::FxBuild;

/// Tiles touching the cell (0 to 6).
pub(crate) const COUNT: u8 = 0x07;
/// A tile of colour `c` (0 White, 1 Red).
pub(crate) const TILE: [u8; 2] = [0x08, 0x10];
/// Either tile.
pub(crate) const TILES: u8 = 0x18;
/// Walled off from infinity by colour `c`'s tiles (exact on cells that are not `c`'s).
pub(crate) const ENCLOSED: [u8; 2] = [0x20, 0x40];
/// Reached by the flood fill under way.
pub(crate) const SEEN: u8 = 0x80;

/// An index into a surface.
pub(crate) type Slot = usize;

/// One byte and one number per cell, with neighbours at fixed offsets.
pub(crate) trait Surface: Clone + Send + Sync + 'static {
    /// The slot of `c`. `c` must lie inside the surface: a tile, a neighbour of a tile,
    /// or a cell for which `contains` holds.
    fn slot(&self, c: Cell) -> Slot;
    /// The cell of a slot.
    fn cell(&self, s: Slot) -> Cell;
    /// The neighbour of `s` in direction `d` (ring order).
    fn step(&self, s: Slot, d: usize) -> Slot;
    /// The cell `k` steps from `s` in direction `d`.
    #[inline(always)]
    fn step_by(&self, mut s: Slot, d: usize, k: usize) -> Slot {
        for _ in 0..k {
            s = self.step(s, d);
        }
        s
    }
    fn get(&self, s: Slot) -> u8;
    fn set(&mut self, s: Slot, v: u8);
    fn aux(&self, s: Slot) -> u32;
    fn set_aux(&mut self, s: Slot, v: u32);
    /// Whether `c` has a slot (a cell without one is empty and touches no tile).
    fn contains(&self, c: Cell) -> bool;
    /// Whether a tile may go on `c` without rebuilding the surface: its neighbours, and
    /// every cell a flood fill or line walk looks at, must have slots too.
    fn fits(&self, c: Cell) -> bool;
    /// Every slot whose byte is not zero, with the byte.
    fn nonzero(&self) -> Vec<(Slot, u8)>;

    /// Whether a tile that fits may stand on the edge of the supported range.
    fn may_reach_edge(&self) -> bool;

    /// A tile was put on `s`: count it in its six neighbours. Returns the ring mask of
    /// the neighbours holding a tile with a bit of `own`, and that of the empty
    /// neighbours it brings to two tiles (new legal placements).
    #[inline(always)]
    fn bump(&mut self, s: Slot, own: u8) -> (u8, u8) {
        let (mut mine, mut fresh) = (0u8, 0u8);
        for d in 0..6 {
            let n = self.step(s, d);
            let v = self.get(n);
            self.set(n, v + 1);
            mine |= u8::from(v & own != 0) << d;
            fresh |= u8::from(v & (TILES | COUNT) == 1) << d;
        }
        (mine, fresh)
    }

    /// A tile was taken off `s`: the inverse of `bump`. Returns the ring mask of the
    /// empty neighbours left with one tile (no longer legal placements).
    #[inline(always)]
    fn unbump(&mut self, s: Slot) -> u8 {
        let mut gone = 0u8;
        for d in 0..6 {
            let n = self.step(s, d);
            let v = self.get(n);
            self.set(n, v - 1);
            gone |= u8::from(v & (TILES | COUNT) == 2) << d;
        }
        gone
    }
}

/// The smallest window side (a power of two).
pub(crate) const MIN_SIDE: i32 = 64;
/// The largest window side; a wider spread of tiles goes to [`Sparse`].
pub(crate) const MAX_SIDE: i32 = 256;
/// Tiles keep this many cells from the window's edge (the line test reads four cells
/// out from a tile).
const MARGIN: i32 = 4;

/// A square window of `2^shift` by `2^shift` cells with its corner at `(q0, r0)`: slot
/// `(q - q0) << shift | (r - r0)`, so the neighbours are at fixed offsets.
#[derive(Clone)]
pub(crate) struct Dense {
    cells: Vec<u8>,
    aux: Vec<u16>,
    shift: u32,
    q0: i32,
    r0: i32,
    dirs: [isize; 6],
}

impl Dense {
    /// A window covering the cells `qlo..=qhi` by `rlo..=rhi` with room to grow on
    /// every side (at least a quarter of the side), or `None` if it would be wider than
    /// [`MAX_SIDE`].
    pub(crate) fn covering(qlo: i32, qhi: i32, rlo: i32, rhi: i32) -> Option<Dense> {
        let span = (qhi - qlo).max(rhi - rlo) + 1 + 2 * MARGIN;
        let mut side = MIN_SIDE;
        while side < 2 * span {
            side *= 2;
        }
        if side > MAX_SIDE {
            return None;
        }
        let shift = side.trailing_zeros();
        let w = side as isize;
        let dirs = DELTAS.map(|(dq, dr)| dq as isize * w + dr as isize);
        Some(Dense {
            cells: vec![0; (side * side) as usize],
            aux: vec![0; (side * side) as usize],
            shift,
            q0: (qlo + qhi).div_euclid(2) - side / 2,
            r0: (rlo + rhi).div_euclid(2) - side / 2,
            dirs,
        })
    }

    #[inline]
    fn side(&self) -> i32 {
        1 << self.shift
    }
}

impl Surface for Dense {
    #[inline(always)]
    fn slot(&self, c: Cell) -> Slot {
        (((c.q() - self.q0) as usize) << self.shift) | (c.r() - self.r0) as usize
    }

    #[inline(always)]
    fn cell(&self, s: Slot) -> Cell {
        let mask = (1usize << self.shift) - 1;
        Cell::raw(
            (s >> self.shift) as i32 + self.q0,
            (s & mask) as i32 + self.r0,
        )
    }

    #[inline(always)]
    fn step(&self, s: Slot, d: usize) -> Slot {
        s.wrapping_add_signed(self.dirs[d])
    }

    #[inline(always)]
    fn step_by(&self, s: Slot, d: usize, k: usize) -> Slot {
        s.wrapping_add_signed(self.dirs[d] * k as isize)
    }

    #[inline(always)]
    fn get(&self, s: Slot) -> u8 {
        debug_assert!(s < self.cells.len());
        // SAFETY: every slot the board uses is that of a tile, of a cell at most four
        // steps from a tile along a line (the line test), or of a cell inside the box of
        // a colour's tiles (flood fills), and `fits` keeps tiles `MARGIN` = 4 cells
        // inside the window: all are inside `cells`.
        unsafe { *self.cells.get_unchecked(s) }
    }

    #[inline(always)]
    fn set(&mut self, s: Slot, v: u8) {
        debug_assert!(s < self.cells.len());
        // SAFETY: as in `get`.
        unsafe { *self.cells.get_unchecked_mut(s) = v }
    }

    #[inline(always)]
    fn aux(&self, s: Slot) -> u32 {
        debug_assert!(s < self.aux.len());
        // SAFETY: as in `get` (`aux` has the length of `cells`).
        unsafe { *self.aux.get_unchecked(s) as u32 }
    }

    #[inline(always)]
    fn set_aux(&mut self, s: Slot, v: u32) {
        debug_assert!(s < self.aux.len());
        // SAFETY: as in `aux`.
        unsafe { *self.aux.get_unchecked_mut(s) = v as u16 }
    }

    #[inline(always)]
    fn contains(&self, c: Cell) -> bool {
        let side = self.side();
        (0..side).contains(&(c.q() - self.q0)) && (0..side).contains(&(c.r() - self.r0))
    }

    #[inline(always)]
    fn fits(&self, c: Cell) -> bool {
        let inner = MARGIN..self.side() - MARGIN;
        inner.contains(&(c.q() - self.q0)) && inner.contains(&(c.r() - self.r0))
    }

    #[inline(always)]
    fn bump(&mut self, s: Slot, own: u8) -> (u8, u8) {
        let (mut mine, mut fresh) = (0u8, 0u8);
        let dirs = self.dirs;
        let cells = &mut self.cells[..];
        for (d, &dir) in dirs.iter().enumerate() {
            let n = s.wrapping_add_signed(dir);
            debug_assert!(n < cells.len());
            // SAFETY: as in `get`.
            let cell = unsafe { cells.get_unchecked_mut(n) };
            let v = *cell;
            *cell = v + 1;
            mine |= u8::from(v & own != 0) << d;
            fresh |= u8::from(v & (TILES | COUNT) == 1) << d;
        }
        (mine, fresh)
    }

    #[inline(always)]
    fn unbump(&mut self, s: Slot) -> u8 {
        let mut gone = 0u8;
        let dirs = self.dirs;
        let cells = &mut self.cells[..];
        for (d, &dir) in dirs.iter().enumerate() {
            let n = s.wrapping_add_signed(dir);
            debug_assert!(n < cells.len());
            // SAFETY: as in `get`.
            let cell = unsafe { cells.get_unchecked_mut(n) };
            let v = *cell;
            *cell = v - 1;
            gone |= u8::from(v & (TILES | COUNT) == 2) << d;
        }
        gone
    }

    fn may_reach_edge(&self) -> bool {
        let limit = super::cell::COORDINATE_LIMIT;
        let (lo, hi) = (MARGIN, self.side() - MARGIN - 1);
        self.q0 + lo <= -limit
            || self.q0 + hi >= limit
            || self.r0 + lo <= -limit
            || self.r0 + hi >= limit
    }

    fn nonzero(&self) -> Vec<(Slot, u8)> {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(s, &v)| (s, v))
            .collect()
    }
}

/// Cells in a hash map by their packed value (`Cell::packed`): memory in proportion to
/// the cells in use, wherever the tiles are.
#[derive(Clone, Default)]
pub(crate) struct Sparse {
    map: HashMap<u32, (u8, u32), FxBuild>,
}

/// Offsets of the six neighbours of a packed cell.
const PACKED_DIRS: [i64; 6] = [1 << 15, (1 << 15) - 1, -1, -(1 << 15), -(1 << 15) + 1, 1];

impl Surface for Sparse {
    #[inline]
    fn slot(&self, c: Cell) -> Slot {
        c.packed() as Slot
    }

    #[inline]
    fn cell(&self, s: Slot) -> Cell {
        Cell::unpacked(s as u32)
    }

    #[inline]
    fn step(&self, s: Slot, d: usize) -> Slot {
        (s as i64 + PACKED_DIRS[d]) as Slot
    }

    #[inline]
    fn get(&self, s: Slot) -> u8 {
        self.map.get(&(s as u32)).map_or(0, |e| e.0)
    }

    #[inline]
    fn set(&mut self, s: Slot, v: u8) {
        if v == 0 {
            self.map.remove(&(s as u32));
        } else {
            self.map.entry(s as u32).or_insert((0, 0)).0 = v;
        }
    }

    #[inline]
    fn aux(&self, s: Slot) -> u32 {
        self.map.get(&(s as u32)).map_or(0, |e| e.1)
    }

    #[inline]
    fn set_aux(&mut self, s: Slot, v: u32) {
        if let Some(e) = self.map.get_mut(&(s as u32)) {
            e.1 = v;
        }
    }

    #[inline]
    fn contains(&self, _: Cell) -> bool {
        true
    }

    #[inline]
    fn fits(&self, _: Cell) -> bool {
        true
    }

    fn may_reach_edge(&self) -> bool {
        true
    }

    fn nonzero(&self) -> Vec<(Slot, u8)> {
        self.map
            .iter()
            .map(|(&s, &(v, _))| (s as Slot, v))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_are_the_cells_around() {
        let dense = Dense::covering(-3, 4, -2, 2).unwrap();
        let sparse = Sparse::default();
        let c = Cell::raw(1, -1);
        for d in 0..6 {
            assert_eq!(dense.cell(dense.step(dense.slot(c), d)), c.step(d));
            assert_eq!(sparse.cell(sparse.step(sparse.slot(c), d)), c.step(d));
        }
        assert!(dense.fits(Cell::raw(-28, 27)));
        assert!(!dense.fits(Cell::raw(-29, 0)));
        assert!(!dense.fits(Cell::raw(0, 28)));
        assert!(Dense::covering(0, 200, 0, 0).is_none());
    }
}
