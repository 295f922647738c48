//! `AlphaBeta`: the native alpha-beta player (`hexgames_core::search::alphabeta`) as a
//! Python class, with the API of `src/hexgames/_native.pyi`.
//!
//! Frozen, with interior mutability: the player (its transposition table and history)
//! sits behind a `Mutex`, and the stop flag is shared outside it, so `stop()` works from
//! another thread while `search` runs. `search` releases the GIL; it reattaches to call
//! `on_info` after each iteration and, on the main thread, to poll Python's signals
//! every 50 ms (Ctrl-C stops the search and re-raises KeyboardInterrupt).

use std::sync::Mutex;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use hexgames_core::search::alphabeta::{self as core, Options, SearchGame, SearchResult};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::{abande, andantino};

use crate::abande::AbandeState;
use crate::andantino::AndantinoState;
use crate::args::{
    board_of, callback, invalid, number_arg, repr, seed_bits, type_name, whole, whole_in,
};
use crate::errors::to_py;
use crate::hooks::{info_dict, lock, Hooks};

enum Engine {
    Andantino(Box<core::AlphaBeta<andantino::Board>>),
    Abande(Box<core::AlphaBeta<abande::Board>>),
}

/// The largest `tempo`, `right` and `rfp` (points; a clear edge is about 100).
pub(crate) const MAX_POINTS: i64 = 1000;

/// The whole number `obj` (`default` for `None`) named `what`, from `lo` to `hi`
/// (`unit` after the range in the message), refused by name otherwise
/// ([`whole_in`]).
fn int_in(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    default: i64,
    range: (i64, i64),
    unit: &str,
) -> PyResult<i64> {
    match obj.filter(|o| !o.is_none()) {
        Some(obj) => whole_in(
            py,
            obj,
            what,
            range,
            &format!("{} to {}{unit}", range.0, range.1),
        ),
        None => Ok(default),
    }
}

/// The native alpha-beta player of one game (see `hexgames.engine.alphabeta`).
#[pyclass(frozen, module = "hexgames._native", name = "AlphaBeta")]
pub struct AlphaBeta {
    game: &'static str,
    engine: Mutex<Engine>,
    stop: Stop,
    /// Andantino's evaluation weights it was made with (read by `evaluate` without the
    /// engine's lock).
    weights: andantino::ai::Weights,
    /// Abande's evaluation weights it was made with (the learned ones, or none).
    abande_weights: abande::ai::Weights,
}

/// The number of Andantino's learned weights: the worth of a window of five holding 1
/// to 4 tiles of one colour, then of a tile with 0 to 6 opponent neighbours.
pub(crate) const ANDANTINO_LEARNED: usize = 11;

/// `weights` with Andantino's learned tables `w` (the [`ANDANTINO_LEARNED`] numbers of
/// `eval_weights`): the worth of a window of five holding 1 to 4 tiles of one colour (the
/// third is `three`), then of a tile with 0 to 6 opponent neighbours.
pub(crate) fn with_andantino_tables(
    mut weights: andantino::ai::Weights,
    w: &[i32],
) -> andantino::ai::Weights {
    weights.line = [0, w[0], w[1], w[2], w[3], w[3]];
    weights.three = w[2];
    weights.enclosure = std::array::from_fn(|i| w[4 + i]);
    weights
}

/// A learned evaluation's weights from `eval_weights`: a sequence of `n` whole numbers,
/// each from `lo` to `hi`.
pub(crate) fn weight_list(
    py: Python<'_>,
    obj: Option<&Bound<'_, PyAny>>,
    n: usize,
    (lo, hi): (i64, i64),
) -> PyResult<Option<Vec<i32>>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else {
        return Ok(None);
    };
    let shown = || obj.repr().map(|r| r.to_string()).unwrap_or_default();
    let bad = || {
        invalid(
            py,
            format!(
                "eval_weights must be a list of {n} whole numbers, not {}",
                shown()
            ),
        )
    };
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(bad());
    }
    let items: Vec<Bound<'_, PyAny>> = obj
        .try_iter()
        .map_err(|_| bad())?
        .collect::<PyResult<_>>()
        .map_err(|_| bad())?;
    if items.len() != n {
        return Err(bad());
    }
    items
        .iter()
        .map(|item| {
            whole_in(
                py,
                item,
                "an eval_weights weight",
                (lo, hi),
                &format!("{lo} to {hi}"),
            )
            .map(|w: i64| w as i32)
        })
        .collect::<PyResult<Vec<i32>>>()
        .map(Some)
}

