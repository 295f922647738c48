"""Perft and divide (hexgames.perft) against docs/perft.md and a copy-based recount."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexgames import abande, andantino
from hexgames.perft import divide, perft


def naive_perft(board: object, depth: int) -> int:
    """Perft by copying the board at every node (no make/unmake)."""
    if depth == 0:
        return 1
    if board.is_game_over():  # type: ignore[attr-defined]
        return 0
    total = 0
    for move in list(board.legal_moves):  # type: ignore[attr-defined]
        child = board.copy()  # type: ignore[attr-defined]
        child.push(move)
        total += naive_perft(child, depth - 1)
    return total


def test_andantino_perft_md() -> None:
    board = andantino.Board()
    assert [perft(board, d) for d in range(1, 6)] == [2, 6, 24, 120, 672]


def test_andantino_single_adjacency_perft_md() -> None:
    board = andantino.Board(rules=andantino.Rules(single_adjacency=True))
    assert [perft(board, d) for d in range(1, 6)] == [2, 18, 72, 480, 2640]


def test_abande_perft_md() -> None:
    board = abande.Board()
    assert [perft(board, d) for d in range(1, 4)] == [37, 180, 1176]


def test_depth_zero_and_negative() -> None:
    board = andantino.Board()
    assert perft(board, 0) == 1
    with pytest.raises(ValueError):
        perft(board, -1)
    with pytest.raises(ValueError):
        divide(board, 0)


def test_a_finished_game_is_not_expanded() -> None:
    board = andantino.Board(
        "andantino w=0,0;1,0;2,0;3,0;0,1;1,1 r=0,-1;1,-1;2,-1;-1,1;4,-1 turn=w")
    board.push_notation("4,0")
    assert board.is_game_over()
    assert perft(board, 0) == 1
    assert perft(board, 1) == 0
    assert perft(board, 3) == 0
    assert divide(board, 2) == []


def test_leaves_that_end_the_game_count_once() -> None:
    # White completes a line at depth 1 with 4,0: that leaf counts at depth 1 and adds
    # nothing at depth 2.
    board = andantino.Board(
        "andantino w=0,0;1,0;2,0;3,0;0,1;1,1 r=0,-1;1,-1;2,-1;-1,1;4,-1 turn=w")
    split = dict(divide(board, 2))
    assert split["4,0"] == 0
    assert sum(split.values()) == perft(board, 2) == naive_perft(board, 2)


def test_divide_sums_to_perft_and_is_sorted() -> None:
    board = andantino.Board()
    assert divide(board, 3) == [("0,1", 12), ("1,-1", 12)]
    board = abande.Board()
    split = divide(board, 2)
    assert len(split) == 37
    assert [m for m, _ in split] == sorted(m for m, _ in split)
    assert sum(n for _, n in split) == 180


def test_perft_leaves_the_board_unchanged() -> None:
    board = andantino.Board()
    board.push_notation("0,1")
    before = (board.position(), list(board.move_stack), board.zobrist_hash())
    perft(board, 4)
    divide(board, 3)
    assert (board.position(), list(board.move_stack), board.zobrist_hash()) == before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 30),
       options=st.sampled_from([[], ["single_adjacency=on"], ["self_trap=illegal"],
                                ["extended=on", "tiles_per_player=4"]]))
def test_andantino_perft_equals_a_copying_recount(seed: int, plies: int,
                                                  options: list[str]) -> None:
    rng = random.Random(seed)
    board = andantino.Board(rules=andantino.Rules.from_options(options))
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    assert perft(board, 2) == naive_perft(board, 2)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 60))
def test_abande_perft_equals_a_copying_recount(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = abande.Board()
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    assert perft(board, 2) == naive_perft(board, 2)
