//! What core work running without the GIL asks of Python, in one place: whether to stop
//! (Python's signal handlers, polled about every 50 ms on the main thread, where Python
//! delivers signals, so Ctrl-C raises `KeyboardInterrupt`; and a `should_stop`
//! callback), and a search's progress reports to an `on_info` callback, as a dict. The
//! first Python error any of them raises stops the work and is raised by the caller.

use std::cell::RefCell;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use hexgames_core::search::Info;

/// How often the signals (and `should_stop`) are polled.
const POLL_EVERY: Duration = Duration::from_millis(50);

/// [`Hooks::interrupted_sometimes`] reads the clock at one call in this many.
const STRIDE: u32 = 256;

/// Whether this thread is Python's main thread (where signals are delivered); `false`
/// if `threading` cannot tell.
pub(crate) fn on_main_thread(py: Python<'_>) -> bool {
    (|| -> PyResult<bool> {
        let threading = py.import("threading")?;
        let current = threading.call_method0("current_thread")?;
        let main = threading.call_method0("main_thread")?;
        Ok(current.is(&main))
    })()
    .unwrap_or(false)
}

/// The state of a frozen class behind a `Mutex`, also after a panic poisoned it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// What work without the GIL needs from Python: signals (main thread only), a progress
/// callback and a stop callback, with the first error any of them raised.
pub(crate) struct Hooks {
    main: bool,
    last: Instant,
    calls: u32,
    on_info: Option<Py<PyAny>>,
    should_stop: Option<Py<PyAny>>,
    polled: bool,
    error: Option<PyErr>,
}

impl Hooks {
    /// Hooks for work started now on this thread.
    pub(crate) fn new(
        py: Python<'_>,
        on_info: Option<Py<PyAny>>,
        should_stop: Option<Py<PyAny>>,
    ) -> Hooks {
        Hooks {
            main: on_main_thread(py),
            last: Instant::now(),
            calls: 0,
            on_info,
            should_stop,
            polled: false,
            error: None,
        }
    }

    /// Hooks that only poll the signals (perft, playouts).
    pub(crate) fn signals(py: Python<'_>) -> Hooks {
        Hooks::new(py, None, None)
    }

    /// Whether to stop: Ctrl-C, `should_stop` (asked at the first call, then as often
    /// as the signals), or an earlier error.
    pub(crate) fn interrupted(&mut self) -> bool {
        if self.error.is_some() {
            return true;
        }
        let due = self.last.elapsed() >= POLL_EVERY;
        let first = !self.polled && self.should_stop.is_some();
        if !due && !first {
            return false;
        }
        self.polled = true;
        if due {
            self.last = Instant::now();
        }
        let signals = self.main && due;
        let should_stop = self.should_stop.as_ref();
        if !signals && should_stop.is_none() {
            return false;
        }
        let outcome = Python::attach(|py| -> PyResult<bool> {
            if signals {
                py.check_signals()?;
            }
            match should_stop {
                Some(f) => f.call0(py)?.bind(py).is_truthy(),
                None => Ok(false),
            }
        });
        match outcome {
            Ok(stop) => stop,
            Err(e) => {
                self.error = Some(e);
                true
            }
        }
    }

    /// [`Hooks::interrupted`] at one call in 256 (else only an earlier error stops),
    /// for a loop whose steps are too short to read the clock at each (perft).
    #[inline]
    pub(crate) fn interrupted_sometimes(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if self.calls % STRIDE != 0 {
            return self.error.is_some();
        }
        self.interrupted()
    }

    /// Report `info` to `on_info` (as [`info_dict`]), unless an error came first.
    pub(crate) fn info(&mut self, info: &Info) {
        if self.error.is_some() {
            return;
        }
        let Some(f) = self.on_info.as_ref() else {
            return;
        };
        let outcome = Python::attach(|py| -> PyResult<()> {
            let d = info_dict(py, info)?;
            f.call1(py, (d,))?;
            Ok(())
        });
        if let Err(e) = outcome {
            self.error = Some(e);
        }
    }

    /// Run a core search with these hooks as its two callbacks (`on_info`, and the poll
    /// that says whether to stop), and hand them back with the search's result.
    pub(crate) fn run<R>(
        self,
        search: impl FnOnce(&mut dyn FnMut(&Info), &mut dyn FnMut() -> bool) -> R,
    ) -> (R, Hooks) {
        let hooks = RefCell::new(self);
        let result = search(&mut |info| hooks.borrow_mut().info(info), &mut || {
            hooks.borrow_mut().interrupted()
        });
        (result, hooks.into_inner())
    }

    /// `value`, or the first error a hook raised.
    pub(crate) fn result<T>(self, value: T) -> PyResult<T> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }
}

/// An `Info` as a dict: depth, seldepth, eval, score, mate, pv (move texts), nodes,
/// nps, time.
pub(crate) fn info_dict<'py>(py: Python<'py>, info: &Info) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("depth", info.depth)?;
    d.set_item("seldepth", info.seldepth)?;
    d.set_item("eval", info.eval)?;
    d.set_item("score", info.score)?;
    d.set_item("mate", info.mate)?;
    d.set_item("pv", PyList::new(py, &info.pv)?)?;
    d.set_item("nodes", info.nodes)?;
    d.set_item("nps", info.nps())?;
    d.set_item("time", info.time)?;
    if !info.lines.is_empty() {
        let lines = PyList::empty(py);
        for line in &info.lines {
            lines.append(info_dict(py, line)?)?;
        }
        d.set_item("lines", lines)?;
    }
    Ok(d)
}
