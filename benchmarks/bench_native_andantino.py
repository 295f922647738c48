"""Speed of the native Andantino core against the Python board, on the same machine.

Prints figures; it is not a test. Uniformly random playouts from the standard start:
the Python board through :func:`hexgames.bench.random_playouts`, the native core through
``AndantinoState.random_playouts`` (the batch call ``hexgames_core::playout::
random_playouts``, GIL released). The two are run in turns, round after round, so that
both see the same load; the medians (and the best rounds) are printed, per second of
wall-clock time and per second of this thread's CPU time (``time.thread_time``), which
stays meaningful on a machine shared with other work. Then perft(9) on both (the leaves
of the last ply counted in bulk), and the size of the built extension module.

Usage::

    .venv/bin/python benchmarks/bench_native_andantino.py [--rounds 7] [--seconds 2]
        [--perft 9]

Target: at least 500,000 native playouts per second on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from hexgames import _native
from hexgames.andantino import Board
from hexgames.bench import random_playouts
from hexgames.perft import perft


def rates(run: dict[str, list[float]], name: str, playouts: int, wall: float,
          cpu: float) -> None:
    run.setdefault(name, []).append(playouts / wall)
    run.setdefault(name + " cpu", []).append(playouts / cpu if cpu > 0 else float("nan"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--perft", type=int, default=9)
    args = parser.parse_args()

    run: dict[str, list[float]] = {}
    plies: dict[str, float] = {}
    for round_number in range(args.rounds):
        cpu, wall = time.thread_time(), time.perf_counter()
        python = random_playouts("andantino", args.seconds, seed=round_number)
        rates(run, "python", python.playouts, time.perf_counter() - wall,
              time.thread_time() - cpu)
        plies["python"] = python.plies_per_playout
        cpu, wall = time.thread_time(), time.perf_counter()
        native = _native.AndantinoState().random_playouts(seconds=args.seconds,
                                                           seed=round_number)
        rates(run, "native", native["playouts"], time.perf_counter() - wall,
              time.thread_time() - cpu)
        plies["native"] = native["plies"] / native["playouts"]
        print(f"round {round_number}: python {run['python'][-1]:,.0f}/s "
              f"({run['python cpu'][-1]:,.0f} per CPU s), native {run['native'][-1]:,.0f}/s "
              f"({run['native cpu'][-1]:,.0f} per CPU s)")
    for name in ("python", "native"):
        wall_rates, cpu_rates = run[name], run[name + " cpu"]
        print(f"{name}: median {statistics.median(wall_rates):,.0f} playouts/s (best "
              f"{max(wall_rates):,.0f}), median {statistics.median(cpu_rates):,.0f} per CPU "
              f"second; {plies[name]:.1f} plies a playout")
    ratio = statistics.median(run["native cpu"]) / statistics.median(run["python cpu"])
    print(f"native / python (per CPU second, medians): {ratio:,.0f}x")

    state = _native.AndantinoState()
    start = time.perf_counter()
    nodes = state.perft(args.perft)
    native_seconds = time.perf_counter() - start
    start = time.perf_counter()
    python_nodes = perft(Board(), args.perft)
    python_seconds = time.perf_counter() - start
    assert nodes == python_nodes, (nodes, python_nodes)
    print(f"perft({args.perft}) = {nodes:,}: native {native_seconds:.3f} s, python "
          f"{python_seconds:.2f} s")

    module = Path(_native.__file__)
    print(f"{module.name}: {module.stat().st_size / 1024:,.0f} KiB")


if __name__ == "__main__":
    main()
