//! Andantino evaluation: line potential, enclosure potential and threat cells, kept
//! incrementally under make/unmake (the terms and weights of the pure-Python
//! evaluation of hexgames 0.1, described in `hexgames.engine.alphabeta`'s docstring).
//!
//! Scores are in points from one side's point of view; about 100 points is a clear
//! edge.
//!
//! - **Line potential.** Every window of five consecutive cells along one of the three
//!   axes that holds tiles of one colour only is worth [`LINE_WEIGHTS`]`[n]` to that
//!   colour (`n` its tiles). A window with both colours is dead. A window with four is
//!   a *four*: its empty cell wins at once for its owner.
//! - **Enclosure potential.** Each tile is worth [`ENCLOSURE_WEIGHTS`]`[n]` to the
//!   opponent, `n` being its neighbours holding opponent tiles.
//! - **Tempo** ([`Weights::tempo`]): points for the side to move, which places the next
//!   tile (in a connection game the move itself is worth something; without it the
//!   value swings by ply parity between iterations).
//! - **Red's right** ([`Weights::right`]): in the balance variant, points to Red while
//!   its once-a-game right (a tile touching one tile) is unused: it lets Red finish a
//!   line on a cell White cannot fill, so spending it costs something.
//!
//!   Both are set by the player (0 here by default, hexgames 0.1's evaluation); they
//!   were chosen by native matches of colour-swapped pairs from random 4-ply openings
//!   of the balance variant (see `hexgames.engine.alphabeta`).
//! - **Threat cells** of a side: the empty cells of its fours, and the cells where its
//!   tile would enclose an opponent tile ([`Tracker::trap_cells`], a flood fill bounded
//!   to small regions: every cell it returns is a trap, large traps may be missed).
//!
//! The [`Tracker`] keeps its own copy of the tiles on a toroidal grid of
//! [`SIDE`]` x `[`SIDE`] slots (a cell's slot is `SIDE q + r` modulo `SIDE²`, so a step
//! adds the same number to any slot): the window codes (tiles of each colour in each
//! window), each colour's ring masks around every cell, the fours and the two sums.
//! Tiles of one game lie far closer together than [`SIDE`] cells (every tile touches
//! two others, so 50 tiles span at most 50 cells); only a game with an unlimited supply
//! that drifts further could alias cells, which would blur the evaluation (never the
//! rules, which the board keeps: from tiles spread wider than [`COMPACT_SPAN`] every
//! last-ply move is pushed on the board).

use crate::andantino::{Board, Cell, Move};
use crate::game::Color;
#[cfg(doc)]
use crate::search::alphabeta::Leaf;

/// Side of the toroidal grid of the tracker (a power of two).
pub const SIDE: i32 = 256;
pub(super) const CELLS: usize = (SIDE * SIDE) as usize;

/// Worth of a window of five holding `n` tiles of one colour and none of the other.
pub const LINE_WEIGHTS: [i32; 6] = [0, 1, 6, 30, 160, 160];
/// Worth, to the opponent, of a tile with `n` opponent tiles among its neighbours.
pub const ENCLOSURE_WEIGHTS: [i32; 7] = [0, 0, 1, 4, 16, 60, 60];
/// The evaluation's weights: the player's options of it (the search's
/// [`SearchGame::Weights`](crate::search::alphabeta::SearchGame::Weights)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// The worth of a window of five holding 0 to 5 tiles of one colour (the line
    /// potential; default [`LINE_WEIGHTS`]; the weight of three is `three`'s). From 0
    /// to 65536, growing with the tiles.
    pub line: [i32; 6],
    /// The worth to the opponent of a tile with 0 to 6 opponent neighbours (the
    /// enclosure potential; default [`ENCLOSURE_WEIGHTS`]). From 0 to 65536, growing
    /// with the neighbours.
    pub enclosure: [i32; 7],
    /// The worth of a window of five holding three tiles of one colour (the line
    /// potential's weight; hexgames 0.1's was 30).
    pub three: i32,
    /// Points for the side to move (the tempo of a connection game: the side to move
    /// places the next tile).
    pub tempo: i32,
    /// The balance variant: points to Red while its once-a-game right (a tile touching
    /// one tile) is unused.
    pub right: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            line: LINE_WEIGHTS,
            enclosure: ENCLOSURE_WEIGHTS,
            three: 30,
            tempo: 0,
            right: 0,
        }
    }
}

/// Added to a placement that makes two fours at once (an open four, as a rule).
pub const DOUBLE_FOUR: i32 = 5_000;
/// Two cells share a slot only if they lie [`SIDE`] or more apart in `q` or in `r`. A
/// search adds at most one tile a ply next to a tile, and looks at most five cells
/// beyond its tiles (a window of five through a cell next to one): from tiles spanning
/// fewer than this many cells in `q` and in `r` (the grid's side less the deepest
/// search and that reach), no two cells a search looks at share a slot, and a last-ply
/// move may be settled without a push ([`Leaf::settled`]).
pub const COMPACT_SPAN: i32 = SIDE - crate::search::alphabeta::MAX_PLY as i32 - 8;
/// Regions larger than this are taken to reach infinity by [`Tracker::trap_cells`].
pub const TRAP_REGION_LIMIT: usize = 48;

