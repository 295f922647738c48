"""Fixed action spaces and observation tensors for both games (needs numpy).

Frameworks such as OpenSpiel and PettingZoo want a game's moves as the integers
``0 .. num_actions - 1`` of one fixed space, and a position as a float tensor of fixed
shape. This module provides both, shared by :mod:`hexgames.integrations.openspiel` and
:mod:`hexgames.integrations.pettingzoo`::

    >>> from hexgames import abande
    >>> from hexgames.integrations.encoding import AbandeEncoding
    >>> enc = AbandeEncoding()
    >>> board = abande.Board()
    >>> enc.num_actions, len(enc.legal_actions(board))
    (260, 37)
    >>> enc.move_of(enc.action_of(abande.Move.from_notation("d4"))).notation()
    'd4'
    >>> enc.observation(board).shape
    (12, 7, 7)

**Grid.** Both games' tensors lay the axial cell ``(q, r)`` at row ``r + R``, column
``q + R`` of a ``(2R + 1) x (2R + 1)`` square, where R is the radius of the hexagon of
cells (Abande: 3, the board; Andantino: see below). Squares outside the hexagon are 0
in every plane; the ``hexagon`` plane marks the cells that exist.

**Andantino's hexagon.** The surface is unbounded, but under the rules of docs/rules.md with
``T = tiles_per_player`` tiles each no game can leave the hexagon of radius ``R = T``
around White's set-up tile (25 for the standard game: 1951 cells). Proof: the max
distance from (0, 0) grows by at most one per placement. The first tile at distance
``D + 1`` has at most two neighbours at distance ``D`` (exactly two when it is not a
corner of its ring) and all its other neighbours lie at ``D + 1`` or farther, where no
tile is yet; since it must touch two tiles, both of those neighbours hold tiles. So every
distance from 1 to ``D - 1`` holds two tiles before the first tile at ``D`` can come:
with the set-up tile (1, 0) at distance 1 that takes ``1 + 2(D - 2) + 1 = 2D - 2``
placements, and a game has ``2T - 2``, so ``D <= T``. The balance variant saves at most
one tile (one placement touching a single tile): ``2D - 3 <= 2T - 2`` still gives
``D <= T``. The bound is reached: a two-wide strip grown in one direction puts the last
placement at distance T (``tests/test_integrations_encoding.py`` plays one).

Extended play (relocations) can walk tiles farther than that, and unlimited tiles
(``tiles_per_player=None``) can grow without bound. Unlimited tiles are refused with a
``ValueError``, and so are tile counts whose spaces would pass :data:`MAX_SIZE`.
Extended play is played *confined to the hexagon*: relocations are encoded as (from
cell, to cell) pairs of hexagon cells, moves leaving the hexagon are not offered, and
the game is drawn if the side to move has no legal move inside it (no such position is
known; a framework must never be left without a legal action).

**Actions.** Andantino: ``index(to)`` for a placement, with cells indexed in
:attr:`AndantinoEncoding.cells` order (by ``r``, then ``q``); in extended play also
``N + index(from) * N + index(to)`` for a relocation, ``N`` the number of cells. Abande:
``0 .. 36`` enter on ``abande.POINTS[i]`` (board order a1 .. g4); ``37 + 6 * i + d``
moves the stack on ``POINTS[i]`` one step along ``hexgrid.DIRECTIONS[d]``; ``259`` passes.

**Observations** are ``float32`` arrays of shape ``(planes, 2R + 1, 2R + 1)``
(``channels_first=True``, OpenSpiel's layout) or ``(2R + 1, 2R + 1, planes)``
(PettingZoo's), from the point of view of ``player`` (the side to move by default); the
planes are named in ``ANDANTINO_PLANES`` and :meth:`AbandeEncoding.plane_names`, all 0 or
1 except the fractions noted there.

**Andantino's window.** ``AndantinoEncoding(rules, window=W)`` observes only the
hexagon of radius W around :meth:`AndantinoEncoding.window_centre` (the middle of the
box of the tiles' axial coordinates, rounded down), re-centred on every position: 12
planes of ``2W + 1`` squares (``ANDANTINO_WINDOW_PLANES``; 17 x 17 for W = 8 against
51 x 51 for the whole standard hexagon), the last three summarising what lies outside
(own and opponent tiles outside the window, and the share of the legal target cells
outside it). The actions stay those of the whole hexagon;
:meth:`AndantinoEncoding.window_actions` gives the action of each window square.

**The move count.** ``move_count=True`` (both encodings, the vector and batched
environments' ``move_count=`` argument, the native encoders' ``move_count=on`` word)
adds one last plane, :data:`MOVE_COUNT`: the plies played divided by the longest
game's (:meth:`Encoding.max_plies`), at most 1, on the grid's cells. Off by default, so
the shapes above stay as they were.

**Native.** The environments use the same spaces from the Rust core
(``hexgames_core::encoding``, bound as ``hexgames._native.AndantinoEncoder`` /
``AbandeEncoder`` and reached through :func:`hexgames.native.encoder`), which write masks
and observations straight into numpy arrays (the vector environment in place: only the
planes and squares a step changed). This module is their reference: a
differential test (``tests/test_integrations_native.py``) checks that both give the
same actions, masks and observation values on every ply of random games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from hexgames import abande, andantino
from hexgames.core import InvalidPositionError, InvalidRulesError
from hexgames.hexgrid import DIRECTIONS, Cell, hexagon

__all__ = [
    "ABANDE_MAX_PLIES",
    "ANDANTINO_PLANES",
    "ANDANTINO_WINDOW_PLANES",
    "MAX_EXTENDED_TILES",
    "MAX_SIZE",
    "MAX_TILES",
    "MOVE_COUNT",
    "AbandeEncoding",
    "AndantinoEncoding",
    "Encoding",
    "encoding_for",
    "rules_from",
]

BoardT = TypeVar("BoardT", andantino.Board, abande.Board)
MoveT = TypeVar("MoveT", andantino.Move, abande.Move)
RulesT = TypeVar("RulesT", andantino.Rules, abande.Rules)
FloatArray = npt.NDArray[np.float32]
Int8Array = npt.NDArray[np.int8]

#: Andantino's observation planes, in order. ``own_hand`` and ``opponent_hand`` are the
#: tiles in hand divided by ``tiles_per_player``; ``relocations`` is the relocations so
#: far divided by ``extended_move_limit``; ``single_right`` is 1 while Red may still make
#: its balance-variant placement; ``to_move`` is 1 when ``player`` is the side to move;
#: ``legal`` marks the target cells of the side to move's legal moves.
ANDANTINO_PLANES = ("own", "opponent", "legal", "hexagon", "own_hand", "opponent_hand",
                    "to_move", "single_right", "relocations")

#: Andantino's planes with a window (``AndantinoEncoding(rules, window=W)``): those of
#: ``ANDANTINO_PLANES`` on the window (``hexagon`` marks the window's cells inside the
#: action hexagon), then what lies outside it, on the window's cells:
#: ``own_outside`` and ``opponent_outside``, the tiles outside the window divided by
#: ``tiles_per_player``, and ``legal_outside``, the share of the side to move's legal
#: target cells that lie outside it.
ANDANTINO_WINDOW_PLANES = (*ANDANTINO_PLANES, "own_outside", "opponent_outside",
                           "legal_outside")

#: The optional last plane of both games' observations (``move_count=True``): the plies
#: played divided by the longest game's (Andantino: ``2 tiles_per_player - 2``
#: placements, plus ``extended_move_limit`` relocations in extended play; Abande:
#: ``ABANDE_MAX_PLIES``, 143), at most 1, on the grid's cells.
MOVE_COUNT = "move_count"
#: The longest Abande game: 36 entries and at most 35 captures (each leaves one stack
#: fewer, and one stays), with a pass between any two of them and two at the end.
ABANDE_MAX_PLIES = 2 * (36 + 35) + 1

#: The most actions, and observation values, an encoding may have: frameworks build a
#: legal-action mask and an observation of that size at every step (OpenSpiel's mask is
#: a Python list). Andantino's hexagon grows with ``tiles_per_player`` and extended
#: play squares it, so the caps allow ``MAX_EXTENDED_TILES`` tiles each with extended
#: play (the standard 25 needs 3,808,352 actions) and ``MAX_TILES`` without.
MAX_SIZE = 1 << 24
MAX_EXTENDED_TILES = 36
MAX_TILES = 682


class Encoding(Generic[BoardT, MoveT]):
    """What both games' encodings share; use :class:`AndantinoEncoding` or
    :class:`AbandeEncoding`.

    Attributes:
        radius: R, the radius of the hexagon of cells.
        cells: the hexagon's cells, the order of the cell indices in actions.
        num_actions: the size of the action space.
        num_planes: the number of observation planes.
    """

    radius: int
    cells: tuple[Cell, ...]
    num_actions: int
    num_planes: int
    #: Whether the observation ends with the :data:`MOVE_COUNT` plane.
    move_count: bool = False

    def __init__(self, radius: int) -> None:
        self.radius = radius
        self.side = 2 * radius + 1
        self.cells = tuple(hexagon(radius))
        self._index = {cell: i for i, cell in enumerate(self.cells)}
        mask = np.zeros((self.side, self.side), np.float32)
        for q, r in self.cells:
            mask[r + radius, q + radius] = 1.0
        self._hexagon = mask

    def observation_shape(self, channels_first: bool = True) -> tuple[int, int, int]:
        """``(planes, 2R + 1, 2R + 1)``, or ``(2R + 1, 2R + 1, planes)`` channels-last."""
        if channels_first:
            return (self.num_planes, self.side, self.side)
        return (self.side, self.side, self.num_planes)

    def action_of(self, move: MoveT) -> int:
        """The action of ``move``.

        Raises:
            ValueError: if the move has no action (a cell outside the hexagon, a stack
                move between points that are not neighbours, a relocation when extended
                play is off).
        """
        raise NotImplementedError

    def move_of(self, action: int) -> MoveT:
        """The move of ``action``, a legal move or not.

        Raises:
            ValueError: if ``action`` is outside ``0 .. num_actions - 1`` or names no
                move (an Abande stack move off the board).
        """
        raise NotImplementedError

    def legal_actions(self, board: BoardT) -> list[int]:
        """The actions of the legal moves of ``board`` that the space holds, ascending."""
        index = self.action_of
        return sorted(index(move) for move in self._legal_moves(board))

    def _legal_moves(self, board: BoardT) -> Sequence[MoveT]:
        return board.legal_moves  # type: ignore[return-value]

    def legal_mask(self, board: BoardT) -> Int8Array:
        """An ``int8`` vector of shape ``(num_actions,)``: 1 for the legal actions."""
        mask = np.zeros(self.num_actions, np.int8)
        mask[self.legal_actions(board)] = 1
        return mask

    def is_over(self, board: BoardT) -> bool:
        """Whether the game is over for a framework: the rules ended it, or the side to
        move has no action (only in Andantino's confined extended play)."""
        return board.is_game_over() or not self.legal_actions(board)

    def returns(self, board: BoardT) -> tuple[float, float]:
        """The final returns ``(first player, second player)``: +1 a win, -1 a loss, 0 a
        draw (also while the game is not over, and for a confined extended game left
        without a legal action)."""
        outcome = board.outcome()
        if outcome is None or outcome.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if outcome.winner == 0 else (-1.0, 1.0)

    def observation(self, board: BoardT, player: int | None = None,
                    channels_first: bool = True) -> FloatArray:
        """The position as a new ``float32`` tensor, see :meth:`observation_shape`.

        Args:
            board: the position.
            player: whose point of view (0 the first player, 1 the second); ``None`` for
                the side to move.
            channels_first: ``(planes, rows, columns)`` if true, else
                ``(rows, columns, planes)``.

        Raises:
            ValueError: if ``player`` is not 0, 1 or ``None``.
        """
        if player is not None and player not in (0, 1):
            raise ValueError(f"player must be 0, 1 or None (the side to move), "
                             f"not {player!r}")
        tensor = np.zeros(self.observation_shape(channels_first), np.float32)
        # Channels last: fill the planes through a transposed view, with no copy after.
        planes = tensor if channels_first else tensor.transpose(2, 0, 1)
        self.fill(planes, board, board.turn if player is None else int(player))
        return tensor

    def fill(self, planes: FloatArray, board: BoardT, player: int) -> None:
        """Write the observation of ``board`` for ``player`` into ``planes``, a zeroed
        channels-first array (or view) of shape ``observation_shape()``."""
        raise NotImplementedError

    def max_plies(self) -> int:
        """The longest game in plies (the :data:`MOVE_COUNT` plane's divisor)."""
        raise NotImplementedError

    def _fill_move_count(self, planes: FloatArray, board: BoardT, mask: FloatArray) -> None:
        """The :data:`MOVE_COUNT` plane, last, if the encoding has it."""
        if self.move_count:
            planes[-1] = min(board.ply() / max(self.max_plies(), 1), 1.0)
            planes[-1] *= mask

    def _mark(self, plane: FloatArray, cells: Any) -> None:
        """Set ``plane`` to 1 on the hexagon cells among ``cells``."""
        radius = self.radius
        index = self._index
        for q, r in cells:
            if (q, r) in index:
                plane[r + radius, q + radius] = 1.0


class AndantinoEncoding(Encoding[andantino.Board, andantino.Move]):
    """Actions and observations of Andantino on the hexagon of radius
    ``rules.tiles_per_player`` (see the module docstring for why no game leaves it).

    Args:
        rules: the rules options (the standard game by default).
        move_count: whether the observation ends with the :data:`MOVE_COUNT` plane
            (one plane more).
        window: ``None`` (the default) for observations of the whole hexagon; else W,
            for observations of the hexagon of radius W around :meth:`window_centre`,
            re-centred on every position, with the planes of
            ``ANDANTINO_WINDOW_PLANES`` (``(12, 2W + 1, 2W + 1)``). The actions stay
            those of the whole hexagon (:meth:`window_actions` maps the window's cells
            to them).

    Raises:
        ValueError: if ``window`` is not a whole number from 1 to ``tiles_per_player``;
            if ``rules.tiles_per_player`` is ``None`` (unlimited tiles: a game
            can grow beyond any fixed hexagon) or above the caps of :data:`MAX_SIZE`, or
            the start has no legal move (extended play with one tile each: no relocation
            leaves a tile touching two).
    """

    def __init__(self, rules: andantino.Rules | None = None,
                 window: int | None = None, *, move_count: bool = False) -> None:
        rules = rules if rules is not None else andantino.Rules()
        if rules.tiles_per_player is None:
            raise ValueError(
                "Andantino with unlimited tiles (tiles_per_player=None) has no fixed "
                "action space: a game can grow beyond any hexagon; give a tile count")
        radius = rules.tiles_per_player
        cells = 3 * radius * (radius + 1) + 1
        actions = cells + (cells * cells if rules.extended else 0)
        floats = len(ANDANTINO_PLANES) * (2 * radius + 1) ** 2
        if actions > MAX_SIZE or floats > MAX_SIZE:
            raise InvalidRulesError(
                f"Andantino with tiles_per_player={radius}"
                f"{' and extended play' if rules.extended else ''} needs {actions:,} "
                f"actions and observations of {floats:,} values; the fixed spaces are "
                f"capped at {MAX_SIZE:,} of each (a mask or a tensor of that size is made "
                f"at every step): at most {MAX_EXTENDED_TILES} tiles each with extended "
                f"play, {MAX_TILES} without")
        try:
            andantino.Board(rules=rules)
        except InvalidPositionError as error:  # extended play with one tile each
            raise InvalidRulesError(
                f"Andantino with {' '.join(rules.options())} has no legal first move: "
                f"{error}") from None
        super().__init__(rules.tiles_per_player)
        self.rules = rules
        self.num_cells = len(self.cells)
        n = self.num_cells
        self.num_actions = n + (n * n if rules.extended else 0)
        self.num_planes = len(ANDANTINO_PLANES)
        self._placements = tuple(andantino.Move(cell) for cell in self.cells)
        self.window = window
        self._cell_actions: npt.NDArray[np.int64] | None = None
        if window is not None:
            if (isinstance(window, bool) or not isinstance(window, int)
                    or not 1 <= window <= radius):
                raise ValueError(f"window must be a whole number from 1 to "
                                 f"tiles_per_player ({radius}), not {window!r}")
            values = len(ANDANTINO_WINDOW_PLANES) * (2 * window + 1) ** 2
            if values > MAX_SIZE:
                raise ValueError(f"a window of radius {window} needs observations of "
                                 f"{values:,} values; they are capped at {MAX_SIZE:,}: "
                                 f"use a smaller window")
            self.num_planes = len(ANDANTINO_WINDOW_PLANES)
            self.side = 2 * window + 1
            self._window_cells = tuple(hexagon(window))
            mask = np.zeros((self.side, self.side), np.float32)
            for q, r in self._window_cells:
                mask[r + window, q + window] = 1.0
            self._window_mask = mask
        self.move_count = bool(move_count)
        self.num_planes += self.move_count

    def plane_names(self) -> tuple[str, ...]:
        """The observation planes in order: ``ANDANTINO_PLANES``, or
        ``ANDANTINO_WINDOW_PLANES`` with a window, and :data:`MOVE_COUNT` if on."""
        names = ANDANTINO_PLANES if self.window is None else ANDANTINO_WINDOW_PLANES
        return (*names, MOVE_COUNT) if self.move_count else names

    def max_plies(self) -> int:
        """``2 tiles_per_player - 2`` placements, plus the relocation limit in extended
        play."""
        rules = self.rules
        return max(2 * (rules.tiles_per_player or 1) - 2, 0) + (
            rules.extended_move_limit if rules.extended else 0)

    def window_centre(self, board: andantino.Board) -> Cell:
        """The centre of the observation window: the middle of the box of the tiles'
        axial coordinates, rounded down (``((min q + max q) // 2, (min r + max r) //
        2)``)."""
        tiles = [*board.tiles(0), *board.tiles(1)]
        qs = [q for q, _ in tiles]
        rs = [r for _, r in tiles]
        return ((min(qs) + max(qs)) // 2, (min(rs) + max(rs)) // 2)

    def window_actions(self, centres: Any) -> npt.NDArray[np.int64]:
        """The placement action of each square of the window around each centre, laid
        out as the observation's planes: ``(2W + 1, 2W + 1)`` ``int64`` for one centre
        ``(q, r)``, ``(N, 2W + 1, 2W + 1)`` for an ``(N, 2)`` array of them (the vector
        environment's ``window_centres()``); -1 for squares outside the window or off
        the action hexagon. A policy over the window's squares maps to actions so.

        Raises:
            ValueError: without a window, or for centres of another shape.
        """
        if self.window is None:
            raise ValueError("window_actions needs an encoding with a window")
        array = np.asarray(centres)
        if array.shape[-1:] != (2,) or array.ndim > 2 or array.dtype.kind not in "iu":
            raise ValueError(f"centres must be integer (q, r) pairs of shape (2,) or (N, 2), "
                             f"not of shape {array.shape} and dtype {array.dtype}")
        w, big = self.window, self.radius
        table = self._cell_actions
        if table is None:
            table = np.full((2 * big + 1, 2 * big + 1), -1, np.int64)
            for i, (q, r) in enumerate(self.cells):
                table[r + big, q + big] = i
            self._cell_actions = table
        offsets = np.arange(-w, w + 1)
        pairs = array.reshape(-1, 2).astype(np.int64)
        qs = pairs[:, 0, None, None] + offsets[None, None, :]
        rs = pairs[:, 1, None, None] + offsets[None, :, None]
        on = ((np.abs(qs) <= big) & (np.abs(rs) <= big)
              & (self._window_mask[None] == 1))
        out = np.where(on, table[np.clip(rs, -big, big) + big,
                                 np.clip(qs, -big, big) + big], -1)
        return out.reshape(*array.shape[:-1], self.side, self.side)

    def action_of(self, move: andantino.Move) -> int:
        try:
            to = self._index[move.to]
            if move.from_ is None:
                return to
            if not self.rules.extended:
                raise ValueError(f"relocation {move.notation()} has no action: "
                                 "extended play is off")
            return self.num_cells * (1 + self._index[move.from_]) + to
        except KeyError:
            raise ValueError(f"move {move.notation()} leaves the hexagon of radius "
                             f"{self.radius}") from None

    def move_of(self, action: int) -> andantino.Move:
        n = self.num_cells
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is outside 0..{self.num_actions - 1}")
        if action < n:
            return self._placements[action]
        source, to = divmod(action - n, n)
        return andantino.Move(self.cells[to], self.cells[source])

    def _legal_moves(self, board: andantino.Board) -> Sequence[andantino.Move]:
        moves = board.legal_moves
        if not self.rules.extended:
            return moves  # the hexagon holds every game (module docstring)
        index = self._index
        return [m for m in moves
                if m.to in index and (m.from_ is None or m.from_ in index)]

    def fill(self, planes: FloatArray, board: andantino.Board, player: int) -> None:
        if self.window is not None:
            self._fill_window(planes, board, player)
            return
        rules = self.rules
        tiles = rules.tiles_per_player or 1
        mark = self._mark
        mark(planes[0], board.tiles(player))
        mark(planes[1], board.tiles(1 - player))
        mark(planes[2], {m.to for m in board.legal_moves})
        planes[3] = self._hexagon
        planes[4] = (board.hand(player) or 0) / tiles
        planes[5] = (board.hand(1 - player) or 0) / tiles
        planes[6] = float(board.turn == player)
        planes[7] = float(rules.single_adjacency and not board.single_adjacency_used)
        planes[8] = board.relocations / rules.extended_move_limit if rules.extended else 0.0
        planes[4:9] *= self._hexagon
        self._fill_move_count(planes, board, self._hexagon)

    def window_observation(self, board: andantino.Board, centre: Cell,
                           player: int | None = None,
                           channels_first: bool = True) -> FloatArray:
        """The observation of ``board`` through the window around ``centre`` rather than
        around :meth:`window_centre`: what :class:`~hexgames.integrations.symmetry.
        Symmetries` makes of an observation (the image of a position through the
        window around the image of its centre). Arguments and shape as
        :meth:`observation`.

        Raises:
            ValueError: without a window, or for a ``player`` other than 0, 1 or
                ``None``.
        """
        if self.window is None:
            raise ValueError("window_observation needs an encoding with a window")
        if player is not None and player not in (0, 1):
            raise ValueError(f"player must be 0, 1 or None (the side to move), "
                             f"not {player!r}")
        tensor = np.zeros(self.observation_shape(channels_first), np.float32)
        planes = tensor if channels_first else tensor.transpose(2, 0, 1)
        self._fill_window(planes, board, board.turn if player is None else int(player),
                          (int(centre[0]), int(centre[1])))
        return tensor

    def _fill_window(self, planes: FloatArray, board: andantino.Board, player: int,
                     centre: Cell | None = None) -> None:
        rules = self.rules
        tiles = rules.tiles_per_player or 1
        w = self.window or 0
        cq, cr = self.window_centre(board) if centre is None else centre

        def mark(plane: int, cells: Any) -> int:
            """Mark the cells inside the window; return how many lie outside it."""
            outside = 0
            for q, r in cells:
                dq, dr = q - cq, r - cr
                if max(abs(dq), abs(dr), abs(dq + dr)) <= w:
                    planes[plane, dr + w, dq + w] = 1.0
                else:
                    outside += 1
            return outside

        own_outside = mark(0, board.tiles(player))
        opponent_outside = mark(1, board.tiles(1 - player))
        targets = {m.to for m in self._legal_moves(board)}
        legal_outside = mark(2, targets)
        for q, r in self._window_cells:
            if (cq + q, cr + r) in self._index:
                planes[3, r + w, q + w] = 1.0
        planes[4] = (board.hand(player) or 0) / tiles
        planes[5] = (board.hand(1 - player) or 0) / tiles
        planes[6] = float(board.turn == player)
        planes[7] = float(rules.single_adjacency and not board.single_adjacency_used)
        planes[8] = board.relocations / rules.extended_move_limit if rules.extended else 0.0
        planes[9] = own_outside / tiles
        planes[10] = opponent_outside / tiles
        planes[11] = legal_outside / len(targets) if targets else 0.0
        planes[4:12] *= self._window_mask
        self._fill_move_count(planes, board, self._window_mask)


class AbandeEncoding(Encoding[abande.Board, abande.Move]):
    """Actions and observations of Abande: 37 entries, 37 x 6 stack moves, the pass.

    Args:
        rules: the rules options (the standard game by default).
        move_count: whether the observation ends with the :data:`MOVE_COUNT` plane
            (one plane more).
    """

    #: The first stack-move action, and the pass.
    STACK_MOVES = 37
    PASS = 37 + 37 * 6

    def __init__(self, rules: abande.Rules | None = None, *,
                 move_count: bool = False) -> None:
        super().__init__(abande.RADIUS)
        self.rules = rules if rules is not None else abande.Rules()
        # Actions index the points in board order (a1 .. g4), as legal_moves lists them.
        self.cells = abande.POINTS
        self._index = {cell: i for i, cell in enumerate(self.cells)}
        self.num_actions = self.PASS + 1
        self.move_count = bool(move_count)
        self.num_planes = 2 * self.rules.max_height + 6 + self.move_count
        moves: list[abande.Move | None] = [abande.Move(cell) for cell in self.cells]
        for q, r in self.cells:
            for dq, dr in DIRECTIONS:
                to = (q + dq, r + dr)
                moves.append(abande.Move(to, (q, r)) if to in self._index else None)
        moves.append(abande.PASS)
        self._moves = tuple(moves)
        self._actions = {m: a for a, m in enumerate(moves) if m is not None}

    def plane_names(self) -> tuple[str, ...]:
        """The observation planes in order: ``own_h`` / ``opponent_h`` mark the stacks of
        height h that ``player`` / the opponent controls; ``entry`` the points where
        the side to move may enter a piece; ``hexagon`` the 37 points; ``own_hand`` and
        ``opponent_hand`` the pieces in hand divided by 18; ``to_move`` is 1 when
        ``player`` moves; ``passed`` is 1 when the previous ply was a pass; then
        :data:`MOVE_COUNT` if on."""
        heights = range(1, self.rules.max_height + 1)
        names = (*(f"own_{h}" for h in heights), *(f"opponent_{h}" for h in heights),
                 "entry", "hexagon", "own_hand", "opponent_hand", "to_move", "passed")
        return (*names, MOVE_COUNT) if self.move_count else names

    def max_plies(self) -> int:
        """:data:`ABANDE_MAX_PLIES`."""
        return ABANDE_MAX_PLIES

    def action_of(self, move: abande.Move) -> int:
        try:
            return self._actions[move]
        except KeyError:
            raise ValueError(f"{move!r} has no action: not an Abande move between "
                             "neighbouring points") from None

    def move_of(self, action: int) -> abande.Move:
        move = self._moves[action] if 0 <= action < self.num_actions else None
        if move is None:
            raise ValueError(f"action {action} names no Abande move (the actions are "
                             f"0..{self.num_actions - 1}; a stack move must stay on the board)")
        return move

    def fill(self, planes: FloatArray, board: abande.Board, player: int) -> None:
        height = self.rules.max_height
        radius = self.radius
        for (q, r), pieces in board.stacks().items():
            plane = len(pieces) - 1 + (0 if pieces[-1] == player else height)
            planes[plane, r + radius, q + radius] = 1.0
        base = 2 * height
        self._mark(planes[base], (m.to for m in board.legal_moves if m.is_entry))
        planes[base + 1] = self._hexagon
        hands = board.hands
        planes[base + 2] = hands[player] / abande.PIECES_PER_PLAYER
        planes[base + 3] = hands[1 - player] / abande.PIECES_PER_PLAYER
        planes[base + 4] = float(board.turn == player)
        planes[base + 5] = float(board.passes == 1)
        planes[base + 2:base + 6] *= self._hexagon
        self._fill_move_count(planes, board, self._hexagon)


def rules_from(rules_class: type[RulesT], options: Mapping[str, Any]) -> RulesT:
    """``rules_class(**options)``, the rules given as keywords (a framework's game
    parameters).

    Raises:
        InvalidRulesError: (a ``ValueError``) naming an unknown option or a bad value.
    """
    known = rules_class.OPTION_KINDS
    unknown = [repr(key) for key in options if key not in known]
    if unknown:
        raise InvalidRulesError(f"unknown {rules_class.GAME} rules option "
                                f"{', '.join(unknown)} (known: {', '.join(known)})")
    return rules_class(**options)


def encoding_for(game: str,
                 options: Sequence[str] | str = ()) -> AndantinoEncoding | AbandeEncoding:
    """The encoding of ``game`` (``"andantino"`` or ``"abande"``) under the rules given
    as ``key=value`` words, as in ``Rules.from_options``.

    Raises:
        ValueError: for an unknown game, bad options, or unlimited Andantino tiles.
    """
    name = game.strip().lower()
    if name == "andantino":
        return AndantinoEncoding(andantino.Rules.from_options(options))
    if name == "abande":
        return AbandeEncoding(abande.Rules.from_options(options))
    raise ValueError(f"unknown game {game!r} (known: andantino, abande)")
