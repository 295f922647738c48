"""N games stepped at once in one native call: gymnasium-style vector environments for
self-play reinforcement learning (``pip install hexgames[rl]``: numpy and gymnasium)::

    import numpy as np
    from hexgames.integrations.vector import AndantinoVectorEnv

    envs = AndantinoVectorEnv(num_envs=64, seed=1)
    observations, infos = envs.reset()            # (64, 9, 51, 51) float32
    for _ in range(1000):
        masks = envs.action_masks()               # (64, 1951) int8
        actions = envs.sample_legal()             # or a policy's masked choice
        observations, rewards, terminations, truncations, infos = envs.step(actions)

:class:`AndantinoVectorEnv` and :class:`AbandeVectorEnv` follow gymnasium's
:class:`gymnasium.vector.VectorEnv` (they are subclasses, so its vector wrappers apply).
The N games live in the Rust core (:mod:`hexgames.native`); ``step`` plays all N
actions, writes all N observations and releases the GIL while it does. Large
observations (Andantino's) and masks are updated in place: only the planes whose value
changed and the squares marked before or after the step are written, so with
``copy=False`` the arrays returned are read-only views of buffers that the next call
changes.

**Spaces.** ``single_action_space`` is ``Discrete(num_actions)`` and
``action_space`` ``MultiDiscrete([num_actions] * N)``: the actions of
:mod:`hexgames.integrations.encoding`. ``single_observation_space`` is ``Box(0, 1,
shape, float32)`` with ``shape`` the encoding's planes, ``(planes, 2R + 1, 2R + 1)``
(``channels_first=True``, the default) or ``(2R + 1, 2R + 1, planes)``;
``observation_space`` adds the leading N (built when first read: gymnasium stores its
bounds at full size).

**Observations** ``(N, *shape)`` ``float32`` are from the point of view of the player
to move in each game (``current_player``, ``(N,)`` ``int8``, 0 the first player), so
one policy can play both sides. **Action masks** ``(N, num_actions)`` ``int8`` mark the
legal actions (:meth:`action_masks`; :meth:`sample_legal` draws uniformly among them).

**Rewards** ``(N,)`` ``float32`` are from the point of view of the player who moved:
+1 if the move won, -1 if it lost (a self-trap; an illegal action when
``illegal_action="lose"``), 0 otherwise, and only at the end (the opponent's reward is
the opposite: the games are zero-sum). ``terminations`` ``(N,)`` ``bool`` is true when
the game ended; ``truncations`` is always false (every game is finite).

**Autoreset: same-step** (``metadata["autoreset_mode"]`` is
``gymnasium.vector.AutoresetMode.SAME_STEP``): a game that ends in ``step`` is reset in
the same call, so the returned observation (and ``current_player``, and the masks) are
already those of the new game. The last observation of the game that ended is in
``infos["final_obs"][i]`` (an object array, ``None`` elsewhere; ``infos["_final_obs"]``
marks the games that ended), and ``infos["final_info"]`` has ``winner`` (``int8``: 0, 1,
or -1 for a draw), ``plies`` (the game's length) and ``illegal`` (whether an illegal
action ended it), each with its ``_`` mask. Every game always has a legal action.

**Errors.** An action outside ``0 .. num_actions - 1`` raises ``HexgamesError`` and an
illegal one ``IllegalMoveError`` (both ``ValueError``), naming the env index, the action,
its move and the reason; nothing is played then. With ``illegal_action="lose"`` an
illegal action instead ends that game as a loss of the player who made it (reward -1,
``final_info["illegal"]``). Bad shapes or dtypes raise ``ValueError`` naming them.

**Seeding.** The games have no chance: the seed drives :meth:`sample_legal`'s native
generator (and the spaces' ``sample``), so the same seed and the same calls give the
same games. ``reset(seed=s)`` seeds it anew.

Andantino is played on the hexagon of radius ``tiles_per_player`` (extended play
confined to it; unlimited tiles are refused), as in
:mod:`hexgames.integrations.encoding`.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from hexgames import abande, andantino, native
from hexgames.core import HexgamesError
from hexgames.integrations.encoding import rules_from

__all__ = ["AbandeVectorEnv", "AndantinoVectorEnv", "HexgamesVectorEnv"]

FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]
Int64Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
RulesLike = andantino.Rules | abande.Rules | Mapping[str, Any] | Sequence[str] | str | None

ILLEGAL_ACTIONS = ("raise", "lose")


def _seed_of(seed: Any) -> int:
    """``seed`` checked: a whole number, 0 or more (gymnasium's spaces take no other)."""
    if isinstance(seed, bool):
        raise HexgamesError(f"seed must be a whole number, 0 or more, not {seed!r}")
    try:
        value = operator.index(seed)
    except TypeError:
        raise HexgamesError(f"seed must be a whole number, 0 or more, not {seed!r}") from None
    if value < 0:
        raise HexgamesError(f"seed must be a whole number, 0 or more, not {value}")
    return value


class HexgamesVectorEnv(VectorEnv[FloatArray, Int64Array, Any]):
    """What both games' vector environments share; use :class:`AndantinoVectorEnv` or
    :class:`AbandeVectorEnv`.

    Args:
        num_envs: N, the number of games (at least 1).
        rules: the rules: a ``Rules`` object, its options as keywords (a mapping) or as
            ``key=value`` words; the standard game by default.
        seed: seeds :meth:`sample_legal` and the spaces; ``None`` for a random seed.
        channels_first: observations ``(planes, rows, columns)`` if true (PyTorch's
            layout), else ``(rows, columns, planes)``.
        copy: whether ``reset``, ``step`` and :meth:`action_masks` return new arrays
            (the default) or read-only views of the environment's own buffers, which
            the next call updates in place (copy what you keep or change).
        illegal_action: ``"raise"`` (the default) or ``"lose"`` (see the module
            docstring).
        window: Andantino only: observations through the window of radius W around
            the tiles, re-centred at every ply (``AndantinoEncoding(rules, window=W)``
            of :mod:`hexgames.integrations.encoding`: 12 planes of ``2W + 1`` squares);
            ``None`` for the whole hexagon.
        move_count: whether the observations end with the ``move_count`` plane (the
            plies played over the longest game's; ``MOVE_COUNT`` of
            :mod:`hexgames.integrations.encoding`), one plane more.

    Raises:
        ValueError: for a bad ``window``, bad rules (``InvalidRulesError``), ``num_envs`` below 1 or
            buffers above ``2**28`` values, a bad ``illegal_action``, or a ``seed`` that
            is not a whole number 0 or more (``HexgamesError``, also from ``reset``).
        TypeError: for a ``num_envs`` that is not an integer.
    """

    GAME: ClassVar[str]
    RULES: ClassVar[type[andantino.Rules] | type[abande.Rules]]
    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int = 1, rules: RulesLike = None, seed: int | None = None,
                 *, channels_first: bool = True, copy: bool = True,
                 illegal_action: str = "raise", window: int | None = None,
                 move_count: bool = False) -> None:
        count = operator.index(num_envs)
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, "
                             f"not {illegal_action!r}")
        self.rules = self._rules_of(rules)
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        seed = _seed_of(seed)
        options = list(self.rules.options())
        if window is not None:
            if self.GAME != "andantino":
                raise ValueError(f"window is an Andantino option; {self.GAME} has a fixed "
                                 f"board (not window={window!r})")
            if isinstance(window, bool) or not isinstance(window, int):
                raise ValueError(f"window must be a whole number from 1 to "
                                 f"tiles_per_player, not {window!r}")
            options.append(f"window={window}")
        if move_count:
            options.append("move_count=on")
        self.window = window
        self.move_count = bool(move_count)
        self._core = native.vector_core(self.GAME, count, options, seed % 2**64)
        self.num_envs = count
        self.num_actions: int = self._core.num_actions
        self.channels_first = channels_first
        self.copy = copy
        self.illegal_action = illegal_action
        shape = self._core.observation_shape(channels_first)
        self.single_observation_space = spaces.Box(0.0, 1.0, shape, np.float32, seed=seed)
        self.single_action_space = spaces.Discrete(self.num_actions, seed=seed)
        self._action_space: spaces.Space[Any] = spaces.MultiDiscrete(
            np.full(count, self.num_actions), seed=seed)
        self._observation_space: spaces.Space[Any] | None = None
        self._shape: tuple[int, int, int] = shape
        self._seed = seed
        self._obs: FloatArray = np.zeros((count, *shape), np.float32)
        self._rewards: FloatArray = np.zeros(count, np.float32)
        self._terminations: BoolArray = np.zeros(count, np.bool_)
        self._truncations: BoolArray = np.zeros(count, np.bool_)
        self._illegal: BoolArray = np.zeros(count, np.bool_)
        self._winners: Int8Array = np.zeros(count, np.int8)
        self._plies = np.zeros(count, np.uint32)
        self._actions: Int64Array = np.zeros(count, np.int64)
        self._players: Int8Array = np.zeros(count, np.int8)
        self._masks: Int8Array | None = None
        self._core.observe(self._obs, channels_first)
        # What copy=False returns: read-only views, made once. The core updates the
        # buffers in place (only what a step changed), so a caller must not write there.
        self._views: dict[int, npt.NDArray[Any]] = {}

    @classmethod
    def _rules_of(cls, rules: RulesLike) -> Any:
        if rules is None:
            return cls.RULES()
        if isinstance(rules, cls.RULES):
            return rules
        if isinstance(rules, Mapping):
            return rules_from(cast(Any, cls.RULES), rules)
        if isinstance(rules, str | Sequence):
            return cls.RULES.from_options(rules)
        raise TypeError(f"rules must be {cls.RULES.__name__}, a mapping of options or "
                        f"key=value words, not {type(rules).__name__}")

    # -- spaces ------------------------------------------------------------------------

    @property
    def action_space(self) -> spaces.Space[Any]:
        """``MultiDiscrete([num_actions] * num_envs)``."""
        return self._action_space

    @action_space.setter
    def action_space(self, space: spaces.Space[Any]) -> None:
        self._action_space = space

    @property
    def observation_space(self) -> spaces.Space[Any]:
        """``Box(0, 1, (num_envs, *shape), float32)``, built when first read."""
        if self._observation_space is None:
            shape = (self.num_envs, *self._shape)
            self._observation_space = spaces.Box(0.0, 1.0, shape, np.float32,
                                                 seed=self._seed)
        return self._observation_space

    @observation_space.setter
    def observation_space(self, space: spaces.Space[Any]) -> None:
        self._observation_space = space

    # -- the vector interface ------------------------------------------------------------

    def _out(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        if self.copy:
            return array.copy()
        view = self._views.get(id(array))
        if view is None:
            view = array.view()
            view.flags.writeable = False
            self._views[id(array)] = view
        return view

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[FloatArray, dict[str, Any]]:
        """Every game back at the start; ``seed`` seeds :meth:`sample_legal` anew.

        Returns:
            ``(observations, infos)``: ``(num_envs, *shape)`` ``float32`` and ``{}``.
        """
        if seed is not None:
            seed = _seed_of(seed)
        super().reset(seed=seed)
        if seed is not None:
            self._seed = seed
            self.single_action_space.seed(seed)
            self._action_space.seed(seed)
        self._core.reset(None if seed is None else seed % 2**64)
        self._core.observe(self._obs, self.channels_first)
        return self._out(self._obs), {}

    def step(self, actions: Any) -> tuple[FloatArray, FloatArray, BoolArray, BoolArray,
                                          dict[str, Any]]:
        """Play ``actions[i]`` in game ``i`` for every i, restarting the games that end.

        Args:
            actions: ``num_envs`` integer actions (any integer dtype, or a list).

        Returns:
            ``(observations, rewards, terminations, truncations, infos)``: shapes
            ``(num_envs, *shape)``, ``(num_envs,)`` ``float32`` (the mover's reward),
            ``(num_envs,)`` ``bool`` twice, and the infos of the module docstring.

        Raises:
            ValueError: for actions of another shape or a dtype that is not integer;
                ``HexgamesError`` for an action outside the space, ``IllegalMoveError``
                for an illegal one (unless ``illegal_action="lose"``), naming the env.
        """
        self._actions[:] = self._checked(actions)
        ended = self._core.step(
            self._actions, self._rewards, self._terminations.view(np.uint8),
            self._winners, self._illegal.view(np.uint8), self._plies,
            self.illegal_action == "lose", self._obs, self.channels_first)
        infos: dict[str, Any] = {}
        if ended:
            done = self._terminations.copy()
            final = np.empty(self.num_envs, dtype=object)  # None but where a game ended
            for i in done.nonzero()[0].tolist():
                final[i] = self._obs[i].copy()
            infos = {
                "final_obs": final, "_final_obs": done,
                "final_info": {"winner": self._winners.copy(), "_winner": done,
                               "plies": self._plies.astype(np.int64), "_plies": done,
                               "illegal": self._illegal.copy(), "_illegal": done},
                "_final_info": done,
            }
            self._core.autoreset(self._obs, self.channels_first)
        return (self._out(self._obs), self._out(self._rewards),
                self._out(self._terminations), self._out(self._truncations), infos)

    def _checked(self, actions: Any) -> npt.NDArray[Any]:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), one per env, "
                             f"not {array.shape}")
        if array.dtype.kind not in "iu":
            raise ValueError(f"actions must be integers, not of dtype {array.dtype}")
        if array.dtype.kind == "u" and array.size and int(array.max()) >= 2**63:
            i = int(np.argmax(array))
            raise ValueError(f"env {i}: action {int(array[i])} is outside the action "
                             f"space 0..{self.num_actions - 1}")
        return array

    def action_masks(self) -> Int8Array:
        """The legal actions of every game: ``(num_envs, num_actions)`` ``int8``, 1 for
        the legal actions (the name ``sb3-contrib``'s maskable algorithms look for)."""
        if self._masks is None:
            self._masks = np.zeros((self.num_envs, self.num_actions), np.int8)
        self._core.masks(self._masks)
        return self._out(self._masks)

    @property
    def current_player(self) -> Int8Array:
        """The player to move in each game, ``(num_envs,)`` ``int8``: 0 the first player
        (White in Andantino, Black in Abande), 1 the second."""
        self._core.current_players(self._players)
        return self._players.copy()

    def window_centres(self) -> npt.NDArray[np.int32]:
        """The centre ``(q, r)`` of each game's observation window, ``(num_envs, 2)``
        ``int32`` (Andantino with ``window``; ``AndantinoEncoding.window_actions`` maps
        the window's squares to actions around them).

        Raises:
            ValueError: for an environment without a window.
        """
        out = np.zeros((self.num_envs, 2), np.int32)
        self._core.window_centres(out)
        return out

    def sample_legal(self, rng: np.random.Generator | int | None = None) -> Int64Array:
        """A uniformly random legal action of each game, ``(num_envs,)`` ``int64``,
        drawn natively: by the environment's generator (seeded by ``seed``) for
        ``None``, else by a generator seeded with ``rng`` (an int) or with a number
        drawn from ``rng`` (a numpy ``Generator``)."""
        seed: int | None
        if rng is None:
            seed = None
        elif isinstance(rng, np.random.Generator):
            seed = int(rng.integers(0, 2**63))
        else:
            seed = operator.index(rng) % 2**64
        out = np.empty(self.num_envs, np.int64)
        self._core.sample_legal(out, seed)
        return out

    def legal_actions(self, index: int) -> list[int]:
        """The legal actions of game ``index``, ascending.

        Raises:
            ValueError: for an index outside ``0 .. num_envs - 1``.
        """
        return list(self._core.legal_actions(index))

    def board(self, index: int) -> andantino.Board | abande.Board:
        """A new hexgames board of game ``index``'s position (to inspect it: print it,
        ask its legal moves or outcome); built from the game's moves.

        Raises:
            ValueError: for an index outside ``0 .. num_envs - 1``.
        """
        board: andantino.Board | abande.Board = (
            andantino.Board(rules=self.rules) if self.GAME == "andantino"
            else abande.Board(rules=self.rules))
        for text in self._core.moves(index):
            board.push_notation(text)
        return board

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        options = " ".join(self.rules.options())
        return (f"{type(self).__name__}(num_envs={self.num_envs}"
                f"{f', rules={options!r}' if options else ''})")


class AndantinoVectorEnv(HexgamesVectorEnv):
    """N Andantino games (see :class:`HexgamesVectorEnv` for the arguments): actions on
    the hexagon of radius ``tiles_per_player`` (1951 for the standard game),
    observations of 9 planes ``(9, 51, 51)``."""

    GAME: ClassVar[str] = "andantino"
    RULES = andantino.Rules


class AbandeVectorEnv(HexgamesVectorEnv):
    """N Abande games (see :class:`HexgamesVectorEnv` for the arguments): 260 actions,
    observations of ``2 max_height + 6`` planes ``(12, 7, 7)``."""

    GAME: ClassVar[str] = "abande"
    RULES = abande.Rules
