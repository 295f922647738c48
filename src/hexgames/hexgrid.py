"""The hexagonal grid in axial coordinates, as docs/rules.md defines it.

A cell is a pair ``(q, r)`` of ints. The six neighbours of ``(q, r)`` are
``(q+1, r)``, ``(q-1, r)``, ``(q, r+1)``, ``(q, r-1)``, ``(q+1, r-1)`` and ``(q-1, r+1)``;
the three line axes are ``(1, 0)``, ``(0, 1)`` and ``(1, -1)``. The implicit third cube
coordinate is ``s = -q - r``.

The grid has 12 symmetries that fix the origin: six rotations by multiples of 60 degrees,
each optionally preceded by a reflection (see Amit Patel, "Hexagonal Grids", Red Blob
Games, for the cube-coordinate formulas used here).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

Cell = tuple[int, int]

#: The six directions in ring order: each is adjacent to the next (and the last to the first).
DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: The three line axes of docs/rules.md; a line runs along ``axis`` and its opposite.
AXES: tuple[Cell, ...] = ((1, 0), (0, 1), (1, -1))

ORIGIN: Cell = (0, 0)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six neighbours of ``cell``, in the ring order of :data:`DIRECTIONS`."""
    q, r = cell
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def is_adjacent(a: Cell, b: Cell) -> bool:
    """Whether two cells share an edge."""
    return distance(a, b) == 1


def add(a: Cell, b: Cell) -> Cell:
    """The cell ``a`` shifted by the vector ``b``."""
    return (a[0] + b[0], a[1] + b[1])


def distance(a: Cell, b: Cell) -> int:
    """The number of steps between two cells (the hex, or cube, distance)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Cell, radius: int) -> list[Cell]:
    """The cells at exactly ``radius`` steps from ``center`` (``[center]`` for radius 0).

    Raises:
        ValueError: if ``radius`` is negative.
    """
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    q, r = center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius
    cells = []
    for dq, dr in DIRECTIONS:
        for _ in range(radius):
            cells.append((q, r))
            q, r = q + dq, r + dr
    return cells


def hexagon(radius: int, center: Cell = ORIGIN) -> list[Cell]:
    """The cells within ``radius`` steps of ``center``, sorted by ``r`` then ``q``.

    ``hexagon(3)`` is Abande's 37-point board.
    """
    cq, cr = center
    cells = [
        (cq + q, cr + r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]
    return cells


def line_through(cell: Cell, axis: Cell, length: int) -> list[Cell]:
    """``length`` consecutive cells starting at ``cell`` and stepping along ``axis``."""
    q, r = cell
    dq, dr = axis
    return [(q + i * dq, r + i * dr) for i in range(length)]


def rotate(cell: Cell, steps: int = 1) -> Cell:
    """Rotate ``cell`` about the origin by ``steps`` times 60 degrees.

    One step maps the direction ``(1, 0)`` to ``(0, 1)``, which in cube coordinates is
    ``(x, y, z) -> (-z, -x, -y)``.
    """
    q, r = cell
    for _ in range(steps % 6):
        q, r = -r, q + r
    return (q, r)


def reflect(cell: Cell) -> Cell:
    """Reflect ``cell`` in the line of cells with ``q == r`` (swaps q and r)."""
    return (cell[1], cell[0])


def symmetry(index: int) -> Callable[[Cell], Cell]:
    """The symmetry number ``index`` (0 to 11) of the grid about the origin.

    Symmetries 0-5 are the rotations by ``index`` times 60 degrees; 6-11 reflect first and
    then rotate by ``index - 6`` steps. Symmetry 0 is the identity.

    Raises:
        ValueError: if ``index`` is not in 0..11.
    """
    if not 0 <= index < 12:
        raise ValueError(f"symmetry index must be in 0..11, got {index}")
    steps, mirrored = index % 6, index >= 6

    def apply(cell: Cell) -> Cell:
        return rotate(reflect(cell) if mirrored else cell, steps)

    return apply


SYMMETRIES: tuple[Callable[[Cell], Cell], ...] = tuple(symmetry(i) for i in range(12))


def iter_symmetries(cell: Cell) -> Iterator[Cell]:
    """The images of ``cell`` under the 12 symmetries, in index order."""
    for transform in SYMMETRIES:
        yield transform(cell)
