"""Board pictures as SVG, in the manner of python-chess's ``chess.svg``.

    >>> from hexgames import andantino, svg
    >>> board = andantino.Board()
    >>> board.push_notation("0,1")
    Move(to=(0, 1))
    >>> picture = svg.board(board, size=300, legal=True)
    >>> picture.startswith("<svg")
    True

:func:`board` draws an Andantino or an Abande board as a standalone SVG document (a
string holding one ``<svg>`` element with its namespace, a ``viewBox`` and a ``width``
and ``height`` in pixels). Every cell drawn is a ``<g>`` element with a ``data-cell``
attribute holding the cell's notation (``0,1`` or ``c3``) and classes saying what is on
it, so a web page can use the picture as its board:

- Andantino: ``cell tile white``, ``cell tile red`` or ``cell empty`` (plus ``legal``
  when the empty cell is marked as a legal placement); ``win`` on a tile of the winning
  line, ``trapped`` on a tile the winner walled in, ``lastmove`` and ``highlight``.
- Abande: ``cell point`` plus, on a stack, ``stack black`` or ``stack white`` (the top
  piece's colour) and ``h1`` to ``h3``; ``sleeping`` or ``awake`` when those are shown;
  ``legal``, ``lastmove`` and ``highlight``.

Marks drawn over the cells (the winning line, the last stack move's arrow) have
``pointer-events="none"``, so clicks reach the cells below.

The work and the picture's size grow with the number of tiles, not with the area they
span (issue 14): an Andantino picture draws the whole grid around the tiles only when
that grid is small (:data:`hexgames.limits.SVG_FULL_GRID_CELLS`); for tiles far apart it
draws the tiles, their neighbours and the marked cells, each group of tiles as it lies
on the surface, and shortens every wide band of empty rows or diagonals between the
groups to :data:`~hexgames.limits.SVG_ELIDED_GAP`, marking it with a dashed ``<line
class="elided">``.

The picture is built with :mod:`xml.etree.ElementTree`, which escapes all text; the
module has no dependency beyond the standard library.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from typing import Literal, TypeVar

from hexgames import abande, andantino, limits
from hexgames.core import FIRST, SECOND, InvalidMoveError
from hexgames.hexgrid import AXES, DIRECTIONS, Cell

__all__ = ["DEFAULT_COLORS", "board"]

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

#: The colours of the pictures; :func:`board` takes a ``colors`` mapping that overrides
#: any of them (CSS colour strings; ``"none"`` leaves a part unpainted).
DEFAULT_COLORS: dict[str, str] = {
    "background": "#f6f1e7",
    "text": "#3b352c",
    # Andantino
    "grid": "#e2d8c6",
    "grid fill": "#f1eadd",
    "white tile": "#fcfaf4",
    "white tile edge": "#514a40",
    "red tile": "#c8352e",
    "red tile edge": "#6e1712",
    "legal": "#5d9b52",
    "win": "#1f5fbf",
    # Abande
    "board": "#a9743f",
    "point": "#ecd3a0",
    "point edge": "#b68c55",
    "black piece": "#2d2a27",
    "black piece side": "#141210",
    "white piece": "#f7f4ec",
    "white piece side": "#bfb7a6",
    "piece edge": "#3e3830",
    # both
    "lastmove": "#f2b01e",
    "lastmove fill": "#f7dc7a",
    "highlight": "#59a8e8",
    "coordinate": "#8a7f6d",
    "point text": "#7a5c33",
}

_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
#: The circumradius of a cell, in user units of the view box.
_UNIT = 20.0
_SQRT3 = math.sqrt(3.0)

AnyBoard = andantino.Board | abande.Board
AnyMove = andantino.Move | abande.Move


def board(board: AnyBoard, *, size: int | None = 400, coordinates: bool = True,
          lastmove: AnyMove | str | Literal[False] | None = None,
          highlight: Iterable[Cell | str] = (), flipped: bool = False,
          legal: bool = False, sleeping: bool | None = None,
          colors: Mapping[str, str] | None = None) -> str:
    """A picture of ``board`` (Andantino or Abande) as an SVG document string.

    Args:
        board: an :class:`hexgames.andantino.Board` or :class:`hexgames.abande.Board`.
        size: the longer side of the picture in pixels (the other follows the view's
            aspect ratio); ``None`` writes no ``width`` and ``height``, so the picture
            fills what holds it.
        coordinates: write each cell's notation on it, small (``q,r`` in Andantino,
            ``a1`` ... ``g4`` in Abande).
        lastmove: the move to mark as the last one; ``None`` (the default) marks the
            board's last move (:meth:`peek`) when it has one, ``False`` marks none. A
            move object or its notation.
        highlight: cells to tint, as axial ``(q, r)`` pairs or notation strings.
        flipped: turn the picture by 180 degrees (the view of the other player).
        legal: mark the empty cells a legal move can go to (Andantino's placements,
            Abande's entries).
        sleeping: Abande only: show which stacks are sleeping (faded) and the score;
            ``None`` shows them once the game is over.
        colors: colours that override :data:`DEFAULT_COLORS`, by the same keys.

    The game's end is drawn from :meth:`outcome`: Andantino's winning line as a stroke
    through its tiles and the trapped tiles ringed; Abande's sleeping stacks faded and
    each side's score by its hand.

    Raises:
        TypeError: if ``board`` is not a board of either game.
        InvalidMoveError: for a ``highlight`` cell or a ``lastmove`` text that is not a
            cell or move of the game, or a ``colors`` key that is unknown.
        ValueError: if ``size`` is not positive.
    """
    if size is not None and size <= 0:
        raise ValueError(f"size must be a positive number of pixels, not {size}")
    palette = dict(DEFAULT_COLORS)
    if colors:
        unknown = sorted(set(colors) - set(DEFAULT_COLORS))
        if unknown:
            raise InvalidMoveError(f"unknown colour key(s) {', '.join(map(repr, unknown))} "
                                   f"(known: {', '.join(DEFAULT_COLORS)})")
        palette.update(colors)
    options = _Options(size, coordinates, flipped, legal, palette)
    if isinstance(board, andantino.Board):
        cells = {_andantino_cell(cell) for cell in highlight}
        return _andantino(board, _last_move(board, lastmove, andantino.Move), cells, options)
    if isinstance(board, abande.Board):
        cells = {_abande_cell(cell) for cell in highlight}
        show_sleeping = board.is_game_over() if sleeping is None else sleeping
        return _abande(board, _last_move(board, lastmove, abande.Move), cells, show_sleeping,
                       options)
    raise TypeError(f"svg.board draws an Andantino or Abande board, not {type(board).__name__}")


class _Options:
    __slots__ = ("colors", "coordinates", "flipped", "legal", "size")

    def __init__(self, size: int | None, coordinates: bool, flipped: bool, legal: bool,
                 colors: dict[str, str]) -> None:
        self.size = size
        self.coordinates = coordinates
        self.flipped = flipped
        self.legal = legal
        self.colors = colors


_M = TypeVar("_M", andantino.Move, abande.Move)


def _last_move(board: AnyBoard, lastmove: object, kind: type[_M]) -> _M | None:
    if lastmove is False:
        return None
    if lastmove is None:
        return board.move_stack[-1] if board.move_stack else None  # type: ignore[return-value]
    if isinstance(lastmove, str):
        return kind.from_notation(lastmove)
    if isinstance(lastmove, kind):
        return lastmove
    raise InvalidMoveError(f"lastmove must be a {kind.__module__}.Move or its notation, "
                           f"not {lastmove!r}")


def _andantino_cell(cell: Cell | str) -> Cell:
    if isinstance(cell, str):
        return andantino.parse_cell(cell)
    return andantino.Move(cell).to  # checks the pair


def _abande_cell(cell: Cell | str) -> Cell:
    if isinstance(cell, str):
        return abande.parse_cell(cell)
    abande.cell_name(cell)  # checks the point
    return cell


# --- drawing helpers ------------------------------------------------------------------


def _num(x: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _el(parent: ET.Element, tag: str, attrs: Mapping[str, object] | None = None,
        text: str | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag, {
        key: _num(value) if isinstance(value, float) else str(value)
        for key, value in (attrs or {}).items()})
    if text is not None:
        element.text = text
    return element


def _hexagon(x: float, y: float, radius: float, pointy: bool) -> str:
    """The ``points`` of a regular hexagon around (x, y), pointy or flat on top."""
    start = 30.0 if pointy else 0.0
    corners = []
    for k in range(6):
        angle = math.radians(start + 60.0 * k)
        corners.append(f"{_num(x + radius * math.cos(angle))},"
                       f"{_num(y + radius * math.sin(angle))}")
    return " ".join(corners)


def _root(view: tuple[float, float, float, float], options: _Options, game: str,
          description: str) -> ET.Element:
    x, y, width, height = view
    attrs: dict[str, object] = {
        "xmlns": SVG_NAMESPACE, "version": "1.1",
        "viewBox": f"{_num(x)} {_num(y)} {_num(width)} {_num(height)}",
    }
    if options.size is not None:
        scale = options.size / max(width, height)
        attrs["width"] = str(round(width * scale))
        attrs["height"] = str(round(height * scale))
    attrs.update({"class": f"hexgames-board {game}", "font-family": _FONT})
    root = ET.Element("svg", {k: str(v) for k, v in attrs.items()})
    _el(root, "desc", None, description)
    if options.colors["background"] != "none":
        _el(root, "rect", {"class": "background", "x": x, "y": y, "width": width,
                           "height": height, "fill": options.colors["background"]})
    return root


def _text(parent: ET.Element, x: float, y: float, text: str, size: float, fill: str,
          weight: str | None = None, anchor: str = "middle") -> ET.Element:
    # Centred on y by an offset of about half the height of digits: renderers differ
    # on dominant-baseline.
    attrs: dict[str, object] = {"x": x, "y": y + 0.36 * size, "font-size": size,
                                "fill": fill, "text-anchor": anchor}
    if weight is not None:
        attrs["font-weight"] = weight
    return _el(parent, "text", attrs, text)


def _document(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def _classes(*names: str | None) -> str:
    return " ".join(name for name in names if name)


# --- Andantino ------------------------------------------------------------------------


def _andantino_centre(cell: Cell, flipped: bool) -> tuple[float, float]:
    """Pointy-topped cells, one row per ``r`` (as the text picture draws them)."""
    q, r = cell
    x, y = _UNIT * _SQRT3 * (q + r / 2), _UNIT * 1.5 * r
    return (-x, -y) if flipped else (x, y)


def _andantino_view(cells: Iterable[Cell], flipped: bool,
                    place: Callable[[Cell], Cell] | None = None,
                    ) -> tuple[float, float, float, float]:
    """A box around the cells' hexagons with a full ring of neighbours in view (the
    cells at their drawn places, ``place``, when given)."""
    points = [_andantino_centre(place(cell) if place else cell, flipped) for cell in cells]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    dx = _UNIT * _SQRT3 * 1.5 + 0.3 * _UNIT
    dy = _UNIT * 2.5 + 0.3 * _UNIT
    return (min(xs) - dx, min(ys) - dy, max(xs) - min(xs) + 2 * dx, max(ys) - min(ys) + 2 * dy)


def _grid_size(view: tuple[float, float, float, float]) -> int:
    """About how many cells have their centres in ``view`` (a slight overestimate)."""
    _, _, width, height = view
    return (math.ceil(height / (1.5 * _UNIT)) + 2) * (math.ceil(width / (_SQRT3 * _UNIT)) + 2)


def _cells_in_view(view: tuple[float, float, float, float], flipped: bool) -> list[Cell]:
    """The cells whose centres lie in the view box, row by row."""
    x0, y0, width, height = view
    step_y = 1.5 * _UNIT
    rows = sorted(round(y / step_y) for y in (y0, y0 + height))
    cells = []
    for row in range(rows[0] - 1, rows[1] + 2):
        r = -row if flipped else row
        for q in range(math.floor(-r / 2 - 2 - (x0 + width) / (_SQRT3 * _UNIT)) - 2,
                       math.ceil(-r / 2 + 2 + (width - x0) / (_SQRT3 * _UNIT)) + 2):
            x, y = _andantino_centre((q, r), flipped)
            if x0 <= x <= x0 + width and y0 <= y <= y0 + height:
                cells.append((q, r))
    return cells


def _squeeze(values: Iterable[int], gap: int) -> tuple[dict[int, int], list[float]]:
    """Drawn places for the coordinate ``values`` (q or r) of the cells to draw: a run of
    more than ``gap`` values between two of them that no cell has is shortened to
    ``gap``. Returns the places by value, and the middles of the shortened runs (in drawn
    places), where the picture marks the empty space it left out.

    Two values 0 or 1 apart keep their distance, and values 2 or more apart stay at
    least 2 apart (``gap`` >= 1), so two cells are neighbours in the picture exactly
    when they are neighbours on the surface: each group of tiles is drawn as it is.
    """
    places: dict[int, int] = {}
    elided: list[float] = []
    previous: int | None = None
    for value in sorted(set(values)):
        if previous is None:
            places[value] = value
        elif value - previous - 1 > gap:
            places[value] = places[previous] + gap + 1
            elided.append(places[previous] + (gap + 1) / 2)
        else:
            places[value] = places[previous] + value - previous
        previous = value
    return places, elided


class _Layout:
    """Which Andantino cells a picture draws, and where.

    Ordinarily every cell of the view box around the tiles (the grid the tiles lie on).
    When that grid would be much larger than the cells the picture must show (tiles
    far apart: issue 14 measured 47 MB of SVG for two tiles 400 cells apart), only
    those are drawn: the tiles, their neighbours and the marked cells, with every wide
    empty band between them shortened (:func:`_squeeze`) and marked by a dashed line.
    The picture's size then grows with the tiles, not with the area they span
    (:data:`hexgames.limits.SVG_FULL_GRID_CELLS`, :data:`~hexgames.limits.SVG_GRID_FACTOR`,
    :data:`~hexgames.limits.SVG_ELIDED_GAP`).
    """

    def __init__(self, core: set[Cell], must: set[Cell], flipped: bool) -> None:
        """``core``: the cells the view box is built around (the tiles and the marked
        cells); ``must``: every cell the picture must draw (``core``, the neighbours of
        the tiles, the legal cells)."""
        self.flipped = flipped
        must = must | core
        view = _andantino_view(core, flipped)
        limit = max(limits.SVG_FULL_GRID_CELLS, limits.SVG_GRID_FACTOR * len(must))
        self.elided_q: list[float] = []
        self.elided_r: list[float] = []
        self._q: dict[int, int] | None = None
        self._r: dict[int, int] | None = None
        if _grid_size(view) <= limit:
            self.cells = _cells_in_view(view, flipped)
            self.view = view
            return
        self.cells = sorted(must, key=lambda cell: (cell[1], cell[0]))
        self._q, self.elided_q = _squeeze((q for q, _ in must), limits.SVG_ELIDED_GAP)
        self._r, self.elided_r = _squeeze((r for _, r in must), limits.SVG_ELIDED_GAP)
        self.view = _andantino_view(core, flipped, self.place)

    @property
    def sparse(self) -> bool:
        """Whether only the cells the picture must show are drawn."""
        return self._q is not None

    def place(self, cell: Cell) -> Cell:
        """Where ``cell`` is drawn, as an axial cell of the picture's own grid."""
        if self._q is None or self._r is None:
            return cell
        return (self._q[cell[0]], self._r[cell[1]])

    def centre(self, cell: Cell) -> tuple[float, float]:
        """The centre of ``cell``'s hexagon in the view box."""
        return _andantino_centre(self.place(cell), self.flipped)

    def elision_lines(self) -> list[tuple[float, float, float, float]]:
        """Segments (x1, y1, x2, y2) across the view along the left-out bands: a row
        (constant r) is horizontal, a diagonal (constant q) slants."""
        x0, y0, width, height = self.view
        sign = -1.0 if self.flipped else 1.0
        segments = []
        for r in self.elided_r:
            y = sign * 1.5 * _UNIT * r
            segments.append((x0, y, x0 + width, y))
        for q in self.elided_q:
            # x = sqrt(3) * U * (q + r / 2), y = 1.5 * U * r: from the top to the bottom.
            ends = []
            for y in (y0, y0 + height):
                r = sign * y / (1.5 * _UNIT)
                ends.append((sign * _SQRT3 * _UNIT * (q + r / 2), y))
            (x1, y1), (x2, y2) = ends
            segments.append((x1, y1, x2, y2))
        return segments


