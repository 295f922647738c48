"""The PettingZoo AEC environments andantino_v0 and abande_v0."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from hexgames import IllegalMoveError  # noqa: E402
from hexgames.core import HexgamesError  # noqa: E402
from hexgames.integrations.pettingzoo import abande_v0, andantino_v0  # noqa: E402

ENVS = [andantino_v0, abande_v0]


# api_test advises a Box observation; a dict with an action mask is PettingZoo's own
# convention for board games (connect_four_v3 gets the same advice).
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pettingzoo_api_and_seed_tests(module: ModuleType) -> None:
    api_test(module.env(), num_cycles=200)
    api_test(module.env(render_mode="ansi"), num_cycles=20)
    seed_test(module.env, num_cycles=50)
    # The environment without PettingZoo's wrappers, the fast one, passes them too.
    api_test(module.raw_env(), num_cycles=200)
    seed_test(module.raw_env, num_cycles=50)


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_andantino_through_a_window() -> None:
    """``window=W``: the planes of the Python reference's window on every ply of random
    games, for both agents, wrapped or not, and PettingZoo's api_test."""
    api_test(andantino_v0.env(window=8), num_cycles=200)
    api_test(andantino_v0.raw_env(window=3), num_cycles=200)
    rng = random.Random(4)
    for options in ({"window": 4}, {"window": 5, "single_adjacency": True},
                    {"window": 2, "extended": True, "tiles_per_player": 4,
                     "extended_move_limit": 20}):
        env = andantino_v0.raw_env(**options)
        w = options["window"]
        assert env.observation_space("player_0")["observation"].shape == (
            2 * w + 1, 2 * w + 1, 12)
        enc = env.encoding
        assert enc.window == w
        for _ in range(2):
            env.reset()
            plies = 0
            for _agent in env.agent_iter():
                observation, _, termination, _, _ = env.last()
                for player in (0, 1):
                    expected = enc.observation(env.board, player, channels_first=False)
                    seen = env.observe(f"player_{player}")["observation"]
                    assert np.array_equal(seen, expected), (options, plies)
                if termination:
                    env.step(None)
                    continue
                env.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
                plies += 1
            assert plies > 2
    with pytest.raises(ValueError, match="window must be a whole number"):
        andantino_v0.env(window=26)


def _play(env, rng: random.Random) -> tuple[int, dict[str, float]]:
    """A random agent plays a full game with masked-legal actions; returns the plies and
    the final cumulative rewards."""
    env.reset(seed=rng.randrange(1000))
    raw = env.unwrapped
    plies = 0
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        assert not truncation
        if termination:
            assert env.legal_actions() == []
            env.step(None)
            continue
        assert agent == f"player_{int(raw.board.turn)}"
        mask = observation["action_mask"]
        other = "player_1" if agent == "player_0" else "player_0"
        assert env.observe(other)["action_mask"].sum() == 0
        legal = np.flatnonzero(mask)
        assert env.legal_actions() == legal.tolist()  # through the wrappers too
        moves = {raw.encoding.move_of(int(a)) for a in legal}
        assert moves <= set(raw.board.legal_moves) and len(moves) == len(legal) > 0
        if not getattr(raw.board.rules, "extended", False):
            assert len(moves) == len(raw.board.legal_moves)
        action = int(rng.choice(list(legal)))
        assert raw.board.is_legal(raw.encoding.move_of(action))
        env.step(action)
        plies += 1
    assert raw.board.ply() == plies
    return plies, totals


@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_random_agent_plays_full_games_with_masked_legal_actions(module: ModuleType) -> None:
    rng = random.Random(11)
    env = module.env()
    for _ in range(5):
        plies, totals = _play(env, rng)
        assert plies == env.unwrapped.board.ply() > 0
        board = env.unwrapped.board
        assert board.is_game_over()
        winner = board.outcome().winner
        expected = {"player_0": 0.0, "player_1": 0.0}
        if winner is not None:
            expected = {f"player_{winner}": 1.0, f"player_{1 - winner}": -1.0}
        assert totals == expected, (board.result(), totals)


def test_extended_play_with_few_tiles() -> None:
    env = andantino_v0.env(extended=True, tiles_per_player=4, extended_move_limit=20)
    space = env.action_space("player_0")
    assert space.n == 61 + 61 * 61  # the hexagon of radius 4
    rng = random.Random(5)
    for _ in range(5):
        _play(env, rng)


