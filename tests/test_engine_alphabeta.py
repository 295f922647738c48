"""The native alpha-beta player (``alphabeta``): tactics with exact moves in both games,
search correctness (PVS against plain alpha-beta, the transposition table at a fixed
depth; the evaluations are tested in test_engine_evaluation.py), limits and the time
manager, stopping and Ctrl-C, the table kept and cleared, MultiPV and varied play, bad
options, and the interface contract (legal moves and PVs, the board left as it was)."""

from __future__ import annotations

import _thread
import random
import threading
import time
from typing import Any

import pytest

from hexgames import abande, andantino, native
from hexgames.core import HexgamesError, Termination
from hexgames.engine import make_player
from hexgames.engine.alphabeta import RFP, AlphaBetaPlayer
from hexgames.engine.base import Info, InvalidLimitError, Limit
from hexgames.limits import MAX_SEARCH_SECONDS


def andantino_board(white: list[tuple[int, int]], red: list[tuple[int, int]],
                    turn: str = "w", rules: andantino.Rules | None = None) -> andantino.Board:
    def cells(group: list[tuple[int, int]]) -> str:
        return ";".join(f"{q},{r}" for q, r in group)
    return andantino.Board(f"andantino w={cells(white)} r={cells(red)} turn={turn}", rules)


def best(board: Any, depth: int = 3, **options: Any) -> tuple[str, Info]:
    info = AlphaBetaPlayer(**options).analyse(board, Limit(depth=depth))
    return info.pv[0].notation(), info


def random_positions(module: Any, count: int, seed: int, rules: Any = None) -> list[Any]:
    """Positions after 6 to 24 random plies of games that go on."""
    rng = random.Random(seed)
    boards: list[Any] = []
    while len(boards) < count:
        board = module.Board(rules=rules)
        for _ in range(rng.randint(6, 24)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            boards.append(board)
    return boards


def open_position(module: Any, seed: int) -> Any:
    """A random middle-game position that a half-second search does not decide."""
    for board in random_positions(module, 40, seed):
        if len(board.move_stack) >= 10 and \
                AlphaBetaPlayer(tt_mb=4).analyse(board, Limit(time=0.5)).mate is None:
            return board
    raise AssertionError("no open position")


# -- Andantino tactics ------------------------------------------------------------------

LINE_WIN = ([(0, 0), (1, 0), (2, 0), (3, 0)], [(4, 0), (-1, 1), (1, 1), (2, -1)])
TRAP_WIN = ([(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1)],
            [(0, 0), (2, 0), (2, -1), (-2, 0), (-2, 1)])
LINE_BLOCK = ([(0, 0), (1, 0), (4, 1), (-1, 0)], [(0, 1), (1, 1), (2, 1), (3, 1)])
TRAP_BLOCK = ([(0, 0), (2, 0), (2, -2), (-2, 0), (-2, 2), (0, 2)],
              [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)])
OPEN_FOUR = ([(0, 0), (1, 0), (2, 0)], [(-2, 0), (3, 1), (1, 1)])
FOUR_AND_TRAP = ("andantino w=1,-2;2,-2;3,-2;1,-1;3,-1;-1,0;0,0 "
                 "r=3,-3;0,-1;2,-1;1,0;-1,1;0,1;-1,2 turn=w hands=w18,r18")
DOUBLE_TRAP = ("andantino w=1,-2;2,-1;-1,0;0,0;-1,1;0,1;-2,2;-1,2;0,2;-4,3;1,3;-1,4;0,4 "
               "r=-1,-1;0,-1;1,-1;1,0;1,1;2,1;-3,2;1,2;-3,3;-2,3;-1,3;0,3 turn=r "
               "hands=w12,r13")
POCKET = ("andantino w=-2,-1;-2,0;-2,1;-1,-2;-1,-1;1,1;2,1 "
          "r=1,0;1,-1;0,-1;-1,0;-1,1;0,1;2,0 turn=w")


