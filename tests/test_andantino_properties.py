"""Property tests: random Andantino games checked, ply by ply, against the naive referee
in ``andantino_reference`` (written from docs/rules.md with no shortcut).

Hypothesis picks a seed, a rules variant, a starting position and a move policy; the
policies are biased towards crowded play, pocket filling and undoing relocations so that
traps, self-traps and repetitions happen often enough to be tested.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from andantino_reference import (
    RefGame,
    RefMove,
    bounding_box,
    box_cells,
    engine_moves,
    engine_outcome,
    from_board,
    neighbours,
    position_string,
)
from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

from hexgames.andantino import Board, Move, Rules
from hexgames.hexgrid import SYMMETRIES, ring

Cell = tuple[int, int]


@dataclass(frozen=True)
class Variant:
    rules: Rules
    max_plies: int


VARIANTS = {
    "default": Variant(Rules(), 60),
    "single_adjacency": Variant(Rules(single_adjacency=True), 60),
    "self_trap_illegal": Variant(Rules(self_trap="illegal"), 60),
    "self_trap_ignore": Variant(Rules(self_trap="ignore"), 60),
    "extended": Variant(Rules(extended=True, tiles_per_player=7, extended_move_limit=16), 60),
    "extended_full_supply": Variant(Rules(extended=True, extended_move_limit=6), 60),
    "extended_mixed": Variant(Rules(extended=True, tiles_per_player=9, extended_move_limit=12,
                                    single_adjacency=True, self_trap="illegal"), 60),
    "extended_ignore": Variant(Rules(extended=True, tiles_per_player=8, extended_move_limit=14,
                                     self_trap="ignore"), 60),
    "unlimited": Variant(Rules(tiles_per_player=None), 56),
}

#: Starting positions: the standard start and set-ups with pockets (empty cells one side
#: walls off), so that self-traps and "already enclosed" tiles come up. A start that does
#: not fit a variant's tile supply falls back to the standard start.
STARTS = [
    None,
    # White's ring around the empty (0,0), Red to move (docs/rules.md's no-win example).
    "andantino w=1,0;-1,0;0,1;0,-1;1,-1;-1,1 r=1,1;2,0;2,-1;-2,0;-2,1 turn=r",
    # The same with the colours swapped: Red's ring, White to move.
    "andantino r=1,0;-1,0;0,1;0,-1;1,-1;-1,1 w=1,1;2,0;2,-1;-2,0;-2,1 turn=w",
    # White's ring of radius 2 around seven empty cells, Red tiles outside.
    "andantino w={} r=3,-3;3,-1;-3,1;-1,3 turn=r".format(
        ";".join(f"{q},{r}" for q, r in sorted(ring((0, 0), 2), key=lambda c: (c[1], c[0])))),
    # Two half-built rings, one per colour.
    "andantino w=1,0;-1,0;0,-1;1,-1 r=3,0;4,-1;4,0;2,1;3,1 turn=w",
]


#: No "explain" phase: it re-runs slow failing games many times to little benefit.
PHASES = [phase for phase in Phase if phase is not Phase.explain]


def start_board(variant: Variant, start: str | None) -> Board:
    if start is not None:
        try:
            return Board(start, variant.rules)
        except ValueError:
            pass
    return Board(rules=variant.rules)


# --- move policies ---------------------------------------------------------------------------


def own_neighbours(board: Board, cell: Cell) -> int:
    return sum(1 for n in neighbours(cell) if board.color_at(n) == board.turn)


def all_neighbours(board: Board, cell: Cell) -> int:
    return sum(1 for n in neighbours(cell) if board.color_at(n) is not None)


Policy = Callable[[random.Random, Board, list[Move]], Move]


def uniform(rng: random.Random, board: Board, moves: list[Move]) -> Move:
    return rng.choice(moves)


def greedy(rng: random.Random, board: Board, moves: list[Move]) -> Move:
    """Clump: rings and lines of one's own colour."""
    if rng.random() < 0.25:
        return rng.choice(moves)
    return max(moves, key=lambda m: own_neighbours(board, m.to) + 2 * rng.random())


def crowd(rng: random.Random, board: Board, moves: list[Move]) -> Move:
    """Fill holes: cells touching many tiles, which is where pockets are."""
    if rng.random() < 0.3:
        return rng.choice(moves)
    return max(moves, key=lambda m: all_neighbours(board, m.to) + 1.5 * rng.random())


