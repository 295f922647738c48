"""Tests of the move trees of hexgames.record: variations, NAGs and comments anywhere,
read, validated and written back; the tree API; the caps; graft_board."""

from __future__ import annotations

import contextlib
import copy
import pickle
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hexgames.record as record
import hexgames.record.movetext
import hexgames.record.reader
from hexgames import abande, andantino
from hexgames.record import (
    MAX_VARIATION_DEPTH,
    GameRecord,
    MoveNode,
    RecordError,
    RecordMoveError,
    RecordNode,
    RecordSyntaxError,
    graft_board,
    parse_games,
    read_game,
    read_games,
    record_from_board,
    write_game,
    write_games,
)
from hexgames.record.marks import Mark, split_marks

HEAD = '[Game "Andantino"] [Result "*"]\n\n'
DOCS = Path(__file__).resolve().parents[1] / "docs" / "records.md"

# From the start (White 0,0, Red 1,0): White's first move is 0,1 or 1,-1; after 1. 0,1
# Red may play 1,-1, 1,1 or -1,1; after 1. 1,-1 Red may play 0,1, 2,-1 or 0,-1; after
# 1. 1,-1 2,-1 White may play 0,1, 0,-1, 2,-2 or 2,0.
TREE = ("{start} 1. 0,1 (1. 1,-1 2,-1 (1... 0,-1 {b}) 2. 2,0) (1. 1,-1! 0,1) 1... 1,1 {c}\n"
        "2. -1,1 $14 *")


def movetext(text: str) -> str:
    """The move text of a written record (after the tags)."""
    return text.split("\n\n", 1)[1]


def tree(rec: GameRecord) -> list[tuple[Any, ...]]:
    """Every node as (move, nags, comment, starting comment, variation path, ply)."""
    return [(n.move, n.nags, n.comment, n.starting_comment, n.variation_path(), n.ply())
            for n in rec.nodes()]


# --- the documented examples ----------------------------------------------------------


def test_the_examples_of_the_docs_read_validate_and_write_back_unchanged() -> None:
    # the blocks without a language (the server mode's ```hgn example is checked by
    # tests/test_server_protocol.py)
    fences = re.findall(r"^```(\w*)\n(.*?)^```$", DOCS.read_text(encoding="utf-8"),
                        re.DOTALL | re.MULTILINE)
    blocks = [text for language, text in fences if not language]
    full, lone_movetext, marked = blocks
    rec = read_game(full)
    assert write_game(rec) == full
    assert rec.moves == ["0,1", "1,1", "-1,1", "-1,0", "0,-1", "1,-1", "0,2", "-1,-1",
                         "0,-2"]
    assert [(n.move, n.nags, n.variation_path()) for n in rec.nodes()
            if not n.is_mainline()] == [("2,0", [], ((3, 1),)), ("-1,2", [6], ((5, 1),)),
                                        ("1,-1", [], ((5, 1),)),
                                        ("0,2", [], ((5, 1), (6, 1)))]
    second = read_game(HEAD + lone_movetext)
    assert movetext(write_game(second)) == lone_movetext
    # the study's marks (arrows and circles) in a comment
    third = read_game(marked)
    assert write_game(third) == marked
    text, marks = split_marks(next(third.nodes()).comment, "abande")
    assert text == "Centre." and marks == [Mark("R", "d4"), Mark("Y", "c3"),
                                           Mark("G", "d5", "d4")]


def test_the_example_of_the_module_docstring_is_canonical() -> None:
    assert record.__doc__ is not None
    block = re.search(r"::\n\n(.*?)\n\n\S", record.__doc__, re.DOTALL)
    assert block is not None
    text = "\n".join(line[4:] for line in block.group(1).splitlines()) + "\n"
    assert write_game(read_game(text)) == text


# --- reading --------------------------------------------------------------------------


def test_a_tree_is_read_with_every_move_nag_and_comment() -> None:
    rec = read_game(HEAD + TREE)
    assert rec.moves == ["0,1", "1,1", "-1,1"]
    assert rec.comments == {0: "start", 2: "c"}
    assert tree(rec) == [
        ("0,1", [], None, None, (), 1),
        ("1,-1", [], None, None, ((1, 1),), 1),
        ("2,-1", [], None, None, ((1, 1),), 2),
        ("0,-1", [], "b", None, ((1, 1), (2, 1)), 2),
        ("2,0", [], None, None, ((1, 1),), 3),
        ("1,-1", [1], None, None, ((1, 2),), 1),
        ("0,1", [], None, None, ((1, 2),), 2),
        ("1,1", [], "c", None, (), 2),
        ("-1,1", [14], None, None, (), 3),
    ]
    first = rec.root.variations[0]
    assert [v.move for v in rec.root.variations] == ["0,1", "1,-1", "1,-1"]
    assert first.is_mainline() and not first.starts_variation()
    side = rec.root.variations[2]
    assert side.starts_variation() and not side.is_mainline()
    assert side.parent is rec.root and side.line == 3 and side.column == 58
    assert write_game(rec) == HEAD.replace("] [", "]\n[") + TREE + "\n"


