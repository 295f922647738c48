"""The arena: games, colour-swapped pairs, seeds, executors, Elo intervals, records and
the JSON summary."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fake_players import FakePlayer, IllegalPlayer

from hexgames import andantino, record
from hexgames.arena import (
    ArenaError,
    EloEstimate,
    GameResult,
    LocalProcessExecutor,
    MatchResult,
    derive_seed,
    elo_estimate,
    elo_from_score,
    format_elo,
    match_tasks,
    play_game,
    play_task,
    run_match,
    score_from_elo,
)
from hexgames.arena.match import opening_moves
from hexgames.core import InvalidPositionError, InvalidRulesError
from hexgames.engine import players
from hexgames.engine.base import Limit
from hexgames.engine.players import UnknownPlayerError
from hexgames.games import UnknownGameError

T = TypeVar("T")
R = TypeVar("R")


def comparable(rec: record.GameRecord) -> tuple[dict[str, str], list[str]]:
    """A record without its Date tag (the day it was played)."""
    tags = {k: v for k, v in rec.tags.items() if k != "Date"}
    return tags, rec.moves


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players._PLAYERS, "fake", ("fake_players", "FakePlayer"))


# --- one game -------------------------------------------------------------------------


def test_play_game_with_specs_writes_a_valid_record() -> None:
    result = play_game("andantino", ["random", "random"], seed=4)
    assert isinstance(result, GameResult)
    rec = result.record
    assert rec.tags["White"] == "random" and rec.tags["Red"] == "random"
    assert rec.tags["Round"] == "1"
    (replayed,) = record.read_games(record.write_game(rec))
    assert replayed.moves == rec.moves
    assert replayed.result == result.result == result.outcome.result()
    assert result.plies == len(rec.moves)
    assert sum(result.moves) == result.plies
    assert result.moves[0] - result.moves[1] in (0, 1)  # A moved first
    assert all(t >= 0 for t in result.times)
    board = replayed.board()
    assert result.series == andantino.series_points(board)  # type: ignore[arg-type]


def test_first_swaps_the_colours() -> None:
    a_first = play_game("andantino", ["random:nodes=1", "random"], seed=9)
    b_first = play_game("andantino", ["random:nodes=1", "random"], seed=9, first=1)
    assert (a_first.record.tags["White"], a_first.record.tags["Red"]) == \
        ("random:nodes=1", "random")
    assert (b_first.record.tags["White"], b_first.record.tags["Red"]) == \
        ("random", "random:nodes=1")
    assert b_first.moves[1] - b_first.moves[0] in (0, 1)
    assert a_first.color_of(0) == 0 and b_first.color_of(0) == 1
    outcome = b_first.outcome
    assert b_first.winner == (None if outcome.winner is None else 1 - outcome.winner)


def test_score_a_and_winner_follow_the_colours() -> None:
    for seed in range(6):
        for first in (0, 1):
            result = play_game("andantino", ["random", "random"], seed=seed, first=first)
            winner = result.outcome.winner
            if winner is None:
                assert result.winner is None and result.score_a == 0.5
            else:
                a_won = (winner == 0) == (first == 0)
                assert result.score_a == (1.0 if a_won else 0.0)
                assert result.winner == (0 if a_won else 1)


def test_play_game_with_player_objects_and_a_limit() -> None:
    a, b = FakePlayer(seed=1), FakePlayer(seed=2)
    result = play_game("abande", [a, b], limit=Limit(depth=2))
    assert result.record.tags["Black"] == "fake" and result.record.tags["White"] == "fake"
    assert a.games == b.games == 1
    assert set(a.searched) == {Limit(depth=2)}
    assert result.nodes == (20 * result.moves[0], 20 * result.moves[1])
    assert result.series is None
    assert "Score" in result.record.tags
    record.read_game(record.write_game(result.record))


def test_play_game_specs_get_the_match_limit(fake: None) -> None:
    result = play_game("andantino", ["fake", "fake:depth=1"], seed=3,
                       limit=Limit(depth=2))
    assert result.nodes == (20 * result.moves[0], 10 * result.moves[1])


def test_same_seed_same_game_and_seeds_matter() -> None:
    one = play_game("andantino", ["random", "random"], seed=11)
    two = play_game("andantino", ["random", "random"], seed=11)
    other = play_game("andantino", ["random", "random"], seed=12)
    assert comparable(one.record) == comparable(two.record)
    assert one.record.moves != other.record.moves


def test_from_a_position_with_rules() -> None:
    position = "andantino w=0,0;0,1 r=1,0 turn=r"
    result = play_game("andantino", ["random", "random"], "single_adjacency=on", seed=1,
                       position=position)
    rules = andantino.Rules.from_options(["single_adjacency=on"])
    assert result.record.tags["Position"] == andantino.Board(position, rules).position()
    assert result.record.tags["Rules"] == "single_adjacency=on"
    (replayed,) = record.read_games(record.write_game(result.record))
    assert replayed.board().position() == result.record.board().position()


def test_an_illegal_move_is_an_arena_error() -> None:
    with pytest.raises(ArenaError, match=r"game 1: illegal \(A\) played the illegal move 0,0"):
        play_game("andantino", [IllegalPlayer(), "random"])


@pytest.mark.parametrize(("kwargs", "error", "fragment"), [
    ({"game": "chess"}, UnknownGameError, "chess"),
    ({"players": ["random"]}, ArenaError, "two players"),
    ({"players": ["random", 3]}, ArenaError, "a spec or a Player"),
    ({"players": ["random", "robot"]}, UnknownPlayerError, "robot"),
    ({"first": 2}, ArenaError, "first must be 0"),
    ({"rules": "nope=1"}, InvalidRulesError, "nope"),
    ({"rules": 5}, ArenaError, "rules must be"),
    ({"position": "andantino w=0,0"}, InvalidPositionError, "r="),
])
def test_play_game_bad_input(kwargs: dict[str, Any], error: type[Exception],
                             fragment: str) -> None:
    args: dict[str, Any] = {"game": "andantino", "players": ["random", "random"], **kwargs}
    with pytest.raises(error, match=fragment):
        play_game(**args)


# --- seeds and pairs ------------------------------------------------------------------


def test_derive_seed_is_fixed_and_spreads() -> None:
    assert derive_seed(1, "pair", 0) == derive_seed(1, "pair", 0)
    seeds = {derive_seed(1, "pair", k) for k in range(100)}
    assert len(seeds) == 100
    assert all(0 <= s < 1 << 63 for s in seeds)
    assert derive_seed(1, "pair", 0) != derive_seed(2, "pair", 0)
    assert derive_seed(0) == 4761921975702974394  # fixed across runs and machines


def test_tasks_come_in_colour_swapped_pairs() -> None:
    tasks = list(match_tasks("andantino", "a", "b", 5, seed=7))
    assert [t.first for t in tasks] == [0, 1, 0, 1, 0]
    assert tasks[0].seed == tasks[1].seed != tasks[2].seed == tasks[3].seed != tasks[4].seed
    assert [t.index for t in tasks] == list(range(5))


def test_colours_alternate_in_pairs() -> None:
    match = run_match("andantino", "random:nodes=1", "random", games=5, seed=3)
    assert [r.first for r in match.results] == [0, 1, 0, 1, 0]
    assert [r.record.tags["White"] for r in match.results] == \
        ["random:nodes=1", "random"] * 2 + ["random:nodes=1"]
    assert [r.record.tags["Round"] for r in match.results] == ["1", "2", "3", "4", "5"]
    assert match.results[0].seed == match.results[1].seed
    assert match.by_colour()["White"]["games"] == 3
    assert match.by_colour()["Red"]["games"] == 2


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_same_seed_same_games_whatever_the_jobs(game: str) -> None:
    one = run_match(game, "random", "random", games=4, seed=21, jobs=1)
    two = run_match(game, "random", "random", games=4, seed=21, jobs=2)
    assert [comparable(r.record) for r in one.results] == \
        [comparable(r.record) for r in two.results]
    assert (one.jobs, two.jobs) == (1, 2)
    other = run_match(game, "random", "random", games=4, seed=22)
    assert [r.record.moves for r in other.results] != [r.record.moves for r in one.results]


def test_without_a_seed_one_is_chosen_and_reported() -> None:
    match = run_match("andantino", "random", "random", games=2)
    again = run_match("andantino", "random", "random", games=2, seed=match.seed)
    assert [r.record.moves for r in match.results] == [r.record.moves for r in again.results]


# --- executors ------------------------------------------------------------------------


class ReversedExecutor:
    """A stand-in for a cluster backend: runs the tasks in reverse order."""

    def __init__(self) -> None:
        self.tasks = 0

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        todo = list(tasks)
        self.tasks = len(todo)
        for task in reversed(todo):
            yield fn(task)


def test_a_custom_executor_runs_the_same_games() -> None:
    executor = ReversedExecutor()
    done: list[tuple[int, int, int]] = []
    custom = run_match("andantino", "random", "random", games=4, seed=5, executor=executor,
                       progress=lambda r, n, total: done.append((r.index, n, total)))
    local = run_match("andantino", "random", "random", games=4, seed=5)
    assert executor.tasks == 4
    assert done == [(3, 1, 4), (2, 2, 4), (1, 3, 4), (0, 4, 4)]
    assert [r.index for r in custom.results] == [0, 1, 2, 3]
    assert [comparable(r.record) for r in custom.results] == \
        [comparable(r.record) for r in local.results]
    assert custom.jobs is None


def square(x: int) -> int:
    if x < 0:
        raise ValueError(f"negative {x}")
    return x * x


def test_local_process_executor() -> None:
    assert sorted(LocalProcessExecutor(2).map_unordered(square, range(7))) == \
        [0, 1, 4, 9, 16, 25, 36]
    assert list(LocalProcessExecutor(1).map_unordered(square, [3, 2])) == [9, 4]
    with pytest.raises(ValueError, match="negative -1"):
        list(LocalProcessExecutor(2).map_unordered(square, [1, -1, 2]))
    with pytest.raises(ValueError, match="jobs"):
        LocalProcessExecutor(0)
    assert LocalProcessExecutor(None).jobs >= 1


def test_ctrl_c_as_a_worker_starts_leaves_no_worker_behind() -> None:
    """Ctrl-C that came while ``ProcessPoolExecutor`` started a worker process, after
    the fork and before the pool recorded the process, left a process the pool could
    not stop; as the pool's queue was removed, it printed a traceback (``selfplay -j 2``
    stopped 0.3-0.5 s after its start, 8 times in 36). Here the Ctrl-C comes at that
    moment of every start, in a process of its own."""
    import subprocess
    import sys

    script = """
