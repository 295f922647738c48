"""Positions where one step of a search is dear, for the tests and benchmarks that every
search stops in time (issue 32): extended-play Andantino with hundreds of tiles a side,
as the rules allow them (``tiles_per_player=none`` is played up to 500 tiles a side, so
both sides relocate and have some 500,000 moves each), and the largest Abande endgame.
The same builder as the native tests' ``search::big``."""

from __future__ import annotations

import random

from hexgames import abande, andantino

#: Extended play with the unlimited supply (500 tiles a side).
RULES = andantino.Rules(extended=True, tiles_per_player=None)


def triangles(count: int, gap: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``count`` tiles a side in triangles of three tiles ``gap`` cells apart (rows of
    about the square root of their number), colours alternating: no line, no trap, and
    every side of a triangle has an empty cell touching two tiles. A ``gap`` of 4 keeps
    them in the native core's dense window, a few hundred puts them on its hash map."""
    total = 2 * count // 3 + 1
    cols = int(total ** 0.5) + 1
    tiles: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
    k = 0
    for i in range(total):
        q, r = (i % cols) * gap, (i // cols) * gap
        for cell in ((q, r), (q + 1, r), (q, r + 1)):
            tiles[k % 2].append(cell)
            k += 1
    return tiles[0][:count], tiles[1][:count]


def position(white: int, red: int, gap: int = 4, extra: str = "") -> str:
    """The position string of ``white`` and ``red`` tiles of :func:`triangles`, White to
    move: with 500 tiles a side both relocate; with 499 White places a tile."""
    w, r = triangles(max(white, red), gap)

    def cells(tiles: list[tuple[int, int]]) -> str:
        return ";".join(f"{q},{r}" for q, r in sorted(tiles, key=lambda c: (c[1], c[0])))

    return f"andantino w={cells(w[:white])} r={cells(r[:red])} turn=w {extra}".strip()


#: The positions of the stop tests and benchmarks, by name: both sides relocating in the
#: dense window and on the hash map, and White placing while Red relocates.
POSITIONS = {
    "relocating": position(500, 500),
    "spread": position(500, 500, gap=300),
    "placing": position(499, 500),
}


def abande_endgame(seed: int = 0) -> abande.Board:
    """An Abande endgame as large as they come: every piece entered as a single (random
    entries), both hands empty, nearly every stack able to move."""
    rng = random.Random(seed)
    board = abande.Board()
    while any(board.hands):
        board.push(rng.choice([m for m in board.legal_moves if m.is_entry]))
    return board
