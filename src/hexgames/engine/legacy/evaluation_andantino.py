"""Andantino evaluation: line potential, enclosure potential and immediate threats.

Scores are in *points* from the point of view of one side; about 100 points is a clear
edge (an open three against nothing), :data:`WIN_SOON` a win on the next move that is
not yet a proven result.

**Line potential.** Every window of five consecutive cells along one of the three axes
that holds tiles of one colour only (and empty cells) is worth ``LINE_WEIGHTS[n]`` to
that colour, ``n`` being its tiles (1 to 4). Windows that hold both colours are dead
and worth nothing, so a run blocked at both ends scores nothing and an open run scores
for each window it can still grow into: length and openness in one sum. A window of
four is a *four*: its empty cell wins at once for its owner.

**Enclosure potential.** Each tile is worth ``ENCLOSURE_WEIGHTS[n]`` to the opponent,
``n`` being how many of its six neighbours hold opponent tiles: walls grow around it.

**Threats.** A side's *threat cells* are the cells where its next tile wins at once: the
empty cell of a four, and the cells that enclose an opponent tile (found by a flood
fill bounded to small regions, :func:`trap_cells`). The side to move with a threat cell
wins next move; a side to move facing two threat cells of the opponent loses (it can
fill only one).

The search keeps the line and enclosure sums up to date under make/unmake with
:class:`Tracker`, which reads the board's packed cells (never writing them), so that the
value of a placement is a sum over its 15 windows and six neighbours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexgames import andantino as _an

if TYPE_CHECKING:
    from hexgames.andantino import Board

TILE = _an._TILE
_BITS = _an._BITS
_MASK = _an._MASK
#: Steps of the packed cell along the three axes (1, 0), (0, 1), (1, -1).
AXES = _an._AXES
#: Steps of the packed cell to the six neighbours, in ring order.
DELTAS = _an._DELTAS
#: Runs of set bits around the ring of six, by mask.
RUNS = _an._RUNS

#: Worth of a window of five holding n tiles of one colour and none of the other.
LINE_WEIGHTS = (0, 1, 6, 30, 160, 160)
#: Worth, to the opponent, of a tile with n opponent tiles among its neighbours.
ENCLOSURE_WEIGHTS = (0, 0, 1, 4, 16, 60, 60)
#: The value of winning on the next move by force (below any proven result).
WIN_SOON = 30_000
#: Added when a placement makes two fours at once (an open four, as a rule).
DOUBLE_FOUR = 5_000
#: POP[mask]: how many bits of a six-bit ring mask are set.
POP = tuple(bin(m).count("1") for m in range(64))
#: (step, bit): for each neighbour n = k + step of a cell k, the bit of k in n's ring mask.
RING_BITS = tuple((d, 1 << ((i + 3) % 6)) for i, d in enumerate(DELTAS))
#: Regions larger than this are taken to reach infinity by :func:`trap_cells`.
TRAP_REGION_LIMIT = 48

# A window's contents are the code n0 + 8 * n1 (tiles of White, of Red).
_INC = (1, 8)
_FLAG = 1 << 20  # in GAIN: one more window where a placement makes a four


def _window_value(code: int) -> int:
    """The window's worth to White minus its worth to Red."""
    n0, n1 = code & 7, code >> 3
    if n1 == 0:
        return LINE_WEIGHTS[n0]
    if n0 == 0:
        return -LINE_WEIGHTS[n1]
    return 0


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
                       tuple[int, ...]]:
    de: list[list[int]] = [[0] * 48, [0] * 48]
    gain: list[list[int]] = [[0] * 48, [0] * 48]
    four = [0] * 48
    for n0 in range(6):
        for n1 in range(6 - n0):
            code = n0 + 8 * n1
            if n0 == 4 and n1 == 0:
                four[code] = 1
            elif n1 == 4 and n0 == 0:
                four[code] = 2
            for c in (0, 1):
                own, other = (n0, n1) if c == 0 else (n1, n0)
                if own + other >= 5:
                    continue
                d = _window_value(code + _INC[c]) - _window_value(code)
                de[c][code] = d
                g = d if c == 0 else -d
                if own == 3 and other == 0:
                    g += _FLAG
                gain[c][code] = g
    return ((tuple(de[0]), tuple(de[1])), (tuple(gain[0]), tuple(gain[1])), tuple(four))