/// A limit in seconds: a number (int or float), 0 or more and finite.
fn seconds(py: Python<'_>, name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<f64>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    let what = format!("limit {name}");
    match number_arg(py, value, &what) {
        Ok(v) if v >= 0.0 => Ok(Some(v)),
        _ => Err(invalid(
            py,
            format!(
                "{what} must be a finite number of seconds, 0 or more, not {}",
                repr(value)
            ),
        )),
    }
}

/// A count limit (nodes, plies): a whole number from 0 to 2**63 - 1, refused by name
/// otherwise (no OverflowError or TypeError).
fn count(py: Python<'_>, name: &str, value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    value
        .filter(|v| !v.is_none())
        .map(|v| whole(py, v, &format!("limit {name}"), 0, i64::MAX as u64))
        .transpose()
}

/// What the search thread hands back: the result, and the hooks (with a Python error
/// raised by `on_info` or a signal handler).
type Outcome<M> = (hexgames_core::error::Result<SearchResult<M>>, Hooks);

/// Search `game` with `hooks` as the callbacks (the GIL is released by the caller; see
/// the module text).
fn run<G: SearchGame>(
    engine: &mut core::AlphaBeta<G>,
    game: &G,
    limits: &Limits,
    stop: &Stop,
    hooks: Hooks,
) -> Outcome<G::Move> {
    hooks.run(|on_info, poll| engine.search(game, limits, stop, on_info, poll))
}

/// The result as Python wants it, or the error (a Python one first).
fn finish<'py, G: SearchGame>(
    py: Python<'py>,
    game: &G,
    (result, hooks): Outcome<G::Move>,
) -> PyResult<Bound<'py, PyDict>> {
    let result = hooks.result(result)?.map_err(|e| to_py(py, e))?;
    result_dict(py, game, &result)
}

enum Position {
    Andantino(Box<andantino::Board>),
    Abande(Box<abande::Board>),
}

enum Found {
    Andantino(Outcome<andantino::Move>),
    Abande(Outcome<abande::Move>),
}

fn result_dict<'py, G: SearchGame>(
    py: Python<'py>,
    game: &G,
    result: &SearchResult<G::Move>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("move", game.notation(result.best))?;
    d.set_item("info", info_dict(py, &result.info)?)?;
    let lines = PyList::empty(py);
    for line in &result.lines {
        lines.append(info_dict(py, line)?)?;
    }
    d.set_item("lines", lines)?;
    Ok(d)
}

