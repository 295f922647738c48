//! The PyO3 binding of hexgames-core: the extension module `hexgames._native`.
//!
//! Thin and in one place: it converts arguments and results, turns the core's typed
//! errors into the package's `ValueError` subclasses (`hexgames.InvalidPositionError`,
//! ...) and releases the GIL for long calls. Python code reaches it only through
//! `hexgames.native` (the one boundary module), and `_native.pyi` gives its types.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use hexgames_core::Error;

mod abande;
mod andantino;
// Arguments from Python and the texts of objects in messages.
mod args;
mod buffers;
mod encoding;
// Polling Python's signals and callbacks from work without the GIL.
mod hooks;
// Perft, divide and random playouts of both state classes.
mod runs;
mod vector;
// The alpha-beta player.
mod alphabeta;
// Monte Carlo tree search, the Abande endgame solver, greedy.
mod players;
// The proof-number search.
mod proof;

mod errors {
    use super::*;

    static CLASSES: PyOnceLock<[Py<PyType>; 5]> = PyOnceLock::new();

    /// The Python exception for a core error: the package's class of the same name.
    pub fn to_py(py: Python<'_>, error: Error) -> PyErr {
        let classes = CLASSES.get_or_try_init(py, || -> PyResult<[Py<PyType>; 5]> {
            let core = py.import("hexgames.core")?;
            let get = |name: &str| -> PyResult<Py<PyType>> {
                Ok(core.getattr(name)?.cast_into::<PyType>()?.unbind())
            };
            Ok([
                get("InvalidMoveError")?,
                get("IllegalMoveError")?,
                get("InvalidPositionError")?,
                get("InvalidRulesError")?,
                get("HexgamesError")?,
            ])
        });
        let classes = match classes {
            Ok(c) => c,
            Err(e) => return e,
        };
        let index = match &error {
            Error::InvalidMove(_) => 0,
            Error::IllegalMove(_) => 1,
            Error::InvalidPosition(_) => 2,
            Error::InvalidRules(_) => 3,
            Error::InvalidArgument(_) => 4,
        };
        PyErr::from_type(classes[index].bind(py).clone(), error.message().to_string())
    }
}

/// `hexgames._native`: the native core (see `hexgames.native`).
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(splitmix64, m)?)?;
    m.add_class::<abande::AbandeState>()?;
    m.add_class::<andantino::AndantinoState>()?;
    m.add_class::<encoding::AndantinoEncoder>()?;
    m.add_class::<encoding::AbandeEncoder>()?;
    m.add_class::<vector::AndantinoVectorCore>()?;
    m.add_class::<vector::AbandeVectorCore>()?;
    // The alpha-beta player.
    m.add_class::<alphabeta::AlphaBeta>()?;
    // Monte Carlo tree search, the Abande endgame solver, greedy.
    m.add_class::<players::Mcts>()?;
    m.add_class::<players::AbandeSolver>()?;
    m.add_class::<proof::Prover>()?;
    m.add_class::<players::Greedy>()?;
    Ok(())
}

/// SplitMix64's finaliser, as `hexgames.core.splitmix64` (a check of the binding).
///
/// Raises HexgamesError (a ValueError) for an `x` outside 0..2**64.
#[pyfunction]
fn splitmix64(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<u64> {
    let x = args::whole(py, x, "x", 0, u64::MAX)?;
    Ok(hexgames_core::zobrist::splitmix64(x))
}

#[allow(dead_code)]
fn error_to_py(py: Python<'_>, error: Error) -> PyErr {
    errors::to_py(py, error)
}
