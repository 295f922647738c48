"""Both games as batched environments in the manner of Pgx, on NumPy arrays (needs numpy)::

    import numpy as np
    from hexgames.integrations.batched import make

    env = make("abande")
    state = env.init(np.arange(1024))                 # 1024 games at the start
    while True:
        actions = env.random_actions(state)           # or a policy's masked choice
        state = env.step(state, actions)
        ...   # state.observation, state.legal_action_mask, state.rewards, ...

Pgx (Koyamada et al., "Pgx: Hardware-Accelerated Parallel Game Simulators for
Reinforcement Learning", NeurIPS 2023) steps many games as one ``State`` of batched
arrays: ``init(keys)``, ``step(state, actions)``. This module offers that interface
over the native vector of games of :mod:`hexgames.integrations.vector`, one native call
per step with the GIL released.

**State** (:class:`State`), each array with the N games on the first axis:

- ``current_player`` ``(N,)`` ``int8``: the player to move, 0 the first player (White
  in Andantino, Black in Abande), 1 the second;
- ``observation`` ``(N, *observation_shape)`` ``float32``: from the point of view of the
  player to move, the planes of :mod:`hexgames.integrations.encoding`;
- ``legal_action_mask`` ``(N, num_actions)`` ``bool``;
- ``rewards`` ``(N, 2)`` ``float32``: each player's reward for the step just played, +1
  the winner and -1 the loser of a game that ended, 0 otherwise;
- ``terminated`` ``(N,)`` ``bool``: the game ended in the step; ``truncated`` ``(N,)``
  ``bool``: always false (every game is finite);
- ``step_count`` ``(N,)`` ``int32``: the plies of the game now being played;
- ``window_centre`` ``(N, 2)`` ``int32``, Andantino with ``window`` only (else
  ``None``): the centre ``(q, r)`` of each observation's window, for
  ``AndantinoEncoding.window_actions`` to map the window's squares to actions.

**Auto-reset.** A game that ends in ``step`` is restarted in the same step (as Pgx's
``auto_reset`` wrapper does): its ``terminated`` and ``rewards`` are those of the move
that ended it, and everything else (``observation``, ``legal_action_mask``,
``current_player``, ``step_count`` 0) is already the new game's.

**Not a functional state.** Pgx's states are immutable values; here the games live in
the native core and each ``step`` overwrites the arrays of the state before (no copy is
made: ``state.copy()`` keeps one). ``observation`` and ``legal_action_mask`` are
read-only views: the core updates them in place, writing only the planes and squares a
step changed (copy them to change them). ``step`` therefore takes only the latest state of its
environment, and raises ``ValueError`` for an older one.

**Illegal actions** end the game as a loss of the player who made it (reward -1, and +1
to the opponent), as in Pgx; ``illegal_action="raise"`` raises ``IllegalMoveError``
instead. An action outside ``0 .. num_actions - 1`` always raises ``HexgamesError``
(a ``ValueError``) naming the game's index, and nothing is played then.

**Keys.** The games have no chance: ``keys`` gives N (its first axis) and seeds
:meth:`Env.random_actions`. Any integer array will do, Pgx's ``(N, 2)`` ``uint32`` keys
included.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from hexgames.integrations.vector import (
    AbandeVectorEnv,
    AndantinoVectorEnv,
    HexgamesVectorEnv,
    RulesLike,
)

__all__ = ["Env", "State", "make"]

FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]
Int32Array = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass
class State:
    """N games after a step (see the module docstring for the fields)."""

    current_player: Int8Array
    observation: FloatArray
    legal_action_mask: BoolArray
    rewards: FloatArray
    terminated: BoolArray
    truncated: BoolArray
    step_count: Int32Array
    window_centre: Int32Array | None = None
    _env: int = field(default=0, repr=False)
    _generation: int = field(default=0, repr=False)

    def copy(self) -> State:
        """A state whose arrays are copies, kept when the environment steps on (it
        cannot itself be stepped)."""
        return replace(self, current_player=self.current_player.copy(),
                       observation=self.observation.copy(),
                       legal_action_mask=self.legal_action_mask.copy(),
                       rewards=self.rewards.copy(), terminated=self.terminated.copy(),
                       truncated=self.truncated.copy(), step_count=self.step_count.copy(),
                       window_centre=(None if self.window_centre is None
                                      else self.window_centre.copy()),
                       _generation=-1)


class Env:
    """One game's batched environment; :func:`make` builds one by name.

    Args:
        game: ``"andantino"`` or ``"abande"``.
        rules: as :class:`hexgames.integrations.vector.HexgamesVectorEnv` takes them (a
            ``Rules``, a mapping of options, ``key=value`` words); the standard game by
            default.
        channels_first: observations ``(planes, rows, columns)`` if true, else
            ``(rows, columns, planes)``.
        illegal_action: ``"lose"`` (the default, as Pgx) or ``"raise"``.
        window: Andantino only: observations through a window of radius W re-centred on
            the tiles (see :class:`hexgames.integrations.vector.HexgamesVectorEnv`).
        move_count: whether the observations end with the ``move_count`` plane (the
            plies played over the longest game's).

    Raises:
        ValueError: for an unknown game, bad rules or a bad ``illegal_action``.
    """

    num_players = 2

    def __init__(self, game: str, rules: RulesLike = None, *, channels_first: bool = True,
                 illegal_action: str = "lose", window: int | None = None,
                 move_count: bool = False) -> None:
        name = game.strip().lower()
        classes: dict[str, type[HexgamesVectorEnv]] = {
            "andantino": AndantinoVectorEnv, "abande": AbandeVectorEnv}
        if name not in classes:
            raise ValueError(f"unknown game {game!r} (known: andantino, abande)")
        self.id = name
        self._class = classes[name]
        probe = self._class(1, rules, seed=0, channels_first=channels_first,
                            illegal_action=illegal_action, window=window,
                            move_count=move_count)
        self.window = window
        self.move_count = bool(move_count)
        self.rules = probe.rules
        self.num_actions: int = probe.num_actions
        self.observation_shape: tuple[int, int, int] = probe._shape
        self.channels_first = channels_first
        self.illegal_action = illegal_action
        self._vector: HexgamesVectorEnv | None = None
        self._centres: Int32Array | None = None
        self._generation = 0

    def init(self, keys: Any) -> State:
        """N games at the start, N the length of the first axis of ``keys``.

        Raises:
            ValueError: for keys that are not an integer array of at least one row.
        """
        array = np.asarray(keys)
        if array.ndim == 0 or array.shape[0] < 1 or array.dtype.kind not in "iu":
            raise ValueError(f"keys must be an integer array with the N games on the first "
                             f"axis, not of shape {array.shape} and dtype {array.dtype}")
        seed = int.from_bytes(np.ascontiguousarray(array[0]).tobytes()[:8].ljust(8, b"\0"),
                              "little")
        n = int(array.shape[0])
        vector = self._vector
        if vector is None or vector.num_envs != n:
            vector = self._class(n, self.rules, seed=seed, channels_first=self.channels_first,
                                 copy=False, illegal_action=self.illegal_action,
                                 window=self.window, move_count=self.move_count)
            self._vector = vector
            self._masks = np.zeros((n, self.num_actions), np.int8)
            # Read-only views: the core updates both buffers in place.
            self._mask_view = self._masks.view(np.bool_)
            self._mask_view.flags.writeable = False
            self._players = np.zeros(n, np.int8)
            self._movers = np.zeros(n, np.int8)
            self._rewards = np.zeros((n, 2), np.float32)
            self._steps = np.zeros(n, np.int32)
            self._centres = None if self.window is None else np.zeros((n, 2), np.int32)
        else:
            vector.reset(seed=seed)
        self._rewards[:] = 0.0
        self._steps[:] = 0
        core = vector._core
        core.observe(vector._obs, self.channels_first)
        return self._state(vector, np.zeros(n, np.bool_))

    def _state(self, vector: HexgamesVectorEnv, terminated: BoolArray) -> State:
        core = vector._core
        core.masks(self._masks)
        core.current_players(self._players)
        if self._centres is not None:
            core.window_centres(self._centres)
        self._generation += 1
        return State(current_player=self._players, observation=vector._out(vector._obs),
                     legal_action_mask=self._mask_view, rewards=self._rewards,
                     terminated=terminated, truncated=vector._truncations,
                     step_count=self._steps, window_centre=self._centres, _env=id(self),
                     _generation=self._generation)

    def _current(self, state: State) -> HexgamesVectorEnv:
        vector = self._vector
        if (vector is None or not isinstance(state, State) or state._env != id(self)
                or state._generation != self._generation):
            raise ValueError("step takes the latest state of this environment (the one "
                             "init or the last step returned): the games live in the "
                             "native core, so an older state or a copy cannot be stepped")
        return vector

    def step(self, state: State, actions: Any) -> State:
        """Play ``actions[i]`` in game ``i`` for every i, restarting the games that end.

        Args:
            state: the latest state of this environment.
            actions: ``(N,)`` integer actions.

        Returns:
            The state after the step (the same arrays as ``state``'s, overwritten).

        Raises:
            ValueError: for an older state, actions of another shape or a dtype that is
                not integer, an action outside the space (``HexgamesError``, naming the
                game), or an illegal one with ``illegal_action="raise"``
                (``IllegalMoveError``); nothing is played then.
        """
        vector = self._current(state)
        core = vector._core
        checked = vector._checked(actions)
        movers = self._movers
        movers[:] = self._players
        vector._actions[:] = checked
        ended = core.step(vector._actions, vector._rewards,
                          vector._terminations.view(np.uint8), vector._winners,
                          vector._illegal.view(np.uint8), vector._plies,
                          self.illegal_action == "lose", vector._obs, self.channels_first)
        reward = vector._rewards
        rewards = self._rewards
        # Adding 0.0 turns the -0.0 of a negated 0 into 0.0.
        first = np.where(movers == 0, reward, -reward) + np.float32(0.0)
        rewards[:, 0] = first
        rewards[:, 1] = np.float32(0.0) - first
        steps = self._steps
        steps += 1
        if ended:
            steps[vector._terminations] = 0
            core.autoreset(vector._obs, self.channels_first)
        return self._state(vector, vector._terminations)

    def random_actions(self, state: State) -> Int64Array:
        """A uniformly random legal action of each game of ``state`` (the latest),
        ``(N,)`` ``int64``, drawn natively by the generator the keys seeded."""
        vector = self._current(state)
        return vector.sample_legal()

    def __repr__(self) -> str:
        options = " ".join(self.rules.options())
        return f"Env({self.id!r}{f', {options!r}' if options else ''})"


def make(game: str, rules: RulesLike = None, **kwargs: Any) -> Env:
    """``Env(game, rules, **kwargs)``: the batched environment of ``game``, by name as
    ``pgx.make`` takes one."""
    return Env(game, rules, **kwargs)
