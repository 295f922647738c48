"""The OpenSpiel games python_andantino and python_abande.

OpenSpiel is native code: a crash there must fail one test, not end the run. So each
test runs one check of this file in a fresh interpreter (``python this_file CHECK``)
and asserts that it printed ``OK``.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Callable

import pytest

CHECKS: dict[str, Callable[[], None]] = {}


def check(function: Callable[[], None]) -> Callable[[], None]:
    CHECKS[function.__name__] = function
    return function


def _run(name: str) -> None:
    result = subprocess.run([sys.executable, __file__, name], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0 and result.stdout.strip().endswith("OK"), (
        f"check {name} exited {result.returncode}\n{result.stdout}\n{result.stderr}")


# --- the checks, run in a subprocess ------------------------------------------------

VARIANTS = [
    ("python_andantino", {}),
    ("python_andantino", {"single_adjacency": True, "self_trap": "illegal"}),
    ("python_andantino", {"extended": True, "tiles_per_player": 4,
                          "extended_move_limit": 30}),
    ("python_abande", {}),
    ("python_abande", {"max_height": 4}),
]


@check
def random_sim() -> None:
    """OpenSpiel's own random-simulation test, with serialization, on every variant."""
    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401

    for name, params in VARIANTS:
        game = pyspiel.load_game(name, params)
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@check
def legal_actions_answered_in_python() -> None:
    """``legal_actions`` answered by the state itself equals OpenSpiel's own method (the
    C++ route through ``_legal_actions``) for every player and pseudo-player, on every
    ply of random games of every variant, and hands out a list of its own."""
    import random

    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401

    rng = random.Random(3)
    for name, params in VARIANTS:
        game = pyspiel.load_game(name, params)
        for _ in range(3):
            state = game.new_initial_state()
            while True:
                for player in (None, 0, 1, True, False):
                    args = () if player is None else (player,)
                    assert state.legal_actions(*args) == pyspiel.State.legal_actions(
                        state, *args), (name, player, state.history())
                for pseudo in (-1, -4):  # chance and terminal: OpenSpiel's answer
                    if state.is_terminal():
                        assert state.legal_actions(pseudo) == pyspiel.State.legal_actions(
                            state, pseudo) == []
                    else:
                        with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
                            state.legal_actions(pseudo)
                with pytest.raises(TypeError):
                    state.legal_actions(1.5)
                legal = state.legal_actions()
                assert legal == [a for a, m in enumerate(state.legal_actions_mask()) if m]
                if state.is_terminal():
                    assert legal == []
                    break
                legal.append(-7)  # the caller's list: the state's stays as it was
                assert -7 not in state.legal_actions()
                state.apply_action(rng.choice(state.legal_actions()))


