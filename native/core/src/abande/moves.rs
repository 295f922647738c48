//! Moves and their notation (docs/notation.md, "Moves"): `d4` enters a piece, `c3-d4`
//! moves the stack on c3 onto d4, `pass` passes.

use std::fmt;

use crate::error::{Error, Result};
use crate::pytext;

use super::bits::{self, COLUMN_SIZES};

const NONE: u8 = u8::MAX;

/// An entry, a stack move or a pass: two bytes, the points as bit indices
/// ([`super::bits`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

/// The two points as bytes: `from`, `to`.
impl crate::search::tt::TableMove for Move {
    #[inline]
    fn pack(self) -> u64 {
        u64::from(self.from) | u64::from(self.to) << 8
    }

    #[inline]
    fn unpack(word: u64) -> Self {
        Move {
            from: word as u8,
            to: (word >> 8) as u8,
        }
    }
}

impl Move {
    /// The pass.
    pub const PASS: Move = Move {
        from: NONE,
        to: NONE,
    };

    /// Enter a piece on the point `to` (a bit index of a point).
    #[inline]
    pub const fn entry(to: u32) -> Move {
        Move {
            from: NONE,
            to: to as u8,
        }
    }

    /// Move the stack on `from` onto `to` (bit indices of points).
    #[inline]
    pub const fn stack(from: u32, to: u32) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
        }
    }

    /// Whether this is the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.to == NONE
    }

    /// Whether this enters a piece.
    #[inline]
    pub const fn is_entry(self) -> bool {
        self.to != NONE && self.from == NONE
    }

    /// Whether this moves a stack (always a capture).
    #[inline]
    pub const fn is_stack_move(self) -> bool {
        self.from != NONE
    }

    /// The target point's bit (`None` for the pass).
    #[inline]
    pub fn to(self) -> Option<u32> {
        (self.to != NONE).then_some(self.to as u32)
    }

    /// The source point's bit of a stack move.
    #[inline]
    pub fn from(self) -> Option<u32> {
        (self.from != NONE).then_some(self.from as u32)
    }

    /// A number unique among moves: `from * 64 + to`, 255 standing for none.
    #[inline]
    pub fn id(self) -> u64 {
        self.from as u64 * 256 + self.to as u64
    }

    /// The canonical text: `d4`, `c3-d4` or `pass`.
    pub fn notation(self) -> String {
        self.to_string()
    }

    /// Parse `d4`, `c3-d4` or `pass` as `abande.Move.from_notation` does (Python's
    /// regular expression `\s*(?:([a-z]\d+)\s*-\s*)?([a-z]\d+)\s*|\s*(pass)\s*`, case
    /// insensitive, with Python's Unicode whitespace, digits and case folding).
    ///
    /// Errors: `Error::InvalidMove` naming `text` if it is not a move or names a point
    /// that is not on the board (the target is checked before the source).
    pub fn parse(text: &str) -> Result<Move> {
        let core = pytext::strip(text);
        if is_pass_word(core) {
            return Ok(Move::PASS);
        }
        let Some((source, target)) = split_move(core) else {
            return Err(Error::InvalidMove(format!(
                "{} is not an Abande move (expected an entry such as d4, a stack move such \
                 as c3-d4, or pass)",
                pytext::repr(text)
            )));
        };
        let to = point(target, core)?;
        match source {
            None => Ok(Move::entry(to)),
            Some(source) => Ok(Move::stack(point(source, core)?, to)),
        }
    }
}

/// The bit of a point name matched by the notation's `[a-z]\d+`, as `_name_bit`.
fn point(text: &str, whole: &str) -> Result<u32> {
    bits::bit_of_name(&pytext::lower(pytext::strip(text))).ok_or_else(|| {
        Error::InvalidMove(format!(
            "{} is not a point of the Abande board in the move {} (points: {COLUMN_SIZES})",
            pytext::repr(text),
            pytext::repr(whole)
        ))
    })
}

/// `[a-zA-Z]`: ASCII letters only (issue 14).
fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
}

