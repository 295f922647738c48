"""Reading ``.hgn`` text into games: their tags and move trees, with the line and column
of everything read (the format: ``hexgames.record``'s docstring and ``docs/records.md``).

This module knows no game: :func:`read` is given the function that checks a game's tags
and returns its game module and starting board (``hexgames.record`` passes its own), and
learns from them the game's name, its player tags and who moves first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NamedTuple, NoReturn

from hexgames.record.errors import RecordSyntaxError, quote, shorten
from hexgames.record.lexer import MOVE_RE, RESULTS, Kind, tokens
from hexgames.record.tree import (
    GLYPH_NAGS,
    MAX_GAME_MOVES,
    MAX_NAG,
    MAX_NUMBER_DIGITS,
    MAX_VARIATION_DEPTH,
    MoveNode,
    RecordNode,
)

__all__ = ["CheckTags", "Places", "ReadGame", "read"]

_NUMBER_RE = re.compile(r"([0-9]+)(\.(?:\.\.)?)(.*)", re.DOTALL)
_MOVE_GLYPH_RE = re.compile(rf"({MOVE_RE.pattern})([!?]+)?")
_GLYPH_RE = re.compile(r"[!?]+")
_NAG_RE = re.compile(r"\$([0-9]+)")


@dataclass(frozen=True)
class Places:
    """Where the tags were read, and where the move text begins (for a missing tag)."""

    lines: Mapping[str, int]
    columns: Mapping[str, int]
    line: int | None = None
    column: int | None = None

    def of(self, name: str) -> dict[str, int | None]:
        """The place of the tag ``name``, as keyword arguments of the error."""
        return {"line": self.lines.get(name), "column": self.columns.get(name)}


#: Checks a game's tags (given where they were read, for the errors) and returns its
#: game module and its starting board; raises ``RecordSyntaxError`` for a bad tag.
CheckTags = Callable[[Mapping[str, str], int, Places], tuple[ModuleType, Any]]


class ReadGame(NamedTuple):
    """A game as read: its tags in order, its tree and where it was read."""

    tags: dict[str, str]
    root: RecordNode
    game_index: int
    tag_lines: dict[str, int]
    tag_columns: dict[str, int]


@dataclass
class _Open:
    """A variation being read: where the line it leaves had got to, and its ``(``."""

    node: RecordNode
    ply: int
    line: int
    column: int


@dataclass
class _Draft:
    """A game being read."""

    index: int
    check_tags: CheckTags
    first_line: int = 0
    first_column: int = 0
    last_line: int = 0  # the end of the last thing read
    last_column: int = 0
    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    tag_columns: dict[str, int] = field(default_factory=dict)
    root: RecordNode = field(default_factory=RecordNode)
    current: RecordNode | None = None  # the node the line being read has reached
    ply: int = 0  # the moves from the root to current
    count: int = 0  # the moves read, in every line
    opened: list[_Open] = field(default_factory=list)  # the variations open, innermost last
    fresh: bool = False  # a variation has just opened: no move of it yet
    starting: list[str] = field(default_factory=list)  # its comments so far
    # id(node) -> the node and the parts of its comment, joined at the end (joining
    # as they come would copy a long comment once per part).
    comments: dict[int, tuple[RecordNode, list[str]]] = field(default_factory=dict)
    any_text: bool = False  # a move or a comment has been read
    result: tuple[str, int, int] | None = None  # the result token, its line and column
    # A pending move number: its text, value, line and column.
    number: tuple[str, int, int, int] | None = None
    in_moves: bool = False
    blank_after_tags: bool = False
    module: ModuleType | None = None
    offset: int = 0  # 1 when the second player moves first

    def empty(self) -> bool:
        return not self.tags and not self.in_moves

    def fail(self, message: str, line: int | None, column: int | None = None) -> NoReturn:
        raise RecordSyntaxError(message, game_index=self.index, line=line, column=column)

    def begin_moves(self, line: int | None, column: int | None) -> None:
        """The tag section is over: check it and learn who moves first."""
        if line is None:
            line, column = self.first_line, self.first_column
        places = Places(self.tag_lines, self.tag_columns, line, column)
        self.module, start = self.check_tags(self.tags, self.index, places)
        if "Result" not in self.tags:
            found = [name for name in self.tags if name.lower() == "result"]
            hint = (f"; tag names are case-sensitive, not {quote(found[0])}" if found
                    else "")
            where = places.of(found[0]) if found else {"line": line, "column": column}
            self.fail(f"no Result tag (it is required: the result, one of "
                      f"{', '.join(RESULTS)}){hint}", where["line"], where["column"])
        self.offset = int(start.turn)
        self.current = self.root
        self.in_moves = True

    def check_open(self, token: str, line: int, column: int) -> None:
        """Move text may go on here (the result has not been read)."""
        if not self.in_moves:
            self.begin_moves(line, column)
        if self.result is not None:
            self.fail(f"unexpected {quote(token)} after the result {self.result[0]}", line,
                      column)

    def add_word(self, token: str, line: int, column: int) -> None:
        while token:
            self.check_open(token, line, column)
            m = _NUMBER_RE.fullmatch(token)
            if m is not None:
                self.check_no_number()
                digits, dots, token = m.groups()
                if len(digits) > MAX_NUMBER_DIGITS:
                    self.fail(f"move number {shorten(digits + dots)} is out of range", line,
                              column)
                self.number = (digits + dots, int(digits), line, column)
                column += len(digits) + len(dots)
                continue
            if token in RESULTS:
                self.check_no_number()
                self.set_result(token, line, column)
                return
            nag = _NAG_RE.fullmatch(token)
            if nag is not None:
                digits = nag.group(1)
                if len(digits) > 3 or int(digits) > MAX_NAG:
                    self.fail(f"annotation {quote(token)} is out of range: a NAG is $0 to "
                              f"${MAX_NAG}", line, column)
                self.add_nag(int(digits), token, line, column)
                return
            if _GLYPH_RE.fullmatch(token):
                self.add_nag(self.glyph_nag(token, line, column), token, line, column)
                return
            m = _MOVE_GLYPH_RE.fullmatch(token)
            if m is not None:
                move, glyph = m.groups()
                nag_value = None if glyph is None else self.glyph_nag(glyph, line,
                                                                      column + len(move))
                self.add_move(move, line, column)
                if nag_value is not None:
                    self.add_nag(nag_value, glyph, line, column + len(move))
                return
            self.fail(f"unexpected {quote(token)}: not a move, move number, result or comment",
                      line, column)

    def glyph_nag(self, glyph: str, line: int, column: int) -> int:
        if glyph not in GLYPH_NAGS:
            self.fail(f"annotation glyph {quote(glyph)} is not one of "
                      f"{' '.join(GLYPH_NAGS)}", line, column)
        return GLYPH_NAGS[glyph]

    def check_no_number(self) -> None:
        if self.number is not None:
            self.fail(f"move number {self.number[0]} is not followed by a move",
                      self.number[2], self.number[3])

    def add_move(self, token: str, line: int, column: int) -> None:
        ply = self.ply + self.offset
        if self.number is not None:
            text, value, number_line, number_column = self.number
            expected = ply // 2 + 1
            second = ply % 2 == 1
            assert self.module is not None
            if value != expected:
                dots = "..." if second else "."
                self.fail(f"move number {text} does not fit: ply {self.ply + 1} "
                          f"({shorten(token)}) is move {expected}{dots}", number_line,
                          number_column)
            if text.endswith("...") and not second:
                player = self.module.PLAYER_TAGS[0]
                self.fail(f"move number {text} marks a second player's move, but "
                          f"{shorten(token)} is {player}'s", number_line, number_column)
            self.number = None
        self.count += 1
        if self.count > MAX_GAME_MOVES:
            self.fail(f"the game holds more than {MAX_GAME_MOVES} moves counting its "
                      "variations (MAX_GAME_MOVES)", line, column)
        assert self.current is not None
        starting = None
        if self.fresh:
            if self.starting:
                starting = " ".join(part for part in self.starting if part)
            self.fresh = False
            self.starting = []
        self.current = MoveNode._trusted(self.current, token, [], None, starting, line,
                                         column)
        self.ply += 1
        self.any_text = True

    def add_nag(self, nag: int, text: str, line: int, column: int) -> None:
        self.check_no_number()
        if self.fresh or not isinstance(self.current, MoveNode):
            self.fail(f"annotation {quote(text)} does not follow a move", line, column)
        self.current.nags.append(nag)

    def add_comment(self, text: str, line: int, column: int) -> None:
        if not self.in_moves:
            self.begin_moves(line, column)
        self.any_text = True
        if self.fresh:
            self.starting.append(text.strip())
            return
        assert self.current is not None
        entry = self.comments.setdefault(id(self.current), (self.current, []))
        entry[1].append(text.strip())

    def open_variation(self, line: int, column: int) -> None:
        self.check_open("(", line, column)
        self.check_no_number()
        if self.fresh:
            outer = self.opened[-1]
            self.fail(f"'(' at column {column} opens a variation right after the opening of "
                      f"another (line {outer.line}, column {outer.column}): a variation "
                      "follows the move it replaces", line, column)
        current = self.current
        if not isinstance(current, MoveNode) or current.parent is None:  # at the root
            self.fail(f"'(' at column {column} opens a variation before any move: a "
                      "variation follows the move it replaces", line, column)
        if len(self.opened) >= MAX_VARIATION_DEPTH:
            self.fail(f"'(' at column {column} opens a variation nested deeper than "
                      f"{MAX_VARIATION_DEPTH} levels (MAX_VARIATION_DEPTH)", line, column)
        self.opened.append(_Open(current, self.ply, line, column))
        self.current = current.parent
        self.ply -= 1
        self.fresh = True
        self.starting = []

    def close_variation(self, line: int, column: int) -> None:
        self.check_open(")", line, column)
        if not self.opened:
            self.fail(f"')' at column {column} closes no variation", line, column)
        self.check_no_number()
        inner = self.opened.pop()
        if self.fresh:
            self.fail(f"'(' at column {inner.column} opens a variation that holds no move "
                      f"(it closes at line {line}, column {column})", inner.line, inner.column)
        self.current, self.ply = inner.node, inner.ply

    def set_result(self, token: str, line: int, column: int) -> None:
        if self.opened:
            inner = self.opened[-1]
            self.fail(f"result token {token} at column {column} is inside the variation "
                      f"opened at line {inner.line}, column {inner.column}: only the main "
                      "line ends with the result", line, column)
        self.result = (token, line, column)

    def finish(self) -> ReadGame:
        if not self.in_moves:
            self.begin_moves(None, None)
        if self.opened:
            inner = self.opened[-1]
            self.fail(f"'(' at column {inner.column} opens a variation that is not closed: "
                      "a ')' is missing", inner.line, inner.column)
        self.check_no_number()
        assert self.module is not None
        self.tags["Game"] = self.module.GAME_NAME
        if self.result is None:
            where = "the move text" if self.any_text else "the game"
            self.fail(f"{where} ends without a result token: it must end with one of "
                      f"{', '.join(RESULTS)} (the Result tag is {self.tags['Result']})",
                      self.last_line or self.first_line,
                      self.last_column or self.first_column)
        token, line, column = self.result
        tag = self.tags["Result"]
        if tag != token:
            self.fail(f"result token {token} disagrees with the Result tag {tag}", line,
                      column)
        for node, parts in self.comments.values():
            node.comment = " ".join(part for part in parts if part)
        return ReadGame(self.tags, self.root, self.index, self.tag_lines, self.tag_columns)


def _unescape(raw: str, name: str, draft: _Draft, line: int, column: int) -> str:
    def replace(m: re.Match[str]) -> str:
        if m.group(1) not in '\\"':
            draft.fail(f"tag {shorten(name)}: unknown escape \\{m.group(1)} "
                       '(only \\\\ and \\" are allowed)', line, column)
        return m.group(1)

    return re.sub(r"\\(.)", replace, raw)


def read(text: str, check_tags: CheckTags) -> list[ReadGame]:
    """Every game of ``text``, read but not replayed (see
    :func:`hexgames.record.parse_games`, which is this with the record's tag checks).

    Raises:
        RecordSyntaxError: for the first unreadable part, with its game, line and column.
    """
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    games: list[ReadGame] = []
    draft = _Draft(1, check_tags)

    def next_game() -> None:
        nonlocal draft
        if not draft.empty():
            games.append(draft.finish())
            draft = _Draft(draft.index + 1, check_tags)

    for token in tokens(text):
        kind = token.kind
        if kind is Kind.BLANK:
            if draft.in_moves:
                next_game()
            elif draft.tags:
                draft.blank_after_tags = True
            continue
        starts_tag = kind is Kind.TAG or (kind is Kind.ERROR and token.value == "[")
        if starts_tag and (draft.in_moves or draft.blank_after_tags):
            next_game()
        if draft.empty():
            draft.first_line, draft.first_column = token.line, token.column
        line, column = token.line, token.column
        if kind is Kind.ERROR:
            draft.fail(token.text, line, column)
        elif kind is Kind.TAG:
            name = token.text
            if name in draft.tags:
                draft.fail(f"tag {shorten(name)} is given twice", line, column)
            draft.tags[name] = _unescape(token.value, name, draft, line, column)
            draft.tag_lines[name] = line
            draft.tag_columns[name] = column
        elif kind is Kind.COMMENT:
            draft.add_comment(token.text, line, column)
        elif kind is Kind.OPEN:
            draft.open_variation(line, column)
        elif kind is Kind.CLOSE:
            draft.close_variation(line, column)
        else:
            draft.add_word(token.text, line, column)
        draft.last_line, draft.last_column = token.end_line, token.end_column
    next_game()
    return games
