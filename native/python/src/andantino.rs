//! `AndantinoState`: the native Andantino board (`hexgames_core::andantino::Board`) as a
//! Python class, with the API of `src/hexgames/_native.pyi`.
//!
//! Text in and out is the notation of docs/notation.md; errors are the package's
//! `ValueError` subclasses with the Python board's messages. Perft and playouts run with
//! the GIL released and poll Python's signals every 50 ms from the main thread, so
//! Ctrl-C interrupts them.

use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use hexgames_core::andantino::{Board, Cell, Rules};
use hexgames_core::game::Game;
use hexgames_core::Error;

use crate::args::{
    color_arg, depth_arg, invalid, position_text, push_index, repr, rules_of, seed_bits, text_of,
};
use crate::errors::to_py;
use crate::runs;

/// An Andantino position with its moves (docs/rules.md), played by the native core.
#[pyclass(module = "hexgames._native", name = "AndantinoState")]
#[derive(Clone)]
pub struct AndantinoState {
    pub(crate) board: Board,
}

fn cell_pair(c: Cell) -> (i32, i32) {
    (c.q(), c.r())
}

/// The colour argument of `tiles` and `enclosed_cells`.
fn color_of(py: Python<'_>, color: &Bound<'_, PyAny>) -> PyResult<u8> {
    color_arg(py, color, ["White", "Red"])
}

/// A depth argument: `least` or more and within `u32` (see `args::depth_arg`).
fn depth_of(py: Python<'_>, depth: &Bound<'_, PyAny>, least: i64, what: &str) -> PyResult<u32> {
    let d = depth_arg(py, depth, what, least)?;
    u32::try_from(d).map_err(|_| invalid(py, format!("{what} depth {} is too large", repr(depth))))
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

    /// Play the `index`-th move of `legal_moves()` (an int, or an object with
    /// `__index__`).
    ///
    /// Raises HexgamesError (a ValueError) for an index out of range or not a whole
    /// number.
    fn push_index(&mut self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<()> {
        push_index(py, &mut self.board, index)
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

    /// The position string (docs/notation.md), as the Python board's `position()`.
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

    /// The cells of `color`'s tiles (0 White, 1 Red), sorted.
    ///
    /// Raises HexgamesError (a ValueError) for another colour.
    fn tiles(&self, py: Python<'_>, color: &Bound<'_, PyAny>) -> PyResult<Vec<(i32, i32)>> {
        Ok(self
            .board
            .tiles(color_of(py, color)?)
            .into_iter()
            .map(cell_pair)
            .collect())
    }

    /// The cells (empty or the other colour's) that `color` walls off, sorted.
    ///
    /// Raises HexgamesError (a ValueError) for a colour other than 0 or 1.
    fn enclosed_cells(
        &self,
        py: Python<'_>,
        color: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(i32, i32)>> {
        Ok(self
            .board
            .enclosed_cells(color_of(py, color)?)
            .into_iter()
            .map(cell_pair)
            .collect())
    }

    /// Leaf positions `depth` plies ahead (docs/perft.md). Releases the GIL.
    ///
    /// Raises HexgamesError (a ValueError) for a negative depth or one beyond 32 bits,
    /// KeyboardInterrupt on Ctrl-C.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = depth_of(py, depth, 0, "perft")?;
        runs::perft(py, &mut self.board.clone(), depth)
    }

    /// `(move, perft(depth - 1) after it)` for every legal move, sorted by notation, as
    /// `hexgames.perft.divide`. Releases the GIL.
    ///
    /// Raises HexgamesError (a ValueError) for a depth below 1 or beyond 32 bits,
    /// KeyboardInterrupt on Ctrl-C.
    fn divide(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<Vec<(String, u64)>> {
        let depth = depth_of(py, depth, 1, "divide")?;
        runs::divide(py, &mut self.board.clone(), depth)
    }

    /// Uniformly random playouts from this position: `count` of them, or until the first
    /// one that ends after `seconds` (at least one, unless it outlasts the time by 2,048
    /// plies, which only a raised relocation limit allows: it is then cut off and not
    /// counted), whichever comes first. Releases the GIL.
    ///
    /// Returns a dict: `playouts`, `plies`, `seconds` (wall clock), `wins` (first,
    /// second), `draws`, `terminations` (tag -> count).
    ///
    /// Raises HexgamesError (a ValueError) when neither `count` nor `seconds` is given,
    /// for a count below 1, for seconds that are negative, NaN, or infinite or more than
    /// a day (`hexgames.limits.MAX_SEARCH_SECONDS`) without a count, or for a seed that
    /// is not a whole number of at most 64 bits; KeyboardInterrupt on Ctrl-C.
    #[pyo3(
        signature = (count=None, seconds=None, seed=None),
        text_signature = "($self, count=None, seconds=None, seed=0)"
    )]
    fn random_playouts<'py>(
        &self,
        py: Python<'py>,
        count: Option<&Bound<'py, PyAny>>,
        seconds: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (count, seconds) = runs::playout_limits(py, count, seconds)?;
        let seed = match seed {
            None => 0,
            Some(s) => seed_bits(s).ok_or_else(|| {
                invalid(
                    py,
                    format!(
                        "seed must be a whole number of at most 64 bits, not {}",
                        repr(s)
                    ),
                )
            })?,
        };
        runs::playouts(py, &mut self.board.clone(), count, seconds, seed)
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
