"""Issue 34's opening ladder as a long, resumable run: every position of every rung at
the issue's size (20 positions a rung, 60 s a position on one core), in parts, on this
machine's cores or a Ray cluster, each finished position flushed to a work directory.

Prints figures; it is not a test. The positions are :mod:`bench_solver`'s opening ladder
(``N`` plies after the standard start: two uniformly random plies, then
:data:`bench_solver.OPENING_PLAYER` for both sides, seeded ``{seed}/opening/{N}/{i}``),
so a rung's first positions are those of ``bench_solver.py --only opening``; a seed
whose position repeats an earlier one's is skipped, so that a rung has ``--positions``
distinct positions. Each is solved by :func:`hexgames.solver.solve` with a fresh prover
of ``--tt-mb`` MB and ``--budget`` seconds (``--clock cpu``: CPU seconds of the worker,
for a machine shared with other work, where a wall-clock budget would understate what
one core proves); a task is one position on one CPU.

**The work directory** holds ``results.jsonl``: one JSON object a solved position
(``variant``, ``rung``, ``index``, ``seed``, ``position``, ``budget``, ``value``,
``proven``, ``seconds``, ``clock``, ``cpu_seconds``, ``tt_mb``, ``sliced``, ``nodes``,
``search_seconds``, ``proof_lines``, ``plies``, ``timed_out``, ``load``, ``host``,
``finished``, ``notes``: the solver's notes). A run skips the positions the file holds
(the same variant, seed, budget and table, solved by the sliced solve; a rung given
twice is run once), so the same
command resumes a run that was stopped (Ctrl-C, ``--time``, a lost machine); a torn last
line (a run killed while it wrote) is dropped, and any other line that cannot be read (a
field missing, a file that is no text) is refused naming it (exit status 2). A part
holds the directory's file ``lock`` locked while it runs: a second part at once is
refused (exit status 2). ``--report`` prints the table of a work directory without
solving anything, and without writing to it (a part may be running).

A part ends when ``--time`` seconds have passed (no task is started that could not end
by then; with ``--clock cpu`` a budget of CPU seconds takes longer than as many seconds on
a busy machine, and the part may end that much later) or every position is done; rungs
are taken from ``N`` = 30 down, so a part that ends early leaves the lowest rungs for the
next.

Usage::

    # a part on this machine (2 processes, one position each)
    .venv/bin/python benchmarks/run_ladder.py --work-dir benchmarks/runs/ladder \\
        --variant standard --jobs 2 --time 3600
    # on a Ray cluster (hexgames[cluster] on every machine)
    python benchmarks/run_ladder.py --work-dir benchmarks/runs/ladder --variant balance \\
        --executor ray --address auto
    # the table so far
    .venv/bin/python benchmarks/run_ladder.py --work-dir benchmarks/runs/ladder --report
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bench_solver import OPENING_RUNGS, opening_position

from hexgames import andantino, native
from hexgames.arena.cluster import RayExecutor
from hexgames.arena.executor import LocalProcessExecutor
from hexgames.jobsolve.workdir import WorkDirError, lock_file, read_results_lines
from hexgames.solver import solve

#: The table of a position's prover by default, MB: at a million nodes a second the
#: solver's own default (64 MB) lost parts of proofs it had found, and the strategy
#: could not be written again within the budget (N = 12 #21 and N = 6 #4 of the first
#: parts: unknown with 64 MB, wins in 12 and 7 CPU seconds with 1,024 MB).
TABLE_MB = 1024
#: The largest table a prover takes, MB (``native.Prover``; ``hexgames solve --tt-mb``).
MAX_TABLE_MB = 1 << 16
#: The table of the lines written before ``tt_mb`` was recorded (the first parts).
EARLY_TABLE_MB = 64
#: The rules of each variant of the ladder.
VARIANTS = {"standard": (), "balance": ("single_adjacency=on",)}
#: The results file of a work directory.
RESULTS = "results.jsonl"
#: The file a part holds locked while it runs.
LOCK = "lock"


@dataclass(frozen=True)
class Task:
    """One position to solve (picklable, for a worker process or a Ray task)."""

    variant: str
    rung: int
    index: int
    seed: str
    position: str
    budget: float
    tt_mb: int
    clock: str = "wall"


def solve_task(task: Task) -> dict[str, Any]:
    """Solve one position (in a worker); its line of ``results.jsonl``. The budget is
    of wall-clock seconds, or with ``clock`` "cpu" of the worker process's CPU seconds
    (the solve is one thread: a core's seconds, whatever else the machine runs)."""
    rules = andantino.Rules.from_options(list(VARIANTS[task.variant]))
    board = andantino.Board(task.position, rules)
    cpu_started = time.process_time()

    def cpu() -> float:
        return time.process_time() - cpu_started

    on_cpu = task.clock == "cpu"
    result = solve(board, time=task.budget, clock=time.process_time if on_cpu else None,
                   prover=native.Prover(task.tt_mb))
    spent = cpu() if on_cpu else result.seconds
    timed_out = result.stopped or (not result.proven and spent >= 0.95 * task.budget)
    return {"variant": task.variant, "rung": task.rung, "index": task.index,
            "seed": task.seed, "position": task.position, "budget": task.budget,
            "value": str(result.value), "proven": result.proven,
            "seconds": round(result.seconds, 3), "nodes": result.nodes,
            "clock": task.clock, "cpu_seconds": round(cpu(), 3), "tt_mb": task.tt_mb,
            # whether the solve sliced its time between the two questions (lines
            # without it were solved before it did)
            "sliced": True,
            "search_seconds": round(sum(s.seconds for s in result.searches), 3),
            "proof_lines": sum(len(c.strategy) for c in result.claims),
            "plies": result.plies, "timed_out": timed_out,
            "load": round(os.getloadavg()[0], 2), "host": platform.node(),
            "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            # why a solve ended unknown other than by its search's time (a proof whose
            # strategy was being written or checked when the budget ran out...)
            "notes": [note[:300] for note in result.notes]}


class LadderError(ValueError):
    """A work directory or option that cannot be used (exit status 2)."""


#: The fields of a result line that a resumed run and the table read, and their types.
FIELDS: tuple[tuple[str, type | tuple[type, ...]], ...] = (
    ("variant", str), ("rung", int), ("index", int), ("seed", str), ("position", str),
    ("budget", (int, float)), ("value", str), ("proven", bool), ("seconds", (int, float)),
    ("nodes", int), ("search_seconds", (int, float)), ("proof_lines", int),
    ("load", (int, float)))


def parse_result(raw: bytes, where: str) -> dict[str, Any]:
    """One line of a results file.

    Raises:
        WorkDirError: naming the line, for a line that is no result.
    """
    try:
        item = json.loads(raw.decode("utf-8"))
        if not isinstance(item, dict):
            raise TypeError("not an object")
        for key, kind in FIELDS:
            value = item.get(key)
            if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
                raise TypeError(f"no {key}")
        # the table's median of a CPU budget's solved positions is of their CPU seconds
        cpu = item.get("cpu_seconds")
        if item.get("clock") == "cpu" and (not isinstance(cpu, (int, float))
                                           or isinstance(cpu, bool)):
            raise TypeError("no cpu_seconds (its clock is cpu)")
    except (ValueError, TypeError) as error:  # (UnicodeDecodeError is a ValueError)
        raise WorkDirError(f"{where} is no result ({error}): {raw[:80]!r}") from None
    return item


def read_results(path: Path, *, repair: bool = True) -> list[dict[str, Any]]:
    """The lines of a results file; a torn last line is dropped (and with ``repair``
    cut from the file, so that the next line is not appended to it; ``--report`` reads
    only, as a running part may be writing that line).

    Raises:
        LadderError: naming a line (other than the last) that is no result, or a file
            that cannot be read.
    """
    try:
        results, note = read_results_lines(path, parse_result, repair=repair)
    except WorkDirError as error:
        raise LadderError(str(error)) from None
    if note is not None:
        print(note, file=sys.stderr)
    return results


def hold_work_dir(work_dir: Path) -> IO[bytes]:
    """The work directory (made if need be) held for this part: its file ``lock``,
    open and locked (where there is ``fcntl``), so that a second part at once, which
    would solve the same positions and append to the same file, is refused.

    Raises:
        LadderError: for a directory that cannot be made, or that another part holds.
    """
    try:
        work_dir.mkdir(parents=True, exist_ok=True)
        return lock_file(work_dir / LOCK)
    except (OSError, WorkDirError) as error:
        raise LadderError(str(error)) from None


#: seeds tried a rung, at most, for its distinct positions (a rung of fewer distinct
#: openings than asked for ends there)
SEEDS_PER_POSITION = 10


def tasks(args: argparse.Namespace, done: dict[tuple[str, str], str]) -> Iterator[Task]:
    """The positions not yet done (``done``: the position of each variant and seed
    solved), rung by rung in the order given, each rung once (positions made here, as
    they are needed). A rung takes seeds ``0, 1, ...`` until it has ``--positions``
    distinct positions: a seed whose opening repeats an earlier seed's position is
    skipped (the opening player often plays the same game from two seeds), and the rung
    ends after ``SEEDS_PER_POSITION`` times as many seeds. Positions solved by earlier
    parts count as they are, repeats included."""
    rules = andantino.Rules.from_options(list(VARIANTS[args.variant]))
    for rung in dict.fromkeys(args.rungs):
        wanted = 1 if rung == 0 else args.positions
        seen: set[str] = set()
        for index in range(wanted * SEEDS_PER_POSITION):
            if len(seen) >= wanted:
                break
            seed = f"{args.seed}/opening/{rung}/{index}"
            if (args.variant, seed) in done:
                seen.add(done[args.variant, seed])
                continue
            position = opening_position(rung, seed, rules).position()
            if position in seen:
                continue
            seen.add(position)
            yield Task(args.variant, rung, index, seed, position, args.budget, args.tt_mb,
                       args.clock)


def table_of(result: dict[str, Any]) -> int:
    """The table (MB) a result line was solved with."""
    table = result.get("tt_mb", EARLY_TABLE_MB)
    return table if isinstance(table, int) and not isinstance(table, bool) else 0


def clock_of(result: dict[str, Any]) -> str:
    """The clock a result line's budget was counted on: "cpu" or "wall" (lines before
    ``--clock`` were all on the wall clock)."""
    return "cpu" if result.get("clock") == "cpu" else "wall"


def report(results: list[dict[str, Any]]) -> None:
    """The table: a row for each variant, budget (``s``: wall-clock seconds, ``c``: CPU
    seconds), table size (MB), whether the solves
    sliced their time between the two questions, and rung.
    ``distinct`` counts the different positions among them (the opening player may play
    the same game from two seeds) and ``solved distinct`` those solved; the median
    seconds of those solved are CPU seconds where the budget was."""
    print(f"{'variant':>9} {'budget':>7} {'table':>6} {'sliced':>6} {'rung':>5} "
          f"{'solved':>9} "
          f"{'distinct':>9} {'solved distinct':>15} "
          f"{'win/loss/draw/no-win/not-lose/unk':>33} {'s median (solved)':>18} "
          f"{'nodes median':>13} {'nodes/s':>10} {'proof median':>13} {'load':>10}")

    def key(r: dict[str, Any]) -> tuple[str, float, str, int, bool, int]:
        return (r["variant"], r["budget"], clock_of(r), table_of(r),
                r.get("sliced") is True, r["rung"])

    for group in sorted({key(r) for r in results}, key=lambda k: (*k[:5], -k[5])):
        variant, budget, clock, table, sliced, rung = group
        rows = [r for r in results if key(r) == group]
        solved = [r for r in rows if r["proven"]]
        counts = [sum(r["value"] == v for r in rows)
                  for v in ("win", "loss", "draw", "no-win", "not-lose", "unknown")]
        seconds = (statistics.median(r["cpu_seconds"] if r.get("clock") == "cpu"
                                     else r["seconds"] for r in solved)
                   if solved else None)
        nodes = statistics.median(r["nodes"] for r in rows)
        search = sum(r["search_seconds"] for r in rows)
        rate = sum(r["nodes"] for r in rows) / search if search > 0 else 0.0
        proof = statistics.median(r["proof_lines"] for r in solved) if solved else None
        loads = [r["load"] for r in rows]
        distinct = len({r.get("position") for r in rows})
        distinct_solved = len({r.get("position") for r in solved})
        unit = "c" if clock == "cpu" else "s"
        print(f"{variant:>9} {budget:>6g}{unit} {table:>4}MB {'yes' if sliced else 'no':>6} "
              f"{rung:>5} "
              f"{len(solved):>4} of {len(rows):<3} {distinct:>9} {distinct_solved:>15} "
              f"{'/'.join(map(str, counts)):>33} "
              f"{'-' if seconds is None else f'{seconds:.2f}':>18} {nodes:>13,.0f} "
              f"{rate:>10,.0f} {'-' if proof is None else f'{proof:,.0f}':>13} "
              f"{min(loads):>4.1f}-{max(loads):<4.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--work-dir", required=True, type=Path)
    parser.add_argument("--variant", choices=tuple(VARIANTS), default="standard")
    parser.add_argument("--positions", type=int, default=20, help="positions a rung (20)")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds a position (60)")
    parser.add_argument("--rungs", type=int, nargs="+", default=list(OPENING_RUNGS),
                        help="plies after the start (30 24 20 16 12 8 6 4 2 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tt-mb", type=int, default=TABLE_MB,
                        help=f"the prover's table, MB ({TABLE_MB})")
    parser.add_argument("--jobs", type=int, default=1,
                        help="local processes, one position each (1)")
    parser.add_argument("--executor", choices=("local", "ray"), default="local")
    parser.add_argument("--address", help="the Ray cluster (auto, HOST:PORT)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="the budget in wall-clock seconds (the default) or in the "
                             "worker's CPU seconds, for a machine shared with other work")
    parser.add_argument("--time", type=float, help="seconds for this part (no limit)")
    parser.add_argument("--report", action="store_true",
                        help="print the table of the work directory and solve nothing")
    args = parser.parse_args()
    try:
        if args.positions < 1 or args.jobs < 1 or args.tt_mb < 1:
            raise LadderError("--positions, --jobs and --tt-mb must be 1 or more")
        if args.tt_mb > MAX_TABLE_MB:  # (the prover's limit: refused in every worker)
            raise LadderError(f"--tt-mb is at most {MAX_TABLE_MB:,} (MB), not "
                              f"{args.tt_mb:,}")
        if not 0 < args.budget < float("inf") or (args.time is not None
                                                   and not 0 < args.time < float("inf")):
            raise LadderError("--budget and --time must be a number of seconds above 0")
        if any(rung < 0 for rung in args.rungs):
            raise LadderError("--rungs are plies after the start: 0 or more")
        # a game ends when both hands are empty: a rung that far would be looked for
        # in game after game, for ever
        rules = andantino.Rules.from_options(list(VARIANTS[args.variant]))
        most = 2 * (rules.tiles_per_player - 1) - 1
        if any(rung > most for rung in args.rungs):
            raise LadderError(f"--rungs are at most {most} plies: a game of "
                              f"{rules.tiles_per_player} tiles a player is over by then")
        path = args.work_dir / RESULTS
        if not args.report:
            lock = hold_work_dir(args.work_dir)  # noqa: F841 (held until the end)
        results = read_results(path, repair=not args.report)
    except LadderError as error:
        print(f"run_ladder: {error}", file=sys.stderr)
        return 2
    if args.report:
        report(results)
        return 0
    # a position is its seed (which names its rung and index): another --seed makes
    # other positions, not ones done
    done = {(r["variant"], r["seed"]): r["position"] for r in results
            if r["budget"] == args.budget and table_of(r) == args.tt_mb
            and clock_of(r) == args.clock and r.get("sliced") is True}
    started = time.monotonic()
    executor: Any = (RayExecutor(args.address) if args.executor == "ray"
                     else LocalProcessExecutor(args.jobs))

    def within_time() -> Iterator[Task]:
        for task in tasks(args, done):
            if args.time is not None and time.monotonic() - started + args.budget * 1.1 \
                    > args.time:
                return
            yield task

    count = 0
    print(f"ladder part: {args.variant}, {args.positions} positions a rung, "
          f"{args.budget:g} s a position, {len(done)} done before, "
          f"{args.executor} executor", flush=True)
    try:
        with path.open("a", encoding="utf-8") as out:
            for line in executor.map_unordered(solve_task, within_time()):
                out.write(json.dumps(line) + "\n")
                out.flush()
                count += 1
                print(f"{line['variant']} N={line['rung']} #{line['index']}: "
                      f"{line['value']} in {line['seconds']:.1f} s, {line['nodes']:,} nodes "
                      f"(load {line['load']})", flush=True)
    except KeyboardInterrupt:
        print("stopped: the positions finished are kept", file=sys.stderr)
    finally:
        if args.executor == "ray":
            executor.close()
    print(f"{count} positions done in {time.monotonic() - started:.0f} s")
    report(read_results(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
