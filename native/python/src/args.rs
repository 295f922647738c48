//! Arguments from Python as every class of the binding takes them: the text of a `str`,
//! rules options, a position string, a seed, the core board of a state argument, whole
//! numbers, indices, colours, depths and seconds; and the texts of Python objects in
//! error messages (`type(obj).__name__`, `repr(obj)`, shortened).
//!
//! A number argument out of its range, of any size, or of the wrong type is refused
//! with the package's `HexgamesError` (a `ValueError`) naming it and its range: never
//! PyO3's `OverflowError` or `TypeError`, nor `IndexError` for an index.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};
use pyo3::PyClass;

use hexgames_core::{pytext, Error, Game};

use crate::abande::AbandeState;
use crate::andantino::AndantinoState;
use crate::errors::to_py;

/// The text of a Python `str` (lone surrogates, which no valid input holds, become
/// U+FFFD), or `None` for any other object.
pub(crate) fn text_of<'a>(obj: &'a Bound<'_, PyAny>) -> Option<Cow<'a, str>> {
    obj.cast::<PyString>().ok().map(|s| s.to_string_lossy())
}

/// `type(obj).__name__`, for a message.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "object".into())
}

/// The longest text of an object a message quotes whole.
const MAX_QUOTED: usize = 60;

/// `repr(obj)` for a message, or `<?>` if even that raises; a long one (a 400-digit
/// int) is cut to its start and its length.
pub(crate) fn repr(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "<?>".into());
    let count = text.chars().count();
    if count <= MAX_QUOTED {
        return text;
    }
    let start: String = text.chars().take(24).collect();
    format!("{start}... ({count} characters)")
}

/// A bad argument: the package's `HexgamesError` (a `ValueError`) with `message`.
pub(crate) fn invalid(py: Python<'_>, message: String) -> PyErr {
    to_py(py, Error::InvalidArgument(message))
}

/// A callback argument named `name`: `None` for none; refused (HexgamesError, a
/// ValueError, naming it) when it is not callable, before any search begins.
pub(crate) fn callback(
    py: Python<'_>,
    value: Option<Py<PyAny>>,
    name: &str,
) -> PyResult<Option<Py<PyAny>>> {
    match value.filter(|f| !f.is_none(py)) {
        Some(f) if !f.bind(py).is_callable() => Err(invalid(
            py,
            format!("{name} must be callable, not {}", repr(f.bind(py))),
        )),
        found => Ok(found),
    }
}

/// The rules words of `options`, as `Rules.from_options` (`hexgames.core`) reads them:
/// `None` for none, one `str` split on Python's whitespace (`str.split()`), or an
/// iterable of `str` words.
///
/// Raises InvalidRulesError for anything else, naming it, with the messages of
/// `Rules.from_options`; whatever iterating `options` or `repr` of a word raises.
pub(crate) fn rules_words(
    py: Python<'_>,
    options: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<String>> {
    let Some(options) = options.filter(|o| !o.is_none()) else {
        return Ok(Vec::new());
    };
    if let Some(text) = text_of(options) {
        return Ok(pytext::split(&text).map(str::to_owned).collect());
    }
    let items = options.try_iter().map_err(|_| {
        to_py(
            py,
            Error::InvalidRules(format!(
                "rules options are key=value words, not {}",
                type_name(options)
            )),
        )
    })?;
    let mut words = Vec::new();
    for item in items {
        let item = item?;
        match text_of(&item) {
            Some(word) => words.push(word.into_owned()),
            None => {
                return Err(to_py(
                    py,
                    Error::InvalidRules(format!(
                        "rules option {} is not text",
                        item.repr()?.to_string_lossy()
                    )),
                ))
            }
        }
    }
    Ok(words)
}

/// The rules of `options` (see [`rules_words`]) under `from_options`, a game's
/// `Rules::from_options`.
///
/// Raises InvalidRulesError for bad options (the core's message).
pub(crate) fn rules_of<R>(
    py: Python<'_>,
    options: Option<&Bound<'_, PyAny>>,
    from_options: fn(&[&str]) -> hexgames_core::error::Result<R>,
) -> PyResult<R> {
    let words = rules_words(py, options)?;
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    from_options(&words).map_err(|e| to_py(py, e))
}

/// A position argument: `None` (the start) or a position string.
///
/// Raises InvalidPositionError for any other object.
pub(crate) fn position_text<'a>(
    py: Python<'_>,
    position: Option<&'a Bound<'_, PyAny>>,
) -> PyResult<Option<Cow<'a, str>>> {
    match position.filter(|p| !p.is_none()) {
        None => Ok(None),
        Some(p) => match text_of(p) {
            Some(text) => Ok(Some(text)),
            None => Err(to_py(
                py,
                Error::InvalidPosition(format!("a position string is text, not {}", type_name(p))),
            )),
        },
    }
}

/// A seed of at most 64 bits: a whole number from 0 to 2**64 - 1, or a negative one
/// from -2**63 taken modulo 2**64; `None` for anything else (the caller words the error).
pub(crate) fn seed_bits(seed: &Bound<'_, PyAny>) -> Option<u64> {
    seed.extract::<u64>()
        .ok()
        .or_else(|| seed.extract::<i64>().ok().map(|s| s as u64))
}

