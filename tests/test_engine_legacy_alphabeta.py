"""The legacy pure-Python alpha-beta player (``py-alphabeta``, kept while the legacy
package is): tactics with exact moves in both games, search
(PVS against plain alpha-beta, the transposition table at a fixed depth), limits,
stopping, the table's memory bound, and the interface contract (legal moves, the board
left as it was)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from hexgames import abande, andantino
from hexgames.core import Termination
from hexgames.engine.base import Info, Limit
from hexgames.engine.legacy.alphabeta import AlphaBetaPlayer, TranspositionTable


def andantino_board(white: list[tuple[int, int]], red: list[tuple[int, int]],
                    turn: str = "w", rules: andantino.Rules | None = None) -> andantino.Board:
    def cells(group: list[tuple[int, int]]) -> str:
        return ";".join(f"{q},{r}" for q, r in group)
    return andantino.Board(f"andantino w={cells(white)} r={cells(red)} turn={turn}", rules)


def best(board: Any, depth: int = 3, **options: Any) -> tuple[str, Info]:
    info = AlphaBetaPlayer(**options).analyse(board, Limit(depth=depth))
    return info.pv[0].notation(), info


def random_positions(module: Any, count: int, seed: int) -> list[Any]:
    """Positions after 6 to 24 random plies of games that go on."""
    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < count:
        board = module.Board()
        for _ in range(rng.randint(6, 24)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            boards.append(board)
    return boards


# -- Andantino tactics -------------------------------------------------------------------

# White: four in a row (0,0)-(3,0), Red holds (4,0); (-1,0) touches (0,0) and (-1,1).
LINE_WIN = ([(0, 0), (1, 0), (2, 0), (3, 0)], [(4, 0), (-1, 1), (1, 1), (2, -1)])
# RULES.md's example: White (-1,1) completes a ring around Red (0,0).
TRAP_WIN = ([(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1)],
            [(0, 0), (2, 0), (2, -1), (-2, 0), (-2, 1)])
# Red has four in a row (0,1)-(3,1); White holds (4,1), so (-1,1) is the one answer.
LINE_BLOCK = ([(0, 0), (1, 0), (4, 1), (-1, 0)], [(0, 1), (1, 1), (2, 1), (3, 1)])
# White (0,0) has Red on five sides; Red (0,1) would enclose it.
TRAP_BLOCK = ([(0, 0), (2, 0), (2, -2), (-2, 0), (-2, 2), (0, 2)],
              [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)])
# White (3,0) makes an open four: (-1,0) and (4,0) both complete it.
OPEN_FOUR = ([(0, 0), (1, 0), (2, 0)], [(-2, 0), (3, 1), (1, 1)])
# White (0,-2) makes the four (0,-2)-(3,-2) and threatens to enclose Red (0,-1) by (-1,-1):
# Red cannot answer both (found in a random game, seed 82, and checked move by move).
FOUR_AND_TRAP = ("andantino w=1,-2;2,-2;3,-2;1,-1;3,-1;-1,0;0,0 "
                 "r=3,-3;0,-1;2,-1;1,0;-1,1;0,1;-1,2 turn=w hands=w18,r18")
# Red (-2,0) threatens two traps at once, by (-2,1) and by (-3,1); White can stop one
# (found in a random game, seed 1106, and checked reply by reply).
DOUBLE_TRAP = ("andantino w=1,-2;2,-1;-1,0;0,0;-1,1;0,1;-2,2;-1,2;0,2;-4,3;1,3;-1,4;0,4 "
               "r=-1,-1;0,-1;1,-1;1,0;1,1;2,1;-3,2;1,2;-3,3;-2,3;-1,3;0,3 turn=r "
               "hands=w12,r13")
# Red walls off the empty (0,0); its line (-1,0) (1,0) (2,0) runs through it.
POCKET = ("andantino w=-2,-1;-2,0;-2,1;-1,-2;-1,-1;1,1;2,1 "
          "r=1,0;1,-1;0,-1;-1,0;-1,1;0,1;2,0 turn=w")


def test_andantino_wins_in_one_by_line() -> None:
    move, info = best(andantino_board(*LINE_WIN))
    assert move == "-1,0"
    assert info.mate == 1 and info.score == 1.0 and info.eval is None


def test_andantino_wins_in_one_by_trap() -> None:
    board = andantino_board(*TRAP_WIN)
    move, info = best(board)
    assert move == "-1,1" and info.mate == 1
    board.push_notation(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.TRAP


def test_andantino_blocks_a_four() -> None:
    move, info = best(andantino_board(*LINE_BLOCK))
    assert move == "-1,1"
    assert info.mate is None


def test_andantino_blocks_a_trap() -> None:
    move, info = best(andantino_board(*TRAP_BLOCK))
    assert move == "0,1"
    assert info.mate is None


def test_andantino_open_four_wins_in_three() -> None:
    move, info = best(andantino_board(*OPEN_FOUR))
    assert move == "3,0"
    assert info.mate == 3


def test_andantino_four_and_trap_win_in_three() -> None:
    board = andantino.Board(FOUR_AND_TRAP)
    move, info = best(board)
    assert move == "0,-2"
    assert info.mate == 3
    # The trap is real: after Red blocks the four on the right, (-1,-1) encloses (0,-1).
    board.push_notation("0,-2")
    board.push_notation("4,-2")
    board.push_notation("-1,-1")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.TRAP


def test_andantino_double_trap_threat_wins_in_three() -> None:
    board = andantino.Board(DOUBLE_TRAP)
    move, info = best(board)
    assert move == "-2,0"
    assert info.mate == 3
    board.push_notation("-2,0")
    for reply, trap in (("-2,1", "-3,1"), ("-3,1", "-2,1")):
        board.push_notation(reply)
        board.push_notation(trap)
        outcome = board.outcome()
        assert outcome is not None and outcome.termination is Termination.TRAP
        board.pop()
        board.pop()


def test_andantino_avoids_a_self_trap() -> None:
    # Where a self-trap does nothing, the pocket cell is the natural block ...
    lax = andantino.Board(POCKET, andantino.Rules(self_trap=andantino.SelfTrap.IGNORE))
    assert best(lax)[0] == "0,0"
    # ... under the standard rules it loses at once, so the block comes from outside.
    board = andantino.Board(POCKET)
    move, info = best(board)
    assert move == "3,0"
    assert info.mate is None
    board.push_notation("0,0")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.SELF_TRAP


def test_andantino_prefers_the_slower_loss() -> None:
    # Red threatens two cells: every move loses, and the self-trap (0,0) would lose at once.
    board = andantino.Board("andantino w=-2,1;2,1;3,-1;-2,-1;0,2;1,-2;-1,2 "
                            "r=1,0;1,-1;0,-1;-1,0;-1,1;0,1;2,0 turn=w")
    move, info = best(board)
    assert info.mate == -3
    assert move != "0,0"


def test_andantino_draw_scores_zero() -> None:
    # Three tiles each: Red's last placement fills the surface and nobody has a line.
    board = andantino.Board("andantino w=0,0;0,1;1,-1 r=1,0;-1,1 turn=r hands=w0,r1",
                            andantino.Rules(tiles_per_player=3))
    _, info = best(board)
    assert info.eval == 0.0 and info.mate is None and info.score == 0.5


# -- Abande tactics ----------------------------------------------------------------------

# Both hands empty, Black has just passed and White leads 22-13: the pass ends it.
ABANDE_PASS_WIN = ("abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW "
                   "d2=BWB d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w "
                   "hands=b0,w0 passes=1")
# White trails 13-14 after Black's pass; c3-d4 wins, d3-d4 draws, the rest lose (checked
# by an exhaustive solver).
ABANDE_CAPTURE_WIN = ("abande a4=B b2=W b4=W c2=BBW c3=W c5=B c6=BWB d1=BW d3=BW d4=B d6=W "
                      "d7=WWB e1=WB e3=B e4=WBW e5=BW f1=B f2=WB g2=WB g3=WBW turn=w "
                      "hands=b0,w0 passes=1")
# Nine moves; only c2-b1 wins (then both pass).
ABANDE_CAPTURE_WIN_3 = ("abande a1=BW a3=B a4=B b1=B b2=WWB b3=WB b5=B c1=WB c2=BW c5=WB "
                        "d1=B d3=W d4=BWB d6=WBW d7=W e3=BW e5=BW e6=W f2=W f3=B f5=B g3=W "
                        "g4=W turn=w hands=b0,w0")
# White trails 14-20 with one capture: passing lets Black pass and win at once.
ABANDE_BLOCK = ("abande a2=WB a4=W b1=WWB b3=W b4=BBW b5=WB c2=W c3=BWB c4=B c5=B d2=W "
                "d3=B d6=BWB d7=B e1=B e3=B e4=WBW e6=W f3=BW f5=W g1=W g2=W g3=B turn=w "
                "hands=b0,w0")


def test_abande_pass_that_wins() -> None:
    move, info = best(abande.Board(ABANDE_PASS_WIN))
    assert move == "pass" and info.mate == 1


def test_abande_capture_that_decides_the_score() -> None:
    move, info = best(abande.Board(ABANDE_CAPTURE_WIN), depth=5)
    assert move == "c3-d4"
    assert info.mate == 4
    move, info = best(abande.Board(ABANDE_CAPTURE_WIN_3), depth=4)
    assert move == "c2-b1"
    assert info.mate == 3


def test_abande_does_not_pass_into_a_loss() -> None:
    move, info = best(abande.Board(ABANDE_BLOCK), depth=4)
    assert move == "a4-b5"
    assert info.mate == -3  # the slower of the two losses


# -- search correctness ------------------------------------------------------------------

@pytest.mark.parametrize(("module", "depth"), [(andantino, 3), (abande, 3)])
def test_pvs_equals_plain_alphabeta(module: Any, depth: int) -> None:
    differences = []
    for board in random_positions(module, 20, seed=11):
        pvs = AlphaBetaPlayer(use_tt=False).analyse(board, Limit(depth=depth))
        plain = AlphaBetaPlayer(use_tt=False, pvs=False).analyse(board, Limit(depth=depth))
        assert pvs.depth == plain.depth  # less than depth only for a proven result
        if (pvs.eval, pvs.mate) != (plain.eval, plain.mate):
            differences.append(board.position())
    assert differences == []


@pytest.mark.parametrize(("module", "depth"), [(andantino, 4), (abande, 4)])
def test_transposition_table_keeps_the_value(module: Any, depth: int) -> None:
    differences = []
    saved = 0
    for board in random_positions(module, 20, seed=12):
        with_tt = AlphaBetaPlayer().analyse(board, Limit(depth=depth))
        without = AlphaBetaPlayer(use_tt=False).analyse(board, Limit(depth=depth))
        saved += without.nodes - with_tt.nodes
        if (with_tt.eval, with_tt.mate) != (without.eval, without.mate):
            differences.append(board.position())
    assert differences == []
    assert saved > 0  # and the table does cut the search down


@pytest.mark.parametrize("module", [andantino, abande])
def test_play_is_legal_and_leaves_the_board_alone(module: Any) -> None:
    player = AlphaBetaPlayer(tt_mb=4)
    for board in random_positions(module, 12, seed=13):
        before = (board.position(), list(board.move_stack), board.zobrist_hash())
        result = player.play(board, Limit(nodes=1500))
        assert result.move in board.legal_moves
        assert (board.position(), list(board.move_stack), board.zobrist_hash()) == before
        assert result.info.pv[0] == result.move


@pytest.mark.parametrize("rules", [
    andantino.Rules(extended=True, tiles_per_player=6),
    andantino.Rules(single_adjacency=True),
    andantino.Rules(self_trap=andantino.SelfTrap.ILLEGAL),
    andantino.Rules(self_trap=andantino.SelfTrap.IGNORE),
    andantino.Rules(tiles_per_player=None),
])
def test_andantino_rule_options_give_legal_moves(rules: andantino.Rules) -> None:
    rng = random.Random(5)
    player = AlphaBetaPlayer(tt_mb=2)
    board = andantino.Board(rules=rules)
    for _ in range(24):  # into the relocation phase for extended play
        if board.is_game_over():
            break
        before = board.position()
        move = player.play(board, Limit(nodes=300)).move
        assert move in board.legal_moves and board.position() == before
        board.push(move if rng.random() < 0.5 else rng.choice(board.legal_moves))


def test_limits_depth_and_nodes() -> None:
    board = andantino_board(*LINE_BLOCK)
    info = AlphaBetaPlayer().analyse(board, Limit(depth=2))
    assert info.depth == 2
    info = AlphaBetaPlayer().analyse(board, Limit(nodes=700))
    assert info.nodes <= 700
    start = time.perf_counter()
    info = AlphaBetaPlayer().analyse(board, Limit(time=0.3))
    assert time.perf_counter() - start < 1.5
    assert info.depth >= 1


def test_depth_counts_plies() -> None:
    # Abande has no extensions: depth 1 pushes the root's moves; depth 2 does that (the
    # first iteration), then the root's moves again and their replies, less cut-offs.
    board = random_positions(abande, 1, seed=18)[0]
    root = len(board.legal_moves)
    assert AlphaBetaPlayer().analyse(board, Limit(depth=1)).nodes == root
    replies = 0
    for move in board.legal_moves:
        board.push(move)
        replies += len(board.legal_moves)
        board.pop()
    nodes = AlphaBetaPlayer(use_tt=False).analyse(board, Limit(depth=2)).nodes
    assert 2 * root < nodes <= 2 * root + replies


def test_info_after_each_iteration() -> None:
    board = random_positions(abande, 1, seed=15)[0]
    seen: list[Info] = []
    final = AlphaBetaPlayer().analyse(board, Limit(depth=4), on_info=seen.append)
    assert [info.depth for info in seen] == [1, 2, 3, 4]
    assert all(info.pv and info.pv[0] in board.legal_moves for info in seen)
    assert all(info.score is not None and 0.0 <= info.score <= 1.0 for info in seen)
    assert [info.nodes for info in seen] == sorted(info.nodes for info in seen)
    assert final.depth == 4 and final.nodes >= seen[-1].nodes and final.nps > 0


@pytest.mark.parametrize("module", [andantino, abande])
def test_stop_from_another_thread(module: Any) -> None:
    board = random_positions(module, 1, seed=16)[0]
    player = AlphaBetaPlayer()
    timer = threading.Timer(0.3, player.stop)
    start = time.perf_counter()
    timer.start()
    try:
        result = player.play(board, Limit(time=60))
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 2.0
    assert result.move in board.legal_moves


def test_table_memory_is_bounded() -> None:
    player = AlphaBetaPlayer(tt_mb=1)
    table = player.tt
    assert table.capacity * table.entry_bytes <= 2**20
    assert table.capacity > 1000
    board = random_positions(abande, 1, seed=17)[0]
    for _ in range(4):  # the table is kept between moves of a game
        result = player.play(board, Limit(nodes=25_000))
        board.push(result.move)
        assert len(table.slots) == table.capacity
        assert table.used == sum(entry is not None for entry in table.slots)
        assert table.used <= table.capacity
    assert table.stores > 2 * table.capacity  # far more stored than it holds
    player.new_game()
    assert table.used == 0 and len(table.slots) == table.capacity


def test_table_store_keeps_deeper_entries_of_the_search() -> None:
    table = TranspositionTable(1)
    key_a, key_b = 5, 5 + table.capacity  # the same slot
    table.store(key_a, 6, 0, 10, None)
    table.store(key_b, 2, 0, 20, None)  # shallower, same search: key_a stays
    assert table.probe(key_a) is not None and table.probe(key_b) is None
    table.generation += 1
    table.store(key_b, 2, 0, 20, None)  # a new search replaces old entries
    assert table.probe(key_b) is not None and table.probe(key_a) is None
    assert len(table) == 1
    with pytest.raises(ValueError):
        TranspositionTable(0)


def test_game_over_is_refused() -> None:
    board = andantino_board(*LINE_WIN)
    board.push_notation("-1,0")
    with pytest.raises(ValueError):
        AlphaBetaPlayer().play(board)
