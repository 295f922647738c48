"""Speed of the rules engines: random playouts, plies and perft, for each game.

Prints figures; it is not a test. A playout starts from the standard start and plays
uniformly random legal moves through the public API only (``board.legal_moves``, an
index drawn with ``random.Random.random``, ``board.push``) until the game ends, as a
Monte Carlo search would (:func:`hexgames.bench.random_playouts`). The machine may be
busy, so the speed is measured in several rounds on one core and the best and the median
are printed.

Usage::

    .venv/bin/python benchmarks/bench_engines.py [--game andantino|abande] [--rounds 5]
        [--seconds 2] [--games 3000] [--seed 1]

Targets (issues 2 and 3): Andantino at least 10,000 random playouts per second, Abande
at least 2,000, and about 10% of uniformly random Abande games drawn.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from hexgames.bench import random_playouts
from hexgames.games import GAME_NAMES, game_module
from hexgames.perft import perft


def speed(game: str, rounds: int, seconds: float, seed: int) -> None:
    rates = []
    plies = []
    for round_number in range(rounds):
        result = random_playouts(game, seconds, seed * 1000 + round_number)
        rates.append(result.playouts_per_second)
        plies.append(result.plies_per_second)
    print(f"  random playouts: best {max(rates):,.0f}/s, median {statistics.median(rates):,.0f}/s"
          f"; plies: best {max(plies):,.0f}/s ({rounds} rounds of {seconds:g} s, one core)")


def results(game: str, games: int, seed: int) -> None:
    result = random_playouts(game, math.inf, seed, max_playouts=games)
    share = result.draws / result.playouts
    margin = 1.96 * math.sqrt(share * (1 - share) / result.playouts)
    first, second = (tag.lower() for tag in game_module(game).PLAYER_TAGS)
    print(f"  {result.playouts:,} uniformly random games: {result.plies_per_playout:.1f} plies"
          f" a game; {first} won {result.wins[0] / result.playouts:.1%}, {second} won "
          f"{result.wins[1] / result.playouts:.1%}, drawn {share:.1%} "
          f"(95% interval {share - margin:.1%} to {share + margin:.1%})")
    ends = ", ".join(f"{t.value} {n / result.playouts:.1%}"
                     for t, n in result.terminations.most_common())
    print(f"  ended by: {ends}")


# Deep enough that the time means something; the leaves of the last ply are counted in
# bulk (the length of the legal move list), as perft programs do.
PERFT_DEPTH = {"andantino": 9, "abande": 6}


def perft_times(game: str) -> None:
    board = game_module(game).Board()
    for depth in range(5, PERFT_DEPTH[game] + 1):
        start = time.perf_counter()
        nodes = perft(board, depth)
        seconds = time.perf_counter() - start
        print(f"  perft({depth}) = {nodes:,} in {seconds:.3f} s"
              f" ({nodes / seconds:,.0f} leaves/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append",
                        help="the game to measure (repeatable; default: all)")
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds per timed round (default 2)")
    parser.add_argument("--games", type=int, default=3000,
                        help="uniformly random games for the result shares (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in args.game or GAME_NAMES:
        print(game_module(game).GAME_NAME)
        speed(game, args.rounds, args.seconds, args.seed)
        results(game, args.games, args.seed)
        perft_times(game)


if __name__ == "__main__":
    main()
