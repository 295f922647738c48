"""The proof-number solver (``hexgames.solver.solve``, native df-pn, issue 34) on ladders
of endgames: how far from the end of a game it settles positions within a time budget.

Prints figures; it is not a test. Each position is solved by :func:`hexgames.solver.solve`
with a fresh prover (``--tt-mb``, default 64 MB as ``hexgames solve``) and the budget as
its ``time``; the time measured is the whole solve, the independent check of the proofs
included (so a solve may end a little past its budget); ``nodes/s`` is the df-pn
searches' own rate (their nodes over their time).

- **Andantino** (one ladder per ``--tiles`` value: 25 is the standard game, 8, 10 and 12
  tiles a player end sooner): positions ``N`` placements before the end of the game (the
  two hands hold ``N`` tiles in all; the game is drawn when they are empty), reached from
  the start by the ``easy`` player (greedy with noise: it takes a win in one and blocks a
  loss in one, so the positions are not decided at once as after uniformly random play)
  seeded from ``--seed``; a game that ends before is replaced by the next seed. Rungs
  ``N`` = 4, 6, 8, ... until a rung where a position is not settled within the budget
  (that rung is still printed), or the start of the game.
- **Abande** with pieces in hand: positions reached by uniformly random play from the
  start until the two hands hold ``H`` pieces or fewer in all, for ``H`` = 0, 1, 2, ...
  until a rung where a position is not settled within the budget. The issue's figure is
  the largest ``H`` whose positions are all solved in 60 s on one core (the default
  budget).
- **The opening ladder** (issue 34's ladder): positions ``N`` plies after the standard
  start (``N`` = 30, 24, 20, 16, 12, 8, 6, 4, 2, 0), reached by two uniformly random
  plies (a random opening) and then 4-ply alpha-beta choosing among the moves within 15
  points of the best (the ``hard`` level without its solver, :data:`OPENING_PLAYER`) for
  both sides, seeded from ``--seed``; a game
  that ends before is replaced by the next seed. Rungs are tried from ``N`` = 30 down
  until a rung where no position is solved (that rung is still printed); ``N`` = 0 is
  the start itself, one position. With ``--balance`` the same under the balance
  variant (``single_adjacency``). With ``--compare`` each position is solved again
  by the plain df-pn, without the threat-space search (a row ``plain`` under each rung).
- **The standard Andantino start**, solved for ``--start-time`` seconds (60): what the
  solver settles there within that time (``unknown``: its proof took three solves, the
  hardest 535 s with a 16 GB table, ``benchmarks/runs/andantino-start``).
- **Speed** (``--only speed``, not in the default run): df-pn nodes a second on one core
  on the fixed positions of :data:`SPEED_POSITIONS` (Andantino, standard rules, 24 to 36
  placements before the end), each searched for a win of the side to move up to
  ``--speed-nodes`` node visits (300,000) with a cleared table, in ``--rounds`` rounds
  (3) that interleave the children's tests read from the node (``new``, the default)
  and the old way that tries every child (``old``: ``Prover(replies=False)``, the same
  search node for node); with ``--balance`` the same positions under the balance
  variant with Red's right used (``single=used``), where the children's tests apply
  since the right is spent. Nodes a second are over this thread's CPU time in the searches
  (``time.thread_time``; the search runs on the calling thread with the GIL released),
  so other work on the machine weighs less; a table per position gives the node count
  and the time to each proof (the median over the rounds).

For each rung: positions solved (a proven win, loss or draw) of ``--positions``; the
values found (``win/loss/draw/no-win/not-lose/unknown`` for the side to move); the median and
largest seconds and nodes; nodes per second; and the proofs' sizes (the winner's
positions listed in the proof files, both files of a draw counted). A position whose
value the search proved but whose strategy could not be written (the solver then reports
``unknown`` before 95% of the budget) is counted below its rung with the solver's note.

Usage::

    .venv/bin/python benchmarks/bench_solver.py [--seed 1] [--positions 5]
        [--budget 60] [--start-time 60] [--tiles 25 12 10 8] [--max-hands 36]
        [--tt-mb 64] [--only opening andantino abande start speed] [--balance] [--compare]
        [--quick] [--rounds 3] [--speed-nodes 300000]

``--only abande`` with the default budget answers the issue's question alone.
``--quick`` (under 2 minutes): 3 positions a rung, 2 s a position, 5 s on the start.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexgames import abande, andantino, native
from hexgames.engine import make_player
from hexgames.solver import DEFAULT_TABLE_MB, SolveResult, solve

#: The values of :func:`hexgames.solver.solve`, in the order the table prints them.
VALUES = ("win", "loss", "draw", "no-win", "not-lose", "unknown")
#: The parts of the benchmark (``--only``); all but ``speed`` run by default.
PARTS = ("opening", "andantino", "abande", "start", "speed")
#: The speed part's positions: one position string a line, ``#`` a comment.
SPEED_POSITIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "solver_speed_positions.txt")


@dataclass(frozen=True)
class Solved:
    """One position's solve: the result, and whether the budget ran out on it."""

    result: SolveResult
    timed_out: bool

    @property
    def proof_lines(self) -> int:
        return sum(len(c.strategy) for c in self.result.claims)

    @property
    def search_seconds(self) -> float:
        return sum(s.seconds for s in self.result.searches)


