//! The long runs both state classes offer, generic over the game: perft and divide
//! (`hexgames_core::perft`) and uniformly random playouts (`hexgames_core::playout`).
//! Each releases the GIL and polls Python's signals ([`Hooks`]), so Ctrl-C stops it with
//! `KeyboardInterrupt`; the game is left as it was found.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyTuple};

use hexgames_core::perft::{divide_until, perft_until};
use hexgames_core::playout::{random_playouts, PlayoutStats, TERMINATIONS};
use hexgames_core::Game;

use crate::args::{int_arg, invalid, repr};
use crate::hooks::Hooks;

/// The most seconds a batch of playouts is given: `hexgames.limits.MAX_SEARCH_SECONDS`
/// (a day), as `hexgames bench --seconds`.
pub(crate) const MAX_PLAYOUT_SECONDS: f64 = 86_400.0;

/// The perft of `game` to `depth` (docs/perft.md) without the GIL.
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

/// The limits of a batch of playouts: `count` (a whole number, 1 or more; beyond 64
/// bits no limit) and `seconds` (a number, 0 or more; `None` when it is infinite or
/// beyond [`MAX_PLAYOUT_SECONDS`], which only a count may bound).
///
/// Raises HexgamesError when neither is given, for a count below 1, for seconds that
/// are negative or NaN, or infinite or more than a day without a count (the run would
/// go on until interrupted), and for either of the wrong type.
pub(crate) fn playout_limits(
    py: Python<'_>,
    count: Option<&Bound<'_, PyAny>>,
    seconds: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<u64>, Option<f64>)> {
    let count = match count.filter(|c| !c.is_none()) {
        None => None,
        Some(c) => match int_arg(py, c, "count")? {
            Some(n) if n >= 1 => Some(n as u64),
            None if c.gt(0)? => Some(u64::MAX), // more than a u64 counts: no limit
            _ => {
                return Err(invalid(
                    py,
                    format!("count must be at least 1, not {}", repr(c)),
                ))
            }
        },
    };
    let Some(s) = seconds.filter(|s| !s.is_none()) else {
        if count.is_none() {
            return Err(invalid(py, "random_playouts needs count or seconds".into()));
        }
        return Ok((count, None));
    };
    if !(s.is_instance_of::<PyInt>() || s.is_instance_of::<PyFloat>())
        || s.is_instance_of::<PyBool>()
    {
        return Err(invalid(
            py,
            format!("seconds must be a number, not {}", repr(s)),
        ));
    }
    // An int too large for a float is more than a day.
    let value = s.extract::<f64>().unwrap_or(f64::INFINITY);
    if value.is_nan() || value < 0.0 || s.lt(0)? {
        return Err(invalid(
            py,
            format!("seconds must be 0 or more, not {}", repr(s)),
        ));
    }
    if value <= MAX_PLAYOUT_SECONDS {
        return Ok((count, Some(value)));
    }
    if count.is_none() {
        return Err(invalid(
            py,
            format!(
                "seconds must be at most {MAX_PLAYOUT_SECONDS} (a day, \
                 hexgames.limits.MAX_SEARCH_SECONDS) unless count limits the run, not {}",
                repr(s)
            ),
        ));
    }
    Ok((count, None))
}

/// Uniformly random playouts from `game` (`count` of them, or until the first that ends
/// after `seconds`; checked by [`playout_limits`]) without the GIL, as a dict:
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
