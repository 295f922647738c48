"""Proven values where the engines guess: what the players and the analyses take from
the solver (issue 34, "Use what is proven"; docs/solver.md).

:func:`prove` asks the df-pn prover (:mod:`hexgames.solver`) about a position within a
time or node budget and returns a :class:`Proven` only for a value whose proof the
independent checker (:func:`hexgames.proof.check`, pure Python, sharing no code with the
prover) has passed; anything less is ``None``, and the caller shows the engine's guess.
:func:`principal_line` gives the line of a proof shown beside its value: from the root
the winner plays its listed move and the defender the reply whose line to the end is
longest under the winner's strategy (the defence that holds out longest against it), so
the line's length is the proven distance and it ends in the winner's win. A draw's line
is both sides following their proofs of not losing.

A proven value reaches a player's :class:`~hexgames.engine.base.Info` as the mate score
it is (``mate`` = plies to the end, ``score`` 1 or 0; a draw scores one half) with
``proven`` set, so every place that shows a mate score shows it, and records written
with evaluations carry it as ``[%eval #N]`` (:mod:`hexgames.analysis`).
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from hexgames import native
from hexgames.core import HexgamesError
from hexgames.engine.base import Info
from hexgames.games import game_module
from hexgames.proof import ProofFailedError, ProofHeader, check, digest
from hexgames.solver import Claim, solve

__all__ = ["ANALYSIS", "Proven", "describe", "principal_line", "prove", "verdict"]

#: The options an analysing player takes when it can (alpha-beta's ``prove``): the
#: solver first for a fifth of each search's time (at most ``prove_max``, 3 s by
#: default), proving the whole value (a win, a loss or a draw), so the analyses of the
#: command line and the browser app show a proven value where there is one in reach.
ANALYSIS = {"prove": "0.2", "prove_value": "on"}




class _Stopped(Exception):
    """The check was stopped by the budget or ``should_stop``."""


@dataclass(frozen=True)
class Proven:
    """A proven value of a position.

    Attributes:
        value: for the side to move: ``win``, ``loss`` or ``draw``.
        side: the side to move (0 the first player, 1 the second).
        winner: the winning side of a win or a loss, else None.
        plies: the length of ``line`` (for a win or a loss, the longest line of the
            winner's proven strategy: an upper bound of the distance under perfect
            play).
        line: the principal line of the proof (:func:`principal_line`), moves in the
            game's notation, from the position to the end of the game.
        nodes: df-pn node visits spent.
        seconds: wall-clock seconds spent, the check and the line included.
    """

    value: Literal["win", "loss", "draw"]
    side: int
    winner: int | None
    plies: int
    line: tuple[str, ...]
    nodes: int
    seconds: float

    def info(self, board: Any) -> Info:
        """The value as a search's :class:`Info` for ``board`` (the position proven):
        ``mate`` +plies or -plies (none for a draw), ``score`` 1, 0 or 0.5, ``eval``
        0 for a draw, the line as the board's moves, ``proven`` set."""
        mate = None if self.winner is None else (
            self.plies if self.winner == self.side else -self.plies)
        score = 0.5 if mate is None else (1.0 if mate > 0 else 0.0)
        return Info(score=score, eval=0.0 if mate is None else None, mate=mate,
                    pv=native.board_moves(board, list(self.line)), depth=self.plies,
                    nodes=self.nodes, time=self.seconds,
                    nps=self.nodes / self.seconds if self.seconds > 0 else 0.0,
                    proven=True)


def describe(game: str, winner: int | None, plies: int | None) -> str:
    """``"White wins in 17 (proven)"`` (the colour names of ``game``, plies as the
    count), or ``"Draw (proven)"`` when ``winner`` is None."""
    if winner is None:
        return "Draw (proven)"
    return f"{game_module(game).PLAYER_TAGS[winner]} wins in {plies} (proven)"


def verdict(game: str, side: int, info: Info) -> str | None:
    """:func:`describe` of a search's :class:`Info` of a position whose side to move is
    ``side``: the proven value's words, or None when ``info`` is not proven."""
    if not info.proven:
        return None
    winner = None if info.mate is None else side if info.mate > 0 else 1 - side
    return describe(game, winner, abs(info.mate or 0))


