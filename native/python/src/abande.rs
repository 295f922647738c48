//! `hexgames._native.AbandeState`: the native Abande board (`hexgames_core::abande`) as a
//! Python object, with the notation, errors and messages of `hexgames.abande.Board`.
//!
//! Long loops (perft, playouts) release the GIL and, called from the main thread, poll
//! Python's signal handlers about every 50 ms, so Ctrl-C stops them with
//! `KeyboardInterrupt` (the board is left as it was).

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use hexgames_core::abande::board::MAX_PLIES;
use hexgames_core::abande::{Board, Rules};
use hexgames_core::{Error, Game};

use crate::args::{depth_arg, invalid, position_text, push_index, repr, rules_of, text_of};
use crate::errors::to_py;
use crate::runs;

/// A depth argument: a whole number, `least` or more, as `hexgames.perft` checks it (a
/// depth beyond `u32` is `u32::MAX`, more than any game lasts).
///
/// Raises HexgamesError (a ValueError) for a smaller one or not a whole number.
fn depth_of(py: Python<'_>, depth: &Bound<'_, PyAny>, what: &str, least: i64) -> PyResult<u32> {
    Ok(depth_arg(py, depth, what, least)?.min(u64::from(u32::MAX)) as u32)
}

/// An Abande position under make/unmake, with the moves pushed since it was made: the
/// rules of docs/rules.md as `hexgames.abande.Board` plays them (same legal-move order,
/// Zobrist keys, position strings and error messages).
#[pyclass(module = "hexgames._native", name = "AbandeState")]
#[derive(Clone)]
pub struct AbandeState {
    pub(crate) board: Board,
}

impl AbandeState {
    fn push_text(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<()> {
        match text_of(text) {
            Some(t) => self
                .board
                .push_notation(&t)
                .map(|_| ())
                .map_err(|e| to_py(py, e)),
            None => Err(to_py(
                py,
                Error::InvalidMove(format!(
                    "{} is not an Abande move (expected an entry such as d4, a stack move \
                     such as c3-d4, or pass)",
                    text.repr()?.to_string_lossy()
                )),
            )),
        }
    }
}

#[pymethods]
impl AbandeState {
    /// A state from a position string (docs/notation.md; `None` for the start) and rules
    /// options (`key=value` words).
    ///
    /// Raises InvalidRulesError for a bad option, InvalidPositionError for a bad
    /// position, with the messages of `abande.Rules.from_options` and `abande.Board`.
    #[new]
    #[pyo3(signature = (position=None, options=None))]
    fn new(
        py: Python<'_>,
        position: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<AbandeState> {
        let rules = rules_of(py, options, Rules::from_options)?;
        let text = position_text(py, position)?;
        let board = Board::new(text.as_deref(), rules).map_err(|e| to_py(py, e))?;
        Ok(AbandeState { board })
    }

    /// An independent copy (with the same moves to pop).
    fn copy(&self) -> AbandeState {
        self.clone()
    }

    /// The side to move: 0 Black, 1 White.
    #[getter]
    fn turn(&self) -> u8 {
        self.board.turn()
    }

    /// Plies pushed since the state was made.
    #[getter]
    fn ply(&self) -> usize {
        Game::ply(&self.board)
    }

    /// 1 if the previous ply was a pass, 2 once two passes ended the game, else 0.
    #[getter]
    fn passes(&self) -> u32 {
        self.board.passes()
    }

    /// The legal moves in notation, in the Python board's order: entries a1..g4, stack
    /// moves by source then target, the pass. Empty once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.board
            .legal_moves()
            .into_iter()
            .map(|m| m.notation())
            .collect()
    }

    /// The number of legal moves.
    fn legal_count(&self) -> usize {
        self.board.legal_moves().len()
    }

