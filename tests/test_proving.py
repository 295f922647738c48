"""Proven values for the players and the analyses (hexgames.proving): a value comes
with a line that is legal and ends as the value says; what the solver cannot settle
within the budget is None."""

from __future__ import annotations

import random
import time

import pytest

from hexgames import abande, andantino
from hexgames.core import HexgamesError
from hexgames.engine.base import Info
from hexgames.engine.players import make_player
from hexgames.proving import describe, principal_line, prove
from hexgames.solver import solve

#: White to move wins (docs/solver.md's example: 10 tiles a player).
WIN = ("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 turn=w hands=w5,r5")
SMALL = andantino.Rules(tiles_per_player=10)
#: A start no proof settles: the balance variant's (the standard start is proven, and
#: the shipped book answers it at once).
UNPROVEN_START = andantino.Board(None, andantino.Rules(single_adjacency=True))


def _played(board: object, line: tuple[str, ...] | list[str]) -> object:
    """``board`` after ``line``, each move checked legal by the Python board."""
    board = board.copy()  # type: ignore[attr-defined]
    for text in line:
        move = board.parse_notation(text)
        assert move in board.legal_moves, text
        assert not board.is_game_over()
        board.push(move)
    return board


@pytest.mark.parametrize("win_only", [True, False])
def test_a_win_is_proven_with_a_line_that_ends_in_the_win(win_only: bool) -> None:
    board = andantino.Board(WIN, SMALL)
    found = prove(board, time=30, win_only=win_only)
    assert found is not None
    assert (found.value, found.side, found.winner) == ("win", 0, 0)
    end = _played(board, found.line)
    assert end.is_game_over() and end.outcome().winner == 0
    assert found.plies == len(found.line)
    # the line is the strategy's longest: the distance the solver reports
    assert found.plies == solve(board, time=30).plies
    info = found.info(board)
    assert info.proven and info.mate == found.plies and info.score == 1.0
    assert [m.notation() for m in info.pv] == list(found.line)
    assert board.position() == WIN  # not changed


def test_a_loss_is_proven_for_the_side_to_move_and_ends_in_the_winner_s_win() -> None:
    board = andantino.Board(WIN, SMALL)
    board.push(board.parse_notation("-2,3"))
    found = prove(board, time=30)
    assert found is not None
    assert (found.value, found.side, found.winner) == ("loss", 1, 0)
    end = _played(board, found.line)
    assert end.outcome().winner == 0
    assert found.info(board).mate == -found.plies
    assert describe("andantino", found.winner, found.plies) == \
        f"White wins in {found.plies} (proven)"
    # a player's question (can Red win?) has no answer to show
    assert prove(board, time=30, win_only=True) is None


def test_a_draw_is_proven_and_both_sides_follow_their_proofs_to_a_draw() -> None:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=4))
    found = prove(board, time=30)
    assert found is not None
    assert (found.value, found.winner) == ("draw", None)
    end = _played(board, found.line)
    assert end.is_game_over() and end.outcome().winner is None
    info = found.info(board)
    assert info.proven and info.mate is None and info.score == 0.5
    assert describe("andantino", None, None) == "Draw (proven)"


def test_a_late_abande_position_is_proven_in_black_and_white() -> None:
    rng = random.Random(0)
    board = abande.Board()
    while sum(board.hands) > 2:
        board.push(rng.choice(list(board.legal_moves)))
    found = prove(board, time=60)
    assert found is not None and found.winner is not None
    end = _played(board, found.line)
    assert end.outcome().winner == found.winner
    name = ("Black", "White")[found.winner]
    assert describe("abande", found.winner, found.plies) == \
        f"{name} wins in {found.plies} (proven)"


def test_what_the_budget_cannot_settle_is_none() -> None:
    start = andantino.Board()
    assert prove(start, max_nodes=2000) is None
    assert prove(start, max_nodes=2000, win_only=True) is None
    # a stop at once gives nothing, even where the proof is quick
    assert prove(andantino.Board(WIN, SMALL), should_stop=lambda: True) is None


def test_the_principal_line_needs_claims_about_the_board() -> None:
    board = andantino.Board(WIN, SMALL)
    claims = solve(board, time=30).claims
    assert principal_line(board, claims) is not None
    other = andantino.Board(WIN, SMALL)
    other.push(other.parse_notation("1,-1"))  # not the strategy's move
    other.push(other.parse_notation("-1,1"))
    assert principal_line(other, claims) is None


