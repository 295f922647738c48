"""The static evaluation of the native players (alpha-beta's, which greedy uses too),
written naively from its description (the module text of hexgames.engine.alphabeta,
"Evaluations") to check the native one against: every window, neighbour and capture is
counted from scratch, from the position string (Abande, by abande_reference) or the
board's public tile sets (Andantino), nothing incremental and nothing from the engine;
and the moves that win at once, found by trying each.
"""

from __future__ import annotations

from typing import Any

import abande_reference
from andantino_reference import AXES, enclosed_by, neighbours

Cell = tuple[int, int]

#: Worth of a window of five with 0 to 5 tiles of one colour and none of the other.
LINE_WEIGHTS = (0, 1, 6, 30, 160, 160)
#: Worth to the opponent of a tile with 0 to 6 neighbours holding opponent tiles.
ENCLOSURE_WEIGHTS = (0, 0, 1, 4, 16, 60, 60)
#: The Abande weights of the search: score, material, frozen, threats, exposed,
#: mobility, hand (fitted by native/core/examples/abande_tune.rs).
ABANDE_WEIGHTS = (100, 8, 0, 81, 81, 94, 163)


def immediate_wins(board: Any) -> list[Any]:
    """The moves with which the side to move wins at once, by trying each."""
    me = board.turn
    found = []
    for move in board.legal_moves:
        board.push(move)
        outcome = board.outcome()
        if outcome is not None and outcome.winner == me:
            found.append(move)
        board.pop()
    return found


def tiles_of(board: Any) -> dict[Cell, int]:
    """Cell -> colour (0 White, 1 Red) of every Andantino tile."""
    return {cell: 0 for cell in board.tiles(0)} | {cell: 1 for cell in board.tiles(1)}


def windows(tiles: dict[Cell, int]) -> list[list[int | None]]:
    """The contents of every window of five cells along an axis that holds a tile."""
    starts: set[tuple[Cell, Cell]] = set()
    for q, r in tiles:
        for dq, dr in AXES:
            for i in range(5):
                starts.add(((q - i * dq, r - i * dr), (dq, dr)))
    return [[tiles.get((q + i * dq, r + i * dr)) for i in range(5)]
            for (q, r), (dq, dr) in starts]


def andantino_potential(board: Any, three: int = 30) -> int:
    """Line plus enclosure potential, White's minus Red's, straight from the definition
    (``three`` the worth of a window with three tiles)."""
    weights = (*LINE_WEIGHTS[:3], three, *LINE_WEIGHTS[4:])
    tiles = tiles_of(board)
    lines = 0
    for window in windows(tiles):
        white, red = window.count(0), window.count(1)
        if red == 0:
            lines += weights[white]
        elif white == 0:
            lines -= weights[red]
    enclosure = 0
    for cell, colour in tiles.items():
        enemies = sum(tiles.get(n) == 1 - colour for n in neighbours(cell))
        enclosure += ENCLOSURE_WEIGHTS[enemies] * (1 if colour == 1 else -1)
    return lines + enclosure


def andantino_static(board: Any, three: int = 30, tempo: int = 0, right: int = 0) -> int:
    """The potential from the side to move's point of view, plus ``tempo`` for the side
    to move and ``right`` for Red while its balance-variant right is unused."""
    value = andantino_potential(board, three)
    if board.rules.single_adjacency and not board.single_adjacency_used:
        value -= right  # Red's
    return tempo + (value if int(board.turn) == 0 else -value)


def _runs(cell: Cell, walls: set[Cell]) -> int:
    """Separate runs of ``walls`` among the six neighbours of ``cell``, in ring order."""
    ring = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    flags = [(cell[0] + dq, cell[1] + dr) in walls for dq, dr in ring]
    return sum(1 for i in range(6) if flags[i] and not flags[i - 1])


def could_win_next(board: Any, colour: int) -> bool:
    """Whether ``colour`` has a cell where a tile of its own would win at once or might:
    the empty cell of a window holding four of its tiles and none of the other's, or an
    empty cell touching two tiles where its tile would wall in an opponent tile.

    A cell whose neighbours of ``colour`` form one run (or none) cannot wall anything in,
    since the other neighbours stay connected around it; the others are flood-filled
    (andantino_reference.enclosed_by). Used to skip positions, so it may only err on the
    side of finding a threat.
    """
    tiles = tiles_of(board)
    for window in windows(tiles):
        if window.count(colour) == 4 and window.count(1 - colour) == 0:
            return True
    mine = {cell for cell, c in tiles.items() if c == colour}
    theirs = {cell for cell, c in tiles.items() if c != colour}
    if len(mine) < 5:
        return False
    before = enclosed_by(mine, theirs) & theirs
    empty = {n for cell in tiles for n in neighbours(cell) if n not in tiles}
    for cell in empty:
        if sum(n in tiles for n in neighbours(cell)) < 2 or _runs(cell, mine) < 2:
            continue
        if (enclosed_by(mine | {cell}, theirs) & theirs) - before:
            return True
    return False


def abande_static(board: Any, weights: tuple[int, ...] = ABANDE_WEIGHTS) -> int:
    """The Abande evaluation for the side to move of a game that goes on, term by term
    from the position string, with ``weights`` (the search's by default)."""
    ref = abande_reference.from_position(board.position(), board.rules.max_height)
    top = ref.max_height
    me = ref.turn
    stacks = ref.stacks

    def side(colour: int) -> int:
        return 1 if colour == me else -1

    score = material = frozen = mobility = hand = 0
    for cell, stack in stacks.items():
        owner, height = stack[-1], len(stack)
        material += side(owner) * height
        frozen += side(owner) * (height == top)
        if ref.awake(cell):
            score += side(owner) * height
    reach: tuple[set[Cell], set[Cell]] = (set(), set())
    if abande_reference.PIECES - ref.hands[0] >= 2:  # Black's second piece is in: captures
        for cell, stack in stacks.items():
            owner = stack[-1]
            targets = [n for n in abande_reference.neighbours(cell)
                       if n in stacks and stacks[n][-1] != owner
                       and len(stack) + len(stacks[n]) <= top]
            reach[owner].update(targets)
            if targets:
                mobility += side(owner)
    threats = sum(len(stacks[c]) for c in reach[me])
    exposed = sum(len(stacks[c]) for c in reach[1 - me])
    hand = ref.hands[me] - ref.hands[1 - me]
    w_score, w_material, w_frozen, w_threat, w_exposed, w_mobility, w_hand = weights
    return (w_score * score + w_material * material + w_frozen * frozen
            + w_threat * threats - w_exposed * exposed + w_mobility * mobility
            + w_hand * hand)
