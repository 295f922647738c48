//! Position strings (docs/notation.md, "Andantino positions"): the unchecked set-up they
//! describe, read with the validation and messages of `hexgames.andantino._parse_position`.

use std::collections::HashSet;

use super::cell::{Cell, COORDINATE_LIMIT};
use super::rules::{Rules, MAX_TILES_PER_PLAYER};
use crate::error::{Error, Result};
use crate::game::Color;
use crate::pytext::{partition, repr, split as split_words, whole_number};

/// What a position string says, checked field by field but not yet as a position (the
/// board checks that a legal move exists).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The tiles of White and of Red, in the order given.
    pub tiles: [Vec<Cell>; 2],
    /// The side to move.
    pub turn: Color,
    /// Tiles in each hand; `None` when the supply is unlimited.
    pub hands: [Option<u32>; 2],
    /// Whether Red has used its balance-variant right.
    pub single_used: bool,
    /// Relocations played so far (extended play).
    pub relocations: u32,
}

fn invalid(message: String) -> Error {
    Error::InvalidPosition(message)
}

const FIELDS: [&str; 6] = ["w", "r", "turn", "hands", "single", "relocations"];

/// The standard start under `rules`: `andantino w=0,0 r=1,0 turn=w` with the hands the
/// tile supply leaves (none written when it is unlimited).
pub(crate) fn starting_position(rules: &Rules) -> String {
    match rules.tiles_per_player {
        None => "andantino w=0,0 r=1,0 turn=w".to_string(),
        Some(n) => format!("andantino w=0,0 r=1,0 turn=w hands=w{},r{}", n - 1, n - 1),
    }
}

fn parse_cells(name: &str, value: &str) -> Result<Vec<Cell>> {
    if value == "-" {
        return Ok(Vec::new());
    }
    let mut cells = Vec::new();
    for part in value.split(';') {
        let (q, sep, r) = partition(part, ',');
        let (Some(q), true, Some(r)) = (whole_number(q, 9, true), sep, whole_number(r, 9, true))
        else {
            return Err(invalid(format!(
                "field {name}=: {} is not a cell q,r",
                repr(part)
            )));
        };
        let limit = COORDINATE_LIMIT as i64;
        if q.abs().max(r.abs()) > limit {
            return Err(invalid(format!(
                "field {name}=: cell {part} is out of range"
            )));
        }
        cells.push(Cell::raw(q as i32, r as i32));
    }
    let distinct: HashSet<Cell> = cells.iter().copied().collect();
    if distinct.len() != cells.len() {
        return Err(invalid(format!("field {name}= lists a cell twice")));
    }
    Ok(cells)
}

