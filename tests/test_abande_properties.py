"""Property tests: random Abande games and set-up positions checked, ply by ply, against
the naive referee in ``abande_reference`` (written from docs/rules.md with no shortcut).

Hypothesis picks a seed, a ``max_height`` and, for set-ups, a band of stacks; the games
are uniformly random (or biased towards stack moves, so that tall stacks, holes in the
band and long endgames of passes and captures come up often).
"""

from __future__ import annotations

import copy
import random
from collections import deque

from abande_reference import CELLS, Reference, connected, from_position, name, neighbours
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from hexgames.abande import PASS, Board, Move, Rules

Cell = tuple[int, int]

#: No "explain" phase: it re-runs slow failing games many times to little benefit.
PHASES = [phase for phase in Phase if phase is not Phase.explain]
HEIGHTS = st.sampled_from([3, 3, 3, 2, 4])


def choose(board: Board, rng: random.Random, capture_bias: float) -> Move:
    """A uniformly random legal move, or with probability ``capture_bias`` a random stack
    move when there is one."""
    moves = board.legal_moves
    if rng.random() < capture_bias:
        captures = [m for m in moves if m.is_stack_move]
        if captures:
            return rng.choice(captures)
    return rng.choice(moves)


def check_position(board: Board, ref: Reference) -> None:
    """Everything the board says about its position, against the reference and against
    a board rebuilt from the position string."""
    legal = [m.notation() for m in board.legal_moves]
    assert set(legal) == ref.legal(), board.position()
    assert len(legal) == len(set(legal)) == len(board.legal_moves)
    for index, move in enumerate(board.legal_moves):
        assert board.legal_moves[index] is move
    # is_legal agrees with the generator on every entry, the pass and every stack move
    # of the side to move, legal or not.
    mine = [c for c, s in ref.stacks.items() if s[-1] == ref.turn]
    candidates = [name(c) for c in CELLS] + ["pass"]
    candidates += [f"{name(c)}-{name(n)}" for c in mine for n in neighbours(c)]
    for text in candidates:
        move = Move.from_notation(text)
        assert board.is_legal(move) == (text in legal) == (move in board.legal_moves), text
    # one stack at a time (the browser app's targets), and the moves of no stack
    by_source = [m.notation() for m in board.legal_moves_from(None)]
    for source in board.legal_sources():
        moves = [m.notation() for m in board.legal_moves_from(source)]
        assert moves and all(text.startswith(f"{name(source)}-") for text in moves)
        by_source += moves
    assert sorted(by_source) == sorted(legal)
    stacks = board.stacks()
    assert {c: [int(p) for p in s] for c, s in stacks.items()} == ref.stacks
    assert connected(set(stacks))  # the band
    assert all(1 <= len(s) <= board.rules.max_height for s in stacks.values())
    for color in (0, 1):
        on_board = sum(s.count(color) for s in stacks.values())  # type: ignore[arg-type]
        assert on_board + board.hands[color] == 18
    assert list(board.hands) == ref.hands
    assert int(board.turn) == ref.turn
    assert board.passes == ref.passes
    assert board.score() == ref.score()
    assert board.sleeping() == {c for c in ref.stacks if not ref.awake(c)}
    assert board.opening_restriction == (ref.hands[0] > 16)
    text = board.position()
    rebuilt = Board(text, board.rules)
    assert rebuilt.position() == text
    assert rebuilt.zobrist_hash() == board.zobrist_hash()
    # The incremental structures behind the band test equal a from-scratch computation.
    assert (board._holes, board._euler) == (rebuilt._holes, rebuilt._euler)
    assert list(rebuilt.legal_moves) == list(board.legal_moves)  # history-free order
    assert rebuilt.outcome() == board.outcome()


def play(seed: int, max_height: int, capture_bias: float, start: str | None = None
         ) -> tuple[Board, Reference]:
    rng = random.Random(seed)
    rules = Rules(max_height=max_height)
    board = Board(start, rules)
    ref = from_position(board.position(), max_height)
    check_position(board, ref)
    while not board.is_game_over():
        move = choose(board, rng, capture_bias)
        board.push(move)
        ref.push(move.notation())
        check_position(board, ref)
        assert len(board.move_stack) < 400
    return board, ref


@settings(max_examples=40, deadline=None, phases=PHASES)
@given(seed=st.integers(0, 2**32 - 1), max_height=HEIGHTS,
       capture_bias=st.sampled_from([0.0, 0.0, 0.7]))
def test_random_games_agree_with_the_reference(seed: int, max_height: int,
                                               capture_bias: float) -> None:
    board, ref = play(seed, max_height, capture_bias)
    # Every game ends by two passes in succession, with all 36 pieces on the board.
    assert board.move_stack[-2:] == [PASS, PASS]
    assert board.hands == (0, 0)
    assert sum(len(s) for s in board.stacks().values()) == 36
    outcome = board.outcome()
    assert outcome is not None and outcome.score == ref.score()
    black, white = ref.score()
    assert outcome.winner == (None if black == white else int(white > black))
    assert len(board.legal_moves) == 0


@settings(max_examples=30, deadline=None, phases=PHASES)
@given(seed=st.integers(0, 2**32 - 1), max_height=HEIGHTS,
       capture_bias=st.sampled_from([0.0, 0.7]))
