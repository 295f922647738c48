"""A plain full-width minimax over the pure-Python boards, for the tests of the solver
and of proof files: the exact value of small positions (a few plies to the end of the
game) and a winning strategy to write as a proof file; and positions near the end of a
game by random play (:func:`near_the_end`). Shares no code with the native
solver. Positions are remembered by their position string, so it is exact only where
the history cannot change a value (not Andantino's extended play)."""

from __future__ import annotations

import random
from typing import Any

#: A value for the side to move: a win, a draw, a loss.
WIN, DRAW, LOSS = 1, 0, -1


class Minimax:
    """Exact values by full-width negamax with a table of positions."""

    def __init__(self) -> None:
        self.values: dict[str, int] = {}
        self.nodes = 0

    def value(self, board: Any) -> int:
        """The value of ``board`` for its side to move (:data:`WIN`, :data:`DRAW`,
        :data:`LOSS`); ``board`` is left as it was."""
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return DRAW
            return WIN if int(outcome.winner) == int(board.turn) else LOSS
        key = board.position()
        known = self.values.get(key)
        if known is not None:
            return known
        self.nodes += 1
        best = LOSS
        for move in board.legal_moves:
            board.push(move)
            best = max(best, -self.value(board))
            board.pop()
            if best == WIN:
                break
        self.values[key] = best
        return best

    def strategy(self, board: Any, winner: int, *, not_lose: bool = False
                 ) -> list[tuple[str, str]]:
        """A strategy for ``winner`` from ``board`` (which it must win, or with
        ``not_lose`` not lose): ``(position, move)`` for each position of the winner to
        move that play can reach, as a proof file lists them."""
        lines: dict[str, str] = {}
        wanted = DRAW if not_lose else WIN

        def walk() -> None:
            if board.is_game_over():
                return
            position = board.position()
            if int(board.turn) == winner:
                if position in lines:
                    return
                for move in board.legal_moves:
                    board.push(move)
                    good = -self.value(board) >= wanted
                    board.pop()
                    if good:
                        lines[position] = move.notation()
                        board.push(move)
                        walk()
                        board.pop()
                        return
                raise AssertionError(f"no winning move at {position}")
            for move in board.legal_moves:
                board.push(move)
                walk()
                board.pop()

        walk()
        return list(lines.items())


def near_the_end(module: Any, rules: Any, plies: range, count: int, seed: int,
                 enough: Any = None) -> list[Any]:
    """``count`` positions by random play from the start (a number of plies in
    ``plies``, fewer once ``enough(board)``), not finished."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        board = module.Board(None, rules)
        for _ in range(rng.choice(plies)):
            if board.is_game_over() or (enough is not None and enough(board)):
                break
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over():
            found.append(board)
    return found
