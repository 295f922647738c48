"""The AEC environment both games share (PettingZoo's classic board-game conventions).

- **Agents** ``player_0`` (the first player: White in Andantino, Black in Abande) and
  ``player_1``; ``agent_selection`` is always the side to move.
- **Actions**: ``Discrete(num_actions)`` of :mod:`hexgames.integrations.encoding`.
- **Observations**: a dict of ``observation``, a ``float32`` array of shape
  ``(2R + 1, 2R + 1, planes)`` (channels last) from the observing agent's point of view,
  values in [0, 1], and ``action_mask``, an ``int8`` vector of shape ``(num_actions,)``
  with 1 for the legal actions (all 0 for the agent not to move, and after the end).
  Each ``observe`` / ``last`` returns new arrays: keep them, no later step writes into
  them. ``env.legal_actions()`` lists the mask's legal actions (ascending ints), so a
  random legal action is ``rng.choice(env.legal_actions())`` without scanning the mask.
- **Rewards**: +1 to the winner and -1 to the loser when the game ends, 0 for a draw and
  on every other step. Games are finite, so nothing is ever truncated.
- **Render modes**: ``"ansi"`` returns the board's text (``str(board)``);
  ``"rgb_array"`` a ``uint8`` picture ``(height, width, 3)`` of the hexagon of cells.

:func:`wrap` adds PettingZoo's standard wrappers: an illegal action ends the game with
-1 for its agent, an action outside the space is an assertion error, and the AEC call
order is enforced. They cost more than the game: ``raw_env`` is the fast environment
without them, and passes PettingZoo's ``api_test`` too
(``tests/test_integrations_pettingzoo.py``); there an illegal action raises
``IllegalMoveError`` and an action outside the space ``HexgamesError`` (both
``ValueError``), and nothing is played. ``copy.deepcopy(env)`` and pickling keep the
game as it stands (PettingZoo's EzPickle alone would give a new game at the start).

**Native speed.** The environment steps a native state of the Rust core
(``hexgames._native.AndantinoState`` / ``AbandeState``, through :mod:`hexgames.native`);
masks and observations are written by the native encoder straight into the numpy
arrays (one native call for both, one for a step and the end's test), equal to
:mod:`hexgames.integrations.encoding` (``raw_env.encoding``, the Python reference) on
every ply. The rewards and cumulative rewards, all 0 while the game goes on, change
only at the end. ``raw_env.board`` is a hexgames board of the position, built
from the native state's moves only when read (read it, do not push to it).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hexgames import abande, andantino, native
from hexgames.core import HexgamesError
from hexgames.integrations._boards import LazyBoard
from hexgames.integrations.encoding import AbandeEncoding, AndantinoEncoding

AGENTS = ("player_0", "player_1")
_PLAYERS = {agent: player for player, agent in enumerate(AGENTS)}
RENDER_MODES = ("ansi", "rgb_array")
ColorArray = npt.NDArray[np.uint8]

_BACKGROUND = (255, 255, 255)
_EMPTY = (222, 210, 180)
_LEGAL = (196, 182, 148)
_EDGE = (110, 100, 90)


class HexgamesEnv(AECEnv, EzPickle):  # type: ignore[misc]
    """Base of ``andantino_v0.raw_env`` and ``abande_v0.raw_env``.

    Args:
        render_mode: ``None``, ``"ansi"`` or ``"rgb_array"``.
        **options: the game's rules options (``Rules`` fields, e.g.
            ``single_adjacency=True``); the standard game without any.

    Raises:
        ValueError: for an unknown render mode or a bad rules option (including
            Andantino's unlimited tiles).
    """

    metadata: ClassVar[dict[str, Any]]
    #: The game's name for :mod:`hexgames.native`.
    GAME: ClassVar[str]
    #: Pixels per unit of hex size in ``rgb_array`` pictures.
    PIXELS: ClassVar[int] = 8
    #: Draw columns of cells (flat-topped hexagons, as Abande's board names run) rather
    #: than rows (pointed tops, as Andantino's text board).
    FLAT_TOP: ClassVar[bool] = False

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **options)
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        self.encoding = self._make_encoding(options)
        enc = self.encoding
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(enc.num_actions) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, enc.observation_shape(False), np.float32),
                "action_mask": spaces.Box(0, 1, (enc.num_actions,), np.int8),
            }) for a in AGENTS}
        self._set_natives()
        self._state: Any = self._new_state()
        self._legal: list[int] | None = None
        self._pixels: npt.NDArray[np.intp] | None = None
        self._start()

    # -- the native state --------------------------------------------------------------

    def _set_natives(self) -> None:
        """The native encoder, the observation shape and the lazy board of the rules."""
        options = self.encoding.rules.options()
        window = getattr(self.encoding, "window", None)
        words = [*options, f"window={window}"] if window is not None else options
        self._encoder: Any = native.encoder(self.GAME, words)
        self._shape = self.encoding.observation_shape(False)
        self._num_actions = self.encoding.num_actions
        self._lazy = LazyBoard(self.GAME, options)
        # Copied at each reset: a copy costs a tenth of making a state from the options.
        self._start_state = native.state_class(self.GAME)(None, options)

    def _new_state(self) -> Any:
        """A native state at the start."""
        return self._start_state.copy()

    @property
    def board(self) -> andantino.Board | abande.Board:
        """A hexgames board of the position, built from the native state's moves when
        read (read it, do not push to it)."""
        return self._lazy.board(self._encoder.moves(self._state))

    # -- copies: the whole game, not EzPickle's fresh environment ---------------------
    # The native state is copied; the board is built again when read.

    def __deepcopy__(self, memo: dict[int, Any]) -> HexgamesEnv:
        """A copy in the same position (tree searches copy environments); the encodings
        and the picture cache, never written after they are made, are shared."""
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        for key, value in self.__dict__.items():
            if key == "_state":
                value = self._state.copy()
            elif key not in ("encoding", "_encoder", "_pixels", "_shape", "_num_actions",
                             "_start_state"):
                value = copy.deepcopy(value, memo)
            twin.__dict__[key] = value
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """The game as it stands (EzPickle alone would restore a new game at the start):
        the position as its moves (``board``: notations, as before the native state);
        the encodings are rebuilt from the rules."""
        state = dict(self.__dict__)
        for key in ("encoding", "_encoder", "_lazy", "_shape", "_num_actions", "_state",
                    "_start_state"):
            state.pop(key, None)
        state["board"] = self._encoder.moves(self._state)
        state["_pixels"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        moves = state.pop("board")
        self.__dict__.update(state)
        options = {key: value for key, value in state["_ezpickle_kwargs"].items()
                   if key != "render_mode"}
        self.encoding = self._make_encoding(options)
        self._set_natives()
        self._state = self._new_state()
        self._state.push_moves(list(moves))

    # -- what a game provides -------------------------------------------------------

    def _make_encoding(self, options: dict[str, Any]) -> AndantinoEncoding | AbandeEncoding:
        raise NotImplementedError

    def _cell_colors(self) -> ColorArray:
        """RGB of each cell of ``encoding.cells`` for ``rgb_array``, shape (cells, 3)."""
        raise NotImplementedError

    # -- the AEC interface ------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same for both)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same for both)."""
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self._state.turn]
        self._legal = None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. The games have no chance, so ``seed`` changes nothing."""
        self._state = self._new_state()
        self._lazy.clear()
        self._start()

    def _legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._encoder.legal_actions(self._state)
        return self._legal

    def legal_actions(self) -> list[int]:
        """The legal actions of ``agent_selection``, ascending, as a new list: the
        entries 1 of its ``action_mask``, none once it is done. Drawing a random legal
        action from it (``rng.choice(env.legal_actions())``) spares scanning the mask
        (``numpy.flatnonzero`` of thousands of entries for Andantino)."""
        agent = self.agent_selection
        if agent not in self.agents or self.terminations[agent]:
            return []
        return list(self._legal_actions())

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """``agent_selection`` at each turn until every agent is done (or ``max_iter``
        turns), as PettingZoo's: each ``iter`` of it starts again."""
        return _AgentIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[dict[str, Any] | None, float, bool,
                                                  bool, dict[str, Any]]:
        """``(observation, cumulative reward, termination, truncation, info)`` of
        ``agent_selection``, as PettingZoo's (``observation`` is ``None`` when
        ``observe`` is false)."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation": (rows, columns, planes) float32, "action_mask":
        (num_actions,) int8}`` for ``agent``, new arrays at each call (keep them); the
        mask is all 0 unless ``agent`` is to move.

        Raises:
            ValueError: for an agent other than ``player_0`` and ``player_1``.
        """
        player = _PLAYERS.get(agent) if isinstance(agent, str) else None
        if player is None:  # (a list, unhashable, was a TypeError)
            raise ValueError(f"unknown agent {agent!r} (the agents are {', '.join(AGENTS)})")
        observation = np.empty(self._shape, np.float32)
        mask = np.empty(self._num_actions, np.int8)
        # One pass over the legal moves writes both (the arguments after the mask:
        # player, whether the mask is the legal one, channels first). An agent removed
        # after the end has no entry in ``terminations``: it is done.
        self._encoder.observe_and_mask(
            self._state, observation, mask, player,
            agent == self.agent_selection and not self.terminations.get(agent, True),
            False)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection``; ``None`` once the agent is done.

        Raises:
            hexgames.IllegalMoveError: for an illegal action (the wrapped ``env()``
                ends the game with -1 for the agent instead).
            hexgames.HexgamesError: for an action outside the space or that is no
                whole number (a float, a string, ``None``: never rounded or parsed),
                or a step once every agent is done (after the end's ``None`` steps).
        """
        agent = self.agent_selection
        if self.terminations.get(agent, True) or self.truncations[agent]:
            if agent not in self.agents:
                raise HexgamesError("the game is over and every agent is done: reset() "
                                    "starts a new one")
            self._was_dead_step(action)
            return
        # While the game goes on every reward is 0 (so is every cumulative reward):
        # the dicts change only at the end. The native call checks the action (a
        # whole number, numpy's included) as it is.
        over = self._encoder.play_action(self._state, action)
        self._legal = None
        self.agent_selection = AGENTS[self._state.turn]
        if over:
            first, second = self._encoder.returns(self._state)
            self._cumulative_rewards[agent] = 0.0
            self.rewards = {AGENTS[0]: first, AGENTS[1]: second}
            self.terminations = dict.fromkeys(AGENTS, True)
            self._accumulate_rewards()

    def render(self) -> str | ColorArray | None:
        """The board's text (``"ansi"``) or picture (``"rgb_array"``), see the module
        docstring; ``None`` with a warning when no render mode was given."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "ansi":
            return str(self.board)
        return self._picture()

    def close(self) -> None:
        """Nothing to release."""

    # -- rgb_array --------------------------------------------------------------------

    def _pixel_cells(self) -> npt.NDArray[np.intp]:
        """For each pixel, the index of its cell in ``encoding.cells``, ``-1`` outside
        the hexagon and ``-2`` on a cell's rim (computed once: a hex lattice's nearest-
        centre regions are hexagons)."""
        if self._pixels is not None:
            return self._pixels
        enc = self.encoding
        size = self.PIXELS
        radius = enc.radius
        width = int(math.sqrt(3) * size * (2 * radius + 1)) + 2
        height = int(size * (3 * radius + 2)) + 2
        y, x = np.mgrid[0:height, 0:width].astype(np.float64)
        x = (x - width / 2) / size
        y = (y - height / 2) / size
        fq = (math.sqrt(3) / 3 * x - y / 3)
        fr = 2 / 3 * y
        fs = -fq - fr
        q, r, s = np.round(fq), np.round(fr), np.round(fs)
        dq, dr, ds = np.abs(q - fq), np.abs(r - fr), np.abs(s - fs)
        q = np.where((dq > dr) & (dq > ds), -r - s, q)
        r = np.where(~((dq > dr) & (dq > ds)) & (dr > ds), -q - s, r)
        table = np.full((2 * radius + 3, 2 * radius + 3), -1, np.intp)
        for i, (cq, cr) in enumerate(enc.cells):
            if self.FLAT_TOP:  # drawn transposed: (q, r) plays (r, q)
                cq, cr = cr, cq
            table[cr + radius + 1, cq + radius + 1] = i
        rows = np.clip(r.astype(np.intp) + radius + 1, 0, 2 * radius + 2)
        cols = np.clip(q.astype(np.intp) + radius + 1, 0, 2 * radius + 2)
        index: npt.NDArray[np.intp] = table[rows, cols]
        # The rim: the offset from the cell's centre along the three directions to
        # its neighbours, near half the distance to them.
        ox = x - math.sqrt(3) * (q + r / 2)
        oy = y - 1.5 * r
        reach = np.maximum(np.abs(ox), np.abs(ox / 2 + oy * math.sqrt(3) / 2))
        reach = np.maximum(reach, np.abs(ox / 2 - oy * math.sqrt(3) / 2))
        index[(reach > 0.75) & (index >= 0)] = -2
        if self.FLAT_TOP:
            index = np.ascontiguousarray(index.T)
        self._pixels = index
        return index

    def _picture(self) -> ColorArray:
        colors = np.vstack([self._cell_colors(), np.array([_EDGE, _BACKGROUND], np.uint8)])
        return colors[self._pixel_cells()]


class _AgentIterable:
    """What ``agent_iter`` returns: each ``iter`` a generator over the turns (cheaper
    per turn than PettingZoo's iterator class, the same agents)."""

    def __init__(self, env: HexgamesEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        for _ in range(self.max_iter):
            if not env.agents:
                return
            yield env.agent_selection


def wrap(raw: HexgamesEnv) -> Any:
    """``raw`` inside PettingZoo's standard wrappers: ``TerminateIllegalWrapper``
    (reward -1), ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def base_colors(encoding: AndantinoEncoding | AbandeEncoding,
                legal: list[int]) -> ColorArray:
    """The colours of empty cells: ``_EMPTY``, or ``_LEGAL`` for targets of ``legal``
    actions that are cells (entries and placements)."""
    colors = np.empty((len(encoding.cells), 3), np.uint8)
    colors[:] = _EMPTY
    cells = [a for a in legal if a < len(encoding.cells)]
    colors[cells] = _LEGAL
    return colors
