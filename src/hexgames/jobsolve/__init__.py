"""Proofs that outgrow one core: job-level proof-number search (issue 34;
docs/solver.md, "Job-level proof-number search").

:func:`solve_jobs` answers what :func:`hexgames.solver.solve` answers, by JL-PNS (I-C.
Wu, H-H. Lin, P-H. Lin, D-J. Sun, Y-C. Chan, B-T. Chen, *Job-level proof-number search
for Connect6*, Computers and Games 2010; I-C. Wu et al., *Job-level proof number
search*, IEEE TCIAIG 5(1), 2013): a proof-number search over the top of the game, kept
in this process (:mod:`hexgames.jobsolve.tree`), whose leaves are **jobs**: each a
native df-pn search of the leaf's position for the goal within a budget
(``job_time`` seconds, ``job_nodes`` node visits), run by one of N workers at once
(threads with a prover each, or Ray tasks; :mod:`hexgames.jobsolve.workers`).

- The N most-proving leaves run at once: a leaf whose job runs is flagged and the next
  selection goes elsewhere (JL-PNS's flagging, with its "virtual equivalence": the
  flagged leaf keeps its numbers).
- **A leaf whose job comes back unknown is expanded** in the master tree (every legal
  move a new leaf), and never searched again with a larger budget: its children are
  jobs of the same budget, and their proof and disproof numbers guide the selection, as
  in JL-PNS. (A larger budget is a new run with a larger ``job_time``: the unknowns of
  smaller budgets are then searched again, the settled ones kept.)
- When every unflagged leaf is gone and a worker is idle (at the start, with the root
  alone), the most-proving flagged leaf is expanded while its job runs, once the job
  has used a quarter of its time budget without settling it, so the workers have work;
  its job's answer, when it comes, settles it whatever its children hold.
- A job below a node that has been settled since it started is stopped (on threads;
  a Ray task is left to finish within its budget).

Every job's result goes to the work directory as it finishes
(:mod:`hexgames.jobsolve.workdir`): a run stopped and started again with the same
directory takes every settled position (and every unknown of at least the same budget)
from there instead of searching it again.

When the root is settled, its proof is joined: the master tree's moves for the side that
wins the question, and the proof files of the jobs that settled its leaves, into one
strategy, checked by :func:`hexgames.proof.check` (the pure-Python boards) before any
value is reported. The questions are those of :func:`hexgames.solver.solve`: can the
side to move win (a disproof is the opponent's proof of not losing: a **no-win**), and
if not, can the opponent win (a disproof is the side to move's proof of not losing,
which with the first makes a **draw**).
"""
from __future__ import annotations

import dataclasses
import math
import os
import tempfile
import time as _time
from collections.abc import Callable
from pathlib import Path

from hexgames import limits, native
from hexgames.core import GameBoard, HexgamesError
from hexgames.engine.base import MAX_LIMIT_COUNT
from hexgames.jobsolve.search import JobProgress, JobSearch, JobSolveResult
from hexgames.jobsolve.tree import INF
from hexgames.jobsolve.workdir import WorkDir, WorkDirError
from hexgames.jobsolve.workers import RayWorkers, ThreadWorkers
from hexgames.solver import DEFAULT_TABLE_MB, MAX_SOLVE_SECONDS, check_outputs, write_proofs

__all__ = ["DEFAULT_JOB_TIME", "EXECUTORS", "INF", "JobProgress", "JobSolveResult",
           "WorkDirError", "solve_jobs"]

#: A job's time budget by default, in seconds.
DEFAULT_JOB_TIME = 10.0
#: Where jobs run: threads of this process, or Ray tasks.
EXECUTORS = ("threads", "ray")


