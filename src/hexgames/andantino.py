"""Andantino (David L. Smith, 1995): rules, moves and a fast board.

The rules are those of ``docs/rules.md`` (section "Andantino") with every option there; the
notation is that of ``docs/notation.md``. The interface follows python-chess::

    >>> from hexgames import andantino
    >>> board = andantino.Board()
    >>> sorted(move.notation() for move in board.legal_moves)
    ['0,1', '1,-1']
    >>> board.push_notation("0,1")
    Move(to=(0, 1))
    >>> len(board.legal_moves)
    3

Internally a cell is packed into one small int (``_pack``), and the board keeps, under
make/unmake, one dict holding each tile and, for each empty cell touching the surface,
the number of tiles it touches; a dict of the placements on cells touching two or more
tiles (the legal placements); the Zobrist key; and for each colour the cells it already
walls off. A placement tests only the three lines through it, and runs the enclosure flood fill only
when the new tile touches two or more separate runs of its own colour: otherwise the
cells around it that are not its colour stay connected through its ring, so no region
can have been cut off.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

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
from hexgames.hexgrid import Cell
from hexgames.limits import MAX_TILES_PER_PLAYER

GAME_NAME = "Andantino"
#: Record tags naming the players, first player first.
PLAYER_TAGS = ("White", "Red")


class Color(enum.IntEnum):
    """The two sides; WHITE moves first."""

    WHITE = 0
    RED = 1

    @property
    def letter(self) -> str:
        """``"w"`` or ``"r"``, as in position strings."""
        return "wr"[self]


WHITE = Color.WHITE
RED = Color.RED
_COLORS = (Color.WHITE, Color.RED)


class SelfTrap(enum.Enum):
    """What happens when a player places a tile into a pocket the opponent walls off."""

    OPPONENT_WINS = "opponent_wins"
    ILLEGAL = "illegal"
    IGNORE = "ignore"

    def __repr__(self) -> str:
        return f"SelfTrap.{self.name}"


@dataclass(frozen=True)
class Rules(RulesBase):
    """The options of docs/rules.md; the defaults are the standard game.

    Attributes:
        single_adjacency: Néstor Romeral Andrés' balance variant: once per game Red may
            place a tile touching exactly one tile.
        self_trap: what a self-trap does (:class:`SelfTrap`, or its value as a string).
        extended: extended play: with an empty hand a move relocates one of your tiles.
        extended_move_limit: relocations after which an extended game is drawn.
        tiles_per_player: tiles each side owns (setup tile included), at most
            :data:`~hexgames.limits.MAX_TILES_PER_PLAYER` (500); ``None`` is the classic
            game with no tile limit, played up to that bound: a player who has placed
            500 tiles has none left, and the game is then drawn as with any supply
            (issue 14: no game may cost memory or time without bound).

    Raises:
        InvalidRulesError: for an unknown ``self_trap`` value, a limit below 1 or more
            than 500 tiles each.
    """

    GAME: ClassVar[str] = "Andantino"
    OPTION_KINDS: ClassVar[dict[str, str]] = {
        "single_adjacency": "bool", "self_trap": "text", "extended": "bool",
        "extended_move_limit": "int", "tiles_per_player": "int_or_none"}

    single_adjacency: bool = False
    self_trap: SelfTrap = SelfTrap.OPPONENT_WINS
    extended: bool = False
    extended_move_limit: int = 200
    tiles_per_player: int | None = 25
    # Set by __post_init__: every Board() looks its set-up up by its rules, so the hash
    # is made once. It is made of ints only, hence the same in every process.
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return self._hash

    def __post_init__(self) -> None:
        for name in ("single_adjacency", "extended"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesError(
                    f"{name} must be True or False, not {getattr(self, name)!r}")
        limit = self.extended_move_limit
        if isinstance(limit, bool) or not isinstance(limit, int):
            raise InvalidRulesError(f"extended_move_limit must be a whole number, not {limit!r}")
        tiles = self.tiles_per_player
        if tiles is not None and (isinstance(tiles, bool) or not isinstance(tiles, int)):
            raise InvalidRulesError(
                f"tiles_per_player must be a whole number or None, not {tiles!r}")
        if not isinstance(self.self_trap, SelfTrap):
            try:
                object.__setattr__(self, "self_trap", SelfTrap(str(self.self_trap).lower()))
            except ValueError:
                choices = ", ".join(s.value for s in SelfTrap)
                raise InvalidRulesError(
                    f"self_trap must be one of {choices}, not {self.self_trap!r}"
                ) from None
        if self.extended_move_limit < 1:
            raise InvalidRulesError(
                f"extended_move_limit must be at least 1, not {self.extended_move_limit}")
        if self.tiles_per_player is not None and self.tiles_per_player < 1:
            raise InvalidRulesError(
                f"tiles_per_player must be at least 1 or none, not {self.tiles_per_player}")
        if self.tiles_per_player is not None and self.tiles_per_player > MAX_TILES_PER_PLAYER:
            raise InvalidRulesError(
                f"tiles_per_player must be at most {MAX_TILES_PER_PLAYER} (the most tiles "
                f"hexgames plays with), not {self.tiles_per_player}")
        if self.extended and self.tiles_per_player == 1:
            # Each player has only its set-up tile, and a lifted tile can never touch
            # two others again: no position of such a game has a legal move.
            raise InvalidRulesError(
                "extended play needs tiles_per_player of at least 2: with 1 no tile can "
                "be relocated")
        object.__setattr__(self, "_hash", hash((
            self.single_adjacency, list(SelfTrap).index(self.self_trap), self.extended,
            self.extended_move_limit, -1 if tiles is None else tiles)))

# --- packed cells ---------------------------------------------------------------------
# A cell (q, r) is the int (q + _OFF) * _S + (r + _OFF): neighbours are fixed offsets and
# the int stays below 2**30, which CPython handles fastest.
_BITS = 15
_S = 1 << _BITS
_MASK = _S - 1
_OFF = 1 << (_BITS - 1)
#: The largest |q| or |r| a cell may have (the surface is unbounded in principle); the
#: margin keeps the neighbours that flood fills look at inside the packing.
COORDINATE_LIMIT = _OFF - 4

# Ring order as hexgrid.DIRECTIONS: (1,0) (1,-1) (0,-1) (-1,0) (-1,1) (0,1).
_DELTAS = (_S, _S - 1, -1, -_S, -_S + 1, 1)
# The steps along the three line axes (1, 0), (0, 1) and (1, -1).
_AXES = (_S, 1, _S - 1)
# Steps of one and two cells along (1, 0) and (1, -1), for _has_line: the interpreter
# does not fold ``2 * _S`` into a constant, and a name is one load.
_TWO_Q = 2 * _S
_DIAG = _S - 1
_TWO_DIAG = 2 * _DIAG
# _RUNS[mask]: how many separate runs the set bits make around the ring (0 for all six).
_RUNS = tuple(
    sum(1 for i in range(6) if (m >> i) & 1 and not (m >> ((i - 1) % 6)) & 1) for m in range(64)
)
# _GAPS[mask]: the first ring position of each run of clear bits (empty for 0 and 63).
_GAPS = tuple(
    tuple(i for i in range(6) if not (m >> i) & 1 and (m >> ((i - 1) % 6)) & 1) for m in range(64)
)


# One int object per packed cell: the board's dicts and sets hold these, and a look-up
# with the very object matches by identity, skipping the comparison of values that two
# equal ints (beyond the small cached ones) would need.
_CELL_KEYS: dict[int, int] = {}


def _canonical(key: int) -> int:
    """The one int object of the packed cell ``key``."""
    return _CELL_KEYS.setdefault(key, key)


def _pack(cell: Cell) -> int:
    """The packed int of a cell given by a user.

    Raises:
        InvalidMoveError: if ``cell`` is not a pair of ints or is out of range.
    """
    try:
        q, r = cell
    except (TypeError, ValueError):
        raise InvalidMoveError(f"a cell is a pair of ints (q, r), not {cell!r}") from None
    if type(q) is not int or type(r) is not int:
        raise InvalidMoveError(f"a cell is a pair of ints (q, r), not {cell!r}")
    if not (-COORDINATE_LIMIT <= q <= COORDINATE_LIMIT
            and -COORDINATE_LIMIT <= r <= COORDINATE_LIMIT):
        raise InvalidMoveError(
            f"cell {q},{r} is outside the supported range |q|, |r| <= {COORDINATE_LIMIT}")
    return _canonical((q + _OFF) * _S + r + _OFF)


def _in_range(key: int) -> bool:
    """Whether a packed cell may hold a tile (|q|, |r| <= COORDINATE_LIMIT)."""
    return (abs((key >> _BITS) - _OFF) <= COORDINATE_LIMIT
            and abs((key & _MASK) - _OFF) <= COORDINATE_LIMIT)


def _unpack(key: int) -> Cell:
    return ((key >> _BITS) - _OFF, (key & _MASK) - _OFF)


# --- Zobrist keys ---------------------------------------------------------------------
class _ZobristTable(dict[int, int]):
    """Zobrist keys by ``packed cell * 2 + colour``, made on first use."""

    def __missing__(self, index: int) -> int:
        z = self[index] = splitmix64(index + 0x1000)
        return z


_ZOBRIST = _ZobristTable()
_Z_TURN = splitmix64(0xA11D)
_Z_SINGLE_USED = splitmix64(0x5146)


def _zobrist(key: int, color: int) -> int:
    return _ZOBRIST[key * 2 + color]


# --- moves ----------------------------------------------------------------------------
# Coordinates are ASCII digits, at most 9 of them (beyond that no cell is in range).
_NUM = r"-?[0-9]{1,9}"
_CELL_RE = rf"\(\s*({_NUM})\s*,\s*({_NUM})\s*\)|({_NUM}),({_NUM})"
_MOVE_RE = re.compile(rf"\s*(?:(?:{_CELL_RE})\s*>\s*)?(?:{_CELL_RE})\s*")


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """A cell from ``q,r`` (or ``(q, r)``).

    Raises:
        InvalidMoveError: if ``text`` is not a cell or is outside the supported range.
    """
    if not isinstance(text, str):
        raise InvalidMoveError(f"a cell is text such as 0,1, not {text!r}")
    m = re.fullmatch(rf"\s*(?:{_CELL_RE})\s*", text)
    if m is None:
        raise InvalidMoveError(f"{text!r} is not a cell (expected q,r such as 0,1 or -2,3)")
    g = m.groups()
    cell = (int(g[0]), int(g[1])) if g[0] is not None else (int(g[2]), int(g[3]))
    _pack(cell)
    return cell


@dataclass(frozen=True, slots=True)
class Move:
    """A placement on ``to``, or in extended play a relocation of the tile on ``from_``.

    Notation (docs/notation.md): ``0,1`` places a tile; ``2,-1>0,3`` relocates one.
    """

    to: Cell
    from_: Cell | None = None
    _key: int = field(default=0, init=False, repr=False, compare=False)
    _from_key: int = field(default=-1, init=False, repr=False, compare=False)
    # The change of the Zobrist key when White or Red places on ``to`` (turn included).
    _z: tuple[int, int] = field(default=(0, 0), init=False, repr=False, compare=False)
    # The packed neighbours of ``to`` in ring order (``_DELTAS``), so that push need not
    # add (and allocate) them on every placement.
    _ring: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _set_keys(self, _pack(self.to), -1 if self.from_ is None else _pack(self.from_))

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Parse ``q,r`` or ``q,r>q,r``.

        Raises:
            InvalidMoveError: naming ``text`` if it is not a move.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is text such as 0,1, not {text!r}")
        m = _MOVE_RE.fullmatch(text)
        if m is None:
            raise InvalidMoveError(
                f"{text!r} is not an Andantino move (expected q,r such as 0,1, "
                "or from>to such as 2,-1>0,3)")
        g = m.groups()
        source = None
        if g[0] is not None:
            source = (int(g[0]), int(g[1]))
        elif g[2] is not None:
            source = (int(g[2]), int(g[3]))
        to = (int(g[4]), int(g[5])) if g[4] is not None else (int(g[6]), int(g[7]))
        return cls(to, source)

    def notation(self) -> str:
        """The canonical text of the move."""
        if self.from_ is None:
            return _cell_text(self.to)
        return f"{_cell_text(self.from_)}>{_cell_text(self.to)}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        if self.from_ is None:
            return f"Move(to={self.to!r})"
        return f"Move(to={self.to!r}, from_={self.from_!r})"


class _PlacementTable(dict[int, Move]):
    """The one :class:`Move` object of each placement, by packed cell, made on first use."""

    def __missing__(self, key: int) -> Move:
        # Cells next to tiles on the edge of the supported range lie just beyond it:
        # their moves exist (and are refused by the legality test) without the check
        # that a user's cell gets.
        key = _canonical(key)
        move = object.__new__(Move)
        object.__setattr__(move, "to", _unpack(key))
        object.__setattr__(move, "from_", None)
        _set_keys(move, key, -1)
        self[key] = move
        return move


def _set_keys(move: Move, key: int, from_key: int) -> None:
    """Store a move's packed cells and its Zobrist change for each colour."""
    object.__setattr__(move, "_key", key)
    object.__setattr__(move, "_from_key", from_key)
    object.__setattr__(move, "_z", (_ZOBRIST[key * 2] ^ _Z_TURN,
                                    _ZOBRIST[key * 2 + 1] ^ _Z_TURN))
    object.__setattr__(move, "_ring", tuple(_canonical(key + d) for d in _DELTAS))


