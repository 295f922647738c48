"""A learned evaluation against the hand-written one at equal time a move.

``sprt`` plays colour-swapped pairs from random 4-ply openings (the arena's
:func:`hexgames.arena.run_match` with a :class:`~hexgames.arena.sprt.Sprt`: elo0 0, elo1
10, alpha = beta = 0.05, pentanomial) of ``alphabeta:eval=WEIGHTS`` against
``alphabeta:eval=hand`` in ``--game`` (Abande by default; Andantino with ``--rules
single_adjacency=on`` for the balance variant) until the test decides or ``--max-
games``; it prints the state (games, W/D/L, LLR and its bounds, Elo with its 95%
interval) every ``--every`` pairs and at the end, so a run in the background can be read
as it goes.

``curve`` plays a fixed match (``--games``, same seed for each) for each weights file
given (one per training budget, as ``tools/train_eval.py --fraction`` writes them, or
``learned``: the shipped ones) and prints the Elo of each: the compute-against-strength
curve.

MCTS's playout cut-off scored by the learned evaluation (docs/evaluation.md, "MCTS's
cut-off"): ``sprt --player SPEC --against SPEC`` runs the same test between any two
player specs (``mcts:eval=learned,andantino_cutoff=4`` against ``mcts:eval=score``, the
MCTS of before), and ``probe SPEC ... --against SPEC`` plays a fixed match of
``--games`` for each spec given (the quick look at cut-off lengths before the test).
Every run ends with the CPU time this process and its workers used.

Prints figures; it is not a test. Usage::

    .venv/bin/python benchmarks/bench_learned_eval.py sprt [--weights learned]
        [--game abande] [--rules KEY=VALUE] [--time 0.05] [--max-games 4000]
        [--jobs 2] [--seed 1]
    .venv/bin/python benchmarks/bench_learned_eval.py curve W1.json W2.json ...
        [--game abande] [--rules KEY=VALUE] [--games 100] [--time 0.05] [--jobs 2]
        [--seed 2]
    .venv/bin/python benchmarks/bench_learned_eval.py sprt --player SPEC --against SPEC
        [--game ...] [--time 0.1] [--max-games N] [--jobs 1]
    .venv/bin/python benchmarks/bench_learned_eval.py probe SPEC1 SPEC2 ... --against SPEC
        [--games 20] [--game ...] [--time 0.1] [--jobs 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from typing import Any

from hexgames.arena import format_elo, run_match
from hexgames.arena.sprt import Sprt
from hexgames.engine.base import Limit

#: The hand-written evaluation's player.
HAND = "alphabeta:eval=hand"


def _cpu_seconds() -> float:
    """CPU seconds of this process and its finished workers (user and system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def _state(match: Any, sprt: Sprt | None, started: float) -> str:
    line = (f"{match.played} games, A's W/D/L {match.wins}/{match.draws}/"
            f"{match.losses}, pentanomial {list(match.tally.pentanomial)}, "
            f"Elo {format_elo(match.elo_pairs() or match.elo())}")
    if sprt is not None:
        line += (f", LLR {sprt.llr():+.3f} (bounds {sprt.lower:+.3f}, {sprt.upper:+.3f}), "
                 f"verdict {sprt.verdict() or 'none yet'}")
    return line + (f", {time.monotonic() - started:.0f} s, "
                   f"{_cpu_seconds():.0f} CPU-s so far")


def sprt_run(args: argparse.Namespace) -> None:
    sprt = Sprt(0.0, 10.0, 0.05, 0.05)
    started = time.monotonic()
    every = args.every

    def progress(result: Any, done: int, total: int) -> None:
        if done % (2 * every) == 0 and sprt.pairs:
            print(f"  pairs {sprt.pairs}: penta {list(sprt.pentanomial)}, "
                  f"LLR {sprt.llr():+.3f}, Elo {format_elo(sprt.elo())}", flush=True)

    spec = args.player or f"alphabeta:eval={args.weights}"
    print(f"SPRT elo0=0 elo1=10 alpha=beta=0.05, {args.game} {args.rules}: {spec} "
          f"against {args.against}, {args.time} s a move, seed {args.seed}, at most "
          f"{args.max_games} games", flush=True)
    match = run_match(args.game, spec, args.against, games=args.max_games, rules=args.rules,
                      limit=Limit(time=args.time), jobs=args.jobs, seed=args.seed,
                      opening_plies=4, sprt=sprt, progress=progress,
                      keep_results=False, stop_on_interrupt=True)
    print("end: " + _state(match, sprt, started), flush=True)


def curve_run(args: argparse.Namespace) -> None:
    for weights in args.weights_files:
        started = time.monotonic()
        match = run_match(args.game, f"alphabeta:eval={weights}", HAND,
                          games=args.games, rules=args.rules,
                          limit=Limit(time=args.time), jobs=args.jobs,
                          seed=args.seed, opening_plies=4, keep_results=False,
                          stop_on_interrupt=True)
        print(f"{weights}: " + _state(match, None, started), flush=True)


def probe_run(args: argparse.Namespace) -> None:
    for spec in args.specs:
        started = time.monotonic()
        match = run_match(args.game, spec, args.against, games=args.games,
                          rules=args.rules, limit=Limit(time=args.time), jobs=args.jobs,
                          seed=args.seed, opening_plies=4, keep_results=False,
                          stop_on_interrupt=True)
        print(f"{spec} against {args.against}: " + _state(match, None, started),
              flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("sprt")
    s.add_argument("--weights", default="learned")
    s.add_argument("--player", help="the first player's spec (instead of --weights)")
    s.add_argument("--against", default=HAND, help="the second player's spec")
    s.add_argument("--max-games", type=int, default=4000)
    s.add_argument("--every", type=int, default=20, help="pairs between reports")
    c = sub.add_parser("curve")
    c.add_argument("weights_files", nargs="+")
    c.add_argument("--games", type=int, default=100)
    b = sub.add_parser("probe")
    b.add_argument("specs", nargs="+")
    b.add_argument("--against", required=True)
    b.add_argument("--games", type=int, default=20)
    for p in (s, c, b):
        p.add_argument("--game", choices=("abande", "andantino"), default="abande")
        p.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE")
        p.add_argument("--time", type=float, default=0.05, help="seconds a move")
        p.add_argument("--jobs", type=int, default=2)
        p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    {"sprt": sprt_run, "curve": curve_run, "probe": probe_run}[args.mode](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