def test_move_numbers_in_variations_fit_their_own_line() -> None:
    # 2... resumes the main line after a variation; a variation of Red's move is 1...
    rec = read_game(HEAD + "1. 0,1 1,1 (1... -1,1 2. -1,2) 2. -1,1 *")
    assert [(n.move, n.ply()) for n in rec.nodes()] == [
        ("0,1", 1), ("1,1", 2), ("-1,1", 2), ("-1,2", 3), ("-1,1", 3)]
    with pytest.raises(RecordSyntaxError) as info:
        parse_games(HEAD + "1. 0,1 1,1 (2. -1,1) *")
    assert str(info.value) == ("game 1, line 3: move number 2. does not fit: ply 2 (-1,1) "
                               "is move 1...")
    assert (info.value.line, info.value.column) == (3, 13)
    with pytest.raises(RecordSyntaxError, match=r"move number 2\. does not fit: ply 2"):
        parse_games(HEAD + "1. 0,1 (1. 1,-1 0,1) 2. 1,1 *")


def test_comments_at_every_place() -> None:
    rec = read_game(HEAD + "{a} 1. {b} 0,1 ({c} 1. {d} 1,-1 {e}) {f} 1... 1,1 * {g}")
    first, side, reply = rec.nodes()
    assert rec.root.comment == "a b"  # between a number and its move: the comment before
    assert first.comment == "f"  # after the ( ... ): the replaced move's
    assert (side.starting_comment, side.comment) == ("c d", "e")
    assert reply.comment == "g"
    assert movetext(write_game(rec)) == "{a b} 1. 0,1 {f} ({c d} 1. 1,-1 {e}) 1... 1,1 {g} *\n"


def test_nags_as_glyphs_and_numbers() -> None:
    glyphs = " ".join(f"{n}. {m}{g}" if i % 2 == 0 else f"{m}{g}" for i, (n, m, g) in
                      enumerate([(1, "0,1", "!"), (1, "1,1", "?"), (2, "-1,1", "!!"),
                                 (2, "-1,0", "??"), (3, "0,-1", "!?"), (3, "1,-1", "?!")]))
    rec = read_game(HEAD + glyphs + " *")
    assert [n.nags for n in rec.nodes()] == [[1], [2], [3], [4], [5], [6]]
    assert movetext(write_game(rec)) == glyphs + " *\n"
    spaced = read_game(HEAD + "1. 0,1 $1 1,1 ! $2 $0 $255 (1... -1,1 $6) $7 *")
    assert [n.nags for n in spaced.nodes()] == [[1], [1, 2, 0, 255, 7], [6]]
    assert movetext(write_game(spaced)) == "1. 0,1! 1,1! $2 $0 $255 $7 (1... -1,1?!) *\n"
    # The first NAG is a glyph only if it has one; the order stays as read.
    late = read_game(HEAD + "1. 0,1 $14 $1 *")
    assert movetext(write_game(late)) == "1. 0,1 $14 $1 *\n"
    assert parse_games(write_game(late)) == [late]


@pytest.mark.parametrize(("movetext_", "message", "line", "column"), [
    ("( 1. 0,1 ) *", r"'\(' at column 1 opens a variation before any move", 3, 1),
    ("{x} (1. 0,1) *", r"'\(' at column 5 opens a variation before any move", 3, 5),
    ("1. 0,1 ((1. 1,-1)) *",
     r"'\(' at column 9 opens a variation right after the opening of another \(line 3, "
     r"column 8\)", 3, 9),
    ("1. 0,1 (\n{x} (1. 1,-1)) *", r"'\(' at column 5 opens a variation right after", 4, 5),
    ("1. 0,1 ) *", r"'\)' at column 8 closes no variation", 3, 8),
    ("1. 0,1 (1. 1,-1)) *", r"'\)' at column 17 closes no variation", 3, 17),
    ("1. 0,1 () *", r"'\(' at column 8 opens a variation that holds no move \(it closes at "
                    r"line 3, column 9\)", 3, 8),
    ("1. 0,1 ( {only a comment} ) *", r"column 8 opens a variation that holds no move", 3, 8),
    ("1. 0,1 (1. 1,-1 *", r"result token \* at column 17 is inside the variation opened at "
                          r"line 3, column 8", 3, 17),
    ("1. 0,1 (1. 1,-1 (1. 0,1 1-0)) 1-0",
     r"result token 1-0 at column 25 is inside the variation opened at line 3, column 17",
     3, 25),
    ("1. 0,1 (1. 1,-1\n\n1... 1,1 *",
     r"'\(' at column 8 opens a variation that is not closed: a '\)' is missing", 3, 8),
    ("1. 0,1 (1. 1,-1 (1. 0,1) \n" + HEAD + "*", r"column 8 opens a variation that is not "
                                                 r"closed", 3, 8),
    ("1. 0,1 (1. 1,-1", r"column 8 opens a variation that is not closed", 3, 8),
    ("1. 0,1 (2. (1. 1,-1)", r"move number 2\. is not followed by a move", 3, 9),
    ("1. 0,1 (1. 1,-1 1... ) *", r"move number 1\.\.\. is not followed by a move", 3, 17),
    ("1. 0,1 * (1. 1,-1)", r"unexpected '\(' after the result \*", 3, 10),
    ("1. 0,1 * )", r"unexpected '\)' after the result \*", 3, 10),
    ("$1 1. 0,1 *", r"annotation '\$1' does not follow a move", 3, 1),
    ("1. $1 0,1 *", r"move number 1\. is not followed by a move", 3, 1),
    ("1. 0,1 (! 1. 1,-1) *", r"annotation '!' does not follow a move", 3, 9),
    ("1. 0,1 $256 *", r"annotation '\$256' is out of range: a NAG is \$0 to \$255", 3, 8),
    ("1. 0,1 $0001 *", r"annotation '\$0001' is out of range", 3, 8),
    ("1. 0,1 !!! *", r"annotation glyph '!!!' is not one of ! \? !! \?\? !\? \?!", 3, 8),
    ("1. 0,1 1,1?? 2. -1,1??! *", r"annotation glyph '\?\?!' is not one of", 3, 21),
])
def test_malformed_variations_and_annotations(movetext_: str, message: str, line: int,
                                              column: int) -> None:
    with pytest.raises(RecordSyntaxError, match=message) as info:
        parse_games(HEAD + movetext_)
    assert (info.value.game_index, info.value.line, info.value.column) == (1, line, column)
    assert str(info.value).startswith(f"game 1, line {line}: ")


