"""Tournament pairings and standings, pure: no database, no server (issue 35).

Entrants are numbered ``0 .. n - 1`` in their seeding order (the order they joined, or
by rating); a pairing is ``(first, second)``, ``first`` moving first (Andantino White,
Abande Black), ``second`` ``None`` for a bye.

- :func:`round_robin`: the Berger tables (FIDE Handbook C.05, Annex 1), single or
  double (the second cycle with colours reversed); with an odd number of entrants the
  one paired with the dummy has a bye. Every pair meets once a cycle, and each
  entrant's firsts and seconds differ by at most one (none in a double one).
- :func:`swiss_pairings`: a documented rule of this project, Dutch-like (after the
  FIDE Dutch system, C.04.3, much simplified): entrants by score, then seed; the top
  unpaired entrant meets, in order of preference, one of its own score group (the
  upper half against the lower half), then the nearest score below; no pair meets
  twice; with an odd number the lowest-ranked entrant without a bye so far has it.
  Colours: the one who had fewer firsts moves first, then the one who moved second
  last, then the higher-ranked; a pairing that gives someone a third first (or second)
  in a row, or a colour difference past two, is avoided when another exists. A full
  search (backtracking) finds a pairing without repeats whenever one exists; past
  :data:`SEARCH_BUDGET` steps it gives up (:class:`PairingError`).
- :func:`standings`: points (a win 1, a draw ½, a bye :data:`BYE_POINTS` or as told),
  the Andantino series score of RULES.md (the winner of a game scores 50 less the tiles
  on the surface when it ended), Sonneborn-Berger (the points of each opponent beaten
  and half those of each drawn) and Buchholz (the sum of the opponents' points); a bye
  adds nothing to either tie-break.
- :func:`crosstable`: each entrant's results against each other.
- :func:`next_divisions`: a league in the manner of Little Golem: divisions of a size,
  the top ``promote`` of each division go up and the bottom ``promote`` go down.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

#: What a bye scores in a Swiss tournament (a full point, as in FIDE's rules); in a
#: round robin the entrant with a bye just sits the round out (0).
BYE_POINTS = 1.0
#: The most steps the Swiss pairing search takes before it gives up.
SEARCH_BUDGET = 200_000
#: The Andantino series score: a game's winner scores this less the tiles on the
#: surface when it ended (RULES.md, "Series scoring").
SERIES_TILES = 50

#: ``(first, second)``; ``second`` is ``None`` for a bye.
Pairing = tuple[int, int | None]


class PairingError(ValueError):
    """No pairing can be made (too few entrants, or every pairing would repeat one)."""


@dataclass(frozen=True)
class Played:
    """One game (or bye) of a tournament.

    Attributes:
        round: the round (1, 2, ...).
        first, second: the entrants; ``second`` ``None`` for a bye of ``first``.
        result: ``1-0``, ``0-1``, ``1/2-1/2``, ``0-0`` (lost by both: a game deleted
            by an administrator, a double forfeit), or ``*`` while it runs.
        tiles: for Andantino, the tiles on the surface when the game ended (the two of
            the setup included); ``None`` for another game (no series score).
    """

    round: int
    first: int
    second: int | None
    result: str = "*"
    tiles: int | None = None

    @property
    def over(self) -> bool:
        """Whether it counts: a bye, or a game with a result."""
        return self.second is None or self.result != "*"


@dataclass
class Standing:
    """One entrant's line of the standings (see :func:`standings`)."""

    entrant: int
    points: float = 0.0
    series: int = 0
    sonneborn_berger: float = 0.0
    buchholz: float = 0.0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    rank: int = 0
    opponents: list[int] = field(default_factory=list)


