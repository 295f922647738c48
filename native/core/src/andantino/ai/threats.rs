//! Line threats for search code: the empty cells where one more tile of a colour makes
//! a line of five or more (docs/rules.md, "Line"), found from the cells' bytes without
//! playing the move; and the moves that may win at once, by push's own first tests.
//! MCTS's playouts and immediate-win test and the greedy player ([`GreedyGame`], here)
//! read them through the [`Board`] methods here; alpha-beta's forcing analysis has its
//! own threat cells, kept by its evaluation (`super::eval`).
//!
//! Every walk here steps only from a tile or from an empty cell touching a tile, so it
//! stays inside the surface (tiles keep four cells of margin in the dense window).

use crate::andantino::board::{with_state, Inner};
use crate::andantino::cell::{Cell, Move};
use crate::andantino::rules::SelfTrap;
use crate::andantino::state::{State, AXES, RING};
use crate::andantino::surface::{Surface, COUNT, ENCLOSED, TILE, TILES};
use crate::andantino::Board;
use crate::game::Color;
use crate::search::greedy::GreedyGame;

impl Board {
    /// Whether the legal moves are exactly the empty cells touching two or more tiles:
    /// no extended play, no balance variant, self-traps legal (the rules for which the
    /// search's line-threat shortcuts are exact).
    #[inline]
    pub fn standard_moves(&self) -> bool {
        let rules = self.rules();
        !rules.extended && !rules.single_adjacency && rules.self_trap != SelfTrap::Illegal
    }

    /// The first legal placement of the side to move (in [`Game::legal_moves`](crate::Game::legal_moves) order)
    /// on which a tile of `color` would stand in a line of five or more: a winning move
    /// when `color` is the side to move, the cell that blocks the opponent's line when it
    /// is the opponent. Traps are not looked for. `None` when there is none, when the
    /// side to move relocates (extended play), or once the game is over.
    #[inline]
    pub fn line_completion(&self, color: Color) -> Option<Move> {
        with_state!(self, st => st.line_completion(color as usize & 1)).map(Move::place)
    }

    /// Append to `out` (unless already there) the empty cells where a tile of `color`
    /// would complete a line of five or more through `color`'s tile on `cell` (nothing
    /// if `cell` holds no such tile). A cell found need not be a legal move yet; in the
    /// standard game it stays a threat until it is filled, since tiles never move.
    #[inline]
    pub fn line_threats_through(&self, cell: Cell, color: Color, out: &mut Vec<Cell>) {
        with_state!(self, st => st.line_threats_through(cell, color as usize & 1, out))
    }

    /// The legal moves of the side to move that may win at once into `out` (cleared
    /// first), in no particular order: every move that wins at once, and others that
    /// pass the first tests of a line or a trap (the tile placed next to four of its
    /// colour in a row, or touching two separate runs of them). A move left out never
    /// wins at once. In extended play with hundreds of tiles a side this is a few cells
    /// times their relocations, not the hundreds of thousands of legal moves.
    pub fn may_win_at_once(&self, out: &mut Vec<Move>) {
        with_state!(self, st => st.may_win_at_once(out))
    }

    /// How many tiles touch `cell` (0 to 6), whether or not it holds one.
    #[inline]
    pub fn tiles_touching(&self, cell: Cell) -> u32 {
        with_state!(self, st => st.tiles_touching(cell))
    }

    /// Whether `color`'s tiles wall `cell` off from infinity (exact for a cell that holds
    /// no tile of `color`): a tile of the other colour placed there is self-trapped.
    #[inline]
    pub fn walled_off_by(&self, cell: Cell, color: Color) -> bool {
        with_state!(self, st => st.walled_off_by(cell, color as usize & 1))
    }
}

/// The greedy player's view of Andantino: alpha-beta's evaluation ([`SearchGame`]), and
/// the moves that pass push's first tests of a line or a trap as those that may win at
/// once.
///
/// [`SearchGame`]: crate::search::alphabeta::SearchGame
impl GreedyGame for Board {
    fn may_win_at_once(&self, out: &mut Vec<Move>) {
        Board::may_win_at_once(self, out);
    }
}

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
    /// first): those that pass the tests `push` makes before it decides a win
    /// (docs/rules.md, "Winning"): the tile placed stands in a line of five with the
    /// tiles of its colour there now (picking one up only removes tiles), or its
    /// neighbours of its colour form two or more separate runs (only then can it close
    /// a loop: a trap). Every move that wins at once is among them, in no particular
    /// order; the others never win at once. In extended play this finds them without
    /// listing the tiles times the cells.
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
