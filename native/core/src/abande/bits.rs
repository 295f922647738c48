//! The 37 points as bits of a `u64`, laid out as in the Python board
//! (`hexgames.abande`): column by column, eight bits a column, `bit = 8 * (q + 3) +
//! (3 - r)`. The eighth bit of each column is always empty, the bit order is the board
//! order a1, a2, ..., g4, and the six neighbours of bit `b` are `b + 8`, `b + 9`,
//! `b + 1`, `b - 8`, `b - 9`, `b - 1` (the ring order of `hexgrid.DIRECTIONS`), so the
//! neighbours of a whole set take six shifts.
//!
//! Besides the geometry, this module holds the tables indexed by the occupied part of a
//! point's ring of six (see [`ring_index`]): the Euler characteristic change of adding
//! the point to the band, and whether its occupied neighbours form two or more runs.

/// The board's radius: the points are the cells with max(|q|, |r|, |q + r|) <= 3.
pub const RADIUS: i32 = 3;
/// Bit indices used by points lie below this.
pub const SIZE: usize = 56;

/// The bit of the axial cell (q, r); the caller keeps (q, r) on the board.
pub const fn bit_of(q: i32, r: i32) -> u32 {
    (8 * (q + RADIUS) + (RADIUS - r)) as u32
}

/// Whether (q, r) is a point of the board.
pub const fn on_board(q: i32, r: i32) -> bool {
    q.abs() <= RADIUS && r.abs() <= RADIUS && (q + r).abs() <= RADIUS
}

/// The axial cell of a point's bit.
pub const fn cell_of(b: u32) -> (i32, i32) {
    let q = (b / 8) as i32 - RADIUS;
    let r = RADIUS - (b % 8) as i32;
    (q, r)
}

/// Ring directions (dq, dr), the order of `hexgrid.DIRECTIONS`.
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

const fn board_mask() -> u64 {
    let mut mask = 0u64;
    let mut q = -RADIUS;
    while q <= RADIUS {
        let mut r = -RADIUS;
        while r <= RADIUS {
            if on_board(q, r) {
                mask |= 1 << bit_of(q, r);
            }
            r += 1;
        }
        q += 1;
    }
    mask
}

/// The 37 points.
pub const BOARD: u64 = board_mask();

/// No ring neighbour there (off the board).
pub const OFF: u8 = u8::MAX;

const fn rings() -> [[u8; 6]; SIZE] {
    let mut out = [[OFF; 6]; SIZE];
    let mut b = 0;
    while b < SIZE as u32 {
        if BOARD >> b & 1 == 1 {
            let (q, r) = cell_of(b);
            let mut i = 0;
            while i < 6 {
                let (dq, dr) = DIRECTIONS[i];
                if on_board(q + dq, r + dr) {
                    out[b as usize][i] = bit_of(q + dq, r + dr) as u8;
                }
                i += 1;
            }
        }
        b += 1;
    }
    out
}

/// The neighbours of each point in ring order, [`OFF`] where the ring leaves the board.
pub const RING: [[u8; 6]; SIZE] = rings();

const fn neighbour_sets() -> [u64; SIZE] {
    let mut out = [0u64; SIZE];
    let mut b = 0;
    while b < SIZE {
        let mut i = 0;
        while i < 6 {
            if RING[b][i] != OFF {
                out[b] |= 1 << RING[b][i];
            }
            i += 1;
        }
        b += 1;
    }
    out
}

/// The neighbour set of each point.
pub const NB: [u64; SIZE] = neighbour_sets();

/// A bit index no point uses (the highest bit), standing for "no neighbour".
pub const NO_POINT: u8 = 63;

const fn sorted_neighbours() -> [[u8; 6]; SIZE] {
    let mut out = [[NO_POINT; 6]; SIZE];
    let mut b = 0;
    while b < SIZE {
        let mut k = 0;
        let mut n = 0;
        while n < SIZE {
            if NB[b] >> n & 1 == 1 {
                out[b][k] = n as u8;
                k += 1;
            }
            n += 1;
        }
        b += 1;
    }
    out
}

