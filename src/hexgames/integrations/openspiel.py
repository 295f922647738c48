"""Andantino and Abande as OpenSpiel games (needs ``pip install hexgames[openspiel]``).

Importing this module registers two Python games with ``pyspiel.register_game``, so
that every OpenSpiel algorithm can load them by name::

    import pyspiel
    import hexgames.integrations.openspiel  # registers the games

    game = pyspiel.load_game("python_abande")
    game = pyspiel.load_game("python_andantino", {"single_adjacency": True})
    game = pyspiel.load_game("python_andantino(extended=True,tiles_per_player=10)")

**Parameters** are the rules options of docs/rules.md: ``python_andantino`` takes
``single_adjacency`` (bool, False), ``self_trap`` (str, ``"opponent_wins"``), ``extended``
(bool, False), ``extended_move_limit`` (int, 200) and ``tiles_per_player`` (int, 25; the
unlimited game has no fixed action space and is not offered), and ``window`` (int, 0):
W above 0 gives observations through the window of radius W re-centred on the tiles
(``AndantinoEncoding(rules, window=W)`` of :mod:`hexgames.integrations.encoding`; 12
planes of ``2W + 1`` squares), 0 the whole hexagon; ``python_abande`` takes
``max_height`` (int, 3). OpenSpiel itself refuses an unknown parameter or a value of the
wrong type (``pyspiel.SpielError``, naming it); a bad value raises ``ValueError``
(``InvalidRulesError``), as do rules with no legal first move.

**States** are deterministic, perfect-information, zero-sum and two-player; player 0 is
the first player (White in Andantino, Black in Abande). Actions are those of
:mod:`hexgames.integrations.encoding` and print in the notation of docs/notation.md (``0,1``,
``2,-1>0,3``, ``d4``, ``c3-d4``, ``pass``). Returns are +1 / -1 for a win / loss and 0
for a draw, at the end only (Abande: by score). ``observation_tensor(player)`` and
``information_state_tensor(player)`` are the encoding's channels-first ``float32``
planes from ``player``'s point of view, flattened (``game.observation_tensor_shape()``
gives ``[planes, 2R + 1, 2R + 1]``); the information-state *tensor* is the same as the
observation (the position decides the game, up to Andantino's repetition draws), while
the information-state *string* lists the moves from the start. ``str(state)`` is the
board's text picture, ``state.board`` a :class:`hexgames` board of the position (read it,
do not push to it). States clone and pickle, and ``pyspiel.serialize_game_and_state``
round-trips them.

**Native speed.** A state plays a native state of the Rust core
(``hexgames._native.AndantinoState`` / ``AbandeState``, through :mod:`hexgames.native`):
legal actions, ``apply_action``, returns and observations (written straight into the
observer's numpy array; ``observation_tensor()`` and ``information_state_tensor()``
build their list of floats natively, equal values sharing one float object) are native
calls, equal to :mod:`hexgames.integrations.encoding`
on every ply (``tests/test_integrations_native.py``). ``state.board`` is built from the
native state's moves only when read, so the common loop never touches a Python board;
``game.encoding`` is the Python encoding of the same spaces, for reference.

:class:`HexgamesBot` makes any hexgames player (``make_player("alphabeta:time=0.1")``)
an OpenSpiel bot, for ``evaluate_bots`` or a loop of your own.

**Native algorithms.** These are Python games: OpenSpiel's Python algorithms
(``open_spiel.python.algorithms.mcts.MCTSBot``, ``evaluate_bots``, ``rl_environment``...)
run on them. Some C++ ones release the GIL before calling back into the game and crash
the interpreter (a segmentation fault in ``pyspiel.MCTSBot.step``), with any Python game,
OpenSpiel's own ``python_tic_tac_toe`` included; run such code in a subprocess.
"""

from __future__ import annotations

import enum
import functools
import math
import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

import numpy as np
import pyspiel

from hexgames import abande, andantino, native
from hexgames.engine import Limit, Player
from hexgames.integrations._boards import LazyBoard
from hexgames.integrations.encoding import (
    ABANDE_MAX_PLIES,
    AbandeEncoding,
    AndantinoEncoding,
    rules_from,
)

__all__ = ["AbandeGame", "AndantinoGame", "HexgamesBot", "HexgamesState"]

ANDANTINO_DEFAULTS: dict[str, Any] = {
    "single_adjacency": False, "self_trap": "opponent_wins", "extended": False,
    "extended_move_limit": 200, "tiles_per_player": 25, "window": 0}
ABANDE_DEFAULTS: dict[str, Any] = {"max_height": 3}


def _game_type(short_name: str, long_name: str, defaults: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(defaults))


