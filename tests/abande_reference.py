"""A deliberately naive Abande, written straight from docs/rules.md, to check the fast board.

Stacks are lists of 0 (Black) and 1 (White), bottom first, in a dict by axial cell;
every question is answered from scratch: entries by looking at the neighbours, the band
by a breadth-first search, awake stacks by their neighbours' top pieces. Moves are
compared as notation strings, so nothing here depends on hexgames.abande.
"""

from __future__ import annotations

from collections import deque

Cell = tuple[int, int]

PIECES = 18
CELLS: list[Cell] = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def name(cell: Cell) -> str:
    """docs/notation.md: column letter from q, number 4 - r - max(q, 0)."""
    q, r = cell
    return "abcdefg"[q + 3] + str(4 - r - max(q, 0))


NAMES = {name(c): c for c in CELLS}


def neighbours(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in STEPS if (q + dq, r + dr) in NAMES.values()]


def connected(cells: set[Cell]) -> bool:
    if not cells:
        return True
    start = next(iter(cells))
    seen = {start}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        for n in neighbours(cell):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


class Reference:
    """A position of the naive game: ``stacks``, ``turn``, ``hands``, ``passes``."""

    def __init__(self, max_height: int = 3) -> None:
        self.max_height = max_height
        self.stacks: dict[Cell, list[int]] = {}
        self.turn = 0
        self.hands = [PIECES, PIECES]
        self.passes = 0

    def over(self) -> bool:
        return self.passes >= 2

    def legal(self) -> set[str]:
        if self.over():
            return set()
        me = self.turn
        moves: set[str] = set()
        if self.hands[me] > 0:
            for cell in CELLS:
                if cell in self.stacks:
                    continue
                if not self.stacks or any(n in self.stacks for n in neighbours(cell)):
                    moves.add(name(cell))
        black_entered = PIECES - self.hands[0]
        if black_entered >= 2:
            for src, stack in self.stacks.items():
                if stack[-1] != me:
                    continue
                for dst in neighbours(src):
                    target = self.stacks.get(dst)
                    if target is None or target[-1] == me:
                        continue
                    if len(stack) + len(target) > self.max_height:
                        continue
                    rest = set(self.stacks) - {src}
                    if not connected(rest):
                        continue
                    moves.add(f"{name(src)}-{name(dst)}")
        if self.hands[me] == 0:
            moves.add("pass")
        return moves

    def push(self, text: str) -> None:
        assert text in self.legal(), text
        me = self.turn
        if text == "pass":
            self.passes += 1
        elif "-" in text:
            src, dst = (NAMES[part] for part in text.split("-"))
            self.stacks[dst] = self.stacks[dst] + self.stacks.pop(src)
            self.passes = 0
        else:
            self.stacks[NAMES[text]] = [me]
            self.hands[me] -= 1
            self.passes = 0
        self.turn = 1 - me

    def awake(self, cell: Cell) -> bool:
        top = self.stacks[cell][-1]
        return any(n in self.stacks and self.stacks[n][-1] != top for n in neighbours(cell))

    def score(self) -> tuple[int, int]:
        points = [0, 0]
        for cell, stack in self.stacks.items():
            if self.awake(cell):
                points[stack[-1]] += len(stack)
        return (points[0], points[1])


def from_position(text: str, max_height: int = 3) -> Reference:
    """A reference position from a well-formed position string (no validation)."""
    ref = Reference(max_height)
    for word in text.split()[1:]:
        key, _, value = word.partition("=")
        if key == "turn":
            ref.turn = "bw".index(value)
        elif key == "hands":
            black, white = value[1:].split(",w")
            ref.hands = [int(black), int(white)]
        elif key == "passes":
            ref.passes = int(value)
        else:
            ref.stacks[NAMES[key]] = ["BW".index(letter) for letter in value]
    return ref
