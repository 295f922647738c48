//! The few string rules of Python that the games' parsers and messages depend on, so
//! that the native core accepts exactly the text the Python boards accept and words its
//! errors the same way: `str.isspace` / `split()` / `strip()` / `partition()`,
//! `str.lower()`, and `repr()` of a string. Numbers are ASCII digits only (issue 14):
//! the Python parsers match `[0-9]`, never `\d`.
//!
//! The Unicode tables come from Python 3.11's `unicodedata` (Unicode 14.0), written by
//! `native/core/tools/gen_pytext_tables.py`.

#[rustfmt::skip]
mod tables;

use std::fmt::Write as _;

/// Whether `c` is whitespace to Python's `str.isspace()` (and so to `split()`, `strip()`
/// and `\s` of a `str` pattern): Unicode White_Space plus the four information
/// separators U+001C to U+001F.
#[inline]
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `text.split()`: the words between runs of whitespace, none empty.
pub fn split(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_space).filter(|w| !w.is_empty())
}

/// `text.strip()`: `text` without leading and trailing whitespace.
pub fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `text.partition(sep)`: the part before the first `sep`, whether there was one, and
/// the rest.
pub fn partition(text: &str, sep: char) -> (&str, bool, &str) {
    match text.split_once(sep) {
        Some((a, b)) => (a, true, b),
        None => (text, false, ""),
    }
}

/// A whole number of at most `max_digits` ASCII digits with, when `sign`, an optional
/// minus sign, as the regular expression `-?[0-9]{1,max_digits}` matches it in full.
pub fn whole_number(text: &str, max_digits: usize, sign: bool) -> Option<i64> {
    let digits = if sign {
        text.strip_prefix('-').unwrap_or(text)
    } else {
        text
    };
    if digits.is_empty() || digits.len() > max_digits || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let value: i64 = digits.parse().ok()?;
    Some(if digits.len() < text.len() {
        -value
    } else {
        value
    })
}

/// `text.lower()` (full Unicode lower-casing, as Python does it).
pub fn lower(text: &str) -> String {
    if text.is_ascii() {
        text.to_ascii_lowercase()
    } else {
        text.to_lowercase()
    }
}

fn is_printable(c: char) -> bool {
    let code = c as u32;
    if (0x20..0x7F).contains(&code) {
        return true;
    }
    let i = tables::NOT_PRINTABLE.partition_point(|&(first, _)| first <= code);
    match i.checked_sub(1) {
        Some(i) => code > tables::NOT_PRINTABLE[i].1,
        None => true,
    }
}

/// `repr(text)` of a Python `str`: in single quotes, or double quotes when the text holds
/// a single quote and no double quote; backslash escapes for the quote, the backslash,
/// `\t`, `\n`, `\r` and every character `str.isprintable()` refuses.
pub fn repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let code = c as u32;
                // Writing to a String cannot fail.
                let _ = if code < 0x100 {
                    write!(out, "\\x{code:02x}")
                } else if code < 0x10000 {
                    write!(out, "\\u{code:04x}")
                } else {
                    write!(out, "\\U{code:08x}")
                };
            }
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_as_python() {
        assert!(is_space('\u{1c}') && is_space('\u{85}') && is_space('\u{3000}'));
        assert!(!is_space('\u{200b}') && !is_space('x'));
        assert_eq!(
            split(" a\u{1f}b  c\u{a0}").collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        assert_eq!(strip("\u{2028} d4 \t"), "d4");
    }

    #[test]
    fn partition_and_whole_numbers() {
        assert_eq!(partition("a=b=c", '='), ("a", true, "b=c"));
        assert_eq!(partition("abc", '='), ("abc", false, ""));
        assert_eq!(whole_number("-12", 9, true), Some(-12));
        assert_eq!(whole_number("007", 9, true), Some(7));
        assert_eq!(whole_number("-", 9, true), None);
        assert_eq!(whole_number("1234567890", 9, true), None);
        assert_eq!(whole_number("-5", 9, false), None);
        assert_eq!(whole_number("+5", 9, true), None);
        assert_eq!(whole_number("\u{663}", 9, true), None); // ARABIC-INDIC DIGIT THREE
    }

    #[test]
    fn repr_as_python() {
        // The expected texts are Python 3.11's repr() of the same strings.
        assert_eq!(repr("d4"), "'d4'");
        assert_eq!(repr("a'b"), "\"a'b\"");
        assert_eq!(repr("a'\"b"), "'a\\'\"b'");
        assert_eq!(repr("\u{85}\u{200b}\u{e0001}"), "'\\x85\\u200b\\U000e0001'");
        assert_eq!(repr("\\\t\n\r\u{7f}é"), "'\\\\\\t\\n\\r\\x7fé'");
        assert_eq!(repr(""), "''");
    }
}
