"""The native greedy player (hexgames.engine.greedy, the core's search/greedy.rs): each
rule of its description with a position and the exact move, its choices on random
positions against alpha-beta's evaluation written naively in the test
(naive_evaluation.py), ties broken by the seed, noise, speed and the interface
contract."""

from __future__ import annotations

import math
import random
import time
from typing import Any

import pytest
from naive_evaluation import abande_static, andantino_static, immediate_wins

from hexgames import abande, andantino, native
from hexgames.core import HexgamesError
from hexgames.engine.greedy import GreedyPlayer
from hexgames.engine.players import make_player

# The positions of test_engine_alphabeta.py, where they are described.
LINE_WIN = "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w"
TRAP_WIN = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"
LINE_BLOCK = "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w"
TRAP_BLOCK = "andantino w=0,0;2,0;2,-2;-2,0;-2,2;0,2 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w"
POCKET = ("andantino w=-2,-1;-2,0;-2,1;-1,-2;-1,-1;1,1;2,1 "
          "r=1,0;1,-1;0,-1;-1,0;-1,1;0,1;2,0 turn=w")
# Red surrounds the empty (0,0) on five sides: a White tile there is enclosed by Red (0,1).
TRAPPABLE = "andantino w=2,0;2,-2;-2,0;-2,2;0,2;1,-3 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w"
# White's three can become a four open at both ends (test_engine_alphabeta.py).
OPEN_FOUR = "andantino w=0,0;1,0;2,0 r=-2,0;3,1;1,1 turn=w"
# Red threatens lines at -1,1 and 4,1 (test_engine_mcts.py): White cannot block both.
LOST = "andantino w=0,0;1,0;2,-1;4,0 r=0,1;1,1;2,1;3,1 turn=w"
ABANDE_PASS_WIN = ("abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW "
                   "d2=BWB d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w "
                   "hands=b0,w0 passes=1")
ABANDE_BLOCK = ("abande a2=WB a4=W b1=WWB b3=W b4=BBW b5=WB c2=W c3=BWB c4=B c5=B d2=W "
                "d3=B d6=BWB d7=B e1=B e3=B e4=WBW e6=W f3=BW f5=W g1=W g2=W g3=B turn=w "
                "hands=b0,w0")


#: Points at which the reported win probability is 1 / (1 + e^-1).
SCALE = {andantino: 250.0, abande: 200.0}


def board_of(position: str, rules: Any = None) -> Any:
    module = andantino if position.startswith("andantino") else abande
    return module.Board(position, rules)


def play(position: str, seed: int = 0) -> str:
    return str(GreedyPlayer(seed).play(board_of(position)).move)


@pytest.mark.parametrize(("position", "move"), [
    (LINE_WIN, "-1,0"), (TRAP_WIN, "-1,1"), (ABANDE_PASS_WIN, "pass")])
def test_wins_at_once(position: str, move: str) -> None:
    for seed in range(5):
        for noise in (0.0, 1.0):
            result = GreedyPlayer(seed, noise=noise).play(board_of(position))
            assert str(result.move) == move
            assert result.info.mate == 1 and result.info.score == 1.0
            assert result.info.eval is None


@pytest.mark.parametrize(("position", "move"), [(LINE_BLOCK, "-1,1"), (TRAP_BLOCK, "0,1")])
def test_blocks_the_opponents_win(position: str, move: str) -> None:
    for seed in range(4):
        assert play(position, seed) == move
        assert str(GreedyPlayer(seed, noise=1.0).play(board_of(position)).move) == move


def test_never_self_traps() -> None:
    board = board_of(POCKET)
    board.push_notation("0,0")
    assert board.outcome() is not None and board.outcome().winner == 1  # a self-trap
    for seed in range(5):
        assert play(POCKET, seed) != "0,0"
        assert str(GreedyPlayer(seed, noise=1.0).play(board_of(POCKET)).move) != "0,0"


def test_never_hands_the_opponent_a_win() -> None:
    board = board_of(TRAPPABLE)
    board.push_notation("0,0")
    board.push_notation("0,1")
    assert board.outcome() is not None and board.outcome().winner == 1  # Red traps it
    for seed in range(5):
        assert str(GreedyPlayer(seed, noise=1.0).play(board_of(TRAPPABLE)).move) != "0,0"
        # Abande: a pass would let Black pass and win 20-14; the one capture does not.
        assert play(ABANDE_BLOCK, seed) == "a4-b5"


def quiet_values(board: Any) -> dict[str, int] | None:
    """The value of every legal move by the naive evaluation of the position after it,
    from the mover's point of view, or ``None`` when a rule other than "the best
    evaluation" may apply: a move ends the game, or the opponent then has a winning
    reply (tried move by move)."""
    values: dict[str, int] = {}
    for move in board.legal_moves:
        board.push(move)
        try:
            if board.is_game_over() or immediate_wins(board):
                return None
            if isinstance(board, andantino.Board):
                values[str(move)] = -andantino_static(board)
            else:
                values[str(move)] = -abande_static(board)
        finally:
            board.pop()
    return values


