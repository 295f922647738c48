"""The native encoders (``hexgames._native.AndantinoEncoder`` / ``AbandeEncoder``)
against the Python reference, :mod:`hexgames.integrations.encoding`, on every ply of
random games: legal actions, masks, observations (both layouts, both points of view),
notation both ways, the end and its returns. And their refusals: bad actions, bad
buffers, states of other rules."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from test_integrations_encoding import _grow_strip  # noqa: E402

from hexgames import IllegalMoveError, InvalidRulesError, abande, andantino, native  # noqa: E402
from hexgames.core import HexgamesError, InvalidMoveError  # noqa: E402
from hexgames.hexgrid import distance  # noqa: E402
from hexgames.integrations.encoding import AbandeEncoding, AndantinoEncoding  # noqa: E402

ANDANTINO_RULES = [
    (),
    ("single_adjacency=on", "self_trap=illegal"),
    ("self_trap=ignore", "tiles_per_player=8"),
    ("tiles_per_player=5",),
    ("extended=on", "tiles_per_player=4", "extended_move_limit=40"),
    ("extended=on", "tiles_per_player=3", "extended_move_limit=25", "self_trap=ignore",
     "single_adjacency=on"),
]
ABANDE_RULES = [(), ("max_height=4",), ("max_height=1",), ("max_height=2",)]


def _python_encoding(game: str, options: tuple[str, ...]) -> Any:
    if game == "andantino":
        return AndantinoEncoding(andantino.Rules.from_options(options))
    return AbandeEncoding(abande.Rules.from_options(options))


def _outward(board: andantino.Board, actions: list[int], enc: AndantinoEncoding,
             rng: random.Random) -> int:
    """An action as far from the origin as possible (games that reach the rim)."""
    far = max(distance(enc.move_of(a).to, (0, 0)) for a in actions)
    return rng.choice([a for a in actions if distance(enc.move_of(a).to, (0, 0)) == far])


def _compare_ply(enc: Any, py: Any, state: Any, board: Any) -> list[int]:
    """Assert that the native and Python encodings agree on this position; return the
    legal actions."""
    legal = enc.legal_actions(state)
    assert legal == py.legal_actions(board)
    mask = np.full(enc.num_actions, 7, np.int8)
    enc.legal_mask(state, mask)
    assert np.array_equal(mask, py.legal_mask(board))
    for channels_first in (True, False):
        shape = enc.observation_shape(channels_first)
        assert shape == py.observation_shape(channels_first)
        for player in (0, 1):
            out = np.full(shape, -1.0, np.float32)
            enc.observe(state, out, player, channels_first)
            expected = py.observation(board, player, channels_first)
            assert out.dtype == expected.dtype
            assert np.array_equal(out, expected), (board.position(), player, channels_first)
            # The one-call form: the same observation, and the mask only when asked for.
            both = np.full(shape, -1.0, np.float32)
            flags = np.full(enc.num_actions, 7, np.int8)
            to_move = player == state.turn
            count = enc.observe_and_mask(state, both, flags, player, to_move, channels_first)
            assert np.array_equal(both, expected)
            if to_move:
                assert count == len(legal) and np.array_equal(flags, mask)
            else:
                assert count == 0 and not flags.any()
    side = np.full(enc.observation_shape(), -1.0, np.float32).ravel()
    enc.observe(state, side)  # flat, the side to move
    assert np.array_equal(side, py.observation(board).ravel())
    assert enc.is_over(state) == py.is_over(board)
    assert enc.returns(state) == py.returns(board)
    for action in legal[:5] + legal[-5:]:
        text = enc.notation(action)
        assert text == py.move_of(action).notation()
        assert enc.action_of(text) == action
    return legal


@pytest.mark.parametrize("options", ANDANTINO_RULES, ids=" ".join)
def test_andantino_native_encoding_equals_python_on_every_ply(options: tuple[str, ...]) -> None:
    rng = random.Random(hash(options) % 1000)
    enc = native.encoder("andantino", options)
    py = _python_encoding("andantino", options)
    assert (enc.num_actions, enc.num_planes, enc.radius, enc.num_cells) == (
        py.num_actions, py.num_planes, py.radius, py.num_cells)
    extended = "extended=on" in options
    games = 20 if extended else 40
    plies = relocations = 0
    for number in range(games):
        state = native.state_class("andantino")(None, options)
        board = andantino.Board(rules=py.rules)
        while True:
            legal = _compare_ply(enc, py, state, board)
            if not legal:
                break
            outward = number % 3 == 2
            action = _outward(board, legal, py, rng) if outward else rng.choice(legal)
            over = enc.play_action(state, action)
            board.push(py.move_of(action))
            assert state.position() == board.position() and over == py.is_over(board)
            plies += 1
            relocations += action >= enc.num_cells
        assert enc.moves(state) == [m.notation() for m in board.move_stack]
    assert plies > 5 * games
    assert (relocations > 10 * games) == extended


WINDOWS = [
    (("tiles_per_player=8",), 3),
    ((), 8),
    (("single_adjacency=on", "self_trap=illegal", "tiles_per_player=6"), 2),
    (("extended=on", "tiles_per_player=4", "extended_move_limit=40"), 2),
    (("extended=on", "tiles_per_player=3", "extended_move_limit=25", "self_trap=ignore",
      "single_adjacency=on"), 1),
]


@pytest.mark.parametrize(("options", "window"), WINDOWS,
                         ids=[f"{' '.join(o)} window={w}" for o, w in WINDOWS])
def test_andantino_window_native_equals_python_on_every_ply(options: tuple[str, ...],
                                                            window: int) -> None:
    rng = random.Random(window)
    enc = native.encoder("andantino", (*options, f"window={window}"))
    py = AndantinoEncoding(andantino.Rules.from_options(options), window=window)
    assert enc.observation_shape() == (12, 2 * window + 1, 2 * window + 1)
    assert (enc.num_actions, enc.num_planes, enc.radius) == (
        py.num_actions, py.num_planes, py.radius)
    outside = 0.0
    for number in range(8):
        state = native.state_class("andantino")(None, options)
        board = andantino.Board(rules=py.rules)
        while True:
            legal = _compare_ply(enc, py, state, board)
            obs = py.observation(board)
            outside += float(obs[9:, window, window].sum())
            # The window's legal plane names legal placements through window_actions.
            marked = py.window_actions(py.window_centre(board))[obs[2] == 1]
            assert (marked >= 0).all()
            assert {py.cells[a] for a in marked.tolist()} <= {
                py.move_of(a).to for a in legal}
            if not legal:
                break
            outward = number % 2 == 1
            action = _outward(board, legal, py, rng) if outward else rng.choice(legal)
            enc.push_action(state, action)
            board.push(py.move_of(action))
    assert outside > 0  # the games reached beyond the window


def test_window_arguments_are_checked() -> None:
    for window in (0, 9, True, 2.5):
        with pytest.raises(ValueError, match=r"window must be a whole number from 1 to "
                                             r"tiles_per_player \(8\)"):
            AndantinoEncoding(andantino.Rules(tiles_per_player=8), window=window)  # type: ignore[arg-type]
    for word in ("window=0", "window=9", "window=x"):
        with pytest.raises(ValueError, match="window must be a whole number from 1 to "
                                             "tiles_per_player"):
            native.encoder("andantino", ("tiles_per_player=8", word))
    with pytest.raises(ValueError, match="window_actions needs an encoding with a window"):
        AndantinoEncoding().window_actions((0, 0))
    with pytest.raises(ValueError, match=r"centres must be integer \(q, r\) pairs"):
        AndantinoEncoding(window=3).window_actions(np.zeros((2, 3), np.int64))
    core = native.vector_core("andantino", 2, ())
    with pytest.raises(ValueError, match=r"window_centres needs Andantino games observed "
                                         r"through a window"):
        core.window_centres(np.zeros((2, 2), np.int32))
    core = native.vector_core("andantino", 2, ("window=3",))
    with pytest.raises(ValueError, match=r"out must be a writable C-contiguous int32 array "
                                         r"of shape \(2, 2\)"):
        core.window_centres(np.zeros((2, 2), np.int64))


@pytest.mark.parametrize("options", ABANDE_RULES, ids=" ".join)
def test_abande_native_encoding_equals_python_on_every_ply(options: tuple[str, ...]) -> None:
    rng = random.Random(len(options) + 17)
    enc = native.encoder("abande", options)
    py = _python_encoding("abande", options)
    assert (enc.num_actions, enc.num_planes) == (py.num_actions, py.num_planes)
    for _ in range(20):
        state = native.state_class("abande")(None, options)
        board = abande.Board(rules=py.rules)
        while True:
            legal = _compare_ply(enc, py, state, board)
            if not legal:
                break
            action = rng.choice(legal)
            enc.push_action(state, action)
            board.push(py.move_of(action))
        assert board.is_game_over()


def test_every_action_names_the_python_move() -> None:
    for game, options in (("abande", ()), ("andantino", ("extended=on", "tiles_per_player=3"))):
        enc = native.encoder(game, options)
        py = _python_encoding(game, options)
        for action in range(enc.num_actions):
            try:
                expected = py.move_of(action).notation()
            except ValueError as error:
                with pytest.raises(HexgamesError) as caught:
                    enc.notation(action)
                assert str(caught.value) == str(error)
                continue
            assert enc.notation(action) == expected
            assert enc.action_of(expected) == action


@pytest.mark.parametrize("reverse", [False, True])
def test_a_game_to_the_rim_of_the_standard_hexagon(reverse: bool) -> None:
    # The game grown as fast as the rules allow (its last tile at distance 25, on the
    # rim), every ply compared.
    board = andantino.Board()
    assert _grow_strip(board, 1, reverse)
    enc = native.encoder("andantino")
    py = AndantinoEncoding()
    state = native.state_class("andantino")()
    replay = andantino.Board()
    for move in board.move_stack:
        _compare_ply(enc, py, state, replay)
        enc.push_action(state, py.action_of(move))
        replay.push(move)
    assert _compare_ply(enc, py, state, replay) == []
    assert max(distance(c, (0, 0)) for color in (0, 1) for c in replay.tiles(color)) == 25


# --- refusals ---------------------------------------------------------------------------

def test_bad_actions_are_value_errors_naming_them() -> None:
    enc = native.encoder("andantino")
    state = native.state_class("andantino")()
    with pytest.raises(IllegalMoveError, match=r"^illegal move 0,-25: 0,-25 touches 0 tile"):
        enc.push_action(state, 0)
    for bad in (-1, 1951, 2**70, np.int64(5000)):
        with pytest.raises(HexgamesError, match=r"action -?\d+ is outside 0\.\.1950"):
            enc.push_action(state, bad)
    with pytest.raises(HexgamesError, match=r"action must be a whole number, not 1\.5"):
        enc.push_action(state, 1.5)
    # play_action refuses as push_action does.
    with pytest.raises(IllegalMoveError, match=r"^illegal move 0,-25: 0,-25 touches 0 tile"):
        enc.play_action(state, 0)
    with pytest.raises(HexgamesError, match=r"action 1951 is outside 0\.\.1950"):
        enc.play_action(state, 1951)
    assert state.ply == 0 and enc.legal_actions(state) == py_start_actions()
    abande_enc = native.encoder("abande")
    with pytest.raises(HexgamesError, match="action 42 names no Abande move"):
        abande_enc.notation(42)
    with pytest.raises(InvalidMoveError):
        enc.action_of("nonsense")
    with pytest.raises(HexgamesError, match="leaves the hexagon of radius 25"):
        enc.action_of("30,0")
    with pytest.raises(InvalidMoveError, match="a move is text"):
        enc.action_of(3)


def py_start_actions() -> list[int]:
    return AndantinoEncoding().legal_actions(andantino.Board())


def test_bad_buffers_are_value_errors_naming_the_problem() -> None:
    enc = native.encoder("abande")
    state = native.state_class("abande")()
    good = np.zeros((12, 7, 7), np.float32)
    cases = [
        (np.zeros((12, 7, 7)), r"out must be a writable C-contiguous float32 array of "
                               r"shape \(12, 7, 7\) or \(588,\), not an array of dtype "
                               r"float64 and shape \(12, 7, 7\)"),
        ([0.0] * 588, "not a list"),
        (np.zeros((7, 7, 12), np.float32), r"out has shape \(7, 7, 12\), expected "
                                           r"\(12, 7, 7\) or \(588,\)"),
        (np.zeros((12, 7, 14), np.float32)[:, :, ::2], "is not C-contiguous"),
    ]
    readonly = good.copy()
    readonly.flags.writeable = False
    cases.append((readonly, "out is read-only"))
    for out, message in cases:
        with pytest.raises(ValueError, match=message):
            enc.observe(state, out)
    with pytest.raises(ValueError, match=r"player must be 0, 1 or None \(the side to move\), "
                                         r"not 2"):
        enc.observe(state, good, 2)
    with pytest.raises(ValueError, match="int8 array of shape"):
        enc.legal_mask(state, np.zeros(260, np.int64))
    with pytest.raises(ValueError, match=r"expected \(260,\)"):
        enc.legal_mask(state, np.zeros(259, np.int8))
    mask = np.zeros(260, np.int8)
    with pytest.raises(ValueError, match=r"^mask must be a writable C-contiguous int8 array"):
        enc.observe_and_mask(state, good, np.zeros(260, np.int64))
    with pytest.raises(ValueError, match=r"^mask has shape \(259,\), expected \(260,\)"):
        enc.observe_and_mask(state, good, np.zeros(259, np.int8))
    with pytest.raises(ValueError, match=r"^observation has shape \(7, 7, 12\)"):
        enc.observe_and_mask(state, np.zeros((7, 7, 12), np.float32), mask)
    with pytest.raises(ValueError, match="the buffers observation and mask share memory"):
        enc.observe_and_mask(state, good, good.reshape(-1).view(np.int8)[:260])
    tall = native.state_class("abande")(None, ["max_height=4"])
    with pytest.raises(ValueError, match="the state is played under max_height=4, the "
                                         "encoder under the standard rules"):
        enc.legal_actions(tall)
    with pytest.raises(TypeError):
        enc.legal_actions(native.state_class("andantino")())


def test_encoders_refuse_rules_as_the_python_encoding() -> None:
    for options in (["tiles_per_player=none"], ["extended=on", "tiles_per_player=100"],
                    ["extended=on", "tiles_per_player=1"], ["tiles_per_player=683"]):
        with pytest.raises(ValueError) as python_error:
            AndantinoEncoding(andantino.Rules.from_options(options))
        with pytest.raises(InvalidRulesError) as native_error:
            native.encoder("andantino", options)
        assert str(native_error.value) == str(python_error.value)
    with pytest.raises(InvalidRulesError, match="max_height must be from 1 to 36"):
        native.encoder("abande", ["max_height=0"])
    with pytest.raises(InvalidRulesError, match="is not text"):
        native.encoder("abande", [3])