def test_observations_and_spaces() -> None:
    env = abande_v0.env()
    env.reset()
    space = env.observation_space("player_0")
    assert space["observation"].shape == (7, 7, 12)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (260,) and space["action_mask"].dtype == np.int8
    observation = env.observe("player_0")
    assert observation["observation"].shape == (7, 7, 12)
    assert observation["action_mask"].sum() == 37
    big = andantino_v0.env()
    big.reset()
    assert big.observation_space("player_1")["observation"].shape == (51, 51, 9)
    assert big.action_space("player_1").n == 1951
    mask = big.observe("player_0")["action_mask"]
    assert [big.unwrapped.encoding.move_of(int(a)).notation()
            for a in np.flatnonzero(mask)] == ["1,-1", "0,1"]


def test_illegal_action_ends_the_game_with_a_penalty() -> None:
    env = andantino_v0.env()
    env.reset()
    env.step(0)  # the cell 0,-25 is no legal placement
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1, "player_1": 0}
    raw = andantino_v0.raw_env()
    raw.reset()
    with pytest.raises(IllegalMoveError, match=r"^illegal move 0,-25: 0,-25 touches 0 tile"):
        raw.step(0)
    with pytest.raises(HexgamesError, match=r"action 1951 is outside 0\.\.1950"):
        raw.step(np.int64(1951))
    assert raw.board.ply() == 0 and raw.agent_selection == "player_0"
    assert not any(raw.terminations.values()) and raw.rewards == {"player_0": 0.0,
                                                                  "player_1": 0.0}


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unlimited tiles"):
        andantino_v0.env(tiles_per_player=None)
    with pytest.raises(ValueError, match="max_height"):
        abande_v0.env(max_height=0)
    with pytest.raises(ValueError, match="render_mode"):
        abande_v0.env(render_mode="human")
    # An unknown keyword is a ValueError naming it, not a TypeError from Rules.
    with pytest.raises(ValueError, match=r"unknown Abande rules option 'height' \(known: "):
        abande_v0.env(height=4)
    with pytest.raises(ValueError, match="unknown Andantino rules option 'single'"):
        andantino_v0.raw_env(single=True)
    with pytest.raises(ValueError, match="tiles_per_player of at least 2"):
        andantino_v0.env(extended=True, tiles_per_player=1)
    with pytest.raises(ValueError, match="self_trap"):
        andantino_v0.env(self_trap="sometimes")
    with pytest.raises(ValueError, match="tiles_per_player=100 and extended play"):
        andantino_v0.env(extended=True, tiles_per_player=100)
    assert andantino_v0.env(self_trap="illegal").unwrapped.board.rules.self_trap.value == "illegal"


def test_observe_names_an_unknown_agent() -> None:
    env = abande_v0.env()
    env.reset()
    with pytest.raises(ValueError, match="unknown agent 'player_2'"):
        env.observe("player_2")
    with pytest.raises(ValueError, match=r"unknown agent \['player_0'\]"):
        env.unwrapped.observe(["player_0"])


def test_render_modes() -> None:
    env = abande_v0.env(render_mode="ansi")
    env.reset()
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[18]))
    text = env.render()
    assert text == str(env.unwrapped.board) and "White to move" in text
    picture_env = abande_v0.env(render_mode="rgb_array")
    picture_env.reset()
    empty = picture_env.render()
    assert empty.dtype == np.uint8 and empty.ndim == 3 and empty.shape[2] == 3
    picture_env.step(18)  # Black enters on d4
    picture = picture_env.render()
    assert picture.shape == empty.shape and (picture != empty).any()
    andantino_picture = andantino_v0.env(render_mode="rgb_array")
    andantino_picture.reset()
    image = andantino_picture.render()
    # Both set-up tiles are drawn: some pixels white-ish, some red.
    assert ((image == (196, 34, 40)).all(axis=2)).any()
    assert ((image == (248, 246, 238)).all(axis=2)).any()
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert andantino_v0.env().unwrapped.render() is None


@pytest.mark.parametrize("copier", ["deepcopy", "pickle"])
@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_copies_keep_the_game_and_play_on_independently(module: ModuleType,
                                                        copier: str) -> None:
    # EzPickle alone restores a new game at the start; a tree search that copies the
    # environment needs the position, and a copy that plays on by itself.
    import copy
    import pickle

    rng = random.Random(4)
    env = module.env(render_mode="ansi")
    env.reset()
    for _ in range(6):
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    twin = copy.deepcopy(env) if copier == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert twin.unwrapped.board == env.unwrapped.board and twin.render() == env.render()
    assert twin.agent_selection == env.agent_selection
    for agent in env.possible_agents:
        mine, theirs = env.observe(agent), twin.observe(agent)
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
    # The twin plays a game to its end (moves given as the encoding's Move objects);
    # the original has not moved.
    position = env.unwrapped.board.position()
    plies = _play_on(twin, rng)
    assert plies > 0 and twin.unwrapped.board.is_game_over()
    assert env.unwrapped.board.position() == position