/// Read a position string under `rules`.
///
/// Errors: `Error::InvalidPosition` naming the field at fault: not an Andantino
/// position, a word that is not `key=value`, an unknown or repeated field, a missing
/// `w=`, `r=` or `turn=`, a malformed or out-of-range cell, a cell listed twice or in
/// both colours, fewer than two tiles, hands that exceed the tile supply, or `single=`
/// / `relocations=` without their rules.
pub fn parse_position(text: &str, rules: &Rules) -> Result<Setup> {
    let mut words = split_words(text);
    let name = words.next().unwrap_or("");
    if name.to_lowercase() != "andantino" {
        return Err(invalid(format!(
            "position must start with the game name andantino, not {}",
            repr(name)
        )));
    }
    let mut fields: [Option<String>; 6] = Default::default();
    for word in words {
        let (key, sep, value) = partition(word, '=');
        let key = key.to_lowercase();
        if !sep {
            return Err(invalid(format!("field {} is not key=value", repr(word))));
        }
        let Some(index) = FIELDS.iter().position(|&f| f == key) else {
            return Err(invalid(format!(
                "unknown field {} in an Andantino position",
                repr(&key)
            )));
        };
        if fields[index].is_some() {
            return Err(invalid(format!("field {key}= is given twice")));
        }
        fields[index] = Some(value.to_lowercase());
    }
    for (index, key) in FIELDS.iter().enumerate().take(3) {
        if fields[index].is_none() {
            return Err(invalid(format!("field {key}= is missing")));
        }
    }
    let [w, r, turn, hands, single, relocations] = fields;
    let (w, r, turn) = (
        w.unwrap_or_default(),
        r.unwrap_or_default(),
        turn.unwrap_or_default(),
    );
    let white = parse_cells("w", &w)?;
    let red = parse_cells("r", &r)?;
    let white_set: HashSet<Cell> = white.iter().copied().collect();
    if let Some(both) = red.iter().filter(|c| white_set.contains(c)).min() {
        return Err(invalid(format!("cell {both} is in both w= and r=")));
    }
    if white.len() + red.len() < 2 {
        return Err(invalid(
            "fields w= and r= need at least two tiles on the surface".to_string(),
        ));
    }
    let turn: Color = match turn.as_str() {
        "w" => 0,
        "r" => 1,
        _ => {
            return Err(invalid(format!(
                "field turn= must be w or r, not {}",
                repr(&turn)
            )))
        }
    };
    let supply = rules.tiles_per_player;
    let counts = [white.len() as i64, red.len() as i64];
    let hands: [Option<u32>; 2] = match (supply, hands) {
        (None, Some(_)) => {
            return Err(invalid(
                "field hands= is not used with an unlimited tile supply".to_string(),
            ))
        }
        (None, None) => {
            for (letter, count) in [("w", counts[0]), ("r", counts[1])] {
                if count > i64::from(MAX_TILES_PER_PLAYER) {
                    return Err(invalid(format!(
                        "field {letter}= lists {count} tiles, more than the \
                         {MAX_TILES_PER_PLAYER} a player may place with an unlimited supply"
                    )));
                }
            }
            [None, None]
        }
        (Some(supply), given) => {
            let supply = supply as i64;
            let values = match given {
                Some(text) => parse_hands(&text).ok_or_else(|| {
                    invalid(format!(
                        "field hands= must look like w24,r24, not {}",
                        repr(&text)
                    ))
                })?,
                None => [supply - counts[0], supply - counts[1]],
            };
            for color in 0..2 {
                let owned = counts[color] + values[color];
                if values[color] < 0 || owned > supply {
                    return Err(invalid(format!(
                        "field hands=: {} would own {owned} tiles, more than the {supply} of \
                         the rules",
                        ["White", "Red"][color]
                    )));
                }
            }
            [Some(values[0] as u32), Some(values[1] as u32)]
        }
    };
    let mut single_used = false;
    if let Some(value) = single {
        if !rules.single_adjacency {
            return Err(invalid(
                "field single= needs the balance variant (rules single_adjacency=on)".to_string(),
            ));
        }
        single_used = match value.as_str() {
            "used" => true,
            "unused" => false,
            _ => {
                return Err(invalid(format!(
                    "field single= must be used or unused, not {}",
                    repr(&value)
                )))
            }
        };
    }
    let mut count = 0;
    if let Some(value) = relocations {
        if !rules.extended {
            return Err(invalid(
                "field relocations= needs extended play (extended=on)".to_string(),
            ));
        }
        count = whole_number(&value, 9, false).ok_or_else(|| {
            invalid(format!(
                "field relocations= must be a whole number, not {}",
                repr(&value)
            ))
        })? as u32;
        if count > rules.extended_move_limit {
            // No game gets past its limit: it is drawn when the limit is reached.
            return Err(invalid(format!(
                "field relocations=: {count} is more than the extended_move_limit of {}, at \
                 which the game is drawn",
                rules.extended_move_limit
            )));
        }
    }
    Ok(Setup {
        tiles: [white, red],
        turn,
        hands,
        single_used,
        relocations: count,
    })
}