def andantino_position(tiles: int, left: int, seed: str) -> Any:
    """The position of a game with ``tiles`` tiles a player when the hands hold ``left``
    tiles in all, reached by the ``easy`` player (seeded from ``seed``); the next try's
    seed for a game that ends sooner."""
    rules = andantino.Rules(tiles_per_player=tiles)
    rng = random.Random(seed)
    while True:
        player = make_player("easy", seed=rng.getrandbits(63))
        board = andantino.Board(rules=rules)
        while not board.is_game_over():
            if (board.hand(0) or 0) + (board.hand(1) or 0) <= left:
                return board
            board.push(player.play(board).move)


#: The opening ladder's rungs, plies from the standard start (issue 34).
OPENING_RUNGS = (30, 24, 20, 16, 12, 8, 6, 4, 2, 0)
#: The opening ladder's player: the ``hard`` level as it was before it asked the solver.
OPENING_PLAYER = "alphabeta:rfp=0,randomness=15,depth=4"


def opening_position(plies: int, seed: str, rules: Any) -> Any:
    """The position ``plies`` plies after the start under ``rules``: two random plies,
    then :data:`OPENING_PLAYER` for both sides (seeded from ``seed``); the next try's
    seed for a game that ends sooner."""
    rng = random.Random(seed)
    while True:
        player = make_player(OPENING_PLAYER, seed=rng.getrandbits(63))
        board = andantino.Board(rules=rules)
        while not board.is_game_over():
            if len(board.move_stack) >= plies:
                return board
            if len(board.move_stack) < 2:
                board.push(rng.choice(board.legal_moves))
            else:
                board.push(player.play(board).move)


def opening_ladder(args: argparse.Namespace) -> int | None:
    """The opening ladder; the smallest ``N`` with a position solved."""
    rules = andantino.Rules(single_adjacency=args.balance)
    name = "balance variant" if args.balance else "standard"
    print(f"\nAndantino, {name}: N plies after the start (2 random, then {OPENING_PLAYER}), "
          f"{args.positions} positions a rung, {args.budget:g} s a position")
    print(HEADER)
    lowest = None
    for rung in OPENING_RUNGS:
        count = 1 if rung == 0 else args.positions
        boards = [opening_position(rung, f"{args.seed}/opening/{rung}/{i}", rules)
                  for i in range(count)]
        rows = [solve_one(b, args.budget, args.tt_mb) for b in boards]
        print_rung(f"N={rung}", rows)
        if args.compare:
            plain = [solve_one(b, args.budget, args.tt_mb, threat_space=False)
                     for b in boards]
            print_rung("plain", plain)
        if not any(r.result.proven for r in rows):
            break
        lowest = rung
    return lowest


