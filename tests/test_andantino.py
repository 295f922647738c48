"""Andantino: every rule and option of docs/rules.md, the examples, notation and positions.

Positions are written as position strings (docs/notation.md) or reached by pushing moves;
each test states the exact value the rules give.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from large_positions import STRIP_RULES, strip_position

from hexgames import (
    HexgamesError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    Outcome,
    Termination,
)
from hexgames.andantino import (
    COORDINATE_LIMIT,
    RED,
    STARTING_POSITION,
    WHITE,
    Board,
    Color,
    Move,
    Rules,
    SelfTrap,
    series_points,
)
from hexgames.hexgrid import SYMMETRIES, hexagon, ring


def words(text: str) -> list[str]:
    return text.split()


EVAL_SCOPE = {"Board": Board, "Rules": Rules, "SelfTrap": SelfTrap, "Move": Move}

#: A 48-placement game from the standard start in which nobody wins.
DRAWN_GAME = words(
    "0,1 1,1 1,-1 2,0 2,1 2,-1 1,2 2,2 3,0 2,-2 3,-1 3,1 3,2 0,-1 1,3 2,3 -1,1 3,3 -1,0 "
    "4,1 -1,-1 -2,0 -1,2 0,3 2,4 1,4 0,-2 3,4 2,5 4,3 4,2 4,4 5,3 4,-1 1,5 3,5 5,1 3,-2 "
    "3,-3 0,5 5,2 4,5 -2,1 -1,-2 4,-3 0,2 -2,2 -1,3"
)
#: A game whose 48th placement (Red's -1,1) makes a line of six, filled in the middle.
WON_ON_48TH = words(
    "1,-1 2,-1 2,-2 0,-1 1,-2 0,-2 2,0 -1,-1 0,1 3,-1 3,0 -1,0 3,-2 2,-3 4,-2 1,1 2,1 4,-1 "
    "0,2 -1,2 1,-3 -1,3 -2,3 1,2 4,0 -2,4 4,-3 -1,4 -1,-2 -2,0 0,-3 5,-2 -2,5 0,3 -1,5 "
    "5,-3 -2,2 -1,-3 5,-4 3,1 1,-4 -3,5 -3,3 -2,-1 5,-1 -3,6 2,2 -1,1"
)

#: docs/rules.md's ring example: White (-1, 1) completes a ring around Red (0, 0).
RING_EXAMPLE = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"
#: The same with Red (1, 1) instead of Red (0, 0): the ring is around an empty cell.
RING_EMPTY = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=1,1;2,0;2,-1;-2,0;-2,1 turn=w"


def cells_text(cells: object) -> str:
    ordered = sorted(cells, key=lambda c: (c[1], c[0]))  # type: ignore[attr-defined]
    return ";".join(f"{q},{r}" for q, r in ordered) or "-"


def position(white: object, red: object, turn: str = "w", extra: str = "") -> str:
    text = f"andantino w={cells_text(white)} r={cells_text(red)} turn={turn}"
    return f"{text} {extra}".strip()


def notations(board: Board) -> list[str]:
    return sorted(m.notation() for m in board.legal_moves)


def play(board: Board, moves: str | list[str]) -> Board:
    for text in moves.split() if isinstance(moves, str) else moves:
        board.push_notation(text)
    return board


def scaled(axis: tuple[int, int], i: int, offset: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    return (axis[0] * i + offset[0], axis[1] * i + offset[1])


# --- the start, the examples of docs/rules.md, perft ---------------------------------------------


def test_standard_start() -> None:
    board = Board()
    assert board.position() == STARTING_POSITION == "andantino w=0,0 r=1,0 turn=w hands=w24,r24"
    assert board.turn is WHITE
    assert board.ply() == 0
    assert board.tiles(WHITE) == {(0, 0)}
    assert board.tiles(RED) == {(1, 0)}
    assert (board.hand(WHITE), board.hand(RED)) == (24, 24)
    assert board.color_at((0, 0)) is WHITE
    assert board.color_at((1, 0)) is RED
    assert board.color_at((0, 1)) is None
    assert not board.is_game_over()
    assert board.outcome() is None
    assert board.result() == "*"


def test_example_two_legal_moves_at_the_start() -> None:
    board = Board()
    assert notations(board) == ["0,1", "1,-1"]
    assert len(board.legal_moves) == 2


def test_example_red_has_three_replies() -> None:
    board = play(Board(), "0,1")
    assert board.turn is RED
    assert notations(board) == ["-1,1", "1,-1", "1,1"]


def test_example_red_has_nine_with_the_balance_variant() -> None:
    board = play(Board(rules=Rules(single_adjacency=True)), "0,1")
    assert len(board.legal_moves) == 9
    assert notations(board) == [
        "-1,0", "-1,1", "-1,2", "0,-1", "0,2", "1,-1", "1,1", "2,-1", "2,0"]


def test_example_ring_trap() -> None:
    board = Board(RING_EXAMPLE)
    assert not board.is_game_over()
    board.push_notation("-1,1")
    assert board.outcome() == Outcome(Termination.TRAP, WHITE, trapped=frozenset({(0, 0)}))
    assert board.result() == "1-0"
    assert board.is_game_over()
    assert len(board.legal_moves) == 0


def test_ring_trap_under_every_symmetry() -> None:
    # The fill after a placement starts once per gap between the mover's runs around the
    # new tile, and skips the last gap when the others were walled off; the symmetries
    # of the example put the walled-off gap first and last in that order.
    white = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1)]
    red = [(0, 0), (2, 0), (2, -1), (-2, 0), (-2, 1)]
    for image in SYMMETRIES:
        board = Board(position([image(c) for c in white], [image(c) for c in red]))
        board.push(Move(image((-1, 1))))
        assert board.outcome() == Outcome(Termination.TRAP, WHITE,
                                          trapped=frozenset({image((0, 0))}))
        assert board.enclosed_cells(WHITE) == {image((0, 0))}
        board.pop()
        assert board.enclosed_cells(WHITE) == set()


def test_example_ring_around_an_empty_cell_is_no_win() -> None:
    board = Board(RING_EMPTY)
    board.push_notation("-1,1")
    assert board.outcome() is None
    assert board.turn is RED
    assert board.enclosed_cells(WHITE) == {(0, 0)}
    assert board.enclosed_cells(RED) == set()


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


@pytest.mark.parametrize(
    ("rules", "counts"),
    [
        (Rules(), [2, 6, 24, 120, 672]),
        (Rules(single_adjacency=True), [2, 18, 72, 480, 2640]),
    ],
)
def test_perft(rules: Rules, counts: list[int]) -> None:
    board = Board(rules=rules)
    assert [perft(board, d) for d in range(1, 6)] == counts
    assert board.position() == Board(rules=rules).position()


# --- legal placements -------------------------------------------------------------------------


def test_placement_needs_two_touching_tiles() -> None:
    board = play(Board(), "0,1 1,1")
    # W (0,0) (0,1), R (1,0) (1,1): the cells touching two or more tiles.
    assert notations(board) == ["-1,1", "0,2", "1,-1", "2,0"]
    for text in ("-1,0", "0,-1", "2,-1", "1,2", "-1,2", "5,5"):
        assert not board.is_legal(Move.from_notation(text))
    with pytest.raises(IllegalMoveError, match="touches 1 tile"):
        board.parse_notation("-1,0")
    with pytest.raises(IllegalMoveError, match="touches 0 tile"):
        board.parse_notation("5,5")
    with pytest.raises(IllegalMoveError, match="occupied"):
        board.parse_notation("1,1")


def test_legal_moves_sequence_interface() -> None:
    board = Board()
    moves = board.legal_moves
    assert len(moves) == 2
    assert bool(moves)
    assert Move((0, 1)) in moves
    assert Move((1, 1)) not in moves
    assert {moves[0], moves[1]} == {Move((0, 1)), Move((1, -1))}
    assert random.Random(3).choice(moves) in {Move((0, 1)), Move((1, -1))}
    assert all(isinstance(m, Move) for m in moves)


def test_push_pop_peek_and_errors() -> None:
    board = Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    assert board.push_notation("0,1") == Move((0, 1))
    assert board.peek() == Move((0, 1))
    assert board.ply() == 1
    assert board.move_stack == [Move((0, 1))]
    before = board.position()
    with pytest.raises(IllegalMoveError):
        board.push(Move((0, 0)))
    with pytest.raises(IllegalMoveError):
        board.push(Move((5, 5)))
    assert board.position() == before
    assert board.ply() == 1
    assert board.pop() == Move((0, 1))
    assert board.position() == STARTING_POSITION
    assert board.turn is WHITE


def test_a_move_equal_to_the_boards_own_plays_the_same() -> None:
    # push takes a short path for the Move objects of legal_moves; an equal Move made
    # by the caller goes the long way, reaches the same state and stays on the stack.
    own = play(Board(), "0,1 1,1")
    theirs = play(Board(), "0,1 1,1")
    board_move = next(m for m in own.legal_moves if m.to == (1, -1))
    own.push(board_move)
    their_move = Move((1, -1))
    theirs.push(their_move)
    assert theirs.move_stack[-1] is their_move
    assert own.move_stack[-1] is board_move
    assert theirs.position() == own.position()
    assert theirs.zobrist_hash() == own.zobrist_hash()
    assert set(theirs.legal_moves) == set(own.legal_moves)
    assert theirs.pop() is their_move
    assert theirs.position() == "andantino w=0,0;0,1 r=1,0;1,1 turn=w hands=w23,r23"


def test_transposition_gives_the_same_position_and_key() -> None:
    a = play(Board(), "0,1 1,1 1,-1 2,-1")
    b = play(Board(), "1,-1 2,-1 0,1 1,1")
    assert a.position() == b.position() == (
        "andantino w=1,-1;0,0;0,1 r=2,-1;1,0;1,1 turn=w hands=w22,r22")
    assert a.zobrist_hash() == b.zobrist_hash()
    assert a == b
    c = play(Board(), "0,1 1,1 1,-1")
    assert c.zobrist_hash() != a.zobrist_hash()


def test_zobrist_key_depends_on_the_side_to_move() -> None:
    white = Board("andantino w=0,0;0,1 r=1,0;1,1 turn=w")
    red = Board("andantino w=0,0;0,1 r=1,0;1,1 turn=r")
    assert white.zobrist_hash() != red.zobrist_hash()
    assert 0 <= white.zobrist_hash() < 2**64


# --- lines ------------------------------------------------------------------------------------

#: For each axis, a neighbour offset that is not along it; Red's tiles sit beside the line.
AXIS_SIDE = [((1, 0), (0, 1)), ((0, 1), (1, 0)), ((1, -1), (1, 0))]


def line_board(axis: tuple[int, int], side: tuple[int, int], whites: list[int]) -> Board:
    white = [scaled(axis, i) for i in whites]
    red = [scaled(axis, i, side) for i in range(4)]
    return Board(position(white, red))


@pytest.mark.parametrize(("axis", "side"), AXIS_SIDE)
def test_line_of_five_wins_on_every_axis(axis: tuple[int, int], side: tuple[int, int]) -> None:
    board = line_board(axis, side, [0, 1, 2, 3])
    assert not board.is_game_over()
    board.push(Move(scaled(axis, 4)))
    assert board.outcome() == Outcome(
        Termination.LINE, WHITE, line=frozenset(scaled(axis, i) for i in range(5)))
    assert board.result() == "1-0"


@pytest.mark.parametrize(("axis", "side"), AXIS_SIDE)
def test_line_completed_in_the_middle(axis: tuple[int, int], side: tuple[int, int]) -> None:
    board = line_board(axis, side, [0, 1, 3, 4])
    board.push(Move(scaled(axis, 2)))
    outcome = board.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.LINE
    assert outcome.winner is WHITE
    assert outcome.line == {scaled(axis, i) for i in range(5)}


@pytest.mark.parametrize(("axis", "side"), AXIS_SIDE)
def test_line_of_six_wins(axis: tuple[int, int], side: tuple[int, int]) -> None:
    board = line_board(axis, side, [0, 1, 2, 4, 5])
    board.push(Move(scaled(axis, 3)))
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.LINE, WHITE)
    assert outcome.line == {scaled(axis, i) for i in range(6)}
    assert outcome.trapped == set()


@pytest.mark.parametrize(("axis", "side"), AXIS_SIDE)
def test_line_of_four_does_not_win(axis: tuple[int, int], side: tuple[int, int]) -> None:
    board = line_board(axis, side, [0, 1, 2])
    board.push(Move(scaled(axis, 3)))
    assert board.outcome() is None
    assert board.turn is RED


def test_a_red_tile_breaks_a_line() -> None:
    # W W . R W W along (1, 0): filling the gap gives runs of three and two, no win.
    board = Board("andantino w=0,0;1,0;4,0;5,0 r=3,0;0,1;1,1;2,1 turn=w")
    board.push_notation("2,0")
    assert board.outcome() is None


def test_two_lines_at_once_are_both_reported() -> None:
    white = [(1, 0), (2, 0), (3, 0), (4, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    board = Board(position(white, [(2, 1), (1, 2)]))
    board.push_notation("0,0")
    outcome = board.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner) == (Termination.LINE, WHITE)
    assert outcome.line == {(0, 0), *white}


def test_red_wins_by_a_line() -> None:
    red = [(0, 0), (1, 0), (2, 0), (3, 0)]
    white = [(0, 1), (1, 1), (2, 1), (3, 1)]
    board = Board(position(white, red, "r"))
    board.push_notation("4,0")
    assert board.outcome() == Outcome(
        Termination.LINE, RED, line=frozenset({*red, (4, 0)}))
    assert board.result() == "0-1"


def test_a_line_in_a_set_up_position_ends_the_game() -> None:
    # Red has just moved (White to move) and has five in a row: Red has won.
    board = Board("andantino w=0,1;1,1;2,1 r=0,0;1,0;2,0;3,0;4,0 turn=w")
    assert board.outcome() == Outcome(
        Termination.LINE, RED, line=frozenset((i, 0) for i in range(5)))
    assert len(board.legal_moves) == 0


# --- traps ------------------------------------------------------------------------------------


def test_trap_of_several_tiles() -> None:
    # Red (0,0) and (1,0) in a ring of eight White cells; (2,0) closes it.
    wall = [(0, -1), (1, -1), (2, -1), (-1, 0), (-1, 1), (0, 1), (1, 1)]
    board = Board(position(wall, [(0, 0), (1, 0)]))
    board.push_notation("2,0")
    assert board.outcome() == Outcome(
        Termination.TRAP, WHITE, trapped=frozenset({(0, 0), (1, 0)}))


def test_trap_with_empty_cells_inside_closed_by_a_tile_touching_no_enemy() -> None:
    # A White ring of radius 2 around Red (1,-1) and (-1,1); (0,0) and the rest of
    # ring 1 stay empty. The closing tile (2,0) touches no Red tile.
    wall = [c for c in ring((0, 0), 2) if c != (2, 0)]
    board = Board(position(wall, [(1, -1), (-1, 1)]))
    assert all(board.color_at(n) is not RED for n in [(3, 0), (3, -1), (2, -1), (1, 0),
                                                      (1, 1), (2, 1)])
    board.push_notation("2,0")
    assert board.outcome() == Outcome(
        Termination.TRAP, WHITE, trapped=frozenset({(1, -1), (-1, 1)}))
    assert board.enclosed_cells(WHITE) == set(hexagon(1))


def test_ring_around_empty_cells_only_is_no_trap() -> None:
    wall = [c for c in ring((0, 0), 2) if c != (2, 0)]
    board = Board(position(wall, [(3, -3), (-3, 3)]))
    board.push_notation("2,0")
    assert board.outcome() is None
    assert board.enclosed_cells(WHITE) == set(hexagon(1))


def test_a_wall_with_an_enemy_tile_in_it_is_no_trap() -> None:
    # The ring example with Red (1,-1) in the wall: Red (0,0) escapes through it.
    board = Board("andantino w=1,0;-1,0;0,1;0,-1 r=0,0;1,-1;2,0;2,-1;-2,0;-2,1 turn=w")
    board.push_notation("-1,1")
    assert board.outcome() is None
    assert board.enclosed_cells(WHITE) == set()


def test_one_placement_closing_two_pockets() -> None:
    # (0,0) touches Red (1,0), Red (-1,1) and the open cell (0,-1); each Red tile is
    # otherwise walled in, so White (0,0) closes two pockets at once.
    wall = [(1, -1), (-1, 0), (0, 1), (2, 0), (2, -1), (1, 1), (-2, 1), (-2, 2), (-1, 2)]
    board = Board(position(wall, [(1, 0), (-1, 1)]))
    assert board.enclosed_cells(WHITE) == set()
    board.push_notation("0,0")
    assert board.outcome() == Outcome(
        Termination.TRAP, WHITE, trapped=frozenset({(1, 0), (-1, 1)}))


def test_filling_a_gap_inside_an_enclosed_region_wins_nothing() -> None:
    # Two rings around Red (0,0) and Red (2,0) share the empty cell (1,0): the wall is
    # already closed around all three cells, so White (1,0) traps nothing new.
    wall = [(-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1), (3, 0), (2, 1), (2, -1), (3, -1),
            (1, 1)]
    # Red's tiles walled in by White in play: only after ignored self-traps.
    board = Board(position(wall, [(0, 0), (2, 0)]), Rules(self_trap="ignore"))
    assert board.enclosed_cells(WHITE) == {(0, 0), (1, 0), (2, 0)}
    board.push_notation("1,0")
    assert board.outcome() is None
    # (1,0) holds White's own tile now: it is no enclosed cell (as set up afresh).
    assert board.enclosed_cells(WHITE) == {(0, 0), (2, 0)}
    assert Board(board.position(), board.rules).enclosed_cells(WHITE) == {(0, 0), (2, 0)}
    board.pop()
    assert board.enclosed_cells(WHITE) == {(0, 0), (1, 0), (2, 0)}


def test_red_traps_white() -> None:
    board = Board("andantino r=1,0;-1,0;0,1;0,-1;1,-1 w=0,0;2,0;2,-1;-2,0;-2,1 turn=r")
    board.push_notation("-1,1")
    assert board.outcome() == Outcome(Termination.TRAP, RED, trapped=frozenset({(0, 0)}))
    assert board.result() == "0-1"


def test_line_and_trap_together() -> None:
    board = Board("andantino w=1,0;-1,0;0,1;0,-1;1,-1;-1,-1;-1,2;-1,3 "
                  "r=0,0;2,0;2,-1;-2,0;-2,1 turn=w")
    board.push_notation("-1,1")
    assert board.outcome() == Outcome(
        Termination.LINE_AND_TRAP, WHITE,
        line=frozenset({(-1, -1), (-1, 0), (-1, 1), (-1, 2), (-1, 3)}),
        trapped=frozenset({(0, 0)}))
    assert Termination.LINE_AND_TRAP.value == "line+trap"


def test_only_newly_enclosed_tiles_count() -> None:
    # Red (0,0) is already walled in by White's ring 1; the outer ring 3 then closes
    # around ring 2, where Red (2,0) stands. Only (2,0) is trapped by this placement.
    # (Red (0,0) walled in while play goes on: after an ignored self-trap.)
    wall = [c for c in ring((0, 0), 1) + ring((0, 0), 3) if c != (3, -1)]
    board = Board(position(wall, [(0, 0), (2, 0)]), Rules(self_trap="ignore"))
    assert not board.is_game_over()  # an enclosure already there wins nothing by itself
    board.push_notation("3,-1")
    assert board.outcome() == Outcome(Termination.TRAP, WHITE, trapped=frozenset({(2, 0)}))


def test_an_already_enclosed_tile_alone_wins_nothing() -> None:
    # As above without Red (2,0): closing ring 3 walls in only empty cells and Red (0,0),
    # which was enclosed before the move.
    wall = [c for c in ring((0, 0), 1) + ring((0, 0), 3) if c != (3, -1)]
    board = Board(position(wall, [(0, 0), (5, -5)]), Rules(self_trap="ignore"))
    board.push_notation("3,-1")
    assert board.outcome() is None
    assert board.turn is RED


def test_an_ignored_self_trap_does_not_count_later() -> None:
    # Red drops a tile into White's empty ring-2 pocket (ignored); White later completes a
    # ring right around that tile: it was enclosed already, so White wins nothing.
    board = Board(position(ring((0, 0), 2), [], "r"), Rules(self_trap="ignore"))
    play(board, "1,0 1,-1 3,-1 0,1 -3,1")
    assert board.outcome() is None
    board.push_notation("0,0")  # ring 1 around Red (1,0) is now all White
    assert all(board.color_at(n) is WHITE for n in [(2, 0), (2, -1), (1, -1), (0, 0),
                                                    (0, 1), (1, 1)])
    assert board.outcome() is None
    assert board.turn is RED


def test_a_trap_after_pushes_from_the_start() -> None:
    board = Board(RING_EXAMPLE)
    ring_example_start = board.copy()
    board.push_notation("-1,1")
    board.pop()
    assert board == ring_example_start
    assert board.outcome() is None
    assert not board.is_game_over()


# --- self-traps -------------------------------------------------------------------------------


def ring_empty_after_white(self_trap: str) -> Board:
    board = Board(RING_EMPTY, Rules(self_trap=self_trap))
    board.push_notation("-1,1")
    return board


def test_self_trap_opponent_wins_by_default() -> None:
    board = ring_empty_after_white("opponent_wins")
    assert Board(RING_EMPTY).rules.self_trap is SelfTrap.OPPONENT_WINS
    assert "0,0" in notations(board)
    assert len(board.legal_moves) == 10
    board.push_notation("0,0")
    assert board.outcome() == Outcome(Termination.SELF_TRAP, WHITE,
                                      trapped=frozenset({(0, 0)}))
    assert board.result() == "1-0"


def test_self_trap_illegal() -> None:
    board = ring_empty_after_white("illegal")
    assert "0,0" not in notations(board)
    assert len(board.legal_moves) == 9
    assert not board.is_legal(Move((0, 0)))
    assert Move((0, 0)) not in board.legal_moves
    before = board.position()
    with pytest.raises(IllegalMoveError, match="self-trap"):
        board.push(Move((0, 0)))
    with pytest.raises(IllegalMoveError, match="0,0"):
        board.parse_notation("0,0")
    assert board.position() == before
    board.push_notation("2,1")
    # White may play into its own pocket; Red, a move later, still may not.
    assert board.is_legal(Move((0, 0)))
    board.push_notation("-1,2")
    assert not board.is_legal(Move((0, 0)))
    assert "0,0" not in notations(board)


def test_self_trap_ignored() -> None:
    board = ring_empty_after_white("ignore")
    board.push_notation("0,0")
    assert board.outcome() is None
    assert board.turn is WHITE
    assert board.color_at((0, 0)) is RED
    assert board.enclosed_cells(WHITE) >= {(0, 0)}
    board.push_notation("2,1")
    assert board.outcome() is None


def test_white_self_trap_gives_red_the_win() -> None:
    board = Board("andantino r=1,0;-1,0;0,1;0,-1;1,-1 w=1,1;2,0;2,-1;-2,0;-2,1 turn=r")
    board.push_notation("-1,1")
    assert board.outcome() is None
    board.push_notation("0,0")
    assert board.outcome() == Outcome(Termination.SELF_TRAP, RED, trapped=frozenset({(0, 0)}))
    assert board.result() == "0-1"


def test_self_trap_into_a_larger_pocket() -> None:
    board = Board(position(ring((0, 0), 2), [(3, -3)], "r"))
    assert board.enclosed_cells(WHITE) == set(hexagon(1))
    assert not board.is_legal(Move((0, 0)))  # touches no tile
    board.push_notation("1,0")
    assert board.outcome() == Outcome(Termination.SELF_TRAP, WHITE,
                                      trapped=frozenset({(1, 0)}))


#: White's ring 3 walls in four Red tiles in a row; Red (2,0) would make five.
POCKET_LINE = position(ring((0, 0), 3), [(-2, 0), (-1, 0), (0, 0), (1, 0)], "r")


def test_a_line_in_a_pocket_wins_when_self_traps_are_ignored() -> None:
    board = Board(POCKET_LINE, Rules(self_trap="ignore"))
    assert not board.is_game_over()
    board.push_notation("2,0")
    assert board.outcome() == Outcome(
        Termination.LINE, RED, line=frozenset((q, 0) for q in range(-2, 3)))


def test_a_set_up_trap_is_a_finished_game() -> None:
    """Issue 14: under the other self-trap settings Red's tiles walled in by White, who
    moved last, is how a game ends: the position is loaded as that finished game."""
    for self_trap in ("opponent_wins", "illegal"):
        board = Board(POCKET_LINE, Rules(self_trap=self_trap))
        assert board.outcome() == Outcome(
            Termination.TRAP, WHITE, trapped=frozenset((q, 0) for q in range(-2, 2)))
        assert board.legal_moves == ()


def test_pocket_cells_are_illegal_under_illegal_even_if_they_would_win() -> None:
    # docs/rules.md: with self_trap=illegal, cells in the opponent's pocket are not legal moves.
    board = Board(POCKET_LINE, Rules(self_trap="illegal"))
    assert not board.is_legal(Move((2, 0)))
    assert not board.is_legal(Move((0, 1)))
    assert all(m.to not in hexagon(2) for m in board.legal_moves)


# --- the draw ---------------------------------------------------------------------------------


def test_draw_after_48_placements() -> None:
    board = Board()
    play(board, DRAWN_GAME[:47])
    assert not board.is_game_over()
    assert (board.hand(WHITE), board.hand(RED)) == (0, 1)
    assert board.turn is RED
    board.push_notation(DRAWN_GAME[47])
    assert board.ply() == 48
    assert len(board.tiles(WHITE)) == len(board.tiles(RED)) == 25
    assert board.outcome() == Outcome(Termination.TILES_EXHAUSTED, None)
    assert board.result() == "1/2-1/2"
    assert len(board.legal_moves) == 0
    with pytest.raises(IllegalMoveError, match="game is over"):
        board.parse_notation("-3,1")
    assert series_points(board) == (0, 0)


def test_a_win_on_the_48th_placement_stands() -> None:
    board = play(Board(), WON_ON_48TH)
    assert board.ply() == 48
    assert board.outcome() == Outcome(
        Termination.LINE, RED, line=frozenset((-1, r) for r in range(-1, 5)))
    assert series_points(board) == (0, 0)  # 50 tiles on the surface: nothing left in hand


def test_draw_with_a_small_tile_supply() -> None:
    rules = Rules(tiles_per_player=3)
    board = Board(rules=rules)
    assert board.position() == "andantino w=0,0 r=1,0 turn=w hands=w2,r2"
    play(board, "0,1 1,1 1,-1")
    assert board.outcome() is None
    board.push_notation("2,-1")
    assert board.outcome() == Outcome(Termination.TILES_EXHAUSTED, None)


def test_draw_from_a_set_up_position() -> None:
    board = Board("andantino w=0,0;0,1 r=1,0 turn=r hands=w0,r1")
    board.push_notation("1,1")
    assert board.outcome() == Outcome(Termination.TILES_EXHAUSTED, None)
    # White to move with an empty hand: the position is already drawn.
    assert Board("andantino w=0,0 r=1,0 turn=w hands=w0,r0").outcome() == Outcome(
        Termination.TILES_EXHAUSTED, None)


# --- the balance variant ----------------------------------------------------------------------

SINGLE = Rules(single_adjacency=True)


def test_balance_variant_used_once() -> None:
    board = play(Board(rules=SINGLE), "0,1")
    assert board.position().endswith("single=unused")
    board.push_notation("-1,0")  # touches only White (0,0)
    assert board.single_adjacency_used
    assert board.position() == (
        "andantino w=0,0;0,1 r=-1,0;1,0 turn=w hands=w23,r23 single=used")
    # White never has the right.
    assert notations(board) == ["-1,1", "0,-1", "1,-1", "1,1"]
    board.push_notation("-1,1")
    # Red has used it: only cells touching two tiles.
    assert notations(board) == ["-1,2", "-2,1", "0,-1", "1,-1", "1,1"]
    with pytest.raises(IllegalMoveError, match="already used"):
        board.parse_notation("2,0")
    board.pop()
    board.pop()
    assert not board.single_adjacency_used
    assert board.position().endswith("single=unused")


def test_balance_variant_not_used_by_a_placement_touching_two() -> None:
    board = play(Board(rules=SINGLE), "0,1 1,1")
    assert not board.single_adjacency_used
    board.push_notation("1,-1")
    assert notations(board) == ["-1,0", "-1,1", "-1,2", "0,-1", "0,2", "1,-2", "1,2",
                                "2,-1", "2,-2", "2,0", "2,1"]


def test_white_has_no_single_adjacency_right() -> None:
    board = Board(rules=SINGLE)
    assert notations(board) == ["0,1", "1,-1"]
    with pytest.raises(IllegalMoveError, match="touches 1 tile"):
        board.parse_notation("-1,0")


def test_balance_variant_field_in_positions() -> None:
    used = Board("andantino w=0,0;0,1 r=1,0 turn=r single=used", SINGLE)
    unused = Board("andantino w=0,0;0,1 r=1,0 turn=r single=unused", SINGLE)
    default = Board("andantino w=0,0;0,1 r=1,0 turn=r", SINGLE)
    assert used.single_adjacency_used and not unused.single_adjacency_used
    assert default.position() == unused.position()
    assert notations(used) == ["-1,1", "1,-1", "1,1"]
    assert len(unused.legal_moves) == 9
    assert used.zobrist_hash() != unused.zobrist_hash()
    # Without the variant, the field is not written.
    assert "single" not in Board().position()


# --- extended play ----------------------------------------------------------------------------

EXTENDED2 = Rules(extended=True, tiles_per_player=2)


def relocation_board(**options: object) -> Board:
    """Both hands empty, White to move: W (0,0) (0,1), R (1,0) (1,-1)."""
    rules = Rules(extended=True, tiles_per_player=2, **options)  # type: ignore[arg-type]
    return play(Board(rules=rules), "0,1 1,-1")


def test_no_draw_when_tiles_run_out_in_extended_play() -> None:
    board = relocation_board()
    assert board.outcome() is None
    assert board.position() == (
        "andantino w=0,0;0,1 r=1,-1;1,0 turn=w hands=w0,r0 relocations=0")


def test_relocation_legality() -> None:
    board = relocation_board()
    assert notations(board) == ["0,0>1,1", "0,0>2,-1", "0,1>0,-1", "0,1>2,-1"]
    # (1,1) touches two tiles now, but only one once (0,1) is lifted.
    with pytest.raises(IllegalMoveError, match="after the pick-up"):
        board.parse_notation("0,1>1,1")
    with pytest.raises(IllegalMoveError, match="no tiles left in hand"):
        board.parse_notation("1,1")
    with pytest.raises(IllegalMoveError, match="1,0"):
        board.parse_notation("1,0>1,1")  # not White's tile
    with pytest.raises(IllegalMoveError):
        board.parse_notation("0,0>0,0")  # not onto the same cell
    with pytest.raises(IllegalMoveError):
        board.parse_notation("5,5>1,1")  # no tile there
    assert not board.is_legal(Move((1, 1), (0, 1)))
    assert board.is_legal(Move((1, 1), (0, 0)))


def test_relocations_one_tile_at_a_time() -> None:
    # The tiles that can move, then one tile's relocations (what the browser app sends).
    board = relocation_board()
    assert board.legal_sources() == ((0, 0), (0, 1))
    assert sorted(m.notation() for m in board.legal_moves_from((0, 0))) == [
        "0,0>1,1", "0,0>2,-1"]
    assert sorted(m.notation() for m in board.legal_moves_from((0, 1))) == [
        "0,1>0,-1", "0,1>2,-1"]
    assert board.legal_moves_from((1, 0)) == ()  # Red's tile
    assert board.legal_moves_from((5, 5)) == ()  # no tile
    with pytest.raises(InvalidMoveError, match="outside the supported range"):
        board.legal_moves_from((COORDINATE_LIMIT + 1, 0))
    assert board.legal_moves_from(None) == ()  # no placement with an empty hand
    # A tile whose pick-up leaves every target touching one tile cannot move.
    board = Board("andantino w=-2,0;-2,1 r=1,-2;-2,2 turn=w hands=w0,r0", EXTENDED2)
    assert notations(board) == ["-2,0>-1,1", "-2,0>-3,2"]
    assert board.legal_sources() == ((-2, 0),)
    assert board.legal_moves_from((-2, 1)) == ()
    # With tiles in hand: the placements, and no tile moves.
    board = Board(rules=Rules(extended=True))
    assert board.legal_sources() == ()
    assert board.legal_moves_from(None) == board.legal_moves
    assert board.legal_moves_from((0, 0)) == ()


def test_relocations_of_one_tile_keep_out_of_pockets_under_self_trap_illegal() -> None:
    # White walls off the empty 0,0 (it touches six tiles): under self_trap=illegal no
    # Red tile may go there, under opponent_wins it may (and loses).
    position = ("andantino w=1,0;-1,0;0,1;0,-1;1,-1;-1,1 r=1,1;2,0;2,-1;-2,0;-2,1;0,2 "
                "turn=r hands=w0,r0")
    for self_trap, allowed in (("illegal", False), ("opponent_wins", True)):
        board = Board(position, Rules(extended=True, tiles_per_player=6, self_trap=self_trap))
        assert len(board.legal_sources()) == 6
        targets = {m.to for m in board.legal_moves_from((0, 2))}
        assert ((0, 0) in targets) is allowed
        assert targets == {m.to for m in board.legal_moves if m.from_ == (0, 2)}


def test_a_large_relocation_position_is_played_without_listing_every_relocation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With 300 tiles each, White has 179,400 relocations: making the board, playing a
    relocation (its test whether the opponent can still move) and asking for the tiles
    and one tile's targets list a few hundred moves, not all of them (issue 32: each
    cost a second, and a game of such moves could not be opened in the browser app)."""
    made = 0
    set_up = Move.__post_init__

    def counted(move: Move) -> None:
        nonlocal made
        made += 1
        set_up(move)

    board = Board(strip_position(), STRIP_RULES)
    monkeypatch.setattr(Move, "__post_init__", counted)
    board = Board(strip_position(), STRIP_RULES)
    board.push_notation("0,0>5,-1")
    board.push_notation("2,0>0,0")
    assert len(board.legal_sources()) == 300
    assert len(board.legal_moves_from((2, 1))) == 596
    assert made < 1000
    assert len(board.legal_moves) == 178_807  # listed on request, as before


