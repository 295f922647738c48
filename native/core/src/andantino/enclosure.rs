//! Enclosure (docs/rules.md, "Trap"): which cells a colour walls off from
//! infinity, kept exactly under make/unmake.
//!
//! Each cell's byte has one mark per colour: the cell is not that colour's and cannot
//! reach infinity through cells that are not that colour's. A placement only ever adds
//! marks of the mover's colour, and only when it closes a loop of its own tiles (see
//! `State::connect`); a relocation's pick-up may first open walls. Marks on a colour's
//! own tiles are left as they were (a tile placed into its own pocket) and ignored.

use std::collections::HashSet;

use super::cell::Cell;
use super::state::{BBox, State};
use super::surface::{Slot, Surface, ENCLOSED, SEEN, TILE};

impl<S: Surface> State<S> {
    /// Wall off the regions that `c`'s new tile on `s` cuts off from infinity.
    ///
    /// `regions` lists, per region around the tile, the ring directions of its gaps
    /// (the runs of non-`c` neighbours); `State::connect` has worked out from the
    /// groups which gaps share a region, and exactly one region still reaches infinity.
    /// Breadth-first fills of all regions advance one cell each in turn, so the fill of
    /// the open region stops as soon as the others are done: the work is at most the
    /// number of regions times the cells walled off, never the size of the open region.
    /// A fill is also known to be open when it reaches the edge of `c`'s bounding box
    /// (a straight line runs to infinity from there) or holds more cells than the
    /// square of `c`'s tile count (more than any region that many tiles can wall in),
    /// the bounds of `hexgames.andantino._walled_off`, which keep fills inside the box.
    pub(crate) fn cut_off(&mut self, s: Slot, c: usize, regions: &[&[u8]]) {
        let own = TILE[c];
        let bbox = BBox::of(self.tiles[c].iter().copied());
        let budget = (self.tiles[c].len() as u64).pow(2);
        let State {
            surf,
            fill,
            enc_added,
            ..
        } = self;
        let n = regions.len();
        let mut head = [0usize; 3];
        // 0 running, 1 walled off, 2 open
        let mut status = [0u8; 3];
        for (i, gaps) in regions.iter().enumerate() {
            fill[i].clear();
            for &d in gaps.iter() {
                let g = surf.step(s, d as usize);
                let v = surf.get(g);
                if v & SEEN == 0 {
                    surf.set(g, v | SEEN);
                    fill[i].push(g);
                }
            }
        }
        loop {
            let running = status[..n].iter().filter(|&&x| x == 0).count();
            if running == 0 {
                break;
            }
            if running == 1 && !status[..n].contains(&2) {
                // The one region left must be the one that reaches infinity.
                if let Some(i) = status[..n].iter().position(|&x| x == 0) {
                    status[i] = 2;
                }
                break;
            }
            for i in 0..n {
                if status[i] != 0 {
                    continue;
                }
                let queue = &mut fill[i];
                let Some(&x) = queue.get(head[i]) else {
                    status[i] = 1;
                    continue;
                };
                head[i] += 1;
                if bbox.escapes(surf.cell(x)) || queue.len() as u64 > budget {
                    status[i] = 2;
                    continue;
                }
                for d in 0..6 {
                    let y = surf.step(x, d);
                    let v = surf.get(y);
                    if v & (own | SEEN) == 0 {
                        surf.set(y, v | SEEN);
                        queue.push(y);
                    }
                }
            }
        }
        for i in 0..n {
            for &x in &fill[i] {
                let v = surf.get(x) & !SEEN;
                if status[i] == 1 {
                    surf.set(x, v | ENCLOSED[c]);
                    enc_added.push(surf.cell(x));
                } else {
                    surf.set(x, v);
                }
            }
            fill[i].clear();
        }
    }

    /// After `c`'s tile was lifted from `x` (slot `xs`): `x` joins the regions of its
    /// neighbours that are not `c`'s. If all of them were walled off, so is `x`;
    /// otherwise the merged region reaches infinity and every walled-off region around
    /// `x` is opened (flood through the marked cells, which are all inside the box).
    pub(crate) fn open_after_lift(&mut self, x: Cell, xs: Slot, c: usize) {
        let own = TILE[c];
        let mark = ENCLOSED[c];
        let closed = (0..6).all(|d| {
            let v = self.surf.get(self.surf.step(xs, d));
            v & own != 0 || v & mark != 0
        });
        let v = self.surf.get(xs);
        if closed {
            if v & mark == 0 {
                self.surf.set(xs, v | mark);
                self.enc_added.push(x);
            }
            return;
        }
        if v & mark != 0 {
            self.surf.set(xs, v & !mark);
            self.enc_removed.push(x);
        }
        let State {
            surf,
            fill,
            enc_removed,
            ..
        } = self;
        let stack = &mut fill[0];
        stack.clear();
        stack.push(xs);
        while let Some(y) = stack.pop() {
            for d in 0..6 {
                let z = surf.step(y, d);
                let v = surf.get(z);
                if v & own == 0 && v & mark != 0 {
                    surf.set(z, v & !mark);
                    enc_removed.push(surf.cell(z));
                    stack.push(z);
                }
            }
        }
    }

    /// The slots of every cell that is not `c`'s and that `c` walls off, from scratch
    /// (set-up positions, and tests of the incremental marks): fills from the
    /// neighbours of `c`'s tiles, each region once, with the bounds of
    /// [`State::cut_off`] and, as in `hexgames.andantino._enclosed_by`, none at all
    /// below six tiles (a wall takes six).
    pub(crate) fn enclosed_from_scratch(&self, c: usize) -> Vec<Slot> {
        let tiles = &self.tiles[c];
        if tiles.len() < 6 {
            return Vec::new();
        }
        let own = TILE[c];
        let bbox = BBox::of(tiles.iter().copied());
        let budget = tiles.len() * tiles.len();
        let mut open: HashSet<Slot> = HashSet::new();
        let mut walled: HashSet<Slot> = HashSet::new();
        let mut seen: HashSet<Slot> = HashSet::new();
        let mut stack = Vec::new();
        for &tile in tiles {
            let t = self.surf.slot(tile);
            for d in 0..6 {
                let start = self.surf.step(t, d);
                if self.surf.get(start) & own != 0
                    || open.contains(&start)
                    || walled.contains(&start)
                {
                    continue;
                }
                seen.clear();
                seen.insert(start);
                stack.clear();
                stack.push(start);
                let mut escapes = false;
                while let Some(x) = stack.pop() {
                    if bbox.escapes(self.surf.cell(x)) || open.contains(&x) || seen.len() > budget {
                        escapes = true;
                        break;
                    }
                    for d in 0..6 {
                        let y = self.surf.step(x, d);
                        if self.surf.get(y) & own == 0 && seen.insert(y) {
                            stack.push(y);
                        }
                    }
                }
                if escapes {
                    open.extend(seen.iter().copied());
                } else {
                    walled.extend(seen.iter().copied());
                }
            }
        }
        walled.into_iter().collect()
    }
}
