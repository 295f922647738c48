//! The rules options of docs/rules.md ("Abande options"), read and written as the Python
//! `abande.Rules.from_options` / `Rules.options()` do (`hexgames.core.RulesBase`).

use crate::error::{Error, Result};
use crate::pytext;

use super::keys::MAX_LEVELS;

/// The options; `Rules::default()` is the standard game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The highest stack a move may make (3 by default: a 3-stack can neither move nor
    /// be captured); from 1 (no stack ever moves) to 36.
    pub max_height: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { max_height: 3 }
    }
}

impl Rules {
    /// Rules with this `max_height`.
    ///
    /// Errors: `Error::InvalidRules` unless it is from 1 to 36 (the message of
    /// `abande.Rules`).
    pub fn new(max_height: i64) -> Result<Rules> {
        if !(1..=MAX_LEVELS as i64).contains(&max_height) {
            return Err(Error::InvalidRules(format!(
                "max_height must be from 1 to {MAX_LEVELS}, not {max_height}"
            )));
        }
        Ok(Rules {
            max_height: max_height as u32,
        })
    }

    /// Rules from `key=value` words, as `abande.Rules.from_options(words)` of a list: each
    /// word is split at its first `=`, the key stripped and lower-cased, the value
    /// stripped; `max_height` takes a whole number of at most 9 digits.
    ///
    /// Errors: `Error::InvalidRules` naming a word that is not `key=value`, an unknown or
    /// repeated option, or a bad value, with the messages of the Python code.
    pub fn from_options(words: &[&str]) -> Result<Rules> {
        let mut max_height: Option<i64> = None;
        for word in words {
            let (key, value) = match word.split_once('=') {
                Some((key, value)) => (pytext::lower(pytext::strip(key)), pytext::strip(value)),
                None => (String::new(), ""),
            };
            if value.is_empty() {
                return Err(Error::InvalidRules(format!(
                    "rules option {} is not key=value",
                    pytext::repr(word)
                )));
            }
            if key != "max_height" {
                return Err(Error::InvalidRules(format!(
                    "unknown Abande rules option {} (known: max_height)",
                    pytext::repr(&key)
                )));
            }
            if max_height.is_some() {
                return Err(Error::InvalidRules(format!(
                    "rules option {key} is given twice"
                )));
            }
            max_height = Some(whole_number(&key, value)?);
        }
        match max_height {
            Some(h) => Rules::new(h),
            None => Ok(Rules::default()),
        }
    }

    /// The options that differ from the defaults, as `key=value` words (what Python's
    /// `rules.options()` writes).
    pub fn options(&self) -> Vec<String> {
        if *self == Rules::default() {
            Vec::new()
        } else {
            vec![format!("max_height={}", self.max_height)]
        }
    }
}

/// A value of an `int` option, as `hexgames.core._option_value`: `-?[0-9]{1,9}`.
fn whole_number(key: &str, value: &str) -> Result<i64> {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let all_digits = !digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit());
    if !all_digits {
        return Err(Error::InvalidRules(format!(
            "option {key} takes a whole number, not {}",
            pytext::repr(value)
        )));
    }
    if digits.len() > 9 {
        return Err(Error::InvalidRules(format!(
            "option {key} is too large: {value} (at most 9 digits)"
        )));
    }
    let magnitude: i64 = digits.bytes().fold(0, |n, c| n * 10 + (c - b'0') as i64);
    Ok(if value.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(words: &[&str]) -> String {
        match Rules::from_options(words) {
            Err(Error::InvalidRules(m)) => m,
            other => panic!("expected InvalidRules, got {other:?}"),
        }
    }

    #[test]
    fn options_as_python() {
        assert_eq!(Rules::from_options(&[]), Ok(Rules::default()));
        assert_eq!(
            Rules::from_options(&["max_height=4"]).unwrap().max_height,
            4
        );
        assert_eq!(
            Rules::from_options(&[" MAX_HEIGHT = 007 "])
                .unwrap()
                .max_height,
            7
        );
        assert_eq!(
            Rules::from_options(&["max_height=36"]).unwrap().options(),
            ["max_height=36"]
        );
        assert!(Rules::default().options().is_empty());
        assert!(Rules::from_options(&["max_height=3"])
            .unwrap()
            .options()
            .is_empty());
    }

    #[test]
    fn bad_options_as_python() {
        // The messages of abande.Rules.from_options for the same words.
        assert_eq!(
            message(&["max_height"]),
            "rules option 'max_height' is not key=value"
        );
        assert_eq!(
            message(&["max_height="]),
            "rules option 'max_height=' is not key=value"
        );
        assert_eq!(
            message(&["height=3"]),
            "unknown Abande rules option 'height' (known: max_height)"
        );
        assert_eq!(
            message(&["=3"]),
            "unknown Abande rules option '' (known: max_height)"
        );
        assert_eq!(
            message(&["max_height=x"]),
            "option max_height takes a whole number, not 'x'"
        );
        assert_eq!(
            message(&["max_height=-"]),
            "option max_height takes a whole number, not '-'"
        );
        assert_eq!(
            message(&["max_height=1234567890"]),
            "option max_height is too large: 1234567890 (at most 9 digits)"
        );
        assert_eq!(
            message(&["max_height=0"]),
            "max_height must be from 1 to 36, not 0"
        );
        assert_eq!(
            message(&["max_height=-0"]),
            "max_height must be from 1 to 36, not 0"
        );
        assert_eq!(
            message(&["max_height=37"]),
            "max_height must be from 1 to 36, not 37"
        );
        assert_eq!(
            message(&["max_height=3", "MAX_HEIGHT=3"]),
            "rules option max_height is given twice"
        );
        // The range is checked after every word, as the dataclass is built last.
        assert_eq!(
            message(&["max_height=0", "x=1"]),
            "unknown Abande rules option 'x' (known: max_height)"
        );
    }
}