def round_robin(n: int, cycles: int = 1) -> list[list[Pairing]]:
    """The rounds of a round robin of ``n`` entrants by the Berger tables: ``n - 1``
    rounds a cycle (``n`` when ``n`` is odd: each round one entrant has a bye), each a
    list of pairings, board 1 first. ``cycles`` 2 plays it again with colours
    reversed (a double round robin), the last two rounds of the first cycle swapped
    (as FIDE's C.05 advises) so that no two entrants meet in consecutive rounds.

    Raises:
        PairingError: for fewer than two entrants or cycles other than 1 and 2.
    """
    if n < 2:
        raise PairingError(f"a round robin needs two entrants or more, not {n}")
    if cycles not in (1, 2):
        raise PairingError(f"a round robin has one cycle or two, not {cycles}")
    size = n + n % 2  # with the dummy, whose partner has a bye
    dummy = size - 1 if n % 2 else None
    last = size - 1
    rounds: list[list[Pairing]] = []
    # Berger's tables: in round r (from 0) board 1 pairs the entrant `last` with
    # a = r * size / 2 mod (size - 1), `last` moving first in every second round; board
    # i + 1 pairs a + i (first) with a - i, mod (size - 1).
    for r in range(size - 1):
        pairs: list[tuple[int, int]] = []
        other = r * (size // 2) % (size - 1)
        pairs.append((last, other) if r % 2 else (other, last))
        for i in range(1, size // 2):
            pairs.append(((other + i) % (size - 1), (other - i) % (size - 1)))
        rounds.append([_bye_or(p, dummy) for p in pairs])
    if cycles == 2:
        second: list[list[Pairing]] = [
            [(b, a) if b is not None else (a, None) for a, b in games] for games in rounds]
        if len(rounds) > 2:  # FIDE's advice: so no pair meets in two rounds running
            rounds[-2], rounds[-1] = rounds[-1], rounds[-2]
        rounds += second
    return rounds


def _bye_or(pair: tuple[int, int], dummy: int | None) -> Pairing:
    a, b = pair
    if b == dummy:
        return (a, None)
    if a == dummy:
        return (b, None)
    return (a, b)


def points_of(n: int, games: Iterable[Played], bye_points: float = BYE_POINTS) -> list[float]:
    """Each entrant's points from the games that are over (a win 1, a draw ½, a bye
    ``bye_points``)."""
    points = [0.0] * n
    for game in games:
        if game.second is None:
            points[game.first] += bye_points
        elif game.result == "1-0":
            points[game.first] += 1
        elif game.result == "0-1":
            points[game.second] += 1
        elif game.result == "1/2-1/2":
            points[game.first] += 0.5
            points[game.second] += 0.5
    return points


def series_points(game: Played) -> tuple[int, int]:
    """The Andantino series score of a game for (first, second): the winner's is 50
    less the tiles on the surface when it ended, a draw or a loss scores 0 (RULES.md);
    (0, 0) for a game without ``tiles``, a bye or a game that runs."""
    if game.second is None or game.tiles is None:
        return (0, 0)
    won = max(0, SERIES_TILES - game.tiles)
    return {"1-0": (won, 0), "0-1": (0, won)}.get(game.result, (0, 0))


def standings(n: int, games: Sequence[Played], *, bye_points: float = BYE_POINTS,
              order: str = "points",
              tiebreaks: Sequence[str] = ("sonneborn_berger", "buchholz")
              ) -> list[Standing]:
    """The standings of ``n`` entrants after ``games`` (games still running count for
    nothing but as opponents for Buchholz once over), best first.

    Args:
        order: ``points`` or ``series`` (the Andantino series score first).
        tiebreaks: the tie-breaks in order, among ``sonneborn_berger``, ``buchholz``,
            ``won`` (most wins) and ``points`` (for ``order="series"``); then the seed.

    Entrants equal on everything share a rank (``1, 2, 2, 4``).

    Raises:
        ValueError: for an unknown order or tie-break.
    """
    known = {"sonneborn_berger", "buchholz", "won", "points", "series"}
    if order not in ("points", "series"):
        raise ValueError(f"order must be points or series, not {order!r}")
    for name in tiebreaks:
        if name not in known:
            raise ValueError(f"unknown tie-break {name!r}: one of {', '.join(sorted(known))}")
    table = [Standing(i) for i in range(n)]
    points = points_of(n, games, bye_points)
    for i, line in enumerate(table):
        line.points = points[i]
    for game in games:
        if not game.over:
            continue
        if game.second is None:
            table[game.first].byes += 1
            continue
        first, second = table[game.first], table[game.second]
        first.played += 1
        second.played += 1
        first.opponents.append(game.second)
        second.opponents.append(game.first)
        a, b = series_points(game)
        first.series += a
        second.series += b
        if game.result == "1/2-1/2":
            first.drawn += 1
            second.drawn += 1
            first.sonneborn_berger += points[game.second] / 2
            second.sonneborn_berger += points[game.first] / 2
        elif game.result not in ("1-0", "0-1"):  # 0-0: lost by both
            first.lost += 1
            second.lost += 1
        else:
            winner, loser = (first, second) if game.result == "1-0" else (second, first)
            winner.won += 1
            loser.lost += 1
            winner.sonneborn_berger += points[loser.entrant]
    for line in table:
        line.buchholz = sum(points[o] for o in line.opponents)

    def key(line: Standing) -> tuple[float, ...]:
        values = [getattr(line, order), *(getattr(line, name) for name in tiebreaks)]
        return tuple(-float(v) for v in values)

    ranked = sorted(table, key=lambda line: (key(line), line.entrant))
    for place, line in enumerate(ranked):
        same = place > 0 and key(ranked[place - 1]) == key(line)
        line.rank = ranked[place - 1].rank if same else place + 1
    return ranked


def crosstable(n: int, games: Iterable[Played]) -> list[list[list[str]]]:
    """``table[i][j]``: entrant ``i``'s results against ``j`` in round order, each
    ``1``, ``½`` or ``0`` (``*`` for a game that runs; ``0`` for both of a ``0-0``);
    empty lists where they have not met, and on the diagonal."""
    table: list[list[list[str]]] = [[[] for _ in range(n)] for _ in range(n)]
    mine = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("½", "½"), "*": ("*", "*"),
            "0-0": ("0", "0")}
    for game in sorted(games, key=lambda g: g.round):
        if game.second is None:
            continue
        a, b = mine.get(game.result, ("*", "*"))
        table[game.first][game.second].append(a)
        table[game.second][game.first].append(b)
    return table


# --- Swiss -------------------------------------------------------------------------------


@dataclass
class _History:
    met: set[frozenset[int]]
    colours: list[list[int]]  # per entrant: 0 first, 1 second, by round
    byes: set[int]


def _history(n: int, games: Iterable[Played]) -> _History:
    history = _History(set(), [[] for _ in range(n)], set())
    for game in sorted(games, key=lambda g: g.round):
        if game.second is None:
            history.byes.add(game.first)
            continue
        history.met.add(frozenset((game.first, game.second)))
        history.colours[game.first].append(0)
        history.colours[game.second].append(1)
    return history


def _colour_difference(colours: list[int]) -> int:
    """Firsts less seconds."""
    return colours.count(0) - colours.count(1)


def _colours(a: int, b: int, history: _History, rank: dict[int, int]) -> Pairing:
    """Who of ``a`` and ``b`` moves first: the one with fewer firsts so far, then the one
    who moved second last, then the higher-ranked."""
    da, db = (_colour_difference(history.colours[x]) for x in (a, b))
    if da != db:
        return (a, b) if da < db else (b, a)
    ca, cb = history.colours[a], history.colours[b]
    for x, y in zip(reversed(ca), reversed(cb), strict=False):
        if x != y:
            return (a, b) if x == 1 else (b, a)
    return (a, b) if rank[a] < rank[b] else (b, a)


def _colour_trouble(pairing: Pairing, history: _History) -> int:
    """How badly a pairing's colours go: 1 for each entrant who would get the same
    colour a third time running or a colour difference past 2."""
    trouble = 0
    for who, colour in ((pairing[0], 0), (pairing[1], 1)):
        if who is None:
            continue
        past = history.colours[who]
        if past[-2:] == [colour, colour]:
            trouble += 1
        if abs(_colour_difference([*past, colour])) > 2:
            trouble += 1
    return trouble


def swiss_pairings(n: int, games: Sequence[Played], *,
                   seeds: Sequence[int] | None = None,
                   bye_points: float = BYE_POINTS) -> list[Pairing]:
    """The pairings of the next round of a Swiss tournament of ``n`` entrants after
    ``games`` (all over), by the rule of this module's documentation; board 1 first, the
    bye (if any) last. ``seeds`` orders entrants of equal score (default: by number).

    Raises:
        PairingError: for fewer than two entrants, or when every pairing would repeat a
            game (or the search ran out of :data:`SEARCH_BUDGET` steps).
    """
    if n < 2:
        raise PairingError(f"a Swiss tournament needs two entrants or more, not {n}")
    points = points_of(n, games, bye_points)
    seed = {e: i for i, e in enumerate(seeds if seeds is not None else range(n))}
    order = sorted(range(n), key=lambda e: (-points[e], seed[e]))
    rank = {e: i for i, e in enumerate(order)}
    history = _history(n, games)
    steps = [0]

    def candidates(left: list[int]) -> list[int]:
        top = left[0]
        group = [e for e in left if points[e] == points[top]]
        half = len(group) // 2

        def preference(k: int) -> tuple[float, int, int]:
            other = left[k]
            pairing = _colours(top, other, history, rank)
            distance = abs(k - half) if other in group else k
            return (abs(points[top] - points[other]),
                    _colour_trouble(pairing, history), distance)

        ks = [k for k in range(1, len(left))
              if frozenset((top, left[k])) not in history.met]
        return [left[k] for k in sorted(ks, key=preference)]

    def pair(left: list[int]) -> list[Pairing] | None:
        if not left:
            return []
        steps[0] += 1
        if steps[0] > SEARCH_BUDGET:
            raise PairingError(f"no Swiss pairing found in {SEARCH_BUDGET} steps")
        top = left[0]
        for other in candidates(left):
            rest = pair([e for e in left if e not in (top, other)])
            if rest is not None:
                return [_colours(top, other, history, rank), *rest]
        return None

    if n % 2 == 0:
        found = pair(order)
        if found is None:
            raise PairingError("every pairing would repeat a game: the tournament has "
                               "played its rounds")
        return found
    # the bye: the lowest-ranked entrant without one so far (then anyone), if the rest
    # can be paired
    byes = [e for e in reversed(order) if e not in history.byes] + \
        [e for e in reversed(order) if e in history.byes]
    for bye in byes:
        found = pair([e for e in order if e != bye])
        if found is not None:
            return [*found, (bye, None)]
    raise PairingError("every pairing would repeat a game: the tournament has played "
                       "its rounds")


# --- leagues -----------------------------------------------------------------------------


def split_divisions(ranked: Sequence[int], size: int) -> list[list[int]]:
    """Entrants in order of rank, cut into divisions of ``size`` from the top; a last
    division of one (who would have nobody to play) joins the one above.

    Raises:
        ValueError: for a size below 2.
    """
    if size < 2:
        raise ValueError(f"a division holds two entrants or more, not {size}")
    divisions = [list(ranked[i:i + size]) for i in range(0, len(ranked), size)]
    if len(divisions) > 1 and len(divisions[-1]) < 2:
        last = divisions.pop()
        divisions[-1] += last
    return divisions


def next_divisions(finished: Sequence[Sequence[int]], size: int, promote: int, *,
                   leaving: Iterable[int] = (), joining: Sequence[int] = ()
                   ) -> list[list[int]]:
    """The divisions of the next season of a league: ``finished`` are this season's
    divisions, top first, each in the order of its final standings. The top
    ``promote`` of each division change places with the bottom ``promote`` of the one
    above; then those ``leaving`` go, those ``joining`` come in at the bottom, and the
    whole order is cut into divisions of ``size`` again (:func:`split_divisions`), so
    a gap left above is filled from below.

    Raises:
        ValueError: for a ``promote`` below 0 or past half a division's size.
    """
    if promote < 0 or 2 * promote > size:
        raise ValueError(f"promote must be from 0 to half the division size ({size // 2}), "
                         f"not {promote}")
    divisions = [list(d) for d in finished]
    for upper, lower in itertools.pairwise(divisions):
        moves = min(promote, len(upper) // 2, len(lower) // 2)
        if moves:
            down, up = upper[-moves:], lower[:moves]
            upper[-moves:] = up
            lower[:moves] = down
    gone = set(leaving)
    order = [e for d in divisions for e in d if e not in gone]
    order += [e for e in joining if e not in gone and e not in order]
    return split_divisions(order, size) if len(order) >= 2 else []
