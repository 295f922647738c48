"""The cost of the research wrappers: steps per second with random legal actions.

For each game, these loops play uniformly random legal actions from the standard start,
game after game, for ``--seconds`` each, and print steps (plies) per second:

- ``board``: the plain Python board, ``rng.choice(board.legal_moves)`` and
  ``board.push`` (:func:`hexgames.bench.random_playouts`);
- ``openspiel``: a ``pyspiel`` state of ``python_andantino`` / ``python_abande``,
  ``state.legal_actions()`` and ``state.apply_action`` (what MCTS rollouts do);
- ``openspiel+obs``: the same plus ``state.observation_tensor()`` at every step, a
  Python list of floats (what ``rl_environment`` reads);
- ``openspiel+observer``: the same with the observation written into a numpy array
  instead (``make_observation(game).set_from(state, player)``, as AlphaZero does);
- ``pettingzoo``: the wrapped AEC environment, ``env.last()`` (observation and mask),
  ``action_space.sample(mask)`` and ``env.step``;
- ``pettingzoo raw``: the environment without PettingZoo's wrappers (``raw_env``, which
  passes ``api_test`` too): ``env.last()`` (observation and mask) at every step, and a
  random legal action drawn by ``rng.choice(env.legal_actions())`` (the environment's
  list of the mask's legal actions); ``pettingzoo raw+mask`` draws it by
  ``random.randrange`` among ``np.flatnonzero(mask)`` instead (scanning Andantino's
  1,951 entries costs more than the environment's step), and ``pettingzoo raw+sample``
  by gymnasium's masked ``sample`` (which costs more still). Only the ``sample`` loops
  seed the action spaces at each game;
- ``vector[N]``: :mod:`hexgames.integrations.vector` with N games, at every step
  ``action_masks()``, ``sample_legal()`` (native random masked actions) and ``step``
  with observations, all N games per call (``copy=False``: the environment's own
  buffers; ``vector[N]+copy`` returns new arrays, the default). A step of N games
  counts N steps;
- ``batched[N]``: the Pgx-style :mod:`hexgames.integrations.batched` with N games,
  ``env.random_actions(state)`` and ``env.step(state, actions)``: the state it returns
  holds the observations, the legal-action masks and both players' rewards;
- ``openspiel+obs window=8``, ``openspiel+observer window=8``, ``vector[N] window=8``,
  ``batched[N] window=8``, ``pettingzoo raw window=8`` and ``pettingzoo raw+mask
  window=8`` (Andantino only): the same with
  observations through a window of radius 8 re-centred on the tiles (12 planes of 17 x
  17 squares instead of 9 of 51 x 51);
- ``augment[N]``: not a game loop: the images of a batch of N observations and N
  legal-action masks under a random symmetry each
  (:mod:`hexgames.integrations.symmetry`), samples per second (``augment[N]
  window=8``: of observations through the window).

The environments step native states. ``/py`` marks the same loop on the path they had
before (a Python board and the Python encoding of
:mod:`hexgames.integrations.encoding`, reproduced below): both in the same run.

The machine may be busy: the loops run in interleaved rounds (every loop once per round,
``--rounds`` rounds) and each figure is the median of its rounds; ``--clock cpu`` times
the loops by the process's CPU time instead of the wall clock (steps per second of one
busy core, whatever else the machine runs). The targets of issue 36 print beside their
figures: at least 1,000,000 steps/s for Andantino's vector environment (64 and 1,024
games), 2,000,000 for Abande's (64 and 1,024 games), and 10 times the figures measured before
the work for OpenSpiel's observation path (``openspiel+obs``: Andantino 2,930, Abande
40,205) and PettingZoo (14,573 and 17,190).

**Ceilings.** ``openspiel+obs ceiling`` and ``pettingzoo ceiling`` run the same loops on
games that do nothing: the same action count and observation size, as many plies a
game and legal actions a ply as the real game's random games have on average (measured
at the start: Andantino about 32 and 11, Abande 56 and 17), every method answering at
once (the observation a new ``[0.0] * n`` list for OpenSpiel, a kept array for
PettingZoo). No game can run those loops faster;
PettingZoo's ceiling (its three standard wrappers and gymnasium's masked ``sample``)
lies far below ten times the baseline, and OpenSpiel's leaves a real game a fraction
of a microsecond a step. Prints figures; it is not a test. Needs the ``openspiel``,
``pettingzoo`` and ``rl`` extras.

Usage::

    .venv/bin/python benchmarks/bench_integrations.py [--game andantino|abande]
        [--seconds 1] [--rounds 3] [--seed 1] [--clock wall|cpu] [--only LOOP ...]
"""

