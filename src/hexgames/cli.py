"""The ``hexgames`` command: play a game in the terminal, play matches between AI players,
analyse a position, count perft, check game records and measure random playouts, for
every game of :mod:`hexgames.games`.

    hexgames play [GAME] [--rules key=value ...] [--white human|PLAYER] [--red ...]
    hexgames match GAME --player A --player B [--games N] [--time S | --nodes N]
                   [--rules ...] [--jobs J] [--seed N] [--out DIR]
    hexgames analyse GAME [--position POS | --record FILE [--ply N]] [--player P] [--time S]
    hexgames perft GAME DEPTH [--rules ...] [--position POS] [--divide]
    hexgames replay FILE [--json]
    hexgames render FILE [--game-index N] [--ply N] [-o PICTURE.svg] [--size PX] [--flipped]
    hexgames bench GAME [--seconds S] [--seed N] [--rules ...]
    hexgames serve [--host 127.0.0.1] [--port 8000] [--db PATH] [--open]

PLAYER is a player spec of :mod:`hexgames.engine.players`: a player (``random``,
``greedy``, ``alphabeta``, ``mcts``) or a level (``easy`` ... ``expert``), with options
such as ``mcts:time=2``.

Bad input (an unknown game or rules option, a malformed position, move or record, a file
that cannot be read, a bad option value) prints one line ``error: <message>`` on stderr and
exits with status 2; a message quotes at most 60 characters of what was typed. Ctrl-C
exits with status 130 (``play`` and ``match`` still write what they were asked to).
Boards are drawn to fit the terminal and read without colour (NO_COLOR, a pipe): every
mark is a character, explained by a ``key:`` line under the board.
Only the board drawing knows a game's pieces; everything else goes through the board API
that all games share (``legal_moves``, ``push``/``pop``, ``outcome()``, ...).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import math
import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import click
from rich import box
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from hexgames import __version__
from hexgames.core import (
    FIRST,
    SECOND,
    HexgamesError,
    InvalidMoveError,
    Outcome,
    Termination,
)
from hexgames.games import GAME_NAMES, UnknownGameError, game_module

# --- shared helpers -------------------------------------------------------------------

#: Width of a console that is not a terminal (a pipe or a file), unless the environment
#: variable COLUMNS sets one: wide enough that a board is never wrapped.
_PIPE_WIDTH = 160


def _console() -> Console:
    """A console on the current ``sys.stdout``, made per command so that it follows
    redirection (and click's test runner)."""
    console = Console(highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console.width = _PIPE_WIDTH
    return console


def load_game(name: str) -> ModuleType:
    """The module of the game called ``name``.

    Raises:
        UnknownGameError: for a name that is no game, or a game whose module is not part
            of this installation yet.
    """
    try:
        return game_module(name)
    except ModuleNotFoundError as error:
        key = name.strip().lower()
        if error.name != f"hexgames.{key}":
            raise
        raise UnknownGameError(
            f"game {key} is not available in this version of hexgames") from None


def parse_rules(module: ModuleType, words: Iterable[str]) -> Any:
    """The game's ``Rules`` from ``--rules`` values; each value may hold several
    ``key=value`` words separated by spaces."""
    options = [word for value in words for word in value.split()]
    return module.Rules.from_options(options)


def new_board(module: ModuleType, rules: Any = None, position: str | None = None) -> Any:
    """A board of the game at ``position`` (the standard start when ``None``)."""
    return module.Board(position, rules)


def _tag(module: ModuleType, color: int) -> str:
    """The name of a side, as in records: ``White``, ``Red``, ``Black``."""
    return str(module.PLAYER_TAGS[color])


def _hands(board: Any) -> tuple[int | None, int | None] | None:
    """Pieces still in each hand (``None`` for an unlimited supply), or ``None`` when the
    game has no hands. Games spell this ``board.hand(color)`` or ``board.hands``."""
    hand = getattr(board, "hand", None)
    if callable(hand):
        return (hand(FIRST), hand(SECOND))
    hands = getattr(board, "hands", None)
    if callable(hands):
        hands = hands()
    if hands is not None:
        first, second = hands
        return (first, second)
    return None


def _score(board: Any) -> tuple[int, int] | None:
    """The running score for games scored by points (Abande's ``board.score()``)."""
    score = getattr(board, "score", None)
    if not callable(score):
        return None
    value = score()
    if isinstance(value, tuple) and len(value) == 2:
        return (int(value[0]), int(value[1]))
    return None


def _describe_outcome(module: ModuleType, outcome: Outcome) -> str:
    """``White wins by line``, ``draw (tiles-exhausted)``, ``Black wins by score 15-10``."""
    reason = outcome.termination.value
    if outcome.score is not None:
        reason = f"{reason} {outcome.score[0]}-{outcome.score[1]}"
    if outcome.winner is None:
        return f"draw ({reason})"
    return f"{_tag(module, outcome.winner)} wins by {reason}"


# --- the board drawing ----------------------------------------------------------------
# Every drawing reads without colour (NO_COLOR, a pipe): pieces are letters and every mark
# is a character, explained by a key under the board; colour only helps the eye.

# Styles by colour index (0 = first player): Andantino's White and Red tiles.
_TILE_STYLES = ("black on grey82", "white on red3")
_LAST_STYLES = ("bold black on bright_white", "bold bright_white on red1")
_LINE_STYLE = "bold black on gold1"
_TRAPPED_STYLE = "bold bright_white on magenta"
_LABEL_STYLE = "cyan"
_SOURCE_STYLE = ("bold blue on grey82", "bold yellow on red3")
_EMPTY_STYLE = "grey50"


@dataclass
class _Cell:
    text: str
    style: str


@dataclass
class _Layout:
    """One way to draw a board: the picture, the meaning of its marks (``key``) and
    other lines to print under it."""

    picture: Text
    key: list[str]
    notes: list[str]


@dataclass
class BoardDrawing:
    """A board drawn to fit a console (see :func:`draw_board`).

    Attributes:
        panel: the framed picture.
        notes: lines to print under it: the key to its marks, what a compact picture
            leaves out (such as the legal cells), and game state it does not show.
        width: the columns the panel takes.
        fits: False when even the most compact drawing is wider than the console: the
            panel is then cut off on the right, and the first note says so.
    """

    panel: Panel
    notes: list[str]
    width: int
    fits: bool


def draw_board(board: Any, *, width: int | None = None,
               cell_width: int | None = None) -> BoardDrawing:
    """``board`` drawn in the richest layout that fits ``width`` columns.

    A game has layouts from richest to most compact (Andantino: coordinates on the legal
    cells, then 4 and 2 characters a cell with the legal cells listed under the board;
    Abande: ``name:stack`` on every point, then without the parentheses around the last
    move). When none fits, the most compact is cut to ``width`` and the first note says
    that the board is wider than the terminal. The side to move (or the result) is the
    panel's subtitle, or the first note when it does not fit there.

    Args:
        board: a board of any game.
        width: the columns available (``None``: no limit).
        cell_width: characters per cell of the richest layout (default 6, widened to fit
            the labels).
    """
    module = sys.modules[type(board).__module__]
    layouts = _LAYOUTS.get(type(board).__module__, _text_layouts)(board, cell_width)
    least = len(module.GAME_NAME) + 6

    def framed(layout: _Layout) -> int:
        inner = max((line.cell_len for line in layout.picture.split()), default=0)
        return max(inner, least) + 4

    chosen = next((layout for layout in layouts
                   if width is None or framed(layout) <= width), None)
    fits = chosen is not None
    if chosen is None:
        chosen = min(layouts, key=framed)
    notes = _key_lines(chosen.key, width) + chosen.notes
    panel_width = framed(chosen)
    outcome: Outcome | None = board.outcome()
    if outcome is not None:
        status = f"ply {board.ply()} · {_describe_outcome(module, outcome)}"
    else:
        status = f"ply {board.ply()} · {_tag(module, board.turn)} to move"
    subtitle: str | None = status
    if width is None or max(panel_width, len(status) + 10) <= width:
        panel_width = max(panel_width, len(status) + 10)
    else:
        subtitle = None
        notes.insert(0, status)
    if width is not None and not fits:
        notes.insert(0, f"note: the board is cut off: it needs {panel_width} columns")
        panel_width = width
    panel = Panel(chosen.picture, title=f"[bold]{module.GAME_NAME}[/]", subtitle=subtitle,
                  box=box.ROUNDED, width=panel_width, padding=(0, 1))
    return BoardDrawing(panel, notes, panel_width, fits)


def render_board(board: Any, *, cell_width: int | None = None,
                 width: int | None = None) -> RenderableType:
    """A picture of ``board`` for a rich console, framed with the game's name, the ply
    and the side to move (or the result): the panel of :func:`draw_board`.

    Andantino is drawn in hex layout, one row per ``r``, each row shifted half a cell:
    tiles are ``W``/``R`` (coloured blocks on a colour terminal), the last move is shown
    ``(W)``, the cells of a winning line ``*W*`` and trapped tiles ``[R]``; every legal
    empty cell carries its coordinate ``q,r`` so that it can be typed. Abande is drawn
    as its 37 points, each as ``name:stack`` (see :func:`_abande_layouts`). Games without
    a drawing of their own are shown as ``str(board)``.

    Args:
        board: a board of any game.
        cell_width: characters per cell (6 by default, widened to fit the labels).
        width: the columns available (``None``: no limit); see :func:`draw_board`.
    """
    return draw_board(board, width=width, cell_width=cell_width).panel


def _text_layouts(board: Any, cell_width: int | None) -> list[_Layout]:
    return [_Layout(Text(str(board), no_wrap=True, overflow="crop"), [], [])]


def _key_lines(items: list[str], width: int | None) -> list[str]:
    """The lines that explain the marks of a drawing, ``key: (W) last move   ...``,
    broken between items to fit ``width`` where they can."""
    lines: list[str] = []
    for item in items:
        if lines and (width is None or len(lines[-1]) + 3 + len(item) <= width):
            lines[-1] += "   " + item
        else:
            lines.append(("key: " if not lines else "     ") + item)
    return lines


def _cell_list(cells: Iterable[tuple[int, int]]) -> str:
    return "  ".join(f"{q},{r}" for q, r in sorted(cells, key=lambda c: (c[1], c[0])))


def _andantino_layouts(board: Any, cell_width: int | None) -> list[_Layout]:
    """Andantino with coordinates on the legal cells; then with 4 characters a cell
    (legal cells ``.``, listed under the board); then with 2 (marks listed too)."""
    module = sys.modules[type(board).__module__]
    outcome: Outcome | None = board.outcome()
    last = board.move_stack[-1] if board.move_stack else None
    moves = board.legal_moves
    targets = {move.to for move in moves}
    sources = {move.from_ for move in moves if move.from_ is not None}
    mover = int(board.turn)
    # cell -> (mark, colour): mark is "tile", "last", "line" or "trapped".
    tiles: dict[tuple[int, int], tuple[str, int]] = {}
    for color in (FIRST, SECOND):
        for cell in board.tiles(color):
            mark = "tile"
            if outcome is not None and cell in outcome.line:
                mark = "line"
            elif outcome is not None and cell in outcome.trapped:
                mark = "trapped"
            elif last is not None and cell == last.to:
                mark = "last"
            tiles[cell] = (mark, color)
    vacated = None
    if (last is not None and last.from_ is not None and last.from_ not in targets
            and last.from_ not in tiles):
        vacated = last.from_
    marks = {mark for mark, _ in tiles.values()}

    def tile_cell(cell: tuple[int, int], decorated: bool) -> _Cell:
        mark, color = tiles[cell]
        letter = "WR"[color]
        if mark == "line":
            return _Cell(f"*{letter}*" if decorated else letter, _LINE_STYLE)
        if mark == "trapped":
            return _Cell(f"[{letter}]" if decorated else letter, _TRAPPED_STYLE)
        if mark == "last":
            return _Cell(f"({letter})" if decorated else letter, _LAST_STYLES[color])
        if color == mover and cell in sources:
            return _Cell(letter, _SOURCE_STYLE[color])  # a tile the mover may lift
        return _Cell(letter, _TILE_STYLES[color])

    def letter_of(mark: str) -> str:
        return next("WR"[color] for kind, color in tiles.values() if kind == mark)

    def marked(legal: str, decorated: bool = True, labelled: bool = False) -> list[str]:
        """The key: the marks drawn (undecorated cells are listed in the notes; the cell
        a relocated tile left is drawn only with the labels)."""
        items = []
        if decorated:
            if "last" in marks:
                items.append(f"({letter_of('last')}) last move")
            if vacated is not None and labelled:
                items.append("· the cell it left")
            if "line" in marks:
                items.append(f"*{letter_of('line')}* winning line")
            if "trapped" in marks:
                items.append(f"[{letter_of('trapped')}] trapped")
        if targets:
            items.append(legal)
        return items

    info = []
    if sources:
        example = min(moves, key=lambda m: (m.from_ is None, m.notation())).notation()
        info.append(f"{_tag(module, mover)} moves a tile, from>to (e.g. {example}); it may "
                    f"lift: {_cell_list(sources)}")
    if board.rules.single_adjacency:
        used = "used" if board.single_adjacency_used else "unused"
        info.append(f"{_tag(module, SECOND)}'s single-adjacency placement: {used}")
    if board.rules.extended:
        info.append(f"relocations: {board.relocations} of "
                    f"{board.rules.extended_move_limit} (then the game is drawn)")

    layouts = []
    # Coordinates on the legal cells.
    cells = {cell: tile_cell(cell, True) for cell in tiles}
    for cell in targets:
        cells[cell] = _Cell(f"{cell[0]},{cell[1]}", _LABEL_STYLE)
    if vacated is not None:
        cells[vacated] = _Cell("·", "dim")
    widest = max((len(c.text) for c in cells.values()), default=1)
    width = max(cell_width or 6, widest + 1)
    layouts.append(_Layout(_hex_rows(cells, width + width % 2),
                           marked("q,r legal cell", labelled=True), info))
    # Compact: the legal cells are dots, listed under the board.
    listed = [f"legal cells: {_cell_list(targets)}"] if targets else []
    for width, decorated in ((4, True), (2, False)):
        cells = {cell: tile_cell(cell, decorated) for cell in tiles}
        for cell in targets:
            cells[cell] = _Cell(".", _LABEL_STYLE)
        notes = list(listed)
        if not decorated:
            if last is not None:
                notes.append(f"last move: {last.notation()}")
            if outcome is not None and outcome.line:
                notes.append(f"winning line: {_cell_list(outcome.line)}")
            if outcome is not None and outcome.trapped:
                notes.append(f"trapped: {_cell_list(outcome.trapped)}")
        layouts.append(_Layout(_hex_rows(cells, width, row_labels=True),
                               marked(". legal cell", decorated), notes + info))
    return layouts


def _hex_rows(cells: dict[tuple[int, int], _Cell], width: int, *,
              row_labels: bool = False) -> Text:
    """Lay ``cells`` out in hex rows: cell (q, r) starts at column (2q + r) * width / 2
    (``width`` even), each row labelled ``r=..`` when ``row_labels``."""
    if not cells:
        return Text("")
    xlo = min(2 * q + r for q, r in cells)
    rlo = min(r for _, r in cells)
    rows: list[list[tuple[int, _Cell]]] = [[] for _ in range(max(r for _, r in cells) - rlo + 1)]
    for (q, r), cell in cells.items():
        rows[r - rlo].append(((2 * q + r - xlo) * (width // 2), cell))
    labels = [f"r={r:>3} " for r in range(rlo, rlo + len(rows))] if row_labels else None
    return _lines(rows, width - 1, labels)


def _lines(rows: list[list[tuple[int, _Cell]]], slot: int,
           labels: list[str] | None = None) -> Text:
    """Lines of text from ``(column, cell)`` pairs, each cell centred in ``slot``
    characters from its column (cells of one line must not overlap), each line after
    its label, if any."""
    lines = []
    for index, items in enumerate(rows):
        line = Text(no_wrap=True, overflow="crop")
        if labels is not None:
            line.append(labels[index], style="dim")
        column = 0
        for x, cell in sorted(items, key=lambda item: item[0]):
            line.append(" " * (x - column))
            line.append(cell.text.center(slot), style=cell.style)
            column = x + slot
        lines.append(line)
    return Text("\n", no_wrap=True, overflow="crop").join(lines)


# Abande: stacks on the controller's colour.
_STACK_STYLES = ("bold bright_white on grey23", "bold black on grey82")
_STACK_LAST_STYLES = ("bold bright_white on grey42", "bold black on bright_white")
_SLEEPING_STYLE = "grey50 on grey11"


def _abande_layouts(board: Any, cell_width: int | None) -> list[_Layout]:
    """Abande's 37 points, columns a-g left to right and number 1 at the bottom of each
    column (NOTATION.md). Each point is one word, so no line mixes one point's stack with
    another's name: a stack is ``name:pieces`` (bottom to top, ``c3:BW`` is a
    White-topped stack of two), in lower case while it sleeps (no enemy stack next to
    it: it would score 0); a point a piece may enter shows its name, any other empty
    point ``·``. The last move's stack is in parentheses; the compact layout leaves them
    out and names the last move under the board instead."""
    module = sys.modules[type(board).__module__]
    last = board.move_stack[-1] if board.move_stack else None
    last_cell = None if last is None else last.to
    entries = {m.to for m in board.legal_moves if m.to is not None and m.from_ is None}
    sleeping = board.sleeping()
    stacks = board.stacks()
    radius = module.RADIUS
    points = [(q, r) for q in range(-radius, radius + 1)
              for r in range(-radius, radius + 1) if abs(q + r) <= radius]
    seen: set[str] = set()

    def token(cell: tuple[int, int], parens: bool) -> _Cell:
        name = module.cell_name(cell)
        pieces = stacks.get(cell, ())
        if not pieces:
            if cell in entries:
                seen.add("entry")
                return _Cell(name, _LABEL_STYLE)
            seen.add("empty")
            return _Cell("·", _EMPTY_STYLE)
        top = int(pieces[-1])
        letters = "".join("BW"[int(p)] for p in pieces)
        style = _STACK_STYLES[top]
        if cell in sleeping:
            seen.add("sleeping")
            letters, style = letters.lower(), _SLEEPING_STYLE
        text = f"{name}:{letters}"
        if cell == last_cell:
            style = _STACK_LAST_STYLES[top] if cell not in sleeping else style
            if parens:
                seen.add("last")
                text = f"({text})"
        return _Cell(text, style)

    layouts = []
    for parens in (True, False):
        seen.clear()
        cells = {cell: token(cell, parens) for cell in points}
        width = max(max(len(c.text) for c in cells.values()), cell_width or 6)
        step = width // 2 + 1  # points of one line (every other column) stay apart
        rows: list[list[tuple[int, _Cell]]] = [[] for _ in range(4 * radius + 1)]
        for (q, r), cell in cells.items():
            rows[2 * r + q + 2 * radius].append(((q + radius) * step, cell))
        items = []
        if stacks:
            items.append("c3:BW stack, bottom to top")
        if "sleeping" in seen:
            items.append("c3:bw sleeping (scores 0)")
        if "last" in seen:
            items.append("(c3:B) last move")
        if "entry" in seen:
            items.append("c3 you may enter")
        if "empty" in seen:
            items.append("· empty")
        notes = []
        if last is not None and (not parens or last.to is None):
            notes.append(f"last move: {last.notation()}")
        layouts.append(_Layout(_lines(rows, width), items, notes))
    return layouts


_LAYOUTS: dict[str, Callable[[Any, int | None], list[_Layout]]] = {
    "hexgames.andantino": _andantino_layouts,
    "hexgames.abande": _abande_layouts,
}

#: How moves are typed, by game module, for ``help`` at the prompt.
_MOVE_SYNTAX: dict[str, Callable[[Any], str]] = {
    "hexgames.andantino": lambda board: (
        "Type a move as the cell to place a tile on, q,r (e.g. 0,1 or -1,2): the cells\n"
        "labelled with their coordinates are the legal ones."
        + ("\nIn extended play, once your hand is empty, move one of your tiles with\n"
           "from>to (e.g. 2,-1>0,3): lift the tile on from, put it on the empty cell to."
           if board.rules.extended else "")),
    "hexgames.abande": lambda board: (
        "Type a move as one of (columns a-g from left to right, numbers from 1 at the\n"
        "bottom of each column):\n"
        "  d4      enter a piece from your hand on the empty point d4\n"
        "  c3-d4   move your stack on c3 onto the enemy stack on d4\n"
        "  pass    pass (only when your hand is empty)"),
}


def _move_syntax(board: Any) -> str:
    """How to type a move of ``board``'s game, with a legal move as an example."""
    describe = _MOVE_SYNTAX.get(type(board).__module__)
    example = min((m.notation() for m in board.legal_moves), default=None)
    text = describe(board) if describe is not None else "Type a move in the game's notation."
    return text + (f"\nA legal move now: {example}" if example is not None else "")


class InputError(click.ClickException):
    """A file that cannot be read or written (exit status 2, as all bad input)."""

    exit_code = 2


# --- the command group ----------------------------------------------------------------


class _HexgamesGroup(click.Group):
    """A click group that reports every bad input as one line ``error: <message>`` with
    exit status 2 (click's usage errors included), never with a traceback."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            click.echo(error.ctx.get_help())
            code = 0
        except click.ClickException as error:
            message = error.format_message()
            if isinstance(error, click.UsageError) and error.ctx is not None:
                message += f" (see '{error.ctx.command_path} --help')"
            click.echo(f"error: {message}", err=True)
            code = error.exit_code
        except HexgamesError as error:
            click.echo(f"error: {error}", err=True)
            code = 2
        except ModuleNotFoundError as error:
            # A game of GAME_NAMES whose module is not written yet, met inside the library
            # (a record naming it, say).
            if error.name not in {f"hexgames.{game}" for game in GAME_NAMES}:
                raise
            game = error.name.removeprefix("hexgames.")
            click.echo(f"error: game {game} is not available in this version of hexgames",
                       err=True)
            code = 2
        except click.Abort:
            click.echo("error: aborted", err=True)
            code = 130
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=_HexgamesGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="hexgames")
def cli() -> None:
    """Andantino and Abande: play, count perft, check game records, measure speed.

    GAME is one of: andantino, abande.
    """


def main() -> None:
    """The console script ``hexgames``."""
    cli.main(prog_name="hexgames")


_rules_option = click.option(
    "--rules", "rules_words", multiple=True, metavar="KEY=VALUE",
    help="A rules option such as single_adjacency=on (repeatable).")


class _BadValue(click.BadParameter):
    """A bad option or argument value, reported with the parameter's name first:
    ``--games must be at least 1, not 0``, ``DEPTH must be a whole number, not 'x'``."""

    def format_message(self) -> str:
        param = self.param
        if param is None:
            return self.message
        if isinstance(param, click.Argument):
            name = param.human_readable_name
        else:
            name = max(param.opts, key=len)
        return f"{name} {self.message}"


class WholeNumberType(click.ParamType[int]):
    """A whole number, optionally within ``min`` .. ``max``; ``why`` explains the
    maximum in the error message."""

    name = "integer"

    def __init__(self, min: int | None = None, max: int | None = None, why: str = "") -> None:
        self.min = min
        self.max = max
        self.why = why

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                raise _BadValue(f"must be a whole number, not {_shorten(text)!r}", ctx, param)
            digits = len(text.lstrip("+-"))
            if digits > 100:  # int() refuses thousands of digits; no count is that big
                negative = text.startswith("-")
                if negative and self.min is not None:
                    self._below(text, param, ctx)
                if not negative and self.max is not None:
                    self._above(text, param, ctx)
                raise _BadValue(f"must have at most 100 digits, not {digits}", ctx, param)
            number = int(text)
        if self.min is not None and number < self.min:
            self._below(str(number), param, ctx)
        if self.max is not None and number > self.max:
            self._above(str(number), param, ctx)
        return number

    def _below(self, text: str, param: click.Parameter | None,
               ctx: click.Context | None) -> NoReturn:
        raise _BadValue(f"must be at least {self.min}, not {_shorten(text)}", ctx, param)

    def _above(self, text: str, param: click.Parameter | None,
               ctx: click.Context | None) -> NoReturn:
        raise _BadValue(f"must be at most {self.max}{self.why}, not {_shorten(text)}",
                        ctx, param)


class SecondsType(click.ParamType[float]):
    """A time in seconds: a finite number above 0 (NaN, infinity and 1e400 would make a
    command run for ever)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        text = str(value).strip()
        try:
            seconds = float(value)
        except ValueError:
            raise _BadValue(f"must be a number of seconds, not {_shorten(text)!r}",
                            ctx, param) from None
        if not math.isfinite(seconds) or seconds <= 0:
            raise _BadValue(f"must be a number of seconds above 0 (and finite), not "
                            f"{_shorten(text)}", ctx, param)
        return seconds


# --- play -----------------------------------------------------------------------------

#: The players of ``play`` that are not player specs of :mod:`hexgames.engine.players`.
PLAYER_KINDS = ("human", "random")
_PLAYER_NAMES = {"human": "Human", "random": "hexgames random"}


def _player_label(kind: str) -> str:
    """The record tag of a player: ``Human``, ``hexgames random``, ``hexgames hard``."""
    return _PLAYER_NAMES.get(kind, f"hexgames {kind}")


class PlayerSpecType(click.ParamType[str]):
    """A player spec (``random``, ``hard``, ``mcts:time=2``...), checked against the
    registry of :mod:`hexgames.engine.players`; with ``human=True`` also ``human``."""

    name = "player"

    def __init__(self, *, human: bool = False) -> None:
        self.human = human

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value).strip()
        if self.human and text.lower() in PLAYER_KINDS:
            return text.lower()
        from hexgames.engine.players import check_spec

        try:
            parsed = check_spec(text)
        except HexgamesError as error:
            self.fail(str(error), param, ctx)
        return text.lower() if parsed.text.lower() in PLAYER_KINDS else text


class SavePathType(click.ParamType[str]):
    """A file to write a game record to when the game ends, checked before the game
    starts so that a game is never played for nothing: not empty, not a directory, in
    a directory that exists and may be written to."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value)
        if not text.strip():
            raise _BadValue("needs a file name, not an empty one", ctx, param)
        path = Path(text)
        folder = path.absolute().parent
        if path.is_dir():
            problem = f"{text} is a directory"
        elif not folder.is_dir():
            problem = f"there is no directory {folder}"
        elif path.exists() and not os.access(path, os.W_OK):
            problem = f"{text} may not be written"
        elif not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
            problem = f"the directory {folder} may not be written"
        else:
            return text
        raise _BadValue(f"cannot be written to: {problem}", ctx, param)


def _levels_epilog() -> str:
    """The levels and their presets, for the end of a command's help."""
    from hexgames.engine.players import describe_levels

    return "\b\nLevels:\n" + "\n".join(f"  {line}" for line in describe_levels())


def _spec_help(what: str) -> str:
    from hexgames.engine.players import LEVEL_NAMES, PLAYER_NAMES

    return (f"{what}: a player ({', '.join(PLAYER_NAMES)}) or a level "
            f"({', '.join(LEVEL_NAMES)}), with options as NAME:key=value,... "
            "(e.g. mcts:time=2, alphabeta:depth=4,tt_mb=16).")

_HELP = """\
Or type one of:
  moves   list the legal moves
  undo    take back your last move (and the computer's reply)
  board   draw the board again
  resign  give up the game
  quit    stop here (the game stays unfinished); end of input does the same
  help    this text"""

_GAME_OVER_PROMPT = "game over — type undo to take back the last move, or press Enter to quit"

#: Characters of a player's input quoted back in a message.
_SHOWN = 60


def _shorten(text: str, limit: int = _SHOWN) -> str:
    """``text`` cut to ``limit`` characters, the cut marked by an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _shorten_in(message: str, text: str) -> str:
    """``message`` with a long ``text`` (quoted or not), and any other word over 60
    characters, shortened: for messages that repeat what a user typed."""
    if len(text) > _SHOWN:
        message = message.replace(repr(text), repr(_shorten(text)))
        message = message.replace(text, _shorten(text))
    # A word is a run without spaces, quotes, brackets or an ellipsis (a word already cut).
    return re.sub(rf"[^\s'\"()\[\]{{}}…]{{{_SHOWN + 1},}}", lambda m: _shorten(m.group()),
                  message)


def random_move(board: Any, rng: random.Random) -> Any:
    """The ``random`` player: a uniformly random legal move, ``rng.choice`` over the
    legal moves in the board's order."""
    return rng.choice(list(board.legal_moves))


def _player_options() -> dict[str, list[str]]:
    """Player option names (``white``, ``red``, ``black``) and the games that use them,
    from the ``PLAYER_TAGS`` of every game module that imports."""
    names: dict[str, list[str]] = {}
    for game in GAME_NAMES:
        try:
            module = game_module(game)
        except Exception:  # a game that does not import is reported when it is used
            continue
        for tag in module.PLAYER_TAGS:
            names.setdefault(tag.lower(), []).append(module.GAME_NAME)
    return names


def _game_over_lines(module: ModuleType, board: Any) -> list[str]:
    """What the end of a game scored by points needs besides the result: the sleeping
    stacks (they score 0) and each side's score. Empty for other games."""
    sleeping = getattr(board, "sleeping", None)
    score = _score(board)
    if not callable(sleeping) or score is None:
        return []
    names = sorted(module.cell_name(cell) for cell in sleeping())
    return [f"  sleeping (score 0): {', '.join(names) if names else 'none'}",
            f"  score: {_tag(module, FIRST)} {score[0]}, {_tag(module, SECOND)} {score[1]}"]


@dataclass
class _PlaySession:
    """One game at the terminal: the board, who plays each side and what to say."""

    module: ModuleType
    board: Any
    kinds: tuple[str, str]
    rng: random.Random
    console: Console
    interactive: bool
    pending: list[str] = field(default_factory=list)
    movers: list[str] = field(default_factory=list)  # the kind that made each ply
    resigned: int | None = None
    interrupted: bool = False  # stopped by Ctrl-C: the command exits with status 130

    ai: dict[int, Any] = field(default_factory=dict)  # colour -> Player of a spec

    def name(self, color: int) -> str:
        kind = self.kinds[color]
        return f"{_tag(self.module, color)} ({kind})"

    def say(self, message: str, style: str = "") -> None:
        """Print ``message`` as it is (no markup), on one line however long."""
        self.console.print(Text(message, style=style), soft_wrap=True)

    def show(self) -> None:
        """Draw the board, the players, and what happened since the last drawing."""
        if self.interactive:
            self.console.clear()
        drawing = draw_board(self.board, width=self.console.width)
        self.console.print(drawing.panel)
        for note in drawing.notes:
            self.console.print(note, markup=False, highlight=False)
        self.console.print(self._status())
        options = self.board.rules.options()
        if options:
            self.console.print(f"   rules: {' '.join(options)}", style="dim", markup=False)
        for message in self.pending:
            self.console.print(message)
        self.pending.clear()

    def _status(self) -> Table:
        hands = _hands(self.board)
        score = _score(self.board)
        grid = Table.grid(padding=(0, 2))
        for color in (FIRST, SECOND):
            marker = "▶" if (self.board.outcome() is None
                             and int(self.board.turn) == color) else " "
            cells = [marker, f"[bold]{_tag(self.module, color)}[/]",
                     escape(_player_label(self.kinds[color]))]
            if hands is not None:
                hand = hands[color]
                cells.append("unlimited" if hand is None else f"{hand} in hand")
            if score is not None:
                cells.append(f"score {score[color]}")
            grid.add_row(*cells)
        return grid

    def play(self) -> None:
        """Run the game until it ends, a human resigns or quits, or input ends. When a
        human plays, the end of the game offers to take the last move back."""
        try:
            self.show()
            while True:
                if not self.board.is_game_over():
                    if not self._turn():
                        return
                    continue
                self.console.print(f"[bold]Game over:[/] {self.board.result()} "
                                   f"{_describe_outcome(self.module, self.board.outcome())}")
                for line in _game_over_lines(self.module, self.board):
                    self.say(line)
                # The offer to take a move back needs a human move to take back: not
                # in a game between computers, nor one that began over.
                if "human" not in self.movers or not self._after_the_end():
                    return
        except KeyboardInterrupt:
            self.console.print()
            self.console.print("Interrupted: the game stops here.")
            self.interrupted = True

    def _turn(self) -> bool:
        """Let the side to move play; False when the game stops here."""
        color = int(self.board.turn)
        if self.kinds[color] == "random":
            self._push(random_move(self.board, self.rng), "random")
            self.show()
            return True
        if color in self.ai:
            if not self._ai_turn(color):
                return False
            self.show()
            return True
        return self._human_turn()

    def _ai_turn(self, color: int) -> bool:
        """Let the AI of ``color`` move; False when interrupted (the game stops)."""
        player = self.ai[color]
        start = time.perf_counter()
        try:
            if self.interactive:
                with self.console.status(f"{self.name(color)} is thinking..."):
                    chosen = player.play(self.board)
            else:
                chosen = player.play(self.board)
        except KeyboardInterrupt:
            self.console.print()
            self.console.print("Interrupted: the game stops here, unfinished.")
            self.interrupted = True
            return False
        elapsed = time.perf_counter() - start
        note = describe_info(chosen.info, _tag(self.module, color))
        note = f"{note}, {elapsed:.2f} s" if note else f"{elapsed:.2f} s"
        self._push(chosen.move, self.kinds[color], note)
        return True

    def _push(self, move: Any, kind: str, note: str | None = None) -> None:
        color = int(self.board.turn)
        self.board.push(move)
        self.movers.append(kind)
        message = f"{self.board.ply()}. {self.name(color)} plays [bold]{move.notation()}[/]"
        if note:
            message += f" ({note})"
        if self.interactive:
            self.pending.append(message)
        else:
            self.console.print(message)

    def _read(self, prompt: str) -> str | None:
        """A line typed at ``prompt``; ``None`` at the end of input. Ctrl-C propagates."""
        try:
            self.console.file.flush()
            line = input(prompt)
        except EOFError:
            self.console.print()
            return None
        if not sys.stdin.isatty():
            # Piped input is not echoed by a terminal: show it, for a readable log.
            self.say(_shorten(line))
        return line

    def _human_turn(self) -> bool:
        """Read commands until the side to move makes a move (True) or the game stops
        here (False). An undo returns True too: the caller asks whoever is to move now."""
        color = int(self.board.turn)
        # Plain text, handed to input() itself, so that readline can redraw the line.
        prompt = f"{_tag(self.module, color)} move (or help)> "
        while True:
            try:
                line = self._read(prompt)
            except KeyboardInterrupt:
                self.console.print()
                self.console.print("Interrupted: the game stops here, unfinished.")
                self.interrupted = True
                return False
            if line is None:
                self.console.print("End of input: the game stops here, unfinished.")
                return False
            text = line.strip()
            command = text.lower()
            if not text:
                continue
            if command in ("quit", "exit"):
                self.console.print("The game stops here, unfinished.")
                return False
            if command == "resign":
                self.resigned = color
                self.console.print(f"{_tag(self.module, color)} resigns: "
                                   f"{_tag(self.module, 1 - color)} wins.")
                return False
            if command in ("help", "?"):
                self.say(_move_syntax(self.board))
                self.say(_HELP)
            elif command == "moves":
                notations = sorted(m.notation() for m in self.board.legal_moves)
                self.console.print(f"{len(notations)} legal moves:")
                self.console.print(Columns(notations, padding=(0, 2)))
            elif command == "board":
                self.show()
            elif command == "undo":
                if self._undo():
                    self.show()
                    return True  # the side to move has changed
            else:
                try:
                    move = self.board.parse_notation(text)
                except InvalidMoveError as error:
                    self.say(_shorten_in(str(error), text) + " (type help for the commands)",
                             "red")
                    continue
                except HexgamesError as error:
                    self.say(_shorten_in(str(error), text), "red")
                    continue
                self._push(move, "human")
                nxt = int(self.board.turn)
                if self.board.is_game_over() or self.kinds[nxt] == "human":
                    self.show()
                return True

    def _after_the_end(self) -> bool:
        """The prompt after the end of a game a human played: True when a move was taken
        back (play goes on), False to finish."""
        self.say(_GAME_OVER_PROMPT)
        while True:
            line = self._read("> ")
            if line is None:
                return False
            command = line.strip().lower()
            if command in ("", "quit", "exit"):
                return False
            if command == "undo":
                if self._undo():
                    self.show()
                    return True
            elif command == "board":
                self.show()
                self.say(_GAME_OVER_PROMPT)
            else:
                self.say(f"the game is over: {_GAME_OVER_PROMPT.partition('— ')[2]}", "red")

    def _undo(self) -> bool:
        """Take back plies up to and including the last human move."""
        if "human" not in self.movers:
            self.console.print("[red]nothing to undo[/]")
            return False
        taken = []
        while True:
            kind = self.movers.pop()
            taken.append(self.board.pop().notation())
            if kind == "human":
                break
        for player in self.ai.values():
            player.new_game()  # a kept search tree would not know of the take-back
        self.pending.append(f"Took back {' and '.join(reversed(taken))}.")
        if not self.interactive:
            self.console.print(self.pending.pop())
        return True

    def game_record(self) -> Any:
        """The game as a record (``hexgames.record.GameRecord``)."""
        record = _record_module()
        tags = {_tag(self.module, c): _player_label(self.kinds[c]) for c in (FIRST, SECOND)}
        if self.resigned is not None:
            result = "0-1" if self.resigned == FIRST else "1-0"
            return record.record_from_board(self.board, tags=tags, result=result,
                                            termination=Termination.RESIGNATION)
        return record.record_from_board(self.board, tags=tags)


def _play_command(func: Callable[..., None]) -> click.Command:
    """Add a ``--<player>`` option for every player tag of every game."""
    for tag, games in reversed(_player_options().items()):
        func = click.option(
            f"--{tag}", f"player_{tag}", type=PlayerSpecType(human=True),
            help=f"Who plays {tag.title()} in {' and '.join(games)}: human, or a player "
            "spec as for --first.")(func)
    return cli.command("play", epilog=_levels_epilog())(func)


@_play_command
@click.argument("game", default="andantino", required=False)
@_rules_option
@click.option("--position", help="Start from this position string instead of the start.")
@click.option("--first", type=PlayerSpecType(human=True),
              help="Who moves first (default: human). " + _spec_help("Or the computer"))
@click.option("--second", type=PlayerSpecType(human=True),
              help="Who moves second (default: random).")
@click.option("--time", "seconds", type=SecondsType(),
              help="Seconds a move for a computer player whose spec sets no limit.")
@click.option("--seed", type=WholeNumberType(), help="Seed of the computer players.")
@click.option("--save", type=SavePathType(),
              help="Write the game record (.hgn) here when the game ends (checked at once).")
def play(game: str, rules_words: tuple[str, ...], position: str | None, first: str | None,
         second: str | None, seconds: float | None, seed: int | None, save: str | None,
         **player_options: str | None) -> None:
    """Play GAME (default andantino) in the terminal, against the computer or a person.

    By default you move first and a random player replies; name the players with
    --white/--red (Andantino), --black/--white (Abande) or --first/--second, each
    human or a computer player: `--red hard`, `--white mcts:time=2`. The computer's
    moves show its winning chance, evaluation and time.

    When a person plays, the end of the game offers to take the last move back. Ctrl-C
    stops the game (exit status 130), after writing --save.
    """
    module = load_game(game)
    kinds = _choose_players(module, first, second, player_options)
    rules = parse_rules(module, rules_words)
    board = new_board(module, rules, position)
    console = _console()
    interactive = sys.stdin.isatty() and console.is_terminal
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history at the prompt
    ai = _make_ai(kinds, seed, None if seconds is None else _limit(seconds, None, None))
    session = _PlaySession(module, board, kinds, random.Random(seed), console, interactive,
                           ai=ai)
    session.play()
    if save is not None:
        text = _record_module().write_game(session.game_record())
        try:
            Path(save).write_text(text, encoding="utf-8")
        except OSError as error:
            raise InputError(f"cannot write {save}: {error.strerror}") from None
        console.print(f"Saved the game record to {save}", markup=False, soft_wrap=True)
    if session.interrupted:
        click.get_current_context().exit(130)


def _choose_players(module: ModuleType, first: str | None, second: str | None,
                    options: dict[str, str | None]) -> tuple[str, str]:
    """The kind of player for each side, from --first/--second and --<tag> options."""
    chosen: list[str | None] = [first, second]
    tags = [t.lower() for t in module.PLAYER_TAGS]
    for key, value in options.items():
        if value is None:
            continue
        tag = key.removeprefix("player_")
        if tag not in tags:
            raise click.UsageError(
                f"--{tag} is not a player of {module.GAME_NAME}; its players are "
                f"--{tags[0]} and --{tags[1]} (or --first and --second)")
        color = tags.index(tag)
        if chosen[color] is not None and chosen[color] != value:
            raise click.UsageError(
                f"--{tag} and --{('first', 'second')[color]} name the same player")
        chosen[color] = value
    return (chosen[0] or "human", chosen[1] or "random")


def _make_ai(kinds: tuple[str, str], seed: int | None, limit: Any) -> dict[int, Any]:
    """The engine players of the sides that are neither human nor the plain random
    player, seeded from ``seed`` by colour."""
    from hexgames.arena import derive_seed
    from hexgames.engine.players import make_player

    ai = {}
    for color, kind in enumerate(kinds):
        if kind not in PLAYER_KINDS:
            player_seed = None if seed is None else derive_seed(seed, "play", color)
            ai[color] = make_player(kind, player_seed, limit=limit)
    return ai


def _limit(seconds: float | None, nodes: int | None, depth: int | None) -> Any:
    """A search limit from command-line options, or ``None`` when none is given."""
    if seconds is None and nodes is None and depth is None:
        return None
    from hexgames.engine.base import Limit

    return Limit(time=seconds, nodes=nodes, depth=depth)


def _eval_text(value: float) -> str:
    """An evaluation with its sign: ``+84`` for a whole number, else ``+0.25``."""
    return f"{int(value):+d}" if float(value).is_integer() else f"{value:+.2f}"


def describe_info(info: Any, mover: str) -> str:
    """What a search found, for the side that moved: ``63% for Red, eval +1.25, depth 6``
    or ``Red wins in 3 plies``; empty when the search reports nothing."""
    parts = []
    if info.mate is not None:
        verb = "wins" if info.mate > 0 else "loses"
        plies = abs(info.mate)
        parts.append(f"{mover} {verb} in {plies} pl{'y' if plies == 1 else 'ies'}")
    elif info.score is not None:
        parts.append(f"{info.score:.0%} for {mover}")
    if info.eval is not None and info.mate is None:
        parts.append(f"eval {_eval_text(info.eval)}")
    if info.depth:
        parts.append(f"depth {info.depth}")
    return ", ".join(parts)


def _record_module() -> ModuleType:
    """``hexgames.record``, imported when a command needs game records."""
    return importlib.import_module("hexgames.record")


# --- perft ----------------------------------------------------------------------------


#: The deepest perft the command counts: the counts grow about fivefold a ply, so
#: deeper ones would not finish.
MAX_PERFT_DEPTH = 12


# ignore_unknown_options: "-1" is then a DEPTH to refuse, not an unknown option.
@cli.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("depth", type=WholeNumberType(
    min=1, max=MAX_PERFT_DEPTH, why=" (deeper counts would not finish)"))
@_rules_option
@click.option("--position", help="Count from this position string instead of the start.")
@click.option("--divide", is_flag=True,
              help="Split the count at DEPTH by the first move.")
def perft_command(game: str, depth: int, rules_words: tuple[str, ...], position: str | None,
                  divide: bool) -> None:
    """Count the positions 1..DEPTH plies ahead (one line "depth count" per depth);
    DEPTH is 1 to 12.

    A finished game is not expanded further. With --divide, print instead one line
    "move count" per legal move for DEPTH, then "total count".
    """
    from hexgames import perft as perft_module

    module = load_game(game)
    board = new_board(module, parse_rules(module, rules_words), position)
    if divide:
        counts = perft_module.divide(board, depth)
        for notation, count in counts:
            click.echo(f"{notation} {count}")
        click.echo(f"total {sum(count for _, count in counts)}")
        return
    for d in range(1, depth + 1):
        click.echo(f"{d} {perft_module.perft(board, d)}")


# --- replay ---------------------------------------------------------------------------


def _read_text(path: str) -> str:
    """The UTF-8 text of ``path`` (``-`` for standard input)."""
    if not path.strip():
        raise InputError("a record file name cannot be empty (- reads standard input)")
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{path} is not UTF-8 text (byte {error.start})") from None


def _check_game(game: Any) -> dict[str, Any]:
    """The report on one record: tags, plies (of the main line), result, termination,
    valid, error, variations (how many lines branch off another) and comments (how many
    places hold one)."""
    nodes = list(game.nodes())
    report: dict[str, Any] = {
        "game_index": game.game_index,
        "tags": dict(game.tags),
        "plies": len(game.moves),
        "result": game.result,
        "termination": game.tags.get("Termination"),
        "valid": True,
        "error": None,
        "variations": sum(node.starts_variation() for node in nodes),
        "comments": (game.root.comment is not None)
        + sum((node.comment is not None) + (node.starting_comment is not None)
              for node in nodes),
    }
    syntax_error = _record_module().RecordSyntaxError
    try:
        game.validate()
        if report["termination"] is None:
            outcome = game.board().outcome()
            if outcome is not None:
                report["termination"] = outcome.termination.value
    except syntax_error:
        raise  # unreadable input, not a wrong game: exit status 2
    except HexgamesError as error:
        report["valid"] = False
        report["error"] = str(error)
    return report


@cli.command("replay")
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game and line.")
def replay(file: str, as_json: bool) -> None:
    """Check every game of a .hgn record FILE (- for standard input).

    Every move is checked, in the main line and in every variation. Prints each game's
    tags, plies (of the main line), result, termination, and how many variations and
    comments it holds. Exit status 1 if a game has an illegal move or a wrong result, 2
    if FILE cannot be read as game records or holds none.
    """
    record = _record_module()
    games = record.parse_games(_read_text(file))
    if not games:
        raise InputError(f"{'standard input' if file == '-' else file} contains no games")
    reports = [_check_game(game) for game in games]
    if as_json:
        for report in reports:
            click.echo(json.dumps(report, ensure_ascii=False))
    else:
        console = _console()
        for number, report in enumerate(reports, 1):
            _print_report(console, number, report)
        bad = sum(not r["valid"] for r in reports)
        console.print(Text.assemble(f"{len(reports)} game(s), ",
                                    (f"{bad} invalid", "red") if bad
                                    else ("all valid", "green")), soft_wrap=True)
    if any(not r["valid"] for r in reports):
        click.get_current_context().exit(1)


def _print_report(console: Console, number: int, report: dict[str, Any]) -> None:
    """A game's report, each line one line however narrow the terminal (soft_wrap: the
    terminal folds it, rich does not break it) and printed as it is (no markup)."""
    if report["valid"]:
        verdict = ("ok", "green")
    else:
        verdict = (f"invalid: {_shorten_in(report['error'], '')}", "red")
    console.print(Text.assemble((f"Game {number}", "bold"), " ", verdict), soft_wrap=True)
    for key, value in report["tags"].items():
        console.print(f"  [{key} {json.dumps(value, ensure_ascii=False)}]", markup=False,
                      soft_wrap=True)
    termination = report["termination"] or "-"
    console.print(f"  plies {report['plies']}, result {report['result']}, "
                  f"termination {termination}, variations {report['variations']}, "
                  f"comments {report['comments']}", markup=False, soft_wrap=True)


# --- render ---------------------------------------------------------------------------


@cli.command("render")
@click.argument("file")
@click.option("--game-index", "--index", "index", type=WholeNumberType(min=1), default=1,
              show_default=True, help="Which game of the file.")
@click.option("--ply", type=WholeNumberType(min=0),
              help="The position after this many plies (default: the end of the record).")
@click.option("--output", "-o", metavar="FILE", help="Write the SVG here (default: stdout).")
@click.option("--size", type=WholeNumberType(min=16), default=400, show_default=True,
              help="The longer side of the picture, in pixels.")
@click.option("--flipped", is_flag=True, help="Turn the board by 180 degrees.")
@click.option("--no-coordinates", is_flag=True, help="Leave the cell names out.")
@click.option("--legal", is_flag=True, help="Mark the cells a legal move can go to.")
def render(file: str, index: int, ply: int | None, output: str | None, size: int,
           flipped: bool, no_coordinates: bool, legal: bool) -> None:
    """Draw a position of a .hgn record FILE (- for standard input) as an SVG picture.

    The position is the one after --ply plies of game --game-index, with the last move
    marked and, at the end of a game, the winning line, the trapped tiles or the
    sleeping stacks and the score shown.
    """
    from hexgames import svg

    if output is not None and not output.strip():
        raise InputError("--output needs a file name, not an empty one")
    games = _record_module().parse_games(_read_text(file))
    if not games:
        raise InputError(f"{'standard input' if file == '-' else file} contains no games")
    if index > len(games):
        raise InputError(f"{file} holds {_plural(len(games), 'game')}, not a game {index}")
    board = games[index - 1].board(ply)
    picture = svg.board(board, size=size, coordinates=not no_coordinates, flipped=flipped,
                        legal=legal) + "\n"
    if output is None:
        click.echo(picture, nl=False)
        return
    try:
        Path(output).write_text(picture, encoding="utf-8")
    except OSError as error:
        raise InputError(f"cannot write {output}: {error.strerror or error}") from None


# --- bench ----------------------------------------------------------------------------


@cli.command("bench")
@click.argument("game")
@click.option("--seconds", type=SecondsType(), default=5.0, show_default=True,
              help="About how long to play.")
@click.option("--seed", type=WholeNumberType(), default=None, help="Seed of the random moves.")
@_rules_option
def bench(game: str, seconds: float, seed: int | None, rules_words: tuple[str, ...]) -> None:
    """Play uniformly random games of GAME for about --seconds and report the speed."""
    from hexgames.bench import random_playouts

    module = load_game(game)
    rules = parse_rules(module, rules_words)
    console = _console()
    with console.status(f"Playing random {module.GAME_NAME} games for {seconds:g} s..."):
        result = random_playouts(game, seconds, seed, rules)
    console.print(f"[bold]{module.GAME_NAME}[/]: {result.playouts:,} random playouts, "
                  f"{result.plies:,} plies in {result.seconds:.2f} s")
    console.print(f"  {result.playouts_per_second:,.0f} playouts/s, "
                  f"{result.plies_per_second:,.0f} plies/s, "
                  f"{result.plies_per_playout:.1f} plies per playout")
    n = result.playouts
    console.print(f"  {_tag(module, FIRST)} wins {result.wins[0] / n:.1%}, "
                  f"{_tag(module, SECOND)} wins {result.wins[1] / n:.1%}, "
                  f"draws {result.draws / n:.1%}")
    shares = ", ".join(f"{t.value} {count / n:.1%}"
                       for t, count in result.terminations.most_common())
    console.print(f"  terminations: {shares}")


# --- match ----------------------------------------------------------------------------


class _MatchProgress:
    """A rich progress bar on standard error, with A's wins, draws and losses so far."""

    def __init__(self, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.results: list[Any] = []
        self.progress = Progress(
            TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
            TextColumn("A +{task.fields[wins]} ={task.fields[draws]} -{task.fields[losses]}"),
            TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
            console=Console(stderr=True, highlight=False))
        self.task = self.progress.add_task("match", total=total, wins=0, draws=0, losses=0)

    def __call__(self, result: Any, done: int, total: int) -> None:
        self.results.append(result)
        winners = [r.winner for r in self.results]
        self.progress.update(self.task, completed=done, wins=winners.count(0),
                             draws=winners.count(None), losses=winners.count(1))


def _prepare_out(out: str) -> Path:
    if not out.strip():  # Path("") is the current directory
        raise InputError("--out needs a directory name, not an empty one")
    path = Path(out)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot create --out directory {out}: "
                         f"{error.strerror or error}") from None
    return path


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _wdl_text(row: dict[str, Any]) -> str:
    if not row["games"]:
        return "no games"
    losses = row["losses"]
    return (f"{_plural(row['wins'], 'win')}, {_plural(row['draws'], 'draw')}, "
            f"{losses} loss{'' if losses == 1 else 'es'} ({row['score']:.1%})")


def print_match(console: Console, match: Any, paths: tuple[Path, Path] | None = None) -> None:
    """The summary of a :class:`hexgames.arena.MatchResult` on ``console``."""
    from hexgames.arena import format_elo

    module = game_module(match.game)
    a, b = match.players
    console.print(f"[bold]{module.GAME_NAME}[/]: A = {escape(a)}, B = {escape(b)}; "
                  f"{_plural(len(match.results), 'game')}"
                  + ("" if match.complete else f" of {match.games}")
                  + f", seed {match.seed}", markup=True, highlight=False)
    if not match.results:
        return
    row = {"games": len(match.results), "wins": match.wins, "draws": match.draws,
           "losses": match.losses, "score": match.score}
    console.print(f"  A: {_wdl_text(row)}")
    elo = match.elo()
    line = f"  Elo A - B: {format_elo(elo)}"
    pairs = match.elo_pairs()
    if pairs is not None:
        line += f"; by colour-swapped pairs {format_elo(pairs)}"
    console.print(line)
    colours = match.by_colour()
    console.print("  " + "; ".join(f"A as {tag}: {_wdl_text(row)}"
                                   for tag, row in colours.items()))
    first = match.first_player()
    console.print(f"  {_tag(module, FIRST)} (first player) scored {first['score']:.1%}")
    series = match.series()
    if series is not None:
        console.print(f"  Series score: A {series[0]}, B {series[1]}")
    console.print("  Terminations: " + ", ".join(
        f"{name} {count}" for name, count in match.terminations().items()))
    if match.games % 2:
        console.print("  note: an odd number of games is not colour-balanced "
                      "(the last game had A moving first)", style="yellow")
    if paths is not None:
        console.print(f"  Games: {paths[0]}", markup=False, highlight=False, soft_wrap=True)
        console.print(f"  Summary: {paths[1]}", markup=False, highlight=False,
                      soft_wrap=True)


@cli.command("match", epilog=_levels_epilog())
@click.argument("game")
@click.option("--player", "-p", "players", multiple=True, type=PlayerSpecType(),
              metavar="PLAYER", help=_spec_help("A player; give exactly two (A, then B)"))
@click.option("--games", "-n", type=WholeNumberType(min=1), default=2, show_default=True,
              help="Games to play, in colour-swapped pairs (give an even number).")
@click.option("--time", "seconds", type=SecondsType(),
              help="Seconds a move, for players whose spec sets no limit.")
@click.option("--nodes", type=WholeNumberType(min=1),
              help="Nodes (or simulations) a move, for players whose spec sets no limit.")
@click.option("--depth", type=WholeNumberType(min=1),
              help="Plies of search a move, for players whose spec sets no limit.")
@_rules_option
@click.option("--position", help="Start every game from this position string.")
@click.option("--opening-plies", type=WholeNumberType(min=0), default=0, show_default=True,
              help="Random plies that open each pair of games (the same for both games "
                   "of a pair), so players that search by depth or nodes get varied games.")
@click.option("--jobs", "-j", type=WholeNumberType(min=1), default=1, show_default=True,
              help="Games played in parallel, each in its own process.")
@click.option("--seed", type=WholeNumberType(),
              help="Match seed (default: random; it is printed).")
@click.option("--out", type=click.Path(file_okay=False),
              help="Directory for games.hgn (every game) and summary.json.")
def match_command(game: str, players: tuple[str, ...], games: int, seconds: float | None,
                  nodes: int | None, depth: int | None, rules_words: tuple[str, ...],
                  position: str | None, opening_plies: int, jobs: int, seed: int | None,
                  out: str | None) -> None:
    """Play a match of GAME between two players and report the result.

    Games come in colour-swapped pairs: A moves first in odd-numbered games, B in the
    others, both from the same seed. The summary gives A's wins, draws and losses, the
    score, the Elo difference with its 95% confidence interval, results by colour and,
    for Andantino, the series score. The same --seed gives the same games whatever
    --jobs, when the players' limits do not depend on the clock (--nodes, --depth).

    A limit written in a player spec (mcts:time=2) wins over --time, --nodes and
    --depth, which win over a level's preset. Ctrl-C stops the match and still
    reports, and writes, the games finished so far.
    """
    from hexgames.arena import MatchResult, run_match
    from hexgames.engine.players import make_player

    if len(players) != 2:
        raise click.UsageError(
            f"give exactly two --player options (A and B), not {len(players)}")
    module = load_game(game)
    rules = parse_rules(module, rules_words)
    board = new_board(module, rules, position)
    if board.is_game_over():
        raise InputError(f"the game is over in this position "
                         f"({_describe_outcome(module, board.outcome())}): nothing to play")
    limit = _limit(seconds, nodes, depth)
    for spec in players:
        # Option values only the player's constructor checks (alphabeta:tt_mb=...)
        # fail here, as one error line, not in the games behind the progress bar.
        make_player(spec, limit=limit)
    out_dir = None if out is None else _prepare_out(out)
    console = _console()
    progress = _MatchProgress(games)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    start = time.perf_counter()
    try:
        with progress.progress:
            match = run_match(game, players[0], players[1], games=games, limit=limit,
                              rules=rules, jobs=jobs, seed=seed, progress=progress,
                              position=position, opening_plies=opening_plies)
    except KeyboardInterrupt:
        done = sorted(progress.results, key=lambda r: r.index)
        match = MatchResult(module.__name__.rpartition(".")[2],
                            (players[0], players[1]), done, games,
                            tuple(rules.options()), position, limit, seed, jobs,
                            time.perf_counter() - start, opening_plies)
        console.print(f"Interrupted after {len(done)} of {games} games.")
    paths = None
    if out_dir is not None:
        try:
            paths = match.write(out_dir)
        except OSError as error:
            raise InputError(f"cannot write to {out_dir}: {error.strerror or error}") from None
    print_match(console, match, paths)
    if not match.complete:
        click.get_current_context().exit(130)


# --- analyse --------------------------------------------------------------------------

#: Seconds of search when neither the command line nor the player spec sets a limit.
ANALYSE_SECONDS = 5.0


def _analysis_board(module: ModuleType, position: str | None,
                    record_file: str | None, ply: int | None, index: int,
                    rules_words: tuple[str, ...]) -> Any:
    """The position to analyse, from --position, --record (and --ply, --index) or the
    start."""
    if record_file is None:
        if ply is not None:
            raise click.UsageError("--ply needs --record")
        return new_board(module, parse_rules(module, rules_words), position)
    if position is not None:
        raise click.UsageError("give --position or --record, not both")
    if rules_words:
        raise click.UsageError("--rules does not apply to --record: the record's Rules "
                               "tag gives the rules")
    records = _record_module().parse_games(_read_text(record_file))
    if not records:
        raise InputError(f"{'standard input' if record_file == '-' else record_file} "
                         "holds no game")
    if index > len(records):
        raise InputError(f"{record_file} holds {_plural(len(records), 'game')}, "
                         f"not a game {index}")
    chosen = records[index - 1]
    if chosen.game != module.__name__.rpartition(".")[2]:
        raise InputError(f"game {index} of {record_file} is {chosen.tags['Game']}, "
                         f"not {module.GAME_NAME}")
    return chosen.board(ply)


def _notation(move: Any) -> str:
    notation = getattr(move, "notation", None)
    return str(notation()) if callable(notation) else str(move)


def format_info(info: Any) -> str:
    """One line of analysis: depth, score, evaluation, nodes, nps, time and the principal
    variation in notation."""
    if info.mate is not None:
        score = f"#{info.mate:+d}"
    elif info.score is not None:
        score = f"{info.score:6.1%}"
    else:
        score = "-"
    evaluation = "-" if info.eval is None else _eval_text(info.eval)
    pv = " ".join(_notation(move) for move in info.pv)
    return (f"{info.depth:>5} {score:>7} {evaluation:>8} {info.nodes:>11,} "
            f"{info.nps:>10,.0f} {info.time:>7.2f}  {pv}")


@cli.command("analyse")
@click.argument("game")
@click.option("--position", help="The position string to analyse (default: the start).")
@click.option("--record", "record_file", metavar="FILE",
              help="Analyse a position of this .hgn record (- for standard input).")
@click.option("--ply", type=WholeNumberType(min=0),
              help="With --record: the position after this many plies (default: the last).")
@click.option("--index", type=WholeNumberType(min=1), default=1, show_default=True,
              help="With --record: which game of the file.")
@click.option("--player", "spec", type=PlayerSpecType(), default="alphabeta",
              show_default=True, help=_spec_help("The player that analyses"))
@click.option("--time", "seconds", type=SecondsType(),
              help=f"Seconds of search (default {ANALYSE_SECONDS:g}, or the spec's limit).")
@click.option("--nodes", type=WholeNumberType(min=1),
              help="Nodes (or simulations) to search.")
@click.option("--depth", type=WholeNumberType(min=1), help="Plies to search.")
@_rules_option
@click.option("--seed", type=WholeNumberType(), help="Seed of the player's random choices.")
def analyse(game: str, position: str | None, record_file: str | None, ply: int | None,
            index: int, spec: str, seconds: float | None, nodes: int | None,
            depth: int | None, rules_words: tuple[str, ...], seed: int | None) -> None:
    """Search a position of GAME and print what the search finds as it deepens.

    One line per report of the search: depth (plies), score (the side to move's
    winning chance, or #+n / #-n for a forced win / loss in n plies), evaluation,
    nodes, nodes per second, seconds and the principal variation. Then the best move.
    Ctrl-C stops the search and prints the best move found so far.
    """
    from hexgames.engine.base import Limit
    from hexgames.engine.players import make_player, parse_spec

    module = load_game(game)
    board = _analysis_board(module, position, record_file, ply, index, rules_words)
    if board.is_game_over():
        raise InputError(f"the game is over in this position "
                         f"({_describe_outcome(module, board.outcome())}): nothing to "
                         "analyse")
    limit = _limit(seconds, nodes, depth)
    if parse_spec(spec).default_limit(limit) is None:
        # Neither the command line, the spec nor a level sets a limit: ANALYSE_SECONDS,
        # not the player's own default (alpha-beta's and MCTS's 1 s).
        limit = Limit(time=ANALYSE_SECONDS)
    player = make_player(spec, seed, limit=limit)
    console = _console()
    mover = _tag(module, int(board.turn))
    console.print(f"[bold]{module.GAME_NAME}[/] {board.position()}", highlight=False)
    console.print(f"{mover} to move; {spec} searching with {_limit_text(player.default_limit)}",
                  highlight=False)
    console.print(f"{'depth':>5} {'score':>7} {'eval':>8} {'nodes':>11} {'nps':>10} "
                  f"{'time':>7}  pv", style="bold", highlight=False)
    last: dict[str, Any] = {"line": None, "change": None, "at": 0.0}

    def on_info(info: Any, *, final: bool = False) -> None:
        # A line when the search deepens or changes its mind, and at least every second;
        # at the end, the final figures unless they were just printed.
        line = format_info(info)
        change = (info.depth, info.mate, tuple(_notation(m) for m in info.pv))
        now = time.perf_counter()
        if final:
            show = line != last["line"]
        else:
            show = change != last["change"] or now - last["at"] >= 1.0
        if show:
            last.update(line=line, change=change, at=now)
            console.print(line, markup=False, highlight=False, soft_wrap=True)

    found: list[Any] = []
    failure: list[BaseException] = []

    finished = threading.Event()

    def search() -> None:
        try:
            found.append(player.play(board, on_info=on_info))
        except BaseException as error:  # re-raised in the main thread
            failure.append(error)
        finally:
            finished.set()

    # The main thread waits on an Event, not Thread.join: a KeyboardInterrupt inside
    # join can leave the thread looking finished while it still searches (CPython 3.11).
    worker = threading.Thread(target=search, name="hexgames-analyse", daemon=True)
    worker.start()
    try:
        while not finished.wait(0.1):
            pass
    except KeyboardInterrupt:
        player.stop()
        finished.wait()
        console.print("Stopped.")
    if failure:
        raise failure[0]
    result = found[0]
    info = result.info
    on_info(info, final=True)
    note = describe_info(info, mover)
    console.print(f"best move [bold]{_notation(result.move)}[/]"
                  + (f" ({note})" if note else ""), highlight=False)


def _limit_text(limit: Any) -> str:
    parts = []
    if limit.time is not None:
        parts.append(f"{limit.time:g} s")
    if limit.nodes is not None:
        parts.append(f"{limit.nodes:,} nodes")
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.playouts is not None:
        parts.append(f"{limit.playouts:,} playouts")
    return " or ".join(parts) if parts else "its own limit"


# --- serve ----------------------------------------------------------------------------


def default_db_path() -> Path:
    """The browser app's games database when ``--db`` is not given: ``games.db`` in the
    user's data directory (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("hexgames", appauthor=False)) / "games.db"


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; the default serves this computer only.")
@click.option("--port", type=WholeNumberType(min=1, max=65535), default=8000,
              show_default=True, help="Port to listen on.")
@click.option("--db", "db", metavar="PATH",
              help="The games database (default: games.db in your user data directory).")
@click.option("--open", "open_browser", is_flag=True, help="Open the app in the web browser.")
def serve(host: str, port: int, db: str | None, open_browser: bool) -> None:
    """Start the browser app: play, review and analyse games in a web browser.

    Every game is kept in a SQLite file, each move saved as it is played, so a stopped
    server loses nothing and lists every game when started again. Ctrl-C stops it.
    """
    import socket
    import webbrowser

    try:
        import uvicorn

        from hexgames.web import create_app
        from hexgames.web.store import StoreError
    except ModuleNotFoundError as error:
        raise InputError(f"the browser app needs the web extra: pip install "
                         f"'hexgames[web]' (missing module {error.name})") from None
    path = Path(db) if db else default_db_path()
    try:
        # Bound to this computer: answer only its names (against DNS rebinding).
        local = ["127.0.0.1", "localhost"] if host in ("127.0.0.1", "localhost") else None
        app = create_app(path, prestart=1, allowed_hosts=local)
    except StoreError as error:
        raise InputError(str(error)) from None
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        raise InputError(f"cannot listen on {_shorten(host)}:{port}: "
                         f"{error.strerror or error}") from None
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    click.echo(f"hexgames: the browser app is at {url} (games in {path}); Ctrl-C stops it")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=port, log_level="warning")