/// A whole-number argument named `what`: a Python int or an object with `__index__`
/// (a NumPy integer), not a bool; `None` for an int beyond 64 bits (outside any range
/// the binding takes, its sign given by the caller's own test).
///
/// Raises HexgamesError saying `what` must be a whole number, for anything else.
pub(crate) fn int_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<i64>> {
    if !obj.is_instance_of::<PyBool>() {
        match obj.extract::<i64>() {
            Ok(v) => return Ok(Some(v)),
            Err(_) if obj.is_instance_of::<PyInt>() => return Ok(None),
            Err(_) => {}
        }
    }
    Err(invalid(
        py,
        format!("{what} must be a whole number, not {}", repr(obj)),
    ))
}

/// An index into `0..len` named `what` (see [`int_arg`]).
///
/// Raises HexgamesError naming `what` and the range for any other value.
pub(crate) fn index_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    len: usize,
) -> PyResult<usize> {
    let value = int_arg(py, obj, what)?;
    if let Some(i) = value
        .and_then(|v| usize::try_from(v).ok())
        .filter(|&i| i < len)
    {
        return Ok(i);
    }
    Err(invalid(
        py,
        match len {
            0 => format!("{what} {} is out of range: there is none", repr(obj)),
            n => format!("{what} {} is outside 0..{}", repr(obj), n - 1),
        },
    ))
}

/// Play the `index`-th of `board`'s legal moves (see [`index_arg`]).
///
/// Raises HexgamesError for an index out of range (the board is unchanged).
pub(crate) fn push_index<G: Game>(
    py: Python<'_>,
    board: &mut G,
    index: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let i = index_arg(py, index, "move index", moves.len())?;
    board.push(moves[i]);
    Ok(())
}

/// A colour argument: 0 or 1 (see [`int_arg`]); `names` are the two colours' names.
///
/// Raises HexgamesError for any other value.
pub(crate) fn color_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, names: [&str; 2]) -> PyResult<u8> {
    match int_arg(py, obj, "color")? {
        Some(c @ (0 | 1)) => Ok(c as u8),
        _ => Err(invalid(
            py,
            format!(
                "color must be 0 ({}) or 1 ({}), not {}",
                names[0],
                names[1],
                repr(obj)
            ),
        )),
    }
}

/// A perft or divide depth (`what`, `perft` or `divide`), `least` or more (see
/// [`int_arg`]); an int beyond 64 bits is `u64::MAX`.
///
/// Raises HexgamesError (`perft depth must be 0 or more, got -1`) for a smaller one.
pub(crate) fn depth_arg(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    least: i64,
) -> PyResult<u64> {
    let depth = int_arg(py, obj, &format!("{what} depth"))?;
    let negative = || obj.lt(0).unwrap_or(false);
    match depth {
        Some(d) if d >= least => Ok(d as u64),
        None if !negative() => Ok(u64::MAX),
        _ => Err(invalid(
            py,
            format!("{what} depth must be {least} or more, got {}", repr(obj)),
        )),
    }
}

/// A number argument named `what`: an int or a float, not a bool; finite (an int too
/// large for a float is not).
///
/// Raises HexgamesError naming `what` for anything else.
pub(crate) fn number_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    if !(obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyFloat>())
        || obj.is_instance_of::<PyBool>()
    {
        return Err(invalid(
            py,
            format!("{what} must be a number, not {}", repr(obj)),
        ));
    }
    match obj.extract::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(invalid(
            py,
            format!("{what} must be a finite number, not {}", repr(obj)),
        )),
    }
}

/// A state class of the binding, over the core board it holds.
pub(crate) trait NativeState: PyClass {
    /// The core board.
    type Board: Game;
    /// The state's board.
    fn board(&self) -> &Self::Board;
}

impl NativeState for AndantinoState {
    type Board = hexgames_core::andantino::Board;
    fn board(&self) -> &Self::Board {
        &self.board
    }
}

impl NativeState for AbandeState {
    type Board = hexgames_core::abande::Board;
    fn board(&self) -> &Self::Board {
        &self.board
    }
}

/// A copy of the board of `state` if it is an `S`, else `None`.
///
/// Raises RuntimeError (PyO3's "Already mutably borrowed") while another thread runs a
/// method that changes `state` (its perft, say), instead of panicking.
pub(crate) fn board_of<S: NativeState>(state: &Bound<'_, PyAny>) -> PyResult<Option<S::Board>> {
    match state.cast::<S>() {
        Ok(s) => Ok(Some(s.try_borrow()?.board().clone())),
        Err(_) => Ok(None),
    }
}

/// A whole number from `lo` to `hi` named `what` (not a bool, not a float).
pub(crate) fn whole(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: u64,
    hi: u64,
) -> PyResult<u64> {
    whole_in(py, obj, what, (lo, hi), &format!("from {lo} to {hi}"))
}

/// A whole number of type `T` from `lo` to `hi` named `what` (not a bool, not a
/// float); anything else, an int out of range included, is refused with a
/// HexgamesError naming it and saying it must be `range` (no TypeError, no
/// OverflowError).
pub(crate) fn whole_in<'py, T>(
    py: Python<'py>,
    obj: &Bound<'py, PyAny>,
    what: &str,
    (lo, hi): (T, T),
    range: &str,
) -> PyResult<T>
where
    T: for<'a> FromPyObject<'a, 'py> + PartialOrd,
{
    if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
        return Err(invalid(
            py,
            format!("{what} must be a whole number, not {}", repr(obj)),
        ));
    }
    match obj.extract::<T>() {
        Ok(v) if lo <= v && v <= hi => Ok(v),
        _ => Err(invalid(
            py,
            format!("{what} must be {range}, not {}", repr(obj)),
        )),
    }
}
