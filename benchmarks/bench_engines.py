"""Speed of the rules engines, native core against the pure-Python boards, per game.

Prints figures; it is not a test. A playout starts at the standard start and plays
uniformly random legal moves until the game ends (:func:`hexgames.bench.random_playouts`):
the native path is the Rust core's batch call, the Python path the public board API
(``board.legal_moves``, ``board.push``). The two paths run in turns, round after round,
so that both see the same load on this shared machine; medians (and the best rounds)
are printed per second of wall-clock time and per second of this thread's CPU time
(``time.thread_time``), which stays meaningful while other work runs, and the ratio of
the CPU-time medians. Then the shares of results over many native games, perft from the
start on both (equal counts asserted; the last ply counted in bulk), and the size of
the built extension module.

Usage::

    .venv/bin/python benchmarks/bench_engines.py [--game andantino|abande] [--rounds 5]
        [--seconds 2] [--games 20000] [--seed 1]

Targets (issue 10): native Andantino at least 500,000 random playouts per second on one
core, native Abande at least 100,000.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

from hexgames import _native, native
from hexgames.bench import random_playouts
from hexgames.games import GAME_NAMES, game_module
from hexgames.perft import perft


def speed(game: str, rounds: int, seconds: float, seed: int) -> None:
    """Interleaved rounds of both paths; medians, best rounds and the ratio."""
    wall: dict[str, list[float]] = {"native": [], "python": []}
    cpu: dict[str, list[float]] = {"native": [], "python": []}
    plies: dict[str, list[float]] = {"native": [], "python": []}
    for round_number in range(rounds):
        for path in ("python", "native"):
            cpu_start = time.thread_time()
            result = random_playouts(game, seconds, seed * 1000 + round_number,
                                     native=path == "native")
            used = time.thread_time() - cpu_start
            wall[path].append(result.playouts_per_second)
            cpu[path].append(result.playouts / used if used > 0 else math.nan)
            plies[path].append(result.plies_per_second)
    for path in ("native", "python"):
        print(f"  {path:>6}: median {statistics.median(wall[path]):,.0f} playouts/s "
              f"(best {max(wall[path]):,.0f}), {statistics.median(cpu[path]):,.0f} per CPU "
              f"second; median {statistics.median(plies[path]):,.0f} plies/s")
    ratio = statistics.median(cpu["native"]) / statistics.median(cpu["python"])
    print(f"  native / python: {ratio:,.1f}x per CPU second ({rounds} interleaved rounds of "
          f"{seconds:g} s each, one core)")


def results(game: str, games: int, seed: int) -> None:
    result = random_playouts(game, math.inf, seed, max_playouts=games)
    share = result.draws / result.playouts
    margin = 1.96 * math.sqrt(share * (1 - share) / result.playouts)
    first, second = (tag.lower() for tag in game_module(game).PLAYER_TAGS)
    print(f"  {result.playouts:,} uniformly random games (native): "
          f"{result.plies_per_playout:.1f} plies a game; {first} won "
          f"{result.wins[0] / result.playouts:.1%}, {second} won "
          f"{result.wins[1] / result.playouts:.1%}, drawn {share:.1%} "
          f"(95% interval {share - margin:.1%} to {share + margin:.1%})")
    ends = ", ".join(f"{t.value} {n / result.playouts:.1%}"
                     for t, n in result.terminations.most_common())
    print(f"  ended by: {ends}")


#: Deep enough that the Python time means something.
PERFT_DEPTH = {"andantino": 9, "abande": 5}


def perft_times(game: str) -> None:
    depth = PERFT_DEPTH[game]
    state = native.state_class(game)()
    start = time.perf_counter()
    native_count = state.perft(depth)
    native_seconds = time.perf_counter() - start
    start = time.perf_counter()
    python_count = perft(game_module(game).Board(), depth)
    python_seconds = time.perf_counter() - start
    assert native_count == python_count, (native_count, python_count)
    print(f"  perft({depth}) = {native_count:,}: native {native_seconds:.4f} s, python "
          f"{python_seconds:.3f} s ({python_seconds / native_seconds:,.0f}x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append",
                        help="the game to measure (repeatable; default: all)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds per timed round and path (default 2)")
    parser.add_argument("--games", type=int, default=20000,
                        help="uniformly random games for the result shares (default 20000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in args.game or GAME_NAMES:
        print(game_module(game).GAME_NAME)
        speed(game, args.rounds, args.seconds, args.seed)
        results(game, args.games, args.seed)
        perft_times(game)
    module = Path(_native.__file__)
    print(f"{module.name}: {module.stat().st_size / 1024:,.0f} KiB")


if __name__ == "__main__":
    main()
