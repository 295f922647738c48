"""Copies of boards by copy.copy, copy.deepcopy and pickle are independent, equal boards
that go on playing (the boards' tables find moves and cells by identity)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest

from hexgames import abande, andantino

COPIERS: list[Callable[[Any], Any]] = [
    copy.copy, copy.deepcopy, lambda board: pickle.loads(pickle.dumps(board))]


def played(module: Any, plies: int, rules: Any = None) -> Any:
    """A board after ``plies`` random plies of a game that is not over yet."""
    for seed in range(100):
        board = module.Board(rules=rules)
        rng = random.Random(seed)
        for _ in range(plies):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over():
            return board
    raise AssertionError("no game lasted long enough")


@pytest.mark.parametrize("copier", COPIERS)
@pytest.mark.parametrize(("module", "rules"), [
    (andantino, None), (andantino, andantino.Rules(single_adjacency=True)),
    (andantino, andantino.Rules(tiles_per_player=None)), (abande, None)])
def test_copies_play_on_and_stay_independent(copier: Callable[[Any], Any], module: Any,
                                             rules: Any) -> None:
    board = played(module, 12, rules)
    twin = copier(board)
    assert twin == board and twin is not board
    assert twin.move_stack == board.move_stack and twin.rules == board.rules
    assert twin.zobrist_hash() == board.zobrist_hash()
    assert set(twin.legal_moves) == set(board.legal_moves)
    move = sorted(twin.legal_moves, key=str)[0]
    twin.push(move)  # the copy plays on...
    assert twin.ply() == board.ply() + 1 and board.peek() != move
    assert move in board.legal_moves  # ...and the original is unchanged
    twin.pop()
    assert twin.position() == board.position()
    board.push(move)
    assert twin.position() != board.position()


def test_a_pickled_setup_keeps_its_start() -> None:
    board = andantino.Board("andantino w=0,0;0,1 r=1,0 turn=r")
    board.push_notation("1,1")
    again = pickle.loads(pickle.dumps(board))
    assert again.root().position() == board.root().position()
    assert again.position() == board.position()