def _andantino(game: andantino.Board, move: andantino.Move | None, highlight: set[Cell],
               options: _Options) -> str:
    colors = options.colors
    flipped = options.flipped
    tiles = {cell: 0 for cell in game.tiles(FIRST)}
    tiles.update({cell: 1 for cell in game.tiles(SECOND)})
    outcome = game.outcome()
    line = outcome.line if outcome is not None else frozenset()
    trapped = outcome.trapped if outcome is not None else frozenset()
    marked: set[Cell] = set()
    if move is not None:
        marked = {move.to} | ({move.from_} if move.from_ is not None else set())
    legal = ({m.to for m in game.legal_moves if m.to not in tiles}
             if options.legal else set())
    # Coordinates go on the tiles and the cells next to them, not on the far grid.
    near = {(q + dq, r + dr) for q, r in tiles for dq, dr in DIRECTIONS} | set(tiles)
    layout = _Layout(set(tiles) | highlight | marked or {(0, 0)}, near | legal, flipped)
    root = _root(layout.view, options, "andantino", game.position())
    cells_layer = _el(root, "g", {"class": "cells"})
    for cell in layout.cells:
        x, y = layout.centre(cell)
        color = tiles.get(cell)
        notation = f"{cell[0]},{cell[1]}"
        state = ("tile " + ("white" if color == 0 else "red")) if color is not None else "empty"
        group = _el(cells_layer, "g", {"class": _classes(
            "cell", state, "legal" if cell in legal else None,
            "win" if cell in line else None, "trapped" if cell in trapped else None,
            "lastmove" if cell in marked else None,
            "highlight" if cell in highlight else None), "data-cell": notation})
        _el(group, "polygon", {"points": _hexagon(x, y, _UNIT, True),
                               "fill": colors["grid fill"], "stroke": colors["grid"],
                               "stroke-width": 1})
        if cell in highlight:
            _el(group, "polygon", {"points": _hexagon(x, y, _UNIT, True),
                                   "fill": colors["highlight"], "fill-opacity": 0.5})
        text_color = colors["coordinate"]
        if color is not None:
            fill = colors["white tile" if color == 0 else "red tile"]
            edge = colors["white tile edge" if color == 0 else "red tile edge"]
            _el(group, "polygon", {"points": _hexagon(x, y, _UNIT * 0.93, True),
                                   "fill": fill, "stroke": edge, "stroke-width": 1.6,
                                   "stroke-linejoin": "round"})
            text_color = edge if color == 0 else "#f7d9d4"
        if move is not None and cell == move.to:
            _el(group, "polygon", {"class": "mark", "points": _hexagon(x, y, _UNIT * 0.74, True),
                                   "fill": "none", "stroke": colors["lastmove"],
                                   "stroke-width": 3, "stroke-linejoin": "round"})
        elif move is not None and cell == move.from_:
            _el(group, "polygon", {"class": "mark", "points": _hexagon(x, y, _UNIT * 0.7, True),
                                   "fill": "none", "stroke": colors["lastmove"],
                                   "stroke-width": 2, "stroke-dasharray": "4 3"})
        if cell in legal:
            dot_y = y - _UNIT * 0.3 if options.coordinates else y
            _el(group, "circle", {"cx": x, "cy": dot_y, "r": _UNIT * 0.18,
                                  "fill": colors["legal"], "fill-opacity": 0.8})
        if cell in trapped:
            _el(group, "circle", {"class": "mark", "cx": x, "cy": y, "r": _UNIT * 0.62,
                                  "fill": "none", "stroke": colors["win"],
                                  "stroke-width": 3})
        if options.coordinates and (cell in near or cell in highlight):
            _text(group, x, y + (_UNIT * 0.22 if cell in legal else 0.0), notation,
                  _UNIT * 0.3, text_color)
    overlay = _el(root, "g", {"class": "marks", "pointer-events": "none"})
    for x1, y1, x2, y2 in layout.elision_lines():
        _el(overlay, "line", {"class": "elided", "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                              "stroke": colors["coordinate"], "stroke-width": 1.5,
                              "stroke-dasharray": "6 5"})
    for start, end in _runs(line):
        (x1, y1), (x2, y2) = (layout.centre(start), layout.centre(end))
        _el(overlay, "line", {"class": "winning-line", "x1": x1, "y1": y1, "x2": x2, "y2": y2,
                              "stroke": colors["win"], "stroke-opacity": 0.6,
                              "stroke-width": _UNIT * 0.26, "stroke-linecap": "round"})
    return _document(root)