_PLACEMENTS = _PlacementTable()


# --- the board ------------------------------------------------------------------------
STARTING_POSITION = "andantino w=0,0 r=1,0 turn=w hands=w24,r24"
_TILE = 8  # a tile of colour c is stored as _TILE + c; smaller values count neighbours


_NO_LEGAL: dict[int, Move] = {}
_UndoRecord = set[int] | tuple[set[int] | None, bool, tuple[int, set[int], int] | None]


@dataclass(frozen=True)
class _Setup:
    """The state of a set-up position, computed once and copied by each new board."""

    fields: _PositionFields
    cells: dict[int, int]
    tiles: tuple[list[int], list[int]]
    legal: dict[int, Move]
    hash: int
    enclosed: tuple[set[int], set[int]]
    hands: list[int]
    outcome: Outcome | None
    far_from_edge: bool  # no game from here can reach the edge of the supported range


#: Set-up positions longer than this (characters) are not cached: a cached set-up keeps
#: its enclosed cells, which a large ring makes many (issue 14).
_CACHED_POSITION = 512


def _setup_state(position: str | None, rules: Rules) -> _Setup:
    if position is None or len(position) <= _CACHED_POSITION:
        return _cached_setup_state(position, rules)
    return _new_setup_state(position, rules)


@functools.lru_cache(maxsize=256)
def _cached_setup_state(position: str | None, rules: Rules) -> _Setup:
    return _new_setup_state(position, rules)


def _new_setup_state(position: str | None, rules: Rules) -> _Setup:
    if position is None:
        supply = rules.tiles_per_player
        hand = "" if supply is None else f" hands=w{supply - 1},r{supply - 1}"
        position = f"andantino w=0,0 r=1,0 turn=w{hand}"
    fields = _parse_position(position, rules)
    cells: dict[int, int] = {}
    zkey = 0
    for color, cells_of_color in enumerate(fields.tiles):
        for cell in cells_of_color:
            key = _pack(cell)
            cells[key] = _TILE + color
            zkey ^= _zobrist(key, color)
    for key in [k for k, v in cells.items() if v >= _TILE]:
        for n in _PLACEMENTS[key]._ring:
            v = cells.get(n, 0)
            if v < _TILE:
                cells[n] = v + 1
    legal = [k for k, v in cells.items() if 2 <= v < _TILE]
    if fields.turn:
        zkey ^= _Z_TURN
    if fields.single_used:
        zkey ^= _Z_SINGLE_USED
    tiles = ([k for k, v in cells.items() if v == _TILE],
             [k for k, v in cells.items() if v == _TILE + 1])
    hands = [MAX_TILES_PER_PLAYER - len(tiles[c]) if h is None else h
             for c, h in enumerate(fields.hands)]
    enclosed = (_enclosed_by(cells, 0), _enclosed_by(cells, 1))
    outcome = _decided(fields, rules, cells, tiles, enclosed)
    if outcome is not None:
        pass
    elif hands[fields.turn] == 0 and not rules.extended:
        outcome = Outcome(Termination.TILES_EXHAUSTED, None)
    elif rules.extended and fields.relocations >= rules.extended_move_limit:
        outcome = Outcome(Termination.MOVE_LIMIT, None)
    # Each placement reaches at most one cell further out, and a limited supply allows
    # at most 2 * supply of them.
    reach = max(max(abs(q), abs(r)) for q, r in fields.tiles[0] + fields.tiles[1])
    supply = rules.tiles_per_player or MAX_TILES_PER_PLAYER
    far_from_edge = (not rules.extended
                     and reach + 2 * supply + 2 <= COORDINATE_LIMIT)
    return _Setup(fields, cells, tiles, {k: _PLACEMENTS[k] for k in legal}, zkey,
                  enclosed, hands, outcome, far_from_edge)


def _decided(fields: _PositionFields, rules: Rules, cells: dict[int, int],
             tiles: tuple[list[int], list[int]],
             enclosed: tuple[set[int], set[int]]) -> Outcome | None:
    """The outcome of a set-up position that is already decided, ``None`` for one in
    play; refuses one that no game can reach (see ``docs/limits.md``, "Positions").

    A game ends at the first line of five, trap or self-trap, so a position string may
    show one only as the last move's work: the player who moved last (the one not to
    move) may have a line of five or wall in tiles of the side to move (a win by
    ``line``, ``trap`` or ``line+trap``), or, under ``self_trap=opponent_wins``, have a
    tile walled in by the side to move (a ``self-trap``, won by the side to move). Such a
    position is loaded as finished with that outcome, the one its game ended with, so a
    finished board's ``position()`` reads back finished. A line of the side to move, or
    anything else no game can end with, is refused. Under ``self_trap=ignore`` walled-in
    tiles are ignored self-traps, part of a game in progress, and end nothing.

    Raises:
        InvalidPositionError: naming the field of the colour at fault.
    """
    turn = fields.turn
    mover = 1 - turn
    names = ("White", "Red")

    def refuse(color: int, why: str) -> InvalidPositionError:
        return InvalidPositionError(f"field {'wr'[color]}=: {why}; no game of these rules "
                                    "reaches this position")

    lined = [key for key in tiles[turn] if _lines_through(cells, key, turn)]
    if lined:
        raise refuse(turn, f"{names[turn]} to move already has five in a row through "
                           f"{_cell_text(_unpack(min(lined)))} (a game ends at its first "
                           "line)")
    line = {cell for key in tiles[mover] for cell in _lines_through(cells, key, mover)}
    trapped: list[int] = []
    if rules.self_trap is not SelfTrap.IGNORE:
        trapped = [k for k in tiles[turn] if k in enclosed[mover]]
        caught = [k for k in tiles[mover] if k in enclosed[turn]]
        if caught:
            first = _cell_text(_unpack(min(caught)))
            if rules.self_trap is SelfTrap.ILLEGAL:
                raise refuse(mover, f"{names[mover]}'s tile on {first} is walled in by "
                                    f"{names[turn]}, which self_trap=illegal forbids")
            if line or trapped or len(caught) > 1:
                raise refuse(mover, f"{names[mover]}'s tile on {first} is walled in by "
                                    f"{names[turn]} beside another end of the game")
            return Outcome(Termination.SELF_TRAP, _COLORS[turn],
                           trapped=frozenset(map(_unpack, caught)))
    if not (line or trapped):
        return None
    termination = (Termination.LINE_AND_TRAP if line and trapped
                   else Termination.LINE if line else Termination.TRAP)
    return Outcome(termination, _COLORS[mover], line=frozenset(line),
                   trapped=frozenset(map(_unpack, trapped)))


_DEFAULT_RULES = Rules()


