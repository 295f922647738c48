"""The tally of plan.md's match so far: native (A) points over the finished pairs, the
95% interval of the mean over per-pair scores, and A's results as the first (White) and
second (Red) player. ``--without FIRST-LAST`` leaves those pairs out (a check beside
the planned tally, for the incident in plan.md). Standard library only.

    python3 benchmarks/matches/andantino-expert-31/tally.py [--without 6-26]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", metavar="FIRST-LAST", help="pairs to leave out")
    args = parser.parse_args()
    left_out: range = range(0)
    if args.without:
        first, _, last = args.without.partition("-")
        if not (first.isdigit() and last.isdigit()):
            parser.error(f"--without is FIRST-LAST, not {args.without!r}")
        left_out = range(int(first), int(last) + 1)
    pairs = []
    for summary in sorted(HERE.glob("pairs/pair-*/summary.json")):
        if summary.with_name("summary.json.partial").exists():
            continue
        if int(summary.parent.name.removeprefix("pair-")) in left_out:
            continue
        games = [json.loads(line) for line in
                 summary.with_name("results.jsonl").read_text().splitlines() if line]
        if len(games) == 2:
            pairs.append((summary.parent.name, games))
    if not pairs:
        print("no finished pair")
        return
    scores = [sum(g["score_a"] for g in games) / 2 for _, games in pairs]
    by_colour = {"A": [0, 0, 0], "B": [0, 0, 0]}  # who moved first: W D L of A
    lost = []
    for name, games in pairs:
        for g in games:
            by_colour[g["first"]][{1.0: 0, 0.5: 1, 0.0: 2}[g["score_a"]]] += 1
        if any(g["score_a"] < 1 for g in games):
            lost.append(name.removeprefix("pair-"))
    n = len(scores)
    mean = statistics.fmean(scores)
    se = statistics.pstdev(scores) / math.sqrt(n) if n > 1 else math.nan
    points = sum(scores) * 2
    print(f"{n} pairs, {2 * n} games: {points:g} points = {mean:.1%}, "
          f"95% interval {mean - 1.96 * se:.1%}-{mean + 1.96 * se:.1%} (per-pair se)")
    for first, colour in (("A", "White"), ("B", "Red")):
        wins, draws, losses = by_colour[first]
        print(f"  native as {colour}: {wins} W {draws} D {losses} L")
    print(f"  pairs with a game native did not win: {', '.join(lost) or 'none'}")


if __name__ == "__main__":
    main()
