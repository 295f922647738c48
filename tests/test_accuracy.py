"""Each player's accuracy over a whole-game analysis (hexgames.accuracy; issue 35), on
hand-made reports whose figures are worked out here from lichess's formula."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from hexgames.accuracy import game_accuracy, move_accuracy, player_accuracy


@dataclass
class Report:
    mover: int
    before: float
    after: float


def lichess(loss_points: float) -> float:
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss_points) - 3.166924740191411
    return min(100.0, max(0.0, raw + 1))


def test_a_move_that_loses_nothing_is_perfect_and_gains_count_as_nothing_lost() -> None:
    assert move_accuracy(0.5, 0.5) == 100.0
    assert move_accuracy(0.3, 0.9) == 100.0  # better than the engine's move
    assert move_accuracy(1.0, 0.0) == 0.0  # a won game thrown away
    assert move_accuracy(0.60, 0.50) == pytest.approx(64.580, abs=1e-3)
    assert move_accuracy(0.80, 0.50) == pytest.approx(25.772, abs=1e-3)
    assert move_accuracy(0.55, 0.50) == pytest.approx(lichess(5.0))


def test_a_players_accuracy_is_the_mean_of_the_mean_and_the_harmonic_mean() -> None:
    assert player_accuracy([]) is None
    assert player_accuracy([80.0]) == 80.0
    # mean 75, harmonic 2 / (1/100 + 1/50) = 66.67: (75 + 66.67) / 2
    assert player_accuracy([100.0, 50.0]) == pytest.approx((75 + 200 / 3) / 2)
    assert player_accuracy([100.0, 0.0]) == 25.0  # a move of 0 makes the harmonic mean 0


def test_a_games_accuracy_is_per_player() -> None:
    reports = [Report(0, 0.5, 0.5), Report(1, 0.5, 0.4), Report(0, 0.6, 0.6),
               Report(1, 0.4, 0.1)]
    first, second = game_accuracy(reports)
    assert first == 100.0
    moves = [lichess(10.0), lichess(30.0)]
    harmonic = 2 / sum(1 / a for a in moves)
    assert second == pytest.approx((sum(moves) / 2 + harmonic) / 2)
    assert game_accuracy([Report(0, 0.5, 0.45)]) == (pytest.approx(lichess(5.0)), None)
