"""Proof files and their checker (hexgames.proof; issue 34): strategies of a plain
minimax (tests/proof_reference.py) written as proof files verify, and every kind of
broken file is refused with the line or the position named."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from click.testing import CliRunner
from proof_reference import WIN, Minimax

from hexgames import andantino, cli
from hexgames.proof import (
    MAX_COMMENT_LINES,
    ProofFailedError,
    ProofFileError,
    ProofHeader,
    parse_proof_text,
    read_proof,
    verify,
    write_proof,
)

RULES = andantino.Rules(tiles_per_player=9)
#: Positions of Andantino with 9 tiles a player, White to move and winning (found by
#: random play and the minimax; a few thousand positions each).
WINS = [
    "andantino w=0,0;2,0;0,1;0,2;-1,3;0,3 r=2,-1;1,0;1,1;1,2;2,2;1,3 turn=w hands=w3,r3",
    "andantino w=2,-2;1,-1;2,-1;0,0;2,0;-1,1 r=1,-2;0,-1;3,-1;-1,0;1,0;0,1 turn=w "
    "hands=w3,r3",
    "andantino w=1,-2;1,-1;2,-1;0,0;0,1;1,1 r=1,-3;0,-2;-1,-1;0,-1;-1,0;1,0 turn=w "
    "hands=w3,r3",
]


def proof_of(position: str, tmp_path: Path, name: str = "proof.txt") -> tuple[Path, int]:
    board = andantino.Board(position, RULES)
    solver = Minimax()
    assert solver.value(board) == WIN
    strategy = solver.strategy(board, 0)
    header = ProofHeader("andantino", tuple(RULES.options()), board.position(), 0, "win")
    path = tmp_path / name
    write_proof(path, header, strategy, comments=["made by the test's minimax"])
    return path, len(strategy)


@pytest.mark.parametrize("position", WINS)
def test_a_minimax_strategy_verifies(position: str, tmp_path: Path) -> None:
    path, entries = proof_of(position, tmp_path)
    report = verify(path)
    assert report.entries == entries and report.winner_positions == entries
    assert report.positions >= entries and 1 <= report.longest <= 6
    assert report.header.winner == 0 and report.header.claim == "win"
    # gzip too
    packed = tmp_path / "proof.txt.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert verify(packed).positions == report.positions


def test_a_wrong_move_a_missing_reply_and_a_wrong_winner_fail_naming_the_position(
        tmp_path: Path) -> None:
    path, _ = proof_of(WINS[2], tmp_path)
    text = path.read_text()
    strategy_lines = [line for line in text.splitlines() if "\t" in line]
    root = andantino.Board(WINS[2], RULES)
    # a move that does not win: some legal move after which the defender escapes
    solver = Minimax()
    losing = next(m.notation() for m in root.legal_moves
                  if (root.push(m), solver.value(root) != -1, root.pop())[1])
    root_line = next(line for line in strategy_lines if line.startswith(root.position()))
    wrong = text.replace(root_line, f"{root.position()}\t{losing}")
    with pytest.raises(ProofFailedError) as failed:
        check_text(wrong)
    assert failed.value.position  # a position is named
    # a missing line: some position of the winner deep in the tree
    deep = strategy_lines[-1]
    with pytest.raises(ProofFailedError, match="gives the winner no move") as missing:
        check_text(text.replace(deep + "\n", ""))
    assert missing.value.position == deep.split("\t")[0]
    # the other winner: its first listed position has the other side to move
    with pytest.raises(ProofFileError, match="does not have the winner to move"):
        check_text(text.replace("\nwinner w\n", "\nwinner r\n"))
    # a line the walk never reaches is still read: a defender's position, a junk move
    unreached = root.copy()
    unreached.push(next(iter(unreached.legal_moves)))
    with pytest.raises(ProofFileError, match=r"line 7: .* does not have the winner"):
        check_text(text.replace(root_line, f"{unreached.position()}\t0,1\n{root_line}"))
    junk = text.replace(root_line, f"{root_line}\nandantino junk turn=w\t0,1")
    with pytest.raises(ProofFileError, match=r"line 8: 'andantino junk turn=w' is not a "
                                             "position string as Board.position"):
        check_text(junk)
    for unwritten in ("andantino w=0,0 r=1,0 hands=w24,r24 turn=w",  # (the fields' order)
                      "andantino w=0,0 r=1,0 TURN=w", "andantino w=0,0 r=1,0 turn=w x=1"):
        with pytest.raises(ProofFileError, match="is not a position string"):
            check_text(text.replace(root_line, f"{root_line}\n{unwritten}\t0,1"))
    junk = text.replace(root_line, f"{root_line}\n{root.position()}\tbanana")
    with pytest.raises(ProofFileError, match="'banana' is not an Andantino move"):
        check_text(junk)
    # an illegal move
    illegal = text.replace(root_line, f"{root.position()}\t0,0")
    with pytest.raises(ProofFailedError, match="not legal here"):
        check_text(illegal)


def check_text(text: str) -> None:
    from hexgames.proof import check

    header, strategy = parse_proof_text(text)
    check(header, strategy)


@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.split("\nroot")[0], "the header ends early: no 'root' line"),
    (lambda t: t.replace("\nwinner w", "\nwinner x"), "the winner is w or r"),
    (lambda t: t.replace("\nclaim win", "\nclaim everything"), "the claim is win or not-lose"),
    (lambda t: t.replace("game andantino", "game chess"), "unknown game"),
    (lambda t: t.replace("rules tiles_per_player=9", "rules tiles_per_player=nine"),
     "tiles_per_player"),
    (lambda t: t + "andantino w=0,0 r=1,0 turn=w 0,1\n", "a position string, a tab and a move"),
    (lambda t: t + "abande turn=b\td4\n", "is no andantino position"),
    (lambda t: t.replace("\nrules", "\nroot x\nrules"), "expected the header line 'rules'"),
])
def test_a_malformed_file_is_refused_naming_what_is_wrong(change: object, message: str,
                                                          tmp_path: Path) -> None:
    path, _ = proof_of(WINS[0], tmp_path)
    broken = tmp_path / "broken.txt"
    broken.write_text(change(path.read_text()))  # type: ignore[operator]
    with pytest.raises(ProofFileError, match=message):
        read_proof(broken)


def test_line_ends_and_a_byte_order_mark(tmp_path: Path) -> None:
    """CR LF line ends and a UTF-8 byte order mark (a Windows editor's) are read; lines
    ended by CR alone were one comment line, refused as a header that "ends early"
    naming no line."""
    path, _ = proof_of(WINS[0], tmp_path)
    text = path.read_bytes()
    claim = read_proof(path)
    for name, data in (("crlf.txt", text.replace(b"\n", b"\r\n")),
                       ("bom.txt", b"\xef\xbb\xbf" + text)):
        (tmp_path / name).write_bytes(data)
        assert read_proof(tmp_path / name) == claim
    (tmp_path / "cr.txt").write_bytes(text.replace(b"\n", b"\r"))
    with pytest.raises(ProofFileError, match=r"cr\.txt, line 1: a carriage return inside "
                                             r"the line \(lines end with LF or CR LF\)"):
        read_proof(tmp_path / "cr.txt")
    (tmp_path / "bom2.txt").write_bytes(text.replace(b"\nclaim", b"\n\xef\xbb\xbfclaim"))
    with pytest.raises(ProofFileError, match="expected the header line 'claim'"):
        read_proof(tmp_path / "bom2.txt")  # a mark only at the start


def test_a_position_listed_twice_with_two_moves_is_refused(tmp_path: Path) -> None:
    path, _ = proof_of(WINS[0], tmp_path)
    text = path.read_text()
    first = next(line for line in text.splitlines() if "\t" in line)
    position, move = first.split("\t")
    other = next(m.notation() for m in andantino.Board(position, RULES).legal_moves
                 if m.notation() != move)
    (tmp_path / "twice.txt").write_text(text + f"{position}\t{other}\n")
    with pytest.raises(ProofFileError, match="listed twice"):
        read_proof(tmp_path / "twice.txt")


def test_reading_is_bounded_and_bad_files_are_refused(tmp_path: Path) -> None:
    path, _ = proof_of(WINS[0], tmp_path)
    with pytest.raises(ProofFileError, match="more than 100 bytes"):
        read_proof(path, max_bytes=100)
    bomb = tmp_path / "bomb.gz"  # 64 MB of zeros in 64 KB: refused at the cap
    bomb.write_bytes(gzip.compress(b"#" * (64 << 20)))
    with pytest.raises(ProofFileError, match="more than 1000000 bytes"):
        read_proof(bomb, max_bytes=1_000_000)
    garbage = tmp_path / "garbage.gz"
    garbage.write_bytes(b"\x1f\x8b" + b"not gzip at all")
    with pytest.raises(ProofFileError, match="cannot be read"):
        read_proof(garbage)
    with pytest.raises(ProofFileError, match="is a directory"):
        read_proof(tmp_path)
    with pytest.raises(ProofFileError, match="No such file"):
        read_proof(tmp_path / "missing.txt")
    (tmp_path / "binary.txt").write_bytes(b"game andantino\n\xff\xfe\n")
    with pytest.raises(ProofFileError, match="line 2: not UTF-8"):
        read_proof(tmp_path / "binary.txt")
    # a few megabytes of gzip can hold a billion empty lines: their count is capped
    empty = tmp_path / "empty-lines.gz"
    empty.write_bytes(gzip.compress(b"game andantino\n" + b"\n" * (MAX_COMMENT_LINES + 1)))
    with pytest.raises(ProofFileError, match=f"line {MAX_COMMENT_LINES + 2}: more than "
                                             f"{MAX_COMMENT_LINES:,} empty or comment"):
        read_proof(empty)


def test_a_draw_is_proven_as_not_lose(tmp_path: Path) -> None:
    # after 9 tiles each the game is drawn; a position two plies before a dead draw
    solver = Minimax()
    drawn = None
    for position in WINS:
        board = andantino.Board(position, RULES)
        for move in board.legal_moves:
            board.push(move)
            if not board.is_game_over() and solver.value(board) == 0:
                drawn = board.position()
            board.pop()
            if drawn:
                break
        if drawn:
            break
    assert drawn is not None, "no drawn position"
    start = andantino.Board(drawn, RULES)
    winner = int(start.turn)
    strategy = solver.strategy(start, winner, not_lose=True)
    header = ProofHeader("andantino", tuple(RULES.options()), drawn, winner, "not-lose")
    write_proof(tmp_path / "draw.txt", header, strategy)
    assert verify(tmp_path / "draw.txt").header.claim == "not-lose"
    text = (tmp_path / "draw.txt").read_text().replace("claim not-lose", "claim win")
    (tmp_path / "claims-win.txt").write_text(text)
    with pytest.raises(ProofFailedError, match="ends in a draw"):
        verify(tmp_path / "claims-win.txt")


def test_the_verify_proof_command(tmp_path: Path) -> None:
    path, entries = proof_of(WINS[1], tmp_path)
    runner = CliRunner()
    good = runner.invoke(cli.cli, ["verify-proof", str(path)])
    assert good.exit_code == 0, good.output
    assert "proof verified: White wins" in good.output and f"{entries} " in good.output
    lines = path.read_text().splitlines()
    cut = tmp_path / "cut.txt"
    cut.write_text("\n".join(lines[:-1]) + "\n")  # the last strategy line lost
    failed = runner.invoke(cli.cli, ["verify-proof", str(cut)])
    assert failed.exit_code == 1 and "the proof fails at andantino" in failed.output
    malformed = runner.invoke(cli.cli, ["verify-proof", str(tmp_path / "nope.txt")])
    assert malformed.exit_code == 2 and malformed.output.startswith("error: ")
    small = runner.invoke(cli.cli, ["verify-proof", str(path), "--max-bytes", "10"])
    assert small.exit_code == 2 and "more than 10 bytes" in small.output


def test_a_long_line_or_a_gzip_bomb_costs_bounded_memory(tmp_path: Path) -> None:
    # one line of 20 MB (20 KB packed): refused after reading no more than the limits
    import tracemalloc

    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"x" * 20_000_000))
    for max_bytes, message in [(1000, "more than 1000 bytes"),
                               (100_000_000, "longer than")]:
        tracemalloc.start()
        try:
            with pytest.raises(ProofFileError, match=message):
                read_proof(bomb, max_bytes=max_bytes)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 4_000_000, peak


def test_verify_proof_reads_standard_input(tmp_path: Path) -> None:
    path, _ = proof_of(WINS[0], tmp_path)
    runner = CliRunner()
    for data in (path.read_bytes(), gzip.compress(path.read_bytes())):
        good = runner.invoke(cli.cli, ["verify-proof", "-"], input=data)
        assert good.exit_code == 0 and "proof verified" in good.output, good.output
    bad = runner.invoke(cli.cli, ["verify-proof", "-"], input=b"junk\n")
    assert bad.exit_code == 2 and "error: standard input, line 1" in bad.output


@pytest.mark.parametrize("options", [[], ["single_adjacency=on"], ["extended=on"],
                                     ["tiles_per_player=6"]])
def test_every_position_the_boards_write_has_the_form_a_proof_file_reads(
        options: list[str]) -> None:
    """The reader refuses a strategy line whose position is not as ``Board.position()``
    writes it (such a line no walk reaches); every position of random games, of every
    rules option and of both games, has that form."""
    import random

    from hexgames import abande
    from hexgames.proof import WRITTEN_POSITION

    rules = andantino.Rules.from_options(options)
    boards: list[andantino.Board | abande.Board] = [andantino.Board(rules=rules) for _ in range(10)]
    if not options:
        boards += [abande.Board() for _ in range(10)]
    for seed, board in enumerate(boards):
        rng = random.Random(seed)
        form = WRITTEN_POSITION[board.position().split(" ")[0]]
        for _ in range(120):
            assert form.fullmatch(board.position()), board.position()
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))


def test_the_proof_that_white_wins_the_standard_start_verifies() -> None:
    """Issue 34's result: the committed proof that the first player wins standard
    Andantino verifies with today's pure-Python boards (a change of the rules that broke
    it would fail here; about a minute)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks/runs/andantino-start/start.txt.gz"
    report = verify(path)
    header = report.header
    assert (header.game, header.rules, header.winner, header.claim) == (
        "andantino", (), int(andantino.Color.WHITE), "win")
    assert header.root == andantino.Board().position()
    assert (report.entries, report.winner_positions, report.positions, report.longest) == (
        1_135_098, 1_132_968, 1_237_984, 47)
