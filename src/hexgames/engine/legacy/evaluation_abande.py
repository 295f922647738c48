"""Abande evaluation from the board's bit sets (RULES.md, "Abande", "Scoring").

Scores are in *points* for the side to move; 100 points are one point of the game's
score (the height of an awake stack), so about 100 is a clear edge. Terms, each the
side to move's value minus the opponent's:

- **score**: the game score now, heights of awake stacks (``board.score()``), x100;
- **material**: the heights of the stacks each side controls, awake or asleep, x25
  (a sleeping stack scores if it is woken later);
- **frozen**: stacks at the maximum height, which can neither move nor be captured, x20;
- **threats**: opponent stacks the side to move could capture now (it moves first, x30
  by the height captured) against its own stacks the opponent could capture on its turn
  (x15 by height); band connectivity is ignored here;
- **mobility**: stacks that have a capture, x6;
- **hand**: pieces still in hand, x30 (each will enter and, as a rule, score).

Only bit operations on the board's sets: a few microseconds a position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexgames import abande as _ab

if TYPE_CHECKING:
    from hexgames.abande import Board

_BOARD = _ab._BOARD

SCORE_WEIGHT = 100
MATERIAL_WEIGHT = 25
FROZEN_WEIGHT = 20
THREAT_WEIGHT = 30
EXPOSED_WEIGHT = 15
MOBILITY_WEIGHT = 6
HAND_WEIGHT = 30
#: What a finished game is worth to the winner (the loser gets the negative).
WIN_VALUE = 300_000


def _dilate(x: int) -> int:
    return (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & _BOARD


def _weighted(x: int, heights: list[int]) -> int:
    """The heights of the stacks of the set ``x`` added up."""
    total = 0
    for h in range(1, len(heights)):
        total += h * (x & heights[h]).bit_count()
    return total


def static_abande(board: Board) -> int:
    """The evaluation (points, side to move's view) of a position whose game goes on."""
    mover = board._turn
    heights = board._heights
    top = board._top
    mine, theirs = top[mover], top[1 - mover]
    near_mine, near_theirs = _dilate(mine), _dilate(theirs)
    awake_mine = mine & near_theirs
    awake_theirs = theirs & near_mine
    value = SCORE_WEIGHT * (_weighted(awake_mine, heights) - _weighted(awake_theirs, heights))
    value += MATERIAL_WEIGHT * (_weighted(mine, heights) - _weighted(theirs, heights))
    max_height = len(heights) - 1
    full = heights[max_height]
    value += FROZEN_WEIGHT * ((mine & full).bit_count() - (theirs & full).bit_count())
    if board._hands[0] <= _ab._OPENING_HAND:  # captures are allowed
        # prey[h]: enemy stacks of height h next to a stack that may land on them.
        my_reach = 0
        their_reach = 0
        my_movers = 0
        their_movers = 0
        for h in range(1, max_height):
            room = 0  # stacks of height <= max - h
            for t in range(1, max_height - h + 1):
                room |= heights[t]
            mine_h, theirs_h = mine & heights[h], theirs & heights[h]
            if mine_h & near_theirs:
                targets = theirs & room & _dilate(mine_h)
                my_reach |= targets
                if targets:
                    my_movers |= mine_h & _dilate(targets)
            if theirs_h & near_mine:
                targets = mine & room & _dilate(theirs_h)
                their_reach |= targets
                if targets:
                    their_movers |= theirs_h & _dilate(targets)
        value += THREAT_WEIGHT * _weighted(my_reach, heights)
        value -= EXPOSED_WEIGHT * _weighted(their_reach, heights)
        value += MOBILITY_WEIGHT * (my_movers.bit_count() - their_movers.bit_count())
    hands = board._hands
    value += HAND_WEIGHT * (hands[mover] - hands[1 - mover])
    return value


def evaluate_abande(board: Board) -> float:
    """The position's value in points for the side to move (positive is good for it);
    a finished game is worth ``+-WIN_VALUE`` (0 if drawn)."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return float(WIN_VALUE if outcome.winner == board._turn else -WIN_VALUE)
    return float(static_abande(board))
