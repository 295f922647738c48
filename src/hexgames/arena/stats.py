"""Match statistics: the Elo difference that a score means, with a confidence interval.

The logistic Elo model: a player who scores ``s`` (0 to 1, draws counting one half)
against another is ``-400 log10(1/s - 1)`` Elo points stronger. The 95% interval maps
``s ± 1.96·se`` through the same formula, ``se`` being the standard error of the mean of
the per-game scores (or of the per-pair scores for colour-swapped pairs, which removes the
first player's advantage from the variance; the five classes of a pair's result, LL, LD,
DD or WL, WD, WW, are the **pentanomial** model of fishtest and of Van den Bergh's
"Pentanomial" notes):

    se = sqrt((mean(x²) - mean(x)²) / n)

A score of 1 (or 0) has an infinite Elo difference; its interval is then one-sided, with
the bound at the expected score ``p`` for which ``n`` results all this good have
probability 2.5% (``p = 0.025 ** (1/n)``, since the chance of a win never exceeds the
expected score).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The normal quantile of a two-sided 95% interval, as in the usual ``s ± 1.96·se``.
Z95 = 1.96
_TAIL = 0.025


def elo_from_score(score: float) -> float:
    """The Elo difference for an expected ``score`` in [0, 1]: ``-400 log10(1/s - 1)``;
    ``-inf`` for 0 and ``+inf`` for 1.

    Raises:
        ValueError: if ``score`` is outside [0, 1] or not a number.
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, not {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: no -0.0 at 50%


def score_from_elo(elo: float) -> float:
    """The expected score for an Elo difference: ``1 / (1 + 10 ** (-elo / 400))``."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and its 95% confidence interval.

    Attributes:
        diff: the Elo difference for ``score`` (may be ``±inf``).
        low, high: the interval's bounds (``-inf``/``+inf`` when unbounded).
        score: the mean score (0 to 1).
        se: the standard error of ``score``.
        n: the number of scores it was computed from (games or pairs).
        method: ``"games"`` (per-game scores) or ``"pairs"`` (per colour-swapped pair).
    """

    diff: float
    low: float
    high: float
    score: float
    se: float
    n: int
    method: str = "games"

    def margin(self) -> float:
        """Half the width of the interval (``inf`` when a bound is infinite)."""
        return (self.high - self.low) / 2.0

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict; infinite values are written as the strings ``"+inf"`` and
        ``"-inf"`` (JSON has no infinity)."""
        return {"diff": json_number(self.diff), "low": json_number(self.low),
                "high": json_number(self.high), "score": self.score, "se": self.se,
                "n": self.n, "method": self.method}


def json_number(value: float) -> float | str:
    """``value`` for JSON: a finite float as it is, else ``"+inf"``/``"-inf"``/``"nan"``."""
    if math.isfinite(value):
        return value
    if math.isnan(value):
        return "nan"
    return "+inf" if value > 0 else "-inf"


def elo_estimate(scores: Sequence[float], *, method: str = "games",
                 z: float = Z95) -> EloEstimate:
    """The Elo difference and interval from per-game (or per-pair) scores.

    Args:
        scores: each game's score for the player, 1, 0.5 or 0 (or each pair's mean score,
            0 to 1 in steps of 0.25).
        method: a label kept in the result (``"games"`` or ``"pairs"``).
        z: the normal quantile of the interval (1.96 for 95%).

    Raises:
        ValueError: if ``scores`` is empty or holds a value outside [0, 1].
    """
    if any(not 0.0 <= x <= 1.0 for x in scores):
        raise ValueError("every score is between 0 and 1")
    return elo_estimate_counts(Counter(scores), method=method, z=z)


def elo_estimate_counts(counts: Mapping[float, int], *, method: str = "games",
                        z: float = Z95) -> EloEstimate:
    """As :func:`elo_estimate`, from how many times each score occurred (score ->
    count), so that a match of any length is summed in constant memory: per-game scores
    ``{1.0: wins, 0.5: draws, 0.0: losses}``, or the pentanomial counts of colour-swapped
    pairs as ``{0.0: LL, 0.25: LD, 0.5: DD+WL, 0.75: WD, 1.0: WW}``
    (:func:`pentanomial_scores`).

    Raises:
        ValueError: if there is no count, a count is negative, or a score is outside
            [0, 1].
    """
    if any(not 0.0 <= x <= 1.0 for x in counts):
        raise ValueError("every score is between 0 and 1")
    if any(c < 0 for c in counts.values()):
        raise ValueError("a count of scores cannot be negative")
    n = sum(counts.values())
    if n == 0:
        raise ValueError("no results to estimate an Elo difference from")
    mean = math.fsum(x * c for x, c in counts.items()) / n
    variance = max(0.0, math.fsum(x * x * c for x, c in counts.items()) / n - mean * mean)
    se = math.sqrt(variance / n)
    diff = elo_from_score(mean)
    if mean == 1.0:
        low, high = elo_from_score(_TAIL ** (1.0 / n)), math.inf
    elif mean == 0.0:
        low, high = -math.inf, elo_from_score(1.0 - _TAIL ** (1.0 / n))
    elif n == 1:  # one drawn game or one split pair: no spread to estimate a width from
        low, high = -math.inf, math.inf
    else:
        low = elo_from_score(max(0.0, mean - z * se))
        high = elo_from_score(min(1.0, mean + z * se))
    return EloEstimate(diff, low, high, mean, se, n, method)


#: A colour-swapped pair's mean score for A, by its pentanomial class: the index is A's
#: points over the two games times 2 (0 = two losses ... 4 = two wins).
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def pentanomial_scores(pentanomial: Sequence[int]) -> dict[float, int]:
    """The pentanomial counts ``(LL, LD, DD+WL, WD, WW)`` of colour-swapped pairs as
    pair score -> count, for :func:`elo_estimate_counts`.

    Raises:
        ValueError: if there are not five counts.
    """
    if len(pentanomial) != 5:
        raise ValueError(f"a pentanomial has five counts, not {len(pentanomial)}")
    return dict(zip(PAIR_SCORES, pentanomial, strict=True))


def elo_text(value: float, digits: int = 1) -> str:
    """An Elo figure with its sign, to ``digits`` decimals: ``+147.2``, ``-3.0``, ``+inf``;
    a value that rounds to zero is ``+0.0``, never ``-0.0``."""
    if not math.isfinite(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value, digits) + 0.0:+.{digits}f}"  # + 0.0 makes -0.0 plain 0.0


def format_elo(estimate: EloEstimate) -> str:
    """``+147.2 (95% CI +107.5 to +191.3)``, or with ``inf`` for unbounded ends."""
    low, high = elo_text(estimate.low), elo_text(estimate.high)
    return f"{elo_text(estimate.diff)} (95% CI {low} to {high})"