import os, signal, sys, time
from multiprocessing import process
from hexgames.arena.executor import LocalProcessExecutor
from hexgames.processes import _exists

started = []
start = process.BaseProcess.start

def start_then_ctrl_c(self):
    start(self)
    started.append(self.pid)
    os.kill(os.getpid(), signal.SIGINT)  # raises here, before the pool records self
    time.sleep(0.2)

process.BaseProcess.start = start_then_ctrl_c
try:
    list(LocalProcessExecutor(2).map_unordered(abs, [1, 2, 3]))
except KeyboardInterrupt:
    print("interrupted")
time.sleep(1)
print(started and [pid for pid in started if _exists(pid)])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "interrupted\n[]\n", "")


def test_a_dead_worker_process_loses_no_task(tmp_path: Path) -> None:
    from fake_players import die_once

    # The task of the missing marker kills its worker once; the others never do.
    jobs = [(str(tmp_path / f"m{i}"), i) for i in range(6)]
    for i in (0, 1, 3, 4, 5):
        (tmp_path / f"m{i}").write_text("x", encoding="utf-8")
    assert sorted(LocalProcessExecutor(2).map_unordered(die_once, jobs)) == \
        [0, 1, 4, 9, 16, 25]
    assert (tmp_path / "m2").exists()
    with pytest.raises(ArenaError, match="died while playing a game, 1 times"):
        list(LocalProcessExecutor(2, retries=0).map_unordered(
            die_once, [(str(tmp_path / "new"), 1)]))
    with pytest.raises(ValueError, match="retries"):
        LocalProcessExecutor(2, retries=-1)


