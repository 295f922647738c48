"""Search speed on fixed middle-game positions: the native alpha-beta player's
(``alphabeta``) nodes per second and the depth it reaches, per time budget.

Prints figures; it is not a test. The positions come from seeded uniformly random play
of 10 to 20 plies that does not end the game; positions already decided (a forced win or
loss within three plies) and, for Andantino, positions where either side could win at
once were it to move (a four or a trap) are skipped, so the searches start from open
middle-game positions. Each position is searched by a fresh player for each time budget.
Nodes are counted one per position reached (a push, or a last-ply move scored without
one); the rate is given per wall-clock second and per second of this process's CPU time
(the two differ when the machine is busy), and the load average is printed with them.

Usage::

    .venv/bin/python benchmarks/bench_search.py [--game andantino|abande] [--positions 8]
        [--seconds 1 5] [--seed 1]

Targets: the native player (issue 10) at least 3 million nodes per second in Andantino
and 2 million in Abande, on one core (the pure-Python player of hexgames 0.1 had the
target of issue 4, 50,000 and 20,000; its figures, measured side by side with the native
player before its removal, are in the issue 10 note).

Each measurement is one function taking the game and its positions, so that others
(MCTS simulations per second) can be added next to :func:`alphabeta_speed`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from hexgames.engine.alphabeta import AlphaBetaPlayer
from hexgames.engine.base import Limit
from hexgames.games import GAME_NAMES, game_module

sys.path.insert(0, str(Path(__file__).parent))
from bench_mcts import could_win_at_once


def middle_game_positions(game: str, count: int, seed: int) -> list[Any]:
    """``count`` positions after 10 to 20 seeded random plies that leave the game open."""
    module = game_module(game)
    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < count:
        board = module.Board()
        for _ in range(rng.randint(10, 20)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if board.is_game_over() or (game == "andantino" and could_win_at_once(board)):
            continue
        if AlphaBetaPlayer().analyse(board, Limit(depth=3)).mate is not None:
            continue
        boards.append(board)
    return boards


def alphabeta_speed(game: str, boards: list[Any], seconds: float) -> None:
    """Search each position for ``seconds`` and print the depth reached and the rates."""
    depths: list[int] = []
    nodes = 0
    wall = cpu = 0.0
    for board in boards:
        player = AlphaBetaPlayer()
        cpu_start = time.process_time()
        start = time.perf_counter()
        info = player.play(board, Limit(time=seconds)).info
        wall += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        depths.append(info.depth)
        nodes += info.nodes
        proven = f" #{info.mate:+d}" if info.mate is not None else ""
        print(f"    {len(board.legal_moves):>3} moves: depth {info.depth:>2}{proven}, "
              f"{info.nps:>10,.0f}/s")
    print(f"  alpha-beta, {seconds:g} s a position: depth reached min {min(depths)}, "
          f"median {statistics.median(depths):g}, max {max(depths)}; "
          f"{nodes / wall:,.0f} nodes/s wall-clock, {nodes / cpu:,.0f} nodes/s CPU")
    print(f"  (load average {os.getloadavg()[0]:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", choices=GAME_NAMES, action="append",
                        help="the game to measure (repeatable; default: all)")
    parser.add_argument("--positions", type=int, default=8,
                        help="middle-game positions per game (default 8)")
    parser.add_argument("--seconds", type=float, nargs="+", default=[1.0, 5.0],
                        help="time budgets per position (default 1 5)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in args.game or GAME_NAMES:
        boards = middle_game_positions(game, args.positions, args.seed)
        print(f"{game}: {len(boards)} positions (seed {args.seed})")
        for seconds in args.seconds:
            alphabeta_speed(game, boards, seconds)


if __name__ == "__main__":
    main()
