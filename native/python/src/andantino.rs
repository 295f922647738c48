//! `AndantinoState`: the native Andantino board (`hexgames_core::andantino::Board`) as a
//! Python class, with the API of `src/hexgames/_native.pyi`.
//!
//! Text in and out is the notation of NOTATION.md; errors are the package's
//! `ValueError` subclasses with the Python board's messages. Perft and playouts run with
//! the GIL released and poll Python's signals every 50 ms from the main thread, so
//! Ctrl-C interrupts them.

use std::time::{Duration, Instant};

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use hexgames_core::andantino::{Board, Cell, Rules};
use hexgames_core::game::Game;
use hexgames_core::playout::{random_playouts, TERMINATIONS};
use hexgames_core::Error;

use crate::errors::to_py;

/// An Andantino position with its moves (RULES.md), played by the native core.
#[pyclass(module = "hexgames._native", name = "AndantinoState")]
#[derive(Clone)]
pub struct AndantinoState {
    pub(crate) board: Board,
}

/// Python's `repr(obj)`, or a placeholder if even that fails.
fn py_repr(obj: &Bound<'_, PyAny>) -> String {
    obj.repr()
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "<?>".to_string())
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "?".to_string())
}

/// Rules from `options`: `None`, a string of `key=value` words, or an iterable of such
/// words (as `hexgames.andantino.Rules.from_options`).
fn rules_of(py: Python<'_>, options: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    let Some(options) = options.filter(|o| !o.is_none()) else {
        return Ok(Rules::default());
    };
    let mut words: Vec<String> = Vec::new();
    if let Ok(text) = options.cast::<PyString>() {
        words.extend(
            text.to_string_lossy()
                .split(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
                .filter(|w| !w.is_empty())
                .map(str::to_string),
        );
    } else {
        let Ok(items) = options.try_iter() else {
            return Err(to_py(
                py,
                Error::InvalidRules(format!(
                    "rules options are key=value words, not {}",
                    options
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                )),
            ));
        };
        for item in items {
            let item = item?;
            match item.cast::<PyString>() {
                Ok(word) => words.push(word.to_string_lossy().into_owned()),
                Err(_) => {
                    return Err(to_py(
                        py,
                        Error::InvalidRules(format!("rules option {} is not text", py_repr(&item))),
                    ))
                }
            }
        }
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    Rules::from_options(&words).map_err(|e| to_py(py, e))
}

fn cell_pair(c: Cell) -> (i32, i32) {
    (c.q(), c.r())
}

fn color_index(color: i64) -> PyResult<u8> {
    match color {
        0 | 1 => Ok(color as u8),
        _ => Err(PyValueError::new_err(format!(
            "color must be 0 (White) or 1 (Red), not {color}"
        ))),
    }
}

/// Polls Python's signals (Ctrl-C) at most every 50 ms while the GIL is released, from
/// the main thread only (where Python delivers them).
struct Interrupt {
    main: bool,
    last: Instant,
    error: Option<PyErr>,
}

impl Interrupt {
    fn new(py: Python<'_>) -> Interrupt {
        let main = (|| -> PyResult<bool> {
            let threading = py.import("threading")?;
            let current = threading.call_method0("current_thread")?;
            let main = threading.call_method0("main_thread")?;
            Ok(current.is(&main))
        })()
        .unwrap_or(false);
        Interrupt {
            main,
            last: Instant::now(),
            error: None,
        }
    }

    /// Whether to stop: a signal handler raised (the error is kept for the caller).
    fn stop(&mut self) -> bool {
        if self.error.is_some() {
            return true;
        }
        if self.main && self.last.elapsed() >= Duration::from_millis(50) {
            self.last = Instant::now();
            if let Err(e) = Python::attach(|py| py.check_signals()) {
                self.error = Some(e);
                return true;
            }
        }
        false
    }

    fn result<T>(self, value: T) -> PyResult<T> {
        match self.error {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }
}

/// Perft (as `hexgames_core::perft::perft`) that asks `stop` between subtrees of three
/// or more plies and gives `None` once it says stop; the game is left as found.
fn perft_until<G: Game>(
    game: &mut G,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
    stop: &mut impl FnMut() -> bool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if game.result().is_some() {
        return Some(0);
    }
    let (moves, rest) = buffers.split_first_mut()?;
    game.legal_moves(moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if depth >= 3 && stop() {
        return None;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        game.push(mv);
        let n = perft_until(game, depth - 1, rest, stop);
        game.pop();
        total += n?;
    }
    Some(total)
}

fn depth_of(depth: i64, least: i64, what: &str) -> PyResult<u32> {
    if depth < least {
        return Err(PyValueError::new_err(format!(
            "{what} depth must be {} or more, got {depth}",
            least
        )));
    }
    u32::try_from(depth)
        .map_err(|_| PyValueError::new_err(format!("{what} depth {depth} is too large")))
}

#[pymethods]
impl AndantinoState {
    /// The position string `position` (the standard start when `None`) under the rules
    /// `options` (`key=value` words).
    ///
    /// Raises InvalidPositionError or InvalidRulesError as `hexgames.andantino.Board`
    /// and `Rules.from_options` do.
    #[new]
    #[pyo3(signature = (position=None, options=None))]
    fn new(
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let rules = rules_of(py, options)?;
        let text = match position.filter(|p| !p.is_none()) {
            None => None,
            Some(p) => match p.cast::<PyString>() {
                Ok(s) => Some(s.to_string_lossy().into_owned()),
                Err(_) => {
                    return Err(to_py(
                        py,
                        Error::InvalidPosition(format!(
                            "a position string is text, not {}",
                            type_name(p)
                        )),
                    ))
                }
            },
        };
        let board = Board::new(text.as_deref(), rules).map_err(|e| to_py(py, e))?;
        Ok(AndantinoState { board })
    }

    /// An independent copy.
    fn copy(&self) -> AndantinoState {
        self.clone()
    }

    fn __copy__(&self) -> AndantinoState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> AndantinoState {
        self.clone()
    }

    /// `AndantinoState('<position>')`, with the options when there are any.
    fn __repr__(&self) -> String {
        let quoted = |t: &str| format!("'{t}'");
        let options: Vec<String> = self
            .board
            .rules()
            .options()
            .iter()
            .map(|o| quoted(o))
            .collect();
        let position = quoted(&self.board.position());
        if options.is_empty() {
            format!("AndantinoState({position})")
        } else {
            format!("AndantinoState({position}, [{}])", options.join(", "))
        }
    }

    /// The side to move: 0 White, 1 Red.
    #[getter]
    fn turn(&self) -> u8 {
        self.board.turn()
    }

    /// Plies pushed since construction.
    #[getter]
    fn ply(&self) -> usize {
        self.board.ply()
    }

    /// The legal moves in notation, in the native core's order (empty once the game is
    /// over).
    fn legal_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        self.board.legal_moves(&mut moves);
        moves.iter().map(|m| m.notation()).collect()
    }

    /// The number of legal moves.
    fn legal_count(&self) -> usize {
        self.board.legal_count()
    }

    /// Play the move `text` (notation).
    ///
    /// Raises InvalidMoveError for text that is not a move, IllegalMoveError with the
    /// reason for a move the rules forbid here (the messages of `board.push_notation`).
    fn push(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = self.parse(py, text)?;
        self.board.push(mv);
        Ok(())
    }

    /// Play the `index`-th move of `legal_moves()`.
    ///
    /// Raises IndexError when `index` is out of range.
    fn push_index(&mut self, index: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = match index.extract::<i64>() {
            Ok(i) => i,
            Err(e) if index.is_instance_of::<pyo3::types::PyInt>() => {
                return Err(PyIndexError::new_err(format!(
                    "move index out of range ({e})"
                )))
            }
            Err(e) => return Err(e),
        };
        let mut moves = Vec::new();
        self.board.legal_moves(&mut moves);
        let mv = usize::try_from(i)
            .ok()
            .and_then(|i| moves.get(i).copied())
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "move index {i} out of range: {} legal moves",
                    moves.len()
                ))
            })?;
        self.board.push(mv);
        Ok(())
    }

    /// Play the moves `texts` in order; if one is refused, the ones before it are taken
    /// back and its error is raised.
    fn push_moves(&mut self, py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<()> {
        if texts.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "push_moves takes a sequence of moves, not a str",
            ));
        }
        let start = self.board.ply();
        let result = (|| -> PyResult<()> {
            for text in texts.try_iter()? {
                let mv = self.parse(py, &text?)?;
                self.board.push(mv);
            }
            Ok(())
        })();
        if result.is_err() {
            while self.board.ply() > start {
                self.board.pop();
            }
        }
        result
    }

    /// Take back the last move and return its notation.
    ///
    /// Raises IndexError if no move was pushed.
    fn pop(&mut self) -> PyResult<String> {
        self.board
            .pop_move()
            .map(|m| m.notation())
            .ok_or_else(|| PyIndexError::new_err("pop from a state with no moves"))
    }

    /// Whether the game has ended.
    fn is_game_over(&self) -> bool {
        self.board.result().is_some()
    }

    /// `(termination tag, winner, sorted line cells, sorted trapped cells)` once the game
    /// is over, else `None`.
    #[allow(clippy::type_complexity)]
    fn outcome(&self) -> Option<(&'static str, Option<u8>, Vec<(i32, i32)>, Vec<(i32, i32)>)> {
        self.board.outcome().map(|o| {
            (
                o.termination.tag(),
                o.winner,
                o.line.into_iter().map(cell_pair).collect(),
                o.trapped.into_iter().map(cell_pair).collect(),
            )
        })
    }

    /// The 64-bit Zobrist key, equal to the Python board's `zobrist_hash()`.
    fn zobrist_hash(&self) -> u64 {
        self.board.zobrist()
    }

    /// The position string (NOTATION.md), as the Python board's `position()`.
    fn position(&self) -> String {
        self.board.position()
    }

    /// The rules options that differ from the defaults, as `key=value` words.
    fn options(&self) -> Vec<String> {
        self.board.rules().options()
    }

    /// Tiles in (White's, Red's) hands; `None` for an unlimited supply.
    fn hands(&self) -> (Option<u32>, Option<u32>) {
        (self.board.hand(0), self.board.hand(1))
    }

    /// The cells of `color`'s tiles, sorted.
    fn tiles(&self, color: i64) -> PyResult<Vec<(i32, i32)>> {
        Ok(self
            .board
            .tiles(color_index(color)?)
            .into_iter()
            .map(cell_pair)
            .collect())
    }

    /// The cells (empty or the other colour's) that `color` walls off, sorted.
    fn enclosed_cells(&self, color: i64) -> PyResult<Vec<(i32, i32)>> {
        Ok(self
            .board
            .enclosed_cells(color_index(color)?)
            .into_iter()
            .map(cell_pair)
            .collect())
    }

    /// Leaf positions `depth` plies ahead (PERFT.md). Releases the GIL.
    ///
    /// Raises ValueError for a negative depth, KeyboardInterrupt on Ctrl-C.
    fn perft(&self, py: Python<'_>, depth: i64) -> PyResult<u64> {
        let depth = depth_of(depth, 0, "perft")?;
        let mut board = self.board.clone();
        let mut interrupt = Interrupt::new(py);
        let count = py.detach(|| {
            let mut buffers: Vec<Vec<_>> = (0..depth).map(|_| Vec::new()).collect();
            let count = perft_until(&mut board, depth, &mut buffers, &mut || interrupt.stop());
            (count, interrupt)
        });
        let (count, interrupt) = count;
        interrupt.result(count.unwrap_or(0))
    }

    /// `(move, perft(depth - 1) after it)` for every legal move, sorted by notation, as
    /// `hexgames.perft.divide`. Releases the GIL.
    ///
    /// Raises ValueError for a depth below 1, KeyboardInterrupt on Ctrl-C.
    fn divide(&self, py: Python<'_>, depth: i64) -> PyResult<Vec<(String, u64)>> {
        let depth = depth_of(depth, 1, "divide")?;
        let mut board = self.board.clone();
        let mut interrupt = Interrupt::new(py);
        let (counts, interrupt) = py.detach(|| {
            let mut counts = Vec::new();
            if board.result().is_none() {
                let mut moves = Vec::new();
                board.legal_moves(&mut moves);
                let mut buffers: Vec<Vec<_>> = (0..depth).map(|_| Vec::new()).collect();
                for mv in moves {
                    board.push(mv);
                    let n = perft_until(&mut board, depth - 1, &mut buffers, &mut || {
                        interrupt.stop()
                    });
                    board.pop();
                    match n {
                        Some(n) => counts.push((mv.notation(), n)),
                        None => break,
                    }
                }
            }
            counts.sort();
            (counts, interrupt)
        });
        interrupt.result(counts)
    }

    /// Uniformly random playouts from this position: `count` of them, or until the first
    /// one that ends after `seconds` (at least one), whichever comes first. Releases the
    /// GIL.
    ///
    /// Returns a dict: `playouts`, `plies`, `seconds` (wall clock), `wins` (first,
    /// second), `draws`, `terminations` (tag -> count).
    ///
    /// Raises ValueError when neither `count` nor `seconds` is given, for a count below
    /// 1, or for seconds that are negative, NaN, or infinite without a count;
    /// KeyboardInterrupt on Ctrl-C.
    #[pyo3(
        signature = (count=None, seconds=None, seed=None),
        text_signature = "($self, count=None, seconds=None, seed=0)"
    )]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        count: Option<i64>,
        seconds: Option<f64>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if count.is_none() && seconds.is_none() {
            return Err(PyValueError::new_err(
                "random_playouts needs count or seconds",
            ));
        }
        if let Some(n) = count {
            if n < 1 {
                return Err(PyValueError::new_err(format!(
                    "count must be at least 1, not {n}"
                )));
            }
        }
        if let Some(s) = seconds {
            if s.is_nan() || s < 0.0 {
                return Err(PyValueError::new_err(format!(
                    "seconds must be 0 or more, not {s}"
                )));
            }
            if s.is_infinite() && count.is_none() {
                return Err(PyValueError::new_err(
                    "seconds must be finite unless count limits the run",
                ));
            }
        }
        let seed: u64 = match seed.map_or(Ok(0), |s| s.extract::<u64>()) {
            Ok(s) => s,
            Err(_) => match seed.map(|s| (s.extract::<i64>(), s)) {
                Some((Ok(s), _)) => s as u64,
                Some((Err(_), s)) => {
                    return Err(PyValueError::new_err(format!(
                        "seed must be a whole number of at most 64 bits, not {}",
                        py_repr(s)
                    )))
                }
                None => 0,
            },
        };
        let mut board = self.board.clone();
        let mut interrupt = Interrupt::new(py);
        let seconds = seconds.filter(|s| s.is_finite());
        let (stats, interrupt) = py.detach(|| {
            let stats = random_playouts(&mut board, count.map(|n| n as u64), seconds, seed, || {
                interrupt.stop()
            });
            (stats, interrupt)
        });
        interrupt.result(())?;
        let out = PyDict::new(py);
        out.set_item("playouts", stats.playouts)?;
        out.set_item("plies", stats.plies)?;
        out.set_item("seconds", stats.seconds)?;
        out.set_item("wins", (stats.wins[0], stats.wins[1]))?;
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
}

impl AndantinoState {
    /// The legal move `text` names.
    fn parse(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
    ) -> PyResult<hexgames_core::andantino::Move> {
        let Ok(text) = text.cast::<PyString>() else {
            return Err(to_py(
                py,
                Error::InvalidMove(format!("a move is text such as 0,1, not {}", py_repr(text))),
            ));
        };
        self.board
            .parse_move(&text.to_string_lossy())
            .map_err(|e| to_py(py, e))
    }
}
