"""Speed of the native MCTS player, MCTS-Solver on forced positions, the native Abande
endgame solver, and a match between any two player specs.

Prints figures; it is not a test. Parts, each selectable:

- ``speed``: simulations per second of :class:`hexgames.engine.mcts.MCTSPlayer` under
  several option sets on middle-game positions (seeded uniformly random play of 10 to 20
  plies in Andantino, 20 to 40 in Abande, where neither side can win at once and 1,500
  simulations prove nothing), one search of ``--seconds`` per position and option set in
  each of ``--rounds`` rounds; the medians over every search are printed, per second of
  wall-clock time and of the thread's CPU time, with the worst rate and the median tree
  depth. The target is 200,000 simulations a second in Andantino, one core.
- ``solver``: MCTS-Solver on positions with a forced result (a line in one, a trap in
  one, a win in three, a loss in two, an Abande pass that wins): move, proof,
  simulations and time.
- ``endgame``: the exact Abande endgame solver on endgames from seeded random play
  (until both hands are empty): solved, time and positions per endgame, with the exact
  score and with the result only.
- ``match``: two player specs against each other with
  :func:`hexgames.arena.run_match` (colour-swapped pairs from seeded random openings),
  with the score, its 95% interval, the Elo difference and the score as first and as
  second player (``--a mcts:time=0.5 --b alphabeta:time=0.5`` by default).

The pure-Python MCTS player and endgame solver of hexgames 0.1 were measured against
these side by side before their removal; those figures are in the issue 10 note.

Usage::

    .venv/bin/python benchmarks/bench_mcts.py [speed] [solver] [endgame] [match]
        [--seconds 1] [--rounds 3] [--positions 5] [--endgames 20] [--endgame-limit 10]
        [--game andantino] [--a SPEC] [--b SPEC] [--games 40] [--opening-plies N]
        [--jobs 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

from hexgames import abande, andantino
from hexgames.arena import format_elo, run_match
from hexgames.engine.abande_solver import SolveLimitError, solve
from hexgames.engine.base import Limit
from hexgames.engine.mcts import MCTSPlayer

MODULES: dict[str, Any] = {"andantino": andantino, "abande": abande}

# Option sets measured by ``speed`` (keywords of MCTSPlayer).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("default (GRAVE, solver)", {}),
    ("default, AMAF tables from 8 simulations", {"amaf_start": 8}),
    ("GRAVE, solver, decisive playouts", {"decisive": True}),
    ("UCT, solver", {"rave": False}),
    ("plain UCT (no GRAVE, no solver)", {"rave": False, "solver": False}),
]

FORCED: list[tuple[str, str, str]] = [
    ("Andantino line in one", "andantino",
     "andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w"),
    ("Andantino trap in one", "andantino",
     "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"),
    ("Andantino win in three", "andantino",
     "andantino w=1,-2;1,-1;0,0;2,0;-1,1;0,1;0,2 r=2,-2;3,-2;2,-1;1,0;1,1;-1,2;-1,3 "
     "turn=w hands=w18,r18"),
    ("Andantino loss in two", "andantino",
     "andantino w=0,0;1,0;2,-1;4,0 r=0,1;1,1;2,1;3,1 turn=w"),
    ("Abande pass that wins", "abande",
     "abande b2=W b3=WWB c2=BW c3=WB c4=B c6=W d1=B d2=B d6=BW d7=B e1=WB e2=BBW e3=BW "
     "e4=BW e6=B f2=W f3=WB f4=W f5=WBW g1=W g2=BW g4=B turn=w hands=b0,w0 passes=1"),
]

def wins_at_once(board: Any) -> bool:
    me = board.turn
    for move in board.legal_moves:
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if outcome is not None and outcome.winner == me:
            return True
    return False


def could_win_at_once(board: Any) -> bool:
    """Whether either side could win at once were it to move (the opponent's chance is
    tried on the Andantino position with the other side to move)."""
    if wins_at_once(board):
        return True
    if not isinstance(board, andantino.Board):
        return False
    other = andantino.Board(board.position().replace(
        "turn=" + "wr"[board.turn], "turn=" + "rw"[board.turn]), board.rules)
    return wins_at_once(other)


def middle_game(game: str, seed: int, plies: int) -> Any:
    """A quiet position after ``plies`` seeded random plies: not over, neither side
    could win at once (were it to move), and a search of 1,500 simulations proves
    nothing, so the timed searches do not stop early on a proof."""
    module = MODULES[game]
    attempt = 0
    while True:
        rng = random.Random(seed * 7919 + attempt)
        attempt += 1
        board = module.Board()
        for _ in range(plies):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if board.is_game_over() or could_win_at_once(board):
            continue
        probe = MCTSPlayer(seed).play(board, Limit(nodes=1500)).info
        if probe.mate is None and probe.nodes == 1500:
            return board


def positions(game: str, count: int, seed: int) -> list[Any]:
    low, high = (10, 20) if game == "andantino" else (20, 40)
    return [middle_game(game, seed + i, low + (high - low) * i // max(count - 1, 1))
            for i in range(count)]


def rate_of(board: Any, seconds: float, seed: int,
            options: dict[str, Any]) -> tuple[float, float, int]:
    """Simulations per second of one search (of wall-clock time and of this thread's
    CPU time, which the native search runs in too), and its tree depth."""
    cpu = time.thread_time()
    info = MCTSPlayer(seed, **options).play(board, Limit(time=seconds)).info
    cpu = time.thread_time() - cpu
    return info.nodes / info.time, info.nodes / max(cpu, 1e-9), info.depth


def speed(args: argparse.Namespace) -> None:
    print(f"Simulations per second, one search of {args.seconds:g} s per position and "
          f"option set, {args.rounds} rounds, {args.positions} middle-game positions per "
          "game (medians over all searches; per CPU second: of this thread's CPU time, "
          "meaningful on a shared machine):")
    for game in args.game or list(MODULES):
        boards = positions(game, args.positions, args.seed)
        print(f"{game}: plies {', '.join(str(b.ply()) for b in boards)}")
        configs = list(CONFIGS)
        if game == "abande":
            # 0 plays out (None is the default cut-off)
            configs.append(("default, playouts not cut off", {"abande_cutoff": 0}))
        for name, options in configs:
            rates: list[float] = []
            cpu_rates: list[float] = []
            depths: list[int] = []
            for r in range(args.rounds):
                for board in boards:
                    rate, cpu_rate, depth = rate_of(board, args.seconds, args.seed + r,
                                                    options)
                    rates.append(rate)
                    cpu_rates.append(cpu_rate)
                    depths.append(depth)
            print(f"  {name:40} {statistics.median(rates):9,.0f}/s "
                  f"({statistics.median(cpu_rates):9,.0f} per CPU s, worst "
                  f"{min(rates):9,.0f}, depth {statistics.median(depths):.0f})")


def solver(args: argparse.Namespace) -> None:
    print("MCTS-Solver on positions with a forced result (limit 20 s or 100,000 "
          "simulations):")
    for name, game, text in FORCED:
        board = MODULES[game].Board(text)
        start = time.perf_counter()
        result = MCTSPlayer(args.seed).play(board, Limit(time=20, nodes=100_000))
        seconds = time.perf_counter() - start
        info = result.info
        print(f"  {name:24} move {result.move.notation():7} mate {info.mate}  score "
              f"{info.score:.2f}  simulations {info.nodes:,}  {seconds:.4f} s")


def endgames(count: int, seed: int, entry_bias: float = 0.0) -> list[abande.Board]:
    """Endgames (both hands just emptied) from seeded random play; with ``entry_bias``
    an entry is chosen with that probability whenever one is legal, so fewer captures
    happen before the endgame and it starts with more, smaller stacks."""
    boards: list[abande.Board] = []
    while len(boards) < count:
        rng = random.Random(seed)
        seed += 1
        board = abande.Board()
        while any(board.hands) and not board.is_game_over():
            moves = board.legal_moves
            entries = [m for m in moves if m.is_entry]
            if entries and rng.random() < entry_bias:
                board.push(rng.choice(entries))
            else:
                board.push(rng.choice(moves))
        if not board.is_game_over():
            boards.append(board)
    return boards


def timed_solve(board: abande.Board, exact: bool, limit: float) -> tuple[float, int] | None:
    """(seconds, positions) of one solve, or ``None`` when ``limit`` seconds ran out."""
    start = time.perf_counter()
    try:
        result = solve(board, exact_score=exact, time_limit=limit)
    except SolveLimitError:
        return None
    return time.perf_counter() - start, result.nodes


def endgame(args: argparse.Namespace) -> None:
    for bias, count in ((0.0, args.endgames), (0.6, args.endgames // 2),
                        (0.9, args.endgames // 4)):
        boards = endgames(count, args.seed, bias)
        how = "uniformly random play" if not bias else f"random play entering {bias:.0%}"
        stacks = [len(b.stacks()) for b in boards]
        print(f"Abande endgame solver on {len(boards)} endgames from seeded {how} (both "
              f"hands empty; stacks median {statistics.median(stacks):.0f}, max "
              f"{max(stacks)}), at most {args.endgame_limit:g} s each:")
        for exact in (True, False):
            label = "exact score" if exact else "result only"
            found = [timed_solve(board, exact, args.endgame_limit) for board in boards]
            done = [r for r in found if r is not None]
            line = f"  {label}: solved {len(done)}/{len(boards)}"
            if done:
                times = [t for t, _ in done]
                nodes = [n for _, n in done]
                line += (f"; time median {statistics.median(times):.4f} s, max "
                         f"{max(times):.3f} s; positions median "
                         f"{statistics.median(nodes):,.0f}, max {max(nodes):,}; "
                         f"{sum(nodes) / max(sum(times), 1e-9):,.0f} positions/s")
            print(line)


def match(args: argparse.Namespace) -> None:
    for game in args.game or list(MODULES):
        plies = args.opening_plies if args.opening_plies is not None else (
            4 if game == "andantino" else 6)
        start = time.perf_counter()
        result = run_match(game, args.a, args.b, games=args.games, jobs=args.jobs,
                           seed=args.seed, opening_plies=plies)
        scores = [r.score_a for r in result.results]
        share = result.score
        margin = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / len(scores))
        first = [r.score_a for r in result.results if r.first == 0]
        second = [r.score_a for r in result.results if r.first == 1]
        estimate = result.elo()
        elo = "n/a" if estimate is None else format_elo(estimate)
        print(f"{game}: A [{args.a}] scores {sum(scores):g}/{len(scores)} = {share:.1%} "
              f"+- {margin:.1%} against B [{args.b}] (W {result.wins} D {result.draws} "
              f"L {result.losses}; as first {statistics.mean(first):.0%}, as second "
              f"{statistics.mean(second):.0%}; Elo {elo}; {opening_text(plies)}, seed "
              f"{result.seed}, {time.perf_counter() - start:.0f} s)")


def opening_text(plies: int) -> str:
    return f"{plies} random opening plies"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("parts", nargs="*", default=["speed", "solver", "endgame"],
                        help="speed, solver, endgame and/or match (default: all but match)")
    parser.add_argument("--game", choices=list(MODULES), action="append")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--endgames", type=int, default=20)
    parser.add_argument("--endgame-limit", type=float, default=10.0)
    parser.add_argument("--a", default="mcts:time=0.5", help="player spec A (match)")
    parser.add_argument("--b", default="alphabeta:time=0.5", help="player spec B (match)")
    parser.add_argument("--games", type=int, default=40, help="games a game (match)")
    parser.add_argument("--opening-plies", type=int, default=None,
                        help="random opening plies (default 4 Andantino, 6 Abande)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for part in args.parts:
        {"speed": speed, "solver": solver, "endgame": endgame, "match": match}[part](args)


if __name__ == "__main__":
    main()
