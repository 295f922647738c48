//! Position strings (docs/notation.md, "Abande positions"): `abande [<cell>=<stack> ...]
//! turn=<b|w> hands=b<N>,w<N> [passes=<0|1|2>]`, read with the checks and messages of the
//! Python module's `_parse_position` (`passes=2` is a game two passes have ended).

use crate::error::{Error, Result};
use crate::pytext;

use super::bits::{self, COLUMN_SIZES, SIZE};
use super::board::NAMES;
use super::keys::PIECES;
use super::rules::Rules;

/// A checked set-up position: what a board is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Stack codes by point bit (0 for an empty point).
    pub code: [u64; SIZE],
    pub turn: u8,
    pub hands: [u8; 2],
    pub passes: u8,
}

impl Setup {
    /// The start: an empty board, Black to move, 18 pieces in each hand.
    pub fn start() -> Setup {
        Setup {
            code: [0; SIZE],
            turn: 0,
            hands: [PIECES as u8; 2],
            passes: 0,
        }
    }

    /// The occupied points.
    pub fn occupied(&self) -> u64 {
        (0..SIZE)
            .filter(|&b| self.code[b] != 0)
            .fold(0, |x, b| x | 1 << b)
    }
}

/// The pieces of a stack code from bottom to top, as `B` and `W`.
pub fn stack_text(code: u64) -> String {
    (0..super::board::height(code))
        .map(|i| if code >> i & 1 == 1 { 'W' } else { 'B' })
        .collect()
}

fn invalid(message: String) -> Error {
    Error::InvalidPosition(message)
}

/// `[a-z][0-9]+` of a lower-cased key (ASCII digits only, issue 14).
fn is_cell_key(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some('a'..='z')) && key.len() > 1 && chars.all(|c| c.is_ascii_digit())
}

/// `b([0-9]{1,3}),w([0-9]{1,3})` of a lower-cased `hands=` value.
fn parse_hands(value: &str) -> Option<[u32; 2]> {
    let rest = value.strip_prefix('b')?;
    let (black, white) = rest.split_once(",w")?;
    let number = |text: &str| -> Option<u32> {
        ((1..=3).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()))
            .then(|| text.parse().ok())
            .flatten()
    };
    Some([number(black)?, number(white)?])
}

