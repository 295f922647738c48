"""Types shared by both games: colours, outcomes, terminations and errors.

A colour is an ``int``: 0 for the player who moves first (White in Andantino, Black in
Abande) and 1 for the second player. Each game module names its colours with an
``IntEnum`` whose members are these ints, so code that serves both games (records,
search, arena) works with plain 0 and 1.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, cast

FIRST = 0
SECOND = 1


class Termination(enum.Enum):
    """Why a game ended; the value is the record's ``Termination`` tag (docs/notation.md)."""

    LINE = "line"
    TRAP = "trap"
    LINE_AND_TRAP = "line+trap"
    SELF_TRAP = "self-trap"
    TILES_EXHAUSTED = "tiles-exhausted"
    MOVE_LIMIT = "move-limit"
    REPETITION = "repetition"
    SCORE = "score"
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time-forfeit"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is 0 (first player), 1 (second player) or ``None`` for a draw.
    ``line`` holds the cells (axial ``(q, r)`` pairs) of the winning line(s) and
    ``trapped`` the opponent tiles the winning placement walled in; both are empty when
    they do not apply. ``score`` is the final (first, second) score for games scored by
    points (Abande), else ``None``.
    """

    termination: Termination
    winner: int | None
    line: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    trapped: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    score: tuple[int, int] | None = None

    def result(self) -> str:
        """The result from the first player's point of view: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == FIRST else "0-1"


class HexgamesError(ValueError):
    """Base class of every error hexgames raises for bad input."""


class InvalidMoveError(HexgamesError):
    """Text that is not a move in the game's notation."""


class IllegalMoveError(HexgamesError):
    """A well-formed move that the rules forbid in this position."""


class InvalidPositionError(HexgamesError):
    """A malformed or impossible position string."""


class InvalidRulesError(HexgamesError):
    """An unknown rules option or a bad value for one."""


# --- shared by the games' modules ----------------------------------------------------

_M64 = (1 << 64) - 1


def splitmix64(x: int) -> int:
    """A well-mixed 64-bit value of ``x``: the Zobrist keys of both games come from it.

    SplitMix64's finaliser (Steele, Lea and Flood, "Fast splittable pseudorandom number
    generators", OOPSLA 2014), so keys are fixed across runs and machines.
    """
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


#: The words an on/off option accepts, lower-case.
BOOL_WORDS = {"on": True, "off": False, "true": True, "false": False, "yes": True,
              "no": False, "1": True, "0": False}
#: How messages name the words of ``BOOL_WORDS``.
BOOL_TEXT = "on or off (also yes/no, true/false, 1/0)"
_WHOLE = re.compile(r"-?[0-9]{1,9}")


class RulesBase:
    """``key=value`` options for a game's ``Rules`` dataclass.

    A subclass names its options and their kinds in ``OPTION_KINDS``: ``"bool"`` (on/off,
    true/false, yes/no, 1/0), ``"int"``, ``"int_or_none"`` (a number or ``none``) or
    ``"text"`` (passed to the dataclass, which checks it).
    """

    __slots__ = ()
    GAME: ClassVar[str]
    OPTION_KINDS: ClassVar[dict[str, str]]

    @classmethod
    def from_options(cls, options: Iterable[str] | str) -> Self:
        """Rules from ``key=value`` words, as in a record's ``Rules`` tag or ``--rules``.

        Raises:
            InvalidRulesError: naming a word that is not ``key=value`` (or not text), an
                unknown or repeated option, or a bad value; also for ``options`` that is
                neither text nor an iterable of words.
        """
        try:
            words = options.split() if isinstance(options, str) else list(options)
        except TypeError:
            raise InvalidRulesError(f"rules options are key=value words, not "
                                    f"{type(options).__name__}") from None
        values: dict[str, object] = {}
        for word in words:
            if not isinstance(word, str):
                raise InvalidRulesError(f"rules option {word!r} is not text")
            key, sep, value = word.partition("=")
            key = key.strip().lower()
            value = value.strip()
            if not sep or not value:
                raise InvalidRulesError(f"rules option {word!r} is not key=value")
            kind = cls.OPTION_KINDS.get(key)
            if kind is None:
                raise InvalidRulesError(f"unknown {cls.GAME} rules option {key!r} "
                                        f"(known: {', '.join(cls.OPTION_KINDS)})")
            if key in values:
                raise InvalidRulesError(f"rules option {key} is given twice")
            values[key] = _option_value(key, kind, value)
        return cast(Any, cls)(**values)  # type: ignore[no-any-return]

    def options(self) -> list[str]:
        """The options that differ from the defaults, as ``key=value`` words."""
        default = cast(Any, type(self))()
        words = []
        for key in self.OPTION_KINDS:
            value = getattr(self, key)
            if value != getattr(default, key):
                words.append(f"{key}={_option_text(value)}")
        return words


def whole_number(text: str) -> int:
    """The whole number ``text`` writes (ASCII digits after an optional sign, checked by
    the caller), its leading zeros dropped first: ``int()`` counts them against its
    bound of 4,300 digits."""
    magnitude = text.lstrip("+-").lstrip("0") or "0"
    return -int(magnitude) if text.startswith("-") else int(magnitude)


def _option_value(key: str, kind: str, value: str) -> object:
    if kind == "bool":
        try:
            return BOOL_WORDS[value.lower()]
        except KeyError:
            raise InvalidRulesError(f"option {key} takes {BOOL_TEXT}, not {value!r}") from None
    if kind == "int_or_none" and value.lower() in ("none", "unlimited"):
        return None
    if kind in ("int", "int_or_none"):
        if not _WHOLE.fullmatch(value):
            if re.fullmatch(r"-?[0-9]+", value):
                raise InvalidRulesError(
                    f"option {key} is too large: {value} (at most 9 digits)")
            raise InvalidRulesError(f"option {key} takes a whole number, not {value!r}")
        return int(value)
    return value


