"""The jobs of a job-level solve and where they run: threads of this process, each with
its own prover (the native search releases the GIL, so N threads use N cores), or Ray
tasks on a Ray cluster (``hexgames.arena.cluster`` connects to it or starts one).

A job is one df-pn search (:class:`hexgames.native.Prover`) of a position for a goal
within a budget; a settled goal's strategy is written by the prover (which plays each
line as it writes it). A disproven goal is answered with the defender's strategy for
the opposite goal, which the same search has just settled (the prover searches "A does
not lose" as "B does not win", one set of table entries). A job's strategy is checked
by the pure-Python checker as a part of the root's joined proof, not on its own: the
checks are Python, which holds the GIL, and checking each job's proof and then the
joined one would check most positions twice.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import threading
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hexgames import native
from hexgames.core import HexgamesError
from hexgames.games import game_module
from hexgames.jobsolve.workdir import Goal


@dataclass(frozen=True)
class JobSpec:
    """A job: its goal, budget (``time`` seconds, ``nodes`` node visits; None for
    none) and the prover's table in MB (for a prover of its own, on Ray)."""

    goal: Goal
    time: float | None
    nodes: int | None
    table_mb: int


@dataclass(frozen=True)
class JobOutcome:
    """What a job found: ``verdict`` (``proven``, ``disproven``, ``unknown``), node
    visits, seconds (the search's), the share of the table in use, the proven goal's
    strategy for a settled verdict (``(position, move)`` texts; the defender's for a
    disproven goal), ``note``: why a search's settled verdict could not be kept (its
    strategy could not be written; then ``unknown``), and ``stopped``: whether the
    job was asked to stop before its budget ran out."""

    verdict: str
    nodes: int
    seconds: float
    table_fill: float
    strategy: list[tuple[str, str]] | None = None
    note: str | None = None
    stopped: bool = False


#: The share of a worker's table in use above which it is cleared before the next job.
CLEAR_ABOVE = 0.5


def run_job(spec: JobSpec, prover: native.Prover,
            should_stop: Callable[[], bool] | None = None) -> JobOutcome:
    """Run one job on ``prover`` (see the module); ``stopped`` in the outcome tells
    that ``should_stop`` ended it before its budget did."""
    goal = spec.goal
    module = game_module(goal.game)
    board = module.Board(goal.position, module.Rules.from_options(goal.rules))
    state = native.state_of(board)
    asked = [False]

    def stop() -> bool:
        if should_stop is not None and should_stop():
            asked[0] = True
        return asked[0]

    report = prover.prove(state, goal.attacker, goal.draw_ok, time=spec.time,
                          max_nodes=spec.nodes, should_stop=stop)
    verdict = str(report["verdict"])
    nodes, seconds = int(report["nodes"]), float(report["time"])
    fill = float(report["table_fill"])
    if verdict == "unknown":
        return JobOutcome(verdict, nodes, seconds, fill, stopped=asked[0])
    proved = goal if verdict == "proven" else goal.opposite()
    try:
        if proved is not goal:  # answered from the table: the same search
            prover.prove(state, proved.attacker, proved.draw_ok, time=spec.time,
                         max_nodes=spec.nodes, should_stop=stop)
        lines, _ = prover.strategy(state, proved.attacker, proved.draw_ok,
                                   time=spec.time, max_nodes=spec.nodes,
                                   should_stop=stop)
    except HexgamesError as error:
        # a run's stop (Ctrl-C, --time) that came as the strategy was written is no
        # failure: the job is simply unfinished, as any job the stop ended
        note = None if asked[0] else (f"{verdict} by the search, but the strategy could "
                                      f"not be written within the job's limits: {error}")
        return JobOutcome("unknown", nodes, seconds, fill, note=note, stopped=asked[0])
    return JobOutcome(verdict, nodes, seconds, fill, list(lines))


@dataclass
class _Running:
    """A job in flight in the thread pool: its future and its stop flag."""

    future: concurrent.futures.Future[JobOutcome]
    stop: threading.Event = field(default_factory=threading.Event)


