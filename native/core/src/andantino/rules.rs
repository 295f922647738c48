//! The rules options of docs/rules.md ("Self-trap", "Andantino options"), read and
//! written as `hexgames.andantino.Rules` reads and writes them.

use crate::error::{Error, Result};
use crate::pytext::{partition, repr, strip, whole_number};

/// What a placement into a pocket the opponent walls off does (docs/rules.md, "Self-trap").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SelfTrap {
    /// The opponent wins at once (the default).
    OpponentWins,
    /// Such cells are not legal moves.
    Illegal,
    /// Nothing happens: the tile stays enclosed and play goes on (as in Ludii).
    Ignore,
}

impl SelfTrap {
    /// The option's value: `opponent_wins`, `illegal` or `ignore`.
    pub fn name(self) -> &'static str {
        match self {
            SelfTrap::OpponentWins => "opponent_wins",
            SelfTrap::Illegal => "illegal",
            SelfTrap::Ignore => "ignore",
        }
    }

    fn from_name(name: &str) -> Option<SelfTrap> {
        [SelfTrap::OpponentWins, SelfTrap::Illegal, SelfTrap::Ignore]
            .into_iter()
            .find(|s| s.name() == name)
    }
}

/// The most tiles a player may own, and the bound of the unlimited supply
/// (`tiles_per_player=None`): `hexgames.limits.MAX_TILES_PER_PLAYER`. It bounds the
/// surface at 1,000 tiles, so no trap test fills more than a ring of 1,000 encloses.
pub const MAX_TILES_PER_PLAYER: u32 = 500;

fn too_many_tiles(n: i64) -> Error {
    Error::InvalidRules(format!(
        "tiles_per_player must be at most {MAX_TILES_PER_PLAYER} (the most tiles hexgames \
         plays with), not {n}"
    ))
}

/// The options of docs/rules.md ("Andantino options"); `Rules::default()` is the
/// standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Néstor Romeral Andrés' balance variant: once per game Red may place a tile that
    /// touches exactly one tile.
    pub single_adjacency: bool,
    /// What a self-trap does.
    pub self_trap: SelfTrap,
    /// Extended play: with an empty hand a move relocates one of your tiles.
    pub extended: bool,
    /// Relocations after which an extended game is drawn (at least 1).
    pub extended_move_limit: u32,
    /// Tiles each side owns, set-up tile included (at least 1, and 2 with extended
    /// play); `None` is the unlimited classic game with no draw.
    pub tiles_per_player: Option<u32>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            single_adjacency: false,
            self_trap: SelfTrap::OpponentWins,
            extended: false,
            extended_move_limit: 200,
            tiles_per_player: Some(25),
        }
    }
}

/// The option names in the order `options()` writes them (Python's `OPTION_KINDS`).
const OPTION_NAMES: [&str; 5] = [
    "single_adjacency",
    "self_trap",
    "extended",
    "extended_move_limit",
    "tiles_per_player",
];

/// How messages name the words [`bool_word`] takes (`hexgames.core.BOOL_TEXT`).
const BOOL_TEXT: &str = "on or off (also yes/no, true/false, 1/0)";

