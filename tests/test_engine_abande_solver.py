"""The native Abande endgame solver (hexgames.engine.abande_solver, the core's
abande/ai/solver.rs): exact values against a plain minimax over small endgames and a plain
alpha-beta search over larger ones (both written here), the principal line played out,
the player's choice and fallback, the table kept between moves, limits, stop and bad
arguments."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from hexgames import abande, andantino, native
from hexgames.core import HexgamesError
from hexgames.engine.abande_solver import (
    AbandeSolverPlayer,
    SolveLimitError,
    SolveResult,
    solve,
)
from hexgames.engine.alphabeta import MEMORY_SHARE
from hexgames.engine.base import Limit
from hexgames.engine.mcts import MCTSPlayer
from hexgames.engine.random_player import RandomPlayer

# Ten frozen 3-stacks (a 3-stack can neither move nor be captured) and six single pieces:
# only the singles can move, so the game tree is small.
FROZEN = ("a1=BWB a2=WBW a3=BWB a4=WBW b1=BWB b2=WBW b3=BWB b4=WBW c1=BWB c2=WBW "
          "c3=B c4=W c5=B d1=W d2=B d3=W")
# Found by seeded random play; brute force shows d7-d6 is Black's only winning move.
UNIQUE_WIN = ("abande b2=W b3=WWB c2=BW c3=WB c4=B c6=W d1=B d2=B d6=BW d7=B e1=WB e2=BBW "
              "e3=BW e4=BW e6=B f2=W f3=WB f4=W f5=WBW g1=W g2=BW g4=B turn=b hands=b0,w0")


class _TooBig(Exception):
    pass


def visit(board: abande.Board, budget: list[int]) -> int | None:
    """Count a position against ``budget`` (raising ``_TooBig`` once it is spent) and
    return the final score difference for the side to move if the game is over."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooBig
    outcome = board.outcome()
    if outcome is None:
        return None
    assert outcome.score is not None
    black, white = outcome.score
    return black - white if board.turn == 0 else white - black


def brute_force(board: abande.Board, budget: list[int]) -> int:
    """The final score difference for the side to move under perfect play, by plain
    minimax over every line (no pruning, no table)."""
    final = visit(board, budget)
    if final is not None:
        return final
    best = -1000
    for move in board.legal_moves:
        board.push(move)
        best = max(best, -brute_force(board, budget))
        board.pop()
    return best


def plain_alphabeta(board: abande.Board, alpha: int, beta: int, budget: list[int]) -> int:
    """The final score difference for the side to move under perfect play (exact when
    it lies inside the window ``alpha`` to ``beta``, else a bound on the side of the
    window it fell): textbook negamax with alpha-beta pruning (Knuth and Moore 1975),
    no table, the moves tried in order of the score difference right after them."""
    final = visit(board, budget)
    if final is not None:
        return final
    ordered = []
    for i, move in enumerate(board.legal_moves):
        board.push(move)
        black, white = board.score()  # the opponent is to move now
        ordered.append((-(white - black if board.turn == 0 else black - white), i, move))
        board.pop()
    best = -1000
    for _, _, move in sorted(ordered):
        board.push(move)
        best = max(best, -plain_alphabeta(board, -beta, -alpha, budget))
        board.pop()
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def random_endgames(count: int, max_tree: int) -> list[abande.Board]:
    """Endgames from seeded random play (until both hands are empty, then 0-2 random
    captures) whose whole game tree has at most ``max_tree`` positions."""
    boards: list[abande.Board] = []
    seed = 0
    while len(boards) < count:
        rng = random.Random(seed)
        seed += 1
        board = abande.Board()
        while any(board.hands) and not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        for _ in range(rng.randrange(3)):
            captures = [m for m in board.legal_moves if not m.is_pass]
            if captures:
                board.push(rng.choice(captures))
        board = abande.Board(board.position())
        if board.is_game_over():
            continue
        try:
            brute_force(board, [max_tree])
        except _TooBig:
            continue
        boards.append(board)
    return boards


