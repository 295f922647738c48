//! The long runs both state classes offer, generic over the game: perft and divide
//! (`hexgames_core::perft`) and uniformly random playouts (`hexgames_core::playout`).
//! Each releases the GIL and polls Python's signals ([`Hooks`]), so Ctrl-C stops it with
//! `KeyboardInterrupt`; the game is left as it was found.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use hexgames_core::perft::{divide_until, perft_until};
use hexgames_core::playout::{random_playouts, PlayoutStats, TERMINATIONS};
use hexgames_core::Game;

use crate::hooks::Hooks;

/// The perft of `game` to `depth` (PERFT.md) without the GIL.
///
/// Raises KeyboardInterrupt (or what a signal handler raises) on Ctrl-C.
pub(crate) fn perft<G: Game>(py: Python<'_>, game: &mut G, depth: u32) -> PyResult<u64> {
    let mut hooks = Hooks::signals(py);
    let count = py.detach(|| perft_until(game, depth, &mut || hooks.interrupted_sometimes()));
    hooks.result(count.unwrap_or(0))
}

/// `(notation, perft(depth - 1) after it)` for every legal move of `game`, sorted by
/// notation, without the GIL.
///
/// Raises KeyboardInterrupt (or what a signal handler raises) on Ctrl-C.
pub(crate) fn divide<G: Game>(
    py: Python<'_>,
    game: &mut G,
    depth: u32,
) -> PyResult<Vec<(String, u64)>> {
    let mut hooks = Hooks::signals(py);
    let counts = py.detach(|| divide_until(game, depth, &mut || hooks.interrupted_sometimes()));
    hooks.result(counts.unwrap_or_default())
}

/// The time limit of a batch of playouts: `seconds` if finite, `None` for none or an
/// infinite one (which `count` then bounds).
///
/// Raises ValueError when neither limit is given, or for seconds that are negative,
/// NaN, or infinite without a count (the messages of `hexgames bench`).
pub(crate) fn playout_seconds(count_given: bool, seconds: Option<f64>) -> PyResult<Option<f64>> {
    match seconds {
        None if !count_given => Err(PyValueError::new_err(
            "random_playouts needs count or seconds",
        )),
        None => Ok(None),
        Some(s) if s.is_nan() || s < 0.0 => Err(PyValueError::new_err(format!(
            "seconds must be 0 or more, not {s}"
        ))),
        Some(s) if s.is_infinite() && !count_given => Err(PyValueError::new_err(
            "seconds must be finite unless count limits the run",
        )),
        Some(s) => Ok(s.is_finite().then_some(s)),
    }
}

/// Uniformly random playouts from `game` (`count` of them, or until the first that ends
/// after `seconds`; checked by [`playout_seconds`]) without the GIL, as a dict:
/// `playouts`, `plies`, `seconds`, `wins` (first player, second), `draws`,
/// `terminations` (termination tag -> count, the tags that occurred).
///
/// Raises KeyboardInterrupt (or what a signal handler raises) on Ctrl-C.
pub(crate) fn playouts<'py, G: Game>(
    py: Python<'py>,
    game: &mut G,
    count: Option<u64>,
    seconds: Option<f64>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let mut hooks = Hooks::signals(py);
    let stats = py.detach(|| random_playouts(game, count, seconds, seed, || hooks.interrupted()));
    let stats = hooks.result(stats)?;
    stats_dict(py, &stats)
}

fn stats_dict<'py>(py: Python<'py>, stats: &PlayoutStats) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("playouts", stats.playouts)?;
    out.set_item("plies", stats.plies)?;
    out.set_item("seconds", stats.seconds)?;
    out.set_item("wins", PyTuple::new(py, stats.wins)?)?;
    out.set_item("draws", stats.draws)?;
    let terminations = PyDict::new(py);
    for (t, &n) in TERMINATIONS.iter().zip(stats.terminations.iter()) {
        if n > 0 {
            terminations.set_item(t.tag(), n)?;
        }
    }
    out.set_item("terminations", terminations)?;
    Ok(out)
}
