"""A deliberately naive Andantino referee, written from docs/rules.md for the property tests.

Nothing here is clever or incremental, so that it is obviously right:

- legal moves scan every empty cell of the bounding box of all tiles (grown by one) and
  count the tiles it touches;
- lines scan every tile of the colour along the three axes;
- enclosure is a flood fill from a corner far outside a big bounding box of all tiles,
  with no shortcut of any kind;
- the outcome of a move compares the enclosures before and after it;
- position strings are written from the parts (docs/notation.md), not by the engine.

It imports nothing from the engine except, in :func:`from_board`, the board's public
read-only API to take a snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]
#: A move as (from, to); ``from`` is ``None`` for a placement.
RefMove = tuple[Cell | None, Cell]

#: The six neighbours of (q, r), exactly as docs/rules.md lists them.
NEIGHBOUR_OFFSETS: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
#: The three line axes of docs/rules.md.
AXES: tuple[Cell, ...] = ((1, 0), (0, 1), (1, -1))
#: How far outside the bounding box of the tiles the enclosure flood fill starts.
MARGIN = 3

OPPONENT_WINS = "opponent_wins"
ILLEGAL = "illegal"
IGNORE = "ignore"


def neighbours(cell: Cell) -> list[Cell]:
    """The six neighbours of ``cell``."""
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in NEIGHBOUR_OFFSETS]


def touching(cell: Cell, tiles: set[Cell]) -> int:
    """How many of ``tiles`` touch ``cell``."""
    return sum(1 for n in neighbours(cell) if n in tiles)


def bounding_box(cells: Iterable[Cell], margin: int) -> tuple[int, int, int, int]:
    """(qmin, qmax, rmin, rmax) of ``cells`` grown by ``margin`` on every side."""
    cells = list(cells)
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    return min(qs) - margin, max(qs) + margin, min(rs) - margin, max(rs) + margin


def box_cells(box: tuple[int, int, int, int]) -> list[Cell]:
    qmin, qmax, rmin, rmax = box
    return [(q, r) for q in range(qmin, qmax + 1) for r in range(rmin, rmax + 1)]


def enclosed_by(walls: Iterable[Cell], others: Iterable[Cell] = ()) -> set[Cell]:
    """Every cell that is not a wall and cannot reach infinity through non-wall cells.

    Flood fill from a corner of a box that is ``MARGIN`` cells larger on every side than
    the bounding box of all tiles. The box's border holds no wall, is connected, and every
    border cell reaches infinity by a straight line, so the cells the fill does not reach
    are exactly the enclosed ones.
    """
    walls = set(walls)
    if not walls:
        return set()
    box = bounding_box(walls | set(others), MARGIN)
    qmin, qmax, rmin, rmax = box
    start = (qmin, rmin)
    reached = {start}
    stack = [start]
    while stack:
        cell = stack.pop()
        for n in neighbours(cell):
            if n in reached or n in walls:
                continue
            if qmin <= n[0] <= qmax and rmin <= n[1] <= rmax:
                reached.add(n)
                stack.append(n)
    return {c for c in box_cells(box) if c not in walls and c not in reached}


def line_cells(tiles: Iterable[Cell]) -> set[Cell]:
    """The cells of every run of five or more of ``tiles`` along an axis."""
    tile_set = set(tiles)
    cells: set[Cell] = set()
    for start in tile_set:
        for dq, dr in AXES:
            if (start[0] - dq, start[1] - dr) in tile_set:
                continue  # not the first cell of its run
            run = [start]
            while (run[-1][0] + dq, run[-1][1] + dr) in tile_set:
                run.append((run[-1][0] + dq, run[-1][1] + dr))
            if len(run) >= 5:
                cells.update(run)
    return cells


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def cells_text(cells: Iterable[Cell]) -> str:
    ordered = sorted(cells, key=lambda c: (c[1], c[0]))
    return ";".join(cell_text(c) for c in ordered) or "-"


def position_string(
    white: Iterable[Cell],
    red: Iterable[Cell],
    turn: int,
    hands: tuple[int, int] | None,
    single: bool | None = None,
    relocations: int | None = None,
) -> str:
    """A canonical position string written from its parts, as docs/notation.md describes it.

    ``hands`` is ``None`` for an unlimited supply; ``single`` is ``None`` when the
    balance variant is off; ``relocations`` is ``None`` when extended play is off.
    """
    parts = ["andantino", f"w={cells_text(white)}", f"r={cells_text(red)}",
             f"turn={'wr'[turn]}"]
    if hands is not None:
        parts.append(f"hands=w{hands[0]},r{hands[1]}")
    if single is not None:
        parts.append(f"single={'used' if single else 'unused'}")
    if relocations is not None:
        parts.append(f"relocations={relocations}")
    return " ".join(parts)


@dataclass(frozen=True)
class RefRules:
    """The options of docs/rules.md, as plain values."""

    single_adjacency: bool = False
    self_trap: str = OPPONENT_WINS
    extended: bool = False
    extended_move_limit: int = 200
    tiles_per_player: int | None = 25

    @classmethod
    def of(cls, rules: Any) -> RefRules:
        """Copy the options of an engine ``Rules`` object."""
        self_trap = getattr(rules.self_trap, "value", rules.self_trap)
        return cls(rules.single_adjacency, str(self_trap), rules.extended,
                   rules.extended_move_limit, rules.tiles_per_player)


@dataclass(frozen=True)
class RefOutcome:
    termination: str  # the Termination value: "line", "trap", ...
    winner: int | None
    line: frozenset[Cell] = frozenset()
    trapped: frozenset[Cell] = frozenset()


@dataclass
class RefGame:
    """A game state and its history, played move by move with no shortcut."""

    rules: RefRules
    tiles: tuple[set[Cell], set[Cell]]
    turn: int
    hands: list[int | None]
    single_used: bool = False
    relocations: int = 0
    outcome: RefOutcome | None = None
    history: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.history:
            self.history = [self.key()]

    # -- reading -----------------------------------------------------------------------

    def all_tiles(self) -> set[Cell]:
        return self.tiles[0] | self.tiles[1]

    def key(self) -> Any:
        """What makes two positions "the same" for repetition (docs/rules.md: the same
        position with the same side to move)."""
        return (frozenset(self.tiles[0]), frozenset(self.tiles[1]), self.turn,
                self.single_used)

    def copy(self) -> RefGame:
        return RefGame(self.rules, (set(self.tiles[0]), set(self.tiles[1])), self.turn,
                       list(self.hands), self.single_used, self.relocations, self.outcome,
                       list(self.history))

    def position(self) -> str:
        rules = self.rules
        hands = None
        if rules.tiles_per_player is not None:
            assert self.hands[0] is not None and self.hands[1] is not None
            hands = (self.hands[0], self.hands[1])
        return position_string(
            self.tiles[0], self.tiles[1], self.turn, hands,
            self.single_used if rules.single_adjacency else None,
            self.relocations if rules.extended else None)

    def enclosed_by_color(self, color: int) -> set[Cell]:
        return enclosed_by(self.tiles[color], self.all_tiles())

    def single_available(self) -> bool:
        return self.rules.single_adjacency and self.turn == 1 and not self.single_used

    def relocating(self) -> bool:
        return self.rules.extended and self.hands[self.turn] == 0

    # -- legal moves -------------------------------------------------------------------

    def legal_moves(self) -> set[RefMove]:
        if self.outcome is not None:
            return set()
        color = self.turn
        forbidden: set[Cell] = set()
        if self.rules.self_trap == ILLEGAL:
            forbidden = self.enclosed_by_color(1 - color)
        moves: set[RefMove] = set()
        everything = self.all_tiles()
        if self.relocating():
            for source in self.tiles[color]:
                rest = everything - {source}
                for cell in box_cells(bounding_box(everything, 1)):
                    if (cell not in rest and cell != source and cell not in forbidden
                            and touching(cell, rest) >= 2):
                        moves.add((source, cell))
            return moves
        if self.hands[color] == 0:
            return moves  # no tile to place and no extended play: nothing to do
        for cell in box_cells(bounding_box(everything, 1)):
            if cell in everything or cell in forbidden:
                continue
            n = touching(cell, everything)
            if n >= 2 or (n == 1 and self.single_available()):
                moves.add((None, cell))
        return moves

    # -- playing -----------------------------------------------------------------------

    def play(self, move: RefMove) -> RefOutcome | None:
        """Play a legal move and return the outcome it leads to (``None``: play on)."""
        assert self.outcome is None
        assert move in self.legal_moves(), move
        source, target = move
        mover, other = self.turn, 1 - self.turn
        walled_before = self.enclosed_by_color(mover)
        if source is not None:
            self.tiles[mover].remove(source)
            self.relocations += 1
        else:
            hand = self.hands[mover]
            if hand is not None:
                self.hands[mover] = hand - 1
            if self.single_available() and touching(target, self.all_tiles()) == 1:
                self.single_used = True
        self.tiles[mover].add(target)

        line = line_cells(self.tiles[mover])
        walled_after = self.enclosed_by_color(mover)
        trapped = {c for c in walled_after
                   if c in self.tiles[other] and c not in walled_before}
        outcome = None
        if line and trapped:
            outcome = RefOutcome("line+trap", mover, frozenset(line), frozenset(trapped))
        elif line:
            outcome = RefOutcome("line", mover, frozenset(line))
        elif trapped:
            outcome = RefOutcome("trap", mover, trapped=frozenset(trapped))
        elif (self.rules.self_trap == OPPONENT_WINS
              and target in self.enclosed_by_color(other)):
            outcome = RefOutcome("self-trap", other, trapped=frozenset({target}))

        self.turn = other
        self.history.append(self.key())
        if outcome is None:
            if self.rules.extended:
                if self.history.count(self.key()) >= 3:
                    outcome = RefOutcome("repetition", None)
                elif self.relocations >= self.rules.extended_move_limit:
                    outcome = RefOutcome("move-limit", None)
            elif self.hands[self.turn] == 0:
                outcome = RefOutcome("tiles-exhausted", None)
        self.outcome = outcome
        return outcome


def from_board(board: Any) -> RefGame:
    """A reference game at ``board``'s current position (history starts here), read
    through the board's public API only."""
    rules = RefRules.of(board.rules)
    return RefGame(
        rules,
        (set(board.tiles(0)), set(board.tiles(1))),
        int(board.turn),
        [board.hand(0), board.hand(1)],
        bool(board.single_adjacency_used),
        int(board.relocations),
    )


def engine_moves(board: Any) -> set[RefMove]:
    """The engine's legal moves in the reference's (from, to) form."""
    return {(m.from_, m.to) for m in board.legal_moves}


def engine_outcome(board: Any) -> RefOutcome | None:
    """The engine's outcome in the reference's form."""
    outcome = board.outcome()
    if outcome is None:
        return None
    winner = None if outcome.winner is None else int(outcome.winner)
    return RefOutcome(outcome.termination.value, winner, frozenset(outcome.line),
                      frozenset(outcome.trapped))