def _runs(cells: frozenset[Cell], length: int = 5) -> list[tuple[Cell, Cell]]:
    """The first and last cells of each run of ``length`` or more cells along an axis."""
    runs = []
    for dq, dr in AXES:
        for q, r in sorted(cells):
            if (q - dq, r - dr) in cells:
                continue
            count = 1
            while (q + count * dq, r + count * dr) in cells:
                count += 1
            if count >= length:
                runs.append(((q, r), (q + (count - 1) * dq, r + (count - 1) * dr)))
    return runs


# --- Abande ---------------------------------------------------------------------------

#: Where a stack's lowest piece sits below the point's centre, and each piece's size, in
#: units of the cell's circumradius.
_PILE_BASE = 0.24
_PIECE_RX = 0.52
_PIECE_RY = 0.34
_PIECE_THICKNESS = 0.15
#: Half the width of a hand panel and its distance from the board's centre, in cells.
_PANEL_HALF = 1.7
_PANEL_X = 7.7


def _abande_centre(cell: Cell, flipped: bool) -> tuple[float, float]:
    """Flat-topped cells, so each lettered column is upright with 1 at the bottom."""
    q, r = cell
    x, y = _UNIT * 1.5 * q, _UNIT * _SQRT3 * (r + q / 2)
    return (-x, -y) if flipped else (x, y)


