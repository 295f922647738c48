"""Writing a record's move tree as ``.hgn`` move text, in the canonical form.

The form follows PGN's export conventions: a first player's move has its number
(``3.``); a second player's move has one (``3...``) when it begins the game or a
variation or follows a comment or a variation; a variation is written in parentheses
right after the move it replaces, its first move numbered; comments in braces; NAGs as
glyphs right after the move (``0,1!?``), further ones as ``$n``; lines wrapped at 80
characters between units, never inside one.
"""

from __future__ import annotations

from hexgames.record.errors import RecordError, quote, variation_text
from hexgames.record.lexer import MOVE_RE, RESULTS, WORD_RE
from hexgames.record.tree import (
    CLOSE,
    MAX_GAME_MOVES,
    MAX_VARIATION_DEPTH,
    MOVE,
    NAG_GLYPHS,
    OPEN,
    MoveNode,
    RecordNode,
    check_nags,
    walk,
)

__all__ = ["LINE_WIDTH", "movetext_units", "wrap"]

LINE_WIDTH = 80


def _where(node: MoveNode, offset: int) -> str:
    """`` in variation 1 of move 2...`` for a node off the main line, else ``""``."""
    path = node.variation_path()
    return f" in {variation_text(path, offset)}" if path else ""


def _comment(text: object, where: str, ply: int, node: MoveNode | None, offset: int,
             game_index: int) -> str:
    """``{text}``; ``where`` (``after`` or ``before``), ``ply`` and ``node`` name the
    comment in an error message (the variation path is found only then: it costs a walk
    up the tree)."""
    if not isinstance(text, str) or "}" in text:
        path = "" if node is None else _where(node, offset)
        raise RecordError(f"game {game_index}: the comment {where} ply {ply}{path} cannot "
                          "be written: a comment is text without '}'")
    return f"{{{text}}}"


def _move_text(node: MoveNode, ply: int, offset: int, game_index: int) -> str:
    move: object = node.move
    if (not isinstance(move, str) or not MOVE_RE.fullmatch(move)
            or not WORD_RE.fullmatch(move) or move in RESULTS):
        shown = quote(move) if isinstance(move, str) else repr(move)
        raise RecordError(
            f"game {game_index}: move {ply} {shown}{_where(node, offset)} cannot be "
            "written: a move is one word of letters, digits and , > - (and cells in "
            "parentheses)")
    return move


def movetext_units(root: RecordNode, *, offset: int, game_index: int) -> list[str]:
    """The units of the move text of the tree of ``root`` (without the result): each a
    numbered move with its glyph, a ``$n``, or a comment, with the parentheses of the
    variations attached to the first and last unit of each.

    Args:
        root: the root of a record's tree.
        offset: 1 when the second player moves first, else 0.
        game_index: for error messages.

    Raises:
        RecordError: for what the reader could not read back as it is: a move that is not
            one word, a comment with ``}`` (or not text), a comment before a main
            continuation, a NAG out of 0..255, variations nested deeper than
            ``MAX_VARIATION_DEPTH`` or more than ``MAX_GAME_MOVES`` moves.
    """
    units: list[str] = []
    opening = ""  # a "(" waiting for the first unit of its variation

    def add(unit: str) -> None:
        nonlocal opening
        units.append(opening + unit)
        opening = ""

    if root.comment is not None:
        add(_comment(root.comment, "after", 0, None, offset, game_index))
    numbered = True  # whether a second player's move must show its number
    count = 0
    for event, node, ply, depth in walk(root):
        if event == OPEN:
            if depth > MAX_VARIATION_DEPTH:
                raise RecordError(
                    f"game {game_index}: the variations are nested {depth} deep, deeper "
                    f"than {MAX_VARIATION_DEPTH} (MAX_VARIATION_DEPTH), at move {ply} "
                    f"{quote(str(node.move))}")
            opening = "("
            numbered = True
            if node.starting_comment is not None:
                add(_comment(node.starting_comment, "before", ply, node, offset, game_index))
            continue
        if event == CLOSE:
            units[-1] += ")"
            numbered = True
            continue
        assert event == MOVE
        count += 1
        if count > MAX_GAME_MOVES:
            raise RecordError(f"game {game_index}: the tree holds more than {MAX_GAME_MOVES} "
                              "moves (MAX_GAME_MOVES)")
        if node.starting_comment is not None and not node.starts_variation():
            raise RecordError(
                f"game {game_index}: the comment before ply {ply}{_where(node, offset)} "
                "cannot be written: only a variation's first move has a comment before it "
                f"(before a main continuation it is the comment after ply {ply - 1})")
        move = _move_text(node, ply, offset, game_index)
        try:
            nags = check_nags(node.nags)
        except RecordError as error:
            raise RecordError(f"game {game_index}: the NAGs of move {ply} "
                              f"{quote(move)}{_where(node, offset)} cannot be written: "
                              f"{error}") from None
        game_ply = ply - 1 + offset
        if game_ply % 2 == 0:
            text = f"{game_ply // 2 + 1}. {move}"
        elif numbered:
            text = f"{game_ply // 2 + 1}... {move}"
        else:
            text = move
        rest = nags
        if nags and nags[0] in NAG_GLYPHS:
            text += NAG_GLYPHS[nags[0]]
            rest = nags[1:]
        add(text)
        for nag in rest:
            add(f"${nag}")
        numbered = node.comment is not None
        if node.comment is not None:
            add(_comment(node.comment, "after", ply, node, offset, game_index))
    return units


def wrap(units: list[str]) -> list[str]:
    """Join ``units`` with spaces into lines of at most :data:`LINE_WIDTH` characters
    where possible; a unit is never split (a comment keeps its own line breaks)."""
    lines: list[str] = []
    current = ""
    for unit in units:
        first = unit.split("\n", 1)[0]
        if current and len(current) + 1 + len(first) > LINE_WIDTH:
            lines.append(current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
        if "\n" in current:
            *done, current = current.split("\n")
            lines.extend(done)
    lines.append(current)
    return lines
