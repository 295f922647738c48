"""The sequential probability ratio test: the LLR against hand-computed values, the error
rates on simulated players of known Elo difference, and matches played for a test."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from hexgames.arena import ArenaError, Sprt, llr_logistic, run_match, score_from_elo, sprt_bounds
from hexgames.arena.stats import elo_estimate


def bernoulli_llr(wins: int, losses: int, elo0: float, elo1: float) -> float:
    """Pairs that are all LL or WW: the maximum-likelihood distribution of mean s on two
    points is the Bernoulli of mean s itself, so the GSPRT is Wald's plain LLR."""
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))


def three_point_llr(counts: tuple[int, int, int], elo0: float, elo1: float) -> float:
    """Pairs that are all LD, DD/WL or WD (scores 1/4, 1/2, 3/4): the Lagrange condition
    sum p_i d_i / (1 + x d_i) = 0 (d_i = a_i - s) is a quadratic in x, solved here by
    the formula, not by the bisection the module uses."""
    n = sum(counts)
    p = [c / n for c in counts]

    def mle(s: float) -> list[float]:
        d = [0.25 - s, 0.5 - s, 0.75 - s]
        # Multiply out sum_i p_i d_i prod_{j != i} (1 + x d_j) = 0.
        c0 = sum(p[i] * d[i] for i in range(3))
        c1 = sum(p[i] * d[i] * sum(d[j] for j in range(3) if j != i) for i in range(3))
        c2 = sum(p[i] * d[i] * math.prod(d[j] for j in range(3) if j != i) for i in range(3))
        low, high = -1 / d[2], -1 / d[0]
        if abs(c2) < 1e-15:  # s = 1/2: the quadratic is linear
            roots = [-c0 / c1]
        else:
            roots = [(-c1 + sign * math.sqrt(c1 * c1 - 4 * c2 * c0)) / (2 * c2)
                     for sign in (1, -1)]
        (x,) = [r for r in roots if low < r < high]
        return [p[i] / (1 + x * d[i]) for i in range(3)]

    q0, q1 = mle(score_from_elo(elo0)), mle(score_from_elo(elo1))
    return n * sum(p[i] * math.log(q1[i] / q0[i]) for i in range(3))


def test_bounds_are_walds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) == pytest.approx(2.944, abs=1e-3)
    assert lower == pytest.approx(-math.log(19))
    lower, upper = sprt_bounds(0.05, 0.10)
    assert (lower, upper) == (pytest.approx(math.log(0.10 / 0.95)),
                              pytest.approx(math.log(0.90 / 0.05)))


@pytest.mark.parametrize(("counts", "elo0", "elo1"), [
    ((3, 7), 0.0, 100.0),
    ((12, 9), -20.0, 30.0),
    ((40, 41), 0.0, 5.0),
])
def test_llr_on_two_classes_is_the_bernoulli_llr(counts: tuple[int, int], elo0: float,
                                                  elo1: float) -> None:
    losses, wins = counts
    assert llr_logistic([losses, 0, 0, 0, wins], elo0, elo1) == \
        pytest.approx(bernoulli_llr(wins, losses, elo0, elo1), rel=1e-9)


def test_llr_of_3_losses_and_7_wins_by_hand() -> None:
    # s0 = 0.5, s1 = 1 / (1 + 10 ** -0.25) = 0.640065; 7 ln(s1/s0) + 3 ln((1-s1)/(1-s0))
    # = 7 * 0.247062 + 3 * (-0.328324) = 0.742677.
    assert llr_logistic([3, 0, 0, 0, 7], 0, 100) == pytest.approx(0.742677, abs=1e-6)


@pytest.mark.parametrize(("counts", "elo0", "elo1"), [
    ((10, 20, 15), 0.0, 50.0),
    ((30, 50, 20), -30.0, 10.0),
    ((5, 100, 9), 0.0, 10.0),
])
def test_llr_on_three_classes_matches_the_closed_form(counts: tuple[int, int, int],
                                                      elo0: float, elo1: float) -> None:
    expected = three_point_llr(counts, elo0, elo1)
    assert llr_logistic([0, *counts, 0], elo0, elo1) == pytest.approx(expected, rel=1e-9)


def test_llr_is_near_the_normal_approximation_on_many_pairs() -> None:
    # Van den Bergh's approximation LLR ~ N (s1 - s0) (2 mu - s0 - s1) / (2 var) holds
    # for small Elo differences.
    counts = [100, 400, 1200, 500, 150]
    n = sum(counts)
    scores = (0.0, 0.25, 0.5, 0.75, 1.0)
    mu = sum(a * c for a, c in zip(scores, counts, strict=True)) / n
    var = sum(a * a * c for a, c in zip(scores, counts, strict=True)) / n - mu * mu
    s0, s1 = score_from_elo(0), score_from_elo(10)
    approx = n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)
    assert llr_logistic(counts, 0, 10) == pytest.approx(approx, rel=0.01)


def test_llr_with_no_pair_and_regularised_one_sided_results() -> None:
    assert llr_logistic([0] * 5, 0, 10) == 0.0
    # Only wins: the distribution of mean s has no maximum without the 1e-3 counts.
    llr = llr_logistic([0, 0, 0, 0, 5], 0, 100)
    assert math.isfinite(llr) and llr > bernoulli_llr(5, 0, 0, 100) > 0
    assert llr_logistic([5, 0, 0, 0, 0], 0, 100) < 0