from __future__ import annotations

# ruff: noqa: E402
import os

# One core: numpy's OpenBLAS threads, started by any matrix product in the process,
# spin on the other core between calls, and that spinning counts in the process's CPU
# time (``--clock cpu``). Set before numpy is imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation
from pettingzoo import AECEnv

from hexgames import abande, andantino
from hexgames.bench import random_playouts
from hexgames.games import GAME_NAMES
from hexgames.integrations import batched
from hexgames.integrations import openspiel as hex_openspiel
from hexgames.integrations.encoding import AndantinoEncoding, encoding_for
from hexgames.integrations.pettingzoo import abande_v0, andantino_v0
from hexgames.integrations.pettingzoo.base import wrap
from hexgames.integrations.symmetry import Symmetries
from hexgames.integrations.vector import AbandeVectorEnv, AndantinoVectorEnv

ENVS: dict[str, Any] = {"andantino": andantino_v0, "abande": abande_v0}
#: The clock the loops are timed by (``--clock``).
clock: Callable[[], float] = time.perf_counter

#: Issue 36's targets in steps per second, by game and loop: 10 times the figures of
#: OpenSpiel's observation path and of PettingZoo before the work, and the vector
#: environments' absolute ones.
BEFORE = {("andantino", "openspiel+obs"): 2_930, ("abande", "openspiel+obs"): 40_205,
          ("andantino", "pettingzoo"): 14_573, ("abande", "pettingzoo"): 17_190}
TARGETS: dict[tuple[str, str], float] = {
    **{(game, loop + suffix): 10 * rate for (game, loop), rate in BEFORE.items()
       for suffix in ("", " ceiling", " raw", " raw+mask", " raw+sample", " window=8",
                       " raw window=8", " raw+mask window=8")},
    **{("andantino", f"vector[{n}]{suffix}"): 1_000_000 for n in (64, 1024)
       for suffix in ("", " window=8")},
    **{("abande", f"vector[{n}]"): 2_000_000 for n in (64, 1024)}}
VECTORS: dict[str, Any] = {"andantino": AndantinoVectorEnv, "abande": AbandeVectorEnv}


# --- the path before the native state, for comparison ------------------------------------

class _PyBoardState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state on a Python board and the Python encoding (the state of
    ``hexgames.integrations.openspiel`` before it stepped native states)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.board = game.new_board()
        self.encoding = game.encoding
        self._legal: list[int] | None = None

    def _actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self.encoding.legal_actions(self.board)
        return self._legal

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self.is_terminal() else int(self.board.turn)

    def _legal_actions(self, player: int) -> list[int]:
        return [] if self.is_terminal() else list(self._actions())

    def _apply_action(self, action: int) -> None:
        self.board.push(self.encoding.move_of(action))
        self._legal = None

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.encoding.move_of(action).notation())

    def is_terminal(self) -> bool:
        return bool(self.board.is_game_over()) or not self._actions()

    def returns(self) -> list[float]:
        return list(self.encoding.returns(self.board))

    def __str__(self) -> str:
        return str(self.board)


class _PyBoardObserver:
    """The observer before: the Python encoding fills a zeroed numpy array."""

    def __init__(self, encoding: Any) -> None:
        shape = encoding.observation_shape(True)
        self.encoding = encoding
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: _PyBoardState, player: int) -> None:
        planes = self.dict["observation"]
        planes.fill(0.0)
        self.encoding.fill(planes, state.board, player)

    def string_from(self, state: _PyBoardState, player: int) -> str:
        return str(state.board.position())


