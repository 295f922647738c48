"""Glicko-2 ratings, after Mark E. Glickman, "Example of the Glicko-2 system" (Boston
University, 2013; glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the Illinois
algorithm of its step 5.

Written here rather than taken from PyPI: the ``glicko2`` package (2.1.0) computes
step 5's function f with the rating where the paper has the rating deviation, and has
no types; ``openskill`` is another system (Weng-Lin). The paper's worked example is a
test (``tests/test_server_clock_ratings.py``).

The server rates a finished game between two accounts as one rating period of one
game for each player (as online servers do), so ratings change after every game.
Draws score one half. A game against an AI level is rated for the person only when
the operator gave that level a fixed rating (``--ai-rating easy=1200``); the level's
rating then does not change (its deviation is taken as 30).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Glickman's scale factor between the Glicko and Glicko-2 scales.
SCALE = 173.7178
#: The system constant tau (the paper suggests 0.3 to 1.2).
TAU = 0.5
#: The convergence tolerance of step 5.
EPSILON = 0.000001
#: The rating deviation given to an AI level's fixed rating.
FIXED_RD = 30.0
#: The largest deviation (a new player's).
MAX_RD = 350.0


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: ``rating`` (1500 new), ``rd`` (350 new) and
    ``volatility`` (0.06 new)."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, games: Sequence[tuple[Glicko, float]], *,
           tau: float = TAU) -> Glicko:
    """The player's rating after one rating period.

    Args:
        player: the rating before the period.
        games: (opponent's rating before the period, score) of each game, the score
            1 for a win, 0.5 a draw, 0 a loss.
        tau: the system constant.

    Returns:
        The new rating; with no games only the deviation grows (step 6 alone).

    Raises:
        ValueError: for a score other than 0, 0.5 or 1.
    """
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - 1500) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, min(MAX_RD, phi_star * SCALE), sigma)
    for _, score in games:
        if score not in (0, 0.5, 1):
            raise ValueError(f"a score is 0, 0.5 or 1, not {score}")
    opponents = [((o.rating - 1500) / SCALE, o.rd / SCALE, s) for o, s in games]
    # Step 3: the estimated variance v.
    v = 1 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j)
                * (1 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents)
    # Step 4: the estimated improvement delta.
    delta = v * sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j))
                    for mu_j, phi_j, s in opponents)
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j))
                                          for mu_j, phi_j, s in opponents)
    # Step 8: back to the Glicko scale.
    return Glicko(mu_new * SCALE + 1500, min(MAX_RD, phi_new * SCALE), sigma_new)


def rate_game(first: Glicko, second: Glicko, score: float) -> tuple[Glicko, Glicko]:
    """Both players' ratings after one game, ``score`` being the first player's (1,
    0.5 or 0), each game a rating period of its own."""
    return update(first, [(second, score)]), update(second, [(first, 1 - score)])