def test_relocation_moves_the_tile() -> None:
    board = relocation_board()
    move = board.push_notation("0,0>1,1")
    assert move == Move((1, 1), (0, 0))
    assert board.tiles(WHITE) == {(0, 1), (1, 1)}
    assert board.relocations == 1
    assert board.position() == (
        "andantino w=0,1;1,1 r=1,-1;1,0 turn=r hands=w0,r0 relocations=1")
    board.pop()
    assert board.tiles(WHITE) == {(0, 0), (0, 1)}
    assert board.relocations == 0


def test_pop_across_a_relocation_restores_the_legal_moves() -> None:
    board = play(Board(rules=EXTENDED2), "0,1")
    assert notations(board) == ["-1,1", "1,-1", "1,1"]
    play(board, "1,1 0,0>2,0")
    board.pop()
    board.pop()
    assert board.position() == "andantino w=0,0;0,1 r=1,0 turn=r hands=w0,r1 relocations=0"
    assert notations(board) == ["-1,1", "1,-1", "1,1"]


def test_pop_back_from_the_first_relocation_of_a_full_game() -> None:
    board = play(Board(rules=Rules(extended=True)), DRAWN_GAME[:47])
    before = notations(board)
    board.push_notation(DRAWN_GAME[47])
    assert board.outcome() is None  # no draw in extended play
    assert all(m.from_ is not None for m in board.legal_moves)
    board.push_notation("-2,1>4,-4")
    board.pop()
    board.pop()
    assert notations(board) == before


