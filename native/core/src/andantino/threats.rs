//! Line threats for search code: the empty cells where one more tile of a colour makes
//! a line of five or more (RULES.md, "Winning", 1), found from the cells' bytes without
//! playing the move; and the moves that may win at once, by push's own first tests.
//!
//! Every walk here steps only from a tile or from an empty cell touching a tile, so it
//! stays inside the surface (tiles keep four cells of margin in the dense window).

use super::cell::{Cell, Move};
use super::rules::SelfTrap;
use super::state::{State, AXES, RING};
use super::surface::{Surface, COUNT, ENCLOSED, TILE, TILES};

impl<S: Surface> State<S> {
    /// The first legal placement of the side to move (in the order of the list of
    /// placements) on which a tile of colour `c` would stand in a line of five or more:
    /// with `c` the side to move, a winning move; with `c` the opponent, the cell that
    /// blocks its line. `None` when the side to move relocates (extended play).
    pub(crate) fn line_completion(&self, c: usize) -> Option<Cell> {
        if self.result.is_some() || self.relocating() || self.tiles[c].len() < 4 {
            return None;
        }
        let own = TILE[c];
        let illegal_pockets = self.rules.self_trap == SelfTrap::Illegal;
        for m in &self.legal {
            let to = m.to();
            let s = self.surf.slot(to);
            let b = self.surf.get(s);
            if (illegal_pockets && b & ENCLOSED[1 - self.turn] != 0)
                || (self.edge_tiles > 0 && !to.in_range())
            {
                continue;
            }
            for &(a, o) in &AXES {
                let la = self.own_run(s, a, own, 4);
                if la == 4 || la + self.own_run(s, o, own, 4 - la) >= 4 {
                    return Some(to);
                }
            }
        }
        None
    }

    /// Append to `out` (unless already there) the empty cells where a tile of colour
    /// `c` would complete a line of five or more through `c`'s tile on `cell`: the
    /// first empty cell beyond each end of the run through it, when that cell and the
    /// tiles of `c` beyond it make the line. Such a cell need not be a legal move yet.
    pub(crate) fn line_threats_through(&self, cell: Cell, c: usize, out: &mut Vec<Cell>) {
        let own = TILE[c];
        let s = self.surf.slot(cell);
        if self.surf.get(s) & own == 0 {
            return;
        }
        for &(a, o) in &AXES {
            let (ra, ro) = (
                self.own_run(s, a, own, u32::MAX),
                self.own_run(s, o, own, u32::MAX),
            );
            let n = ra + ro + 1;
            for (d, r) in [(o, ro), (a, ra)] {
                let end = self.surf.step_by(s, d, r as usize + 1);
                if self.surf.get(end) & TILES != 0 {
                    continue;
                }
                if n + 1 + self.own_run(end, d, own, u32::MAX) >= 5 {
                    let mut x = cell;
                    for _ in 0..=r {
                        x = x.step(d);
                    }
                    if !out.contains(&x) {
                        out.push(x);
                    }
                }
            }
        }
    }

    /// The ring mask of the side to move's tiles around the empty cell `to`, and whether
    /// a tile of its on `to` would stand in a line of five or more with them.
    fn own_ring(&self, to: Cell) -> (u8, bool) {
        let own = TILE[self.turn];
        let s = self.surf.slot(to);
        let mut mask = 0u8;
        for d in 0..6 {
            if self.surf.get(self.surf.step(s, d)) & own != 0 {
                mask |= 1 << d;
            }
        }
        let line = mask != 0
            && AXES.iter().any(|&(a, o)| {
                let la = self.own_run(s, a, own, 4);
                la == 4 || la + self.own_run(s, o, own, 4 - la) >= 4
            });
        (mask, line)
    }

    /// The legal moves of the side to move that may win at once into `out` (cleared
    /// first): those that pass the tests `push` makes before it decides a win (RULES.md,
    /// "Winning"): the tile placed stands in a line of five with the tiles of its colour
    /// there now (picking one up only removes tiles), or its neighbours of its colour
    /// form two or more separate runs (only then can it close a loop: a trap). Every
    /// move that wins at once is among them, in no particular order; the others never
    /// win at once. In extended play this finds them without listing the tiles times the
    /// cells.
    ///
    /// A relocation whose pick-up splits the one run around its target in two makes no
    /// trap either: the runs meet again through the lifted tile's neighbours, so the new
    /// loop walls in only what the old one with the lifted tile walled in already, and
    /// the lifted tile's own cell, which is empty.
    pub(crate) fn may_win_at_once(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() {
            return;
        }
        let may_win = |to: Cell| {
            let (mask, line) = self.own_ring(to);
            line || RING[mask as usize].runs >= 2
        };
        if !self.relocating() {
            self.legal_moves(out);
            out.retain(|m| may_win(m.to()));
            return;
        }
        for m in &self.legal {
            let to = m.to();
            let b = self.surf.get(self.surf.slot(to));
            if self.refused(to, b) || !may_win(to) {
                continue;
            }
            for &source in &self.tiles[self.turn] {
                if Self::keeps_two(source, to, b) {
                    out.push(Move::relocate(source, to));
                }
            }
        }
    }

    /// How many tiles touch `cell` (0 to 6; 0 for a cell far from every tile).
    #[inline]
    pub(crate) fn tiles_touching(&self, cell: Cell) -> u32 {
        (self.peek(cell) & COUNT) as u32
    }

    /// Whether `c`'s tiles wall `cell` off from infinity (exact for a cell that holds
    /// no tile of `c`).
    #[inline]
    pub(crate) fn walled_off_by(&self, cell: Cell, c: usize) -> bool {
        self.peek(cell) & ENCLOSED[c] != 0
    }
}
