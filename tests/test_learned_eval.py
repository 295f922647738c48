"""Abande's learned evaluation (:mod:`hexgames.engine.learned`): the native core's
values equal the training code's on thousands of positions, the shipped weights load
with the package, and bad weights are refused by name."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_engine_evaluation import random_boards as evaluation_boards

from hexgames import abande, native
from hexgames.engine import learned
from hexgames.engine.alphabeta import AlphaBetaPlayer
from hexgames.engine.base import Limit
from hexgames.engine.players import make_player


def random_boards(count: int, seed: int, rules: Any = None) -> list[Any]:
    """Boards of games that go on after 2 to 80 random plies (all phases: entries,
    captures, empty hands)."""
    return evaluation_boards(abande, count, seed, rules=rules, plies=(2, 80))


def native_value(weights: list[int], board: Any) -> int | None:
    engine = native.alphabeta("abande", tt_mb=1, eval_weights=weights)
    return engine.evaluate(native.state_of(board))


def test_terms_by_hand() -> None:
    # The native core's own test has the same position (learned.rs, terms_by_hand):
    # Black d4 (the centre), White d5, Black d6 and d7 (the rim) in a column.
    board = abande.Board("abande d4=B d5=W d6=B d7=B turn=w hands=b15,w17")
    t = learned.terms(board)
    # White's view: score 1-2, material 1-3, no full stacks, d5 can take d4 and d6 (+2),
    # d4 and d6 can take d5 (-1), one mover against two, hand +2; then d7 sleeps (-1),
    # awake singles 1-2, rim 0-1, centre 1-1, not the endgame, hand 2 x 32, tempo,
    # White, no full stacks.
    assert t == [-1, -2, 0, 2, -1, -1, 2, -1, -1, -1, 0, 0, 64, 1, -1, 0]
    assert learned.value([16] * learned.TERMS, t) == sum(t) == 60  # a point a unit
    assert learned.value([1] * learned.TERMS, t) == 60 // 16 == 3
    assert learned.value([-1] * learned.TERMS, t) == -60 // 16 == -4  # floored


def test_rust_equals_the_training_code_on_thousands_of_positions() -> None:
    shipped = list(learned.shipped_weights())
    rng = random.Random(7)
    weight_sets = [shipped,
                   [rng.randint(-5000, 5000) for _ in range(learned.TERMS)],
                   [rng.randint(-learned.MAX_WEIGHT, learned.MAX_WEIGHT)
                    for _ in range(learned.TERMS)]]  # reaches the bound
    engines = [native.alphabeta("abande", tt_mb=1, eval_weights=w) for w in weight_sets]
    boards = random_boards(2000, seed=41)
    clamped = 0
    for board in boards:
        t = learned.terms(board)
        state = native.state_of(board)
        for weights, engine in zip(weight_sets, engines, strict=True):
            expected = learned.value(weights, t)
            clamped += abs(expected) == learned.BOUND
            assert engine.evaluate(state) == expected, (board.position(), weights)
    assert clamped > 0  # the bound was exercised
    captures = sum(learned.terms(b)[3] != 0 for b in boards)
    endgames = sum(learned.terms(b)[11] != 0 for b in boards)
    assert captures > 500 and endgames > 50  # the phases were all reached


@pytest.mark.parametrize("max_height", [2, 5])
def test_other_heights(max_height: int) -> None:
    rules = abande.Rules(max_height=max_height)
    weights = list(learned.shipped_weights())
    for board in random_boards(200, seed=43, rules=rules):
        assert native_value(weights, board) == learned.value(weights,
                                                             learned.terms(board))


def test_hand_written_terms_are_the_first_seven() -> None:
    # With the hand-written weights (times the scale) and nothing else, the learned
    # evaluation is the hand-written one.
    weights = [w * learned.SCALE for w in learned.HAND_WEIGHTS] + [0] * 9
    hand = native.alphabeta("abande", tt_mb=1)
    for board in random_boards(300, seed=44):
        state = native.state_of(board)
        assert native_value(weights, board) == hand.evaluate(state), board.position()


def test_shipped_weights_load_with_the_package() -> None:
    weights = learned.shipped_weights()
    assert len(weights) == learned.TERMS and weights[0] == 100 * learned.SCALE
    player = make_player("alphabeta:eval=learned")
    assert isinstance(player, AlphaBetaPlayer) and player.eval_weights == weights
    board = abande.Board("abande d4=B d5=W d6=B d7=B turn=w hands=b15,w17")
    info = player.analyse(board, Limit(depth=1))
    assert info.pv[0] in board.legal_moves
    # The default since the SPRT (docs/evaluation.md); the hand-written one on request.
    assert make_player("alphabeta").eval_weights == weights  # type: ignore[attr-defined]
    assert make_player("alphabeta:eval=hand").eval_weights is None  # type: ignore[attr-defined]


def test_a_weights_file_is_an_option(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    weights = list(range(learned.TERMS))
    learned.write_weights(path, weights, games=3)
    assert learned.read_weights(path) == tuple(weights)
    player = AlphaBetaPlayer(eval=str(path))
    board = abande.Board("abande d4=B d5=W d6=B d7=B turn=w hands=b15,w17")
    expected = learned.value(weights, learned.terms(board))
    assert player.engine("abande").evaluate(native.state_of(board)) == expected


@pytest.mark.parametrize(("text", "fragment"), [
    ("{not json", "are not JSON"),
    ('{"game": "andantino"}', 'not an object with "game": "abande"'),
    ('{"game": "abande", "terms": ["score"], "weights": [1]}', "are for the terms"),
    (json.dumps({"game": "abande", "terms": list(learned.TERM_NAMES),
                 "weights": [1] * 15}), "must be a list of 16 whole numbers"),
    (json.dumps({"game": "abande", "terms": list(learned.TERM_NAMES),
                 "weights": [1] * 15 + [1.5]}), r"weight 15 \(awake_full\) must be"),
    (json.dumps({"game": "abande", "terms": list(learned.TERM_NAMES),
                 "weights": [1] * 15 + [10**7]}), "from -1000000 to 1000000"),
])
def test_a_malformed_weights_file_is_refused_by_name(tmp_path: Path, text: str,
                                                     fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=fragment) as caught:
        AlphaBetaPlayer(eval=str(path))
    assert "bad.json" in str(caught.value)


def test_bad_eval_options_are_refused() -> None:
    with pytest.raises(ValueError, match="cannot read the evaluation weights 'nowhere'"):
        make_player("alphabeta:eval=nowhere")
    with pytest.raises(ValueError, match="eval must be hand, learned"):
        AlphaBetaPlayer(eval="")


@pytest.mark.parametrize(("weights", "fragment"), [
    ([1] * 15, "eval_weights must be a list of 16 whole numbers"),
    ("1" * 16, "eval_weights must be a list of 16 whole numbers"),
    (5, "eval_weights must be a list of 16 whole numbers"),
    ([1] * 15 + [2.0], "an eval_weights weight must be a whole number, not 2.0"),
    ([1] * 15 + [10**7], "an eval_weights weight must be -1000000 to 1000000"),
    ([1] * 15 + [10**30], "an eval_weights weight must be -1000000 to 1000000"),
])
def test_native_refuses_bad_weights(weights: Any, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        native.alphabeta("abande", tt_mb=1, eval_weights=weights)
