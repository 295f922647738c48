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


class LinesPlayer(Player):
    """A quick, deterministic analyst that fills :attr:`Info.lines` as the native
    alpha-beta does with ``multipv``: the root moves sorted by notation are its lines,
    best first, line ``k`` with the winning chance ``base - 0.05 k`` for the side to
    move, where ``base`` is 0.85 after ``ply`` plies with ``ply % 4 == 2`` and 0.5
    otherwise (so a whole-game analysis finds blunders at plies 1, 2, 5, 6 ...: the
    mover's chance drops from 0.5 to 0.15 into such a position, from 0.85 to 0.5 out
    of it).

    Options as the native player's: ``multipv`` (lines reported, at least 1) and
    ``randomness`` (with more than 0, the move is a seeded random choice among the first
    three lines, else the first); ``delay`` seconds are waited per depth (a stop ends
    the wait), for progress and staleness tests; ``depth`` reports depths 1 to it;
    ``mate`` (plies, 0: none) reports the best line as a mate score, a forced win of the
    side to move (a loss when negative).
    """

    name = "lines"
    handles_clock = False

    def __init__(self, seed: int | None = None, *, multipv: int = 1, randomness: int = 0,
                 delay: float = 0.0, mate: int = 0,
                 default_limit: Limit | None = None) -> None:
        super().__init__(default_limit)
        if multipv < 1:
            raise ValueError(f"multipv must be 1 or more, not {multipv}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.multipv = multipv
        self.randomness = randomness
        self.delay = delay
        self.mate = mate

    @staticmethod
    def base(ply: int) -> float:
        """The side to move's winning chance with the best move, after ``ply`` plies."""
        return 0.85 if ply % 4 == 2 else 0.5

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        moves = sorted(board.legal_moves, key=lambda m: m.notation())
        chosen = self.rng.choice(moves[:3]) if self.randomness > 0 else moves[0]
        base = self.base(board.ply())

        def line(index: int, move: Any, depth: int) -> Info:
            board.push(move)
            reply = [] if board.is_game_over() else \
                [min(board.legal_moves, key=lambda m: m.notation())]
            board.pop()
            score = max(0.0, base - 0.05 * index)
            return Info(score=score, eval=round((score - 0.5) * 500, 1), pv=[move, *reply],
                        depth=depth, nodes=10 * depth, nps=1000.0, time=0.001 * depth,
                        seldepth=depth)

        info = Info()
        for depth in range(1, (limit.depth or 3) + 1):
            if self.delay and self._stop.wait(self.delay):
                break
            lines = [line(i, m, depth) for i, m in enumerate(moves[:self.multipv])]
            head = line(moves.index(chosen), chosen, depth) if chosen not in moves[:1] \
                else lines[0]
            info = Info(score=head.score, eval=head.eval, pv=head.pv, depth=depth,
                        nodes=head.nodes, nps=head.nps, time=head.time, seldepth=depth,
                        lines=lines if self.multipv > 1 else [])
            if self.mate:
                info.score, info.eval, info.mate = float(self.mate > 0), None, self.mate
            if on_info is not None:
                on_info(info)
        if not info.pv:
            info = Info(score=base, pv=[chosen], depth=0)
        return PlayResult(chosen, info)