#[pymethods]
impl AlphaBeta {
    /// A player of `game` (`andantino` or `abande`) with a transposition table of
    /// `tt_mb` MiB.
    ///
    /// Raises HexgamesError (a ValueError) for an unknown game, a `tt_mb` below 1 or
    /// too large for the memory (the message starts with "not enough memory"), or a
    /// `multipv` (1 to 1000), `randomness` (points below a mate score), `three` (0 to
    /// 159), `tempo`, `right` or `rfp` (0 to 1000) that is not a whole number in its
    /// range, or `eval_weights` (a learned evaluation; None: the hand-written one) that
    /// is not, in Abande, a list of `LEARNED_TERMS` whole numbers within
    /// `MAX_LEARNED_WEIGHT`, in Andantino a list of 11 whole numbers from 0 to 65536
    /// growing in each of its two parts: the worth of a window of five holding 1 to 4
    /// tiles of one colour (the third replaces `three`), then of a tile with 0 to 6
    /// opponent neighbours.
    #[new]
    #[pyo3(signature = (game, tt_mb=None, pvs=true, use_tt=true, multipv=None, randomness=None, seed=None, leaf_threats=false, lmr=false, tt_deeper=false, null_move=false, three=None, tempo=None, right=None, quiescence=false, rfp=None, eval_weights=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        tt_mb: Option<&Bound<'_, PyAny>>,
        pvs: bool,
        use_tt: bool,
        multipv: Option<&Bound<'_, PyAny>>,
        randomness: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        leaf_threats: bool,
        lmr: bool,
        tt_deeper: bool,
        null_move: bool,
        three: Option<&Bound<'_, PyAny>>,
        tempo: Option<&Bound<'_, PyAny>>,
        right: Option<&Bound<'_, PyAny>>,
        quiescence: bool,
        rfp: Option<&Bound<'_, PyAny>>,
        eval_weights: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let key = game.trim().to_ascii_lowercase();
        let learned = if key == "andantino" {
            weight_list(py, eval_weights, ANDANTINO_LEARNED, (0, 1 << 16))?
        } else {
            let limit = i64::from(abande::ai::learned::MAX_LEARNED_WEIGHT);
            weight_list(
                py,
                eval_weights,
                abande::ai::learned::LEARNED_TERMS,
                (-limit, limit),
            )?
        };
        let abande_weights = abande::ai::Weights {
            learned: learned
                .as_ref()
                .filter(|_| key == "abande")
                .map(|w| std::array::from_fn(|i| w[i])),
            ..Default::default()
        };
        let multipv = int_in(py, multipv, "multipv", 1, (1, 1000), "")?;
        let randomness = int_in(
            py,
            randomness,
            "randomness",
            0,
            (0, i64::from(core::MATE_BOUND)),
            " points",
        )?;
        let three = int_in(py, three, "three", 30, (0, 159), " points")?;
        let tempo = int_in(py, tempo, "tempo", 0, (0, MAX_POINTS), " points")?;
        let right = int_in(py, right, "right", 0, (0, MAX_POINTS), " points")?;
        let rfp = int_in(py, rfp, "rfp", 0, (0, MAX_POINTS), " points")?;
        let tt_mb: u64 = match tt_mb.filter(|t| !t.is_none()) {
            None => 64,
            Some(tt_mb) => match tt_mb.extract::<i64>() {
                Ok(n) if n < 1 => {
                    return Err(invalid(
                        py,
                        format!("a transposition table needs at least 1 MB, not {n}"),
                    ))
                }
                Ok(n) => n as u64,
                Err(_) if tt_mb.is_instance_of::<pyo3::types::PyInt>() => {
                    let negative = tt_mb.lt(0).unwrap_or(false);
                    if negative {
                        return Err(invalid(
                            py,
                            "a transposition table needs at least 1 MB".to_string(),
                        ));
                    }
                    u64::MAX
                }
                Err(_) => {
                    return Err(invalid(
                        py,
                        format!(
                            "tt_mb is a whole number of megabytes, not {}",
                            tt_mb.repr().map(|r| r.to_string()).unwrap_or_default()
                        ),
                    ))
                }
            },
        };
        let seed: u64 = match seed.filter(|s| !s.is_none()) {
            None => 0,
            Some(s) => seed_bits(s).ok_or_else(|| {
                invalid(
                    py,
                    "seed must be a whole number of at most 64 bits".to_string(),
                )
            })?,
        };
        let options = Options {
            pvs,
            use_tt,
            multipv: multipv as u32,
            randomness: randomness as i32,
            seed,
            leaf_threats,
            lmr,
            tt_deeper,
            null_move,
            quiescence,
            rfp: rfp as i32,
            ..Options::default()
        };
        let weights = andantino::ai::Weights {
            three: three as i32,
            tempo: tempo as i32,
            right: right as i32,
            ..Default::default()
        };
        let weights = match learned.as_ref().filter(|_| key == "andantino") {
            Some(w) => with_andantino_tables(weights, w),
            None => weights,
        };
        let tt_mb = if tt_mb > hexgames_core::search::tt::MAX_MB {
            return Err(invalid(
                py,
                format!(
                    "not enough memory for a transposition table of {tt_mb} MB (at most {} MB)",
                    hexgames_core::search::tt::MAX_MB
                ),
            ));
        } else {
            tt_mb
        };
        let (name, engine) = match key.as_str() {
            "andantino" => (
                "andantino",
                Engine::Andantino(Box::new(
                    py.detach(|| core::AlphaBeta::with_weights(tt_mb, options, weights))
                        .map_err(|e| to_py(py, e))?,
                )),
            ),
            "abande" => (
                "abande",
                Engine::Abande(Box::new(
                    py.detach(|| core::AlphaBeta::with_weights(tt_mb, options, abande_weights))
                        .map_err(|e| to_py(py, e))?,
                )),
            ),
            _ => {
                return Err(invalid(
                    py,
                    format!("unknown game {game:?} (known: andantino, abande)"),
                ))
            }
        };
        Ok(AlphaBeta {
            game: name,
            engine: Mutex::new(engine),
            stop: Stop::new(),
            weights,
            abande_weights,
        })
    }

    /// The game this player plays.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// Search `state` (an `AndantinoState` or `AbandeState` of this player's game; the
    /// search works on a copy) and return a dict: `move` (notation), `info` (depth,
    /// seldepth, eval, score, mate, pv, nodes, time, nps) and `lines` (one such dict
    /// per MultiPV line, the first the principal one).
    ///
    /// Limits: `time` (seconds for this move), `nodes`, `depth` (plies), `clock`
    /// (seconds left on the mover's clock) and `increment` (seconds added a move);
    /// none set means 1 second. `on_info(dict)` is called after each iteration
    /// (with `multipv` above 1, its `lines`: a dict of each root line, best first).
    /// `stopped` starts the search with its stop flag set (a stop that came before
    /// the search began): it returns after its first look at the flag.
    /// `should_stop()` (the caller's own stop: asked as the search starts, then about
    /// every 50 ms) ends it too when it returns true.
    ///
    /// Raises HexgamesError (a ValueError) for a state of another game, a game that is
    /// over, or a negative or non-finite limit; KeyboardInterrupt on Ctrl-C (main
    /// thread); whatever `on_info` or `should_stop` raises.
    #[pyo3(signature = (state, time=None, nodes=None, depth=None, clock=None, increment=None, on_info=None, stopped=false, should_stop=None))]
    #[allow(clippy::too_many_arguments)]
    fn search<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
        time: Option<&Bound<'py, PyAny>>,
        nodes: Option<&Bound<'py, PyAny>>,
        depth: Option<&Bound<'py, PyAny>>,
        clock: Option<&Bound<'py, PyAny>>,
        increment: Option<&Bound<'py, PyAny>>,
        on_info: Option<Py<PyAny>>,
        stopped: bool,
        should_stop: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let call = self.stop.begin();
        if stopped {
            self.stop.set();
        }
        let limits = Limits {
            time: seconds(py, "time", time)?,
            nodes: count(py, "nodes", nodes)?,
            depth: count(py, "depth", depth)?.map(|d| d.min(u32::MAX as u64) as u32),
            clock: seconds(py, "clock", clock)?,
            increment: seconds(py, "increment", increment)?,
        };
        if limits.increment.is_some() && limits.clock.is_none() {
            return Err(invalid(
                py,
                "limit increment needs a clock (seconds left)".to_string(),
            ));
        }
        let on_info = on_info.filter(|f| !f.is_none(py));
        let position = if self.game == "andantino" {
            board_of::<AndantinoState>(state)?.map(|b| Position::Andantino(Box::new(b)))
        } else {
            board_of::<AbandeState>(state)?.map(|b| Position::Abande(Box::new(b)))
        };
        let Some(position) = position else {
            return Err(self.wrong_state(py, state));
        };
        let hooks = Hooks::new(
            py,
            callback(py, on_info, "on_info")?,
            callback(py, should_stop, "should_stop")?,
        );
        let found = py.detach(|| {
            let mut guard = lock(&self.engine);
            self.stop.enter(call);
            match (&mut *guard, &position) {
                (Engine::Andantino(e), Position::Andantino(b)) => {
                    Some(Found::Andantino(run(e, b, &limits, &self.stop, hooks)))
                }
                (Engine::Abande(e), Position::Abande(b)) => {
                    Some(Found::Abande(run(e, b, &limits, &self.stop, hooks)))
                }
                _ => None,
            }
        });
        match (found, &position) {
            (Some(Found::Andantino(o)), Position::Andantino(b)) => finish(py, &**b, o),
            (Some(Found::Abande(o)), Position::Abande(b)) => finish(py, &**b, o),
            _ => Err(PyRuntimeError::new_err(
                "the player's game and the state's disagree",
            )),
        }
    }

    /// Ask a running search to stop soon and return its best move so far; safe to call
    /// from any thread.
    /// It stops every call begun before it, also one still copying its position or
    /// waiting for this player; a call begun after it is not affected.
    fn stop(&self) {
        self.stop.set();
    }

    /// Forget the transposition table and the history (a new game).
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| match &mut *lock(&self.engine) {
            Engine::Andantino(e) => e.new_game(),
            Engine::Abande(e) => e.new_game(),
        });
    }

    /// The transposition table's figures: `capacity` (entries), `used`, `stores` (since
    /// it was made or cleared), `entry_bytes`, `megabytes`; all 0 without a table.
    fn table_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let figures = py
            .detach(|| match &*lock(&self.engine) {
                Engine::Andantino(e) => e.table().map(|t| {
                    let bytes = core_entry_bytes::<andantino::Board>();
                    (t.capacity(), t.len(), t.stores(), bytes, t.megabytes())
                }),
                Engine::Abande(e) => e.table().map(|t| {
                    let bytes = core_entry_bytes::<abande::Board>();
                    (t.capacity(), t.len(), t.stores(), bytes, t.megabytes())
                }),
            })
            .unwrap_or((0, 0, 0, 0, 0));
        let d = PyDict::new(py);
        d.set_item("capacity", figures.0)?;
        d.set_item("used", figures.1)?;
        d.set_item("stores", figures.2)?;
        d.set_item("entry_bytes", figures.3)?;
        d.set_item("megabytes", figures.4)?;
        Ok(d)
    }

    /// The static evaluation of `state` for the side to move, in points (the one the
    /// search uses at its leaves); `None` once the game is over.
    ///
    /// Raises HexgamesError for a state of another game.
    fn evaluate(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Option<i32>> {
        if let Ok(s) = state.cast::<AndantinoState>() {
            if self.game == "andantino" {
                let board = &s.try_borrow()?.board;
                return Ok(evaluation(board, &self.weights));
            }
        }
        if let Ok(s) = state.cast::<AbandeState>() {
            if self.game == "abande" {
                let board = &s.try_borrow()?.board;
                return Ok(evaluation(board, &self.abande_weights));
            }
        }
        Err(self.wrong_state(py, state))
    }
}

/// The static evaluation of `board` with `weights`, `None` once the game is over.
fn evaluation<G: SearchGame>(board: &G, weights: &G::Weights) -> Option<i32> {
    board.result().is_none().then(|| {
        let mut aux = board.new_aux();
        board.configure_aux(&mut aux, weights);
        board.evaluate(&aux)
    })
}

fn core_entry_bytes<G: SearchGame>() -> usize {
    hexgames_core::search::tt::Table::<G::Move>::ENTRY_BYTES
}

impl AlphaBeta {
    fn wrong_state(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyErr {
        let kind = type_name(state);
        let want = if self.game == "andantino" {
            "AndantinoState"
        } else {
            "AbandeState"
        };
        invalid(
            py,
            format!(
                "this alpha-beta player plays {}: it searches an {want}, not a {kind}",
                self.game
            ),
        )
    }
}