def surround(rng: random.Random, board: Board, moves: list[Move]) -> Move:
    """Hem in opponent tiles that one's own tiles already half surround: traps."""
    if rng.random() < 0.2:
        return rng.choice(moves)
    me = board.turn

    def score(move: Move) -> float:
        total = 2 * rng.random()
        for n in neighbours(move.to):
            color = board.color_at(n)
            if color is not None and color != me:
                total += 1 + sum(1 for k in neighbours(n) if board.color_at(k) == me)
        return total

    return max(moves, key=score)


POLICIES: dict[str, Policy] = {"uniform": uniform, "greedy": greedy, "crowd": crowd,
                               "surround": surround}


def choose(rng: random.Random, board: Board, policy: Policy) -> Move:
    moves = list(board.legal_moves)
    # In extended play, often undo one's own last relocation: repetitions then happen.
    if len(board.move_stack) >= 2 and rng.random() < 0.6:
        last = board.move_stack[-2]
        if last.from_ is not None:
            back = Move(last.from_, last.to)
            if back in moves:
                return back
    return policy(rng, board, moves)


# --- the checks made on every ply ----------------------------------------------------------


def snapshot(board: Board) -> tuple[Any, ...]:
    return (board.position(), board.zobrist_hash(), engine_moves(board),
            engine_outcome(board), board.turn, board.ply(), board.result())


def ref_position(ref: RefGame, white: Any, red: Any) -> str:
    rules = ref.rules
    hands = None
    if rules.tiles_per_player is not None:
        hands = (ref.hands[0], ref.hands[1])
    return position_string(white, red, ref.turn, hands,  # type: ignore[arg-type]
                           ref.single_used if rules.single_adjacency else None,
                           ref.relocations if rules.extended else None)


def check_from_scratch(board: Board, ref: RefGame) -> None:
    rules = board.rules
    text = board.position()
    assert text == ref.position()
    again = Board(text, rules)
    assert again.position() == text
    assert again.zobrist_hash() == board.zobrist_hash()
    # The key from the tiles, read through the public API and written by the reference.
    rebuilt = Board(ref_position(ref, board.tiles(0), board.tiles(1)), rules)
    assert rebuilt.zobrist_hash() == board.zobrist_hash()
    if not board.is_game_over():
        assert engine_moves(again) == engine_moves(board)


def check_copy(board: Board, rng: random.Random) -> None:
    copy = board.copy()
    assert copy == board
    assert copy.zobrist_hash() == board.zobrist_hash()
    assert engine_moves(copy) == engine_moves(board)
    assert engine_outcome(copy) == engine_outcome(board)
    assert copy.move_stack == board.move_stack
    before = board.position()
    moves = list(copy.legal_moves)
    if moves:
        copy.push(rng.choice(moves))
        assert board.position() == before
        assert copy.ply() == board.ply() + 1


def transform_move(move: RefMove, f: Callable[[Cell], Cell]) -> RefMove:
    source, target = move
    return (None if source is None else f(source), f(target))


def check_symmetries(board: Board, ref: RefGame, rng: random.Random) -> None:
    moves = engine_moves(board)
    shift = (rng.randint(-9, 9), rng.randint(-9, 9))
    for sym in SYMMETRIES:
        def f(c: Cell, sym: Callable[[Cell], Cell] = sym) -> Cell:
            q, r = sym(c)
            return (q + shift[0], r + shift[1])

        text = ref_position(ref, map(f, board.tiles(0)), map(f, board.tiles(1)))
        image = Board(text, board.rules)
        assert engine_moves(image) == {transform_move(m, f) for m in moves}, (sym, shift)


def check_is_legal(board: Board, legal: set[RefMove], rng: random.Random) -> None:
    tiles = board.tiles(0) | board.tiles(1)
    box = box_cells(bounding_box(tiles, 1))
    sources = [None] if not board.rules.extended else [None, *board.tiles(board.turn)]
    for move in board.legal_moves:
        assert board.is_legal(move)
        assert board.parse_notation(move.notation()) == move
    for _ in range(12):
        source = rng.choice(sources)
        target = rng.choice(box)
        expected = (source, target) in legal
        move = Move(target, source)
        assert board.is_legal(move) == expected, move
        assert (move in board.legal_moves) == expected