class Board(BoardBase["Move"]):
    """An Andantino position with its move history.

    Args:
        position: a position string (docs/notation.md); ``None`` for the standard start.
        rules: the rules options; the defaults are the standard game.

    Raises:
        InvalidPositionError: if ``position`` is malformed or impossible under ``rules``,
            naming the field at fault.
        InvalidRulesError: if ``rules`` is not a :class:`Rules`.
    """

    MOVE = Move

    def __init__(self, position: str | None = None, rules: Rules | None = None) -> None:
        if rules is None:
            rules = _DEFAULT_RULES
        elif not isinstance(rules, Rules):
            raise InvalidRulesError(f"rules must be andantino.Rules, not {type(rules).__name__}")
        if position is not None and not isinstance(position, str):
            raise InvalidPositionError(
                f"a position string is text, not {type(position).__name__}")
        self.rules = rules
        setup = _setup_state(position, rules)
        self._root = setup.fields
        self.move_stack: list[Move] = []
        # Packed cell -> _TILE + colour for a tile, or for an empty cell the number of
        # tiles touching it (cells touching none may be absent).
        self._cells = setup.cells.copy()
        # Packed cells of each colour's tiles (in placement order, as a stack).
        self._tiles = (setup.tiles[0].copy(), setup.tiles[1].copy())
        # The placements on cells touching two tiles, by packed cell.
        self._legal = setup.legal.copy()
        self._hash = setup.hash
        self._enclosed = (setup.enclosed[0].copy(), setup.enclosed[1].copy())
        self._hands = setup.hands.copy()
        fields = setup.fields
        self._turn = fields.turn
        self._single_used = fields.single_used
        self._relocations = fields.relocations
        # What pop needs beyond the move, by the move's index in move_stack, for the
        # moves that need more (most need nothing, and push then stores nothing): the
        # cells the move walled off, or for a relocation or the balance-variant
        # placement the tuple (walled-off cells or None, whether it used the balance
        # right, (source, the mover's pockets before, the lifted tile's place in its
        # list) or None).
        self._undo: dict[int, _UndoRecord] = {}
        self._cache: tuple[Move, ...] | None = None  # _move_list(); push and pop clear it
        self._repetitions: dict[int, int] = {self._hash: 1} if rules.extended else {}
        self._single_rule = rules.single_adjacency
        self._extended = rules.extended
        # Legal moves are exactly the cells touching two tiles, checked by a dict look-up
        # in push; other rules go through _move_list and _illegal_reason, and so do games
        # that could grow to the edge of the supported range (unlimited or extended play,
        # or set-ups near the edge), since that path refuses cells beyond it.
        self._fast = (not rules.single_adjacency and rules.self_trap is not SelfTrap.ILLEGAL
                      and setup.far_from_edge)
        self._outcome = setup.outcome
        self._live: dict[int, Move] | None = None
        self._sync_live()
        if self._outcome is None and not self._has_move():
            raise InvalidPositionError(
                "no legal move in this position (every move needs a cell touching two "
                "tiles; are the tiles in one group?)")

    def _sync_live(self) -> None:
        """Point ``_live`` at the list of placements on cells touching two tiles when
        those are exactly the legal moves (the common case), else at ``None``."""
        if self._outcome is not None:
            self._live = _NO_LEGAL
        elif self._fast and self._hands[self._turn]:
            self._live = self._legal
        else:
            self._live = None

    def _keys_of(self, color: int) -> list[int]:
        return self._tiles[color]

    # -- reading the position ----------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move."""
        return _COLORS[self._turn]

    def color_at(self, cell: Cell) -> Color | None:
        """The colour of the tile on ``cell``, or ``None`` if it is empty."""
        try:
            key = _pack(cell)
        except InvalidMoveError:
            return None
        value = self._cells.get(key, 0)
        return _COLORS[value - _TILE] if value >= _TILE else None

    def tiles(self, color: int) -> frozenset[Cell]:
        """The cells holding tiles of ``color``."""
        return frozenset(_unpack(k) for k in self._keys_of(color))

    def hand(self, color: int) -> int | None:
        """Tiles ``color`` still has to place; ``None`` when the supply is unlimited."""
        return None if self.rules.tiles_per_player is None else self._hands[color]

    @property
    def single_adjacency_used(self) -> bool:
        """Whether Red has used its balance-variant right (always False when off)."""
        return self._single_used

    @property
    def relocations(self) -> int:
        """Relocation moves played so far (extended play)."""
        return self._relocations

    def enclosed_cells(self, color: int) -> frozenset[Cell]:
        """Cells (empty or holding the other colour's tiles) that ``color`` walls off from
        infinity: a tile of the other colour placed there would be self-trapped."""
        # A tile that ``color`` placed into its own pocket stays in ``_enclosed`` (the
        # push walls nothing new off and leaves the set as it is): it is not enclosed.
        own = _TILE + color
        cells = self._cells
        return frozenset(_unpack(k) for k in self._enclosed[color] if cells.get(k) != own)

    def zobrist_hash(self) -> int:
        """A 64-bit Zobrist key of the tiles, the side to move and whether Red has used
        its balance-variant right. Hands follow from the tiles and the rules, and the
        relocation counter is left out, as a chess key leaves out the move clocks."""
        return self._hash

    def position(self) -> str:
        """The position string (docs/notation.md), which ``Board(position, rules)`` reads."""
        parts = ["andantino"]
        for color, letter in ((0, "w"), (1, "r")):
            cells = sorted((_unpack(k) for k in self._keys_of(color)), key=lambda c: (c[1], c[0]))
            parts.append(f"{letter}=" + (";".join(map(_cell_text, cells)) or "-"))
        parts.append(f"turn={'wr'[self._turn]}")
        if self.rules.tiles_per_player is not None:
            parts.append(f"hands=w{self._hands[0]},r{self._hands[1]}")
        if self.rules.single_adjacency:
            parts.append(f"single={'used' if self._single_used else 'unused'}")
        if self.rules.extended:
            parts.append(f"relocations={self._relocations}")
        return " ".join(parts)

    def __str__(self) -> str:
        """The surface as text: ``W`` and ``R`` tiles, ``.`` for legal placements, one
        row per ``r`` (labelled), each row shifted half a cell from the one above."""
        cells = {_unpack(k): "WR"[v - _TILE] for k, v in self._cells.items() if v >= _TILE}
        for move in self.legal_moves:
            cells.setdefault(move.to, ".")
        return _draw(cells)

    # -- legal moves -------------------------------------------------------------------

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves here, as a tuple (empty once the game is over)."""
        live = self._live
        return tuple(live.values()) if live is not None else self._move_list()

    def _relocation_phase(self) -> bool:
        return self.rules.extended and self._hands[self._turn] == 0

    def _single_available(self) -> bool:
        return (self.rules.single_adjacency and self._turn == 1 and not self._single_used)

    def _move_list(self) -> tuple[Move, ...]:
        """The legal moves when they are not simply the cells touching two tiles: the
        balance variant, illegal self-traps, or relocations; cached until the next
        push or pop."""
        if self._cache is not None:
            return self._cache
        color = self._turn
        pocket = self._enclosed[1 - color] if self.rules.self_trap is SelfTrap.ILLEGAL else ()
        cells = self._cells
        moves: list[Move] = []
        if self._outcome is not None:
            pass
        elif self._relocation_phase():
            for source in sorted(self._keys_of(color)):
                # A target must still touch two tiles once the source is lifted.
                drop = {source + d for d in _DELTAS if cells.get(source + d) == 2}
                src_cell = _unpack(source)
                moves.extend(Move(m.to, src_cell) for m in self._legal.values()
                             if m._key not in drop and m._key not in pocket
                             and _in_range(m._key))
        else:
            moves = [m for m in self._legal.values()
                     if m._key not in pocket and _in_range(m._key)]
            if self._single_available():
                moves += [_PLACEMENTS[k] for k, v in cells.items()
                          if v == 1 and k not in pocket and _in_range(k)]
        self._cache = cached = tuple(moves)
        return cached

    def legal_moves_from(self, cell: Cell | None) -> tuple[Move, ...]:
        """The legal moves that pick up the tile on ``cell``: its relocations (extended
        play, with an empty hand), in the order of :attr:`legal_moves`; with ``None``,
        the placements. Empty for a cell that holds no tile of the side to move, or
        whose tile cannot move.

        It takes time in proportion to the cells touching two tiles, where the list of
        all relocations has one move per tile and such cell (:meth:`legal_sources` and
        this method give them one tile at a time).

        Raises:
            InvalidMoveError: if ``cell`` is not a pair of ints in the supported range.
        """
        if cell is None:
            return () if self._relocation_phase() else self.legal_moves
        source = _pack(cell)
        if (self._outcome is not None or not self._relocation_phase()
                or self._cells.get(source) != _TILE + self._turn):
            return ()
        drop = self._dropped_with(source)
        return tuple(Move(_unpack(key), cell) for key in self._relocation_targets()
                     if key not in drop)

    def legal_sources(self) -> tuple[Cell, ...]:
        """The cells of the tiles that a legal move picks up (extended play, with an
        empty hand; else none), sorted as in position strings (by r, then q). Takes
        time in proportion to the tiles and the cells touching two tiles."""
        if self._outcome is not None or not self._relocation_phase():
            return ()
        return tuple(sorted((_unpack(key) for key in self._relocation_sources()),
                            key=lambda c: (c[1], c[0])))

    def _relocation_targets(self) -> list[int]:
        """The packed cells that a relocated tile may go to before its own pick-up is
        counted: empty cells touching two tiles, in range and (under
        ``self_trap=illegal``) outside the opponent's pockets."""
        pocket = (self._enclosed[1 - self._turn]
                  if self.rules.self_trap is SelfTrap.ILLEGAL else ())
        return [key for key in self._legal if key not in pocket and _in_range(key)]

    def _dropped_with(self, source: int) -> set[int]:
        """The cells that touch two tiles only while the tile on ``source`` stays: its
        pick-up leaves them touching one."""
        cells = self._cells
        return {source + d for d in _DELTAS if cells.get(source + d) == 2}

    def _relocation_sources(self) -> list[int]:
        """The packed cells of the side to move's tiles that have a relocation. A
        pick-up takes at most six cells from the targets, so with more than six every
        tile has one."""
        targets = self._relocation_targets()
        tiles = self._keys_of(self._turn)
        if len(targets) > len(_DELTAS):
            return list(tiles)
        return [key for key in tiles if not set(targets) <= self._dropped_with(key)]

    def _has_move(self) -> bool:
        """Whether the side to move has a legal move, without listing the relocations
        (their list grows with the tiles times the cells)."""
        if self._live is not None:
            return bool(self._live)
        if self._outcome is None and self._relocation_phase():
            return bool(self._relocation_sources())
        return bool(self._move_list())

    def _illegal_reason(self, move: Move) -> str | None:
        if not isinstance(move, Move):
            return f"{move!r} is not an Andantino move"
        if self._outcome is not None:
            return "the game is over"
        color = self._turn
        key = move._key
        cells = self._cells
        if move._from_key == key:
            return "a relocated tile must move to a different cell"
        if cells.get(key, 0) >= _TILE:
            return f"{_cell_text(move.to)} is occupied"
        if not _in_range(key):
            return (f"{_cell_text(move.to)} is beyond the supported range "
                    f"|q|, |r| <= {COORDINATE_LIMIT}")
        if self._relocation_phase():
            if move.from_ is None:
                return "no tiles left in hand: move one of your tiles (from>to)"
            source = move._from_key
            if cells.get(source) != _TILE + color:
                return f"{_cell_text(move.from_)} holds no tile of the side to move"
            touching = cells.get(key, 0) - (1 if key - source in _DELTAS else 0)
            if touching < 2:
                return (f"{_cell_text(move.to)} would touch {touching} tile(s) after the "
                        "pick-up; a tile must touch at least two")
        else:
            if move.from_ is not None:
                return "tiles are relocated only in extended play once your hand is empty"
            touching = cells.get(key, 0)
            if touching < 2 and not (touching == 1 and self._single_available()):
                if touching == 1 and self.rules.single_adjacency and color == 1:
                    return (f"{_cell_text(move.to)} touches one tile and Red has already "
                            "used its single-adjacency placement")
                return (f"{_cell_text(move.to)} touches {touching} tile(s); "
                        "a tile must touch at least two")
        if self.rules.self_trap is SelfTrap.ILLEGAL and key in self._enclosed[1 - color]:
            return f"{_cell_text(move.to)} lies in a pocket walled off by the opponent (self-trap)"
        return None

    # -- make / unmake -----------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``.

        Raises:
            IllegalMoveError: if the move is not legal here (the board is unchanged).
        """
        try:
            key = move._key
        except AttributeError:
            raise IllegalMoveError(f"{move!r} is not an Andantino move") from None
        legal = self._legal
        # The common case: the board's own Move for a cell touching two tiles, while
        # those cells are exactly the legal moves (``_live is _legal``: see ``_fast``;
        # no balance variant, illegal self-traps or extended play). It needs no check
        # and none of the bookkeeping of the other rules; this is the hottest code of a
        # playout, so it is written out in full.
        if self._live is not legal or legal.get(key) is not move:
            self._push_other(move)
            return
        color = self._turn
        cells = self._cells
        hands = self._hands
        hands[color] -= 1
        del legal[key]
        tile = _TILE + color
        cells[key] = tile
        tiles = self._tiles[color]
        tiles.append(key)
        self._hash ^= move._z[color]
        # The six neighbours, unrolled: bump the count of each empty one (a cell reaching
        # two becomes legal), and note in ``mask`` the ring positions of own tiles.
        get = cells.get
        n0, n1, n2, n3, n4, n5 = move._ring
        mask = 0
        v = get(n0, 0)
        if v < _TILE:
            cells[n0] = v + 1
            if v == 1:
                legal[n0] = _PLACEMENTS[n0]
        elif v == tile:
            mask = 1
        v = get(n1, 0)
        if v < _TILE:
            cells[n1] = v + 1
            if v == 1:
                legal[n1] = _PLACEMENTS[n1]
        elif v == tile:
            mask |= 2
        v = get(n2, 0)
        if v < _TILE:
            cells[n2] = v + 1
            if v == 1:
                legal[n2] = _PLACEMENTS[n2]
        elif v == tile:
            mask |= 4
        v = get(n3, 0)
        if v < _TILE:
            cells[n3] = v + 1
            if v == 1:
                legal[n3] = _PLACEMENTS[n3]
        elif v == tile:
            mask |= 8
        v = get(n4, 0)
        if v < _TILE:
            cells[n4] = v + 1
            if v == 1:
                legal[n4] = _PLACEMENTS[n4]
        elif v == tile:
            mask |= 16
        v = get(n5, 0)
        if v < _TILE:
            cells[n5] = v + 1
            if v == 1:
                legal[n5] = _PLACEMENTS[n5]
        elif v == tile:
            mask |= 32

        # The mover's line and trap first, then a self-trap, then the draw.
        line = False
        if mask and len(tiles) >= 5:
            line = _has_line(get, key, tile, mask)
        pocket = None
        if _RUNS[mask] >= 2:
            walled = self._enclosed[color]
            if key not in walled:
                pocket = self._cut_off(move, color, mask)
                if pocket:
                    walled.update(pocket)
                    self._undo[len(self.move_stack)] = pocket
        self._turn = 1 - color
        outcome = None
        if line or pocket or key in self._enclosed[1 - color]:
            trapped = [k for k in pocket if get(k) == tile ^ 1] if pocket else []
            outcome = self._verdict(key, color, line, trapped)
        if outcome is None and not hands[1 - color]:
            outcome = Outcome(Termination.TILES_EXHAUSTED, None)
        if outcome is not None:
            self._outcome = outcome
            self._live = _NO_LEGAL
        # (The move list cache is never used while ``_live`` is set, so it stays None.)
        self.move_stack.append(move)

    def _push_other(self, move: Move) -> None:
        """:meth:`push` for every move but the common case: checks the move, and keeps
        the state of relocations, the balance variant and extended play."""
        reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move.notation()}: {reason}")
        key = move._key
        if self._live is self._legal:
            # A legal placement given as a Move equal to the board's own: play that one,
            # and keep the caller's object on the move stack.
            self.push(_PLACEMENTS[key])
            self.move_stack[-1] = move
            return
        color = self._turn
        cells = self._cells
        enclosed = self._enclosed
        source = move._from_key
        relocation = None
        single = False
        if source >= 0:
            relocation = (source, enclosed[color], self._lift(source, color))
            self._relocations += 1
        else:
            self._hands[color] -= 1
            if self._single_rule and color == 1 and not self._single_used and cells[key] == 1:
                self._single_used = single = True
                self._hash ^= _Z_SINGLE_USED
        tile = _TILE + color
        mask = self._place(move, tile)
        self._hash ^= move._z[color]
        line = bool(mask) and len(self._tiles[color]) >= 5 and _has_line(
            cells.get, key, tile, mask)
        pocket = None
        trapped: list[int] = []
        if relocation is not None:
            # A lifted tile may open walls anywhere: recompute the mover's pockets.
            old_pocket = relocation[1]
            new_pocket = _enclosed_by(cells, color)
            trapped = [k for k in new_pocket if k not in old_pocket and cells[k] == tile ^ 1]
            self._enclosed = ((new_pocket, enclosed[1]) if color == 0
                              else (enclosed[0], new_pocket))
        elif _RUNS[mask] >= 2 and key not in enclosed[color]:
            pocket = self._cut_off(move, color, mask) or None
            if pocket:
                trapped = [k for k in pocket if cells.get(k) == tile ^ 1]
                enclosed[color].update(pocket)
        outcome = self._verdict(key, color, line, trapped)
        self._turn = 1 - color
        if self._extended:
            seen = self._repetitions.get(self._hash, 0) + 1
            self._repetitions[self._hash] = seen
            if outcome is None:
                if seen >= 3:
                    outcome = Outcome(Termination.REPETITION, None)
                elif self._relocations >= self.rules.extended_move_limit:
                    outcome = Outcome(Termination.MOVE_LIMIT, None)
        elif outcome is None and not self._hands[1 - color]:
            outcome = Outcome(Termination.TILES_EXHAUSTED, None)
        self._outcome = outcome
        self._cache = None
        self._sync_live()  # either side may be relocating, or the supply may run out
        if self._extended and outcome is None and not self._has_move():
            # No relocation leaves the tile touching two others: nobody can move.
            self._outcome = Outcome(Termination.TILES_EXHAUSTED, None)
            self._live = _NO_LEGAL
        # (A game that is over takes no move, so the outcome before was None.)
        if relocation is not None or single:
            self._undo[len(self.move_stack)] = (pocket, single, relocation)
        elif pocket:
            self._undo[len(self.move_stack)] = pocket
        self.move_stack.append(move)

    def _verdict(self, key: int, color: int, line: bool, trapped: list[int]) -> Outcome | None:
        """The outcome of ``color``'s placement on ``key`` given whether it makes a line
        and the opponent tiles it traps: a win, a self-trap, or ``None`` (play goes on,
        unless a draw rule ends the game)."""
        if line or trapped:
            if line and trapped:
                termination = Termination.LINE_AND_TRAP
            else:
                termination = Termination.LINE if line else Termination.TRAP
            cells = _lines_through(self._cells, key, color) if line else ()
            return Outcome(termination, _COLORS[color], line=frozenset(cells),
                           trapped=frozenset(map(_unpack, trapped)))
        if key in self._enclosed[1 - color] and self.rules.self_trap is SelfTrap.OPPONENT_WINS:
            return Outcome(Termination.SELF_TRAP, _COLORS[1 - color],
                           trapped=frozenset((_unpack(key),)))
        return None

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises:
            IndexError: if no move has been pushed.
        """
        stack = self.move_stack
        if not stack:
            raise IndexError("pop from a board with no moves")
        move = stack.pop()
        record = self._undo.pop(len(stack), None)
        color = 1 - self._turn
        if self._extended:
            seen = self._repetitions[self._hash] - 1
            if seen:
                self._repetitions[self._hash] = seen
            else:
                del self._repetitions[self._hash]
        self._turn = color
        self._outcome = None
        self._cache = None
        self._unplace(move, color)
        pocket = record
        relocation = None
        if type(record) is tuple:  # a relocation, or the balance-variant placement
            pocket, single, relocation = record
            if single:
                self._single_used = False
                self._hash ^= _Z_SINGLE_USED
        if relocation is None:
            self._hands[color] += 1
            if pocket:
                self._enclosed[color].difference_update(pocket)
        else:
            source, old_pocket, place = relocation
            self._drop(source, color, place)
            self._relocations -= 1
            self._enclosed = ((old_pocket, self._enclosed[1]) if color == 0
                              else (self._enclosed[0], old_pocket))
        self._sync_live()
        return move

    def _place(self, move: Move, tile: int) -> int:
        """Put ``tile`` on the move's cell (the make part of :meth:`_push_other`; the
        common case in :meth:`push` does the same unrolled). Returns the ring mask of the
        neighbours holding tiles of the same colour."""
        cells, legal = self._cells, self._legal
        key = move._key
        if cells[key] >= 2:
            del legal[key]
        cells[key] = tile
        self._tiles[tile - _TILE].append(key)
        mask = 0
        bit = 1
        for n in move._ring:
            v = cells.get(n, 0)
            if v < _TILE:
                cells[n] = v + 1
                if v == 1:
                    legal[n] = _PLACEMENTS[n]
            elif v == tile:
                mask |= bit
            bit <<= 1
        return mask

    def _unplace(self, move: Move, color: int) -> None:
        """Undo the make part of :meth:`push`. The cell gets back the count of the tiles
        around it, which the neighbours tell, so the undo record need not hold it."""
        cells, legal = self._cells, self._legal
        key = move._key
        self._hash ^= move._z[color]
        count = 0
        for n in move._ring:
            v = cells[n]
            if v >= _TILE:
                count += 1
            else:
                if v == 2:
                    del legal[n]
                cells[n] = v - 1
        cells[key] = count
        self._tiles[color].pop()
        if count >= 2:
            legal[key] = _PLACEMENTS[key]

    def _lift(self, key: int, color: int) -> int:
        """Pick ``color``'s tile up from ``key`` (extended play); returns the tile's
        place in the tile list, for :meth:`_drop`."""
        cells, legal = self._cells, self._legal
        self._hash ^= _ZOBRIST[key * 2 + color]
        count = 0
        for n in _PLACEMENTS[key]._ring:
            v = cells.get(n, 0)
            if v >= _TILE:
                count += 1
            else:
                if v == 2:
                    del legal[n]
                cells[n] = v - 1
        cells[key] = count
        tiles = self._tiles[color]
        place = tiles.index(key)
        del tiles[place]
        if count >= 2:
            legal[key] = _PLACEMENTS[key]
        return place

    def _drop(self, key: int, color: int, place: int) -> None:
        """Undo :meth:`_lift`."""
        cells, legal = self._cells, self._legal
        if cells[key] >= 2:
            del legal[key]
        cells[key] = _TILE + color
        self._tiles[color].insert(place, key)
        self._hash ^= _ZOBRIST[key * 2 + color]
        for n in _PLACEMENTS[key]._ring:
            v = cells[n]
            if v < _TILE:
                cells[n] = v + 1
                if v == 1:
                    legal[n] = _PLACEMENTS[n]

    def _cut_off(self, move: Move, color: int, mask: int) -> set[int]:
        """Cells that ``color``'s new tile on the move's cell has just cut off from
        infinity; ``mask`` has the ring bits of its neighbours of that colour.

        The cell was not walled off before, so the region it belonged to reached
        infinity and, split by the new tile, still does from at least one gap between
        the runs of own tiles around it: one fill from each gap suffices, and the last
        is not needed when the others were all walled off.
        """
        ring = move._ring
        return _walled_off(self._cells, self._tiles[color], color,
                           [ring[i] for i in _GAPS[mask]], last_escapes=True)


def _has_line(get: Callable[[int], int | None], key: int, tile: int, mask: int) -> bool:
    """Whether the tile on ``key`` (``tile`` is _TILE + its colour) stands in a line
    of five or more; ``get`` is the board's ``cells.get``.

    ``mask`` has the ring bits of the neighbours of the same colour: an axis with
    neither bit set holds no line, and a set bit means that neighbour is known to be
    of the colour, so the walk starts one cell further out. Unrolled per axis.
    """
    if mask & 9:  # axis (1, 0): ring bit 1 is the neighbour at +step, 8 at -step
        length = 1
        if mask & 1:
            k = key + _TWO_Q
            length = 2
            while get(k) == tile:
                length += 1
                k += _S
        if mask & 8:
            k = key - _TWO_Q
            length += 1
            while get(k) == tile:
                length += 1
                k -= _S
        if length >= 5:
            return True
    if mask & 36:  # axis (0, 1): bits 32 (+) and 4 (-)
        length = 1
        if mask & 32:
            k = key + 2
            length = 2
            while get(k) == tile:
                length += 1
                k += 1
        if mask & 4:
            k = key - 2
            length += 1
            while get(k) == tile:
                length += 1
                k -= 1
        if length >= 5:
            return True
    if mask & 18:  # axis (1, -1): bits 2 (+) and 16 (-)
        length = 1
        if mask & 2:
            k = key + _TWO_DIAG
            length = 2
            while get(k) == tile:
                length += 1
                k += _DIAG
        if mask & 16:
            k = key - _TWO_DIAG
            length += 1
            while get(k) == tile:
                length += 1
                k -= _DIAG
        if length >= 5:
            return True
    return False