def test_a_finished_game_is_refused() -> None:
    board = andantino.Board(WIN, SMALL)
    found = prove(board, time=30)
    assert found is not None
    end = _played(board, found.line)
    for win_only in (True, False):
        with pytest.raises(HexgamesError, match="over"):
            prove(end, win_only=win_only)


def test_a_position_of_many_moves_ends_at_its_time() -> None:
    # 998 placements a node: the prover once overran its time by minutes on it; it now
    # looks at its limits every 256 children tried
    from big_positions import POSITIONS, RULES

    board = andantino.Board(POSITIONS["placing"], RULES)
    assert len(list(board.legal_moves)) > 900
    started = time.perf_counter()
    assert prove(board, time=0.3) is None
    assert time.perf_counter() - started < 5.0


def test_a_level_of_alpha_beta_plays_the_proven_win_at_once() -> None:
    board = andantino.Board(WIN, SMALL)
    line = prove(board, time=30)
    assert line is not None
    # at depth 1 alone, alpha-beta sees no forced win here
    plain = make_player("alphabeta:depth=1").play(board)
    assert plain.info.mate is None and not plain.info.proven
    seen: list[Info] = []
    player = make_player("alphabeta:depth=1,prove=0.5")
    result = player.play(board, on_info=seen.append)
    assert result.info.proven and result.info.mate == line.plies
    assert result.move.notation() == line.line[0]
    assert [m.notation() for m in result.info.pv] == list(line.line)
    assert seen and seen[-1].proven
    # the next move of the line is proven from the kept table as well
    board.push(result.move)
    board.push(board.parse_notation(line.line[1]))
    assert player.play(board).info.proven
    for level in ("medium", "hard", "expert"):
        assert make_player(level, 1).play(board).info.proven, level


def test_a_proven_analysis_gives_its_lines() -> None:
    """Issue 35: with ``multipv`` a proven value came with one line (the proof's); now
    the proof's line first, then the search's other root moves."""
    board = andantino.Board(WIN, SMALL)
    proven = prove(board, time=30)
    assert proven is not None
    seen: list[Info] = []
    player = make_player("alphabeta:depth=3,prove=0.5,prove_value=on,multipv=3")
    result = player.play(board, on_info=seen.append)
    info = result.info
    assert info.proven and info.mate == proven.plies
    assert len(info.lines) == 3
    assert info.lines[0].pv == info.pv and info.lines[0].proven
    others = [line.pv[0].notation() for line in info.lines[1:]]
    assert len(set(others)) == 2 and proven.line[0] not in others
    assert all(not line.proven and line.depth == 3 for line in info.lines[1:])
    # the progress reports: the proven value, with the lines as they come
    assert seen[0].proven and seen[-1].proven and len(seen[-1].lines) == 3
    # one line asked for: the proven value alone, as before
    single = make_player("alphabeta:depth=3,prove=0.5,prove_value=on").play(board)
    assert single.info.proven and single.info.lines == []


def test_without_a_proof_the_engine_plays_its_own_move() -> None:
    player = make_player("alphabeta:depth=2,prove=0.5,prove_nodes=500")
    result = player.play(UNPROVEN_START)
    assert not result.info.proven and result.info.depth == 2


@pytest.mark.parametrize(("spec", "fragment"), [
    ("alphabeta:prove=1.5", "prove must be a share"),
    ("alphabeta:prove=-0.1", "prove must be a share"),
    ("alphabeta:prove_max=0", "prove_max must be above 0"),
    ("alphabeta:prove_nodes=0", "prove_nodes must be"),
])
def test_bad_prove_options_are_refused(spec: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        make_player(spec)


def test_after_a_search_that_saw_no_likely_win_the_solver_is_not_asked() -> None:
    player = make_player("alphabeta:depth=1,prove=0.5")
    assert not player.play(UNPROVEN_START).info.proven  # unsettled: a guess
    board = andantino.Board(WIN, SMALL)
    assert not player.play(board).info.proven  # the start looked even: not asked
    player.new_game()
    assert player.play(board).info.proven  # a new game asks at its first move
