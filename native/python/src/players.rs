//! The native players without alpha-beta: `Mcts` (Monte Carlo tree search),
//! `AbandeSolver` (the exact Abande solver) and `Greedy`, as Python classes.
//!
//! Each is frozen with its state behind a `Mutex`, and a shared `Stop` flag outside it,
//! so `stop()` works from another thread while a search (or a greedy choice) runs. Searches release the GIL;
//! an `on_info` callback is called by taking the GIL back; Python's signals are polled
//! about every 50 ms on the main thread, so Ctrl-C stops a search and raises
//! `KeyboardInterrupt`. Bad arguments raise the package's `ValueError` subclasses.

use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use hexgames_core::abande::ai::solver::{self, Solve};
use hexgames_core::search::greedy::{Greedy as CoreGreedy, GreedyGame};
use hexgames_core::search::mcts::{self, MctsGame, MctsOptions, MctsResult};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::{abande, andantino, Error, Game};

use crate::abande::AbandeState;
use crate::alphabeta::{weight_list, with_andantino_tables, ANDANTINO_LEARNED, MAX_POINTS};
use crate::andantino::AndantinoState;
use crate::args::{
    board_of, callback, invalid as bad, number_arg, repr, type_name, whole, NativeState,
};
use crate::errors::to_py;
use crate::hooks::{info_dict, lock, Hooks};

pub(crate) fn flag(py: Python<'_>, obj: &Bound<'_, PyAny>, what: &str) -> PyResult<bool> {
    obj.cast::<PyBool>().map(|b| b.is_true()).map_err(|_| {
        bad(
            py,
            format!("{what} must be True or False, not {}", repr(obj)),
        )
    })
}

/// The time limit: `None`, or a finite number of seconds, 0 or more.
pub(crate) fn time_limit(py: Python<'_>, time: Option<&Bound<'_, PyAny>>) -> PyResult<Option<f64>> {
    match time.filter(|t| !t.is_none()) {
        None => Ok(None),
        Some(t) => {
            let v = number_arg(py, t, "time")?;
            if v < 0.0 {
                return Err(bad(py, format!("time must be 0 or more seconds, not {v}")));
            }
            Ok(Some(v))
        }
    }
}

pub(crate) fn node_limit(
    py: Python<'_>,
    nodes: Option<&Bound<'_, PyAny>>,
    what: &str,
) -> PyResult<Option<u64>> {
    nodes
        .filter(|n| !n.is_none())
        .map(|n| whole(py, n, what, 0, u64::MAX))
        .transpose()
}

/// An argument given and not None.
fn given<'a, 'py>(x: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    x.filter(|v| !v.is_none())
}

// --- Mcts ---------------------------------------------------------------------------

enum MctsOf {
    Andantino(mcts::Mcts<andantino::Board>),
    Abande(mcts::Mcts<abande::Board>),
}

/// Monte Carlo tree search for one game (`hexgames_core::search::mcts`): UCT, GRAVE,
/// MCTS-Solver, decisive playouts, the playout cut-off (scored by Abande's score or a
/// learned evaluation) and tree reuse, with the options of the Python `MCTSPlayer`.
#[pyclass(module = "hexgames._native", name = "Mcts", frozen)]
pub struct Mcts {
    game: &'static str,
    inner: Mutex<MctsOf>,
    stop: Stop,
}

