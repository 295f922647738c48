"""Speed and strength of the native MCTS player against the legacy Python one, and the
native Abande endgame solver against the legacy solver.

Prints figures; it is not a test. Parts, each selectable:

- ``speed``: simulations per second of :class:`hexgames.engine.mcts.MCTSPlayer` (native)
  and :class:`hexgames.engine.legacy.mcts.MCTSPlayer` (Python) on the same middle-game
  positions (seeded uniformly random play of 10 to 20 plies in Andantino, 20 to 40 in
  Abande, where neither side can win at once and 1,500 simulations prove nothing), one
  search of ``--seconds`` per position and player, in ``--rounds`` interleaved rounds
  (the order native/legacy alternates); the medians over every search are printed, per
  second of wall-clock time and of the thread's CPU time. The target is 200,000
  simulations a second in Andantino, one core. (The native default starts AMAF tables
  at 50 simulations, the legacy player at 8: the second row compares like with like.)
- ``solver``: MCTS-Solver on positions with a forced result (a line in one, a trap in
  one, a win in three, a loss in two, an Abande pass that wins), both players: move,
  proof, simulations and time.
- ``endgame``: the exact Abande endgame solver, native and legacy, on the same endgames
  from seeded random play (until both hands are empty): solved, time and positions per
  endgame, exact score and result only, and the median speed-up per endgame.
- ``match``: two player specs against each other with
  :func:`hexgames.arena.run_match` (colour-swapped pairs from seeded random openings),
  with the score, its 95% interval, the Elo difference and the score as first and as
  second player (``--a mcts:time=0.5 --b py-mcts:time=0.5`` by default).

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
from collections.abc import Callable
from typing import Any

from hexgames import abande, andantino
from hexgames.arena import format_elo, run_match
from hexgames.engine.abande_solver import SolveLimitError, solve
from hexgames.engine.base import Limit, Player
from hexgames.engine.legacy import abande_solver as legacy_solver
from hexgames.engine.legacy import mcts as legacy_mcts
from hexgames.engine.mcts import MCTSPlayer

MODULES: dict[str, Any] = {"andantino": andantino, "abande": abande}

# Option sets measured by ``speed`` (the keywords of both players).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("default (GRAVE, solver)", {}),
    # The legacy player has no amaf_start: it always starts at 8.
    ("default, native AMAF from 8 simulations", {"amaf_start": 8}),
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

PlayerFactory = Callable[..., Player]
PLAYERS: list[tuple[str, PlayerFactory]] = [("native", MCTSPlayer),
                                            ("legacy", legacy_mcts.MCTSPlayer)]


def wins_at_once(board: Any) -> bool:
    me = board.turn
    for move in board.legal_moves:
        board.push(move)
        outcome = board.outcome()
        board.pop()
        if outcome is not None and outcome.winner == me:
            return True
    return False


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
        if board.is_game_over() or wins_at_once(board):
            continue
        if game == "andantino":
            other = andantino.Board(board.position().replace(
                "turn=" + "wr"[board.turn], "turn=" + "rw"[board.turn]))
            if wins_at_once(other):
                continue
        probe = MCTSPlayer(seed).play(board, Limit(nodes=1500)).info
        if probe.mate is None and probe.nodes == 1500:
            return board


def positions(game: str, count: int, seed: int) -> list[Any]:
    low, high = (10, 20) if game == "andantino" else (20, 40)
    return [middle_game(game, seed + i, low + (high - low) * i // max(count - 1, 1))
            for i in range(count)]


def rate_of(factory: PlayerFactory, board: Any, seconds: float, seed: int,
            options: dict[str, Any]) -> tuple[float, float, int]:
    """Simulations per second of one search (of wall-clock time and of this thread's
    CPU time, which the native search runs in too), and its tree depth."""
    if factory is legacy_mcts.MCTSPlayer:
        options = {k: v for k, v in options.items() if k != "amaf_start"}
    cpu = time.thread_time()
    info = factory(seed, **options).play(board, Limit(time=seconds)).info
    cpu = time.thread_time() - cpu
    return info.nodes / info.time, info.nodes / max(cpu, 1e-9), info.depth


def speed(args: argparse.Namespace) -> None:
    print(f"Simulations per second, one search of {args.seconds:g} s per position and "
          f"player, {args.rounds} interleaved rounds, {args.positions} middle-game "
          "positions per game (medians over all searches; per CPU second: of this "
          "thread's CPU time, meaningful on a shared machine):")
    for game in args.game or list(MODULES):
        boards = positions(game, args.positions, args.seed)
        print(f"{game}: plies {', '.join(str(b.ply()) for b in boards)}")
        configs = list(CONFIGS)
        if game == "abande":
            configs.append(("default, playouts not cut off", {"abande_cutoff": None}))
        for name, options in configs:
            rates: dict[str, list[float]] = {"native": [], "legacy": []}
            cpu_rates: dict[str, list[float]] = {"native": [], "legacy": []}
            depths: dict[str, list[int]] = {"native": [], "legacy": []}
            for r in range(args.rounds):
                for i, board in enumerate(boards):
                    order = PLAYERS if (r + i) % 2 == 0 else PLAYERS[::-1]
                    for label, factory in order:
                        rate, cpu_rate, depth = rate_of(factory, board, args.seconds,
                                                        args.seed + r, options)
                        rates[label].append(rate)
                        cpu_rates[label].append(cpu_rate)
                        depths[label].append(depth)
            n, p = statistics.median(rates["native"]), statistics.median(rates["legacy"])
            nc, pc = (statistics.median(cpu_rates[k]) for k in ("native", "legacy"))
            print(f"  {name:40} native {n:9,.0f}/s ({nc:9,.0f} per CPU s, worst "
                  f"{min(rates['native']):9,.0f}, depth "
                  f"{statistics.median(depths['native']):.0f})  legacy {p:7,.0f}/s "
                  f"({pc:7,.0f} per CPU s, depth {statistics.median(depths['legacy']):.0f})"
                  f"  x{n / p:,.0f}")


def solver(args: argparse.Namespace) -> None:
    print("MCTS-Solver on positions with a forced result (limit 20 s or 100,000 "
          "simulations):")
    for name, game, text in FORCED:
        for label, factory in PLAYERS:
            board = MODULES[game].Board(text)
            start = time.perf_counter()
            result = factory(args.seed).play(board, Limit(time=20, nodes=100_000))
            seconds = time.perf_counter() - start
            info = result.info
            print(f"  {name:24} {label:6} move {result.move.notation():7} mate "
                  f"{info.mate}  score {info.score:.2f}  simulations {info.nodes:,}  "
                  f"{seconds:.4f} s")


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


def timed_solve(fn: Callable[..., Any], board: abande.Board, exact: bool,
                limit: float, errors: tuple[type[Exception], ...]) -> tuple[float, int] | None:
    start = time.perf_counter()
    try:
        result = fn(board, exact_score=exact, time_limit=limit)
    except errors:
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
            runs: dict[str, list[tuple[float, int] | None]] = {"native": [], "legacy": []}
            for i, board in enumerate(boards):
                order = [("native", solve, (SolveLimitError,)),
                         ("legacy", legacy_solver.solve, (legacy_solver.SolveLimitError,))]
                if i % 2:
                    order.reverse()
                for name, fn, errors in order:
                    runs[name].append(timed_solve(fn, board, exact, args.endgame_limit,
                                                  errors))
            for name, found in runs.items():
                done = [r for r in found if r is not None]
                line = f"  {label}, {name}: solved {len(done)}/{len(boards)}"
                if done:
                    times = [t for t, _ in done]
                    nodes = [n for _, n in done]
                    line += (f"; time median {statistics.median(times):.4f} s, max "
                             f"{max(times):.3f} s; positions median "
                             f"{statistics.median(nodes):,.0f}, max {max(nodes):,}; "
                             f"{sum(nodes) / max(sum(times), 1e-9):,.0f} positions/s")
                print(line)
            both = [(n[0], p[0]) for n, p in zip(runs["native"], runs["legacy"], strict=True)
                    if n is not None and p is not None]
            if both:
                ups = [p / max(n, 1e-9) for n, p in both]
                print(f"  {label}: speed-up on the {len(both)} endgames both solved: median "
                      f"x{statistics.median(ups):,.0f} (min x{min(ups):,.0f})")


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
    parser.add_argument("--b", default="py-mcts:time=0.5", help="player spec B (match)")
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
