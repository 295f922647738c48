//! The position under make/unmake, generic over where the cells live (see `surface`).
//!
//! Kept incrementally, with no allocation in the common push and pop: the byte of every
//! cell (tiles touching it, its tile, the enclosure marks), the list of empty cells
//! touching two tiles (the legal placements), each colour's tiles, the Zobrist key,
//! the hands and the counters of the variants. Every change to the lists is undone in
//! exactly the reverse order, so a pop restores them as they were, order included.

use std::collections::HashMap;

use super::cell::{Cell, Move, COORDINATE_LIMIT};
use super::position::Setup;
use super::rules::{Rules, SelfTrap, MAX_TILES_PER_PLAYER};
use super::surface::{Slot, Surface, COUNT, ENCLOSED, SEEN, TILE, TILES};
use crate::fxhash::FxBuild;
use crate::game::{GameResult, Termination};
use crate::zobrist::{splitmix64, Rng};

/// The hand of an unlimited tile supply (never written, never reaching 0).
/// Zobrist key of Red to move.
pub(crate) const Z_TURN: u64 = splitmix64(0xA11D);
/// Zobrist key of Red's balance-variant right used.
pub(crate) const Z_SINGLE_USED: u64 = splitmix64(0x5146);

/// The Zobrist key of a tile of `color` on `cell`, as `hexgames.andantino._zobrist`.
#[inline]
pub(crate) fn tile_key(cell: Cell, color: usize) -> u64 {
    splitmix64(cell.packed() as u64 * 2 + color as u64 + 0x1000)
}

/// The runs of set bits of a ring mask (bit d: the neighbour in direction d holds one
/// of the mover's tiles): where each run starts and where the gap after it starts.
#[derive(Clone, Copy)]
pub(crate) struct RingRuns {
    pub(crate) runs: u8,
    pub(crate) start: [u8; 3],
    pub(crate) gap_after: [u8; 3],
}

/// [`RingRuns`] of every mask; the full ring (63) and the empty one count no run.
pub(crate) const RING: [RingRuns; 64] = ring_table();

const fn ring_table() -> [RingRuns; 64] {
    let mut table = [RingRuns {
        runs: 0,
        start: [0; 3],
        gap_after: [0; 3],
    }; 64];
    let mut m = 1;
    while m < 63 {
        let mut k = 0;
        let mut i = 0;
        while i < 6 {
            if (m >> i) & 1 == 1 && (m >> ((i + 5) % 6)) & 1 == 0 {
                let mut j = i;
                while (m >> j) & 1 == 1 {
                    j = (j + 1) % 6;
                }
                table[m].start[k] = i as u8;
                table[m].gap_after[k] = j as u8;
                k += 1;
            }
            i += 1;
        }
        table[m].runs = k as u8;
        m += 1;
    }
    table
}

/// The line axes as pairs of opposite ring directions: (1,0), (0,1), (1,-1).
pub(super) const AXES: [(usize, usize); 3] = [(0, 3), (5, 2), (1, 4)];

/// A bounding box of cells (empty: `lo > hi`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BBox {
    pub(crate) qlo: i32,
    pub(crate) qhi: i32,
    pub(crate) rlo: i32,
    pub(crate) rhi: i32,
}

impl BBox {
    pub(crate) const EMPTY: BBox = BBox {
        qlo: i32::MAX,
        qhi: i32::MIN,
        rlo: i32::MAX,
        rhi: i32::MIN,
    };

    #[inline]
    pub(crate) fn add(&mut self, c: Cell) {
        self.qlo = self.qlo.min(c.q());
        self.qhi = self.qhi.max(c.q());
        self.rlo = self.rlo.min(c.r());
        self.rhi = self.rhi.max(c.r());
    }

    pub(crate) fn of(cells: impl IntoIterator<Item = Cell>) -> BBox {
        let mut b = BBox::EMPTY;
        for c in cells {
            b.add(c);
        }
        b
    }

    /// Whether `c` lies on the box's edge or outside it: from there a straight line runs
    /// to infinity without meeting a cell of the box.
    #[inline]
    pub(crate) fn escapes(&self, c: Cell) -> bool {
        c.q() <= self.qlo || c.q() >= self.qhi || c.r() <= self.rlo || c.r() >= self.rhi
    }
}

/// `Undo::taken` of a placement on a cell that was not in the list (the balance
/// variant's cell touching one tile).
const NOT_LISTED: u32 = u32::MAX;

/// What pop needs beyond the move (32 bytes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub(crate) mv: Move,
    /// The Zobrist key of the tile the move put on its target (kept, not recomputed).
    key: u64,
    /// Where the target cell was in the list of placements before the move took it out.
    taken: u32,
    /// Lengths of `enc_added` and `enc_removed` before the move: the move walled off
    /// the cells after the first and opened those after the second.
    pub(crate) enc_added: u32,
    pub(crate) enc_removed: u32,
    /// Neighbours of the target that the move added to the list (ring mask).
    fresh: u8,
    /// A relocation: neighbours of the source that the pick-up took out of the list
    /// (their places are on `legal_log`), plus bit 6 if it added the source itself.
    lifted: u8,
    /// Whether the move used Red's balance-variant right.
    single: bool,
}