/// The six directions in ring order, as the board's: (1,0) (1,-1) (0,-1) (-1,0) (-1,1)
/// (0,1); direction `d + 3` is the opposite of `d`.
pub const DELTAS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
/// The line axes (1,0), (0,1), (1,-1).
pub const AXES: [(i32, i32); 3] = [(1, 0), (0, 1), (1, -1)];

/// A window's contents: `n0 + 8 * n1` (tiles of White, of Red).
const INC: [u8; 2] = [1, 8];
/// In the gain tables: one more window that the placement turns into a four (bits 21
/// to 24: at most 15 windows hold a cell), and one that it fills (a line of five). A
/// window's points are at most 65536 either way (the weights' bound), so the 15 sum to
/// less than 2^20 either way, below the flags.
const FLAG: i32 = 1 << 21;
const FIVE: i32 = 1 << 25;

const fn window_value(code: usize, weights: &[i32; 6]) -> i32 {
    let (n0, n1) = (code & 7, code >> 3);
    if n1 == 0 {
        weights[n0]
    } else if n0 == 0 {
        -weights[n1]
    } else {
        0
    }
}

/// Table size for a window's contents `n0 + 8 * n1` (`n0 + n1` at most 5, so at most 40).
const CODES: usize = 64;

/// The index in a 64-entry table of a window's contents or a ring mask (the mask spares
/// a bounds check).
#[inline(always)]
fn code(contents: u8) -> usize {
    (contents & 63) as usize
}

struct Tables {
    /// `de[c][code]`: the change of the White-minus-Red line sum when `c` fills a cell
    /// of a window with contents `code`.
    de: [[i32; CODES]; 2],
    /// `gain[c][code]`: the same change seen by `c`, plus [`FLAG`]
    /// when it makes a four and [`FIVE`] when it makes a line of five.
    gain: [[i32; CODES]; 2],
    /// `four[code]`: 1 if the window is a four of White, 2 of Red, else 0.
    four: [u8; CODES],
}

const fn tables(weights: &[i32; 6]) -> Tables {
    let mut t = Tables {
        de: [[0; CODES]; 2],
        gain: [[0; CODES]; 2],
        four: [0; CODES],
    };
    let mut n0 = 0;
    while n0 < 6 {
        let mut n1 = 0;
        while n1 < 6 - n0 {
            let code = n0 + 8 * n1;
            if n0 == 4 && n1 == 0 {
                t.four[code] = 1;
            } else if n1 == 4 && n0 == 0 {
                t.four[code] = 2;
            }
            let mut c = 0;
            while c < 2 {
                let (own, other) = if c == 0 { (n0, n1) } else { (n1, n0) };
                if own + other < 5 {
                    let d =
                        window_value(code + INC[c] as usize, weights) - window_value(code, weights);
                    t.de[c][code] = d;
                    let mut g = if c == 0 { d } else { -d };
                    if own == 3 && other == 0 {
                        g += FLAG;
                    } else if own == 4 && other == 0 {
                        g += FIVE;
                    }
                    t.gain[c][code] = g;
                }
                c += 1;
            }
            n1 += 1;
        }
        n0 += 1;
    }
    t
}

const TABLES: Tables = tables(&LINE_WEIGHTS);
const FOUR: [u8; CODES] = TABLES.four;

/// Runs of set bits around the ring of six, by mask (the full ring counts none).
pub const RUNS: [u8; 64] = runs_table();

const fn runs_table() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut m = 1;
    while m < 63 {
        let mut i = 0;
        let mut k = 0;
        while i < 6 {
            if (m >> i) & 1 == 1 && (m >> ((i + 5) % 6)) & 1 == 0 {
                k += 1;
            }
            i += 1;
        }
        t[m] = k;
        m += 1;
    }
    t
}

/// A value for every slot of the toroidal grid (an array, so that a slot needs no
/// bounds check).
type Grid<T> = Box<[T; CELLS]>;

fn grid<T: Copy + Default>() -> Grid<T> {
    vec![T::default(); CELLS]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("CELLS values"))
}

/// The enclosure weight of a tile by the ring mask of its opponent neighbours, and
/// what one more opponent neighbour adds to it (`weights` by their number, 0 to 6).
fn enclosure_by_mask(weights: &[i32; 7]) -> ([i32; 64], [i32; 64]) {
    let (mut of, mut more) = ([0; 64], [0; 64]);
    for m in 0..64 {
        let n = (m as u32).count_ones() as usize;
        of[m] = weights[n];
        more[m] = if n < 6 {
            weights[n + 1] - weights[n]
        } else {
            0
        };
    }
    (of, more)
}

