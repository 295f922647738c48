//! Python's text conventions, so that native messages and parsers agree with the Python
//! board: `str.split()` / `str.strip()` whitespace, `str.lower()` and `repr(str)`.

/// Whether `c` is whitespace for Python's `str.isspace()` and regular expressions' `\s`:
/// Rust's `char::is_whitespace` plus the ASCII separators U+001C to U+001F.
#[inline]
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The words of `text` as Python's `text.split()` gives them.
pub(crate) fn split_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(is_space).filter(|w| !w.is_empty())
}

/// `text.strip()`.
pub(crate) fn strip(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// `text.partition(sep)`: the part before the first `sep`, whether there was one, and
/// the rest.
pub(crate) fn partition(text: &str, sep: char) -> (&str, bool, &str) {
    match text.split_once(sep) {
        Some((a, b)) => (a, true, b),
        None => (text, false, ""),
    }
}

/// Whether Python's `str.isprintable()` holds for `c` (so `repr` shows it as is).
///
/// Exact for ASCII and Latin-1; beyond, the separators, format characters, private use
/// areas and noncharacters that Python escapes (an approximation of its Unicode tables
/// that covers the characters seen in practice).
fn is_printable(c: char) -> bool {
    let u = c as u32;
    if u < 0x20 || (0x7f..=0xa0).contains(&u) || u == 0xad {
        return false;
    }
    if u < 0x100 {
        return true;
    }
    !matches!(u,
        0x0600..=0x0605 | 0x061c | 0x06dd | 0x070f | 0x0890..=0x0891 | 0x08e2 | 0x1680
        | 0x180e | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064 | 0x2065..=0x206f
        | 0x3000 | 0xd800..=0xf8ff | 0xfdd0..=0xfdef | 0xfeff | 0xfff0..=0xfffb
        | 0xfffe..=0xffff | 0x110bd | 0x110cd | 0x13430..=0x1343f | 0x1bca0..=0x1bca3
        | 0x1d173..=0x1d17a | 0xe0000..=0xe0fff | 0xf0000..=0x10ffff)
        && (u & 0xfffe) != 0xfffe
}

/// Python's `repr(text)` of a `str`: quoted, with backslash escapes.
pub(crate) fn repr(text: &str) -> String {
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
            c if !is_printable(c) => {
                let u = c as u32;
                if u < 0x100 {
                    out.push_str(&format!("\\x{u:02x}"));
                } else if u < 0x10000 {
                    out.push_str(&format!("\\u{u:04x}"));
                } else {
                    out.push_str(&format!("\\U{u:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// A whole number of at most `max_digits` ASCII digits with an optional minus sign, as
/// the regular expression `-?[0-9]{1,max_digits}` matches it in full.
pub(crate) fn whole_number(text: &str, max_digits: usize, sign: bool) -> Option<i64> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repr_is_pythons() {
        assert_eq!(repr("abc"), "'abc'");
        assert_eq!(repr("it's"), "\"it's\"");
        assert_eq!(repr("'\""), "'\\'\"'");
        assert_eq!(repr("a\tb\n\\\u{0}\u{7f}é"), "'a\\tb\\n\\\\\\x00\\x7fé'");
        assert_eq!(repr("\u{2028}x\u{feff}"), "'\\u2028x\\ufeff'");
    }

    #[test]
    fn words_split_as_python() {
        let words: Vec<&str> = split_words(" a\u{1c}b\u{a0}c\t").collect();
        assert_eq!(words, ["a", "b", "c"]);
        assert_eq!(strip("\u{3000} x \u{1f}"), "x");
        assert_eq!(partition("a=b=c", '='), ("a", true, "b=c"));
        assert_eq!(partition("abc", '='), ("abc", false, ""));
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(whole_number("-12", 9, true), Some(-12));
        assert_eq!(whole_number("007", 9, true), Some(7));
        assert_eq!(whole_number("-", 9, true), None);
        assert_eq!(whole_number("1234567890", 9, true), None);
        assert_eq!(whole_number("-5", 9, false), None);
        assert_eq!(whole_number("+5", 9, true), None);
        assert_eq!(whole_number("٣", 9, true), None);
    }
}