def _play_on(env, rng: random.Random) -> int:
    """Random masked-legal actions from where ``env`` stands to the end; the plies."""
    plies = 0
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        plies += 1
    return plies


@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_the_loop_runs_on_the_native_state(module: ModuleType,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # env.last(), masked sampling and env.step never make a hexgames board; reading
    # raw_env.board builds one equal to the position (and its moves).
    from hexgames.integrations import _boards

    built: list[int] = []
    original = _boards.LazyBoard.board
    monkeypatch.setattr(_boards.LazyBoard, "board",
                        lambda self, moves: built.append(len(moves)) or original(self, moves))
    env = module.env()
    env.reset(seed=1)
    for agent in env.possible_agents:
        env.action_space(agent).seed(3)
    plies = 0
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        env.step(env.action_space(agent).sample(observation["action_mask"]))
        plies += 1
    assert built == []
    board = env.unwrapped.board
    assert built == [plies] and board.ply() == plies and board.is_game_over()
    assert board.position() == env.unwrapped._state.position()


@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_observations_are_new_arrays_that_later_steps_leave_alone(module: ModuleType) -> None:
    # Users keep observations (replay buffers): each call returns arrays of its own,
    # writable, which neither a second call nor the following steps write into.
    env = module.raw_env()
    rng = random.Random(2)
    kept: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for agent in env.agent_iter():
        observation, _, termination, _, _ = env.last()
        again = env.observe(agent)
        assert again["observation"] is not observation["observation"]
        assert again["action_mask"] is not observation["action_mask"]
        assert observation["observation"].flags.writeable
        kept.append((observation, {key: value.copy() for key, value in observation.items()}))
        env.step(None if termination else rng.choice(env.legal_actions()))
    assert len(kept) > 10
    for seen, copied in kept:
        for key in seen:
            assert np.array_equal(seen[key], copied[key])


@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_agent_iter_and_reset(module: ModuleType) -> None:
    env = module.raw_env()
    turns = env.agent_iter(3)
    # Each iteration starts again (as PettingZoo's), up to max_iter turns.
    assert list(turns) == list(turns) == ["player_0"] * 3
    rng = random.Random(3)
    for _ in range(2):  # a game, then one after reset: the same start, the same rules
        env.reset()
        assert env.board.ply() == 0 and env.agents == ["player_0", "player_1"]
        assert env.rewards == env._cumulative_rewards == {"player_0": 0.0, "player_1": 0.0}
        first = env.observe("player_0")["observation"]
        for _agent in env.agent_iter():
            _, _, termination, _, _ = env.last()
            env.step(None if termination else rng.choice(env.legal_actions()))
        assert env.agents == [] and env.board.is_game_over()
        assert list(env.agent_iter()) == []
    env.reset()
    assert np.array_equal(env.observe("player_0")["observation"], first)
    odd = andantino_v0.raw_env(single_adjacency=True, tiles_per_player=6)
    odd.step(odd.legal_actions()[0])
    odd.reset()
    assert odd.board.ply() == 0 and odd.board.rules.single_adjacency
    assert odd.action_space("player_0").n == 127


@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_an_action_that_is_no_whole_number_is_refused_not_rounded(module: ModuleType) -> None:
    env = module.raw_env()
    legal = env.legal_actions()[0]
    # A float, a string, a bool or None is never rounded or parsed into an action (3.7
    # played action 3 and "925" played 925); numpy's whole numbers are actions.
    for bad in (float(legal), legal + 0.7, str(legal), True, None, [legal],
                np.array([legal]), np.float32(legal)):
        with pytest.raises(HexgamesError, match=r"^action must be a whole number, not "):
            env.step(bad)
        assert env.board.ply() == 0 and env.agent_selection == "player_0"
    env.step(np.int32(legal))
    assert env.board.ply() == 1


@pytest.mark.parametrize("module", ENVS, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_after_the_end_observe_works_and_a_step_is_refused(module: ModuleType) -> None:
    env = module.raw_env()
    rng = random.Random(4)
    for _agent in env.agent_iter():
        _, _, termination, _, _ = env.last()
        env.step(None if termination else rng.choice(env.legal_actions()))
    assert env.agents == []
    # Both agents observe the final position (the last one selected had its
    # termination removed: a KeyError before), with an empty mask.
    for agent in ("player_0", "player_1"):
        observed = env.observe(agent)
        assert observed["action_mask"].sum() == 0 and observed["observation"].any()
    for action in (None, 0):
        with pytest.raises(HexgamesError, match=r"^the game is over and every agent is "
                                                r"done: reset\(\) starts a new one"):
            env.step(action)
    env.reset()
    assert env.board.ply() == 0 and env.legal_actions()
