"""The engine interface: limits, search information, and the player base class.

The search code sees a game only through :class:`GameState`, the small protocol that
both boards satisfy (in the manner of OpenSpiel's state interface), so every player
serves both games.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hexgames.core import GameBoard, HexgamesError
from hexgames.limits import MAX_SEARCH_SECONDS
from hexgames.record.errors import quote, shorten

#: What a player may use of a board: the one board protocol of :mod:`hexgames.core`.
GameState = GameBoard


def game_value(board: GameState, player: int) -> float:
    """The finished game's result for ``player`` (0 or 1): 1.0 a win, 0.5 a draw, 0.0 a
    loss.

    Raises:
        ValueError: if the game is not over.
    """
    outcome = board.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == player else 0.0


#: The largest ``nodes``, ``depth`` or ``playouts`` of a :class:`Limit`: a whole number of
#: at most 18 digits, as a player spec writes it (the native search counts in 64 bits).
MAX_LIMIT_COUNT = 10**18 - 1
_COUNTS = ("nodes", "depth", "playouts")


class InvalidLimitError(HexgamesError):
    """A search limit that is negative or of the wrong type."""


#: A decimal number as a user writes one: ASCII digits, an optional sign, fraction and
#: exponent (``float()`` also reads ``1_0`` and other scripts' digits).
DECIMAL_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: The words ``float()`` reads as a value that is no finite number.
NON_FINITE_WORDS = frozenset({"nan", "inf", "infinity"})


def search_seconds(text: str) -> float:
    """A search time a user wrote (the command line's ``--time``, a player spec's
    ``time=``), read strictly, as seconds.

    A user's time must be above 0 (a :class:`Limit` takes 0 as "as fast as possible",
    but a user asking for 0 seconds is taken to be mistaken), finite, and at most
    :data:`hexgames.limits.MAX_SEARCH_SECONDS`. A number too large for a ``float``
    (``1e309``) is too large, not infinite; a positive one too small (``1e-400``) is the
    least positive ``float``.

    Raises:
        ValueError: whose message ends a sentence about the value: ``must be a number of
            seconds, not '5s'``, ``must be a number of seconds above 0 (and finite), not
            0``, ``must be at most 86400 seconds (a day), not 1e309``.
    """
    stripped = text.strip()
    if DECIMAL_TEXT.fullmatch(stripped):
        seconds = float(stripped)  # any exponent: infinite when too large, 0.0 too small
        mantissa = re.split("[eE]", stripped)[0]
        if not stripped.startswith("-") and any(c in mantissa for c in "123456789"):
            seconds = max(seconds, math.ulp(0.0))  # above 0, however small
    elif stripped.lower().lstrip("+-") in NON_FINITE_WORDS:
        seconds = math.nan  # the words are not finite numbers, whatever their sign
    else:
        raise ValueError(f"must be a number of seconds, not {quote(stripped)}")
    if math.isnan(seconds) or seconds <= 0:
        raise ValueError(f"must be a number of seconds above 0 (and finite), not "
                         f"{shorten(stripped)}")
    if seconds > MAX_SEARCH_SECONDS:  # a number written too large for a float too
        raise ValueError(f"must be at most {MAX_SEARCH_SECONDS:g} seconds (a day), not "
                         f"{shorten(stripped)}")
    return seconds


@dataclass(frozen=True)
class Limit:
    """When a search stops: the first limit reached ends it; with none set a player
    uses its own default. A limit of 0 asks for the least a player can do: it still
    returns a legal move (alpha-beta finishes its first ply of search, MCTS its first
    simulation), so a 0 limit is "as fast as possible", not an error.

    Attributes:
        time: seconds of wall-clock time for this move.
        nodes: positions visited (alpha-beta) or simulations (MCTS).
        depth: plies of full-width search (alpha-beta).
        playouts: simulations (MCTS); the same as ``nodes`` for MCTS.
        clock: seconds left on the mover's game clock. A player with a time manager
            (``Player.handles_clock``) decides how much of it the move gets; for the
            others :meth:`Player.play` turns it into a per-move ``time`` by
            :meth:`move_time`.
        increment: seconds added to the mover's clock after each move (Fischer); used
            with ``clock``.

    Raises:
        InvalidLimitError: for a negative, NaN, infinite or non-numeric limit, a
            ``nodes``, ``depth`` or ``playouts`` that is not a whole number or is above
            :data:`MAX_LIMIT_COUNT`, a ``time``, ``clock`` or ``increment`` above
            :data:`hexgames.limits.MAX_SEARCH_SECONDS` (a day), or an ``increment``
            without a ``clock``.
    """

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None
    playouts: int | None = None
    clock: float | None = None
    increment: float | None = None

    def __post_init__(self) -> None:
        for name in ("time", "nodes", "depth", "playouts", "clock", "increment"):
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidLimitError(f"limit {name} must be a number, not {value!r}")
            if value != value or value in (float("inf"), float("-inf")):
                raise InvalidLimitError(f"limit {name} must be a finite number, not {value}")
            if value < 0:
                raise InvalidLimitError(f"limit {name} must be 0 or more, not {value}")
            if name not in _COUNTS and value > MAX_SEARCH_SECONDS:
                # (an int too large for a float has no :g: OverflowError before)
                shown = f"{value:g}" if isinstance(value, float) else shorten(str(value))
                raise InvalidLimitError(
                    f"limit {name} must be at most {MAX_SEARCH_SECONDS:g} seconds (a day), "
                    f"not {shown}")
            if name in _COUNTS:
                if not isinstance(value, int):
                    raise InvalidLimitError(f"limit {name} must be a whole number, not {value}")
                if value > MAX_LIMIT_COUNT:
                    raise InvalidLimitError(
                        f"limit {name} must be at most {MAX_LIMIT_COUNT}, not "
                        f"{shorten(str(value))}")
        if self.increment is not None and self.clock is None:
            raise InvalidLimitError("limit increment needs a clock (seconds left)")

    def is_empty(self) -> bool:
        """Whether no limit is set."""
        return self.time is None and self.nodes is None and self.depth is None \
            and self.playouts is None and self.clock is None

    def describe(self) -> str:
        """The limit in words, e.g. ``"1 s or 10,000 nodes"``; ``""`` when none is set."""
        parts = []
        if self.time is not None:
            parts.append(f"{self.time:g} s")
        if self.nodes is not None:
            parts.append(f"{self.nodes:,} nodes")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.playouts is not None:
            parts.append(f"{self.playouts:,} playouts")
        if self.clock is not None:
            increment = f" + {self.increment:g} s a move" if self.increment else ""
            parts.append(f"a clock of {self.clock:g} s{increment}")
        return " or ".join(parts)

    def move_time(self) -> float | None:
        """A per-move time (seconds) for a player without a time manager: for a game
        clock, a 30th of the time left plus three quarters of the increment, never more
        than half the time left; else ``time``."""
        if self.clock is None:
            return self.time
        budget = self.clock / 30 + 0.75 * (self.increment or 0.0)
        budget = min(budget, self.clock / 2)
        return budget if self.time is None else min(budget, self.time)


@dataclass
class Info:
    """What a search has found so far.

    Attributes:
        score: the estimated probability (0 to 1) that the side to move in the searched
            position wins, draws counting one half.
        eval: alpha-beta's evaluation for the side to move (positive is good for it), in
            the player's own units, or ``None``.
        mate: ``n`` when the side to move wins by force in ``n`` plies, ``-n`` when it
            loses in ``n``; ``None`` when no forced result is proven.
        pv: the principal variation, moves from the searched position.
        depth: completed search depth in plies (alpha-beta), or the tree depth (MCTS).
        nodes: positions visited (alpha-beta) or simulations run (MCTS).
        nps: ``nodes`` per second.
        time: seconds since the search started.
        policy: the search's move probabilities at the root, ``(move, probability)``
            pairs summing to 1 (an MCTS player's visit shares, say), or ``None`` when the
            player does not report them; optional, read by self-play samples
            (:mod:`hexgames.arena.selfplay`).
        seldepth: the deepest ply the search reached, extensions included (0 when the
            player does not say).
        lines: with MultiPV (alpha-beta's ``multipv`` option), one :class:`Info` per
            root line, best first, each with its own exact score, evaluation, mate and
            PV; empty for players that search one line.
        proven: whether the value is proven (by the df-pn solver, its proof passed by
            the independent checker: :mod:`hexgames.proving`) rather than the search's
            estimate: then ``mate`` is the proven distance (None for a proven draw)
            and ``pv`` the proof's principal line.
    """

    score: float | None = None
    eval: float | None = None
    mate: int | None = None
    pv: list[Any] = field(default_factory=list)
    depth: int = 0
    nodes: int = 0
    nps: float = 0.0
    time: float = 0.0
    policy: list[tuple[Any, float]] | None = None
    seldepth: int = 0
    lines: list[Info] = field(default_factory=list)
    proven: bool = False


@dataclass
class PlayResult:
    """A player's move and the search information behind it."""

    move: Any
    info: Info


InfoCallback = Callable[[Info], None]


class Player:
    """Base class of the AI players.

    Subclasses implement :meth:`_search`. A player never changes the board it is given
    (it searches a copy), can be stopped from another thread with :meth:`stop` (the
    search then returns its best move so far), and reports progress to ``on_info``.
    """

    #: The name used in records and on the command line (``random``, ``alphabeta``...).
    name = "player"
    #: Whether the player manages a game clock itself (``Limit.clock``); when false,
    #: :meth:`play` gives it the per-move time of :meth:`Limit.move_time` instead.
    handles_clock = False
    #: Whether :meth:`_search` may change the board it is given: then it gets a copy, so
    #: that :meth:`play` never changes the caller's board. The native players only read
    #: it (copying a Python board of hundreds of tiles takes a fraction of a second).
    changes_board = True

    def __init__(self, default_limit: Limit | None = None) -> None:
        self.default_limit = default_limit or Limit()
        self._stop = threading.Event()

    def play(self, board: GameState, limit: Limit | None = None, *,
             on_info: InfoCallback | None = None) -> PlayResult:
        """Choose a move for the side to move.

        Args:
            board: the position; it is not changed.
            limit: when to stop; ``None`` for the player's default limit.
            on_info: called with an :class:`Info` as the search progresses.

        Raises:
            ValueError: if the game is over (there is no move to play).
        """
        if board.is_game_over():
            raise ValueError("the game is over: there is no move to play")
        self._stop.clear()
        limit = self.default_limit if limit is None or limit.is_empty() else limit
        if limit.clock is not None and not self.handles_clock:
            limit = Limit(time=limit.move_time(), nodes=limit.nodes, depth=limit.depth,
                          playouts=limit.playouts)
        return self._search(board.copy() if self.changes_board else board, limit, on_info)

    def analyse(self, board: GameState, limit: Limit | None = None, *,
                on_info: InfoCallback | None = None) -> Info:
        """Search ``board`` and return what was found (the best move is ``info.pv[0]``).

        Raises:
            ValueError: if the game is over.
        """
        return self.play(board, limit, on_info=on_info).info

    def stop(self) -> None:
        """Ask a running search to stop soon and return its best move so far; safe to
        call from another thread. The native players return within a few milliseconds
        on any position (``docs/limits.md``, "How soon a search stops")."""
        self._stop.set()

    def stopped(self) -> bool:
        """Whether :meth:`stop` was called since the search began."""
        return self._stop.is_set()

    def new_game(self) -> None:
        """Forget anything kept from earlier moves (search trees, tables)."""

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        raise NotImplementedError


def time_left(seconds: float | None, start: float) -> float | None:
    """What is left of a time limit of ``seconds`` (``None``: no limit) since ``start``
    (a ``time.perf_counter()`` reading), 0 or more: the time a player's native search
    gets once the player has spent some of it (setting the position up for the native
    core takes a tenth of a second with 500 tiles a side spread wide)."""
    if seconds is None:
        return None
    return max(0.0, seconds - (time.perf_counter() - start))


class Clock:
    """Elapsed time since a search began, against an optional time limit (seconds)."""

    __slots__ = ("deadline", "start")

    def __init__(self, seconds: float | None) -> None:
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline
