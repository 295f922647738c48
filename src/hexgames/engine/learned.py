"""The learned evaluations: their terms, their weights files and their fitting.

**Abande.** The evaluation is linear in :data:`TERMS` terms
(``native/core/src/abande/ai/learned.rs`` computes them in the search; :func:`terms`
here is the training code's own, written from the board's public API): the hand-written
evaluation's seven (score, material, frozen, threats, exposed, mobility, hand) and nine
more (sleeping stacks, awake single pieces, stacks on the rim, stacks in the centre, the
score once both hands hold 6 pieces or fewer, the hand difference times the pieces in
hand, a tempo, the colour, awake full stacks). Each is the side to move's value minus
the opponent's. The value, in points for the side to move, is ``clamp(sum(w * t) //
SCALE, -BOUND, BOUND)``.

**Andantino.** The hand-written evaluation (``hexgames.engine.alphabeta``,
"Evaluations") is linear in its weight tables, so the learned one is the same incremental
evaluation with fitted tables: :data:`ANDANTINO_TERMS` terms, the windows of five
holding 1 to 4 tiles of one colour only, the tiles with 0 to 6 opponent neighbours,
the tempo and Red's unused balance-variant right (:func:`andantino_terms`); its value is
the plain weighted sum. The native core needs the tables to grow (0 to 65536), so the
fit keeps them so.

Both are the alpha-beta player's default: each beat its game's hand-written evaluation
under SPRT (docs/evaluation.md).

Both are fitted by Texel's method (Peter Österlund, "Texel's tuning method",
2014; https://www.chessprogramming.org/Texel%27s_Tuning_Method): positions of
self-play games, each labelled with its game's result for the side to move (1, 1/2,
0), and the weights that minimise the mean squared error between the result and
``1 / (1 + exp(-value / PROBABILITY_SCALE))`` (:func:`fit`, full-batch Adam from the
hand-written weights). ``tools/train_eval.py`` reproduces the shipped weights
(``hexgames/data/abande_eval.json``) from scratch; docs/evaluation.md tells how they
were made and how they played.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

from hexgames.core import HexgamesError

#: The terms' names, in the order of the weights.
TERM_NAMES = ("score", "material", "frozen", "threats", "exposed", "mobility", "hand",
              "sleeping", "awake_singles", "rim", "centre", "endgame_score",
              "hand_phase", "tempo", "black", "awake_full")
#: The number of terms.
TERMS = len(TERM_NAMES)
#: The hand-written evaluation's weights (``abande::ai::eval::WEIGHTS``).
HAND_WEIGHTS = (100, 8, 0, 81, 81, 94, 163)
#: The weights' unit: a weight of ``SCALE`` is one point a unit of its term.
SCALE = 16
#: The largest value (points, either sign).
BOUND = 50_000
#: The largest weight (either sign).
MAX_WEIGHT = 1_000_000
#: The logistic's scale in points (the alpha-beta player's Abande win probability).
PROBABILITY_SCALE = 200.0
#: The shipped weights' files in the package, by game.
WEIGHTS_FILES = {"abande": "abande_eval.json", "andantino": "andantino_eval.json"}
#: Andantino's terms' names.
ANDANTINO_TERM_NAMES = ("line1", "line2", "line3", "line4", "enclosure0", "enclosure1",
                        "enclosure2", "enclosure3", "enclosure4", "enclosure5",
                        "enclosure6", "tempo", "right")
#: The number of Andantino's terms.
ANDANTINO_TERMS = len(ANDANTINO_TERM_NAMES)
#: Andantino's hand-written weights (line 1 to 4, enclosure 0 to 6, tempo, right).
ANDANTINO_HAND_WEIGHTS = (1, 6, 30, 160, 0, 0, 1, 4, 16, 60, 60, 30, 40)
#: Andantino's largest table weight and largest tempo or right (the native limits).
ANDANTINO_MAX_WEIGHT = 65536
ANDANTINO_MAX_POINTS = 1000
#: The logistic's scale in Andantino (points).
ANDANTINO_PROBABILITY_SCALE = 250.0
_AXES = ((1, 0), (0, 1), (1, -1))
#: Black's hand while captures are still forbidden (docs/rules.md).
_OPENING_HAND = 16
_NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _ring(cell: tuple[int, int]) -> int:
    q, r = cell
    return max(abs(q), abs(r), abs(q + r))


def terms(board: Any) -> list[int]:
    """The :data:`TERMS` terms of an Abande ``board`` whose game goes on, side to
    move's view (see the module)."""
    stacks: dict[tuple[int, int], tuple[Any, ...]] = board.stacks()
    top = board.rules.max_height
    me = int(board.turn)
    owner = {cell: int(stack[-1]) for cell, stack in stacks.items()}
    height = {cell: len(stack) for cell, stack in stacks.items()}

    def side(colour: int) -> int:
        return 1 if colour == me else -1

    def awake(cell: tuple[int, int]) -> bool:
        q, r = cell
        return any(owner.get((q + dq, r + dr), owner[cell]) != owner[cell]
                   for dq, dr in _NEIGHBOURS)

    t = [0] * TERMS
    hands = board.hands
    in_hands = hands[0] + hands[1]
    reach: tuple[set[tuple[int, int]], set[tuple[int, int]]] = (set(), set())
    captures_allowed = hands[0] <= _OPENING_HAND
    for cell, colour in owner.items():
        s, h, up = side(colour), height[cell], awake(cell)
        t[1] += s * h
        t[2] += s * (h == top)
        if up:
            t[0] += s * h
            t[8] += s * (h == 1)
            t[15] += s * (h == top)
        else:
            t[7] += s
        ring = _ring(cell)
        t[9] += s * (ring == 3)
        t[10] += s * (ring <= 1)
        if captures_allowed:
            q, r = cell
            targets = [n for n in ((q + dq, r + dr) for dq, dr in _NEIGHBOURS)
                       if owner.get(n, colour) != colour and h + height[n] <= top]
            reach[colour].update(targets)
            t[5] += s * bool(targets)
    t[3] = sum(height[c] for c in reach[me])
    t[4] = -sum(height[c] for c in reach[1 - me])
    t[6] = hands[me] - hands[1 - me]
    t[11] = t[0] if in_hands <= 6 else 0
    t[12] = t[6] * in_hands
    t[13] = 1
    t[14] = 1 if me == 0 else -1
    return t


