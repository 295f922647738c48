"""The registry of games, so that records, the command line and the AI serve every game
the same way.

A game module (``hexgames.andantino``, ``hexgames.abande``) provides:

- ``GAME_NAME``: the name used in records and positions (``"Andantino"``);
- ``PLAYER_TAGS``: the record tags of the players, first player first;
- ``Color``: an ``IntEnum`` whose members are 0 (first player) and 1;
- ``Rules``: a frozen dataclass with ``Rules.from_options(words)`` and
  ``rules.options()`` (the ``key=value`` words that differ from the defaults);
- ``Move``: with ``Move.from_notation(text)`` and ``move.notation()``;
- ``Board(position=None, rules=None)``: with the python-chess vocabulary
  (``legal_moves``, ``push``/``pop``/``peek``, ``parse_notation``, ``push_notation``,
  ``is_legal``, ``is_game_over``, ``outcome``, ``result``, ``position``, ``copy``,
  ``zobrist_hash``, ``turn``, ``ply``, ``move_stack``, ``rules``).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from hexgames.core import HexgamesError

if TYPE_CHECKING:  # mypy checks that both boards are the one board protocol
    from hexgames import abande, andantino
    from hexgames.core import GameBoard

    _BOARDS: tuple[type[GameBoard], ...] = (andantino.Board, abande.Board)

#: Lower-case names of the games, as the command line and position strings spell them.
GAME_NAMES = ("andantino", "abande")


class UnknownGameError(HexgamesError):
    """A game name that hexgames does not know."""


def game_module(name: str) -> ModuleType:
    """The module of the game called ``name`` (any letter case).

    Raises:
        UnknownGameError: if no such game exists.
    """
    key = name.strip().lower()
    if key not in GAME_NAMES:
        raise UnknownGameError(
            f"unknown game {name!r} (known: {', '.join(GAME_NAMES)})")
    return importlib.import_module(f"hexgames.{key}")
