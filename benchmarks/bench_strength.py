"""Strength of one player spec against another: a match of colour-swapped pairs from random
openings (:func:`hexgames.arena.run_match`), with A's score, its 95% interval, and A's
score apart as the first and as the second player.

Prints figures; it is not a test. The interval is the usual ``s ± 1.96·se`` over the
per-pair scores (the colour-swapped pairs remove the first player's advantage from the
variance); each side's score is over its games with that colour. Any two player specs
can be matched: two players, two option sets of one player (``alphabeta:lmr=off``), or a
player and a level. The matches of the native players against the pure-Python players
of hexgames 0.1 were played before their removal; those figures are in the issue 10
note.

With ``--openings FILE`` (one position string a line, as ``bench_openings.py --write``
makes them) pair ``i`` starts from line ``i`` instead of a random opening: a match
from balanced openings. Its pairs are played as one-pair matches spread over ``--jobs``
processes, so it runs against any hexgames whose ``run_match`` takes a ``position``.
``openings/andantino-balance-seed25.txt`` holds the 107 of 130 four-ply openings of the
balance variant (seed 25) that a 2-s search did not prove won for either side
(``bench_openings.py andantino --rules single_adjacency=on --pairs 130 --seconds 2
--seed 25 --write FILE``; 23 were proven won for Red).

Usage::

    .venv/bin/python benchmarks/bench_strength.py andantino alphabeta:time=1 \\
        mcts:time=1 [--games 40] [--opening-plies 2] [--rules single_adjacency=on]
        [--seed 1] [--jobs 1] [--records DIR] [--openings FILE]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from hexgames.arena import run_match
from hexgames.core import HexgamesError
from hexgames.engine.players import make_player
from hexgames.games import GAME_NAMES, game_module


def _positive(text: str) -> int:
    """A whole number of at least 1 (``--jobs``)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _interval(scores: list[float]) -> tuple[float, float, float]:
    """(mean, low, high) of a 95% interval of the mean of ``scores``."""
    if not scores:
        return math.nan, math.nan, math.nan
    mean = statistics.fmean(scores)
    if len(scores) < 2:
        return mean, 0.0, 1.0
    se = statistics.pstdev(scores) / math.sqrt(len(scores))
    return mean, max(0.0, mean - 1.96 * se), min(1.0, mean + 1.96 * se)


def _pair(args: argparse.Namespace, pair: int, position: str) -> Any:
    """The colour-swapped pair ``pair`` from ``position``, its records written under
    ``--records`` when given."""
    match = run_match(args.game, args.a, args.b, games=2, rules=args.rules or None,
                      seed=args.seed * 100_003 + pair, position=position)
    if args.records:
        match.write(Path(args.records) / f"pair-{pair:03d}")
    return match


