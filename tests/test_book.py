"""The opening book of proven positions (hexgames.book): built from a checked proof, its
entries are the proof's moves with the longest line of each; a player that proves plays
a listed move at once as a proven win; a malformed book is refused naming the line; the
shipped book's moves are legal."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from hexgames import andantino, book
from hexgames.book import Book, BookError, load_book, proof_lines, write_book
from hexgames.engine import make_player
from hexgames.proof import proof_entries
from hexgames.solver import solve

#: White to move wins (docs/solver.md's example: 10 tiles a player).
WIN = "andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 turn=w hands=w5,r5"
SMALL = andantino.Rules(tiles_per_player=10)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Book, int]:
    folder = tmp_path_factory.mktemp("book")
    result = solve(andantino.Board(WIN, SMALL), proof=folder / "win.txt.gz")
    assert result.value == "win" and result.plies is not None
    game, entries = proof_lines(folder / "win.txt.gz")
    write_book(folder / "andantino.book.gz", game, entries, "a test book")
    return folder, load_book(folder / "andantino.book.gz"), result.plies


def test_a_book_lists_the_proofs_moves_and_longest_lines(
        built: tuple[Path, Book, int]) -> None:
    folder, loaded, plies = built
    strategy = {p: m for _, p, m in proof_entries(folder / "win.txt.gz")}
    board = andantino.Board(WIN, SMALL)
    move, longest = loaded.lookup(board)  # type: ignore[misc]
    assert move == strategy[board.position()] and longest == plies
    assert loaded.game == "andantino" and len(loaded.moves) <= len(strategy)
    # deeper down a line, the lines get shorter
    board.push(board.parse_notation(move))
    reply = board.legal_moves[0]
    board.push(reply)
    if not board.is_game_over():
        deeper = loaded.lookup(board)
        assert deeper is not None and deeper[1] <= plies - 2
    # the defender's positions are not listed
    assert loaded.lookup(andantino.Board(WIN.replace("turn=w", "turn=r"), SMALL)) is None


def test_a_mirror_image_of_a_listed_position_is_found_with_the_moves_image(
        built: tuple[Path, Book, int]) -> None:
    """The reflection (q, r) -> (q + r, -r) fixes the set-up tiles 0,0 and 1,0: a listed
    position's image is found with the image of its move, which is legal there and wins
    as the listed move does (played out against every reply the book answers)."""
    _, loaded, plies = built
    board = andantino.Board(WIN, SMALL)
    move, _ = loaded.lookup(board)  # type: ignore[misc]
    image = andantino.Board(" ".join(
        f[:2] + ";".join(book.mirror_cell(c) for c in f[2:].split(";"))
        if f[:2] in ("w=", "r=") else f for f in WIN.split(" ")), SMALL)
    assert image.position() != board.position()
    assert (image.position() not in {p for _, p in loaded.moves})
    assert loaded.lookup(image) == (book.mirror_cell(move), plies)
    assert book.mirror_cell(book.mirror_cell(move)) == move
    assert book.mirror_cell("0,1") == "1,-1" and book.mirror_cell("1,0") == "1,0"
    # the image's strategy, followed from the book alone, wins against every reply
    assert _book_wins(loaded, image)
    # no image for extended play, whose book entries a book does not take
    assert loaded.lookup(andantino.Board(None, andantino.Rules(extended=True))) is None


def _book_wins(loaded: Book, board: andantino.Board) -> bool:
    """Whether White, to move on ``board``, wins by the book's moves against every
    reply (the book answering each of White's positions)."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner == 0
    found = loaded.lookup(board)
    if found is None:
        return False
    board.push(board.parse_notation(found[0]))
    try:
        outcome = board.outcome()
        if outcome is not None:
            return outcome.winner == 0
        for reply in board.legal_moves:
            board.push(reply)
            try:
                if not _book_wins(loaded, board):
                    return False
            finally:
                board.pop()
        return True
    finally:
        board.pop()


def test_a_player_that_proves_plays_a_listed_move_at_once(
        built: tuple[Path, Book, int], monkeypatch: pytest.MonkeyPatch) -> None:
    _, loaded, plies = built
    monkeypatch.setattr(book, "_shipped", lambda game: loaded)
    board = andantino.Board(WIN, SMALL)
    played = make_player("alphabeta:prove=0.1,time=5").play(board)
    assert played.info.proven and played.info.mate == plies and played.info.nodes == 0
    assert played.move.notation() == loaded.lookup(board)[0]  # type: ignore[index]
    # without prove the book is not asked
    plain = make_player("alphabeta:depth=1").play(board)
    assert not plain.info.proven


def test_a_malformed_book_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.book.gz"
    with gzip.open(path, "wt") as out:
        out.write("# a book\ngame andantino\nrules -\nandantino w=0,0 r=1,0 turn=w\t0,1\n")
    with pytest.raises(BookError, match="line 4"):
        load_book(path)
    path.write_bytes(b"not gzip")
    with pytest.raises(BookError, match="cannot be read"):
        load_book(path)
    plain = tmp_path / "plain.txt"
    plain.write_text("game andantino\nrules -\nroot andantino w=0,0 r=1,0 turn=r\n"
                     "winner r\nclaim not-lose\nandantino w=0,0 r=1,0 turn=r\t0,1\n")
    with pytest.raises(BookError, match="proofs of a win"):
        proof_lines(plain)


def test_the_shipped_book_moves_are_legal() -> None:
    shipped = book._shipped("andantino")
    assert shipped is not None, "the Andantino book ships with the package"
    assert "andantino: " in book.book_summary()
    for (rules, position), (move, plies) in list(shipped.moves.items())[:300]:
        board = andantino.Board(position, andantino.Rules.from_options(rules))
        assert not board.is_game_over() and plies >= 1
        assert board.parse_notation(move) in board.legal_moves