def _lines_through(cells: dict[int, int], key: int, color: int) -> list[Cell]:
    """Cells of every line of five or more of ``color``'s tiles through ``key``."""
    get = cells.get
    tile = _TILE + color
    line: list[Cell] = []
    for step in _AXES:
        lo = key - step
        while get(lo) == tile:
            lo -= step
        hi = key + step
        while get(hi) == tile:
            hi += step
        if hi - lo > 5 * step:
            line.extend(_unpack(k) for k in range(lo + step, hi, step))
    return line


def _enclosed_by(cells: dict[int, int], color: int) -> set[int]:
    """Every cell that is not ``color``'s and cannot reach infinity through such cells,
    from scratch: each such region touches a ``color`` tile, so the fills start from
    the tiles' neighbours."""
    tiles = [k for k, v in cells.items() if v == _TILE + color]
    if len(tiles) < 6:  # a wall takes at least six tiles
        return set()
    return _walled_off(cells, tiles, color, [k + d for k in tiles for d in _DELTAS])


def _walled_off(cells: dict[int, int], tiles: list[int], color: int,
                starts: list[int], last_escapes: bool = False) -> set[int]:
    """The cells of the regions of not-``color`` cells that contain a cell of ``starts``
    and cannot reach infinity. With ``last_escapes`` the caller knows that some start
    reaches infinity, so the last start needs no fill if no other start did.

    Flood-fills through cells that are not ``color``'s from each start. A fill escapes
    once it reaches the edge of the bounding box of ``color``'s ``tiles`` (in q and r),
    from where a straight line runs to infinity without meeting a ``color`` tile, or
    once it holds more cells than ``len(tiles) ** 2``, more than any region walled in
    by that many tiles can hold; so set-up positions with far-flung tiles stay cheap.
    """
    tile = _TILE + color
    qlo = min(tiles) >> _BITS  # packed cells order by q first
    qhi = max(tiles) >> _BITS
    rs = list(map(_MASK.__and__, tiles))
    rlo = min(rs)
    rhi = max(rs)
    budget = len(tiles) ** 2
    escaped: set[int] = set()
    walled: set[int] = set()
    get = cells.get
    placements = _PLACEMENTS  # for the neighbour rings
    last = starts[-1] if last_escapes else -1
    for start in starts:
        if get(start) == tile or start in escaped or start in walled:
            continue
        if start == last and not escaped:
            break
        seen = {start}
        frontier = [start]
        free = False
        while frontier:
            k = frontier.pop()
            q = k >> _BITS
            r = k & _MASK
            if (q <= qlo or q >= qhi or r <= rlo or r >= rhi or k in escaped
                    or len(seen) > budget):
                free = True
                break
            for n in placements[k]._ring:
                if n not in seen and get(n) != tile:
                    seen.add(n)
                    frontier.append(n)
        if free:
            escaped |= seen
        else:
            walled |= seen
    return walled


