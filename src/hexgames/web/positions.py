"""The positions a game's pages look at, named by their lines and kept, so that looking
again costs nothing (issue 32).

A page names a position by its line, the moves from the game's start (``view``,
``targets``, ``analyse``, ``study``); the server replays the line, checking each move.
:class:`Positions` keeps, per game:

- the ``view`` message, as JSON text, of the last :data:`~hexgames.limits.KEPT_VIEWS`
  lines looked at, at most :data:`~hexgames.limits.KEPT_VIEW_BYTES` of text in all
  (least recently used out first): a view of the same line again is that text, with no
  replay and nothing recomputed;
- :data:`~hexgames.limits.KEPT_BOARDS` boards, each left at the last line it was
  moved to. A line not kept is reached from the board whose line shares the longest
  start with it, by taking moves back (``pop``) and playing the rest (``push``), or
  from a new board at the start when that costs fewer moves; so stepping through a
  game or a side line plays one move a step, not the whole line.

The bounds are in :mod:`hexgames.limits`. The session's lock guards an instance: the
handlers of :mod:`hexgames.web.studying` and :mod:`hexgames.web.analysing` call it with
the lock held.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.web.views import JSON, AppError, move_text

#: Makes the ``view`` message of a board after the (canonical) moves of a line.
Describe = Callable[[Any, list[str]], JSON]


class _Kept:
    """A board and the moves that led to it, in canonical notation."""

    __slots__ = ("board", "moves")

    def __init__(self, board: Any) -> None:
        self.board = board
        self.moves = [move_text(move) for move in board.move_stack]


class Positions:
    """The positions of one game looked at by its pages, by line.

    Args:
        start: makes a new board at the game's starting position (no moves).
        describe: the ``view`` message of a board after a line's moves.
        views: how many views to keep.
        boards: how many boards to keep.

    ``replayed`` counts the moves played or taken back to reach positions, ``hits`` the
    views answered from what was kept (for the tests and the figures of issue 32).
    """

    def __init__(self, start: Callable[[], Any], describe: Describe, *,
                 views: int = limits.KEPT_VIEWS, boards: int = limits.KEPT_BOARDS) -> None:
        self._start = start
        self._describe = describe
        self._views: OrderedDict[tuple[str, ...], str] = OrderedDict()
        self._view_bytes = 0
        self._boards: list[_Kept] = []  # the most recently used last
        self._max_views = views
        self._max_boards = boards
        self.replayed = 0
        self.hits = 0

    def sizes(self) -> tuple[int, int]:
        """How many views and boards are kept."""
        return len(self._views), len(self._boards)

    def clear(self) -> None:
        """Forget every kept view and board (nobody watches the game any more)."""
        self._views.clear()
        self._view_bytes = 0
        self._boards.clear()

    def view(self, line: Sequence[str]) -> str:
        """The ``view`` message of the position after ``line`` (move texts from the
        start), as JSON text.

        Raises:
            AppError: naming the move and its place for a move that is not legal there.
        """
        key = canonical(self._start_board(), line)
        shown = self._views.get(key)
        if shown is not None:
            self._views.move_to_end(key)
            self.hits += 1
            return shown
        board = self._reach(key)
        shown = json.dumps(self._describe(board, list(key)))
        self._views[key] = shown
        self._view_bytes += len(shown)
        while len(self._views) > self._max_views or (
                self._view_bytes > limits.KEPT_VIEW_BYTES and len(self._views) > 1):
            self._view_bytes -= len(self._views.popitem(last=False)[1])
        return shown

    def board(self, line: Sequence[str]) -> tuple[Any, list[str]]:
        """The board after ``line`` and its moves in canonical notation. The board is
        kept here: read it (or copy it), never push or pop; it is valid until the next
        call.

        Raises:
            AppError: naming the move and its place for a move that is not legal there.
        """
        key = canonical(self._start_board(), line)
        return self._reach(key), list(key)

    def _start_board(self) -> Any:
        """A board to parse moves with: a kept one, or a new one at the start."""
        if self._boards:
            return self._boards[-1].board
        kept = _Kept(self._start())
        self._boards.append(kept)
        return kept.board

    def _reach(self, moves: tuple[str, ...]) -> Any:
        """Move the kept board nearest to ``moves`` (or a new one) there."""
        best: _Kept | None = None
        best_common = 0
        cost = len(moves)  # from a new board
        for kept in self._boards:
            common = _common_start(kept.moves, moves)
            if len(kept.moves) - common + len(moves) - common <= cost:
                best, best_common = kept, common
                cost = len(kept.moves) - common + len(moves) - common
        if best is None:
            best = _Kept(self._start())
            if len(self._boards) >= self._max_boards:
                self._boards.pop(0)
        else:
            self._boards.remove(best)
        self._boards.append(best)
        board = best.board
        while len(best.moves) > best_common:
            board.pop()
            best.moves.pop()
            self.replayed += 1
        for index in range(best_common, len(moves)):
            text = moves[index]
            try:
                board.push(board.parse_notation(text))
            except HexgamesError as error:  # the board stays at the moves before
                raise AppError(f"move {index + 1} of the line ({text[:40]!r}): "
                               f"{error}") from None
            best.moves.append(text)
            self.replayed += 1
        return board


def canonical(board: Any, line: Sequence[str]) -> tuple[str, ...]:
    """The moves of ``line`` in canonical notation (``(0, 1)`` is ``0,1``, ``C3-D4`` is
    ``c3-d4``), read with ``board``'s game, not yet checked against the rules.

    Raises:
        AppError: naming the move and its place for text that is not a move.
    """
    parse = board.MOVE.from_notation
    moves = []
    for index, text in enumerate(line):
        try:
            moves.append(move_text(parse(text)))
        except HexgamesError as error:
            raise AppError(f"move {index + 1} of the line ({text[:40]!r}): {error}") from None
    return tuple(moves)


def _common_start(a: Sequence[str], b: Sequence[str]) -> int:
    """How many moves ``a`` and ``b`` share from their start."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count