def principal_line(board: Any, claims: Sequence[Claim], *,
                   should_stop: Callable[[], object] | None = None) -> list[str] | None:
    """The principal line of proven ``claims`` about ``board``'s position: where a
    claim's winner is to move, that claim's listed move; where the other side is (a
    defender), the reply whose line to the end is longest under the strategies (the
    first such in legal-move order). A win's or a loss's line so ends in the winner's
    win, after the strategy's longest line; a draw's (two claims: each side's proof of
    not losing) is both sides following their proofs, and ends in a draw or a win.

    The walk visits each position of the strategies once (memoised by position, as the
    checker does), on the native boards; ``should_stop`` is asked every 1,024
    positions, and a true answer gives None.

    Returns:
        the moves in the game's notation, or None when stopped or when a strategy
        lacks a position the line reaches (the claims are not about this board).
    """
    strategies: dict[int, dict[str, str]] = {
        c.header.winner: dict(c.strategy) for c in claims}
    state = native.state_of(board)
    # position -> (plies to the end, the move of the line); positions on the path
    memo: dict[str, tuple[int, str | None]] = {}
    walked = 0

    def length() -> int | None:
        """Plies to the end after the move just pushed, if known (-1: a position on
        the path, which makes no line)."""
        if state.is_game_over():
            return 0
        known = memo.get(state.position())
        return None if known is None else known[0]

    # a frame: [position, moves to try, next index, best length, best move]
    frames: list[list[Any]] = []

    def enter() -> bool:
        position = state.position()
        mover = int(state.turn)
        listed = strategies.get(mover)
        if listed is not None:
            move = listed.get(position)
            if move is None:
                return False
            moves = [move]
        else:
            moves = list(state.legal_moves())
        frames.append([position, moves, 0, -1, None])
        memo[position] = (-1, None)  # on the path: a move back to it is no line
        return True

    if state.is_game_over() or not enter():
        return None if not state.is_game_over() else []
    while frames:
        frame = frames[-1]
        position, moves, index = frame[0], frame[1], frame[2]
        if index == len(moves):
            frames.pop()
            memo[position] = (frame[3], frame[4])
            if frames:
                state.pop()
                parent = frames[-1]
                moved = parent[1][parent[2] - 1]
                if frame[3] >= 0 and frame[3] + 1 > parent[3]:
                    parent[3], parent[4] = frame[3] + 1, moved
            continue
        frame[2] = index + 1
        move = moves[index]
        state.push(move)
        walked += 1
        if should_stop is not None and walked % 1024 == 0 and should_stop():
            return None
        plies = length()
        if plies is None:
            if not enter():
                return None
            continue
        if plies >= 0 and plies + 1 > frame[3]:
            frame[3], frame[4] = plies + 1, move
        state.pop()
    line: list[str] = []
    state = native.state_of(board)
    while not state.is_game_over():
        step = memo.get(state.position())
        if step is None or step[1] is None:
            return None
        line.append(step[1])
        state.push(step[1])
    return line


def _win(board: Any, prover: native.Prover, seconds: float | None,
         max_nodes: int | None, stop: Callable[[], bool]) -> tuple[list[Claim], int]:
    """Only "can the side to move win?": its checked claim (or none) and the nodes."""
    state = native.state_of(board)
    side = int(state.turn)
    started = _time.perf_counter()

    def left() -> float | None:
        return None if seconds is None else max(
            0.0, seconds - (_time.perf_counter() - started))

    found = prover.prove(state, side, False, time=left(), max_nodes=max_nodes,
                         should_stop=stop)
    nodes = int(found["nodes"])
    if found["verdict"] != "proven" or stop() or left() == 0.0:
        return [], nodes
    try:
        lines, plies = prover.strategy(state, side, False, time=left(),
                                       max_nodes=max_nodes, should_stop=stop)
    except HexgamesError:  # stopped, or the proof lost from the table
        return [], nodes
    header = ProofHeader(native.game_of(board), tuple(board.rules.options()),
                         board.position(), side, "win")
    listed = {digest(position): move for position, move in lines}
    if len(listed) != len(lines):
        return [], nodes  # two moves at one position (extended play): no proof file

    def progress(checked: int) -> None:
        if stop() or left() == 0.0:
            raise _Stopped

    try:
        report = check(header, listed, progress=progress)
    except (ProofFailedError, _Stopped):
        return [], nodes
    return [Claim(header, lines, plies, report.positions)], nodes


def prove(board: Any, *, time: float | None = None, max_nodes: int | None = None,
          prover: native.Prover | None = None, win_only: bool = False,
          should_stop: Callable[[], object] | None = None) -> Proven | None:
    """The proven value of ``board``'s position within a budget, or None.

    Args:
        board: an unfinished Andantino or Abande board; it is not changed.
        time: seconds for the whole (the searches, the check and the line); None for
            no limit.
        max_nodes: df-pn node visits for each search; None for no limit.
        prover: the prover (and its table) to use, kept by a caller between positions
            of a game; a new one of 16 MB when None.
        win_only: ask only whether the side to move wins (one search: what a player
            needs); else the whole value with :func:`hexgames.solver.solve` (a loss and
            a draw too: what an analysis shows).
        should_stop: asked about every 50 ms; a true answer ends it (None).

    Returns:
        a :class:`Proven` whose claims the independent checker passed, or None when the
        budget ended first, the value is not settled (``no-win``, ``unknown``) or a
        claim did not pass.

    Raises:
        hexgames.core.HexgamesError: (a ValueError) for a finished game, a bad limit or
            a board of no known game, as :func:`hexgames.solver.solve`.
    """
    started = _time.perf_counter()
    if board.is_game_over():
        raise HexgamesError("the game is over: there is nothing to prove")
    prover = prover if prover is not None else native.Prover(16)

    def stop() -> bool:
        if should_stop is not None and should_stop():
            return True
        return time is not None and _time.perf_counter() - started >= time

    side = int(board.turn)
    if win_only:
        claims, nodes = _win(board, prover, time, max_nodes, stop)
        value: str = "win" if claims else "unknown"
        winner: int | None = side if claims else None
    else:
        result = solve(board, time=time, max_nodes=max_nodes, prover=prover,
                       should_stop=stop)
        claims, nodes = result.claims, result.nodes
        value, winner = result.value, result.winner
    if value not in ("win", "loss", "draw"):
        return None
    line = principal_line(board, claims, should_stop=stop)
    if line is None:
        return None
    return Proven(value, side, winner, len(line), tuple(line),  # type: ignore[arg-type]
                  nodes, _time.perf_counter() - started)