fn bool_word(value: &str) -> Option<bool> {
    match value.to_lowercase().as_str() {
        "on" | "true" | "yes" | "1" => Some(true),
        "off" | "false" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// A number option's value: `-?[0-9]{1,9}` (the messages of `hexgames.core`).
fn whole(key: &str, value: &str) -> Result<i64> {
    if let Some(n) = whole_number(value, 9, true) {
        return Ok(n);
    }
    if long_digits(value) {
        return Err(Error::InvalidRules(format!(
            "option {key} is too large: {value} (at most 9 digits)"
        )));
    }
    Err(Error::InvalidRules(format!(
        "option {key} takes a whole number, not {}",
        repr(value)
    )))
}

/// `-?[0-9]+` for numbers too long to parse as an `i64`.
fn long_digits(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

impl Rules {
    /// Rules from `key=value` words, as in a record's `Rules` tag or `--rules`
    /// (`hexgames.andantino.Rules.from_options`): keys are case-insensitive, booleans
    /// take on/off, true/false, yes/no, 1/0, numbers have at most 9 digits, and
    /// `tiles_per_player` also takes `none` or `unlimited`.
    ///
    /// Errors: `Error::InvalidRules` naming a word that is not `key=value`, an unknown or
    /// repeated option, or a bad value, with the Python messages.
    pub fn from_options(words: &[&str]) -> Result<Rules> {
        let mut rules = Rules::default();
        let mut seen = [false; 5];
        let mut self_trap: Option<String> = None;
        let mut limit: i64 = 200;
        let mut tiles: Option<i64> = Some(25);
        for word in words {
            let (key, sep, value) = partition(word, '=');
            let key = strip(key).to_lowercase();
            let value = strip(value);
            if !sep || value.is_empty() {
                return Err(Error::InvalidRules(format!(
                    "rules option {} is not key=value",
                    repr(word)
                )));
            }
            let Some(index) = OPTION_NAMES.iter().position(|&n| n == key) else {
                return Err(Error::InvalidRules(format!(
                    "unknown Andantino rules option {} (known: {})",
                    repr(&key),
                    OPTION_NAMES.join(", ")
                )));
            };
            if seen[index] {
                return Err(Error::InvalidRules(format!(
                    "rules option {key} is given twice"
                )));
            }
            seen[index] = true;
            match index {
                0 | 2 => {
                    let flag = bool_word(value).ok_or_else(|| {
                        Error::InvalidRules(format!(
                            "option {key} takes {BOOL_TEXT}, not {}",
                            repr(value)
                        ))
                    })?;
                    if index == 0 {
                        rules.single_adjacency = flag;
                    } else {
                        rules.extended = flag;
                    }
                }
                1 => self_trap = Some(value.to_string()),
                3 => limit = whole(&key, value)?,
                _ => {
                    tiles = match value.to_lowercase().as_str() {
                        "none" | "unlimited" => None,
                        _ => Some(whole(&key, value)?),
                    }
                }
            }
        }
        // The checks of the dataclass's __post_init__, in its order.
        if let Some(text) = self_trap {
            rules.self_trap = SelfTrap::from_name(&text.to_lowercase()).ok_or_else(|| {
                Error::InvalidRules(format!(
                    "self_trap must be one of opponent_wins, illegal, ignore, not {}",
                    repr(&text)
                ))
            })?;
        }
        if limit < 1 {
            return Err(Error::InvalidRules(format!(
                "extended_move_limit must be at least 1, not {limit}"
            )));
        }
        rules.extended_move_limit = limit as u32;
        if let Some(n) = tiles {
            if n < 1 {
                return Err(Error::InvalidRules(format!(
                    "tiles_per_player must be at least 1 or none, not {n}"
                )));
            }
            if n > MAX_TILES_PER_PLAYER as i64 {
                return Err(too_many_tiles(n));
            }
        }
        rules.tiles_per_player = tiles.map(|n| n as u32);
        rules.check()?;
        Ok(rules)
    }

    /// The options that differ from the defaults, as `key=value` words, in the order of
    /// `hexgames.andantino.Rules.options()`.
    pub fn options(&self) -> Vec<String> {
        let default = Rules::default();
        let on = |b: bool| if b { "on" } else { "off" };
        let mut words = Vec::new();
        if self.single_adjacency != default.single_adjacency {
            words.push(format!("single_adjacency={}", on(self.single_adjacency)));
        }
        if self.self_trap != default.self_trap {
            words.push(format!("self_trap={}", self.self_trap.name()));
        }
        if self.extended != default.extended {
            words.push(format!("extended={}", on(self.extended)));
        }
        if self.extended_move_limit != default.extended_move_limit {
            words.push(format!("extended_move_limit={}", self.extended_move_limit));
        }
        if self.tiles_per_player != default.tiles_per_player {
            words.push(match self.tiles_per_player {
                None => "tiles_per_player=none".to_string(),
                Some(n) => format!("tiles_per_player={n}"),
            });
        }
        words
    }

    /// Whether the values are allowed (what the Python dataclass refuses on
    /// construction).
    ///
    /// Errors: `Error::InvalidRules` for a limit below 1, or extended play with one tile
    /// each (no position of such a game has a legal move).
    pub fn check(&self) -> Result<()> {
        if self.extended_move_limit < 1 {
            return Err(Error::InvalidRules(format!(
                "extended_move_limit must be at least 1, not {}",
                self.extended_move_limit
            )));
        }
        if self.tiles_per_player == Some(0) {
            return Err(Error::InvalidRules(
                "tiles_per_player must be at least 1 or none, not 0".to_string(),
            ));
        }
        if let Some(n) = self.tiles_per_player.filter(|&n| n > MAX_TILES_PER_PLAYER) {
            return Err(too_many_tiles(i64::from(n)));
        }
        if self.extended && self.tiles_per_player == Some(1) {
            return Err(Error::InvalidRules(
                "extended play needs tiles_per_player of at least 2: with 1 no tile can be \
                 relocated"
                    .to_string(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(words: &[&str]) -> String {
        match Rules::from_options(words) {
            Err(Error::InvalidRules(m)) => m,
            other => panic!("expected InvalidRules, got {other:?}"),
        }
    }

    #[test]
    fn options_round_trip() {
        let rules = Rules::from_options(&[
            " Single_Adjacency = ON ",
            "self_trap=Illegal",
            "extended=yes",
            "extended_move_limit=007",
            "tiles_per_player=Unlimited",
        ])
        .unwrap();
        assert_eq!(
            rules,
            Rules {
                single_adjacency: true,
                self_trap: SelfTrap::Illegal,
                extended: true,
                extended_move_limit: 7,
                tiles_per_player: None
            }
        );
        assert_eq!(
            rules.options(),
            [
                "single_adjacency=on",
                "self_trap=illegal",
                "extended=on",
                "extended_move_limit=7",
                "tiles_per_player=none"
            ]
        );
        let words = rules.options();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        assert_eq!(Rules::from_options(&words).unwrap(), rules);
        assert!(Rules::default().options().is_empty());
        assert_eq!(Rules::from_options(&[]).unwrap(), Rules::default());
    }

    #[test]
    fn bad_options_are_named() {
        assert_eq!(
            err(&["single_adjacency"]),
            "rules option 'single_adjacency' is not key=value"
        );
        assert_eq!(
            err(&["extended= "]),
            "rules option 'extended= ' is not key=value"
        );
        assert_eq!(
            err(&["colour=red"]),
            "unknown Andantino rules option 'colour' (known: single_adjacency, self_trap, \
             extended, extended_move_limit, tiles_per_player)"
        );
        assert_eq!(
            err(&["extended=on", "EXTENDED=off"]),
            "rules option extended is given twice"
        );
        assert_eq!(
            err(&["extended=maybe"]),
            "option extended takes on or off (also yes/no, true/false, 1/0), not 'maybe'"
        );
        assert_eq!(
            err(&["extended_move_limit=1234567890"]),
            "option extended_move_limit is too large: 1234567890 (at most 9 digits)"
        );
        assert_eq!(
            err(&["extended_move_limit=99999999999999999999999"]),
            "option extended_move_limit is too large: 99999999999999999999999 (at most 9 digits)"
        );
        assert_eq!(
            err(&["tiles_per_player=many"]),
            "option tiles_per_player takes a whole number, not 'many'"
        );
        assert_eq!(
            err(&["self_trap=Never"]),
            "self_trap must be one of opponent_wins, illegal, ignore, not 'Never'"
        );
        assert_eq!(
            err(&["extended_move_limit=0"]),
            "extended_move_limit must be at least 1, not 0"
        );
        assert_eq!(
            err(&["tiles_per_player=-3"]),
            "tiles_per_player must be at least 1 or none, not -3"
        );
        assert_eq!(
            err(&["extended=on", "tiles_per_player=1"]),
            "extended play needs tiles_per_player of at least 2: with 1 no tile can be relocated"
        );
        // __post_init__ checks self_trap before the limits.
        assert_eq!(
            err(&["extended_move_limit=0", "self_trap=x"]),
            "self_trap must be one of opponent_wins, illegal, ignore, not 'x'"
        );
    }
}