fn is_pass_word(text: &str) -> bool {
    let mut chars = text.chars();
    let mut next = || chars.next();
    matches!(next(), Some('p' | 'P'))
        && matches!(next(), Some('a' | 'A'))
        && matches!(next(), Some('s' | 'S'))
        && matches!(next(), Some('s' | 'S'))
        && next().is_none()
}

/// The length in bytes of a leading `[a-zA-Z][0-9]+` of `text`, if any.
fn point_len(text: &str) -> Option<usize> {
    let mut chars = text.char_indices();
    let (_, first) = chars.next()?;
    if !is_letter(first) {
        return None;
    }
    let mut end = first.len_utf8();
    for (i, c) in chars {
        if !c.is_ascii_digit() {
            break;
        }
        end = i + c.len_utf8();
    }
    (end > first.len_utf8()).then_some(end)
}

/// `[a-zA-Z][0-9]+ (\s* - \s* [a-zA-Z][0-9]+)?` of stripped text: (source, target).
fn split_move(text: &str) -> Option<(Option<&str>, &str)> {
    let first = point_len(text)?;
    if first == text.len() {
        return Some((None, text));
    }
    let rest = text[first..].trim_start_matches(pytext::is_space);
    let rest = rest.strip_prefix('-')?.trim_start_matches(pytext::is_space);
    let second = point_len(rest)?;
    (second == rest.len()).then_some((Some(&text[..first]), rest))
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.from(), self.to()) {
            (_, None) => f.write_str("pass"),
            (None, Some(to)) => f.write_str(bits::name(to)),
            (Some(from), Some(to)) => write!(f, "{}-{}", bits::name(from), bits::name(to)),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abande::bits::bit_of;

    fn message(text: &str) -> String {
        match Move::parse(text) {
            Err(Error::InvalidMove(m)) => m,
            other => panic!("expected InvalidMove, got {other:?}"),
        }
    }

    #[test]
    fn notation_round_trip() {
        assert_eq!(Move::parse("d4").unwrap(), Move::entry(bit_of(0, 0)));
        assert_eq!(Move::parse(" C3 - D4 ").unwrap().notation(), "c3-d4");
        assert_eq!(Move::parse("PASS").unwrap(), Move::PASS);
        assert_eq!(Move::parse("\u{3000}g4\u{85}").unwrap().notation(), "g4");
        assert_eq!(Move::parse("a1-a1").unwrap().notation(), "a1-a1");
        for b in bits::bits(bits::BOARD) {
            let m = Move::entry(b);
            assert_eq!(Move::parse(&m.notation()).unwrap(), m);
        }
    }

    #[test]
    fn bad_notation_as_python() {
        // The messages of abande.Move.from_notation for the same texts.
        assert_eq!(
            message("x"),
            "'x' is not an Abande move (expected an entry such as d4, a stack move such as \
             c3-d4, or pass)"
        );
        assert_eq!(
            message(" h1"),
            "'h1' is not a point of the Abande board in the move 'h1' (points: a1-a4, \
             b1-b5, c1-c6, d1-d7, e1-e6, f1-f5, g1-g4)"
        );
        assert_eq!(
            message("a5 - d4"),
            "'a5' is not a point of the Abande board in the move 'a5 - d4' (points: a1-a4, \
             b1-b5, c1-c6, d1-d7, e1-e6, f1-f5, g1-g4)"
        );
        assert!(message("d4-d9").starts_with("'d9' is not a point"));
        // ASCII letters and digits only (issue 14).
        assert!(message("d\u{664}").starts_with("'d\u{664}' is not an Abande move"));
        assert!(message("\u{212a}1").starts_with("'\u{212a}1' is not an Abande move"));
        assert!(message("pa\u{17f}s").starts_with("'pa\u{17f}s' is not an Abande move"));
        assert!(message("d4-").contains("is not an Abande move"));
        assert!(message("d4 e3").contains("is not an Abande move"));
        assert!(message("").contains("is not an Abande move"));
        assert!(message("d").contains("is not an Abande move"));
    }
}
