"""Every search stops in time (issue 32, items 8 and 9): on the largest positions the
rules allow (extended-play Andantino with 500 tiles a side, some 500,000 moves at every
node; the largest Abande endgame), a search given ``time=0.3`` returns well within
1.5 s, and one stopped from another thread 0.2 s in returns within about a second. The
bounds are generous (these are correctness tests on a shared machine, not speed tests);
``benchmarks/bench_stop.py`` measures the latencies (a few milliseconds natively)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from big_positions import POSITIONS, RULES, abande_endgame

from hexgames import _native, andantino, native
from hexgames.engine import Limit, make_player

#: The native players: a new one of the game, and its search of a state for at most
#: `time` seconds (None: until stopped).
NATIVE: dict[str, tuple[Callable[[str], Any], Callable[[Any, Any, float | None], Any]]] = {
    "greedy": (lambda game: _native.Greedy(1, 0.0),
               lambda p, state, t: p.choose(state, time=t)),
    "mcts": (lambda game: _native.Mcts(game, seed=1),
             lambda p, state, t: p.search(state, time=t)),
    # (Without a limit the native alpha-beta searches 1 s.)
    "alphabeta": (lambda game: make_player("alphabeta", 1).engine(game),
                  lambda p, state, t: p.search(state, time=60.0 if t is None else t)),
    "solver": (lambda game: _native.AbandeSolver(16),
               lambda p, state, t: p.solve(state, time=t)),
    # the df-pn prover (issue 34): can White win?
    "prover": (lambda game: _native.Prover(4),
               lambda p, state, t: p.prove(state, 0, False, time=t)),
}

#: Seconds a search stopped 0.2 s in may take in all.
STOPPED_WITHIN = 1.2


def seconds(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def stopped_after(player: Any, delay: float, call: Callable[[], Any]) -> float:
    """Seconds ``call`` took with ``player.stop()`` called from another thread after
    ``delay`` seconds."""
    timer = threading.Timer(delay, player.stop)
    timer.start()
    try:
        return seconds(call)
    finally:
        timer.cancel()


@pytest.fixture(scope="module")
def states() -> dict[str, Any]:
    found = {name: _native.AndantinoState(text, RULES.options())
             for name, text in POSITIONS.items()}
    found["abande"] = native.state_of(abande_endgame())
    return found


@pytest.mark.parametrize(("name", "where"), [
    (name, where) for name in NATIVE for where in [*POSITIONS, "abande"]
    if name != "solver" or where == "abande"])
def test_a_native_search_ends_at_its_time_and_at_stop(name: str, where: str,
                                                      states: dict[str, Any]) -> None:
    make, search = NATIVE[name]
    state = states[where]
    game = "abande" if where == "abande" else "andantino"
    player = make(game)
    took = seconds(lambda: search(player, state, 0.3))
    assert took < 1.5, f"{name} on {where}: time=0.3 took {took:.2f} s"
    player = make(game)
    took = stopped_after(player, 0.2, lambda: search(player, state, None))
    assert took < STOPPED_WITHIN, f"{name} on {where}: stopped at 0.2 s, took {took:.2f} s"


def test_alphabeta_looks_at_its_limits_while_it_orders_a_huge_node(
        states: dict[str, Any]) -> None:
    # White places, Red relocates: from depth 2 on, each of Red's nodes scores and sorts
    # some 500,000 moves. Before, 256 such nodes went by between two looks at the clock:
    # a time of 1 s took 1.74 s, 2 s took 2.86 s.
    make, search = NATIVE["alphabeta"]
    state = states["placing"]
    player = make("andantino")
    took = seconds(lambda: search(player, state, 1.5))
    assert took < 1.8, f"time=1.5 took {took:.2f} s"
    player = make("andantino")
    took = stopped_after(player, 1.2, lambda: search(player, state, None))
    assert took < 1.5, f"stopped at 1.2 s, took {took:.2f} s"


@pytest.fixture(scope="module")
def boards() -> dict[str, andantino.Board]:
    return {where: andantino.Board(POSITIONS[where], RULES) for where in ("relocating",
                                                                          "spread")}


@pytest.mark.parametrize("where", ["relocating", "spread"])
@pytest.mark.parametrize("spec", ["greedy", "easy", "mcts", "alphabeta", "hard", "expert",
                                  "alphabeta:prove=1,prove_max=60"])
def test_a_player_ends_at_its_time_and_at_stop(spec: str, where: str,
                                               boards: dict[str, andantino.Board]) -> None:
    # Through the Player interface the web app uses. Before, the Python board listed
    # every relocation (1.5 million Move objects, 6 s) when it was copied and at every
    # relocation pushed, around any search; and a player copied a board spread wide
    # (its set-up floods, 0.35 s) twice and pushed the move found on the copy (0.6 s).
    board = boards[where]
    player = make_player(spec, 1)
    took = seconds(lambda: player.play(board, Limit(time=0.3)))
    assert took < 1.5, f"{spec} on {where}: time=0.3 took {took:.2f} s"
    player = make_player(spec, 1)
    result: list[Any] = []
    took = stopped_after(player, 0.2,
                         lambda: result.append(player.play(board, Limit(time=60.0))))
    assert took < 1.5, f"{spec} on {where}: stopped at 0.2 s, took {took:.2f} s"
    assert board.is_legal(result[0].move)


@pytest.mark.parametrize("spec", ["greedy", "mcts", "alphabeta"])
def test_the_time_a_player_spends_first_counts(spec: str, monkeypatch: pytest.MonkeyPatch,
                                               boards: dict[str, andantino.Board]) -> None:
    # Setting a position up for the native core takes a tenth of a second with 500
    # tiles a side spread wide: greedy and MCTS gave their native search the whole time
    # after it (alpha-beta did not), and overshot a time of 0.3 s by 100 ms.
    real = native.state_of

    # Here the set-up takes 1 s of a 1.2-s limit: a player that counts it stops at
    # about 1.2 s, one that gives its search the whole limit after it at 2.2 s or
    # later; the bound between them leaves 0.7 s for a loaded machine.
    def slow_state_of(board: Any) -> Any:
        time.sleep(1.0)
        return real(board)

    monkeypatch.setattr(native, "state_of", slow_state_of)
    player = make_player(spec, 1)
    board = boards["relocating"]  # (no player is done with it in 1.2 s)
    took = seconds(lambda: player.play(board, Limit(time=1.2)))
    assert took < 1.9, f"{spec}: {took:.2f} s"


@pytest.mark.parametrize("name", list(NATIVE))
def test_one_stop_ends_a_search_and_the_call_waiting_for_the_player(
        name: str, states: dict[str, Any]) -> None:
    # A stop used to be a flag cleared as each search began: a stop that came while a
    # call was still copying its position, or waiting for the player as here, was
    # cleared and that search ran its whole time ("mcts on spread: stopped at 0.2 s,
    # took 60.02 s"). A stop now ends every call begun before it.
    where = "abande" if name == "solver" else "spread"
    make, search = NATIVE[name]
    player = make("abande" if where == "abande" else "andantino")
    state = states[where]
    ended: list[float] = []

    def call() -> None:
        search(player, state, None)
        ended.append(time.perf_counter())

    calls = [threading.Thread(target=call, daemon=True) for _ in range(2)]
    for thread in calls:
        thread.start()
        time.sleep(0.2)  # the second call begins while the first searches
    stopped = time.perf_counter()
    player.stop()
    for thread in calls:
        thread.join(timeout=10)
    assert len(ended) == 2, f"{name}: a call ran on more than 10 s after the stop"
    took = max(ended) - stopped
    assert took < 2 * STOPPED_WITHIN, f"{name}: both calls ended {took:.2f} s after the stop"


@pytest.mark.parametrize("name", ["mcts", "alphabeta", "greedy"])
def test_a_stop_with_no_search_running_does_not_end_the_next(
        name: str, states: dict[str, Any]) -> None:
    make, search = NATIVE[name]
    player = make("andantino")
    player.stop()
    found = search(player, native.state_of(andantino.Board()), 0.3)
    info = found.get("info", found)
    assert info["nodes"] > 0, f"{name}: the stale stop ended the next search: {info}"