@pytest.mark.parametrize(("args", "fragment"), [
    (([1, 2, 3], 0, 10), "five counts"),
    (([1, 2, 3, 4, -1], 0, 10), "0 or more"),
    (([1, 2, 3, 4, 1.5], 0, 10), "whole number"),
    (([1] * 5, 10, 10), "below elo1"),
    (([1] * 5, math.nan, 10), "finite"),
    (([1] * 5, 0, math.inf), "finite"),
    (([1] * 5, 0, 2000), "between -1000 and 1000"),
])
def test_llr_bad_input(args: tuple[Any, ...], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        llr_logistic(*args)


@pytest.mark.parametrize(("alpha", "beta", "fragment"), [
    (0.0, 0.05, "alpha"), (0.05, 1.0, "beta"), (math.nan, 0.05, "alpha"),
    (0.6, 0.5, "below 1"),
])
def test_bad_error_rates(alpha: float, beta: float, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Sprt(0, 10, alpha, beta)


def test_sprt_state_counts_pairs_and_decides() -> None:
    sprt = Sprt(0, 100)
    assert sprt.verdict() is None and sprt.elo() is None and sprt.llr() == 0
    sprt.add_pair(1.0, 0.0)
    sprt.add_pair(0.5, 1.0)
    assert sprt.pentanomial == [0, 0, 1, 1, 0] and sprt.pairs == 2
    for _ in range(20):
        sprt.add_pair(1.0, 1.0)
    assert sprt.verdict() == "H1" and sprt.llr() >= sprt.upper
    elo = sprt.elo()
    assert elo is not None and elo.method == "pairs" and elo.n == 22
    assert elo == elo_estimate([0.5, 0.75] + [1.0] * 20, method="pairs")
    data = sprt.to_json()
    assert data["verdict"] == "H1" and data["pentanomial"] == [0, 0, 1, 1, 20]
    assert data["model"] == "logistic Elo, pentanomial GSPRT"
    json.dumps(data, allow_nan=False)
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        sprt.add_pair(0.25, 1.0)
    losing = Sprt(0, 100)
    for _ in range(30):
        losing.add_pair(0.0, 1.0)
    assert losing.verdict() == "H0"


# --- error rates on simulated players of known Elo difference -----------------------


def simulate(sprt: Sprt, elo: float, rng: random.Random, *, advantage: float = 0.3,
             draws: float = 0.1, max_pairs: int = 5000) -> str | None:
    """Feed ``sprt`` colour-swapped pairs of a simulated pair of players, no search: A's
    expected score is ``score_from_elo(elo)`` on average over the two colours, plus
    ``advantage`` as the first player and minus it as the second (Andantino's first
    player scores far above half), with ``draws`` of the games drawn."""
    mean = score_from_elo(elo)

    def game(expected: float) -> float:
        x = rng.random()
        win = expected - draws / 2
        return 1.0 if x < win else 0.5 if x < win + draws else 0.0

    for _ in range(max_pairs):
        sprt.add_pair(game(mean + advantage), game(mean - advantage))
        verdict = sprt.verdict()
        if verdict is not None:
            return verdict
    return None


def test_the_test_accepts_the_right_hypothesis_at_the_stated_error_rates() -> None:
    # 400 runs at elo0 and 400 at elo1 with alpha = beta = 0.05 and bounds 0..30 Elo (a
    # few hundred pairs a run). A rate of 5% would lie in 1.7% .. 8.3% (3 standard
    # errors of 400 runs). The GSPRT's rates are asymptotic: with wider bounds, decided
    # in tens of pairs, they run higher (about 7-8% at 0..60, measured on 1000 runs).
    rng = random.Random(20240613)
    runs = 400
    false_h1 = sum(simulate(Sprt(0, 30), 0, rng) == "H1" for _ in range(runs))
    false_h0 = sum(simulate(Sprt(0, 30), 30, rng) == "H0" for _ in range(runs))
    assert 0.017 <= false_h1 / runs <= 0.083
    assert 0.017 <= false_h0 / runs <= 0.083
    # Far from both hypotheses the verdict is almost never wrong.
    assert sum(simulate(Sprt(0, 30), 90, rng) == "H1" for _ in range(50)) == 50
    assert sum(simulate(Sprt(0, 30), -60, rng) == "H0" for _ in range(50)) == 50


# --- matches played for a test --------------------------------------------------------


def test_a_match_stops_when_the_test_decides() -> None:
    sprt = Sprt(0, 200)
    match = run_match("andantino", "greedy", "random", games=400, seed=3, sprt=sprt)
    assert sprt.verdict() == "H1"
    assert match.played == 2 * sprt.pairs < 400  # one process: pairs finish in order
    assert match.tally.pentanomial == sprt.pentanomial
    assert not match.complete and not match.interrupted
    summary = match.summary()
    assert summary["sprt"]["verdict"] == "H1" and summary["sprt"]["pairs"] == sprt.pairs
    assert summary["pentanomial"] == sprt.pentanomial
    assert summary["games"] == match.played and summary["games_planned"] == 400
    json.dumps(summary, allow_nan=False)


def test_a_match_without_a_verdict_stops_at_its_cap() -> None:
    sprt = Sprt(-10, 10)
    match = run_match("abande", "random", "random", games=8, seed=2, sprt=sprt)
    assert match.played == 8 and match.complete and sprt.pairs == 4
    assert sprt.verdict() is None


def test_the_cap_of_a_test_is_an_even_number_of_games() -> None:
    with pytest.raises(ArenaError, match="even number"):
        run_match("abande", "random", "random", games=7, sprt=Sprt(0, 10))