def test_a_game_whose_worker_died_is_replayed_the_same(tmp_path: Path) -> None:
    from fake_players import play_task_dying

    tasks = list(match_tasks("abande", "random", "greedy", 4, seed=8))
    jobs = [(str(tmp_path / "died"), 1, task) for task in tasks]
    results = sorted(LocalProcessExecutor(2).map_unordered(play_task_dying, jobs),
                     key=lambda r: r.index)
    assert (tmp_path / "died").exists()
    assert [comparable(r.record) for r in results] == \
        [comparable(play_task(task).record) for task in tasks]


def test_progress_is_called_after_every_game() -> None:
    calls: list[tuple[int, int]] = []
    run_match("abande", "random", "random", games=3, seed=1, jobs=2,
              progress=lambda r, n, total: calls.append((n, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize(("kwargs", "error", "fragment"), [
    ({"games": 0}, ArenaError, "1 or more games"),
    ({"spec_b": "robot"}, UnknownPlayerError, "robot"),
    ({"spec_a": "random:colour=red"}, UnknownPlayerError, "no option 'colour'"),
    ({"rules": "self_trap=never"}, InvalidRulesError, "self_trap"),
    ({"position": "andantino w=0,0 r=0,0 turn=w"}, InvalidPositionError, "0,0"),
    ({"jobs": 0}, ValueError, "jobs"),
])
def test_run_match_checks_before_playing(kwargs: dict[str, Any], error: type[Exception],
                                         fragment: str) -> None:
    args: dict[str, Any] = {"game": "andantino", "spec_a": "random", "spec_b": "random",
                            **kwargs}
    with pytest.raises(error, match=fragment):
        run_match(**args)


# --- Elo ------------------------------------------------------------------------------


def test_elo_from_score() -> None:
    assert elo_from_score(0.5) == 0.0
    assert math.copysign(1.0, elo_from_score(0.5)) == 1.0
    assert elo_from_score(0.75) == pytest.approx(190.848, abs=1e-3)
    assert elo_from_score(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert score_from_elo(elo_from_score(0.63)) == pytest.approx(0.63)
    with pytest.raises(ValueError):
        elo_from_score(1.5)


def test_elo_interval_on_known_results() -> None:
    scores = [1.0] * 60 + [0.5] * 20 + [0.0] * 20
    estimate = elo_estimate(scores)
    assert estimate.score == pytest.approx(0.7)
    assert estimate.diff == pytest.approx(147.19, abs=0.01)
    # By hand: mean(x^2) = (60 + 20/4) / 100 = 0.65, variance 0.65 - 0.49 = 0.16,
    # se = sqrt(0.16 / 100) = 0.04, so the score lies in 0.7 ± 0.0784.
    assert estimate.se == pytest.approx(0.04)
    low = -400 * math.log10(1 / 0.6216 - 1)
    high = -400 * math.log10(1 / 0.7784 - 1)
    assert estimate.low == pytest.approx(low) == pytest.approx(86.22, abs=0.01)
    assert estimate.high == pytest.approx(high) == pytest.approx(218.25, abs=0.01)
    assert estimate.n == 100 and estimate.method == "games"
    assert format_elo(estimate) == "+147.2 (95% CI +86.2 to +218.3)"


def test_elo_interval_is_symmetric_for_the_other_player() -> None:
    a = elo_estimate([1.0] * 30 + [0.5] * 10 + [0.0] * 20)
    b = elo_estimate([0.0] * 30 + [0.5] * 10 + [1.0] * 20)
    assert a.diff == pytest.approx(-b.diff)
    assert a.low == pytest.approx(-b.high) and a.high == pytest.approx(-b.low)


def test_elo_all_wins_and_all_losses() -> None:
    wins = elo_estimate([1.0] * 10)
    assert (wins.diff, wins.high, wins.se) == (math.inf, math.inf, 0.0)
    # One-sided: the expected score whose ten straight wins have a 2.5% chance.
    assert wins.low == pytest.approx(elo_from_score(0.025 ** 0.1))
    assert wins.low == pytest.approx(140.2, abs=0.1)
    losses = elo_estimate([0.0] * 10)
    assert (losses.diff, losses.low) == (-math.inf, -math.inf)
    assert losses.high == pytest.approx(-wins.low)
    assert format_elo(wins) == "+inf (95% CI +140.2 to +inf)"
    assert wins.to_json()["diff"] == "+inf" and losses.to_json()["low"] == "-inf"
    json.dumps(wins.to_json(), allow_nan=False)


def test_elo_figures_never_read_minus_zero() -> None:
    # A tournament table printed a rating of -0 for a player a hair below the mean.
    from hexgames.arena.stats import elo_text

    assert [elo_text(x, 0) for x in (-0.4, -0.0, 0.4, -0.6, 12.5)] == \
        ["+0", "+0", "+0", "-1", "+12"]
    assert [elo_text(x) for x in (-0.04, -0.06, 147.19)] == ["+0.0", "-0.1", "+147.2"]
    assert (elo_text(math.inf, 0), elo_text(-math.inf)) == ("+inf", "-inf")


def test_elo_interval_reaching_past_a_bound_is_unbounded() -> None:
    estimate = elo_estimate([1.0, 1.0, 0.0])
    assert estimate.high == math.inf and math.isfinite(estimate.low)
    assert elo_estimate([0.5] * 8) == EloEstimate(0.0, 0.0, 0.0, 0.5, 0.0, 8, "games")


def test_one_score_between_the_bounds_gives_an_unbounded_interval() -> None:
    # One split colour-swapped pair (or one draw) said "+0.0 (95% CI +0.0 to +0.0)".
    for scores, method in (([0.5], "pairs"), ([0.75], "pairs"), ([0.5], "games")):
        estimate = elo_estimate(scores, method=method)
        assert (estimate.low, estimate.high) == (-math.inf, math.inf)
        assert format_elo(estimate).endswith("(95% CI -inf to +inf)")
    assert elo_estimate([1.0], method="pairs").low == pytest.approx(elo_from_score(0.025))


def test_elo_estimate_rejects_bad_scores() -> None:
    with pytest.raises(ValueError, match="no results"):
        elo_estimate([])
    with pytest.raises(ValueError, match="between 0 and 1"):
        elo_estimate([1.0, 2.0])


def test_match_elo_by_games_and_by_pairs() -> None:
    match = run_match("andantino", "random", "random", games=6, seed=8)
    scores = [r.score_a for r in match.results]
    assert match.elo() == elo_estimate(scores)
    pairs = [(scores[i] + scores[i + 1]) / 2 for i in (0, 2, 4)]
    assert match.elo_pairs() == elo_estimate(pairs, method="pairs")
    assert match.score == pytest.approx(sum(scores) / 6)
    assert match.wins + match.draws + match.losses == 6


def test_an_empty_or_unpaired_match() -> None:
    empty = MatchResult("andantino", ("a", "b"), [], 4)
    assert empty.elo() is None and empty.elo_pairs() is None and not empty.complete
    assert empty.series() is None
    assert math.isnan(empty.score)
    summary = empty.summary()
    assert summary["games"] == 0 and summary["score"] is None and summary["plies"] is None
    single = run_match("andantino", "random", "random", games=1, seed=1)
    assert single.elo_pairs() is None and single.elo() is not None


# --- records and the summary ----------------------------------------------------------


def test_written_records_are_valid_and_match_the_results(tmp_path: Path) -> None:
    match = run_match("andantino", "random", "random:nodes=3", games=4, seed=2,
                      limit=Limit(nodes=5))
    games_path, summary_path = match.write(tmp_path / "out")
    assert games_path == tmp_path / "out" / "games.hgn"
    assert summary_path == tmp_path / "out" / "summary.json"
    records = record.read_games(games_path.read_text(encoding="utf-8"))
    assert len(records) == 4
    for rec, result in zip(records, match.results, strict=True):
        assert rec.result == result.result
        assert rec.tags["Termination"] == result.outcome.termination.value
        assert rec.tags["Event"] == "hexgames match"
        assert rec.tags["Round"] == str(result.index + 1)
        assert rec.moves == result.record.moves
        a_color = ("White", "Red")[result.first]
        assert rec.tags[a_color] == "random"


def test_summary_json(tmp_path: Path) -> None:
    match = run_match("andantino", "random", "random", games=6, seed=13,
                      limit=Limit(nodes=7), rules=["self_trap=ignore"])
    _, path = match.write(tmp_path)
    summary = json.loads(path.read_text(encoding="utf-8"))
    assert summary == json.loads(json.dumps(match.summary()))
    assert summary["game"] == "Andantino"
    assert summary["players"] == {"A": "random", "B": "random"}
    assert summary["rules"] == ["self_trap=ignore"]
    assert summary["limit"] == {"nodes": 7}
    assert (summary["seed"], summary["jobs"], summary["games"]) == (13, 1, 6)
    assert summary["games_planned"] == 6 and summary["complete"] is True
    assert summary["wins"] + summary["draws"] + summary["losses"] == 6
    assert summary["wins"] == sum(r["winner"] == "A" for r in summary["results"])
    assert summary["score"] == pytest.approx(
        (summary["wins"] + summary["draws"] / 2) / 6)
    elo = match.elo()
    assert elo is not None and summary["elo"] == json.loads(json.dumps(elo.to_json()))
    assert summary["elo_pairs"]["n"] == 3 and summary["elo_pairs"]["method"] == "pairs"
    colours = summary["by_colour"]
    assert set(colours) == {"White", "Red"}
    assert colours["White"]["games"] == colours["Red"]["games"] == 3
    assert sum(c["wins"] for c in colours.values()) == summary["wins"]
    first = summary["first_player"]
    assert first["games"] == 6
    assert first["wins"] == sum(r["result"] == "1-0" for r in summary["results"])
    # Series points, recomputed from the records.
    series = [0, 0]
    for rec, result in zip(record.read_games((tmp_path / "games.hgn").read_text("utf-8")),
                           summary["results"], strict=True):
        points = andantino.series_points(rec.board())  # type: ignore[arg-type]
        a = 0 if result["first"] == "A" else 1
        series[0] += points[a]
        series[1] += points[1 - a]
    assert summary["series"] == {"A": series[0], "B": series[1]}
    assert sum(summary["terminations"].values()) == 6
    assert summary["plies"]["min"] <= summary["plies"]["mean"] <= summary["plies"]["max"]
    assert summary["time"]["A"]["moves"] + summary["time"]["B"]["moves"] == \
        sum(r["plies"] for r in summary["results"])
    assert [r["game"] for r in summary["results"]] == [1, 2, 3, 4, 5, 6]
    assert [r["first"] for r in summary["results"]] == ["A", "B"] * 3
    assert summary["elapsed"] >= 0


def test_abande_summary_has_scores_and_no_series(tmp_path: Path) -> None:
    match = run_match("abande", "random", "random", games=2, seed=4)
    summary = match.summary()
    assert summary["game"] == "Abande" and summary["series"] is None
    assert set(summary["by_colour"]) == {"Black", "White"}
    for result in summary["results"]:
        assert len(result["score"]) == 2 and result["series"] is None
    json.dumps(summary, allow_nan=False)


# --- the engine players, once they exist ----------------------------------------------


@pytest.mark.parametrize(("spec_a", "spec_b"), [
    ("mcts:playouts=20", "random"),
    ("alphabeta:depth=1", "alphabeta:depth=2"),
])
def test_engine_players_reproduce_across_jobs(spec_a: str, spec_b: str) -> None:
    import importlib.util

    for spec in (spec_a, spec_b):
        name = spec.partition(":")[0]
        if importlib.util.find_spec(players._PLAYERS[name][0]) is None:
            pytest.skip(f"{name} is not written yet")
    one = run_match("abande", spec_a, spec_b, games=2, seed=3, jobs=1)
    two = run_match("abande", spec_a, spec_b, games=2, seed=3, jobs=2)
    assert [comparable(r.record) for r in one.results] == \
        [comparable(r.record) for r in two.results]


def test_random_openings_vary_games_and_are_shared_by_a_pair() -> None:
    # Depth-limited alpha-beta is deterministic: without openings every pair repeats.
    plain = run_match("andantino", "alphabeta:depth=1", "alphabeta:depth=2", games=4, seed=3)
    assert plain.results[0].record.moves == plain.results[2].record.moves
    match = run_match("andantino", "alphabeta:depth=1", "alphabeta:depth=2", games=4, seed=3,
                      opening_plies=4)
    first, second, third = (r.record.moves for r in match.results[:3])
    assert first[:4] == second[:4]  # a pair shares its opening
    assert first[:4] != third[:4]  # pairs differ
    assert match.results[0].record.tags["Opening"] == "4 random plies"
    # An opening longer than the game: the tag says how many plies were random.
    whole = run_match("andantino", "random", "random", games=2, seed=3, opening_plies=1000)
    for result in whole.results:
        assert result.record.tags["Opening"] == \
            f"{result.plies} random plies; the game ended in them"
    assert match.opening_plies == 4
    assert match.summary()["opening_plies"] == 4
    again = run_match("andantino", "alphabeta:depth=1", "alphabeta:depth=2", games=4, seed=3,
                      opening_plies=4, jobs=2)
    assert [r.record.moves for r in again.results] == [r.record.moves for r in match.results]


def test_random_openings_leave_the_balance_variant_right_to_the_players() -> None:
    # Early on most of Red's legal moves touch one tile; a uniform draw spent the right in
    # 171 of 200 four-ply openings. The opening's plies never spend it.
    rules = ["single_adjacency=on"]
    match = run_match("andantino", "random", "random", games=40, seed=21, rules=rules,
                      opening_plies=4, limit=Limit(nodes=1))
    for result in match.results:
        board = andantino.Board(rules=andantino.Rules.from_options(rules))
        for move in result.record.moves[:4]:
            board.push_notation(move)
        assert not board.single_adjacency_used
    board = andantino.Board("andantino w=0,0;1,-1 r=1,0 turn=r hands=w23,r24 single=unused",
                            andantino.Rules(single_adjacency=True))
    touching_one = [m for m in board.legal_moves if m.notation() == "2,0"]
    assert touching_one and touching_one[0] not in opening_moves(board)
    assert len(opening_moves(board)) < len(board.legal_moves)
    # Without the variant, or once the right is spent, every legal move may be drawn.
    plain = andantino.Board()
    assert opening_moves(plain) == list(plain.legal_moves)
    spent = andantino.Board("andantino w=0,0;1,-1 r=1,0 turn=r hands=w23,r24 single=used",
                            andantino.Rules(single_adjacency=True))
    assert opening_moves(spent) == list(spent.legal_moves)


def test_negative_or_huge_opening_plies_are_refused() -> None:
    with pytest.raises(ArenaError, match="opening_plies"):
        run_match("andantino", "random", "random", games=2, opening_plies=-1)
    with pytest.raises(ArenaError, match="from 0 to 1000"):
        run_match("andantino", "random", "random", games=2, opening_plies=1001)