def test_relocation_not_allowed_while_tiles_are_in_hand() -> None:
    board = Board(rules=Rules(extended=True))
    with pytest.raises(IllegalMoveError, match="extended play"):
        board.parse_notation("0,0>0,1")


def test_extended_move_limit() -> None:
    board = relocation_board(extended_move_limit=3)
    play(board, "0,0>1,1 1,-1>2,0")
    assert board.outcome() is None
    board.push_notation("1,1>0,0")
    assert board.relocations == 3
    assert board.outcome() == Outcome(Termination.MOVE_LIMIT, None)
    assert board.result() == "1/2-1/2"


def test_move_limit_reached_in_a_set_up_position() -> None:
    # docs/rules.md: the game is drawn after extended_move_limit relocations.
    rules = Rules(extended=True, tiles_per_player=2, extended_move_limit=3)
    board = Board("andantino w=0,1;1,1 r=1,-1;1,0 turn=r hands=w0,r0 relocations=3", rules)
    assert board.outcome() == Outcome(Termination.MOVE_LIMIT, None)


def test_threefold_repetition() -> None:
    board = relocation_board()
    cycle = "0,0>1,1 1,-1>2,0 1,1>0,0 2,0>1,-1"
    play(board, cycle)
    assert board.outcome() is None  # second time
    play(board, cycle.rsplit(" ", 1)[0])
    assert board.outcome() is None
    board.push_notation("2,0>1,-1")  # the start of the cycle for the third time
    assert board.outcome() == Outcome(Termination.REPETITION, None)
    board.pop()
    assert board.outcome() is None
    assert len(board.legal_moves) > 0


