"""Speed and strength of the MCTS player, and the Abande endgame solver's timings.

Prints figures; it is not a test. Four parts, each selectable:

- ``speed``: simulations per second of :class:`~hexgames.engine.legacy.mcts.MCTSPlayer` on fixed
  middle-game positions (seeded uniformly random play of 10 to 20 plies in Andantino,
  20 to 40 in Abande, positions where the side to move cannot win at once), one search
  of ``--seconds`` per position, for several option sets; the best and the median
  position are printed. The machine may be busy, so run it on a quiet one (the target
  is 5,000 simulations a second in Andantino, one core).
- ``solver``: MCTS-Solver on positions with a forced result (a line in one, a trap in
  one, a win in three, a loss in two, an Abande pass that wins): move, proof and time.
- ``endgame``: the exact Abande endgame solver on endgames from seeded random play
  (until both hands are empty): time and positions per endgame, exact score and result
  only, and how many endgames a time budget solves.
- ``match``: two option sets of the player against each other, colours alternating,
  from seeded random openings, at equal time or simulations per move (how the default
  options were chosen).

Usage::

    .venv/bin/python benchmarks/bench_mcts.py [speed] [solver] [endgame] [match]
        [--seconds 1] [--positions 6] [--endgames 30] [--endgame-limit 10]
        [--game andantino] [--a "rave=on"] [--b "rave=off"] [--pairs 20]
        [--time 0.2 | --nodes 1000] [--jobs 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from hexgames import abande, andantino
from hexgames.engine.base import Limit
from hexgames.engine.legacy.abande_solver import SolveLimitError, solve
from hexgames.engine.legacy.mcts import MCTSPlayer

MODULES: dict[str, Any] = {"andantino": andantino, "abande": abande}

# Option sets measured by ``speed``.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("default (GRAVE, solver)", {}),
    ("GRAVE, solver, decisive playouts", {"decisive": True}),
    ("UCT, solver", {"rave": False}),
    ("UCT, solver, decisive playouts", {"rave": False, "decisive": True}),
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


def speed(args: argparse.Namespace) -> None:
    print(f"Simulations per second, one search of {args.seconds:g} s per position "
          f"({args.positions} middle-game positions per game):")
    for game in args.game or list(MODULES):
        boards = positions(game, args.positions, args.seed)
        print(f"{game}: plies {', '.join(str(b.ply()) for b in boards)}")
        for name, options in CONFIGS:
            rates, depths = [], []
            for board in boards:
                result = MCTSPlayer(args.seed, **options).play(board, Limit(time=args.seconds))
                rates.append(result.info.nps)
                depths.append(result.info.depth)
            print(f"  {name:38} median {statistics.median(rates):7,.0f}/s  best "
                  f"{max(rates):7,.0f}/s  worst {min(rates):7,.0f}/s  "
                  f"tree depth {statistics.median(depths):.0f}")
        if game == "abande":  # the default cuts playouts off after 20 plies
            for cutoff in (None, 10, 40):
                rates = [MCTSPlayer(args.seed, abande_cutoff=cutoff).play(
                    board, Limit(time=args.seconds)).info.nps for board in boards]
                label = f"default but cut-off {cutoff or 'none (full playouts)'}"
                print(f"  {label:38} median {statistics.median(rates):7,.0f}/s  best "
                      f"{max(rates):7,.0f}/s  worst {min(rates):7,.0f}/s")


def solver(args: argparse.Namespace) -> None:
    print("MCTS-Solver on positions with a forced result (limit 20 s or 100,000 "
          "simulations):")
    for name, game, text in FORCED:
        board = MODULES[game].Board(text)
        start = time.perf_counter()
        result = MCTSPlayer(args.seed).play(board, Limit(time=20, nodes=100_000))
        seconds = time.perf_counter() - start
        info = result.info
        print(f"  {name:24} move {result.move.notation():7} mate {info.mate}  "
              f"score {info.score:.2f}  simulations {info.nodes:,}  {seconds:.3f} s")


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


def endgame(args: argparse.Namespace) -> None:
    for bias, count in ((0.0, args.endgames), (0.6, args.endgames // 3),
                        (0.9, args.endgames // 3)):
        boards = endgames(count, args.seed, bias)
        how = "uniformly random play" if not bias else f"random play entering {bias:.0%}"
        stacks = [len(b.stacks()) for b in boards]
        print(f"Abande endgame solver on {len(boards)} endgames from seeded {how} (both "
              f"hands empty; stacks median {statistics.median(stacks):.0f}, max "
              f"{max(stacks)}), at most {args.endgame_limit:g} s each:")
        for exact in (True, False):
            times, nodes = [], []
            unsolved = 0
            for board in boards:
                start = time.perf_counter()
                try:
                    result = solve(board, exact_score=exact, time_limit=args.endgame_limit)
                except SolveLimitError:
                    unsolved += 1
                    continue
                times.append(time.perf_counter() - start)
                nodes.append(result.nodes)
            label = "exact score" if exact else "result only"
            line = f"  {label}: solved {len(times)}/{len(boards)}"
            if times:
                line += (f"; time median {statistics.median(times):.3f} s, mean "
                         f"{statistics.mean(times):.3f} s, max {max(times):.3f} s; positions "
                         f"median {statistics.median(nodes):,.0f}, max {max(nodes):,}; "
                         f"{sum(nodes) / max(sum(times), 1e-9):,.0f} positions/s")
            print(line)


def parse_options(text: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for word in text.split():
        key, _, value = word.partition("=")
        if value in ("on", "off"):
            options[key] = value == "on"
        elif value == "none":
            options[key] = None
        else:
            options[key] = float(value) if "." in value or "e" in value else int(value)
    return options


def _match_game(task: tuple[str, str, str, int, bool, Limit]) -> float:
    game, a, b, seed, a_first, limit = task
    rng = random.Random(seed)
    board = MODULES[game].Board()
    for _ in range(4 if game == "andantino" else 6):
        board.push(rng.choice(board.legal_moves))
    one = MCTSPlayer(seed * 2 + 1, **parse_options(a))
    two = MCTSPlayer(seed * 2 + 2, **parse_options(b))
    players = (one, two) if a_first else (two, one)
    while not board.is_game_over():
        board.push(players[board.turn].play(board, limit).move)
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == (0 if a_first else 1) else 0.0


def match(args: argparse.Namespace) -> None:
    game = (args.game or ["andantino"])[0]
    limit = Limit(nodes=args.nodes) if args.nodes else Limit(time=args.time)
    tasks = [(game, args.a, args.b, args.seed * 10_000 + i, first, limit)
             for i in range(args.pairs) for first in (True, False)]
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        scores = pool.map(_match_game, tasks)
    share = sum(scores) / len(scores)
    margin = 1.96 * math.sqrt(max(share * (1 - share), 1e-9) / len(scores))
    budget = f"{args.nodes} simulations" if args.nodes else f"{args.time:g} s"
    print(f"{game}, {budget} a move: A [{args.a}] scores {sum(scores):g}/{len(scores)} = "
          f"{share:.1%} +- {margin:.1%} against B [{args.b}] "
          f"({time.perf_counter() - start:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("parts", nargs="*", default=["speed", "solver", "endgame"],
                        help="speed, solver, endgame and/or match (default: all but match)")
    parser.add_argument("--game", choices=list(MODULES), action="append")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--endgames", type=int, default=30)
    parser.add_argument("--endgame-limit", type=float, default=10.0)
    parser.add_argument("--a", default="", help="options of player A, e.g. 'rave=off'")
    parser.add_argument("--b", default="rave=off", help="options of player B")
    parser.add_argument("--pairs", type=int, default=20, help="colour-swapped game pairs")
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move (match)")
    parser.add_argument("--nodes", type=int, default=0, help="simulations a move (match)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for part in args.parts:
        {"speed": speed, "solver": solver, "endgame": endgame, "match": match}[part](args)


if __name__ == "__main__":
    main()