/// The neighbours of each point in board order, padded with [`NO_POINT`].
pub const NEIGHBOURS: [[u8; 6]; SIZE] = sorted_neighbours();

const fn edge_mask() -> u64 {
    let mut mask = 0u64;
    let mut b = 0;
    while b < SIZE {
        if BOARD >> b & 1 == 1 && NB[b].count_ones() < 6 {
            mask |= 1 << b;
        }
        b += 1;
    }
    mask
}

/// The points on the rim of the board (fewer than six neighbours).
pub const EDGE: u64 = edge_mask();

/// The points next to the set `x`, `x` itself included.
#[inline(always)]
pub const fn dilate(x: u64) -> u64 {
    (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & BOARD
}

/// The points of `within` joined to `start` (a subset of it) through `within`.
pub fn region(start: u64, within: u64) -> u64 {
    let mut reach = start;
    loop {
        let grown = dilate(reach) & within;
        if grown == reach {
            return reach;
        }
        reach = grown;
    }
}

/// Whether the points of `occupied` form one group (true for none).
pub fn connected(occupied: u64) -> bool {
    occupied == 0 || region(occupied & occupied.wrapping_neg(), occupied) == occupied
}

/// The empty points that the band `occupied` walls off from the rim of the board.
pub fn holes(occupied: u64) -> u64 {
    let empty = BOARD & !occupied;
    empty & !region(empty & EDGE, empty)
}

/// Whether the connected band `occupied` stays connected without the point `b`: a flood
/// fill from one occupied neighbour of `b` reaches all the others.
pub fn stays_connected(b: u32, occupied: u64) -> bool {
    let rest = occupied & !(1 << b);
    let need = NB[b as usize] & rest;
    let mut reach = need & need.wrapping_neg();
    loop {
        let grown = dilate(reach) & rest;
        if grown & need == need {
            return true;
        }
        if grown == reach {
            return false;
        }
        reach = grown;
    }
}

/// A 6-bit index of which of the neighbours of `b` lie in `occupied`: bits 0..6 are the
/// points `b - 9`, `b - 8`, `b - 1`, `b + 1`, `b + 8`, `b + 9`. Off-board neighbours read
/// as empty, since no bit outside [`BOARD`] is ever set.
#[inline(always)]
pub const fn ring_index(occupied: u64, b: u32) -> usize {
    // Shifted up by 9 (the highest point is bit 54, so nothing falls off) so that b - 9
    // is bit 0 after the shift down.
    let x = (occupied << 9) >> b;
    ((x & 0b11) | ((x >> 6) & 0b100) | ((x >> 7) & 0b1000) | ((x >> 13) & 0b11_0000)) as usize
}

/// The ring position (0..6, `DIRECTIONS` order) of each bit of a [`ring_index`].
const RING_BIT: [u32; 6] = [4, 5, 3, 1, 0, 2];

const fn ring_pattern(index: usize) -> u32 {
    let mut p = 0;
    let mut i = 0;
    while i < 6 {
        p |= ((index >> RING_BIT[i]) as u32 & 1) << i;
        i += 1;
    }
    p
}

const fn euler_table() -> [i8; 64] {
    let mut out = [0i8; 64];
    let mut index = 0;
    while index < 64 {
        let p = ring_pattern(index);
        let mut pairs = 0;
        let mut i = 0;
        while i < 6 {
            if p >> i & 1 == 1 && p >> ((i + 1) % 6) & 1 == 1 {
                pairs += 1;
            }
            i += 1;
        }
        out[index] = 1 - p.count_ones() as i8 + pairs;
        index += 1;
    }
    out
}

/// `EULER[ring_index(occupied, b)]`: what adding the point `b` changes in the Euler
/// characteristic of the band (points - adjacent pairs + triangles of three mutually
/// adjacent points). A connected band has 1 - (its characteristic) holes.
pub const EULER: [i8; 64] = euler_table();

/// The points whose occupied neighbours (in `occupied`) form two or more runs around
/// their ring, all at once: a run ends where an occupied neighbour is followed, in ring
/// order, by an empty place (off the board counts as empty), so these are the points
/// with two or more such ends. A stack elsewhere can leave without splitting the band.
#[inline(always)]
pub const fn multi_run(occupied: u64) -> u64 {
    // n[i]: the points whose neighbour in direction i (DIRECTIONS order) is occupied.
    let n = [
        occupied >> 8,
        occupied >> 9,
        occupied >> 1,
        occupied << 8,
        occupied << 9,
        occupied << 1,
    ];
    let mut one = 0;
    let mut two = 0;
    let mut i = 0;
    while i < 6 {
        let end = n[i] & !n[(i + 1) % 6];
        two |= one & end;
        one |= end;
        i += 1;
    }
    two & BOARD
}

const fn gap_table() -> [(u8, [u8; 3]); 64] {
    let mut out = [(0u8, [0u8; 3]); 64];
    let mut index = 0;
    while index < 64 {
        let p = ring_pattern(index);
        let mut masks = [0u8; 3];
        let mut count = 0;
        if p == 0 {
            masks[0] = 0b11_1111; // the whole ring: one gap
            count = 1;
        }
        let mut i = 0;
        while i < 6 && p != 0 {
            // An empty place right after an occupied one starts a gap.
            if p >> i & 1 == 0 && p >> ((i + 5) % 6) & 1 == 1 {
                let mut j = i;
                while p >> j & 1 == 0 {
                    masks[count] |= 1 << RING_BIT[j];
                    j = (j + 1) % 6;
                }
                count += 1;
            }
            i += 1;
        }
        out[index] = (count as u8, masks);
        index += 1;
    }
    out
}

/// `GAPS[ring_index(occupied, b)]`: the gaps of `b`'s ring, the empty stretches between
/// runs of occupied neighbours (off-board places count as empty), as (how many, each as
/// a mask in the [`ring_index`] layout). One gap for an empty ring, none for a full one.
/// All the points of a gap are empty and joined, so a gap lies wholly in a hole or
/// wholly outside.
pub const GAPS: [(u8, [u8; 3]); 64] = gap_table();

/// A stack may leave: its lifting keeps the band whole.
pub const KEEPS: u8 = 0;
/// Lifting the stack splits the band.
pub const SPLITS: u8 = 1;
/// Two gaps lead into holes: a flood fill decides.
pub const FLOOD: u8 = 2;

const fn split_table() -> [[u8; 64]; 64] {
    let mut out = [[KEEPS; 64]; 64];
    let mut ring = 0;
    while ring < 64 {
        let (count, masks) = GAPS[ring];
        let mut holes = 0;
        while holes < 64 {
            let mut enclosed = 0;
            let mut i = 0;
            while i < count as usize {
                if masks[i] as usize & holes != 0 {
                    enclosed += 1;
                }
                i += 1;
            }
            out[ring][holes] = if count < 2 || (enclosed <= 1 && count - enclosed < 2) {
                KEEPS
            } else if count - enclosed >= 2 {
                SPLITS
            } else {
                FLOOD
            };
            holes += 1;
        }
        ring += 1;
    }
    out
}

/// `SPLIT[ring_index(occupied, b)][ring_index(holes, b)]`: whether lifting the stack on
/// `b` splits the band ([`KEEPS`], [`SPLITS`] or [`FLOOD`]), as
/// `hexgames.abande._splits`: on the hex grid the runs of occupied neighbours around
/// `b` stay joined unless an empty path not through `b` joins two of the gaps between
/// them (the Hex theorem; D. Gale, "The game of Hex and the Brouwer fixed-point
/// theorem", 1979). All the empty space outside the band, off the board included, is
/// one region: two gaps open to it split the band, gaps that all lie in different
/// regions do not, and two gaps into holes need a flood fill.
pub static SPLIT: [[u8; 64]; 64] = split_table();

/// The points of a [`ring_index`]-layout mask around `b` (off-board places dropped).
#[inline]
pub fn ring_points(b: u32, mask: u8) -> u64 {
    let m = mask as u64;
    let x = (m & 0b11) | (m & 0b100) << 6 | (m & 0b1000) << 7 | (m & 0b11_0000) << 13;
    let at = if b >= 9 { x << (b - 9) } else { x >> (9 - b) };
    at & BOARD
}

/// Whether lifting the stack on `b` splits the band `occupied` with these holes (empty
/// points the band walls off from the rim); see [`SPLIT`].
#[inline(always)]
pub fn splits(b: u32, occupied: u64, holes: u64) -> bool {
    match SPLIT[ring_index(occupied, b)][ring_index(holes, b)] {
        KEEPS => false,
        SPLITS => true,
        _ => !stays_connected(b, occupied),
    }
}

/// The empty points that a piece just entered on `b` (outside any hole; `occupied`
/// holds it) has walled off from the rim: the regions of its gaps that no longer reach
/// the rim. As `hexgames.abande._enclosed_by_entry`.
pub fn enclosed_by_entry(b: u32, occupied: u64) -> u64 {
    let empty = BOARD & !occupied;
    let (count, masks) = GAPS[ring_index(occupied, b)];
    let mut found = 0;
    for &mask in &masks[..count as usize] {
        let gap = ring_points(b, mask);
        if gap & (EDGE | found) != 0 || gap == 0 {
            continue; // open to the rim, or already found
        }
        let mut reach = gap;
        loop {
            let grown = dilate(reach) & empty;
            if grown & EDGE != 0 {
                break;
            }
            if grown == reach {
                found |= reach;
                break;
            }
            reach = grown;
        }
    }
    found
}

/// The holes once the stack on `b` has left (`occupied` no longer holds `b`), from the
/// holes before: `b` becomes a hole if its ring is full or all its gaps lie in holes;
/// otherwise it is outside, and so are the holes its gaps open into. As
/// `hexgames.abande._holes_after_lift`.
#[inline]
pub fn holes_after_lift(b: u32, occupied: u64, holes: u64) -> u64 {
    let (count, masks) = GAPS[ring_index(occupied, b)];
    if count == 0 {
        return holes | 1 << b;
    }
    if holes == 0 {
        return 0;
    }
    let in_holes = ring_index(holes, b) as u8;
    let mut inside = 0u8;
    let mut opened = false;
    for &gap in &masks[..count as usize] {
        if gap & in_holes != 0 {
            inside |= gap;
        } else {
            opened = true;
        }
    }
    if inside == 0 {
        holes
    } else if !opened {
        holes | 1 << b
    } else {
        holes & !region(ring_points(b, inside) & holes, holes)
    }
}

/// The board name of a point's bit (docs/notation.md, "Abande points"): column letter
/// `"abcdefg"[q + 3]`, number `4 - r - max(q, 0)`.
pub fn name(b: u32) -> &'static str {
    NAMES[b as usize]
}