def test_relocation_can_trap() -> None:
    rules = Rules(extended=True)
    board = Board("andantino w=1,0;-1,0;0,1;0,-1;1,-1;3,-2 r=0,0;2,0;2,-1;-2,0;-2,1 "
                  "turn=w hands=w0,r5", rules)
    board.push_notation("3,-2>-1,1")
    assert board.outcome() == Outcome(Termination.TRAP, WHITE, trapped=frozenset({(0, 0)}))


# --- unlimited tiles --------------------------------------------------------------------------

UNLIMITED = Rules(tiles_per_player=None)


def test_unlimited_tiles_have_no_hands_and_no_draw() -> None:
    board = Board(rules=UNLIMITED)
    assert board.position() == "andantino w=0,0 r=1,0 turn=w"
    assert board.hand(WHITE) is None and board.hand(RED) is None
    play(board, DRAWN_GAME)
    assert board.outcome() is None
    assert len(board.tiles(WHITE)) == 25
    board.push_notation("-3,1")
    assert board.outcome() is None
    assert len(board.tiles(WHITE)) == 26
    assert "hands" not in board.position()
    with pytest.raises(ValueError, match="tile supply"):
        series_points(board, winner=WHITE)


# --- series scoring ---------------------------------------------------------------------------


def test_series_points_for_an_early_line() -> None:
    red = [(0, 0), (1, 0), (2, 0), (3, 0)]
    white = [(0, 1), (1, 1), (2, 1), (3, 1)]
    board = Board(position(white, red, "r"))
    board.push_notation("4,0")
    assert series_points(board) == (0, 50 - 9)


