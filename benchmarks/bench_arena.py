"""The arena at scale: games per minute with the process pool and with Ray, the Ray
path's overhead per game, and the games a sequential test needs to tell two levels
apart.

Prints figures; it is not a test. Three measurements:

``throughput``
    a match at ``--seconds`` a move (default 1 s, ``alphabeta`` against itself, random
    openings) played with the local process pool and with Ray on a local Ray instance
    of ``--jobs`` CPUs: games per minute for each, over ``--rounds`` rounds (median).
``overhead``
    ``--tiny`` random-against-random games (a few milliseconds each) with both
    executors: the difference in wall time per game is the Ray path's overhead per game
    (task submission, scheduling, result transfer), median of ``--rounds`` rounds; and,
    against the same games played in this process, the CPU time each path costs a game
    beyond the game itself.
``sprt``
    ``hexgames match GAME -p expert -p hard --sprt 0,ELO`` for each game, the levels'
    time budgets scaled by ``--scale`` as in ``bench_ladder.py``: the games the test
    needed, its verdict and LLR.

Usage::

    .venv/bin/python benchmarks/bench_arena.py throughput [--seconds 1] [--games 8]
    .venv/bin/python benchmarks/bench_arena.py overhead [--tiny 400] [--rounds 3]
    .venv/bin/python benchmarks/bench_arena.py sprt [--scale 0.02] [--elo1 100]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from hexgames.arena import LocalProcessExecutor, Sprt, run_match
from hexgames.games import GAME_NAMES

sys.path.insert(0, str(Path(__file__).parent))
from bench_ladder import level_spec


def ray_executor(jobs: int) -> object:
    from hexgames.arena.cluster import RayExecutor

    executor = RayExecutor(num_cpus=jobs)
    executor.connect()  # start the local instance outside the timings
    return executor


def timed_match(executor: object, game: str, spec: str, games: int, seed: int,
                opening_plies: int) -> tuple[float, int]:
    """Wall seconds and plies of a match."""
    start = time.perf_counter()
    match = run_match(game, spec, spec, games=games, seed=seed,
                      executor=executor,  # type: ignore[arg-type]
                      opening_plies=opening_plies, keep_results=False)
    return time.perf_counter() - start, match.tally.plies


def throughput(args: argparse.Namespace) -> None:
    spec = f"alphabeta:time={args.seconds:g}"
    ray = ray_executor(args.jobs)
    for game in args.game or GAME_NAMES:
        for name, executor in (("process pool", LocalProcessExecutor(args.jobs)),
                               ("ray", ray)):
            runs = [timed_match(executor, game, spec, args.games, args.seed + r, 2)
                    for r in range(args.rounds)]
            median = statistics.median(t for t, _ in runs)
            # A time-limited game lasts as many seconds as it has plies, whoever runs it:
            # plies a second (per CPU) show what the executor adds.
            rate = statistics.median(p / t / args.jobs for t, p in runs)
            print(f"{game} {spec} x{args.games} games, {name} ({args.jobs} CPUs): "
                  f"{args.games / median * 60:.2f} games/min, {rate:.3f} plies/s per CPU "
                  f"(median of {args.rounds}: "
                  f"{', '.join(f'{t:.1f} s {p} plies' for t, p in runs)})", flush=True)


def overhead(args: argparse.Namespace) -> None:
    ray = ray_executor(args.jobs)
    for game in args.game or GAME_NAMES:
        per_game = {}
        for name, executor in (("in process", LocalProcessExecutor(1)),
                               ("process pool", LocalProcessExecutor(args.jobs)),
                               ("ray", ray)):
            times = [timed_match(executor, game, "random", args.tiny, args.seed + r, 0)[0]
                     for r in range(args.rounds)]
            per_game[name] = statistics.median(times) / args.tiny
            print(f"{game} random x{args.tiny}, {name}: {per_game[name] * 1000:.2f} ms a "
                  f"game wall time (median of {args.rounds}: "
                  f"{', '.join(f'{t:.2f}' for t in times)} s)", flush=True)
        extra = (per_game["ray"] - per_game["process pool"]) * 1000
        print(f"{game}: Ray overhead {extra:+.2f} ms a game over the process pool "
              f"({args.jobs} CPUs)", flush=True)
        for name in ("process pool", "ray"):
            # CPU-seconds the path spends a game beyond playing it in this process.
            cost = (per_game[name] * args.jobs - per_game["in process"]) * 1000
            print(f"{game}: {name} costs {cost:+.2f} CPU-ms a game beyond the game itself",
                  flush=True)


def sprt(args: argparse.Namespace) -> None:
    expert, hard = level_spec("expert", args.scale), level_spec("hard", args.scale)
    for game in args.game or GAME_NAMES:
        test = Sprt(0.0, args.elo1)
        start = time.perf_counter()
        match = run_match(game, expert, hard, games=args.max_games, seed=args.seed,
                          jobs=args.jobs, sprt=test, opening_plies=args.opening_plies,
                          keep_results=False)
        elo = test.elo()
        shown = "" if elo is None else f", Elo {elo.diff:+.0f} [{elo.low:+.0f}, {elo.high:+.0f}]"
        print(f"{game} A={expert} B={hard} SPRT(0,{args.elo1:g}): {test.verdict()} after "
              f"{match.played} games ({test.pairs} pairs, LLR {test.llr():+.2f}, "
              f"pentanomial {test.pentanomial}{shown}; +{match.wins} ={match.draws} "
              f"-{match.losses}; {time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["throughput", "overhead", "sprt"])
    parser.add_argument("--game", choices=GAME_NAMES, action="append",
                        help="the game (repeatable; default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="CPUs / processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="throughput: seconds a move (default 1)")
    parser.add_argument("--games", type=int, default=8,
                        help="throughput: games a round (default 8)")
    parser.add_argument("--tiny", type=int, default=400,
                        help="overhead: random games a round (default 400)")
    parser.add_argument("--scale", type=float, default=0.02,
                        help="sprt: factor on the levels' seconds a move (default 0.02)")
    parser.add_argument("--elo1", type=float, default=100.0,
                        help="sprt: H1's Elo (H0 is 0; default 100)")
    parser.add_argument("--max-games", type=int, default=2000)
    parser.add_argument("--opening-plies", type=int, default=2)
    args = parser.parse_args()
    {"throughput": throughput, "overhead": overhead, "sprt": sprt}[args.mode](args)


if __name__ == "__main__":
    main()