def series_points(board: Board, winner: int | None = None) -> tuple[int, int]:
    """Series points (docs/rules.md, "Series scoring") for a finished game, as (White, Red).

    The winner scores the tiles still in both hands, that is twice the tile supply minus
    the tiles on the surface; a draw and a loss score 0. ``winner`` overrides the board's
    own outcome (for a resignation or a time forfeit).

    Raises:
        ValueError: if the game has no winner given or decided, or the tile supply is
            unlimited (series scoring needs a supply).
    """
    supply = board.rules.tiles_per_player
    if supply is None:
        raise ValueError("series scoring needs a limited tile supply (tiles_per_player)")
    if winner is None:
        outcome = board.outcome()
        if outcome is None:
            raise ValueError("series points are scored only for a finished game")
        if outcome.winner is None:
            return (0, 0)
        winner = outcome.winner
    on_surface = len(board.tiles(0)) + len(board.tiles(1))
    points = 2 * supply - on_surface
    return (points, 0) if winner == 0 else (0, points)


# --- position strings -----------------------------------------------------------------


@dataclass(frozen=True)
class _PositionFields:
    text: str
    tiles: tuple[tuple[Cell, ...], tuple[Cell, ...]]
    turn: int
    hands: tuple[int | None, int | None]
    single_used: bool
    relocations: int


