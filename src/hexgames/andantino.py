"""Andantino (David L. Smith, 1995): rules, moves and a fast board.

The rules are those of ``RULES.md`` (section "Andantino") with every option there; the
notation is that of ``NOTATION.md``. The interface follows python-chess::

    >>> from hexgames import andantino
    >>> board = andantino.Board()
    >>> sorted(move.notation() for move in board.legal_moves)
    ['0,1', '1,-1']
    >>> board.push_notation("0,1")
    Move(to=(0, 1))
    >>> len(board.legal_moves)
    3

Internally a cell is packed into one small int (``_pack``), and the board keeps, under
make/unmake, the owner of every tile, the number of occupied neighbours of every empty
cell touching the surface, the list of cells touching two or more tiles (the legal
placements), the Zobrist key, and for each colour the empty cells it already walls off.
A placement tests only the three lines through it, and runs the enclosure flood fill only
when the new tile touches two or more separate runs of its own colour: otherwise the
cells around it that are not its colour stay connected through its ring, so no region
can have been cut off.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from hexgames.core import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Outcome,
    Termination,
)
from hexgames.hexgrid import Cell

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


_BOOL_WORDS = {"on": True, "off": False, "true": True, "false": False, "yes": True,
               "no": False, "1": True, "0": False}


def _parse_bool(key: str, value: str) -> bool:
    try:
        return _BOOL_WORDS[value.lower()]
    except KeyError:
        raise InvalidRulesError(f"option {key} takes on or off, not {value!r}") from None


@dataclass(frozen=True)
class Rules:
    """The options of RULES.md; the defaults are the standard game.

    Attributes:
        single_adjacency: Néstor Romeral Andrés' balance variant: once per game Red may
            place a tile touching exactly one tile.
        self_trap: what a self-trap does (:class:`SelfTrap`, or its value as a string).
        extended: extended play: with an empty hand a move relocates one of your tiles.
        extended_move_limit: relocations after which an extended game is drawn.
        tiles_per_player: tiles each side owns (setup tile included); ``None`` is the
            unlimited classic game with no draw.

    Raises:
        InvalidRulesError: for an unknown ``self_trap`` value or a limit below 1.
    """

    single_adjacency: bool = False
    self_trap: SelfTrap = SelfTrap.OPPONENT_WINS
    extended: bool = False
    extended_move_limit: int = 200
    tiles_per_player: int | None = 25

    def __post_init__(self) -> None:
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

    @classmethod
    def from_options(cls, options: Iterable[str] | str) -> Rules:
        """Rules from ``key=value`` words, as in a record's ``Rules`` tag or ``--rules``.

        Booleans take ``on``/``off`` (or true/false, yes/no, 1/0); ``tiles_per_player``
        takes a number or ``none``. Raises :class:`InvalidRulesError` naming a bad word.
        """
        words = options.split() if isinstance(options, str) else list(options)
        values: dict[str, Any] = {}
        for word in words:
            key, sep, value = word.partition("=")
            key = key.strip().lower()
            value = value.strip()
            if not sep or not value:
                raise InvalidRulesError(f"rules option {word!r} is not key=value")
            if key in values:
                raise InvalidRulesError(f"rules option {key} is given twice")
            if key in ("single_adjacency", "extended"):
                values[key] = _parse_bool(key, value)
            elif key == "self_trap":
                values[key] = value
            elif key in ("extended_move_limit", "tiles_per_player"):
                if key == "tiles_per_player" and value.lower() in ("none", "unlimited"):
                    values[key] = None
                    continue
                try:
                    values[key] = int(value)
                except ValueError:
                    raise InvalidRulesError(
                        f"option {key} takes a whole number, not {value!r}") from None
            else:
                known = ", ".join(f.name for f in cls.__dataclass_fields__.values())
                raise InvalidRulesError(f"unknown Andantino rules option {key!r} (known: {known})")
        return cls(**values)

    def options(self) -> list[str]:
        """The options that differ from the defaults, as ``key=value`` words."""
        words = []
        default = Rules()
        if self.single_adjacency != default.single_adjacency:
            words.append(f"single_adjacency={'on' if self.single_adjacency else 'off'}")
        if self.self_trap != default.self_trap:
            words.append(f"self_trap={self.self_trap.value}")
        if self.extended != default.extended:
            words.append(f"extended={'on' if self.extended else 'off'}")
        if self.extended_move_limit != default.extended_move_limit:
            words.append(f"extended_move_limit={self.extended_move_limit}")
        if self.tiles_per_player != default.tiles_per_player:
            tiles = self.tiles_per_player
            words.append(f"tiles_per_player={'none' if tiles is None else tiles}")
        return words


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
_DELTAS_REVERSED = tuple(reversed(_DELTAS))
# The three axes as (ring-bit mask of both directions, step along the axis).
_AXES = ((0b001001, _S), (0b100100, 1), (0b010010, _S - 1))
# _RUNS[mask]: how many separate runs the set bits make around the ring (0 for all six).
_RUNS = tuple(
    sum(1 for i in range(6) if (m >> i) & 1 and not (m >> ((i - 1) % 6)) & 1) for m in range(64)
)


def _pack(cell: Cell) -> int:
    q, r = cell
    if not (-COORDINATE_LIMIT <= q <= COORDINATE_LIMIT
            and -COORDINATE_LIMIT <= r <= COORDINATE_LIMIT):
        raise InvalidMoveError(
            f"cell {q},{r} is outside the supported range |q|, |r| <= {COORDINATE_LIMIT}")
    return (q + _OFF) * _S + r + _OFF


def _unpack(key: int) -> Cell:
    return ((key >> _BITS) - _OFF, (key & _MASK) - _OFF)


# --- Zobrist keys ---------------------------------------------------------------------
_M64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    # Steele, Lea and Flood, "Fast splittable pseudorandom number generators" (2014).
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


_ZOBRIST: dict[int, int] = {}
_Z_TURN = _splitmix64(0xA11D)
_Z_SINGLE_USED = _splitmix64(0x5146)


def _zobrist(key: int, color: int) -> int:
    index = key * 2 + color
    z = _ZOBRIST.get(index)
    if z is None:
        z = _ZOBRIST[index] = _splitmix64(index + 0x1000)
    return z


# --- moves ----------------------------------------------------------------------------
_CELL_RE = r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)|(-?\d+),(-?\d+)"
_MOVE_RE = re.compile(rf"\s*(?:(?:{_CELL_RE})\s*>\s*)?(?:{_CELL_RE})\s*")


def _cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: str) -> Cell:
    """A cell from ``q,r`` (or ``(q, r)``).

    Raises:
        InvalidMoveError: if ``text`` is not a cell or is outside the supported range.
    """
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

    Notation (NOTATION.md): ``0,1`` places a tile; ``2,-1>0,3`` relocates one.
    """

    to: Cell
    from_: Cell | None = None
    _key: int = field(default=0, init=False, repr=False, compare=False)
    _from_key: int = field(default=-1, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_key", _pack(self.to))
        if self.from_ is not None:
            object.__setattr__(self, "_from_key", _pack(self.from_))

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Parse ``q,r`` or ``q,r>q,r``.

        Raises:
            InvalidMoveError: naming ``text`` if it is not a move.
        """
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


_PLACEMENTS: dict[int, Move] = {}


def _placement(key: int) -> Move:
    move = _PLACEMENTS.get(key)
    if move is None:
        move = _PLACEMENTS[key] = Move(_unpack(key))
    return move


# --- the board ------------------------------------------------------------------------
STARTING_POSITION = "andantino w=0,0 r=1,0 turn=w hands=w24,r24"
_UNLIMITED = 1 << 62  # hand size standing for "no limit"; never written
_NO_KEYS: list[int] = []


class LegalMoves:
    """The legal moves of a position: a live, read-only sequence of :class:`Move`.

    Supports ``len()``, iteration, ``in`` and indexing (so ``random.choice`` works); it
    always shows the board's current position. Empty once the game is over.
    """

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __len__(self) -> int:
        keys = self._board._keys
        return len(keys) if keys is not None else len(self._board._move_list())

    def __iter__(self) -> Iterator[Move]:
        keys = self._board._keys
        if keys is not None:
            return map(_placement, list(keys))
        return iter(list(self._board._move_list()))

    def __getitem__(self, index: int) -> Move:
        keys = self._board._keys
        if keys is not None:
            key = keys[index]
            return _PLACEMENTS.get(key) or _placement(key)
        return self._board._move_list()[index]

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __repr__(self) -> str:
        return f"<LegalMoves ({', '.join(m.notation() for m in self)})>"


@dataclass(frozen=True)
class _Setup:
    """The state of a set-up position, computed once and copied by each new board."""

    fields: _PositionFields
    owner: dict[int, int]
    adj: dict[int, int]
    legal: list[int]
    hash: int
    enclosed: tuple[set[int], set[int]]


@functools.lru_cache(maxsize=256)
def _setup_state(position: str, rules: Rules) -> _Setup:
    fields = _parse_position(position, rules)
    owner: dict[int, int] = {}
    adj: dict[int, int] = {}
    zkey = 0
    for color, cells in enumerate(fields.tiles):
        for cell in cells:
            key = _pack(cell)
            owner[key] = color
            zkey ^= _zobrist(key, color)
            adj.pop(key, None)
            for d in _DELTAS:
                if key + d not in owner:
                    adj[key + d] = adj.get(key + d, 0) + 1
    legal = [k for k, n in adj.items() if n >= 2]
    if fields.turn:
        zkey ^= _Z_TURN
    if fields.single_used:
        zkey ^= _Z_SINGLE_USED
    enclosed = tuple(_enclosed_by(owner, [k for k, c in owner.items() if c == color], color)
                     for color in (0, 1))
    return _Setup(fields, owner, adj, legal, zkey, (enclosed[0], enclosed[1]))


class Board:
    """An Andantino position with its move history.

    Args:
        position: a position string (NOTATION.md); ``None`` for the standard start.
        rules: the rules options; the defaults are the standard game.

    Raises:
        InvalidPositionError: if ``position`` is malformed or impossible under ``rules``,
            naming the field at fault.
    """

    def __init__(self, position: str | None = None, rules: Rules | None = None) -> None:
        self.rules = rules if rules is not None else Rules()
        if not isinstance(self.rules, Rules):
            raise InvalidRulesError(f"rules must be andantino.Rules, not {type(rules).__name__}")
        supply = self.rules.tiles_per_player
        if position is None:
            position = STARTING_POSITION
            if supply != 25:
                hand = "" if supply is None else f" hands=w{supply - 1},r{supply - 1}"
                position = f"andantino w=0,0 r=1,0 turn=w{hand}"
        elif not isinstance(position, str):
            raise InvalidPositionError(
                f"a position string is text, not {type(position).__name__}")
        setup = _setup_state(position, self.rules)
        self._root = setup.fields
        self.move_stack: list[Move] = []
        self._owner = setup.owner.copy()
        self._adj = setup.adj.copy()
        self._legal = setup.legal.copy()
        self._legal_pos = {k: i for i, k in enumerate(self._legal)}
        self._hash = setup.hash
        self._enclosed = (setup.enclosed[0].copy(), setup.enclosed[1].copy())
        fields = setup.fields
        self._turn = fields.turn
        self._hands = [_UNLIMITED if h is None else h for h in fields.hands]
        self._single_used = fields.single_used
        self._relocations = fields.relocations
        self._undo: list[tuple[Any, ...]] = []
        self._version = 0  # bumped by every push and pop; keys the move-list cache
        self._cache_version = -1
        self._cache: list[Move] = []
        self._repetitions: dict[int, int] = {}
        if self.rules.extended:
            self._repetitions[self._hash] = 1
        self._fast = (not self.rules.single_adjacency
                      and self.rules.self_trap is not SelfTrap.ILLEGAL)
        self._outcome = self._static_outcome()
        self._keys: list[int] | None = None
        self._sync_keys()

    def _sync_keys(self) -> None:
        """Point ``_keys`` at the packed legal placements when they are exactly the
        cells touching two tiles (the common case), else at ``None``."""
        if self._outcome is not None:
            self._keys = _NO_KEYS
        elif self._fast and self._hands[self._turn]:
            self._keys = self._legal
        else:
            self._keys = None

    def _keys_of(self, color: int) -> list[int]:
        return [k for k, c in self._owner.items() if c == color]

    def _static_outcome(self) -> Outcome | None:
        """The result a set-up position already has: a line of the player who just moved,
        or no tiles left to place."""
        mover = 1 - self._turn
        lines: set[Cell] = set()
        for key in self._keys_of(mover):
            lines.update(self._line_cells(key, mover, 0b111111))
        if lines:
            return Outcome(Termination.LINE, _COLORS[mover], line=frozenset(lines))
        if self._hands[self._turn] == 0 and not self.rules.extended:
            return Outcome(Termination.TILES_EXHAUSTED, None)
        return None

    # -- reading the position ----------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move."""
        return _COLORS[self._turn]

    def ply(self) -> int:
        """Plies pushed since the board's starting position."""
        return len(self.move_stack)

    def color_at(self, cell: Cell) -> Color | None:
        """The colour of the tile on ``cell``, or ``None`` if it is empty."""
        try:
            key = _pack(cell)
        except InvalidMoveError:
            return None
        color = self._owner.get(key)
        return None if color is None else _COLORS[color]

    def tiles(self, color: int) -> frozenset[Cell]:
        """The cells holding tiles of ``color``."""
        return frozenset(_unpack(k) for k in self._keys_of(color))

    def hand(self, color: int) -> int | None:
        """Tiles ``color`` still has to place; ``None`` when the supply is unlimited."""
        h = self._hands[color]
        return None if h >= _UNLIMITED // 2 else h

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
        return frozenset(_unpack(k) for k in self._enclosed[color])

    def zobrist_hash(self) -> int:
        """A 64-bit Zobrist key of the tiles, the side to move and whether Red has used
        its balance-variant right. Hands follow from the tiles and the rules, and the
        relocation counter is left out, as a chess key leaves out the move clocks."""
        return self._hash

    def position(self) -> str:
        """The position string (NOTATION.md), which ``Board(position, rules)`` reads."""
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

    def root(self) -> Board:
        """A new board at this board's starting position, without the moves."""
        return Board(self._root.text, self.rules)

    def copy(self) -> Board:
        """An independent copy with the same starting position and move stack."""
        board = self.root()
        for move in self.move_stack:
            board.push(move)
        return board

    def __repr__(self) -> str:
        if self.rules == Rules():
            return f"Board({self.position()!r})"
        return f"Board({self.position()!r}, rules={self.rules!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.rules == other.rules and self.position() == other.position()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        """The surface as text: ``W`` and ``R`` tiles, ``.`` for legal placements, one
        row per ``r`` (labelled), each row shifted half a cell from the one above."""
        cells = {_unpack(k): "WR"[c] for k, c in self._owner.items()}
        for move in self.legal_moves:
            cells.setdefault(move.to, ".")
        return _draw(cells)

    # -- legal moves -------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves here (empty once the game is over)."""
        return LegalMoves(self)

    def _relocation_phase(self) -> bool:
        return self.rules.extended and self._hands[self._turn] == 0

    def _single_available(self) -> bool:
        return (self.rules.single_adjacency and self._turn == 1 and not self._single_used)

    def _move_list(self) -> list[Move]:
        """The legal moves when they are not simply the cells touching two tiles: the
        balance variant, illegal self-traps, or relocations; cached until the next
        push or pop."""
        if self._cache_version == self._version:
            return self._cache
        color = self._turn
        pocket = self._enclosed[1 - color] if self.rules.self_trap is SelfTrap.ILLEGAL else ()
        moves: list[Move] = []
        if self._outcome is not None:
            pass
        elif self._relocation_phase():
            adj = self._adj
            for source in sorted(self._keys_of(color)):
                # A target must still touch two tiles once the source is lifted.
                drop = {source + d for d in _DELTAS if adj.get(source + d) == 2}
                src_cell = _unpack(source)
                moves.extend(Move(_unpack(key), src_cell) for key in self._legal
                             if key not in drop and key not in pocket)
        else:
            keys = list(self._legal)
            if self._single_available():
                keys += [k for k, n in self._adj.items() if n == 1]
            moves = [_placement(k) for k in keys if k not in pocket]
        self._cache, self._cache_version = moves, self._version
        return moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal here."""
        return self._illegal_reason(move) is None

    def _illegal_reason(self, move: Move) -> str | None:
        if self._outcome is not None:
            return "the game is over"
        color = self._turn
        key = move._key
        if key in self._owner:
            return f"{_cell_text(move.to)} is occupied"
        if self._relocation_phase():
            if move.from_ is None:
                return "no tiles left in hand: move one of your tiles (from>to)"
            source = move._from_key
            if self._owner.get(source) != color:
                return f"{_cell_text(move.from_)} holds no tile of the side to move"
            touching = self._adj.get(key, 0) - (1 if key - source in _DELTAS else 0)
            if touching < 2:
                return (f"{_cell_text(move.to)} would touch {touching} tile(s) after the "
                        "pick-up; a tile must touch at least two")
        else:
            if move.from_ is not None:
                return "tiles are relocated only in extended play once your hand is empty"
            touching = self._adj.get(key, 0)
            if touching < 2 and not (touching == 1 and self._single_available()):
                if touching == 1 and self.rules.single_adjacency and color == 1:
                    return (f"{_cell_text(move.to)} touches one tile and Red has already "
                            "used its single-adjacency placement")
                return (f"{_cell_text(move.to)} touches {touching} tile(s); "
                        "a tile must touch at least two")
        if self.rules.self_trap is SelfTrap.ILLEGAL and key in self._enclosed[1 - color]:
            return f"{_cell_text(move.to)} lies in a pocket walled off by the opponent (self-trap)"
        return None

    # -- notation ----------------------------------------------------------------------

    def parse_notation(self, text: str) -> Move:
        """The legal move that ``text`` names.

        Raises:
            InvalidMoveError: if ``text`` is not a move.
            IllegalMoveError: if the move is not legal here, with the reason.
        """
        move = Move.from_notation(text)
        reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"illegal move {move.notation()}: {reason}")
        return move

    def push_notation(self, text: str) -> Move:
        """Parse ``text`` as with :meth:`parse_notation`, push it and return the move."""
        move = self.parse_notation(text)
        self.push(move)
        return move

    # -- make / unmake -----------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``.

        Raises:
            IllegalMoveError: if the move is not legal here (the board is unchanged).
        """
        key = move._key
        color = self._turn
        if not (self._keys is self._legal and move._from_key < 0 and key in self._legal_pos):
            reason = self._illegal_reason(move)
            if reason is not None:
                raise IllegalMoveError(f"illegal move {move.notation()}: {reason}")
        prev_outcome = self._outcome
        prev_single = self._single_used
        source = move._from_key
        if source >= 0:
            before = self._enclosed[color]
            self._remove_tile(source, color)
            self._relocations += 1
        else:
            self._hands[color] -= 1
            if (self.rules.single_adjacency and color == 1 and not self._single_used
                    and self._adj[key] == 1):
                self._single_used = True
                self._hash ^= _Z_SINGLE_USED
        count, index, mask = self._place(key, color)

        # Outcome: the mover's line and trap first, then self-trap, then draws.
        outcome = None
        line = self._line_cells(key, color, mask) if mask & 0b111111 else ()
        trapped: list[int] = []
        new_pocket: set[int] | None = None
        enclosed = self._enclosed
        if source >= 0:
            new_pocket = _enclosed_by(self._owner, self._keys_of(color), color)
            trapped = [k for k in new_pocket if k not in before and self._owner.get(k) == 1 - color]
            old_pocket = enclosed[color]
            enclosed = (new_pocket, enclosed[1]) if color == 0 else (enclosed[0], new_pocket)
            self._enclosed = enclosed
        elif _RUNS[mask] >= 2 and key not in enclosed[color]:
            new_pocket = self._cut_off(key, color)
            if new_pocket:
                trapped = [k for k in new_pocket if self._owner.get(k) == 1 - color]
                enclosed[color].update(new_pocket)
        if line or trapped:
            if line and trapped:
                termination = Termination.LINE_AND_TRAP
            else:
                termination = Termination.LINE if line else Termination.TRAP
            outcome = Outcome(termination, _COLORS[color], line=frozenset(line),
                              trapped=frozenset(map(_unpack, trapped)))
        elif key in enclosed[1 - color] and self.rules.self_trap is SelfTrap.OPPONENT_WINS:
            outcome = Outcome(Termination.SELF_TRAP, _COLORS[1 - color],
                              trapped=frozenset((_unpack(key),)))
        self._turn = 1 - color
        self._hash ^= _Z_TURN
        if outcome is None:
            if self.rules.extended:
                seen = self._repetitions.get(self._hash, 0) + 1
                self._repetitions[self._hash] = seen
                if seen >= 3:
                    outcome = Outcome(Termination.REPETITION, None)
                elif self._relocations >= self.rules.extended_move_limit:
                    outcome = Outcome(Termination.MOVE_LIMIT, None)
            elif self._hands[1 - color] == 0:
                outcome = Outcome(Termination.TILES_EXHAUSTED, None)
        elif self.rules.extended:
            self._repetitions[self._hash] = self._repetitions.get(self._hash, 0) + 1
        self._outcome = outcome
        self._version += 1
        self._sync_keys()
        if source >= 0:
            self._undo.append((key, count, index, prev_outcome, prev_single, source, old_pocket))
        else:
            self._undo.append((key, count, index, prev_outcome, prev_single, new_pocket))
        self.move_stack.append(move)

    def pop(self) -> Move:
        """Take back the last move and return it.

        Raises:
            IndexError: if no move has been pushed.
        """
        if not self.move_stack:
            raise IndexError("pop from a board with no moves")
        move = self.move_stack.pop()
        record = self._undo.pop()
        key, count, index, prev_outcome, prev_single = record[:5]
        color = 1 - self._turn
        if self.rules.extended:
            seen = self._repetitions[self._hash] - 1
            if seen:
                self._repetitions[self._hash] = seen
            else:
                del self._repetitions[self._hash]
        self._turn = color
        self._hash ^= _Z_TURN
        self._outcome = prev_outcome
        self._version += 1
        self._unplace(key, color, count, index)
        if len(record) == 7:
            source, old_pocket = record[5], record[6]
            self._restore_tile(source, color)
            self._relocations -= 1
            self._enclosed = ((old_pocket, self._enclosed[1]) if color == 0
                              else (self._enclosed[0], old_pocket))
        else:
            self._hands[color] += 1
            new_pocket = record[5]
            if new_pocket:
                self._enclosed[color].difference_update(new_pocket)
        if prev_single != self._single_used:
            self._single_used = prev_single
            self._hash ^= _Z_SINGLE_USED
        self._sync_keys()
        return move

    def peek(self) -> Move:
        """The last move pushed.

        Raises:
            IndexError: if no move has been pushed.
        """
        if not self.move_stack:
            raise IndexError("peek at a board with no moves")
        return self.move_stack[-1]

    def _place(self, key: int, color: int) -> tuple[int, int, int]:
        """Put ``color``'s tile on the empty ``key``; returns what unmake needs and the
        ring mask of neighbouring tiles of the same colour."""
        owner, adj, legal, pos = self._owner, self._adj, self._legal, self._legal_pos
        count = adj.pop(key)
        index = -1
        if count >= 2:
            index = pos.pop(key)
            last = legal.pop()
            if last != key:
                legal[index] = last
                pos[last] = index
        owner[key] = color
        self._hash ^= _zobrist(key, color)
        mask = 0
        bit = 1
        for d in _DELTAS:
            n = key + d
            o = owner.get(n)
            if o is None:
                v = adj.get(n, 0) + 1
                adj[n] = v
                if v == 2:
                    pos[n] = len(legal)
                    legal.append(n)
            elif o == color:
                mask |= bit
            bit <<= 1
        return count, index, mask

    def _unplace(self, key: int, color: int, count: int, index: int) -> None:
        owner, adj, legal, pos = self._owner, self._adj, self._legal, self._legal_pos
        del owner[key]
        self._hash ^= _zobrist(key, color)
        for d in _DELTAS_REVERSED:
            n = key + d
            if n not in owner:
                v = adj[n] - 1
                if v == 1:
                    del pos[n]
                    legal.pop()
                if v:
                    adj[n] = v
                else:
                    del adj[n]
        adj[key] = count
        if count >= 2:
            if index == len(legal):
                legal.append(key)
            else:
                moved = legal[index]
                pos[moved] = len(legal)
                legal.append(moved)
                legal[index] = key
            pos[key] = index

    def _remove_tile(self, key: int, color: int) -> None:
        """Lift ``color``'s tile from ``key`` (extended play)."""
        owner, adj, legal, pos = self._owner, self._adj, self._legal, self._legal_pos
        del owner[key]
        self._hash ^= _zobrist(key, color)
        count = 0
        for d in _DELTAS:
            n = key + d
            if n in owner:
                count += 1
            else:
                v = adj[n] - 1
                if v == 1:
                    _list_remove(legal, pos, n)
                if v:
                    adj[n] = v
                else:
                    del adj[n]
        if count:
            adj[key] = count
            if count >= 2:
                pos[key] = len(legal)
                legal.append(key)

    def _restore_tile(self, key: int, color: int) -> None:
        owner, adj, legal, pos = self._owner, self._adj, self._legal, self._legal_pos
        count = adj.pop(key, 0)
        if count >= 2:
            _list_remove(legal, pos, key)
        owner[key] = color
        self._hash ^= _zobrist(key, color)
        for d in _DELTAS:
            n = key + d
            if n not in owner:
                v = adj.get(n, 0) + 1
                adj[n] = v
                if v == 2:
                    pos[n] = len(legal)
                    legal.append(n)

    def _line_cells(self, key: int, color: int, mask: int) -> list[Cell]:
        """Cells of every line of five or more of ``color`` through ``key``."""
        owner = self._owner
        cells: list[Cell] = []
        for bits, step in _AXES:
            if not mask & bits:
                continue
            lo = key - step
            while owner.get(lo) == color:
                lo -= step
            hi = key + step
            while owner.get(hi) == color:
                hi += step
            length = (hi - lo) // step - 1
            if length >= 5:
                cells.extend(_unpack(k) for k in range(lo + step, hi, step))
        return cells

    def _cut_off(self, key: int, color: int) -> set[int]:
        """Cells that ``color``'s new tile on ``key`` has just cut off from infinity.

        Flood-fills, through cells that are not ``color``'s, from each neighbour of
        ``key``; a fill escapes once it leaves the bounding box of ``color``'s tiles (in
        q, r and s), from where a straight line reaches infinity.
        """
        owner = self._owner
        tiles = self._keys_of(color)
        qs = [k >> _BITS for k in tiles]
        rs = [k & _MASK for k in tiles]
        ss = [q + r for q, r in zip(qs, rs, strict=True)]
        qlo, qhi, rlo, rhi, slo, shi = min(qs), max(qs), min(rs), max(rs), min(ss), max(ss)
        escaped: set[int] = set()
        cut: set[int] = set()
        for d in _DELTAS:
            start = key + d
            if owner.get(start) == color or start in escaped or start in cut:
                continue
            seen = {start}
            frontier = [start]
            free = False
            while frontier:
                k = frontier.pop()
                q = k >> _BITS
                r = k & _MASK
                if (q <= qlo or q >= qhi or r <= rlo or r >= rhi
                        or q + r <= slo or q + r >= shi or k in escaped):
                    free = True
                    break
                for dd in _DELTAS:
                    n = k + dd
                    if n not in seen and owner.get(n) != color:
                        seen.add(n)
                        frontier.append(n)
            if free:
                escaped |= seen
            else:
                cut |= seen
        return cut

    # -- the end of the game -----------------------------------------------------------

    def is_game_over(self) -> bool:
        """Whether the game has ended (a win or a draw)."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    def result(self) -> str:
        """``1-0`` (White won), ``0-1`` (Red won), ``1/2-1/2`` or ``*`` (not over)."""
        return "*" if self._outcome is None else self._outcome.result()


def _list_remove(legal: list[int], pos: dict[int, int], key: int) -> None:
    index = pos.pop(key)
    last = legal.pop()
    if last != key:
        legal[index] = last
        pos[last] = index


def _enclosed_by(owner: dict[int, int], tiles: list[int], color: int) -> set[int]:
    """Every cell that is not ``color``'s and cannot reach infinity through such cells:
    a from-scratch flood fill from outside the bounding box of ``color``'s tiles."""
    if not tiles:
        return set()
    qs = [k >> _BITS for k in tiles]
    rs = [k & _MASK for k in tiles]
    qlo, qhi, rlo, rhi = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    inside = {q * _S + r for q in range(qlo + 1, qhi) for r in range(rlo + 1, rhi)}
    start = qlo * _S + rlo
    outside = {start}
    frontier = [start]
    while frontier:
        k = frontier.pop()
        for d in _DELTAS:
            n = k + d
            if n in outside or owner.get(n) == color:
                continue
            q, r = n >> _BITS, n & _MASK
            if qlo <= q <= qhi and rlo <= r <= rhi:
                outside.add(n)
                frontier.append(n)
    return {k for k in inside if k not in outside and owner.get(k) != color}


def series_points(board: Board, winner: int | None = None) -> tuple[int, int]:
    """Series points (RULES.md, "Series scoring") for a finished game, as (White, Red).

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
        m = re.fullmatch(r"(-?\d+),(-?\d+)", part)
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
    elif "hands" in fields:
        m = re.fullmatch(r"w(\d+),r(\d+)", fields["hands"])
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
        if not fields["relocations"].isdigit():
            raise InvalidPositionError(
                f"field relocations= must be a whole number, not {fields['relocations']!r}")
        relocations = int(fields["relocations"])
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