#: OpenSpiel's player of a finished game, as an int.
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_ANDANTINO_TYPE = _game_type("python_andantino", "Python Andantino (hexgames)",
                             ANDANTINO_DEFAULTS)
_ABANDE_TYPE = _game_type("python_abande", "Python Abande (hexgames)", ABANDE_DEFAULTS)


def _game_info(num_actions: int, max_length: int) -> Any:
    return pyspiel.GameInfo(num_distinct_actions=num_actions, max_chance_outcomes=0,
                            num_players=2, min_utility=-1.0, max_utility=1.0,
                            utility_sum=0.0, max_game_length=max_length)


@functools.lru_cache(maxsize=16)
def _encoding(module: str, options: tuple[str, ...]) -> AndantinoEncoding | AbandeEncoding:
    """The Python encoding of the rules ``options`` and Andantino's ``window=W`` word."""
    if module == andantino.__name__:
        rules = [o for o in options if not o.startswith("window=")]
        windows = [int(o.removeprefix("window=")) for o in options if o not in rules]
        return AndantinoEncoding(andantino.Rules.from_options(rules), *windows[-1:])
    return AbandeEncoding(abande.Rules.from_options(options))


@functools.lru_cache(maxsize=16)
def _encoder(module: str, options: tuple[str, ...]) -> Any:
    """The native encoder (``hexgames._native.AndantinoEncoder`` / ``AbandeEncoder``)."""
    return native.encoder(module.rpartition(".")[2], options)


@functools.lru_cache(maxsize=16)
def _start_position(module: str, options: tuple[str, ...]) -> str:
    """The position string of the standard start under the rules ``options``."""
    return str(native.state_class(module.rpartition(".")[2])(None, options).position())


class _BoardBox:
    """Holds a state's native state and the game's encoder, and builds the hexgames board
    of the position when it is asked for. OpenSpiel clones a Python state by
    deep-copying its ``__dict__`` and pickles it for serialization: both go through
    here, the copy as a copy of the native state, the pickle as the rules, the starting
    position and the moves (the format of the boards this box held before, so older
    pickles still load), and the encoder is shared rather than copied."""

    __slots__ = ("encoder", "lazy", "module", "observer", "options", "root", "state")

    def __init__(self, module: str, options: tuple[str, ...], root: str | None = None,
                 moves: Sequence[str] = ()) -> None:
        self._setup(module, options, root, moves)

    def _setup(self, module: str, options: tuple[str, ...], root: str | None,
               moves: Sequence[str]) -> None:
        game = module.rpartition(".")[2]
        self.module = module
        self.options = options
        self.root = root  # the starting position string; None for the standard start
        self.encoder = _encoder(module, options)
        #: The game's encoder of observations (its window), set by the state; ``None``
        #: after unpickling, when the state asks its game.
        self.observer: Any = None
        self.state: Any = native.state_class(game)(root, options)
        if moves:
            self.state.push_moves(list(moves))
        self.lazy = LazyBoard(game, options, root)

    def root_position(self) -> str:
        """The starting position string."""
        if self.root is not None:
            return self.root
        return _start_position(self.module, self.options)

    def board(self) -> andantino.Board | abande.Board:
        """The hexgames board of the position (see :class:`LazyBoard`)."""
        return self.lazy.board(self.encoder.moves(self.state))

    def __deepcopy__(self, memo: dict[int, Any]) -> _BoardBox:
        twin = object.__new__(_BoardBox)
        twin.module, twin.options, twin.root = self.module, self.options, self.root
        twin.encoder, twin.observer = self.encoder, self.observer
        twin.state = self.state.copy()
        twin.lazy = LazyBoard(self.lazy.game, self.options, self.root)
        return twin

    def __getstate__(self) -> tuple[str, list[str], str, list[str]]:
        return (self.module, list(self.options), self.root_position(),
                self.encoder.moves(self.state))

    def __setstate__(self, data: tuple[str, list[str], str, list[str]]) -> None:
        module, options, root, moves = data
        key = tuple(options)
        standard = root == _start_position(module, key)
        self._setup(module, key, None if standard else root, moves)


