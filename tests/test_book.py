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


def _longest_replies(loaded: Book, board: andantino.Board, line: list[andantino.Move]
                     ) -> None:
    """Check that ``line`` from ``board`` plays the book's move at each of White's
    positions and, at each of Red's, a reply whose listed line is as long as any other
    listed reply's and two plies shorter than the one before (the book's lengths count
    the longest defence)."""
    board = board.copy()
    for ply, move in enumerate(line):
        if ply % 2 == 0:
            listed = loaded.lookup(board)
            assert listed is not None and listed[0] == move.notation()
            before = listed[1]
        else:
            lengths = {}
            for reply in board.legal_moves:
                board.push(reply)
                if board.is_game_over():
                    lengths[reply] = 0
                elif (found := loaded.lookup(board)) is not None:
                    lengths[reply] = found[1]
                board.pop()
            assert lengths[move] == before - 2 == max(lengths.values())
        board.push(move)


def test_the_books_line_is_the_winners_moves_and_the_longest_defence(
        built: tuple[Path, Book, int]) -> None:
    """A book lists only a position's first move and the length of its longest line;
    the analysis showed that move alone as the proven line. Now
    :func:`book.book_line` follows the book from position to position: with the whole
    strategy listed, to the end of the game, the line as long as the win."""
    _, loaded, plies = built
    board = andantino.Board(WIN, SMALL)
    line = book.book_line(board, loaded)
    assert len(line) == plies and board.position() == WIN  # the board is not changed
    _longest_replies(loaded, board, line)
    for move in line:
        board.push(move)
    assert board.outcome().winner == andantino.Color.WHITE
    # Red to move in a position of the line: Red's positions are not listed
    after = andantino.Board(WIN, SMALL)
    after.push(line[0])
    assert book.book_line(after, loaded) == []


def test_the_shipped_books_line_of_the_start_goes_as_far_as_the_book(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The standard start's line in the shipped book (positions of up to 14
    placements): 15 of the win's 47 plies, White's moves and Red's longest replies,
    ending where every reply of Red leaves the book; a book move's :class:`Info`, as a
    player reports it, has that line."""
    shipped = book._shipped("andantino")
    assert shipped is not None
    start = andantino.Board()
    line = book.book_line(start)
    assert [m.notation() for m in line[:2]] == ["0,1", "1,-1"] and len(line) == 15
    _longest_replies(shipped, start, line)
    end = start.copy()
    for move in line:
        end.push(move)
    assert not end.is_game_over()
    for reply in end.legal_moves:
        end.push(reply)
        assert shipped.lookup(end) is None
        end.pop()
    info = book.book_info(start, *book.book_move(start))  # type: ignore[misc]
    assert (info.pv, info.mate, info.proven) == (line, 47, True)
    played = make_player("alphabeta:prove=0.1,time=5").play(start)
    assert played.info.pv == line and played.info.mate == 47


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
