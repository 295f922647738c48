//! `AndantinoVectorCore` and `AbandeVectorCore`: N native games stepped together
//! (`hexgames_core::encoding::vector::VectorEnv`), the engine of
//! `hexgames.integrations.vector`. Each call checks the caller's numpy buffers, then
//! releases the GIL for the whole batch.
//!
//! Same-step autoreset: `step` writes the observation after each move (the final one
//! for a game that ended) and `autoreset` then restarts the games that ended, writing
//! their new observations. Rewards are from the point of view of the player who moved.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use hexgames_core::encoding::abande::AbandeEncoding;
use hexgames_core::encoding::andantino::AndantinoEncoding;
use hexgames_core::encoding::vector::{StepOut, VectorEnv};
use hexgames_core::encoding::{Encoding, Layout};
use hexgames_core::Game;

use crate::args::{index_arg, int_arg, invalid, repr, rules_of, seed_bits};
use crate::buffers::{disjoint, Out};
use crate::encoding::{observation_shapes, Native};
use crate::errors::to_py;

/// A seed argument: a whole number of at most 64 bits (a negative one is taken modulo
/// 2^64), or `None`.
///
/// Raises HexgamesError (a ValueError) for anything else.
fn seed_arg(py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(seed) = seed.filter(|s| !s.is_none()) else {
        return Ok(None);
    };
    match seed_bits(seed) {
        Some(s) => Ok(Some(s)),
        None => Err(invalid(
            py,
            format!(
                "seed must be a whole number of at most 64 bits or None, not {}",
                repr(seed)
            ),
        )),
    }
}