def _abande(game: abande.Board, move: abande.Move | None, highlight: set[Cell],
            show_sleeping: bool, options: _Options) -> str:
    colors = options.colors
    flipped = options.flipped
    half_width = (_PANEL_X + _PANEL_HALF + 0.3) * _UNIT
    half_height = 7.0 * _UNIT
    view = (-half_width, -half_height, 2 * half_width, 2 * half_height)
    root = _root(view, options, "abande", game.position())
    _el(root, "polygon", {"class": "frame", "points": _hexagon(0, 0, 6.75 * _UNIT, True),
                          "fill": colors["board"], "stroke": colors["point edge"],
                          "stroke-width": 2, "stroke-linejoin": "round"})
    stacks = game.stacks()
    sleeping = game.sleeping() if show_sleeping else frozenset()
    legal = ({m.to for m in game.legal_moves if m.is_entry} if options.legal else set())
    marked: set[Cell] = set()
    if move is not None and move.to is not None:
        marked = {move.to} | ({move.from_} if move.from_ is not None else set())
    cells_layer = _el(root, "g", {"class": "cells"})
    for cell in abande.POINTS:
        x, y = _abande_centre(cell, flipped)
        name = abande.cell_name(cell)
        stack = stacks.get(cell, ())
        classes = ["cell", "point"]
        if stack:
            classes += ["stack", "black" if stack[-1] == FIRST else "white", f"h{len(stack)}"]
            if show_sleeping:
                classes.append("sleeping" if cell in sleeping else "awake")
        classes += [c for c, on in (("legal", cell in legal), ("lastmove", cell in marked),
                                    ("highlight", cell in highlight)) if on]
        group = _el(cells_layer, "g", {"class": " ".join(classes), "data-cell": name})
        fill = colors["lastmove fill"] if cell in marked else colors["point"]
        _el(group, "polygon", {"points": _hexagon(x, y, _UNIT * 0.96, False), "fill": fill,
                               "stroke": colors["point edge"], "stroke-width": 1.2})
        if cell in marked:
            _el(group, "polygon", {"class": "mark", "points": _hexagon(x, y, _UNIT * 0.84, False),
                                   "fill": "none", "stroke": colors["lastmove"],
                                   "stroke-width": 2.2, "stroke-linejoin": "round"})
        if cell in highlight:
            _el(group, "polygon", {"points": _hexagon(x, y, _UNIT * 0.96, False),
                                   "fill": colors["highlight"], "fill-opacity": 0.5})
        if options.coordinates:
            _text(group, x, y - _UNIT * 0.6, name, _UNIT * 0.3, colors["point text"])
        if cell in legal:
            _el(group, "circle", {"cx": x, "cy": y, "r": _UNIT * 0.18,
                                  "fill": colors["legal"], "fill-opacity": 0.75})
        if stack:
            _pile(group, x, y, stack, cell in sleeping, colors)
    if move is not None and move.from_ is not None and move.to is not None:
        overlay = _el(root, "g", {"class": "marks", "pointer-events": "none"})
        _arrow(overlay, _abande_centre(move.from_, flipped), _abande_centre(move.to, flipped),
               colors["lastmove"])
    score = game.score() if show_sleeping else None
    outcome = game.outcome()
    for color in (FIRST, SECOND):
        side = -1 if (color == FIRST) != flipped else 1
        status = None
        if outcome is not None:
            status = ("draw" if outcome.winner is None
                      else "wins" if outcome.winner == color else None)
        elif int(game.turn) == color:
            status = "to move"
        passed = move is not None and move.is_pass and int(game.turn) != color
        _hand(root, side * _PANEL_X * _UNIT, color, game.hands[color], status,
              None if score is None else score[color], passed, colors)
    return _document(root)