#[pymethods]
impl Mcts {
    /// A search for `game` (`"andantino"` or `"abande"`) with the
    /// options of the Python player (see `hexgames.engine.mcts.MCTSPlayer`); `tree_mb` bounds the tree's
    /// memory (a search stops when it is full). `cutoff` is the playouts' cut-off in
    /// plies (default (None) 4; 0: played out), scored by the learned evaluation with
    /// `eval_weights` (the numbers of the game's weights file: Abande's
    /// `LEARNED_TERMS`, Andantino's 11 tables then the tempo and Red's right), else by
    /// Abande's score difference at `cutoff_scale` (Andantino without `eval_weights`
    /// plays out).
    ///
    /// Raises HexgamesError (a ValueError) for an unknown game or a bad option or
    /// weights (named).
    #[new]
    #[pyo3(signature = (game, *, seed=None, rave=None, solver=None, reuse_tree=None,
        exploration=None, decisive=None, grave_ref=None, amaf_start=None, rave_bias=None,
        cutoff=None, cutoff_scale=None, eval_weights=None, tree_mb=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        rave: Option<&Bound<'_, PyAny>>,
        solver: Option<&Bound<'_, PyAny>>,
        reuse_tree: Option<&Bound<'_, PyAny>>,
        exploration: Option<&Bound<'_, PyAny>>,
        decisive: Option<&Bound<'_, PyAny>>,
        grave_ref: Option<&Bound<'_, PyAny>>,
        amaf_start: Option<&Bound<'_, PyAny>>,
        rave_bias: Option<&Bound<'_, PyAny>>,
        cutoff: Option<&Bound<'_, PyAny>>,
        cutoff_scale: Option<&Bound<'_, PyAny>>,
        eval_weights: Option<&Bound<'_, PyAny>>,
        tree_mb: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Mcts> {
        let mut o = MctsOptions::default();
        if let Some(v) = given(seed) {
            o.seed = whole(py, v, "seed", 0, u64::MAX)?;
        }
        if let Some(v) = given(rave) {
            o.rave = flag(py, v, "rave")?;
        }
        if let Some(v) = given(solver) {
            o.solver = flag(py, v, "solver")?;
        }
        if let Some(v) = given(reuse_tree) {
            o.reuse_tree = flag(py, v, "reuse_tree")?;
        }
        if let Some(v) = given(decisive) {
            o.decisive = flag(py, v, "decisive")?;
        }
        if let Some(v) = given(exploration) {
            o.exploration = Some(number_arg(py, v, "exploration")?);
        }
        if let Some(v) = given(grave_ref) {
            o.grave_ref = whole(py, v, "grave_ref", 0, u32::MAX as u64)? as u32;
        }
        if let Some(v) = given(amaf_start) {
            o.amaf_start = whole(py, v, "amaf_start", 0, u32::MAX as u64)? as u32;
        }
        if let Some(v) = given(rave_bias) {
            o.rave_bias = number_arg(py, v, "rave_bias")?;
        }
        if let Some(v) = cutoff {
            // 0 plays out (None, as pyo3 gives it, is the default).
            o.playout_cutoff =
                Some(whole(py, v, "cutoff", 0, u32::MAX as u64)? as u32).filter(|&c| c > 0);
        }
        if let Some(v) = given(cutoff_scale) {
            o.cutoff_scale = number_arg(py, v, "cutoff_scale")?;
        }
        if let Some(v) = given(tree_mb) {
            o.tree_mb = whole(py, v, "tree_mb", 1, mcts::MAX_TREE_MB)?;
        }
        let name: String = game
            .extract()
            .map_err(|_| bad(py, format!("game must be text, not {}", repr(game))))?;
        let (game, inner) = match name.trim().to_lowercase().as_str() {
            "andantino" => {
                let eval = andantino_eval(py, eval_weights)?;
                (
                    "andantino",
                    MctsOf::Andantino(mcts::Mcts::with_eval(o, eval).map_err(|e| to_py(py, e))?),
                )
            }
            "abande" => {
                let limit = i64::from(abande::ai::learned::MAX_LEARNED_WEIGHT);
                let w = weight_list(
                    py,
                    eval_weights,
                    abande::ai::learned::LEARNED_TERMS,
                    (-limit, limit),
                )?;
                let eval = w.map(|w| abande::ai::Weights {
                    learned: Some(std::array::from_fn(|i| w[i])),
                    ..Default::default()
                });
                (
                    "abande",
                    MctsOf::Abande(mcts::Mcts::with_eval(o, eval).map_err(|e| to_py(py, e))?),
                )
            }
            _ => {
                return Err(bad(
                    py,
                    format!("unknown game {name:?} (known: andantino, abande)"),
                ))
            }
        };
        Ok(Mcts {
            game,
            inner: Mutex::new(inner),
            stop: Stop::new(),
        })
    }