def test_syntax_errors_have_columns() -> None:
    cases = [('[Game "Andantino"]  [Event "a\\nb"]\n', 1, 21),  # an unknown escape
             (HEAD + "1. 0,1 {oops", 3, 8),  # an unterminated comment
             (HEAD + "1. 0,1  ; *", 3, 9),  # a stray token
             ('[Game "Andantino"]   [Result "2-0"]\n\n*', 1, 22),  # a bad tag value
             (HEAD + "1. 0,1 1,1 3. -1,1 *", 3, 12),  # a move number that does not fit
             (HEAD + "1.0,1 1..", 3, 9)]  # the '.' after the move number 1.
    for text, line, column in cases:
        with pytest.raises(RecordSyntaxError) as info:
            parse_games(text)
        assert (info.value.line, info.value.column) == (line, column), text


# --- moves of variations are checked --------------------------------------------------


def test_an_illegal_move_in_a_variation_names_its_path_line_and_column() -> None:
    text = HEAD + "1. 0,1 (1. 1,-1 2,-1\n(1... 0,-1 2. 0,0)) 1... 1,1 *"
    with pytest.raises(RecordMoveError) as info:
        read_game(text)
    error = info.value
    assert str(error) == ("game 1, move 2 (2. 0,0) in variation 1 of move 1. > variation "
                          "1 of move 1... (line 4, column 15): illegal move 0,0: 0,0 is "
                          "occupied")
    assert (error.move_number, error.ply, error.move_text) == (2, 3, "0,0")
    assert (error.line, error.column, error.variation) == (4, 15, ((1, 1), (2, 1)))
    # The same move in the main line reads as before variations existed.
    with pytest.raises(RecordMoveError) as main:
        read_game(HEAD + "1. 0,1 (1. 1,-1) 1... 0,0 *")
    assert str(main.value) == "game 1, move 1 (1... 0,0): illegal move 0,0: 0,0 is occupied"
    assert (main.value.line, main.value.column, main.value.variation) == (3, 23, ())


def test_moves_are_checked_in_the_order_written() -> None:
    # The variation's illegal move comes first in the text, the main line's later.
    with pytest.raises(RecordMoveError, match=r"move 1 \(1\. 0,0\) in variation 1 of move "
                                              r"1\."):
        read_game(HEAD + "1. 0,1 (1. 0,0) 1... 5,5 *")


def test_a_variation_of_a_second_player_start_numbers_its_moves_from_there() -> None:
    setup = "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24"
    text = (f'[Game "Andantino"]\n[Position "{setup}"]\n[Result "*"]\n\n'
            "1... 1,1 (1... 1,-1 2. 1,1 (2. 9,9)) 2. -1,1 *\n")
    with pytest.raises(RecordMoveError) as info:
        read_game(text)
    assert str(info.value).startswith("game 1, move 2 (2. 9,9) in variation 1 of move 1... > "
                                      "variation 1 of move 2. (line 5, column 32): illegal")
    assert write_game(read_game(text.replace("9,9", "2,-1"))) == text.replace("9,9", "2,-1")


def test_a_move_after_the_end_in_a_variation() -> None:
    board = andantino.Board()
    for text in ["0,1", "1,1", "-1,1", "-1,0", "0,-1", "1,-1", "0,2", "-1,-1", "0,-2"]:
        board.push_notation(text)
    rec = record_from_board(board, tags={"Date": "2026.01.01"})
    last = rec.root.end()
    assert isinstance(last, MoveNode) and last.parent is not None
    last.parent.add_variation("0,-2").add_variation("2,2")
    text = write_game(rec)
    assert text.endswith(" 5. 0,-2 (5. 0,-2 2,2) 1-0\n")
    line = text.splitlines()[-1]
    again = parse_games(text)[0]
    with pytest.raises(RecordMoveError) as info:
        again.validate()
    assert str(info.value) == (
        f"game 1, move 5 (5... 2,2) in variation 1 of move 5. (line 6, column "
        f"{line.index('2,2') + 1}): the game is over: it ended 1-0 (White wins by line) "
        "after ply 9")


def test_validate_checks_every_line_and_the_main_lines_end() -> None:
    rec = read_game(HEAD + TREE)
    rec.validate()
    with pytest.raises(record.RecordResultError, match=r"Result tag says 1-0 but the moves"):
        read_game(HEAD.replace('"*"', '"1-0"') + TREE.replace(" *", " 1-0"))