def value(weights: Sequence[int], t: Sequence[int]) -> int:
    """The evaluation (points) of terms ``t`` with ``weights``, as the native core
    computes it: the weighted sum floor-divided by :data:`SCALE`, within :data:`BOUND`."""
    total = sum(w * x for w, x in zip(weights, t, strict=True))
    return max(-BOUND, min(BOUND, total // SCALE))


def andantino_terms(board: Any) -> list[int]:
    """The :data:`ANDANTINO_TERMS` terms of an Andantino ``board`` whose game goes on,
    side to move's view (see the module)."""
    me = int(board.turn)
    tiles = {cell: 0 for cell in board.tiles(0)} | {cell: 1 for cell in board.tiles(1)}
    t = [0] * ANDANTINO_TERMS
    starts = {((q - i * dq, r - i * dr), (dq, dr))
              for q, r in tiles for dq, dr in _AXES for i in range(5)}
    for (q, r), (dq, dr) in starts:
        window = [tiles.get((q + i * dq, r + i * dr)) for i in range(5)]
        mine, theirs = window.count(me), window.count(1 - me)
        if theirs == 0:
            t[min(mine, 4) - 1] += 1
        elif mine == 0:
            t[min(theirs, 4) - 1] -= 1
    for (q, r), colour in tiles.items():
        enemies = sum(tiles.get((q + dq, r + dr)) == 1 - colour for dq, dr in _NEIGHBOURS)
        t[4 + enemies] += 1 if colour != me else -1
    t[11] = 1
    if board.rules.single_adjacency and not board.single_adjacency_used:
        t[12] = 1 if me == 1 else -1
    return t


def names_of(game: str) -> tuple[str, ...]:
    """The terms' names of ``game``'s learned evaluation."""
    return TERM_NAMES if game == "abande" else ANDANTINO_TERM_NAMES


def check_weights(weights: Any, where: str = "the weights",
                  game: str = "abande") -> tuple[int, ...]:
    """``weights`` as a tuple of whole numbers for ``game``'s learned evaluation.

    Raises:
        ValueError: (``HexgamesError``) naming ``where`` when they are not a list of
            :data:`TERMS` whole numbers within :data:`MAX_WEIGHT` (Abande), or of
            :data:`ANDANTINO_TERMS` whole numbers, the tables 0 to
            :data:`ANDANTINO_MAX_WEIGHT` and growing, tempo and right 0 to
            :data:`ANDANTINO_MAX_POINTS` (Andantino).
    """
    names = names_of(game)
    if not isinstance(weights, list | tuple) or len(weights) != len(names):
        raise HexgamesError(f"{where}: the weights must be a list of {len(names)} whole "
                            f"numbers, not {weights!r}")
    for i, w in enumerate(weights):
        if game == "abande":
            lo, hi = -MAX_WEIGHT, MAX_WEIGHT
        else:
            lo, hi = 0, ANDANTINO_MAX_WEIGHT if i < 11 else ANDANTINO_MAX_POINTS
        if isinstance(w, bool) or not isinstance(w, int) or not lo <= w <= hi:
            raise HexgamesError(f"{where}: weight {i} ({names[i]}) must be a whole "
                                f"number from {lo} to {hi}, not {w!r}")
    if game == "andantino":
        for part in (weights[:4], weights[4:11]):
            if any(a > b for a, b in pairwise(part)):
                raise HexgamesError(f"{where}: Andantino's line and enclosure weights "
                                    f"must grow, not {list(part)!r}")
    return tuple(weights)


def read_weights(path: str | Path) -> tuple[str, tuple[int, ...]]:
    """The game and the weights of a weights file (JSON: ``{"game": "abande", "terms":
    [...names], "weights": [...]}``, as :func:`write_weights` writes it).

    Raises:
        ValueError: (``HexgamesError``) naming the file when it cannot be read, is not
            such JSON, names other terms or holds bad weights.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise HexgamesError(f"cannot read the evaluation weights {str(path)!r}: "
                            f"{e.strerror or e}") from None
    return _parse(text, repr(str(path)))


def _parse(text: str, where: str) -> tuple[str, tuple[int, ...]]:
    try:
        data = json.loads(text)
    except ValueError as e:
        raise HexgamesError(f"the evaluation weights {where} are not JSON: {e}") from None
    if not isinstance(data, dict) or data.get("game") not in WEIGHTS_FILES:
        raise HexgamesError(f"the evaluation weights {where} are not an object with "
                            f"\"game\": \"abande\" or \"andantino\"")
    game = data["game"]
    names = data.get("terms")
    if names != list(names_of(game)):
        raise HexgamesError(f"the evaluation weights {where} are for the terms "
                            f"{names!r}, not {list(names_of(game))!r}")
    return game, check_weights(data.get("weights"), f"the evaluation weights {where}",
                               game)


def write_weights(path: str | Path, weights: Sequence[int], game: str = "abande",
                  **about: Any) -> None:
    """Write ``weights`` of ``game`` as a weights file, with ``about`` (how they were
    made)."""
    data = {"game": game, "terms": list(names_of(game)),
            "weights": list(check_weights(list(weights), game=game)), **about}
    Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


@lru_cache(maxsize=2)
def shipped_weights(game: str = "abande") -> tuple[int, ...]:
    """The weights of ``game`` that ship with the package (``hexgames/data/``)."""
    name = WEIGHTS_FILES[game]
    text = resources.files("hexgames").joinpath("data", name).read_text("utf-8")
    return _parse(text, f"hexgames/data/{name}")[1]


#: The games whose learned evaluation is the default (it won its SPRT: both,
#: docs/evaluation.md).
DEFAULT_LEARNED = ("abande", "andantino")


def eval_weights(spec: str) -> dict[str, tuple[int, ...]]:
    """The learned weights an ``eval`` option asks for, by game (a game without is
    evaluated by hand): ``default`` (the learned evaluations of
    :data:`DEFAULT_LEARNED`), ``hand`` (none), ``learned`` (both games' shipped
    weights) or the path of a weights file (its game's).

    Raises:
        ValueError: (``HexgamesError``) for an empty option or a bad weights file.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise HexgamesError(f"eval must be default, hand, learned or the path of a "
                            f"weights file, not {spec!r}")
    if spec == "hand":
        return {}
    if spec in ("default", "learned"):
        games = DEFAULT_LEARNED if spec == "default" else tuple(WEIGHTS_FILES)
        return {game: shipped_weights(game) for game in games}
    game, weights = read_weights(spec)
    return {game: weights}


# -- fitting -----------------------------------------------------------------------------

def fit(x: Any, y: Any, start: Sequence[float], *, steps: int = 1500,
        lr: float = 2.0, fixed: Sequence[int] = (0,), scale: float = SCALE * PROBABILITY_SCALE,
        project: Any = None) -> list[float]:
    """Texel's fit: the weights (in units of :data:`SCALE`) that minimise the mean of
    ``(y - sigmoid(x @ w / SCALE / PROBABILITY_SCALE)) ** 2``, by full-batch Adam
    (Kingma and Ba, 2015) of ``steps`` steps of about ``lr`` units from ``start``; the
    weights of the term indices ``fixed`` keep their start (the score's sets the unit);
    ``scale`` is the logistic's in units of the weighted sum, and ``project`` (a function
    of the NumPy weights, changing them in place) puts them back into their allowed set
    after each step.

    Args:
        x: a NumPy array of shape (positions, TERMS), the terms.
        y: a NumPy array of shape (positions,), the results for the side to move.
    """
    import numpy as np

    w = np.array(start, dtype=np.float64)
    xs = np.asarray(x, dtype=np.float64) / scale
    ys = np.asarray(y, dtype=np.float64)
    m, v = np.zeros_like(w), np.zeros_like(w)
    b1, b2 = 0.9, 0.999
    keep = np.zeros_like(w, dtype=bool)
    keep[list(fixed)] = True
    for step in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(xs @ w)))
        g = xs.T @ (-2.0 * (ys - p) * p * (1.0 - p)) / len(ys)
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        w -= lr * (m / (1 - b1 ** step)) / (np.sqrt(v / (1 - b2 ** step)) + 1e-12)
        w[keep] = np.asarray(start, dtype=np.float64)[keep]
        if project is not None:
            project(w)
    return [float(a) for a in w]


def error(x: Any, y: Any, weights: Sequence[float],
          scale: float = SCALE * PROBABILITY_SCALE) -> float:
    """The mean squared error of :func:`fit` with ``weights``."""
    import numpy as np

    z = np.asarray(x, dtype=np.float64) @ np.asarray(weights, dtype=np.float64)
    p = 1.0 / (1.0 + np.exp(-z / scale))
    return float(np.mean((np.asarray(y, dtype=np.float64) - p) ** 2))


def andantino_project(w: Any) -> None:
    """Put Andantino's weights (NumPy, in place) back into the native core's set: the
    tables 0 to :data:`ANDANTINO_MAX_WEIGHT` and growing, tempo and right 0 to
    :data:`ANDANTINO_MAX_POINTS`."""
    import numpy as np

    for lo, hi in ((0, 4), (4, 11)):
        w[lo:hi] = np.maximum.accumulate(np.clip(w[lo:hi], 0, ANDANTINO_MAX_WEIGHT))
    w[11:] = np.clip(w[11:], 0, ANDANTINO_MAX_POINTS)


def start_weights() -> list[float]:
    """The fit's start: the hand-written weights (in units of :data:`SCALE`), the new
    terms at 0."""
    return [float(w * SCALE) for w in HAND_WEIGHTS] + [0.0] * (TERMS - len(HAND_WEIGHTS))


__all__ = ["ANDANTINO_HAND_WEIGHTS", "ANDANTINO_TERMS", "ANDANTINO_TERM_NAMES", "BOUND",
           "DEFAULT_LEARNED", "HAND_WEIGHTS", "MAX_WEIGHT", "PROBABILITY_SCALE", "SCALE",
           "TERMS", "TERM_NAMES", "andantino_project", "andantino_terms", "check_weights",
           "error", "eval_weights", "fit", "names_of", "read_weights", "shipped_weights",
           "start_weights", "terms", "value", "write_weights"]
