"""Round-robin tournaments and Bradley-Terry ratings: hand-made results with known
answers, and tournaments played."""

from __future__ import annotations

import json
import math

import pytest

from hexgames import record
from hexgames.arena import ArenaError, GameResult, fit_ratings, run_tournament
from hexgames.arena.match import Tally
from hexgames.arena.tournament import TournamentResult, tournament_tasks
from hexgames.core import Outcome, Termination

K = math.log(10) / 400  # the logistic slope of one Elo point


def made_result(index: int, players: tuple[str, str], a_score: float) -> GameResult:
    """A hand-made finished game (A moving first) with A's score 1, 0.5 or 0."""
    winner = None if a_score == 0.5 else (0 if a_score == 1.0 else 1)
    termination = Termination.TILES_EXHAUSTED if winner is None else Termination.LINE
    rec = record.GameRecord({"Game": "Andantino", "Result": "*"}, [])
    return GameResult(index=index, players=players, first=0, seed=None, record=rec,
                      outcome=Outcome(termination, winner), plies=10, times=(0.0, 0.0),
                      moves=(5, 5))


def hand_made(scores: dict[tuple[int, int], list[float]],
              players: tuple[str, ...] = ("a", "b", "c"),
              prior_draws: float = 0.0) -> TournamentResult:
    tallies = {(i, j): Tally() for i in range(len(players))
               for j in range(i + 1, len(players))}
    result = TournamentResult("andantino", players, 10, tallies, prior_draws=prior_draws)
    index = 0
    for (i, j), games in scores.items():
        for score in games:
            result.add(made_result(index, (players[i], players[j]), score))
            index += 1
    return result


# --- the fit --------------------------------------------------------------------------


def test_ratings_that_fit_every_pairing_exactly() -> None:
    # a scores 3 of 4 against b, b 3 of 4 against c, a 9 of 10 against c: odds of 3, 3
    # and 9, which ratings 400 log10(3) apart reproduce exactly, so they are the maximum.
    games = [[0, 4, 10], [4, 0, 4], [10, 4, 0]]
    points = [[0, 3, 9], [1, 0, 3], [1, 1, 0]]
    a, b, c = fit_ratings(games, points, prior_draws=0)
    step = 400 * math.log10(3)
    assert (a.elo, b.elo, c.elo) == (pytest.approx(step), pytest.approx(0, abs=1e-9),
                                     pytest.approx(-step))
    assert a.low < a.elo < a.high and a.high - a.elo == pytest.approx(a.elo - a.low)
    assert a.se == pytest.approx(c.se) and b.se > 0


def test_two_players_rating_and_interval_by_hand() -> None:
    # 7 of 10: the difference is elo_from_score(0.7) = 147.19, each 73.6 from the mean.
    # Fisher information of the difference d: K^2 g e (1 - e) = K^2 * 10 * 0.21, and the
    # rating r0 = d / 2 has a quarter of its variance.
    (r0, r1) = fit_ratings([[0, 10], [10, 0]], [[0, 7], [3, 0]], prior_draws=0)
    assert r0.elo == pytest.approx(-400 * math.log10(1 / 0.7 - 1) / 2)
    assert r0.elo == pytest.approx(73.60, abs=0.01) and r1.elo == pytest.approx(-r0.elo)
    se = 0.5 / (K * math.sqrt(10 * 0.7 * 0.3))
    assert r0.se == pytest.approx(se) and r1.se == pytest.approx(se)
    assert r0.low == pytest.approx(r0.elo - 1.96 * se)


def test_a_prior_keeps_a_perfect_score_finite() -> None:
    games, points = [[0, 10], [10, 0]], [[0, 10], [0, 0]]
    with pytest.raises(ValueError, match="no finite maximum"):
        fit_ratings(games, points, prior_draws=0)
    # One virtual draw: 10.5 of 11, so the difference is elo_from_score(10.5 / 11).
    r0, r1 = fit_ratings(games, points, prior_draws=1)
    assert r0.elo - r1.elo == pytest.approx(-400 * math.log10(11 / 10.5 - 1))