def test_series_points_for_a_trap() -> None:
    board = Board(RING_EXAMPLE)
    board.push_notation("-1,1")
    assert series_points(board) == (50 - 11, 0)


def test_series_points_resignation_and_unfinished() -> None:
    board = play(Board(), "0,1 1,1")
    with pytest.raises(ValueError, match="finished"):
        series_points(board)
    assert series_points(board, winner=RED) == (0, 46)
    assert series_points(board, winner=WHITE) == (46, 0)
    small = play(Board(rules=Rules(tiles_per_player=10)), "0,1")
    assert series_points(small, winner=WHITE) == (17, 0)


def test_series_points_override_a_finished_game() -> None:
    board = Board(RING_EXAMPLE)
    board.push_notation("-1,1")
    assert series_points(board, winner=RED) == (0, 39)


# --- rules options ----------------------------------------------------------------------------


def test_rules_defaults_and_options_round_trip() -> None:
    assert Rules() == Rules(False, SelfTrap.OPPONENT_WINS, False, 200, 25)
    assert Rules().options() == []
    rules = Rules(single_adjacency=True, self_trap="ignore", extended=True,
                  extended_move_limit=7, tiles_per_player=None)
    assert rules.self_trap is SelfTrap.IGNORE
    words = rules.options()
    assert words == ["single_adjacency=on", "self_trap=ignore", "extended=on",
                     "extended_move_limit=7", "tiles_per_player=none"]
    assert Rules.from_options(words) == rules
    assert Rules.from_options(" ".join(words)) == rules
    assert Rules.from_options("self_trap=ILLEGAL").self_trap is SelfTrap.ILLEGAL