def _option_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return str(value)


MoveT = TypeVar("MoveT")


# --- the one interface of a game's board --------------------------------------------


class GameMove(Protocol):
    """A move of any game: it has a canonical notation (docs/notation.md)."""

    def notation(self) -> str: ...


class GameRules(Protocol):
    """The rules options of any game."""

    def options(self) -> list[str]: ...


class GameBoard(Protocol):
    """What every part of hexgames that serves both games uses of a game's ``Board``
    (``hexgames.andantino.Board``, ``hexgames.abande.Board``, which both satisfy it):
    the engine (``hexgames.engine.base.GameState``), records
    (``hexgames.record.GameBoard``), perft and the boundary to the native core. Moves
    are the game's own ``Move`` values; ``turn`` is 0 for the first player, 1 for the
    second; ``ply`` counts the moves pushed since the starting position."""

    @property
    def rules(self) -> Any: ...

    @property
    def turn(self) -> int: ...

    @property
    def move_stack(self) -> Sequence[Any]: ...

    @property
    def legal_moves(self) -> Sequence[Any]: ...

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...

    def parse_notation(self, text: str) -> Any: ...

    def is_game_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def result(self) -> str: ...

    def zobrist_hash(self) -> int: ...

    def ply(self) -> int: ...

    def copy(self) -> Self: ...

    def root(self) -> Self: ...

    def position(self) -> str: ...

    def starting_position(self) -> str: ...


def _rebuild_board(cls: Any, root: str, rules: Any, notations: tuple[str, ...]) -> Any:
    """A board from its starting position, rules and moves (what pickle stores)."""
    board = cls(root, rules)
    for text in notations:
        board.push_notation(text)
    return board


class BoardBase(Generic[MoveT]):
    """What the games' boards share: notation, the end of the game, copies, equality.

    A subclass provides ``rules``, ``move_stack``, ``_outcome``, ``_root`` (the parsed
    starting position, with its string as ``.text``), ``MOVE`` (its ``Move`` class),
    ``push``, ``position`` and ``_illegal_reason(move)`` (why a move is illegal here,
    or ``None``).
    """

    __slots__ = ()
    MOVE: ClassVar[Any]
    rules: Any
    move_stack: list[MoveT]
    _outcome: Outcome | None
    _root: Any

    def __init__(self, position: str | None = None, rules: Any = None) -> None:
        raise NotImplementedError

    def push(self, move: MoveT) -> None:
        raise NotImplementedError

    def position(self) -> str:
        raise NotImplementedError

    def _illegal_reason(self, move: MoveT) -> str | None:
        raise NotImplementedError

    def is_legal(self, move: MoveT) -> bool:
        """Whether ``move`` is legal here."""
        return self._illegal_reason(move) is None

    def parse_notation(self, text: str) -> MoveT:
        """The legal move that ``text`` names.

        Raises:
            InvalidMoveError: if ``text`` is not a move.
            IllegalMoveError: if the move is not legal here, with the reason.
        """
        move = self.MOVE.from_notation(text)
        reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move.notation()}: {reason}")
        return cast(MoveT, move)

    def push_notation(self, text: str) -> MoveT:
        """Parse ``text`` as with :meth:`parse_notation`, push it and return the move."""
        move = self.parse_notation(text)
        self.push(move)
        return move

    def peek(self) -> MoveT:
        """The last move pushed.

        Raises:
            IndexError: if no move has been pushed.
        """
        if not self.move_stack:
            raise IndexError("peek at a board with no moves")
        return self.move_stack[-1]

    def ply(self) -> int:
        """Plies pushed since the board's starting position."""
        return len(self.move_stack)

    def is_game_over(self) -> bool:
        """Whether the game has ended (a win or a draw)."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    def result(self) -> str:
        """``1-0`` (the first player won), ``0-1``, ``1/2-1/2`` or ``*`` (not over)."""
        return "*" if self._outcome is None else self._outcome.result()

    def starting_position(self) -> str:
        """The position string this board started from (before ``move_stack``), as it
        was given."""
        return str(self._root.text)

    def root(self) -> Self:
        """A new board at this board's starting position, without the moves."""
        return type(self)(self._root.text, self.rules)

    def copy(self) -> Self:
        """An independent copy with the same starting position and move stack."""
        board = self.root()
        for move in self.move_stack:
            board.push(move)
        return board

    # The boards keep incremental tables whose entries are found by identity (interned
    # moves and cells), which copy.deepcopy and pickle would duplicate: both copy by
    # replaying the moves instead, as copy() does.
    def __copy__(self) -> Self:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        notations = tuple(move.notation() for move in self.move_stack)  # type: ignore[attr-defined]
        return (_rebuild_board, (type(self), self._root.text, self.rules, notations))

    def __repr__(self) -> str:
        name = type(self).__name__
        if self.rules == type(self.rules)():
            return f"{name}({self.position()!r})"
        return f"{name}({self.position()!r}, rules={self.rules!r})"

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (:func:`hexgames.svg.board`), for Jupyter."""
        from hexgames import svg

        return svg.board(self)  # type: ignore[arg-type]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, BoardBase)
        return bool(self.rules == other.rules and self.position() == other.position())

    __hash__ = None  # type: ignore[assignment]
