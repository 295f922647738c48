//! `AndantinoState`: the native Andantino board (`hexgames_core::andantino::Board`) as a
//! Python class, with the API of `src/hexgames/_native.pyi`.
//!
//! Text in and out is the notation of NOTATION.md; errors are the package's
//! `ValueError` subclasses with the Python board's messages. Perft and playouts run with
//! the GIL released and poll Python's signals every 50 ms from the main thread, so
//! Ctrl-C interrupts them.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use hexgames_core::andantino::{Board, Cell, Rules};
use hexgames_core::game::Game;
use hexgames_core::Error;

use crate::args::{depth_below, position_text, repr, rules_of, seed_bits, text_of};
use crate::errors::to_py;
use crate::runs;

/// An Andantino position with its moves (RULES.md), played by the native core.
#[pyclass(module = "hexgames._native", name = "AndantinoState")]
#[derive(Clone)]
pub struct AndantinoState {
    pub(crate) board: Board,
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

/// A depth argument: `least` or more and within `u32`.
fn depth_of(depth: i64, least: i64, what: &str) -> PyResult<u32> {
    if depth < least {
        return Err(depth_below(what, least, depth));
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
        let rules = rules_of(py, options, Rules::from_options)?;
        let text = position_text(py, position)?;
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
        runs::perft(py, &mut self.board.clone(), depth)
    }

    /// `(move, perft(depth - 1) after it)` for every legal move, sorted by notation, as
    /// `hexgames.perft.divide`. Releases the GIL.
    ///
    /// Raises ValueError for a depth below 1, KeyboardInterrupt on Ctrl-C.
    fn divide(&self, py: Python<'_>, depth: i64) -> PyResult<Vec<(String, u64)>> {
        let depth = depth_of(depth, 1, "divide")?;
        runs::divide(py, &mut self.board.clone(), depth)
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
        if let Some(n) = count {
            if n < 1 {
                return Err(PyValueError::new_err(format!(
                    "count must be at least 1, not {n}"
                )));
            }
        }
        let seconds = runs::playout_seconds(count.is_some(), seconds)?;
        let seed = match seed {
            None => 0,
            Some(s) => seed_bits(s).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "seed must be a whole number of at most 64 bits, not {}",
                    repr(s)
                ))
            })?,
        };
        runs::playouts(
            py,
            &mut self.board.clone(),
            count.map(|n| n as u64),
            seconds,
            seed,
        )
    }
}

impl AndantinoState {
    /// The legal move `text` names.
    fn parse(
        &self,
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
    ) -> PyResult<hexgames_core::andantino::Move> {
        let Some(text) = text_of(text) else {
            return Err(to_py(
                py,
                Error::InvalidMove(format!("a move is text such as 0,1, not {}", repr(text))),
            ));
        };
        self.board.parse_move(&text).map_err(|e| to_py(py, e))
    }
}