    /// The game searched.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// Search `state` (an `AndantinoState` or `AbandeState` of this game; it is not
    /// changed) for at most `time` seconds and `nodes` simulations (with neither, until
    /// `stop()`), releasing the GIL. `on_info(dict)` gets a report about every 100 ms and
    /// the final one. `should_stop()` (the caller's own stop: asked as the search
    /// starts, then about every 50 ms) ends it too when it returns true.
    ///
    /// Returns a dict: `move` (text), `score` (the root win probability for the side to
    /// move), `mate`, `pv` (texts), `depth` (the deepest tree path), `seldepth`, `eval`
    /// (None), `nodes` (simulations), `nps`, `time`, `reused_visits`, `tree_full`.
    ///
    /// Raises HexgamesError (a ValueError) for a state of another game, a finished
    /// game or a bad limit; KeyboardInterrupt on Ctrl-C; whatever `on_info` or
    /// `should_stop` raises.
    #[pyo3(signature = (state, time=None, nodes=None, on_info=None, should_stop=None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        time: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        on_info: Option<Py<PyAny>>,
        should_stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let call = self.stop.begin();
        let limits = Limits {
            time: time_limit(py, time)?,
            nodes: node_limit(py, nodes, "nodes")?,
            ..Limits::default()
        };
        let hooks = Hooks::new(
            py,
            callback(py, on_info, "on_info")?,
            callback(py, should_stop, "should_stop")?,
        );
        let result = if self.game == "andantino" {
            self.run::<AndantinoState>(py, call, state, limits, hooks, |m| match m {
                MctsOf::Andantino(s) => Some(s),
                MctsOf::Abande(_) => None,
            })?
        } else {
            self.run::<AbandeState>(py, call, state, limits, hooks, |m| match m {
                MctsOf::Abande(s) => Some(s),
                MctsOf::Andantino(_) => None,
            })?
        };
        let d = info_dict(py, &result.info)?;
        d.set_item("move", result.best)?;
        d.set_item("reused_visits", result.reused_visits)?;
        d.set_item("tree_full", result.tree_full)?;
        Ok(d)
    }

    /// Ask a running search to stop soon and return its best move so far (from any
    /// thread).
    /// It stops every call begun before it, also one still copying its position or
    /// waiting for this player; a call begun after it is not affected.
    fn stop(&self) {
        self.stop.set();
    }

    /// Drop the kept tree (a new game begins).
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| match &mut *lock(&self.inner) {
            MctsOf::Andantino(m) => m.new_game(),
            MctsOf::Abande(m) => m.new_game(),
        });
    }
}

