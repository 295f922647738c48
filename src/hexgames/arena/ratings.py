"""Ratings of several players from their games against each other: a Bradley-Terry
model on the logistic Elo scale, fitted by maximum likelihood, with 95% intervals.

**The model** (Bradley and Terry, 1952; Elo's logistic form, as in Coulom's BayesElo):
player ``i`` scores ``L(r_i - r_j) = 1 / (1 + 10 ** (-(r_i - r_j) / 400))`` a game
against player ``j`` in expectation, a draw counting one half. With ``s_ij`` the points
``i`` scored in ``g_ij`` games against ``j``, the ratings maximise

    sum over pairs  s_ij log L(r_i - r_j) + (g_ij - s_ij) log(1 - L(r_i - r_j))

(a draw is half a win and half a loss, the usual treatment of scores), with the mean
rating fixed at 0: only differences mean anything. The maximum is found by Newton's
method on this concave function (halving a step that would lower it), and the 95%
interval of each rating is ``±1.96`` standard errors from the inverse of the Fisher
information (the negative Hessian), taken on the ratings of mean 0: its pseudo-inverse,
``(F + J/n)^-1 - J/n`` with ``J`` the all-ones matrix.

**Prior.** Without one, a player who won every game has no finite maximum (Zermelo's
condition: the graph "``i`` scored against ``j``" must be strongly connected). As
BayesElo does, :func:`fit_ratings` can add ``prior_draws`` virtual draws to every pair of
players that met, which keeps every rating finite and pulls ratings from few games
towards each other; with hundreds of games a pair one virtual draw changes little.

Why not a library: ``choix`` (the well-kept Bradley-Terry package) fits win/loss data
without draws and gives no intervals, so both would be written here anyway; the fit
itself is 30 lines of Newton's method on at most :data:`MAX_PLAYERS` players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hexgames.arena.stats import Z95

#: The most players a fit takes: the Newton step solves an ``n x n`` system in pure
#: Python, ``n ** 3`` operations (250,000 at 64 players).
MAX_PLAYERS = 64
_ITERATIONS = 100
_K = math.log(10.0) / 400.0  # the logistic slope of one Elo point


@dataclass(frozen=True)
class Rating:
    """One player's rating: Elo relative to the mean of the players' ratings, and its
    95% interval (``elo ± margin``)."""

    elo: float
    low: float
    high: float
    se: float

    def to_json(self) -> dict[str, float]:
        return {"elo": self.elo, "low": self.low, "high": self.high, "se": self.se}


def virtual_draws(count: float) -> str:
    """``1 virtual draw``, ``0 virtual draws``, ``0.5 virtual draws``: a prior's size in
    words."""
    return f"{count:g} virtual draw{'' if count == 1 else 's'}"


def _expected(d: float) -> float:
    return 1.0 / (1.0 + math.exp(-_K * d))


def _check(games: Sequence[Sequence[float]], points: Sequence[Sequence[float]]) -> int:
    n = len(games)
    if n < 2:
        raise ValueError(f"ratings need 2 or more players, not {n}")
    if n > MAX_PLAYERS:
        raise ValueError(f"ratings take at most {MAX_PLAYERS} players, not {n}")
    if len(points) != n or any(len(row) != n for row in (*games, *points)):
        raise ValueError("games and points must be square tables of the same size")
    for i in range(n):
        for j in range(n):
            g, s = games[i][j], points[i][j]
            if not (math.isfinite(g) and math.isfinite(s)) or g < 0 or not 0 <= s <= g:
                raise ValueError(f"players {i} and {j}: {s} points in {g} games is not "
                                 f"a result")
            if games[j][i] != g or (i != j and not math.isclose(s + points[j][i], g)):
                raise ValueError(f"players {i} and {j}: the two sides of the table "
                                 f"disagree")
            if i == j and g:
                raise ValueError(f"player {i} cannot play itself")
    return n


def _reach(edges: list[list[bool]], start: int) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        for j, edge in enumerate(edges[i]):
            if edge and j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, b] for row, b in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if a[pivot][col] == 0.0:
            raise ValueError("the results do not determine the ratings")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            f = a[r][col] / a[col][col]
            if f:
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - math.fsum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def fit_ratings(games: Sequence[Sequence[float]], points: Sequence[Sequence[float]], *,
                prior_draws: float = 1.0, z: float = Z95) -> list[Rating]:
    """Maximum-likelihood Bradley-Terry ratings (see the module) with intervals.

    Args:
        games: ``games[i][j]`` the games players ``i`` and ``j`` played each other
            (symmetric, 0 on the diagonal), ``n x n`` with ``2 <= n <= MAX_PLAYERS``.
        points: ``points[i][j]`` the points ``i`` scored in them (``points[i][j] +
            points[j][i] == games[i][j]``).
        prior_draws: virtual draws added to every pair that played (0 for the plain
            maximum-likelihood fit).
        z: the normal quantile of the intervals (1.96 for 95%).

    Returns:
        one :class:`Rating` per player, in order, the ratings' mean 0.

    Raises:
        ValueError: for tables that are not results, players who never met anyone
            connected to the others, or (with ``prior_draws=0``) results with no finite
            maximum (a player who won, or lost, every game; see the module).
    """
    n = _check(games, points)
    if not math.isfinite(prior_draws) or prior_draws < 0:
        raise ValueError(f"prior_draws must be 0 or more, not {prior_draws}")
    g = [[float(games[i][j]) + (prior_draws if games[i][j] else 0.0) for j in range(n)]
         for i in range(n)]
    s = [[float(points[i][j]) + (prior_draws / 2 if games[i][j] else 0.0)
          for j in range(n)] for i in range(n)]
    met = [[g[i][j] > 0 for j in range(n)] for i in range(n)]
    if len(_reach(met, 0)) < n:
        raise ValueError("some players never met the others (directly or through "
                         "common opponents): their ratings cannot be compared")
    scored = [[s[i][j] > 0 for j in range(n)] for i in range(n)]
    lost = [[s[j][i] > 0 for j in range(n)] for i in range(n)]
    if len(_reach(scored, 0)) < n or len(_reach(lost, 0)) < n:
        raise ValueError("a player (or group) won or lost every game against the "
                         "others, so its rating has no finite maximum-likelihood value "
                         "(a prior of virtual draws makes it finite)")

    def log_likelihood(r: list[float]) -> float:
        total = 0.0
        for i in range(n):
            for j in range(i + 1, n):
                if g[i][j]:
                    e = _expected(r[i] - r[j])
                    total += s[i][j] * math.log(e) + s[j][i] * math.log(1.0 - e)
        return total

    def information(r: list[float]) -> tuple[list[float], list[list[float]]]:
        gradient = [0.0] * n
        fisher = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if i != j and g[i][j]:
                    e = _expected(r[i] - r[j])
                    gradient[i] += _K * (s[i][j] - g[i][j] * e)
                    w = _K * _K * g[i][j] * e * (1.0 - e)
                    fisher[i][i] += w
                    fisher[i][j] -= w
        return gradient, fisher

    r = [0.0] * n
    current = log_likelihood(r)
    for _ in range(_ITERATIONS):
        gradient, fisher = information(r)
        shifted = [[f + 1.0 / n for f in row] for row in fisher]  # fixes the mean at 0
        step = _solve(shifted, gradient)
        factor = 1.0
        while True:
            trial = [x + factor * d for x, d in zip(r, step, strict=True)]
            value = log_likelihood(trial)
            if value >= current or factor < 1e-6:
                break
            factor /= 2.0
        r, current = trial, value
        if max(abs(factor * d) for d in step) < 1e-9:
            break
    _, fisher = information(r)
    shifted = [[f + 1.0 / n for f in row] for row in fisher]
    ratings = []
    for i in range(n):
        unit = [1.0 if k == i else 0.0 for k in range(n)]
        variance = max(0.0, _solve(shifted, unit)[i] - 1.0 / n)
        se = math.sqrt(variance)
        elo = r[i] + 0.0
        ratings.append(Rating(elo, elo - z * se, elo + z * se, se))
    return ratings
