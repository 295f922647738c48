"""AI searches in worker processes, so that a search never holds the server's
interpreter lock: the page and other games get their answers while several AIs think.

A :class:`WorkerPool` keeps worker processes (started with ``forkserver`` where the
platform has it, else ``spawn``) and lowers their scheduling priority, so that on a busy
machine the server's short tasks come first. A :class:`ProcessEngine` runs one search in
a worker with the interface of a :class:`~hexgames.engine.base.Player` (``play`` and
``stop``), so the server treats it as a player. Each worker keeps its players between
searches (a transposition table is allocated once; MCTS reuses its tree when the pool
gives the same game back to the same worker).

A job with a seed (the move of a level that varies its play, see
:func:`hexgames.engine.players.move_seed`) is searched by a player made for it with that
seed, so that its draws do not depend on which worker searched the moves before.

Messages on a worker's pipe, parent to worker: ``("job", job_id, spec, game_key,
root_position, rules_words, moves, limit_fields, seed)`` and ``("stop", job_id)``; worker
to parent: ``("info", job_id, INFO)``, then ``("done", job_id, move_text, INFO)`` or
``("error", job_id, message)``, INFO being a dict of :class:`Info`'s fields with the
principal variation in notation and ``lines`` (MultiPV) a list of such dicts.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import itertools
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from hexgames.engine.base import Info, InfoCallback, Limit, Player, PlayResult
from hexgames.processes import start_forkserver, worker_started

#: Seconds between two ``info`` messages of a worker.
INFO_INTERVAL = 0.25
#: How much nicer (lower priority) than the server the workers run.
NICENESS = 5
#: The most players (each with its transposition table or search tree, up to
#: :data:`hexgames.limits.MAX_TT_MB`) a worker keeps between searches, the most recently
#: used; without a cap, each new spec it searched for added one for good.
KEPT_PLAYERS = 2
#: Seconds a worker waits idle before it drops the players it keeps and gives their
#: memory back (a game that ended or was deleted leaves its table behind otherwise).
IDLE_SECONDS = 120.0

_job_ids = itertools.count(1)


class WorkerError(RuntimeError):
    """A search in a worker failed, or the worker process ended."""


class PoolClosedError(WorkerError):
    """The pool was closed (the server is stopping) before or during the search: no
    failure to report."""


def _text(move: Any) -> str:
    notation = getattr(move, "notation", None)
    return str(notation()) if callable(notation) else str(move)


def _info_fields(info: Info) -> dict[str, Any]:
    """The fields of ``info`` as plain values: the moves in notation, each MultiPV line
    a dict of its own."""
    fields = {field.name: getattr(info, field.name) for field in dataclasses.fields(info)}
    fields["pv"] = [_text(move) for move in info.pv]
    fields["lines"] = [_info_fields(line) for line in info.lines]
    return fields


def info_of(fields: dict[str, Any]) -> Info:
    """The :class:`Info` of :func:`_info_fields`'s dict (the moves stay texts)."""
    values = dict(fields)
    values["lines"] = [info_of(line) for line in values.get("lines") or ()]
    return Info(**values)


def _worker_main(conn: Connection, parent: int, idle_seconds: float = IDLE_SECONDS) -> None:
    """The worker process's entry point: :func:`_run_worker`, deaf to SIGINT and ended
    with the server, the process ``parent`` (:func:`hexgames.processes.worker_started`).
    Ctrl-C in a terminal reaches the whole process group; the server shuts down and ends
    its workers
    (:meth:`Worker.close` terminates them), so a worker takes no SIGINT of its own (it
    printed a KeyboardInterrupt traceback from ``conn.recv()``)."""
    worker_started(parent)
    _run_worker(conn, idle_seconds)