const fn names() -> [&'static str; SIZE] {
    const ALL: [&str; 37] = [
        "a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "b5", "c1", "c2", "c3", "c4", "c5", "c6",
        "d1", "d2", "d3", "d4", "d5", "d6", "d7", "e1", "e2", "e3", "e4", "e5", "e6", "f1", "f2",
        "f3", "f4", "f5", "g1", "g2", "g3", "g4",
    ];
    let mut out = [""; SIZE];
    let mut b = 0;
    let mut k = 0;
    while b < SIZE {
        if BOARD >> b & 1 == 1 {
            out[b] = ALL[k];
            k += 1;
        }
        b += 1;
    }
    out
}

const NAMES: [&str; SIZE] = names();

/// The bit of a point's canonical lower-case name (`c3`), or `None`.
pub fn bit_of_name(text: &str) -> Option<u32> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let column = bytes[0].wrapping_sub(b'a') as i32;
    let number = bytes[1].wrapping_sub(b'0') as i32;
    if !(0..7).contains(&column) || number < 1 {
        return None;
    }
    let q = column - RADIUS;
    // number = 4 - r - max(q, 0)
    let r = RADIUS + 1 - number - q.max(0);
    on_board(q, r).then(|| bit_of(q, r))
}

/// The columns' points, for error messages.
pub const COLUMN_SIZES: &str = "a1-a4, b1-b5, c1-c6, d1-d7, e1-e6, f1-f5, g1-g4";

/// The bits of `x`, lowest first.
#[inline]
pub fn bits(mut x: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if x == 0 {
            None
        } else {
            let b = x.trailing_zeros();
            x &= x - 1;
            Some(b)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_of_notation_md() {
        assert_eq!(BOARD.count_ones(), 37);
        assert_eq!(EDGE.count_ones(), 18);
        assert_eq!(bit_of_name("d4"), Some(bit_of(0, 0)));
        assert_eq!(bit_of_name("d1"), Some(bit_of(0, 3)));
        assert_eq!(bit_of_name("d7"), Some(bit_of(0, -3)));
        assert_eq!(bit_of_name("a1"), Some(bit_of(-3, 3)));
        assert_eq!(bit_of_name("a4"), Some(bit_of(-3, 0)));
        assert_eq!(bit_of_name("g1"), Some(bit_of(3, 0)));
        assert_eq!(bit_of_name("g4"), Some(bit_of(3, -3)));
        for bad in ["h1", "a5", "d0", "d8", "b6", "", "d", "d44"] {
            assert_eq!(bit_of_name(bad), None, "{bad}");
        }
        for b in bits(BOARD) {
            assert_eq!(bit_of_name(name(b)), Some(b));
        }
        // Board order is bit order.
        let names: Vec<_> = bits(BOARD).map(name).collect();
        assert_eq!(&names[..5], ["a1", "a2", "a3", "a4", "b1"]);
        assert_eq!(names[36], "g4");
    }

    #[test]
    fn neighbours_by_shifts() {
        for b in bits(BOARD) {
            assert_eq!(dilate(1 << b), NB[b as usize] | 1 << b);
            let degree = NB[b as usize].count_ones();
            assert!(degree == 3 || degree == 4 || degree == 6);
        }
        assert_eq!(NB[bit_of(-3, 3) as usize].count_ones(), 3); // a corner
        assert_eq!(NB[bit_of(0, 0) as usize].count_ones(), 6);
    }

    #[test]
    fn multi_run_as_the_gap_table() {
        let mut rng = crate::zobrist::Rng::new(3);
        for _ in 0..2000 {
            let occupied = rng.next_u64() & rng.next_u64() & BOARD;
            let multi = multi_run(occupied);
            for b in bits(BOARD) {
                assert_eq!(multi >> b & 1 == 1, GAPS[ring_index(occupied, b)].0 >= 2);
            }
        }
    }

    #[test]
    fn ring_index_reads_the_ring() {
        for b in bits(BOARD) {
            for (i, &n) in RING[b as usize].iter().enumerate() {
                if n != OFF {
                    assert_eq!(ring_pattern(ring_index(1 << n, b)), 1 << i);
                }
            }
            assert_eq!(ring_index(1 << b, b), 0);
        }
    }

    #[test]
    fn euler_characteristic_counts_holes() {
        // A ring of six around d4: one hole, characteristic 0.
        let ring = NB[bit_of(0, 0) as usize];
        let mut euler = 0i32;
        let mut added = 0u64;
        for b in bits(ring) {
            euler += EULER[ring_index(added, b)] as i32;
            added |= 1 << b;
        }
        assert_eq!(euler, 0);
        assert_eq!(holes(ring), 1 << bit_of(0, 0));
        euler += EULER[ring_index(added, bit_of(0, 0))] as i32;
        assert_eq!(euler, 1);
    }
}
