"""The errors about game records, and the shortening of text a user gave in an error
message (records and the command line share it).

Every class is a :class:`hexgames.core.HexgamesError`, so a ``ValueError``.
"""

from __future__ import annotations

import re

from hexgames.core import HexgamesError

__all__ = [
    "RecordError",
    "RecordMoveError",
    "RecordResultError",
    "RecordSyntaxError",
]

#: Characters of offending text quoted in an error message.
SHOWN = 60


#: Control characters and line breaks, which :func:`shorten` escapes.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


#: The longest message :func:`shorten_in` returns, in characters.
MESSAGE_SHOWN = 400


def _cut(text: str, limit: int = SHOWN) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _escape(text: str) -> str:
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def shorten(text: str, limit: int = SHOWN) -> str:
    """``text`` cut to ``limit`` characters, the cut marked by an ellipsis, and its
    control characters and line breaks escaped as Python writes them (``\\n``), so a
    message stays on one line. An escape is never cut in two."""
    shown = _escape(text)
    if len(shown) <= limit:
        return shown
    kept, size = [], 0
    for ch in text:
        piece = _escape(ch)
        if size + len(piece) > limit - 1:
            break
        kept.append(piece)
        size += len(piece)
    return "".join(kept) + "\u2026"


def quote(text: str) -> str:
    """``text`` quoted for an error message (``repr``, at most about 60 characters
    between the quotes, escapes included and never cut in two)."""
    if len(text) <= SHOWN and len(repr(text)) <= SHOWN + 2:
        return repr(text)
    n = min(len(text), SHOWN - 1)
    while n > 0 and len(repr(text[:n])) > SHOWN + 1:
        n -= 1
    return repr(text[:n] + "\u2026")


#: The end of a word cut inside an escape Python wrote (``\\x0``).
_PART_ESCAPE_RE = re.compile(r"\\(x[0-9a-fA-F]?|u[0-9a-fA-F]{0,3}|U[0-9a-fA-F]{0,7})?$")


def _cut_word(word: str) -> str:
    """A long word of a message cut short, with its control characters escaped, and
    never inside an escape already written in it (a quoted ``repr``)."""
    cut = shorten(word)
    if not cut.endswith("\u2026"):
        return cut
    return _PART_ESCAPE_RE.sub("", cut[:-1]) + "\u2026"


# A word is a run without spaces, quotes, brackets or an ellipsis (a word already cut).
_LONG_WORD_RE = re.compile(rf"[^\s'\"()\[\]{{}}\u2026]{{{SHOWN + 1},}}")


def shorten_in(message: str, text: str) -> str:
    """``message`` (a game's own error message about ``text``) with each quotation of a
    long ``text``, and any other over-long word, shortened."""
    if len(text) > SHOWN or len(repr(text)) > SHOWN + 2:
        message = message.replace(repr(text), quote(text)).replace(text, shorten(text))
    message = _LONG_WORD_RE.sub(lambda m: _cut_word(m.group()), message)
    # Words of brackets and quotes ("[x][x]...") are short one by one: cut the whole.
    return _cut(message, MESSAGE_SHOWN)


def move_label(ply: int, offset: int) -> str:
    """The move number of the ``ply``-th ply (1-based) of a record whose first move is the
    second player's when ``offset`` is 1: ``3.`` or ``3...`` (docs/notation.md)."""
    game_ply = ply - 1 + offset
    return f"{game_ply // 2 + 1}{'...' if game_ply % 2 else '.'}"


def variation_text(path: tuple[tuple[int, int], ...], offset: int) -> str:
    """A variation path in words: ``variation 1 of move 2... > variation 2 of move 4.``.

    Args:
        path: ``(ply, index)`` from the outermost variation in: the 1-based ply of the
            variation's first move and its 1-based number among the alternatives to the
            move it replaces.
        offset: 1 when the record's first move is the second player's, else 0.
    """
    return " > ".join(f"variation {index} of move {move_label(ply, offset)}"
                      for ply, index in path)


class RecordError(HexgamesError):
    """Base class of the errors about a game record (a ``ValueError``)."""

    game_index: int | None = None


class RecordSyntaxError(RecordError):
    """Text that is not a readable record, or a tag whose value is malformed.

    ``str()`` reads ``game 1, line 3: <message>``; a message about a variation's
    parentheses names their columns itself, as one line may hold several.

    Attributes:
        message: what is wrong, without the location.
        game_index: the 1-based index of the game in the text, when known.
        line: the 1-based line number in the text, when known.
        column: the 1-based column (in characters, a tab counting one) of the text at
            fault on that line, when known.
    """

    def __init__(self, message: str, *, game_index: int | None = None,
                 line: int | None = None, column: int | None = None) -> None:
        where = []
        if game_index is not None:
            where.append(f"game {game_index}")
        if line is not None:
            where.append(f"line {line}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.message = message
        self.game_index = game_index
        self.line = line
        self.column = column if line is not None else None


class RecordMoveError(RecordError):
    """A move of the record that is malformed, illegal, or played after the end.

    ``str()`` reads ``game 1, move 3 (3. 0,-1): illegal move 0,-1: ...`` for a move of
    the main line, and ``game 1, move 3 (3. 0,-1) in variation 1 of move 2... (line 4,
    column 9): ...`` for a move of a variation (a move text longer than 60 characters is
    shortened there, not in :attr:`move_text`).

    Attributes:
        game_index: the 1-based index of the game.
        move_number: the full-turn number of the move (docs/notation.md).
        ply: the 1-based ply of the move in the record (in its own line: the moves
            before it are those of the variations that lead to it).
        move_text: the move as written.
        reason: why it cannot be played (the game's own message).
        line, column: where the move is in the text, when known.
        variation: the variation path of the move, ``()`` on the main line: ``(ply,
            index)`` pairs from the outermost variation in, ``ply`` being the 1-based ply
            of the variation's first move and ``index`` its 1-based number among the
            alternatives to the move it replaces.
    """

    def __init__(self, *, game_index: int, move_number: int, ply: int, move_text: str,
                 reason: str, second_player: bool = False, line: int | None = None,
                 column: int | None = None, variation: tuple[tuple[int, int], ...] = (),
                 offset: int = 0) -> None:
        dots = "..." if second_player else "."
        where = ""
        if variation:
            where = f" in {variation_text(variation, offset)}"
            if line is not None:
                where += f" (line {line}" + (f", column {column})" if column else ")")
        super().__init__(
            f"game {game_index}, move {move_number} ({move_number}{dots} "
            f"{shorten(move_text)}){where}: {shorten_in(reason, move_text)}")
        self.game_index = game_index
        self.move_number = move_number
        self.ply = ply
        self.move_text = move_text
        self.reason = reason
        self.line = line
        self.column = column if line is not None else None
        self.variation = variation


class RecordResultError(RecordError):
    """A ``Result``, ``Termination`` or ``Score`` tag that disagrees with the moves.

    Attributes:
        game_index: the 1-based index of the game.
        tag: the name of the tag at fault.
        value: what the tag says (``None`` when the tag is missing but needed).
        actual: what the moves give (a result, termination or score text), or ``None``
            when the moves do not end the game.
    """

    def __init__(self, message: str, *, game_index: int, tag: str, value: str | None,
                 actual: str | None) -> None:
        super().__init__(f"game {game_index}: {message}")
        self.game_index = game_index
        self.tag = tag
        self.value = value
        self.actual = actual
