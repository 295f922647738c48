"""The searches of the browser app: a player (or a worker process's engine) searching a
copy of a position in a thread with progress reports (:class:`Search`), and the sockets
that watch a game (:class:`Subscriber`), each with its own analysis.

Used by :mod:`hexgames.web.ai` (the AI) and :mod:`hexgames.web.analysing` (hints and
the analysis of the position a page shows).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

from hexgames import limits, native
from hexgames.engine.base import Info, InfoCallback, Limit, PlayResult
from hexgames.proving import verdict
from hexgames.web.policy import LOCAL, Actor
from hexgames.web.views import JSON, ConflictError, move_text
from hexgames.web.worker import PoolClosedError

log = logging.getLogger("hexgames.web")

#: Seconds between two progress messages of a running search.
PROGRESS_INTERVAL = 0.5

class Engine(Protocol):
    """What a search runs: a :class:`~hexgames.engine.base.Player`, or a
    :class:`~hexgames.web.worker.ProcessEngine` that runs one in a worker process."""

    def play(self, board: Any, limit: Limit | None = None, *,
             on_info: InfoCallback | None = None) -> PlayResult: ...

    def stop(self) -> None: ...


class Subscriber:
    """One socket watching a game, for ``actor`` (the local person, or the account
    logged in on that socket): :meth:`send` may be called from any thread; the socket's
    task takes what to send from ``queue``: :class:`Outgoing` texts, a
    :class:`Closing`, or ``None`` (close).

    What waits to be sent is bounded: a ``state`` supersedes the one still waiting
    before it (only the newest is sent), and when more than
    :data:`hexgames.limits.MAX_SOCKET_BACKLOG` bytes wait (a page that does not read
    its socket) the rest is dropped and the socket closed with
    :data:`CLOSE_TOO_SLOW`, so a page that stops reading cannot make the server's
    memory grow.

    Each socket has its own analysis (the page analyses the position it shows):
    ``analysis_on``, ``analysis_line`` (the moves to the analysed position, ``None`` for
    the game's current position, whatever it becomes), ``multipv`` (lines asked for) and
    the running :class:`Search`, if any.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, actor: Actor = LOCAL,
                 token: str | None = None) -> None:
        self.loop = loop
        self.actor = actor
        self.token = token
        self.queue: asyncio.Queue[Outgoing | Closing | None] = asyncio.Queue()
        self.analysis_on = False
        self.analysis_line: list[str] | None = None
        self.multipv = 1
        self.analysis: Search | None = None
        self.backlog = 0  # bytes waiting (changed in the loop's thread only)
        self._state: Outgoing | None = None  # the state waiting to be sent
        self._overflowed = False

    def send(self, message: JSON | Closing | None) -> None:
        """Queue ``message`` for the socket (dropped if its event loop has closed)."""
        item: Outgoing | Closing | None
        if isinstance(message, dict):
            item = Outgoing(json.dumps(message), message.get("type") == "state")
        else:
            item = message
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self._put, item)

    def send_text(self, text: str) -> None:
        """Queue a message already written as JSON text (not a ``state``)."""
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self._put, Outgoing(text, False))

    def close(self, code: int, message: str) -> None:
        """Ask the socket to send an ``error`` saying ``message`` and close with
        ``code`` (from any thread); what it had queued before goes first."""
        self.send(Closing(code, message))

    def _put(self, item: Outgoing | Closing | None) -> None:
        """Queue ``item`` (in the loop's thread), within the backlog's bound."""
        if self._overflowed:
            return
        if isinstance(item, Outgoing):
            if item.state and self._state is not None and not self._state.sent:
                self._state.dropped = True  # superseded: the newer state goes instead
                self.backlog -= len(self._state.text)
            if self.backlog + len(item.text) > limits.MAX_SOCKET_BACKLOG:
                self._overflowed = True
                while not self.queue.empty():
                    self.queue.get_nowait()
                self.backlog = 0
                self.queue.put_nowait(Closing(CLOSE_TOO_SLOW, TOO_SLOW))
                return
            self.backlog += len(item.text)
            if item.state:
                self._state = item
        self.queue.put_nowait(item)

    def taken(self, item: Outgoing) -> None:
        """``item`` is being sent (in the loop's thread): it waits no more."""
        item.sent = True
        if not item.dropped:
            self.backlog -= len(item.text)


class HelperSlots:
    """The engine's help to people (hints, analyses, whole-game analyses) running at
    once, in server mode: at most ``per_user`` for one account and ``total`` in all, so
    that one account cannot take the workers the AIs' moves need. Thread-safe.

    A search takes a slot before it starts (:meth:`take`) and gives it back when it
    ends, however it ends (:meth:`give_back`).
    """

    def __init__(self, per_user: int, total: int) -> None:
        self.per_user = per_user
        self.total = total
        self._running: dict[int | None, int] = {}
        self._lock = threading.Lock()

    def take(self, actor: Actor) -> str | None:
        """A slot for ``actor``'s search: ``None`` when taken, else why not."""
        with self._lock:
            mine = self._running.get(actor.user_id, 0)
            if actor.user_id is not None and mine >= self.per_user:
                return (f"you have {mine} analyses and hints running, the most at once "
                        "(hexgames.limits.MAX_HELP_PER_USER): stop one first")
            if sum(self._running.values()) >= self.total:
                return "the engines are all busy now: try again in a moment"
            self._running[actor.user_id] = mine + 1
            return None

    def claim(self, actor: Actor) -> None:
        """A slot for ``actor``'s search, as :meth:`take`.

        Raises:
            ConflictError: saying why there is none.
        """
        busy = self.take(actor)
        if busy is not None:
            raise ConflictError(busy)

    def give_back(self, actor: Actor) -> None:
        """The search of ``actor`` has ended."""
        with self._lock:
            left = self._running.get(actor.user_id, 0) - 1
            if left > 0:
                self._running[actor.user_id] = left
            else:
                self._running.pop(actor.user_id, None)

    def running(self) -> int:
        """The searches running now."""
        with self._lock:
            return sum(self._running.values())


