//! Cells (axial coordinates) and moves, with their notation (docs/notation.md, "Andantino
//! cells" and "Moves"): `q,r` places a tile, `2,-1>0,3` relocates one.

use std::fmt;

use crate::error::{Error, Result};
use crate::pytext::{is_space, repr};

/// The largest `|q|` or `|r|` a tile may have, as in `hexgames.andantino`: the surface is
/// unbounded in principle, and this keeps every cell (and its neighbours) inside the
/// 15-bit packing of the Zobrist keys.
pub const COORDINATE_LIMIT: i32 = (1 << 14) - 4;

/// The six directions in ring order (each next to the one before): (1,0) (1,-1) (0,-1)
/// (-1,0) (-1,1) (0,1), as `hexgames.hexgrid.DIRECTIONS`. Direction `d + 3` is the
/// opposite of `d`.
pub(crate) const DELTAS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A cell in axial coordinates `(q, r)`, relative to White's set-up tile. Ordered as the
/// Python tuple `(q, r)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    q: i16,
    r: i16,
}

impl Cell {
    /// The cell `(q, r)`.
    ///
    /// Errors: `Error::InvalidMove` if `|q|` or `|r|` exceeds [`COORDINATE_LIMIT`] (the
    /// message of the Python board).
    pub fn new(q: i64, r: i64) -> Result<Cell> {
        let limit = COORDINATE_LIMIT as i64;
        if !(-limit..=limit).contains(&q) || !(-limit..=limit).contains(&r) {
            return Err(Error::InvalidMove(format!(
                "cell {q},{r} is outside the supported range |q|, |r| <= {COORDINATE_LIMIT}"
            )));
        }
        Ok(Cell {
            q: q as i16,
            r: r as i16,
        })
    }

    /// A cell the caller knows to be representable: at most one step beyond the
    /// supported range.
    #[inline]
    pub(crate) const fn raw(q: i32, r: i32) -> Cell {
        Cell {
            q: q as i16,
            r: r as i16,
        }
    }

    #[inline]
    pub fn q(self) -> i32 {
        self.q as i32
    }

    #[inline]
    pub fn r(self) -> i32 {
        self.r as i32
    }

    /// The neighbour in direction `d` (ring order, see `DELTAS`).
    #[inline]
    pub(crate) fn step(self, d: usize) -> Cell {
        let (dq, dr) = DELTAS[d];
        Cell::raw(self.q() + dq, self.r() + dr)
    }

    /// Whether a tile may stand here (`|q|, |r| <= COORDINATE_LIMIT`).
    #[inline]
    pub fn in_range(self) -> bool {
        self.q().abs() <= COORDINATE_LIMIT && self.r().abs() <= COORDINATE_LIMIT
    }

    /// Whether `other` is one of the six neighbours.
    #[inline]
    pub(crate) fn touches(self, other: Cell) -> bool {
        let dq = other.q() - self.q();
        let dr = other.r() - self.r();
        matches!(
            (dq, dr),
            (1, 0) | (-1, 0) | (0, 1) | (0, -1) | (1, -1) | (-1, 1)
        )
    }

    /// The Python board's packed cell, `(q + 2^14) * 2^15 + (r + 2^14)`, from which the
    /// Zobrist keys come.
    #[inline]
    pub(crate) fn packed(self) -> u32 {
        (((self.q() + (1 << 14)) as u32) << 15) | (self.r() + (1 << 14)) as u32
    }

    /// The cell of a packed value (the inverse of `packed`).
    #[inline]
    pub(crate) fn unpacked(p: u32) -> Cell {
        Cell::raw(
            (p >> 15) as i32 - (1 << 14),
            (p & 0x7fff) as i32 - (1 << 14),
        )
    }

    /// The sort key of position strings: by r, then q.
    #[inline]
    pub(crate) fn row_order(self) -> (i16, i16) {
        (self.r, self.q)
    }
}

impl fmt::Display for Cell {
    /// `q,r`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.q, self.r)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.q, self.r)
    }
}

/// A move: a placement on `to`, or in extended play a relocation of the tile on `from`
/// to `to`. Eight bytes, `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    to: Cell,
    from: Cell,
}

/// `from` of a placement.
const NO_CELL: Cell = Cell {
    q: i16::MIN,
    r: i16::MIN,
};

/// The four coordinates as 16-bit fields: `to.q`, `to.r`, `from.q`, `from.r`.
impl crate::search::tt::TableMove for Move {
    #[inline]
    fn pack(self) -> u64 {
        let field = |v: i16, at: u32| u64::from(v as u16) << at;
        field(self.to.q, 0) | field(self.to.r, 16) | field(self.from.q, 32) | field(self.from.r, 48)
    }

    #[inline]
    fn unpack(word: u64) -> Self {
        let field = |at: u32| (word >> at) as u16 as i16;
        Move {
            to: Cell {
                q: field(0),
                r: field(16),
            },
            from: Cell {
                q: field(32),
                r: field(48),
            },
        }
    }
}

impl Move {
    /// Place a tile on `to`.
    #[inline]
    pub const fn place(to: Cell) -> Move {
        Move { to, from: NO_CELL }
    }

    /// Relocate the tile on `from` to `to` (extended play).
    #[inline]
    pub const fn relocate(from: Cell, to: Cell) -> Move {
        Move { to, from }
    }

    /// The cell the tile goes to.
    #[inline]
    pub fn to(self) -> Cell {
        self.to
    }

