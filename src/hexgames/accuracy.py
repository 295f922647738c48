"""Accuracy of each player over a whole-game analysis (issue 35), after lichess's
(lila's ``AccuracyPercent``; https://lichess.org/page/accuracy).

A move's accuracy maps the **winning chance it lost** to a percentage: with ``loss`` the
mover's winning chance before the move (with the engine's best move) minus after it, in
percentage points (0 to 100; a move that gains loses nothing),

    accuracy = 103.1668 * exp(-0.04354 * loss) - 3.1669 + 1      (clamped to 0 .. 100)

so a move that loses nothing scores 100, one that loses 10 points about 65, 30 points
about 26, 50 points about 10. The ``+ 1`` is lichess's bonus for the uncertainty of
the evaluations. A player's accuracy is the mean of the arithmetic and the harmonic
mean of their moves' accuracies (the harmonic mean makes a few bad moves count, as
lichess's does); lichess also weights each move by the volatility of the evaluation
around it, which this does not (every move weighs the same).

The winning chances are :class:`~hexgames.analysis.MoveReport`'s ``before`` and
``after`` (0 to 1), so the accuracy is of the analysis that made them: a short search a
position gives a rough figure.

    >>> round(move_accuracy(0.60, 0.60), 1), round(move_accuracy(0.60, 0.50), 1)
    (100.0, 64.6)
    >>> round(player_accuracy([100.0, 100.0, 0.0]), 2)
    33.33
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Protocol

__all__ = ["game_accuracy", "move_accuracy", "player_accuracy"]


class _Report(Protocol):
    """What a move's report holds (:class:`~hexgames.analysis.MoveReport`)."""

    @property
    def mover(self) -> int: ...

    @property
    def before(self) -> float: ...

    @property
    def after(self) -> float: ...


def move_accuracy(before: float, after: float) -> float:
    """A move's accuracy in percent (0 to 100) from the mover's winning chance before
    it (with the best move) and after it, each 0 to 1."""
    loss = max(0.0, before - after) * 100
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1))


def player_accuracy(accuracies: Sequence[float]) -> float | None:
    """The mean of the arithmetic and the harmonic mean of move accuracies (percent),
    or ``None`` for no move. A move of accuracy 0 makes the harmonic mean 0."""
    if not accuracies:
        return None
    mean = sum(accuracies) / len(accuracies)
    harmonic = 0.0 if any(a <= 0 for a in accuracies) else \
        len(accuracies) / sum(1 / a for a in accuracies)
    return (mean + harmonic) / 2


def game_accuracy(reports: Iterable[_Report]) -> tuple[float | None, float | None]:
    """Each player's accuracy (first player first; ``None`` for a player without an
    analysed move) from the reports of a whole-game analysis."""
    moves: tuple[list[float], list[float]] = ([], [])
    for report in reports:
        moves[report.mover].append(move_accuracy(report.before, report.after))
    return player_accuracy(moves[0]), player_accuracy(moves[1])