@check
def state_interface() -> None:
    """Legal actions, apply, clone, serialization, returns, tensors and strings."""
    import random

    import numpy as np
    import pyspiel

    from hexgames.integrations.openspiel import AbandeGame, AndantinoGame

    rng = random.Random(1)
    for name, params in VARIANTS:
        game = pyspiel.load_game(name, params)
        assert isinstance(game, AndantinoGame | AbandeGame)
        enc = game.encoding
        assert game.num_distinct_actions() == enc.num_actions
        assert game.observation_tensor_shape() == list(enc.observation_shape())
        assert game.information_state_tensor_shape() == list(enc.observation_shape())
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                player = state.current_player()
                assert player == int(state.board.turn)
                legal = state.legal_actions()
                assert legal and legal == sorted(legal)
                assert legal == enc.legal_actions(state.board)
                mask = state.legal_actions_mask()
                assert sum(mask) == len(legal)
                tensor = state.observation_tensor(player)
                assert type(tensor) is list and type(tensor[0]) is float
                assert np.array_equal(np.asarray(tensor),
                                      enc.observation(state.board, player).ravel())
                assert state.information_state_tensor(player) == tensor
                assert state.observation_tensor() == tensor
                assert state.information_state_string(player).startswith(
                    state.board.root().position())
                assert state.observation_string(player) == state.board.position()
                action = rng.choice(legal)
                text = state.action_to_string(player, action)
                assert text == enc.move_of(action).notation()
                clone = state.clone()
                state.apply_action(action)
                assert clone.history() == state.history()[:-1]
                assert clone.board.position() != state.board.position()
                clone.apply_action(action)
                assert str(clone) == str(state) == str(state.board)
                ser = pyspiel.serialize_game_and_state(game, state)
                _, back = pyspiel.deserialize_game_and_state(ser)
                assert back.history() == state.history()
            # OpenSpiel's own refusals: no player to move, or no such player.
            for bad in ((), (2,), (-1,)):
                with pytest.raises(pyspiel.SpielError, match="player"):
                    state.observation_tensor(*bad)
                with pytest.raises(pyspiel.SpielError, match="player"):
                    state.information_state_tensor(*bad)
                assert back.board.position() == state.board.position()
                assert pickle.loads(pickle.dumps(state)).history() == state.history()
            returns = state.returns()
            assert sum(returns) == 0 and returns in ([1, -1], [-1, 1], [0, 0])
            assert state.current_player() == pyspiel.PlayerId.TERMINAL
            assert state.legal_actions() == []
            winner = state.board.outcome().winner if state.board.outcome() else None
            assert returns == ([0, 0] if winner is None else
                               ([1, -1] if winner == 0 else [-1, 1]))


@check
def parameters() -> None:
    """Game parameters are the rules options; bad values are refused."""
    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401

    game = pyspiel.load_game("python_andantino(tiles_per_player=10,extended=True)")
    assert game.rules.tiles_per_player == 10 and game.rules.extended
    assert game.num_distinct_actions() == 331 + 331 * 331
    assert game.max_game_length() == 18 + 200
    assert pyspiel.load_game("python_andantino").max_game_length() == 48
    assert pyspiel.load_game("python_abande").num_distinct_actions() == 260
    assert pyspiel.load_game("python_abande").get_type().short_name == "python_abande"
    for name, params in (("python_andantino", {"self_trap": "sometimes"}),
                         ("python_abande", {"max_height": 0})):
        try:
            pyspiel.load_game(name, params)
        except (ValueError, pyspiel.SpielError) as error:
            assert "self_trap" in str(error) or "max_height" in str(error), error
        else:
            raise AssertionError(f"{name} {params} was accepted")
    # One game, one name: parameters are kept as the rules read them.
    shouted = pyspiel.load_game("python_andantino(self_trap=ILLEGAL)")
    assert "self_trap=illegal" in str(shouted)
    assert shouted.get_parameters()["self_trap"] == "illegal"
    assert str(shouted) == str(pyspiel.load_game("python_andantino", {"self_trap": "illegal"}))
    from hexgames.integrations.openspiel import AbandeGame

    refused = [
        # Accepted by the rules but unplayable: refused when the game is loaded, by name.
        (lambda: pyspiel.load_game("python_andantino(extended=True,tiles_per_player=1)"),
         "tiles_per_player of at least 2"),
        # Too big for fixed spaces (2**31 actions were a TypeError from GameInfo).
        (lambda: pyspiel.load_game("python_andantino(extended=True,tiles_per_player=130)"),
         "tiles_per_player=130 and extended play"),
        # The game classes made directly (not through pyspiel) name unknown parameters.
        (lambda: AbandeGame({"height": 4}), "unknown Abande rules option 'height'"),
    ]
    for load, message in refused:
        with pytest.raises(ValueError, match=message):
            load()


