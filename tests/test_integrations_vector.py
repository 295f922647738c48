"""The vector environments of hexgames.integrations.vector: N native games stepped at
once equal N Python boards under the Python encoding (and N one-game vectors) given the
same actions; same-step autoreset; rewards from the mover's point of view; seeding;
spaces; and the refusals of bad actions and bad buffers."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

from hexgames import IllegalMoveError, InvalidRulesError, abande, andantino, native  # noqa: E402
from hexgames.core import HexgamesError  # noqa: E402
from hexgames.integrations.encoding import AbandeEncoding, AndantinoEncoding  # noqa: E402
from hexgames.integrations.vector import AbandeVectorEnv, AndantinoVectorEnv  # noqa: E402

CASES = [
    (AndantinoVectorEnv, ()),
    (AndantinoVectorEnv, ("single_adjacency=on", "self_trap=illegal")),
    (AndantinoVectorEnv, ("extended=on", "tiles_per_player=4", "extended_move_limit=20")),
    # Observations through a window, updated in place as the window moves.
    (AndantinoVectorEnv, ("window=4",)),
    (AndantinoVectorEnv, ("single_adjacency=on", "tiles_per_player=8", "window=8")),
    (AndantinoVectorEnv, ("extended=on", "tiles_per_player=4", "extended_move_limit=20",
                          "window=2")),
    # The move-count plane last.
    (AndantinoVectorEnv, ("move_count=on",)),
    (AndantinoVectorEnv, ("extended=on", "tiles_per_player=3", "extended_move_limit=8",
                          "window=2", "move_count=on")),
    (AbandeVectorEnv, ()),
    (AbandeVectorEnv, ("max_height=2",)),
    (AbandeVectorEnv, ("max_height=4", "move_count=on")),
]


def _window(options: tuple[str, ...]) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The rules options of a case, and its ``window=W`` and ``move_count=on`` words as
    keywords."""
    rules = tuple(o for o in options if not o.startswith(("window=", "move_count=")))
    extra: dict[str, Any] = {}
    for word in options:
        if word.startswith("window="):
            extra["window"] = int(word.removeprefix("window="))
        elif word == "move_count=on":
            extra["move_count"] = True
    return rules, extra


class Reference:
    """N Python boards under the Python encoding, with same-step autoreset: what the
    vector environment must do."""

    def __init__(self, cls: Any, options: tuple[str, ...], n: int,
                 channels_first: bool) -> None:
        options, extra = _window(options)
        move_count = extra.get("move_count", False)
        if cls is AndantinoVectorEnv:
            self.enc: Any = AndantinoEncoding(andantino.Rules.from_options(options),
                                              extra.get("window"), move_count=move_count)
            self.new = lambda: andantino.Board(rules=self.enc.rules)
        else:
            self.enc = AbandeEncoding(abande.Rules.from_options(options),
                                      move_count=move_count)
            self.new = lambda: abande.Board(rules=self.enc.rules)
        self.channels_first = channels_first
        self.boards = [self.new() for _ in range(n)]

    def observations(self) -> Any:
        return np.stack([self.enc.observation(b, None, self.channels_first)
                         for b in self.boards])

    def masks(self) -> Any:
        return np.stack([self.enc.legal_mask(b) for b in self.boards])

    def step(self, actions: Any) -> tuple[Any, Any, dict[int, tuple[Any, int, int]]]:
        rewards = np.zeros(len(self.boards), np.float32)
        done = np.zeros(len(self.boards), np.bool_)
        finals: dict[int, tuple[Any, int, int]] = {}
        for i, action in enumerate(actions):
            board = self.boards[i]
            mover = board.turn
            board.push(self.enc.move_of(int(action)))
            if self.enc.is_over(board):
                outcome = board.outcome()
                winner = -1 if outcome is None or outcome.winner is None else outcome.winner
                rewards[i] = 0.0 if winner == -1 else (1.0 if winner == mover else -1.0)
                done[i] = True
                finals[i] = (self.enc.observation(board, None, self.channels_first),
                             winner, board.ply())
                self.boards[i] = self.new()
        return rewards, done, finals


