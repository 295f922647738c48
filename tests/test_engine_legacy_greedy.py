"""The pure-Python greedy player (hexgames.engine.legacy.greedy), kept to measure the
native player against until the legacy package goes: each rule of its description with
a position and the exact move, the rules checked again with an evaluation rigged to
prefer the wrong move, ties broken by the seed, speed, and the interface contract."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from hexgames import abande, andantino
from hexgames.engine.legacy import greedy
from hexgames.engine.legacy.evaluation import evaluate
from hexgames.engine.legacy.greedy import GreedyPlayer

# The positions of test_engine_alphabeta.py, where they are described.
LINE_WIN = "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w"
TRAP_WIN = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"
LINE_BLOCK = "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w"
TRAP_BLOCK = "andantino w=0,0;2,0;2,-2;-2,0;-2,2;0,2 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w"
POCKET = ("andantino w=-2,-1;-2,0;-2,1;-1,-2;-1,-1;1,1;2,1 "
          "r=1,0;1,-1;0,-1;-1,0;-1,1;0,1;2,0 turn=w")
# Red surrounds the empty (0,0) on five sides: a White tile there is enclosed by Red (0,1).
TRAPPABLE = "andantino w=2,0;2,-2;-2,0;-2,2;0,2;1,-3 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w"
ABANDE_PASS_WIN = ("abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW "
                   "d2=BWB d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w "
                   "hands=b0,w0 passes=1")
ABANDE_BLOCK = ("abande a2=WB a4=W b1=WWB b3=W b4=BBW b5=WB c2=W c3=BWB c4=B c5=B d2=W "
                "d3=B d6=BWB d7=B e1=B e3=B e4=WBW e6=W f3=BW f5=W g1=W g2=W g3=B turn=w "
                "hands=b0,w0")


def board_of(position: str, rules: Any = None) -> Any:
    module = andantino if position.startswith("andantino") else abande
    return module.Board(position, rules)


def play(position: str, seed: int = 0) -> str:
    return str(GreedyPlayer(seed).play(board_of(position)).move)


def rig(monkeypatch: pytest.MonkeyPatch, favourite: str) -> None:
    """Make the evaluation love the position after ``favourite`` (any game state)."""
    def rigged(board: Any) -> float:
        if board.move_stack and str(board.peek()) == favourite:
            return -1e9  # the opponent to move is hopeless: the mover's dream
        return evaluate(board)
    monkeypatch.setattr(greedy, "evaluate", rigged)


@pytest.mark.parametrize(("position", "move"), [
    (LINE_WIN, "-1,0"), (TRAP_WIN, "-1,1"), (ABANDE_PASS_WIN, "pass")])
def test_wins_at_once(position: str, move: str) -> None:
    for seed in range(5):
        result = GreedyPlayer(seed).play(board_of(position))
        assert str(result.move) == move
        assert result.info.mate == 1 and result.info.score == 1.0


def test_wins_at_once_whatever_the_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, "1,1")
    assert play(LINE_WIN) == "-1,0"


@pytest.mark.parametrize(("position", "move"), [(LINE_BLOCK, "-1,1"), (TRAP_BLOCK, "0,1")])
def test_blocks_the_opponents_win(position: str, move: str) -> None:
    assert play(position) == move


def test_blocks_whatever_the_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, "2,0")
    assert play(LINE_BLOCK) == "-1,1"
    rig(monkeypatch, "1,1")
    assert play(TRAP_BLOCK) == "0,1"


def test_never_self_traps(monkeypatch: pytest.MonkeyPatch) -> None:
    board = board_of(POCKET)
    board.push_notation("0,0")
    assert board.outcome() is not None and board.outcome().winner == 1  # a self-trap
    rig(monkeypatch, "0,0")
    for seed in range(5):
        assert play(POCKET, seed) != "0,0"
    # where the rules ignore self-traps, the rigged evaluation gets its way
    lax = board_of(POCKET, andantino.Rules(self_trap=andantino.SelfTrap.IGNORE))
    assert str(GreedyPlayer(0).play(lax).move) == "0,0"


def test_never_hands_the_opponent_a_win(monkeypatch: pytest.MonkeyPatch) -> None:
    board = board_of(TRAPPABLE)
    board.push_notation("0,0")
    board.push_notation("0,1")
    assert board.outcome() is not None and board.outcome().winner == 1  # Red traps it
    rig(monkeypatch, "0,0")
    assert play(TRAPPABLE) != "0,0"
    # Abande: a pass would let Black pass and win 20-14; the one capture does not.
    assert play(ABANDE_BLOCK) == "a4-b5"
    rig(monkeypatch, "pass")
    assert play(ABANDE_BLOCK) == "a4-b5"


def test_rigged_evaluation_is_followed_when_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    # The rig itself works: a safe favourite is played (so the tests above can fail).
    rig(monkeypatch, "-2,1")
    assert play(TRAPPABLE) == "-2,1"
    rig(monkeypatch, "1,-2")
    assert play(TRAPPABLE) == "1,-2"


@pytest.mark.parametrize("module", [andantino, abande])
def test_otherwise_the_best_evaluation(module: Any) -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 10:
        board = module.Board()
        for _ in range(rng.randint(6, 20)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if board.is_game_over():
            continue
        values: dict[str, float] = {}
        for move in board.legal_moves:
            board.push(move)
            if board.is_game_over() or greedy._has_winning_reply(board)[0]:
                values = {}
                board.pop()
                break
            values[str(move)] = -evaluate(board)
            board.pop()
        if not values:
            continue  # a tactical position: the other rules apply
        result = GreedyPlayer(checked).play(board)
        assert values[str(result.move)] == max(values.values())
        assert result.info.eval == max(values.values())
        checked += 1


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
    assert slowest < 0.1


def test_noise_still_wins_and_blocks_but_varies_quiet_moves() -> None:
    for seed in range(10):
        player = GreedyPlayer(seed, noise=1.0)
        assert str(player.play(board_of(LINE_WIN)).move) == "-1,0"
        assert str(player.play(board_of(LINE_BLOCK)).move) == "-1,1"
    # A quiet middle game: without noise the best-evaluated move, with full noise a
    # random safe one, so many different moves over seeds.
    board = andantino.Board()
    rng = random.Random(5)
    for _ in range(10):
        board.push(rng.choice(board.legal_moves))
    best = {str(GreedyPlayer(seed).play(board).move) for seed in range(12)}
    noisy = {str(GreedyPlayer(seed, noise=1.0).play(board).move) for seed in range(12)}
    assert len(best) <= 2 < len(noisy)


@pytest.mark.parametrize("noise", [-0.1, 1.5])
def test_noise_must_be_a_probability(noise: float) -> None:
    with pytest.raises(ValueError, match="noise"):
        GreedyPlayer(noise=noise)


@pytest.mark.parametrize("position", [LINE_WIN, LINE_BLOCK, ABANDE_BLOCK])
def test_info_reports_time_and_speed(position: str) -> None:
    # analyse prints nodes per second and seconds: the greedy player measures them too.
    for noise in (0.0, 1.0):
        info = GreedyPlayer(seed=1, noise=noise).play(board_of(position)).info
        assert info.nodes > 0
        assert info.time > 0
        assert info.nps == pytest.approx(info.nodes / info.time)
