"""Where the arena's games run: the :class:`GameExecutor` interface and its local
implementation.

The arena hands an executor a function and a list of tasks and reads the results as they
finish, in any order; each result carries its game's index, so the arena puts them back
in order. Nothing else of the arena depends on where the games run.

**Adding a backend**: write a class with the method ``map_unordered(fn, tasks)`` that runs
``fn(task)`` for every task wherever it likes and yields the results as they complete,
and pass an instance as ``run_match(..., executor=...)``. ``fn`` is a module-level
function and tasks and results are small frozen dataclasses, all picklable, and every
task is independent (its seeds are in it), so a backend needs no other knowledge of the
arena. ``tasks`` may be endless or very long: take the next task only when there is room
for it (a backend that builds a list of them all holds the whole match in memory). The
executor should raise the task's exception when ``fn`` fails, and stop launching work
and cancel the tasks in flight when the generator is closed early (the caller was
interrupted, or a sequential test has decided). An optional ``name`` attribute names
the backend in summaries. :class:`hexgames.arena.cluster.RayExecutor` is such a backend
for Ray clusters.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Protocol, TypeVar

from hexgames.arena.errors import ArenaError
from hexgames.processes import interrupt_deferred, start_forkserver, worker_started

T = TypeVar("T")
R = TypeVar("R")


class GameExecutor(Protocol):
    """Runs independent tasks and yields their results as they complete."""

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """``fn(task)`` for every task, yielded in order of completion.

        ``fn`` must be a module-level function and the tasks and results picklable, so
        that they can be sent to another process or machine. An exception raised by
        ``fn`` is raised from the iterator.
        """
        ...


def _context() -> multiprocessing.context.BaseContext:
    """'forkserver' where the platform has it, else 'spawn': never plain 'fork', which
    copies a parent's threads and locks in an unknown state."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class LocalProcessExecutor:
    """Runs tasks in ``jobs`` local worker processes (``concurrent.futures`` with the
    'forkserver' or 'spawn' start method); ``jobs=1`` runs them one by one in this
    process, with no pool.

    At most ``jobs`` tasks are in flight, so an interrupted match stops promptly and
    results stream in as they complete. A worker process that dies (killed, out of
    memory, a crash in native code) breaks the pool: the pool is made again and the
    tasks that were in flight run again (a task holds its seeds, so a replayed game is
    the same game), each at most ``retries`` times.

    Args:
        jobs: worker processes, 1 or more; ``None`` for the number of CPUs.
        retries: how many times a task in flight when a worker died runs again.

    Raises:
        ValueError: if ``jobs`` is less than 1 or ``retries`` less than 0.
    """

    name = "local"

    def __init__(self, jobs: int | None = 1, *, retries: int = 3) -> None:
        if jobs is None:
            jobs = os.cpu_count() or 1
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise ValueError(f"jobs must be a whole number of 1 or more, not {jobs!r}")
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries must be a whole number 0 or more, not {retries!r}")
        self.jobs = jobs
        self.retries = retries

    def _pool(self) -> ProcessPoolExecutor:
        context = _context()
        start_forkserver(context)
        return ProcessPoolExecutor(max_workers=self.jobs, mp_context=context,
                                   initializer=worker_started,
                                   initargs=(os.getpid(),))

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """``fn(task)`` for every task, yielded in order of completion (see the class).

        Raises:
            ArenaError: when a task was in flight in ``retries + 1`` pools whose worker
                died.
        """
        if self.jobs == 1:
            for task in tasks:
                yield fn(task)
            return
        todo = iter(tasks)
        pool = self._pool()
        pending: dict[Future[R], tuple[T, int]] = {}
        unsent: list[tuple[T, int]] = []  # refused by a pool that broke meanwhile
        finished = False

        def submit(task: T, attempt: int) -> None:
            try:
                # A worker process may start here. Stopped inside ``start()``, the pool
                # would not know its process, so would not stop it, and the process,
                # still starting, printed a traceback as it failed to open the pool's
                # queue already removed: the stop waits for the submission.
                with interrupt_deferred():
                    pending[pool.submit(fn, task)] = (task, attempt)
            except BrokenProcessPool:
                unsent.append((task, attempt))

        def submit_next() -> None:
            for task in todo:
                submit(task, 0)
                break

        try:
            for task in todo:
                submit(task, 0)
                if len(pending) + len(unsent) >= self.jobs:
                    break
            while pending or unsent:
                lost: list[tuple[T, int]] = []
                if pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in done:
                        task, attempt = pending.pop(future)
                        try:
                            result = future.result()
                        except BrokenProcessPool:
                            lost.append((task, attempt))
                            continue
                        submit_next()
                        yield result
                if not lost and not unsent:
                    continue
                # Every task in flight in the broken pool is lost with it (but for any
                # that finished first): make a new pool and run them again.
                survivors: list[R] = []
                for future, (task, attempt) in list(pending.items()):
                    del pending[future]
                    error = future.exception() if future.done() else None
                    if future.done() and error is None:
                        survivors.append(future.result())
                    elif error is None or isinstance(error, BrokenProcessPool):
                        lost.append((task, attempt))
                    else:
                        raise error
                _terminate(pool)
                pool.shutdown(wait=True, cancel_futures=True)
                if lost and max(attempt for _, attempt in lost) >= self.retries:
                    raise ArenaError(f"a worker process died while playing a game, "
                                     f"{self.retries + 1} times; giving up")
                pool = self._pool()
                again = [(task, attempt + 1) for task, attempt in lost] + unsent
                unsent.clear()
                for task, attempt in again:
                    submit(task, attempt)
                for result in survivors:
                    submit_next()
                    yield result
            finished = True
        finally:
            for future in pending:
                future.cancel()
            if not finished:
                # Interrupted, or a task failed: do not wait for games in progress
                # (at several seconds a move they may take minutes).
                _terminate(pool)
            pool.shutdown(wait=True, cancel_futures=True)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's worker processes now. ``ProcessPoolExecutor`` has no public way
    before Python 3.14 (``terminate_workers``), so this reads its process table."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()


def prepare(executor: GameExecutor) -> tuple[str, int | None]:
    """Ready ``executor`` before the first game (a cluster backend with a ``connect()``
    method joins its cluster now, so that an unreachable one fails before any work) and
    return its name and the games it plays at once (``None`` when unknown)."""
    connect = getattr(executor, "connect", None)
    if callable(connect):
        connect()
    name = getattr(executor, "name", type(executor).__name__)
    jobs = getattr(executor, "jobs", None)
    return str(name), jobs if isinstance(jobs, int) else None
