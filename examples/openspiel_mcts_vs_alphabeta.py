"""OpenSpiel's MCTS against hexgames' alpha-beta player on Abande.

Loads the game through OpenSpiel (``pyspiel.load_game("python_abande")``), wraps the
hexgames player as an OpenSpiel bot, and plays a short match with colours swapped::

    python examples/openspiel_mcts_vs_alphabeta.py                 # about half a minute
    python examples/openspiel_mcts_vs_alphabeta.py --games 4 --simulations 400
    python examples/openspiel_mcts_vs_alphabeta.py --quick         # a smoke test

Needs ``pip install hexgames[openspiel]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

from hexgames.engine import Limit, make_player
from hexgames.integrations.openspiel import HexgamesBot  # also registers the games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games, colours alternating")
    parser.add_argument("--simulations", type=int, default=100,
                        help="MCTS simulations per move")
    parser.add_argument("--time", type=float, default=0.05,
                        help="alpha-beta seconds per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true",
                        help="one game with tiny budgets (for tests)")
    args = parser.parse_args()
    if args.quick:
        args.games, args.simulations, args.time = 1, 4, 0.01

    game = pyspiel.load_game("python_abande")
    rng = np.random.RandomState(args.seed)
    score = {"mcts": 0.0, "alphabeta": 0.0}
    for number in range(args.games):
        mcts_bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations,
                                evaluator=mcts.RandomRolloutEvaluator(1, rng),
                                random_state=rng)
        alphabeta_bot = HexgamesBot(make_player("alphabeta"), Limit(time=args.time))
        names = ["mcts", "alphabeta"] if number % 2 == 0 else ["alphabeta", "mcts"]
        bots = [mcts_bot if name == "mcts" else alphabeta_bot for name in names]
        state = game.new_initial_state()
        start = time.perf_counter()
        returns = evaluate_bots(state, bots, rng)
        seconds = time.perf_counter() - start
        for name, value in zip(names, returns, strict=True):
            score[name] += (value + 1) / 2
        black, white = state.board.score()
        print(f"game {number + 1}: Black {names[0]}, White {names[1]}: "
              f"{state.board.result()} (score {black}-{white}), "
              f"{len(state.history())} plies, {seconds:.1f} s")
    print(f"points: mcts {score['mcts']:g}, alphabeta {score['alphabeta']:g} "
          f"of {args.games}")


if __name__ == "__main__":
    main()