/// The slot of a cell on the toroidal grid: `256 q + r` modulo [`CELLS`], so that a
/// step in any direction adds the same number to every slot ([`step`]); two cells share
/// a slot only if they are [`SIDE`] or more apart on an axis.
#[inline(always)]
pub(super) fn slot(q: i32, r: i32) -> usize {
    ((q << 8).wrapping_add(r) & (CELLS as i32 - 1)) as usize
}

/// The slot `by` steps away from `k`, a step being `(dq, dr)` ([`offset`]).
#[inline(always)]
fn step(k: usize, offset: usize, by: usize) -> usize {
    k.wrapping_add(offset.wrapping_mul(by)) & (CELLS - 1)
}

/// What a step of `(dq, dr)` adds to a slot.
const fn offset(dq: i32, dr: i32) -> usize {
    ((dq << 8) + dr) as usize & (CELLS - 1)
}

/// [`offset`] of each of [`DELTAS`], and of the opposite of each of [`AXES`] (the
/// windows holding a cell start at its slot and 1 to 4 such steps back).
const DELTA_OFFSETS: [usize; 6] = {
    let mut t = [0; 6];
    let mut d = 0;
    while d < 6 {
        t[d] = offset(DELTAS[d].0, DELTAS[d].1);
        d += 1;
    }
    t
};
const BACK_OFFSETS: [usize; 3] = [
    offset(-AXES[0].0, -AXES[0].1),
    offset(-AXES[1].0, -AXES[1].1),
    offset(-AXES[2].0, -AXES[2].1),
];

/// An active four: its window and the slot and cell of its empty cell.
#[derive(Clone, Copy, Debug)]
struct Four {
    window: u32,
    empty: Cell,
}

/// The line and enclosure sums of an Andantino position, kept up to date by the caller
/// under make/unmake (see the module text).
#[derive(Clone)]
pub struct Tracker {
    /// The line tables of the weights in use (see [`Tracker::set_weights`]).
    de: [[i32; CODES]; 2],
    gain: [[i32; CODES]; 2],
    /// The enclosure weights in use.
    enc: [i32; 7],
    /// By ring mask of a tile's opponent neighbours: the enclosure weight of the tile
    /// (`enc_of`), and what one more opponent neighbour adds to it (`enc_step`).
    enc_of: [i32; 64],
    enc_step: [i32; 64],
    /// `wc[axis][slot of the window's first cell]`: the window's contents.
    wc: [Grid<u8>; 3],
    /// `masks[c][slot]`: ring mask of the neighbours holding `c`'s tiles (bit `d`: the
    /// neighbour in direction `d`).
    masks: [Grid<u8>; 2],
    /// `color[slot]`: 0 empty, 1 White, 2 Red.
    color: Grid<u8>,
    /// Each colour's tiles, in the order they came.
    tiles: [Vec<Cell>; 2],
    fours: [Vec<Four>; 2],
    /// Line potential of White minus Red.
    lines: i32,
    /// Enclosure potential of White minus Red.
    enclosure: i32,
    /// Flood-fill marks: `seen` by region, `open` for regions found to escape.
    seen: Grid<u32>,
    open: Grid<u32>,
    stamp: u32,
    stack: Vec<(i32, i32)>,
    region: Vec<(i32, i32)>,
    /// Cells found by the forcing analysis (reused).
    pub(super) scratch: Vec<Cell>,
    /// Points for the side to move ([`Weights::tempo`]).
    pub tempo: i32,
    /// Points to Red of its unused balance-variant right ([`Weights::right`]).
    pub right: i32,
    /// Whether the tiles at the last [`Tracker::reset`] lie close enough together that
    /// no two cells a search from there looks at share a slot (see [`COMPACT_SPAN`]).
    pub(super) compact: bool,
}

impl Tracker {
    /// The tracker of `board`'s tiles.
    pub fn new(board: &Board) -> Tracker {
        let mut t = Tracker {
            de: TABLES.de,
            gain: TABLES.gain,
            enc: ENCLOSURE_WEIGHTS,
            enc_of: [0; 64],
            enc_step: [0; 64],
            tempo: 0,
            right: 0,
            wc: [grid(), grid(), grid()],
            masks: [grid(), grid()],
            color: grid(),
            tiles: [Vec::with_capacity(64), Vec::with_capacity(64)],
            fours: [Vec::new(), Vec::new()],
            lines: 0,
            enclosure: 0,
            seen: grid(),
            open: grid(),
            stamp: 0,
            stack: Vec::new(),
            region: Vec::new(),
            scratch: Vec::new(),
            compact: true,
        };
        (t.enc_of, t.enc_step) = enclosure_by_mask(&ENCLOSURE_WEIGHTS);
        t.reset(board);
        t
    }