/// Defines a vector class over one game's encoding.
macro_rules! vector_class {
    ($(#[$meta:meta])* $name:ident, $py_name:literal, $encoding:ty) => {
        $(#[$meta])*
        #[pyclass(module = "hexgames._native", name = $py_name)]
        pub struct $name {
            env: VectorEnv<$encoding>,
            /// The observation buffer written last: the core updates it in place while
            /// the caller passes the same object.
            observed: Option<Py<PyAny>>,
            /// The mask buffer written last.
            masked: Option<Py<PyAny>>,
        }

        impl $name {
            fn observations<'py>(
                &self,
                obj: &Bound<'py, PyAny>,
                layout: Layout,
            ) -> PyResult<Out<f32>> {
                let enc = self.env.encoding();
                let n = self.env.num_envs();
                let [shape, _] = observation_shapes(enc, layout);
                let full: Vec<usize> = std::iter::once(n).chain(shape).collect();
                let flat = [n, enc.observation_len()];
                Out::<f32>::get(obj, "observations", "float32", &[full.as_slice(), &flat])
            }

            /// `result`, forgetting what the observation buffer holds after an error
            /// (a write may have stopped half-way).
            fn written<T>(&mut self, py: Python<'_>, result: Result<T, hexgames_core::Error>) -> PyResult<T> {
                if result.is_err() {
                    self.env.forget_observations();
                }
                result.map_err(|e| to_py(py, e))
            }

            /// Tell the core whether `obj` is the observation buffer it wrote last.
            fn same_observations(&mut self, py: Python<'_>, obj: &Bound<'_, PyAny>) {
                if !self.observed.as_ref().is_some_and(|o| o.bind(py).is(obj)) {
                    self.env.forget_observations();
                    self.observed = Some(obj.clone().unbind());
                }
            }

            /// Tell the core whether `obj` is the mask buffer it wrote last.
            fn same_masks(&mut self, py: Python<'_>, obj: &Bound<'_, PyAny>) {
                if !self.masked.as_ref().is_some_and(|o| o.bind(py).is(obj)) {
                    self.env.forget_masks();
                    self.masked = Some(obj.clone().unbind());
                }
            }

            /// Raises HexgamesError (a ValueError) for an index outside `0..num_envs`.
            fn index(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<usize> {
                index_arg(py, index, "env index", self.env.num_envs())
            }
        }

        #[pymethods]
        impl $name {
            /// `num_envs` games at the start under the rules `options`; `seed` seeds
            /// `sample_legal`.
            ///
            /// Raises InvalidRulesError for bad options, HexgamesError for `num_envs`
            /// below 1 or buffers too large (see `hexgames_core::encoding::vector`).
            #[new]
            #[pyo3(signature = (num_envs, options=None, seed=None))]
            fn new(
                py: Python<'_>,
                num_envs: &Bound<'_, PyAny>,
                options: Option<&Bound<'_, PyAny>>,
                seed: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<Self> {
                let encoding = rules_of(py, options, <$encoding as Native>::from_words)?;
                // (More games than a usize counts are too many buffers for the core.)
                let count = match int_arg(py, num_envs, "num_envs")? {
                    Some(n) if n >= 0 => usize::try_from(n).unwrap_or(usize::MAX),
                    None if num_envs.gt(0)? => usize::MAX,
                    _ => {
                        return Err(invalid(
                            py,
                            format!("num_envs must be at least 1, not {}", repr(num_envs)),
                        ))
                    }
                };
                let seed = seed_arg(py, seed)?.unwrap_or(0);
                let env = VectorEnv::new(encoding, count, seed).map_err(|e| to_py(py, e))?;
                Ok($name { env, observed: None, masked: None })
            }

            /// N.
            #[getter]
            fn num_envs(&self) -> usize {
                self.env.num_envs()
            }

            /// The size of each game's action space.
            #[getter]
            fn num_actions(&self) -> usize {
                self.env.encoding().num_actions()
            }

            /// One observation's shape, `(planes, rows, columns)` or channels-last.
            #[pyo3(signature = (channels_first=true))]
            fn observation_shape(&self, channels_first: bool) -> (usize, usize, usize) {
                let enc = self.env.encoding();
                let (planes, side) = (enc.num_planes(), enc.side());
                if channels_first {
                    (planes, side, side)
                } else {
                    (side, side, planes)
                }
            }

            /// The rules options, as `key=value` words that differ from the defaults.
            fn options(&self) -> Vec<String> {
                self.env.encoding().options()
            }

            /// Every game back at the start; with `seed`, `sample_legal`'s generator is
            /// seeded anew.
            #[pyo3(signature = (seed=None))]
            fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
                if let Some(seed) = seed_arg(py, seed)? {
                    self.env.reseed(seed);
                }
                let env = &mut self.env;
                py.detach(|| env.reset()).map_err(|e| to_py(py, e))
            }

            /// Write every game's observation (the side to move's point of view) into
            /// `observations`, `float32` of shape `(num_envs, *observation_shape)` or
            /// `(num_envs, values)`. Releases the GIL.
            ///
            /// Raises ValueError for a bad buffer.
            #[pyo3(signature = (observations, channels_first=true))]
            fn observe(
                &mut self,
                py: Python<'_>,
                observations: &Bound<'_, PyAny>,
                channels_first: bool,
            ) -> PyResult<()> {
                let layout = Layout::of(channels_first);
                let mut obs = self.observations(observations, layout)?;
                self.same_observations(py, observations);
                let env = &mut self.env;
                let out = obs.slice();
                let result = py.detach(|| env.observe(layout, out));
                self.written(py, result)
            }

            /// Play `actions[i]` (`int64`, shape `(num_envs,)`) in game `i` for every i and
            /// write `rewards` (`float32`, the mover's), `terminations`, `illegal`
            /// (`uint8`, 0 or 1), `winners` (`int8`: 0 or 1, -1 for a draw or a game going
            /// on) and `plies` (`uint32`), all of shape `(num_envs,)`, and the
            /// observations after the moves if `observations` is given. Returns the
            /// number of games that ended; call `autoreset` before the next step.
            /// Releases the GIL.
            ///
            /// Raises ValueError for bad buffers; HexgamesError naming the env and the
            /// action for an action outside the space; IllegalMoveError naming the env,
            /// the action, its move and the reason for an illegal one unless
            /// `illegal_loses` (then that game is lost by the player to move). Nothing
            /// is played when it raises.
            #[pyo3(signature = (
                actions, rewards, terminations, winners, illegal, plies,
                illegal_loses=false, observations=None, channels_first=true
            ))]
            #[allow(clippy::too_many_arguments)]
            fn step(
                &mut self,
                py: Python<'_>,
                actions: &Bound<'_, PyAny>,
                rewards: &Bound<'_, PyAny>,
                terminations: &Bound<'_, PyAny>,
                winners: &Bound<'_, PyAny>,
                illegal: &Bound<'_, PyAny>,
                plies: &Bound<'_, PyAny>,
                illegal_loses: bool,
                observations: Option<&Bound<'_, PyAny>>,
                channels_first: bool,
            ) -> PyResult<usize> {
                let n = self.env.num_envs();
                let shape: &[&[usize]] = &[&[n]];
                let mut actions = Out::<i64>::get(actions, "actions", "int64", shape)?;
                let mut rewards = Out::<f32>::get(rewards, "rewards", "float32", shape)?;
                let mut terminations =
                    Out::<u8>::get(terminations, "terminations", "uint8", shape)?;
                let mut winners = Out::<i8>::get(winners, "winners", "int8", shape)?;
                let mut illegal = Out::<u8>::get(illegal, "illegal", "uint8", shape)?;
                let mut plies = Out::<u32>::get(plies, "plies", "uint32", shape)?;
                let layout = Layout::of(channels_first);
                let mut obs = match observations.filter(|o| !o.is_none()) {
                    Some(o) => {
                        let buffer = self.observations(o, layout)?;
                        self.same_observations(py, o);
                        Some(buffer)
                    }
                    None => None,
                };
                let mut spans = vec![
                    ("actions", actions.span()),
                    ("rewards", rewards.span()),
                    ("terminations", terminations.span()),
                    ("winners", winners.span()),
                    ("illegal", illegal.span()),
                    ("plies", plies.span()),
                ];
                if let Some(o) = &obs {
                    spans.push(("observations", o.span()));
                }
                disjoint(&spans)?;
                let actions = actions.slice();
                let out = StepOut {
                    rewards: rewards.slice(),
                    terminated: terminations.slice(),
                    winners: winners.slice(),
                    illegal: illegal.slice(),
                    plies: plies.slice(),
                };
                let obs = obs.as_mut().map(|o| (o.slice(), layout));
                let env = &mut self.env;
                let result = py.detach(|| env.step(actions, illegal_loses, out, obs));
                self.written(py, result)
            }

            /// Restart the games that ended in the last step, writing their new
            /// observations into their rows of `observations` if given. Returns how
            /// many. Releases the GIL.
            ///
            /// Raises ValueError for a bad buffer.
            #[pyo3(signature = (observations=None, channels_first=true))]
            fn autoreset(
                &mut self,
                py: Python<'_>,
                observations: Option<&Bound<'_, PyAny>>,
                channels_first: bool,
            ) -> PyResult<usize> {
                let layout = Layout::of(channels_first);
                let mut obs = match observations.filter(|o| !o.is_none()) {
                    Some(o) => {
                        let buffer = self.observations(o, layout)?;
                        self.same_observations(py, o);
                        Some(buffer)
                    }
                    None => None,
                };
                let obs = obs.as_mut().map(|o| (o.slice(), layout));
                let env = &mut self.env;
                let result = py.detach(|| env.autoreset(obs));
                self.written(py, result)
            }

            /// Write the legal-action masks into `out`, `int8` of shape
            /// `(num_envs, num_actions)`. Releases the GIL.
            ///
            /// Raises ValueError for a bad buffer.
            fn masks(&mut self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
                let n = self.env.num_envs();
                let width = self.env.encoding().num_actions();
                let mut buffer = Out::<i8>::get(out, "out", "int8", &[&[n, width]])?;
                self.same_masks(py, out);
                let slice = buffer.slice();
                let env = &mut self.env;
                let result = py.detach(|| env.masks(slice));
                if result.is_err() {
                    self.env.forget_masks();
                }
                result.map_err(|e| to_py(py, e))
            }

            /// Write the side to move of each game (0 or 1) into `out`, `int8` of shape
            /// `(num_envs,)`.
            ///
            /// Raises ValueError for a bad buffer.
            fn current_players(&self, py: Python<'_>, out: &Bound<'_, PyAny>) -> PyResult<()> {
                let n = self.env.num_envs();
                let mut buffer = Out::<i8>::get(out, "out", "int8", &[&[n]])?;
                self.env
                    .current_players(buffer.slice())
                    .map_err(|e| to_py(py, e))
            }

            /// Write the centre `(q, r)` of each game's observation window into `out`,
            /// `int32` of shape `(num_envs, 2)` (Andantino with `window=W` only).
            ///
            /// Raises ValueError for a bad buffer or an encoding without a window.
            fn window_centres(&self, out: &Bound<'_, PyAny>) -> PyResult<()> {
                let n = self.env.num_envs();
                let mut buffer = Out::<i32>::get(out, "out", "int32", &[&[n, 2]])?;
                let slice = buffer.slice();
                let enc = self.env.encoding();
                for (i, pair) in slice.chunks_exact_mut(2).enumerate() {
                    let centre = self
                        .env
                        .game(i)
                        .and_then(|game| <$encoding as Native>::window_centre(enc, game));
                    let Some((q, r)) = centre else {
                        return Err(PyValueError::new_err(
                            "window_centres needs Andantino games observed through a window \
                             (window=W)",
                        ));
                    };
                    pair[0] = q;
                    pair[1] = r;
                }
                Ok(())
            }

            /// Write a uniformly random legal action of each game into `out`, `int64`
            /// of shape `(num_envs,)`, drawn by the vector's generator or, with `seed`,
            /// by a new one seeded so.
            ///
            /// Raises ValueError for a bad buffer or seed.
            #[pyo3(signature = (out, seed=None))]
            fn sample_legal(
                &mut self,
                py: Python<'_>,
                out: &Bound<'_, PyAny>,
                seed: Option<&Bound<'_, PyAny>>,
            ) -> PyResult<()> {
                let n = self.env.num_envs();
                let seed = seed_arg(py, seed)?;
                let mut buffer = Out::<i64>::get(out, "out", "int64", &[&[n]])?;
                let slice = buffer.slice();
                let env = &mut self.env;
                py.detach(|| env.sample_legal(seed, slice))
                    .map_err(|e| to_py(py, e))
            }

            /// The legal actions of game `index`, ascending.
            ///
            /// Raises HexgamesError (a ValueError) for an index outside `0..num_envs`.
            fn legal_actions(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
                let i = self.index(py, index)?;
                Ok(self.env.legal_actions(i).map(<[u32]>::to_vec).unwrap_or_default())
            }

            /// The notation of the moves of game `index` since its start.
            ///
            /// Raises HexgamesError (a ValueError) for an index outside `0..num_envs`.
            fn moves(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
                let i = self.index(py, index)?;
                Ok(self
                    .env
                    .game(i)
                    .map(<$encoding as Native>::history)
                    .unwrap_or_default())
            }

            /// The position string of game `index` (docs/notation.md).
            ///
            /// Raises HexgamesError (a ValueError) for an index outside `0..num_envs`.
            fn position(&self, py: Python<'_>, index: &Bound<'_, PyAny>) -> PyResult<String> {
                let i = self.index(py, index)?;
                Ok(self.env.game(i).map(Game::position).unwrap_or_default())
            }
        }
    };
}

vector_class!(
    /// N Andantino games stepped together (see the module docs).
    AndantinoVectorCore,
    "AndantinoVectorCore",
    AndantinoEncoding
);

vector_class!(
    /// N Abande games stepped together (see the module docs).
    AbandeVectorCore,
    "AbandeVectorCore",
    AbandeEncoding
);
