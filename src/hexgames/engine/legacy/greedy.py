"""The ``greedy`` player: one ply of lookahead with the evaluation, and no blunders in one.

For each legal move the player pushes it and looks at what follows, in this order:

1. a move that wins at once is played (in Andantino a line or a trap; in Abande the
   move that ends the game with a higher score, such as a pass after the opponent's
   pass while ahead);
2. moves that lose at once (a self-trap in Andantino) and moves after which the opponent
   has a winning reply are *unsafe*; among the safe moves, which include the moves that
   block an opponent threat, the one with the best evaluation
   (:func:`~hexgames.engine.legacy.evaluation.evaluate` of the position after it, negated) is
   played;
3. only when every move is unsafe does it play the best-evaluated move that does not lose
   at once, and only when all of those lose at once the best-evaluated of the rest.

Ties are broken by the player's seeded random generator. With ``noise`` > 0 the player
is weaker on purpose (the ``easy`` level): with that probability it plays a uniformly
random safe move instead of the best-evaluated one, while still taking a win in one and
still avoiding a loss in one. The cost is one push for each
move and each reply: a few milliseconds a move in both games.
"""

from __future__ import annotations

import random
import time
from typing import Any

from hexgames.engine.base import GameState, Info, InfoCallback, Limit, Player, PlayResult
from hexgames.engine.legacy.evaluation import evaluate, game_name, win_probability


class GreedyPlayer(Player):
    """Wins at once when it can, never hands the opponent a win in one when it can avoid
    it, and otherwise plays the move the evaluation likes best.

    Args:
        seed: seeds ``random.Random`` for breaking ties; the same seed gives the same
            moves in the same positions.
        noise: the probability (0 to 1) of playing a uniformly random safe move instead
            of the best-evaluated one; wins in one are always taken.

    Raises:
        ValueError: for a ``noise`` outside 0 to 1.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, *, noise: float = 0.0) -> None:
        super().__init__()
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability from 0 to 1, not {noise}")
        self.rng = random.Random(seed)
        self.noise = noise

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        start = time.perf_counter()
        me = int(board.turn)
        nodes = 0
        safe: list[tuple[float, Any]] = []
        unsafe: list[tuple[float, Any]] = []
        suicide: list[tuple[float, Any]] = []
        for move in board.legal_moves:
            board.push(move)
            nodes += 1
            outcome = board.outcome()
            if outcome is not None and outcome.winner == me:
                board.pop()
                return self._result(move, float("inf"), nodes, board, on_info, start)
            value = -evaluate(board)
            if outcome is not None and outcome.winner is not None:
                suicide.append((value, move))
            else:
                winning_reply, replies = (False, 0) if outcome is not None \
                    else _has_winning_reply(board)
                nodes += replies
                (unsafe if winning_reply else safe).append((value, move))
            board.pop()
        choices = safe or unsafe or suicide
        if self.noise and self.rng.random() < self.noise:
            value, move = self.rng.choice(choices)
            return self._result(move, value, nodes, board, on_info, start)
        best = max(value for value, _ in choices)
        move = self.rng.choice([m for value, m in choices if value == best])
        return self._result(move, best, nodes, board, on_info, start)

    def _result(self, move: Any, value: float, nodes: int, board: GameState,
                on_info: InfoCallback | None, start: float) -> PlayResult:
        elapsed = time.perf_counter() - start
        nps = nodes / elapsed if elapsed > 0 else 0.0
        if value == float("inf"):
            info = Info(score=1.0, mate=1, pv=[move], depth=1, nodes=nodes, nps=nps,
                        time=elapsed)
        else:
            info = Info(score=win_probability(value, game_name(board)), eval=value,
                        pv=[move], depth=1, nodes=nodes, nps=nps, time=elapsed)
        if on_info is not None:
            on_info(info)
        return PlayResult(move, info)


def _has_winning_reply(board: GameState) -> tuple[bool, int]:
    """Whether the side to move has a move that wins at once, and the pushes it took."""
    mover = int(board.turn)
    pushes = 0
    for reply in board.legal_moves:
        board.push(reply)
        pushes += 1
        outcome = board.outcome()
        board.pop()
        if outcome is not None and outcome.winner == mover:
            return True, pushes
    return False, pushes
