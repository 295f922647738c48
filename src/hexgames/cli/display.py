"""What the commands print on the terminal: the board drawing of ``play`` (one layout per
game, the richest that fits), the names of the sides, the result of a game, what a search
reports, and the shortening of what a user typed when a message repeats it.

Boards are drawn to fit the terminal and read without colour (NO_COLOR, a pipe): every
mark is a character, explained by a ``key:`` line under the board. Only the board drawing
knows a game's pieces; everything else goes through the board API that all games share
(``legal_moves``, ``push``/``pop``, ``outcome()``, ...).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rich import box
from rich.console import Console, RenderableType
from rich.panel import Panel
from rich.text import Text

from hexgames.core import FIRST, SECOND, Outcome

#: Width of a console that is not a terminal (a pipe or a file), unless the environment
#: variable COLUMNS sets one: wide enough that a board is never wrapped.
_PIPE_WIDTH = 160


class OutputClosed(BrokenPipeError):
    """The reader of the command's output went away (``| head -1``). Without an
    ``errno``, so that click passes it on instead of exiting with status 1 (which
    ``verify-proof`` gives a proof that does not hold): the command line exits with
    141, the status of a process that SIGPIPE ended."""


class _Console(Console):
    """A rich console whose closed output (``hexgames play | head -1``) raises
    :class:`OutputClosed` (a :class:`BrokenPipeError`), so that a command can still
    finish its work (write ``--save``) before it ends, quietly. (Rich's own
    ``on_broken_pipe`` exits at once.)"""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing more goes to the closed pipe
        raise OutputClosed("the output was closed")


def stdout_console() -> Console:
    """A console on the current ``sys.stdout``, made per command so that it follows
    redirection (and click's test runner)."""
    console = _Console(highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console.width = _PIPE_WIDTH
    return console


def player_tag(module: ModuleType, color: int) -> str:
    """The name of a side, as in records: ``White``, ``Red``, ``Black``."""
    return str(module.PLAYER_TAGS[color])


def describe_outcome(module: ModuleType, outcome: Outcome) -> str:
    """``White wins by line``, ``draw (tiles-exhausted)``, ``Black wins by score 15-10``."""
    reason = outcome.termination.value
    if outcome.score is not None:
        reason = f"{reason} {outcome.score[0]}-{outcome.score[1]}"
    if outcome.winner is None:
        return f"draw ({reason})"
    return f"{player_tag(module, outcome.winner)} wins by {reason}"


def plural(count: int, word: str) -> str:
    """``1 game``, ``2 games``: ``count`` and ``word``, with an ``s`` unless one."""
    return f"{count} {word}{'' if count == 1 else 's'}"


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
        status = f"ply {board.ply()} · {describe_outcome(module, outcome)}"
    else:
        status = f"ply {board.ply()} · {player_tag(module, board.turn)} to move"
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
        info.append(f"{player_tag(module, mover)} moves a tile, from>to (e.g. {example}); it may "
                    f"lift: {_cell_list(sources)}")
    if board.rules.single_adjacency:
        used = "used" if board.single_adjacency_used else "unused"
        info.append(f"{player_tag(module, SECOND)}'s single-adjacency placement: {used}")
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
    column (docs/notation.md). Each point is one word, so no line mixes one point's stack with
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


# --- what a user typed, what a search found -------------------------------------------

def eval_text(value: float) -> str:
    """An evaluation with its sign: ``+84`` for a whole number, else ``+0.25``."""
    return f"{int(value):+d}" if float(value).is_integer() else f"{value:+.2f}"


def describe_info(info: Any, mover: str) -> str:
    """What a search found, for the side that moved: ``63% for Red, eval +1.25, depth 6``
    or ``Red wins in 3 plies``; a value the solver proved (``info.proven``): ``Red wins
    in 17 (proven)``, ``Red loses in 8 (proven)`` or ``Draw (proven)``; empty when the
    search reports nothing."""
    if getattr(info, "proven", False):
        if info.mate is None:
            return "Draw (proven)"
        return f"{mover} {'wins' if info.mate > 0 else 'loses'} in {abs(info.mate)} (proven)"
    parts = []
    if info.mate is not None:
        verb = "wins" if info.mate > 0 else "loses"
        plies = abs(info.mate)
        parts.append(f"{mover} {verb} in {plies} pl{'y' if plies == 1 else 'ies'}")
    elif info.score is not None:
        parts.append(f"{info.score:.0%} for {mover}")
    if info.eval is not None and info.mate is None:
        parts.append(f"eval {eval_text(info.eval)}")
    if info.depth:
        parts.append(f"depth {info.depth}")
    return ", ".join(parts)


class ArenaProgress:
    """A rich progress bar on standard error for games played through the arena, with
    the first named side's wins, draws and losses so far (A's in a match) and, for a
    sequential test, its log-likelihood ratio between the bounds, the pentanomial counts
    and the Elo estimate. Call it as the arena's ``progress(result, done, total)``; it
    keeps counts, never the games."""

    def __init__(self, total: int, *, what: str = "games", sprt: Any = None,
                 side_text: str = "A") -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.sprt = sprt
        self.wdl = [0, 0, 0]
        self.done = 0
        columns: list[Any] = [
            TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(),
            TextColumn(side_text + " +{task.fields[wins]} ={task.fields[draws]} "
                       "-{task.fields[losses]}"),
        ]
        if sprt is not None:
            columns.append(TextColumn("{task.fields[sprt]}"))
        columns += [TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn()]
        self.progress = Progress(*columns, console=Console(stderr=True, highlight=False))
        self.task = self.progress.add_task(what, total=total, wins=0, draws=0, losses=0,
                                           sprt=self._sprt_text())

    def _sprt_text(self) -> str:
        sprt = self.sprt
        if sprt is None:
            return ""
        from hexgames.arena import format_elo

        elo = sprt.elo()
        text = (f"LLR {sprt.llr():+.2f} [{sprt.lower:+.2f}, {sprt.upper:+.2f}] "
                f"penta {list(sprt.pentanomial)}")
        return text + ("" if elo is None else f" Elo {format_elo(elo)}")

    def __call__(self, result: Any, done: int, total: int) -> None:
        self.done = done
        self.wdl[{0: 0, None: 1, 1: 2}[result.winner]] += 1
        self.progress.update(self.task, completed=done, wins=self.wdl[0],
                             draws=self.wdl[1], losses=self.wdl[2],
                             sprt=self._sprt_text())


def print_output(console: Console, output: Any) -> None:
    """Where a :class:`hexgames.arena.GameOutput` put its files, what went wrong with
    writing them and, when no file could take the summary, the summary's JSON."""
    for note in output.notes:
        console.print(f"  warning: {note}", style="yellow", markup=False, highlight=False,
                      soft_wrap=True)
    labels = {"games.hgn": "Games", "results.jsonl": "Results",
              "samples.parquet": "Samples", "summary.json": "Summary"}
    for name, path in output.paths.items():
        if path is not None:
            console.print(f"  {labels.get(name, name)}: {path}", markup=False,
                          highlight=False, soft_wrap=True)
    if output.printed is not None:
        console.print("  The summary, which no file could take:", markup=False)
        console.print(output.printed, markup=False, highlight=False, soft_wrap=True)
