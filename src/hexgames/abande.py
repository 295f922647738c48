"""Abande (Dieter Stein, 2005): rules, moves and a fast board.

The rules are those of ``docs/rules.md`` (section "Abande"); the notation is that of
``docs/notation.md``: points are named ``a1`` to ``g4``, moves are written ``d4`` (enter a
piece), ``c3-d4`` (move the stack on c3 onto d4) and ``pass``. The interface follows
python-chess and :mod:`hexgames.andantino`::

    >>> from hexgames import abande
    >>> board = abande.Board()
    >>> len(board.legal_moves)
    37
    >>> board.push_notation("d4")
    Move(to=(0, 0))
    >>> board.push_notation("e3")
    Move(to=(1, 0))
    >>> len(board.legal_moves)  # the opening restriction: entries only
    8
    >>> board.push_notation("c4")
    Move(to=(-1, 0))
    >>> [m.notation() for m in board.legal_moves if m.is_stack_move]
    ['e3-d4']

**The opening restriction from a position alone.** No stack may move before Black has
entered its second piece (plies 1 to 3 are entries). Pieces never return to a hand, so
Black has entered ``18 - hands[0]`` pieces; stack moves are allowed exactly when that is 2
or more. A position string therefore needs no extra field for it.

**Finished games.** ``passes=`` in a position string is 1 when the previous ply was a
pass. A game that two passes in succession have ended is written ``passes=2`` (an
extension of docs/notation.md, which only has 0 and 1), so ``Board(board.position())`` of a
finished board is finished too.

**Set-up positions** must be possible in play: each side owns exactly 18 pieces (on the
board plus in hand), the stacks form one connected band, no stack is higher than
``max_height``, and ``passes=1`` needs the player who moved last to have an empty hand.

**Internals.** The 37 points are bits of a Python int laid out column by column, eight
bits a column (``bit = 8 * (q + 3) + (3 - r)``; the eighth bit of each column is always
empty). The bit order is the board order a1, a2, ..., g4, and the six neighbours of a bit
are at offsets +-1, +-8 and +-9, so the neighbours of a whole set (its dilation) take six
shifts. The board keeps, under make/unmake: the occupied set, the set each colour
controls, one set per stack height, every stack as a small int code (a sentinel bit above
the pieces, bottom piece in bit 0, 1 for White), the entry points (empty points next to
the band), the holes of the band (empty points it walls off from the rim), its Euler
characteristic and the Zobrist key. Legal moves are built on demand, once per position,
by table lookups from these sets.

A stack may leave its point only if the rest of the band stays connected. When the
occupied neighbours of the point form one run around its ring of six, that is certain.
Otherwise the empty gaps between the runs decide it (see :func:`_splits`): with no holes
the point is a cut point; with holes, a gap is open or enclosed by one bit test, and only
two gaps into holes need a flood fill of the band. The holes change only when an entry
closes a loop, which the Euler characteristic (points - adjacent pairs + triangles of
the band is 1 - holes) shows at the cost of a table lookup, or when a lifted stack opens
or joins a hole; only then is empty space flood-filled.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from hexgames.core import (
    BoardBase,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Outcome,
    RulesBase,
    Termination,
    splitmix64,
)
from hexgames.hexgrid import DIRECTIONS, Cell, hexagon

GAME_NAME = "Abande"
#: Record tags naming the players, first player first.
PLAYER_TAGS = ("Black", "White")
#: Pieces each player owns (docs/rules.md, "Material").
PIECES_PER_PLAYER = 18
#: The board's radius: the points are the cells with max(|q|, |r|, |q + r|) <= 3.
RADIUS = 3


class Color(enum.IntEnum):
    """The two sides; BLACK moves first."""

    BLACK = 0
    WHITE = 1

    @property
    def letter(self) -> str:
        """``"b"`` or ``"w"``, as in position strings (``"B"``/``"W"`` in stacks)."""
        return "bw"[self]


BLACK = Color.BLACK
WHITE = Color.WHITE
_COLORS = (Color.BLACK, Color.WHITE)
_NAMES = ("Black", "White")


@dataclass(frozen=True)
class Rules(RulesBase):
    """The options of docs/rules.md; the defaults are the standard game.

    Attributes:
        max_height: the highest stack a move may make (3 by default: a 3-stack can
            neither move nor be captured). At least 1; with 1 no stack ever moves.

    Raises:
        InvalidRulesError: if ``max_height`` is not a whole number from 1 to 36.
    """

    GAME: ClassVar[str] = "Abande"
    OPTION_KINDS: ClassVar[dict[str, str]] = {"max_height": "int"}

    max_height: int = 3

    def __post_init__(self) -> None:
        height = self.max_height
        if isinstance(height, bool) or not isinstance(height, int):
            raise InvalidRulesError(f"max_height must be a whole number, not {height!r}")
        if not 1 <= height <= 2 * PIECES_PER_PLAYER:
            raise InvalidRulesError(
                f"max_height must be from 1 to {2 * PIECES_PER_PLAYER}, not {height}")

# --- the points as bits ---------------------------------------------------------------
_STEP = 8  # bits per column: hexgrid.DIRECTIONS are the bit offsets 8, 9, 1, -8, -9, -1


def _bit(cell: Cell) -> int:
    return _STEP * (cell[0] + RADIUS) + (RADIUS - cell[1])


#: The 37 points in board order (a1, a2, ..., a4, b1, ..., g4), as axial cells.
POINTS: tuple[Cell, ...] = tuple(sorted(hexagon(RADIUS), key=_bit))
_BIT_OF: dict[Cell, int] = {cell: _bit(cell) for cell in POINTS}
_CELL_OF: dict[int, Cell] = {b: cell for cell, b in _BIT_OF.items()}
_BITS: tuple[int, ...] = tuple(_BIT_OF[cell] for cell in POINTS)
_BOARD = sum(1 << b for b in _BITS)
_SIZE = _STEP * (2 * RADIUS + 1)


def cell_name(cell: Cell) -> str:
    """The board name of a point (docs/notation.md): ``(0, 0)`` is ``d4``, ``(-3, 3)`` ``a1``.

    Raises:
        InvalidMoveError: if ``cell`` is not a point of the board.
    """
    if cell not in _BIT_OF:
        raise InvalidMoveError(f"{cell!r} is not a point of the Abande board")
    q, r = cell
    return f"{'abcdefg'[q + RADIUS]}{RADIUS + 1 - r - max(q, 0)}"


_NAME_OF: dict[int, str] = {b: cell_name(cell) for b, cell in _CELL_OF.items()}
_BIT_OF_NAME: dict[str, int] = {name: b for b, name in _NAME_OF.items()}
_COLUMN_SIZES = "a1-a4, b1-b5, c1-c6, d1-d7, e1-e6, f1-f5, g1-g4"


def _name_bit(text: str, what: str = "") -> int:
    b = _BIT_OF_NAME.get(text.strip().lower())
    if b is None:
        raise InvalidMoveError(
            f"{text!r} is not a point of the Abande board{what} (points: {_COLUMN_SIZES})")
    return b


def parse_cell(text: str) -> Cell:
    """The axial cell of a board name such as ``c3`` (any letter case).

    Raises:
        InvalidMoveError: if ``text`` names no point of the board (``h1``, ``a5``, ``d0``).
    """
    return _CELL_OF[_name_bit(text)]


def _cell_bit(cell: Cell | str) -> int:
    if isinstance(cell, str):
        return _name_bit(cell)
    try:
        b = _BIT_OF.get(cell) if isinstance(cell, tuple) else None
    except TypeError:  # a tuple holding something unhashable
        b = None
    if b is None:
        raise InvalidMoveError(f"{cell!r} is not a point of the Abande board")
    return b


def _ring(b: int) -> tuple[int, ...]:
    """The neighbours of bit ``b`` in ring order, -1 where the ring leaves the board."""
    q, r = _CELL_OF[b]
    return tuple(_BIT_OF.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS)


_NB: list[int] = [0] * _SIZE  # neighbour set of each point
_EDGE = 0  # the points on the rim of the board
# A bit above the board that stands for "off the board" in a gap (see _GAPS).
_OFF_BOARD = 1 << 63
# _GAPS[b][occupied & _NB[b]]: the empty stretches of b's ring of six between runs of
# occupied neighbours, each as a bit set (with _OFF_BOARD if it leaves the board);
# () when the occupied neighbours form at most one run, so that the stack on b can
# leave without splitting the band.
_GAPS: list[dict[int, tuple[int, ...]]] = [{} for _ in range(_SIZE)]
# _ALL_GAPS[b][occupied & _NB[b]]: the same gaps however many (none for a full ring).
_ALL_GAPS: list[dict[int, tuple[int, ...]]] = [{} for _ in range(_SIZE)]
# _EULER[b][occupied & _NB[b]]: what adding the point b changes in the Euler
# characteristic of the band (points - adjacent pairs + triangles of three adjacent
# points); a connected band has 1 - (its characteristic) holes.
_EULER: list[dict[int, int]] = [{} for _ in range(_SIZE)]
for _b in _BITS:
    _ring_bits = _ring(_b)
    _NB[_b] = sum(1 << n for n in _ring_bits if n >= 0)
    if -1 in _ring_bits:
        _EDGE |= 1 << _b
    _on_ring = sum(1 << i for i in range(6) if _ring_bits[i] >= 0)
    for _pattern in range(64):
        if _pattern & ~_on_ring:
            continue
        _gaps: list[int] = []
        for i in range(6):
            if (_pattern >> i) & 1 or not (_pattern >> ((i - 1) % 6)) & 1:
                continue  # not the first empty place after an occupied one
            gap = 0
            j = i
            while not (_pattern >> j) & 1:
                gap |= _OFF_BOARD if _ring_bits[j] < 0 else 1 << _ring_bits[j]
                j = (j + 1) % 6
            _gaps.append(gap)
        key = sum(1 << _ring_bits[i] for i in range(6) if (_pattern >> i) & 1)
        _GAPS[_b][key] = tuple(_gaps) if len(_gaps) >= 2 else ()
        _ALL_GAPS[_b][key] = tuple(_gaps)
        _pairs = sum(1 for i in range(6) if (_pattern >> i) & 1 and (_pattern >> ((i + 1) % 6)) & 1)
        _EULER[_b][key] = 1 - _pattern.bit_count() + _pairs


def _dilate(x: int) -> int:
    """The points next to the set ``x`` (``x`` itself included)."""
    return (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & _BOARD


def _bits_of(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def _stays_connected(b: int, occupied: int) -> bool:
    """Whether the band ``occupied`` (connected) stays connected without the point ``b``:
    a flood fill from one occupied neighbour must reach all the others."""
    rest = occupied ^ (1 << b)
    need = _NB[b] & rest
    reach = need & -need
    while True:
        x = reach
        grown = (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & rest
        if grown & need == need:
            return True
        if grown == reach:
            return False
        reach = grown


def _holes(occupied: int) -> int:
    """The empty points that the band ``occupied`` walls off from the rim of the board,
    from scratch."""
    empty = _BOARD & ~occupied
    reach = empty & _EDGE
    while True:
        x = reach
        grown = (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & empty
        if grown == reach:
            return empty & ~grown
        reach = grown


def _region(start: int, within: int) -> int:
    """The points of ``within`` joined to ``start`` (a subset of it) through ``within``."""
    reach = start
    while True:
        x = reach
        grown = (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & within
        if grown == reach:
            return reach
        reach = grown


def _enclosed_by_entry(b: int, gaps: tuple[int, ...], occupied: int) -> int:
    """The empty points that a piece just entered on ``b`` (outside any hole) has walled
    off from the rim: the regions of its gaps that no longer reach it."""
    empty = _BOARD & ~occupied
    found = 0
    for gap in gaps:
        if gap & (_OFF_BOARD | found):
            continue
        reach = gap
        while True:
            x = reach
            grown = (x | x << 1 | x >> 1 | x << 8 | x >> 8 | x << 9 | x >> 9) & empty
            if grown & _EDGE:
                break
            if grown == reach:
                found |= reach
                break
            reach = grown
    return found


def _holes_after_lift(b: int, occupied: int, holes: int) -> int:
    """The holes once the stack on ``b`` has left (``occupied`` no longer holds ``b``),
    from the holes before: ``b`` becomes a hole if its ring is full or all its gaps lie
    in holes; otherwise it is outside, and so are the holes its gaps open into."""
    gaps = _ALL_GAPS[b][occupied & _NB[b]]
    if not gaps:
        return holes | 1 << b
    if not holes:
        return 0
    inside = 0
    opened = False
    for gap in gaps:
        if gap & holes:
            inside |= gap
        else:
            opened = True
    if not inside:
        return holes
    if not opened:
        return holes | 1 << b
    return holes & ~_region(inside & holes, holes)


def _euler(occupied: int) -> int:
    """The Euler characteristic of the band ``occupied`` (see ``_EULER``)."""
    total = 0
    added = 0
    for b in _bits_of(occupied):
        total += _EULER[b][added & _NB[b]]
        added |= 1 << b
    return total


def _splits(b: int, gaps: tuple[int, ...], occupied: int, holes: int) -> bool:
    """Whether lifting the stack on ``b`` splits the band, given the gaps between the
    runs of occupied points around ``b`` (two or more, see ``_GAPS``) and the holes of
    the band (empty points it walls off from the rim).

    On the hex grid, the runs around ``b`` stay joined unless an empty path, not through
    ``b``, joins two of the gaps: with ``b`` it would close a loop of empty points that
    no chain of stacks can cross (the Hex theorem; D. Gale, "The game of Hex and the
    Brouwer fixed-point theorem", 1979). All the empty space outside the band, off the
    board included, is one region. So two gaps open to the outside split the band, and
    gaps that all lie in different regions do not; only two gaps in holes need a flood.
    """
    enclosed = 0
    for gap in gaps:
        if gap & holes:
            enclosed += 1
    if len(gaps) - enclosed >= 2:
        return True
    if enclosed <= 1:
        return False
    return not _stays_connected(b, occupied)


def _connected(occupied: int) -> bool:
    """Whether the points of ``occupied`` form one group (true for no point)."""
    if not occupied:
        return True
    reach = occupied & -occupied
    while True:
        grown = _dilate(reach) & occupied
        if grown == reach:
            return grown == occupied
        reach = grown


# --- stacks ---------------------------------------------------------------------------
# A stack is an int: bit i is the colour of the i-th piece from the bottom (1 = White)
# and a sentinel bit sits above the top piece, so height = code.bit_length() - 1 and
# 0 is the empty point. Moving stack s onto stack t gives (t ^ 1 << ht) | s << ht.


def _height(code: int) -> int:
    return code.bit_length() - 1 if code else 0


def _pieces(code: int) -> tuple[Color, ...]:
    return tuple(_COLORS[(code >> i) & 1] for i in range(_height(code)))


def _stack_text(code: int) -> str:
    return "".join("BW"[(code >> i) & 1] for i in range(_height(code)))


# --- Zobrist keys ---------------------------------------------------------------------
def _piece_key(b: int, level: int, color: int) -> int:
    return splitmix64(0xAB000000 + (b * 64 + level) * 2 + color)


class _StackKeys(dict[int, int]):
    """Zobrist key of a whole stack code on one point: the XOR of one key per
    (point, height level, colour) of its pieces; filled on first use."""

    def __init__(self, b: int) -> None:
        super().__init__({0: 0})
        self.point = b

    def __missing__(self, code: int) -> int:
        key = 0
        for level in range(_height(code)):
            key ^= _piece_key(self.point, level, (code >> level) & 1)
        self[code] = key
        return key


_ZS: list[_StackKeys] = [_StackKeys(b) for b in range(_SIZE)]
_Z_TURN = splitmix64(0xAB0001)
_Z_PASSES = (0, splitmix64(0xAB0002), splitmix64(0xAB0003))
_Z_HAND = tuple(tuple(splitmix64(0xAB1000 + 64 * c + n) for n in range(PIECES_PER_PLAYER + 1))
                for c in (0, 1))
# Entering a piece of colour c from a hand of n on bit b changes the key by this.
_Z_ENTER = tuple(tuple(tuple(_ZS[b][2 | c] ^ _Z_HAND[c][n] ^ _Z_HAND[c][n - 1] ^ _Z_TURN
                             if n else 0 for n in range(PIECES_PER_PLAYER + 1))
                       for b in range(_SIZE)) for c in (0, 1))


# --- moves ----------------------------------------------------------------------------
# ASCII letters and digits only (issue 14): ``\d`` and a case-insensitive ``[a-z]`` would
# also read other scripts' digits and the letters that fold to ASCII (long s, Kelvin).
_MOVE_RE = re.compile(
    r"\s*(?:([a-zA-Z][0-9]+)\s*-\s*)?([a-zA-Z][0-9]+)\s*|\s*([pP][aA][sS][sS])\s*")


@dataclass(frozen=True, slots=True)
class Move:
    """An entry on ``to``, a stack move from ``from_`` onto ``to``, or a pass
    (``to`` is ``None``); cells are axial ``(q, r)`` pairs.

    Notation (docs/notation.md): ``d4`` enters a piece, ``c3-d4`` moves the stack on c3 onto
    d4, ``pass`` passes. The module constant :data:`PASS` is the pass.

    Raises:
        InvalidMoveError: if a cell is not a point of the board, or ``from_`` is given
            without ``to``.
    """

    to: Cell | None
    from_: Cell | None = None
    _to: int = field(default=-1, init=False, repr=False, compare=False)
    _from: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.to is not None:
            object.__setattr__(self, "_to", _cell_bit(self.to))
        if self.from_ is not None:
            if self.to is None:
                raise InvalidMoveError("a stack move needs a target point (to)")
            object.__setattr__(self, "_from", _cell_bit(self.from_))

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Parse ``d4``, ``c3-d4`` or ``pass`` (any letter case, spaces around).

        Raises:
            InvalidMoveError: naming ``text`` if it is not a move or names a point that
                is not on the board.
        """
        m = _MOVE_RE.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise InvalidMoveError(
                f"{text!r} is not an Abande move (expected an entry such as d4, "
                "a stack move such as c3-d4, or pass)")
        if m.group(3) is not None:
            return PASS
        where = f" in the move {text.strip()!r}"
        to = _name_bit(m.group(2), where)
        if m.group(1) is None:
            return _ENTRIES[to]
        source = _name_bit(m.group(1), where)
        return _STACK_MOVES.get(source * 64 + to) or cls(_CELL_OF[to], _CELL_OF[source])

    def notation(self) -> str:
        """The canonical text of the move: ``d4``, ``c3-d4`` or ``pass``."""
        if self._to < 0:
            return "pass"
        if self._from < 0:
            return _NAME_OF[self._to]
        return f"{_NAME_OF[self._from]}-{_NAME_OF[self._to]}"

    @property
    def is_pass(self) -> bool:
        """Whether the move is a pass."""
        return self._to < 0

    @property
    def is_entry(self) -> bool:
        """Whether the move enters a piece from the hand."""
        return self._to >= 0 and self._from < 0

    @property
    def is_stack_move(self) -> bool:
        """Whether the move moves a stack (always a capture)."""
        return self._from >= 0

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        if self.from_ is None:
            return f"Move(to={self.to!r})"
        return f"Move(to={self.to!r}, from_={self.from_!r})"


#: The pass.
PASS = Move(None)
# Interned moves, so move generation allocates nothing.
_ENTRIES: dict[int, Move] = {b: Move(_CELL_OF[b]) for b in _BITS}
_STACK_MOVES: dict[int, Move] = {
    s * 64 + t: Move(_CELL_OF[t], _CELL_OF[s]) for s in _BITS for t in _bits_of(_NB[s])}


def _subsets(mask: int) -> Iterator[int]:
    """Every subset of the bit set ``mask``."""
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


# _TARGET_MOVES[s][targets]: the stack moves from s onto a set of its neighbours.
_TARGET_MOVES: list[dict[int, tuple[Move, ...]]] = [{} for _ in range(_SIZE)]
for _b in _BITS:
    for _sub in _subsets(_NB[_b]):
        _TARGET_MOVES[_b][_sub] = tuple(_STACK_MOVES[_b * 64 + t] for t in _bits_of(_sub))


def _chunk_tables(items: dict[int, Any]) -> list[list[tuple[Any, ...]]]:
    """Tables that turn a set of points into a tuple of per-point items in board order,
    16 bits (two columns) at a time: ``tables[k][x]`` holds the items of the points of
    the set ``x << 16 * k``, so four lookups and three tuple joins cover the board."""
    tables = []
    for k in range(4):
        points = (_BOARD >> (16 * k)) & 0xFFFF
        table: list[tuple[Any, ...]] = [()] * (points + 1)
        done = [0]  # the subsets of the points below i, each extended by point i in turn
        for i in range(16):
            if (points >> i) & 1:
                item = (items[16 * k + i],)
                grown = [sub | 1 << i for sub in done]
                for sub, new in zip(done, grown, strict=True):
                    table[new] = table[sub] + item
                done += grown
        tables.append(table)
    return tables


_SourceInfo = tuple[int, int, int, dict[int, tuple[int, ...]], dict[int, tuple[Move, ...]]]
# _CHUNK_ENTRIES: the entries on a set of points; _CHUNK_SOURCES: for each point of a
# set, its bit index, its bit, its neighbours, its _GAPS and its _TARGET_MOVES.
_CHUNK_ENTRIES: list[list[tuple[Move, ...]]] = _chunk_tables(_ENTRIES)
_CHUNK_SOURCES: list[list[tuple[_SourceInfo, ...]]] = _chunk_tables(
    {b: (b, 1 << b, _NB[b], _GAPS[b], _TARGET_MOVES[b]) for b in _BITS})


# --- the board ------------------------------------------------------------------------
STARTING_POSITION = "abande turn=b hands=b18,w18"
_NO_MOVES: tuple[Move, ...] = ()
_PASS_ONLY = (PASS,)
# Black's hand while the opening restriction forbids stack moves (fewer than 2 entered).
_OPENING_HAND = PIECES_PER_PLAYER - 2


@dataclass(frozen=True)
class _PositionFields:
    text: str
    stacks: tuple[tuple[int, int], ...]  # (bit, stack code) in board order
    turn: int
    hands: tuple[int, int]
    passes: int


@dataclass(frozen=True)
class _Setup:
    """The state of a set-up position, computed once and copied by each new board."""

    fields: _PositionFields
    code: list[int]
    occupied: int
    top: tuple[int, int]
    heights: list[int]
    entries: int
    euler: int
    holes: int
    hash: int


@functools.lru_cache(maxsize=256)
def _setup_state(position: str, rules: Rules) -> _Setup:
    fields = _parse_position(position, rules)
    code = [0] * _SIZE
    top = [0, 0]
    heights = [0] * (rules.max_height + 1)
    occupied = 0
    zkey = 0
    for b, stack in fields.stacks:
        code[b] = stack
        h = _height(stack)
        occupied |= 1 << b
        top[(stack >> (h - 1)) & 1] |= 1 << b
        heights[h] |= 1 << b
        zkey ^= _ZS[b][stack]
    entries = _dilate(occupied) & ~occupied if occupied else _BOARD
    zkey ^= _Z_HAND[0][fields.hands[0]] ^ _Z_HAND[1][fields.hands[1]]
    zkey ^= _Z_PASSES[fields.passes]
    if fields.turn:
        zkey ^= _Z_TURN
    return _Setup(fields, code, occupied, (top[0], top[1]), heights, entries,
                  _euler(occupied), _holes(occupied), zkey)


class Board(BoardBase["Move"]):
    """An Abande position with its move history.

    Args:
        position: a position string (docs/notation.md); ``None`` for the empty board with
            Black to move.
        rules: the rules options; the defaults are the standard game.

    Raises:
        InvalidPositionError: if ``position`` is malformed or impossible under ``rules``,
            naming the field at fault.
        InvalidRulesError: if ``rules`` is not an :class:`Rules`.
    """

    MOVE = Move

    __slots__ = ("_code", "_entries", "_euler", "_hands", "_hash", "_heights", "_holes",
                 "_max_height",
                 "_moves", "_occupied", "_outcome", "_passes", "_root", "_top", "_turn",
                 "_undo", "move_stack", "rules")

    def __init__(self, position: str | None = None, rules: Rules | None = None) -> None:
        self.rules = rules if rules is not None else Rules()
        if not isinstance(self.rules, Rules):
            raise InvalidRulesError(f"rules must be abande.Rules, not {type(rules).__name__}")
        if position is None:
            position = STARTING_POSITION
        elif not isinstance(position, str):
            raise InvalidPositionError(
                f"a position string is text, not {type(position).__name__}")
        setup = _setup_state(position, self.rules)
        fields = setup.fields
        self._root = fields
        #: The moves pushed since the starting position, oldest first.
        self.move_stack: list[Move] = []
        self._max_height = self.rules.max_height
        self._code = setup.code.copy()
        self._occupied = setup.occupied
        self._top = list(setup.top)
        self._heights = setup.heights.copy()
        self._entries = setup.entries
        self._euler = setup.euler
        self._holes = setup.holes
        self._hash = setup.hash
        self._turn = fields.turn
        self._hands = list(fields.hands)
        self._passes = fields.passes
        self._outcome = self._final_outcome() if fields.passes == 2 else None
        self._undo: list[tuple[Any, ...]] = []
        self._moves: tuple[Move, ...] | None = None  # legal moves, cached until push/pop

    # -- reading the position ----------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move."""
        return _COLORS[self._turn]

    @property
    def hands(self) -> tuple[int, int]:
        """Pieces still in hand, as (Black, White)."""
        return (self._hands[0], self._hands[1])

    @property
    def passes(self) -> int:
        """1 if the previous ply was a pass, 2 once two passes in succession ended the
        game, else 0."""
        return self._passes

    @property
    def opening_restriction(self) -> bool:
        """Whether stack moves are still forbidden: Black has entered fewer than two
        pieces (docs/rules.md, "Opening restriction")."""
        return self._hands[0] > _OPENING_HAND

    def stack(self, cell: Cell | str) -> tuple[Color, ...]:
        """The pieces on ``cell`` from bottom to top (``()`` for an empty point).

        ``cell`` is an axial ``(q, r)`` pair or a board name such as ``"c3"``.

        Raises:
            InvalidMoveError: if ``cell`` is not a point of the board.
        """
        return _pieces(self._code[_cell_bit(cell)])

    def stacks(self) -> dict[Cell, tuple[Color, ...]]:
        """Every stack on the board, bottom to top, by axial cell in board order."""
        return {_CELL_OF[b]: _pieces(self._code[b]) for b in _bits_of(self._occupied)}

    def controller(self, cell: Cell | str) -> Color | None:
        """The colour of the top piece on ``cell``, or ``None`` for an empty point.

        Raises:
            InvalidMoveError: if ``cell`` is not a point of the board.
        """
        code = self._code[_cell_bit(cell)]
        return _COLORS[(code >> (_height(code) - 1)) & 1] if code else None

    def _awake_sets(self) -> tuple[int, int]:
        black, white = self._top
        return black & _dilate(white), white & _dilate(black)

    def awake(self, cell: Cell | str) -> bool:
        """Whether the stack on ``cell`` is awake: a neighbouring stack is controlled by
        the opponent (docs/rules.md, "Scoring"). ``False`` for an empty point.

        Raises:
            InvalidMoveError: if ``cell`` is not a point of the board.
        """
        black, white = self._awake_sets()
        return bool((black | white) >> _cell_bit(cell) & 1)

    def sleeping(self) -> frozenset[Cell]:
        """The points (axial cells) holding sleeping stacks, which score nothing."""
        black, white = self._awake_sets()
        return frozenset(_CELL_OF[b] for b in _bits_of(self._occupied & ~(black | white)))

    def score(self) -> tuple[int, int]:
        """The points each side would score now, as (Black, White): the heights of the
        awake stacks it controls (docs/rules.md, "Scoring")."""
        awake = self._awake_sets()
        heights = self._heights
        return (sum(h * (awake[0] & heights[h]).bit_count() for h in range(1, len(heights))),
                sum(h * (awake[1] & heights[h]).bit_count() for h in range(1, len(heights))))

    def zobrist_hash(self) -> int:
        """A 64-bit Zobrist key of the stacks (one key per point, height level and
        colour), the side to move, both hands and the passes state (0, 1 or 2)."""
        return self._hash

    def position(self) -> str:
        """The position string (docs/notation.md), which ``Board(position, rules)`` reads."""
        parts = ["abande"]
        parts.extend(f"{_NAME_OF[b]}={_stack_text(self._code[b])}"
                     for b in _bits_of(self._occupied))
        parts.append(f"turn={'bw'[self._turn]}")
        parts.append(f"hands=b{self._hands[0]},w{self._hands[1]}")
        if self._passes:
            parts.append(f"passes={self._passes}")
        return " ".join(parts)

    def __str__(self) -> str:
        """The board as text: on the left every stack bottom to top (``BW`` is a
        White-topped stack of two, ``.`` an empty point), on the right the name of each
        point in the same place; columns a-g run left to right, numbers up from 1 at the
        bottom. A last line gives the side to move and the hands."""
        width = max(self._max_height, 2)
        left = _draw({b: _stack_text(self._code[b]) or "." for b in _BITS}, width)
        right = _draw(_NAME_OF, 2)
        lines = [f"{a}     {b}".rstrip() for a, b in zip(left, right, strict=True)]
        if self._outcome is not None:
            status = f"game over: {self.result()}, score {self.score()[0]}-{self.score()[1]}"
        else:
            status = f"{_NAMES[self._turn]} to move"
            if self._passes:
                status += " (after a pass)"
        lines.append(f"{status}; in hand: Black {self._hands[0]}, White {self._hands[1]}")
        return "\n".join(lines)

    # -- legal moves -------------------------------------------------------------------

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves here, as a tuple (empty once the game is over): entries in
        board order (a1, a2, ..., g4), then stack moves by source and target in board
        order, then the pass. The order depends only on the position."""
        moves = self._moves
        return moves if moves is not None else self._generate()

    def legal_moves_from(self, cell: Cell | str | None) -> tuple[Move, ...]:
        """The legal moves of the stack on ``cell`` (an axial pair or a name such as
        ``"c3"``), its captures, in the order of :attr:`legal_moves`; with ``None`` the
        moves of no stack: the entries and the pass.

        Raises:
            InvalidMoveError: if ``cell`` is not a point of the board.
        """
        source = -1 if cell is None else _cell_bit(cell)
        return tuple(move for move in self.legal_moves if move._from == source)

    def legal_sources(self) -> tuple[Cell, ...]:
        """The points of the stacks that a legal move moves, in board order."""
        return tuple(dict.fromkeys(move.from_ for move in self.legal_moves
                                   if move.from_ is not None))

    def _generate(self) -> tuple[Move, ...]:
        """Build and cache the tuple of legal moves (until the next push or pop)."""
        if self._outcome is not None:
            self._moves = _NO_MOVES
            return _NO_MOVES
        color = self._turn
        if self._hands[color]:
            e = self._entries
            t = _CHUNK_ENTRIES
            moves = (t[0][e & 0xFFFF] + t[1][e >> 16 & 0xFFFF] + t[2][e >> 32 & 0xFFFF]
                     + t[3][e >> 48])
            if self._hands[0] <= _OPENING_HAND:
                moves += self._stack_moves(color)
        elif self._hands[0] <= _OPENING_HAND:
            moves = self._stack_moves(color) + _PASS_ONLY
        else:
            moves = _PASS_ONLY
        self._moves = moves
        return moves

    def _stack_moves(self, color: int) -> tuple[Move, ...]:
        """The legal stack moves of ``color``, by source then target in board order
        (the opening restriction is the caller's test)."""
        mover = self._top[color]
        enemy = self._top[1 - color]
        if self._max_height != 3:
            return self._stack_moves_any(mover, enemy)
        # The standard game, spelt out for speed: a single piece may land on enemy stacks
        # of height 1 or 2, a 2-stack only on single enemy pieces.
        _, one, two, _ = self._heights
        low_targets = enemy & one
        targets = low_targets | enemy & two
        sources = mover & (one | two) if low_targets else mover & one
        moves: tuple[Move, ...] = ()
        if not (sources and targets):
            return moves
        occupied = self._occupied
        holes = self._holes
        c = _CHUNK_SOURCES
        for s, bit, nb, gap_table, target_moves in (
                c[0][sources & 0xFFFF] + c[1][sources >> 16 & 0xFFFF]
                + c[2][sources >> 32 & 0xFFFF] + c[3][sources >> 48]):
            hits = nb & (targets if bit & one else low_targets)
            if not hits:
                continue
            gaps = gap_table[occupied & nb]
            # With no holes every gap is open to the outside: s is a cut point.
            if gaps and (not holes or _splits(s, gaps, occupied, holes)):
                continue
            moves += target_moves[hits]
        return moves

    def _stack_moves_any(self, mover: int, enemy: int) -> tuple[Move, ...]:
        """:meth:`_stack_moves` for any ``max_height``."""
        heights = self._heights
        max_height = self._max_height
        # targets[h]: the enemy stacks a stack of height h may land on (height <= max - h).
        targets = [0] * max_height
        reach = 0
        candidates = 0
        for h in range(max_height - 1, 0, -1):
            reach |= enemy & heights[max_height - h]
            targets[h] = reach
            candidates |= mover & heights[h] & _dilate(reach)
        moves: tuple[Move, ...] = ()
        occupied = self._occupied
        holes = self._holes
        for s in _bits_of(candidates):
            nb = _NB[s]
            gaps = _GAPS[s][occupied & nb]
            if gaps and (not holes or _splits(s, gaps, occupied, holes)):
                continue
            moves += _TARGET_MOVES[s][nb & targets[_height(self._code[s])]]
        return moves

    def _illegal_reason(self, move: Move) -> str | None:
        if not isinstance(move, Move):
            return f"{move!r} is not an Abande move"
        if self._outcome is not None:
            return "the game is over"
        color = self._turn
        hand = self._hands[color]
        t = move._to
        if t < 0:
            if hand:
                return (f"{_NAMES[color]} still has {hand} piece(s) in hand; "
                        "a player passes only with an empty hand")
            return None
        if move._from < 0:
            if not hand:
                return f"{_NAMES[color]} has no pieces left in hand"
            if self._code[t]:
                return f"{_NAME_OF[t]} is occupied"
            if not (self._entries >> t) & 1:
                return (f"{_NAME_OF[t]} touches no occupied point; a piece enters next to "
                        "the band")
            return None
        return self._stack_move_reason(move._from, t, color)

    def _stack_move_reason(self, s: int, t: int, color: int) -> str | None:
        name_s, name_t = _NAME_OF[s], _NAME_OF[t]
        if self._hands[0] > _OPENING_HAND:
            return ("no stack moves before Black has entered its second piece "
                    "(the opening restriction)")
        code = self._code
        cs, ct = code[s], code[t]
        if not cs:
            return f"{name_s} is empty"
        hs = cs.bit_length() - 1
        if (cs >> (hs - 1)) & 1 != color:
            return f"the stack on {name_s} is controlled by {_NAMES[1 - color]}"
        if not (_NB[s] >> t) & 1:
            return f"{name_s} and {name_t} are not adjacent"
        if not ct:
            return f"{name_t} is empty; a stack moves only onto an enemy stack"
        ht = ct.bit_length() - 1
        if (ct >> (ht - 1)) & 1 == color:
            return (f"the stack on {name_t} is {_NAMES[color]}'s own; a stack moves only "
                    "onto an enemy stack")
        if hs + ht > self._max_height:
            return (f"the stack would be {hs + ht} high; the rules allow at most "
                    f"{self._max_height}")
        occupied = self._occupied
        gaps = _GAPS[s][occupied & _NB[s]]
        if gaps and (not self._holes or _splits(s, gaps, occupied, self._holes)):
            return f"moving the stack on {name_s} would split the band"
        return None

    # -- make / unmake -----------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``.

        Raises:
            IllegalMoveError: if the move is not legal here (the board is unchanged).
        """
        try:
            t = move._to
            s = move._from
        except AttributeError:
            raise IllegalMoveError(f"{move!r} is not an Abande move") from None
        color = self._turn
        if s < 0 and t >= 0:  # an entry
            hand = self._hands[color]
            if not (hand and (self._entries >> t) & 1) or self._outcome is not None:
                self._raise_illegal(move)
            bit = 1 << t
            occupied = self._occupied
            entries = self._entries
            euler, holes = self._euler, self._holes
            self._undo.append((self._hash, entries, self._passes, euler, holes))
            pattern = occupied & _NB[t]
            change = _EULER[t][pattern]
            self._euler = euler + change
            if holes & bit:
                self._holes = holes ^ bit
            elif change < 0:  # a new hole for each unit the characteristic fell
                self._holes = holes | _enclosed_by_entry(t, _ALL_GAPS[t][pattern],
                                                          occupied | bit)
            self._occupied = occupied | bit
            self._entries = ((entries | _NB[t]) & ~(occupied | bit)) if occupied else _NB[t]
            self._top[color] |= bit
            self._heights[1] |= bit
            self._code[t] = 2 | color
            self._hands[color] = hand - 1
            key = self._hash ^ _Z_ENTER[color][t][hand]
            if self._passes:
                key ^= _Z_PASSES[1]
                self._passes = 0
            self._hash = key
        elif s >= 0:  # a stack move
            if self._outcome is not None or self._stack_move_reason(s, t, color) is not None:
                self._raise_illegal(move)
            code = self._code
            cs, ct = code[s], code[t]
            hs, ht = cs.bit_length() - 1, ct.bit_length() - 1
            new = (ct ^ 1 << ht) | cs << ht
            self._undo.append((self._hash, self._entries, self._passes, self._euler,
                               self._holes, cs, ct))
            code[s] = 0
            code[t] = new
            bs, bt = 1 << s, 1 << t
            occupied = self._occupied ^ bs
            self._occupied = occupied
            self._euler -= _EULER[s][occupied & _NB[s]]
            self._holes = _holes_after_lift(s, occupied, self._holes)
            top = self._top
            top[color] ^= bs | bt
            top[1 - color] ^= bt
            heights = self._heights
            heights[hs] ^= bs
            heights[ht] ^= bt
            heights[hs + ht] |= bt
            self._entries = _dilate(occupied) & ~occupied
            zs = _ZS
            key = self._hash ^ zs[s][cs] ^ zs[t][ct] ^ zs[t][new] ^ _Z_TURN
            if self._passes:
                key ^= _Z_PASSES[1]
                self._passes = 0
            self._hash = key
        else:  # a pass
            if self._hands[color] or self._outcome is not None:
                self._raise_illegal(move)
            passes = self._passes
            self._undo.append((self._hash, self._entries, passes, self._euler, self._holes))
            self._hash ^= _Z_PASSES[passes] ^ _Z_PASSES[passes + 1] ^ _Z_TURN
            self._passes = passes + 1
            if passes:
                self._outcome = self._final_outcome()
        self._turn = 1 - color
        self._moves = None
        self.move_stack.append(move)

    def _raise_illegal(self, move: Move) -> None:
        reason = self._illegal_reason(move) or "it is not legal here"
        raise IllegalMoveError(f"illegal move {move.notation()}: {reason}")

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises:
            IndexError: if no move has been pushed.
        """
        if not self.move_stack:
            raise IndexError("pop from a board with no moves")
        move = self.move_stack.pop()
        record = self._undo.pop()
        color = 1 - self._turn
        self._turn = color
        self._hash, self._entries, self._passes, self._euler, self._holes = record[:5]
        self._moves = None
        t = move._to
        s = move._from
        if s >= 0:
            cs, ct = record[5], record[6]
            hs, ht = cs.bit_length() - 1, ct.bit_length() - 1
            code = self._code
            code[s] = cs
            code[t] = ct
            bs, bt = 1 << s, 1 << t
            self._occupied |= bs
            top = self._top
            top[color] ^= bs | bt
            top[1 - color] ^= bt
            heights = self._heights
            heights[hs + ht] ^= bt
            heights[ht] |= bt
            heights[hs] |= bs
        elif t >= 0:
            bit = 1 << t
            self._occupied ^= bit
            self._top[color] ^= bit
            self._heights[1] ^= bit
            self._code[t] = 0
            self._hands[color] += 1
        else:
            self._outcome = None
        return move

    # -- the end of the game -----------------------------------------------------------

    def _final_outcome(self) -> Outcome:
        black, white = self.score()
        winner = None if black == white else _COLORS[0 if black > white else 1]
        return Outcome(Termination.SCORE, winner, score=(black, white))

# --- position strings -----------------------------------------------------------------
_STACK_RE = re.compile(r"[BW]+")
_CELL_KEY_RE = re.compile(r"[a-z][0-9]+")


def _parse_position(text: str, rules: Rules) -> _PositionFields:
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position string is text, not {type(text).__name__}")
    words = text.split()
    if not words or words[0].lower() != "abande":
        name = words[0] if words else ""
        raise InvalidPositionError(
            f"position must start with the game name abande, not {name!r}")
    fields: dict[str, str] = {}
    stacks: dict[int, int] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep or not key:
            raise InvalidPositionError(f"field {word!r} is not key=value")
        if key in fields or (key in _BIT_OF_NAME and _BIT_OF_NAME[key] in stacks):
            raise InvalidPositionError(f"field {key}= is given twice")
        if key in ("turn", "hands", "passes"):
            fields[key] = value.lower()
        elif _CELL_KEY_RE.fullmatch(key):
            b = _BIT_OF_NAME.get(key)
            if b is None:
                raise InvalidPositionError(
                    f"field {key}=: {key} is not a point of the board (points: "
                    f"{_COLUMN_SIZES})")
            pieces = value.upper()
            if not _STACK_RE.fullmatch(pieces):
                raise InvalidPositionError(
                    f"field {key}=: {value!r} is not a stack (B and W from bottom to top)")
            if len(pieces) > rules.max_height:
                raise InvalidPositionError(
                    f"field {key}=: the stack {pieces} is {len(pieces)} high; the rules "
                    f"allow at most {rules.max_height}")
            code = 1 << len(pieces)
            for i, letter in enumerate(pieces):
                code |= (letter == "W") << i
            stacks[b] = code
        else:
            raise InvalidPositionError(f"unknown field {key!r} in an Abande position")
    if "turn" not in fields:
        raise InvalidPositionError("field turn= is missing")
    if fields["turn"] not in ("b", "w"):
        raise InvalidPositionError(f"field turn= must be b or w, not {fields['turn']!r}")
    turn = "bw".index(fields["turn"])
    on_board = [0, 0]
    for code in stacks.values():
        for i in range(_height(code)):
            on_board[(code >> i) & 1] += 1
    if "hands" in fields:
        m = re.fullmatch(r"b([0-9]{1,3}),w([0-9]{1,3})", fields["hands"])
        if m is None:
            raise InvalidPositionError(
                f"field hands= must look like b18,w18, not {fields['hands']!r}")
        hands = (int(m.group(1)), int(m.group(2)))
    else:
        hands = (PIECES_PER_PLAYER - on_board[0], PIECES_PER_PLAYER - on_board[1])
    for color in (0, 1):
        # Without hands= a colour with more than 18 pieces on the board has none in hand
        # (not a negative number).
        owned = on_board[color] + max(hands[color], 0)
        if owned != PIECES_PER_PLAYER:
            relation = "more" if owned > PIECES_PER_PLAYER else "fewer"
            raise InvalidPositionError(
                f"field hands=: {_NAMES[color]} would own {owned} pieces ({on_board[color]} "
                f"on the board, {max(hands[color], 0)} in hand), {relation} than the "
                f"{PIECES_PER_PLAYER} each player owns")
    passes = 0
    if "passes" in fields:
        if fields["passes"] not in ("0", "1", "2"):
            raise InvalidPositionError(
                f"field passes= must be 0, 1 or 2, not {fields['passes']!r}")
        passes = int(fields["passes"])
        if passes == 1 and hands[1 - turn]:
            raise InvalidPositionError(
                f"field passes=1: {_NAMES[1 - turn]}, who moved last, has pieces in hand "
                "and cannot have passed")
        if passes == 2 and any(hands):
            raise InvalidPositionError(
                "field passes=2 (the game is over) needs both hands empty")
    occupied = sum(1 << b for b in stacks)
    if not _connected(occupied):
        first = occupied & -occupied
        reach = first
        while (grown := _dilate(reach) & occupied) != reach:
            reach = grown
        away = _NAME_OF[(occupied & ~reach).bit_length() - 1]
        raise InvalidPositionError(
            f"field {away}=: the stacks do not form one connected band ({away} is cut off "
            f"from {_NAME_OF[first.bit_length() - 1]})")
    ordered = tuple(sorted(stacks.items()))
    return _PositionFields(text.strip(), ordered, turn, hands, passes)


def _draw(texts: dict[int, str], width: int) -> list[str]:
    """The 37 points as 14 lines of text (column letters, then 13 rows): each point's
    text centred in ``width`` characters, columns a-g left to right, number 1 of each
    column at its bottom."""
    step = (width + 2) // 2 + 1
    total = 6 * step + width
    rows = [[" "] * total for _ in range(4 * RADIUS + 1)]
    header = [" "] * total
    for b, text in texts.items():
        q, r = _CELL_OF[b]
        x = (q + RADIUS) * step
        row = 2 * r + q + 2 * RADIUS  # the doubled row, 0 at the top (d7)
        rows[row][x:x + width] = text.center(width)[:width]
        header[x + (width - 1) // 2] = "abcdefg"[q + RADIUS]
    return ["".join(header)] + ["".join(row) for row in rows]
