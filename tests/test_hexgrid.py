"""The hex grid: neighbours, directions, distance, rings, hexagons, lines, symmetries."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexgames.hexgrid import (
    AXES,
    DIRECTIONS,
    ORIGIN,
    SYMMETRIES,
    Cell,
    add,
    distance,
    hexagon,
    is_adjacent,
    iter_symmetries,
    line_through,
    neighbours,
    reflect,
    ring,
    rotate,
    symmetry,
)

#: The six neighbour offsets exactly as docs/rules.md lists them.
RULES_OFFSETS = {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}

coords = st.integers(min_value=-50, max_value=50)
cells = st.tuples(coords, coords)
#: A set of cells on which two maps of the grid are compared.
PROBE = [*hexagon(3, (1, -2)), (7, -3), (-5, 9)]


def bfs_distance(a: Cell, b: Cell) -> int:
    """Steps from a to b by breadth-first search over the docs/rules.md neighbours."""
    seen = {a}
    queue = deque([(a, 0)])
    while queue:
        cell, d = queue.popleft()
        if cell == b:
            return d
        for dq, dr in RULES_OFFSETS:
            n = (cell[0] + dq, cell[1] + dr)
            if n not in seen:
                seen.add(n)
                queue.append((n, d + 1))
    raise AssertionError("unreachable")


def as_table(transform: Callable[[Cell], Cell]) -> tuple[Cell, ...]:
    return tuple(transform(c) for c in PROBE)


# --- neighbours, directions, axes ---------------------------------------------------------


def test_neighbours_of_origin_in_ring_order() -> None:
    assert neighbours((0, 0)) == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def test_neighbours_of_another_cell() -> None:
    assert neighbours((2, -3)) == ((3, -3), (3, -4), (2, -4), (1, -3), (1, -2), (2, -2))


@given(cells)
def test_neighbours_are_the_rules_offsets(cell: Cell) -> None:
    ns = neighbours(cell)
    assert len(ns) == 6
    assert {(n[0] - cell[0], n[1] - cell[1]) for n in ns} == RULES_OFFSETS


def test_directions_are_the_six_offsets_in_ring_order() -> None:
    assert len(DIRECTIONS) == 6
    assert set(DIRECTIONS) == RULES_OFFSETS
    for i in range(6):
        a, b = DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]
        assert is_adjacent(a, b), (a, b)
        # Opposite directions are three steps apart in the ring.
        assert DIRECTIONS[(i + 3) % 6] == (-a[0], -a[1])


def test_axes_are_the_rules_axes() -> None:
    assert AXES == ((1, 0), (0, 1), (1, -1))
    assert ORIGIN == (0, 0)


def test_is_adjacent() -> None:
    assert is_adjacent((0, 0), (1, -1))
    assert is_adjacent((3, 4), (2, 5))
    assert not is_adjacent((0, 0), (1, 1))
    assert not is_adjacent((0, 0), (0, 0))
    assert not is_adjacent((0, 0), (2, 0))


def test_add() -> None:
    assert add((2, -3), (-1, 5)) == (1, 2)


# --- distance -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, -1), 1),
        ((0, 0), (1, 1), 2),
        ((0, 0), (3, -1), 3),
        ((0, 0), (2, 2), 4),
        ((1, -3), (-2, 1), 4),
        ((-4, 0), (4, 0), 8),
        ((0, -5), (5, -5), 5),
    ],
)
def test_distance_values(a: Cell, b: Cell, expected: int) -> None:
    assert distance(a, b) == expected
    assert distance(b, a) == expected


def test_distance_equals_breadth_first_steps() -> None:
    for cell in hexagon(4, (2, -1)):
        assert distance((2, -1), cell) == bfs_distance((2, -1), cell), cell


@given(cells, cells, cells)
def test_distance_is_a_metric(a: Cell, b: Cell, c: Cell) -> None:
    assert distance(a, b) == distance(b, a) >= 0
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(cells, cells)
def test_adjacent_means_distance_one(a: Cell, b: Cell) -> None:
    assert is_adjacent(a, b) == (distance(a, b) == 1)
    assert all(distance(a, n) == 1 for n in neighbours(a))


# --- rings, hexagons, lines -------------------------------------------------------------


@pytest.mark.parametrize("radius", [1, 2, 3, 4, 7])
def test_ring_sizes_and_members(radius: int) -> None:
    center = (3, -2)
    cells_ = ring(center, radius)
    assert len(cells_) == 6 * radius
    assert len(set(cells_)) == 6 * radius
    assert all(distance(center, c) == radius for c in cells_)
    # Every cell at that distance is in the ring, and the ring is walked in order.
    wanted = {c for c in hexagon(radius, center) if distance(center, c) == radius}
    assert set(cells_) == wanted
    for i, c in enumerate(cells_):
        assert is_adjacent(c, cells_[(i + 1) % len(cells_)])


def test_ring_radius_zero_and_negative() -> None:
    assert ring((4, 5), 0) == [(4, 5)]
    assert ring((0, 0), 1) and set(ring((0, 0), 1)) == RULES_OFFSETS
    with pytest.raises(ValueError, match="radius"):
        ring((0, 0), -1)


@pytest.mark.parametrize(("radius", "size"), [(0, 1), (1, 7), (2, 19), (3, 37), (4, 61)])
def test_hexagon_sizes(radius: int, size: int) -> None:
    cells_ = hexagon(radius)
    assert len(cells_) == size == 3 * radius * (radius + 1) + 1
    assert len(set(cells_)) == size
    assert all(distance(ORIGIN, c) <= radius for c in cells_)


def test_hexagon_3_is_abandes_board() -> None:
    cells_ = hexagon(3)
    assert len(cells_) == 37
    assert set(cells_) == {(q, r) for q in range(-3, 4) for r in range(-3, 4)
                           if max(abs(q), abs(r), abs(q + r)) <= 3}
    assert cells_ == sorted(cells_, key=lambda c: (c[1], c[0]))
    assert cells_[0] == (0, -3)
    assert cells_[-1] == (0, 3)


def test_hexagon_is_union_of_rings_and_can_be_moved() -> None:
    center = (-2, 5)
    union = {c for k in range(4) for c in ring(center, k)}
    assert set(hexagon(3, center)) == union
    assert set(hexagon(2, center)) == {add(c, center) for c in hexagon(2)}


def test_line_through() -> None:
    assert line_through((0, 0), (1, -1), 3) == [(0, 0), (1, -1), (2, -2)]
    assert line_through((2, 1), (0, 1), 5) == [(2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]
    assert line_through((2, 1), (1, 0), 0) == []


# --- symmetries -----------------------------------------------------------------------------


def test_rotate_one_step() -> None:
    assert rotate((1, 0)) == (0, 1)
    assert rotate((0, 1)) == (-1, 1)
    assert rotate((2, -1), 1) == (1, 1)
    # Six steps walk the unit vector once round its ring, visiting every direction.
    seen = []
    cell = (1, 0)
    for _ in range(6):
        seen.append(cell)
        cell = rotate(cell)
    assert cell == (1, 0)
    assert set(seen) == RULES_OFFSETS


@given(cells, st.integers(-20, 20), st.integers(-20, 20))
def test_rotation_steps_add_up(cell: Cell, a: int, b: int) -> None:
    assert rotate(cell, 6) == cell
    assert rotate(cell, 0) == cell
    assert rotate(cell, -1) == rotate(cell, 5)
    assert rotate(rotate(cell, a), b) == rotate(cell, a + b)
    assert distance(ORIGIN, rotate(cell, a)) == distance(ORIGIN, cell)


def test_reflect() -> None:
    assert reflect((2, -1)) == (-1, 2)
    assert reflect((3, 0)) == (0, 3)
    assert reflect((1, -1)) == (-1, 1)
    assert reflect(reflect((5, -7))) == (5, -7)
    # A reflection: it fixes exactly the cells of one line through the origin.
    fixed = [c for c in hexagon(4) if reflect(c) == c]
    assert fixed == [(-2, -2), (-1, -1), (0, 0), (1, 1), (2, 2)]


def test_symmetry_index_checks() -> None:
    assert as_table(symmetry(0)) == tuple(PROBE)
    for bad in (-1, 12, 100):
        with pytest.raises(ValueError, match="symmetry"):
            symmetry(bad)


def test_symmetry_numbering() -> None:
    for i in range(6):
        assert as_table(SYMMETRIES[i]) == tuple(rotate(c, i) for c in PROBE)
        assert as_table(SYMMETRIES[6 + i]) == tuple(rotate(reflect(c), i) for c in PROBE)


def test_twelve_distinct_symmetries() -> None:
    assert len(SYMMETRIES) == 12
    tables = {as_table(s) for s in SYMMETRIES}
    assert len(tables) == 12
    # Even the images of one generic cell are twelve different cells.
    assert len(set(iter_symmetries((2, 1)))) == 12
    assert list(iter_symmetries((2, 1))) == [s((2, 1)) for s in SYMMETRIES]


def test_symmetries_form_a_group() -> None:
    tables = {as_table(s): i for i, s in enumerate(SYMMETRIES)}
    identity = tuple(PROBE)
    assert tables[identity] == 0
    for s in SYMMETRIES:
        for t in SYMMETRIES:
            composed = as_table(lambda c, s=s, t=t: s(t(c)))
            assert composed in tables  # closed under composition
        inverses = [u for u in SYMMETRIES if as_table(lambda c, s=s, u=u: s(u(c))) == identity]
        assert len(inverses) == 1  # exactly one inverse, on both sides
        assert as_table(lambda c, s=s, u=inverses[0]: u(s(c))) == identity


def test_only_the_identity_fixes_a_generic_cell() -> None:
    assert [i for i, s in enumerate(SYMMETRIES) if s((3, 1)) == (3, 1)] == [0]


@given(cells, cells)
def test_symmetries_preserve_distance_and_adjacency(a: Cell, b: Cell) -> None:
    for s in SYMMETRIES:
        assert s(ORIGIN) == ORIGIN
        assert distance(s(a), s(b)) == distance(a, b)
        assert is_adjacent(s(a), s(b)) == is_adjacent(a, b)
        # Linear maps: they commute with translation vectors.
        assert s(add(a, b)) == add(s(a), s(b))


def test_symmetries_map_neighbours_and_axes() -> None:
    axes = {frozenset({a, (-a[0], -a[1])}) for a in AXES}
    for s in SYMMETRIES:
        assert {s(d) for d in DIRECTIONS} == RULES_OFFSETS
        assert {frozenset({s(a), s((-a[0], -a[1]))}) for a in AXES} == axes
        assert set(map(s, neighbours((2, -5)))) == set(neighbours(s((2, -5))))