    /// Use other weights for windows of 0 to 5 tiles (the default is [`LINE_WEIGHTS`])
    /// and for tiles with 0 to 6 opponent neighbours (default [`ENCLOSURE_WEIGHTS`]);
    /// the tiles are counted again, so the sums are those of the new weights.
    pub fn set_weights(&mut self, board: &Board, line: [i32; 6], enclosure: [i32; 7]) {
        let t = tables(&line);
        // Take the tiles off with the old tables, put them back with the new.
        for c in 0..2 {
            while let Some(&cell) = self.tiles[c].last() {
                self.remove(c as Color, cell);
            }
        }
        self.de = t.de;
        self.gain = t.gain;
        self.enc = enclosure;
        (self.enc_of, self.enc_step) = enclosure_by_mask(&enclosure);
        self.reset(board);
    }

    /// Whether the weights in use are `line` and `enclosure` (see
    /// [`Tracker::set_weights`]).
    pub fn has_weights(&self, line: &[i32; 6], enclosure: &[i32; 7]) -> bool {
        self.de == tables(line).de && self.enc == *enclosure
    }

    /// Forget the tiles and take `board`'s.
    pub fn reset(&mut self, board: &Board) {
        for c in 0..2 {
            while let Some(&cell) = self.tiles[c].last() {
                self.remove(c as Color, cell);
            }
        }
        debug_assert!(self.lines == 0 && self.enclosure == 0);
        for c in 0..2u8 {
            let mut cells = board.tiles(c);
            cells.sort_unstable();
            for cell in cells {
                self.place(c, cell);
            }
        }
        let (w, r) = (self.bounds(0), self.bounds(1));
        let span = (w[1].max(r[1]) - w[0].min(r[0])).max(w[3].max(r[3]) - w[2].min(r[2]));
        self.compact = span < COMPACT_SPAN;
    }

    /// Take `board`'s tiles, as [`Tracker::reset`], by removing and placing only the
    /// tiles that differ: far faster when the tiles differ little (the positions of a
    /// Monte Carlo search, one after the other). The sums come out the same; tiles
    /// spread wider than [`COMPACT_SPAN`] (where cells may share a slot) are counted
    /// again from scratch.
    pub fn sync(&mut self, board: &Board) {
        for c in 0..2u8 {
            let mut i = 0;
            while let Some(&cell) = self.tiles[c as usize].get(i) {
                if board.color_at(cell) == Some(c) {
                    i += 1;
                } else {
                    self.remove(c, cell); // takes it out of the list
                }
            }
        }
        for c in 0..2u8 {
            for &cell in board.tile_list(c) {
                if self.color_at(cell) != Some(c) {
                    self.place(c, cell);
                }
            }
        }
        let (w, r) = (self.bounds(0), self.bounds(1));
        let span = (w[1].max(r[1]) - w[0].min(r[0])).max(w[3].max(r[3]) - w[2].min(r[2]));
        self.compact = span < COMPACT_SPAN;
        if !self.compact {
            self.reset(board);
        }
    }

    /// Line plus enclosure potential from `color`'s point of view (points).
    #[inline]
    pub fn static_value(&self, color: Color) -> i32 {
        let s = self.lines + self.enclosure;
        if color == 0 {
            s
        } else {
            -s
        }
    }

    /// The colour of the tile on `cell` (0 or 1), if any.
    #[inline]
    pub fn color_at(&self, cell: Cell) -> Option<Color> {
        match self.color[slot(cell.q(), cell.r())] {
            0 => None,
            v => Some(v - 1),
        }
    }

    /// The ring mask of `c`'s tiles around `cell`.
    #[inline]
    pub fn mask(&self, c: Color, cell: Cell) -> u8 {
        self.masks[c as usize][slot(cell.q(), cell.r())]
    }

    /// Tiles of `c` on the surface.
    #[inline]
    pub fn tile_count(&self, c: Color) -> usize {
        self.tiles[c as usize].len()
    }

    /// The empty cells completing `c`'s fours, one per four (a cell completing two
    /// fours is listed twice).
    #[inline]
    pub fn four_cells(&self, c: Color) -> impl Iterator<Item = Cell> + '_ {
        self.fours[c as usize].iter().map(|f| f.empty)
    }

    /// Whether `c` has a four.
    #[inline]
    pub fn has_four(&self, c: Color) -> bool {
        !self.fours[c as usize].is_empty()
    }

    /// Account for a tile of `c` now on `cell`.
    pub fn place(&mut self, c: Color, cell: Cell) {
        let ci = c as usize;
        let (q, r) = (cell.q(), cell.r());
        let k = slot(q, r);
        debug_assert_eq!(self.color[k], 0);
        self.color[k] = c + 1;
        self.tiles[ci].push(cell);
        let inc = INC[ci];
        for (a, &back) in BACK_OFFSETS.iter().enumerate() {
            for i in 0..5 {
                let w = step(k, back, i as usize);
                let old = self.wc[a][w];
                let new = old + inc;
                self.wc[a][w] = new;
                self.lines += self.de[ci][code(old)];
                if FOUR[code(old)] != FOUR[code(new)] {
                    let (dq, dr) = AXES[a];
                    self.four_change(a, q - i * dq, r - i * dr, old, new, cell, true);
                }
            }
        }
        let mut g = -self.enc_of[code(self.masks[1 - ci][k])];
        let opp = 2 - c; // color code of the opponent's tile
        for (d, &off) in DELTA_OFFSETS.iter().enumerate() {
            let n = step(k, off, 1);
            let bit = 1u8 << ((d + 3) % 6);
            let m = self.masks[ci][n];
            self.masks[ci][n] = m | bit;
            if self.color[n] == opp {
                g += self.enc_step[code(m)];
            }
        }
        self.enclosure += if c == 0 { g } else { -g };
    }

    /// Undo [`Tracker::place`] (the tile of `c` on `cell` was the last of its colour
    /// placed, or is being lifted for a relocation).
    pub fn remove(&mut self, c: Color, cell: Cell) {
        let ci = c as usize;
        let (q, r) = (cell.q(), cell.r());
        let k = slot(q, r);
        let mut g = -self.enc_of[code(self.masks[1 - ci][k])];
        let opp = 2 - c;
        for (d, &off) in DELTA_OFFSETS.iter().enumerate() {
            let n = step(k, off, 1);
            let bit = 1u8 << ((d + 3) % 6);
            let m = self.masks[ci][n] ^ bit;
            self.masks[ci][n] = m;
            if self.color[n] == opp {
                g += self.enc_step[code(m)];
            }
        }
        self.enclosure -= if c == 0 { g } else { -g };
        let inc = INC[ci];
        for (a, &back) in BACK_OFFSETS.iter().enumerate() {
            for i in 0..5 {
                let w = step(k, back, i as usize);
                let new = self.wc[a][w];
                let old = new - inc;
                self.wc[a][w] = old;
                self.lines -= self.de[ci][code(old)];
                if FOUR[code(old)] != FOUR[code(new)] {
                    let (dq, dr) = AXES[a];
                    self.four_change(a, q - i * dq, r - i * dr, new, old, cell, false);
                }
            }
        }
        self.color[k] = 0;
        let list = &mut self.tiles[ci];
        if list.last() == Some(&cell) {
            list.pop();
        } else if let Some(i) = list.iter().position(|&x| x == cell) {
            list.remove(i);
        }
    }

    #[allow(clippy::too_many_arguments)]
    #[cold]
    fn four_change(
        &mut self,
        a: usize,
        sq: i32,
        sr: i32,
        before: u8,
        after: u8,
        cell: Cell,
        placing: bool,
    ) {
        let window = ((a as u32) << 16) | slot(sq, sr) as u32;
        let (fb, fa) = (FOUR[code(before)], FOUR[code(after)]);
        if fb != 0 {
            let list = &mut self.fours[fb as usize - 1];
            if let Some(i) = list.iter().rposition(|f| f.window == window) {
                list.swap_remove(i);
            }
        }
        if fa != 0 {
            let empty = if placing {
                // A fourth tile came in: the one empty cell of the window.
                let (dq, dr) = AXES[a];
                let mut empty = cell;
                for i in 0..5 {
                    let (x, y) = (sq + i * dq, sr + i * dr);
                    if self.color[slot(x, y)] == 0 {
                        empty = Cell::raw(x, y);
                        break;
                    }
                }
                empty
            } else {
                cell // a tile left: its cell is the empty one
            };
            self.fours[fa as usize - 1].push(Four { window, empty });
        }
    }

    /// Account for `mv` by `c`, just pushed on the board.
    #[inline]
    pub fn push(&mut self, mv: Move, c: Color) {
        if let Some(from) = mv.from() {
            self.remove(c, from);
        }
        self.place(c, mv.to());
    }

    /// Undo [`Tracker::push`].
    #[inline]
    pub fn pop(&mut self, mv: Move, c: Color) {
        self.remove(c, mv.to());
        if let Some(from) = mv.from() {
            self.place(c, from);
        }
    }

    /// `(points, fours made)` of `c` placing on the empty `cell`: the change of the line
    /// and enclosure sums seen by `c`, and how many windows it turns into fours.
    #[inline]
    pub fn gain(&self, c: Color, cell: Cell) -> (i32, u32) {
        let (g, fours, _) = self.gain_and_five(c, cell);
        (g, fours)
    }

    /// [`Tracker::gain`] and whether the placement makes a line of five.
    #[inline]
    pub fn gain_and_five(&self, c: Color, cell: Cell) -> (i32, u32, bool) {
        let ci = c as usize;
        let k = slot(cell.q(), cell.r());
        let gt = &self.gain[ci];
        let mut g = 0;
        for (wc, &back) in self.wc.iter().zip(&BACK_OFFSETS) {
            for i in 0..5 {
                g += gt[code(wc[step(k, back, i)])];
            }
        }
        let mut e = -self.enc_of[code(self.masks[1 - ci][k])];
        let opp = 2 - c;
        let mine = &self.masks[ci];
        for &off in &DELTA_OFFSETS {
            let n = step(k, off, 1);
            if self.color[n] == opp {
                e += self.enc_step[code(mine[n])];
            }
        }
        // The flags from bit 21, the points (of either sign, as the weights may make
        // them) below.
        let flags = (g + (FLAG >> 1)) >> 21;
        let points = g - (flags << 21);
        (points + e, (flags & 15) as u32, flags >= FIVE >> 21)
    }

    /// The value of the placement for ordering and at the search's last ply: the gain,
    /// with [`DOUBLE_FOUR`] for two fours at once.
    #[inline]
    pub fn placement_value(&self, c: Color, cell: Cell) -> i32 {
        let (g, fours) = self.gain(c, cell);
        if fours >= 2 {
            g + DOUBLE_FOUR
        } else {
            g
        }
    }

    /// The empty cells among `candidates` where a tile of `color` would enclose at least
    /// one opponent tile (docs/rules.md, "Trap"), into `out` (not cleared).
    ///
    /// A cell qualifies only if `color`'s tiles around it form two or more separate runs
    /// and it is not walled off by `color` already; the regions behind it are
    /// flood-filled, and one holding more than [`TRAP_REGION_LIMIT`] cells or reaching
    /// the edge of the bounding box of `color`'s tiles counts as open, so every cell
    /// found is a trap (the algorithm of hexgames 0.1's `trap_cells`).
    pub fn trap_cells(
        &mut self,
        board: &Board,
        color: Color,
        candidates: impl IntoIterator<Item = Cell>,
        out: &mut Vec<Cell>,
    ) {
        if self.tiles[color as usize].len() < 5 {
            return; // a wall takes six tiles, the new one included
        }
        let mut bounds: Option<[i32; 6]> = None;
        for c in candidates {
            let k = slot(c.q(), c.r());
            if self.color[k] != 0
                || RUNS[self.masks[color as usize][k] as usize] < 2
                || board.walled_off(c, color)
            {
                continue;
            }
            let b = *bounds.get_or_insert_with(|| self.bounds(color));
            if self.encloses(board, c, color, b) {
                out.push(c);
            }
        }
    }

    /// `[qlo, qhi, rlo, rhi, slo, shi]` of `color`'s tiles (`s = q + r`).
    fn bounds(&self, color: Color) -> [i32; 6] {
        let mut b = [i32::MAX, i32::MIN, i32::MAX, i32::MIN, i32::MAX, i32::MIN];
        for t in &self.tiles[color as usize] {
            let (q, r) = (t.q(), t.r());
            b[0] = b[0].min(q);
            b[1] = b[1].max(q);
            b[2] = b[2].min(r);
            b[3] = b[3].max(r);
            b[4] = b[4].min(q + r);
            b[5] = b[5].max(q + r);
        }
        b
    }

    /// Whether a tile of `color` on the empty `c` walls in a region holding an opponent
    /// tile that is not walled in already.
    fn encloses(&mut self, board: &Board, c: Cell, color: Color, b: [i32; 6]) -> bool {
        let (cq, cr) = (c.q(), c.r());
        let qlo = b[0].min(cq);
        let qhi = b[1].max(cq);
        let rlo = b[2].min(cr);
        let rhi = b[3].max(cr);
        let slo = b[4].min(cq + cr);
        let shi = b[5].max(cq + cr);
        let own = color + 1;
        let other = 2 - color;
        self.stamp = self.stamp.wrapping_add(2);
        if self.stamp < 2 {
            self.seen.fill(0);
            self.open.fill(0);
            self.stamp = 2;
        }
        let open_mark = self.stamp;
        let region_mark = self.stamp + 1;
        let ck = slot(cq, cr);
        for &(dq, dr) in &DELTAS {
            let (sq, sr) = (cq + dq, cr + dr);
            let sk = slot(sq, sr);
            if self.color[sk] == own || self.open[sk] == open_mark {
                continue;
            }
            self.stack.clear();
            self.region.clear();
            self.seen[sk] = region_mark;
            self.seen[ck] = region_mark;
            self.stack.push((sq, sr));
            self.region.push((sq, sr));
            let mut free = false;
            let mut holds = false;
            while let Some((q, r)) = self.stack.pop() {
                let k = slot(q, r);
                if q <= qlo
                    || q >= qhi
                    || r <= rlo
                    || r >= rhi
                    || q + r <= slo
                    || q + r >= shi
                    || self.open[k] == open_mark
                    || self.region.len() + 1 > TRAP_REGION_LIMIT
                {
                    free = true;
                    break;
                }
                if self.color[k] == other && !board.walled_off(Cell::raw(q, r), color) {
                    holds = true;
                }
                for &(eq, er) in &DELTAS {
                    let (nq, nr) = (q + eq, r + er);
                    let n = slot(nq, nr);
                    if self.seen[n] != region_mark && self.color[n] != own {
                        self.seen[n] = region_mark;
                        self.stack.push((nq, nr));
                        self.region.push((nq, nr));
                    }
                }
            }
            if free {
                for &(q, r) in &self.region {
                    self.open[slot(q, r)] = open_mark;
                }
                self.open[ck] = 0;
            } else if holds {
                self.seen[ck] = 0;
                return true;
            }
            // The next region must not see this one's cells as seen: un-mark them.
            for &(q, r) in &self.region {
                self.seen[slot(q, r)] = 0;
            }
        }
        self.seen[ck] = 0;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::andantino::Rules;
    use crate::game::Game;
    use crate::zobrist::Rng;

    /// Line plus enclosure potential, White minus Red, straight from the definition.
    fn naive(board: &Board) -> i32 {
        let mut at = std::collections::HashMap::new();
        for c in 0..2u8 {
            for t in board.tiles(c) {
                at.insert((t.q(), t.r()), c);
            }
        }
        let mut windows = std::collections::HashSet::new();
        for &(q, r) in at.keys() {
            for (a, &(dq, dr)) in AXES.iter().enumerate() {
                for i in 0..5 {
                    windows.insert((q - i * dq, r - i * dr, a));
                }
            }
        }
        let mut lines = 0;
        for (q, r, a) in windows {
            let (dq, dr) = AXES[a];
            let mut n = [0usize; 2];
            for i in 0..5 {
                if let Some(&c) = at.get(&(q + i * dq, r + i * dr)) {
                    n[c as usize] += 1;
                }
            }
            if n[1] == 0 {
                lines += LINE_WEIGHTS[n[0]];
            } else if n[0] == 0 {
                lines -= LINE_WEIGHTS[n[1]];
            }
        }
        let mut enclosure = 0;
        for (&(q, r), &c) in &at {
            let enemies = DELTAS
                .iter()
                .filter(|&&(dq, dr)| at.get(&(q + dq, r + dr)) == Some(&(1 - c)))
                .count();
            let w = ENCLOSURE_WEIGHTS[enemies];
            enclosure += if c == 1 { w } else { -w };
        }
        lines + enclosure
    }

    #[test]
    fn value_by_hand() {
        // The Python test's position: White (0,0) (0,1), Red (1,0): White is 32 ahead.
        let board = Board::new(Some("andantino w=0,0;0,1 r=1,0 turn=r"), Rules::default()).unwrap();
        let t = Tracker::new(&board);
        assert_eq!(t.static_value(0), 32);
        assert_eq!(t.static_value(1), -32);
        let start = Board::new(None, Rules::default()).unwrap();
        assert_eq!(Tracker::new(&start).static_value(0), 0);
    }

    #[test]
    fn incremental_sums_equal_a_fresh_count() {
        let mut rng = Rng::new(7);
        let mut moves = Vec::new();
        for _ in 0..30 {
            let mut board = Board::new(None, Rules::default()).unwrap();
            let mut t = Tracker::new(&board);
            let mut played = Vec::new();
            for _ in 0..40 {
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let c = board.turn();
                let (g, _) = t.gain(c, mv.to());
                let before = t.static_value(c);
                board.push(mv);
                t.push(mv, c);
                played.push((mv, c));
                assert_eq!(t.static_value(c), before + g);
                assert_eq!(t.static_value(0), naive(&board), "{board:?}");
                let fresh = Tracker::new(&board);
                let mut a: Vec<_> = t.four_cells(0).chain(t.four_cells(1)).collect();
                let mut b: Vec<_> = fresh.four_cells(0).chain(fresh.four_cells(1)).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
            }
            while let Some((mv, c)) = played.pop() {
                board.pop();
                t.pop(mv, c);
            }
            assert_eq!(t.static_value(0), 0);
            assert!(!t.has_four(0) && !t.has_four(1));
        }
    }

    #[test]
    fn a_synced_tracker_equals_a_fresh_one() {
        // One tracker synced to position after position (as MCTS's cut-offs do: back to
        // a common ancestor and on by other moves), against a fresh tracker of each; in
        // extended play tiles are relocated, too.
        let mut rng = Rng::new(13);
        let mut moves = Vec::new();
        let extended = Rules {
            extended: true,
            tiles_per_player: Some(8),
            extended_move_limit: 40,
            ..Rules::default()
        };
        for rules in [Rules::default(), extended] {
            let mut board = Board::new(None, rules).unwrap();
            let mut t = Tracker::new(&board);
            t.set_weights(
                &board,
                [0, 0, 21, 68, 186, 186],
                [0, 0, 49, 96, 98, 120, 120],
            );
            for _ in 0..300 {
                let back = rng.below(board.ply().min(6) + 1);
                for _ in 0..back {
                    board.pop();
                }
                for _ in 0..rng.below(8) {
                    board.legal_moves(&mut moves);
                    if board.result().is_some() || moves.is_empty() {
                        break;
                    }
                    board.push(moves[rng.below(moves.len())]);
                }
                t.sync(&board);
                let mut fresh = Tracker::new(&board);
                fresh.set_weights(
                    &board,
                    [0, 0, 21, 68, 186, 186],
                    [0, 0, 49, 96, 98, 120, 120],
                );
                assert_eq!(t.static_value(0), fresh.static_value(0), "{board:?}");
                let mut a: Vec<_> = t.four_cells(0).chain(t.four_cells(1)).collect();
                let mut b: Vec<_> = fresh.four_cells(0).chain(fresh.four_cells(1)).collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b);
                for c in 0..2 {
                    assert_eq!(t.tile_count(c), board.tile_list(c).len());
                }
                assert_eq!(t.compact, fresh.compact);
            }
        }
    }

    #[test]
    fn other_line_weights_stay_incremental() {
        let mut rng = Rng::new(9);
        let mut moves = Vec::new();
        let weights = [0, 1, 6, 50, 160, 160];
        let mut board = Board::new(None, Rules::default()).unwrap();
        let mut t = Tracker::new(&board);
        t.set_weights(&board, weights, ENCLOSURE_WEIGHTS);
        for _ in 0..30 {
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let c = board.turn();
            board.push(mv);
            t.push(mv, c);
            let mut fresh = Tracker::new(&board);
            let default = fresh.static_value(0);
            fresh.set_weights(&board, weights, ENCLOSURE_WEIGHTS);
            assert_eq!(t.static_value(0), fresh.static_value(0));
            fresh.set_weights(&board, LINE_WEIGHTS, ENCLOSURE_WEIGHTS);
            assert_eq!(fresh.static_value(0), default);
            assert_eq!(default, naive(&board));
        }
    }

    #[test]
    fn trap_cells_of_the_rules_example() {
        // docs/rules.md, "Andantino examples", a ring trap: White (-1, 1) completes a ring
        // around Red (0, 0).
        let board = Board::new(
            Some("andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"),
            Rules::default(),
        )
        .unwrap();
        let mut t = Tracker::new(&board);
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        let mut out = Vec::new();
        t.trap_cells(&board, 0, moves.iter().map(|m| m.to()), &mut out);
        assert_eq!(out, vec![Cell::new(-1, 1).unwrap()]);
        out.clear();
        t.trap_cells(&board, 1, moves.iter().map(|m| m.to()), &mut out);
        assert!(out.is_empty());
        // A ring around an empty cell only is no trap.
        let board = Board::new(
            Some("andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=1,1;2,0;2,-1;-2,0;-2,1 turn=w"),
            Rules::default(),
        )
        .unwrap();
        let mut t = Tracker::new(&board);
        board.legal_moves(&mut moves);
        out.clear();
        t.trap_cells(&board, 0, moves.iter().map(|m| m.to()), &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn trap_cells_are_traps() {
        // Every cell found is a placement that wins by trap when the side is to move.
        let mut rng = Rng::new(11);
        let mut moves = Vec::new();
        let mut found = 0;
        for _ in 0..200 {
            let mut board = Board::new(None, Rules::default()).unwrap();
            for _ in 0..rng.below(30) + 6 {
                board.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                board.push(mv);
                if board.result().is_some() {
                    break;
                }
            }
            if board.result().is_some() {
                continue;
            }
            let mut t = Tracker::new(&board);
            board.legal_moves(&mut moves);
            let mut out = Vec::new();
            let mover = board.turn();
            t.trap_cells(&board, mover, moves.iter().map(|m| m.to()), &mut out);
            for cell in out {
                found += 1;
                board.push(Move::place(cell));
                let r = board.result().unwrap();
                assert_eq!(r.winner, Some(mover));
                assert!(matches!(
                    r.termination,
                    crate::game::Termination::Trap | crate::game::Termination::LineAndTrap
                ));
                board.pop();
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn gains_of_weights_that_fall() {
        // A three worth less than a two makes a placement's line gain negative: the
        // flags of fours and fives must not take it for a carry.
        let mut rng = Rng::new(5);
        let mut moves = Vec::new();
        let weights = [0, 1, 6, 0, 160, 160];
        let mut board = Board::new(None, Rules::default()).unwrap();
        let mut t = Tracker::new(&board);
        t.set_weights(&board, weights, ENCLOSURE_WEIGHTS);
        let mut falls = 0;
        for _ in 0..40 {
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let c = board.turn();
            for &mv in &moves {
                let (g, fours) = t.gain(c, mv.to());
                let before = t.static_value(c);
                t.push(mv, c);
                let made = t.fours[c as usize].len();
                assert_eq!(t.static_value(c), before + g);
                t.pop(mv, c);
                assert!(fours as usize <= made);
                falls += usize::from(g < 0);
            }
            let mv = moves[rng.below(moves.len())];
            board.push(mv);
            if board.result().is_some() {
                break;
            }
            t.push(mv, c);
        }
        assert!(falls > 0);
    }
}