@pytest.mark.parametrize("module", [andantino, abande])
def test_otherwise_the_best_evaluation(module: Any) -> None:
    # In quiet positions every move is safe: the move chosen has the best naive value
    # (alpha-beta's evaluation), and that value is reported.
    rng = random.Random(7)
    checked = 0
    while checked < 30:
        board = module.Board()
        for _ in range(rng.randint(6, 30)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if board.is_game_over():
            continue
        values = quiet_values(board)
        if values is None:
            continue
        result = GreedyPlayer(checked).play(board)
        best = max(values.values())
        assert values[str(result.move)] == best, board.position()
        assert result.info.eval == best
        assert result.info.score == pytest.approx(1 / (1 + math.exp(-best / SCALE[module])))
        checked += 1


def test_an_open_four_is_the_best_evaluated_move() -> None:
    # White's 3,0 makes a four open at both ends (-1,0 and 4,0): two windows of four,
    # the best line potential of White's moves. Red can fill only one of the cells, but
    # the evaluation has no term for that (greedy has no search): the value reported is
    # the position's static value.
    board = andantino.Board(OPEN_FOUR)
    result = GreedyPlayer(1).play(board)
    assert str(result.move) == "3,0" and result.info.mate is None
    board.push_notation("3,0")
    assert result.info.eval == -andantino_static(board)


def test_every_move_unsafe_plays_the_best_evaluated() -> None:
    # Red threatens lines at -1,1 and 4,1; whatever White plays, Red still has a winning
    # cell: every move is unsafe, and White plays the best-evaluated of them.
    board = andantino.Board(LOST)
    values = {}
    for move in board.legal_moves:
        board.push(move)
        assert not board.is_game_over() and immediate_wins(board)
        values[str(move)] = -andantino_static(board)
        board.pop()
    result = GreedyPlayer(2).play(board)
    assert result.info.eval == max(values.values())
    assert values[str(result.move)] == max(values.values())


def test_ties_are_broken_by_the_seed() -> None:
    # At the start White's two moves are mirror images: equal values.
    chosen = {str(GreedyPlayer(seed).play(andantino.Board()).move) for seed in range(12)}
    assert chosen == {"0,1", "1,-1"}
    a, b = GreedyPlayer(3), GreedyPlayer(3)
    assert [str(a.play(andantino.Board()).move) for _ in range(8)] == \
        [str(b.play(andantino.Board()).move) for _ in range(8)]


@pytest.mark.parametrize("module", [andantino, abande])
def test_fast_legal_and_harmless(module: Any) -> None:
    rng = random.Random(8)
    player = GreedyPlayer(1)
    slowest = 0.0
    for _ in range(6):
        board = module.Board()
        while not board.is_game_over():
            before = (board.position(), list(board.move_stack))
            start = time.perf_counter()
            move = player.play(board).move
            slowest = max(slowest, time.perf_counter() - start)
            assert move in board.legal_moves
            assert (board.position(), list(board.move_stack)) == before
            board.push(move if rng.random() < 0.7 else rng.choice(board.legal_moves))
    assert slowest < 0.05


def test_noise_still_wins_and_blocks_but_varies_quiet_moves() -> None:
    # A quiet middle game: without noise the best-evaluated move, with full noise a
    # random safe one, so many different moves over seeds.
    board = andantino.Board()
    rng = random.Random(5)
    for _ in range(10):
        board.push(rng.choice(board.legal_moves))
    best = {str(GreedyPlayer(seed).play(board).move) for seed in range(12)}
    noisy = {str(GreedyPlayer(seed, noise=1.0).play(board).move) for seed in range(12)}
    assert len(best) <= 2 < len(noisy)


@pytest.mark.parametrize("noise", [-0.1, 1.5, float("nan")])
def test_noise_must_be_a_probability(noise: float) -> None:
    with pytest.raises(ValueError, match="noise"):
        GreedyPlayer(noise=noise)


def test_the_player_names_and_bad_native_arguments() -> None:
    assert type(make_player("greedy")).__module__ == "hexgames.engine.greedy"
    assert type(make_player("easy")).__module__ == "hexgames.engine.greedy"
    with pytest.raises(HexgamesError, match="AndantinoState or AbandeState"):
        native.Greedy().choose("andantino")  # type: ignore[arg-type]
    with pytest.raises(HexgamesError, match="seed"):
        native.Greedy(seed=2**64)
    over = andantino.Board("andantino w=0,0;1,0;2,0;3,0;4,0 r=0,1;1,1;2,1;3,1 turn=r")
    with pytest.raises(HexgamesError, match="game is over"):
        native.Greedy().choose(native.state_of(over))


@pytest.mark.parametrize("position", [LINE_WIN, LINE_BLOCK, ABANDE_BLOCK])
def test_info_reports_time_and_speed(position: str) -> None:
    # analyse prints nodes per second and seconds: the greedy player measures them too.
    for noise in (0.0, 1.0):
        info = GreedyPlayer(seed=1, noise=noise).play(board_of(position)).info
        assert info.nodes > 0
        assert info.time > 0
        assert info.nps == pytest.approx(info.nodes / info.time)
