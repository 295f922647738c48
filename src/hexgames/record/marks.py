"""Arrows and circles drawn on the board, kept in a move's comment (docs/records.md,
"Commands in comments"): PGN's ``[%csl ...]`` (coloured squares) and ``[%cal ...]``
(coloured arrows) as lichess and ChessBase write them, adapted to the games' cells.

A circle is a colour letter and a cell, an arrow a colour letter and a move-like pair of
cells joined by the game's move separator (``-`` in Abande, ``>`` in Andantino, whose
cells hold commas); entries are separated by ``;`` (PGN's ``,`` is part of an Andantino
cell)::

    {White builds. [%csl Gc3;Rd4] [%cal Gc3-d4]}       Abande
    {[%csl Y0,1] [%cal B0,1>2,-1;G1,1>1,3]}               Andantino

The colours are ``G`` green, ``R`` red, ``Y`` yellow and ``B`` blue. :func:`split_marks`
takes the marks out of a comment, :func:`join_marks` writes them back after its text,
so that ``split_marks(join_marks(text, marks)) == (text, marks)`` for marks of valid
cells.

    >>> text, marks = split_marks("Strong. [%csl Gc3] [%cal Rc3-d4]", "abande")
    >>> text, [m.text("abande") for m in marks]
    ('Strong.', ['Gc3', 'Rc3-d4'])
    >>> join_marks(text, marks, "abande")
    'Strong. [%csl Gc3] [%cal Rc3-d4]'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hexgames.core import HexgamesError

__all__ = ["COLORS", "MAX_MARKS", "Mark", "MarkError", "join_marks", "parse_mark",
           "split_marks"]

#: The colour letters, green first (the colour without a modifier key).
COLORS = ("G", "R", "Y", "B")
#: The most marks one comment holds.
MAX_MARKS = 64
#: The cells of each game (docs/notation.md): Abande's named points, Andantino's axial
#: ``q,r`` (at most three digits a coordinate: the board never grows that far).
_CELL = {"abande": r"[a-g][1-7]", "andantino": r"-?[0-9]{1,3},-?[0-9]{1,3}"}
_SEPARATOR = {"abande": "-", "andantino": ">"}
_COMMAND = re.compile(r"\s*\[%(csl|cal)\s+([^\]]*)\]")


class MarkError(HexgamesError, ValueError):
    """A mark that is not one (its text and the reason named)."""


@dataclass(frozen=True)
class Mark:
    """A circle on ``cell`` (``to`` is ``None``) or an arrow from ``cell`` to ``to``, in
    ``color`` (one of :data:`COLORS`)."""

    color: str
    cell: str
    to: str | None = None

    def text(self, game: str) -> str:
        """The mark as a ``[%csl]``/``[%cal]`` entry: ``Gc3``, ``Rc3-d4``, ``B0,1>2,-1``."""
        if self.to is None:
            return f"{self.color}{self.cell}"
        return f"{self.color}{self.cell}{_SEPARATOR[game]}{self.to}"


def parse_mark(text: str, game: str) -> Mark:
    """The mark of an entry (``Gc3``, ``Rc3-d4``; any letter case).

    Raises:
        MarkError: naming the entry, for another colour or a cell of no such form.
    """
    cell = _CELL[game]
    match = re.fullmatch(rf"([GRYB])({cell})(?:{re.escape(_SEPARATOR[game])}({cell}))?",
                         text.strip(), re.IGNORECASE)
    if match is None:
        raise MarkError(f"{text[:40]!r} is no mark of {game}: a colour "
                        f"({'/'.join(COLORS)}) and a cell, or two joined by "
                        f"{_SEPARATOR[game]!r}")
    to = match.group(3)
    if to is not None and to.lower() == match.group(2).lower():
        raise MarkError(f"{text[:40]!r}: an arrow joins two cells")
    return Mark(match.group(1).upper(), match.group(2).lower(),
                None if to is None else to.lower())


def split_marks(comment: str | None, game: str) -> tuple[str, list[Mark]]:
    """The text of a comment without its ``[%csl]``/``[%cal]`` commands, and their
    marks (circles first, each in the order written; one mark once). Entries that are
    no marks stay in the text, so nothing of a comment is lost.
    """
    if not comment:
        return "", []
    marks: list[Mark] = []
    kept: list[str] = []
    last = 0
    for match in _COMMAND.finditer(comment):
        try:
            found = [parse_mark(entry, game) for entry in match.group(2).split(";")
                     if entry.strip()]
        except MarkError:
            continue  # not ours to read: kept as text
        kept.append(comment[last:match.start()])
        last = match.end()
        marks.extend(m for m in found if m not in marks)
    kept.append(comment[last:])
    circles = [m for m in marks if m.to is None]
    arrows = [m for m in marks if m.to is not None]
    return " ".join(part.strip() for part in kept if part.strip()), circles + arrows


def join_marks(text: str | None, marks: list[Mark], game: str) -> str:
    """A comment of ``text`` and ``marks``: the text, then ``[%csl ...]`` with the
    circles and ``[%cal ...]`` with the arrows (each left out when there is none).

    Raises:
        MarkError: for more than :data:`MAX_MARKS` marks.
    """
    if len(marks) > MAX_MARKS:
        raise MarkError(f"{len(marks)} marks: a move holds at most {MAX_MARKS}")
    parts = [text.strip()] if text and text.strip() else []
    circles = [m.text(game) for m in marks if m.to is None]
    arrows = [m.text(game) for m in marks if m.to is not None]
    if circles:
        parts.append(f"[%csl {';'.join(circles)}]")
    if arrows:
        parts.append(f"[%cal {';'.join(arrows)}]")
    return " ".join(parts)
