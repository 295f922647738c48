//! `Prover`, the proof-number search (`hexgames_core::proof`) as a Python class: one
//! table for both games, kept between searches, and the strategies it proves.
//!
//! Frozen with the core prover behind a `Mutex` and its stop flag outside, so `stop()`
//! works from another thread while a search runs. Searches release the GIL and poll
//! Python's signals (Ctrl-C raises `KeyboardInterrupt`) and a `should_stop` callback.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use hexgames_core::proof::{table, Goal, ProofLimits, Prover as CoreProver, Verdict};
use hexgames_core::{abande, andantino, Error};

use crate::abande::AbandeState;
use crate::andantino::AndantinoState;
use crate::args::{board_of, callback, invalid as bad, repr, whole};
use crate::errors::to_py;
use crate::hooks::{lock, Hooks};
use crate::players::{flag, node_limit, time_limit};

/// A board of either game (one lives for a call: the sizes do not matter).
#[allow(clippy::large_enum_variant)]
enum AnyBoard {
    Andantino(andantino::Board),
    Abande(abande::Board),
}

fn any_board(py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<AnyBoard> {
    if let Some(b) = board_of::<AndantinoState>(state)? {
        return Ok(AnyBoard::Andantino(b));
    }
    if let Some(b) = board_of::<AbandeState>(state)? {
        return Ok(AnyBoard::Abande(b));
    }
    Err(bad(
        py,
        format!(
            "the prover takes an AndantinoState or an AbandeState, not {}",
            repr(state)
        ),
    ))
}

/// The goal and limits of a call, from its arguments.
fn goal_and_limits(
    py: Python<'_>,
    attacker: &Bound<'_, PyAny>,
    draw_ok: &Bound<'_, PyAny>,
    time: Option<&Bound<'_, PyAny>>,
    max_nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Goal, ProofLimits)> {
    let attacker = whole(py, attacker, "attacker", 0, 1)? as u8;
    let draw_ok = flag(py, draw_ok, "draw_ok")?;
    let time = time_limit(py, time)?;
    let nodes = node_limit(py, max_nodes, "max_nodes")?;
    Ok((Goal { attacker, draw_ok }, ProofLimits { time, nodes }))
}

/// Depth-first proof-number search (df-pn) over both games, with a transposition table
/// of a fixed size kept between searches (`hexgames_core::proof`).
///
/// `stop()` stops every search called before it (each call takes a number as it
/// begins, with the GIL held, and `stop()` marks the numbers given so far): a stop that
/// comes while a call waits for the prover or is about to start its search is kept, and
/// a stop with no search running does not end the next one.
#[pyclass(module = "hexgames._native", name = "Prover", frozen)]
pub struct Prover {
    inner: Mutex<CoreProver>,
    /// The number of calls begun.
    begun: AtomicU64,
    /// The calls numbered up to this one are to stop (0: none).
    stop_upto: AtomicU64,
    table_bytes: usize,
}

#[pymethods]
impl Prover {
    /// A prover with a table of `table_mb` megabytes (1 to 65536; default 64); with
    /// `threat_space` false, without the threat-space search (VCF) at the attacker's
    /// nodes (the plain df-pn, for comparison); with `replies` false, a node's children
    /// are tested by trying each of their moves rather than from what the node's look at
    /// the position found (the same search, slower: for speed comparisons).
    ///
    /// Raises HexgamesError (a ValueError) for a bad size or one the machine cannot
    /// allocate, or a `threat_space` or `replies` that is not a bool.
    #[new]
    #[pyo3(signature = (table_mb=None, threat_space=None, *, replies=None))]
    fn new(
        py: Python<'_>,
        table_mb: Option<&Bound<'_, PyAny>>,
        threat_space: Option<&Bound<'_, PyAny>>,
        replies: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Prover> {
        let mb = match table_mb.filter(|v| !v.is_none()) {
            None => 64,
            Some(v) => whole(py, v, "table_mb", 1, table::MAX_MB)?,
        };
        let threat_space = match threat_space {
            None => true,
            Some(v) => flag(py, v, "threat_space")?,
        };
        let replies = match replies {
            None => true,
            Some(v) => flag(py, v, "replies")?,
        };
        let mut inner = py
            .detach(|| CoreProver::new(mb))
            .map_err(|e| to_py(py, e))?;
        inner.set_threat_space(threat_space);
        inner.set_replies(replies);
        let table_bytes = inner.table().bytes();
        Ok(Prover {
            inner: Mutex::new(inner),
            begun: AtomicU64::new(0),
            stop_upto: AtomicU64::new(0),
            table_bytes,
        })
    }

    /// The table's size in bytes.
    #[getter]
    fn table_bytes(&self) -> usize {
        self.table_bytes
    }

    /// Search whether `attacker` (0 the first player, 1 the second) wins from `state`
    /// (or, with `draw_ok`, does not lose), for at most `time` seconds and about
    /// `max_nodes` node visits (with neither, until settled or `stop()`), releasing the
    /// GIL; `should_stop()` is called about every 50 ms.
    ///
    /// Returns a dict: `verdict` ("proven", "disproven" or "unknown"), `nodes`, `time`
    /// (seconds), `pn` and `dn` (the root's proof and disproof numbers), `table_fill`
    /// (0 to 1) and `threat_proofs` (nodes the threat-space search proved).
    ///
    /// Raises HexgamesError (a ValueError) for another kind of state, a finished game
    /// or a bad argument; KeyboardInterrupt on Ctrl-C; whatever `should_stop` raises.
    #[pyo3(signature = (state, attacker, draw_ok, time=None, max_nodes=None, should_stop=None))]
    #[allow(clippy::too_many_arguments)]
    fn prove<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        attacker: &Bound<'py, PyAny>,
        draw_ok: &Bound<'py, PyAny>,
        time: Option<&Bound<'py, PyAny>>,
        max_nodes: Option<&Bound<'py, PyAny>>,
        should_stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let args = (attacker, draw_ok, time, max_nodes, should_stop);
        let report = self.run(
            py,
            state,
            args,
            |prover, board, goal, limits, poll| match board {
                AnyBoard::Andantino(b) => prover.prove_polled(b, goal, limits, poll),
                AnyBoard::Abande(b) => prover.prove_polled(b, goal, limits, poll),
            },
        )?;
        let d = PyDict::new(py);
        let verdict = match report.verdict {
            Verdict::Proven => "proven",
            Verdict::Disproven => "disproven",
            Verdict::Unknown => "unknown",
        };
        d.set_item("verdict", verdict)?;
        d.set_item("nodes", report.nodes)?;
        d.set_item("time", report.time)?;
        d.set_item("pn", report.pn)?;
        d.set_item("dn", report.dn)?;
        d.set_item("table_fill", report.table_fill)?;
        d.set_item("threat_proofs", report.threat_proofs)?;
        Ok(d)
    }

    /// The attacker's strategy for a goal this prover has just proven from `state`:
    /// `(lines, longest)`, `lines` a list of `(position, move)` texts for every
    /// position of the attacker to move that play can reach (each once), `longest` the
    /// longest line to the end of the game in plies. Each line is checked by play as it
    /// is written; a proof lost from the table is searched again within `time` and
    /// `max_nodes`. Releases the GIL.
    ///
    /// Raises HexgamesError (a ValueError) when the strategy cannot be completed (a
    /// proof not found again, one refuted by play in extended play, a stop), for
    /// another kind of state or a bad argument; KeyboardInterrupt on Ctrl-C.
    #[pyo3(signature = (state, attacker, draw_ok, time=None, max_nodes=None, should_stop=None))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn strategy<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        attacker: &Bound<'py, PyAny>,
        draw_ok: &Bound<'py, PyAny>,
        time: Option<&Bound<'py, PyAny>>,
        max_nodes: Option<&Bound<'py, PyAny>>,
        should_stop: Option<Py<PyAny>>,
    ) -> PyResult<(Bound<'py, PyList>, usize)> {
        let args = (attacker, draw_ok, time, max_nodes, should_stop);
        let (lines, longest) =
            self.run(
                py,
                state,
                args,
                |prover, board, goal, limits, poll| match board {
                    AnyBoard::Andantino(b) => prover.strategy_polled(b, goal, limits, poll),
                    AnyBoard::Abande(b) => prover.strategy_polled(b, goal, limits, poll),
                },
            )?;
        Ok((PyList::new(py, lines)?, longest))
    }

    /// Ask the searches called so far to give up soon (from any thread); a search
    /// called later is not affected.
    fn stop(&self) {
        self.stop_upto
            .fetch_max(self.begun.load(Ordering::SeqCst), Ordering::SeqCst);
    }

    /// Forget every position the table holds.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| lock(&self.inner).clear());
    }
}

