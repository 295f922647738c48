//! `AndantinoEncoder` and `AbandeEncoder`: the fixed action spaces and observation
//! planes of `hexgames_core::encoding` (those of `hexgames.integrations.encoding`,
//! exactly) over native states, for the OpenSpiel and PettingZoo environments.
//!
//! An encoder is made from rules options and serves the `AndantinoState` /
//! `AbandeState` objects played under those rules: it lists their legal actions, plays
//! an action, and writes legal-action masks and observations straight into the
//! caller's numpy arrays (see `buffers`). Errors are the package's `ValueError`
//! subclasses: `IllegalMoveError` for an illegal action, `HexgamesError` for an action
//! outside the space or a bad player, `ValueError` for a bad buffer or a state of other
//! rules.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyList};

use hexgames_core::encoding::abande::AbandeEncoding;
use hexgames_core::encoding::andantino::AndantinoEncoding;
use hexgames_core::encoding::{self as core_encoding, Encoding, Layout};
use hexgames_core::{abande, andantino, Error, Game};

use crate::abande::AbandeState;
use crate::andantino::AndantinoState;
use crate::args::{int_arg, invalid, repr, rules_of, text_of, type_name};
use crate::buffers::{disjoint, Out};
use crate::errors::to_py;

/// What the binding needs of an encoding beyond [`Encoding`]: to be made from rules
/// words, and the text of its games.
pub(crate) trait Native: Encoding {
    /// The encoding of the rules `words` (`key=value`).
    fn from_words(words: &[&str]) -> hexgames_core::error::Result<Self>;
    /// R, the radius of the hexagon of the action space's cells.
    fn radius(&self) -> usize;
    /// The centre of the observation window of `game`, or `None` without a window.
    fn window_centre(&self, _game: &Self::Game) -> Option<(i32, i32)> {
        None
    }
    /// The rules options of the encoding, as `key=value` words that differ from the
    /// defaults.
    fn options(&self) -> Vec<String>;
    /// The rules options of a game.
    fn game_options(game: &Self::Game) -> Vec<String>;
    /// The notation of the moves played in `game` since it was made.
    fn history(game: &Self::Game) -> Vec<String>;
    /// The move `text` names, legal or not.
    fn parse(text: &str) -> hexgames_core::error::Result<<Self::Game as Game>::Move>;
}

/// `words` without their `move_count=on|off` word, and whether it was on.
///
/// Errors: `Error::InvalidArgument` for another value.
fn move_count_of<'a>(words: &[&'a str]) -> hexgames_core::error::Result<(Vec<&'a str>, bool)> {
    let mut on = false;
    let mut rest = Vec::with_capacity(words.len());
    for &word in words {
        match word.strip_prefix("move_count=") {
            Some("on") => on = true,
            Some("off") => on = false,
            Some(value) => {
                return Err(Error::InvalidArgument(format!(
                    "move_count must be on or off, not {value:?}"
                )))
            }
            None => rest.push(word),
        }
    }
    Ok((rest, on))
}

impl Native for AndantinoEncoding {
    /// The rules words, `window=W` for observations through a window of radius W
    /// (`AndantinoEncoding::with_window`) and `move_count=on` for the move-count plane
    /// (neither a rules option).
    fn from_words(words: &[&str]) -> hexgames_core::error::Result<Self> {
        let mut window = None;
        let (words, count) = move_count_of(words)?;
        let mut rules = Vec::with_capacity(words.len());
        for &word in &words {
            match word.strip_prefix("window=") {
                Some(value) => {
                    let w = value.trim().parse::<u32>().map_err(|_| {
                        Error::InvalidArgument(format!(
                            "window must be a whole number from 1 to tiles_per_player, not \
                             {value:?}"
                        ))
                    })?;
                    window = Some(w);
                }
                None => rules.push(word),
            }
        }
        let rules = andantino::Rules::from_options(&rules)?;
        Ok(AndantinoEncoding::with_window(rules, window)?.with_move_count(count))
    }
    fn radius(&self) -> usize {
        self.hexagon().radius() as usize
    }
    fn window_centre(&self, game: &andantino::Board) -> Option<(i32, i32)> {
        self.window()
            .map(|_| AndantinoEncoding::window_centre(self, game))
    }
    fn options(&self) -> Vec<String> {
        self.rules().options()
    }
    fn game_options(game: &andantino::Board) -> Vec<String> {
        game.rules().options()
    }
    fn history(game: &andantino::Board) -> Vec<String> {
        game.moves().iter().map(|m| m.notation()).collect()
    }
    fn parse(text: &str) -> hexgames_core::error::Result<andantino::Move> {
        andantino::Move::from_notation(text)
    }
}

