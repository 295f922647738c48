"""Static evaluation of both games, for the greedy and alpha-beta players.

:func:`evaluate` dispatches on the board's type. Values are in points from the side to
move's point of view: about 100 points is a clear edge, positive is good for the side
to move. The terms of each game are in :mod:`.evaluation_andantino` and
:mod:`.evaluation_abande`; :func:`win_probability` maps points to the chance of winning
reported in :class:`~hexgames.engine.base.Info`.
"""

from __future__ import annotations

import math
from typing import Any

from hexgames import abande, andantino
from hexgames.engine.legacy.evaluation_abande import evaluate_abande
from hexgames.engine.legacy.evaluation_andantino import evaluate_andantino

__all__ = ["evaluate", "evaluate_abande", "evaluate_andantino", "win_probability"]

#: Points at which the logistic of :func:`win_probability` gives 1 / (1 + e^-1), about 73%.
PROBABILITY_SCALE = {"andantino": 250.0, "abande": 200.0}


def evaluate(board: Any) -> float:
    """The value of ``board`` in points for the side to move.

    Raises:
        TypeError: if ``board`` is not an Andantino or Abande board.
    """
    if isinstance(board, andantino.Board):
        return evaluate_andantino(board)
    if isinstance(board, abande.Board):
        return evaluate_abande(board)
    raise TypeError(f"no evaluation for {type(board).__name__}")


def game_name(board: Any) -> str:
    """``"andantino"`` or ``"abande"`` for a board of that game.

    Raises:
        TypeError: for any other object.
    """
    if isinstance(board, andantino.Board):
        return "andantino"
    if isinstance(board, abande.Board):
        return "abande"
    raise TypeError(f"not a hexgames board: {type(board).__name__}")


def win_probability(points: float, game: str) -> float:
    """The chance (0 to 1) that a side with an evaluation of ``points`` wins, by the
    logistic 1 / (1 + exp(-points / scale)) with the game's :data:`PROBABILITY_SCALE`."""
    x = points / PROBABILITY_SCALE[game]
    if x > 40:
        return 1.0
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))