def test_board_at_any_node() -> None:
    rec = read_game(HEAD + TREE)
    nodes = list(rec.nodes())
    assert rec.board_at(rec.root).position() == andantino.STARTING_POSITION
    expected = andantino.Board()
    for text in ["1,-1", "0,-1"]:  # the alternative to 2,-1 in the alternative to 0,1
        expected.push_notation(text)
    assert rec.board_at(nodes[3]) == expected
    assert rec.board_at(nodes[-1]) == rec.board()
    with pytest.raises(RecordError, match="not in this record's tree"):
        rec.board_at(read_game(HEAD + TREE).root.variations[0])
    detached = rec.root.variations[0].remove_variation(0)
    with pytest.raises(RecordError, match="not in this record's tree"):
        rec.board_at(detached)


# --- writing --------------------------------------------------------------------------


def test_the_canonical_form() -> None:
    root = RecordNode(comment="opening")
    first = root.add_variation("0,1", nags=[3])
    side = root.add_variation("1,-1", starting_comment="instead", comment="also good")
    side.add_variation("0,1").add_variation("1,1", nags=[146])
    reply = first.add_variation("1,1", comment="the reply")
    alt = first.add_variation("-1,1", nags=[2, 5])
    alt.add_variation("-1,2")
    reply.add_variation("-1,1").add_variation("-1,0")
    rec = GameRecord({"Game": "Andantino", "Result": "*"}, root=root)
    assert movetext(write_game(rec)) == (
        "{opening} 1. 0,1!! ({instead} 1. 1,-1 {also good} 1... 0,1 2. 1,1 $146) 1... 1,1\n"
        "{the reply} (1... -1,1? $5 2. -1,2) 2. -1,1 -1,0 *\n")
    assert parse_games(write_game(rec)) == [rec]
    rec.validate()


def test_a_long_tree_is_wrapped_at_80_columns_between_units() -> None:
    board = andantino.Board(rules=andantino.Rules(tiles_per_player=None))
    rng = random.Random(7)
    root = RecordNode()
    node: RecordNode = root
    for _ in range(60):
        moves = list(board.legal_moves)
        if board.is_game_over() or not moves:
            break
        move = rng.choice(moves)
        node.add_variation(rng.choice(moves).notation(), nags=[5]).add_variation(
            "0,0", comment="x" * rng.randint(0, 30))
        node.promote_to_main(node.add_variation(move.notation()))
        board.push(move)
        node = node.variations[0]
    rec = GameRecord({"Game": "Andantino", "Rules": "tiles_per_player=unlimited",
                      "Result": "*"}, root=root)
    text = write_game(rec)
    lines = movetext(text).splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert sum(len(line) >= 70 for line in lines) >= 10
    assert not any(line.endswith((".", "(")) or line.startswith(")") for line in lines)
    assert parse_games(text) == [rec]


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: setattr(r.root.variations[0].variations[0], "starting_comment", "x"),
     r"game 1: the comment before ply 2 cannot be written: only a variation's first move "
     r"has a comment before it \(before a main continuation it is the comment after ply 1\)"),
    (lambda r: setattr(r.root.variations[1], "comment", "a } b"),
     r"the comment after ply 1 in variation 1 of move 1\. cannot be written"),
    (lambda r: setattr(r.root.variations[1], "starting_comment", "}"),
     r"the comment before ply 1 in variation 1 of move 1\. cannot be written"),
    (lambda r: r.root.variations[1].nags.append(256),
     r"the NAGs of move 1 '1,-1' in variation 1 of move 1\. cannot be written: a NAG is a "
     r"whole number from 0 to 255, not 256"),
    (lambda r: setattr(r.root.variations[1], "move", "1,-1)"),
     r"move 1 '1,-1\)' in variation 1 of move 1\. cannot be written: a move is one word"),
    (lambda r: setattr(r.root.variations[1], "move", "0,1!"), r"move 1 '0,1!' .*cannot be"),
    (lambda r: setattr(r.root.variations[1], "move", "*"), r"move 1 '\*' .*cannot be"),
    (lambda r: setattr(r.root.variations[1], "move", "(1,1"), r"move 1 '\(1,1' .*cannot be"),
])
def test_the_writer_refuses_what_it_could_not_read_back(change: Any, message: str) -> None:
    rec = read_game(HEAD + "1. 0,1 (1. 1,-1) 1... 1,1 *")
    change(rec)
    with pytest.raises(RecordError, match=message):
        write_game(rec)


def test_records_without_variations_are_written_as_before() -> None:
    # The writer of the one-line records (before trees), on a record with every kind of
    # comment place, numbers after comments and a second-player start.
    text = ('[Game "Andantino"]\n[Result "*"]\n\n{c0} 1. 0,1 {c1} 1... 1,1 2. -1,1 -1,0 {c4}'
            " 3. 0,-1 {} 3... 1,-1 *\n")
    rec = read_game(text)
    assert write_game(rec) == text
    assert rec == GameRecord({"Game": "Andantino", "Result": "*"},
                             ["0,1", "1,1", "-1,1", "-1,0", "0,-1", "1,-1"],
                             {0: "c0", 1: "c1", 4: "c4", 5: ""})


# --- the caps -------------------------------------------------------------------------


def nested(depth: int) -> str:
    """Move text (not replayed) with variations nested ``depth`` deep, each replacing the
    second move of the one around it."""
    return "0,1 1,1 " + "(2,2 3,3 " * depth + ")" * depth + " *"


