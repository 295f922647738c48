"""Random playouts (hexgames.bench)."""

from __future__ import annotations

import math
import time

import pytest

from hexgames import abande, andantino
from hexgames.bench import BenchResult, random_playouts
from hexgames.core import HexgamesError, Termination


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_counts_add_up(game: str) -> None:
    result = random_playouts(game, 0.2, seed=1)
    assert result.game == game
    assert result.playouts >= 1
    assert sum(result.terminations.values()) == result.playouts
    assert result.draws + sum(result.wins) == result.playouts
    assert result.seconds >= 0.2
    assert result.plies_per_second == pytest.approx(result.plies / result.seconds)
    assert result.playouts_per_second == pytest.approx(result.playouts / result.seconds)


def test_andantino_playouts_are_whole_games() -> None:
    result = random_playouts("andantino", math.inf, seed=3, max_playouts=200)
    assert result.playouts == 200
    # A win needs five tiles of one colour (seven plies at least); a draw all 48 plies.
    assert 7 * 200 <= result.plies <= 48 * 200
    assert set(result.terminations) <= {Termination.LINE, Termination.TRAP,
                                        Termination.LINE_AND_TRAP, Termination.SELF_TRAP,
                                        Termination.TILES_EXHAUSTED}
    assert result.draws == result.terminations[Termination.TILES_EXHAUSTED]


def test_a_seed_fixes_the_games() -> None:
    one = random_playouts("andantino", math.inf, seed=7, max_playouts=50)
    two = random_playouts("andantino", math.inf, seed=7, max_playouts=50)
    assert (one.plies, one.terminations, one.wins) == (two.plies, two.terminations, two.wins)


def test_at_least_one_playout() -> None:
    assert random_playouts("abande", 0.0, seed=1).playouts == 1


def test_rules_as_words_or_object() -> None:
    words = random_playouts("andantino", math.inf, seed=2, max_playouts=20,
                            rules=["tiles_per_player=6"])
    rules = andantino.Rules(tiles_per_player=6)
    obj = random_playouts("andantino", math.inf, seed=2, max_playouts=20, rules=rules)
    assert words.plies == obj.plies
    # Six tiles each, one of them set up: at most ten placements a game.
    assert words.plies <= 10 * 20


def test_bad_game_or_rules() -> None:
    with pytest.raises(HexgamesError):
        random_playouts("chess", 0.1)
    with pytest.raises(HexgamesError):
        random_playouts("andantino", 0.1, rules=["nope=1"])


def test_empty_result_rates() -> None:
    assert BenchResult("andantino").plies_per_second == 0.0
    assert BenchResult("andantino").plies_per_playout == 0.0


@pytest.mark.parametrize(("seconds", "max_playouts", "message"), [
    (math.nan, None, "seconds must be 0 or more, not nan"),
    (math.nan, 5, "seconds must be 0 or more, not nan"),
    (-1.0, None, "seconds must be 0 or more, not -1.0"),
    (math.inf, None, "seconds must be at most 86400 \\(a day\\) unless max_playouts"),
    (1e308, None, "seconds must be at most 86400 \\(a day\\) unless max_playouts"),
    (10**400, None, "seconds must be at most 86400"),
    (-math.inf, 5, "seconds must be 0 or more, not -inf"),
    (1.0, 0, "max_playouts must be at least 1, not 0"),
])
def test_runs_that_would_never_end_are_refused(seconds: float, max_playouts: int | None,
                                               message: str) -> None:
    # These would loop forever (a NaN or infinite deadline is never reached).
    with pytest.raises(ValueError, match=message):
        random_playouts("andantino", seconds, seed=1, max_playouts=max_playouts)


def _interrupt_at_call(monkeypatch: pytest.MonkeyPatch, owner: object, attr: str,
                       call: int) -> None:
    """``owner.attr`` raises KeyboardInterrupt at its ``call``-th call, as Ctrl-C would
    at that moment."""
    original = getattr(owner, attr)
    calls = 0

    def wrapper(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == call:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, attr, wrapper)


