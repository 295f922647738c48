"""An opening book of proven positions that ships with the package (issue 34;
docs/solver.md): for each position listed, the move by which the side to move wins
against any defence, and the longest line of that win to the end of the game.

The book is derived from proof files (docs/proofs.md) that the pure-Python checker
passed: ``tools/build_book.py`` checks each ``claim win`` proof of a folder (by
default the work directory of the run toward Andantino's start,
``benchmarks/runs/andantino-start/proofs``, where every file stays for anyone to check
with ``hexgames verify-proof``), walks each strategy to find every listed position's
longest line, and writes ``hexgames/data/book/<game>.book.gz``:

- gzip text; lines starting with ``#`` are comments;
- ``game andantino`` (or ``abande``) and ``rules`` as a proof file writes them;
- then one line a position: the position string (``Board.position()``), a tab, the
  winner's move in the game's notation, a tab, the longest line in plies.

A player with the ``book`` option (the ``expert`` level) plays a listed move at once
and reports it as proven (:func:`book_info`), with the book's line of the win
(:func:`book_line`): the winner's listed moves and the defender's longest replies, by
the book's stored lengths, as far as the book goes.

    >>> from hexgames import andantino
    >>> from hexgames.book import book_move
    >>> book_move(andantino.Board())  # the start: White wins, within 47 plies
    (Move(to=(0, 1)), 47)
"""

from __future__ import annotations

import functools
import gzip
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexgames import hexgrid, native
from hexgames.core import GameBoard, HexgamesError
from hexgames.engine.base import Info

__all__ = ["BOOK_DIR", "Book", "BookError", "book_info", "book_line", "book_move",
           "book_summary", "load_book", "mirror_cell", "proof_lines", "write_book"]

#: The folder of the shipped books, one file a game.
BOOK_DIR = Path(__file__).with_name("data") / "book"


class BookError(HexgamesError):
    """A book file that cannot be read or is malformed (the file and line named)."""


@dataclass(frozen=True)
class Book:
    """A book: ``moves`` maps ``(rules, position)`` (``rules`` the options' words,
    sorted) to ``(move text, plies)``; ``game`` is the game's name and ``bytes`` the
    file's size."""

    game: str
    moves: dict[tuple[tuple[str, ...], str], tuple[str, int]]
    bytes: int

    def lookup(self, board: GameBoard) -> tuple[str, int] | None:
        """The listed move (text) and its plies for ``board``'s position, or None. In
        Andantino without extended play a position whose mirror image is listed is
        found too, with the move's mirror image (:func:`mirror_cell`)."""
        rules = tuple(sorted(board.rules.options()))
        found = self.moves.get((rules, board.position()))
        if found is not None or self.game != "andantino" or board.rules.extended:
            return found
        image = _mirror_position(board)
        found = None if image is None else self.moves.get((rules, image))
        return None if found is None else (mirror_cell(found[0]), found[1])


def mirror_cell(cell: str) -> str:
    """The mirror image of an Andantino cell ``q,r`` across the line of the standard
    set-up tiles ``0,0`` and ``1,0``: ``(q, r) -> (q + r, -r)``, which fixes both tiles
    and takes neighbours to neighbours (a symmetry of the hex grid, its own inverse), so
    a position's value and its winning moves are those of its image. White's two first
    moves, ``0,1`` and ``1,-1``, are each other's images. It is the grid's symmetry 11
    (:func:`hexgrid.symmetry`: reflected, then turned five times)."""
    q, r = _MIRROR(tuple(int(part) for part in cell.split(",")))  # type: ignore[arg-type]
    return f"{q},{r}"


#: :func:`mirror_cell` on cells: the reflection across the line of the set-up tiles
_MIRROR = hexgrid.symmetry(11)


def _mirror_position(board: GameBoard) -> str | None:
    """The position string of the mirror image of an Andantino ``board`` (written as
    ``Board.position()`` writes it), or None when the image leaves the surface's
    coordinates."""
    fields = []
    for field in board.position().split(" "):
        if field[:2] in ("w=", "r=") and field[2:] != "-":
            field = field[:2] + ";".join(mirror_cell(c) for c in field[2:].split(";"))
        fields.append(field)
    try:
        return type(board)(" ".join(fields), board.rules).position()  # type: ignore[call-arg]
    except ValueError:
        return None


def write_book(path: str | Path, game: str,
               entries: dict[tuple[tuple[str, ...], str], tuple[str, int]],
               comment: str) -> None:
    """Write a book file (gzip) of ``entries`` (as :class:`Book` keeps them), grouped
    by rules, with ``comment`` at its top."""
    with gzip.open(path, "wt", encoding="utf-8", newline="\n") as out:
        for line in comment.splitlines():
            out.write(f"# {line}\n")
        out.write(f"game {game}\n")
        by_rules: dict[tuple[str, ...], list[tuple[str, str, int]]] = {}
        for (rules, position), (move, plies) in entries.items():
            by_rules.setdefault(rules, []).append((position, move, plies))
        for rules in sorted(by_rules):
            out.write(f"rules {','.join(rules) or '-'}\n")
            for position, move, plies in sorted(by_rules[rules]):
                out.write(f"{position}\t{move}\t{plies}\n")


