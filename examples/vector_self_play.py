"""Self-play on a vector of games: N games stepped at once in the native core.

A random policy over the legal-action masks plays both sides of ``--envs`` games at
once, the loop of a self-play learner (a network would pick ``actions`` from
``observations`` and ``masks`` instead). Rewards are the mover's: +1 for a winning move,
-1 for a losing one; finished games restart in the same step (same-step autoreset), with
their final observation and winner in ``infos``::

    python examples/vector_self_play.py                 # 64 Andantino games, 2 s
    python examples/vector_self_play.py --game abande --envs 1024
    python examples/vector_self_play.py --quick         # a smoke test

Needs ``pip install hexgames[rl]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np

from hexgames.integrations.vector import AbandeVectorEnv, AndantinoVectorEnv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["andantino", "abande"], default="andantino")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a short run (for tests)")
    args = parser.parse_args()
    seconds = 0.2 if args.quick else args.seconds

    cls = AndantinoVectorEnv if args.game == "andantino" else AbandeVectorEnv
    envs = cls(num_envs=args.envs, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    observations, _ = envs.reset(seed=args.seed)
    results: Counter[str] = Counter()
    lengths: list[int] = []
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        masks = envs.action_masks()                       # (N, num_actions) int8
        # A policy's masked choice: here uniform, by a random score per legal action.
        scores = np.where(masks == 1, rng.random(masks.shape), -1.0)
        actions = scores.argmax(axis=1)
        observations, _rewards, terminations, _, infos = envs.step(actions)
        steps += envs.num_envs
        if terminations.any():
            final = infos["final_info"]
            for i in np.flatnonzero(terminations):
                winner = int(final["winner"][i])
                results["draw" if winner < 0 else f"player_{winner} wins"] += 1
                lengths.append(int(final["plies"][i]))
    seconds = time.perf_counter() - start
    games = sum(results.values())
    mean = sum(lengths) / len(lengths) if lengths else 0.0
    print(f"{args.game}: {args.envs} envs, observations {observations.shape[1:]}, "
          f"{games} games, {dict(sorted(results.items()))}, {mean:.1f} plies a game, "
          f"{steps / seconds:,.0f} steps/s")


if __name__ == "__main__":
    main()