@pytest.mark.parametrize("channels_first", [True, False], ids=["first", "last"])
@pytest.mark.parametrize("cls, options", CASES, ids=lambda c: getattr(c, "__name__", None)
                         or " ".join(c) or "standard")
def test_vector_env_equals_python_boards_and_single_envs(cls: Any, options: tuple[str, ...],
                                                         channels_first: bool) -> None:
    n = 4
    rules, extra = _window(options)
    env = cls(n, rules=rules, seed=5, channels_first=channels_first, **extra)
    singles = [cls(1, rules=rules, seed=i, channels_first=channels_first, **extra)
               for i in range(n)]
    ref = Reference(cls, options, n, channels_first)
    assert env.single_observation_space.shape == ref.enc.observation_shape(channels_first)
    obs, infos = env.reset()
    assert infos == {} and np.array_equal(obs, ref.observations())
    for single, row in zip(singles, obs, strict=True):
        assert np.array_equal(single.reset()[0][0], row)
    ended = 0
    for _ in range(400 if cls is AndantinoVectorEnv else 600):
        masks = env.action_masks()
        assert masks.dtype == np.int8 and np.array_equal(masks, ref.masks())
        assert np.array_equal(env.current_player, [b.turn for b in ref.boards])
        actions = env.sample_legal()
        assert all(masks[i, a] == 1 for i, a in enumerate(actions))
        obs, rewards, terminations, truncations, infos = env.step(actions)
        expected_rewards, expected_done, finals = ref.step(actions)
        assert np.array_equal(obs, ref.observations())
        assert rewards.dtype == np.float32 and np.array_equal(rewards, expected_rewards)
        assert terminations.dtype == np.bool_
        assert np.array_equal(terminations, expected_done) and not truncations.any()
        if finals:
            assert np.array_equal(infos["_final_obs"], expected_done)
            final_info = infos["final_info"]
            for i in range(n):
                if i in finals:
                    final_obs, winner, plies = finals[i]
                    assert np.array_equal(infos["final_obs"][i], final_obs)
                    assert final_info["winner"][i] == winner
                    assert final_info["plies"][i] == plies
                    assert not final_info["illegal"][i]
                else:
                    assert infos["final_obs"][i] is None
            ended += len(finals)
        else:
            assert infos == {}
        for i, single in enumerate(singles):
            row = single.step([actions[i]])
            assert np.array_equal(row[0][0], obs[i])
            assert (row[1][0], row[2][0]) == (rewards[i], terminations[i])
    assert ended >= 8


def test_same_step_autoreset_and_the_movers_reward() -> None:
    env = AbandeVectorEnv(3, seed=1)
    assert env.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert isinstance(env, gymnasium.vector.VectorEnv)
    start, _ = env.reset()
    start_masks = env.action_masks()
    for _ in range(1000):
        before = env.current_player
        obs, rewards, terminations, _, infos = env.step(env.sample_legal())
        if terminations.any():
            break
    else:
        raise AssertionError("no game ended")
    for i in np.flatnonzero(terminations):
        # The game ended and restarted in this step: the observation is the start's,
        # Black to move, and the final position is in the infos.
        assert np.array_equal(obs[i], start[i])
        assert env.current_player[i] == 0
        assert np.array_equal(env.action_masks()[i], start_masks[i])
        assert env.board(i).ply() == 0
        winner = infos["final_info"]["winner"][i]
        assert rewards[i] == (0.0 if winner == -1 else (1.0 if winner == before[i] else -1.0))
        assert not np.array_equal(infos["final_obs"][i], start[i])