#: DE[c][code]: change of the White-minus-Red line sum when colour c fills a cell.
#: GAIN[c][code]: the same change seen by c, plus _FLAG when it makes a four.
#: FOUR[code]: 1 if the window is a four of White, 2 of Red, else 0.
DE, GAIN, FOUR = _tables()
_LOW = _FLAG - 1


class _WindowTable(dict[int, tuple[int, ...]]):
    """The 15 windows (start * 4 + axis) holding each packed cell, made on first use."""

    def __missing__(self, key: int) -> tuple[int, ...]:
        ids = tuple((key - i * step) * 4 + a for a, step in enumerate(AXES) for i in range(5))
        self[key] = ids
        return ids


WINDOWS = _WindowTable()


def _window_cells(wid: int) -> range:
    start = wid >> 2
    step = AXES[wid & 3]
    return range(start, start + 5 * step, step)


class Tracker:
    """Line and enclosure sums of an Andantino board, kept up to date by the caller.

    Call :meth:`push` after ``board.push(move)`` and :meth:`pop` after ``board.pop()``
    (before or after it for a placement); the tracker reads ``board._cells`` and never
    writes it.

    Attributes:
        masks: per colour, the ring mask of each cell: bit i is set when the neighbour
            at ``DELTAS[i]`` holds a tile of that colour.
        lines: line potential of White minus that of Red (points).
        enclosure: enclosure potential of White minus that of Red (points).
        fours: per colour, the empty cells completing its fours, with how many fours
            each completes.
    """

    __slots__ = ("board", "cells", "enclosure", "four_at", "fours", "lines", "masks", "wc")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.cells = cells = board._cells
        self.wc: dict[int, int] = {}
        self.masks: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.fours: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.four_at: dict[int, int] = {}
        wc = self.wc
        for key, v in cells.items():
            if v >= TILE:
                masks = self.masks[v - TILE]
                for d, bit in RING_BITS:
                    masks[key + d] = masks.get(key + d, 0) | bit
                for wid in WINDOWS[key]:
                    if wid in wc:
                        continue
                    code = 0
                    for x in _window_cells(wid):
                        u = cells.get(x, 0)
                        if u >= TILE:
                            code += _INC[u - TILE]
                    wc[wid] = code
        self.lines = sum(_window_value(code) for code in wc.values())
        for wid, code in wc.items():
            f = FOUR[code]
            if f:
                empty = next(x for x in _window_cells(wid) if cells.get(x, 0) < TILE)
                self.four_at[wid] = empty
                self.fours[f - 1][empty] = self.fours[f - 1].get(empty, 0) + 1
        enc = 0
        h = ENCLOSURE_WEIGHTS
        for key, v in cells.items():
            if v == TILE + 1:
                enc += h[POP[self.masks[0].get(key, 0)]]
            elif v == TILE:
                enc -= h[POP[self.masks[1].get(key, 0)]]
        self.enclosure = enc

    def static(self, color: int) -> int:
        """Line plus enclosure potential from ``color``'s point of view."""
        s = self.lines + self.enclosure
        return s if color == 0 else -s

    def place(self, c: int, k: int) -> None:
        """Account for a tile of colour ``c`` now on packed cell ``k`` of the board."""
        wc = self.wc
        get = wc.get
        de = DE[c]
        inc = _INC[c]
        lines = self.lines
        for wid in WINDOWS[k]:
            old = get(wid, 0)
            new = old + inc
            wc[wid] = new
            lines += de[old]
            if FOUR[old] != FOUR[new]:
                self._four_change(wid, old, new, k, True)
        self.lines = lines
        cells = self.cells
        h = ENCLOSURE_WEIGHTS
        masks = self.masks[c]
        opp = TILE + 1 - c
        g = -h[POP[self.masks[1 - c].get(k, 0)]]
        for d, bit in RING_BITS:
            n = k + d
            m = masks.get(n, 0)
            masks[n] = m | bit
            if cells.get(n) == opp:
                x = POP[m]
                g += h[x + 1] - h[x]
        self.enclosure += g if c == 0 else -g

    def remove(self, c: int, k: int) -> None:
        """Undo :meth:`place` (or account for colour ``c``'s tile lifted from ``k``)."""
        cells = self.cells
        h = ENCLOSURE_WEIGHTS
        masks = self.masks[c]
        opp = TILE + 1 - c
        g = -h[POP[self.masks[1 - c].get(k, 0)]]
        for d, bit in RING_BITS:
            n = k + d
            m = masks[n] ^ bit
            masks[n] = m
            if cells.get(n) == opp:
                x = POP[m]
                g += h[x + 1] - h[x]
        self.enclosure -= g if c == 0 else -g
        wc = self.wc
        de = DE[c]
        inc = _INC[c]
        lines = self.lines
        for wid in WINDOWS[k]:
            new = wc[wid]
            old = new - inc
            wc[wid] = old
            lines -= de[old]
            if FOUR[old] != FOUR[new]:
                self._four_change(wid, new, old, k, False)
        self.lines = lines

    def _four_change(self, wid: int, before: int, after: int, k: int, placing: bool) -> None:
        fb, fa = FOUR[before], FOUR[after]
        if fb:
            empty = self.four_at.pop(wid)
            fours = self.fours[fb - 1]
            n = fours[empty] - 1
            if n:
                fours[empty] = n
            else:
                del fours[empty]
        if fa:
            if placing:  # a fourth tile came in: the board shows the one empty cell
                cells = self.cells
                empty = next(x for x in _window_cells(wid) if cells.get(x, 0) < TILE)
            else:  # a tile left: its cell is the empty one
                empty = k
            self.four_at[wid] = empty
            fours = self.fours[fa - 1]
            fours[empty] = fours.get(empty, 0) + 1

    def push(self, move: _an.Move, color: int) -> None:
        """Account for ``move`` by ``color``, just pushed on the board."""
        if move._from_key >= 0:
            self.remove(color, move._from_key)
        self.place(color, move._key)

    def pop(self, move: _an.Move, color: int) -> None:
        """Undo :meth:`push`; call it after ``board.pop()`` for a relocation and before
        or after it for a placement."""
        self.remove(color, move._key)
        if move._from_key >= 0:
            self.place(color, move._from_key)

    def gain(self, c: int, k: int) -> tuple[int, int]:
        """(points, fours made) of colour ``c`` placing on the empty packed cell ``k``:
        the change of the line and enclosure sums seen by ``c``, and how many windows
        it turns into fours."""
        get = self.wc.get
        gt = GAIN[c]
        g = 0
        for wid in WINDOWS[k]:
            g += gt[get(wid, 0)]
        cells = self.cells
        h = ENCLOSURE_WEIGHTS
        masks = self.masks[c]
        opp = TILE + 1 - c
        e = -h[POP[self.masks[1 - c].get(k, 0)]]
        for d in DELTAS:
            n = k + d
            if cells.get(n) == opp:
                x = POP[masks.get(n, 0)]
                e += h[x + 1] - h[x]
        return (g & _LOW) + e, g >> 20


