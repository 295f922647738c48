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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexgames import limits, native
from hexgames.core import GameBoard, HexgamesError
from hexgames.engine.base import MAX_LIMIT_COUNT
from hexgames.games import game_module
from hexgames.jobsolve.tree import INF, MasterTree, Node
from hexgames.jobsolve.workdir import Goal, JobRecord, WorkDir, WorkDirError
from hexgames.jobsolve.workers import JobOutcome, JobSpec, RayWorkers, ThreadWorkers
from hexgames.proof import ProofFailedError, check, digest, proof_entries
from hexgames.solver import (
    DEFAULT_TABLE_MB,
    MAX_SOLVE_SECONDS,
    Claim,
    SearchReport,
    SolveResult,
    Value,
    write_proofs,
)

__all__ = ["DEFAULT_JOB_TIME", "EXECUTORS", "INF", "JobProgress", "JobSolveResult",
           "WorkDirError", "solve_jobs"]

#: A job's time budget by default, in seconds.
DEFAULT_JOB_TIME = 10.0
#: Where jobs run: threads of this process, or Ray tasks.
EXECUTORS = ("threads", "ray")
#: The share of a job's time budget after which its leaf may be expanded while the job
#: runs, when a worker would otherwise idle (most jobs that settle their leaf do so
#: early; the expansion's jobs are wasted when it does).
_EARLY = 0.25
#: How often the progress callback is called at most, in seconds.
_PROGRESS_EVERY = 0.25


class _Stopped(Exception):
    """The check of the root's proof was stopped."""


@dataclass(frozen=True)
class JobProgress:
    """A job-level solve's state, for a progress display: the ``question`` searched
    ("can White win?"), jobs ``done`` (run to their end) and ``running``, ``reused``
    (leaves settled or expanded from the work directory's records), the root's proof
    and disproof numbers (``root_pn``, ``root_dn``; :data:`hexgames.jobsolve.tree.INF`
    for infinity), the master trees' ``tree_nodes``, the jobs' ``nodes`` and the
    ``seconds``, both since the solve began."""

    question: str
    done: int
    running: int
    reused: int
    root_pn: int
    root_dn: int
    tree_nodes: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class JobSolveResult(SolveResult):
    """:class:`hexgames.solver.SolveResult` of a job-level solve, with one search report
    for each question (its nodes the jobs' sum, its seconds the question's wall-clock
    time, its ``table_fill`` the fullest job's), and: ``jobs`` (jobs run to their end),
    ``reused`` (leaves taken from the work directory), ``tree_nodes`` (the master trees'
    positions), ``workers`` (jobs at once) and ``executor`` (``threads`` or ``ray``)."""

    jobs: int = 0
    reused: int = 0
    tree_nodes: int = 0
    workers: int = 0
    executor: str = "threads"