def test_bad_actions_name_the_env_and_play_nothing() -> None:
    env = AndantinoVectorEnv(3, seed=2)
    env.reset()
    good = env.sample_legal()
    positions = [env.board(i).position() for i in range(3)]
    with pytest.raises(HexgamesError, match=r"^env 2: action 1951 is outside the action "
                                            r"space 0\.\.1950$"):
        env.step([good[0], good[1], 1951])
    with pytest.raises(HexgamesError, match="env 0: action -1 is outside"):
        env.step([-1, good[1], good[2]])
    with pytest.raises(IllegalMoveError, match=r"^env 1: action 0 is not legal: illegal "
                                               r"move 0,-25: 0,-25 touches 0 tile"):
        env.step([good[0], 0, good[2]])
    with pytest.raises(ValueError, match=r"actions must have shape \(3,\), one per env, not "
                                         r"\(2,\)"):
        env.step(good[:2])
    with pytest.raises(ValueError, match="actions must be integers, not of dtype float64"):
        env.step(good.astype(np.float64))
    with pytest.raises(ValueError, match="actions must be integers, not of dtype bool"):
        env.step(np.ones(3, np.bool_))
    with pytest.raises(ValueError, match="env 1: action 18446744073709551615 is outside"):
        env.step(np.array([0, 2**64 - 1, 0], np.uint64))
    assert [env.board(i).position() for i in range(3)] == positions
    assert env.step(good.astype(np.uint16))[0].shape == (3, 9, 51, 51)


def test_illegal_actions_may_lose_instead() -> None:
    env = AndantinoVectorEnv(2, seed=3, illegal_action="lose")
    env.reset()
    legal = env.sample_legal()
    _, rewards, terminations, _, infos = env.step([legal[0], 0])
    assert list(terminations) == [False, True] and list(rewards) == [0.0, -1.0]
    assert infos["final_info"]["illegal"][1] and infos["final_info"]["winner"][1] == 1
    assert infos["final_info"]["plies"][1] == 0
    assert env.board(0).ply() == 1 and env.board(1).ply() == 0
    with pytest.raises(HexgamesError, match="outside the action space"):
        env.step([legal[0], 5000])
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        AndantinoVectorEnv(2, illegal_action="ignore")


@pytest.mark.parametrize("seed", [-1, 1.5, True, "7"])
def test_a_bad_seed_is_refused_by_name(seed: Any) -> None:
    # Was: gymnasium's own error from the spaces (not a ValueError) for -1, at reset too.
    for env_class in (AndantinoVectorEnv, AbandeVectorEnv):
        with pytest.raises(HexgamesError, match="seed must be a whole number, 0 or more"):
            env_class(num_envs=2, seed=seed)
        env = env_class(num_envs=2, seed=3)
        with pytest.raises(HexgamesError, match="seed must be a whole number, 0 or more"):
            env.reset(seed=seed)
        env.reset(seed=4)  # still usable
        env.close()


def test_seeds_give_the_same_games() -> None:
    def games(seed: int | None, reseed: int | None = None) -> list[Any]:
        env = AbandeVectorEnv(4, seed=seed)
        env.reset(seed=reseed)
        out = []
        for _ in range(120):
            actions = env.sample_legal()
            out.append(actions)
            env.step(actions)
        out.append(env.step(env.sample_legal())[0])
        return out

    first, again = games(7), games(7)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    other = games(8)
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
    reseeded = games(8, reseed=7)
    assert all(np.array_equal(a, b) for a, b in zip(first, reseeded, strict=True))
    env = AbandeVectorEnv(4, seed=1)
    assert np.array_equal(env.sample_legal(11), env.sample_legal(11))
    rng = np.random.default_rng(3)
    drawn = env.sample_legal(rng)
    assert np.array_equal(drawn, env.sample_legal(np.random.default_rng(3)))
    assert games(None)[0].shape == (4,)


