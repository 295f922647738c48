"""The search of a job-level solve (see :mod:`hexgames.jobsolve`): its questions, each
a master tree (:mod:`hexgames.jobsolve.tree`) whose most-proving leaves become jobs on
the workers (:mod:`hexgames.jobsolve.workers`), every finished job kept in the work
directory (:mod:`hexgames.jobsolve.workdir`), and the root's proof joined and checked."""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexgames.games import game_module
from hexgames.jobsolve.tree import MasterTree, Node
from hexgames.jobsolve.workdir import Goal, JobRecord, WorkDir
from hexgames.jobsolve.workers import JobOutcome, JobSpec, RayWorkers, ThreadWorkers
from hexgames.proof import ProofFailedError, check, digest, proof_entries
from hexgames.solver import Claim, SearchReport, SolveResult, Value

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


class JobSearch:
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

    def __init__(self, solver: JobSearch, tree: MasterTree, attacker: int, draw_ok: bool,
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

