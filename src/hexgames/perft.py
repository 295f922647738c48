"""Perft: counting the leaf positions of the game tree, to check move generation.

The counts of ``docs/perft.md`` come from these functions. They use only the board API that
every game shares (``legal_moves``, ``push``/``pop``, ``is_game_over``), so they work for
any game of :mod:`hexgames.games`, and make and unmake moves on the one board instead of
copying it.

A finished game is a leaf only at the depth where it ends: it is not expanded further and
contributes no leaves at greater depths (the convention of ``docs/perft.md``).

    >>> from hexgames import andantino
    >>> [perft(andantino.Board(), depth) for depth in range(1, 5)]
    [2, 6, 24, 120]
    >>> divide(andantino.Board(), 2)
    [('0,1', 3), ('1,-1', 3)]
"""

from __future__ import annotations

from hexgames.core import GameBoard

#: The board perft counts on: the one board protocol of :mod:`hexgames.core`.
PerftBoard = GameBoard


def perft(board: PerftBoard, depth: int) -> int:
    """The number of positions exactly ``depth`` plies after ``board``'s position.

    Args:
        board: a board of any game; it is left as it was found (every push is popped).
        depth: plies to look ahead, 0 or more (``perft(board, 0)`` is 1).

    Returns:
        The leaf count; games that end before ``depth`` plies count nothing past their end.

    Raises:
        ValueError: if ``depth`` is negative.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, got {depth}")
    return _perft(board, depth)


def _perft(board: PerftBoard, depth: int) -> int:
    if depth == 0:
        return 1
    if board.is_game_over():
        return 0
    moves = board.legal_moves
    if depth == 1:
        # Bulk counting: the leaves are the legal moves themselves.
        return len(moves)
    total = 0
    push, pop = board.push, board.pop
    for move in list(moves):  # a snapshot: the board changes under the loop
        push(move)
        total += _perft(board, depth - 1)
        pop()
    return total


def divide(board: PerftBoard, depth: int) -> list[tuple[str, int]]:
    """Perft split by the first move: ``(move notation, perft(depth - 1) after it)`` for
    every legal move, sorted by notation. The counts add up to
    ``perft(board, depth)``; comparing two lists finds the move where two move generators
    disagree.

    Raises:
        ValueError: if ``depth`` is less than 1.
    """
    if depth < 1:
        raise ValueError(f"divide depth must be 1 or more, got {depth}")
    if board.is_game_over():
        return []
    counts: list[tuple[str, int]] = []
    for move in list(board.legal_moves):
        board.push(move)
        counts.append((str(move.notation()), _perft(board, depth - 1)))
        board.pop()
    counts.sort()
    return counts