def _check_arguments(board: GameBoard, threads: int | None, executor: str,
                     address: str | None, job_time: float, job_nodes: int | None,
                     time: float | None, table_mb: int, proof: str | Path | None,
                     should_stop: Callable[[], object] | None) -> str:
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
    if proof is not None and (not isinstance(proof, str | Path) or not str(proof)
                              or Path(proof).is_dir()):
        raise HexgamesError(f"proof must be the name of a file, not {proof!r}")
    if should_stop is not None and not callable(should_stop):
        raise HexgamesError(f"should_stop must be callable, not {should_stop!r}")
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
                            table_mb, proof, should_stop)
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
            solver = _Solver(board, game, store, workers, job_time, job_nodes, table_mb,
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


class _Solver:
    """One job-level solve: its questions, each a master tree, over shared workers and
    work directory."""

    def __init__(self, board: Any, game: str, store: WorkDir,
                 workers: ThreadWorkers | RayWorkers, job_time: float,
                 job_nodes: int | None, table_mb: int, started: float,
                 time: float | None, should_stop: Callable[[], object] | None,
                 on_progress: Callable[[JobProgress], None] | None) -> None:
        self.board = board
        self.game = game
        self.rules = tuple(board.rules.options())
        self.store = store
        self.workers = workers
        self.job_time = job_time
        self.job_nodes = job_nodes
        self.table_mb = table_mb
        self.started = started
        self.time = time
        self.should_stop = should_stop
        self.on_progress = on_progress
        self.names = [str(tag) for tag in game_module(game).PLAYER_TAGS]
        self.stopped = False
        self.jobs = 0
        self.reused = 0
        self.tree_nodes = 0
        self.notes: list[str] = list(store.notes)
        self.searches: list[SearchReport] = []
        #: Ray tasks of an earlier question still running (handle -> job).
        self.orphans: dict[int, JobSpec] = {}
        self._shown = 0.0

    def left(self) -> float | None:
        if self.time is None:
            return None
        return max(0.0, self.time - (_time.perf_counter() - self.started))

    def stop_now(self) -> bool:
        if self.stopped:
            return True
        if (self.should_stop is not None and self.should_stop()) or self.left() == 0.0:
            self.stopped = True
        return self.stopped

    def goal(self, node: Node, attacker: int, draw_ok: bool) -> Goal:
        return Goal(self.game, self.rules, node.position, attacker, draw_ok)

    def run(self) -> JobSolveResult:
        side = int(self.board.turn)
        me, other = side, 1 - side
        value: Value = "unknown"
        claims: list[Claim] = []
        first, theirs = self.question(me, False)
        if first == "proven" and theirs is not None:
            value, claims = "win", [theirs]
        elif first == "disproven" and theirs is not None:
            # me winning disproven: the opponent's proof of not losing
            value, claims = "no-win", [theirs]
            second, mine = self.question(other, False)
            if second == "proven" and mine is not None:
                value, claims = "loss", [mine]
            elif second == "disproven" and mine is not None:
                value, claims = "draw", [mine, theirs]
        winner = {"win": me, "loss": other}.get(value)
        plies = claims[0].plies if winner is not None else None
        return JobSolveResult(value, side, winner, plies, claims, self.searches,
                              _time.perf_counter() - self.started,
                              self.workers.capacity * self.table_mb << 20, self.stopped,
                              self.notes, jobs=self.jobs, reused=self.reused,
                              tree_nodes=self.tree_nodes, workers=self.workers.capacity,
                              executor=self.workers.name)

    def question(self, attacker: int, draw_ok: bool) -> tuple[str, Claim | None]:
        """Search one goal by JL-PNS: its verdict, and the checked proof of whichever
        side the verdict favours (None when the check failed or was stopped)."""
        what = "not lose" if draw_ok else "win"
        label = f"can {self.names[attacker]} {what}?"
        begun = _time.perf_counter()
        tree = MasterTree(self.board, attacker, draw_ok)
        run = _Question(self, tree, attacker, draw_ok, label)
        run.search()
        self.tree_nodes += len(tree)
        root = tree.root
        verdict = "proven" if root.pn == 0 else "disproven" if root.dn == 0 else "unknown"
        self.searches.append(SearchReport(attacker, draw_ok, verdict, run.nodes,
                                          _time.perf_counter() - begun, run.table_fill))
        if verdict == "unknown":
            return verdict, None
        return verdict, self.join(tree, Goal(self.game, self.rules, root.position,
                                             attacker, draw_ok))

    def join(self, tree: MasterTree, goal: Goal) -> Claim | None:
        """The settled root's proof: the master tree's moves of the side its value
        favours and the proof files of the jobs at its leaves, checked."""
        proved = goal if tree.root.proven else goal.opposite()
        header = proved.header()
        strategy: dict[bytes, str] = {}
        lines: list[tuple[str, str]] = []

        def add(position: str, move: str) -> None:
            # a position in two jobs' strategies: either move wins (each comes with a
            # whole strategy below it, all of it listed); the first is kept
            key = digest(position)
            if key not in strategy:
                strategy[key] = move
                lines.append((position, move))

        records: list[JobRecord] = []
        for node, move in tree.proof_tree():
            if move is not None:
                add(node.position, move)
            elif node.record is not None:
                records.append(node.record)
        for record in records:
            for _, position, move in proof_entries(self.store.proof_path(record)):
                add(position, move)

        def progress(checked: int) -> None:
            if self.stop_now():
                raise _Stopped

        name = self.names[proved.attacker]
        try:
            report = check(header, strategy, progress=progress)
        except ProofFailedError as error:
            self.notes.append(f"the independent check refuted {name}'s joined strategy: "
                              f"{error}")
            return None
        except _Stopped:
            self.notes.append(f"stopped while {name}'s joined strategy was checked")
            return None
        return Claim(header, lines, report.longest, report.positions)

    def keep(self, spec: JobSpec, outcome: JobOutcome) -> JobRecord | None:
        """Write a finished job's record (and proof) to the work directory; None for a
        job stopped before its budget ran out (not kept: its unknown says nothing)."""
        if outcome.note is not None:
            self.notes.append(f"a job at {spec.goal.position}: {outcome.note}")
        if outcome.verdict == "unknown" and outcome.stopped:
            return None
        self.jobs += 1
        return self.store.add(JobRecord(spec.goal, outcome.verdict, outcome.nodes,
                                        outcome.seconds, spec.time, spec.nodes),
                              outcome.strategy)

    def progress(self, question: _Question, force: bool = False) -> None:
        now = _time.perf_counter()
        if self.on_progress is None or (not force and now - self._shown < _PROGRESS_EVERY):
            return
        self._shown = now
        root = question.tree.root
        nodes = sum(s.nodes for s in self.searches) + question.nodes
        self.on_progress(JobProgress(question.label, self.jobs, len(question.running),
                                     self.reused, root.pn, root.dn,
                                     self.tree_nodes + len(question.tree), nodes,
                                     now - self.started))


class _Question:
    """The JL-PNS loop of one goal (see the module)."""

    def __init__(self, solver: _Solver, tree: MasterTree, attacker: int, draw_ok: bool,
                 label: str) -> None:
        self.solver = solver
        self.tree = tree
        self.attacker = attacker
        self.draw_ok = draw_ok
        self.label = label
        self.running: dict[int, tuple[Node, JobSpec]] = {}
        #: When each flagged leaf's job was started (by the node's id).
        self.begun: dict[int, float] = {}
        self.nodes = 0
        self.table_fill = 0.0

    def search(self) -> None:
        solver, tree, workers = self.solver, self.tree, self.solver.workers
        try:
            while not tree.root.settled and not solver.stop_now():
                self.fill()
                if tree.root.settled or not self.running:
                    break
                for handle, outcome in workers.wait(0.05):
                    self.finish(handle, outcome)
                solver.progress(self)
        finally:
            self.drain()
        solver.progress(self, force=True)

    def fill(self) -> None:
        """Start jobs on the most-proving leaves until every worker has one."""
        solver, tree = self.solver, self.tree
        while len(self.running) < solver.workers.capacity and not tree.root.settled:
            leaf = tree.select()
            if leaf is None:
                leaf = tree.select_flagged() if self.running else None
                if leaf is None or not self.unlikely(leaf):
                    return
                tree.expand(leaf)  # a worker would idle: open a running job's leaf
                continue
            goal = solver.goal(leaf, self.attacker, self.draw_ok)
            record = solver.store.lookup(goal)
            if record is not None and (record.settled or
                                       record.covers(solver.job_time, solver.job_nodes)):
                solver.reused += 1
                if record.settled:
                    tree.settle(leaf, record.verdict == "proven", record)
                else:
                    tree.expand(leaf)
                continue
            left = solver.left()
            budget = solver.job_time if left is None else min(solver.job_time, left)
            spec = JobSpec(goal, budget, solver.job_nodes, solver.table_mb)
            self.running[solver.workers.submit(spec)] = (leaf, spec)
            self.begun[id(leaf)] = _time.perf_counter()
            leaf.flagged = True

    def unlikely(self, leaf: Node) -> bool:
        """Whether the job of a flagged leaf has run long enough that it will likely
        come back unknown (a share :data:`_EARLY` of its budget): then the leaf may be
        expanded while it runs."""
        begun = self.begun.get(id(leaf))
        budget = self.solver.job_time
        return begun is not None and _time.perf_counter() - begun >= _EARLY * budget

    def finish(self, handle: int, outcome: JobOutcome) -> None:
        """Take a finished job's outcome into the work directory and the tree."""
        solver, tree = self.solver, self.tree
        if handle in solver.orphans:  # a Ray task of an earlier question: kept only
            solver.keep(solver.orphans.pop(handle), outcome)
            return
        node, spec = self.running.pop(handle)
        node.flagged = False
        self.begun.pop(id(node), None)
        self.nodes += outcome.nodes
        self.table_fill = max(self.table_fill, outcome.table_fill)
        record = solver.keep(spec, outcome)
        if record is None:
            return
        if not record.settled:
            if not node.expanded and not node.settled:
                tree.expand(node)
            return
        if node.record is None:
            tree.settle(node, record.verdict == "proven", record)
            self.drop_dead()

    def drop_dead(self) -> None:
        """Stop the jobs that no longer matter: below settled nodes only."""
        for handle, (node, _) in self.running.items():
            if not self.tree.matters(node):
                self.solver.workers.cancel(handle)

    def drain(self) -> None:
        """Stop the jobs still running and keep what they settled (on threads; Ray's
        are left to the executor's close)."""
        workers = self.solver.workers
        if not isinstance(workers, ThreadWorkers):
            # left to finish within their budgets; kept if they end in a later question
            self.solver.orphans.update((h, spec) for h, (_, spec) in self.running.items())
            self.running.clear()
            return
        for handle in self.running:
            workers.cancel(handle)
        while self.running and workers.busy:
            for handle, outcome in workers.wait(0.05):
                self.finish(handle, outcome)