/// Andantino's learned evaluation from `eval_weights`, the 13 numbers of its weights
/// file: the [`ANDANTINO_LEARNED`] tables (0 to 65536), the tempo and Red's right (0 to
/// [`MAX_POINTS`]).
fn andantino_eval(
    py: Python<'_>,
    eval_weights: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<andantino::ai::Weights>> {
    let Some(w) = weight_list(py, eval_weights, ANDANTINO_LEARNED + 2, (0, 1 << 16))? else {
        return Ok(None);
    };
    let (tempo, right) = (w[ANDANTINO_LEARNED], w[ANDANTINO_LEARNED + 1]);
    if i64::from(tempo.max(right)) > MAX_POINTS {
        return Err(bad(
            py,
            format!(
                "eval_weights: Andantino's tempo and right (the last two) must be 0 to \
                 {MAX_POINTS} points, not {tempo} and {right}"
            ),
        ));
    }
    let base = andantino::ai::Weights {
        tempo,
        right,
        ..Default::default()
    };
    Ok(Some(with_andantino_tables(base, &w[..ANDANTINO_LEARNED])))
}

impl Mcts {
    /// Search the board of `state`, an `S`, with the searcher that `pick` finds, without
    /// the GIL, as call number `call` of its stop: the result with the best move's text.
    fn run<S: NativeState>(
        &self,
        py: Python<'_>,
        call: u64,
        state: &Bound<'_, PyAny>,
        limits: Limits,
        hooks: Hooks,
        pick: fn(&mut MctsOf) -> Option<&mut mcts::Mcts<S::Board>>,
    ) -> PyResult<MctsResult<String>>
    where
        S::Board: MctsGame,
    {
        let board = board_of::<S>(state)?.ok_or_else(|| self.wrong_state(py, state))?;
        let (result, hooks) = py.detach(|| {
            let mut guard = lock(&self.inner);
            self.stop.enter(call);
            match pick(&mut guard) {
                Some(searcher) => hooks.run(|on_info, poll| {
                    searcher.search(&board, &limits, &self.stop, on_info, poll)
                }),
                None => (Err(Error::InvalidArgument("wrong game".into())), hooks),
            }
        });
        let result = result.map_err(|e| to_py(py, e))?;
        let result = hooks.result(result)?;
        Ok(MctsResult {
            best: board.notation(result.best),
            info: result.info,
            reused_visits: result.reused_visits,
            tree_full: result.tree_full,
        })
    }

    fn wrong_state(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyErr {
        bad(
            py,
            format!(
                "this Mcts searches {} positions, not {}",
                self.game,
                type_name(state)
            ),
        )
    }
}

// --- AbandeSolver -------------------------------------------------------------------

/// The exact Abande solver (`hexgames_core::abande::ai::solver`) with its
/// transposition table of a fixed size, kept between solves.
#[pyclass(module = "hexgames._native", name = "AbandeSolver", frozen)]
pub struct AbandeSolver {
    inner: Mutex<solver::Solver>,
    stop: Stop,
}

#[pymethods]
impl AbandeSolver {
    /// A solver with a table of `table_mb` megabytes (1 to 65536).
    ///
    /// Raises HexgamesError (a ValueError) for a bad size or one the machine cannot
    /// allocate.
    #[new]
    #[pyo3(signature = (table_mb=None))]
    fn new(py: Python<'_>, table_mb: Option<&Bound<'_, PyAny>>) -> PyResult<AbandeSolver> {
        let mb = match table_mb.filter(|v| !v.is_none()) {
            None => 64,
            Some(v) => whole(py, v, "table_mb", 1, solver::MAX_TABLE_MB)?,
        };
        let inner = py
            .detach(|| solver::Solver::new(mb))
            .map_err(|e| to_py(py, e))?;
        Ok(AbandeSolver {
            inner: Mutex::new(inner),
            stop: Stop::new(),
        })
    }

    /// Solve `state` (an `AbandeState`, pieces in hand or not; it is not changed): the
    /// exact final score difference, or with `exact_score=False` only the
    /// result. Gives up after about `max_nodes` positions or `time` seconds, on `stop()`,
    /// or when `should_stop()` (called every 1,024 positions) returns true. Releases the
    /// GIL.
    ///
    /// Returns a dict: `solved` (bool) and `nodes`; when solved, `value` (+1, 0, -1 for
    /// the side to move), `move` (text or None), `score` ((Black, White) at the end of
    /// the principal line), `diff` and `pv` (texts).
    ///
    /// Raises HexgamesError (a ValueError) for another state or a bad limit; KeyboardInterrupt on Ctrl-C; whatever `should_stop` raises.
    #[pyo3(signature = (state, exact_score=true, max_nodes=None, time=None, should_stop=None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        exact_score: bool,
        max_nodes: Option<&Bound<'py, PyAny>>,
        time: Option<&Bound<'py, PyAny>>,
        should_stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let call = self.stop.begin();
        let board = match board_of::<AbandeState>(state)? {
            Some(board) => board,
            None => {
                return Err(bad(
                    py,
                    format!(
                        "the endgame solver takes an AbandeState, not {}",
                        repr(state)
                    ),
                ))
            }
        };
        let time = time_limit(py, time)?;
        let max_nodes = node_limit(py, max_nodes, "max_nodes")?;
        let hooks = Hooks::new(py, None, callback(py, should_stop, "should_stop")?);
        let stop = &self.stop;
        let inner = &self.inner;
        let (outcome, hooks) = py.detach(|| {
            let mut hooks = hooks;
            let mut guard = lock(inner);
            stop.enter(call);
            let outcome = guard.solve(&board, exact_score, max_nodes, time, stop, &mut || {
                hooks.interrupted()
            });
            (outcome, hooks)
        });
        let outcome = hooks.result(outcome)?.map_err(|e| to_py(py, e))?;
        let d = PyDict::new(py);
        match outcome {
            Solve::GaveUp { nodes } => {
                d.set_item("solved", false)?;
                d.set_item("nodes", nodes)?;
            }
            Solve::Solved(r) => {
                d.set_item("solved", true)?;
                d.set_item("nodes", r.nodes)?;
                d.set_item("value", r.value)?;
                d.set_item("move", r.best.map(|m| m.notation()))?;
                d.set_item("score", r.score)?;
                d.set_item("diff", r.diff)?;
                let pv: Vec<String> = r.pv.iter().map(|m| m.notation()).collect();
                d.set_item("pv", PyList::new(py, pv)?)?;
            }
        }
        Ok(d)
    }

    /// Ask a running solve to give up soon (from any thread).
    /// It stops every call begun before it, also one still copying its position or
    /// waiting for this player; a call begun after it is not affected.
    fn stop(&self) {
        self.stop.set();
    }

    /// Forget every position solved (a new game).
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| lock(&self.inner).clear());
    }
}

