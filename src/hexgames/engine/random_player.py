"""The ``random`` player: a uniformly random legal move."""

from __future__ import annotations

import random

from hexgames.engine.base import GameState, Info, InfoCallback, Limit, Player, PlayResult


class RandomPlayer(Player):
    """Plays a uniformly random legal move, from its own seeded generator.

    Args:
        seed: seeds ``random.Random``; the same seed gives the same moves in the same
            positions.
    """

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        move = self.rng.choice(board.legal_moves)
        info = Info(pv=[move])
        if on_info is not None:
            on_info(info)
        return PlayResult(move, info)