def _piece_colors(color: int, colors: Mapping[str, str]) -> tuple[str, str]:
    name = "black" if color == FIRST else "white"
    return colors[f"{name} piece"], colors[f"{name} piece side"]


def _pile(parent: ET.Element, x: float, y: float, stack: tuple[int, ...], faded: bool,
          colors: Mapping[str, str]) -> None:
    """A stack seen from the side and above: its pieces piled from the bottom up, the
    height written on the top piece when above one."""
    rx, ry, t = _PIECE_RX * _UNIT, _PIECE_RY * _UNIT, _PIECE_THICKNESS * _UNIT
    attrs: dict[str, object] = {"class": "pile"}
    if faded:
        attrs["opacity"] = 0.38
    pile = _el(parent, "g", attrs)
    edge = colors["piece edge"]
    top_y = y
    for level, color in enumerate(stack):
        face, side = _piece_colors(color, colors)
        top_y = y + _PILE_BASE * _UNIT - level * t
        bottom_y = top_y + t
        # The side band: the lower half of the bottom ellipse joined to the top one.
        _el(pile, "path", {
            "d": (f"M{_num(x - rx)},{_num(top_y)} L{_num(x - rx)},{_num(bottom_y)} "
                  f"A{_num(rx)},{_num(ry)} 0 0 0 {_num(x + rx)},{_num(bottom_y)} "
                  f"L{_num(x + rx)},{_num(top_y)} Z"),
            "fill": side, "stroke": edge, "stroke-width": 0.9, "stroke-linejoin": "round"})
        _el(pile, "ellipse", {"class": "piece " + ("black" if color == FIRST else "white"),
                              "cx": x, "cy": top_y, "rx": rx, "ry": ry, "fill": face,
                              "stroke": edge, "stroke-width": 0.9})
    if len(stack) > 1:
        ink = colors["white piece"] if stack[-1] == FIRST else colors["black piece"]
        _text(pile, x, top_y + 0.5, str(len(stack)), _UNIT * 0.42, ink, weight="bold")
    if faded:
        _text(parent, x + rx * 0.95, y - _UNIT * 0.3, "z", _UNIT * 0.34, colors["text"],
              weight="bold")