/// Read a position string under `rules`.
///
/// Errors: `Error::InvalidPosition` naming the field at fault: an unknown game, a cell
/// off the board, a stack higher than the rules allow, more or fewer pieces than a player
/// owns, a malformed or duplicate field, `passes=` impossible for the hands, stacks that
/// do not form one band.
pub fn parse(text: &str, rules: &Rules) -> Result<Setup> {
    let mut words = pytext::split(text);
    let first = words.next();
    if first.map(pytext::lower).as_deref() != Some("abande") {
        return Err(invalid(format!(
            "position must start with the game name abande, not {}",
            pytext::repr(first.unwrap_or(""))
        )));
    }
    let mut setup = Setup::start();
    let (mut turn, mut hands, mut passes): (Option<String>, Option<String>, Option<String>) =
        (None, None, None);
    for word in words {
        let (key, value) = match word.split_once('=') {
            Some((key, value)) if !key.is_empty() => (pytext::lower(key), value),
            _ => {
                return Err(invalid(format!(
                    "field {} is not key=value",
                    pytext::repr(word)
                )))
            }
        };
        let point = bits::bit_of_name(&key);
        let slot = match key.as_str() {
            "turn" => Some(&mut turn),
            "hands" => Some(&mut hands),
            "passes" => Some(&mut passes),
            _ => None,
        };
        let given = match (&slot, point) {
            (Some(slot), _) => slot.is_some(),
            (None, Some(b)) => setup.code[b as usize] != 0,
            (None, None) => false,
        };
        if given {
            return Err(invalid(format!("field {key}= is given twice")));
        }
        if let Some(slot) = slot {
            *slot = Some(pytext::lower(value));
        } else if is_cell_key(&key) {
            let Some(b) = point else {
                return Err(invalid(format!(
                    "field {key}=: {key} is not a point of the board (points: {COLUMN_SIZES})"
                )));
            };
            if value.is_empty() || !value.chars().all(|c| matches!(c, 'b' | 'B' | 'w' | 'W')) {
                return Err(invalid(format!(
                    "field {key}=: {} is not a stack (B and W from bottom to top)",
                    pytext::repr(value)
                )));
            }
            let pieces = value.to_ascii_uppercase();
            if pieces.len() > rules.max_height as usize {
                return Err(invalid(format!(
                    "field {key}=: the stack {pieces} is {} high; the rules allow at most {}",
                    pieces.len(),
                    rules.max_height
                )));
            }
            let mut code = 1u64 << pieces.len();
            for (i, letter) in pieces.bytes().enumerate() {
                code |= ((letter == b'W') as u64) << i;
            }
            setup.code[b as usize] = code;
        } else {
            return Err(invalid(format!(
                "unknown field {} in an Abande position",
                pytext::repr(&key)
            )));
        }
    }
    let turn = match turn.as_deref() {
        None => return Err(invalid("field turn= is missing".into())),
        Some("b") => 0,
        Some("w") => 1,
        Some(other) => {
            return Err(invalid(format!(
                "field turn= must be b or w, not {}",
                pytext::repr(other)
            )))
        }
    };
    let mut on_board = [0u32; 2];
    for &code in &setup.code {
        for i in 0..super::board::height(code) {
            on_board[(code >> i & 1) as usize] += 1;
        }
    }
    let owned_hands: [i64; 2] = match hands {
        Some(value) => match parse_hands(&value) {
            Some([b, w]) => [b as i64, w as i64],
            None => {
                return Err(invalid(format!(
                    "field hands= must look like b18,w18, not {}",
                    pytext::repr(&value)
                )))
            }
        },
        None => [
            PIECES as i64 - on_board[0] as i64,
            PIECES as i64 - on_board[1] as i64,
        ],
    };
    for color in 0..2 {
        let in_hand = owned_hands[color].max(0);
        let owned = on_board[color] as i64 + in_hand;
        if owned != PIECES as i64 {
            let relation = if owned > PIECES as i64 {
                "more"
            } else {
                "fewer"
            };
            return Err(invalid(format!(
                "field hands=: {} would own {owned} pieces ({} on the board, {in_hand} in \
                 hand), {relation} than the {PIECES} each player owns",
                NAMES[color], on_board[color]
            )));
        }
    }
    // Each hand is now 0 to 18.
    setup.hands = [owned_hands[0] as u8, owned_hands[1] as u8];
    setup.turn = turn;
    if let Some(value) = passes {
        setup.passes = match value.as_str() {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            _ => {
                return Err(invalid(format!(
                    "field passes= must be 0, 1 or 2, not {}",
                    pytext::repr(&value)
                )))
            }
        };
        if setup.passes == 1 && setup.hands[1 - turn as usize] > 0 {
            return Err(invalid(format!(
                "field passes=1: {}, who moved last, has pieces in hand and cannot have \
                 passed",
                NAMES[1 - turn as usize]
            )));
        }
        if setup.passes == 2 && setup.hands != [0, 0] {
            return Err(invalid(
                "field passes=2 (the game is over) needs both hands empty".into(),
            ));
        }
    }
    let occupied = setup.occupied();
    if !bits::connected(occupied) {
        let first = occupied.trailing_zeros();
        let reach = bits::region(1 << first, occupied);
        let away = 63 - (occupied & !reach).leading_zeros();
        return Err(invalid(format!(
            "field {}=: the stacks do not form one connected band ({} is cut off from {})",
            bits::name(away),
            bits::name(away),
            bits::name(first)
        )));
    }
    Ok(setup)
}