def _py_game_class(base: Any, name: str) -> Any:
    game_type = hex_openspiel._game_type(f"{name}_pyboard", f"{name} (Python board)",
                                         base.DEFAULTS)

    class Game(base):  # type: ignore[misc,valid-type]
        GAME_TYPE = game_type

        def new_initial_state(self) -> _PyBoardState:
            return _PyBoardState(self)

        def make_py_observer(self, iig_obs_type: Any = None,
                             params: dict[str, Any] | None = None) -> _PyBoardObserver:
            return _PyBoardObserver(self.encoding)

    pyspiel.register_game(game_type, Game)
    return Game


_py_game_class(hex_openspiel.AndantinoGame, "python_andantino")
_py_game_class(hex_openspiel.AbandeGame, "python_abande")


def _py_raw_env(module: Any) -> Any:
    """The PettingZoo environment on a Python board and the Python encoding."""

    class PyBoardEnv(module.raw_env):  # type: ignore[misc,name-defined]
        def _start(self) -> None:
            rules = self.encoding.rules
            self._pyboard = (andantino.Board(rules=rules) if self.GAME == "andantino"
                             else abande.Board(rules=rules))
            super()._start()
            self.agent_selection = f"player_{self._pyboard.turn}"

        def _legal_actions(self) -> list[int]:
            if self._legal is None:
                self._legal = self.encoding.legal_actions(self._pyboard)
            return self._legal

        def observe(self, agent: str) -> dict[str, Any]:
            player = int(agent[-1])
            observation = self.encoding.observation(self._pyboard, player,
                                                    channels_first=False)
            mask = np.zeros(self.encoding.num_actions, np.int8)
            if agent == self.agent_selection and not self.terminations[agent]:
                mask[self._legal_actions()] = 1
            return {"observation": observation, "action_mask": mask}

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self._pyboard.push(self.encoding.move_of(int(action)))
            self._legal = None
            self.rewards = {"player_0": 0.0, "player_1": 0.0}
            if not self._legal_actions():
                first, second = self.encoding.returns(self._pyboard)
                self.rewards = {"player_0": first, "player_1": second}
                self.terminations = {"player_0": True, "player_1": True}
            self.agent_selection = f"player_{self._pyboard.turn}"
            self._accumulate_rewards()

    return PyBoardEnv


PY_ENVS = {game: _py_raw_env(module) for game, module in ENVS.items()}


# --- ceilings: games that do nothing, through the same third-party loops -------------------

def _random_game_shape(game: str, games: int = 200) -> tuple[int, int]:
    """The plies of a random game of ``game`` (OpenSpiel's, from the standard start)
    and its legal actions at a ply, the means of ``games`` games rounded: the shape of
    the do-nothing games, so that a ceiling's loop starts as many games a step as the
    real loop does (Andantino about 32 plies and 11 actions, Abande 56 and 17)."""
    spiel_game = pyspiel.load_game(f"python_{game}")
    rng = random.Random(0)
    plies = legal = 0
    for _ in range(games):
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            legal += len(actions)
            plies += 1
            state.apply_action(rng.choice(actions))
    return round(plies / games), round(legal / plies)


#: The plies of each game's do-nothing game, and its legal actions at every ply.
CEILING_SHAPES = {game: _random_game_shape(game) for game in GAME_NAMES}


def _ceiling_openspiel(game: str) -> Any:
    """A registered OpenSpiel game with ``game``'s action count and observation length,
    as many plies a game and legal actions a ply as its random games have on average,
    whose state does nothing: the fastest any Python game can run OpenSpiel's loop
    (legal actions answered in Python as our state answers them, an observation made as
    ``[0.0] * n``)."""
    real = pyspiel.load_game(f"python_{game}")
    length = math.prod(real.observation_tensor_shape())
    plies, count = CEILING_SHAPES[game]
    actions = list(range(count))
    game_type = hex_openspiel._game_type(f"python_{game}_ceiling", f"{game} (does nothing)",
                                         {})
    info = pyspiel.GameInfo(num_distinct_actions=real.num_distinct_actions(),
                            max_chance_outcomes=0, num_players=2, min_utility=-1.0,
                            max_utility=1.0, utility_sum=0.0, max_game_length=plies)

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, spiel_game: Any) -> None:
            super().__init__(spiel_game)
            self.plies = 0

        def current_player(self) -> int:
            return int(pyspiel.PlayerId.TERMINAL) if self.plies >= plies else self.plies % 2

        def legal_actions(self, player: Any = None) -> list[int]:
            return [] if self.plies >= plies else actions.copy()

        def _legal_actions(self, player: int) -> list[int]:
            return self.legal_actions()

        def _apply_action(self, action: int) -> None:
            self.plies += 1

        def is_terminal(self) -> bool:
            return self.plies >= plies

        def returns(self) -> list[float]:
            return [0.0, 0.0]

        def observation_tensor(self, player: Any = None) -> list[float]:
            return [0.0] * length

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

    pyspiel.register_game(game_type, Game)
    return Game


