"""The native Abande board (``hexgames._native.AbandeState``, Rust) against the Python
board (``hexgames.abande.Board``) on every ply of thousands of games.

On each ply both sides must give the same legal moves in the same order, outcome,
Zobrist key, position string, hands, passes, score, stacks and sleeping stacks. The games
are uniformly random, biased towards captures (tall stacks, holes and split bands) or
towards passes, under other ``max_height`` values, and from set-up positions that one side
writes and the other reads. Bad input must raise the same ``ValueError`` subclass with
the same message on both sides, and never a Rust panic (a ``PanicException`` derives
from ``BaseException``, so it fails these tests instead of matching an error). Fixed
seeds throughout.
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexgames import abande, native
from hexgames._native import AbandeState
from hexgames.abande import Board, Move, Rules
from hexgames.core import (
    HexgamesError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
)
from hexgames.perft import divide, perft

ORDER = {cell: i for i, cell in enumerate(abande.POINTS)}

Policy = Callable[[Board, random.Random], int]


def uniform(board: Board, rng: random.Random) -> int:
    return int(rng.random() * len(board.legal_moves))


def captures_first(board: Board, rng: random.Random) -> int:
    """A random stack move four times in five when there is one: tall stacks, holes in
    the band and bands that a move would split come up often."""
    moves = board.legal_moves
    stack = [i for i, m in enumerate(moves) if m.is_stack_move]
    if stack and rng.random() < 0.8:
        return rng.choice(stack)
    return uniform(board, rng)


def passes_first(board: Board, rng: random.Random) -> int:
    """The pass whenever it is legal, nine times in ten: short endgames, games that end
    with stacks still able to move."""
    moves = board.legal_moves
    if moves[-1].is_pass and rng.random() < 0.9:
        return len(moves) - 1
    return uniform(board, rng)


def python_view(board: Board) -> dict[str, Any]:
    """What both sides must agree on, from the Python board."""
    outcome = board.outcome()
    return {
        "legal": [m.notation() for m in board.legal_moves],
        "outcome": None if outcome is None else (
            outcome.termination.value,
            None if outcome.winner is None else int(outcome.winner),
            outcome.score),
        "over": board.is_game_over(),
        "key": board.zobrist_hash(),
        "position": board.position(),
        "hands": board.hands,
        "passes": board.passes,
        "score": board.score(),
        "stacks": {abande.cell_name(c): "".join("BW"[p] for p in s)
                   for c, s in board.stacks().items()},
        "sleeping": [abande.cell_name(c) for c in sorted(board.sleeping(), key=ORDER.get)],
        "turn": int(board.turn),
        "ply": board.ply(),
    }


def native_view(state: AbandeState) -> dict[str, Any]:
    legal = state.legal_moves()
    assert state.legal_count() == len(legal)
    return {
        "legal": legal,
        "outcome": state.outcome(),
        "over": state.is_game_over(),
        "key": state.zobrist_hash(),
        "position": state.position(),
        "hands": state.hands(),
        "passes": state.passes,
        "score": state.score(),
        "stacks": state.stacks(),
        "sleeping": state.sleeping(),
        "turn": state.turn,
        "ply": state.ply,
    }


def same(board: Board, state: AbandeState) -> None:
    assert native_view(state) == python_view(board), board.position()


NEIGHBOURS = {abande.cell_name(c): [abande.cell_name((c[0] + dq, c[1] + dr))
                                     for dq, dr in abande.DIRECTIONS
                                     if (c[0] + dq, c[1] + dr) in ORDER]
              for c in abande.POINTS}


def compare_refusals(board: Board, state: AbandeState, reasons: dict[str, int]) -> None:
    """Every stack move of the side to move onto a neighbour, legal or not: the same
    verdict and message on both sides. Counts the reasons given."""
    for source, stack in state.stacks().items():
        if "BW"[state.turn] != stack[-1]:
            continue
        for target in NEIGHBOURS[source]:
            text = f"{source}-{target}"
            python = result_of(lambda: board.parse_notation(text).notation())  # noqa: B023
            rust = result_of(lambda: state.copy().push(text))  # noqa: B023
            assert rust == (("ok", None) if python[0] == "ok" else python), text
            reason = python[1].partition(": ")[2] if python[0] != "ok" else "legal"
            key = "split" if "split the band" in reason else reason.split(" ")[-1]
            reasons[key] = reasons.get(key, 0) + 1


def play(board: Board, state: AbandeState, policy: Policy, rng: random.Random,
         reasons: dict[str, int] | None = None) -> int:
    """Play one game to its end on both sides, comparing every ply; now and then take a
    few plies back on both and compare again, and with ``reasons`` compare the verdicts
    on every stack move now and then. Returns the plies played."""
    plies = 0
    same(board, state)
    while not board.is_game_over():
        if reasons is not None and plies % 5 == 4:
            compare_refusals(board, state, reasons)
        index = policy(board, rng)
        move = board.legal_moves[index]
        board.push(move)
        if rng.random() < 0.5:
            state.push_index(index)
        else:
            state.push(move.notation())
        plies += 1
        same(board, state)
        if rng.random() < 0.03 and board.ply() >= 3:
            for _ in range(rng.randint(1, 3)):
                assert state.pop() == board.pop().notation()
            same(board, state)
    assert board.legal_moves == () and state.legal_moves() == []
    return plies


@pytest.mark.parametrize(("policy", "games", "seed"), [
    (uniform, 2000, 1),
    (captures_first, 1000, 2),
    (passes_first, 400, 3),
])
def test_random_games(policy: Policy, games: int, seed: int) -> None:
    rng = random.Random(seed)
    plies = 0
    outcomes: set[Any] = set()
    reasons: dict[str, int] = {}
    for i in range(games):
        board, state = Board(), AbandeState()
        plies += play(board, state, policy, rng, reasons if i % 4 == 0 else None)
        outcome = state.outcome()
        assert outcome is not None
        outcomes.add(outcome[1])
    assert plies > 20 * games
    assert outcomes == {0, 1, None}  # wins both ways and draws all occur
    # Every kind of refused stack move came up: split bands, the height limit, own and
    # empty targets, the opening restriction.
    assert {"legal", "split", "3", "stack", "restriction)"} <= set(reasons), reasons


@pytest.mark.parametrize(("height", "games"), [(1, 60), (2, 120), (4, 150), (6, 120),
                                               (36, 120)])
def test_other_heights(height: int, games: int) -> None:
    rng = random.Random(100 + height)
    options = [f"max_height={height}"]
    tallest = 0
    for i in range(games):
        board = Board(None, Rules(max_height=height))
        state = AbandeState(None, options)
        assert state.options() == options
        play(board, state, captures_first if i % 3 else uniform, rng)
        tallest = max(tallest, *(len(s) for s in state.stacks().values()))
    # Stacks reach the limit (the standard game's 3 is not the only one played).
    assert tallest == height if height <= 6 else tallest > 6


def random_position(rng: random.Random, rules: Rules) -> str:
    """A position reached by a random game of the Python board (possibly finished)."""
    board = Board(None, rules)
    stop = rng.randint(0, 90)
    while not board.is_game_over() and board.ply() < stop:
        board.push(board.legal_moves[captures_first(board, rng)])
    return board.position()


def test_set_up_positions() -> None:
    rng = random.Random(7)
    finished = 0
    for i in range(400):
        rules = Rules(max_height=rng.choice([3, 3, 3, 2, 4, 5]))
        options = rules.options()
        text = random_position(rng, rules)
        # Python writes, native reads; and back.
        state = AbandeState(text, options)
        assert state.position() == text
        board = Board(state.position(), rules)
        finished += board.is_game_over()
        if i % 2:  # the native state first, its position read by Python
            board = Board(state.position(), rules)
        play(board, state, captures_first if i % 3 else uniform, rng)
    assert finished > 0


def test_perft_against_python() -> None:
    state, board = AbandeState(), Board()
    assert [state.perft(d) for d in range(6)] == [1, 37, 180, 1_176, 10_482, 109_116]
    assert state.position() == board.position() and state.ply == 0
    assert state.divide(3) == divide(board, 3)
    rng = random.Random(11)
    for _ in range(12):
        rules = Rules(max_height=rng.choice([3, 2, 4]))
        text = random_position(rng, rules)
        state, board = AbandeState(text, rules.options()), Board(text, rules)
        assert [state.perft(d) for d in range(4)] == [perft(board, d) for d in range(4)]
        if not board.is_game_over():
            assert state.divide(2) == divide(board, 2)
    assert AbandeState().perft(1000) == 0  # no game lasts 1000 plies


def test_state_of_a_board() -> None:
    rng = random.Random(5)
    for _ in range(30):
        rules = Rules(max_height=rng.choice([3, 4]))
        board = Board(random_position(rng, rules), rules)
        for _ in range(rng.randint(0, 20)):
            if board.is_game_over():
                break
            board.push(board.legal_moves[uniform(board, rng)])
        state = native.state_of(board)
        same(board, state)
        copy = state.copy()
        end = board.position()
        while board.move_stack:
            assert state.pop() == board.pop().notation()
            same(board, state)
        with pytest.raises(IndexError):
            state.pop()
        assert copy.position() == end  # a copy is independent


# --- position strings across the boundary ----------------------------------------------


@given(st.integers(0, 2**32), st.sampled_from([3, 3, 2, 4, 6]))
@settings(max_examples=150, deadline=None)
def test_position_round_trip(seed: int, height: int) -> None:
    rng = random.Random(seed)
    rules = Rules(max_height=height)
    text = random_position(rng, rules)
    state = AbandeState(text, rules.options())
    assert state.position() == text
    assert Board(state.position(), rules).zobrist_hash() == state.zobrist_hash()
    again = AbandeState(Board(text, rules).position(), rules.options())
    assert again.position() == text and again.zobrist_hash() == state.zobrist_hash()


def result_of(call: Callable[[], Any]) -> tuple[Any, ...]:
    """("ok", value) or (the error class, its message); a PanicException, which is no
    Exception, escapes and fails the test."""
    try:
        return ("ok", call())
    except HexgamesError as error:
        return (type(error), str(error))
    except (ValueError, TypeError, IndexError) as error:
        return (type(error), str(error))


def both_positions(text: Any, options: Any = ()) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    def python() -> str:
        return Board(text, Rules.from_options(options)).position()

    def rust() -> str:
        return AbandeState(text, options).position()

    return result_of(python), result_of(rust)


BAD_POSITIONS = [
    "", "   ", "andantino turn=b", "abande", "abande turn=x hands=b18,w18",
    "abande hands=b18,w18", "abande turn=b turn=w", "abande d4=B d4=W turn=w hands=b17,w17",
    "abande d4=B D4=B turn=w hands=b16,w18", "abande h1=B turn=w hands=b17,w18",
    "abande a5=B turn=w hands=b17,w18", "abande d4=BWBW turn=b hands=b16,w16",
    "abande d4=BX turn=b hands=b17,w18", "abande d4= turn=b hands=b17,w18",
    "abande d4=B turn=w hands=b18,w18", "abande d4=W turn=w hands=b18,w18",
    "abande turn=b hands=b18,w19", "abande d4=B turn=w hands=b16,w18",
    "abande turn=b hands=18,18", "abande turn=b hands=b18", "abande turn=b hands=b0018,w18",
    "abande turn=b hands=b18,w18 passes=3", "abande turn=b hands=b18,w18 passes=1",
    "abande turn=b hands=b18,w18 passes=2", "abande turn=b hands=b18,w18 colour=b",
    "abande turn=b hands=b18,w18 d4", "abande turn=b =x", "abande a1=B g4=W turn=b",
    "abande c3=BBB c4=BBB d3=BBB d4=BBB d5=BW e3=BBB e4=BBB turn=w",
    "abande d\u0664=B turn=b", "abande \u212a1=B turn=b", "abande d4=b turn=\u0130",
    "abande turn=b hands=b\u0661\u0668,w18", "abande turn=b hands=b18,w18 passes=\u0661",
    "abande turn=b hands=b99999999999999999999,w18", "abande d4=" + "B" * 10_000 + " turn=b",
    "abande d4='x' turn=b", 'abande d4="x\'y" turn=b', "abande d4=\x00\x85\u200b turn=b",
    "ABANDE TURN=W HANDS=B17,W18 D4=b", "abande\u3000turn=b\x1chands=b18,w18",
]


@pytest.mark.parametrize("text", BAD_POSITIONS)
def test_bad_positions_as_python(text: str) -> None:
    python, rust = both_positions(text)
    assert rust == python


@pytest.mark.parametrize("thing", [42, 4.5, b"abande turn=b", ["abande"], object, True])
def test_positions_that_are_not_text(thing: Any) -> None:
    python, rust = both_positions(thing)
    assert rust == python
    assert rust[0] is InvalidPositionError


POSITION_WORDS = ["abande", "turn=b", "turn=w", "hands=b18,w18", "hands=b17,w18",
                  "hands=b17,w17", "hands=b0,w0", "passes=1", "passes=2", "d4=B", "d4=W",
                  "e3=W", "e3=BW", "c4=B", "d4=BWBW", "h1=B", "d4=", "x", "=", "d4=BB",
                  "e3=WWW", "a1=B", "turn=", "hands=b1,w1", "D4=w", "d4=BWB", "passes=0"]
NOISE = st.text(alphabet=st.sampled_from([
    *"abdegnstuwBW=,0123456789 -'\"\\", "\u0663", "\u212a", "\u0130", "\u017f", "\xa0",
    "\x1c", "\x00", "é", "\u2028"]), max_size=25)


@given(st.lists(st.sampled_from(POSITION_WORDS), max_size=8), NOISE, st.text(max_size=12))
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_fuzz_positions(words: list[str], noise: str, anything: str) -> None:
    for text in (" ".join(words), " ".join(["abande", *words]), "abande " + noise,
                 noise, "abande turn=b " + anything, anything):
        python, rust = both_positions(text)
        assert rust == python, text


@pytest.mark.parametrize("options", [
    [], ["max_height=4"], ["MAX_HEIGHT = 007"], "max_height=2", "  max_height=5  ",
    ["max_height"], ["max_height="], ["height=3"], ["=3"], ["max_height=x"],
    ["max_height=-"], ["max_height=1234567890"], ["max_height=99999999999999999999"],
    ["max_height=0"], ["max_height=-0"], ["max_height=37"], ["max_height=3", "max_height=3"],
    ["max_height=0", "x=1"], ["max_height=\u0664"], ["\u212aax_height=3"], [3], [None],
    5, ("max_height=4",),
])
def test_options_as_python(options: Any) -> None:
    python, rust = both_positions(None, options)
    assert rust == python
    if python[0] == "ok":
        words = options.split() if isinstance(options, str) else list(options)
        assert AbandeState(None, options).options() == Rules.from_options(words).options()


@given(st.lists(st.text(max_size=12), max_size=3))
@settings(max_examples=300, deadline=None)
def test_fuzz_options(words: list[str]) -> None:
    python, rust = both_positions(None, words)
    assert rust == python


# --- moves ------------------------------------------------------------------------------

SETUP = "abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14"
FULL = ("abande a1=W a3=WB a4=B b1=B b3=B b4=WB c1=WB c2=BW c3=B c4=B c5=W d2=BW d3=W d4=B "
        "d6=B e1=WB e3=W e4=WB e5=W e6=W f1=BBW f3=W f4=BW f5=W g1=B g2=W turn=b "
        "hands=b0,w0")
BAD_MOVES = [
    "x", "", " ", "h1", "a5", "d0", "d9-d4", "d4-d9", "d4-", "-d4", "d4 e3", "d4--e3", "d",
    "pass pass", "pas", "paſſ", "PASS", "p a s s", "d\u0664", "\u212a1", "\u0130\u0661",
    "d4-e3", "c4-d4", "d4-c4", "a1", "d4", "e3-d4", "c4-e3", "c4-c3", "g1-f2", "a1-a2",
    "f2-g1", " F2 - G1 ", "d4-d4", "'d4'", "d4\x00", "\u3000e2\x85", "e2", "pass",
    "a" * 10_000, "d" + "4" * 10_000,
]


@pytest.mark.parametrize("position", [SETUP, FULL, FULL + " passes=2",
                                      "abande d4=B e3=W turn=b hands=b17,w17"])
def test_moves_as_python(position: str) -> None:
    for text in [*BAD_MOVES, 3, None, 4.5, b"d4", ["d4"], Move.from_notation("d4")]:
        board, state = Board(position), AbandeState(position)
        python = result_of(lambda: board.push_notation(text).notation())  # noqa: B023
        rust = result_of(lambda: state.push(text))  # noqa: B023
        if python[0] == "ok":
            assert rust == ("ok", None), text
        else:
            assert rust == python, text
        same(board, state)


@given(st.text(max_size=10), st.sampled_from([SETUP, FULL]))
@settings(max_examples=400, deadline=None)
def test_fuzz_moves(text: str, position: str) -> None:
    board, state = Board(position), AbandeState(position)
    python = result_of(lambda: board.push_notation(text).notation())
    rust = result_of(lambda: state.push(text))
    assert rust == (("ok", None) if python[0] == "ok" else python)
    same(board, state)


def test_push_index_pop_and_push_moves() -> None:
    state = AbandeState(SETUP)
    for index in (-1, 11, 10**30, -(10**30), "0"):
        with pytest.raises(HexgamesError, match="move index"):
            state.push_index(index)  # type: ignore[arg-type]
    with pytest.raises(IndexError, match="no moves"):
        state.pop()
    state.push_index(10)
    assert state.pop() == "g2"
    # push_moves is all or nothing.
    with pytest.raises(IllegalMoveError, match="illegal move d4: d4 is occupied"):
        state.push_moves(["b3", "e2", "d4"])
    assert state.position() == SETUP and state.ply == 0
    state.push_moves(["b3", "e2"])
    assert state.ply == 2
    with pytest.raises(InvalidMoveError):
        state.push_moves([3])  # type: ignore[list-item]
    assert state.ply == 2


# --- long calls -------------------------------------------------------------------------


def test_random_playouts() -> None:
    state = AbandeState()
    first = state.random_playouts(count=500, seed=9)
    assert first == {**state.random_playouts(count=500, seed=9), "seconds": first["seconds"]}
    assert first["playouts"] == 500
    assert first["terminations"] == {"score": 500}
    assert sum(first["wins"]) + first["draws"] == 500
    assert 40 * 500 < first["plies"] < 100 * 500
    assert state.position() == abande.STARTING_POSITION and state.ply == 0
    timed = state.random_playouts(seconds=0.05)
    assert timed["playouts"] >= 1 and timed["seconds"] >= 0.05
    # From a finished position every playout has no plies.
    done = AbandeState(FULL + " passes=2").random_playouts(count=3)
    assert done["playouts"] == 3 and done["plies"] == 0 and done["wins"] == (0, 3)
    for kwargs, message in [({}, "count or seconds"), ({"count": 0}, "at least 1"),
                            ({"count": -(10**30)}, "at least 1"),
                            ({"count": 2.5}, "whole number"),
                            ({"seconds": -1.0}, "0 or more"),
                            ({"seconds": float("nan")}, "0 or more"),
                            ({"seconds": float("inf")}, "at most 86400"),
                            ({"seconds": 1e308}, "at most 86400"),
                            ({"count": 1, "seed": -1}, "seed"),
                            ({"count": 1, "seed": 2**64}, "seed")]:
        with pytest.raises(ValueError, match=message):
            state.random_playouts(**kwargs)
    assert state.random_playouts(count=2, seconds=float("inf"))["playouts"] == 2


def test_depth_errors() -> None:
    state = AbandeState()
    with pytest.raises(ValueError, match="perft depth must be 0 or more, got -1"):
        state.perft(-1)
    with pytest.raises(ValueError, match="divide depth must be 1 or more, got 0"):
        state.divide(0)
    with pytest.raises(ValueError, match="0 or more"):
        state.perft(-(10**30))
    with pytest.raises(ValueError, match="whole number"):
        state.perft(2.0)  # type: ignore[arg-type]


def interrupt_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signals reach the main thread only")
@pytest.mark.parametrize("call", [lambda s: s.perft(12), lambda s: s.divide(12),
                                  lambda s: s.random_playouts(seconds=60)])
def test_ctrl_c_stops_long_calls(call: Callable[[AbandeState], Any]) -> None:
    state = AbandeState()
    state.push("d4")
    start = time.perf_counter()
    timer = interrupt_after(0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            call(state)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 5
    assert state.position() == "abande d4=B turn=w hands=b17,w18" and state.ply == 1


def test_long_calls_release_the_gil() -> None:
    state = AbandeState()
    ticks = 0
    done = threading.Event()

    def work() -> None:
        state.random_playouts(seconds=0.5)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert ticks > 20  # the main thread ran while the playouts did