@pytest.mark.parametrize("evaluation", ["hand", "learned"])
def test_andantino_wins_in_one_by_line(evaluation: str) -> None:
    move, info = best(andantino_board(*LINE_WIN), eval=evaluation)
    assert move == "-1,0"
    assert info.mate == 1 and info.score == 1.0 and info.eval is None


def test_andantino_wins_in_one_by_trap() -> None:
    board = andantino_board(*TRAP_WIN)
    move, info = best(board)
    assert move == "-1,1" and info.mate == 1
    board.push_notation(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.TRAP


@pytest.mark.parametrize("evaluation", ["hand", "learned"])
def test_andantino_blocks_a_four_and_a_trap(evaluation: str) -> None:
    move, info = best(andantino_board(*LINE_BLOCK), eval=evaluation)
    assert move == "-1,1" and info.mate is None
    move, info = best(andantino_board(*TRAP_BLOCK), eval=evaluation)
    assert move == "0,1" and info.mate is None


@pytest.mark.parametrize("evaluation", ["hand", "learned"])
def test_andantino_open_four_and_double_threats_win_in_three(evaluation: str) -> None:
    move, info = best(andantino_board(*OPEN_FOUR), eval=evaluation)
    assert (move, info.mate) == ("3,0", 3)
    move, info = best(andantino.Board(FOUR_AND_TRAP), eval=evaluation)
    assert (move, info.mate) == ("0,-2", 3)
    board = andantino.Board(DOUBLE_TRAP)
    move, info = best(board, eval=evaluation)
    assert (move, info.mate) == ("-2,0", 3)
    board.push_notation("-2,0")
    for reply, trap in (("-2,1", "-3,1"), ("-3,1", "-2,1")):
        board.push_notation(reply)
        board.push_notation(trap)
        outcome = board.outcome()
        assert outcome is not None and outcome.termination is Termination.TRAP
        board.pop()
        board.pop()


def test_andantino_loses_to_a_double_threat() -> None:
    # The other side of DOUBLE_TRAP: after Red's (-2,0), White to move loses in two.
    board = andantino.Board(DOUBLE_TRAP)
    board.push_notation("-2,0")
    _, info = best(board)
    assert info.mate == -2 and info.score == 0.0


@pytest.mark.parametrize(("evaluation", "expected"), [("hand", "3,0"), ("learned", "-2,2")])
def test_andantino_avoids_a_self_trap(evaluation: str, expected: str) -> None:
    # Where the self-trap is ignored the pocket (0,0) is each evaluation's best move;
    # where it loses, each plays its own next best (neither loses at once).
    lax = andantino.Board(POCKET, andantino.Rules(self_trap=andantino.SelfTrap.IGNORE))
    assert best(lax, eval=evaluation)[0] == "0,0"
    board = andantino.Board(POCKET)
    move, info = best(board, eval=evaluation)
    assert move == expected and info.mate is None
    board.push_notation(move)
    assert board.outcome() is None


def test_andantino_prefers_the_slower_loss() -> None:
    board = andantino.Board("andantino w=-2,1;2,1;3,-1;-2,-1;0,2;1,-2;-1,2 "
                            "r=1,0;1,-1;0,-1;-1,0;-1,1;0,1;2,0 turn=w")
    move, info = best(board)
    assert info.mate == -3 and move != "0,0"


def test_andantino_draw_scores_zero() -> None:
    board = andantino.Board("andantino w=0,0;0,1;1,-1 r=1,0;-1,1 turn=r hands=w0,r1",
                            andantino.Rules(tiles_per_player=3))
    _, info = best(board)
    assert info.eval == 0.0 and info.mate is None and info.score == 0.5


# -- Abande tactics ----------------------------------------------------------------------

ABANDE_PASS_WIN = ("abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW "
                   "d2=BWB d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w "
                   "hands=b0,w0 passes=1")
ABANDE_CAPTURE_WIN = ("abande a4=B b2=W b4=W c2=BBW c3=W c5=B c6=BWB d1=BW d3=BW d4=B d6=W "
                      "d7=WWB e1=WB e3=B e4=WBW e5=BW f1=B f2=WB g2=WB g3=WBW turn=w "
                      "hands=b0,w0 passes=1")
ABANDE_CAPTURE_WIN_3 = ("abande a1=BW a3=B a4=B b1=B b2=WWB b3=WB b5=B c1=WB c2=BW c5=WB "
                        "d1=B d3=W d4=BWB d6=WBW d7=W e3=BW e5=BW e6=W f2=W f3=B f5=B g3=W "
                        "g4=W turn=w hands=b0,w0")
ABANDE_BLOCK = ("abande a2=WB a4=W b1=WWB b3=W b4=BBW b5=WB c2=W c3=BWB c4=B c5=B d2=W "
                "d3=B d6=BWB d7=B e1=B e3=B e4=WBW e6=W f3=BW f5=W g1=W g2=W g3=B turn=w "
                "hands=b0,w0")


@pytest.mark.parametrize("evaluation", ["hand", "learned"])
def test_abande_tactics(evaluation: str) -> None:
    move, info = best(abande.Board(ABANDE_PASS_WIN), eval=evaluation)
    assert move == "pass" and info.mate == 1
    move, info = best(abande.Board(ABANDE_CAPTURE_WIN), depth=5, eval=evaluation)
    assert (move, info.mate) == ("c3-d4", 4)
    move, info = best(abande.Board(ABANDE_CAPTURE_WIN_3), depth=4, eval=evaluation)
    assert (move, info.mate) == ("c2-b1", 3)
    move, info = best(abande.Board(ABANDE_BLOCK), depth=4, eval=evaluation)
    assert (move, info.mate) == ("a4-b5", -3)


# -- search correctness ------------------------------------------------------------------

#: The options that keep a fixed-depth search exact (no selective pruning).
EXACT: dict[str, Any] = {"lmr": False, "rfp": 0}


@pytest.mark.parametrize(("module", "depth", "evaluation"),
                         [(andantino, 4, "hand"), (andantino, 4, "learned"),
                          (abande, 4, "hand"), (abande, 4, "learned")])
def test_pvs_equals_plain_alphabeta(module: Any, depth: int, evaluation: str) -> None:
    differences = []
    for board in random_positions(module, 30, seed=11):
        pvs = AlphaBetaPlayer(use_tt=False, eval=evaluation,
                              **EXACT).analyse(board, Limit(depth=depth))
        plain = AlphaBetaPlayer(use_tt=False, pvs=False,
                                eval=evaluation).analyse(board, Limit(depth=depth))
        assert pvs.depth == plain.depth
        if (pvs.eval, pvs.mate) != (plain.eval, plain.mate):
            differences.append(board.position())
    assert differences == []


@pytest.mark.parametrize(("module", "depth", "evaluation"),
                         [(andantino, 5, "hand"), (andantino, 5, "learned"),
                          (abande, 5, "hand"), (abande, 5, "learned")])
def test_transposition_table_keeps_the_value(module: Any, depth: int,
                                              evaluation: str) -> None:
    differences = []
    saved = 0
    for board in random_positions(module, 30, seed=12):
        with_tt = AlphaBetaPlayer(eval=evaluation, **EXACT).analyse(board, Limit(depth=depth))
        without = AlphaBetaPlayer(use_tt=False, eval=evaluation,
                                  **EXACT).analyse(board, Limit(depth=depth))
        saved += without.nodes - with_tt.nodes
        if (with_tt.eval, with_tt.mate) != (without.eval, without.mate):
            differences.append(board.position())
    assert differences == []
    assert saved > 0


@pytest.mark.parametrize(("module", "evaluation"),
                         [(andantino, "hand"), (andantino, "learned"), (abande, "hand"),
                          (abande, "learned")])
def test_play_is_legal_and_leaves_the_board_alone(module: Any, evaluation: str) -> None:
    player = AlphaBetaPlayer(tt_mb=4, eval=evaluation)
    for board in random_positions(module, 20, seed=13):
        before = (board.position(), list(board.move_stack), board.zobrist_hash())
        result = player.play(board, Limit(nodes=20_000))
        assert result.move in board.legal_moves
        assert (board.position(), list(board.move_stack), board.zobrist_hash()) == before
        assert result.info.pv[0] == result.move
        copy = board.copy()
        for move in result.info.pv:  # the whole PV is a legal line
            assert move in copy.legal_moves
            copy.push(move)


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
    for _ in range(30):  # into the relocation phase for extended play
        if board.is_game_over():
            break
        before = board.position()
        move = player.play(board, Limit(nodes=3000)).move
        assert move in board.legal_moves and board.position() == before
        board.push(move if rng.random() < 0.5 else rng.choice(board.legal_moves))


def test_abande_max_height_option() -> None:
    rules = abande.Rules(max_height=5)
    player = AlphaBetaPlayer(tt_mb=2)
    for board in random_positions(abande, 5, seed=3, rules=rules):
        assert player.play(board, Limit(depth=3)).move in board.legal_moves


@pytest.mark.parametrize("options", [{"lmr": True, "tt_deeper": True, "leaf_threats": True},
                                     {"lmr": False, "leaf_threats": True},
                                     {"lmr": True, "null_move": True}])
def test_selective_options_keep_the_tactics(options: dict[str, Any]) -> None:
    assert best(andantino_board(*LINE_WIN), **options)[1].mate == 1
    assert best(andantino_board(*OPEN_FOUR), **options)[0] == "3,0"
    assert best(andantino.Board(DOUBLE_TRAP), **options)[1].mate == 3
    assert best(abande.Board(ABANDE_CAPTURE_WIN), depth=5, **options)[0] == "c3-d4"
    player = AlphaBetaPlayer(tt_mb=2, **options)
    for board in random_positions(andantino, 6, seed=23):
        assert player.play(board, Limit(depth=6)).move in board.legal_moves


def test_quiescence_follows_abande_captures_and_leaves_andantino_alone() -> None:
    """The ``quiescence`` option reaches the native search: at one ply Abande's values
    change where captures follow (the core's test checks them against plain minimax
    of the same tree), Andantino's never (it has no captures to follow)."""
    quiet, static = make_player("alphabeta"), make_player("alphabeta:quiescence=off")
    assert quiet.quiescence and not static.quiescence
    changed = 0
    for board in random_positions(abande, 12, seed=31):
        values = [p.analyse(board, Limit(depth=1)).eval for p in (quiet, static)]
        changed += values[0] != values[1]
    assert changed > 0
    for board in random_positions(andantino, 6, seed=32):
        assert quiet.analyse(board, Limit(depth=3)).eval == \
            static.analyse(board, Limit(depth=3)).eval


def test_rfp_prunes_abande_and_leaves_andantino_alone() -> None:
    """The ``rfp`` option (reverse futility pruning, 150 points a ply by default)
    reaches the native search in Abande: at a fixed depth the tree shrinks and the move
    stays legal; Andantino's search is the same with any ``rfp`` (it is Abande's)."""
    pruned, full = make_player("alphabeta"), make_player("alphabeta:rfp=0")
    assert (pruned.rfp, full.rfp) == (RFP, 0) == (150, 0)
    fewer = 0
    for board in random_positions(abande, 12, seed=33):
        infos = [p.analyse(board, Limit(depth=4)) for p in (pruned, full)]
        assert infos[0].pv[0] in board.legal_moves
        fewer += infos[0].nodes < infos[1].nodes
    assert fewer >= 6
    wide = make_player("alphabeta:rfp=1000")
    for board in random_positions(andantino, 6, seed=34):
        infos = [p.analyse(board, Limit(depth=3)) for p in (pruned, full, wide)]
        assert len({(i.eval, i.nodes) for i in infos}) == 1


# -- limits ------------------------------------------------------------------------------

def test_limits_depth_and_nodes() -> None:
    board = andantino_board(*LINE_BLOCK)
    assert AlphaBetaPlayer().analyse(board, Limit(depth=2)).depth == 2
    info = AlphaBetaPlayer().analyse(board, Limit(nodes=700))
    assert info.nodes == 700
    info = AlphaBetaPlayer().analyse(board, Limit(playouts=900))
    assert info.nodes == 900


@pytest.mark.parametrize("module", [andantino, abande])
def test_time_limit_is_used_nearly_to_the_end(module: Any) -> None:
    board = open_position(module, 30)
    for seconds in (0.1, 0.4):
        player = AlphaBetaPlayer()
        player.analyse(board, Limit(depth=1))  # the table is made at the first search
        player.new_game()
        start = time.perf_counter()
        info = player.analyse(board, Limit(time=seconds))
        spent = time.perf_counter() - start
        assert info.mate is None
        # (the margin is for a loaded machine, where a thread may wait its turn for a
        # while: the search itself looks at the clock every 256 nodes, well under a
        # millisecond, and the Rust tests check its budget)
        assert 0.9 * seconds <= spent <= seconds + 0.25, spent
        assert info.depth >= 1 and 0.5 * seconds <= info.time <= seconds + 0.05


def test_game_clock_is_managed() -> None:
    player = AlphaBetaPlayer()
    assert player.handles_clock
    board = open_position(andantino, 31)
    start = time.perf_counter()
    info = player.analyse(board, Limit(clock=6.0, increment=0.0))
    spent = time.perf_counter() - start
    # A share of what is left (at most a few thirtieths of it here), never all of it.
    assert 0.02 < spent < 6.0 * 0.4 + 0.05, spent
    assert info.depth >= 4
    # One legal move (a pass): no time spent at all.
    one = abande.Board("abande a1=B a2=B a3=WWB a4=B b5=B c4=W c6=BBW d3=B d4=W d5=BW d6=W "
                       "e1=B e2=B e4=WWB e5=WWB e6=W f1=BBW f3=WBW f5=BWB g2=W g4=W turn=w "
                       "hands=b0,w0")
    assert len(one.legal_moves) == 1
    start = time.perf_counter()
    one_info = player.analyse(one, Limit(clock=60.0))
    assert time.perf_counter() - start < 0.5 and one_info.depth >= 1


def test_depth_counts_plies() -> None:
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
    final = AlphaBetaPlayer().analyse(board, Limit(depth=5), on_info=seen.append)
    assert [info.depth for info in seen] == [1, 2, 3, 4, 5]
    assert all(info.pv and info.pv[0] in board.legal_moves for info in seen)
    assert all(info.score is not None and 0.0 <= info.score <= 1.0 for info in seen)
    assert all(info.eval is not None and info.seldepth >= info.depth for info in seen)
    assert [info.nodes for info in seen] == sorted(info.nodes for info in seen)
    assert final.depth == 5 and final.nodes >= seen[-1].nodes and final.nps > 0
    assert final.pv == seen[-1].pv and final.lines == []


# -- stopping ----------------------------------------------------------------------------

@pytest.mark.parametrize("module", [andantino, abande])
def test_stop_from_another_thread_within_milliseconds(module: Any) -> None:
    board = open_position(module, 16)
    player = AlphaBetaPlayer()
    asked: list[float] = []

    def stop() -> None:
        asked.append(time.perf_counter())
        player.stop()

    timer = threading.Timer(0.3, stop)
    timer.start()
    try:
        result = player.play(board, Limit(time=60))
    finally:
        timer.cancel()
    assert time.perf_counter() - asked[0] < 0.1
    assert result.move in board.legal_moves and result.info.depth >= 1


def test_ctrl_c_stops_the_search_and_is_raised() -> None:
    engine = native.alphabeta("andantino", tt_mb=4)
    state = native.state_of(open_position(andantino, 17))
    timer = threading.Timer(0.2, _thread.interrupt_main)
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            engine.search(state, time=60)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 1.0
    # The player is usable afterwards.
    assert engine.search(state, depth=2)["info"]["depth"] == 2


def test_on_info_errors_reach_the_caller() -> None:
    engine = native.alphabeta("abande", tt_mb=1)

    def fail(info: dict[str, Any]) -> None:
        raise ZeroDivisionError(info["depth"])

    with pytest.raises(ZeroDivisionError):
        engine.search(native.state_of(abande.Board()), depth=3, on_info=fail)


# -- the table ---------------------------------------------------------------------------

def test_table_is_bounded_kept_between_moves_and_cleared() -> None:
    player = AlphaBetaPlayer(tt_mb=1)
    table = player.table_info("abande")
    assert table["capacity"] * table["entry_bytes"] <= 2**20
    assert table["capacity"] > 10_000 and table["used"] == 0
    board = random_positions(abande, 1, seed=17)[0]
    stores = 0
    for _ in range(4):
        board.push(player.play(board, Limit(nodes=150_000)).move)
        table = player.table_info("abande")
        assert 0 < table["used"] <= table["capacity"]
        assert table["stores"] > stores  # kept: the figures grow move after move
        stores = table["stores"]
    assert stores > table["capacity"]
    player.new_game()
    assert player.table_info("abande")["used"] == 0


def test_table_cleared_on_a_rules_change() -> None:
    player = AlphaBetaPlayer(tt_mb=1)
    board = andantino.Board()
    board.push_notation("0,1")
    player.play(board, Limit(depth=4))
    assert player.table_info("andantino")["used"] > 0
    other = andantino.Board(rules=andantino.Rules(single_adjacency=True))
    other.push_notation("0,1")
    player.play(other, Limit(depth=1))
    assert player.table_info("andantino")["stores"] < 100


# -- MultiPV and varied play ---------------------------------------------------------------

@pytest.mark.parametrize("module", [andantino, abande])
def test_multipv_lines(module: Any) -> None:
    for board in random_positions(module, 5, seed=19):
        info = AlphaBetaPlayer(multipv=3, use_tt=False).analyse(board, Limit(depth=3))
        single = AlphaBetaPlayer(use_tt=False).analyse(board, Limit(depth=3))
        firsts = [line.pv[0] for line in info.lines]
        assert len(info.lines) == min(3, len(board.legal_moves))
        assert len(set(firsts)) == len(firsts) and info.lines[0].pv == info.pv
        assert (info.eval, info.mate) == (single.eval, single.mate)
        points = [line.score for line in info.lines]
        assert points == sorted(points, reverse=True)


@pytest.mark.parametrize("module", [andantino, abande])
def test_multipv_lines_are_reported_as_the_search_deepens(module: Any) -> None:
    """Issue 35: the progress reports (what the browser app's analysis shows for its
    whole time) had no lines, only the final result."""
    [board] = random_positions(module, 1, seed=23)
    seen: list[Info] = []
    result = AlphaBetaPlayer(multipv=3).play(board, Limit(depth=4), on_info=seen.append)
    assert [info.depth for info in seen][-1] == result.info.depth
    for info in seen:
        assert len(info.lines) == min(3, len(board.legal_moves)), info.depth
        assert info.lines[0].pv == info.pv and info.lines[0].depth == info.depth
        assert len({line.pv[0] for line in info.lines}) == len(info.lines)
        assert all(line.lines == [] for line in info.lines)
    assert [line.pv for line in seen[-1].lines] == [line.pv for line in result.info.lines]
    # one line asked for: none reported
    single: list[Info] = []
    AlphaBetaPlayer().play(board, Limit(depth=2), on_info=single.append)
    assert single and all(info.lines == [] for info in single)


def test_multipv_scores_are_exact() -> None:
    # Abande has no forcing analysis, so each line's score is exactly minus the value of
    # its position searched to one ply less.
    compared = 0
    for board in random_positions(abande, 6, seed=19):
        info = AlphaBetaPlayer(multipv=4, use_tt=False, **EXACT).analyse(board,
                                                                         Limit(depth=3))
        for line in info.lines:
            copy = board.copy()
            copy.push(line.pv[0])
            if copy.is_game_over():
                continue
            reply = AlphaBetaPlayer(use_tt=False, **EXACT).analyse(copy, Limit(depth=2))
            if line.mate is None and reply.mate is None:
                assert reply.eval == -line.eval  # type: ignore[operator]
                compared += 1
    assert compared >= 12


def test_varied_play_is_seeded_and_varies() -> None:
    board = open_position(andantino, 40)
    moves = {make_player("alphabeta:randomness=200,depth=3", seed).play(board).move
             for seed in range(12)}
    assert len(moves) >= 2
    again = [make_player("alphabeta:randomness=200,depth=3", 5).play(board).move
             for _ in range(3)]
    assert len(set(again)) == 1
    plain = {make_player("alphabeta:depth=3", seed).play(board).move for seed in range(4)}
    assert len(plain) == 1


def test_any_whole_number_seeds_the_player_modulo_2_to_the_64() -> None:
    # A seed beyond 64 bits or below 0 was refused by the native core only once the
    # search began (`hexgames analyse --seed` printed its header first).
    board = open_position(andantino, 40)
    for seed in (5, 2**70 + 5, 5 - 2**64, -3):
        spec = "alphabeta:randomness=200,depth=3"
        assert make_player(spec, seed).play(board).move \
            == make_player(spec, seed % 2**64).play(board).move
    for bad in (1.5, "5"):  # refused when the player is made, as by mcts and greedy
        for spec in ("alphabeta", "mcts", "greedy"):
            with pytest.raises(ValueError, match="a seed is a whole number, not"):
                make_player(spec, bad)  # type: ignore[arg-type]


def test_varied_play_always_takes_a_proven_win() -> None:
    board = andantino_board(*OPEN_FOUR)
    for seed in range(6):
        assert make_player("alphabeta:randomness=100000,depth=3", seed).play(
            board).move.notation() == "3,0"


# -- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "fragment"), [
    ({"tt_mb": 0}, "at least 1 MB"),
    ({"tt_mb": 10**12}, "not enough memory"),
    ({"multipv": 0}, "multipv"),
    ({"randomness": -1}, "randomness"),
    # OverflowError / TypeError of the binding before, or silently clamped (three)
    ({"randomness": 2**70}, "randomness must be a whole number from 0 to"),
    ({"randomness": 1.5}, "randomness must be a whole number"),
    ({"multipv": 2.5}, "multipv must be 1 to 1000, not 2.5"),
    ({"three": -5}, "three must be a whole number from 0 to 159, not -5"),
    ({"three": 2**70}, "three must be a whole number from 0 to 159"),
    ({"three": 160}, "three must be a whole number from 0 to 159, not 160"),
])
def test_bad_options_are_refused(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(HexgamesError, match=fragment):
        AlphaBetaPlayer(**options)


@pytest.mark.parametrize("limits", [{"time": 1e300}, {"clock": 1e300},
                                    {"clock": 1e20, "increment": 1e300}])
def test_a_huge_time_is_refused_by_the_limit(limits: dict[str, float]) -> None:
    """A finite but huge time or clock made the native time manager panic
    (``Duration::from_secs_f64``: PanicException, not a ValueError), in the CLI too
    (``hexgames analyse andantino --time 1e20``); a Limit now refuses more than a day."""
    with pytest.raises(InvalidLimitError, match="must be at most 86400 seconds"):
        Limit(depth=2, **limits)


@pytest.mark.parametrize("limit", [Limit(time=MAX_SEARCH_SECONDS, depth=2),
                                   Limit(clock=MAX_SEARCH_SECONDS, depth=2),
                                   Limit(clock=MAX_SEARCH_SECONDS,
                                         increment=MAX_SEARCH_SECONDS, depth=2)])
def test_the_longest_time_a_limit_allows_is_no_panic(limit: Limit) -> None:
    for player in (AlphaBetaPlayer(tt_mb=1), make_player("solver")):
        move = player.play(abande.Board(), limit).move
        assert move in abande.Board().legal_moves


@pytest.mark.parametrize("limits", [{"time": 1e300, "depth": 2}, {"clock": 1e300, "depth": 2},
                                    {"clock": 1e20, "increment": 1e300, "depth": 2}])
def test_the_binding_clamps_a_huge_time_itself(limits: dict[str, float]) -> None:
    # Not only through the Python player: the native time manager caps any time at 10^9 s.
    result = native.alphabeta("abande", tt_mb=1).search(native.state_of(abande.Board()),
                                                        **limits)
    assert result["move"] in [m.notation() for m in abande.Board().legal_moves]


@pytest.mark.parametrize(("limits", "message"), [
    ({"nodes": 2**70}, "limit nodes must be from 0 to 9223372036854775807"),
    ({"depth": -1}, "limit depth must be from 0 to 9223372036854775807, not -1"),
    ({"nodes": True}, "limit nodes must be a whole number, not True"),
    ({"depth": 1.5}, "limit depth must be a whole number, not 1.5"),
])
def test_the_binding_refuses_bad_counts_by_name(limits: dict[str, Any], message: str) -> None:
    engine = native.alphabeta("abande", tt_mb=1)
    with pytest.raises(HexgamesError, match=message):
        engine.search(native.state_of(abande.Board()), **limits)


def test_native_refuses_bad_arguments() -> None:
    with pytest.raises(HexgamesError, match="not enough memory"):
        native.alphabeta("andantino", tt_mb=10**15)
    with pytest.raises(HexgamesError, match="not enough memory"):
        native.alphabeta("andantino", tt_mb=10**30)
    with pytest.raises(HexgamesError, match="unknown game"):
        native.alphabeta("chess")
    engine = native.alphabeta("abande", tt_mb=1)
    state = native.state_of(abande.Board())
    for limits, fragment in [({"time": float("nan")}, "time"), ({"time": -1.0}, "time"),
                             ({"clock": float("inf")}, "clock"), ({"nodes": -5}, "nodes"),
                             ({"depth": -1}, "depth"), ({"increment": 1.0}, "needs a clock")]:
        with pytest.raises(HexgamesError, match=fragment):
            engine.search(state, **limits)
    with pytest.raises(HexgamesError, match="AbandeState"):
        engine.search(native.state_of(andantino.Board()), depth=1)
    over = andantino_board(*LINE_WIN)
    over.push_notation("-1,0")
    with pytest.raises(HexgamesError, match="over"):
        native.alphabeta("andantino", tt_mb=1).search(native.state_of(over), depth=1)


def test_game_over_is_refused() -> None:
    board = andantino_board(*LINE_WIN)
    board.push_notation("-1,0")
    with pytest.raises(ValueError):
        AlphaBetaPlayer().play(board)


def test_registry_points_at_the_native_player() -> None:
    player = make_player("alphabeta:tt_mb=2,multipv=2,randomness=5", 3)
    assert isinstance(player, AlphaBetaPlayer)
    assert (player.tt_mb, player.multipv, player.randomness, player.seed) == (2, 2, 5, 3)
    assert player.lmr and not player.leaf_threats and not player.tt_deeper
    assert isinstance(make_player("hard"), AlphaBetaPlayer)