def _run_worker(conn: Connection, idle_seconds: float = IDLE_SECONDS) -> None:
    """A worker process: search each job it is sent, until the pipe closes. It keeps
    the players of the last :data:`KEPT_PLAYERS` specs it searched for, and drops them
    once it has waited ``idle_seconds`` for a job."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)
    players = _KeptPlayers()
    while True:
        try:
            if players and not conn.poll(idle_seconds):
                players.clear()
                continue
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message[0] == "job" and not _serve(conn, message, players):
            return
        # else a stop for a search that has ended


def _serve(conn: Connection, message: tuple[Any, ...], players: _KeptPlayers) -> bool:
    """Search the job of ``message`` and send the outcome; ``False`` if the pipe has
    closed. (A function of its own, so that nothing of the job outlives it: a player
    dropped from ``players`` goes with its table.)"""
    from hexgames.games import game_module

    _, job_id, spec, game_key, position, rules_words, moves, limit_fields, seed = message
    try:
        module = game_module(position.split(maxsplit=1)[0])
        board = module.Board(position, module.Rules.from_options(rules_words))
        for text in moves:
            board.push_notation(text)
        player = players.get(spec, game_key, seed)
        limit = Limit(**limit_fields) if limit_fields is not None else None
    except Exception as error:
        conn.send(("error", job_id, f"{type(error).__name__}: {error}"))
        return True
    return _Job(conn, job_id, player).run(board, limit)


class _KeptPlayers:
    """The players a worker keeps between searches, by spec: at most
    :data:`KEPT_PLAYERS`, the least recently used dropped first."""

    def __init__(self) -> None:
        self._players: OrderedDict[str, Player] = OrderedDict()  # most recent last
        self._games: dict[str, str] = {}  # spec -> the game key its player last searched

    def __len__(self) -> int:
        return len(self._players)

    def get(self, spec: str, game_key: str, seed: int | None) -> Player:
        """The player for a search of ``spec`` in the game ``game_key``: a new one of
        ``seed`` when it is given (its own draws, whoever searched before), else the
        kept one (told of a new game when the last search was of another)."""
        from hexgames.engine.players import make_player

        if seed is not None:
            return make_player(spec, seed)
        player = self._players.get(spec)
        if player is None:
            if len(self._players) >= KEPT_PLAYERS:  # the old table goes before the new
                while len(self._players) >= KEPT_PLAYERS:
                    dropped = next(iter(self._players))
                    del self._players[dropped]
                    self._games.pop(dropped, None)
                gc.collect()
            player = self._players[spec] = make_player(spec)
        self._players.move_to_end(spec)
        if self._games.get(spec) != game_key:
            player.new_game()
            self._games[spec] = game_key
        return player

    def clear(self) -> None:
        """Drop every player and give its memory back."""
        self._players.clear()
        self._games.clear()
        gc.collect()  # a player's native table goes with its last reference


class _Job:
    """One search in a worker: the search runs in a thread while the worker's main
    thread waits for a stop on the pipe."""

    def __init__(self, conn: Connection, job_id: int, player: Player) -> None:
        self.conn = conn
        self.job_id = job_id
        self.player = player
        self.stop = threading.Event()
        self.last_info = 0.0
        self.outcome: tuple[Any, ...] = ("error", job_id, "the search did not end")

    def on_info(self, info: Info) -> None:
        if self.stop.is_set():
            self.player.stop()
        now = time.monotonic()
        if now - self.last_info >= INFO_INTERVAL:
            self.last_info = now
            self.conn.send(("info", self.job_id, _info_fields(info)))

    def search(self, board: Any, limit: Limit | None) -> None:
        try:
            result = self.player.play(board, limit, on_info=self.on_info)
            self.outcome = ("done", self.job_id, _text(result.move), _info_fields(result.info))
        except Exception as error:
            self.outcome = ("error", self.job_id, f"{type(error).__name__}: {error}")

    def run(self, board: Any, limit: Limit | None) -> bool:
        """Search and send the outcome; ``False`` if the pipe has closed."""
        thread = threading.Thread(target=self.search, args=(board, limit), daemon=True)
        thread.start()
        while thread.is_alive():
            try:
                request = self.conn.recv() if self.conn.poll(0.1) else None
            except (EOFError, OSError):
                self.player.stop()
                thread.join()
                return False
            if request is not None and request[0] == "stop" and request[1] == self.job_id:
                self.stop.set()
            if self.stop.is_set():
                # Repeated: a stop that came before the search began was cleared by it.
                self.player.stop()
        try:
            self.conn.send(self.outcome)
        except (OSError, ValueError):
            return False
        return True


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    method = "forkserver" if "forkserver" in methods else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["hexgames.web.worker", "hexgames.engine.players",
                                        "hexgames.andantino", "hexgames.abande"])
    return context


class Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, idle_seconds: float = IDLE_SECONDS) -> None:
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_worker_main, args=(child, os.getpid(), idle_seconds),
            name="hexgames-worker", daemon=True)
        self.process.start()
        child.close()
        self.game_key: str | None = None
        self._send_lock = threading.Lock()

    def send(self, message: tuple[Any, ...]) -> None:
        """Send a message to the worker.

        Raises:
            WorkerError: if the worker has ended.
        """
        with self._send_lock:
            try:
                self.conn.send(message)
            except (OSError, ValueError) as error:
                raise WorkerError(f"the AI worker process has ended ({error})") from None

    def close(self) -> None:
        """End the worker process."""
        with contextlib.suppress(OSError):
            self.conn.close()
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(1.0)


def default_limit() -> int:
    """The most worker processes a pool runs at once by default: four per processor,
    at least eight."""
    return max(8, 4 * (os.cpu_count() or 1))


class WorkerPool:
    """Worker processes, started when needed; up to ``keep`` idle ones are kept, and at
    most ``limit`` run at once (a search beyond that waits for a worker to come back),
    so that a page sending moves, take-backs and hints as fast as it can does not start
    a process for each of them. A worker keeps at most :data:`KEPT_PLAYERS` players
    (and while it searches a move of a level that varies its play, that move's own
    player besides) and drops them after ``idle_seconds`` without a search, so the
    memory the pool holds is bounded by ``(keep + limit) * (KEPT_PLAYERS + 1)`` tables of
    at most :data:`hexgames.limits.MAX_TT_MB`, and an idle pool gives them back.

    All methods are safe to call from any thread.
    """

    def __init__(self, keep: int = 4, limit: int | None = None,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.keep = keep
        self.idle_seconds = idle_seconds
        self.limit = max(1, limit if limit is not None else default_limit())
        self._idle: list[Worker] = []
        self._busy: set[Worker] = set()
        self._lock = threading.Lock()
        self._freed = threading.Condition(self._lock)
        self._starting = 0
        self._context: Any = None
        self._closed = False

    def acquire(self, game_key: str | None = None,
                cancelled: Callable[[], bool] | None = None) -> Worker:
        """An idle worker, the one that last searched ``game_key`` if there is one, else
        a new one; while ``limit`` workers are busy, waits for one to come back.

        Raises:
            WorkerError: if the pool is closed, ``cancelled()`` becomes true while
                waiting, or a worker cannot be started.
        """
        with self._lock:
            while True:
                if self._closed:
                    raise PoolClosedError("the server is stopping")
                if cancelled is not None and cancelled():
                    raise WorkerError("the search was cancelled before it began")
                if len(self._busy) + self._starting < self.limit:
                    break
                self._freed.wait(0.05)
            self._idle = [w for w in self._idle if w.process.is_alive()]
            worker = next((w for w in self._idle if w.game_key == game_key), None)
            if worker is None and self._idle:
                worker = self._idle[-1]
            if worker is not None:
                self._idle.remove(worker)
                self._busy.add(worker)
                return worker
            context = self._context_locked()
            self._starting += 1  # holds a place under the limit while it starts
        try:
            worker = Worker(context, self.idle_seconds)
        except (OSError, ValueError, RuntimeError, EOFError) as error:
            with self._lock:
                self._starting -= 1
                self._freed.notify()
            raise WorkerError(f"cannot start an AI worker process: {error!r}") from None
        with self._lock:
            self._starting -= 1
            self._busy.add(worker)
        return worker

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def start_server(self) -> None:
        """Start the fork server that worker processes come from (where the platform
        uses one), deaf to SIGINT; call it from the main thread before the first
        :meth:`acquire` or :meth:`prestart`."""
        with self._lock:
            context = self._context_locked()
        start_forkserver(context)

    def _context_locked(self) -> Any:
        """The multiprocessing context of the workers, made on first use (the lock is
        held)."""
        if self._context is None:
            self._context = _context()
        return self._context

    def prestart(self, count: int = 1) -> None:
        """Start ``count`` idle workers now (blocking), so the first search does not
        wait for one; a failure is left for :meth:`acquire` to report."""
        started = []
        with contextlib.suppress(WorkerError):
            for _ in range(count):
                started.append(self.acquire())
        for worker in started:
            self.release(worker)

    def release(self, worker: Worker, *, broken: bool = False) -> None:
        """Give a worker back after its search (``broken``: end it instead)."""
        with self._lock:
            self._busy.discard(worker)
            self._freed.notify()
            if not broken and not self._closed and len(self._idle) < self.keep \
                    and worker.process.is_alive():
                self._idle.append(worker)
                return
        worker.close()

    def close(self) -> None:
        """End every worker process."""
        with self._lock:
            self._closed = True
            self._freed.notify_all()
            workers = [*self._idle, *self._busy]
            self._idle.clear()
            self._busy.clear()
        for worker in workers:
            worker.close()


class ProcessEngine:
    """One search of player ``spec`` in a worker of ``pool``, used like a player:
    :meth:`play` blocks the calling thread (not the interpreter) until the worker
    answers, :meth:`stop` may be called from any thread.

    Args:
        pool: where the worker comes from.
        spec: a player spec of :mod:`hexgames.engine.players`.
        game_key: names the game (and side), so that a worker keeps the player's memory
            (a search tree) between the moves of one game only.
        seed: when given, the search is made by a new player of this seed
            (:func:`hexgames.engine.players.move_seed`), not the worker's kept one.
    """

    def __init__(self, pool: WorkerPool, spec: str, game_key: str,
                 seed: int | None = None) -> None:
        self.pool = pool
        self.spec = spec
        self.game_key = game_key
        self.seed = seed
        self.job_id = next(_job_ids)
        self._worker: Worker | None = None
        self._stopped = False
        self._cancelled = False
        self._lock = threading.Lock()

    def play(self, board: Any, limit: Limit | None = None, *,
             on_info: InfoCallback | None = None) -> PlayResult:
        """Search ``board`` (not changed) in a worker.

        Raises:
            ValueError: if the game is over.
            WorkerError: if the search fails in the worker or the worker ends, or it
                was cancelled while it waited for a worker.
        """
        if board.is_game_over():
            raise ValueError("the game is over: there is no move to play")
        root = board.root()
        moves = [move.notation() for move in board.move_stack]
        fields = None if limit is None else {
            field.name: getattr(limit, field.name) for field in dataclasses.fields(limit)}
        worker = self.pool.acquire(self.game_key, cancelled=lambda: self._cancelled)
        broken = True
        try:
            worker.game_key = self.game_key
            worker.send(("job", self.job_id, self.spec, self.game_key, root.position(),
                         board.rules.options(), moves, fields, self.seed))
            with self._lock:
                self._worker = worker
                if self._stopped:
                    worker.send(("stop", self.job_id))
            while True:
                try:
                    message = worker.conn.recv()
                except (EOFError, OSError):
                    if self.pool.closed:
                        raise PoolClosedError("the server stopped during the search") \
                            from None
                    raise WorkerError("the AI worker process ended during its search") \
                        from None
                kind, job_id = message[0], message[1]
                if job_id != self.job_id:
                    continue
                if kind == "info":
                    if on_info is not None:
                        on_info(info_of(message[2]))
                    continue
                broken = False
                if kind == "error":
                    raise WorkerError(message[2])
                move = board.parse_notation(message[2])
                return PlayResult(move, info_of(message[3]))
        finally:
            with self._lock:
                self._worker = None
            self.pool.release(worker, broken=broken)

    def stop(self) -> None:
        """Ask the search to return its best move so far, soon."""
        with self._lock:
            self._stopped = True
            worker = self._worker
            if worker is not None:
                with contextlib.suppress(WorkerError):
                    worker.send(("stop", self.job_id))

    def cancel(self) -> None:
        """Stop a search whose move is no longer wanted: like :meth:`stop`, and one still
        waiting for a worker gives up (:meth:`play` raises :class:`WorkerError`)."""
        self._cancelled = True
        self.stop()