// --- Greedy -------------------------------------------------------------------------

/// The greedy player (`hexgames_core::search::greedy`) for both games, with the seed of
/// its tie-breaks and its noise.
#[pyclass(module = "hexgames._native", name = "Greedy", frozen)]
pub struct Greedy {
    inner: Mutex<CoreGreedy>,
    stop: Stop,
}

impl Greedy {
    /// Choose a move in `board` within `limits` without the GIL: the dict of
    /// [`Greedy::choose`].
    fn choice<'py, G: GreedyGame>(
        &self,
        py: Python<'py>,
        call: u64,
        board: &G,
        limits: Limits,
        hooks: Hooks,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (r, hooks) = py.detach(|| {
            let mut guard = lock(&self.inner);
            self.stop.enter(call);
            hooks.run(|_, poll| guard.choose_within(board, &limits, &self.stop, poll))
        });
        let r = hooks.result(r)?.map_err(|e| to_py(py, e))?;
        let d = info_dict(py, &r.info)?;
        d.set_item("move", board.notation(r.best))?;
        Ok(d)
    }
}

#[pymethods]
impl Greedy {
    /// A greedy player: `seed` (0 to 2**64 - 1) seeds its tie-breaks, `noise` (0 to 1)
    /// is the chance of a random choice among the safe moves.
    ///
    /// Raises HexgamesError (a ValueError) for a bad seed or noise.
    #[new]
    #[pyo3(signature = (seed=None, noise=None))]
    fn new(
        py: Python<'_>,
        seed: Option<&Bound<'_, PyAny>>,
        noise: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Greedy> {
        let seed = match seed.filter(|v| !v.is_none()) {
            None => 0,
            Some(v) => whole(py, v, "seed", 0, u64::MAX)?,
        };
        let noise = match noise.filter(|v| !v.is_none()) {
            None => 0.0,
            Some(v) => number_arg(py, v, "noise")?,
        };
        let inner = CoreGreedy::new(seed, noise).map_err(|e| to_py(py, e))?;
        Ok(Greedy {
            inner: Mutex::new(inner),
            stop: Stop::new(),
        })
    }

    /// Choose a move in `state` (an `AndantinoState` or `AbandeState`; not changed)
    /// within `time` seconds and `nodes` positions pushed (with neither, after every
    /// move is examined), or until `stop()` or `should_stop()` (asked as the choice
    /// starts, then about every 50 ms) returns true, releasing the GIL; Ctrl-C stops it
    /// too.
    /// Stopped early, it plays the best of the moves examined so far (depth 0), or the
    /// first legal move if none was (eval None, score 0.5).
    ///
    /// Returns a dict: `move` (text), `score`, `eval` (None for a win in one), `mate`,
    /// `pv`, `depth` (1, or 0 when stopped before every move was examined), `seldepth`,
    /// `nodes` (positions pushed), `nps`, `time`.
    ///
    /// Raises HexgamesError (a ValueError) for another object, a finished game or a bad
    /// limit; KeyboardInterrupt on Ctrl-C; whatever `should_stop` raises.
    #[pyo3(signature = (state, time=None, nodes=None, should_stop=None))]
    fn choose<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        time: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        should_stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let call = self.stop.begin();
        let limits = Limits {
            time: time_limit(py, time)?,
            nodes: node_limit(py, nodes, "nodes")?,
            ..Limits::default()
        };
        let hooks = Hooks::new(py, None, callback(py, should_stop, "should_stop")?);
        if let Some(board) = board_of::<AndantinoState>(state)? {
            return self.choice(py, call, &board, limits, hooks);
        }
        if let Some(board) = board_of::<AbandeState>(state)? {
            return self.choice(py, call, &board, limits, hooks);
        }
        Err(bad(
            py,
            format!(
                "greedy plays an AndantinoState or AbandeState, not {}",
                repr(state)
            ),
        ))
    }

    /// Ask a running choice to stop soon and play its best move so far (from any
    /// thread).
    /// It stops every call begun before it, also one still copying its position or
    /// waiting for this player; a call begun after it is not affected.
    fn stop(&self) {
        self.stop.set();
    }
}