impl Native for AbandeEncoding {
    /// The rules words, and `move_count=on` for the move-count plane.
    fn from_words(words: &[&str]) -> hexgames_core::error::Result<Self> {
        let (words, count) = move_count_of(words)?;
        Ok(AbandeEncoding::new(abande::Rules::from_options(&words)?)?.with_move_count(count))
    }
    fn radius(&self) -> usize {
        (self.side() - 1) / 2
    }
    fn options(&self) -> Vec<String> {
        self.rules().options()
    }
    fn game_options(game: &abande::Board) -> Vec<String> {
        game.rules().options()
    }
    fn history(game: &abande::Board) -> Vec<String> {
        game.moves().map(|m| m.notation()).collect()
    }
    fn parse(text: &str) -> hexgames_core::error::Result<abande::Move> {
        abande::Move::parse(text)
    }
}

/// The rules words as text for a message.
pub(crate) fn rules_text(words: &[String]) -> String {
    if words.is_empty() {
        "the standard rules".to_string()
    } else {
        words.join(" ")
    }
}

/// An action argument: a Python int (or an object with `__index__`, such as a numpy
/// integer). Any other object, and an int beyond 64 bits, is refused with a
/// `HexgamesError` (an action outside the space is the encoding's to refuse).
pub(crate) fn action_arg(py: Python<'_>, obj: &Bound<'_, PyAny>, actions: usize) -> PyResult<i64> {
    match int_arg(py, obj, "action")? {
        Some(a) => Ok(a),
        None => Err(to_py(
            py,
            Error::InvalidArgument(format!(
                "action {} is outside 0..{}",
                repr(obj),
                actions - 1
            )),
        )),
    }
}

/// `player` of an observation: 0, 1, or `None` for `turn`.
///
/// Raises HexgamesError (a ValueError) for anything else.
pub(crate) fn player_arg(
    py: Python<'_>,
    player: Option<&Bound<'_, PyAny>>,
    turn: u8,
) -> PyResult<u8> {
    let Some(player) = player.filter(|p| !p.is_none()) else {
        return Ok(turn);
    };
    match int_arg(py, player, "player") {
        Ok(Some(p @ (0 | 1))) => Ok(p as u8),
        _ => Err(invalid(
            py,
            format!(
                "player must be 0, 1 or None (the side to move), not {}",
                repr(player)
            ),
        )),
    }
}

/// A list of the floats `values`: a list of 0.0 repeated (one object, as `[0.0] * n`),
/// then the other values set, the 1s sharing one object and each run of an equal
/// value another (most of an observation is 0).
fn float_list<'py>(py: Python<'py>, values: &[f32]) -> PyResult<Bound<'py, PyList>> {
    let zeros = PyList::new(py, [0.0f64])?
        .as_sequence()
        .repeat(values.len())?
        .cast_into::<PyList>()?;
    let one = PyFloat::new(py, 1.0).into_any();
    let mut last = one.clone();
    let mut last_value = 1.0f32;
    for (i, &v) in values.iter().enumerate() {
        if v.to_bits() == 0 {
            continue;
        }
        if v.to_bits() != last_value.to_bits() {
            last = if v == 1.0 {
                one.clone()
            } else {
                PyFloat::new(py, f64::from(v)).into_any()
            };
            last_value = v;
        }
        zeros.set_item(i, &last)?;
    }
    Ok(zeros)
}

/// The shapes an observation buffer may have: the layout's three dimensions, or flat.
pub(crate) fn observation_shapes<E: Encoding>(encoding: &E, layout: Layout) -> [Vec<usize>; 2] {
    let (planes, side) = (encoding.num_planes(), encoding.side());
    let shape = match layout {
        Layout::ChannelsFirst => vec![planes, side, side],
        Layout::ChannelsLast => vec![side, side, planes],
    };
    [shape, vec![encoding.observation_len()]]
}