@pytest.mark.parametrize(
    "words",
    ["colour=red", "single_adjacency=maybe", "self_trap=sometimes", "extended_move_limit=0",
     "extended_move_limit=x", "tiles_per_player=0", "extended", "extended=on extended=off"],
)
def test_bad_rules_options(words: str) -> None:
    with pytest.raises(InvalidRulesError):
        Rules.from_options(words)


def test_rules_options_that_are_not_text_are_refused() -> None:
    with pytest.raises(InvalidRulesError, match="rules option 5 is not text"):
        Rules.from_options(["extended=on", 5])  # type: ignore[list-item]
    with pytest.raises(InvalidRulesError, match="rules options are key=value words, not int"):
        Rules.from_options(5)  # type: ignore[arg-type]


def test_too_large_a_number_is_named_as_such() -> None:
    with pytest.raises(InvalidRulesError, match="extended_move_limit is too large"):
        Rules.from_options("extended=on extended_move_limit=99999999999999")
    with pytest.raises(InvalidRulesError, match="takes a whole number"):
        Rules.from_options("extended_move_limit=12x")


def test_extended_play_needs_two_tiles_each() -> None:
    with pytest.raises(InvalidRulesError, match="at least 2"):
        Rules(extended=True, tiles_per_player=1)
    Board(rules=Rules(tiles_per_player=1))  # without relocations: a drawn start
    board = Board(rules=Rules(extended=True, tiles_per_player=2))
    assert len(board.legal_moves) == 2  # White's one tile in hand