def load_book(path: str | Path) -> Book:
    """Read a book file.

    Raises:
        BookError: (a ``ValueError``) for a file that cannot be read or is malformed,
            naming the line.
    """
    name = str(path)
    moves: dict[tuple[tuple[str, ...], str], tuple[str, int]] = {}
    game: str | None = None
    rules: tuple[str, ...] | None = None
    try:
        with gzip.open(path, "rt", encoding="utf-8") as source:
            for number, raw in enumerate(source, 1):
                line = raw.rstrip("\n")
                if not line or line.startswith("#"):
                    continue
                if line.startswith("game "):
                    game = line[5:].strip()
                elif line.startswith("rules "):
                    words = line[6:].strip()
                    rules = () if words == "-" else tuple(sorted(words.split(",")))
                else:
                    fields = line.split("\t")
                    if game is None or rules is None or len(fields) != 3 \
                            or not fields[2].isdigit():
                        raise BookError(f"{name}, line {number}: not 'position<TAB>move"
                                        f"<TAB>plies' after the game and rules lines")
                    moves[(rules, fields[0])] = (fields[1], int(fields[2]))
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as error:
        raise BookError(f"{name}: cannot be read ({error})") from None
    if game is None:
        raise BookError(f"{name}: no 'game' line")
    return Book(game, moves, Path(path).stat().st_size)


def proof_lines(path: str | Path) -> tuple[str, dict[tuple[tuple[str, ...], str],
                                                    tuple[str, int]]]:
    """The book entries of a ``claim win`` proof file (already checked: see
    ``tools/build_book.py``): its game, and for each listed position reachable from
    its root, the winner's move and the longest line in plies to the end of the game
    under the strategy (the defender's longest resistance), found by walking the
    strategy with the pure-Python boards.

    Raises:
        BookError: for a proof of another claim than a win, of extended play, or whose
            strategy misses a position (a file that the checker would refuse).
        hexgames.proof.ProofFileError: for a file that cannot be read or is malformed.
    """
    from hexgames.games import game_module
    from hexgames.proof import proof_entries

    strategy: dict[str, str] = {}
    header = None
    for found, position, move in proof_entries(path):
        header = found
        strategy[position] = move
    if header is None:
        raise BookError(f"{path}: no strategy")
    if header.claim != "win" or any(w.startswith("extended=") and w != "extended=off"
                                    for w in header.rules):
        raise BookError(f"{path}: a book takes proofs of a win without extended play")
    module: Any = game_module(header.game)
    rules = tuple(sorted(header.rules))
    board = module.Board(header.root, module.Rules.from_options(rules))
    winner = header.winner
    longest: dict[str, int] = {}

    def walk() -> int:
        if board.is_game_over():
            return 0
        position = board.position()
        if position in longest:
            return longest[position]
        if board.turn == winner:
            if position not in strategy:
                raise BookError(f"{path}: no move listed for {position}")
            moves = [board.parse_notation(strategy[position])]
        else:
            moves = list(board.legal_moves)
        most = 0
        for move in moves:
            board.push(move)
            most = max(most, 1 + walk())
            board.pop()
        longest[position] = most
        return most

    walk()
    return header.game, {(rules, p): (strategy[p], d) for p, d in longest.items()
                         if p in strategy}


@functools.cache
def _shipped(game: str) -> Book | None:
    path = BOOK_DIR / f"{game}.book.gz"
    return load_book(path) if path.is_file() else None


def book_move(board: GameBoard) -> tuple[Any, int] | None:
    """The shipped book's proven winning move for the side to move of ``board`` (a
    move of its game) and the longest line of the win in plies, or None when the
    position is not in the book."""
    book = _shipped(native.game_of(board))
    found = None if book is None else book.lookup(board)
    if found is None:
        return None
    return board.parse_notation(found[0]), found[1]


def book_line(board: GameBoard, book: Book | None = None) -> list[Any]:
    """The proven line of the shipped book (or of ``book``) from ``board``'s position,
    as moves of its game: at each position of the winner its listed move, at each of
    the defender's the reply that holds out longest by the book's stored lengths (the
    first in legal-move order whose position is listed with a line two plies shorter
    than the position before: a listed length is the move and the longest reply's line,
    so no reply holds out longer), the line :func:`hexgames.proving.principal_line`
    walks in a proof. It goes to the end of the game, or to where it leaves the book
    (no reply listed so: the shipped book holds the positions of up to 14 placements),
    when it is shorter than the win's length. Empty when the position is not listed;
    the board is not changed.

        >>> from hexgames import andantino
        >>> line = book_line(andantino.Board())  # 15 of the win's 47 plies
        >>> [move.notation() for move in line[:3]], len(line)
        (['0,1', '1,-1', '0,-1'], 15)
    """
    book = book if book is not None else _shipped(native.game_of(board))
    if book is None:
        return []
    board = board.copy()
    line: list[Any] = []
    found = book.lookup(board)
    while found is not None:
        move = board.parse_notation(found[0])
        board.push(move)
        line.append(move)
        left = found[1] - 2  # the line's length after the longest reply
        found = None
        if board.is_game_over() or left < 0:
            break
        for reply in board.legal_moves:
            board.push(reply)
            over = board.is_game_over()
            listed = None if over else book.lookup(board)
            if (0 if over else -1 if listed is None else listed[1]) == left:
                line.append(reply)
                found = listed
                break
            board.pop()
    return line


def book_info(board: GameBoard, move: Any, plies: int) -> Info:
    """The :class:`Info` of a book move: a proven win in ``plies`` plies at most, its
    line the book's (:func:`book_line`, which may end before the game does: it leaves
    the book), or the move alone."""
    line = book_line(board)
    if not line or line[0] != move:
        line = [move]
    return Info(score=1.0, mate=plies, pv=line, depth=plies, proven=True)


def book_summary() -> str:
    """The shipped books in one line: positions and size of each."""
    parts = []
    for game in ("andantino", "abande"):
        book = _shipped(game)
        if book is not None:
            parts.append(f"{game}: {len(book.moves):,} positions, "
                         f"{book.bytes / 1e6:.2f} MB")
    return "; ".join(parts) or "no book"
