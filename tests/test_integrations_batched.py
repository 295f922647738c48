"""The Pgx-style batched environments (:mod:`hexgames.integrations.batched`) against
Python boards and the Python encoding, the reference: on every step of random games
the observation, the legal-action mask, the player to move, the rewards of both players,
terminations with auto-reset and the step count. And illegal actions, stale states and
bad input."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from hexgames import IllegalMoveError, abande, andantino  # noqa: E402
from hexgames.core import HexgamesError  # noqa: E402
from hexgames.integrations.batched import Env, make  # noqa: E402
from hexgames.integrations.encoding import AbandeEncoding, AndantinoEncoding  # noqa: E402

CASES = [
    ("andantino", ("tiles_per_player=5",)),
    ("andantino", ("tiles_per_player=7", "window=2")),
    ("andantino", ("single_adjacency=on", "self_trap=illegal", "tiles_per_player=6")),
    ("andantino", ("extended=on", "tiles_per_player=3", "extended_move_limit=10")),
    ("abande", ()),
    ("abande", ("max_height=2",)),
]


def _reference(game: str, options: tuple[str, ...]) -> tuple[Any, Any]:
    if game == "andantino":
        words = [o for o in options if not o.startswith("window=")]
        windows = [int(o.removeprefix("window=")) for o in options if o not in words]
        rules = andantino.Rules.from_options(words)
        return (AndantinoEncoding(rules, *windows), lambda: andantino.Board(rules=rules))
    rules_ = abande.Rules.from_options(options)
    return AbandeEncoding(rules_), lambda: abande.Board(rules=rules_)


@pytest.mark.parametrize(("game", "options"), CASES, ids=lambda c: c if isinstance(c, str)
                         else " ".join(c) or "standard")
@pytest.mark.parametrize("channels_first", [True, False])
def test_every_step_equals_the_python_reference(game: str, options: tuple[str, ...],
                                                channels_first: bool) -> None:
    enc, new_board = _reference(game, options)
    words = [o for o in options if not o.startswith("window=")]
    window = getattr(enc, "window", None)
    env = make(game, words, channels_first=channels_first, window=window)
    n = 6
    state = env.init(np.arange(n))
    boards = [new_board() for _ in range(n)]
    rng = random.Random(11)
    ended = 0
    for _ in range(120):
        for i, board in enumerate(boards):
            assert np.array_equal(state.observation[i],
                                  enc.observation(board, channels_first=channels_first))
            assert np.array_equal(state.legal_action_mask[i], enc.legal_mask(board) == 1)
            assert state.current_player[i] == board.turn
            assert state.step_count[i] == board.ply()
        if window is not None:
            assert [tuple(c) for c in state.window_centre.tolist()] == [
                enc.window_centre(b) for b in boards]
            # The window's legal squares are legal actions through window_actions.
            actions = enc.window_actions(state.window_centre)
            legal = state.observation[:, 2] if channels_first else state.observation[..., 2]
            for i in range(n):
                marked = actions[i][legal[i] == 1]
                assert len(marked) and (marked >= 0).all()
                assert state.legal_action_mask[i, marked].all()
        else:
            assert state.window_centre is None
        assert state.legal_action_mask.dtype == np.bool_
        assert not state.truncated.any()
        actions = np.array([rng.choice(enc.legal_actions(b)) for b in boards], np.int64)
        state = env.step(state, actions)
        for i, board in enumerate(boards):
            mover = board.turn
            board.push(enc.move_of(int(actions[i])))
            over = enc.is_over(board)
            assert state.terminated[i] == over
            expected = enc.returns(board) if over else (0.0, 0.0)
            assert tuple(state.rewards[i].tolist()) == expected, (i, mover)
            if over:
                ended += 1
                boards[i] = new_board()
    assert ended >= n


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_an_illegal_action_loses_and_restarts_the_game(game: str) -> None:
    env = make(game)
    state = env.init(np.zeros((3, 2), np.uint32))  # Pgx's keys
    legal = env.random_actions(state)
    illegal = int(np.flatnonzero(~state.legal_action_mask[1])[0])
    actions = legal.copy()
    actions[1] = illegal
    state = env.step(state, actions)
    assert state.terminated.tolist() == [False, True, False]
    assert state.rewards[1].tolist() == [-1.0, 1.0]  # the first player moved and lost
    assert state.rewards[[0, 2]].tolist() == [[0.0, 0.0], [0.0, 0.0]]
    assert state.step_count.tolist() == [1, 0, 1]
    assert state.current_player.tolist() == [1, 0, 1]


def test_illegal_action_raise_plays_nothing() -> None:
    env = make("abande", illegal_action="raise")
    state = env.init(np.arange(2))
    before = state.copy()
    with pytest.raises(IllegalMoveError, match=r"env 0: action 259 is not legal"):
        env.step(state, np.array([259, 0]))  # passing at the start is illegal
    assert np.array_equal(state.observation, before.observation)
    state = env.step(state, np.array([0, 0]))
    assert state.step_count.tolist() == [1, 1]


def test_init_again_restarts_every_game() -> None:
    env = make("andantino", "tiles_per_player=4")
    state = env.init(np.arange(4))
    start = state.copy()
    for _ in range(3):
        state = env.step(state, env.random_actions(state))
    assert not np.array_equal(state.observation, start.observation)
    state = env.init(np.arange(4))
    assert np.array_equal(state.observation, start.observation)
    assert state.step_count.tolist() == [0, 0, 0, 0]
    assert state.rewards.tolist() == [[0.0, 0.0]] * 4


def test_bad_input_is_a_value_error_naming_it() -> None:
    env = make("abande")
    state = env.init(np.arange(2))
    with pytest.raises(HexgamesError, match=r"env 1: action 260 is outside the action space"):
        env.step(state, np.array([0, 260]))
    with pytest.raises(ValueError, match=r"actions must have shape \(2,\)"):
        env.step(state, np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="actions must be integers"):
        env.step(state, np.array([0.0, 1.0]))
    old = state
    state = env.step(state, np.array([0, 1]))
    with pytest.raises(ValueError, match="latest state of this environment"):
        env.step(old, np.array([2, 3]))
    with pytest.raises(ValueError, match="latest state of this environment"):
        env.step(state.copy(), np.array([2, 3]))
    with pytest.raises(ValueError, match="latest state of this environment"):
        make("abande").step(state, np.array([2, 3]))
    with pytest.raises(ValueError, match=r"keys must be an integer array.*shape \(\)"):
        env.init(np.int64(3))
    with pytest.raises(ValueError, match="dtype float64"):
        env.init(np.zeros(3))
    with pytest.raises(ValueError, match="unknown game 'go'"):
        Env("go")
    with pytest.raises(ValueError, match="illegal_action"):
        make("abande", illegal_action="ignore")
    with pytest.raises(ValueError, match="window is an Andantino option"):
        make("abande", window=2)
    with pytest.raises(ValueError, match=r"window must be a whole number from 1 to "
                                         r"tiles_per_player \(25\), not 26"):
        make("andantino", window=26)
