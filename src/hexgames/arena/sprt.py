"""Sequential probability ratio testing of two players over colour-swapped pairs.

The test decides between two hypotheses about A's Elo advantage over B,
``H0: elo = elo0`` and ``H1: elo = elo1`` (``elo0 < elo1``), adding one colour-swapped pair
of games at a time and stopping as soon as the evidence is strong enough (Wald's sequential
probability ratio test, 1945). It is the test the strongest engine projects use to accept
or reject a change (fishtest, with ``alpha = beta = 0.05``).

**The model.** A pair's result is one of five classes, the **pentanomial** model
(Van den Bergh, "Pentanomial"; fishtest's ``LLRcalc``): A's points over the two games
(0, 0.5, 1, 1.5 or 2), written here as the mean score per game ``a`` in (0, 0.25, 0.5,
0.75, 1). Pairs, not games, are the independent trials: with a first player's advantage
as large as Andantino's, the two games of a pair are strongly correlated, and a model of
single games (the trinomial win/draw/loss) overstates the variance. The Elo values are
**logistic Elo**: the expected score per game under ``H`` is
``s = 1 / (1 + 10 ** (-elo / 400))``.

**The statistic** is the generalised log-likelihood ratio (GSPRT) of fishtest:
for each hypothesis, the distribution over the five classes closest to the observed
frequencies ``p_i`` (the maximum-likelihood distribution whose mean is ``s``) is
``q_i = p_i / (1 + x (a_i - s))``, where ``x`` is the root of
``sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0`` (a Lagrange multiplier; Van den Bergh,
"Multinomial maximum likelihood estimation with a given expectation value"), and

    LLR = N * sum_i p_i * log(q1_i / q0_i)       (N pairs)

**The bounds** are Wald's: accept H1 when ``LLR >= log((1 - beta) / alpha)`` and H0 when
``LLR <= log(beta / (1 - alpha))``; with ``alpha = beta = 0.05`` they are ``±2.944``.
The error rates are then about ``alpha`` and ``beta`` when a test takes hundreds of
pairs (as with fishtest's narrow bounds); with wide bounds, decided in tens of pairs, the
plug-in distributions are rough and the rates run higher (measured on simulated players
in ``tests/test_arena_sprt.py``: about 5% at bounds 0..30 Elo, 7-8% at 0..60).

When the observed classes do not surround ``s`` (no pair yet scored below it, or none
above, as after a few straight wins), the maximum-likelihood distribution does not exist:
then every class that was never seen counts ``1e-3`` pairs, as fishtest regularises its
counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hexgames.arena.stats import (
    PAIR_SCORES,
    EloEstimate,
    elo_estimate_counts,
    pentanomial_scores,
    score_from_elo,
)

#: The count given to a pentanomial class never seen, when needed (see the module).
EPSILON = 1e-3
#: The largest Elo hypothesis accepted: beyond it the expected score is within 0.3% of
#: 0 or 1 and no match of reasonable length could tell two hypotheses apart.
MAX_ELO = 1000.0
#: The most steps for the Lagrange multiplier (Newton's method, with bisection steps
#: that halve a bracket of width at most ``1 / (s (1 - s))``: 200 reach the float
#: resolution for any allowed ``s``; Newton's usually needs under 10).
_STEPS = 200


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))`` on the LLR:
    below the first the test accepts H0, above the second H1.

    Args:
        alpha: the probability of accepting H1 when H0 holds (the false positive rate),
            in (0, 1).
        beta: the probability of accepting H0 when H1 holds, in (0, 1);
            ``alpha + beta < 1``.

    Raises:
        ValueError: for a value that is not a number in (0, 1), or ``alpha + beta >= 1``.
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be a number between 0 and 1 (exclusive), "
                             f"not {value!r}")
    if alpha + beta >= 1.0:
        raise ValueError(f"alpha + beta must be below 1, not {alpha + beta:g}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _check_elo(elo0: float, elo1: float) -> None:
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value) or abs(value) > MAX_ELO:
            raise ValueError(f"{name} must be a finite number of Elo between "
                             f"-{MAX_ELO:g} and {MAX_ELO:g}, not {value!r}")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, not {elo0:g} and {elo1:g}")


def _check_counts(pentanomial: Sequence[int]) -> None:
    if len(pentanomial) != 5:
        raise ValueError(f"a pentanomial has five counts, not {len(pentanomial)}")
    for count in pentanomial:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"a pentanomial count is a whole number 0 or more, "
                             f"not {count!r}")


def _mle(pdf: Sequence[tuple[float, float]], s: float) -> list[float]:
    """The probabilities ``q_i`` of the distribution on the values ``a_i`` of ``pdf``
    (pairs ``(a_i, p_i)``, ``p_i > 0``, some ``a_i`` below ``s`` and some above) that is
    most likely to have produced the frequencies ``p_i`` among those of mean ``s``."""
    low = -1.0 / (max(a for a, _ in pdf) - s)
    high = 1.0 / (s - min(a for a, _ in pdf))
    d = [(a - s, p) for a, p in pdf]
    # The secular function sum p d / (1 + x d) falls from +inf at ``low`` to -inf at
    # ``high``: Newton's method from 0, bisecting whenever a step leaves the bracket.
    x = 0.0
    for _ in range(_STEPS):
        value = 0.0
        slope = 0.0
        for di, p in d:
            t = di / (1.0 + x * di)
            value += p * t
            slope -= p * t * t
        if value > 0.0:
            low = x
        else:
            high = x
        step = x - value / slope if slope else (low + high) / 2.0
        if not low < step < high:
            step = (low + high) / 2.0
        if step == x or abs(step - x) <= 1e-15 * (1.0 + abs(x)):
            break
        x = step
    q = [p / (1.0 + x * di) for di, p in d]
    total = math.fsum(q)
    return [value / total for value in q]


def llr_logistic(pentanomial: Sequence[int], elo0: float, elo1: float) -> float:
    """The generalised log-likelihood ratio of ``H1: elo = elo1`` against
    ``H0: elo = elo0`` (logistic Elo) for pentanomial counts (see the module).

    Args:
        pentanomial: the numbers of pairs ``(LL, LD, DD+WL, WD, WW)`` from A's side.
        elo0, elo1: the hypotheses, logistic Elo, ``elo0 < elo1``, each within
            ``±MAX_ELO``.

    Returns:
        the LLR (natural logarithm), 0.0 with no pair; positive favours H1.

    Raises:
        ValueError: for counts that are not five whole numbers 0 or more, or bad
            hypotheses.
    """
    _check_counts(pentanomial)
    _check_elo(elo0, elo1)
    n = sum(pentanomial)
    if n == 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    seen = [a for a, c in zip(PAIR_SCORES, pentanomial, strict=True) if c]
    if min(seen) < s0 and max(seen) > s1:
        counts = [float(c) for c in pentanomial]
    else:
        counts = [float(c) if c else EPSILON for c in pentanomial]
    total = math.fsum(counts)
    pdf = [(a, c / total) for a, c in zip(PAIR_SCORES, counts, strict=True) if c > 0]
    q0, q1 = _mle(pdf, s0), _mle(pdf, s1)
    return total * math.fsum(p * math.log(b / a)
                             for (_, p), a, b in zip(pdf, q0, q1, strict=True))


@dataclass
class Sprt:
    """The state of a sequential test: the hypotheses, the error rates, the pentanomial
    counts so far, and the verdict.

    Attributes:
        elo0, elo1: the hypotheses (logistic Elo of A over B), ``elo0 < elo1``.
        alpha, beta: the error rates (see :func:`sprt_bounds`).
        pentanomial: pairs so far by class ``(LL, LD, DD+WL, WD, WW)``, A's side.

    Raises:
        ValueError: for bad hypotheses or error rates.
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)

    def __post_init__(self) -> None:
        _check_elo(self.elo0, self.elo1)
        self.lower, self.upper = sprt_bounds(self.alpha, self.beta)
        _check_counts(self.pentanomial)
        self._llr: float | None = None

    @property
    def pairs(self) -> int:
        """The number of pairs counted."""
        return sum(self.pentanomial)

    def add_pair(self, score_1: float, score_2: float) -> None:
        """Count a colour-swapped pair from A's scores in its two games (1, 0.5 or 0).

        Raises:
            ValueError: for a score that is not 0, 0.5 or 1.
        """
        for score in (score_1, score_2):
            if score not in (0.0, 0.5, 1.0):
                raise ValueError(f"a game's score is 0, 0.5 or 1, not {score!r}")
        self.pentanomial[round(2 * (score_1 + score_2))] += 1
        self._llr = None

    def llr(self) -> float:
        """The log-likelihood ratio so far (:func:`llr_logistic`)."""
        if self._llr is None:
            self._llr = llr_logistic(self.pentanomial, self.elo0, self.elo1)
        return self._llr

    def verdict(self) -> str | None:
        """``"H1"`` when the LLR has reached the upper bound, ``"H0"`` the lower one,
        ``None`` while the test goes on."""
        llr = self.llr()
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def elo(self) -> EloEstimate | None:
        """A's Elo difference with its 95% interval from the pairs' scores (the
        pentanomial variance), or ``None`` before the first pair."""
        if not self.pairs:
            return None
        return elo_estimate_counts(pentanomial_scores(self.pentanomial), method="pairs")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: hypotheses, error rates, bounds, LLR, counts, verdict and
        the Elo estimate."""
        elo = self.elo()
        return {"model": "logistic Elo, pentanomial GSPRT",
                "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha,
                "beta": self.beta, "lower": self.lower, "upper": self.upper,
                "llr": self.llr(), "pairs": self.pairs,
                "pentanomial": list(self.pentanomial), "verdict": self.verdict(),
                "elo": None if elo is None else elo.to_json()}