def _check_arguments(board: GameBoard, threads: int | None, executor: str,
                     address: str | None, job_time: float, job_nodes: int | None,
                     time: float | None, table_mb: int, proof: str | Path | None,
                     should_stop: Callable[[], object] | None,
                     on_progress: Callable[..., object] | None,
                     work_dir: str | Path | None) -> str:
    """The game of ``board``, once every argument is checked.

    Raises:
        HexgamesError: naming the first bad argument.
    """
    try:
        game = native.game_of(board)
    except TypeError as error:
        raise HexgamesError(str(error)) from None
    if board.is_game_over():
        raise HexgamesError("the game is over: there is nothing to solve")
    if getattr(board.rules, "extended", False):
        raise HexgamesError("the job-level search takes no extended play: a job sees a "
                            "position string, and in extended play the history of "
                            "repetitions counts too")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= limits.MAX_SOLVE_THREADS):
        raise HexgamesError(f"threads must be a whole number of 1 to "
                            f"{limits.MAX_SOLVE_THREADS}, not {threads!r}")
    if executor not in EXECUTORS:
        raise HexgamesError(f"executor must be {' or '.join(EXECUTORS)}, not {executor!r}")
    if address is not None and executor != "ray":
        raise HexgamesError("an address is for the ray executor")
    for name, value, top in (("job_time", job_time, limits.MAX_SEARCH_SECONDS),
                             ("time", time, MAX_SOLVE_SECONDS)):
        if value is None and name == "time":
            continue
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or (not 0 < value <= top
                and not (name == "time" and value == 0))):
            raise HexgamesError(f"{name} must be above 0 and at most {top:g} seconds, "
                                f"not {value!r}")
    if job_nodes is not None and (isinstance(job_nodes, bool)
                                  or not isinstance(job_nodes, int)
                                  or not 1 <= job_nodes <= MAX_LIMIT_COUNT):
        raise HexgamesError(f"job_nodes must be a whole number of 1 to {MAX_LIMIT_COUNT}, "
                            f"not {job_nodes!r}")
    if (isinstance(table_mb, bool) or not isinstance(table_mb, int)
            or not 1 <= table_mb <= 1 << 16):
        raise HexgamesError(f"table_mb must be a whole number of 1 to 65536, not "
                            f"{table_mb!r}")
    check_outputs(proof, should_stop=should_stop, on_progress=on_progress)
    if work_dir is not None and (not isinstance(work_dir, str | Path) or not str(work_dir)):
        raise HexgamesError(f"work_dir must be the name of a directory, not {work_dir!r}")
    return game


def solve_jobs(board: GameBoard, *, threads: int | None = None,
               executor: str = "threads", address: str | None = None,
               work_dir: str | Path | None = None,
               job_time: float = DEFAULT_JOB_TIME, job_nodes: int | None = None,
               time: float | None = None, table_mb: int = DEFAULT_TABLE_MB,
               proof: str | Path | None = None,
               should_stop: Callable[[], object] | None = None,
               on_progress: Callable[[JobProgress], None] | None = None
               ) -> JobSolveResult:
    """The proven value of ``board``'s position for its side to move, by job-level
    proof-number search (see the module).

    Args:
        board: an Andantino or Abande board, not in extended play; it is not changed.
        threads: jobs at once: worker threads (by default the machine's CPUs) or Ray
            tasks in flight (by default the cluster's CPUs; a Ray instance this starts
            gets this many CPUs); 1 to :data:`hexgames.limits.MAX_SOLVE_THREADS`.
        executor: ``threads`` or ``ray``.
        address: with ``ray``, the cluster (``auto``, ``HOST:PORT``,
            ``ray://HOST:PORT``); None starts a Ray instance on this machine unless Ray
            is initialised already.
        work_dir: the work directory (made if missing) that keeps every job's result
            and proof, and from which a new run takes them; None for a temporary one,
            removed at the end.
        job_time: each job's budget in seconds (the whole solve's ``time`` left, when
            less).
        job_nodes: each job's budget in node visits; None for none.
        time: seconds for the whole solve; None for no limit.
        table_mb: each worker's prover table in MB (1 to 65536): N workers use N times
            this.
        proof: where to write the proof file of the value, as ``solve`` writes it (a
            draw writes ``name.<letter>.ext`` for each side).
        should_stop: called about every 50 ms; a true answer ends the solve with what
            was proven (the jobs running are stopped; what they settled is kept).
        on_progress: called about every 0.25 s with a :class:`JobProgress`.

    Returns:
        The value with its proven claims, each checked by
        :func:`hexgames.proof.check`.

    Raises:
        hexgames.core.HexgamesError: (a ValueError) for a finished game, extended play,
            a bad argument, a work directory that is a file or whose results file is
            damaged (:class:`WorkDirError`, naming the line); with ``ray``, when Ray is
            not installed or the cluster cannot be reached
            (:class:`hexgames.arena.ArenaError`).
        OSError: when the proof file cannot be written.
    """
    started = _time.perf_counter()
    game = _check_arguments(board, threads, executor, address, job_time, job_nodes, time,
                            table_mb, proof, should_stop, on_progress, work_dir)
    temporary = None
    if work_dir is None:
        temporary = tempfile.TemporaryDirectory(prefix="hexgames-jobs-")
        work_dir = temporary.name
    store = WorkDir(work_dir)
    try:
        workers: ThreadWorkers | RayWorkers = (
            ThreadWorkers(threads or os.cpu_count() or 1, table_mb) if executor == "threads"
            else RayWorkers(address, threads, table_mb))
        try:
            solver = JobSearch(board, game, store, workers, job_time, job_nodes, table_mb,
                             started, time, should_stop, on_progress)
            result = solver.run()
        finally:
            workers.close()
    finally:
        store.close()
        if temporary is not None:
            temporary.cleanup()
    if proof is not None and result.claims:
        claims = write_proofs(result.claims, proof)
        result = dataclasses.replace(result, claims=claims)
    return result