def test_push_pop_restores_everything(seed: int, max_height: int, capture_bias: float) -> None:
    rng = random.Random(seed)
    board = Board(rules=Rules(max_height=max_height))

    def snapshot() -> tuple[object, ...]:
        return (board.position(), board.zobrist_hash(), list(board.legal_moves),
                board.outcome(), board.result(), board.hands, board.turn, board.passes,
                board.score(), board.ply(), board.opening_restriction, board.stacks())

    history = [snapshot()]
    while not board.is_game_over():
        here = history[-1]
        # Every child is made and unmade without a trace.
        for move in list(board.legal_moves):
            board.push(move)
            assert board.peek() is move
            assert board.pop() is move
            assert snapshot() == here
        board.push(choose(board, rng, capture_bias))
        history.append(snapshot())
    final = board.copy()
    assert final == board and final.zobrist_hash() == board.zobrist_hash()
    while board.move_stack:
        board.pop()
        history.pop()
        assert snapshot() == history[-1]
    assert board == board.root()


@settings(max_examples=25, deadline=None, phases=PHASES)
@given(seed=st.integers(0, 2**32 - 1))
def test_stack_moves_equal_a_naive_band_check(seed: int) -> None:
    """On every ply, a stack may leave its point exactly when the rest of the band stays
    connected (flood fill from scratch), for every stack of either colour."""
    rng = random.Random(seed)
    board = Board()
    while not board.is_game_over():
        stacks = board.stacks()
        occupied = set(stacks)
        legal = {m.notation() for m in board.legal_moves if m.is_stack_move}
        expected = set()
        if not board.opening_restriction:
            for source, stack in stacks.items():
                if stack[-1] != board.turn or not connected(occupied - {source}):
                    continue
                for target in neighbours(source):
                    other = stacks.get(target)
                    if other and other[-1] != board.turn and len(stack) + len(other) <= 3:
                        expected.add(f"{name(source)}-{name(target)}")
        assert legal == expected
        board.push(choose(board, rng, 0.5))


def grow_band(rng: random.Random, size: int) -> list[Cell]:
    """A random connected band grown point by point: each prefix is connected, and the
    band may enclose holes."""
    band = [rng.choice(CELLS)]
    while len(band) < size:
        frontier = sorted({n for c in band for n in neighbours(c)} - set(band))
        band.append(rng.choice(frontier))
    return band


@st.composite
def set_ups(draw: st.DrawFn) -> tuple[str, int]:
    """A position string: a band from :func:`grow_band`, random stacks within the height
    limit, at most 18 pieces a side."""
    max_height = draw(HEIGHTS)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    band = grow_band(rng, draw(st.integers(1, 30)))
    counts = [0, 0]
    stacks: dict[Cell, str] = {}
    for cell in band:  # every prefix of band is connected
        height = rng.choice([1, 1, 1, 2, 2, 3, max_height])
        pieces = [rng.randrange(2) for _ in range(min(height, max_height))]
        if any(counts[c] + pieces.count(c) > 18 for c in (0, 1)):
            break
        for piece in pieces:
            counts[piece] += 1
        stacks[cell] = "".join("BW"[p] for p in pieces)
    turn = draw(st.sampled_from("bw"))
    hands = (18 - counts[0], 18 - counts[1])
    fields = [f"{name(c)}={stacks[c]}" for c in sorted(stacks, key=lambda c: (c[0], -c[1]))]
    fields += [f"turn={turn}", f"hands=b{hands[0]},w{hands[1]}"]
    if hands["bw".index(turn) ^ 1] == 0 and draw(st.booleans()):
        fields.append("passes=1")  # the player who moved last passed
    return " ".join(["abande", *fields]), max_height


@settings(max_examples=150, deadline=None, phases=PHASES)
@given(set_up=set_ups(), seed=st.integers(0, 2**32 - 1))
def test_set_up_positions_agree_with_the_reference(set_up: tuple[str, int], seed: int) -> None:
    text, max_height = set_up
    board = Board(text, Rules(max_height=max_height))
    assert board.position() == text
    ref = from_position(text, max_height)
    check_position(board, ref)
    rng = random.Random(seed)
    for _ in range(12):
        if board.is_game_over():
            break
        move = choose(board, rng, 0.8)
        board.push(move)
        ref.push(move.notation())
        check_position(board, ref)


def test_set_ups_with_holes_are_generated() -> None:
    """The bands of the set-up strategy often enclose holes (where the fast cut test
    needs more than the ring of six), so the test above exercises them."""
    holes = 0
    for seed in range(200):
        band = grow_band(random.Random(seed), 25)
        empty = set(CELLS) - set(band)
        rim = {c for c in CELLS if len(neighbours(c)) < 6}
        seen = empty & rim
        todo = deque(seen)
        while todo:
            for n in neighbours(todo.popleft()):
                if n in empty and n not in seen:
                    seen.add(n)
                    todo.append(n)
        holes += seen != empty
    assert holes >= 20


def test_uniform_random_games_from_the_start() -> None:
    """A plain loop through the public API, as a benchmark runs it."""
    rng = random.Random(2024)
    plies = []
    for _ in range(50):
        board = Board()
        while not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        plies.append(board.ply())
        assert board.move_stack[-2:] == [PASS, PASS]
        assert board == Board(board.position())
    assert min(plies) >= 38  # 36 entries and two passes at least


def test_perft_four_agrees_with_the_reference() -> None:
    def engine(board: Board, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += engine(board, depth - 1)
            board.pop()
        return total

    def naive(ref: Reference, depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for text in ref.legal():
            child = copy.deepcopy(ref)
            child.push(text)
            total += naive(child, depth - 1)
        return total

    assert engine(Board(), 4) == naive(Reference(), 4) == 10_482
