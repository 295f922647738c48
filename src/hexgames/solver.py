"""Proven values of positions: the native proof-number search (df-pn) and proofs checked
by code that shares nothing with it (issue 34; docs/proofs.md, docs/solver.md).

:func:`solve` answers what a position is worth for the side to move, with proofs:

1. can the side to move win? (a df-pn search; proven: a **win**);
2. if not: can the opponent win? (proven: a **loss**);
3. if neither: each side's proof that it does not lose (a **draw**).

Each search is the native :class:`hexgames.native.Prover` (Nagai's df-pn with the 1+ε
trick of Pawlewicz and Lew; ``native/core/src/proof``). A "no" of a search (a disproof)
only chooses the next question; every value :func:`solve` reports is backed by the
winner's strategy, written out by the prover and then checked position by position with
the pure-Python boards (:func:`hexgames.proof.check`), which share no code with the
prover. A value whose check fails is reported as unknown, never as proven.

Within its limits a search may settle nothing: the value is then ``unknown``, or
``no-win`` when only the first question was answered (the side to move cannot win; a
draw or a loss is not yet told apart; that claim has its proof too: the opponent's
strategy not to lose), or ``not-lose`` when only the second was, with a "no" (the side
to move does not lose: a win or a draw not yet told apart; its proof is its strategy
not to lose). Under a time limit the first question gets half of it before the second
is asked (:data:`SLICES`), then the first goes on with the rest from its table.
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from hexgames import native
from hexgames.core import GameBoard, HexgamesError
from hexgames.games import game_module
from hexgames.proof import ProofFailedError, ProofHeader, check, digest, write_proof

__all__ = ["Claim", "SearchReport", "SolveResult", "solve", "write_proofs"]

#: The values :func:`solve` reports, for the side to move.
Value = Literal["win", "loss", "draw", "no-win", "not-lose", "unknown"]
#: Under a time limit: the share of what is left of it that the first question (can the
#: side to move win?) gets, and then, if it stays open, the second (can the opponent
#: win?), before the first goes on with the rest.
SLICES = (0.5, 0.5)

#: The default size of the prover's table, in MB.
DEFAULT_TABLE_MB = 64
#: The longest time a solve may be given, in seconds (a year).
MAX_SOLVE_SECONDS = 365 * 86400.0


class _Stopped(Exception):
    """The independent check was stopped (``should_stop`` or the time)."""


@dataclass(frozen=True)
class SearchReport:
    """One df-pn search: the question (``attacker`` 0 or 1, the first player or the
    second, and ``draw_ok``: whether not losing is enough), the ``verdict``
    (``proven``, ``disproven`` or ``unknown``), ``nodes`` (node visits), ``seconds`` and
    ``table_fill`` (the share of the table in use at its end, 0 to 1)."""

    attacker: int
    draw_ok: bool
    verdict: str
    nodes: int
    seconds: float
    table_fill: float


@dataclass(frozen=True)
class Claim:
    """A proven claim: ``header`` (what it proves, as a proof file's header), the
    winner's ``strategy`` (``(position, move)`` texts, each position once), ``plies``
    (the longest line of the strategy to the end of the game: the distance of the proven
    line under the defence that holds out longest against this strategy), ``checked``
    (positions the independent checker walked) and ``path`` (the proof file written, or
    None)."""

    header: ProofHeader
    strategy: list[tuple[str, str]]
    plies: int
    checked: int
    path: Path | None = None


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    Attributes:
        value: for the side to move: ``win``, ``loss``, ``draw``, ``no-win`` (it cannot
            win: a draw or a loss), ``not-lose`` (it does not lose: a win or a draw) or
            ``unknown``.
        side: the side to move (0 the first player, 1 the second).
        winner: the winning side for ``win`` and ``loss``, else None.
        plies: the longest line of the winner's proven strategy (``win``, ``loss``), else
            None.
        claims: the proven claims behind the value (one for a win, a loss, a no-win or
            a not-lose, two for a draw), each checked by :func:`hexgames.proof.check`.
        searches: every df-pn search made, in order.
        seconds: the wall-clock time of the whole solve, checks included.
        table_bytes: the size of the prover's table.
        stopped: whether a stop (``should_stop``, the time or node limit) ended a search
            before it settled.
    """

    value: Value
    side: int
    winner: int | None
    plies: int | None
    claims: list[Claim]
    searches: list[SearchReport]
    seconds: float
    table_bytes: int
    stopped: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        """Node visits over every search."""
        return sum(s.nodes for s in self.searches)

    @property
    def proven(self) -> bool:
        """Whether the value is settled (a win, a loss or a draw) and proven."""
        return self.value in ("win", "loss", "draw")


def _claim_path(path: Path, letter: str, two: bool) -> Path:
    """Where a claim's proof file goes: ``path`` itself, or for the two claims of a draw
    ``name.<colour letter>.ext`` (``proof.w.txt``, ``proof.r.txt.gz``)."""
    if not two:
        return path
    name = path.name
    stem, dot, rest = name.partition(".")
    return path.with_name(f"{stem}.{letter}{dot}{rest}" if dot else f"{name}.{letter}")


def write_proofs(claims: list[Claim], path: str | Path) -> list[Claim]:
    """Write each claim's proof file: one claim to ``path``, the two of a draw to
    ``name.<colour letter>.ext`` beside it (docs/proofs.md); the claims with their
    paths.

    Raises:
        OSError: when a file cannot be written.
    """
    path = Path(path)
    written = []
    for c in claims:
        module = game_module(c.header.game)
        letters = ("w", "r") if c.header.game == "andantino" else ("b", "w")
        names = [str(tag) for tag in module.PLAYER_TAGS]
        target = _claim_path(path, letters[c.header.winner], len(claims) == 2)
        what = "wins" if c.header.claim == "win" else "does not lose"
        write_proof(target, c.header, c.strategy,
                    [f"hexgames proof: {names[c.header.winner]} {what} from this position",
                     f"longest line {c.plies} plies; checked {c.checked} positions"])
        written.append(Claim(c.header, c.strategy, c.plies, c.checked, target))
    return written


def check_outputs(proof: object, **callbacks: object) -> None:
    """Check, before any search, a solve's proof path (None, or the name of a file in
    a directory that exists) and its callbacks (None or callable), named by their
    keywords.

    Raises:
        HexgamesError: naming the first bad one.
    """
    for name, callback in callbacks.items():
        if callback is not None and not callable(callback):
            raise HexgamesError(f"{name} must be callable, not {callback!r}")
    if proof is None:
        return
    if not isinstance(proof, str | Path) or not str(proof) or Path(proof).is_dir():
        raise HexgamesError(f"proof must be the name of a file, not {proof!r}")
    if not Path(proof).resolve().parent.is_dir():
        raise HexgamesError(f"proof: there is no directory {Path(proof).parent} to write "
                            f"{Path(proof).name} in")


def solve(board: GameBoard, *, time: float | None = None, max_nodes: int | None = None,
          table_mb: int = DEFAULT_TABLE_MB, proof: str | Path | None = None,
          should_stop: Callable[[], object] | None = None,
          on_search: Callable[[str], None] | None = None,
          prover: native.Prover | None = None,
          clock: Callable[[], float] | None = None) -> SolveResult:
    """The proven value of ``board``'s position for its side to move (see the module).

    Args:
        board: an Andantino or Abande board (``hexgames.andantino.Board``,
            ``hexgames.abande.Board``); it is not changed.
        time: seconds for the whole solve (each search gets what is left); None for no
            limit.
        max_nodes: node visits for each search; None for no limit.
        table_mb: the prover's table in MB (1 to 65536), when ``prover`` is not given.
        proof: where to write the proof file of the value (a ``.gz`` name compresses
            it); a draw writes two files, ``name.<letter>.ext`` for each side's proof
            of not losing.
        should_stop: called about every 50 ms during a search; a true answer ends the
            solve with what was proven so far (the value ``unknown``, ``no-win`` or
            ``not-lose``).
        on_search: called with a description of each search as it starts (for a
            progress display).
        prover: a prover to use (and its table); a new one when None.
        clock: what ``time`` is counted on, in seconds: the wall clock when None;
            ``time.process_time`` for CPU seconds of this process (a machine shared
            with other work), read when the searches poll their stop (about every 50
            ms).

    Returns:
        The value, its proven claims and the searches' reports.

    Raises:
        hexgames.core.HexgamesError: (a ValueError) for a finished game, a bad limit or
            table size, or a board of no known game.
        OSError: when the proof file cannot be written.
        KeyboardInterrupt: on Ctrl-C in the main thread (``should_stop`` is the way to
            stop with a result).
    """
    started = _time.perf_counter()
    try:
        game = native.game_of(board)
    except TypeError as error:
        raise HexgamesError(str(error)) from None
    if not hasattr(board, "is_game_over"):
        raise HexgamesError(f"not a hexgames board: {type(board).__name__}")
    if board.is_game_over():
        raise HexgamesError("the game is over: there is nothing to solve")
    if time is not None and (isinstance(time, bool) or not isinstance(time, int | float)
                             or not 0 <= time <= MAX_SOLVE_SECONDS):
        raise HexgamesError(f"time must be 0 to {MAX_SOLVE_SECONDS:g} seconds, not "
                            f"{time!r}")
    if prover is not None and not isinstance(prover, native.Prover):
        raise HexgamesError(f"prover must be a hexgames.native.Prover, not {prover!r}")
    check_outputs(proof, should_stop=should_stop, on_search=on_search)
    if clock is not None and not callable(clock):
        raise HexgamesError(f"clock must be a function giving seconds, not {clock!r}")
    module = game_module(game)
    names = [str(tag) for tag in module.PLAYER_TAGS]
    state = native.state_of(board)
    prover = prover if prover is not None else native.Prover(table_mb)
    side = int(state.turn)
    searches: list[SearchReport] = []
    stopped = [False]

    now = clock if clock is not None else _time.perf_counter
    began = now()

    def left() -> float | None:
        return None if time is None else max(0.0, time - (now() - began))

    def limited(seconds: float | None) -> tuple[float | None, Callable[[], bool]]:
        """The native search's time and stop for ``seconds`` more of ``clock``: its own
        timer for the wall clock, else a stop that reads ``clock`` when it is polled."""
        if clock is None or seconds is None:
            return seconds, stop_now
        end = now() + seconds
        return None, lambda: stop_now() or now() >= end

    def stop_now() -> bool:
        if should_stop is not None and should_stop():
            stopped[0] = True
            return True
        return False

    def search(attacker: int, draw_ok: bool, share: float = 1.0) -> str:
        """A search's verdict, with what is left of the time (``share`` of it: a slice
        whose end does not end the solve)."""
        if stopped[0] or stop_now() or left() == 0.0:
            stopped[0] = True
            return "unknown"
        if on_search is not None:
            what = "not lose" if draw_ok else "win"
            on_search(f"can {names[attacker]} {what}?")
        budget = left()
        if budget is not None and share < 1.0:
            budget *= share
        budget, stop = limited(budget)
        report = prover.prove(state, attacker, draw_ok, time=budget, max_nodes=max_nodes,
                              should_stop=stop)
        verdict = str(report["verdict"])
        searches.append(SearchReport(attacker, draw_ok, verdict, int(report["nodes"]),
                                     float(report["time"]), float(report["table_fill"])))
        if verdict == "unknown" and share >= 1.0:
            stopped[0] = True
        return verdict

    def claim(attacker: int, draw_ok: bool) -> Claim | None:
        """The checked strategy of a goal just proven, or None when it cannot be had
        (lost from the table and not proven again, or refuted by the check)."""
        if on_search is not None:
            on_search(f"writing and checking {names[attacker]}'s strategy")
        try:
            budget, stop = limited(left())
            lines, plies = prover.strategy(state, attacker, draw_ok, time=budget,
                                           max_nodes=max_nodes, should_stop=stop)
        except HexgamesError as error:
            # (what the table dropped of a proof is searched again, within what is left)
            notes.append(f"{names[attacker]}'s strategy could not be written: {error}; "
                         f"the table of {prover.table_bytes / 2**20:,.0f} MB had lost parts "
                         "of the proof, and a larger one (tt-mb) keeps more of them")
            return None
        header = ProofHeader(game, tuple(board.rules.options()), board.position(),
                             attacker, "not-lose" if draw_ok else "win")
        strategy: dict[bytes, str] = {}
        for position, move in lines:
            if strategy.setdefault(digest(position), move) != move:
                # (extended play: the history chose two moves; a proof file lists one)
                notes.append(f"{names[attacker]}'s strategy plays two moves at {position}")
                return None

        def progress(checked: int) -> None:
            if stop_now() or left() == 0.0:
                raise _Stopped

        try:
            report = check(header, strategy, progress=progress)
        except ProofFailedError as error:
            notes.append(f"the independent check refuted {names[attacker]}'s strategy: "
                         f"{error}")
            return None
        except _Stopped:
            stopped[0] = True
            notes.append(f"stopped while {names[attacker]}'s strategy was checked")
            return None
        return Claim(header, lines, plies, report.positions)

    notes: list[str] = []
    me, other = side, 1 - side

    def not_winning(mine: Claim | None) -> tuple[Value, list[Claim]]:
        """The value once the side to move is shown not to win (its opponent's proof of
        not losing: ``no-win``), and whether the opponent wins (``loss``) or does not
        either (``draw``; ``mine``: the side to move's proof of not losing if it was
        written already)."""
        second = search(other, False)
        if second == "proven":
            c = claim(other, False)
            return ("loss", [c]) if c is not None else ("unknown", [])
        # the opponent's proof of not losing stands behind "no-win" (and a draw)
        holds = search(other, True)
        theirs = claim(other, True) if holds == "proven" else None
        if theirs is None:
            return "unknown", []
        if second == "disproven" and mine is None and search(me, True) == "proven":
            mine = claim(me, True)
        if second == "disproven" and mine is not None:
            return "draw", [mine, theirs]
        return "no-win", [theirs]

    value: Value = "unknown"
    claims: list[Claim] = []
    mine: Claim | None = None
    # Under a time limit (and no node limit) the first question gets half the time, and
    # if it stays open the second gets half of what is left (:data:`SLICES`) before the
    # first goes on from its table: a loss, or the opponent's win disproven (the side
    # to move does not lose), is often settled far sooner than a win of the side to
    # move that needs the whole time, which the first question would otherwise take.
    sliced = time is not None and max_nodes is None
    first = search(me, False, SLICES[0] if sliced else 1.0)
    if first == "unknown" and sliced and not stopped[0]:
        second = search(other, False, SLICES[1])
        if second == "proven":
            c = claim(other, False)
            if c is not None:
                value, claims = "loss", [c]
            first = "settled"
        else:
            if second == "disproven" and search(me, True) == "proven":
                mine = claim(me, True)
                if mine is not None:
                    value, claims = "not-lose", [mine]
            first = search(me, False)
    if first == "proven":
        c = claim(me, False)
        if c is not None:
            value, claims = "win", [c]
    elif first == "disproven":
        found, with_claims = not_winning(mine)
        if found != "unknown":
            value, claims = found, with_claims
    winner = {"win": me, "loss": other}.get(value)
    plies = claims[0].plies if winner is not None else None
    if proof is not None and claims:
        claims = write_proofs(claims, proof)
    return SolveResult(value, side, winner, plies, claims, searches,
                       _time.perf_counter() - started, prover.table_bytes, stopped[0],
                       notes)