/// Defines an encoder class over one game's encoding and native state.
macro_rules! encoder_class {
    ($(#[$meta:meta])* $name:ident, $py_name:literal, $encoding:ty, $state:ty) => {
        $(#[$meta])*
        #[pyclass(module = "hexgames._native", name = $py_name, frozen)]
        pub struct $name {
            encoding: $encoding,
        }

        impl $name {
            /// Raises ValueError unless `game` is played under the encoder's rules.
            fn check(&self, game: &<$encoding as Encoding>::Game) -> PyResult<()> {
                if self.encoding.fits(game) {
                    return Ok(());
                }
                Err(PyValueError::new_err(format!(
                    "the state is played under {}, the encoder under {}",
                    rules_text(&<$encoding as Native>::game_options(game)),
                    rules_text(&self.encoding.options())
                )))
            }

            /// The observation buffer `obj` (the argument `what`) in the layout of
            /// `channels_first`, checked (see `observe`).
            fn observation_out(
                &self,
                obj: &Bound<'_, PyAny>,
                what: &str,
                channels_first: bool,
            ) -> PyResult<(Layout, Out<f32>)> {
                let layout = Layout::of(channels_first);
                let shapes = observation_shapes(&self.encoding, layout);
                let shapes = [shapes[0].as_slice(), shapes[1].as_slice()];
                Ok((layout, Out::<f32>::get(obj, what, "float32", &shapes)?))
            }

            /// Play `action` in `game` (see `push_action`).
            fn play(
                &self,
                py: Python<'_>,
                game: &mut <$encoding as Encoding>::Game,
                action: &Bound<'_, PyAny>,
            ) -> PyResult<()> {
                let action = action_arg(py, action, self.encoding.num_actions())?;
                self.check(game)?;
                core_encoding::push_action(&self.encoding, game, action).map_err(|e| to_py(py, e))
            }

            /// Whether the game is over for a framework (see `is_over`).
            fn over(&self, py: Python<'_>, game: &<$encoding as Encoding>::Game) -> PyResult<bool> {
                if game.result().is_some() {
                    return Ok(true);
                }
                Ok(self.legal(py, game)?.is_empty())
            }

            fn legal(&self, py: Python<'_>, game: &<$encoding as Encoding>::Game) -> PyResult<Vec<u32>> {
                self.check(game)?;
                let (mut moves, mut out) = (Vec::new(), Vec::new());
                self.encoding
                    .legal_actions(game, &mut moves, &mut out)
                    .map_err(|e| to_py(py, e))?;
                Ok(out)
            }
        }

        #[pymethods]
        impl $name {
            /// The encoder of games under the rules `options` (`key=value` words, as
            /// `Rules.from_options`).
            ///
            /// Raises InvalidRulesError for bad options and for rules without fixed
            /// spaces (the messages of `hexgames.integrations.encoding`).
            #[new]
            #[pyo3(signature = (options=None))]
            fn new(py: Python<'_>, options: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                let encoding = rules_of(py, options, <$encoding as Native>::from_words)?;
                Ok($name { encoding })
            }

            fn __repr__(&self) -> String {
                let words: Vec<String> =
                    self.encoding.options().iter().map(|w| format!("'{w}'")).collect();
                format!("{}([{}])", $py_name, words.join(", "))
            }

            /// The size of the action space.
            #[getter]
            fn num_actions(&self) -> usize {
                self.encoding.num_actions()
            }

            /// The number of observation planes.
            #[getter]
            fn num_planes(&self) -> usize {
                self.encoding.num_planes()
            }

            /// The side of each plane's square grid, 2R + 1.
            #[getter]
            fn side(&self) -> usize {
                self.encoding.side()
            }

            /// R, the radius of the hexagon of cells.
            #[getter]
            fn radius(&self) -> usize {
                <$encoding as Native>::radius(&self.encoding)
            }

            /// The number of cells of the hexagon, 3R(R + 1) + 1.
            #[getter]
            fn num_cells(&self) -> usize {
                let r = self.radius();
                3 * r * (r + 1) + 1
            }

            /// `(planes, rows, columns)`, or `(rows, columns, planes)` channels-last.
            #[pyo3(signature = (channels_first=true))]
            fn observation_shape(&self, channels_first: bool) -> (usize, usize, usize) {
                let (planes, side) = (self.encoding.num_planes(), self.encoding.side());
                if channels_first {
                    (planes, side, side)
                } else {
                    (side, side, planes)
                }
            }

            /// The rules options, as `key=value` words that differ from the defaults.
            fn options(&self) -> Vec<String> {
                self.encoding.options()
            }

            /// The actions of the state's legal moves that the space holds, ascending.
            ///
            /// Raises ValueError for a state of other rules.
            fn legal_actions(&self, py: Python<'_>, state: PyRef<'_, $state>) -> PyResult<Vec<u32>> {
                self.legal(py, &state.board)
            }

            /// Write the legal-action mask into `out`, an `int8` array of shape
            /// `(num_actions,)`: 1 for the legal actions, 0 elsewhere.
            ///
            /// Raises ValueError for a bad buffer or a state of other rules.
            fn legal_mask(
                &self,
                py: Python<'_>,
                state: PyRef<'_, $state>,
                out: &Bound<'_, PyAny>,
            ) -> PyResult<()> {
                let n = self.encoding.num_actions();
                let mut buffer = Out::<i8>::get(out, "out", "int8", &[&[n]])?;
                let legal = self.legal(py, &state.board)?;
                let mask = buffer.slice();
                mask.fill(0);
                for a in legal {
                    if let Some(slot) = mask.get_mut(a as usize) {
                        *slot = 1;
                    }
                }
                Ok(())
            }

            /// Write the observation of the state from `player`'s point of view (the
            /// side to move for `None`) into `out`, a `float32` array of shape
            /// `observation_shape(channels_first)` or flat; every value is written.
            ///
            /// Raises ValueError for a bad buffer, a bad player or a state of other
            /// rules.
            #[pyo3(signature = (state, out, player=None, channels_first=true))]
            fn observe(
                &self,
                py: Python<'_>,
                state: PyRef<'_, $state>,
                out: &Bound<'_, PyAny>,
                player: Option<&Bound<'_, PyAny>>,
                channels_first: bool,
            ) -> PyResult<()> {
                let (layout, mut buffer) = self.observation_out(out, "out", channels_first)?;
                let game = &state.board;
                self.check(game)?;
                let player = player_arg(py, player, game.turn())?;
                let mut moves = Vec::new();
                self.encoding
                    .observe(game, player, layout, &mut moves, buffer.slice())
                    .map_err(|e| to_py(py, e))
            }

            /// The observation of the state from `player`'s point of view (the side to
            /// move for `None`) as a new list of `observation_len` floats, channels
            /// first (OpenSpiel's `observation_tensor`). Equal values share one float
            /// object, which makes the list cheap to build.
            ///
            /// Raises ValueError for a bad player or a state of other rules.
            #[pyo3(signature = (state, player=None))]
            fn observation_list<'py>(
                &self,
                py: Python<'py>,
                state: PyRef<'_, $state>,
                player: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Bound<'py, PyList>> {
                let game = &state.board;
                self.check(game)?;
                let player = player_arg(py, player, game.turn())?;
                let mut values = vec![0.0f32; self.encoding.observation_len()];
                let mut moves = Vec::new();
                self.encoding
                    .observe(game, player, Layout::ChannelsFirst, &mut moves, &mut values)
                    .map_err(|e| to_py(py, e))?;
                float_list(py, &values)
            }

            /// Write the observation of the state from `player`'s point of view (the
            /// side to move for `None`) into `observation` (as `observe`) and, when
            /// `legal` is true, the legal-action mask of the side to move into `mask`
            /// (as `legal_mask`; all 0 when `legal` is false: for an agent not to move,
            /// or after the end), with one generation of the legal moves. Returns the
            /// number of legal actions (0 when `legal` is false).
            ///
            /// Raises ValueError for a bad buffer (or two that share memory), a bad
            /// player or a state of other rules.
            #[pyo3(signature = (state, observation, mask, player=None, legal=true,
                                channels_first=true))]
            fn observe_and_mask(
                &self,
                state: PyRef<'_, $state>,
                observation: &Bound<'_, PyAny>,
                mask: &Bound<'_, PyAny>,
                player: Option<&Bound<'_, PyAny>>,
                legal: bool,
                channels_first: bool,
            ) -> PyResult<usize> {
                let (layout, mut planes) =
                    self.observation_out(observation, "observation", channels_first)?;
                let n = self.encoding.num_actions();
                let mut flags = Out::<i8>::get(mask, "mask", "int8", &[&[n]])?;
                disjoint(&[("observation", planes.span()), ("mask", flags.span())])?;
                let py = observation.py();
                let game = &state.board;
                self.check(game)?;
                let player = player_arg(py, player, game.turn())?;
                let (mut moves, mut all) = (Vec::new(), Vec::new());
                self.encoding
                    .legal_actions(game, &mut moves, &mut all)
                    .map_err(|e| to_py(py, e))?;
                self.encoding
                    .observe_with(game, player, layout, Some(&all), &mut moves, planes.slice())
                    .map_err(|e| to_py(py, e))?;
                let flags = flags.slice();
                flags.fill(0);
                if !legal {
                    return Ok(0);
                }
                for &a in &all {
                    if let Some(slot) = flags.get_mut(a as usize) {
                        *slot = 1;
                    }
                }
                Ok(all.len())
            }

            /// Play `action` in the state and say whether the game is over then (as
            /// `is_over`): `push_action` and `is_over` in one call.
            ///
            /// Raises as `push_action`; the state is unchanged then.
            fn play_action(
                &self,
                py: Python<'_>,
                mut state: PyRefMut<'_, $state>,
                action: &Bound<'_, PyAny>,
            ) -> PyResult<bool> {
                self.play(py, &mut state.board, action)?;
                self.over(py, &state.board)
            }

            /// Play `action` in the state.
            ///
            /// Raises HexgamesError for an action outside the space or naming no move,
            /// IllegalMoveError (the board's message) for an illegal move, ValueError
            /// for a state of other rules; the state is unchanged then.
            fn push_action(
                &self,
                py: Python<'_>,
                mut state: PyRefMut<'_, $state>,
                action: &Bound<'_, PyAny>,
            ) -> PyResult<()> {
                self.play(py, &mut state.board, action)
            }

            /// The notation of the move of `action`, legal or not.
            ///
            /// Raises HexgamesError for an action outside the space or naming no move.
            fn notation(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<String> {
                let action = action_arg(py, action, self.encoding.num_actions())?;
                let mv = self.encoding.move_of(action).map_err(|e| to_py(py, e))?;
                Ok(mv.to_string())
            }

            /// The action of the move `text` (notation), legal or not.
            ///
            /// Raises InvalidMoveError for text that is not a move, HexgamesError for a
            /// move the space has no action for.
            fn action_of(&self, py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<u32> {
                let Some(text) = text_of(text) else {
                    return Err(to_py(
                        py,
                        Error::InvalidMove(format!("a move is text, not {}", type_name(text))),
                    ));
                };
                let mv = <$encoding as Native>::parse(&text)
                    .map_err(|e| to_py(py, e))?;
                self.encoding.action_of(mv).map_err(|e| to_py(py, e))
            }

            /// Whether the game is over for a framework: the rules ended it, or the
            /// side to move has no action in the space.
            ///
            /// Raises ValueError for a state of other rules.
            fn is_over(&self, py: Python<'_>, state: PyRef<'_, $state>) -> PyResult<bool> {
                self.over(py, &state.board)
            }

            /// `(first player, second player)`: +1 / -1 for a win / loss, 0 for a draw
            /// and while the game goes on.
            fn returns(&self, state: PyRef<'_, $state>) -> (f64, f64) {
                let [first, second] = core_encoding::returns(&state.board);
                (first, second)
            }

            /// The notation of the moves played in the state since it was made.
            fn moves(&self, state: PyRef<'_, $state>) -> Vec<String> {
                <$encoding as Native>::history(&state.board)
            }
        }
    };
}

encoder_class!(
    /// Andantino's fixed spaces over `AndantinoState`s: placements on the hexagon of
    /// radius `tiles_per_player` (and relocations as cell pairs in extended play,
    /// confined to it), observations of 9 planes.
    AndantinoEncoder,
    "AndantinoEncoder",
    AndantinoEncoding,
    AndantinoState
);

encoder_class!(
    /// Abande's fixed spaces over `AbandeState`s: 37 entries, 37 x 6 stack moves and the
    /// pass; observations of `2 max_height + 6` planes.
    AbandeEncoder,
    "AbandeEncoder",
    AbandeEncoding,
    AbandeState
);