def _arrow(parent: ET.Element, start: tuple[float, float], end: tuple[float, float],
           color: str) -> None:
    """An arrow from the centre of one cell to the edge of the next, so it does not
    hide the stack that landed there."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip_x, tip_y = x2 - ux * _UNIT * 0.5, y2 - uy * _UNIT * 0.5
    head = _UNIT * 0.4
    base_x, base_y = tip_x - ux * head, tip_y - uy * head
    _el(parent, "line", {"class": "lastmove-arrow", "x1": x1 + ux * _UNIT * 0.2,
                         "y1": y1 + uy * _UNIT * 0.2, "x2": base_x, "y2": base_y,
                         "stroke": color, "stroke-width": _UNIT * 0.2,
                         "stroke-linecap": "round", "stroke-opacity": 0.9})
    wing_x, wing_y = -uy * head * 0.6, ux * head * 0.6
    _el(parent, "polygon", {"points": (f"{_num(tip_x)},{_num(tip_y)} "
                                       f"{_num(base_x + wing_x)},{_num(base_y + wing_y)} "
                                       f"{_num(base_x - wing_x)},{_num(base_y - wing_y)}"),
                            "fill": color, "fill-opacity": 0.9})


def _hand(parent: ET.Element, x: float, color: int, count: int, status: str | None,
          score: int | None, passed: bool, colors: Mapping[str, str]) -> None:
    """A player's panel: name, status, the pieces left in hand (as discs and a number)
    and, when shown, the score."""
    name = abande.PLAYER_TAGS[color]
    panel = _el(parent, "g", {"class": f"hand {name.lower()}", "data-hand": name.lower()})
    top = -6.4 * _UNIT
    _text(panel, x, top, name, _UNIT * 0.6, colors["text"], weight="bold")
    if status is not None:
        status_color = colors["lastmove"] if status == "to move" else colors["win"]
        _el(panel, "rect", {"x": x - 1.3 * _UNIT, "y": top + 0.55 * _UNIT,
                            "width": 2.6 * _UNIT, "height": 0.7 * _UNIT, "rx": 0.35 * _UNIT,
                            "fill": status_color})
        _text(panel, x, top + 0.9 * _UNIT, status, _UNIT * 0.4, "#ffffff", weight="bold")
    face, side = _piece_colors(color, colors)
    _text(panel, x, top + 2.0 * _UNIT, f"{count} in hand", _UNIT * 0.42, colors["text"])
    rows = (abande.PIECES_PER_PLAYER + 2) // 3
    for index in range(count):
        row, column = divmod(index, 3)
        cx = x + (column - 1) * 0.95 * _UNIT
        cy = top + 2.9 * _UNIT + (rows - 1 - row) * 0.5 * _UNIT
        _el(panel, "ellipse", {"cx": cx, "cy": cy + 0.13 * _UNIT, "rx": 0.4 * _UNIT,
                               "ry": 0.26 * _UNIT, "fill": side, "stroke": colors["piece edge"],
                               "stroke-width": 0.8})
        _el(panel, "ellipse", {"class": "piece", "cx": cx, "cy": cy, "rx": 0.4 * _UNIT,
                               "ry": 0.26 * _UNIT, "fill": face,
                               "stroke": colors["piece edge"], "stroke-width": 0.8})
    below = top + 2.9 * _UNIT + rows * 0.5 * _UNIT + 0.6 * _UNIT
    if passed:
        _text(panel, x, below, "passed", _UNIT * 0.42, colors["text"], weight="bold")
        below += 0.8 * _UNIT
    if score is not None:
        _text(panel, x, below + 0.3 * _UNIT, f"score {score}", _UNIT * 0.55, colors["text"],
              weight="bold")