@pytest.mark.parametrize("turn", ["b", "w"])
@pytest.mark.parametrize("passes", [0, 1])
def test_hand_built_endgames_match_brute_force(turn: str, passes: int) -> None:
    board = abande.Board(f"abande {FROZEN} turn={turn} hands=b0,w0 passes={passes}")
    before = board.position()
    result = solve(board)
    assert board.position() == before
    expected = brute_force(board, [10**6])
    assert result.diff == expected
    assert result.value == sign(expected)
    # The principal line ends the game with that difference and that score.
    end = abande.Board(board.position())
    for move in result.pv:
        end.push(move)
    assert end.is_game_over()
    outcome = end.outcome()
    assert outcome is not None and outcome.score == result.score
    black, white = result.score
    assert (black - white if board.turn == 0 else white - black) == expected
    assert result.best_move == result.pv[0]


def test_random_endgames_match_brute_force() -> None:
    boards = random_endgames(12, 20_000)
    values = set()
    for board in boards:
        expected = brute_force(board, [10**6])
        result = solve(board)
        assert result.diff == expected, board.position()
        assert result.value == sign(expected)
        values.add(result.value)
        # The result-only search agrees on the value, and its move keeps it.
        quick = solve(board, exact_score=False)
        assert quick.value == result.value
        assert quick.best_move is not None
        board.push(quick.best_move)
        assert sign(-brute_force(board, [10**6])) == result.value
        board.pop()
    assert values == {-1, 1} or values == {-1, 0, 1}  # the sample has wins and losses


def test_unique_winning_move() -> None:
    board = abande.Board(UNIQUE_WIN)
    winning = []
    for move in board.legal_moves:
        board.push(move)
        if -brute_force(board, [10**6]) > 0:
            winning.append(move)
        board.pop()
    assert [m.notation() for m in winning] == ["d7-d6"]
    assert len(board.legal_moves) == 7
    result = solve(board)
    assert result.value == 1
    assert result.best_move == winning[0]
    assert result.diff == brute_force(board, [10**6])
    assert solve(board, exact_score=False).best_move == winning[0]


def test_pass_that_ends_the_game() -> None:
    # Black has just passed; White leads 20-13, so passing ends the game won.
    board = abande.Board(UNIQUE_WIN.replace("turn=b", "turn=w") + " passes=1")
    assert board.score() == (13, 20)
    result = solve(board)
    assert result.diff == 7 == brute_force(board, [10**6])
    assert result.best_move == abande.PASS
    assert result.pv == (abande.PASS,)
    assert result.score == (13, 20)


def test_finished_game() -> None:
    board = abande.Board(f"abande {FROZEN} turn=b hands=b0,w0 passes=2")
    assert board.is_game_over()
    result = solve(board)
    assert result == SolveResult(0, None, (18, 18), 0, 0)


def with_pieces_in_hand(endgames: list[abande.Board], hand: int, max_tree: int,
                        rng: random.Random) -> list[abande.Board]:
    """The ``endgames`` with ``hand`` lone pieces taken back into their owners' hands
    (where the band stays whole and the game tree has at most ``max_tree`` positions)."""
    boards = []
    for endgame in endgames:
        words = [w for w in endgame.position().split() if not w.startswith("passes")]
        hands = [0, 0]
        for _ in range(hand):
            singles = [w for w in words if w.endswith(("=B", "=W"))]
            if singles:
                lifted = rng.choice(singles)
                hands[lifted.endswith("=W")] += 1
                words.remove(lifted)
        text = " ".join(words).replace("hands=b0,w0", f"hands=b{hands[0]},w{hands[1]}")
        try:
            board = abande.Board(text)
            brute_force(board, [max_tree])
        except (ValueError, _TooBig):
            continue  # the band was cut, or too big for the brute force
        if sum(board.hands) == hand:
            boards.append(board)
    return boards


