"""The pure-Python Monte Carlo tree search player (hexgames.engine.legacy.mcts), kept to
measure the native player against until the legacy package goes."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from hexgames import abande, andantino
from hexgames.engine.base import Info, Limit
from hexgames.engine.legacy.mcts import MCTSPlayer

# White to move; White wins at 4,0 (a line); Red would win at -1,1.
WIN_IN_ONE = "andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w"
# White to move cannot win at once; Red threatens a line at -1,1, which White must fill.
BLOCK = "andantino w=0,0;1,0;2,0;2,-1 r=0,1;1,1;2,1;3,1 turn=w"
# RULES.md's example: White -1,1 walls in the Red tile on 0,0.
TRAP = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"
# Found by seeded random play and checked by brute force: White wins in three plies,
# and only by 0,-1 (neither side can win at once now).
WIN_IN_THREE = ("andantino w=1,-2;1,-1;0,0;2,0;-1,1;0,1;0,2 r=2,-2;3,-2;2,-1;1,0;1,1;-1,2;-1,3"
                " turn=w hands=w18,r18")
# Red threatens lines at -1,1 and 4,1; White cannot block both: lost in two plies.
LOST = "andantino w=0,0;1,0;2,-1;4,0 r=0,1;1,1;2,1;3,1 turn=w"
# Black has just passed; White leads 20-13, so passing ends the game won.
ABANDE_PASS_WINS = ("abande b2=W b3=WWB c2=BW c3=WB c4=B c6=W d1=B d2=B d6=BW d7=B e1=WB "
                    "e2=BBW e3=BW e4=BW e6=B f2=W f3=WB f4=W f5=WBW g1=W g2=BW g4=B turn=w "
                    "hands=b0,w0 passes=1")


def random_position(module: Any, seed: int, plies: int) -> Any:
    """A position from seeded uniformly random play that is not over."""
    rng = random.Random(seed)
    while True:
        board = module.Board()
        for _ in range(plies):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            return board


def quiet_position(module: Any, seed: int, plies: int) -> Any:
    """A random position (as :func:`random_position`) where the side to move cannot
    win at once, so the search has something to do."""
    while True:
        board = random_position(module, seed, plies)
        if not immediate_wins(board):
            return board
        seed += 1000


def immediate_wins(board: Any) -> list[Any]:
    """The moves with which the side to move wins at once, by trying each."""
    me = board.turn
    found = []
    for move in board.legal_moves:
        board.push(move)
        outcome = board.outcome()
        if outcome is not None and outcome.winner == me:
            found.append(move)
        board.pop()
    return found


OPTIONS = [
    {},
    {"decisive": True},
    {"rave": False},
    {"solver": False, "decisive": False},
    {"grave_ref": 0, "reuse_tree": False},
    {"abande_cutoff": None},
    {"abande_cutoff": 5, "cutoff_scale": 4.0},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize(("module", "plies"), [(andantino, 14), (abande, 30), (abande, 50)])
def test_play_is_legal_and_leaves_the_board_alone(options: dict[str, Any], module: Any,
                                                  plies: int) -> None:
    player = MCTSPlayer(seed=3, **options)
    for seed in range(3):
        board = random_position(module, seed, plies)
        before, stack = board.position(), list(board.move_stack)
        result = player.play(board, Limit(nodes=150))
        assert result.move in board.legal_moves
        assert board.position() == before
        assert board.move_stack == stack
        assert result.info.pv and result.info.pv[0] == result.move
        assert 0.0 <= (result.info.score or 0.0) <= 1.0


def test_a_whole_game_of_legal_moves() -> None:
    players = (MCTSPlayer(seed=1), MCTSPlayer(seed=2, rave=False))
    board = andantino.Board()
    while not board.is_game_over():
        board.push(players[board.turn].play(board, Limit(nodes=60)).move)
    assert board.outcome() is not None


def test_win_in_one_is_played_at_once() -> None:
    board = andantino.Board(WIN_IN_ONE)
    result = MCTSPlayer(seed=1).play(board, Limit(nodes=5000))
    assert result.move.notation() == "4,0"
    assert result.info.mate == 1
    assert result.info.score == 1.0
    assert result.info.nodes == 0  # proven before any simulation


@pytest.mark.parametrize("options", [{}, {"solver": False}, {"solver": False, "rave": False},
                                     {"solver": False, "decisive": True}])
def test_win_and_block_with_a_modest_budget(options: dict[str, Any]) -> None:
    for seed in range(2):
        player = MCTSPlayer(seed=seed, **options)
        win = player.play(andantino.Board(WIN_IN_ONE), Limit(nodes=1500))
        assert win.move.notation() == "4,0"
        block = player.play(andantino.Board(BLOCK), Limit(nodes=1500))
        assert block.move.notation() == "-1,1"


def test_solver_proves_a_trap_in_one() -> None:
    board = andantino.Board(TRAP)
    assert [m.notation() for m in immediate_wins(board)] == ["-1,1"]
    result = MCTSPlayer(seed=1).play(board, Limit(nodes=5000))
    assert result.move.notation() == "-1,1"
    assert result.info.mate == 1
    assert result.info.nodes < 5000  # the search stopped once the root was proven


def test_solver_proves_a_win_in_three() -> None:
    board = andantino.Board(WIN_IN_THREE)
    assert immediate_wins(board) == []
    result = MCTSPlayer(seed=1).play(board, Limit(nodes=20000, time=20))
    assert result.move.notation() == "0,-1"
    assert result.info.mate == 3
    assert result.info.score == 1.0
    assert result.info.nodes < 20000
    # Every Red reply leaves White a win at once.
    board.push(result.move)
    for reply in board.legal_moves:
        board.push(reply)
        assert immediate_wins(board), reply
        board.pop()
    # Without the solver there is no proof.
    plain = MCTSPlayer(seed=1, solver=False).play(andantino.Board(WIN_IN_THREE),
                                                  Limit(nodes=500))
    assert plain.info.mate is None


def test_solver_proves_a_loss() -> None:
    board = andantino.Board(LOST)
    result = MCTSPlayer(seed=1).play(board, Limit(nodes=5000))
    assert result.info.mate == -2
    assert result.info.score == 0.0
    assert result.move in board.legal_moves


def test_solver_passes_to_win_abande() -> None:
    board = abande.Board(ABANDE_PASS_WINS)
    assert board.score() == (13, 20)
    result = MCTSPlayer(seed=1).play(board, Limit(nodes=1000))
    assert result.move == abande.PASS
    assert result.info.mate == 1
    assert result.info.score == 1.0


def test_tree_reuse_keeps_the_subtree() -> None:
    board = quiet_position(andantino, 5, 12)
    player = MCTSPlayer(seed=1)
    first = player.play(board, Limit(nodes=3000))
    assert player.reused_visits == 0
    assert len(first.info.pv) >= 2
    # The kept tree: the node two plies down the principal variation.
    root = player._tree[-1]  # type: ignore[index]
    mine = root.kids[root.moves.index(first.info.pv[0])]
    reply = mine.kids[mine.moves.index(first.info.pv[1])]
    expected = reply.n
    assert expected > 10
    board.push(first.info.pv[0])
    board.push(first.info.pv[1])
    player.play(board, Limit(nodes=100))
    assert player.reused_visits == expected
    # A position that does not follow from the kept root starts afresh.
    player.play(random_position(andantino, 6, 12), Limit(nodes=100))
    assert player.reused_visits == 0
    # So does a new game, and a player that does not reuse trees.
    player.play(board, Limit(nodes=100))
    player.new_game()
    player.play(board, Limit(nodes=100))
    assert player.reused_visits == 0
    other = MCTSPlayer(seed=1, reuse_tree=False)
    other.play(board, Limit(nodes=100))
    other.play(board, Limit(nodes=100))
    assert other.reused_visits == 0


def test_stop_from_another_thread() -> None:
    board = random_position(abande, 1, 20)
    player = MCTSPlayer(seed=1)
    timer = threading.Timer(0.3, player.stop)
    start = time.perf_counter()
    timer.start()
    result = player.play(board, Limit(time=30))
    elapsed = time.perf_counter() - start
    timer.join()
    assert elapsed < 2.0
    assert result.move in board.legal_moves
    assert result.info.nodes > 0


def test_seeds_reproduce_moves() -> None:
    for module, plies in ((andantino, 14), (abande, 30)):
        board = random_position(module, 2, plies)
        one = MCTSPlayer(seed=7).play(board, Limit(nodes=400))
        two = MCTSPlayer(seed=7).play(board, Limit(nodes=400))
        assert one.move == two.move
        assert one.info.pv == two.info.pv
        assert one.info.score == two.info.score
        assert one.info.nodes == two.info.nodes == 400


def test_info_reports() -> None:
    board = quiet_position(andantino, 4, 14)
    seen: list[Info] = []
    result = MCTSPlayer(seed=1).play(board, Limit(time=0.6), on_info=seen.append)
    assert len(seen) >= 2  # at least one periodic report and the final one
    final = seen[-1]
    assert final is result.info
    assert final.nodes > 0 and final.nps > 0 and final.depth >= 1
    assert 0.5 <= final.time < 1.5
    assert [i.nodes for i in seen] == sorted(i.nodes for i in seen)
    assert final.pv[0] == result.move
    # The principal variation is a line of legal moves.
    for move in final.pv:
        assert move in board.legal_moves
        board.push(move)


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        MCTSPlayer(exploration=-1)
    with pytest.raises(ValueError):
        MCTSPlayer(abande_cutoff=-1)
    assert MCTSPlayer(abande_cutoff=0).abande_cutoff is None


@pytest.mark.parametrize("rules", [
    andantino.Rules(single_adjacency=True),
    andantino.Rules(extended=True, tiles_per_player=6, extended_move_limit=30),
    andantino.Rules(self_trap=andantino.SelfTrap.ILLEGAL),
    andantino.Rules(tiles_per_player=None),
])
def test_rules_options(rules: andantino.Rules) -> None:
    rng = random.Random(1)
    board = andantino.Board(rules=rules)
    player = MCTSPlayer(seed=1)
    for _ in range(16):
        if board.is_game_over():
            break
        before = board.position()
        move = player.play(board, Limit(nodes=40)).move
        assert board.position() == before
        assert board.is_legal(move)
        board.push(move)
        if not board.is_game_over():
            board.push(rng.choice(board.legal_moves))


def test_line_threats_are_exactly_the_winning_lines() -> None:
    # The incremental threats of the Andantino playout policy against trying every move.
    from hexgames.core import Termination
    from hexgames.engine.legacy.mcts import _AndantinoPolicy

    policy = _AndantinoPolicy(True, None, 2.0)
    positions_with_a_win = 0
    for seed in range(25):
        rng = random.Random(seed)
        board = andantino.Board()
        extra = policy.root_extra(board)
        while not board.is_game_over():
            me = board.turn
            lines = set()
            for move in board.legal_moves:
                board.push(move)
                outcome = board.outcome()
                if outcome is not None and outcome.winner == me and outcome.termination in (
                        Termination.LINE, Termination.LINE_AND_TRAP):
                    lines.add(move)
                board.pop()
            found = policy.winning_move(board, extra)
            assert (found is None) == (not lines)
            assert found is None or found in lines
            positions_with_a_win += bool(lines)
            move = rng.choice(board.legal_moves)
            board.push(move)
            if not board.is_game_over():
                extra = policy.child_extra(board, extra, move, me)
                assert {c for side in extra for c in side} <= {
                    c for side in policy.root_extra(board) for c in side}
    assert positions_with_a_win > 50


def test_abande_playout_cut_off() -> None:
    from hexgames.engine.legacy.mcts import _AbandePolicy

    board = random_position(abande, 3, 10)
    plies = board.ply()
    policy = _AbandePolicy(True, 6, 2.0)
    value, win = policy.playout(board, None, random.Random(1).random)
    assert board.ply() == plies + 6 and win is None
    black, white = board.score()
    assert value == pytest.approx(1 / (1 + 2.718281828459045 ** ((white - black) / 2.0)))
    full = _AbandePolicy(True, None, 2.0)
    value, win = full.playout(board, None, random.Random(1).random)
    assert board.is_game_over() or win == abande.PASS
    assert value in (0.0, 0.5, 1.0)