    /// The cell a relocated tile comes from; `None` for a placement.
    #[inline]
    pub fn from(self) -> Option<Cell> {
        if self.from == NO_CELL {
            None
        } else {
            Some(self.from)
        }
    }

    #[inline]
    pub(crate) fn is_relocation(self) -> bool {
        self.from != NO_CELL
    }

    /// A number unique to the move (for move tables): 64 bits of both cells.
    #[inline]
    pub fn id(self) -> u64 {
        let cell = |c: Cell| ((c.q as u16 as u64) << 16) | c.r as u16 as u64;
        (cell(self.from) << 32) | cell(self.to)
    }

    /// The canonical text: `q,r` or `q,r>q,r`.
    pub fn notation(self) -> String {
        self.to_string()
    }

    /// Parse `q,r` (or `(q, r)`), or `from>to` with such cells, as
    /// `hexgames.andantino.Move.from_notation`: surrounding whitespace and whitespace
    /// around `>` and inside the parentheses are allowed; numbers have at most 9 digits.
    ///
    /// Errors: `Error::InvalidMove` naming the text if it is not a move, or naming a
    /// cell outside the supported range (the destination is checked first).
    pub fn from_notation(text: &str) -> Result<Move> {
        let invalid = || {
            Error::InvalidMove(format!(
                "{} is not an Andantino move (expected q,r such as 0,1, or from>to such as \
                 2,-1>0,3)",
                repr(text)
            ))
        };
        let mut p = Parser { rest: text };
        p.spaces();
        let first = p.cell().ok_or_else(invalid)?;
        p.spaces();
        let (from, to) = if p.eat('>') {
            p.spaces();
            let second = p.cell().ok_or_else(invalid)?;
            p.spaces();
            (Some(first), second)
        } else {
            (None, first)
        };
        if !p.rest.is_empty() {
            return Err(invalid());
        }
        let to = Cell::new(to.0, to.1)?;
        Ok(match from {
            None => Move::place(to),
            Some((q, r)) => Move::relocate(Cell::new(q, r)?, to),
        })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.from() {
            None => write!(f, "{}", self.to),
            Some(from) => write!(f, "{from}>{}", self.to),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// A hand-written matcher for the Python board's regular expression
/// `\s*(?:CELL\s*>\s*)?CELL\s*` with `CELL = \(\s*N\s*,\s*N\s*\)|N,N` and
/// `N = -?[0-9]{1,9}`; it needs no backtracking.
struct Parser<'a> {
    rest: &'a str,
}

impl Parser<'_> {
    fn spaces(&mut self) {
        self.rest = self.rest.trim_start_matches(is_space);
    }

    fn eat(&mut self, c: char) -> bool {
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn number(&mut self) -> Option<i64> {
        let bytes = self.rest.as_bytes();
        let sign = usize::from(bytes.first() == Some(&b'-'));
        let digits = bytes[sign..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        // More than nine digits in a row can never match: the next must be a separator.
        if digits == 0 || digits > 9 {
            return None;
        }
        let (number, rest) = self.rest.split_at(sign + digits);
        self.rest = rest;
        number.parse().ok()
    }

    fn cell(&mut self) -> Option<(i64, i64)> {
        if self.eat('(') {
            self.spaces();
            let q = self.number()?;
            self.spaces();
            if !self.eat(',') {
                return None;
            }
            self.spaces();
            let r = self.number()?;
            self.spaces();
            if !self.eat(')') {
                return None;
            }
            Some((q, r))
        } else {
            let q = self.number()?;
            if !self.eat(',') {
                return None;
            }
            Some((q, self.number()?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> String {
        match Move::from_notation(text) {
            Ok(m) => m.notation(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn notation_round_trips() {
        assert_eq!(parse("0,1"), "0,1");
        assert_eq!(parse(" -2,3 "), "-2,3");
        assert_eq!(parse("( 1 ,\t-1 )"), "1,-1");
        assert_eq!(parse("2,-1>0,3"), "2,-1>0,3");
        assert_eq!(parse("(2,-1) > (0, 3)"), "2,-1>0,3");
        assert_eq!(parse("-0,007"), "0,7");
        assert_eq!(parse("\u{1c}0,1\u{3000}"), "0,1");
    }

    #[test]
    fn bad_text_is_named() {
        let invalid = |t: &str| {
            format!(
                "error: {} is not an Andantino move (expected q,r such as 0,1, or from>to \
                 such as 2,-1>0,3)",
                repr(t)
            )
        };
        for text in [
            "",
            "0, 1",
            "0,1>",
            ">0,1",
            "a,b",
            "1,2,3",
            "0,1234567890",
            "--1,0",
            "(0,1",
            "0,1 0,2",
            "٣,1",
            "+1,0",
        ] {
            assert_eq!(parse(text), invalid(text), "{text:?}");
        }
        assert_eq!(
            parse("16381,0"),
            "error: cell 16381,0 is outside the supported range |q|, |r| <= 16380"
        );
        assert_eq!(
            parse("-999999999,0>0,-16381"),
            "error: cell 0,-16381 is outside the supported range |q|, |r| <= 16380"
        );
    }

    #[test]
    fn packing_is_pythons() {
        let c = Cell::new(-3, 5).unwrap();
        assert_eq!(c.packed(), ((-3 + 16384) * 32768 + 5 + 16384) as u32);
        assert_eq!(Cell::unpacked(c.packed()), c);
        let m = Move::relocate(Cell::new(2, -1).unwrap(), Cell::new(0, 3).unwrap());
        assert_ne!(m.id(), Move::place(Cell::new(0, 3).unwrap()).id());
    }
}
