"""AI players for both games on one interface, and the levels a person picks.

    >>> from hexgames import andantino
    >>> from hexgames.engine import make_player
    >>> board = andantino.Board()
    >>> result = make_player("random", seed=1).play(board)
    >>> result.move in board.legal_moves
    True
"""

from __future__ import annotations

from hexgames.engine.base import (
    GameState,
    Info,
    InvalidLimitError,
    Limit,
    Player,
    PlayResult,
    game_value,
)
from hexgames.engine.players import (
    LEVEL_NAMES,
    LEVELS,
    PLAYER_NAMES,
    UnknownPlayerError,
    make_player,
)

__all__ = [
    "LEVELS",
    "LEVEL_NAMES",
    "PLAYER_NAMES",
    "GameState",
    "Info",
    "InvalidLimitError",
    "Limit",
    "PlayResult",
    "Player",
    "UnknownPlayerError",
    "game_value",
    "make_player",
]