def test_positions_with_pieces_in_hand_match_brute_force() -> None:
    # One or two pieces left in the hands: entries, and a pass allowed to the side whose
    # hand is empty while the other still enters. (The core's tests check 300 more.)
    rng = random.Random(7)
    endgames = random_endgames(80, 400)
    checked = {1: 0, 2: 0}
    values = set()
    for hand in checked:
        for board in with_pieces_in_hand(endgames, hand, 8_000, rng)[:10]:
            expected = brute_force(board, [10**6])
            result = solve(board)
            assert (result.diff, result.value) == (expected, sign(expected)), \
                board.position()
            end = board.copy()
            for move in result.pv:
                end.push(move)
            outcome = end.outcome()
            assert outcome is not None and outcome.score == result.score
            quick = solve(board, exact_score=False)
            assert quick.value == result.value and quick.best_move is not None
            board.push(quick.best_move)
            assert sign(-brute_force(board, [10**6])) == result.value
            checked[hand] += 1
            values.add(result.value)
    assert checked[1] == 10 and checked[2] >= 1  # few of two are small enough
    assert {-1, 1} <= values


def test_limits() -> None:
    # A big endgame: every piece entered as a single, so nearly every stack can move.
    rng = random.Random(0)
    board = abande.Board()
    while any(board.hands):
        entries = [m for m in board.legal_moves if m.is_entry]
        board.push(rng.choice(entries))
    with pytest.raises(SolveLimitError):
        solve(board, max_nodes=2_000)
    start = time.perf_counter()
    with pytest.raises(SolveLimitError):
        solve(board, time_limit=0.05)
    assert time.perf_counter() - start < 0.3


def test_player_plays_the_solved_move_and_falls_back() -> None:
    player = AbandeSolverPlayer(fallback=MCTSPlayer(seed=1), default_limit=Limit(time=2.0))
    board = abande.Board(UNIQUE_WIN)
    result = player.play(board)
    assert result.move.notation() == "d7-d6"
    assert result.info.score == 1.0
    assert result.info.mate is not None and result.info.mate > 0
    assert result.info.pv[0] == result.move
    assert board.position() == abande.Board(UNIQUE_WIN).position()
    # Outside the endgame the fallback plays (MCTS under a playout limit).
    opening = abande.Board()
    result = player.play(opening, Limit(nodes=50))
    assert result.move in opening.legal_moves
    assert result.info.nodes == 50


def test_player_falls_back_when_lost_or_too_big() -> None:
    # In a lost endgame every move loses against perfect play: the fallback chooses.
    lost = next(b for b in random_endgames(12, 20_000)
                if solve(b).value < 0 and len(b.legal_moves) >= 4)
    player = AbandeSolverPlayer(fallback=MCTSPlayer(seed=2))
    result = player.play(lost, Limit(nodes=80))
    assert result.move in lost.legal_moves
    assert 0 < result.info.nodes <= 80  # the MCTS fallback's simulations
    # An endgame too big for the solver's budget: the fallback plays.
    rng = random.Random(0)
    big = abande.Board()
    while any(big.hands):
        big.push(rng.choice([m for m in big.legal_moves if m.is_entry]))
    player = AbandeSolverPlayer(fallback=MCTSPlayer(seed=2), solve_nodes=500)
    result = player.play(big, Limit(nodes=60))
    assert result.move in big.legal_moves
    assert result.info.nodes == 60


class _RecordingPlayer(RandomPlayer):
    """A random player that manages clocks and remembers the limits it was given."""

    handles_clock = True

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.limits: list[Limit] = []

    def _search(self, board: Any, limit: Limit, on_info: Any) -> Any:
        self.limits.append(limit)
        return super()._search(board, limit, on_info)


def test_the_fallback_gets_every_limit_less_the_time_spent() -> None:
    # Was: after the solver gave up, depth, clock and increment were dropped, and a game
    # clock reached the fallback (alpha-beta, which manages clocks) as a fixed move time.
    fallback = _RecordingPlayer()
    player = AbandeSolverPlayer(fallback=fallback, solve_nodes=500)
    player.play(andantino.Board(), Limit(clock=60.0, increment=2.0, depth=3))
    assert fallback.limits[-1] == Limit(clock=60.0, increment=2.0, depth=3)
    rng = random.Random(0)
    big = abande.Board()
    while any(big.hands):
        big.push(rng.choice([m for m in big.legal_moves if m.is_entry]))
    # (A node limit gives the solver its 500 positions, so it gives up at once.)
    player.play(big, Limit(time=5.0, nodes=10**9, depth=3))
    seen = fallback.limits[-1]
    assert (seen.depth, seen.nodes) == (3, 10**9)
    assert seen.time is not None and 4.0 < seen.time < 5.0
    player.play(big, Limit(clock=60.0, increment=1.0, nodes=10**9, depth=2))
    seen = fallback.limits[-1]
    assert (seen.depth, seen.increment, seen.time, seen.nodes) == (2, 1.0, None, 10**9)
    assert seen.clock is not None and 59.0 < seen.clock < 60.0