class HexgamesState(pyspiel.State):  # type: ignore[misc]
    """A position of either game; made by ``game.new_initial_state()``."""

    def __init__(self, game: AndantinoGame | AbandeGame) -> None:
        super().__init__(game)
        self._box = _BoardBox(game.MODULE.__name__, tuple(game.rules.options()))
        self._box.observer = game.encoder
        self._legal: list[int] | None = None  # legal actions, until the next action
        self._over: bool | None = None  # whether the game is over, until the next action

    @property
    def board(self) -> andantino.Board | abande.Board:
        """A hexgames board of this state's position, built from the native state's
        moves when read (do not push to it)."""
        return self._box.board()

    def _actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._box.encoder.legal_actions(self._box.state)
        return self._legal

    def current_player(self) -> int:
        """0 or 1, or ``pyspiel.PlayerId.TERMINAL`` once the game is over."""
        if self.is_terminal():
            return _TERMINAL
        return int(self._box.state.turn)

    def _legal_actions(self, player: int) -> list[int]:
        return [] if self.is_terminal() else self._actions()

    def legal_actions(self, player: Any = None) -> list[int]:
        """The legal actions of ``player`` (the side to move by default), ascending: all
        of them for the side to move, ``[]`` for the other player and after the end,
        ``pyspiel.SpielError`` for a pseudo-player (as OpenSpiel's ``State``).

        Answered here for the side to move, as a new list: OpenSpiel's own method would
        call back into :meth:`_legal_actions` and convert the list to C++ and back,
        which took half the time of a random game's step. Other players go to
        OpenSpiel's method, and C++ callers still reach :meth:`_legal_actions`."""
        if player is None or (type(player) is int and player == self._box.state.turn):
            return [] if self.is_terminal() else self._actions().copy()
        return super().legal_actions(player)  # type: ignore[no-any-return]

    def _apply_action(self, action: int) -> None:
        self._box.encoder.push_action(self._box.state, action)
        self._legal = None
        self._over = None

    def _action_to_string(self, player: int, action: int) -> str:
        try:
            return str(self._box.encoder.notation(action))
        except ValueError:
            return f"action{action}"

    def is_terminal(self) -> bool:
        """Whether the game is over (see ``encoding.Encoding.is_over``)."""
        over = self._over
        if over is None:
            over = self._over = bool(self._box.state.is_game_over()) or not self._actions()
        return over

    def returns(self) -> list[float]:
        """``[first player, second player]``: +1 / -1 for a win / loss, 0 otherwise."""
        return list(self._box.encoder.returns(self._box.state))

    def observation_tensor(self, player: Any = None) -> list[float]:
        """The observation from ``player``'s point of view (the player to move by
        default), flattened channels first: OpenSpiel's list of floats, built natively
        (the observer's planes; ``pyspiel.SpielError`` for a player other than 0 or 1,
        as OpenSpiel raises)."""
        if player is None:
            player = self.current_player()
        if type(player) is int and player in (0, 1):
            encoder = self._box.observer or self.get_game().encoder
            return encoder.observation_list(self._box.state, player)  # type: ignore[no-any-return]
        return super().observation_tensor(player)  # type: ignore[no-any-return]

    def information_state_tensor(self, player: Any = None) -> list[float]:
        """The same as :meth:`observation_tensor` (the position decides the game)."""
        if player is None:
            player = self.current_player()
        if type(player) is int and player in (0, 1):
            return self.observation_tensor(player)
        return super().information_state_tensor(player)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return str(self.board)


class _Observer:
    """OpenSpiel's PyObserver interface: ``tensor`` (flat ``float32``), ``dict`` (the
    same memory as ``{"observation": (planes, rows, columns)}``), ``set_from`` (the
    native encoder writes the planes into ``tensor``) and ``string_from``."""

    def __init__(self, encoder: Any, perfect_recall: bool,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        shape = encoder.observation_shape(True)
        self._encoder = encoder
        self._perfect_recall = perfect_recall
        self.tensor = np.zeros(math.prod(shape), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: HexgamesState, player: int) -> None:
        self._encoder.observe(state._box.state, self.tensor, player, True)

    def string_from(self, state: HexgamesState, player: int) -> str:
        box = state._box
        if self._perfect_recall:
            moves = " ".join(box.encoder.moves(box.state))
            return f"{box.root_position()} moves: {moves}".rstrip()
        return str(box.state.position())


class _GameBase(pyspiel.Game):  # type: ignore[misc]
    """What both games share; a subclass names its game type, defaults and module."""

    GAME_TYPE: ClassVar[Any]
    DEFAULTS: ClassVar[dict[str, Any]]
    MODULE: ClassVar[ModuleType]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**self.DEFAULTS, **(params or {})}
        # Andantino's observation window is not a rules option (0: the whole hexagon).
        window = merged.pop("window", 0)
        if isinstance(window, bool) or not isinstance(window, int) or window < 0:
            raise ValueError(f"window must be a whole number, 0 for the whole hexagon, "
                             f"not {window!r}")
        self.rules = rules_from(self.MODULE.Rules, merged)
        options = tuple(self.rules.options())
        words = (*options, f"window={window}") if window else options
        self.encoding: AndantinoEncoding | AbandeEncoding = _encoding(self.MODULE.__name__,
                                                                      words)
        #: The native encoder of the same spaces, which the observers use (the states
        #: use the encoder of the rules alone: the same actions).
        self.encoder: Any = _encoder(self.MODULE.__name__, words)
        info = _game_info(self.encoding.num_actions, self.max_plies())
        # The parameters as the rules read them (self_trap=ILLEGAL is illegal), so that
        # one game has one name.
        values = {key: getattr(self.rules, key, window) for key in self.DEFAULTS}
        super().__init__(self.GAME_TYPE, info, {
            key: value.value if isinstance(value, enum.Enum) else value
            for key, value in values.items()})

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a game as its string and restores only the C++ part, leaving
        # a Python game without its attributes; rebuild it from its parameters instead.
        return (type(self), (self.get_parameters(),))

    def max_plies(self) -> int:
        """The longest game under ``self.rules``, in plies."""
        raise NotImplementedError

    def new_board(self) -> andantino.Board | abande.Board:
        """A board at the start, under the game's rules."""
        return self.MODULE.Board(rules=self.rules)  # type: ignore[no-any-return]

    def new_initial_state(self) -> HexgamesState:
        """The start of a game."""
        return HexgamesState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> _Observer:
        """The observer OpenSpiel asks for: the observation when ``iig_obs_type`` is
        ``None`` or without perfect recall, else the information state."""
        perfect_recall = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return _Observer(self.encoder, perfect_recall, params)