def abande_position(hands: int, seed: str) -> Any:
    """The position of uniformly random Abande play (seeded from ``seed``) once the hands
    hold ``hands`` pieces or fewer in all; the next try's seed for a game that ends
    sooner."""
    rng = random.Random(seed)
    while True:
        board = abande.Board()
        while not board.is_game_over():
            if sum(board.hands) <= hands:
                return board
            board.push(rng.choice(board.legal_moves))


def solve_one(board: Any, budget: float, tt_mb: int, threat_space: bool = True) -> Solved:
    prover = native.Prover(tt_mb, threat_space=threat_space)
    result = solve(board, time=budget, prover=prover)
    # a search stopped by the time, or a proof whose strategy was being written (or
    # searched again) when the budget ran out: the solver then notes "not proven again
    # within the limits" as for a proof lost from the table, but near the budget
    timed_out = result.stopped or (not result.proven and result.seconds >= 0.95 * budget)
    return Solved(result, timed_out)


def _median_max(values: list[float], fmt: str) -> str:
    if not values:
        return "-"
    return f"{format(statistics.median(values), fmt)} / {format(max(values), fmt)}"


HEADER = (f"{'rung':>6} {'solved':>7} {'win/loss/draw/no-win/not-lose/unk':>33} "
          f"{'s median / max':>16} {'nodes median / max':>22} {'nodes/s':>10} "
          f"{'proof median / max':>20}")


def print_rung(label: str, rows: list[Solved]) -> None:
    """One line of the table, and a note for each position proven but not written."""
    counts: Counter[str] = Counter(str(r.result.value) for r in rows)
    solved = sum(r.result.proven for r in rows)
    values = "/".join(str(counts[v]) for v in VALUES)
    seconds = _median_max([r.result.seconds for r in rows], ".2f")
    nodes = _median_max([r.result.nodes for r in rows], ",.0f")
    search_time = sum(r.search_seconds for r in rows)
    rate = sum(r.result.nodes for r in rows) / search_time if search_time > 0 else 0.0
    proofs = _median_max([r.proof_lines for r in rows if r.result.proven], ",.0f")
    print(f"{label:>6} {solved:>3} of {len(rows):<2} {values:>33} {seconds:>16} "
          f"{nodes:>22} {rate:>10,.0f} {proofs:>20}", flush=True)
    for r in rows:
        if r.result.value == "unknown" and not r.timed_out:
            for note in r.result.notes:
                print(f"{'':>8}proven by the search, not written ({r.result.seconds:.2f} s): "
                      f"{note[:160]}", flush=True)


def andantino_ladder(tiles: int, args: argparse.Namespace) -> int | None:
    """The ladder of one tile count; the largest ``N`` whose positions were all solved."""
    total = 2 * (tiles - 1)  # placements in a game (the setup tiles are placed)
    name = "standard" if tiles == 25 else f"tiles_per_player={tiles}"
    print(f"\nAndantino, {name} ({total} placements a game): N placements before the "
          f"end, {args.positions} positions a rung, {args.budget:g} s a position")
    return climb(args, "N", range(4, total + 1, 2),
                 lambda left, seed: andantino_position(tiles, left, seed),
                 f"andantino/{tiles}")


def abande_ladder(args: argparse.Namespace) -> int | None:
    """The Abande ladder; the largest ``H`` whose positions were all solved."""
    print(f"\nAbande: pieces in hand H or fewer in all (random play), {args.positions} "
          f"positions a rung, {args.budget:g} s a position")
    return climb(args, "H", range(0, args.max_hands + 1), abande_position, "abande")