def test_a_stop_before_the_fallback_begins_reaches_it() -> None:
    # The fallback's play() clears its stop flag: a stop that came while the solver
    # player copied the board (seconds for an Andantino position of 1,000 tiles) was
    # lost, and the fallback searched its whole time (62 s for a stop 0.2 s in).
    for board in (andantino.Board(), abande.Board()):
        fallback = _RecordingPlayer()
        player = AbandeSolverPlayer(fallback=fallback, solve_nodes=500)
        player.stop()  # as if stopped after play() began, before the fallback's
        player._search(board, Limit(time=60.0), None)
        assert fallback.limits[-1] == Limit(nodes=1)


def test_should_stop() -> None:
    rng = random.Random(0)
    big = abande.Board()
    while any(big.hands):
        big.push(rng.choice([m for m in big.legal_moves if m.is_entry]))
    with pytest.raises(SolveLimitError):
        solve(big, should_stop=lambda: True)


def test_bad_player_options_name_what_is_wrong() -> None:
    from hexgames.engine.players import UnknownPlayerError, make_player
    with pytest.raises(ValueError, match="solve_nodes must be 0 or more, not -1"):
        AbandeSolverPlayer(solve_nodes=-1)
    # A bad fallback spec says that it is the fallback, and the spec around it.
    with pytest.raises(UnknownPlayerError, match=r"^fallback: unknown player 'bogus'"):
        AbandeSolverPlayer(fallback="bogus")
    with pytest.raises(UnknownPlayerError,
                       match=r"^player spec 'solver:fallback=bogus': fallback: unknown "
                             r"player 'bogus' \(players: "):
        make_player("solver:fallback=bogus")
    with pytest.raises(UnknownPlayerError,
                       match=r"^player spec 'expert:fallback=greedy:noise=2': fallback: "
                             r"player spec 'greedy:noise=2': noise is a probability"):
        make_player("expert:fallback=greedy:noise=2")


_SOLVER_CHAIN = """
import resource, sys
from hexgames.engine.players import make_player

resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))  # if the chain were made
for depth in (2, 12, 3000):
    try:
        make_player("solver:fallback=" * depth + "random")
    except ValueError as error:
        print(error)
"""


