"""The PettingZoo AEC loop on both games, with an agent that samples legal actions.

Each agent draws from its action space under the ``action_mask`` of its observation,
the usual way to keep a learning agent's moves legal::

    python examples/pettingzoo_loop.py            # 20 games of each, a few seconds
    python examples/pettingzoo_loop.py --games 2 --render   # and print the final boards
    python examples/pettingzoo_loop.py --quick    # a smoke test

Needs ``pip install hexgames[pettingzoo]``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from hexgames.integrations.pettingzoo import abande_v0, andantino_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--render", action="store_true", help="print each final board")
    parser.add_argument("--quick", action="store_true", help="one game each (for tests)")
    args = parser.parse_args()
    games = 1 if args.quick else args.games

    for module in (andantino_v0, abande_v0):
        env = module.env(render_mode="ansi")
        results: Counter[str] = Counter()
        steps = 0
        start = time.perf_counter()
        for number in range(games):
            env.reset(seed=args.seed + number)
            for i, agent in enumerate(env.possible_agents):
                env.action_space(agent).seed(args.seed + 2 * number + i)
            for agent in env.agent_iter():
                observation, reward, termination, truncation, _info = env.last()
                if termination or truncation:
                    if reward > 0:
                        results[f"{agent} wins"] += 1
                    elif reward == 0 and agent == "player_0":
                        results["draws"] += 1
                    action = None
                else:
                    action = env.action_space(agent).sample(observation["action_mask"])
                    steps += 1
                env.step(action)
            if args.render:
                print(env.render())
        seconds = time.perf_counter() - start
        name = env.metadata["name"]
        print(f"{name}: {games} games, {dict(sorted(results.items()))}, "
              f"{steps} steps in {seconds:.2f} s ({steps / seconds:.0f} steps/s)")
        env.close()


if __name__ == "__main__":
    main()
