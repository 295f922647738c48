"""The native static evaluations (``AlphaBeta.evaluate``, the core's search/eval_*.rs):
exact values on small positions worked out by hand, and the values of random positions
against the evaluations written naively from their description (naive_evaluation.py),
under the rules options too; the win probability the players report for a value."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest
from naive_evaluation import (
    abande_static,
    andantino_potential,
    andantino_static,
    could_win_next,
)

from hexgames import abande, andantino, native
from hexgames.engine.alphabeta import TEMPO, AlphaBetaPlayer
from hexgames.engine.base import Limit
from hexgames.engine.greedy import GreedyPlayer


def evaluate(board: Any, **options: Any) -> int | None:
    """The native static evaluation of ``board`` (``None`` once the game is over)."""
    engine = native.alphabeta(native.game_of(board), tt_mb=1, **options)
    return engine.evaluate(native.state_of(board))


def random_boards(module: Any, count: int, seed: int, rules: Any = None,
                  plies: tuple[int, int] = (4, 40)) -> list[Any]:
    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < count:
        board = module.Board(rules=rules)
        for _ in range(rng.randint(*plies)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            boards.append(board)
    return boards


# -- Andantino ---------------------------------------------------------------------------

def test_andantino_start_is_even() -> None:
    assert evaluate(andantino.Board()) == 0


def test_andantino_value_by_hand() -> None:
    # White (0,0) (0,1), Red (1,0), Red to move. White's windows without Red: on r=0 the
    # one ending at (0,0) (1 point); on r=1 five (5); on q=0 four holding both tiles
    # (4 x 6) and one holding each (2); on the (1,-1) axis five through (0,0) (5) and one
    # through (0,1) that stops short of (1,0) (1): 38. Red's: 1 + 5 + 1 = 7. Red's tile
    # has two White neighbours, worth 1 to White. So White is 32 ahead, and Red is to
    # move.
    board = andantino.Board("andantino w=0,0;0,1 r=1,0 turn=r")
    assert andantino_potential(board) == 32
    assert evaluate(board) == -32


@pytest.mark.parametrize("rules", [
    None,
    andantino.Rules(self_trap=andantino.SelfTrap.IGNORE),
    andantino.Rules(extended=True, tiles_per_player=7),
    andantino.Rules(tiles_per_player=None),
])
def test_andantino_matches_the_naive_sums(rules: andantino.Rules | None) -> None:
    plies = (4, 40) if rules is None or not rules.extended else (14, 40)
    for board in random_boards(andantino, 60, seed=1, rules=rules, plies=plies):
        assert evaluate(board) == andantino_static(board), board.position()


def test_andantino_weight_of_a_three_in_the_search() -> None:
    # A one-ply search of a quiet position (no four and no possible trap for either side,
    # before or after any move, so the forcing analysis has nothing to do) is worth the
    # best of the moves' values, with the weight of a three given by the option.
    rng = random.Random(2)
    checked = changed = 0
    while checked < 12:
        board = random_boards(andantino, 1, seed=rng.randrange(10**6), plies=(10, 30))[0]
        if could_win_next(board, 0) or could_win_next(board, 1):
            continue
        values: dict[int, list[int]] = {30: [], 55: []}
        for move in board.legal_moves:
            board.push(move)
            quiet = not (board.is_game_over() or could_win_next(board, 0)
                         or could_win_next(board, 1))
            for three, found in values.items():
                found.append(-andantino_static(board, three=three, tempo=TEMPO))
            board.pop()
            if not quiet:
                break
        else:
            for three, found in values.items():
                info = AlphaBetaPlayer(tt_mb=1, three=three,
                                       eval="hand").analyse(board, Limit(depth=1))
                assert info.eval == max(found), (three, board.position())
            changed += max(values[30]) != max(values[55])
            checked += 1
    assert changed >= 3  # the sample has threes that count


def test_andantino_static_value_with_the_weight_of_a_three() -> None:
    # The player's static evaluation uses its own ``three`` option, as its search does.
    changed = 0
    for board in random_boards(andantino, 30, seed=3, plies=(10, 30)):
        state = native.state_of(board)
        for three in (0, 55, 159):
            found = native.alphabeta("andantino", tt_mb=1, three=three).evaluate(state)
            assert found == andantino_static(board, three=three), (three, board.position())
        changed += andantino_static(board, three=0) != andantino_static(board, three=159)
    assert changed >= 10


def test_andantino_tempo_and_red_right() -> None:
    # The side to move's points and, in the balance variant, Red's while its right is
    # unused, on top of the potential.
    rules = andantino.Rules(single_adjacency=True)
    kept = spent = 0
    for board in random_boards(andantino, 60, seed=4, rules=rules, plies=(2, 30)):
        found = evaluate(board, tempo=25, right=70)
        assert found == andantino_static(board, tempo=25, right=70), board.position()
        red = 1 if int(board.turn) == 1 else -1
        unused = not board.single_adjacency_used
        assert found - evaluate(board) == 25 + (70 * red if unused else 0)
        kept += unused
        spent += not unused
    assert kept >= 3 and spent >= 3  # both cases are checked
    # Without the variant there is no right to value.
    board = random_boards(andantino, 1, seed=5, plies=(6, 6))[0]
    assert evaluate(board, tempo=25, right=70) == evaluate(board) + 25


@pytest.mark.parametrize("option", ["tempo", "right", "rfp"])
@pytest.mark.parametrize("points", [-1, 1001, 10**30])
def test_points_options_out_of_range_are_refused(option: str, points: int) -> None:
    with pytest.raises(ValueError, match=f"{option} must be 0 to 1000 points, not {points}"):
        native.alphabeta("andantino", tt_mb=1, **{option: points})


@pytest.mark.parametrize("option", ["tempo", "right", "rfp", "three", "multipv",
                                    "randomness"])
@pytest.mark.parametrize("value", [1.5, True, "30", float("nan")])
def test_native_options_that_are_no_whole_number_are_refused(option: str,
                                                             value: object) -> None:
    # The binding itself says which option is wrong (a ValueError, not PyO3's
    # TypeError or OverflowError).
    with pytest.raises(ValueError, match=f"{option} must be a whole number, not "):
        native.alphabeta("andantino", tt_mb=1, **{option: value})


@pytest.mark.parametrize("three", [-1, 160, 10**6])
def test_andantino_three_out_of_range_is_refused(three: int) -> None:
    with pytest.raises(ValueError, match=f"three must be 0 to 159 points, not {three}"):
        native.alphabeta("andantino", tt_mb=1, three=three)


def test_andantino_finished_game_has_no_static_value() -> None:
    board = andantino.Board("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w")
    board.push_notation("-1,0")
    assert board.is_game_over()
    assert evaluate(board) is None


# -- Abande ------------------------------------------------------------------------------

def test_abande_values_by_hand() -> None:
    board = abande.Board()
    assert evaluate(board) == 0
    board.push_notation("d4")
    board.push_notation("e3")
    assert evaluate(board) == 0  # one awake single each, the opening restriction holds
    board.push_notation("c4")
    # White to move: scores 1-1 (c4 sleeps); material 1 against 2 (-8); White's single
    # can take d4 (+81) and is exposed to it (-81); each side has one stack that can
    # capture (0); White holds one piece more in hand (+163).
    assert board.position() == "abande c4=B d4=B e3=W turn=w hands=b16,w17"
    assert abande_static(board) == 155
    assert evaluate(board) == 155


@pytest.mark.parametrize("max_height", [3, 2, 5])
def test_abande_matches_the_naive_terms(max_height: int) -> None:
    rules = abande.Rules(max_height=max_height)
    for board in random_boards(abande, 60, seed=3, rules=rules, plies=(2, 70)):
        assert evaluate(board) == abande_static(board), board.position()


def test_abande_score_term_dominates_a_clear_lead() -> None:
    for board in random_boards(abande, 40, seed=4, plies=(5, 40)):
        black, white = board.score()
        lead = (black - white) if board.turn == 0 else (white - black)
        value = evaluate(board)
        assert value is not None
        if lead >= 8:
            assert value > 0, board.position()


def test_abande_finished_game_has_no_static_value() -> None:
    position = ("abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW d2=BWB "
                "d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w hands=b0,w0 "
                "passes=1")
    board = abande.Board(position)
    board.push_notation("pass")
    assert board.is_game_over()
    assert evaluate(board) is None


def test_bad_state_for_the_game() -> None:
    engine = native.alphabeta("abande", tt_mb=1)
    with pytest.raises(ValueError, match="AbandeState"):
        engine.evaluate(native.state_of(andantino.Board()))


# -- the reported win probability --------------------------------------------------------

@pytest.mark.parametrize(("module", "scale"), [(andantino, 250.0), (abande, 200.0)])
def test_win_probability_of_the_reported_value(module: Any, scale: float) -> None:
    # 1 / (1 + exp(-points / scale)): 250 points give Andantino about 73%, 200 Abande.
    for board in random_boards(module, 8, seed=5, plies=(6, 20)):
        for info in (AlphaBetaPlayer(tt_mb=1).analyse(board, Limit(depth=2)),
                     GreedyPlayer(1).play(board).info):
            if info.mate is not None:
                continue
            assert info.eval is not None and info.score is not None
            assert info.score == pytest.approx(1 / (1 + math.exp(-info.eval / scale)))