class AndantinoGame(_GameBase):
    """``python_andantino``; ``params`` as in the module docstring.

    Raises:
        ValueError: for a bad option value, or ``tiles_per_player`` of ``None``.
    """

    GAME_TYPE: ClassVar[Any] = _ANDANTINO_TYPE
    DEFAULTS = ANDANTINO_DEFAULTS
    MODULE: ClassVar[ModuleType] = andantino

    def max_plies(self) -> int:
        """``2 * tiles_per_player - 2`` placements, plus the relocation limit in
        extended play."""
        rules = self.rules
        return 2 * (rules.tiles_per_player or 0) - 2 + (
            rules.extended_move_limit if rules.extended else 0)


class AbandeGame(_GameBase):
    """``python_abande``; ``params`` as in the module docstring.

    Raises:
        ValueError: for a bad option value.
    """

    GAME_TYPE: ClassVar[Any] = _ABANDE_TYPE
    DEFAULTS = ABANDE_DEFAULTS
    MODULE: ClassVar[ModuleType] = abande

    def max_plies(self) -> int:
        """:data:`ABANDE_MAX_PLIES`."""
        return ABANDE_MAX_PLIES


class HexgamesBot(pyspiel.Bot):  # type: ignore[misc]
    """A hexgames player as an OpenSpiel bot for the ``python_andantino`` and
    ``python_abande`` games.

    In Andantino's extended play, which the framework confines to a hexagon (see
    :mod:`hexgames.integrations.encoding`), the player searches the unbounded game and
    may pick a relocation leaving the hexagon; the bot then plays a random legal action
    instead and counts it in ``fallbacks``.

    Args:
        player: a hexgames player, e.g. ``make_player("alphabeta")``.
        limit: the search limit of each move (seconds, nodes...); ``None`` for the
            player's default.
        seed: seeds the random choice of those fallbacks.
    """

    def __init__(self, player: Player, limit: Limit | None = None,
                 seed: int | None = None) -> None:
        super().__init__()
        self.player = player
        self.limit = limit
        self.fallbacks = 0
        self._rng = random.Random(seed)

    def step(self, state: HexgamesState) -> int:
        """The action the player picks in ``state``, one of ``state.legal_actions()``.

        Raises:
            ValueError: if ``state`` is terminal.
        """
        legal = state.legal_actions()
        if not legal:
            raise ValueError("the state is terminal: there is no action to play")
        move = self.player.play(state.board, self.limit).move
        try:
            action = state._box.encoder.action_of(move.notation())
        except ValueError:  # a relocation out of the hexagon
            action = -1
        if action not in legal:
            self.fallbacks += 1
            action = self._rng.choice(legal)
        return int(action)

    def restart_at(self, state: HexgamesState) -> None:
        """Start a new game."""
        self.player.new_game()

    def inform_action(self, state: HexgamesState, player_id: int, action: int) -> None:
        """The player keeps no state between moves; nothing to do."""


pyspiel.register_game(_ANDANTINO_TYPE, AndantinoGame)
pyspiel.register_game(_ABANDE_TYPE, AbandeGame)
