"""The native Monte Carlo tree search player (hexgames.engine.mcts, the core's
search/mcts.rs), through the Python player: legal play under every option set and rules
option, wins, blocks, proofs of wins and losses checked by trying the moves, tree reuse,
seeds, reports, stop, Ctrl-C and bad options of the binding."""

from __future__ import annotations

import _thread
import random
import threading
import time
from typing import Any

import pytest
from naive_evaluation import immediate_wins

from hexgames import abande, andantino, native
from hexgames.core import HexgamesError
from hexgames.engine import learned
from hexgames.engine.base import Info, Limit
from hexgames.engine.mcts import DEFAULT_EVAL, MCTSPlayer, cutoff_evals
from hexgames.engine.players import UnknownPlayerError, make_player

# White to move; White wins at 4,0 (a line); Red would win at -1,1.
WIN_IN_ONE = "andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w"
# White to move cannot win at once; Red threatens a line at -1,1, which White must fill.
BLOCK = "andantino w=0,0;1,0;2,0;2,-1 r=0,1;1,1;2,1;3,1 turn=w"
# docs/rules.md's example: White -1,1 walls in the Red tile on 0,0.
TRAP = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w"
# White wins in three plies, and only by 0,-1 (neither side can win at once now).
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
    """A random position where the side to move cannot win at once."""
    while True:
        board = random_position(module, seed, plies)
        if not immediate_wins(board):
            return board
        seed += 1000