def test_variations_nest_up_to_the_cap() -> None:
    rec = parse_games(HEAD + nested(MAX_VARIATION_DEPTH))[0]
    deepest = max(rec.nodes(), key=lambda node: len(node.variation_path()))
    assert len(deepest.variation_path()) == MAX_VARIATION_DEPTH
    assert parse_games(write_game(rec)) == [rec]
    # Variations that replace a first move are alternatives to one move, not nested.
    flat = read_game(HEAD + "1. 0,1 " + "(1. 1,-1 " * 100 + ")" * 100 + " *")
    assert len(flat.root.variations) == 101
    assert movetext(write_game(flat)) .startswith("1. 0,1 (1. 1,-1) (1. 1,-1) (1. 1,-1)")
    column = len("0,1 1,1 ") + 1 + len("(2,2 3,3 ") * MAX_VARIATION_DEPTH
    with pytest.raises(RecordSyntaxError) as info:
        parse_games(HEAD + nested(MAX_VARIATION_DEPTH + 1))
    assert str(info.value) == (f"game 1, line 3: '(' at column {column} opens a variation "
                               "nested deeper than 100 levels (MAX_VARIATION_DEPTH)")
    assert info.value.column == column
    # A tree built in code deeper than the cap is refused by the writer: here an
    # alternative to the innermost variation's second move.
    (last,) = (node for node in rec.nodes()
               if node.move == "3,3" and len(node.variation_path()) == MAX_VARIATION_DEPTH)
    assert last.parent is not None and last.parent is deepest
    last.parent.add_variation("4,4")
    with pytest.raises(RecordError, match=r"nested 101 deep, deeper than 100"):
        write_game(rec)


def test_no_input_makes_the_reader_recurse() -> None:
    n = 50_000  # 50 times the recursion limit
    for text in ["1. 0,1 " + "(1. 1,-1 " * n, "(" * n, ")" * n, "0,1 1,1 " + "(2,2 3,3 " * n,
                 "1. 0,1 " + "( 1,-1 ) " * n + "*", "1. 0,1 " + "{c} " * n + "*"]:
        with contextlib.suppress(RecordError):
            parse_games(HEAD + text)


def test_the_number_of_moves_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hexgames.record.reader, "MAX_GAME_MOVES", 5)
    parse_games(HEAD + "1. 0,1 (1. 1,-1 0,1) 1... 1,1 2. -1,1 *")
    with pytest.raises(RecordSyntaxError) as info:
        parse_games(HEAD + "1. 0,1 (1. 1,-1 0,1) (1. 1,-1 2,-1) 1... 1,1 *")
    assert str(info.value) == ("game 1, line 3: the game holds more than 5 moves counting "
                               "its variations (MAX_GAME_MOVES)")
    assert info.value.column == 42  # the sixth move, 1,1
    monkeypatch.setattr(hexgames.record.movetext, "MAX_GAME_MOVES", 3)
    with pytest.raises(RecordError, match=r"the tree holds more than 3 moves"):
        write_game(read_game(HEAD + "1. 0,1 (1. 1,-1 0,1) 1... 1,1 *"))


def test_a_long_main_line_is_safe_to_read_write_copy_and_pickle() -> None:
    plies = 30_000  # 30 times the recursion limit
    text = HEAD + " ".join(f"{i},{-i}" for i in range(plies)) + " *"  # not replayed
    rec = parse_games(text)[0]
    assert len(rec.moves) == plies
    assert parse_games(write_game(rec)) == [rec]
    assert pickle.loads(pickle.dumps(rec)) == rec
    assert copy.deepcopy(rec) == rec
    assert rec.copy() == rec
    node = list(rec.mainline())[-1]
    again = pickle.loads(pickle.dumps(node))  # a node brings its whole tree
    assert isinstance(again, MoveNode) and again.ply() == plies
    assert again.root().same_tree(rec.root)


def best_time(function: Any, text: str) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        function(text)
        times.append(time.perf_counter() - start)
    return min(times)


def parse_and_write(text: str) -> None:
    for rec in parse_games(text):
        write_game(rec)


@pytest.mark.parametrize("unit", [
    "0,1 ( 1,-1 0,1 ) ",  # many variations (the moves are not replayed)
    "{a} ",  # many comments at one place (joined once, not as they come)
    "( 1,-1 $5 {x} ) ",  # many variations of one move, with NAGs and comments
])
def test_reading_and_writing_take_time_linear_in_the_text(unit: str) -> None:
    def text(n: int) -> str:
        if unit.startswith("0,1"):
            return HEAD + unit * n + "*"
        return HEAD + "1. 0,1 " + unit * n + "*"

    small, large = best_time(parse_and_write, text(2_000)), best_time(parse_and_write,
                                                                       text(16_000))
    # Linear: about 8 times as long; quadratic would be about 64 times.
    assert large < 24 * small + 0.05, (small, large)


