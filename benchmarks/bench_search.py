"""Search speed on fixed middle-game positions: alpha-beta nodes per second and depth,
the native player (``alphabeta``) and the pure-Python one (``py-alphabeta``) side by side.

Prints figures; it is not a test. The positions come from seeded uniformly random play
of 10 to 20 plies that does not end the game; positions already decided (a forced win or
loss within three plies) and, for Andantino, positions where either side has a winning
cell (a four or a trap) are skipped, so the searches start from open middle-game
positions. Each position is searched by a fresh player for each
time budget, the two players interleaved (native, Python, native, ... on each position in
turn, so that a change in the machine's load hits both alike). Nodes are counted one per
push (both players count the same way); the rate is given per wall-clock second and per
second of this process's CPU time (the two differ when the machine is busy), and the
load average is printed with them.

Usage::

    .venv/bin/python benchmarks/bench_search.py [--game andantino|abande] [--positions 8]
        [--seconds 1 5] [--seed 1]

Targets: the Python player (issue 4) at least 50,000 nodes per second in Andantino and
20,000 in Abande; the native player (issue 10) at least 3 million in Andantino and 2
million in Abande, on one core.

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

from hexgames.engine.alphabeta import AlphaBetaPlayer as NativeAlphaBeta
from hexgames.engine.base import Limit, Player
from hexgames.engine.legacy.alphabeta import AlphaBetaPlayer
from hexgames.games import GAME_NAMES, game_module

#: The players measured, by name: a fresh one per position and budget.
PLAYERS: dict[str, type[Player]] = {"native": NativeAlphaBeta, "python": AlphaBetaPlayer}


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


def alphabeta_speed(game: str, boards: list[Any], seconds: float,
                    players: list[str]) -> None:
    """Search each position for ``seconds`` with each player (interleaved) and print the
    depth reached and the rates."""
    depths: dict[str, list[int]] = {name: [] for name in players}
    nodes = dict.fromkeys(players, 0)
    wall = dict.fromkeys(players, 0.0)
    cpu = dict.fromkeys(players, 0.0)
    for board in boards:
        line = []
        for name in players:
            player = PLAYERS[name]()
            cpu_start = time.process_time()
            start = time.perf_counter()
            info = player.play(board, Limit(time=seconds)).info
            wall[name] += time.perf_counter() - start
            cpu[name] += time.process_time() - cpu_start
            depths[name].append(info.depth)
            nodes[name] += info.nodes
            proven = f" #{info.mate:+d}" if info.mate is not None else ""
            line.append(f"{name} depth {info.depth:>2}{proven}, {info.nps:>10,.0f}/s")
        print(f"    {len(board.legal_moves):>3} moves: " + "; ".join(line))
    for name in players:
        d = depths[name]
        print(f"  {name} alpha-beta, {seconds:g} s a position: depth reached min {min(d)}, "
              f"median {statistics.median(d):g}, max {max(d)}; "
              f"{nodes[name] / wall[name]:,.0f} nodes/s wall-clock, "
              f"{nodes[name] / cpu[name]:,.0f} nodes/s CPU")
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
    parser.add_argument("--players", nargs="+", choices=list(PLAYERS), default=list(PLAYERS),
                        help="the players measured (default: both)")
    args = parser.parse_args()
    for game in args.game or GAME_NAMES:
        boards = middle_game_positions(game, args.positions, args.seed)
        print(f"{game}: {len(boards)} positions (seed {args.seed})")
        for seconds in args.seconds:
            alphabeta_speed(game, boards, seconds, args.players)


if __name__ == "__main__":
    main()