OPTIONS = [
    {},
    {"decisive": True},
    {"rave": False},
    {"solver": False, "decisive": False},
    {"grave_ref": 0, "reuse_tree": False},
    {"abande_cutoff": 0},
    {"eval": "score", "abande_cutoff": 5, "cutoff_scale": 4.0},
    {"eval": "learned"},
    {"eval": "learned", "abande_cutoff": 2, "andantino_cutoff": 10, "decisive": True},
    {"eval": "none"},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize(("module", "plies"), [(andantino, 14), (abande, 30), (abande, 50)])
def test_play_is_legal_and_leaves_the_board_alone(options: dict[str, Any], module: Any,
                                                  plies: int) -> None:
    player = MCTSPlayer(seed=3, **options)
    for seed in range(3):
        board = random_position(module, seed, plies)
        before, stack = board.position(), list(board.move_stack)
        result = player.play(board, Limit(nodes=300))
        assert result.move in board.legal_moves
        assert board.position() == before
        assert board.move_stack == stack
        assert result.info.pv and result.info.pv[0] == result.move
        assert 0.0 <= (result.info.score or 0.0) <= 1.0
        assert result.info.mate is not None or result.info.nodes == 300


def test_the_player_names_are_the_native_ones() -> None:
    assert type(make_player("mcts")).__module__ == "hexgames.engine.mcts"
    assert make_player("mcts:rave=off,grave_ref=10").rave is False  # type: ignore[attr-defined]


def test_a_whole_game_of_legal_moves() -> None:
    players = (MCTSPlayer(seed=1), MCTSPlayer(seed=2, rave=False))
    for module in (andantino, abande):
        board = module.Board()
        while not board.is_game_over():
            move = players[board.turn].play(board, Limit(nodes=200)).move
            assert move in board.legal_moves
            board.push(move)
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
    result = MCTSPlayer(seed=1).play(board, Limit(nodes=100_000, time=20))
    assert result.move.notation() == "0,-1"
    assert result.info.mate == 3
    assert result.info.score == 1.0
    assert result.info.nodes < 100_000
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
    # The same position again: the whole tree, every simulation of the first search.
    player.play(board, Limit(nodes=100))
    assert player.reused_visits == 3000
    # Two plies down the principal variation: that node's simulations.
    line = player.play(board, Limit(nodes=100)).info.pv
    board.push(line[0])
    board.push(line[1])
    player.play(board, Limit(nodes=100))
    assert 10 < player.reused_visits < 3200
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
    # Other rules do not share a tree.
    player.play(board, Limit(nodes=100))
    lax = andantino.Board(board.position(), andantino.Rules(self_trap=andantino.SelfTrap.IGNORE))
    player.play(lax, Limit(nodes=100))
    assert player.reused_visits == 0


def test_stop_from_another_thread_within_milliseconds() -> None:
    board = random_position(abande, 1, 20)
    player = MCTSPlayer(seed=1)
    stopped_at: list[float] = []

    def stop() -> None:
        stopped_at.append(time.perf_counter())
        player.stop()

    timer = threading.Timer(0.3, stop)
    timer.start()
    result = player.play(board, Limit(time=30))
    returned = time.perf_counter()
    timer.join()
    assert returned - stopped_at[0] < 0.05
    assert result.move in board.legal_moves
    assert result.info.nodes > 0


@pytest.mark.parametrize("spec", ["mcts:depth=2", "mcts"])
def test_a_depth_alone_does_not_take_away_the_time_limit(spec: str) -> None:
    # MCTS ignores depth: `mcts:depth=2` (or `--depth` on the command line) searched
    # without any limit that ends it, for ever.
    player = make_player(spec, limit=Limit(depth=3))
    assert player.default_limit == Limit(time=1.0)
    watchdog = threading.Timer(20, player.stop)
    watchdog.start()
    try:
        started = time.perf_counter()
        result = player.play(random_position(abande, 1, 20), Limit(depth=1))
        took = time.perf_counter() - started
    finally:
        watchdog.cancel()
    assert 0.9 < took < 10
    assert result.info.nodes > 0
    assert MCTSPlayer(default_limit=Limit(nodes=50, depth=2)).default_limit == Limit(
        nodes=50, depth=2)


def test_ctrl_c_stops_a_search() -> None:
    board = random_position(abande, 1, 20)
    player = MCTSPlayer(seed=1)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    start = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            timer.start()
            player.play(board, Limit(time=60))
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 2
    # The player still works.
    assert player.play(board, Limit(nodes=50)).move in board.legal_moves


def test_seeds_reproduce_moves() -> None:
    for module, plies in ((andantino, 14), (abande, 30)):
        board = quiet_position(module, 2, plies)
        one = MCTSPlayer(seed=7).play(board, Limit(nodes=400))
        two = MCTSPlayer(seed=7).play(board, Limit(nodes=400))
        assert one.move == two.move
        assert one.info.pv == two.info.pv
        assert one.info.score == two.info.score
        assert one.info.nodes == two.info.nodes == 400
        # A whole game of moves, tree reuse included.
        games = []
        for _ in range(2):
            player, b = MCTSPlayer(seed=3), board.copy()
            for _ in range(6):
                if b.is_game_over():
                    break
                b.push(player.play(b, Limit(nodes=200)).move)
            games.append(b.move_stack)
        assert games[0] == games[1]


def test_info_reports() -> None:
    board = quiet_position(andantino, 4, 14)
    seen: list[Info] = []
    result = MCTSPlayer(seed=1).play(board, Limit(time=0.6), on_info=seen.append)
    assert len(seen) >= 4  # periodic reports every 100 ms and the final one
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


def test_an_error_in_on_info_propagates() -> None:
    board = quiet_position(andantino, 4, 14)

    def fail(info: Info) -> None:
        raise RuntimeError("no thanks")

    start = time.perf_counter()
    with pytest.raises(RuntimeError, match="no thanks"):
        MCTSPlayer(seed=1).play(board, Limit(time=5), on_info=fail)
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("options", [
    {"exploration": -1}, {"exploration": float("nan")}, {"rave_bias": float("inf")},
    {"rave_bias": -0.1}, {"cutoff_scale": 0}, {"abande_cutoff": -1}, {"grave_ref": -2},
    {"tree_mb": 0}, {"tree_mb": 10**12},
])
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        MCTSPlayer(**options)


def test_cutoff_zero_plays_out_and_bad_native_arguments() -> None:
    assert MCTSPlayer(abande_cutoff=0).abande_cutoff is None
    search = native.Mcts("abande")
    state = native.state_of(andantino.Board())
    with pytest.raises(HexgamesError, match="searches abande positions"):
        search.search(state, nodes=10)
    with pytest.raises(HexgamesError, match="unknown game"):
        native.Mcts("chess")
    abande_state = native.state_of(abande.Board())
    for kwargs in ({"time": -1}, {"time": float("nan")}, {"nodes": -5}, {"nodes": 1.5}):
        with pytest.raises(HexgamesError):
            search.search(abande_state, **kwargs)
    with pytest.raises(HexgamesError, match="seed"):
        native.Mcts("abande", seed=-1)
    over = abande.Board("abande a1=BBB a2=WWW a3=BBB a4=WWW b1=BBB b2=WWW b3=BBB b4=WWW "
                        "b5=BBB c1=WWW c2=BBB c3=WWW turn=b hands=b0,w0 passes=2")
    with pytest.raises(HexgamesError, match="game is over"):
        search.search(native.state_of(over), nodes=10)


def test_a_full_tree_stops_growing_and_the_search_goes_on() -> None:
    board = random_position(abande, 3, 20)
    player = MCTSPlayer(seed=1, tree_mb=1)
    result = player.play(board, Limit(nodes=300_000, time=30))
    assert player.tree_full
    assert result.move in board.legal_moves
    assert result.info.nodes == 300_000


@pytest.mark.parametrize("rules", [
    andantino.Rules(single_adjacency=True),
    andantino.Rules(extended=True, tiles_per_player=6, extended_move_limit=30),
    andantino.Rules(self_trap=andantino.SelfTrap.ILLEGAL),
    andantino.Rules(tiles_per_player=None),
])
@pytest.mark.parametrize("evaluation", ["default", "learned"])
def test_rules_options(rules: andantino.Rules, evaluation: str) -> None:
    rng = random.Random(1)
    board = andantino.Board(rules=rules)
    player = MCTSPlayer(seed=1, eval=evaluation)
    for _ in range(16):
        if board.is_game_over():
            break
        before = board.position()
        move = player.play(board, Limit(nodes=100)).move
        assert board.position() == before
        assert board.is_legal(move)
        board.push(move)
        if not board.is_game_over():
            board.push(rng.choice(board.legal_moves))


# -- the playout cut-off scored by the learned evaluation (eval=...) ----------------------

def test_eval_option_says_what_each_cutoff_scores_by(tmp_path: Any) -> None:
    shipped = {game: learned.shipped_weights(game) for game in ("andantino", "abande")}
    assert cutoff_evals("learned") == shipped
    assert cutoff_evals("score") == {"andantino": "score", "abande": "score"}
    assert cutoff_evals("none") == {"andantino": "none", "abande": "none"}
    assert cutoff_evals("default") == {game: shipped[game] if how == "learned" else how
                                       for game, how in DEFAULT_EVAL.items()}
    assert MCTSPlayer().cutoff_evals == cutoff_evals("default")
    # A weights file: its game's learned evaluation with its weights, the other default.
    weights = list(learned.ANDANTINO_HAND_WEIGHTS)
    path = tmp_path / "w.json"
    learned.write_weights(path, weights, game="andantino")
    player = make_player(f"mcts:eval={path},andantino_cutoff=6")
    assert isinstance(player, MCTSPlayer)
    assert player.cutoff_evals == {**cutoff_evals("default"), "andantino": tuple(weights)}
    assert (player.andantino_cutoff, player.abande_cutoff) == (6, 2)
    assert make_player("mcts:abande_cutoff=none").abande_cutoff == 2  # type: ignore[attr-defined]
    assert make_player("mcts:eval=score").abande_cutoff == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize(("options", "fragment"), [
    ({"eval": "bogus"}, "eval must be default, score, learned, none or the path of a "
                        "weights file, not 'bogus': cannot read"),
    ({"eval": ""}, "eval must be default, score, learned, none"),
    ({"eval": 3}, "eval must be default, score, learned, none"),
    ({"eval": "Learned"}, "eval must be default, score, learned, none"),
    ({"andantino_cutoff": -1}, "andantino_cutoff must be 0 or more, not -1"),
    ({"abande_cutoff": -2}, "abande_cutoff must be 0 or more, not -2"),
])
def test_bad_eval_options_name_the_option(options: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        MCTSPlayer(**options)


def test_bad_eval_options_in_a_player_spec(tmp_path: Any) -> None:
    with pytest.raises(UnknownPlayerError, match=r"mcts:eval=nowhere.*eval must be"):
        make_player("mcts:eval=nowhere")
    with pytest.raises(UnknownPlayerError,
                       match="option andantino_cutoff takes a whole number or none, not 'long'"):
        make_player("mcts:andantino_cutoff=long")
    path = tmp_path / "bad.json"
    path.write_text('{"game": "andantino", "terms": [], "weights": []}', encoding="utf-8")
    with pytest.raises(ValueError, match=r"eval must be .*bad\.json.*are for the terms"):
        MCTSPlayer(eval=str(path))
    assert make_player("mcts:andantino_cutoff=0").andantino_cutoff is None  # type: ignore[attr-defined]


def test_bad_native_eval_weights() -> None:
    andantino_weights = list(learned.shipped_weights("andantino"))
    for game, weights, fragment in [
        ("andantino", andantino_weights[:11], "eval_weights must be a list of 13"),
        ("abande", andantino_weights, "eval_weights must be a list of 16"),
        ("andantino", "abc", "eval_weights must be a list of 13"),
        ("andantino", [*andantino_weights[:11], 5000, 40], "tempo and right"),
        ("andantino", [160, 30, 6, 1, *andantino_weights[4:]], "grow"),
        ("andantino", [-1, *andantino_weights[1:]], "eval_weights weight must be"),
        ("abande", [2_000_000] * 16, "eval_weights weight must be"),
    ]:
        with pytest.raises(HexgamesError, match=fragment):
            native.Mcts(game, eval_weights=weights)
    with pytest.raises(HexgamesError, match="cutoff must be"):
        native.Mcts("abande", cutoff=-1)


def test_cutoff_zero_and_eval_none_play_out() -> None:
    """``abande_cutoff=0`` (and ``None``) reached the native search as None, its default
    of 4 plies, so the playouts were cut off all the same; now 0 plays out, as
    ``eval=none`` does, and ``None`` is the default."""
    board = random_position(abande, 2, 20)

    def key(**options: Any) -> tuple[Any, ...]:
        result = MCTSPlayer(seed=5, **options).play(board, Limit(nodes=3000))
        return result.move, result.info.score, result.info.pv

    played_out = key(eval="none")
    assert key(eval="score", abande_cutoff=0) == played_out
    assert key(eval="none", abande_cutoff=3) == played_out
    assert key(eval="score") != played_out
    assert key(eval="score", abande_cutoff=4) == key(eval="score", abande_cutoff=None)
    assert key(eval="learned") == key(eval="learned", abande_cutoff=2) == key()
    assert key(eval="learned") != key(eval="learned", abande_cutoff=4)


def test_default_cutoffs_go_with_the_evaluation() -> None:
    assert (MCTSPlayer(eval="score").abande_cutoff, MCTSPlayer().andantino_cutoff) == (4, None)
    learning = MCTSPlayer(eval="learned")
    assert (learning.abande_cutoff, learning.andantino_cutoff) == (2, 2)
    assert MCTSPlayer(eval="none", abande_cutoff=5).abande_cutoff is None
    given = MCTSPlayer(eval="learned", abande_cutoff=6, andantino_cutoff=0)
    assert (given.abande_cutoff, given.andantino_cutoff) == (6, None)


@pytest.mark.parametrize("position", [WIN_IN_ONE, BLOCK, WIN_IN_THREE])
def test_learned_cutoff_wins_blocks_and_proves(position: str) -> None:
    board = andantino.Board(position)
    expected = {WIN_IN_ONE: "4,0", BLOCK: "-1,1", WIN_IN_THREE: "0,-1"}[position]
    for cutoff in (1, 4, 12):
        player = MCTSPlayer(seed=2, eval="learned", andantino_cutoff=cutoff)
        result = player.play(board, Limit(nodes=50_000))
        assert result.move.notation() == expected
