"""Types shared by both games: colours, outcomes, terminations and errors.

A colour is an ``int``: 0 for the player who moves first (White in Andantino, Black in
Abande) and 1 for the second player. Each game module names its colours with an
``IntEnum`` whose members are these ints, so code that serves both games (records,
search, arena) works with plain 0 and 1.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

FIRST = 0
SECOND = 1


class Termination(enum.Enum):
    """Why a game ended; the value is the record's ``Termination`` tag (NOTATION.md)."""

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