def climb(args: argparse.Namespace, letter: str, rungs: range,
          position: Callable[[int, str], Any], key: str) -> int | None:
    """Solve ``--positions`` positions of each rung in turn (``position(rung, seed)``),
    printing a row each, until a position runs out of its budget; the largest rung whose
    positions were all solved."""
    print(HEADER)
    best = None
    for rung in rungs:
        boards = [position(rung, f"{args.seed}/{key}/{rung}/{i}")
                  for i in range(args.positions)]
        rows = [solve_one(b, args.budget, args.tt_mb) for b in boards]
        print_rung(f"{letter}={rung}", rows)
        if all(r.result.proven for r in rows):
            best = rung
        if any(r.timed_out for r in rows):
            break
    return best


def start_line(args: argparse.Namespace) -> None:
    """The standard Andantino start, solved for ``--start-time`` seconds."""
    result = solve(andantino.Board(), time=args.start_time, table_mb=args.tt_mb)
    searches = "; ".join(
        f"{'not lose' if s.draw_ok else 'win'} for {'WR'[s.attacker]}: {s.verdict}, "
        f"{s.nodes:,} nodes, {s.seconds:.1f} s, table {s.table_fill:.0%}"
        for s in result.searches)
    rate = result.nodes / max(sum(s.seconds for s in result.searches), 1e-9)
    print(f"\nAndantino start, {args.start_time:g} s: {result.value} in "
          f"{result.seconds:.1f} s, {result.nodes:,} nodes ({rate:,.0f} nodes/s); "
          f"{searches}")


def speed_positions(balance: bool = False) -> list[Any]:
    """The boards of :data:`SPEED_POSITIONS`; with ``balance`` under the balance variant
    with Red's right used (the same positions, whose moves are then the standard ones)."""
    with open(SPEED_POSITIONS, encoding="utf-8") as f:
        lines = [line.strip() for line in f]
    lines = [line for line in lines if line and not line.startswith("#")]
    if balance:
        rules = andantino.Rules(single_adjacency=True)
        return [andantino.Board(f"{line} single=used", rules) for line in lines]
    return [andantino.Board(line) for line in lines]