class ThreadWorkers:
    """``threads`` worker threads, each with a prover of ``table_mb`` MB kept from job
    to job (what one job leaves in the table may serve the next)."""

    name = "threads"

    def __init__(self, threads: int, table_mb: int) -> None:
        self.capacity = threads
        self.table_mb = table_mb
        self._pool = concurrent.futures.ThreadPoolExecutor(
            threads, thread_name_prefix="hexgames-job")
        self._local = threading.local()
        self._running: dict[int, _Running] = {}
        self._next = 0

    def _prover(self) -> native.Prover:
        prover = getattr(self._local, "prover", None)
        if prover is None:
            prover = self._local.prover = native.Prover(self.table_mb)
        return prover

    def _run(self, spec: JobSpec, should_stop: Callable[[], bool]) -> JobOutcome:
        """A job on this thread's prover, whose table is cleared first when the jobs
        before filled more than :data:`CLEAR_ABOVE` of it: in a full table the proofs
        of a job were replaced before its strategy was written, and the job came back
        unknown (30 of 115 jobs of 30 s with tables of 512 MB, on the start)."""
        prover = self._prover()
        if getattr(self._local, "fill", 0.0) > CLEAR_ABOVE:
            prover.clear()
        outcome = run_job(spec, prover, should_stop)
        self._local.fill = outcome.table_fill
        return outcome

    def submit(self, spec: JobSpec) -> int:
        """Start a job; its handle."""
        handle = self._next
        self._next += 1
        event = threading.Event()
        future = self._pool.submit(lambda: self._run(spec, event.is_set))
        self._running[handle] = _Running(future, event)
        return handle

    @property
    def busy(self) -> bool:
        """Whether a job is in flight."""
        return bool(self._running)

    def cancel(self, handle: int) -> None:
        """Ask a job to stop (it then finishes as unknown, ``stopped``)."""
        running = self._running.get(handle)
        if running is not None:
            running.stop.set()

    def wait(self, timeout: float) -> list[tuple[int, JobOutcome]]:
        """The jobs that finish within ``timeout`` seconds (none, or some).

        Raises:
            whatever a job raised.
        """
        if not self._running:
            _time.sleep(timeout)
            return []
        futures = {r.future: h for h, r in self._running.items()}
        done, _ = concurrent.futures.wait(futures, timeout,
                                          concurrent.futures.FIRST_COMPLETED)
        finished = []
        for future in done:
            handle = futures[future]
            del self._running[handle]
            finished.append((handle, future.result()))
        return finished

    def close(self) -> None:
        """Stop every job and wait for the threads to end (a process must not end while
        a native search runs in one of its threads)."""
        for running in self._running.values():
            running.stop.set()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._running.clear()


def _ray_job(spec: JobSpec) -> JobOutcome:
    """A job as a Ray task, with a prover of its own."""
    return run_job(spec, native.Prover(spec.table_mb))


class RayWorkers:
    """Jobs as Ray tasks (one CPU each), ``capacity`` at once: by default as many as
    the cluster has CPUs. Joins the cluster at ``address`` or starts a Ray instance of
    ``num_cpus`` CPUs on this machine, as :class:`hexgames.arena.cluster.RayExecutor`
    does. A job no longer needed is left to finish within its budget (Ray's
    cancellation of a running task can upset its bookkeeping; see the arena's
    executor), and at the end the tasks still running are cancelled on someone else's
    cluster or ended with the instance this started.

    Raises:
        hexgames.arena.ArenaError: if Ray is not installed, or the cluster cannot be
            reached.
    """

    name = "ray"

    def __init__(self, address: str | None, capacity: int | None, table_mb: int) -> None:
        from hexgames.arena.cluster import RayExecutor

        self._executor = RayExecutor(address, num_cpus=capacity)
        self._executor.connect()
        import ray

        self._ray = ray
        assert self._executor.jobs is not None
        self.capacity = capacity or self._executor.jobs
        self.table_mb = table_mb
        self._remote = ray.remote(_ray_job).options(num_cpus=1, max_retries=3,
                                                   retry_exceptions=False)
        self._running: dict[Any, int] = {}
        self._next = 0

    def submit(self, spec: JobSpec) -> int:
        handle = self._next
        self._next += 1
        self._running[self._remote.remote(spec)] = handle
        return handle

    def cancel(self, handle: int) -> None:
        """Nothing: the job finishes within its budget (see the class)."""

    def wait(self, timeout: float) -> list[tuple[int, JobOutcome]]:
        ray = self._ray
        if not self._running:
            _time.sleep(timeout)
            return []
        done, _ = ray.wait(list(self._running), num_returns=1, timeout=timeout)
        finished = []
        for ref in done:
            handle = self._running.pop(ref)
            try:
                outcome = ray.get(ref)
            except ray.exceptions.RayTaskError as error:
                cause = getattr(error, "cause", None)
                if isinstance(cause, BaseException):
                    raise cause from None
                raise
            except ray.exceptions.RayError as error:
                raise HexgamesError(f"a job's Ray worker failed ({type(error).__name__}: "
                                    f"{str(error)[:200]})") from None
            finished.append((handle, outcome))
        return finished

    def close(self) -> None:
        if not self._executor.started:
            for ref in self._running:
                with contextlib.suppress(Exception):  # a task that has just ended
                    self._ray.cancel(ref, force=False)
        self._running.clear()
        self._executor.close()