/// `w<N>,r<N>` with numbers of 1 to 9 digits.
fn parse_hands(text: &str) -> Option<[i64; 2]> {
    let (w, sep, r) = partition(text, ',');
    if !sep {
        return None;
    }
    let w = whole_number(w.strip_prefix('w')?, 9, false)?;
    let r = whole_number(r.strip_prefix('r')?, 9, false)?;
    Some([w, r])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str, rules: Rules) -> String {
        match parse_position(text, &rules) {
            Err(Error::InvalidPosition(m)) => m,
            other => panic!("expected InvalidPosition for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn fields_are_read() {
        let setup = parse_position(
            "  ANDANTINO w=0,0;-1,2 R=1,0 turn=R hands=w5,r24 ",
            &Rules::default(),
        )
        .unwrap();
        assert_eq!(setup.tiles[0], [Cell::raw(0, 0), Cell::raw(-1, 2)]);
        assert_eq!(setup.tiles[1], [Cell::raw(1, 0)]);
        assert_eq!(setup.turn, 1);
        assert_eq!(setup.hands, [Some(5), Some(24)]);
        let unlimited = Rules {
            tiles_per_player: None,
            ..Rules::default()
        };
        let setup = parse_position("andantino w=- r=1,0;2,0 turn=w", &unlimited).unwrap();
        assert_eq!(setup.hands, [None, None]);
        assert!(setup.tiles[0].is_empty());
    }

    #[test]
    fn bad_fields_are_named() {
        let d = Rules::default();
        let cases = [
            (
                "",
                "position must start with the game name andantino, not ''",
            ),
            (
                "abande w=0,0",
                "position must start with the game name andantino, not 'abande'",
            ),
            ("andantino w0,0", "field 'w0,0' is not key=value"),
            (
                "andantino X=1",
                "unknown field 'x' in an Andantino position",
            ),
            ("andantino w=0,0 W=1,0", "field w= is given twice"),
            ("andantino w=0,0 r=1,0", "field turn= is missing"),
            (
                "andantino w=0,0;x r=1,0 turn=w",
                "field w=: 'x' is not a cell q,r",
            ),
            (
                "andantino w=0,0; r=1,0 turn=w",
                "field w=: '' is not a cell q,r",
            ),
            (
                "andantino w=0,0 r=16381,0 turn=w",
                "field r=: cell 16381,0 is out of range",
            ),
            (
                "andantino w=0,0;-0,0 r=1,0 turn=w",
                "field w= lists a cell twice",
            ),
            (
                "andantino w=0,0;5,1;2,2 r=1,0;2,2;5,1 turn=w",
                "cell 2,2 is in both w= and r=",
            ),
            (
                "andantino w=0,0 r=- turn=w",
                "fields w= and r= need at least two tiles on the surface",
            ),
            (
                "andantino w=0,0 r=1,0 turn=x",
                "field turn= must be w or r, not 'x'",
            ),
            (
                "andantino w=0,0 r=1,0 turn=w hands=24,24",
                "field hands= must look like w24,r24, not '24,24'",
            ),
            (
                "andantino w=0,0 r=1,0 turn=w hands=w25,r1",
                "field hands=: White would own 26 tiles, more than the 25 of the rules",
            ),
            (
                "andantino w=0,0 r=1,0 turn=w single=used",
                "field single= needs the balance variant (rules single_adjacency=on)",
            ),
            (
                "andantino w=0,0 r=1,0 turn=w relocations=3",
                "field relocations= needs extended play (extended=on)",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(err(text, d), message, "{text:?}");
        }
        let extended = Rules {
            extended: true,
            single_adjacency: true,
            ..d
        };
        assert_eq!(
            err("andantino w=0,0 r=1,0 turn=w single=maybe", extended),
            "field single= must be used or unused, not 'maybe'"
        );
        assert_eq!(
            err("andantino w=0,0 r=1,0 turn=w relocations=-1", extended),
            "field relocations= must be a whole number, not '-1'"
        );
        assert_eq!(
            err("andantino w=0,0 r=1,0 turn=w relocations=201", extended),
            "field relocations=: 201 is more than the extended_move_limit of 200, at which \
             the game is drawn"
        );
        let setup = parse_position("andantino w=0,0 r=1,0 turn=w relocations=200", &extended);
        assert_eq!(setup.map(|s| s.relocations), Ok(200));
        let unlimited = Rules {
            tiles_per_player: None,
            ..d
        };
        assert_eq!(
            err("andantino w=0,0 r=1,0 turn=w hands=w1,r1", unlimited),
            "field hands= is not used with an unlimited tile supply"
        );
        let three = Rules {
            tiles_per_player: Some(3),
            ..d
        };
        let many: Vec<String> = (0..4).map(|i| format!("{i},0")).collect();
        assert_eq!(
            err(
                &format!("andantino w={} r=0,1 turn=w", many.join(";")),
                three
            ),
            "field hands=: White would own 3 tiles, more than the 3 of the rules"
        );
    }
}