    /// Play a move given in notation (`d4`, `c3-d4`, `pass`).
    ///
    /// Raises InvalidMoveError for text that is not a move, IllegalMoveError for a move
    /// the rules forbid here (the messages of `board.push_notation`).
    fn push(&mut self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<()> {
        self.push_text(py, text)
    }

    /// Play the `index`-th move of `legal_moves()` (an int, or an object with
    /// `__index__`). Raises HexgamesError (a ValueError) unless
    /// `0 <= index < legal_count()`.
    fn push_index(&mut self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<()> {
        push_index(py, &mut self.board, index)
    }

    /// Play moves in notation, in order. On an error none of them stays pushed.
    fn push_moves(&mut self, py: Python<'_>, texts: &Bound<'_, PyAny>) -> PyResult<()> {
        let start = Game::ply(&self.board);
        let result = (|| -> PyResult<()> {
            for text in texts.try_iter()? {
                self.push_text(py, &text?)?;
            }
            Ok(())
        })();
        if result.is_err() {
            while Game::ply(&self.board) > start {
                Game::pop(&mut self.board);
            }
        }
        result
    }

    /// Take back the last move pushed and return its notation. Raises IndexError if no
    /// move was pushed since the state was made.
    fn pop(&mut self) -> PyResult<String> {
        let Some(last) = self.board.moves().last() else {
            return Err(PyIndexError::new_err("pop from a state with no moves"));
        };
        Game::pop(&mut self.board);
        Ok(last.notation())
    }

    /// Whether the game has ended (two passes in succession).
    fn is_game_over(&self) -> bool {
        self.board.is_game_over()
    }

    /// `("score", winner, (black, white))` once the game is over (winner 0, 1 or `None`
    /// for a draw), else `None`.
    #[allow(clippy::type_complexity)]
    fn outcome(&self) -> Option<(&'static str, Option<u8>, (u32, u32))> {
        self.board.outcome().map(|o| ("score", o.winner, o.score))
    }

    /// The 64-bit Zobrist key, equal to `abande.Board.zobrist_hash()`.
    fn zobrist_hash(&self) -> u64 {
        self.board.zobrist()
    }

    /// The position string, as `abande.Board.position()` writes it.
    fn position(&self) -> String {
        self.board.position()
    }

    /// The rules options that differ from the defaults, as `key=value` words.
    fn options(&self) -> Vec<String> {
        self.board.rules().options()
    }

    /// Pieces in hand, as (Black, White).
    fn hands(&self) -> (u32, u32) {
        self.board.hands()
    }

    /// Every stack by point name in board order, as `B`/`W` letters bottom to top.
    fn stacks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (b, text) in self.board.stacks() {
            out.set_item(hexgames_core::abande::bits::name(b), text)?;
        }
        Ok(out)
    }

    /// The points each side would score now, as (Black, White).
    fn score(&self) -> (u32, u32) {
        self.board.score()
    }

    /// The points of the sleeping stacks (which score nothing), in board order.
    fn sleeping(&self) -> Vec<&'static str> {
        hexgames_core::abande::bits::bits(self.board.sleeping())
            .map(hexgames_core::abande::bits::name)
            .collect()
    }

    /// The number of positions exactly `depth` plies ahead (docs/perft.md; a finished game
    /// is not expanded). Releases the GIL; Ctrl-C raises KeyboardInterrupt. Raises
    /// ValueError for a negative depth.
    fn perft(&mut self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = depth_of(py, depth, "perft", 0)?;
        if depth as usize > MAX_PLIES {
            return Ok(0); // no game lasts that long
        }
        runs::perft(py, &mut self.board, depth)
    }

    /// Perft split by the first move: `(notation, perft(depth - 1) after it)` for every
    /// legal move, sorted by notation (as `hexgames.perft.divide`). Raises ValueError for
    /// a depth below 1.
    fn divide(&mut self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<Vec<(String, u64)>> {
        let depth = depth_of(py, depth, "divide", 1)?;
        if depth as usize > MAX_PLIES {
            // No game lasts that long: every count is 0, for the moves of divide(1).
            let mut counts = runs::divide(py, &mut self.board, 1)?;
            counts.iter_mut().for_each(|(_, n)| *n = 0);
            return Ok(counts);
        }
        runs::divide(py, &mut self.board, depth)
    }

    /// Uniformly random playouts from this position until `count` are done or, with
    /// `seconds`, until the first that ends after that time (at least one is played:
    /// an Abande game lasts at most 144 plies).
    /// Releases the GIL; Ctrl-C raises KeyboardInterrupt. The state is left as it was.
    ///
    /// Returns a dict: `playouts`, `plies`, `seconds`, `wins` (first player, second),
    /// `draws`, `terminations` (termination tag -> count).
    ///
    /// Raises HexgamesError (a ValueError) without `count` or `seconds`, for a `count`
    /// below 1, a negative or NaN `seconds`, an infinite one or more than a day
    /// (`hexgames.limits.MAX_SEARCH_SECONDS`) without `count`, or a `seed` outside
    /// 0..2**64.
    #[pyo3(signature = (count=None, seconds=None, seed=None))]
    fn random_playouts<'py>(
        &mut self,
        py: Python<'py>,
        count: Option<&Bound<'py, PyAny>>,
        seconds: Option<&Bound<'py, PyAny>>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (count, seconds) = runs::playout_limits(py, count, seconds)?;
        let seed = match seed.filter(|s| !s.is_none()) {
            None => 0,
            Some(s) => s.extract::<u64>().map_err(|_| {
                invalid(
                    py,
                    format!(
                        "seed must be a whole number from 0 to 2**64 - 1, not {}",
                        repr(s)
                    ),
                )
            })?,
        };
        runs::playouts(py, &mut self.board, count, seconds, seed)
    }
}
