"""Small deterministic players for the arena, registry and command-line tests.

Registered in a test with ``monkeypatch.setitem(players._PLAYERS, "fake",
("fake_players", "FakePlayer"))`` (the tests folder is on ``sys.path`` under pytest).
"""

from __future__ import annotations

import random

from hexgames.engine.base import GameState, Info, InfoCallback, Limit, Player, PlayResult


class FakePlayer(Player):
    """Plays a seeded random choice among the legal moves sorted by notation, and reports
    one :class:`Info` per "depth" up to ``depth`` (default 3) with a two-move principal
    variation, so that analysis output can be checked exactly.

    Options of every kind, as a spec sets them: ``flag`` (bool), ``size`` (int), ``ratio``
    (float), ``label`` (text), ``extra`` (no typed default).
    """

    name = "fake"

    def __init__(self, seed: int | None = None, *, flag: bool = True, size: int = 4,
                 ratio: float = 0.5, label: str = "x", extra: object = None,
                 default_limit: Limit | None = None) -> None:
        super().__init__(default_limit)
        if size < 0:
            raise ValueError("size must be 0 or more")
        self.seed = seed
        self.rng = random.Random(seed)
        self.flag = flag
        self.size = size
        self.ratio = ratio
        self.label = label
        self.extra = extra
        self.searched: list[Limit] = []
        self.games = 0

    def new_game(self) -> None:
        self.games += 1

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        self.searched.append(limit)
        moves = sorted(board.legal_moves, key=lambda m: m.notation())
        move = self.rng.choice(moves)
        board.push(move)
        reply = [] if board.is_game_over() else \
            [min(board.legal_moves, key=lambda m: m.notation())]
        board.pop()
        depth = limit.depth or 3
        info = Info()
        for d in range(1, depth + 1):
            info = Info(score=0.5 + d / 100, eval=d / 10, pv=[move, *reply], depth=d,
                        nodes=10 * d, nps=1000.0, time=0.001 * d)
            if on_info is not None:
                on_info(info)
        return PlayResult(move, info)


class IllegalPlayer(Player):
    """Plays the move the board's first legal move replaces: a move onto an occupied
    cell (Andantino ``0,0``), which is never legal."""

    name = "illegal"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        move = type(board.legal_moves[0]).from_notation("0,0")
        return PlayResult(move, Info())