/// An Andantino position with its history since it was set up.
#[derive(Clone)]
pub(crate) struct State<S> {
    pub(crate) surf: S,
    pub(crate) rules: Rules,
    /// The side to move, 0 or 1.
    pub(crate) turn: usize,
    /// Tiles in hand; for an unlimited supply, those left of its bound
    /// ([`MAX_TILES_PER_PLAYER`]).
    pub(crate) hands: [u64; 2],
    pub(crate) single_used: bool,
    pub(crate) relocations: u64,
    pub(crate) hash: u64,
    /// Each colour's tiles; a tile's index here is its auxiliary number.
    pub(crate) tiles: [Vec<Cell>; 2],
    /// Placements on the empty cells touching two or more tiles; a cell's index here is
    /// its auxiliary number.
    pub(crate) legal: Vec<Move>,
    /// Tiles on the edge of the supported range (their neighbours beyond it are no
    /// legal moves); counted only when the surface reaches that far (`near_edge`).
    pub(crate) edge_tiles: u32,
    near_edge: bool,
    /// The rules are those whose legal moves are exactly the cells touching two tiles
    /// (no illegal self-traps, no extended play), but for the balance variant's one
    /// placement touching one tile while Red may still make it ([`State::listed`]).
    plain: bool,
    pub(crate) result: Option<GameResult>,
    pub(crate) undo: Vec<Undo>,
    /// Cells walled off (by the mover of the move that added them) and opened again by
    /// a relocation, as stacks indexed by `Undo`.
    pub(crate) enc_added: Vec<Cell>,
    pub(crate) enc_removed: Vec<Cell>,
    /// Relocations: the places in `legal` of the cells each pick-up took out, and the
    /// places in its tile list the lifted tiles had.
    legal_log: Vec<u32>,
    /// Extended play: how often each Zobrist key has occurred since the set-up.
    pub(crate) repetitions: HashMap<u64, u32, FxBuild>,
    /// Flood-fill queues, one per region (reused).
    pub(crate) fill: [Vec<Slot>; 3],
}

impl<S: Surface> State<S> {
    /// The position of `setup` on `surf` (which covers its tiles), with the enclosures
    /// computed from scratch; the outcome of the set-up is left to the caller.
    pub(crate) fn build(surf: S, setup: &Setup, rules: Rules) -> State<S> {
        let hands = [0, 1].map(|c| {
            setup.hands[c].map_or(
                u64::from(MAX_TILES_PER_PLAYER).saturating_sub(setup.tiles[c].len() as u64),
                u64::from,
            )
        });
        let near_edge = surf.may_reach_edge();
        let mut st = State {
            surf,
            rules,
            turn: setup.turn as usize,
            hands,
            single_used: setup.single_used,
            relocations: setup.relocations as u64,
            hash: 0,
            tiles: [Vec::new(), Vec::new()],
            legal: Vec::new(),
            edge_tiles: 0,
            near_edge,
            plain: rules.self_trap != SelfTrap::Illegal && !rules.extended,
            result: None,
            undo: Vec::new(),
            enc_added: Vec::new(),
            enc_removed: Vec::new(),
            legal_log: Vec::new(),
            repetitions: HashMap::default(),
            fill: [Vec::new(), Vec::new(), Vec::new()],
        };
        for (color, cells) in setup.tiles.iter().enumerate() {
            for &cell in cells {
                let s = st.surf.slot(cell);
                let v = st.surf.get(s);
                st.surf.set(s, v | TILE[color]);
                st.surf.set_aux(s, st.tiles[color].len() as u32);
                st.tiles[color].push(cell);
                st.hash ^= tile_key(cell, color);
                st.edge_tiles += u32::from(on_edge(cell));
                for d in 0..6 {
                    let n = st.surf.step(s, d);
                    let v = st.surf.get(n);
                    st.surf.set(n, v + 1);
                }
            }
        }
        st.collect_legal();
        for (color, mark) in ENCLOSED.into_iter().enumerate() {
            for s in st.enclosed_from_scratch(color) {
                let v = st.surf.get(s);
                st.surf.set(s, v | mark);
            }
        }
        if st.turn == 1 {
            st.hash ^= Z_TURN;
        }
        if st.single_used {
            st.hash ^= Z_SINGLE_USED;
        }
        if rules.extended {
            st.repetitions.insert(st.hash, 1);
        }
        st
    }

    /// The list of legal placements from the cells' bytes.
    fn collect_legal(&mut self) {
        self.legal.clear();
        for color in 0..2 {
            for i in 0..self.tiles[color].len() {
                let tile = self.tiles[color][i];
                let s = self.surf.slot(tile);
                for d in 0..6 {
                    let n = self.surf.step(s, d);
                    let v = self.surf.get(n);
                    if v & (TILES | SEEN) == 0 && v & COUNT >= 2 {
                        self.surf.set(n, v | SEEN);
                        self.legal_add(tile.step(d), n);
                    }
                }
            }
        }
        for i in 0..self.legal.len() {
            let s = self.surf.slot(self.legal[i].to());
            let v = self.surf.get(s);
            self.surf.set(s, v & !SEEN);
        }
    }

    /// The same position on another surface (which covers its tiles): the cells' bytes
    /// move over, the auxiliary numbers are set anew.
    pub(crate) fn rebuilt<T: Surface>(&self, mut surf: T) -> State<T> {
        for (s, v) in self.surf.nonzero() {
            let slot = surf.slot(self.surf.cell(s));
            surf.set(slot, v & !SEEN);
        }
        for (i, m) in self.legal.iter().enumerate() {
            let slot = surf.slot(m.to());
            surf.set_aux(slot, i as u32);
        }
        for tiles in &self.tiles {
            for (i, &c) in tiles.iter().enumerate() {
                let slot = surf.slot(c);
                surf.set_aux(slot, i as u32);
            }
        }
        let near_edge = surf.may_reach_edge();
        let edge_tiles = if near_edge {
            self.tiles.iter().flatten().filter(|&&c| on_edge(c)).count() as u32
        } else {
            0
        };
        State {
            surf,
            rules: self.rules,
            turn: self.turn,
            hands: self.hands,
            single_used: self.single_used,
            relocations: self.relocations,
            hash: self.hash,
            tiles: self.tiles.clone(),
            legal: self.legal.clone(),
            edge_tiles,
            near_edge,
            plain: self.plain,
            result: self.result,
            undo: self.undo.clone(),
            enc_added: self.enc_added.clone(),
            enc_removed: self.enc_removed.clone(),
            legal_log: self.legal_log.clone(),
            repetitions: self.repetitions.clone(),
            fill: [Vec::new(), Vec::new(), Vec::new()],
        }
    }

    // -- the byte of a cell and the list of placements -----------------------------------

    /// The byte of any cell (0 for a cell without a slot).
    #[inline]
    pub(crate) fn peek(&self, c: Cell) -> u8 {
        if self.surf.contains(c) {
            self.surf.get(self.surf.slot(c))
        } else {
            0
        }
    }

    #[inline]
    fn legal_add(&mut self, cell: Cell, s: Slot) {
        self.surf.set_aux(s, self.legal.len() as u32);
        self.legal.push(Move::place(cell));
    }

    /// Take the cell on slot `s` out of the list; returns the place it had.
    #[inline]
    fn legal_take(&mut self, s: Slot) -> u32 {
        let i = self.surf.aux(s);
        self.legal.swap_remove(i as usize);
        if let Some(moved) = self.legal.get(i as usize) {
            let slot = self.surf.slot(moved.to());
            self.surf.set_aux(slot, i);
        }
        i
    }

    /// Undo the `legal_take` that took `cell` (slot `s`) from place `i`.
    #[inline(always)]
    fn legal_put_back(&mut self, i: u32, cell: Cell, s: Slot) {
        let end = self.legal.len() as u32;
        if i < end {
            let moved = self.legal[i as usize];
            self.legal.push(moved);
            let slot = self.surf.slot(moved.to());
            self.surf.set_aux(slot, end);
            self.legal[i as usize] = Move::place(cell);
        } else {
            self.legal.push(Move::place(cell));
        }
        self.surf.set_aux(s, i);
    }

    /// Undo `legal_add`s: drop the last `n` cells of the list.
    #[inline]
    fn legal_drop(&mut self, n: u32) {
        self.legal.truncate(self.legal.len() - n as usize);
    }

    // -- tiles on and off -----------------------------------------------------------------