def test_board_rejects_a_non_rules_object() -> None:
    with pytest.raises(InvalidRulesError):
        Board(rules="extended=on")  # type: ignore[arg-type]


# --- move notation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("0,1", Move((0, 1))),
        (" -2,3 ", Move((-2, 3))),
        ("(0, 1)", Move((0, 1))),
        ("( -4 ,7 )", Move((-4, 7))),
        ("2,-1>0,3", Move((0, 3), (2, -1))),
        (" 2,-1 > 0,3\n", Move((0, 3), (2, -1))),
        ("(2, -1)>(0, 3)", Move((0, 3), (2, -1))),
        ("-0,0", Move((0, 0))),
    ],
)
def test_move_from_notation_accepts(text: str, move: Move) -> None:
    assert Move.from_notation(text) == move


@pytest.mark.parametrize(
    "text",
    ["", " ", "0", "0,", ",1", "0,1,2", "a,b", "0;1", "0 ,1", "0, 1", "+1,0", "--1,0",
     "1.0,2", "0,1>", ">0,1", "0,1>2,3>4,5", "pass", "0,1 0,2", "(0,1", "0,1)", "d4",
     "c3-d4", "0,1-0,2", "99999,0", "0,-16381", "2,-1<0,3"],
)
def test_move_from_notation_rejects(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.from_notation(text)


def test_move_from_notation_rejects_a_huge_number() -> None:
    # A 5000-digit coordinate is out of range like any other, not a crash of int().
    with pytest.raises(InvalidMoveError):
        Move.from_notation("1" * 5000 + ",0")


def test_move_notation_and_repr() -> None:
    move = Move((0, 3), (2, -1))
    assert move.notation() == str(move) == "2,-1>0,3"
    assert Move((-2, 3)).notation() == "-2,3"
    assert eval(repr(move), EVAL_SCOPE) == move
    assert eval(repr(Move((5, -6))), EVAL_SCOPE) == Move((5, -6))
    assert Move((0, 1)) != Move((0, 1), (0, 0))
    assert hash(Move((0, 1))) == hash(Move((0, 1)))


small = st.integers(min_value=-16380, max_value=16380)


@given(st.tuples(small, small), st.none() | st.tuples(small, small))
def test_move_notation_round_trips(to: tuple[int, int], source: tuple[int, int] | None) -> None:
    move = Move(to, source)
    assert Move.from_notation(move.notation()) == move
    assert Move.from_notation(f"  {move.notation().upper()}  ") == move


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text() | st.text(alphabet="0123456789-,()> \t<;+x", max_size=16))
def test_move_from_notation_fuzz(text: str) -> None:
    try:
        move = Move.from_notation(text)
    except InvalidMoveError:
        return
    assert isinstance(move, Move)
    assert Move.from_notation(move.notation()) == move


def test_parse_notation_errors_name_the_move_and_the_reason() -> None:
    board = play(Board(), "0,1")
    with pytest.raises(IllegalMoveError, match=r"0,0.*occupied"):
        board.parse_notation("0,0")
    with pytest.raises(IllegalMoveError, match=r"-1,0.*touches 1 tile"):
        board.parse_notation("-1,0")
    with pytest.raises(InvalidMoveError):
        board.parse_notation("zero,one")
    won = Board(RING_EXAMPLE)
    won.push_notation("-1,1")
    with pytest.raises(IllegalMoveError, match="game is over"):
        won.parse_notation("-1,2")
    with pytest.raises(IllegalMoveError, match="game is over"):
        won.push(Move((-1, 2)))
    assert issubclass(IllegalMoveError, HexgamesError)
    assert issubclass(InvalidMoveError, ValueError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)


# --- position strings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "moves"),
    [
        (Rules(), ""),
        (Rules(), "0,1 1,1 -1,1"),
        (Rules(single_adjacency=True), "0,1 -1,0 -1,1"),
        (Rules(self_trap="illegal"), "0,1 1,1"),
        (Rules(tiles_per_player=None), "1,-1 2,-1"),
        (Rules(extended=True, tiles_per_player=2), "0,1 1,-1 0,0>1,1"),
        (Rules(), " ".join(DRAWN_GAME)),
    ],
)
def test_position_and_repr_round_trip(rules: Rules, moves: str) -> None:
    board = play(Board(rules=rules), moves)
    again = Board(board.position(), rules)
    assert again.position() == board.position()
    assert again.zobrist_hash() == board.zobrist_hash()
    assert again == board
    assert eval(repr(board), EVAL_SCOPE) == board
    assert notations(again) == notations(board)
    assert board.copy() == board


def test_position_parser_is_lenient_in_case_spacing_and_hands() -> None:
    board = Board("  ANDANTINO  W=0,0   R=1,0 TURN=W HANDS=W24,R24 ")
    assert board.position() == STARTING_POSITION
    assert Board("andantino w=0,0 r=1,0 turn=w").position() == STARTING_POSITION
    assert Board("andantino w=0,0;0,1 r=1,0 turn=r").position() == (
        "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24")
    # Cells come out sorted by r, then q.
    assert Board("andantino w=1,-1;0,1;0,0 r=1,0;1,1 turn=r").position() == (
        "andantino w=1,-1;0,0;0,1 r=1,0;1,1 turn=r hands=w22,r23")
    assert Board("andantino w=- r=0,0;1,0 turn=w").position() == (
        "andantino w=- r=0,0;1,0 turn=w hands=w25,r23")


EXT = Rules(extended=True)


