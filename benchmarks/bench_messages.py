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

Usage::

    .venv/bin/python benchmarks/bench_messages.py board
    .venv/bin/python benchmarks/bench_messages.py messages
"""

from __future__ import annotations

import argparse
import asyncio
import json
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


def bench_messages() -> None:
    from hexgames.web.searches import Subscriber
    from hexgames.web.session import GameManager
    from hexgames.web.store import GameStore

    with tempfile.TemporaryDirectory() as folder:
        store = GameStore(Path(folder) / "games.db")
        stored = store.create("andantino", STRIP_RULES.options(), ["human", "human"],
                              position=strip_position())
        manager = GameManager(store)
        seconds, session = cpu(lambda: manager.session(stored.id))
        print(f"open the game                      {seconds:8.3f} s")
        sent: list[dict[str, Any]] = []
        subscriber = Subscriber(asyncio.new_event_loop())
        subscriber.send = sent.append  # type: ignore[method-assign]

        def show(what: str, action: Callable[[], Any]) -> None:
            del sent[:]
            seconds, _ = cpu(action)
            size = sum(len(json.dumps(message)) for message in sent)
            kinds = "+".join(str(message["type"]) for message in sent)
            print(f"{what:34} {seconds:8.3f} s  {size:>10,} bytes ({kinds})")

        def ask(message: dict[str, Any]) -> Callable[[], Any]:
            return lambda: session.handle(json.dumps(message), subscriber)

        show("state on connect", lambda: session.subscribe(subscriber))
        show("view of the start", ask({"type": "view", "line": []}))
        show("view of the start again", ask({"type": "view", "line": []}))
        show("move 0,0>5,-1 (state)", ask({"type": "move", "move": "0,0>5,-1", "ply": 0}))
        show("view of [0,0>5,-1]", ask({"type": "view", "line": ["0,0>5,-1"]}))
        show("targets of 2,1 at the start", ask({"type": "targets", "from": "2,1",
                                                 "line": []}))
        manager.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["board", "messages"])
    args = parser.parse_args()
    if args.what == "board":
        bench_board()
    else:
        bench_messages()


if __name__ == "__main__":
    main()
