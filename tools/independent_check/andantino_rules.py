"""Andantino under its default rules, written from the specification alone.

An independent rules engine for checking proof files: it shares no code with the hexgames
package and was written from RULES.md (docs/rules.md) and NOTATION.md (docs/notation.md)
only. Standard library only, Python 3.10 or newer.

A cell (q, r) is an int, its code: (r + OFFSET) * STRIDE + (q + OFFSET). Codes in
increasing order are the cells in the order a position string lists them (by r, then q),
and a neighbour is a fixed difference of codes. Cells are limited to |q|, |r| <= LIMIT, so
that a cell and its neighbours always have codes of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

OFFSET: Final = 64
STRIDE: Final = 128
LIMIT: Final = 60

WHITE: Final = 0
RED: Final = 1
COLOUR_LETTERS: Final = "wr"
COLOUR_NAMES: Final = ("White", "Red")

TILES_PER_PLAYER: Final = 25

# What a placement does, seen from the player who made it.
GOES_ON: Final = 0
MOVER_WINS: Final = 1
OPPONENT_WINS: Final = 2
DRAW: Final = 3

# The six neighbours in cyclic order: (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1).
RING: Final = (1, 1 - STRIDE, -STRIDE, -1, STRIDE - 1, STRIDE)
# The three line axes: (1,0), (0,1), (1,-1).
AXES: Final = (1, STRIDE, 1 - STRIDE)

# A bounding box (q low, q high, r low, r high) of offset coordinates; EMPTY_BOX has none.
Box = tuple[int, int, int, int]
EMPTY_BOX: Final[Box] = (STRIDE, -1, STRIDE, -1)
# What undoes a placement: its cell, its colour and the bounding box before it.
Undo = tuple[int, int, Box]


def cell_code(q: int, r: int) -> int:
    """The code of cell (q, r), which must be within LIMIT."""
    return (r + OFFSET) * STRIDE + (q + OFFSET)


def cell_of(code: int) -> tuple[int, int]:
    """The cell (q, r) of a code."""
    return code % STRIDE - OFFSET, code // STRIDE - OFFSET


def cell_text(code: int) -> str:
    """A cell in the notation: `q,r`."""
    q, r = cell_of(code)
    return f"{q},{r}"


class Board:
    """A mutable position: the tiles, the side to move and both hands.

    The placements next to at least two tiles (the candidates) are kept up to date as
    tiles come and go, and so is the bounding box of all tiles: a cell outside it reaches
    infinity along a line that meets no tile.
    """

    def __init__(
        self, white: Iterable[int], red: Iterable[int], turn: int, hands: tuple[int, int]
    ) -> None:
        self.colour_of: dict[int, int] = {}
        self.tiles: tuple[set[int], set[int]] = (set(), set())
        self.touching: dict[int, int] = {}
        self.candidates: set[int] = set()
        self.turn = turn
        self.hands = list(hands)
        self.box: Box = EMPTY_BOX
        for code in white:
            self._put(code, WHITE)
        for code in red:
            self._put(code, RED)

    def _put(self, code: int, colour: int) -> None:
        if code in self.colour_of:
            raise ValueError(f"cell {cell_text(code)} holds two tiles")
        self.colour_of[code] = colour
        self.tiles[colour].add(code)
        self.candidates.discard(code)
        touching = self.touching
        occupied = self.colour_of
        for step in RING:
            near = code + step
            count = touching.get(near, 0) + 1
            touching[near] = count
            if count >= 2 and near not in occupied:
                self.candidates.add(near)
        q, r = code % STRIDE, code // STRIDE
        q_low, q_high, r_low, r_high = self.box
        self.box = (min(q_low, q), max(q_high, q), min(r_low, r), max(r_high, r))

    def _take(self, code: int, colour: int, box: Box) -> None:
        del self.colour_of[code]
        self.tiles[colour].discard(code)
        touching = self.touching
        occupied = self.colour_of
        for step in RING:
            near = code + step
            count = touching[near] - 1
            if count == 0:
                del touching[near]
            else:
                touching[near] = count
            if count == 1 and near not in occupied:
                self.candidates.discard(near)
        if touching.get(code, 0) >= 2:
            self.candidates.add(code)
        self.box = box

    def legal_moves(self) -> list[int]:
        """The cells the side to move may place a tile on (none with an empty hand)."""
        if self.hands[self.turn] <= 0:
            return []
        return list(self.candidates)

    def is_legal(self, code: int) -> bool:
        """Whether the side to move may place a tile on this cell."""
        return (
            self.hands[self.turn] > 0
            and code not in self.colour_of
            and self.touching.get(code, 0) >= 2
        )

    def play(self, code: int) -> tuple[int, Undo]:
        """Places a tile of the side to move on a legal cell.

        Returns what the placement does (GOES_ON, MOVER_WINS, OPPONENT_WINS or DRAW,
        from the mover's side) and what undoes it.
        """
        mover = self.turn
        box = self.box
        self._put(code, mover)
        self.hands[mover] -= 1
        self.turn = 1 - mover
        return self._outcome(code, mover), (code, mover, box)

    def undo(self, undo: Undo) -> None:
        """Takes back the placement that `play` returned this for."""
        code, mover, box = undo
        self._take(code, mover, box)
        self.hands[mover] += 1
        self.turn = mover

    def _outcome(self, code: int, mover: int) -> int:
        own = self.tiles[mover]
        other = self.tiles[1 - mover]
        # The mover's own win first: a line through the placed tile, or a trap.
        if line_through(code, own) or self._traps(code, own, other):
            return MOVER_WINS
        # Self-trap: the placed tile walled in by the opponent's tiles.
        if self._walled_in(code, other):
            return OPPONENT_WINS
        # All tiles on the surface and nobody has won.
        if self.hands[WHITE] == 0 and self.hands[RED] == 0:
            return DRAW
        return GOES_ON

    def _escapes(self, start: int, walls: set[int]) -> tuple[bool, set[int]]:
        """Flood fill from start through cells not in walls: (reaches infinity, seen)."""
        q_low, q_high, r_low, r_high = self.box
        seen = {start}
        stack = [start]
        while stack:
            cell = stack.pop()
            q, r = cell % STRIDE, cell // STRIDE
            if q < q_low or q > q_high or r < r_low or r > r_high:
                return True, seen
            for step in RING:
                near = cell + step
                if near not in seen and near not in walls:
                    seen.add(near)
                    stack.append(near)
        return False, seen

    def _traps(self, code: int, own: set[int], other: set[int]) -> bool:
        """Whether placing `code` walls in an opponent tile that could reach infinity before.

        Before the placement, `code` joined the mover's non-tiles around it into one
        region; after it, each part of that region is enclosed or not. A tile is newly
        walled in when its part is enclosed while another part still escapes (if none
        escapes, the whole region was enclosed already).
        """
        around = [code + step for step in RING]
        open_around = [cell not in own for cell in around]
        arcs = sum(1 for i in range(6) if open_around[i] and not open_around[i - 1])
        if arcs < 2:
            # The open neighbours form one arc (or none, or the whole ring): they stay
            # joined without `code`, so nothing is cut off.
            return False
        escaped: set[int] = set()
        enclosed: set[int] = set()
        any_escape = False
        opponent_enclosed = False
        for cell, is_open in zip(around, open_around, strict=True):
            if not is_open or cell in escaped or cell in enclosed:
                continue
            escapes, seen = self._escapes(cell, own)
            if escapes:
                any_escape = True
                escaped |= seen
            else:
                enclosed |= seen
                if not seen.isdisjoint(other):
                    opponent_enclosed = True
        return opponent_enclosed and any_escape

    def _walled_in(self, code: int, other: set[int]) -> bool:
        """Whether the tile at `code` cannot reach infinity through cells not in `other`."""
        q_low, q_high, r_low, r_high = self.box
        # Quick way out: a straight ray from the tile that meets no wall.
        for step in RING:
            cell = code + step
            while cell not in other:
                q, r = cell % STRIDE, cell // STRIDE
                if q < q_low or q > q_high or r < r_low or r > r_high:
                    return False
                cell += step
        escapes, _ = self._escapes(code, other)
        return not escapes


def line_through(code: int, tiles: set[int]) -> bool:
    """Whether five or more of `tiles` lie in a row along an axis through `code`."""
    for step in AXES:
        count = 1
        cell = code + step
        while cell in tiles:
            count += 1
            cell += step
        cell = code - step
        while cell in tiles:
            count += 1
            cell -= step
        if count >= 5:
            return True
    return False


def has_line(tiles: set[int]) -> bool:
    """Whether five or more of `tiles` lie in a row anywhere."""
    return any(line_through(code, tiles) for code in tiles)


def start() -> Board:
    """The standard start: White (0,0), Red (1,0), White to move, 24 tiles in each hand."""
    return Board([cell_code(0, 0)], [cell_code(1, 0)], WHITE, (24, 24))


def perft(board: Board, depth: int) -> int:
    """The positions after exactly `depth` plies; a finished game is not played on."""
    if depth == 0:
        return 1
    total = 0
    for code in board.legal_moves():
        outcome, undo = board.play(code)
        if outcome == GOES_ON:
            total += perft(board, depth - 1)
        elif depth == 1:
            total += 1
        board.undo(undo)
    return total
