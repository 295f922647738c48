"""Search speed on fixed middle-game positions: alpha-beta nodes per second and depth.

Prints figures; it is not a test. The positions come from seeded uniformly random play
of 10 to 20 plies that does not end the game; positions already decided (a forced win or
loss within three plies) and, for Andantino, positions where either side has a winning
cell (a four or a trap) are skipped, so the searches start from open middle-game
positions. Each position is searched by a fresh player for each
time budget. Nodes are counted one per push; the rate is given per wall-clock second and
per second of this process's CPU time (the two differ when the machine is busy), and the
load average is printed with them.

Usage::

    .venv/bin/python benchmarks/bench_search.py [--game andantino|abande] [--positions 8]
        [--seconds 1 5] [--seed 1]

Targets (issue 4): Andantino alpha-beta at least 50,000 nodes per second with full
rules and depth 6 within 1 second; Abande alpha-beta at least 20,000 nodes per second.

Each measurement is one function taking the game and its positions, so that others
(MCTS simulations per second) can be added next to :func:`alphabeta_speed`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from hexgames.engine.base import Limit
from hexgames.engine.legacy.alphabeta import AlphaBetaPlayer
from hexgames.games import GAME_NAMES, game_module


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
        if board.is_game_over() or (game == "andantino" and _has_threats(board)):
            continue
        if AlphaBetaPlayer().analyse(board, Limit(depth=3)).mate is not None:
            continue
        boards.append(board)
    return boards


def _has_threats(board: Any) -> bool:
    from hexgames.engine.legacy.evaluation_andantino import Tracker, threat_cells

    tracker = Tracker(board)
    mover = int(board.turn)
    return bool(threat_cells(board, mover, tracker, True)
                or threat_cells(board, 1 - mover, tracker, False))


def alphabeta_speed(game: str, boards: list[Any], seconds: float) -> None:
    """Search each position for ``seconds`` and print the depth reached and the rates."""
    depths = []
    nodes = 0
    wall = 0.0
    cpu = 0.0
    for board in boards:
        player = AlphaBetaPlayer()
        cpu_start = time.process_time()
        start = time.perf_counter()
        result = player.play(board, Limit(time=seconds))
        wall += time.perf_counter() - start
        cpu += time.process_time() - cpu_start
        info = result.info
        depths.append(info.depth)
        nodes += info.nodes
        proven = f", mate {info.mate:+d}" if info.mate is not None else ""
        print(f"    {len(board.legal_moves):>3} moves: depth {info.depth:>2}, "
              f"{info.nodes:>8,} nodes, {info.nps:>8,.0f}/s{proven}")
    print(f"  alpha-beta, {seconds:g} s a position: depth reached min {min(depths)}, "
          f"median {statistics.median(depths):g}, max {max(depths)}; "
          f"{nodes / wall:,.0f} nodes/s wall-clock, {nodes / cpu:,.0f} nodes/s CPU "
          f"(load average {os.getloadavg()[0]:.2f})")


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