def speed(args: argparse.Namespace) -> None:
    """The speed part: nodes a second of the new and the old children's tests,
    interleaved over the rounds, and each position's nodes and time to its verdict."""
    boards = speed_positions(args.balance)
    print(f"\ndf-pn speed: {len(boards)} positions of {os.path.basename(SPEED_POSITIONS)}"
          f"{' (the balance variant, its right used)' if args.balance else ''}, "
          f"a win of the side to move, at most {args.speed_nodes:,} nodes each, "
          f"{args.tt_mb} MB table cleared before each; {args.rounds} rounds, new and old "
          f"interleaved; nodes/s over the searches' CPU time")
    provers = {"new": native.Prover(args.tt_mb),
               "old": native.Prover(args.tt_mb, replies=False)}
    rates: dict[str, list[float]] = {"new": [], "old": []}
    # per mode and position: (verdict, nodes, CPU seconds) of each round
    runs: dict[str, list[list[tuple[str, int, float]]]] = {
        mode: [[] for _ in boards] for mode in provers}
    for round_ in range(args.rounds):
        order = ("new", "old") if round_ % 2 == 0 else ("old", "new")
        for mode in order:
            prover = provers[mode]
            nodes, seconds = 0, 0.0
            for i, board in enumerate(boards):
                prover.clear()
                state = native.state_of(board)
                started = time.thread_time()
                report = prover.prove(state, board.turn, False, max_nodes=args.speed_nodes)
                spent = time.thread_time() - started
                nodes += report["nodes"]
                seconds += spent
                runs[mode][i].append((report["verdict"], report["nodes"], spent))
            rates[mode].append(nodes / seconds if seconds > 0 else 0.0)
            print(f"round {round_ + 1} {mode}: {nodes:,} nodes in {seconds:.2f} CPU s, "
                  f"{rates[mode][-1]:,.0f} nodes/s", flush=True)
    print(f"{'position':>8} {'verdict':>10} {'nodes':>9} {'new s':>7} {'old s':>7} "
          f"{'new nodes/s':>12} {'old nodes/s':>12}")
    for i in range(len(boards)):
        new, old = runs["new"][i], runs["old"][i]
        verdict, count = new[0][0], new[0][1]
        same = all((v, n) == (verdict, count) for v, n, _ in new + old)
        new_s = statistics.median(s for _, _, s in new)
        old_s = statistics.median(s for _, _, s in old)
        print(f"{i + 1:>8} {verdict:>10} {count:>9,} {new_s:>7.3f} {old_s:>7.3f} "
              f"{count / max(new_s, 1e-9):>12,.0f} {count / max(old_s, 1e-9):>12,.0f}"
              f"{'' if same else '  (the rounds or the ways differ!)'}")
    ratios = [n / o for n, o in zip(rates["new"], rates["old"], strict=True) if o > 0]
    print(f"median nodes/s: new {statistics.median(rates['new']):,.0f}, old "
          f"{statistics.median(rates['old']):,.0f}; median ratio of a round "
          f"{statistics.median(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="the positions' seed (1)")
    parser.add_argument("--positions", type=int, default=5,
                        help="positions a rung (default 5)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds a position (default 60, the issue's figure)")
    parser.add_argument("--start-time", type=float, default=60.0,
                        help="seconds on the standard Andantino start (default 60)")
    parser.add_argument("--tiles", type=int, nargs="+", default=[25, 12, 10, 8],
                        help="Andantino tiles a player, one ladder each (25 12 10 8)")
    parser.add_argument("--max-hands", type=int, default=36,
                        help="the largest Abande hands tried (default 36, the start)")
    parser.add_argument("--tt-mb", type=int, default=DEFAULT_TABLE_MB,
                        help=f"the prover's table in MB (default {DEFAULT_TABLE_MB})")
    parser.add_argument("--only", nargs="+", choices=PARTS,
                        default=[p for p in PARTS if p != "speed"],
                        help="the parts to run (default: all but speed)")
    parser.add_argument("--balance", action="store_true",
                        help="the opening ladder under the balance variant "
                             "(single_adjacency)")
    parser.add_argument("--compare", action="store_true",
                        help="the opening ladder's positions solved again without the "
                             "threat-space search (a row 'plain' under each rung)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="speed: rounds of new and old, interleaved (default 3)")
    parser.add_argument("--speed-nodes", type=int, default=300_000,
                        help="speed: node visits a position at most (default 300,000)")
    parser.add_argument("--quick", action="store_true",
                        help="a run of under 2 minutes: --positions 3 --budget 2 "
                             "--start-time 5")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.budget, args.start_time = 3, 2.0, 5.0
    if args.positions < 1 or not args.budget > 0 or not args.start_time > 0:
        parser.error("--positions, --budget and --start-time must be above 0")
    if args.rounds < 1 or args.speed_nodes < 1:
        parser.error("--rounds and --speed-nodes must be above 0")
    started = time.perf_counter()
    print(f"df-pn solver ladder: seed {args.seed}, {args.positions} positions a rung, "
          f"{args.budget:g} s a position, {args.tt_mb} MB table; seconds are the whole "
          f"solve (proof checks included), nodes/s the searches' own rate; proof = the "
          f"winner's positions listed")
    reached: list[str] = []
    if "opening" in args.only:
        lowest = opening_ladder(args)
        reached.append(f"opening: a position solved down to N="
                       f"{lowest if lowest is not None else '-'}")
    for tiles in args.tiles if "andantino" in args.only else ():
        best = andantino_ladder(tiles, args)
        reached.append(f"Andantino {tiles} tiles: N={best if best is not None else '-'}")
    if "abande" in args.only:
        best = abande_ladder(args)
        reached.append(f"Abande: H={best if best is not None else '-'}")
    if "start" in args.only:
        start_line(args)
    if "speed" in args.only:
        speed(args)
    if reached:
        print(f"\nreached in {args.budget:g} s a position (ladders from the end: the "
              f"largest rung with every position solved): "
              f"{'; '.join(reached)}")
    print(f"total {time.perf_counter() - started:.0f} s (load average "
          f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs; the solver uses one)")


if __name__ == "__main__":
    main()
