"""The tokens of ``.hgn`` text, with their lines and columns; no knowledge of any game.

The text is expected with ``\\n`` line ends (the reader turns CRLF and CR into them and
drops a byte order mark first). Lines and columns count from 1; a column counts
characters, a tab as one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Final

__all__ = ["MOVE_RE", "RESULTS", "WORD_RE", "Kind", "Token", "tokens"]

#: The result tokens, from the first player's point of view (docs/notation.md).
RESULTS: Final = ("1-0", "0-1", "1/2-1/2", "*")


class Kind(Enum):
    """What a token is."""

    TAG = "tag"  # [Name "value"]: text is the name, value the raw (escaped) value
    COMMENT = "comment"  # {...}: text is what is between the braces
    OPEN = "open"  # ( opening a variation
    CLOSE = "close"  # ) closing one
    WORD = "word"  # any other run of text: move numbers, moves, NAGs, results, junk
    BLANK = "blank"  # the end of a line that held nothing but spaces
    ERROR = "error"  # text that is no token: text is the message, value "[" or "{"


@dataclass(frozen=True, slots=True)
class Token:
    """One token. ``line``/``column`` is where it starts, ``end_line``/``end_column``
    the position just after it."""

    kind: Kind
    text: str
    line: int
    column: int
    end_line: int
    end_column: int
    value: str = ""


# The repeats of alternations are possessive (``*+``, ``++``): the alternatives never
# match the same text, so giving characters back finds no other match, and a plain
# repeat kept a backtracking state a character (a 1 MB tag value or word took 120 to
# 190 MB to lex).
_TAG_RE: Final = re.compile(
    r'\[[^\S\n]*([A-Za-z][A-Za-z0-9_]*)[^\S\n]*"((?:[^"\\\n]|\\.)*+)"[^\S\n]*\]')
_SPACE_RE: Final = re.compile(r"[^\S\n]+")
#: An Andantino cell in parentheses, ``(q,r)`` (docs/notation.md), which is part of a word,
#: not a variation: ``(1,1)`` is a move, ``( 1,1 )`` a variation of one move.
PAREN_CELL: Final = r"\(-?[0-9]+,-?[0-9]+\)"
#: A word: a run of anything but spaces, brackets, braces and parentheses, where a
#: parenthesised cell counts as part of the word.
WORD_RE: Final = re.compile(rf"(?:{PAREN_CELL}|[^\s\[{{()])++")
#: What may be a move in some game (Andantino 0,1, (0,1) and 2,-1>0,3; Abande d4, c3-d4,
#: pass): it is read as a move and judged by the game when the record is validated.
MOVE_RE: Final = re.compile(r"[A-Za-z0-9(),>\-]*[A-Za-z0-9][A-Za-z0-9(),>\-]*")


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text`` in order; linear in its length.

    The last token is an ``ERROR`` at a ``[`` that does not begin a well-formed tag
    pair, or at a ``{`` without a closing ``}``; nothing is read after it.
    """
    pos, line, line_start, end = 0, 1, 0, len(text)
    line_has_content = False
    while pos < end:
        char = text[pos]
        column = pos - line_start + 1
        if char == "\n":
            if not line_has_content:
                yield Token(Kind.BLANK, "", line, column, line, column)
            pos += 1
            line += 1
            line_start = pos
            line_has_content = False
            continue
        space = _SPACE_RE.match(text, pos)
        if space is not None:
            pos = space.end()
            continue
        line_has_content = True
        if char == "[":
            tag = _TAG_RE.match(text, pos)
            if tag is None:
                stop = text.find("\n", pos, pos + 61)
                snippet = text[pos:stop if stop >= 0 else pos + 60]
                yield Token(Kind.ERROR, f"broken tag line {snippet!r}: a tag is [Name \"value\"] "
                            'with the value escaping \\ and " by a backslash', line, column,
                            line, column, "[")
                return
            pos = tag.end()
            yield Token(Kind.TAG, tag.group(1), line, column, line, pos - line_start + 1,
                        tag.group(2))
        elif char == "{":
            close = text.find("}", pos + 1)
            if close < 0:
                yield Token(Kind.ERROR, "unterminated comment: '{' without a closing '}'", line,
                            column, line, column, "{")
                return
            body = text[pos + 1:close]
            start_line = line
            breaks = body.count("\n")
            if breaks:
                line += breaks
                line_start = pos + 1 + body.rfind("\n") + 1
            pos = close + 1
            yield Token(Kind.COMMENT, body, start_line, column, line, pos - line_start + 1)
        elif char in "()":
            word = WORD_RE.match(text, pos) if char == "(" else None
            if word is not None:
                pos = word.end()
                yield Token(Kind.WORD, word.group(), line, column, line, pos - line_start + 1)
            else:
                pos += 1
                yield Token(Kind.OPEN if char == "(" else Kind.CLOSE, char, line, column,
                            line, column + 1)
        else:
            word = WORD_RE.match(text, pos)
            assert word is not None  # char is neither space, "[", "{", "(" nor ")"
            pos = word.end()
            yield Token(Kind.WORD, word.group(), line, column, line, pos - line_start + 1)
