"""The static evaluations: exact values on small positions worked out by hand, a naive
reference for Andantino's window sums, the incremental tracker against a fresh count,
trap and threat detection, and the Abande terms."""

from __future__ import annotations

import random

import pytest

from hexgames import abande, andantino
from hexgames.andantino import _pack, _unpack
from hexgames.engine.legacy.evaluation import evaluate, win_probability
from hexgames.engine.legacy.evaluation_abande import WIN_VALUE, static_abande
from hexgames.engine.legacy.evaluation_andantino import (
    ENCLOSURE_WEIGHTS,
    LINE_WEIGHTS,
    WIN_SOON,
    Tracker,
    threat_cells,
    trap_cells,
)

Cell = tuple[int, int]
AXES = ((1, 0), (0, 1), (1, -1))
RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def naive_potential(board: andantino.Board) -> int:
    """Line plus enclosure potential, White minus Red, straight from the definition."""
    tiles = {cell: 0 for cell in board.tiles(0)} | {cell: 1 for cell in board.tiles(1)}
    windows: set[tuple[Cell, Cell]] = set()
    for (q, r) in tiles:
        for dq, dr in AXES:
            for i in range(5):
                windows.add(((q - i * dq, r - i * dr), (dq, dr)))
    lines = 0
    for (q, r), (dq, dr) in windows:
        colours = [tiles.get((q + i * dq, r + i * dr)) for i in range(5)]
        white, red = colours.count(0), colours.count(1)
        if red == 0:
            lines += LINE_WEIGHTS[white]
        elif white == 0:
            lines -= LINE_WEIGHTS[red]
    enclosure = 0
    for (q, r), colour in tiles.items():
        enemies = sum(tiles.get((q + dq, r + dr)) == 1 - colour for dq, dr in RING)
        enclosure += ENCLOSURE_WEIGHTS[enemies] * (1 if colour == 1 else -1)
    return lines + enclosure