def check_by_source(board: Board, legal: set[RefMove]) -> None:
    """The moves one tile at a time (what the browser app asks for) are the reference's
    legal moves of that tile, and the tiles with one are exactly the sources."""
    sources = {source for source, _ in legal if source is not None}
    assert set(board.legal_sources()) == sources
    assert list(board.legal_sources()) == sorted(sources, key=lambda c: (c[1], c[0]))
    for source in [None, *board.tiles(board.turn), *board.tiles(1 - board.turn), (99, 99)]:
        moves = board.legal_moves_from(source)
        assert {(m.from_, m.to) for m in moves} == {m for m in legal if m[0] == source}
        assert list(moves) == [m for m in board.legal_moves if m.from_ == source]


def check_push_pop(board: Board, move: Move) -> None:
    before = snapshot(board)
    board.push(move)
    assert board.peek() == move
    assert board.pop() == move
    assert snapshot(board) == before


@settings(max_examples=100, deadline=None, phases=PHASES)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(sorted(VARIANTS)),
       start=st.sampled_from(range(len(STARTS))), policy=st.sampled_from(sorted(POLICIES)))
def test_random_games_agree_with_the_reference(seed: int, variant: str, start: int,
                                               policy: str) -> None:
    rng = random.Random(seed)
    spec = VARIANTS[variant]
    board = start_board(spec, STARTS[start])
    ref = from_board(board)
    assert engine_outcome(board) == ref.outcome
    while True:
        legal = ref.legal_moves()
        assert engine_moves(board) == legal
        assert engine_outcome(board) == ref.outcome
        assert len(board.legal_moves) == len(legal)
        assert board._has_move() == bool(legal)
        check_from_scratch(board, ref)
        check_copy(board, rng)
        if not board.is_game_over():
            check_symmetries(board, ref, rng)
        check_is_legal(board, legal, rng)
        check_by_source(board, legal)
        if board.is_game_over() or board.ply() >= spec.max_plies:
            outcome = board.outcome()
            event(f"game end: {outcome.termination.value if outcome else 'ply cap'}")
            break
        move = choose(rng, board, POLICIES[policy])
        for other in rng.sample(list(board.legal_moves), min(3, len(legal))):
            check_push_pop(board, other)
        check_push_pop(board, move)
        board.push(move)
        ref.play((move.from_, move.to))


@settings(max_examples=60, deadline=None, phases=PHASES)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(sorted(VARIANTS)),
       start=st.sampled_from(range(len(STARTS))), policy=st.sampled_from(sorted(POLICIES)))
def test_popping_a_whole_game_restores_every_position(seed: int, variant: str, start: int,
                                                       policy: str) -> None:
    """Push a random game to its end, then pop it all: each position, Zobrist key, legal
    move set and outcome comes back exactly as it was (deep make/unmake, not just one
    push and pop)."""
    rng = random.Random(seed)
    spec = VARIANTS[variant]
    board = start_board(spec, STARTS[start])
    history = [snapshot(board)]
    while not board.is_game_over() and board.ply() < spec.max_plies:
        board.push(choose(rng, board, POLICIES[policy]))
        history.append(snapshot(board))
    while board.move_stack:
        board.pop()
        assert snapshot(board) == history[board.ply()], (
            board.ply(), " ".join(m.notation() for m in board.move_stack))


@settings(max_examples=30, deadline=None, phases=PHASES)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(sorted(VARIANTS)),
       start=st.sampled_from(range(len(STARTS))), policy=st.sampled_from(sorted(POLICIES)))
def test_every_legal_move_has_the_reference_outcome(seed: int, variant: str, start: int,
                                                    policy: str) -> None:
    """At every ply of a random game, try every legal move: the engine's outcome (and so
    its shortcut trap test) equals the reference's full flood fill, and pop undoes it."""
    rng = random.Random(seed)
    spec = VARIANTS[variant]
    board = start_board(spec, STARTS[start])
    ref = from_board(board)
    while not board.is_game_over() and board.ply() < spec.max_plies:
        before = board.position(), board.zobrist_hash()
        for move in list(board.legal_moves):
            child = ref.copy()
            expected = child.play((move.from_, move.to))
            board.push(move)
            assert engine_outcome(board) == expected, (board.position(), move)
            if expected is not None:
                event(f"tried a move ending the game by {expected.termination}")
            assert board.position() == child.position()
            board.pop()
            assert (board.position(), board.zobrist_hash()) == before
        move = choose(rng, board, POLICIES[policy])
        board.push(move)
        ref.play((move.from_, move.to))
