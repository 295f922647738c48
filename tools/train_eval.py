"""Fit a learned evaluation (:mod:`hexgames.engine.learned`; ``--game abande``, the
default, or ``andantino``) from scratch by Texel's method (Peter Österlund, "Texel's
tuning method", 2014), and write its weights file.

1. Data: self-play of the alpha-beta player with the hand-written evaluation through the
   arena (``hexgames selfplay``: ``run_selfplay`` with samples; ``--executor ray
   --address ...`` plays the games on a Ray cluster), or samples already played
   (``--data DIR``, one or more directories holding ``samples.parquet``).
2. Positions: every sample of the first ``--fraction`` of the games (by game number),
   kept when quiet: the search's value is within ``--quiet`` points of the hand-written
   static value (no capture sequence or forcing line pending), and it is not a proven
   result. Each is
   labelled with its game's result for the side to move. One game in ten (every game
   whose number ends in 0, of all the games whatever the fraction) is held out to
   measure the fit.
3. Fit: the weights that minimise the squared error between the result and the
   logistic of the evaluation (full-batch Adam from the hand-written weights; in Abande
   the score's weight fixed as the unit, in Andantino the tables kept growing and in
   the native core's range), rounded to whole numbers.

Prints the CPU time of the data (the self-play processes) and of the fit, the errors
before and after on the fitted and the held-out positions, and the weights. The shipped
``src/hexgames/data/abande_eval.json`` was made by::

    .venv/bin/hexgames selfplay abande -p alphabeta:randomness=20,eval=hand \\
        --depth 3 --opening-plies 4 -n 1600 --samples --seed 1 --jobs 2 \\
        --out /tmp/abande-d3
    .venv/bin/python tools/train_eval.py --data /tmp/abande-d3 \\
        --out src/hexgames/data/abande_eval.json

(the same games as ``tools/train_eval.py --games 1600 --seed 1 --jobs 2 --out ...``,
which plays them first), and ``andantino_eval.json`` by::

    .venv/bin/hexgames selfplay andantino -p alphabeta:randomness=20,eval=hand \\
        --depth 3 --opening-plies 4 --rules single_adjacency=on -n 800 --samples \\
        --seed 1 --out /tmp/andantino-d3
    .venv/bin/python tools/train_eval.py --game andantino --data /tmp/andantino-d3 \\
        --out src/hexgames/data/andantino_eval.json
 Needs NumPy and pyarrow (``pip install 'hexgames[selfplay]'``).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from hexgames.engine import learned
from hexgames.games import game_module

#: The self-play player of the data (the hand-written evaluation, varied play).
SELFPLAY_PLAYER = "alphabeta:randomness=20,eval=hand"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play(game: str, out: Path, games: int, seed: int, jobs: int, depth: int,
         executor: str, address: str | None, rules: list[str]) -> float:
    """Play the self-play games into ``out``; the CPU seconds they took (this process
    and its children)."""
    from hexgames.arena import run_selfplay
    from hexgames.engine.base import Limit

    runner: Any = None
    if executor == "ray":
        from hexgames.arena.cluster import RayExecutor

        runner = RayExecutor(address)
    start = time.process_time() + _children_cpu()
    run_selfplay(game, SELFPLAY_PLAYER, games=games, limit=Limit(depth=depth),
                 rules=rules, seed=seed, jobs=jobs, executor=runner, opening_plies=4,
                 out=out, samples=True, keep_results=False)
    return time.process_time() + _children_cpu() - start


def load(game: str, dirs: list[Path], fraction: float, quiet: float) -> tuple[Any, ...]:
    """The terms and results of the kept positions: (x, y, x_held, y_held, games)."""
    import numpy as np
    import pyarrow.parquet as pq

    from hexgames.cli.options import parse_rules

    module = game_module(game)
    words = json.loads((dirs[0] / "summary.json").read_text(encoding="utf-8"))["rules"]
    rules = parse_rules(module, words)
    if game == "abande":
        terms_of, hand, n = learned.terms, learned.HAND_WEIGHTS, learned.TERMS
    else:
        terms_of, hand = learned.andantino_terms, learned.ANDANTINO_HAND_WEIGHTS
        n = learned.ANDANTINO_TERMS

    rows: list[dict[str, Any]] = []
    for offset, d in enumerate(dirs):
        table = pq.read_table(d / "samples.parquet",
                              columns=["game", "position", "eval", "result"])
        for row in table.to_pylist():
            row["game"] += 1_000_000 * offset
            rows.append(row)
    games = sorted({r["game"] for r in rows})
    used = set(games[:max(1, round(len(games) * fraction))])
    x, y, xh, yh = [], [], [], []
    for r in rows:
        held = r["game"] % 10 == 0  # held out whatever the fraction: one measure
        if (not held and r["game"] not in used) or r["eval"] is None \
                or abs(r["eval"]) >= 10_000:
            continue
        board = module.Board(r["position"], rules=rules)
        t = terms_of(board)
        static = sum(w * a for w, a in zip(hand, t, strict=False))
        if abs(r["eval"] - static) > quiet:
            continue
        (xh if held else x).append(t)
        (yh if held else y).append(r["result"])
    as_x = lambda a: np.array(a, dtype=np.float64).reshape(-1, n)  # noqa: E731
    return as_x(x), np.array(y), as_x(xh), np.array(yh), len(used)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("abande", "andantino"), default="abande")
    parser.add_argument("--rules", action="append", default=[],
                        help="a rules option for the self-play (key=value, repeatable)")
    parser.add_argument("--data", type=Path, action="append",
                        help="a self-play directory with samples.parquet (repeatable); "
                             "without it, play --games games first")
    parser.add_argument("--games", type=int, default=1600)
    parser.add_argument("--depth", type=int, default=3, help="self-play search depth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--executor", choices=("local", "ray"), default="local")
    parser.add_argument("--address", default=None, help="the Ray cluster's address")
    parser.add_argument("--play-out", type=Path, default=Path("selfplay-abande"),
                        help="where the self-play games go (without --data)")
    parser.add_argument("--fraction", type=float, default=1.0,
                        help="share of the games used (the training budget)")
    parser.add_argument("--quiet", type=float, default=200.0,
                        help="keep positions whose searched and static values differ "
                             "by at most this many points")
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--out", type=Path, required=True, help="the weights file")
    args = parser.parse_args(argv)
    if not 0 < args.fraction <= 1:
        parser.error(f"--fraction must be above 0 and at most 1, not {args.fraction}")

    data_cpu = None
    dirs = args.data
    if not dirs:
        data_cpu = play(args.game, args.play_out, args.games, args.seed, args.jobs,
                        args.depth, args.executor, args.address, args.rules)
        dirs = [args.play_out]
        print(f"self-play: {args.games} games, {data_cpu:.0f} CPU seconds")
    fit_start = time.process_time()
    x, y, xh, yh, games = load(args.game, dirs, args.fraction, args.quiet)
    print(f"positions: {len(y)} to fit, {len(yh)} held out, from {games} games")
    if args.game == "abande":
        start = learned.start_weights()
        options: dict[str, Any] = {}
        names = learned.TERM_NAMES
    else:
        start = [float(w) for w in learned.ANDANTINO_HAND_WEIGHTS]
        options = {"fixed": (), "scale": learned.ANDANTINO_PROBABILITY_SCALE,
                   "project": learned.andantino_project, "lr": 0.5}
        names = learned.ANDANTINO_TERM_NAMES
    scale = options.get("scale", learned.SCALE * learned.PROBABILITY_SCALE)
    before = (learned.error(x, y, start, scale), learned.error(xh, yh, start, scale))
    fitted = learned.fit(x, y, start, steps=args.steps, **options)
    weights = [round(w) for w in fitted]
    after = (learned.error(x, y, weights, scale), learned.error(xh, yh, weights, scale))
    fit_cpu = time.process_time() - fit_start
    print(f"error, fitted positions: {before[0]:.6f} hand-written, {after[0]:.6f} learned")
    print(f"error, held-out positions: {before[1]:.6f} hand-written, {after[1]:.6f} learned")
    unit = learned.SCALE if args.game == "abande" else 1
    for name, w in zip(names, weights, strict=True):
        print(f"  {name:14} {w:7d}  ({w / unit:+.2f} points)")
    print(f"fit: {fit_cpu:.1f} CPU seconds (reading the samples, the terms and the fit)")
    about = {"method": "Texel (Österlund 2014), full-batch Adam",
             "games": games, "positions": len(y), "held_out": len(yh),
             "fraction": args.fraction, "quiet": args.quiet, "steps": args.steps,
             "seed": args.seed, "selfplay": f"{SELFPLAY_PLAYER} depth {args.depth}",
             "rules": json.loads((dirs[0] / "summary.json").read_text("utf-8"))["rules"],
             "error_fitted": [round(before[0], 6), round(after[0], 6)],
             "error_held_out": [round(before[1], 6), round(after[1], 6)],
             "fit_cpu_seconds": round(fit_cpu, 1)}
    if data_cpu is not None:
        about["data_cpu_seconds"] = round(data_cpu, 1)
    learned.write_weights(args.out, weights, args.game, **about)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
