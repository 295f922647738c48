"""The pure tournament logic (issue 35): round robins by the Berger tables, the Swiss
pairing rule, standings with tie-breaks worked out by hand, crosstables, the Andantino
series score and the divisions of a league."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexgames.web.tournament import (
    PairingError,
    Played,
    crosstable,
    next_divisions,
    round_robin,
    series_points,
    split_divisions,
    standings,
    swiss_pairings,
)


def _check_rounds(n: int, rounds: list[list[tuple[int, int | None]]]) -> dict[str, object]:
    """Each entrant plays at most once a round; the meetings, firsts and seconds."""
    meetings: dict[frozenset[int], int] = {}
    firsts, seconds, byes = [0] * n, [0] * n, [0] * n
    for games in rounds:
        seen: list[int] = []
        for first, second in games:
            seen.append(first)
            if second is None:
                byes[first] += 1
                continue
            seen.append(second)
            pair = frozenset((first, second))
            meetings[pair] = meetings.get(pair, 0) + 1
            firsts[first] += 1
            seconds[second] += 1
        assert len(seen) == len(set(seen)), games
    return {"meetings": meetings, "firsts": firsts, "seconds": seconds, "byes": byes}


@pytest.mark.parametrize("n", range(2, 17))
def test_round_robin_every_pair_meets_once_colours_within_one(n: int) -> None:
    rounds = round_robin(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    seen = _check_rounds(n, rounds)
    meetings = seen["meetings"]
    assert isinstance(meetings, dict)
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {1}
    firsts, seconds = seen["firsts"], seen["seconds"]
    assert isinstance(firsts, list) and isinstance(seconds, list)
    assert all(abs(f - s) <= 1 for f, s in zip(firsts, seconds, strict=True))
    assert seen["byes"] == [n % 2] * n  # with an odd number each sits out once


@pytest.mark.parametrize("n", range(2, 13))
def test_double_round_robin_every_pair_twice_colours_equal(n: int) -> None:
    rounds = round_robin(n, cycles=2)
    seen = _check_rounds(n, rounds)
    meetings = seen["meetings"]
    assert isinstance(meetings, dict)
    assert set(meetings.values()) == {2} and len(meetings) == n * (n - 1) // 2
    assert seen["firsts"] == seen["seconds"]
    # the second cycle is the single one with colours reversed; the first has its
    # last two rounds swapped, so nobody meets the same entrant two rounds running
    single = round_robin(n)
    half = len(rounds) // 2
    for a, b in zip(single, rounds[half:], strict=True):
        assert [(y, x) if y is not None else (x, None) for x, y in a] == b
    if len(single) > 2:
        assert rounds[:half] == [*single[:-2], single[-1], single[-2]]
    for before, after in itertools.pairwise(rounds):
        pairs = {frozenset(p) for p in before if p[1] is not None}
        assert n <= 3 or not pairs & {frozenset(p) for p in after if p[1] is not None}


def test_round_robin_is_fides_berger_tables() -> None:
    # FIDE Handbook C.05, Annex 1, in players numbered from 1: for 3 or 4 players
    # 1-4 2-3 / 4-3 1-2 / 2-4 3-1 (4 the bye for three); for 5 or 6 players
    # 1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1
    def table(n: int) -> list[list[tuple[int, int | None]]]:
        return [[(a + 1, None if b is None else b + 1) for a, b in games]
                for games in round_robin(n)]

    assert table(4) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert table(3) == [[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]]
    assert table(6) == [[(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)],
                        [(2, 6), (3, 1), (4, 5)], [(6, 5), (1, 4), (2, 3)],
                        [(3, 6), (4, 2), (5, 1)]]
    assert table(5)[1] == [(4, None), (5, 3), (1, 2)]


def test_round_robin_refuses_nonsense() -> None:
    with pytest.raises(PairingError, match="two entrants"):
        round_robin(1)
    with pytest.raises(PairingError, match="one cycle or two"):
        round_robin(4, cycles=3)


# A round robin of four, worked out by hand:
#   0-1 1-0, 2-3 ½, 0-2 ½, 1-3 1-0, 3-0 0-1, 1-2 0-1
# points 0: 2.5, 1: 1, 2: 2, 3: 0.5
# Sonneborn-Berger 0: 1 + 2/2 + 0.5 = 2.5; 1: 0.5; 2: 0.5/2 + 2.5/2 + 1 = 2.5; 3: 2/2 = 1
# Buchholz 0: 1 + 2 + 0.5 = 3.5; 1: 2.5 + 0.5 + 2 = 5; 2: 0.5 + 2.5 + 1 = 4;
#          3: 2 + 1 + 2.5 = 5.5
FOUR = [Played(1, 0, 1, "1-0"), Played(1, 2, 3, "1/2-1/2"), Played(2, 0, 2, "1/2-1/2"),
        Played(2, 1, 3, "1-0"), Played(3, 3, 0, "0-1"), Played(3, 1, 2, "0-1")]


def test_standings_and_tiebreaks_by_hand() -> None:
    table = standings(4, FOUR, bye_points=0)
    assert [line.entrant for line in table] == [0, 2, 1, 3]
    by = {line.entrant: line for line in table}
    assert [by[i].points for i in range(4)] == [2.5, 1, 2, 0.5]
    assert [by[i].sonneborn_berger for i in range(4)] == [2.5, 0.5, 2.5, 1]
    assert [by[i].buchholz for i in range(4)] == [3.5, 5, 4, 5.5]
    assert [(by[i].won, by[i].drawn, by[i].lost) for i in range(4)] == [
        (2, 1, 0), (1, 0, 2), (1, 2, 0), (0, 1, 2)]
    assert [line.rank for line in table] == [1, 2, 3, 4]


def test_tiebreaks_decide_equal_points_and_byes() -> None:
    # Swiss of three, a bye a full point: 0 beats 1 (2 has the bye), 2 beats 0 (1 has it)
    games = [Played(1, 0, 1, "1-0"), Played(1, 2, None), Played(2, 2, 0, "1-0"),
             Played(2, 1, None)]
    table = standings(3, games)
    assert [(line.entrant, line.points) for line in table] == [(2, 2), (0, 1), (1, 1)]
    by = {line.entrant: line for line in table}
    # 0 beat 1 (1 point): SB 1; 1 beat nobody: SB 0; 2 beat 0: SB 1
    assert [by[i].sonneborn_berger for i in range(3)] == [1, 0, 1]
    # Buchholz: 0 met 1 and 2 (1 + 2), 1 met 0 (1), 2 met 0 (1); byes add nothing
    assert [by[i].buchholz for i in range(3)] == [3, 1, 1]
    assert [by[i].byes for i in range(3)] == [0, 1, 1]
    # Buchholz alone as the tie-break: 0 still ahead of 1
    assert [line.entrant for line in standings(3, games, tiebreaks=("buchholz",))] == [2, 0, 1]
    # with no tie-break at all 0 and 1 share second place
    assert [line.rank for line in standings(3, games, tiebreaks=())] == [1, 2, 2]


def test_a_game_lost_by_both_scores_nobody() -> None:
    # 0 beat 2; the game of 0 and 1 was deleted by an administrator: lost by both
    games = [Played(1, 0, 1, "0-0"), Played(2, 0, 2, "1-0", tiles=9)]
    by = {line.entrant: line for line in standings(3, games, bye_points=0)}
    assert [(by[i].points, by[i].won, by[i].lost, by[i].played) for i in range(3)] == [
        (1, 1, 1, 2), (0, 0, 1, 1), (0, 0, 1, 1)]
    assert by[0].series == 41 and by[1].series == 0
    assert by[0].buchholz == 0 and by[1].buchholz == 1
    assert crosstable(3, games)[0][1] == ["0"] and crosstable(3, games)[1][0] == ["0"]


def test_running_game_counts_nothing() -> None:
    table = standings(2, [Played(1, 0, 1, "*")], bye_points=0)
    assert [(line.points, line.played, line.buchholz) for line in table] == [(0, 0, 0),
                                                                            (0, 0, 0)]


def test_series_score_is_fifty_less_the_tiles() -> None:
    assert series_points(Played(1, 0, 1, "1-0", tiles=11)) == (39, 0)
    assert series_points(Played(1, 0, 1, "0-1", tiles=20)) == (0, 30)
    assert series_points(Played(1, 0, 1, "1/2-1/2", tiles=50)) == (0, 0)
    assert series_points(Played(1, 0, 1, "1-0")) == (0, 0)  # not Andantino
    # a double round robin of two: 0 wins with 11 tiles out, 1 with 31
    games = [Played(1, 0, 1, "1-0", tiles=11), Played(2, 1, 0, "1-0", tiles=31)]
    by_points = standings(2, games, bye_points=0)
    assert [line.points for line in by_points] == [1, 1]
    by_series = standings(2, games, bye_points=0, order="series", tiebreaks=("points",))
    assert [(line.entrant, line.series) for line in by_series] == [(0, 39), (1, 19)]


def test_standings_refuse_unknown_order() -> None:
    with pytest.raises(ValueError, match="order must be"):
        standings(2, [], order="elo")
    with pytest.raises(ValueError, match="unknown tie-break"):
        standings(2, [], tiebreaks=("median",))


def test_crosstable_by_hand() -> None:
    table = crosstable(4, FOUR)
    assert table[0] == [[], ["1"], ["½"], ["1"]]
    assert table[3] == [["0"], ["0"], ["½"], []]
    double = crosstable(2, [Played(1, 0, 1, "1-0"), Played(2, 1, 0, "*")])
    assert double == [[[], ["1", "*"]], [["0", "*"], []]]


def test_swiss_first_round_top_half_against_bottom_half() -> None:
    assert swiss_pairings(6, []) == [(0, 3), (1, 4), (2, 5)]
    assert swiss_pairings(5, []) == [(0, 2), (1, 3), (4, None)]


def test_swiss_second_round_by_score_groups_and_colours() -> None:
    # round 1: 0, 1 and 2 won
    games = [Played(1, 0, 3, "1-0"), Played(1, 1, 4, "1-0"), Played(1, 2, 5, "1-0")]
    pairs = swiss_pairings(6, games)
    # winners 0, 1, 2 (one point): 0 meets 1 (half of three is one; both moved first,
    # so the higher-ranked does again), 2 is left to meet the top of the losers, 3, who
    # moved second and now moves first; 4 and 5 both moved second: 4, higher, first
    assert pairs == [(0, 1), (3, 2), (4, 5)]
    # no repeat, and colours balanced: everyone who moved first now moves second
    firsts_before = {0, 1, 2}
    for first, second in pairs:
        assert second is not None
        assert frozenset((first, second)) not in {frozenset((0, 3)), frozenset((1, 4)),
                                                  frozenset((2, 5))}
        assert not (first in firsts_before and second not in firsts_before)


def test_swiss_no_repeats_and_one_bye_each() -> None:
    for seed, n in itertools.product(range(20), (5, 6, 7, 8, 9)):
        rng = random.Random(seed)
        games: list[Played] = []
        # half as many rounds as a round robin (past that a Swiss may get stuck: six
        # entrants after three rounds may have two triangles of games left to play)
        for r in range(1, n // 2 + 1):
            pairs = swiss_pairings(n, games)
            for first, second in pairs:
                if second is None:
                    games.append(Played(r, first, None))
                else:
                    result = rng.choice(["1-0", "0-1", "1/2-1/2"])
                    games.append(Played(r, first, second, result))
        seen = _check_rounds(n, [[(g.first, g.second) for g in games if g.round == r]
                                 for r in range(1, games[-1].round + 1)])
        meetings = seen["meetings"]
        assert isinstance(meetings, dict) and set(meetings.values()) == {1}
        byes = seen["byes"]
        assert isinstance(byes, list) and max(byes) <= 1  # nobody has a second bye


def test_swiss_gives_up_when_every_pairing_repeats() -> None:
    games = [Played(r + 1, a, b, "1-0") for r, pairs in enumerate(round_robin(4))
             for a, b in pairs if b is not None]
    assert len(games) == 6
    with pytest.raises(PairingError, match="repeat"):
        swiss_pairings(4, games)
    with pytest.raises(PairingError, match="two entrants"):
        swiss_pairings(1, [])


def test_swiss_bye_goes_to_lowest_without_one() -> None:
    # five entrants: round 1 gave 4 the bye; 4 then stands on one point, 3 is last
    games = [Played(1, 0, 2, "1-0"), Played(1, 1, 3, "1-0"), Played(1, 4, None)]
    pairs = swiss_pairings(5, games)
    assert pairs[-1] == (3, None) or pairs[-1] == (2, None)
    assert pairs[-1][0] != 4


def test_divisions_and_promotion() -> None:
    assert split_divisions(range(10), 4) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert split_divisions(range(9), 4) == [[0, 1, 2, 3], [4, 5, 6, 7, 8]]
    finished = [[0, 1, 2, 3], [4, 5, 6, 7]]  # each in the order of its standings
    assert next_divisions(finished, 4, 1) == [[0, 1, 2, 4], [3, 5, 6, 7]]
    assert next_divisions(finished, 4, 2) == [[0, 1, 4, 5], [2, 3, 6, 7]]
    # 1 leaves, 8 joins: the gap above is filled from below, 8 starts at the bottom
    assert next_divisions(finished, 4, 1, leaving=[1], joining=[8]) == [
        [0, 2, 4, 3], [5, 6, 7, 8]]
    with pytest.raises(ValueError, match="promote"):
        next_divisions(finished, 4, 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 9), st.data())
def test_swiss_rounds_and_standings_agree(n: int, data: st.DataObject) -> None:
    """Random results over half a round robin's rounds: every round pairs everyone once
    (one bye when odd), nobody meets twice; the points add up to the games and byes,
    Buchholz is the opponents' points, the crosstable mirrors itself."""
    games: list[Played] = []
    for r in range(1, max(1, n // 2) + 1):
        pairs = swiss_pairings(n, games)
        seen = [e for pair in pairs for e in pair if e is not None]
        assert sorted(seen) == list(range(n))
        assert sum(1 for _, b in pairs if b is None) == n % 2
        for a, b in pairs:
            result = "*" if b is None else data.draw(
                st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
            games.append(Played(r, a, b, result, tiles=data.draw(st.integers(2, 50))))
    met = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(met) == len(set(met))
    table = standings(n, games)
    points = {line.entrant: line.points for line in table}
    byes = sum(1 for g in games if g.second is None)
    assert sum(points.values()) == len(met) + byes
    for line in table:
        assert line.buchholz == sum(points[o] for o in line.opponents)
        assert line.won + line.drawn + line.lost == line.played
        assert 0 <= line.sonneborn_berger <= line.buchholz
    ranks = [line.rank for line in table]
    assert ranks == sorted(ranks) and ranks[0] == 1
    cross = crosstable(n, games)
    flip = {"1": "0", "0": "1", "½": "½"}
    for i in range(n):
        for j in range(n):
            assert [flip[c] for c in cross[i][j]] == cross[j][i]
