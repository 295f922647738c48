"""The cost of the research wrappers: steps per second with random actions.

For each game, four loops play uniformly random legal moves from the standard start,
game after game, for ``--seconds`` each, and print steps (plies) per second:

- ``board``: the plain board, ``rng.choice(board.legal_moves)`` and ``board.push``
  (:func:`hexgames.bench.random_playouts`), the speed a search gets;
- ``openspiel``: a ``pyspiel`` state of ``python_andantino`` / ``python_abande``,
  ``state.legal_actions()`` and ``state.apply_action`` (what MCTS rollouts do);
- ``openspiel+obs``: the same plus ``state.observation_tensor()`` at every step, a
  Python list of floats (what ``rl_environment`` reads);
- ``openspiel+observer``: the same with the observation written into a numpy array
  instead (``make_observation(game).set_from(state, player)``, as AlphaZero does);
- ``pettingzoo``: the wrapped AEC environment, ``env.last()`` (observation and mask),
  ``action_space.sample(mask)`` and ``env.step``.

The machine may be busy: each figure is the best of ``--rounds`` rounds on one core.
Prints figures; it is not a test. Needs the ``openspiel`` and ``pettingzoo`` extras.

Usage::

    .venv/bin/python benchmarks/bench_integrations.py [--game andantino|abande]
        [--seconds 2] [--rounds 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import hexgames.integrations.openspiel  # noqa: F401  (registers the games)
from hexgames.bench import random_playouts
from hexgames.games import GAME_NAMES
from hexgames.integrations.pettingzoo import abande_v0, andantino_v0

ENVS = {"andantino": andantino_v0, "abande": abande_v0}


def board_rate(game: str, seconds: float, seed: int) -> float:
    return random_playouts(game, seconds, seed).plies_per_second


def openspiel_rate(game: str, seconds: float, seed: int, observe: str = "") -> float:
    spiel_game = pyspiel.load_game(f"python_{game}")
    observer = make_observation(spiel_game)
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if observe == "list":
                state.observation_tensor()
            elif observe == "numpy":
                observer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_rate(game: str, seconds: float, seed: int) -> float:
    env = ENVS[game].env()
    steps = 0
    start = time.perf_counter()
    number = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + number)
        for i, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed + 2 * number + i)
        number += 1
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(env.action_space(agent).sample(observation["action_mask"]))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    loops: dict[str, Callable[[str, float, int], float]] = {
        "board": board_rate,
        "openspiel": openspiel_rate,
        "openspiel+obs": lambda g, s, seed: openspiel_rate(g, s, seed, "list"),
        "openspiel+observer": lambda g, s, seed: openspiel_rate(g, s, seed, "numpy"),
        "pettingzoo": pettingzoo_rate,
    }
    print(f"steps per second with random actions, best of {args.rounds} rounds of "
          f"{args.seconds:g} s (numpy {np.__version__})")
    for game in args.game or GAME_NAMES:
        rates = {name: max(loop(game, args.seconds, args.seed + r) for r in range(args.rounds))
                 for name, loop in loops.items()}
        base = rates["board"]
        cells = ", ".join(f"{name} {rate:,.0f}/s ({rate / base:.0%})"
                          for name, rate in rates.items())
        print(f"{game}: {cells}")


if __name__ == "__main__":
    main()