def test_a_solver_is_no_fallback_of_a_solver() -> None:
    """Each solver of ``solver:fallback=solver:fallback=...`` made a table of its own
    (64 MB each, filled: 30 of them, a spec of 486 characters, took 2 GB), and 3000 of
    them ended in a RecursionError traceback; a second solver adds nothing."""
    import subprocess
    import sys

    from hexgames.engine.players import UnknownPlayerError, make_player

    done = subprocess.run([sys.executable, "-c", _SOLVER_CHAIN], capture_output=True,
                          text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    for line, depth in zip(lines[:2], (2, 12), strict=True):
        outer = "solver:fallback=" * depth + "random"
        inner = outer.removeprefix("solver:fallback=")
        assert line == (f"player spec {outer!r}: fallback: {inner!r} is a solver: a "
                        "solver's fallback plays where it cannot solve, so it is another "
                        "player")
    # a chain longer than a spec may be is refused before it is read
    assert lines[2:] == ["a player spec has at most 200 characters, not 48006"]
    with pytest.raises(UnknownPlayerError, match="'expert' is a solver"):
        make_player("solver:fallback=expert")
    with pytest.raises(ValueError, match=r"^fallback: AbandeSolverPlayer is a solver: "):
        AbandeSolverPlayer(fallback=AbandeSolverPlayer())
    assert make_player("expert:fallback=mcts").fallback.name == "mcts"

def test_larger_random_endgames_match_plain_alphabeta() -> None:
    # Endgames too big for plain minimax (random play that enters a piece three times in
    # five, so more stacks are left to move), against the alpha-beta search above.
    kept = native.AbandeSolver(4)
    checked = 0
    seed = 1000
    while checked < 5:
        rng = random.Random(seed)
        seed += 1
        board = abande.Board()
        while any(board.hands) and not board.is_game_over():
            moves = board.legal_moves
            entries = [m for m in moves if m.is_entry]
            board.push(rng.choice(entries) if entries and rng.random() < 0.6
                       else rng.choice(moves))
        board = abande.Board(board.position())
        if board.is_game_over():
            continue
        try:
            result = solve(board, max_nodes=9_000)
        except SolveLimitError:
            continue  # too big for the plain search in a test's time
        if result.nodes < 300:
            continue
        expected = plain_alphabeta(board, -1000, 1000, [150_000])
        assert (result.value, result.diff) == (sign(expected), expected), board.position()
        end = board.copy()
        for move in result.pv:
            end.push(move)
        outcome = end.outcome()
        assert outcome is not None and outcome.score == result.score
        black, white = result.score
        assert (black - white if board.turn == 0 else white - black) == expected
        quick = solve(board, exact_score=False, solver=kept)
        assert quick.value == result.value and quick.best_move is not None
        board.push(quick.best_move)
        assert sign(-plain_alphabeta(board, -1, 1, [150_000])) == result.value
        checked += 1


def test_the_player_keeps_its_table_between_moves() -> None:
    board = abande.Board(UNIQUE_WIN)
    player = AbandeSolverPlayer(fallback=MCTSPlayer(seed=1), default_limit=Limit(time=2.0))
    first = player.play(board).info.nodes
    again = player.play(board).info.nodes
    assert again < first / 4
    player.new_game()
    assert player.play(board).info.nodes == first


def test_stop_from_another_thread() -> None:
    rng = random.Random(0)
    big = abande.Board()
    while any(big.hands):
        big.push(rng.choice([m for m in big.legal_moves if m.is_entry]))
    solver = native.AbandeSolver(4)
    state = native.state_of(big)
    timer = threading.Timer(0.2, solver.stop)
    start = time.perf_counter()
    timer.start()
    found = solver.solve(state, exact_score=True, time=30)
    elapsed = time.perf_counter() - start
    timer.join()
    assert not found["solved"] and found["nodes"] > 0
    assert 0.2 <= elapsed < 0.25


_TOO_LARGE_A_TABLE = """
import resource, sys
from hexgames.engine.alphabeta import MEMORY_SHARE, _physical_memory
from hexgames.engine.players import make_player

# should the check be missing, the table's allocation fails here instead of taking the
# machine's memory
resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
memory = _physical_memory()
mb = min(int(memory * MEMORY_SHARE) // 2**20 + 1, 65536)
try:
    make_player(f"expert:table_mb={mb}")
except ValueError as error:
    print(mb, memory // 2**20, error)
"""


def test_a_solver_table_beyond_the_memory_share_is_refused_before_it_is_made() -> None:
    """``table_mb`` was only checked against 1 to 65536, and the table is allocated and
    filled when the player is made (since PlayerSpecType makes it, as the option is
    read): ``expert:table_mb=20000`` on a machine of 24 GB took 20 GB. ``tt_mb`` was
    refused beyond half the memory; ``table_mb`` now is too."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _TOO_LARGE_A_TABLE], capture_output=True,
                          text=True, timeout=60, check=True)
    mb, memory, message = done.stdout.split(" ", 2)
    if int(mb) * 2**20 <= int(memory) * 2**20 * MEMORY_SHARE:
        pytest.skip("a machine of more than 128 GB: 65536 MB is within its share")
    assert message == (f"player spec 'expert:table_mb={mb}': not enough memory for a "
                       f"solver table of {mb} MB (this machine has {memory} MB; at most "
                       f"50% of it)\n")

def test_bad_native_arguments() -> None:
    with pytest.raises(HexgamesError, match="table_mb"):
        native.AbandeSolver(0)
    with pytest.raises(HexgamesError, match="table_mb"):
        AbandeSolverPlayer(table_mb=10**7)
    solver = native.AbandeSolver(1)
    with pytest.raises(HexgamesError, match="AbandeState"):
        solver.solve(native.state_of(andantino.Board()))
    state = native.state_of(abande.Board(UNIQUE_WIN))
    for kwargs in ({"time": -1.0}, {"time": float("inf")}, {"max_nodes": -1}):
        with pytest.raises(HexgamesError):
            solver.solve(state, **kwargs)
    with pytest.raises(HexgamesError, match="Abande board"):
        solve(andantino.Board())  # type: ignore[arg-type]


# UNIQUE_WIN with Black's g4 back in hand: Black enters once more, White may pass.
IN_HAND = UNIQUE_WIN.replace(" g4=B", "").replace("hands=b0,w0", "hands=b1,w0")


def test_margin_report_and_command() -> None:
    from click.testing import CliRunner

    from hexgames import cli
    from hexgames.engine.abande_solver import margin_report

    board = abande.Board(IN_HAND)
    expected = plain_alphabeta(board, -1000, 1000, [10**6])
    assert expected > 0  # Black, to move, wins
    lines = margin_report(board)
    points = "point" if expected == 1 else "points"
    assert lines[0].startswith(f"Black wins by {expected} {points}, ")
    assert f"(margin {expected:+d} for Black, to move), solved exactly" in lines[0]
    end = board.copy()
    for word in lines[1].removeprefix("line: ").split():
        end.push_notation(word)
    outcome = end.outcome()
    assert outcome is not None and outcome.score is not None
    black, white = outcome.score
    assert black - white == expected and f"{black} to {white}" in lines[0]
    assert margin_report(abande.Board(), max_nodes=2_000)[0].startswith(
        "unknown within the limits")
    runner = CliRunner()
    result = runner.invoke(cli.cli, ["solve", "abande", IN_HAND, "--margin"])
    assert result.exit_code == 0, result.output
    assert lines[0] in result.output and lines[1] in result.output
    unknown = runner.invoke(cli.cli, ["solve", "abande", "--margin", "--nodes", "2000"])
    assert unknown.exit_code == 0 and "unknown within the limits" in unknown.output
    for args, message in [
        (["solve", "andantino", "--margin"], "error: --margin is for Abande"),
        (["solve", "abande", IN_HAND, "--margin", "--proof", "x.txt"], "--margin writes no"),
        (["solve", "abande", IN_HAND, "--margin", "--time", "0"], "--time"),
        (["solve", "abande", IN_HAND, "--margin", "--threads", "2"], "one exact search"),
    ]:
        bad = runner.invoke(cli.cli, args)
        assert bad.exit_code == 2 and message in bad.output, (args, bad.output)
        assert "Abande abande" not in bad.output  # refused before the position is shown


def test_the_player_solves_from_its_number_of_pieces_in_hand() -> None:
    board = abande.Board(IN_HAND)  # one piece in hand
    winning = []
    for move in board.legal_moves:
        board.push(move)
        if plain_alphabeta(board, -1, 1, [10**6]) < 0:
            winning.append(move)
        board.pop()
    solving = AbandeSolverPlayer(fallback=MCTSPlayer(seed=1), solve_hand=1)
    result = solving.play(board, Limit(nodes=80))
    assert result.move in winning and result.info.score == 1.0
    assert result.info.mate == len(result.info.pv) and result.info.nodes != 80
    # Below the threshold the fallback plays (its 80 simulations).
    falling = AbandeSolverPlayer(fallback=MCTSPlayer(seed=1), solve_hand=0)
    assert falling.play(board, Limit(nodes=80)).info.nodes == 80
    assert AbandeSolverPlayer().solve_hand == 2
    with pytest.raises(ValueError, match="solve_hand must be 0 or more, not -1"):
        AbandeSolverPlayer(solve_hand=-1)