for _game in GAME_NAMES:
    _ceiling_openspiel(_game)


def _ceiling_pettingzoo(game: str) -> Any:
    """An AEC environment with ``game``'s spaces (from its raw environment) that does
    nothing: the fastest any environment can run PettingZoo's loop inside the same
    wrappers, with gymnasium's masked ``sample``."""
    real = ENVS[game].raw_env()
    plies, legal = CEILING_SHAPES[game]
    agents = list(real.possible_agents)
    spaces = {agent: (real.observation_space(agent), real.action_space(agent))
              for agent in agents}

    class Env(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": f"{game}_ceiling",
                                              "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = agents
            box = spaces[agents[0]][0]["observation"]
            self.observation_value = np.zeros(box.shape, box.dtype)
            self.mask = np.zeros(spaces[agents[0]][1].n, np.int8)
            self.mask[:legal] = 1

        def observation_space(self, agent: str) -> Any:
            return spaces[agent][0]

        def action_space(self, agent: str) -> Any:
            return spaces[agent][1]

        def observe(self, agent: str) -> dict[str, Any]:
            return {"observation": self.observation_value, "action_mask": self.mask}

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = agents[:]
            self.rewards = dict.fromkeys(agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(agents, 0.0)
            self.terminations = dict.fromkeys(agents, False)
            self.truncations = dict.fromkeys(agents, False)
            self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
            self.agent_selection = agents[0]
            self.plies = 0

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self.plies += 1
            if self.plies >= plies:
                self.terminations = dict.fromkeys(agents, True)
            self.agent_selection = agents[self.plies % 2]

    return Env


CEILING_ENVS = {game: _ceiling_pettingzoo(game) for game in GAME_NAMES}


# --- the loops ---------------------------------------------------------------------------

def board_rate(game: str, seconds: float, seed: int) -> float:
    return random_playouts(game, seconds, seed, native=False).plies_per_second


def openspiel_rate(game: str, seconds: float, seed: int, observe: str = "",
                   suffix: str = "") -> float:
    if "window" in suffix and game != "andantino":
        return math.nan  # Abande's board is fixed: no window
    spiel_game = pyspiel.load_game(f"python_{game}{suffix}")
    observer = make_observation(spiel_game) if observe == "numpy" else None
    rng = random.Random(seed)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if observe == "list":
                state.observation_tensor()
            elif observer is not None:
                observer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (clock() - start)


def pettingzoo_rate(game: str, seconds: float, seed: int, python: bool = False,
                    raw: bool = False, draw: str = "sample",
                    window: int | None = None, ceiling: bool = False) -> float:
    """Steps per second of the AEC loop; ``draw`` is how it picks a random legal
    action: ``"sample"`` (the action space's masked ``sample``), ``"mask"``
    (``np.flatnonzero`` of the mask) or ``"legal"`` (``env.legal_actions()``)."""
    if window is not None and game != "andantino":
        return math.nan  # Abande's board is fixed: no window
    options = {} if window is None else {"window": window}
    if ceiling:
        env = wrap(CEILING_ENVS[game]())
    elif python:
        env = wrap(PY_ENVS[game]())
    else:
        env = ENVS[game].raw_env(**options) if raw else ENVS[game].env(**options)
    rng = random.Random(seed)
    steps = 0
    start = clock()
    number = 0
    while clock() - start < seconds:
        env.reset(seed=seed + number)
        if draw == "sample":
            for i, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(seed + 2 * number + i)
        number += 1
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            if draw == "legal":
                env.step(rng.choice(env.legal_actions()))
            elif draw == "mask":
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            else:
                env.step(env.action_space(agent).sample(observation["action_mask"]))
            steps += 1
    return steps / (clock() - start)


_VECTOR_CACHE: dict[tuple[str, int, bool], Any] = {}
#: The radius of Andantino's observation window in the ``window=`` loops.
WINDOW = 8


def vector_rate(game: str, seconds: float, seed: int, num_envs: int, copy: bool,
                window: int | None = None) -> float:
    if window is not None and game != "andantino":
        return math.nan  # Abande's board is fixed: no window
    key = (f"{game} {window}", num_envs, copy)
    if key not in _VECTOR_CACHE:  # made once: a 1024-game vector holds ~100 MB of buffers
        _VECTOR_CACHE[key] = VECTORS[game](num_envs, seed=seed, copy=copy, window=window)
    env = _VECTOR_CACHE[key]
    env.reset(seed=seed)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        env.action_masks()
        env.step(env.sample_legal())
        steps += num_envs
    return steps / (clock() - start)


def batched_rate(game: str, seconds: float, seed: int, num_envs: int,
                 window: int | None = None) -> float:
    if window is not None and game != "andantino":
        return math.nan
    key = (f"{game} batched {window}", num_envs, False)
    if key not in _VECTOR_CACHE:
        _VECTOR_CACHE[key] = batched.make(game, window=window)
    env = _VECTOR_CACHE[key]
    state = env.init(np.arange(seed, seed + num_envs))
    steps = 0
    start = clock()
    while clock() - start < seconds:
        state = env.step(state, env.random_actions(state))
        steps += num_envs
    return steps / (clock() - start)


def augment_rate(game: str, seconds: float, seed: int, num_envs: int,
                 window: int | None = None) -> float:
    if window is not None and game != "andantino":
        return math.nan
    encoding = encoding_for(game)
    if window is not None:
        encoding = AndantinoEncoding(andantino.Rules(), window)
    symmetries = Symmetries(encoding)
    vector = VECTORS[game](num_envs, seed=seed, copy=False, window=window)
    for _ in range(7):
        observations, *_ = vector.step(vector.sample_legal())
    masks = vector.action_masks()
    rng = np.random.default_rng(seed)
    samples = 0
    start = clock()
    while clock() - start < seconds:
        k = rng.integers(0, 12, num_envs)
        symmetries.observation(observations, k)
        symmetries.policy(masks, k)
        samples += num_envs
    return samples / (clock() - start)


def loops() -> dict[str, Callable[[str, float, int], float]]:
    table: dict[str, Callable[[str, float, int], float]] = {
        "board": board_rate,
        "openspiel/py": lambda g, s, seed: openspiel_rate(g, s, seed, "", "_pyboard"),
        "openspiel": openspiel_rate,
        "openspiel+obs/py": lambda g, s, seed: openspiel_rate(g, s, seed, "list", "_pyboard"),
        "openspiel+obs": lambda g, s, seed: openspiel_rate(g, s, seed, "list"),
        "openspiel+obs ceiling": lambda g, s, seed: openspiel_rate(g, s, seed, "list",
                                                                   "_ceiling"),
        "openspiel+observer/py": lambda g, s, seed: openspiel_rate(g, s, seed, "numpy",
                                                                   "_pyboard"),
        "openspiel+observer": lambda g, s, seed: openspiel_rate(g, s, seed, "numpy"),
        "pettingzoo/py": lambda g, s, seed: pettingzoo_rate(g, s, seed, python=True),
        "pettingzoo": pettingzoo_rate,
        "pettingzoo ceiling": lambda g, s, seed: pettingzoo_rate(g, s, seed, ceiling=True),
        "pettingzoo raw+sample": lambda g, s, seed: pettingzoo_rate(g, s, seed, raw=True),
        "pettingzoo raw+mask": lambda g, s, seed: pettingzoo_rate(g, s, seed, raw=True,
                                                                  draw="mask"),
        "pettingzoo raw": lambda g, s, seed: pettingzoo_rate(g, s, seed, raw=True,
                                                             draw="legal"),
        f"pettingzoo raw window={WINDOW}": lambda g, s, seed: pettingzoo_rate(
            g, s, seed, raw=True, draw="legal", window=WINDOW),
        f"pettingzoo raw+mask window={WINDOW}": lambda g, s, seed: pettingzoo_rate(
            g, s, seed, raw=True, draw="mask", window=WINDOW),
    }
    for n in (1, 64, 1024):
        table[f"vector[{n}]"] = (
            lambda g, s, seed, n=n: vector_rate(g, s, seed, n, copy=False))
    table["vector[1024]+copy"] = lambda g, s, seed: vector_rate(g, s, seed, 1024, copy=True)
    for n in (64, 1024):
        table[f"batched[{n}]"] = lambda g, s, seed, n=n: batched_rate(g, s, seed, n)
    table[f"openspiel+obs window={WINDOW}"] = (
        lambda g, s, seed: openspiel_rate(g, s, seed, "list", f"(window={WINDOW})"))
    table[f"openspiel+observer window={WINDOW}"] = (
        lambda g, s, seed: openspiel_rate(g, s, seed, "numpy", f"(window={WINDOW})"))
    for n in (64, 1024):
        table[f"vector[{n}] window={WINDOW}"] = (
            lambda g, s, seed, n=n: vector_rate(g, s, seed, n, copy=False, window=WINDOW))
        table[f"batched[{n}] window={WINDOW}"] = (
            lambda g, s, seed, n=n: batched_rate(g, s, seed, n, window=WINDOW))
    table["augment[1024]"] = lambda g, s, seed: augment_rate(g, s, seed, 1024)
    table[f"augment[1024] window={WINDOW}"] = (
        lambda g, s, seed: augment_rate(g, s, seed, 1024, WINDOW))
    return table


def _seconds(text: str) -> float:
    """``--seconds``: a finite number above 0 (0, a negative or NaN measured nothing and
    printed 0 steps/s; infinity never ended)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number of seconds "
                                         "above 0")
    return value


def _rounds(text: str) -> int:
    """``--rounds``: at least one (the figures are medians of the rounds)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of rounds, at "
                                         "least 1 (each figure is their median)")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--seconds", type=_seconds, default=1.0,
                        help="the time of each loop in each round (above 0)")
    parser.add_argument("--rounds", type=_rounds, default=3,
                        help="the interleaved rounds, each figure their median (at least 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time the loops by the wall clock or the process's CPU time")
    parser.add_argument("--only", nargs="+", metavar="LOOP", help="run only these loops")
    args = parser.parse_args()
    global clock
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    table = loops()
    names = args.only or list(table)
    unknown = [name for name in names if name not in table]
    if unknown:
        parser.error(f"unknown loops {unknown} (known: {', '.join(table)})")
    print(f"steps per second with random legal actions, median of {args.rounds} "
          f"interleaved rounds of {args.seconds:g} s by the {args.clock} clock "
          f"(numpy {np.__version__})")
    for game in args.game or GAME_NAMES:
        rates: dict[str, list[float]] = {name: [] for name in names}
        for r in range(args.rounds):
            for name in names:
                rates[name].append(table[name](game, args.seconds, args.seed + r))
        medians = {name: statistics.median(values) for name, values in rates.items()}
        print(f"{game}:")
        for name, rate in medians.items():
            base = name.removesuffix("/py")
            speedup = ""
            if name != base and base in medians:
                speedup = f"   native {medians[base] / rate:.1f}x"
            if math.isnan(rate):
                continue  # a loop of the other game (Andantino's window)
            spread = f"{min(rates[name]):,.0f}..{max(rates[name]):,.0f}"
            target = TARGETS.get((game, name))
            goal = "" if target is None else (
                f"   target {target:,.0f}: {'met' if rate >= target else 'not met'}")
            if target is not None and name.endswith(" ceiling"):
                goal = (f"   target {target:,.0f}: "
                        f"{'below' if rate >= target else 'beyond'} this ceiling")
            print(f"  {name:28} {rate:>12,.0f}/s  ({spread}){speedup}{goal}")
        _VECTOR_CACHE.clear()


if __name__ == "__main__":
    main()
