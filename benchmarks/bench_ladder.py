"""The level ladder: every level against the one below it, for each game.

Prints figures; it is not a test. Each match is colour-balanced (colour-swapped pairs,
see :func:`hexgames.arena.run_match`). Each level plays by its name, with its own
options and varied play, as a person meets it. The levels' time budgets are multiplied by
``--scale`` so that the whole ladder fits in a fixed time on two cores; depth and node
limits are kept. Targets (issue 4): each level scores at least 75% against the one
below, and ``hard`` at least 95% against ``easy`` (greedy). Each pair opens with
``--opening-plies`` random plies, since depth-limited players would otherwise repeat one
game.

Usage::

    .venv/bin/python benchmarks/bench_ladder.py [--game andantino|abande] [--games 200]
        [--scale 0.02] [--jobs 2] [--seed 1] [--opening-plies 2]
"""

from __future__ import annotations

import argparse
import time

from hexgames.arena import run_match
from hexgames.engine.players import LEVEL_NAMES, LEVELS
from hexgames.games import GAME_NAMES


def level_spec(level: str, scale: float) -> str:
    """The level by its name (so that it plays with its own options, varied play
    included), its time limit scaled, as a spec string: ``expert:time=0.1``."""
    limit = LEVELS[level].limit
    if limit.time is None:
        return level
    return f"{level}:time={limit.time * scale:g}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append",
                        help="the game (repeatable; default: all)")
    parser.add_argument("--games", type=int, default=200, help="games a match (default 200)")
    parser.add_argument("--scale", type=float, default=0.02,
                        help="factor on the levels' seconds a move (default 0.02)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening-plies", type=int, default=2,
                        help="random plies opening each colour-swapped pair (default 2)")
    args = parser.parse_args()
    pairs = list(zip(LEVEL_NAMES[1:], LEVEL_NAMES[:-1], strict=True))
    pairs.append(("hard", "easy"))  # easy is greedy: hard must score 95% against it
    start = time.perf_counter()
    for game in args.game or GAME_NAMES:
        for upper, lower in pairs:
            spec_a, spec_b = level_spec(upper, args.scale), level_spec(lower, args.scale)
            result = run_match(game, spec_a, spec_b, games=args.games, jobs=args.jobs,
                               seed=args.seed, opening_plies=args.opening_plies)
            elo = result.elo()
            interval = ""
            if elo is not None:
                interval = f", Elo {elo.diff:+.0f} [{elo.low:+.0f}, {elo.high:+.0f}]"
            print(f"{game} {upper} ({spec_a}) vs {lower} ({spec_b}): "
                  f"+{result.wins} ={result.draws} -{result.losses}, "
                  f"score {result.score:.1%}{interval} ({result.elapsed:.0f} s)", flush=True)
    print(f"ladder done in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
