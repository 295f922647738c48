"""Small deterministic players for the arena, registry and command-line tests.

Registered in a test with ``monkeypatch.setitem(players._PLAYERS, "fake",
("fake_players", "FakePlayer"))`` (the tests folder is on ``sys.path`` under pytest).
"""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path
from typing import Any

from hexgames.arena.match import GameResult, GameTask, play_task
from hexgames.engine.base import GameState, Info, InfoCallback, Limit, Player, PlayResult


class FakePlayer(Player):
    """Plays a seeded random choice among the legal moves sorted by notation, and reports
    one :class:`Info` per "depth" up to ``depth`` (default 3) with a two-move principal
    variation, so that analysis output can be checked exactly.

    Options of every kind, as a spec sets them: ``flag`` (bool), ``size`` (int), ``ratio``
    (float), ``label`` (text), ``extra`` (no typed default). With ``policy`` its
    :class:`Info` carries move probabilities: 1/2 on the move played, the rest shared
    evenly by the other legal moves. With ``interrupt`` > 0 its ``interrupt``-th game
    raises ``KeyboardInterrupt`` at its first move (Ctrl-C, in-process tests).
    """

    name = "fake"

    def __init__(self, seed: int | None = None, *, flag: bool = True, size: int = 4,
                 ratio: float = 0.5, label: str = "x", extra: object = None,
                 policy: bool = False, interrupt: int = 0,
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
        self.policy = policy
        self.interrupt = interrupt
        self.searched: list[Limit] = []
        self.games = 0

    def new_game(self) -> None:
        self.games += 1
        FakePlayer.games_made += 1
        if self.interrupt and FakePlayer.games_made >= self.interrupt:
            FakePlayer.games_made = 0
            raise KeyboardInterrupt

    #: Games begun by fake players in this process (for ``interrupt``).
    games_made = 0

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
        if self.policy:
            others = [m for m in moves if m != move]
            info.policy = [(move, 1.0 if not others else 0.5),
                           *((m, 0.5 / len(others)) for m in others)]
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


# --- functions for executor tests (module level, so that workers can run them) --------


def die_once(job: tuple[str, int]) -> int:
    """``value ** 2`` for ``(marker, value)``; the first call for a marker path that does
    not exist yet creates it and kills its own process (SIGKILL), as a crashed worker."""
    marker, value = job
    path = Path(marker)
    if not path.exists():
        path.write_text("died", encoding="utf-8")
        os.kill(os.getpid(), signal.SIGKILL)
    return value * value


def play_task_dying(job: tuple[str, int, GameTask]) -> GameResult:
    """:func:`play_task` of ``task`` for ``(marker, index, task)``, except that game
    ``index`` kills its worker process (SIGKILL) halfway the first time (when
    ``marker`` does not exist yet)."""
    marker, index, task = job
    if task.index == index and not Path(marker).exists():
        Path(marker).write_text("died", encoding="utf-8")
        play_task(task)  # the game is played, and lost with the process
        os.kill(os.getpid(), signal.SIGKILL)
    return play_task(task)


def sleep_then_mark(job: tuple[float, str]) -> float:
    """Sleep ``seconds``, then write ``marker`` (so a test can see it was not cancelled)."""
    seconds, marker = job
    time.sleep(seconds)
    if marker:
        Path(marker).write_text("done", encoding="utf-8")
    return seconds


def square_or_fail(value: int) -> int:
    """``value ** 2``; ``ValueError`` for a negative ``value``."""
    if value < 0:
        raise ValueError(f"negative {value}")
    return value * value


def identity(value: Any) -> Any:
    return value