def test_ctrl_c_between_playouts_keeps_the_figures_so_far(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: ``bench`` on Ctrl-C printed only "aborted". The clock is read at the
    start and after each playout: the 5th read is after the 4th playout."""
    import time

    _interrupt_at_call(monkeypatch, time, "perf_counter", 5)
    result = random_playouts("andantino", 60.0, seed=4, interruptible=True, native=False)
    assert result.interrupted
    assert result.playouts == 4
    assert sum(result.terminations.values()) == 4
    assert result.draws + sum(result.wins) == 4
    assert 7 * 4 <= result.plies <= 48 * 4
    monkeypatch.undo()
    same = random_playouts("andantino", math.inf, seed=4, max_playouts=4, native=False)
    assert (same.plies, same.terminations, same.wins) == \
        (result.plies, result.terminations, result.wins)
    assert not same.interrupted
    _interrupt_at_call(monkeypatch, time, "perf_counter", 5)
    with pytest.raises(KeyboardInterrupt):
        random_playouts("andantino", 60.0, seed=4)


def test_ctrl_c_inside_a_playout_does_not_count_it(monkeypatch: pytest.MonkeyPatch) -> None:
    first = random_playouts("abande", math.inf, seed=2, max_playouts=1, native=False)
    # interrupted in the second playout: only the first one is counted
    _interrupt_at_call(monkeypatch, abande.Board, "push", first.plies + 3)
    result = random_playouts("abande", 60.0, seed=2, interruptible=True, native=False)
    assert result.interrupted
    assert (result.playouts, result.plies, result.terminations) == \
        (1, first.plies, first.terminations)
    monkeypatch.undo()
    _interrupt_at_call(monkeypatch, abande.Board, "push", 2)
    nothing = random_playouts("abande", 60.0, seed=2, interruptible=True, native=False)
    assert nothing.interrupted and nothing.playouts == 0 and nothing.plies == 0


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_native_and_python_paths_agree_in_distribution(game: str) -> None:
    """The two paths draw moves with different generators but both uniformly: over 4,000
    games each, the mean length and the first player's win share agree within five
    standard errors (both are far apart for any non-uniform draw we could make)."""
    native = random_playouts(game, math.inf, seed=11, max_playouts=4000)
    python = random_playouts(game, math.inf, seed=11, max_playouts=4000, native=False)
    assert native.native and not python.native
    n = 4000
    for a, b in ((native.wins[0] / n, python.wins[0] / n), (native.draws / n, python.draws / n)):
        p = (a + b) / 2
        assert abs(a - b) <= 5 * math.sqrt(2 * p * (1 - p) / n) + 1e-9
    assert native.plies_per_playout == pytest.approx(python.plies_per_playout, rel=0.05)
    assert set(native.terminations) == set(python.terminations) or n < 10


def test_native_count_limited_runs_are_repeatable_across_batches() -> None:
    """A run longer than one native batch (4,096 playouts) plays the same games again."""
    one = random_playouts("abande", math.inf, seed=3, max_playouts=5000)
    two = random_playouts("abande", math.inf, seed=3, max_playouts=5000)
    other = random_playouts("abande", math.inf, seed=4, max_playouts=5000)
    assert one.playouts == 5000
    assert (one.plies, one.wins, one.terminations) == (two.plies, two.wins, two.terminations)
    assert one.plies != other.plies


def test_python_path_is_repeatable() -> None:
    one = random_playouts("andantino", math.inf, seed=7, max_playouts=50, native=False)
    two = random_playouts("andantino", math.inf, seed=7, max_playouts=50, native=False)
    assert not one.native
    assert (one.plies, one.terminations, one.wins) == (two.plies, two.terminations, two.wins)


def test_a_game_that_goes_on_for_ever_ends_the_run_at_its_time() -> None:
    # Four tiles a side make neither a line nor a trap: with a relocation limit of a
    # billion a random game goes on until a position repeats, and the clock was read
    # only between playouts. Now also every LONG_PLAYOUT plies (such a playout is not
    # counted), in the native core and on the Python board.
    rules = ["extended=on", "tiles_per_player=4", "extended_move_limit=999999999"]
    for on_native in (True, False):
        start = time.perf_counter()
        result = random_playouts("andantino", 0.05, seed=3, rules=rules, native=on_native)
        assert time.perf_counter() - start < 5.0
        assert sum(result.terminations.values()) == result.playouts