/// The arguments of a search after the state: attacker, draw_ok, time, max_nodes and
/// should_stop.
type SearchArgs<'a, 'py> = (
    &'a Bound<'py, PyAny>,
    &'a Bound<'py, PyAny>,
    Option<&'a Bound<'py, PyAny>>,
    Option<&'a Bound<'py, PyAny>>,
    Option<Py<PyAny>>,
);

impl Prover {
    /// Read a search's arguments and run `work` on the core prover without the GIL,
    /// polling `stop()`, Python's signals and `should_stop`.
    fn run<R: Send>(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        (attacker, draw_ok, time, max_nodes, should_stop): SearchArgs<'_, '_>,
        work: impl FnOnce(
                &mut CoreProver,
                &AnyBoard,
                Goal,
                ProofLimits,
                &mut dyn FnMut() -> bool,
            ) -> Result<R, Error>
            + Send,
    ) -> PyResult<R> {
        let board = any_board(py, state)?;
        let (goal, limits) = goal_and_limits(py, attacker, draw_ok, time, max_nodes)?;
        let hooks = Hooks::new(py, None, callback(py, should_stop, "should_stop")?);
        let number = self.begun.fetch_add(1, Ordering::SeqCst) + 1;
        let (found, hooks) = py.detach(|| {
            let mut guard = lock(&self.inner);
            hooks.run(|_, poll| {
                let mut poll = || self.stop_upto.load(Ordering::SeqCst) >= number || poll();
                work(&mut guard, &board, goal, limits, &mut poll)
            })
        });
        hooks.result(found)?.map_err(|e| to_py(py, e))
    }
}