def test_validating_takes_time_linear_in_the_moves() -> None:
    # An alternative at every ply of a long line (extended play goes on for thousands of
    # plies): replaying each from the start would be quadratic in the length; the walk
    # pushes and pops instead.
    rules = andantino.Rules(extended=True, tiles_per_player=3, extended_move_limit=10**6)

    def branched(plies: int) -> GameRecord:
        board = andantino.Board(rules=rules)
        rng = random.Random(3)
        while board.ply() < plies:
            board.push(rng.choice(board.legal_moves))
        rec = record_from_board(board, tags={"Date": "2026.01.01"})
        for node in list(rec.mainline()):
            assert node.parent is not None
            node.parent.add_variation(node.move, comment="the same again")
        return rec

    def timed(rec: GameRecord) -> float:
        return best_time(lambda _: rec.validate(), "")

    small, large = branched(250), branched(2_000)
    assert sum(1 for _ in large.nodes()) == 4_000
    small_time, large_time = timed(small), timed(large)
    assert large_time < 24 * small_time + 0.05, (small_time, large_time)


# --- the tree API ---------------------------------------------------------------------


def test_navigating_and_editing_a_tree() -> None:
    rec = read_game(HEAD + TREE)
    root = rec.root
    first = root.next()
    assert first is not None and first.move == "0,1" and first.parent is root
    assert [n.move for n in root.mainline()] == ["0,1", "1,1", "-1,1"]
    assert root.mainline_moves() == rec.moves
    assert root.end() is list(root.mainline())[-1] and root.end().is_end()
    assert root.variation(1) is root.variations[1] and root.variation(-1) is root.variations[2]
    assert root.variation("1,-1") is root.variations[1]
    assert root.variation(root.variations[2]) is root.variations[2]
    assert root.has_variation("0,1") and not root.has_variation("5,5")
    for which, message in [(3, "index 3 is out of range"), ("5,5", "no variation of this "
                           "node plays '5,5'"), (first.variations[0], "is not a variation"),
                           (True, "an index, a move text or a node")]:
        with pytest.raises(RecordError, match=message):
            root.variation(which)  # type: ignore[arg-type]
    # The second alternative becomes the main line; the others keep their order.
    second = root.variations[2]
    root.promote_to_main(second)
    assert root.variations == [second, first, root.variations[2]]
    assert rec.moves == ["1,-1", "0,1"] and second.is_mainline() and not first.is_mainline()
    root.demote(second)
    root.demote(second)
    assert root.variations[2] is second
    root.promote(second)
    assert root.variations[1] is second
    root.promote_to_main(first)
    assert rec.moves == ["0,1", "1,1", "-1,1"]
    removed = root.remove_variation(second)
    assert removed.parent is None and removed.move == "1,-1" and len(root.variations) == 2
    added = first.add_main_variation("1,-1", nags=[3], comment="new")
    assert rec.moves == ["0,1", "1,-1"] and first.variations[1].move == "1,1"
    last = added.add_line(["2,-1", "0,-1"])
    assert isinstance(last, MoveNode) and last.ply() == 4 and rec.moves[-1] == "0,-1"
    assert added.add_line([]) is added
    rec.validate()
    assert movetext(write_game(rec)) == (
        "{start} 1. 0,1 (1. 1,-1 2,-1 (1... 0,-1 {b}) 2. 2,0) 1... 1,-1!! {new} (1... 1,1\n"
        "{c} 2. -1,1 $14) 2. 2,-1 0,-1 *\n")


def test_nodes_check_what_they_are_given() -> None:
    root = RecordNode()
    for kwargs, message in [({"move": 1}, "a move is its text"),
                            ({"move": "0,1", "nags": [256]}, "not 256"),
                            ({"move": "0,1", "nags": [True]}, "not True"),
                            ({"move": "0,1", "comment": 5}, "a comment is text or None"),
                            ({"move": "0,1", "starting_comment": b"x"}, "starting comment")]:
        with pytest.raises(RecordError, match=message):
            root.add_variation(**kwargs)
    assert root.variations == []


def test_a_record_of_a_tree_made_in_code() -> None:
    root = RecordNode(comment="by hand")
    root.add_variation("0,1").add_variation("1,1", nags=[1])
    root.add_variation("1,-1", starting_comment="or")
    rec = GameRecord({"Game": "Andantino", "Result": "*"}, root=root)
    assert rec.root is root and rec.moves == ["0,1", "1,1"]
    assert rec.comments == {0: "by hand"}
    assert rec.move_lines == [None, None]
    assert read_game(write_game(rec)) == rec
    with pytest.raises(TypeError, match="moves and comments, or root"):
        GameRecord({}, ["0,1"], root=RecordNode())
    with pytest.raises(RecordError, match="without a parent"):
        GameRecord({}, root=root.variations[0])
    assert "variations=1" in repr(rec)


def test_the_main_line_views_refuse_changes() -> None:
    rec = read_game(HEAD + TREE)
    moves, comments = rec.moves, rec.comments
    for change in [lambda: moves.append("x"), lambda: moves.extend(["x"]),
                   lambda: moves.__setitem__(0, "x"), lambda: moves.pop(),
                   lambda: moves.clear(), lambda: comments.__setitem__(1, "x"),
                   lambda: comments.update({1: "x"}), lambda: comments.pop(0)]:
        with pytest.raises(TypeError, match=r"cannot be changed: edit record\.root"):
            change()
    assert rec.moves == ["0,1", "1,1", "-1,1"] and rec.comments == {0: "start", 2: "c"}
    assert type(copy.copy(moves)) is list and pickle.loads(pickle.dumps(comments)) == comments


