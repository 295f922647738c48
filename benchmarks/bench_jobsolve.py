"""Job-level proof-number search (``hexgames.jobsolve.solve_jobs``, issue 34) against the
one df-pn search (``hexgames.solver.solve``) on positions of the solver's ladder
(``benchmarks/bench_solver.py``): time to the proven value with 1 thread and with 2,
and the proofs' sizes.

Prints figures; it is not a test. For each position, each round runs the one search,
the job-level search on 1 thread and on 2 threads, in an order that turns round from
round to round (interleaved, so a change of the machine's load falls on all three
alike); the table gives each one's median seconds over the rounds (the whole solve: the
independent checks of every job's proof and of the joined proof included), the jobs
run and the master tree's positions of the last round, the speed-up of 2 threads over
1, and the proofs' sizes (the winner's positions listed, both files of a draw counted)
of the one search and of the job-level search. Each solve has a fresh table of
``--tt-mb`` MB a worker and a fresh temporary work directory.

Positions: Andantino with ``--tiles`` tiles a player, ``N`` placements before the end
(``--left``), reached by the ``easy`` player as in the ladder; Abande with ``H`` pieces
in hand or fewer (``--hands``) by random play. The machine has other work on it: the
load average is printed.

Usage::

    .venv/bin/python benchmarks/bench_jobsolve.py [--positions 2] [--rounds 2]
        [--job-time 1] [--tiles 10] [--left 12] [--hands 4] [--tt-mb 64] [--budget 90]

With the defaults it takes about 4 minutes on 2 cores. Abande with 6 pieces in hand
is not settled within 60 s by any of the three (seed 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_solver import abande_position, andantino_position

from hexgames.jobsolve import solve_jobs
from hexgames.solver import DEFAULT_TABLE_MB, SolveResult, solve

#: The ways of solving compared, in the first round's order.
WAYS = ("one search", "jobs, 1 thread", "jobs, 2 threads")


def run(way: str, board: Any, args: argparse.Namespace) -> tuple[float, SolveResult]:
    """Solve ``board`` one way: (seconds, result)."""
    started = time.perf_counter()
    if way == "one search":
        result = solve(board, time=args.budget, table_mb=args.tt_mb)
    else:
        threads = 1 if way.endswith("1 thread") else 2
        result = solve_jobs(board, threads=threads, job_time=args.job_time,
                            time=args.budget, table_mb=args.tt_mb)
    return time.perf_counter() - started, result


def proof_size(result: SolveResult) -> int:
    return sum(len(c.strategy) for c in result.claims)


def bench(label: str, board: Any, args: argparse.Namespace) -> None:
    """One row: the medians of ``--rounds`` interleaved rounds."""
    seconds: dict[str, list[float]] = {way: [] for way in WAYS}
    last: dict[str, SolveResult] = {}
    for round_ in range(args.rounds):
        order = WAYS[round_ % len(WAYS):] + WAYS[:round_ % len(WAYS)]
        for way in order:
            spent, result = run(way, board, args)
            seconds[way].append(spent)
            last[way] = result
    values = {r.value for r in last.values()}
    value = values.pop() if len(values) == 1 else "/".join(r.value for r in last.values())
    one, two = (statistics.median(seconds[w]) for w in WAYS[1:])
    jobs = last[WAYS[2]]
    print(f"{label:>14} {value:>8} "
          + " ".join(f"{statistics.median(seconds[w]):>9.2f}" for w in WAYS)
          + f" {one / two if two > 0 else 0:>8.2f}x {getattr(jobs, 'jobs', 0):>6,}"
          f" {getattr(jobs, 'tree_nodes', 0):>7,} {proof_size(last[WAYS[0]]):>9,}"
          f" {proof_size(jobs):>9,}", flush=True)


def positions(args: argparse.Namespace) -> list[tuple[str, Callable[[], Any]]]:
    found: list[tuple[str, Callable[[], Any]]] = []
    for tiles in args.tiles:
        for left in args.left:
            for i in range(args.positions):
                seed = f"{args.seed}/andantino/{tiles}/{left}/{i}"
                found.append((f"A{tiles} N={left} #{i}",
                              lambda t=tiles, n=left, s=seed: andantino_position(t, n, s)))
    for hands in args.hands:
        for i in range(args.positions):
            seed = f"{args.seed}/abande/{hands}/{i}"
            found.append((f"Abande H={hands} #{i}",
                          lambda h=hands, s=seed: abande_position(h, s)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the positions' seed (1)")
    parser.add_argument("--positions", type=int, default=2,
                        help="positions of each kind (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds (default 2)")
    parser.add_argument("--job-time", type=float, default=1.0,
                        help="seconds a job (default 1)")
    parser.add_argument("--tiles", type=int, nargs="*", default=[10],
                        help="Andantino tiles a player (default 10)")
    parser.add_argument("--left", type=int, nargs="*", default=[12],
                        help="Andantino placements before the end (default 12)")
    parser.add_argument("--hands", type=int, nargs="*", default=[4],
                        help="Abande pieces in hand (default 4)")
    parser.add_argument("--tt-mb", type=int, default=DEFAULT_TABLE_MB,
                        help=f"each prover's table in MB (default {DEFAULT_TABLE_MB})")
    parser.add_argument("--budget", type=float, default=90.0,
                        help="seconds a solve at most (default 90)")
    args = parser.parse_args()
    if args.positions < 1 or args.rounds < 1 or not args.job_time > 0:
        parser.error("--positions, --rounds and --job-time must be above 0")
    started = time.perf_counter()
    print(f"job-level proof-number search against one df-pn search: jobs of "
          f"{args.job_time:g} s, {args.tt_mb} MB table a worker, medians of "
          f"{args.rounds} interleaved rounds; seconds are the whole solve (proof checks "
          f"included); proof = the winner's positions listed")
    print(f"{'position':>14} {'value':>8} {'one s':>9} {'1 thr s':>9} {'2 thr s':>9} "
          f"{'speed-up':>9} {'jobs':>6} {'tree':>7} {'proof 1':>9} {'proof jobs':>9}")
    for label, make in positions(args):
        bench(label, make(), args)
    print(f"total {time.perf_counter() - started:.0f} s (load average "
          f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