def test_spaces_shapes_and_copies() -> None:
    env = AndantinoVectorEnv(2, rules={"tiles_per_player": 10}, seed=1,
                             channels_first=False)
    assert env.num_envs == 2 and env.num_actions == 331
    assert env.single_action_space == gymnasium.spaces.Discrete(331)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([331, 331])
    assert env.single_observation_space.shape == (21, 21, 9)
    assert env.observation_space.shape == (2, 21, 21, 9)
    assert env.observation_space.dtype == np.float32
    obs, _ = env.reset()
    assert env.observation_space.contains(obs)
    assert env.action_masks().shape == (2, 331)
    assert env.rules == andantino.Rules(tiles_per_player=10)
    assert AndantinoVectorEnv(1, rules="tiles_per_player=10").rules == env.rules
    assert AndantinoVectorEnv(1, rules=env.rules).rules == env.rules
    assert repr(env) == "AndantinoVectorEnv(num_envs=2, rules='tiles_per_player=10')"
    shared = AbandeVectorEnv(2, seed=1, copy=False)
    first = shared.reset()[0]
    second = shared.step(shared.sample_legal())[0]
    assert first is second and shared.action_masks() is shared.action_masks()
    # Views of buffers the core updates in place: read-only.
    with pytest.raises(ValueError, match="read-only"):
        first[0, 0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="read-only"):
        shared.action_masks()[0, 0] = 1
    copied = AbandeVectorEnv(2, seed=1)
    assert copied.reset()[0] is not copied.step(copied.sample_legal())[0]
    copied.reset()
    assert copied.legal_actions(0) == list(range(37))
    with pytest.raises(ValueError, match=r"env index 2 is outside 0\.\.1"):
        copied.legal_actions(2)
    with pytest.raises(ValueError, match=r"env index -1 is outside 0\.\.1"):
        copied.board(-1)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="num_envs must be at least 1, not 0"):
        AbandeVectorEnv(0)
    with pytest.raises(TypeError):
        AbandeVectorEnv("3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="use fewer environments"):
        AndantinoVectorEnv(20_000)
    with pytest.raises(InvalidRulesError, match="unlimited tiles"):
        AndantinoVectorEnv(1, rules={"tiles_per_player": None})
    with pytest.raises(InvalidRulesError, match="unknown Abande rules option 'height'"):
        AbandeVectorEnv(1, rules={"height": 3})
    with pytest.raises(TypeError, match="rules must be Rules"):
        AbandeVectorEnv(1, rules=3)  # type: ignore[arg-type]


def test_the_core_refuses_bad_buffers() -> None:
    core = native.vector_core("abande", 3)
    n = 3

    def buffers() -> dict[str, Any]:
        return {"actions": np.zeros(n, np.int64), "rewards": np.zeros(n, np.float32),
                "terminations": np.zeros(n, np.uint8), "winners": np.zeros(n, np.int8),
                "illegal": np.zeros(n, np.uint8), "plies": np.zeros(n, np.uint32)}

    good = buffers()
    core.sample_legal(good["actions"])
    cases = [
        ("rewards", np.zeros(n, np.float64), "rewards must be a writable C-contiguous "
                                             "float32 array"),
        ("terminations", np.zeros(n, np.bool_), "terminations must be a writable "
                                                "C-contiguous uint8 array"),
        ("plies", np.zeros(4, np.uint32), r"plies has shape \(4,\), expected \(3,\)"),
        ("winners", "abc", "not a str"),
    ]
    for key, value, message in cases:
        args = {**good, key: value}
        with pytest.raises(ValueError, match=message):
            core.step(**args)
    shared = np.zeros(2 * n, np.uint8)
    with pytest.raises(ValueError, match="the buffers terminations and illegal share memory"):
        core.step(**{**good, "terminations": shared[:n], "illegal": shared[n - 1:2 * n - 1]})
    readonly = np.zeros((n, 260), np.int8)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="out is read-only"):
        core.masks(readonly)
    with pytest.raises(ValueError, match=r"observations has shape \(3, 7, 7, 12\), "
                                         r"expected \(3, 12, 7, 7\) or \(3, 588\)"):
        core.observe(np.zeros((n, 7, 7, 12), np.float32))
    with pytest.raises(ValueError, match="seed must be a whole number"):
        core.sample_legal(good["actions"], "x")
    assert core.step(**good) == 0  # the good buffers work
    assert (good["plies"] == 1).all()