def line_threats(board: Board, color: int, tracker: Tracker, now: bool) -> list[int]:
    """The packed cells completing ``color``'s fours that ``color`` can fill: now (it is
    to move; the cell is a legal move) or on its next turn whatever the opponent
    plays first (``now=False``: the cell touches two tiles already)."""
    fours = tracker.fours[color]
    if not fours:
        return []
    if now:
        legal = {m._key for m in board.legal_moves if m._from_key < 0}
        return [k for k in fours if k in legal]
    cells = board._cells
    return [k for k in fours if 2 <= cells.get(k, 0) < TILE]


def placement_cells(board: Board) -> list[int]:
    """The packed empty cells touching two or more tiles (the board keeps them, by cell
    or as a list of placements)."""
    legal: Any = board._legal
    if isinstance(legal, dict):
        return list(legal)
    return [m._key for m in legal]


def trap_cells(board: Board, color: int, candidates: list[int] | None = None,
               masks: dict[int, int] | None = None) -> list[int]:
    """Packed empty cells where a ``color`` tile would enclose at least one opponent
    tile (RULES.md, "Trap"), among ``candidates`` (default: every cell touching two
    tiles).

    A cell qualifies only if ``color``'s tiles around it form two or more separate runs
    (otherwise it cuts nothing off) and it is not already walled off by ``color``; the
    regions behind it are flood-filled, and one holding more than
    :data:`TRAP_REGION_LIMIT` cells or reaching the bounding box of ``color``'s tiles
    counts as open, so large traps are missed but every cell returned is a trap.
    ``masks`` (a :class:`Tracker`'s ``masks[color]``) saves looking at the
    neighbours.
    """
    tiles = board._tiles[color]
    if len(tiles) < 5:  # a wall takes six tiles, the new one included
        return []
    if candidates is None:
        candidates = placement_cells(board)
    cells = board._cells
    tile = TILE + color
    other = tile ^ 1
    walled = board._enclosed[color]
    get = cells.get
    found = []
    bounds: tuple[int, int, int, int, int, int] | None = None
    for c in candidates:
        if masks is not None:
            mask = masks.get(c, 0)
        else:
            mask = 0
            bit = 1
            for d in DELTAS:
                if get(c + d) == tile:
                    mask |= bit
                bit <<= 1
        if RUNS[mask] < 2 or c in walled:
            continue
        if bounds is None:
            qs = [k >> _BITS for k in tiles]
            rs = [k & _MASK for k in tiles]
            ss = [q + r for q, r in zip(qs, rs, strict=True)]
            bounds = (min(qs), max(qs), min(rs), max(rs), min(ss), max(ss))
        if _encloses(cells, c, tile, other, bounds, walled):
            found.append(c)
    return found


