//! Arguments from Python as every class of the binding takes them: the text of a `str`,
//! rules options, a position string, a seed, the core board of a state argument; and the
//! texts of Python objects in error messages (`type(obj).__name__`, `repr(obj)`).

use std::borrow::Cow;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
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

/// `repr(obj)` for a message, or `<?>` if even that raises.
pub(crate) fn repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "<?>".into())
}

/// A bad argument: the package's `HexgamesError` (a `ValueError`) with `message`.
pub(crate) fn invalid(py: Python<'_>, message: String) -> PyErr {
    to_py(py, Error::InvalidArgument(message))
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

/// The ValueError of a perft or divide depth (`what`) below `least`.
pub(crate) fn depth_below(what: &str, least: i64, depth: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("{what} depth must be {least} or more, got {depth}"))
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
