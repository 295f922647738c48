"""The learned evaluations (:mod:`hexgames.engine.learned`): the native core's values
equal the training code's on thousands of positions of each game, the shipped weights
load with the package, and bad weights are refused by name."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_engine_evaluation import random_boards as evaluation_boards

from hexgames import abande, andantino, native
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
    both = {"abande": weights, "andantino": learned.shipped_weights("andantino")}
    assert len(both["andantino"]) == learned.ANDANTINO_TERMS
    player = make_player("alphabeta:eval=learned")
    assert isinstance(player, AlphaBetaPlayer) and player.eval_weights == both
    board = abande.Board("abande d4=B d5=W d6=B d7=B turn=w hands=b15,w17")
    info = player.analyse(board, Limit(depth=1))
    assert info.pv[0] in board.legal_moves
    # The default: the learned evaluation where it won its SPRT (docs/evaluation.md):
    # both games.
    assert learned.DEFAULT_LEARNED == ("abande", "andantino")
    default = make_player("alphabeta")
    assert isinstance(default, AlphaBetaPlayer) and default.eval_weights == both
    hand = make_player("alphabeta:eval=hand")
    assert isinstance(hand, AlphaBetaPlayer) and hand.eval_weights == {}


def test_a_weights_file_is_an_option(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    weights = list(range(learned.TERMS))
    learned.write_weights(path, weights, games=3)
    assert learned.read_weights(path) == ("abande", tuple(weights))
    player = AlphaBetaPlayer(eval=str(path))
    board = abande.Board("abande d4=B d5=W d6=B d7=B turn=w hands=b15,w17")
    expected = learned.value(weights, learned.terms(board))
    assert player.engine("abande").evaluate(native.state_of(board)) == expected


@pytest.mark.parametrize(("text", "fragment"), [
    ("{not json", "are not JSON"),
    ('{"game": "go"}', 'not an object with "game": "abande" or "andantino"'),
    ('{"game": "andantino", "terms": ["score"], "weights": [1]}', "are for the terms"),
    (json.dumps({"game": "andantino", "terms": list(learned.ANDANTINO_TERM_NAMES),
                 "weights": [1, 6, 5, 160, 0, 0, 1, 4, 16, 60, 60, 30, 40]}),
     r"line and enclosure weights must grow, not \[1, 6, 5, 160\]"),
    (json.dumps({"game": "andantino", "terms": list(learned.ANDANTINO_TERM_NAMES),
                 "weights": [1, 6, 30, 160, 0, 0, 1, 4, 16, 60, 60, 30, -1]}),
     r"weight 12 \(right\) must be a whole number from 0 to 1000, not -1"),
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
    with pytest.raises(ValueError, match="eval must be default, hand, learned"):
        AlphaBetaPlayer(eval="")


def andantino_boards(count: int, seed: int) -> list[Any]:
    """Balance-variant boards of games that go on after 1 to 45 random plies."""
    return evaluation_boards(andantino, count, seed,
                             rules=andantino.Rules(single_adjacency=True), plies=(1, 45))


def test_andantino_rust_equals_the_training_code_on_thousands_of_positions(
        tmp_path: Path) -> None:
    shipped = learned.shipped_weights("andantino")
    rng = random.Random(8)
    line = sorted(rng.randint(0, 65536) for _ in range(4))
    enclosure = sorted(rng.randint(0, 65536) for _ in range(7))
    weight_sets = [shipped, learned.ANDANTINO_HAND_WEIGHTS,
                   (*line, *enclosure, rng.randint(0, 1000), rng.randint(0, 1000))]
    for i, weights in enumerate(weight_sets):
        learned.write_weights(tmp_path / f"{i}.json", weights, "andantino")
    players = [AlphaBetaPlayer(tt_mb=1, eval=str(tmp_path / f"{i}.json"))
               for i in range(len(weight_sets))]
    engines = [p.engine("andantino") for p in players]
    hand = native.alphabeta("andantino", tt_mb=1, tempo=30, right=40)
    boards = andantino_boards(2000, seed=42)
    right_unused = 0
    for board in boards:
        t = learned.andantino_terms(board)
        right_unused += t[12] != 0
        state = native.state_of(board)
        for weights, engine in zip(weight_sets, engines, strict=True):
            expected = sum(w * x for w, x in zip(weights, t, strict=True))
            assert engine.evaluate(state) == expected, (board.position(), weights)
        # the hand-written weights as a learned set are the hand-written evaluation
        assert hand.evaluate(state) == engines[1].evaluate(state)
    assert 100 < right_unused < len(boards)  # the balance variant's right both ways


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


@pytest.mark.parametrize(("weights", "fragment"), [
    ([1] * 10, "eval_weights must be a list of 11 whole numbers"),
    ([1] * 10 + [-1], "an eval_weights weight must be 0 to 65536, not -1"),
    ([1, 6, 5, 160, 0, 0, 1, 4, 16, 60, 60], "Andantino's weights are 0 to 65536 and grow"),
])
def test_native_refuses_bad_andantino_weights(weights: Any, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        native.alphabeta("andantino", tt_mb=1, eval_weights=weights)
