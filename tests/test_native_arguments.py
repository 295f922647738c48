"""Every method of the native classes that takes a number (a move index, a colour, a
depth, an action, a player, an env index, a count, seconds, a seed, an option) refuses
a value out of its range, of any size, or of the wrong type with the package's
``HexgamesError`` (a ``ValueError``) naming it (issue 32, item 11): PyO3's
``OverflowError`` (a 31-digit int where it wanted 64 bits), ``TypeError`` (a str) and
``IndexError`` (a move index) came out before, and ``random_playouts(seconds=1e308)``
ran until interrupted while ``inf`` was refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from big_positions import abande_endgame

from hexgames import _native, native
from hexgames.core import HexgamesError
from hexgames.limits import MAX_SEARCH_SECONDS

#: Wrong for every whole-number argument: out of any range, too large for 64 bits or a
#: float, a float, a bool, text.
BAD_WHOLE: list[Any] = [-1, 10**30, -(10**30), 10**400, 1.5, "0"]
#: Wrong for every seconds argument.
BAD_SECONDS: list[Any] = [-1.0, float("nan"), 10**400, -(10**400), "1", True]


def refused(call: Callable[[Any], Any], values: list[Any]) -> None:
    for value in values:
        with pytest.raises(HexgamesError) as error:
            call(value)
        assert not isinstance(error.value, (OverflowError, IndexError, TypeError))
        assert len(str(error.value)) < 200, str(error.value)  # a 400-digit int is cut


def test_states() -> None:
    for state in (_native.AndantinoState(), _native.AbandeState()):
        refused(lambda v, s=state: s.push_index(v), [*BAD_WHOLE, 2**20, True])
        refused(lambda v, s=state: s.perft(v), [-1, -(10**30), 1.5, "1", True])
        refused(lambda v, s=state: s.divide(v), [0, -(10**30), 1.5, "1"])
        refused(lambda v, s=state: s.random_playouts(count=v), [0, -(10**30), 1.5, "1", True])
        refused(lambda v, s=state: s.random_playouts(seconds=v), BAD_SECONDS)
        refused(lambda v, s=state: s.random_playouts(count=1, seed=v), [2**64, "1", 1.5])
        assert state.ply == 0
    andantino = _native.AndantinoState()
    for method in (andantino.tiles, andantino.enclosed_cells):
        refused(method, [2, -1, 10**30, 10**400, "0", 0.0, True])
    assert andantino.tiles(np.int64(1)) == [(1, 0)]
    andantino.push_index(np.int64(1))  # NumPy integers index
    assert andantino.ply == 1
    # An Andantino perft beyond 32 bits of depth.
    refused(andantino.perft, [2**40, 10**30])


def test_playout_seconds_are_capped_like_infinity() -> None:
    # 1e308 ran until interrupted; inf was refused. With a count either is no limit.
    assert MAX_SEARCH_SECONDS == 86_400
    for state in (_native.AndantinoState(), _native.AbandeState()):
        for seconds in (1e308, float("inf"), MAX_SEARCH_SECONDS + 1, 10**400):
            with pytest.raises(HexgamesError, match="at most 86400"):
                state.random_playouts(seconds=seconds)
            assert state.random_playouts(count=2, seconds=seconds)["playouts"] == 2
        assert state.random_playouts(count=1, seconds=MAX_SEARCH_SECONDS)["playouts"] == 1


def test_encoders_and_vector_cores() -> None:
    for game in ("andantino", "abande"):
        encoder = native.encoder(game)
        state = native.state_class(game)()
        refused(encoder.notation, [-1, 10**30, 10**400, "0", 1.5, encoder.num_actions])
        refused(lambda v, e=encoder, s=state: e.push_action(s, v),
                [-1, 10**30, 10**400, "0", 1.5])
        out = np.zeros(encoder.observation_shape(), dtype=np.float32)
        refused(lambda v, e=encoder, s=state, o=out: e.observe(s, o, player=v),
                [2, -1, 10**30, 10**400, "0", 0.5])
        core = native.vector_core(game, 2)
        for method in (core.legal_actions, core.moves, core.position):
            refused(method, [2, -1, 10**30, 10**400, "0", 1.5])
        refused(lambda v, c=core: c.reset(seed=v), [2**64, 10**400, "1", 1.5])
        refused(lambda v, c=core: c.sample_legal(np.zeros(2, dtype=np.int64), seed=v),
                [2**64, "1"])
        cls = type(core)
        refused(cls, [0, -1, -(10**400), "2", 1.5])


def test_players() -> None:
    state = _native.AndantinoState()
    refused(lambda v: _native.Greedy(seed=v), [-1, 2**64, 10**400, "1", 1.5])
    refused(lambda v: _native.Greedy(noise=v), [-0.5, 1.5, 10**400, "0.5", float("nan")])
    greedy = _native.Greedy()
    refused(lambda v: greedy.choose(state, time=v), BAD_SECONDS)
    refused(lambda v: greedy.choose(state, nodes=v), BAD_WHOLE)
    refused(lambda v: _native.Mcts("andantino", exploration=v), [10**400, "1", -1.0])
    mcts = _native.Mcts("andantino")
    refused(lambda v: mcts.search(state, time=v), BAD_SECONDS)
    refused(lambda v: mcts.search(state, nodes=v), BAD_WHOLE)
    alphabeta = _native.AlphaBeta("andantino", tt_mb=1)
    for limit in ("time", "clock", "increment"):
        refused(lambda v, k=limit: alphabeta.search(state, **{k: v, "clock": 1.0}
                                                      if k == "increment" else {k: v}),
                BAD_SECONDS)
    for limit in ("nodes", "depth"):
        refused(lambda v, k=limit: alphabeta.search(state, **{k: v}), BAD_WHOLE)
    solver = _native.AbandeSolver(1)
    endgame = native.state_of(abande_endgame())  # (hands empty: solve takes it)
    refused(lambda v: solver.solve(endgame, time=v), BAD_SECONDS)
    refused(lambda v: solver.solve(endgame, max_nodes=v), BAD_WHOLE)
    refused(_native.splitmix64, [-1, 2**64, 10**400, "1", 1.5])
    # a callback that is not callable, refused before the search (a TypeError in it
    # came out of the search before)
    prover = _native.Prover(1)
    not_callable: list[Any] = [5, "stop", [1]]
    refused(lambda v: prover.prove(state, 0, False, should_stop=v), not_callable)
    refused(lambda v: solver.solve(endgame, should_stop=v), not_callable)
    refused(lambda v: alphabeta.search(state, depth=1, on_info=v), not_callable)
    refused(lambda v: mcts.search(state, nodes=1, on_info=v), not_callable)