def _openings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The first ``--games / 2`` position strings of ``--openings`` (blank lines and
    ``#`` comments skipped), each read as a board of the match's game and rules;
    ``parser.error`` (exit status 2) naming the file and line of what is wrong."""
    if args.games < 2 or args.games % 2:
        parser.error(f"--games must be an even number of at least 2 with --openings, "
                     f"not {args.games}")
    try:
        with open(args.openings, encoding="utf-8") as lines:
            numbered = [(n, line.strip()) for n, line in enumerate(lines, 1)
                        if line.strip() and not line.lstrip().startswith("#")]
    except (OSError, UnicodeDecodeError) as error:
        parser.error(f"cannot read the openings {args.openings!r}: "
                     f"{getattr(error, 'strerror', None) or error}")
    pairs = args.games // 2
    if len(numbered) < pairs:
        parser.error(f"{args.openings} has {len(numbered)} opening(s); {args.games} games "
                     f"need {pairs}")
    module = game_module(args.game)
    try:
        rules = module.Rules.from_options(args.rules)
    except HexgamesError as error:
        parser.error(str(error))
    for n, position in numbered[:pairs]:
        try:
            board = module.Board(position, rules)
        except HexgamesError as error:
            parser.error(f"{args.openings}, line {n}: {error}")
        if board.is_game_over():
            parser.error(f"{args.openings}, line {n}: the game is over in this position")
    return [position for _, position in numbered[:pairs]]


def _from_openings(args: argparse.Namespace, positions: list[str],
                   progress: Any) -> tuple[list[Any], float]:
    """The games of a match whose pairs start from ``positions``, in pair order, and the
    seconds the match took."""
    pairs = len(positions)
    start = time.perf_counter()
    done: dict[int, list[Any]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(_pair, args, i, positions[i]): i for i in range(pairs)}
        for future in as_completed(futures):
            done[futures[future]] = future.result().results
            progress(None, 2 * len(done), 2 * pairs)
    return [game for i in sorted(done) for game in done[i]], time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("a", help="player spec A (the one whose score is printed)")
    parser.add_argument("b", help="player spec B")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--opening-plies", type=int, default=2,
                        help="random plies that open each pair (default 2)")
    parser.add_argument("--rules", nargs="*", default=[], help="rules options key=value")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=_positive, default=1)
    parser.add_argument("--records", metavar="DIR",
                        help="write the games and a summary to this directory")
    parser.add_argument("--openings", metavar="FILE",
                        help="start pair i from line i's position string")
    args = parser.parse_args()

    def progress(result: object, done: int, total: int) -> None:
        print(f"  {done}/{total} games", end="\r", file=sys.stderr, flush=True)

    for spec in (args.a, args.b):
        try:
            make_player(spec)
        except HexgamesError as error:
            parser.error(str(error))
    match = None
    if args.openings:
        positions = _openings(parser, args)
        if args.records:
            print(f"  the games of pair i go to {Path(args.records) / 'pair-NNN'}",
                  file=sys.stderr)
        results, elapsed = _from_openings(args, positions, progress)
    else:
        start = time.perf_counter()
        match = run_match(args.game, args.a, args.b, games=args.games,
                          rules=args.rules or None, seed=args.seed, jobs=args.jobs,
                          opening_plies=args.opening_plies, progress=progress)
        elapsed = time.perf_counter() - start
        results = match.results
    pairs = [sum(r.score_a for r in results[i:i + 2]) / 2
             for i in range(0, len(results) - 1, 2)]
    _, low, high = _interval(pairs)
    first = [r.score_a for r in results if r.first == 0]
    second = [r.score_a for r in results if r.first == 1]
    rules = " ".join(args.rules) or "default rules"
    openings = (f"openings of {args.openings}" if args.openings
                else f"{args.opening_plies} opening plies")
    print(f"{args.game} ({rules}): {args.a} vs {args.b}, {len(results)} games, "
          f"seed {args.seed}, {openings}, {elapsed:.0f} s")
    wins = sum(r.score_a == 1 for r in results)
    draws = sum(r.score_a == 0.5 for r in results)
    score = statistics.fmean(r.score_a for r in results) if results else math.nan
    print(f"  A: +{wins} ={draws} -{len(results) - wins - draws}; score {score:.3f} "
          f"(95% interval {low:.3f}-{high:.3f} over {len(pairs)} pairs)")
    print(f"  A as first player: {statistics.fmean(first) if first else math.nan:.3f} "
          f"({len(first)} games); as second player: "
          f"{statistics.fmean(second) if second else math.nan:.3f} ({len(second)} games)")
    moves = [sum(r.moves[i] for r in results) for i in (0, 1)]
    spent = [sum(r.times[i] for r in results) for i in (0, 1)]
    for i, name in enumerate((args.a, args.b)):
        if moves[i]:
            print(f"  {name}: {spent[i] / moves[i]:.3f} s a move on average")
    print(f"  (load average {os.getloadavg()[0]:.2f})")
    if args.records and match is not None:
        games, summary = match.write(args.records)
        print(f"  games in {games}, summary in {summary}")


if __name__ == "__main__":
    main()