@check
def window_observations() -> None:
    """``python_andantino(window=W)`` observes through the window: the Python
    reference's planes on every ply of a game; ``window=0`` is the whole hexagon."""
    import random

    import numpy as np
    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401
    from hexgames import andantino
    from hexgames.integrations.encoding import AndantinoEncoding

    game = pyspiel.load_game("python_andantino(tiles_per_player=8,window=3)")
    assert game.observation_tensor_shape() == [12, 7, 7]
    assert game.num_distinct_actions() == 217
    assert game.get_parameters()["window"] == 3
    py = AndantinoEncoding(andantino.Rules(tiles_per_player=8), window=3)
    rng = random.Random(2)
    state = game.new_initial_state()
    plies = 0
    while not state.is_terminal():
        for player in (0, 1):
            tensor = np.array(state.observation_tensor(player), np.float32)
            assert np.array_equal(tensor, py.observation(state.board, player).ravel())
        state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
    assert plies > 4
    assert pyspiel.load_game("python_andantino").observation_tensor_shape() == [9, 51, 51]
    for bad in ("window=-1", "window=9"):
        with pytest.raises(ValueError, match="window must be a whole number"):
            pyspiel.load_game(f"python_andantino(tiles_per_player=8,{bad})")


@check
def pickling_games() -> None:
    """A game pickles and deep-copies with its rules (pyspiel alone restores a Python
    game without its attributes), and so do states of the restored game."""
    import copy

    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401

    game = pyspiel.load_game("python_andantino", {"self_trap": "illegal",
                                                  "tiles_per_player": 10})
    for twin in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert str(twin) == str(game) and twin.rules == game.rules
        assert twin.num_distinct_actions() == 331
        state = twin.new_initial_state()
        state.apply_action(state.legal_actions()[0])
        back = pickle.loads(pickle.dumps(state))
        assert back.board.rules == game.rules and back.history() == state.history()
    abande_game = pickle.loads(pickle.dumps(pyspiel.load_game("python_abande(max_height=4)")))
    assert abande_game.rules.max_height == 4
    assert abande_game.new_initial_state().board.rules.max_height == 4


@check
def bot_in_confined_extended_play() -> None:
    """Extended play is confined to the hexagon, but a hexgames player searches the
    unbounded game: a move out of the hexagon must not reach the framework."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from hexgames.engine.random_player import RandomPlayer
    from hexgames.integrations.openspiel import HexgamesBot

    game = pyspiel.load_game("python_andantino(extended=True,tiles_per_player=4,"
                             "extended_move_limit=30)")

    class Checked(HexgamesBot):
        def step(self, state):
            action = super().step(state)
            assert action in state.legal_actions()
            return action

    bots = [Checked(RandomPlayer(seed=1), seed=1), Checked(RandomPlayer(seed=2), seed=2)]
    rng = np.random.RandomState(0)
    for _ in range(30):
        state = game.new_initial_state()
        evaluate_bots(state, bots, rng)
        assert state.is_terminal()
    assert bots[0].fallbacks + bots[1].fallbacks > 0
    try:
        bots[0].step(state)
    except ValueError as error:
        assert "terminal" in str(error)
    else:
        raise AssertionError("a terminal state gave an action")


@check
def mcts_against_random() -> None:
    """OpenSpiel's Python MCTS bot against hexgames' random player, through
    ``evaluate_bots``, on both games; MCTS wins most games against random moves."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from hexgames.engine.random_player import RandomPlayer
    from hexgames.integrations.openspiel import HexgamesBot

    rng = np.random.RandomState(0)
    wins = 0
    for name in ("python_andantino", "python_abande"):
        game = pyspiel.load_game(name)
        for seat in (0, 1):
            bot = mcts.MCTSBot(game, 2.0, 15, mcts.RandomRolloutEvaluator(1, rng),
                               random_state=rng)
            bots = [bot, HexgamesBot(RandomPlayer(seed=seat))]
            if seat:
                bots.reverse()
            state = game.new_initial_state()
            returns = evaluate_bots(state, bots, rng)
            assert state.is_terminal() and sum(returns) == 0
            wins += returns[seat] > 0
    assert wins >= 2, wins


