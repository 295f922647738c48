"""The hexgames board of a native state's position, built only when it is read.

The OpenSpiel and PettingZoo environments step native states (:mod:`hexgames.native`);
where their interface hands out a :class:`hexgames` board (``state.board``,
``raw_env.board``), :class:`LazyBoard` builds it from the starting position and the
native state's move notations, and on the next read pushes only the moves played since.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexgames import abande, andantino

__all__ = ["LazyBoard"]


class LazyBoard:
    """Builds, and keeps up to date, the board of one game's position.

    Args:
        game: ``"andantino"`` or ``"abande"``.
        options: the rules options (``key=value`` words).
        root: the starting position string; ``None`` for the standard start.
    """

    __slots__ = ("_board", "_ply", "game", "options", "root")

    def __init__(self, game: str, options: Sequence[str], root: str | None = None) -> None:
        self.game = game
        self.options = tuple(options)
        self.root = root
        self._board: andantino.Board | abande.Board | None = None
        self._ply = 0

    def board(self, moves: Sequence[str]) -> andantino.Board | abande.Board:
        """The board after ``moves`` (notations) from the start: the one built before
        with the moves since pushed onto it, or a new one if it was pushed to or the
        moves are fewer."""
        board = self._board
        if board is None or board.ply() != self._ply or self._ply > len(moves):
            module = andantino if self.game == "andantino" else abande
            rules = module.Rules.from_options(self.options)
            board = (module.Board(rules=rules) if self.root is None
                     else module.Board(self.root, rules))
            self._ply = 0
        for text in moves[self._ply:]:
            board.push_notation(text)
        self._board, self._ply = board, len(moves)
        return board

    def clear(self) -> None:
        """Forget the board built (a new game starts)."""
        self._board, self._ply = None, 0

    def __deepcopy__(self, memo: dict[int, Any]) -> LazyBoard:
        return LazyBoard(self.game, self.options, self.root)

    def __reduce__(self) -> tuple[Any, ...]:
        return (LazyBoard, (self.game, self.options, self.root))
