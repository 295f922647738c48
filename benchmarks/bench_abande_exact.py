"""The exact Abande solver (``hexgames.engine.abande_solver.solve``, issue 34) with
pieces in hand: how many pieces may still be in hand for positions of random games to be
solved exactly within a time budget on one core.

Prints figures; it is not a test. ``H`` counts the pieces left in **both hands
together**. For each ``H`` from ``--min-hand`` up, ``--positions`` positions are reached
by uniformly random play from the start (game ``i`` seeded with ``--seed + i``) until the
hands hold ``H`` pieces (every entry takes one, so each game passes through every ``H``;
a game that ends first, which cannot happen with pieces in hand, would be skipped). Each
is solved by the native solver of :func:`hexgames.engine.abande_solver.solve`
(``hexgames._native.AbandeSolver``) with a cleared transposition table of ``--tt-mb``
MB and ``--time`` seconds (``--clock cpu``: CPU seconds of this process, for a machine
shared with other work), in the exact mode (the final score margin; ``--mode result``
for the result only).

For each ``H``: the positions solved and their share; the median seconds and nodes of
those solved; the median seconds of all (an unsolved one counted at the budget); the
largest seconds; nodes a second; and the exact values found, as the share of wins, draws
and losses for the side to move and the median margin. The ladder stops after the first
``H`` where fewer than ``--stop-below`` of the positions are solved; the last lines name
the largest ``H`` with every position solved and with at least 90% solved.

Usage::

    .venv/bin/python benchmarks/bench_abande_exact.py [--positions 100] [--time 60]
        [--min-hand 0] [--max-hand 36] [--mode exact|result] [--tt-mb 256] [--seed 1]
        [--stop-below 0.5] [--clock wall|cpu] [--quick]

``--quick`` (about a minute): 10 positions a rung, 2 s a position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from hexgames import abande, native


def position(seed: int, hand: int) -> abande.Board | None:
    """The position of the random game ``seed`` once the hands hold ``hand`` pieces."""
    rng = random.Random(seed)
    board = abande.Board()
    while sum(board.hands) > hand and not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    return None if board.is_game_over() else abande.Board(board.position())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--time", type=float, default=60.0, help="seconds a position")
    parser.add_argument("--min-hand", type=int, default=0)
    parser.add_argument("--max-hand", type=int, default=36)
    parser.add_argument("--mode", choices=("exact", "result"), default="exact")
    parser.add_argument("--tt-mb", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stop-below", type=float, default=0.5)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="--time in wall-clock seconds or in this process's CPU "
                             "seconds (a machine shared with other work)")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.time = 10, 2.0
    solver = native.AbandeSolver(args.tt_mb)
    print(f"{args.positions} positions a rung, {args.time:g} s each, {args.mode} mode, "
          f"{args.tt_mb} MB table; H = pieces in both hands together")
    print(f"{'H':>3} {'solved':>9} {'med s':>8} {'med s all':>9} {'max s':>7} "
          f"{'med nodes':>11} {'nodes/s':>10}  win/draw/loss  med margin")
    all_solved = most_solved = None
    for hand in range(args.min_hand, args.max_hand + 1):
        times, nodes, spent, diffs = [], [], [], []
        total_nodes = 0
        boards = [b for i in range(args.positions)
                  if (b := position(args.seed + i, hand)) is not None]
        for board in boards:
            solver.new_game()
            if args.clock == "cpu":
                start = time.process_time()
                found = solver.solve(
                    native.state_of(board), args.mode == "exact", None, None,
                    lambda: time.process_time() - start >= args.time)  # noqa: B023
                seconds = time.process_time() - start
                found["solved"] = found["solved"] and seconds < args.time
            else:
                start = time.perf_counter()
                found = solver.solve(native.state_of(board), args.mode == "exact", None,
                                     args.time)
                seconds = time.perf_counter() - start
            spent.append(seconds)
            total_nodes += found["nodes"]
            if found["solved"]:
                times.append(seconds)
                nodes.append(found["nodes"])
                diffs.append(found["diff"] if args.mode == "exact" else found["value"])
        share = len(times) / len(boards) if boards else 0.0
        med_all = statistics.median([min(s, args.time) for s in spent]) if spent else 0.0
        values = ("/".join(f"{sum(1 for d in diffs if (d > 0) - (d < 0) == v)}"
                           for v in (1, 0, -1)))
        print(f"{hand:>3} {len(times):>4}/{len(boards):<4} "
              f"{statistics.median(times) if times else 0:>8.3f} {med_all:>9.3f} "
              f"{max(spent, default=0):>7.2f} "
              f"{int(statistics.median(nodes)) if nodes else 0:>11,} "
              f"{total_nodes / sum(spent) if spent else 0:>10,.0f}  {values:>13}  "
              f"{statistics.median(diffs) if diffs and args.mode == 'exact' else '-':>10}",
              flush=True)
        if share == 1.0 and (all_solved is None or all_solved == hand - 1):
            all_solved = hand
        if share >= 0.9 and (most_solved is None or most_solved == hand - 1):
            most_solved = hand
        if share < args.stop_below:
            break
    print(f"largest H with every position solved within {args.time:g} s: {all_solved}")
    print(f"largest H with at least 90% solved: {most_solved}")


if __name__ == "__main__":
    main()
