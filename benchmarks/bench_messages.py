"""What a large position costs: the Andantino board and the browser app's messages.

Prints figures; it is not a test. The position is the strip of
``tests/large_positions.py``: 300 + 300 tiles in extended play, both hands empty, White
to move with 179,400 relocations (a 3.4 KB position string). CPU times are
``time.process_time()`` of this process.

``board``
    ``Board(position)`` and one relocation's ``push`` (each used to list every
    relocation), then ``legal_sources()`` and one tile's ``legal_moves_from``.

Usage::

    .venv/bin/python benchmarks/bench_messages.py board
"""

from __future__ import annotations

import argparse
import sys
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["board"])
    args = parser.parse_args()
    if args.what == "board":
        bench_board()


if __name__ == "__main__":
    main()