def test_records_compare_their_trees() -> None:
    one, two = read_game(HEAD + TREE), read_game(HEAD + TREE)
    assert one == two
    two.root.variations[1].nags.append(5)
    assert one != two
    two.root.variations[1].nags.pop()
    assert one == two
    two.root.variations[2].variations[0].comment = ""
    assert one != two
    two.root.variations[2].variations[0].comment = None
    two.root.promote(2)
    assert one != two


# --- graft_board ----------------------------------------------------------------------


def test_graft_keeps_the_tree_and_makes_the_board_the_main_line() -> None:
    text = ('[Game "Andantino"]\n[Event "E"]\n[White "Alice"]\n[Result "*"]\n[Foo "bar"]\n\n'
            + TREE + "\n")
    rec = read_game(text)
    same = andantino.Board()
    for move in ["0,1", "1,1", "-1,1"]:
        same.push_notation(move)
    assert graft_board(rec, same) == rec
    assert write_game(graft_board(rec, same)) == text
    # Playing on: the new moves continue the main line.
    longer = same.copy()
    longer.push_notation("-1,0")
    grafted = graft_board(rec, longer, tags={"Red": "Bob"})
    assert grafted.moves == ["0,1", "1,1", "-1,1", "-1,0"]
    assert list(grafted.tags) == ["Game", "Event", "White", "Result", "Foo", "Red"]
    assert rec.moves == ["0,1", "1,1", "-1,1"]  # the record itself is not changed
    # Leaving the main line: the board's move becomes main, the old line an alternative.
    other = andantino.Board()
    for move in ["0,1", "-1,1"]:
        other.push_notation(move)
    grafted = graft_board(rec, other)
    assert movetext(write_game(grafted)) == (
        "{start} 1. 0,1 (1. 1,-1 2,-1 (1... 0,-1 {b}) 2. 2,0) (1. 1,-1! 0,1) 1... -1,1\n"
        "(1... 1,1 {c} 2. -1,1 $14) *\n")
    grafted.validate()
    # Following a variation (written (1,-1) on the board's side: matched as a move).
    side = andantino.Board()
    for move in ["(1,-1)", "2,-1", "2,0"]:
        side.push_notation(move)
    grafted = graft_board(rec, side)
    assert grafted.moves == ["1,-1", "2,-1", "2,0"]
    assert grafted.root.variations[1].move == "0,1"
    # Stopping inside the main line: the moves after the board's are not kept.
    short = andantino.Board()
    short.push_notation("0,1")
    grafted = graft_board(rec, short)
    assert grafted.moves == ["0,1"] and len(grafted.root.variations) == 3


def test_graft_sets_the_end_tags_from_the_board() -> None:
    moves = ["0,1", "1,1", "-1,1", "-1,0", "0,-1", "1,-1", "0,2", "-1,-1"]
    rec = read_game(HEAD.replace('"*"]', '"0-1"] [Termination "resignation"]')
                    + "1. 0,1 1,1 (1... 1,-1) 0-1")
    board = andantino.Board()
    for move in moves:
        board.push_notation(move)
    unfinished = graft_board(rec, board)
    assert (unfinished.result, "Termination" in unfinished.tags) == ("*", False)
    board.push_notation("0,-2")
    won = graft_board(rec, board)
    assert (won.result, won.tags["Termination"]) == ("1-0", "line")
    assert list(won.tags) == ["Game", "Result", "Termination"]
    won.validate()
    resigned = graft_board(rec, andantino.Board(), result="0-1",
                           termination=record.Termination.RESIGNATION)
    assert resigned.moves == [] and resigned.result == "0-1"


def test_graft_of_a_canonical_record_compares_texts_and_replays_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rec = read_game(HEAD + TREE)  # every move canonical
    boards = []
    for line in (["0,1", "1,1", "-1,1", "-1,0"], ["0,1", "-1,1"], ["1,-1", "2,-1", "2,0"],
                 ["0,1"], []):
        board = andantino.Board()
        for move in line:
            board.push_notation(move)
        boards.append(board)
    replayed = [graft_board(rec, board) for board in boards]
    pushed = []
    push = andantino.Board.push
    monkeypatch.setattr(andantino.Board, "push",
                        lambda board, move: (pushed.append(move), push(board, move)))
    assert [graft_board(rec, board, canonical=True) for board in boards] == replayed
    assert pushed == []
    # A move spelt otherwise is another move then: the caller promises canonical texts.
    odd = read_game(HEAD + "1. (0,1) *")
    assert graft_board(odd, boards[3], canonical=True).root.variations[0].move == "0,1"
    assert len(graft_board(odd, boards[3], canonical=True).root.variations) == 2


def test_graft_refuses_another_game_rules_or_start() -> None:
    rec = read_game(HEAD + TREE)
    with pytest.raises(RecordError, match="the board is of abande, the record of Andantino"):
        graft_board(rec, abande.Board())  # type: ignore[arg-type]
    with pytest.raises(RecordError, match=r"the board's rules \(single_adjacency=on\) are "
                                          r"not the record's \(the defaults\)"):
        graft_board(rec, andantino.Board(rules=andantino.Rules(single_adjacency=True)))
    with pytest.raises(RecordError, match="the board starts at"):
        graft_board(rec, andantino.Board("andantino w=0,0;0,1 r=1,0 turn=r"))
    with pytest.raises(RecordError, match="come from the board"):
        graft_board(rec, andantino.Board(), tags={"Result": "1-0"})


# --- properties -----------------------------------------------------------------------