@pytest.mark.parametrize(
    ("text", "rules", "field"),
    [
        ("", Rules(), "andantino"),
        ("abande turn=b hands=b18,w18", Rules(), "andantino"),
        ("andantino w=0,0 r=1,0 turn=w colour=w", Rules(), "colour"),
        ("andantino w=0,0 r=1,0 turn=w turn=r", Rules(), "turn"),
        ("andantino w=0,0 w=0,1 r=1,0 turn=w", Rules(), "w="),
        ("andantino w=0,0 r=1,0", Rules(), "turn"),
        ("andantino r=1,0 turn=w", Rules(), "w="),
        ("andantino w=0,0 turn=w", Rules(), "r="),
        ("andantino w=0,x r=1,0 turn=w", Rules(), "w="),
        ("andantino w=0,0 r=1,0;1 turn=w", Rules(), "r="),
        ("andantino w=0,0; r=1,0 turn=w", Rules(), "w="),
        ("andantino w= r=1,0 turn=w", Rules(), "w="),
        ("andantino w=(0,0) r=1,0 turn=w", Rules(), "w="),
        ("andantino w=0,0;0,0 r=1,0 turn=w", Rules(), "w="),
        ("andantino w=0,0;1,0 r=1,0 turn=w", Rules(), "1,0"),
        ("andantino w=0,0 r=- turn=w", Rules(), "r="),
        ("andantino w=99999,0;0,0 r=1,0 turn=w", Rules(), "w="),
        ("andantino w=0,0 r=1,0 turn=x", Rules(), "turn"),
        ("andantino w=0,0 r=1,0 turn=", Rules(), "turn"),
        ("andantino w=0,0 r=1,0 turn=w hands=w24", Rules(), "hands"),
        ("andantino w=0,0 r=1,0 turn=w hands=w-1,r24", Rules(), "hands"),
        ("andantino w=0,0 r=1,0 turn=w hands=w25,r24", Rules(), "hands"),
        ("andantino w=0,0;0,1;1,1 r=1,0 turn=w", Rules(tiles_per_player=2), "hands"),
        ("andantino w=0,0 r=1,0 turn=w hands=w24,r24", Rules(tiles_per_player=None), "hands"),
        ("andantino w=0,0 r=1,0 turn=w single=used", Rules(), "single"),
        ("andantino w=0,0 r=1,0 turn=w single=maybe", SINGLE, "single"),
        ("andantino w=0,0 r=1,0 turn=w relocations=3", Rules(), "relocations"),
        ("andantino w=0,0 r=1,0 turn=w relocations=x", EXT, "relocations"),
        ("andantino w=0,0 r=1,0 turn=w relocations=-1", EXT, "relocations"),
        ("andantino w=0,0 r=1,0 turn=w relocations=\u00b2", EXT, "relocations"),
        ("andantino w=0,0 r=1,0 turn=w hands", Rules(), "hands"),
        ("andantino w=" + "1" * 5000 + ",0 r=1,0 turn=w", Rules(), "w="),
    ],
)
def test_bad_positions_name_the_field(text: str, rules: Rules, field: str) -> None:
    with pytest.raises(InvalidPositionError) as info:
        Board(text, rules)
    assert field in str(info.value)


def test_position_must_be_text() -> None:
    with pytest.raises(InvalidPositionError):
        Board(42)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_position_parser_fuzz_text(text: str) -> None:
    for rules in (Rules(), EXT):
        try:
            board = Board(text, rules)
        except InvalidPositionError:
            continue
        assert Board(board.position(), rules).position() == board.position()


FIELD_WORDS = st.sampled_from([
    "w=0,0", "r=1,0", "w=0,0;0,1", "r=1,0;1,1", "w=-", "r=-", "turn=w", "turn=r", "turn=b",
    "hands=w24,r24", "hands=w0,r0", "hands=w3,r1", "hands=w99,r1", "single=used",
    "single=unused", "relocations=0", "relocations=5", "w=0,0;0,0", "r=1,0;0,0", "x=1",
    "w", "=", "w=0,0;", "r=1,-1;2,-1;3,-1;4,-1;5,-1", "w=-1,1;-1,0;0,-1;1,-1;1,0;0,1",
    "r=0,0", "hands=w1,r0", "TURN=R", "w=\u0661,\u0662",
])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["andantino", "Andantino", "abande", ""]),
       st.lists(FIELD_WORDS, max_size=7),
       st.sampled_from([Rules(), SINGLE, EXT, UNLIMITED, Rules(tiles_per_player=3)]))
def test_position_parser_fuzz_fields(name: str, words: list[str], rules: Rules) -> None:
    text = " ".join([name, *words])
    try:
        board = Board(text, rules)
    except InvalidPositionError as error:
        assert str(error)
        return
    written = board.position()
    again = Board(written, rules)
    assert again.position() == written
    assert again.zobrist_hash() == board.zobrist_hash()
    assert again.turn is board.turn
    assert isinstance(board.turn, Color)


# --- copies and equality ----------------------------------------------------------------------


def test_copy_is_independent() -> None:
    board = play(Board(), "0,1 1,1")
    copy = board.copy()
    assert copy == board
    assert copy.move_stack == board.move_stack
    copy.push_notation("-1,1")
    assert copy != board
    assert board.ply() == 2
    assert notations(board) == ["-1,1", "0,2", "1,-1", "2,0"]
    board.pop()
    assert copy.ply() == 3
    assert copy.tiles(RED) == {(1, 0), (1, 1)}


def test_equality_needs_the_same_rules() -> None:
    assert Board() == Board()
    assert Board() != Board(rules=Rules(self_trap="ignore"))
    assert Board() != "andantino"
    with pytest.raises(TypeError):
        hash(Board())


def test_str_draws_the_surface() -> None:
    text = str(Board())
    assert "W" in text and "R" in text and text.count(".") == 2


def test_a_position_where_nobody_can_move_is_rejected() -> None:
    # Two lone tiles: no cell touches two tiles, so there is no legal move.
    with pytest.raises(InvalidPositionError, match="no legal move"):
        Board("andantino w=0,0 r=5,5 turn=w")
    # Extended play with one tile each would be the same, and is refused by the rules
    # (test_extended_play_needs_two_tiles_each).



def test_wrong_objects_are_refused_with_value_errors() -> None:
    from hexgames import abande

    board = Board()
    for thing in ("0,1", None, abande.Move.from_notation("d4")):
        with pytest.raises(IllegalMoveError, match="not an Andantino move"):
            board.push(thing)  # type: ignore[arg-type]
        assert board.is_legal(thing) is False  # type: ignore[arg-type]
    for text in (None, 123):
        with pytest.raises(InvalidMoveError, match="a move is text"):
            board.push_notation(text)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError, match="pair of ints"):
        Move((False, True))
    assert board.position() == Board().position()


@pytest.mark.parametrize("options", [
    {"single_adjacency": "yes"}, {"extended": 1}, {"extended_move_limit": 1.5},
    {"tiles_per_player": True}, {"tiles_per_player": "none"},
])
def test_rules_check_their_types(options: dict[str, object]) -> None:
    with pytest.raises(InvalidRulesError):
        Rules(**options)  # type: ignore[arg-type]


def test_a_relocation_to_its_own_cell_is_named_as_such() -> None:
    rules = Rules(extended=True, tiles_per_player=2)
    board = Board("andantino w=0,0;0,1 r=1,0;1,-1 turn=w hands=w0,r0", rules)
    assert not board.is_legal(Move.from_notation("0,1>0,1"))
    with pytest.raises(IllegalMoveError, match="different cell"):
        board.push_notation("0,1>0,1")


def test_a_game_at_the_edge_of_the_range_stays_inside_it() -> None:
    limit = COORDINATE_LIMIT
    board = Board(f"andantino w={limit - 1},0;{limit - 1},1 r={limit},0 turn=w")
    # Cells beyond the range touch two tiles but are not legal moves.
    assert (limit + 1, 0) not in {m.to for m in board.legal_moves}
    assert board.is_legal(Move.from_notation(f"{limit},1"))
    rng = random.Random(3)
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    on_board = board.tiles(0) | board.tiles(1)
    assert max(max(abs(q), abs(r)) for q, r in on_board) <= limit
    while board.move_stack:
        board.pop()
    assert board.position() == Board(board.position()).position()