#: WebSocket close code for a page that does not read what the server sends.
CLOSE_TOO_SLOW = 4408
#: What such a page is told.
TOO_SLOW = (f"the page read too slowly: more than {limits.MAX_SOCKET_BACKLOG} bytes "
            "waited for it (hexgames.limits.MAX_SOCKET_BACKLOG); open the game again")


@dataclasses.dataclass(eq=False)
class Outgoing:
    """A message waiting in a socket's queue, as JSON text; ``state`` for a ``state``
    message (a newer one supersedes it: ``dropped``), ``sent`` once taken."""

    text: str
    state: bool
    dropped: bool = False
    sent: bool = False


@dataclasses.dataclass(frozen=True)
class Closing:
    """Queued for a socket that is to be closed: the ``error`` it is told, its close
    code."""

    code: int
    message: str


class Search:
    """A player searching a copy of a position in a worker thread.

    ``on_progress(search)`` is called about every :data:`PROGRESS_INTERVAL` seconds while
    it runs, and ``on_done(search, result)`` once at the end with the
    :class:`~hexgames.engine.base.PlayResult` or the exception raised. A search still
    running after :data:`hexgames.limits.MAX_AI_SECONDS` is stopped (it returns its best
    move so far), so that no player spec can keep a worker for ever.
    """

    def __init__(self, player: Engine, board: Any, limit: Limit | None, *, version: int,
                 on_progress: Callable[[Search], None],
                 on_done: Callable[[Search, Any], None]) -> None:
        self.player = player
        self.board = board.copy()
        self.side = int(board.turn)
        self.ply = len(board.move_stack)
        self.line = [move_text(move) for move in board.move_stack]
        self.position = board.position()
        self.limit = limit
        self.version = version
        self.info: Info | None = None
        self.started = time.monotonic()
        self.done = threading.Event()
        self.stop_requested = False
        self._on_progress = on_progress
        self._on_done = on_done

    def start(self) -> None:
        """Start the search and its progress ticker (daemon threads)."""
        threading.Thread(target=self._run, name="hexgames-search", daemon=True).start()
        threading.Thread(target=self._tick, name="hexgames-ticker", daemon=True).start()

    def stop(self) -> None:
        """Ask the search to return its best move so far, soon."""
        self.stop_requested = True
        self.player.stop()

    def cancel(self) -> None:
        """Stop a search whose result is no longer wanted (the game changed or closed):
        one still waiting for a worker process does not wait on."""
        self.stop_requested = True
        cancel = getattr(self.player, "cancel", None)
        if callable(cancel):
            cancel()
        else:
            self.player.stop()

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.monotonic() - self.started

    def progress(self) -> JSON:
        """``{"side", "elapsed", "depth", "seldepth", "nodes", "best", "pv", "score",
        "eval", "mate", "lines", "proven"}`` so far (``lines``: the MultiPV lines, each
        ``{"score", "eval", "mate", "pv", "depth"}``, best first; empty for one line;
        ``proven``: for a value the solver proved, its words, ``"White wins in 17
        (proven)"`` or ``"Draw (proven)"``, the PV its proof's line; else null)."""
        info = self.info
        pv = [move_text(move) for move in info.pv] if info is not None else []
        lines = [{"score": line.score, "eval": line.eval, "mate": line.mate,
                  "pv": [move_text(move) for move in line.pv], "depth": line.depth}
                 for line in (info.lines if info is not None else [])]
        return {"side": self.side, "elapsed": round(self.elapsed(), 2),
                "depth": info.depth if info else 0,
                "seldepth": info.seldepth if info else 0,
                "nodes": info.nodes if info else 0,
                "best": pv[0] if pv else None, "pv": pv,
                "score": info.score if info else None,
                "eval": info.eval if info else None, "mate": info.mate if info else None,
                "lines": lines,
                "proven": None if info is None else verdict(native.game_of(self.board),
                                                            self.side, info)}

    def _on_info(self, info: Info) -> None:
        self.info = dataclasses.replace(info, pv=list(info.pv), lines=list(info.lines))
        if self.stop_requested:
            self.player.stop()

    def _run(self) -> None:
        result: Any
        try:
            result = self.player.play(self.board, self.limit, on_info=self._on_info)
        except Exception as error:  # reported to the page by on_done
            # a cancelled search's end is no failure, nor one ended by the server stopping
            if not self.stop_requested and not isinstance(error, PoolClosedError):
                log.exception("search failed")
            result = error
        self.done.set()
        try:
            self._on_done(self, result)
        except Exception:
            log.exception("applying a search result failed")

    def _tick(self) -> None:
        while not self.done.wait(PROGRESS_INTERVAL):
            if self.elapsed() > limits.MAX_AI_SECONDS:
                # No search of the app runs longer, whatever its own limit (a spec with
                # depth=40 and no time): it plays its best move so far.
                self.stop_requested = True
            # Repeat the stop: a stop that came before the search began was cleared by it.
            if self.stop_requested:
                self.player.stop()
                continue
            try:
                self._on_progress(self)
            except Exception:
                log.exception("progress report failed")