    /// Put a tile of `color` on the empty cell `to` (slot `s`) as the last of its list.
    /// Returns the ring mask of the neighbours holding tiles of `color`, and sets in
    /// `undo` where the cell was in the list of placements and which neighbours joined
    /// it.
    #[inline]
    fn add_tile(&mut self, to: Cell, s: Slot, color: usize, undo: &mut Undo) -> u8 {
        let b = self.surf.get(s);
        undo.taken = if b & COUNT >= 2 {
            self.legal_take(s)
        } else {
            NOT_LISTED
        };
        self.surf.set(s, b | TILE[color]);
        self.surf.set_aux(s, self.tiles[color].len() as u32);
        self.tiles[color].push(to);
        undo.key = tile_key(to, color);
        self.hash ^= undo.key;
        if self.near_edge && on_edge(to) {
            self.edge_tiles += 1;
        }
        let (mask, fresh) = self.surf.bump(s, TILE[color]);
        undo.fresh = fresh;
        let mut bits = fresh;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            self.legal_add(to.step(d), self.surf.step(s, d));
        }
        mask
    }

    /// Undo `add_tile`.
    #[inline]
    fn remove_last_tile(&mut self, to: Cell, s: Slot, color: usize, undo: &Undo) {
        self.hash ^= undo.key;
        if self.near_edge && on_edge(to) {
            self.edge_tiles -= 1;
        }
        self.tiles[color].pop();
        self.surf.unbump(s);
        self.legal_drop(undo.fresh.count_ones());
        let b = self.surf.get(s) & !TILE[color];
        self.surf.set(s, b);
        if undo.taken != NOT_LISTED {
            self.legal_put_back(undo.taken, to, s);
        }
    }

    /// Pick `color`'s tile up from `x` (slot `xs`) for a relocation; the last tile of
    /// its list takes its place. Records in `undo` and `legal_log` what pop needs.
    fn lift_tile(&mut self, x: Cell, xs: Slot, color: usize, undo: &mut Undo) {
        let id = self.surf.aux(xs);
        self.hash ^= tile_key(x, color);
        if self.near_edge && on_edge(x) {
            self.edge_tiles -= 1;
        }
        self.tiles[color].swap_remove(id as usize);
        if let Some(&moved) = self.tiles[color].get(id as usize) {
            let slot = self.surf.slot(moved);
            self.surf.set_aux(slot, id);
        }
        self.legal_log.push(id);
        let gone = self.surf.unbump(xs);
        let mut bits = gone;
        while bits != 0 {
            let d = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let i = self.legal_take(self.surf.step(xs, d));
            self.legal_log.push(i);
        }
        let b = self.surf.get(xs) & !TILE[color];
        self.surf.set(xs, b);
        undo.lifted = gone;
        if b & COUNT >= 2 {
            self.legal_add(x, xs);
            undo.lifted |= 1 << 6;
        }
    }

    /// Undo `lift_tile`.
    fn unlift_tile(&mut self, x: Cell, xs: Slot, color: usize, undo: &Undo) {
        if undo.lifted & (1 << 6) != 0 {
            self.legal_drop(1);
        }
        let b = self.surf.get(xs);
        self.surf.set(xs, b | TILE[color]);
        self.surf.bump(xs, TILE[color]);
        let gone = undo.lifted & 63;
        for d in (0..6).rev() {
            if gone & (1 << d) != 0 {
                let i = self.legal_log.pop().unwrap_or(0);
                self.legal_put_back(i, x.step(d), self.surf.step(xs, d));
            }
        }
        let id = self.legal_log.pop().unwrap_or(0);
        let list = &mut self.tiles[color];
        let end = list.len() as u32;
        if id < end {
            let moved = list[id as usize];
            list.push(moved);
            list[id as usize] = x;
            let slot = self.surf.slot(moved);
            self.surf.set_aux(slot, end);
        } else {
            list.push(x);
        }
        self.surf.set_aux(xs, id);
        self.hash ^= tile_key(x, color);
        if self.near_edge && on_edge(x) {
            self.edge_tiles += 1;
        }
    }

    // -- make / unmake --------------------------------------------------------------------

    /// Play a legal move.
    #[inline]
    pub(crate) fn push(&mut self, mv: Move) {
        let c = self.turn;
        let mut undo = Undo {
            mv,
            key: 0,
            taken: NOT_LISTED,
            enc_added: self.enc_added.len() as u32,
            enc_removed: self.enc_removed.len() as u32,
            fresh: 0,
            lifted: 0,
            single: false,
        };
        if let Some(x) = mv.from() {
            self.relocations += 1;
            let xs = self.surf.slot(x);
            self.lift_tile(x, xs, c, &mut undo);
            self.open_after_lift(x, xs, c);
        } else {
            self.hands[c] -= 1;
        }
        let to = mv.to();
        let s = self.surf.slot(to);
        let before = self.surf.get(s);
        if self.rules.single_adjacency
            && c == 1
            && !self.single_used
            && before & COUNT == 1
            && !mv.is_relocation()
        {
            self.single_used = true;
            self.hash ^= Z_SINGLE_USED;
            undo.single = true;
        }
        let mask = self.add_tile(to, s, c, &mut undo);
        let line = mask != 0 && self.tiles[c].len() >= 5 && self.has_line(s, c, mask);
        let start = self.enc_added.len();
        if RING[mask as usize].runs >= 2 && before & ENCLOSED[c] == 0 {
            self.connect(s, c, mask);
        }
        let trapped =
            self.enc_added.len() > start && self.traps(start, undo.enc_removed as usize, c);
        self.undo.push(undo);
        self.conclude(c, line, trapped, before & ENCLOSED[1 - c] != 0);
    }

    /// Whether the cells walled off from `enc_added[start..]` hold an opponent tile that
    /// was not walled off before the move (it is not among `enc_removed[opened..]`).
    fn traps(&self, start: usize, opened: usize, c: usize) -> bool {
        self.enc_added[start..].iter().any(|&cell| {
            self.surf.get(self.surf.slot(cell)) & TILE[1 - c] != 0
                && !self.enc_removed[opened..].contains(&cell)
        })
    }

    /// Wall off what `c`'s new tile on `s` cuts off from infinity; `mask` (two or more
    /// runs) has the ring bits of its neighbours of colour `c`, and `s` was not walled
    /// off by `c` before (else nothing new can be).
    ///
    /// A placement cuts something off exactly when two separate runs of own tiles
    /// around it already belong to one group (six-way connected) without it: the new
    /// tile closes a loop through them, and the gaps between the two runs lie on
    /// different sides of it. Which gaps share a region follows from which runs share a
    /// group (at most three runs fit around a cell); the groups are searched here,
    /// since only about one placement in twenty touches two runs.
    #[cold]
    fn connect(&mut self, s: Slot, c: usize, mask: u8) {
        let ring = RING[mask as usize];
        let k = ring.runs as usize;
        let rep = ring.start.map(|d| self.surf.step(s, d as usize));
        let (e01, e12, e20) = if k == 2 {
            (self.reaches(rep[0], &rep[1..2], s, c) != 0, false, false)
        } else {
            let from0 = self.reaches(rep[0], &rep[1..3], s, c);
            let e12 = if from0 == 0 {
                self.reaches(rep[1], &rep[2..3], s, c) != 0
            } else {
                from0 == 3
            };
            (from0 & 1 != 0, e12, from0 & 2 != 0)
        };
        let g = ring.gap_after;
        // Regions as lists of gaps (ring directions), at most two gaps each.
        let regions: &[&[u8]] = if k == 2 {
            if e01 {
                &[&[g[0]], &[g[1]]]
            } else {
                &[]
            }
        } else if e01 && e12 {
            &[&[g[0]], &[g[1]], &[g[2]]]
        } else if e01 {
            &[&[g[0]], &[g[1], g[2]]]
        } else if e12 {
            &[&[g[1]], &[g[2], g[0]]]
        } else if e20 {
            &[&[g[2]], &[g[0], g[1]]]
        } else {
            &[]
        };
        if !regions.is_empty() {
            self.cut_off(s, c, regions);
        }
    }

    /// Which of `targets` (tiles of `c`) the tile of `c` on `from` reaches through
    /// tiles of `c` other than the one on `avoid`, as a bit mask; the search stops once
    /// all are found.
    fn reaches(&mut self, from: Slot, targets: &[Slot], avoid: Slot, c: usize) -> u8 {
        let own = TILE[c];
        let all = (1u8 << targets.len()) - 1;
        let mut found = 0u8;
        let State { surf, fill, .. } = self;
        let stack = &mut fill[0];
        stack.clear();
        let v = surf.get(avoid);
        surf.set(avoid, v | SEEN);
        let v = surf.get(from);
        surf.set(from, v | SEEN);
        stack.push(from);
        let mut i = 0;
        while let Some(&x) = stack.get(i) {
            i += 1;
            for d in 0..6 {
                let y = surf.step(x, d);
                let v = surf.get(y);
                if v & own != 0 && v & SEEN == 0 {
                    surf.set(y, v | SEEN);
                    stack.push(y);
                    for (j, &t) in targets.iter().enumerate() {
                        if y == t {
                            found |= 1 << j;
                        }
                    }
                }
            }
            if found == all {
                break;
            }
        }
        for &x in stack.iter() {
            let v = surf.get(x);
            surf.set(x, v & !SEEN);
        }
        stack.clear();
        let v = surf.get(avoid);
        surf.set(avoid, v & !SEEN);
        found
    }

    /// The verdict on `c`'s move (docs/rules.md, "Winning", "Self-trap", "Draw",
    /// "Extended play"), in the Python board's order: the mover's line and trap, then a
    /// self-trap, then repetition and the move limit (extended play) or the draw when
    /// the next player has no tile left; in extended play a player who cannot move
    /// ends the game as `tiles-exhausted`.
    #[inline]
    fn conclude(&mut self, c: usize, line: bool, trapped: bool, self_trapped: bool) {
        let mut result = if line || trapped {
            let termination = match (line, trapped) {
                (true, true) => Termination::LineAndTrap,
                (true, false) => Termination::Line,
                _ => Termination::Trap,
            };
            Some(GameResult {
                termination,
                winner: Some(c as u8),
            })
        } else if self_trapped && self.rules.self_trap == SelfTrap::OpponentWins {
            Some(GameResult {
                termination: Termination::SelfTrap,
                winner: Some(1 - c as u8),
            })
        } else {
            None
        };
        self.turn = 1 - c;
        self.hash ^= Z_TURN;
        if self.rules.extended {
            let seen = self.repetitions.entry(self.hash).or_insert(0);
            *seen += 1;
            if result.is_none() {
                if *seen >= 3 {
                    result = Some(draw(Termination::Repetition));
                } else if self.relocations >= self.rules.extended_move_limit as u64 {
                    result = Some(draw(Termination::MoveLimit));
                }
            }
            self.result = result;
            if result.is_none() && !self.has_legal_move() {
                self.result = Some(draw(Termination::TilesExhausted));
            }
        } else {
            if result.is_none() && self.hands[1 - c] == 0 {
                result = Some(draw(Termination::TilesExhausted));
            }
            self.result = result;
        }
    }

    /// Give the move to the other side without placing a tile (the search's null
    /// move; not a move of the rules): the turn and its key bit flip, nothing else.
    /// Its own inverse.
    #[inline]
    pub(crate) fn flip_turn(&mut self) {
        self.turn = 1 - self.turn;
        self.hash ^= Z_TURN;
    }

    /// Take back the last move; `None` if there is none.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<Move> {
        let undo = self.undo.pop()?;
        let c = 1 - self.turn;
        if self.rules.extended {
            if let Some(seen) = self.repetitions.get_mut(&self.hash) {
                *seen -= 1;
                if *seen == 0 {
                    self.repetitions.remove(&self.hash);
                }
            }
        }
        self.turn = c;
        self.hash ^= Z_TURN;
        self.result = None;
        if self.enc_added.len() > undo.enc_added as usize {
            self.reopen(c, undo.enc_added as usize);
        }
        if self.enc_removed.len() > undo.enc_removed as usize {
            self.reclose(c, undo.enc_removed as usize);
        }
        let mv = undo.mv;
        let to = mv.to();
        let s = self.surf.slot(to);
        self.remove_last_tile(to, s, c, &undo);
        if undo.single {
            self.single_used = false;
            self.hash ^= Z_SINGLE_USED;
        }
        match mv.from() {
            None => self.hands[c] += 1,
            Some(x) => {
                let xs = self.surf.slot(x);
                self.unlift_tile(x, xs, c, &undo);
                self.relocations -= 1;
            }
        }
        Some(mv)
    }

    /// Clear `c`'s marks on `enc_added[start..]` and drop them.
    #[cold]
    fn reopen(&mut self, c: usize, start: usize) {
        for i in start..self.enc_added.len() {
            let s = self.surf.slot(self.enc_added[i]);
            let v = self.surf.get(s);
            self.surf.set(s, v & !ENCLOSED[c]);
        }
        self.enc_added.truncate(start);
    }

    /// Set `c`'s marks on `enc_removed[start..]` again and drop them.
    #[cold]
    fn reclose(&mut self, c: usize, start: usize) {
        for i in start..self.enc_removed.len() {
            let s = self.surf.slot(self.enc_removed[i]);
            let v = self.surf.get(s);
            self.surf.set(s, v | ENCLOSED[c]);
        }
        self.enc_removed.truncate(start);
    }

    // -- lines ----------------------------------------------------------------------------

    /// Tiles of `own` in a row from `s` (exclusive) in direction `d`, at most `cap`;
    /// `s` is a tile or an empty cell touching a tile (so the walk stays on the surface).
    #[inline(always)]
    pub(super) fn own_run(&self, mut s: Slot, d: usize, own: u8, cap: u32) -> u32 {
        let mut n = 0;
        while n < cap {
            s = self.surf.step(s, d);
            if self.surf.get(s) & own == 0 {
                break;
            }
            n += 1;
        }
        n
    }

    /// Whether the tile of `c` on `s` stands in a line of five or more; `mask` has the
    /// ring bits of its neighbours of that colour. Branch-free: the cells two to four
    /// steps out in all six directions are read (the window keeps room for them).
    #[inline]
    fn has_line(&self, s: Slot, c: usize, mask: u8) -> bool {
        let own = TILE[c];
        let at =
            |d: usize, k: usize| u32::from(self.surf.get(self.surf.step_by(s, d, k)) & own != 0);
        let arm = |d: usize| {
            let (x2, x3, x4) = (at(d, 2), at(d, 3), at(d, 4));
            ((mask as u32 >> d) & 1) * (1 + x2 + (x2 & x3) + (x2 & x3 & x4))
        };
        let l0 = arm(0) + arm(3);
        let l1 = arm(5) + arm(2);
        let l2 = arm(1) + arm(4);
        l0.max(l1).max(l2) >= 4
    }

    /// The cells of every line of five or more of `c`'s tiles through `cell` (a tile
    /// of `c`), axis by axis.
    pub(crate) fn lines_through(&self, cell: Cell, c: usize) -> Vec<Cell> {
        let own = TILE[c];
        let s = self.surf.slot(cell);
        let mut line = Vec::new();
        for &(a, b) in &AXES {
            let (la, lb) = (
                self.own_run(s, a, own, u32::MAX),
                self.own_run(s, b, own, u32::MAX),
            );
            if la + lb + 1 >= 5 {
                let mut x = cell;
                for _ in 0..lb {
                    x = x.step(b);
                }
                for _ in 0..la + lb + 1 {
                    line.push(x);
                    x = x.step(a);
                }
            }
        }
        line
    }

    // -- legal moves ----------------------------------------------------------------------

    /// Whether the side to move relocates (extended play with an empty hand).
    #[inline]
    pub(crate) fn relocating(&self) -> bool {
        self.rules.extended && self.hands[self.turn] == 0
    }

    /// Whether Red may still make its balance-variant placement now.
    #[inline]
    pub(crate) fn single_available(&self) -> bool {
        self.rules.single_adjacency && self.turn == 1 && !self.single_used
    }

    /// Whether a move to `to` (byte `b`) is refused by a rule other than the tiles
    /// touching it: a self-trap under `self_trap=illegal`, or a cell beyond the range.
    #[inline]
    pub(super) fn refused(&self, to: Cell, b: u8) -> bool {
        (self.rules.self_trap == SelfTrap::Illegal && b & ENCLOSED[1 - self.turn] != 0)
            || (self.edge_tiles > 0 && !to.in_range())
    }

    /// Call `f` with every legal move (none once the game is over).
    fn for_each_legal(&self, mut f: impl FnMut(Move)) {
        if self.result.is_some() {
            return;
        }
        let c = self.turn;
        if self.relocating() {
            for &source in &self.tiles[c] {
                for m in &self.legal {
                    let to = m.to();
                    let b = self.surf.get(self.surf.slot(to));
                    if self.refused(to, b) || !Self::keeps_two(source, to, b) {
                        continue;
                    }
                    f(Move::relocate(source, to));
                }
            }
            return;
        }
        for &m in &self.legal {
            if !self.refused(m.to(), self.surf.get(self.surf.slot(m.to()))) {
                f(m);
            }
        }
        if self.single_available() {
            // A cell touching one tile is a neighbour of exactly one tile: no repeats.
            for tile in self.tiles.iter().flatten() {
                let s = self.surf.slot(*tile);
                for d in 0..6 {
                    let b = self.surf.get(self.surf.step(s, d));
                    let to = tile.step(d);
                    if b & TILES == 0 && b & COUNT == 1 && !self.refused(to, b) {
                        f(Move::place(to));
                    }
                }
            }
        }
    }

    /// The list of placements when it is exactly the legal moves: the common case (no
    /// variant that filters moves, no balance-variant placement to add now, no tile on
    /// the edge of the range, the game not over).
    #[inline]
    fn listed(&self) -> Option<&[Move]> {
        (self.plain && self.edge_tiles == 0 && self.result.is_none() && !self.single_available())
            .then_some(&self.legal[..])
    }

    /// Whether the legal moves of both sides are the standard ones from here to the end
    /// of the game: no extended play, self-traps legal, and no balance-variant right
    /// left (the right is used once, so it stays used down every line).
    #[inline]
    pub(crate) fn standard_from_here(&self) -> bool {
        self.plain && (!self.rules.single_adjacency || self.single_used)
    }

    /// The legal moves into `out` (cleared first): the list of placements as it is in
    /// the common case, else filtered and completed for the variants.
    #[inline]
    pub(crate) fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if let Some(list) = self.listed() {
            out.extend_from_slice(list);
            return;
        }
        self.for_each_legal(|m| out.push(m));
    }

    /// [`crate::game::Game::random_move`]: in the common case drawn from the list of
    /// placements itself, with no copy; a relocation is found by counting (see
    /// [`State::relocations_of`]) without listing the tiles times the cells.
    #[inline]
    pub(crate) fn random_move(&self, rng: &mut Rng, scratch: &mut Vec<Move>) -> Option<Move> {
        let moves = match self.listed() {
            Some(list) => list,
            None if self.result.is_none() && self.relocating() => {
                return self.random_relocation(rng)
            }
            None => {
                self.legal_moves(scratch);
                scratch
            }
        };
        (!moves.is_empty()).then(|| moves[rng.below(moves.len())])
    }

    /// The number of legal moves.
    pub(crate) fn legal_count(&self) -> usize {
        if let Some(list) = self.listed() {
            return list.len();
        }
        if self.result.is_none() && self.relocating() {
            let open = self.open_placements();
            return self.tiles[self.turn]
                .iter()
                .map(|&source| self.relocations_of(source, open))
                .sum();
        }
        let mut n = 0;
        self.for_each_legal(|_| n += 1);
        n
    }

    // -- relocations by counting --------------------------------------------------------
    //
    // The relocations of `for_each_legal` are, for each tile of the mover in turn, every
    // listed cell that no other rule refuses, less the cells that touch exactly two
    // tiles, one of them the tile picked up. Counting them per tile (the cells listed,
    // less at most six neighbours) finds the n-th relocation of that list in time
    // proportional to the tiles plus the cells, not their product: an extended-play
    // position of 500 tiles a side has some 500,000 relocations, which a playout listed
    // at every ply (2.5 ms each).

    /// The listed cells that [`State::refused`] lets a tile go to.
    fn open_placements(&self) -> usize {
        if self.rules.self_trap != SelfTrap::Illegal && self.edge_tiles == 0 {
            return self.legal.len();
        }
        self.legal
            .iter()
            .filter(|m| !self.refused(m.to(), self.surf.get(self.surf.slot(m.to()))))
            .count()
    }

    /// Whether the relocation of the tile on `source` to the listed cell `to` (byte `b`)
    /// is legal, `to` being one that [`State::refused`] lets a tile go to: `to` keeps two
    /// tiles touching it after the pick-up.
    #[inline]
    pub(super) fn keeps_two(source: Cell, to: Cell, b: u8) -> bool {
        !(b & COUNT == 2 && source.touches(to))
    }

    /// How many relocations the mover's tile on `source` has, `open` being
    /// [`State::open_placements`].
    fn relocations_of(&self, source: Cell, open: usize) -> usize {
        let s = self.surf.slot(source);
        let lost = (0..6)
            .filter(|&d| {
                let b = self.surf.get(self.surf.step(s, d));
                // An empty cell touching two tiles is listed.
                b & TILES == 0 && b & COUNT == 2 && !self.refused(source.step(d), b)
            })
            .count();
        open.saturating_sub(lost)
    }

    /// The relocation that indexing the list of `legal_moves` by `rng.below(n)` gives
    /// (one draw), or `None` without a draw when there is none.
    fn random_relocation(&self, rng: &mut Rng) -> Option<Move> {
        let open = self.open_placements();
        let sources = &self.tiles[self.turn];
        let total: usize = sources
            .iter()
            .map(|&source| self.relocations_of(source, open))
            .sum();
        if total == 0 {
            return None;
        }
        let mut i = rng.below(total);
        for &source in sources {
            let n = self.relocations_of(source, open);
            if i >= n {
                i -= n;
                continue;
            }
            for m in &self.legal {
                let to = m.to();
                let b = self.surf.get(self.surf.slot(to));
                if self.refused(to, b) || !Self::keeps_two(source, to, b) {
                    continue;
                }
                if i == 0 {
                    return Some(Move::relocate(source, to));
                }
                i -= 1;
            }
        }
        None // (the counts above add up to `total`: not reached)
    }

    /// Whether any legal move exists.
    pub(crate) fn has_legal_move(&self) -> bool {
        if self.result.is_some() {
            return false;
        }
        let c = self.turn;
        if self.relocating() {
            let own = self.tiles[c].len();
            return self.legal.iter().any(|m| {
                let to = m.to();
                let s = self.surf.slot(to);
                let b = self.surf.get(s);
                if self.refused(to, b) {
                    return false;
                }
                // A tile touching `to` may leave it only if `to` keeps two others.
                let adjacent = (0..6)
                    .filter(|&d| self.surf.get(self.surf.step(s, d)) & TILE[c] != 0)
                    .count();
                own > if b & COUNT == 2 { adjacent } else { 0 }
            });
        }
        let mut any = false;
        self.for_each_legal(|_| any = true);
        any
    }

    /// Why `mv` is illegal here, or `None` if it is legal: the checks and messages of
    /// `hexgames.andantino.Board._illegal_reason`, in its order.
    pub(crate) fn illegal_reason(&self, mv: Move) -> Option<String> {
        if self.result.is_some() {
            return Some("the game is over".to_string());
        }
        let c = self.turn;
        let to = mv.to();
        if mv.from() == Some(to) {
            return Some("a relocated tile must move to a different cell".to_string());
        }
        let b = self.peek(to);
        if b & TILES != 0 {
            return Some(format!("{to} is occupied"));
        }
        if !to.in_range() {
            return Some(format!(
                "{to} is beyond the supported range |q|, |r| <= {COORDINATE_LIMIT}"
            ));
        }
        let touching = (b & COUNT) as i32;
        if self.relocating() {
            let Some(from) = mv.from() else {
                return Some("no tiles left in hand: move one of your tiles (from>to)".to_string());
            };
            if self.peek(from) & TILE[c] == 0 {
                return Some(format!("{from} holds no tile of the side to move"));
            }
            let touching = touching - i32::from(from.touches(to));
            if touching < 2 {
                return Some(format!(
                    "{to} would touch {touching} tile(s) after the pick-up; a tile must touch \
                     at least two"
                ));
            }
        } else {
            if mv.from().is_some() {
                return Some(
                    "tiles are relocated only in extended play once your hand is empty".to_string(),
                );
            }
            if touching < 2 && !(touching == 1 && self.single_available()) {
                if touching == 1 && self.rules.single_adjacency && c == 1 {
                    return Some(format!(
                        "{to} touches one tile and Red has already used its single-adjacency \
                         placement"
                    ));
                }
                return Some(format!(
                    "{to} touches {touching} tile(s); a tile must touch at least two"
                ));
            }
        }
        if self.rules.self_trap == SelfTrap::Illegal && b & ENCLOSED[1 - c] != 0 {
            return Some(format!(
                "{to} lies in a pocket walled off by the opponent (self-trap)"
            ));
        }
        None
    }

    // -- reading the position ---------------------------------------------------------------

    /// The cells that are not `c`'s and that `c` walls off from infinity, unsorted.
    pub(crate) fn enclosed_cells(&self, c: usize) -> Vec<Cell> {
        self.surf
            .nonzero()
            .into_iter()
            .filter(|&(_, v)| v & ENCLOSED[c] != 0 && v & TILE[c] == 0)
            .map(|(s, _)| self.surf.cell(s))
            .collect()
    }

    /// The last move's record.
    pub(crate) fn last(&self) -> Option<&Undo> {
        self.undo.last()
    }
}

/// Whether a tile on `c` stands on the edge of the supported range.
#[inline]
fn on_edge(c: Cell) -> bool {
    c.q().abs() == COORDINATE_LIMIT || c.r().abs() == COORDINATE_LIMIT
}

#[inline]
fn draw(termination: Termination) -> GameResult {
    GameResult {
        termination,
        winner: None,
    }
}