# States serialized by the Python-board states before the native ones (commit 4cec481).
OLD_SERIALIZED = [
    ("# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"
     "[Game]\npython_andantino(extended=False,extended_move_limit=200,self_trap=opponent_wins,"
     "single_adjacency=True,tiles_per_player=25)\n[State]\nhistory=0:925,1:875,0:876\n"
     "move_number=3\n__dict__=gASVzwAAAAAAAAB9lCiMBF9ib3iUjB9oZXhnYW1lcy5pbnRlZ3JhdGlvbnMub"
     "3BlbnNwaWVslIwJX0JvYXJkQm94lJOUKYGUKIwSaGV4Z2FtZXMuYW5kYW50aW5vlF2UjBNzaW5nbGVfYWRqYW"
     "NlbmN5PW9ulGGMOGFuZGFudGlubyB3PTAsMCByPTEsMCB0dXJuPXcgaGFuZHM9dzI0LHIyNCBzaW5nbGU9dW5"
     "1c2VklF2UKIwEMSwtMZSMBDEsLTKUjAQyLC0ylGV0lGKMBl9sZWdhbJROdS4=\n",
     [925, 875, 876],
     "andantino w=2,-2;1,-1;0,0 r=1,-2;1,0 turn=r hands=w22,r23 single=used"),
    ("# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"
     "[Game]\npython_abande(max_height=3)\n[State]\nhistory=0:18,1:19,0:17,1:10\n"
     "move_number=4\n__dict__=gASVlwAAAAAAAAB9lCiMBF9ib3iUjB9oZXhnYW1lcy5pbnRlZ3JhdGlvbnMub"
     "3BlbnNwaWVslIwJX0JvYXJkQm94lJOUKYGUKIwPaGV4Z2FtZXMuYWJhbmRllF2UjBthYmFuZGUgdHVybj1iIGh"
     "hbmRzPWIxOCx3MTiUXZQojAJkNJSMAmQ1lIwCZDOUjAJjMpRldJRijAZfbGVnYWyUTnUu\n",
     [18, 19, 17, 10], "abande c2=W d3=B d4=B d5=W turn=b hands=b16,w16"),
]


@check
def older_serializations_load() -> None:
    """A state serialized before the native states (its box pickled a Python board as
    rules, start and moves) loads into a native state and plays on."""
    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401

    for text, history, position in OLD_SERIALIZED:
        game, state = pyspiel.deserialize_game_and_state(text)
        assert state.history() == history
        assert state.observation_string(0) == position == state.board.position()
        state.apply_action(state.legal_actions()[0])
        again = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state))[1]
        assert again.history() == state.history()


@check
def loop_never_builds_a_board() -> None:
    """The common loop (legal actions, apply, observations, clones, serialization,
    returns) runs on the native state: no hexgames board is made or pushed to; reading
    ``state.board`` builds one, equal to the position."""
    import random

    import pyspiel

    import hexgames.integrations.openspiel  # noqa: F401
    from hexgames import abande, andantino
    from hexgames.integrations import _boards

    calls = []
    original = _boards.LazyBoard.board

    def counting(self, moves):
        calls.append(len(moves))
        return original(self, moves)

    _boards.LazyBoard.board = counting
    pushes = []
    for module in (andantino, abande):
        push = module.Board.push

        def counted(self, move, _push=push):
            pushes.append(move)
            return _push(self, move)

        module.Board.push = counted
    rng = random.Random(2)
    for name in ("python_andantino", "python_abande"):
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            state.observation_tensor(player)
            state.information_state_string(player)
            state.observation_string(player)
            state = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
        pyspiel.serialize_game_and_state(game, state)
        state.returns()
        assert calls == [] and pushes == [], (name, calls, len(pushes))
        assert state.board.position() == state.observation_string(0)
        assert state.board.is_game_over() and calls and pushes
        calls.clear()
        pushes.clear()


# --- the tests ----------------------------------------------------------------------

@pytest.mark.parametrize("name", list(CHECKS))
def test_openspiel(name: str) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("numpy")
    _run(name)


if __name__ == "__main__":
    CHECKS[sys.argv[1]]()
    print("OK")
