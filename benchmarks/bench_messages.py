"""What a large position costs: the Andantino board and the browser app's messages.

Prints figures; it is not a test. The position is the strip of
``tests/large_positions.py``: 300 + 300 tiles in extended play, both hands empty, White
to move with 179,400 relocations (a 3.4 KB position string). CPU times are
``time.process_time()`` of this process.

``board``
    ``Board(position)`` and one relocation's ``push`` (each used to list every
    relocation), then ``legal_sources()`` and one tile's ``legal_moves_from``.
``messages``
    the browser app's server on a game from that position (a ``GameManager`` in this
    process, its socket a stub): the size of each message and the CPU time of handling
    the message that asked for it, for the ``state`` on connect, a ``view`` of the start
    (twice), a relocation played, a ``view`` of the line to it and the ``targets`` of
    one tile.
``game``
    the same after ``--plies`` relocations (150; random ones, seeded): opening the game,
    a move, an undo, a view of an earlier position and of the one before it; then
    through the app (wall time, the game opened first) the picture of the current
    position and of an earlier one, ``GET /api/games/{id}/svg``.
``list``
    a page of ``GET /api/games`` (the store's rows and their summaries) of 50 games,
    each with a 1 MB study record and a whole-game analysis of 2,000 positions, read
    whole (as before) and as summaries (now); wall time.

Usage::

    .venv/bin/python benchmarks/bench_messages.py board
    .venv/bin/python benchmarks/bench_messages.py messages
    .venv/bin/python benchmarks/bench_messages.py game [--plies 150]
    .venv/bin/python benchmarks/bench_messages.py list
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))
from large_positions import STRIP_RULES, strip_position

from hexgames.andantino import Board


def cpu(action: Callable[[], Any]) -> tuple[float, Any]:
    """The CPU seconds ``action`` took, and what it returned."""
    start = time.process_time()
    result = action()
    return time.process_time() - start, result


def bench_board() -> None:
    position = strip_position()
    seconds, board = cpu(lambda: Board(position, STRIP_RULES))
    print(f"Board(position)                    {seconds:8.3f} s")
    seconds, _ = cpu(lambda: board.push_notation("0,0>5,-1"))
    print(f"push 0,0>5,-1                      {seconds:8.3f} s")
    seconds, _ = cpu(lambda: board.push_notation("2,0>0,0"))
    print(f"push 2,0>0,0                       {seconds:8.3f} s")
    if not hasattr(board, "legal_sources"):  # a version before them
        return
    seconds, moves = cpu(lambda: (board.legal_sources(), board.legal_moves_from((2, 1))))
    print(f"legal_sources, legal_moves_from    {seconds:8.3f} s  "
          f"({len(moves[0])} tiles, {len(moves[1])} targets of 2,1)")


class Game:
    """A game of the strip in a ``GameManager`` of this process, watched by a stub
    socket; :meth:`show` prints the CPU time and the bytes sent for one action."""

    def __init__(self, folder: str, moves: list[str]) -> None:
        from hexgames.web.manager import GameManager
        from hexgames.web.searches import Subscriber
        from hexgames.web.store import GameStore

        store = GameStore(Path(folder) / "games.db")
        stored = store.create("andantino", STRIP_RULES.options(), ["human", "human"],
                              position=strip_position())
        stored.moves = moves
        store.save(stored)
        self.manager = GameManager(store)
        seconds, self.session = cpu(lambda: self.manager.session(stored.id))
        print(f"open the game ({len(moves)} plies)".ljust(34), f"{seconds:8.3f} s")
        self.sent: list[dict[str, Any]] = []
        self.subscriber = Subscriber(asyncio.new_event_loop())
        self.subscriber.send = self.sent.append  # type: ignore[method-assign]

    def show(self, what: str, action: Callable[[], Any]) -> None:
        del self.sent[:]
        seconds, _ = cpu(action)
        size = sum(len(json.dumps(message)) for message in self.sent)
        kinds = "+".join(str(message["type"]) for message in self.sent)
        print(f"{what:34} {seconds:8.3f} s  {size:>10,} bytes ({kinds})")

    def ask(self, message: dict[str, Any]) -> Callable[[], Any]:
        return lambda: self.session.handle(json.dumps(message), self.subscriber)

    def subscribe(self) -> None:
        self.show("state on connect", lambda: self.session.subscribe(self.subscriber))


def bench_messages() -> None:
    with tempfile.TemporaryDirectory() as folder:
        game = Game(folder, [])
        game.subscribe()
        game.show("view of the start", game.ask({"type": "view", "line": []}))
        game.show("view of the start again", game.ask({"type": "view", "line": []}))
        game.show("move 0,0>5,-1 (state)", game.ask({"type": "move", "move": "0,0>5,-1",
                                                      "ply": 0}))
        game.show("view of [0,0>5,-1]", game.ask({"type": "view", "line": ["0,0>5,-1"]}))
        game.show("targets of 2,1 at the start", game.ask({"type": "targets", "from": "2,1",
                                                           "line": []}))
        game.manager.close()


def bench_game(plies: int) -> None:
    rng = random.Random(5)
    board = Board(strip_position(), STRIP_RULES)
    while board.ply() < plies and not board.is_game_over():
        moves = board.legal_moves_from(rng.choice(board.legal_sources()))
        board.push(rng.choice(moves))
    moves = [move.notation() for move in board.move_stack]
    with tempfile.TemporaryDirectory() as folder:
        game = Game(folder, moves[:-1])
        game.subscribe()
        game.show("move (state)", game.ask({"type": "move", "move": moves[-1],
                                            "ply": len(moves) - 1}))
        game.show("undo (state)", game.ask({"type": "undo", "ply": len(moves)}))
        game.show(f"view of ply {len(moves) - 5}",
                  game.ask({"type": "view", "ply": len(moves) - 5}))
        game.show(f"view of ply {len(moves) - 6}",
                  game.ask({"type": "view", "ply": len(moves) - 6}))
        game.manager.close()
        bench_pictures(Path(folder) / "games.db", game.session.stored.id, len(moves) - 5)


def bench_pictures(db: Path, game_id: str, ply: int) -> None:
    import warnings

    from hexgames.web import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    with TestClient(create_app(db, workers="thread")) as client:
        client.get(f"/api/games/{game_id}").raise_for_status()  # opens (replays) it
        for query in ("", f"?ply={ply}"):
            start = time.perf_counter()
            answer = client.get(f"/api/games/{game_id}/svg{query}")
            seconds = time.perf_counter() - start
            answer.raise_for_status()
            print(f"{'picture ' + (query or 'of the current position'):34} "
                  f"{seconds:8.3f} s  {len(answer.content):>10,} bytes (wall)")


def bench_list() -> None:
    from hexgames.web.store import GameStore
    from hexgames.web.summary import summary

    record = '[Game "Andantino"]\n[Result "*"]\n\n{' + "x" * 1_000_000 + "} *\n"
    analysis = {"positions": [{"pv": ["0,1"] * 20}] * 2000}
    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder) / "games.db")
        for _ in range(50):
            stored = store.create("andantino", [], ["human", "human"])
            stored.record = record
            stored.extra["analysis"] = analysis
            store.save(stored)
        for whole in (True, False):
            start = time.perf_counter()
            shown = [summary(row) for row in store.games(50, 0, whole=whole)]
            seconds = time.perf_counter() - start
            print(f"50 summaries, {'whole rows' if whole else 'summary columns':16} "
                  f"{seconds:8.3f} s  {len(json.dumps(shown)):>10,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["board", "messages", "game", "list"])
    parser.add_argument("--plies", type=int, default=150,
                        help="relocations played before the game's figures")
    args = parser.parse_args()
    if args.what == "board":
        bench_board()
    elif args.what == "messages":
        bench_messages()
    elif args.what == "game":
        bench_game(args.plies)
    else:
        bench_list()


if __name__ == "__main__":
    main()
