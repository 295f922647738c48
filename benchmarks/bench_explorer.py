"""How fast the opening explorer answers from its index (issue 35).

Makes a fresh games database, indexes N random finished Andantino games of M plies
(random legal moves from the start, so the first plies share positions as real openings
do and the later ones spread), then times the explorer's query (the index lookup and the
whole answer of ``GET /api/explorer`` without HTTP: parsing the position, the moves'
counts and the book's values) on positions of the games at several plies. Prints the
indexing rate, the database size and the median and 95th percentile of the query times
in milliseconds.

    .venv/bin/python benchmarks/bench_explorer.py [--games 10000] [--plies 40]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from hexgames import andantino
from hexgames.web.explorer import Explorer
from hexgames.web.explorer_tables import IndexedGame, position_key
from hexgames.web.policy import LOCAL
from hexgames.web.store import GameStore


def random_game(rng: random.Random, plies: int) -> tuple[list[str], list[str]]:
    """The moves of a random game and the positions before each."""
    board = andantino.Board()
    moves, positions = [], []
    for _ in range(plies):
        if board.is_game_over():
            break
        legal = list(board.legal_moves)
        # the first plies from few choices, as openings are, then anything
        move = legal[0] if len(moves) < 4 and rng.random() < 0.5 else rng.choice(legal)
        positions.append(board.position())
        moves.append(move.notation())
        board.push(move)
    return moves, positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        store = GameStore(db)
        samples: list[str] = []
        started = time.perf_counter()
        batch: list[IndexedGame] = []
        for number in range(args.games):
            moves, positions = random_game(rng, args.plies)
            result = rng.choice(("1-0", "0-1", "1/2-1/2"))
            ratings = (rng.uniform(1200, 2200), rng.uniform(1200, 2200))
            batch.append(IndexedGame("games", f"g{number}", "andantino", (), None,
                                     tuple(moves), result, ratings))
            if rng.random() < 0.2:
                samples.append(rng.choice(positions))
            if len(batch) == 500:
                store.explorer_index(batch)
                batch = []
        store.explorer_index(batch)
        indexing = time.perf_counter() - started
        explorer = Explorer(store, {})
        lookups, answers = [], []
        queries = [rng.choice(samples) for _ in range(args.queries)] + \
            [andantino.Board().position()] * 50
        for position in queries:
            t0 = time.perf_counter()
            store.explorer_moves(position_key("andantino", [], position), ["games"])
            t1 = time.perf_counter()
            explorer.query(LOCAL, {"game": "andantino", "position": position})
            t2 = time.perf_counter()
            lookups.append((t1 - t0) * 1000)
            answers.append((t2 - t1) * 1000)
        store.close()
        size = sum(p.stat().st_size for p in Path(folder).glob("games.db*"))

    def line(name: str, values: list[float]) -> str:
        ordered = sorted(values)
        p95 = ordered[int(len(ordered) * 0.95)]
        return (f"{name}: median {statistics.median(values):.3f} ms, 95th percentile "
                f"{p95:.3f} ms, max {ordered[-1]:.3f} ms")

    print(f"{args.games:,} games of up to {args.plies} plies indexed in {indexing:.1f} s "
          f"({args.games / indexing:,.0f} games/s); database {size / 1e6:.1f} MB")
    print(line("index lookup", lookups))
    print(line("whole answer (position parsed, book values)", answers))


if __name__ == "__main__":
    main()
