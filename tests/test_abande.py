"""Abande: every rule of docs/rules.md, its examples, notation, positions and perft.

Positions are written as position strings (docs/notation.md) or reached by pushing moves;
each test states the exact value the rules give. Points: a1 = (-3, 3), a4 = (-3, 0),
d1 = (0, 3), d4 = (0, 0), d7 = (0, -3), g1 = (3, 0), g4 = (3, -3).
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexgames import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Outcome,
    Termination,
)
from hexgames.abande import (
    BLACK,
    GAME_NAME,
    PASS,
    PLAYER_TAGS,
    POINTS,
    STARTING_POSITION,
    WHITE,
    Board,
    Color,
    Move,
    Rules,
    cell_name,
    parse_cell,
)
from hexgames.hexgrid import hexagon

B, W = BLACK, WHITE


def names(moves: object) -> set[str]:
    return {m.notation() for m in moves}  # type: ignore[attr-defined]


def stack_moves(board: Board) -> set[str]:
    return {m.notation() for m in board.legal_moves if m.is_stack_move}


def perft(board: Board, depth: int) -> int:
    if depth == 0:
        return 1
    if board.is_game_over():
        return 0
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


# --- the board, the names of the points ---------------------------------------------


def test_module_vocabulary() -> None:
    assert GAME_NAME == "Abande"
    assert PLAYER_TAGS == ("Black", "White")
    assert (int(Color.BLACK), int(Color.WHITE)) == (0, 1)
    assert STARTING_POSITION == "abande turn=b hands=b18,w18"
    assert Board().position() == STARTING_POSITION


def test_point_names_of_notation_md() -> None:
    expected = {"d4": (0, 0), "d1": (0, 3), "d7": (0, -3), "a1": (-3, 3), "a4": (-3, 0),
                "g1": (3, 0), "g4": (3, -3), "c4": (-1, 0), "e3": (1, 0)}
    for name, cell in expected.items():
        assert parse_cell(name) == cell
        assert parse_cell(name.upper()) == cell
        assert cell_name(cell) == name
    assert len(POINTS) == 37
    assert set(POINTS) == set(hexagon(3))
    assert [cell_name(c) for c in POINTS[:5]] == ["a1", "a2", "a3", "a4", "b1"]
    assert [cell_name(c) for c in POINTS[-4:]] == ["g1", "g2", "g3", "g4"]
    columns = {}
    for cell in POINTS:
        columns.setdefault(cell_name(cell)[0], []).append(int(cell_name(cell)[1:]))
    assert {k: max(v) for k, v in columns.items()} == {
        "a": 4, "b": 5, "c": 6, "d": 7, "e": 6, "f": 5, "g": 4}


@pytest.mark.parametrize("text", ["h1", "a5", "d0", "d8", "g5", "b6", "", "4d", "dd"])
def test_points_off_the_board(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a point"):
        parse_cell(text)
    with pytest.raises(InvalidMoveError):
        Board().stack(text)


def test_off_board_cells_are_rejected() -> None:
    for cell in [(4, 0), (3, 1), (-2, -2), (0, 4)]:
        with pytest.raises(InvalidMoveError, match="not a point"):
            cell_name(cell)
        with pytest.raises(InvalidMoveError, match="not a point"):
            Move(cell)
        with pytest.raises(InvalidMoveError, match="not a point"):
            Board().stack(cell)


# --- the examples of docs/rules.md ---------------------------------------------------------


def test_example_empty_board_37_moves() -> None:
    board = Board()
    assert board.turn is BLACK
    assert len(board.legal_moves) == 37
    assert names(board.legal_moves) == {cell_name(c) for c in POINTS}
    assert all(m.is_entry for m in board.legal_moves)


def test_example_eight_entries_after_two() -> None:
    board = Board()
    board.push(Move((0, 0)))
    board.push(Move((1, 0)))
    assert board.turn is BLACK
    moves = list(board.legal_moves)
    assert len(moves) == 8
    assert {m.to for m in moves} == {(-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 1),
                                     (2, -1), (2, 0)}
    assert all(m.is_entry for m in moves)
    # The capture (0, 0) onto (1, 0) is forbidden by the opening restriction.
    assert not board.is_legal(Move((1, 0), (0, 0)))


def test_example_eleven_moves_with_the_first_capture() -> None:
    board = Board()
    for cell in [(0, 0), (1, 0), (-1, 0)]:
        board.push(Move(cell))
    assert board.turn is WHITE
    moves = list(board.legal_moves)
    assert len(moves) == 11
    assert sum(m.is_entry for m in moves) == 10
    assert [m for m in moves if m.is_stack_move] == [Move(to=(0, 0), from_=(1, 0))]
    assert names(moves) == {"b3", "b4", "c3", "c5", "d3", "d5", "e2", "e4", "f2", "f3",
                            "e3-d4"}


# --- entries --------------------------------------------------------------------------


def test_first_entry_from_a_corner() -> None:
    board = Board()
    board.push_notation("a1")
    assert names(board.legal_moves) == {"a2", "b1", "b2"}
    board = Board()
    board.push_notation("g4")
    assert names(board.legal_moves) == {"g3", "f5", "f4"}


def test_entries_from_an_edge_point_and_the_centre() -> None:
    board = Board()
    board.push_notation("a2")
    assert names(board.legal_moves) == {"a1", "a3", "b2", "b3"}
    board = Board()
    board.push_notation("d4")
    assert names(board.legal_moves) == {"c3", "c4", "d3", "d5", "e3", "e4"}


def test_entry_must_touch_the_band() -> None:
    board = Board()
    board.push_notation("d4")
    with pytest.raises(IllegalMoveError, match="touches no occupied point"):
        board.push_notation("a1")
    with pytest.raises(IllegalMoveError, match="d4 is occupied"):
        board.push_notation("d4")
    assert board.ply() == 1


def test_entries_with_an_empty_hand_are_illegal() -> None:
    board = Board(FULL_DRAW)
    with pytest.raises(IllegalMoveError, match="no pieces left in hand"):
        board.parse_notation("e1")


def test_perft_md() -> None:
    board = Board()
    assert [perft(board, d) for d in range(1, 4)] == [37, 180, 1176]
    assert board.position() == STARTING_POSITION


def test_perft_depths_four_and_five() -> None:
    # Not in docs/perft.md yet; the naive referee of abande_reference counts the same
    # (test_abande_properties.py checks depth 4 against it).
    board = Board()
    assert perft(board, 4) == 10_482
    assert perft(board, 5) == 109_116
    assert board.position() == STARTING_POSITION


# --- the opening restriction ----------------------------------------------------------


def test_no_capture_before_blacks_second_entry() -> None:
    board = Board("abande d4=B e3=W turn=b hands=b17,w17")
    assert board.opening_restriction
    assert stack_moves(board) == set()
    assert len(board.legal_moves) == 8
    with pytest.raises(IllegalMoveError, match="opening restriction"):
        board.parse_notation("d4-e3")
    board.push_notation("c4")
    assert not board.opening_restriction
    assert stack_moves(board) == {"e3-d4"}


def test_opening_restriction_from_the_position_string_alone() -> None:
    # White has entered three pieces, Black one: still no stack moves.
    restricted = Board("abande c4=W d4=B e3=W e4=W turn=b hands=b17,w15")
    assert restricted.opening_restriction
    assert stack_moves(restricted) == set()
    # Black has entered two: the same stacks may capture.
    free = Board("abande c4=W d4=B e3=W e4=W f2=B turn=b hands=b16,w15")
    assert not free.opening_restriction
    assert stack_moves(free) == {"f2-e3"}  # d4 holds c4 to the band


def test_plies_one_to_three_are_entries() -> None:
    rng = random.Random(11)
    for _ in range(30):
        board = Board()
        for _ in range(3):
            assert all(m.is_entry for m in board.legal_moves)
            board.push(rng.choice(board.legal_moves))
        assert not board.opening_restriction


# --- stack moves ----------------------------------------------------------------------


def test_capture_blocked_by_the_band() -> None:
    # The line c4 d4 e3 f2: the Black piece on d4 holds the band together.
    board = Board("abande c4=W d4=B e3=W f2=B turn=b hands=b16,w16")
    assert stack_moves(board) == {"f2-e3"}
    for text in ("d4-c4", "d4-e3"):
        with pytest.raises(IllegalMoveError, match="split the band"):
            board.parse_notation(text)
    board.push_notation("f2-e3")
    assert board.stack("e3") == (W, B)
    assert board.stack("f2") == ()


def test_a_ring_around_a_hole_lets_every_stack_move() -> None:
    # Six pieces around the empty d4, alternating colours: each leaves a connected path.
    ring = "abande c3=W c4=B d3=B d5=W e3=W e4=B turn=b hands=b15,w15"
    board = Board(ring)
    assert stack_moves(board) == {"c4-c3", "c4-d5", "e4-d5", "e4-e3", "d3-c3", "d3-e3"}
    # Open the ring at e3: the path e4 d5 c4 c3 d3 lets only its ends move.
    open_ring = "abande c3=W c4=B d3=B d5=W e4=B turn=b hands=b15,w16"
    assert stack_moves(Board(open_ring)) == {"e4-d5", "d3-c3"}
    assert stack_moves(Board(open_ring.replace("turn=b", "turn=w"))) == set()


def test_the_moves_of_one_stack() -> None:
    # What the browser app sends: the stacks that can move, then one stack's targets.
    board = Board("abande c3=W c4=B d3=B d5=W e3=W e4=B turn=b hands=b15,w15")
    assert [cell_name(c) for c in board.legal_sources()] == ["c4", "d3", "e4"]
    assert [m.notation() for m in board.legal_moves_from("c4")] == ["c4-c3", "c4-d5"]
    assert board.legal_moves_from((1, -1)) == board.legal_moves_from("e4")
    assert [m.notation() for m in board.legal_moves_from("e4")] == ["e4-d5", "e4-e3"]
    assert board.legal_moves_from("c3") == ()  # White's
    assert board.legal_moves_from("a1") == ()  # empty
    entries = board.legal_moves_from(None)
    assert entries and all(m.is_entry for m in entries)
    assert set(board.legal_moves) == set(entries).union(
        *(board.legal_moves_from(cell) for cell in board.legal_sources()))
    with pytest.raises(InvalidMoveError, match="h1"):
        board.legal_moves_from("h1")
    # with an empty hand: the pass is the move of no stack
    board = Board(BLACK_HAND_EMPTY)
    assert board.legal_moves_from(None) == (PASS,)
    assert [cell_name(c) for c in board.legal_sources()] == ["d7"]
    assert [m.notation() for m in board.legal_moves_from("d7")] == ["d7-e6"]


def test_a_spoke_into_a_hole_cannot_move() -> None:
    # A ring of White around the hole d4's ring, with a spoke f2 - e3 (Black) - d4
    # (White) into it. Lifting e3 would cut d4 off even though e3 has occupied
    # neighbours on two sides: both gaps of its ring open into the same hole.
    board = Board("abande b2=W b3=W b4=B c2=W c5=W d2=W d4=W d6=W e2=W e3=B e5=W f2=W "
                  "f3=W f4=W turn=b hands=b16,w6")
    assert stack_moves(board) == {"b4-b3", "b4-c5"}
    for text in ("e3-d4", "e3-f2", "e3-f3", "e3-e2"):
        with pytest.raises(IllegalMoveError, match="split the band"):
            board.parse_notation(text)


def test_capture_blocked_by_the_height_limit() -> None:
    # Black-topped 2-stack d4, White-topped 2-stack e3, White single e4 touching both.
    position = "abande d4=WB e3=BW e4=W turn=b hands=b16,w15"
    board = Board(position)
    assert stack_moves(board) == {"d4-e4"}
    with pytest.raises(IllegalMoveError, match="4 high"):
        board.parse_notation("d4-e3")
    white = Board(position.replace("turn=b", "turn=w"))
    assert stack_moves(white) == {"e4-d4"}
    assert stack_moves(Board(position, Rules(max_height=4))) == {"d4-e3", "d4-e4"}


def test_a_three_stack_neither_moves_nor_is_captured() -> None:
    position = "abande d4=BWB e3=W e4=B turn=b hands=b15,w16"
    black = Board(position)
    assert stack_moves(black) == {"e4-e3"}
    with pytest.raises(IllegalMoveError, match="4 high"):
        black.parse_notation("d4-e3")
    white = Board(position.replace("turn=b", "turn=w"))
    assert stack_moves(white) == {"e3-e4"}
    with pytest.raises(IllegalMoveError, match="4 high"):
        white.parse_notation("e3-d4")


def test_capturing_a_mixed_stack_by_its_top() -> None:
    board = Board("abande d4=BW e3=B turn=b hands=b16,w17")
    assert stack_moves(board) == {"e3-d4"}
    board.push_notation("e3-d4")
    assert board.stack("d4") == (B, W, B)
    assert board.stack((0, 0)) == (B, W, B)
    assert board.controller("d4") is B
    assert board.stack("e3") == ()
    assert board.controller("e3") is None
    assert board.hands == (16, 17)
    # A Black piece may not land on a Black-topped stack, whatever lies below.
    board = Board("abande d4=WB e3=B e4=W turn=b hands=b16,w16")
    assert stack_moves(board) == {"d4-e4", "e3-e4"}
    with pytest.raises(IllegalMoveError, match="own"):
        board.parse_notation("e3-d4")


def test_stack_move_errors() -> None:
    board = Board("abande c4=W d4=B e3=W f2=B turn=b hands=b16,w16")
    cases = {
        "c5-d4": "c5 is empty",
        "c4-d4": "controlled by White",
        "f2-c4": "not adjacent",
        "f2-g1": "g1 is empty",
        "f2-f3": "f3 is empty",
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalMoveError, match=reason):
            board.parse_notation(text)
        assert not board.is_legal(Move.from_notation(text))


def test_stacks_move_whole_and_land_on_top() -> None:
    board = Board("abande d4=WB e3=W e4=B turn=w hands=b16,w16")
    board.push_notation("e3-d4")
    assert board.stack("d4") == (W, B, W)
    assert board.stacks() == {(0, 0): (W, B, W), (1, -1): (B,)}


# --- passing and the end ----------------------------------------------------------------

#: Black has no pieces in hand and a capture (d7-e6); White still has 17.
BLACK_HAND_EMPTY = ("abande d1=BBB d2=BBB d3=BBB d4=BBB d5=BBB d6=BB d7=B e6=W turn=b "
                    "hands=b0,w17")
#: Both hands empty; Black may capture with d7, White with e6.
ENDGAME = ("abande c1=BBB c2=BBB c3=BBB c4=BBB c5=BBB c6=BB d1=WWW d2=WWW d3=WWW d4=WWW "
           "d5=WWW d6=WW d7=B e6=W turn=b hands=b0,w0")
#: Columns c (Black) and d (White) of 3-stacks: all awake, 18 each, nothing can move.
FULL_DRAW = ("abande c1=BBB c2=BBB c3=BBB c4=BBB c5=BBB c6=BBB d1=WWW d2=WWW d3=WWW "
             "d4=WWW d5=WWW d6=WWW turn=b hands=b0,w0")
#: As FULL_DRAW, but Black's sixth 3-stack sleeps on b1 (touching only c1 and c2).
BLACK_WINS = ("abande c1=BBB c2=BBB c3=BBB c4=BBB c5=BBB c6=BBB d1=WWW d2=WWW d3=WWW "
              "d4=WWW d5=WWW d6=W e1=WW turn=b hands=b0,w0")
WHITE_WINS = ("abande b1=BBB c1=BBB c2=BBB c3=BBB c4=BBB c5=BBB d1=WWW d2=WWW d3=WWW "
              "d4=WWW d5=WWW d6=WWW turn=b hands=b0,w0")


def test_pass_needs_an_empty_hand() -> None:
    board = Board()
    assert PASS not in board.legal_moves
    with pytest.raises(IllegalMoveError, match="18 piece"):
        board.push_notation("pass")
    board = Board("abande d4=B e3=W c4=B turn=w hands=b16,w17")
    assert "pass" not in names(board.legal_moves)
    assert not board.is_legal(PASS)


def test_pass_allowed_even_when_a_capture_exists() -> None:
    board = Board(BLACK_HAND_EMPTY)
    assert names(board.legal_moves) == {"d7-e6", "pass"}
    assert board.legal_moves[-1] == PASS
    board.push_notation("pass")
    assert board.passes == 1
    assert not board.is_game_over()
    assert board.position() == BLACK_HAND_EMPTY.replace("turn=b", "turn=w") + " passes=1"
    # White has pieces in hand: no pass, and its entry resets the count.
    assert PASS not in board.legal_moves
    assert "e6-d7" in names(board.legal_moves)
    assert "e6-d6" in names(board.legal_moves)
    board.push_notation("c6")
    assert board.passes == 0


def test_two_passes_in_succession_end_the_game() -> None:
    board = Board(ENDGAME)
    assert names(board.legal_moves) == {"d7-d6", "d7-e6", "pass"}
    board.push_notation("pass")
    assert not board.is_game_over()
    board.push_notation("pass")
    assert board.is_game_over()
    assert board.passes == 2
    assert list(board.legal_moves) == []
    assert len(board.legal_moves) == 0
    assert board.outcome() == Outcome(Termination.SCORE, None, score=(18, 18))
    assert board.result() == "1/2-1/2"
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.push(PASS)


def test_a_move_after_a_pass_resets_the_count() -> None:
    board = Board(ENDGAME)
    board.push_notation("pass")
    assert board.passes == 1
    board.push_notation("e6-d7")
    assert board.passes == 0
    assert board.stack("d7") == (B, W)
    board.push_notation("pass")
    assert board.passes == 1
    assert not board.is_game_over()
    assert board.result() == "*"
    board.push_notation("pass")
    assert board.is_game_over()
    # Black: c1-c5 and c6 (next to White d6); White: d1-d6 and d7 (White on top of
    # Black, next to Black c6). Every stack is awake.
    assert board.sleeping() == frozenset()
    assert board.outcome() == Outcome(Termination.SCORE, WHITE, score=(17, 19))


def test_the_game_ends_with_all_pieces_on_the_board() -> None:
    rng = random.Random(5)
    for _ in range(20):
        board = Board()
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        assert board.hands == (0, 0)
        assert sum(len(s) for s in board.stacks().values()) == 36
        assert board.move_stack[-2:] == [PASS, PASS]


# --- scoring ----------------------------------------------------------------------------


def test_scoring_with_mixed_stacks() -> None:
    # The line c4 d4 e3 f2 g1. Buried pieces wake nothing: c4 sleeps next to the
    # Black-topped d4 (a White piece below), g1 sleeps next to the White-topped f2.
    board = Board("abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14")
    assert board.score() == (2, 1)
    assert board.sleeping() == {(-1, 0), (2, 0), (3, 0)}
    assert [board.awake(p) for p in ("c4", "d4", "e3", "f2", "g1", "a1")] == [
        False, True, True, False, False, False]


def test_sleeping_stacks_score_nothing_and_the_higher_score_wins() -> None:
    board = Board(WHITE_WINS)
    assert board.sleeping() == {parse_cell("b1")}
    assert board.score() == (15, 18)
    board.push(PASS)
    board.push(PASS)
    assert board.outcome() == Outcome(Termination.SCORE, WHITE, score=(15, 18))
    assert board.result() == "0-1"
    # Black's six 3-stacks all touch White; White's e1 sleeps next to d1 and d2.
    board = Board(BLACK_WINS)
    assert board.sleeping() == {parse_cell("e1")}
    board.push(PASS)
    board.push(PASS)
    assert board.outcome() == Outcome(Termination.SCORE, BLACK, score=(18, 16))
    assert board.result() == "1-0"


def test_drawn_score() -> None:
    board = Board(FULL_DRAW)
    assert board.sleeping() == frozenset()
    assert board.score() == (18, 18)
    assert names(board.legal_moves) == {"pass"}
    board.push(PASS)
    board.push(PASS)
    assert board.outcome() == Outcome(Termination.SCORE, None, score=(18, 18))
    assert board.result() == "1/2-1/2"


def test_a_finished_position_reads_back_finished() -> None:
    board = Board(FULL_DRAW)
    board.push(PASS)
    board.push(PASS)
    assert board.position() == FULL_DRAW + " passes=2"
    again = Board(board.position())
    assert again.is_game_over()
    assert again.outcome() == board.outcome()
    assert again.zobrist_hash() == board.zobrist_hash()


# --- moves and notation -------------------------------------------------------------------


@pytest.mark.parametrize(("text", "move", "canonical"), [
    ("d4", Move((0, 0)), "d4"),
    ("  D4 ", Move((0, 0)), "d4"),
    ("c3-d4", Move((0, 0), (-1, 1)), "c3-d4"),
    ("C3 - D4", Move((0, 0), (-1, 1)), "c3-d4"),
    ("pass", PASS, "pass"),
    (" PASS\n", PASS, "pass"),
    ("a1-g4", Move((3, -3), (-3, 3)), "a1-g4"),
])
def test_move_notation(text: str, move: Move, canonical: str) -> None:
    parsed = Move.from_notation(text)
    assert parsed == move
    assert parsed.notation() == canonical
    assert str(parsed) == canonical
    assert Move.from_notation(canonical) == move
    assert eval(repr(parsed), {"Move": Move}) == move


@pytest.mark.parametrize("text", ["", "d", "4", "d4-", "-d4", "d4-e3-f2", "passs", "d4 e3",
                                  "h1", "a5", "d0", "c3-h9", "d4>e3", "0,0", "pas"])
def test_bad_move_notation(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=re.escape(repr(text))):
        Move.from_notation(text)


def test_move_kinds_and_repr() -> None:
    entry, capture = Move.from_notation("d4"), Move.from_notation("e3-d4")
    assert (entry.is_entry, entry.is_stack_move, entry.is_pass) == (True, False, False)
    assert (capture.is_entry, capture.is_stack_move, capture.is_pass) == (False, True, False)
    assert (PASS.is_entry, PASS.is_stack_move, PASS.is_pass) == (False, False, True)
    assert repr(entry) == "Move(to=(0, 0))"
    assert repr(capture) == "Move(to=(0, 0), from_=(1, 0))"
    assert repr(PASS) == "Move(to=None)"
    assert Move(None) == PASS and hash(Move(None)) == hash(PASS)
    with pytest.raises(InvalidMoveError):
        Move(None, (0, 0))


def test_board_notation_helpers() -> None:
    board = Board()
    assert board.push_notation("D4") == Move((0, 0))
    assert board.parse_notation("e3") == Move((1, 0))
    with pytest.raises(InvalidMoveError):
        board.parse_notation("z9")
    with pytest.raises(IllegalMoveError, match="illegal move a1"):
        board.parse_notation("a1")


@given(st.text(alphabet="abcdefghpsADG0123456789- \t", max_size=9))
@settings(max_examples=300, deadline=None)
def test_fuzz_move_notation(text: str) -> None:
    try:
        move = Move.from_notation(text)
    except InvalidMoveError as error:
        assert repr(text) in str(error) or "not a point" in str(error)
        return
    assert Move.from_notation(move.notation()) == move
    assert move.notation() == text.strip().lower().replace(" ", "").replace("\t", "")


# --- the board interface -----------------------------------------------------------------


def test_legal_moves_is_a_tuple_of_the_position() -> None:
    board = Board()
    moves = board.legal_moves
    assert isinstance(moves, tuple)
    assert len(moves) == 37
    assert moves[0] == Move.from_notation("a1")
    assert moves[-1] == Move.from_notation("g4")
    assert Move.from_notation("d4") in moves
    assert "d4" not in moves
    board.push_notation("d4")
    assert len(moves) == 37  # a snapshot: the tuple does not follow the board
    after = board.legal_moves
    assert [m.notation() for m in after] == ["c3", "c4", "d3", "d5", "e3", "e4"]
    assert Move.from_notation("d4") not in after
    assert random.Random(1).choice(after) in after
    board.pop()
    assert board.legal_moves == moves


def test_push_pop_peek() -> None:
    board = Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    before = (board.position(), board.zobrist_hash())
    board.push_notation("d4")
    board.push_notation("e3")
    assert board.peek() == Move((1, 0))
    assert board.ply() == 2
    assert board.move_stack == [Move((0, 0)), Move((1, 0))]
    assert board.pop() == Move((1, 0))
    assert board.pop() == Move((0, 0))
    assert (board.position(), board.zobrist_hash()) == before
    with pytest.raises(IllegalMoveError):
        board.push(Move((1, 0), (0, 0)))
    assert board.ply() == 0


def test_root_copy_equality_and_repr() -> None:
    board = Board("abande d4=B e3=W turn=b hands=b17,w17")
    board.push_notation("c4")
    board.push_notation("e3-d4")
    copy = board.copy()
    assert copy == board and copy is not board
    assert copy.move_stack == board.move_stack
    copy.pop()
    assert copy != board
    assert board.root() == Board("abande d4=B e3=W turn=b hands=b17,w17")
    assert board.root().ply() == 0
    assert eval(repr(board), {"Board": Board, "Rules": Rules}) == board
    tall = Board(rules=Rules(max_height=4))
    assert repr(tall) == "Board('abande turn=b hands=b18,w18', rules=Rules(max_height=4))"
    assert eval(repr(tall), {"Board": Board, "Rules": Rules}).rules == Rules(max_height=4)
    assert tall != Board()
    assert Board() != "abande turn=b hands=b18,w18"
    with pytest.raises(TypeError):
        hash(board)


def test_str_draws_stacks_and_names() -> None:
    board = Board("abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14")
    text = str(board)
    lines = text.splitlines()
    assert len(lines) == 15
    assert lines[0].split() == list("abcdefg") * 2
    assert lines[1].split() == [".", "d7"]
    assert lines[6].split() == [".", "B", ".", ".", "a3", "c4", "e4", "g3"]
    assert lines[7].split() == [".", "WB", ".", "b3", "d4", "f3"]
    assert lines[8].split() == [".", ".", "W", ".", "a2", "c3", "e3", "g2"]
    assert lines[9].split() == [".", ".", "BW", "b2", "d3", "f2"]
    assert lines[10].split() == [".", ".", ".", "W", "a1", "c2", "e2", "g1"]
    assert lines[-1] == "Black to move; in hand: Black 15, White 14"
    assert lines[13].split() == [".", "d1"]


def test_zobrist_keys() -> None:
    one = Board()
    for text in ("d4", "e3", "c4", "e4"):
        one.push_notation(text)
    other = Board()
    for text in ("d4", "e4", "c4", "e3"):
        other.push_notation(text)
    assert one.position() == other.position()
    assert one.zobrist_hash() == other.zobrist_hash()
    assert one.zobrist_hash() == Board(one.position()).zobrist_hash()
    turned = Board(one.position().replace("turn=b", "turn=w"))
    assert turned.zobrist_hash() != one.zobrist_hash()
    assert Board(BLACK_HAND_EMPTY).zobrist_hash() != Board(
        BLACK_HAND_EMPTY.replace("turn=b", "turn=w")).zobrist_hash()
    passed = Board(ENDGAME)
    passed.push(PASS)
    assert passed.zobrist_hash() != Board(ENDGAME.replace("turn=b", "turn=w")).zobrist_hash()
    assert passed.zobrist_hash() == Board(passed.position()).zobrist_hash()
    assert 0 <= one.zobrist_hash() < 2**64


# --- rules options ----------------------------------------------------------------------


def test_rules_options() -> None:
    assert Rules() == Rules(max_height=3)
    assert Rules().options() == []
    assert Rules(max_height=4).options() == ["max_height=4"]
    assert Rules.from_options("max_height=4") == Rules(max_height=4)
    assert Rules.from_options(["MAX_HEIGHT=2"]) == Rules(max_height=2)
    assert Rules.from_options("") == Rules()
    for options, reason in [("max_height", "not key=value"), ("height=3", "unknown"),
                            ("max_height=x", "whole number"), ("max_height=0", "from 1"),
                            ("max_height=3 max_height=3", "twice")]:
        with pytest.raises(InvalidRulesError, match=reason):
            Rules.from_options(options)
    with pytest.raises(InvalidRulesError):
        Board(rules="max_height=3")  # type: ignore[arg-type]
    # Words that are not text, and options that are not words, are rules errors too.
    with pytest.raises(InvalidRulesError, match="rules option 3 is not text"):
        Rules.from_options([3])  # type: ignore[list-item]
    with pytest.raises(InvalidRulesError, match="key=value words, not int"):
        Rules.from_options(3)  # type: ignore[arg-type]


def test_max_height_two_and_one() -> None:
    # Triangle d4 (Black on White), e3 (White), e4 (Black).
    white = "abande d4=WB e3=W e4=B turn=w hands=b16,w16"
    black = white.replace("turn=w", "turn=b")
    assert stack_moves(Board(white)) == {"e3-d4", "e3-e4"}
    assert stack_moves(Board(black)) == {"d4-e3", "e4-e3"}
    assert stack_moves(Board(white, Rules(max_height=2))) == {"e3-e4"}
    assert stack_moves(Board(black, Rules(max_height=2))) == {"e4-e3"}
    singles = "abande d4=B e3=W e4=B turn=w hands=b16,w17"
    assert stack_moves(Board(singles)) == {"e3-d4", "e3-e4"}
    assert stack_moves(Board(singles, Rules(max_height=1))) == set()
    assert names(Board(singles, Rules(max_height=1)).legal_moves) == {
        "c3", "c4", "d3", "d5", "e2", "e5", "f2", "f3", "f4"}
    with pytest.raises(InvalidPositionError, match="at most 2"):
        Board("abande d4=BWB turn=w hands=b16,w17", Rules(max_height=2))


# --- position strings -------------------------------------------------------------------


def test_position_round_trip_and_lenient_reading() -> None:
    text = "abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14"
    assert Board(text).position() == text
    assert Board("  ABANDE g1=w F2=bw e3=W d4=wB c4=b TURN=B hands=B15,W14 passes=0 "
                 ).position() == text
    assert Board("abande c4=B d4=WB e3=W f2=BW g1=W turn=b").position() == text
    assert Board(text + " passes=0").position() == text
    passed = BLACK_HAND_EMPTY.replace("turn=b", "turn=w") + " passes=1"
    assert Board(passed).position() == passed
    assert Board(passed).passes == 1


@pytest.mark.parametrize(("text", "reason"), [
    ("", "game name abande"),
    ("andantino turn=b", "game name abande"),
    ("abande turn=x hands=b18,w18", "turn= must be b or w"),
    ("abande hands=b18,w18", "turn= is missing"),
    ("abande turn=b turn=w", "turn= is given twice"),
    ("abande d4=B d4=W turn=w hands=b17,w17", "d4= is given twice"),
    ("abande d4=B D4=B turn=w hands=b16,w18", "d4= is given twice"),
    ("abande h1=B turn=w hands=b17,w18", "h1=: h1 is not a point"),
    ("abande a5=B turn=w hands=b17,w18", "a5=: a5 is not a point"),
    ("abande d4=BWBW turn=b hands=b16,w16", "d4=: the stack BWBW is 4 high"),
    ("abande d4=BX turn=b hands=b17,w18", "d4=: 'BX' is not a stack"),
    ("abande d4= turn=b hands=b17,w18", "d4=: '' is not a stack"),
    ("abande d4=B turn=w hands=b18,w18", "hands=: Black would own 19 pieces"),
    ("abande d4=W turn=w hands=b18,w18", "hands=: White would own 19 pieces"),
    ("abande turn=b hands=b18,w19", "White would own 19 pieces"),
    ("abande d4=B turn=w hands=b16,w18", "Black would own 17 pieces"),
    ("abande turn=b hands=18,18", "hands= must look like b18,w18"),
    ("abande turn=b hands=b18", "hands= must look like b18,w18"),
    ("abande turn=b hands=b18,w18 passes=3", "passes= must be 0, 1 or 2"),
    ("abande turn=b hands=b18,w18 passes=1", "passes=1: White, who moved last"),
    ("abande turn=b hands=b18,w18 passes=2", "passes=2"),
    ("abande turn=b hands=b18,w18 colour=b", "unknown field 'colour'"),
    ("abande turn=b hands=b18,w18 d4", "'d4' is not key=value"),
    ("abande a1=B g4=W turn=b hands=b17,w17", "g4=: the stacks do not form one connected"),
    # 19 Black pieces and no hands=: once read as a hand of -1.
    ("abande c3=BBB c4=BBB d3=BBB d4=BBB d5=BW e3=BBB e4=BBB turn=w",
     r"Black would own 19 pieces \(19 on the board, 0 in hand\), more than"),
])
def test_bad_positions(text: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Board(text)


def test_position_must_be_text() -> None:
    with pytest.raises(InvalidPositionError, match="text"):
        Board(42)  # type: ignore[arg-type]


POSITION_WORDS = ["abande", "turn=b", "turn=w", "hands=b18,w18", "hands=b17,w18",
                  "hands=b17,w17", "hands=b0,w0", "passes=1", "passes=2", "d4=B", "d4=W",
                  "e3=W", "e3=BW", "c4=B", "d4=BWBW", "h1=B", "d4=", "x", "=", "d4=BB",
                  "e3=WWW", "a1=B", "turn=", "hands=b1,w1"]


@given(st.lists(st.sampled_from(POSITION_WORDS), max_size=7),
       st.text(alphabet="abdehnstuw=,0123456789BW ", max_size=20))
@settings(max_examples=400, deadline=None)
def test_fuzz_positions(words: list[str], noise: str) -> None:
    for text in (" ".join(words), " ".join(["abande", *words]), "abande " + noise):
        try:
            board = Board(text)
        except InvalidPositionError:
            continue
        again = Board(board.position())
        assert again.position() == board.position()
        assert again.zobrist_hash() == board.zobrist_hash()
        assert board.hands[0] + sum(s.count(B) for s in board.stacks().values()) == 18
        assert board.hands[1] + sum(s.count(W) for s in board.stacks().values()) == 18


def test_wrong_objects_are_refused_with_value_errors() -> None:
    from hexgames import andantino

    board = Board()
    for thing in ("d4", None, andantino.Move.from_notation("0,1")):
        with pytest.raises(IllegalMoveError, match="not an Abande move"):
            board.push(thing)  # type: ignore[arg-type]
        assert board.is_legal(thing) is False  # type: ignore[arg-type]
    assert board.position() == Board().position()


@pytest.mark.parametrize(("text", "fragment"), [
    ("abande turn=b hands=b\u0661\u0668,w18", "field hands= must look like b18,w18"),
    ("abande d\u0664=B turn=w hands=b17,w18", "unknown field 'd\u0664'"),
    ("abande d\uff14=B turn=w hands=b17,w18", "unknown field 'd\uff14'"),
])
def test_positions_take_ascii_digits_only(text: str, fragment: str) -> None:
    """Issue 14: ``\\d`` read Arabic-Indic and full-width digits as numbers."""
    from hexgames import _native

    with pytest.raises(InvalidPositionError, match=fragment) as python:
        Board(text)
    with pytest.raises(InvalidPositionError) as native:
        _native.AbandeState(text)
    assert str(native.value) == str(python.value)


@pytest.mark.parametrize("text", ["d\u0664", "\u212a1", "pa\u017fs", "pa\u017f\u017f",
                                  "c3-d\u0664"])
def test_moves_take_ascii_letters_and_digits_only(text: str) -> None:
    """Issue 14: a case-insensitive ``[a-z]`` read the long s and the Kelvin sign as
    letters, ``\\d`` other scripts' digits."""
    from hexgames import _native

    with pytest.raises(InvalidMoveError, match="is not an Abande move") as python:
        Move.from_notation(text)
    with pytest.raises(InvalidMoveError) as native:
        _native.AbandeState().push(text)
    assert str(native.value) == str(python.value)
