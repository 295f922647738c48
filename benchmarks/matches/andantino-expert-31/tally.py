"""The tally of plan.md's match so far: native (A) points over the finished pairs, the
95% interval of the mean over per-pair scores, and A's results as the first (White) and
second (Red) player. Standard library only.

    python3 benchmarks/matches/andantino-expert-31/tally.py
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    pairs = []
    for summary in sorted(HERE.glob("pairs/pair-*/summary.json")):
        if summary.with_name("summary.json.partial").exists():
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
