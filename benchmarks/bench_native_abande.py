"""Abande speed, native core against the Python board: uniformly random playouts per
second from the start, and perft times.

Prints figures; it is not a test. The two playout loops run in interleaved rounds (native,
Python, native, ...) of ``--seconds`` each on one core, and the medians are reported, as
the machine is shared and single figures are noisy. The native rate is that of
``AbandeState.random_playouts`` (the core's ``playout::random_playouts``, GIL released);
the Python rate that of :func:`hexgames.bench.random_playouts`. Perft counts the leaves of
PERFT.md's tree from the start (native ``AbandeState.perft``, Python
:func:`hexgames.perft.perft`). The size of the built extension module is printed too.

Usage::

    .venv/bin/python benchmarks/bench_native_abande.py [--rounds 5] [--seconds 2]
        [--perft 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from hexgames import _native, abande, bench
from hexgames.perft import perft


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--perft", type=int, default=5, help="perft depth")
    args = parser.parse_args()

    native_rates: list[float] = []
    python_rates: list[float] = []
    for round_ in range(args.rounds):
        state = _native.AbandeState()
        stats = state.random_playouts(seconds=args.seconds, seed=round_)
        native_rates.append(stats["playouts"] / stats["seconds"])
        result = bench.random_playouts("abande", seconds=args.seconds, seed=round_)
        python_rates.append(result.playouts_per_second)
        print(f"round {round_ + 1}: native {native_rates[-1]:,.0f} playouts/s "
              f"({stats['plies'] / stats['playouts']:.1f} plies each), Python "
              f"{python_rates[-1]:,.1f} playouts/s ({result.plies_per_playout:.1f} plies)")
    native_median = statistics.median(native_rates)
    python_median = statistics.median(python_rates)
    print(f"median of {args.rounds} rounds: native {native_median:,.0f} playouts/s, Python "
          f"{python_median:,.1f} playouts/s: {native_median / python_median:,.0f} times "
          "faster")

    native_times: list[float] = []
    for _ in range(args.rounds):
        state = _native.AbandeState()
        start = time.perf_counter()
        leaves = state.perft(args.perft)
        native_times.append(time.perf_counter() - start)
    start = time.perf_counter()
    python_leaves = perft(abande.Board(), args.perft)
    python_time = time.perf_counter() - start
    assert leaves == python_leaves
    print(f"perft({args.perft}) = {leaves:,}: native {statistics.median(native_times):.4f} s "
          f"(median of {args.rounds}), Python {python_time:.3f} s")

    module = Path(_native.__file__)
    print(f"{module.name}: {os.path.getsize(module) / 1e6:.2f} MB; load average "
          f"{os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