def _parse_cells(name: str, value: str) -> tuple[Cell, ...]:
    if value == "-":
        return ()
    cells = []
    for part in value.split(";"):
        m = re.fullmatch(rf"({_NUM}),({_NUM})", part)
        if m is None:
            raise InvalidPositionError(f"field {name}=: {part!r} is not a cell q,r")
        cell = (int(m.group(1)), int(m.group(2)))
        if max(abs(cell[0]), abs(cell[1])) > COORDINATE_LIMIT:
            raise InvalidPositionError(f"field {name}=: cell {part} is out of range")
        cells.append(cell)
    if len(set(cells)) != len(cells):
        raise InvalidPositionError(f"field {name}= lists a cell twice")
    return tuple(cells)


def _parse_position(text: str, rules: Rules) -> _PositionFields:
    if not isinstance(text, str):
        raise InvalidPositionError(f"a position string is text, not {type(text).__name__}")
    words = text.split()
    if not words or words[0].lower() != "andantino":
        name = words[0] if words else ""
        raise InvalidPositionError(
            f"position must start with the game name andantino, not {name!r}")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        key = key.lower()
        if not sep:
            raise InvalidPositionError(f"field {word!r} is not key=value")
        if key not in ("w", "r", "turn", "hands", "single", "relocations"):
            raise InvalidPositionError(f"unknown field {key!r} in an Andantino position")
        if key in fields:
            raise InvalidPositionError(f"field {key}= is given twice")
        fields[key] = value.lower()
    for key in ("w", "r", "turn"):
        if key not in fields:
            raise InvalidPositionError(f"field {key}= is missing")
    white = _parse_cells("w", fields["w"])
    red = _parse_cells("r", fields["r"])
    if set(white) & set(red):
        both = sorted(set(white) & set(red))[0]
        raise InvalidPositionError(f"cell {_cell_text(both)} is in both w= and r=")
    if len(white) + len(red) < 2:
        raise InvalidPositionError("fields w= and r= need at least two tiles on the surface")
    if fields["turn"] not in ("w", "r"):
        raise InvalidPositionError(f"field turn= must be w or r, not {fields['turn']!r}")
    turn = "wr".index(fields["turn"])
    supply = rules.tiles_per_player
    hands: tuple[int | None, int | None]
    if supply is None:
        if "hands" in fields:
            raise InvalidPositionError("field hands= is not used with an unlimited tile supply")
        hands = (None, None)
        for letter, cells in (("w", white), ("r", red)):
            if len(cells) > MAX_TILES_PER_PLAYER:
                raise InvalidPositionError(
                    f"field {letter}= lists {len(cells)} tiles, more than the "
                    f"{MAX_TILES_PER_PLAYER} a player may place with an unlimited supply")
    elif "hands" in fields:
        m = re.fullmatch(r"w([0-9]{1,9}),r([0-9]{1,9})", fields["hands"])
        if m is None:
            raise InvalidPositionError(
                f"field hands= must look like w24,r24, not {fields['hands']!r}")
        hands = (int(m.group(1)), int(m.group(2)))
    else:
        hands = (supply - len(white), supply - len(red))
    if supply is not None:
        for color, cells, hand in ((0, white, hands[0]), (1, red, hands[1])):
            assert hand is not None
            if hand < 0 or len(cells) + hand > supply:
                raise InvalidPositionError(
                    f"field hands=: {'White' if color == 0 else 'Red'} would own "
                    f"{len(cells) + hand} tiles, more than the {supply} of the rules")
    single_used = False
    if "single" in fields:
        if not rules.single_adjacency:
            raise InvalidPositionError(
                "field single= needs the balance variant (rules single_adjacency=on)")
        if fields["single"] not in ("used", "unused"):
            raise InvalidPositionError(
                f"field single= must be used or unused, not {fields['single']!r}")
        single_used = fields["single"] == "used"
    relocations = 0
    if "relocations" in fields:
        if not rules.extended:
            raise InvalidPositionError("field relocations= needs extended play (extended=on)")
        if not re.fullmatch(r"[0-9]{1,9}", fields["relocations"]):
            raise InvalidPositionError(
                f"field relocations= must be a whole number, not {fields['relocations']!r}")
        relocations = int(fields["relocations"])
        if relocations > rules.extended_move_limit:
            # No game gets past its limit: it is drawn when the limit is reached.
            raise InvalidPositionError(
                f"field relocations=: {relocations} is more than the extended_move_limit "
                f"of {rules.extended_move_limit}, at which the game is drawn")
    return _PositionFields(text.strip(), (white, red), turn, hands, single_used, relocations)


def _draw(cells: dict[Cell, str]) -> str:
    """Text picture of ``cells`` (cell -> one character) in hex layout."""
    if not cells:
        return ""
    rs = [r for _, r in cells]
    xs = [2 * q + r for q, r in cells]
    xlo = min(xs)
    lines = []
    for r in range(min(rs), max(rs) + 1):
        row = [" "] * (max(xs) - xlo + 1)
        for (q, rr), ch in cells.items():
            if rr == r:
                row[2 * q + r - xlo] = ch
        lines.append(f"r={r:>3}  " + "".join(row).rstrip())
    return "\n".join(lines)