@pytest.mark.parametrize(("games", "points", "fragment"), [
    ([[0]], [[0]], "2 or more players"),
    ([[0, 2], [2, 0]], [[0, 3], [-1, 0]], "is not a result"),
    ([[0, 2], [1, 0]], [[0, 1], [0, 0]], "disagree"),
    ([[0, 2], [2, 0]], [[0, 2], [1, 0]], "disagree"),
    ([[0, 2, 0, 0], [2, 0, 0, 0], [0, 0, 0, 2], [0, 0, 2, 0]],
     [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]], "never met"),
    ([[0, 2], [2, 0]], [[0, math.nan], [1, 0]], "is not a result"),
])
def test_fit_bad_tables(games: list[list[float]], points: list[list[float]],
                        fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        fit_ratings(games, points)


def test_fit_refuses_too_many_players() -> None:
    n = 65
    with pytest.raises(ValueError, match="at most 64"):
        fit_ratings([[0] * n for _ in range(n)], [[0] * n for _ in range(n)])


# --- the tournament's tables on hand-made results -------------------------------------


def test_crosstable_scores_and_ratings_of_hand_made_results() -> None:
    result = hand_made({(0, 1): [1, 1, 1, 0], (1, 2): [1, 0.5, 1, 0.5],
                        (0, 2): [1] * 9 + [0]})
    rows = result.crosstable()
    assert rows[0][1] == {"wins": 3, "draws": 0, "losses": 1}
    assert rows[1][0] == {"wins": 1, "draws": 0, "losses": 3}
    assert rows[1][2] == {"wins": 2, "draws": 2, "losses": 0}
    assert rows[2][1] == {"wins": 0, "draws": 2, "losses": 2}
    assert rows[0][2] == {"wins": 9, "draws": 0, "losses": 1}
    assert rows[0][0] is None
    assert result.scores() == [(12.0, 14), (4.0, 8), (2.0, 14)]
    assert result.games == 18 and result.games_planned == 30 and not result.complete
    # The same points as the exact fit above (b scores 3 of 4 against c with draws).
    ratings = result.ratings()
    assert ratings is not None
    step = 400 * math.log10(3)
    assert [r.elo for r in ratings] == [pytest.approx(step), pytest.approx(0, abs=1e-9),
                                        pytest.approx(-step)]
    assert result.standings() == [0, 1, 2]
    summary = result.summary()
    json.dumps(summary, allow_nan=False)
    assert [row["player"] for row in summary["standings"]] == ["a", "b", "c"]
    assert summary["standings"][0]["rating"]["elo"] == pytest.approx(step)
    assert summary["crosstable"]["b"] == {"a": {"wins": 1, "draws": 0, "losses": 3},
                                          "c": {"wins": 2, "draws": 2, "losses": 0}}
    assert summary["ratings_model"] == ("Bradley-Terry, logistic Elo, maximum likelihood "
                                        "with 0 virtual draws a pair")
    # With the default prior it said "1 virtual draws a pair".
    one = hand_made({(0, 1): [1.0, 0.5]}, players=("a", "b"), prior_draws=1.0)
    assert one.summary()["ratings_model"].endswith(" with 1 virtual draw a pair")


def test_ratings_are_none_when_results_do_not_determine_them() -> None:
    result = hand_made({(0, 1): [1.0, 1.0]}, players=("a", "b"))
    assert result.ratings() is None
    assert result.summary()["standings"][0]["rating"] is None


# --- tournaments played ---------------------------------------------------------------


def test_tournament_tasks_interleave_colour_swapped_pairs() -> None:
    tasks = list(tournament_tasks("abande", ["a", "b", "c"], 4, seed=1))
    assert len(tasks) == 12
    assert [t.players for t in tasks[:6]] == [("a", "b")] * 2 + [("a", "c")] * 2 + \
        [("b", "c")] * 2
    assert [t.first for t in tasks[:4]] == [0, 1, 0, 1]
    assert [t.index for t in tasks] == list(range(12))
    assert tasks[0].seed == tasks[1].seed != tasks[6].seed  # one seed a pair
    assert tasks[0].players == tasks[6].players


def test_a_round_robin_is_played_and_reproducible() -> None:
    specs = ["random", "greedy", "easy"]
    one = run_tournament("abande", specs, games_per_pair=4, seed=5)
    two = run_tournament("abande", specs, games_per_pair=4, seed=5, jobs=2)
    assert one.games == 12 and one.complete
    assert [r.record.moves for r in one.results] == [r.record.moves for r in two.results]
    assert sorted(r.record.tags["Round"] for r in one.results) == \
        sorted(str(i) for i in range(1, 13))
    for (i, j), tally in one.tallies.items():
        assert tally.games == 4
        assert one.crosstable()[i][j]["wins"] == one.crosstable()[j][i]["losses"]
    points = [p for p, _ in one.scores()]
    assert sum(points) == 12
    ratings = one.ratings()
    assert ratings is not None and sum(r.elo for r in ratings) == pytest.approx(0, abs=1e-6)
    summary = one.summary()
    assert summary["games"] == 12 and len(summary["results"]) == 12
    assert summary["players"] == specs


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"specs": ["random"]}, "2 to 64 players"),
    ({"specs": ["random", "Random"]}, "given twice"),
    ({"games_per_pair": 3}, "even number"),
    ({"games_per_pair": 0}, "even number"),
])
def test_tournament_bad_input(kwargs: dict[str, object], fragment: str) -> None:
    args: dict[str, object] = {"game": "abande", "specs": ["random", "greedy"], **kwargs}
    with pytest.raises(ArenaError, match=fragment):
        run_tournament(**args)  # type: ignore[arg-type]