def _encloses(cells: dict[int, int], c: int, tile: int, other: int,
              bounds: tuple[int, int, int, int, int, int], walled: set[int]) -> bool:
    """Whether a tile on ``c`` walls in a region holding an ``other`` tile."""
    get = cells.get
    cq, cr = c >> _BITS, c & _MASK
    qlo, qhi, rlo, rhi, slo, shi = bounds
    qlo, qhi, rlo, rhi = min(qlo, cq), max(qhi, cq), min(rlo, cr), max(rhi, cr)
    slo, shi = min(slo, cq + cr), max(shi, cq + cr)
    open_cells: set[int] = set()
    for d in DELTAS:
        start = c + d
        if get(start) == tile or start in open_cells:
            continue
        seen = {start, c}
        frontier = [start]
        free = False
        holds = False
        while frontier:
            k = frontier.pop()
            q = k >> _BITS
            r = k & _MASK
            if (q <= qlo or q >= qhi or r <= rlo or r >= rhi or q + r <= slo
                    or q + r >= shi or k in open_cells or len(seen) > TRAP_REGION_LIMIT):
                free = True
                break
            if get(k) == other and k not in walled:
                holds = True
            for dd in DELTAS:
                n = k + dd
                if n not in seen and get(n) != tile:
                    seen.add(n)
                    frontier.append(n)
        if free:
            seen.discard(c)
            open_cells |= seen
        elif holds:
            return True
    return False


def threat_cells(board: Board, color: int, tracker: Tracker, now: bool) -> set[int]:
    """Every threat cell of ``color`` found: line completions and traps (packed)."""
    found = set(line_threats(board, color, tracker, now))
    found.update(trap_cells(board, color))
    if now and board.rules.self_trap is _an.SelfTrap.ILLEGAL:
        legal = {m._key for m in board.legal_moves}
        found &= legal
    return found


def evaluate_andantino(board: Board) -> float:
    """The position's value in points for the side to move (positive is good for it).

    The line and enclosure potentials of both sides (see the module text) plus
    :data:`WIN_SOON` when the side to move has a winning placement, minus it when the
    opponent has two threat cells the side to move cannot both fill. A finished game is
    worth ``+-10 * WIN_SOON`` to the winner and loser, 0 if drawn.
    """
    outcome = board.outcome()
    mover = int(board.turn)
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return float(10 * WIN_SOON if outcome.winner == mover else -10 * WIN_SOON)
    tracker = Tracker(board)
    value = tracker.static(mover)
    relocating = board.rules.extended and board._hands[mover] == 0
    if relocating:
        return float(value)
    if threat_cells(board, mover, tracker, True):
        return float(value + WIN_SOON)
    if board._hands[1 - mover] and len(threat_cells(board, 1 - mover, tracker, False)) >= 2:
        return float(value - WIN_SOON)
    return float(value)