def random_boards(count: int, seed: int, rules: andantino.Rules | None = None,
                  ) -> list[andantino.Board]:
    rng = random.Random(seed)
    boards: list[andantino.Board] = []
    while len(boards) < count:
        board = andantino.Board(rules=rules)
        for _ in range(rng.randint(4, 30)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            boards.append(board)
    return boards


# -- Andantino ---------------------------------------------------------------------------

def test_andantino_start_is_even() -> None:
    assert evaluate(andantino.Board()) == 0.0


def test_andantino_value_by_hand() -> None:
    # White (0,0) (0,1), Red (1,0), Red to move. White's windows without Red: on r=0 the
    # one ending at (0,0) (1 point); on r=1 five (5); on q=0 four holding both tiles
    # (4 x 6) and one holding each (2); on the (1,-1) axis five through (0,0) (5) and one
    # through (0,1) that stops short of (1,0) (1): 38. Red's: 1 + 5 + 1 = 7. Red's tile
    # has two White neighbours, worth ENCLOSURE_WEIGHTS[2] = 1 to White. So White is 32
    # ahead, and Red is to move.
    board = andantino.Board("andantino w=0,0;0,1 r=1,0 turn=r")
    assert naive_potential(board) == 32
    assert evaluate(board) == -32.0


def test_andantino_matches_the_naive_sums() -> None:
    checked = 0
    for board in random_boards(40, seed=1):
        mover = int(board.turn)
        tracker = Tracker(board)
        assert tracker.lines + tracker.enclosure == naive_potential(board)
        if not threat_cells(board, 0, tracker, mover == 0) and \
                not threat_cells(board, 1, tracker, mover == 1):
            sign = 1 if mover == 0 else -1
            assert evaluate(board) == sign * naive_potential(board)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("rules", [andantino.Rules(),
                                   andantino.Rules(extended=True, tiles_per_player=7)])
def test_tracker_follows_push_and_pop(rules: andantino.Rules) -> None:
    def snapshot(t: Tracker) -> tuple[object, ...]:
        return (t.lines, t.enclosure, {k: v for k, v in t.wc.items() if v}, t.fours,
                t.four_at, [{k: v for k, v in m.items() if v} for m in t.masks])

    rng = random.Random(2)
    for _ in range(30):
        board = andantino.Board(rules=rules)
        tracker = Tracker(board)
        stack: list[tuple[andantino.Move, int]] = []
        for _ in range(50):
            if board.is_game_over() or (stack and rng.random() < 0.3):
                if not stack:
                    break
                move, colour = stack.pop()
                board.pop()
                tracker.pop(move, colour)
            else:
                move = rng.choice(board.legal_moves)
                colour = int(board.turn)
                board.push(move)
                tracker.push(move, colour)
                stack.append((move, colour))
            assert snapshot(tracker) == snapshot(Tracker(board))


def test_fours_are_tracked() -> None:
    board = andantino.Board("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w")
    tracker = Tracker(board)
    assert [_unpack(k) for k in tracker.fours[0]] == [(-1, 0)]
    assert tracker.fours[1] == {}


def test_trap_cells() -> None:
    # RULES.md: White (-1,1) encloses Red (0,0); with Red on (1,1) instead it is a ring
    # around an empty cell only.
    white = "w=1,0;-1,0;0,1;0,-1;1,-1"
    board = andantino.Board(f"andantino {white} r=0,0;2,0;2,-1;-2,0;-2,1 turn=w")
    assert [_unpack(k) for k in trap_cells(board, 0)] == [(-1, 1)]
    assert trap_cells(board, 1) == []
    empty_ring = andantino.Board(f"andantino {white} r=1,1;2,0;2,-1;-2,0;-2,1 turn=w")
    assert trap_cells(empty_ring, 0) == []
    assert trap_cells(board, 0, [_pack((3, 3))]) == []


def test_threat_terms() -> None:
    # White to move with a four: it wins next move.
    board = andantino.Board("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w")
    assert evaluate(board) >= WIN_SOON
    # The same with Red to move facing a four it can block: no bonus either way.
    blocked = andantino.Board("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1 turn=r")
    assert abs(evaluate(blocked)) < WIN_SOON
    # Red to move facing White's open four (two cells): Red is lost.
    open_four = andantino.Board("andantino w=0,0;1,0;2,0;3,0 r=-2,0;3,1;1,1 turn=r")
    assert evaluate(open_four) <= -WIN_SOON / 2


def test_andantino_finished_game() -> None:
    board = andantino.Board("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w")
    board.push_notation("-1,0")
    assert evaluate(board) == -10 * WIN_SOON  # Red, to move, has lost


# -- Abande ------------------------------------------------------------------------------

def test_abande_values_by_hand() -> None:
    board = abande.Board()
    assert evaluate(board) == 0.0
    board.push_notation("d4")
    board.push_notation("e3")
    assert evaluate(board) == 0.0  # one awake single each, the opening restriction holds
    board.push_notation("c4")
    # White to move: scores 1-1 (c4 sleeps); material 1 against 2 (-25); White's single
    # can take d4 (+30) and is exposed to it (-15); each side has one stack that can
    # capture (0); White holds one piece more in hand (+30).
    assert board.position() == "abande c4=B d4=B e3=W turn=w hands=b16,w17"
    assert evaluate(board) == 20.0


def test_abande_side_to_move_view() -> None:
    rng = random.Random(3)
    for _ in range(20):
        board = abande.Board()
        for _ in range(rng.randint(5, 40)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        if board.is_game_over():
            continue
        black, white = board.score()
        value = static_abande(board)
        assert evaluate(board) == float(value)
        # the score term outweighs the others once the lead is eight points
        lead = (black - white) if board.turn == 0 else (white - black)
        if lead >= 8:
            assert value > 0


def test_abande_finished_game() -> None:
    position = ("abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW d2=BWB "
                "d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w hands=b0,w0 "
                "passes=1")
    board = abande.Board(position)
    board.push_notation("pass")  # White wins 22-13; Black is to move
    assert evaluate(board) == -WIN_VALUE


# -- shared ------------------------------------------------------------------------------

def test_win_probability() -> None:
    assert win_probability(0, "andantino") == 0.5
    assert win_probability(250, "andantino") == pytest.approx(0.7310585786)
    assert win_probability(-200, "abande") == pytest.approx(1 - 0.7310585786)
    assert win_probability(10**9, "abande") == 1.0
    assert win_probability(-10**9, "abande") == 0.0


def test_evaluate_needs_a_board() -> None:
    with pytest.raises(TypeError):
        evaluate("andantino")