_COMMENT_CHARS = "ab xyz\n\n\t[]()\"\\$!?.,;*{-0123456789é"


def _comment(rng: random.Random) -> str:
    return "".join(rng.choice(_COMMENT_CHARS) for _ in range(rng.randint(0, 12))).strip()


def _nags(rng: random.Random) -> list[int]:
    return [rng.choice([1, 2, 3, 4, 5, 6, rng.randint(0, 255)])
            for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3]))]


def _spelling(rng: random.Random, game: str, notation: str) -> str:
    """The move as a record may spell it: canonical, or another form the game reads."""
    if rng.random() < 0.7:
        return notation
    if game == "andantino":
        return ">".join(f"({cell})" for cell in notation.split(">"))
    return notation.upper()


def _grow(rng: random.Random, game: str, board: Any, node: RecordNode, depth: int,
          plies: int, positions: dict[int, str]) -> None:
    """Add a line of up to ``plies`` random legal moves below ``node`` (``board`` is at
    ``node``), with alternatives nested up to three deep, comments and NAGs; record the
    position after each new node. ``board`` is left as it was."""
    pushed = 0
    for _ in range(plies):
        if board.is_game_over():
            break
        moves = list(board.legal_moves)
        move = rng.choice(moves)
        child = node.add_variation(_spelling(rng, game, move.notation()), nags=_nags(rng),
                                   comment=_comment(rng) if rng.random() < 0.2 else None)
        while depth < 3 and rng.random() < 0.25:
            alternative = rng.choice(moves)
            side = node.add_variation(
                _spelling(rng, game, alternative.notation()), nags=_nags(rng),
                comment=_comment(rng) if rng.random() < 0.2 else None,
                starting_comment=_comment(rng) if rng.random() < 0.2 else None)
            board.push(alternative)
            positions[id(side)] = board.position()
            _grow(rng, game, board, side, depth + 1, rng.randint(0, 5), positions)
            board.pop()
        board.push(move)
        positions[id(child)] = board.position()
        pushed += 1
        node = child
    for _ in range(pushed):
        board.pop()


@st.composite
def random_trees(draw: st.DrawFn) -> tuple[GameRecord, dict[int, str]]:
    """A valid record of a random tree of either game, and the position after each node
    (by ``id`` of the node)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    game = draw(st.sampled_from(["andantino", "abande"]))
    module: Any = andantino if game == "andantino" else abande
    board = module.Board()
    if draw(st.booleans()):  # from a set-up position, perhaps with the second to move
        for _ in range(draw(st.integers(1, 5))):
            board.push(rng.choice(board.legal_moves))
        board = module.Board(board.position(), board.rules)
    root = RecordNode(comment=_comment(rng) if rng.random() < 0.3 else None)
    positions: dict[int, str] = {}
    _grow(rng, game, board, root, 0, draw(st.integers(0, 40)), positions)
    main = board.copy()
    for text in root.mainline_moves():
        main.push_notation(text)
    tags = record_from_board(main, tags={"Event": _comment(rng).replace("\n", " "),
                                         "Zz": "kept"}).tags
    return GameRecord(tags, root=root), positions


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(random_trees(), min_size=1, max_size=3))
def test_random_trees_round_trip(games: list[tuple[GameRecord, dict[int, str]]]) -> None:
    recs = [rec for rec, _ in games]
    for index, rec in enumerate(recs, 1):
        rec.game_index = index
    text = write_games(recs)
    again = parse_games(text)
    assert again == recs
    assert write_games(again) == text
    # Move text is wrapped at 80 (a line may be longer only for a comment's sake; tag
    # lines are never wrapped).
    assert all(len(line) <= 80 or "{" in line or "}" in line
               for line in text.splitlines() if not line.startswith("["))
    for (rec, positions), read in zip(games, again, strict=True):
        read.validate()
        assert read.tags == rec.tags and list(read.tags)[-1] == "Zz"
        for node, read_node in zip(rec.nodes(), read.nodes(), strict=True):
            assert read_node.line is not None and read_node.column is not None
            if rec.game_index % 2 or node.ply() < 8:  # replays are quadratic: sample
                assert read.board_at(read_node).position() == positions[id(node)]


_PIECES = ['[Game "Andantino"]', '[Game "Abande"]', '[Result "*"]', '[Result "1-0"]', "(",
           ")", "( ", " )", "{", "}", "{c}", "\n", "\n\n", " ", "1.", "1...", "2.", "0,1",
           "1,-1", "1,1", "(1,1)", "d4", "c3-d4", "$1", "$300", "!", "!?", "???", "*", "1-0",
           "[", "]", '"', "\\", "x"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_fuzz_record_like_text_with_variations(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        recs = parse_games(text)
    except RecordError:
        return
    for rec in recs:
        try:
            rec.validate()
        except RecordError:
            continue
        assert parse_games(write_game(rec)) == [rec]


def test_read_games_of_the_tree_examples() -> None:
    text = HEAD + TREE + "\n\n" + HEAD.replace("Andantino", "Abande") + (
        "1. d4 (1. c3 d4 (1... c4)) 1... c4 *\n")
    first, second = read_games(text)
    assert second.game == "abande" and second.moves == ["d4", "c4"]
    assert [n.move for n in second.nodes()] == ["d4", "c3", "d4", "c4", "c4"]
    assert parse_games(write_games([first, second])) == [first, second]
