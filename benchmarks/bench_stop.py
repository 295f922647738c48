"""How soon every search stops (issue 32): the overshoot of a time limit and the latency
of ``stop()`` from another thread, per player and position, median and max over rounds.

Prints figures; it is not a test (``tests/test_engine_stop.py`` holds the bounds). The
positions are the largest the rules allow (``tests/big_positions.py``): extended-play
Andantino with 500 tiles a side, both sides relocating (some 500,000 moves at every
node) in the native core's dense window (``relocating``) and on its hash map
(``spread``), White placing while Red relocates (``placing``), extended play with four
tiles a side that never ends (``endless``: MCTS playouts reach their cap), and the
largest Abande endgame. Each round is a fresh native player (``_native.Greedy``,
``Mcts``, ``AlphaBeta`` with the ``alphabeta`` player's options, ``AbandeSolver``) on a
native state:

- *overshoot*: the milliseconds a search given ``--time`` (0.3 s) took beyond it
  (negative: it ended before; "ended before" when it finished, say solved, 0.1 s
  early);
- *stop*: the milliseconds from ``stop()`` (called from another thread ``--stop-at``,
  0.2 s, into a search without a time limit, alpha-beta's 60 s) to the search's return
  ("ended before" when it finished first: greedy may examine every move by then).

With ``--players`` the same through the Player interface the web app uses
(``make_player(spec).play(board, Limit(...))``), Python's board copies and move parsing
included.

Usage::

    .venv/bin/python benchmarks/bench_stop.py [--rounds 5] [--time 0.3] [--stop-at 0.2]
        [--only greedy mcts alphabeta solver] [--players]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexgames import _native, andantino, native
from hexgames.engine import Limit, make_player

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from big_positions import POSITIONS, RULES, abande_endgame

#: Four tiles a side can make neither a line nor a trap: with this relocation limit the
#: game goes on until a position repeats (MCTS playouts end at MAX_PLAYOUT_PLIES).
ENDLESS = ("andantino w=0,0;2,0;1,1;3,1 r=1,0;3,0;2,1;0,1 turn=w hands=w0,r0",
           ["extended=on", "tiles_per_player=4", "extended_move_limit=999999999"])

Search = Callable[[Any, float | None], Any]


def native_players(game: str) -> dict[str, Callable[[], tuple[Any, Search]]]:
    """Name -> a maker of (a fresh native player, its search of a state for at most
    `time` seconds, None: until stopped)."""
    def greedy() -> tuple[Any, Search]:
        p = _native.Greedy(1, 0.0)
        return p, lambda state, t: p.choose(state, time=t)

    def mcts() -> tuple[Any, Search]:
        p = _native.Mcts(game, seed=1)
        return p, lambda state, t: p.search(state, time=t)

    def alphabeta() -> tuple[Any, Search]:
        p = make_player("alphabeta", 1).engine(game)  # (without a limit: 1 s)
        return p, lambda state, t: p.search(state, time=60.0 if t is None else t)

    def solver() -> tuple[Any, Search]:
        p = _native.AbandeSolver(64)
        return p, lambda state, t: p.solve(state, time=t)

    players = {"greedy": greedy, "mcts": mcts, "alphabeta": alphabeta}
    if game == "abande":
        players["solver"] = solver
    return players


def measure(run: Callable[[float | None], Any], stopper: Callable[[], None], limit: float,
            stop_at: float) -> tuple[float, float]:
    """(overshoot of `limit`, latency of a stop at `stop_at`), in seconds."""
    start = time.perf_counter()
    run(limit)
    overshoot = time.perf_counter() - start - limit
    called: list[float] = []

    def stop() -> None:
        called.append(time.perf_counter())
        stopper()

    timer = threading.Timer(stop_at, stop)
    timer.start()
    run(None)
    latency = time.perf_counter() - called[0] if called else float("nan")
    timer.cancel()
    return overshoot, latency


def figures(values: list[float]) -> str:
    """Median and max in milliseconds, or why there are none."""
    if not values:
        return "(ended before)"
    ms = [v * 1000 for v in values]
    return f"median {statistics.median(ms):7.1f} max {max(ms):7.1f}"


def report(name: str, where: str, samples: list[tuple[float, float]]) -> None:
    over = [s[0] for s in samples if s[0] >= -0.1]
    late = [s[1] for s in samples if s[1] == s[1]]  # NaN: the search ended before stop()
    print(f"{name:<10} {where:<11} overshoot ms: {figures(over):<26} "
          f"stop ms: {figures(late)}", flush=True)


def states() -> dict[str, tuple[str, Any]]:
    found: dict[str, tuple[str, Any]] = {
        name: ("andantino", _native.AndantinoState(text, RULES.options()))
        for name, text in POSITIONS.items()}
    found["endless"] = ("andantino", _native.AndantinoState(*ENDLESS))
    found["abande"] = ("abande", native.state_of(abande_endgame()))
    return found


def native_rounds(args: argparse.Namespace) -> None:
    for where, (game, state) in states().items():
        for name, make in native_players(game).items():
            if args.only and name not in args.only:
                continue
            samples = []
            for _ in range(args.rounds):
                player, search = make()

                def run(t: float | None, s: Search = search, on: Any = state) -> Any:
                    return s(on, t)

                samples.append(measure(run, player.stop, args.time, args.stop_at))
            report(name, where, samples)


def player_rounds(args: argparse.Namespace) -> None:
    boards = {name: andantino.Board(text, RULES) for name, text in POSITIONS.items()}
    boards["abande"] = abande_endgame()
    for where, board in boards.items():  # (a Board of 500 tiles a side takes a second)
        for spec in ("greedy", "easy", "mcts", "alphabeta", "hard", "expert"):
            samples = []
            for _ in range(args.rounds):
                player = make_player(spec, 1)

                def run(t: float | None, p: Any = player, on: Any = board) -> Any:
                    return p.play(on, Limit(time=60.0 if t is None else t))

                samples.append(measure(run, player.stop, args.time, args.stop_at))
            report(spec, where, samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--time", type=float, default=0.3, help="the time limit (s)")
    parser.add_argument("--stop-at", type=float, default=0.2,
                        help="when stop() is called (s)")
    parser.add_argument("--only", nargs="*", help="native players to measure")
    parser.add_argument("--players", action="store_true",
                        help="through make_player(...).play() instead")
    args = parser.parse_args()
    print(f"time limit {args.time} s, stop() at {args.stop_at} s, {args.rounds} rounds; "
          f"overshoot = ms past the limit, stop = ms from stop() to the return")
    if args.players:
        player_rounds(args)
    else:
        native_rounds(args)


if __name__ == "__main__":
    main()
