"""The solver (hexgames.solver, ``hexgames solve``; issue 34): its values agree with a
plain Python minimax (tests/proof_reference.py, which shares no code with the native
df-pn) on positions near the end of both games, every value comes with proofs that the
independent checker verifies from their files, a stop ends a solve with what was found,
and bad input is refused with a clear error."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from proof_reference import DRAW, LOSS, WIN, Minimax, near_the_end

from hexgames import abande, andantino, cli, native
from hexgames.core import HexgamesError
from hexgames.proof import verify
from hexgames.solver import solve

EXPECTED = {WIN: "win", DRAW: "draw", LOSS: "loss"}


def agrees(board: Any, tmp_path: Path, expected: int) -> str:
    """Solve ``board``; the value must be the minimax's, and each claim's file must
    verify with the checker and claim what the value says."""
    result = solve(board, proof=tmp_path / "proof.txt", table_mb=8)
    assert result.value == EXPECTED[expected], board.position()
    assert result.proven and not result.stopped
    me = int(board.turn)
    claims = {(c.header.winner, c.header.claim) for c in result.claims}
    if expected == WIN:
        assert claims == {(me, "win")} and result.winner == me
    elif expected == LOSS:
        assert claims == {(1 - me, "win")} and result.winner == 1 - me
    else:
        assert claims == {(me, "not-lose"), (1 - me, "not-lose")}
        assert result.winner is None and result.plies is None
    for claim in result.claims:
        assert claim.path is not None and claim.path.exists()
        report = verify(claim.path)
        assert report.header.root == board.position()
        assert report.entries == len(claim.strategy)
        if expected != DRAW:
            assert report.longest == claim.plies == result.plies
        claim.path.unlink()
    return result.value


def test_andantino_values_agree_with_a_minimax(tmp_path: Path) -> None:
    rules = andantino.Rules(tiles_per_player=9)
    minimax = Minimax()
    seen = set()
    for board in near_the_end(andantino, rules, range(10, 12), 8, seed=5):
        seen.add(agrees(board, tmp_path, minimax.value(board)))
    # White wins here in a few plies (tests/test_proof.py): after each of White's
    # moves that keep the win, Red to move loses
    board = andantino.Board("andantino w=0,0;2,0;0,1;0,2;-1,3;0,3 r=2,-1;1,0;1,1;1,2;"
                            "2,2;1,3 turn=w hands=w3,r3", rules)
    seen.add(agrees(board, tmp_path, WIN))
    losses = 0
    for move in list(board.legal_moves):
        board.push(move)
        if losses < 3 and not board.is_game_over() and minimax.value(board) == LOSS:
            seen.add(agrees(board, tmp_path, LOSS))
            losses += 1
        board.pop()
    assert seen == {"win", "draw", "loss"}


@pytest.mark.parametrize("options", [["single_adjacency=on"], ["self_trap=illegal"],
                                     ["self_trap=ignore", "single_adjacency=on"]])
def test_andantino_rule_variants_agree(options: list[str], tmp_path: Path) -> None:
    rules = andantino.Rules.from_options(["tiles_per_player=8", *options])
    minimax = Minimax()
    for board in near_the_end(andantino, rules, range(8, 11), 6, seed=17):
        agrees(board, tmp_path, minimax.value(board))


def test_abande_values_agree_with_a_minimax(tmp_path: Path) -> None:
    # late in the game: the hands nearly empty, a few captures left
    minimax = Minimax()
    seen = set()
    for board in near_the_end(abande, abande.Rules(), range(60, 80), 6, seed=3,
                              enough=lambda b: sum(b.hands) <= 1):
        before = minimax.nodes
        expected = minimax.value(board)
        if minimax.nodes - before > 50_000:
            continue  # too far from the end for the plain minimax
        seen.add(agrees(board, tmp_path, expected))
    assert seen, "no Abande position near enough the end"


def test_a_draw_writes_both_sides_proofs(tmp_path: Path) -> None:
    rules = andantino.Rules(tiles_per_player=9)
    minimax = Minimax()
    board = next(b for b in near_the_end(andantino, rules, range(9, 12), 40, seed=5)
                 if minimax.value(b) == DRAW)
    result = solve(board, proof=tmp_path / "draw.txt.gz")
    assert result.value == "draw"
    names = sorted(c.path.name for c in result.claims if c.path is not None)
    assert names == ["draw.r.txt.gz", "draw.w.txt.gz"]
    assert {verify(tmp_path / n).header.claim for n in names} == {"not-lose"}


def test_a_stop_ends_the_solve_with_what_was_found() -> None:
    board = andantino.Board()
    calls = [0]

    def should_stop() -> bool:
        calls[0] += 1
        return calls[0] > 2

    result = solve(board, should_stop=should_stop)
    assert result.value == "unknown" and result.stopped and not result.claims
    assert result.searches and result.searches[0].verdict == "unknown"
    # a node limit ends it too, and a stop from another thread
    assert solve(board, max_nodes=2_000).value == "unknown"
    prover = native.Prover(4)
    timer = threading.Timer(0.3, prover.stop)
    timer.start()
    report = prover.prove(native.state_of(board), 0, False)
    timer.join()
    assert report["verdict"] == "unknown"
    # a stop with no search running does not end the next search
    prover.stop()
    report = prover.prove(native.state_of(board), 0, False, max_nodes=5_000)
    assert report["verdict"] == "unknown" and report["nodes"] >= 5_000
    # a stop while the call waits for the prover (another thread holds it) is kept
    first = threading.Thread(target=prover.prove, args=(native.state_of(board), 0, False),
                             kwargs={"time": 0.5})
    first.start()
    reports: list[dict[str, object]] = []
    second = threading.Thread(target=lambda: reports.append(
        prover.prove(native.state_of(board), 1, False)))
    second.start()
    time.sleep(0.2)
    prover.stop()
    first.join()
    second.join(timeout=30)
    assert not second.is_alive() and reports[0]["verdict"] == "unknown"


def test_bad_input_is_refused() -> None:
    board = andantino.Board()
    with pytest.raises(HexgamesError, match="not a hexgames board"):
        solve("andantino")  # type: ignore[arg-type]
    with pytest.raises(HexgamesError, match="time must be"):
        solve(board, time=-1)
    with pytest.raises(HexgamesError, match="table"):
        solve(board, table_mb=0)
    for kwargs in [{"time": "5"}, {"time": True}, {"time": 10**400},
                   {"should_stop": 5}, {"prover": "x"}, {"proof": ""}, {"proof": 123},
                   {"proof": Path("/")}, {"on_search": 5},
                   {"proof": "/nonexistent-dir/proof.txt"}]:
        with pytest.raises(HexgamesError):
            solve(board, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(HexgamesError, match="not a hexgames board"):
        solve(andantino.Rules())  # type: ignore[arg-type]
    over = andantino.Board("andantino w=0,0;0,1;0,2;0,3;0,4 r=1,0;1,1;1,2;1,3 turn=r "
                           "hands=w19,r20")
    assert over.is_game_over()
    with pytest.raises(HexgamesError, match="over"):
        solve(over)
    prover = native.Prover(1)
    state = native.state_of(board)
    for bad, match in [((state, 2, False), "attacker"), ((state, 0, 1), "draw_ok"),
                       (("x", 0, False), "AndantinoState or an AbandeState")]:
        with pytest.raises(HexgamesError, match=match):
            prover.prove(*bad)
    with pytest.raises(HexgamesError, match="max_nodes"):
        prover.prove(state, 0, False, max_nodes=-1)
    with pytest.raises(HexgamesError, match="table_mb"):
        native.Prover(1 << 20)
    with pytest.raises(HexgamesError, match="threat_space"):
        native.Prover(1, threat_space="yes")  # type: ignore[arg-type]
    with pytest.raises(HexgamesError, match="replies"):
        native.Prover(1, replies=1)  # type: ignore[arg-type]


def test_replies_make_the_same_search_as_trying_each_child() -> None:
    # The children's tests read from the node (the default) and the old way (each child
    # tried) search the same nodes to the same verdict, with the threat-space search and
    # without.
    board = andantino.Board("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 "
                            "turn=w hands=w5,r5", andantino.Rules(tiles_per_player=10))
    state = native.state_of(board)
    for threat_space in (True, False):
        new, old = (native.Prover(4, threat_space, replies=replies).prove(state, 0, False)
                    for replies in (True, False))
        assert new["verdict"] == old["verdict"] == "proven"
        assert (new["nodes"], new["pn"], new["dn"]) == (old["nodes"], old["pn"], old["dn"])


def test_the_threat_space_search_proves_what_the_plain_search_proves() -> None:
    # White to move with a chain of fours to a five (tiles_per_player=10, the command's
    # example below): both searches prove it; the threat-space search reports the nodes
    # it proved and spends fewer nodes.
    board = andantino.Board("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 "
                            "turn=w hands=w5,r5", andantino.Rules(tiles_per_player=10))
    state = native.state_of(board)
    plain = native.Prover(4, threat_space=False).prove(state, 0, False)
    threats = native.Prover(4).prove(state, 0, False)
    assert plain["verdict"] == threats["verdict"] == "proven"
    assert plain["threat_proofs"] == 0 < threats["threat_proofs"]
    assert threats["nodes"] < plain["nodes"]
    result = solve(board, prover=native.Prover(4))
    assert result.value == "win" and result.claims[0].checked > 0


def test_the_solve_command(tmp_path: Path) -> None:
    runner = CliRunner()
    position = ("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 turn=w "
                "hands=w5,r5")
    proof = tmp_path / "win.txt"
    result = runner.invoke(cli.cli, ["solve", "andantino", position, "--rules",
                                     "tiles_per_player=10", "--proof", str(proof)])
    assert result.exit_code == 0, result.output
    assert "White wins in 9 plies at most, proven" in result.output
    assert "can White win? proven" in result.output
    assert verify(proof).header.claim == "win"
    unknown = runner.invoke(cli.cli, ["solve", "andantino", "--nodes", "1000"])
    assert unknown.exit_code == 0 and "unknown within the limits" in unknown.output
    # the draw's two files cannot be written (a directory in the way): the verdict is
    # printed, then one line of error and exit status 2
    draw = ("andantino w=0,0;0,1;1,1;-2,2;-2,3 r=1,-1;1,0;-2,1;-1,1;-1,2 turn=w "
            "hands=w5,r5")
    (tmp_path / "d.w.txt").mkdir()
    blocked = runner.invoke(cli.cli, ["solve", "andantino", draw, "--rules",
                                      "tiles_per_player=10", "--proof",
                                      str(tmp_path / "d.txt")])
    assert blocked.exit_code == 2, blocked.output
    assert "a draw, proven" in blocked.output and "Traceback" not in blocked.output
    assert "error: the proof cannot be written" in blocked.output
    for args, message in [
        (["solve", "andantino", "--nodes", "9" * 30], "--nodes"),
        (["solve", "andantino", position, "--record", "x.hgn"], "POSITION or --record"),
        (["solve", "andantino", "andantino w=0,0 r=0,0 turn=w"], "error: "),
        (["solve", "chess"], "error: "),
        (["solve", "andantino", "--time", "-3"], "--time"),
        (["solve", "andantino", "--tt-mb", "0"], "--tt-mb"),
        (["solve", "andantino", "--proof", str(tmp_path / "no" / "such" / "dir.txt")],
         "--proof"),
        (["solve", "andantino", "--record", str(tmp_path / "missing.hgn")], "error: "),
    ]:
        refused = runner.invoke(cli.cli, args)
        assert refused.exit_code == 2, (args, refused.output)
        assert message in refused.output and "Traceback" not in refused.output


_REAL_PROVER = native.Prover


class _Sliced:
    """A prover whose searches are a real prover's, except those of the side to move's
    win, which end unknown as if their slice of the time ran out (``open`` of them:
    every one when None); it records each search's goal and time."""

    def __init__(self, open_wins: int | None) -> None:
        self.real = _REAL_PROVER(8)
        self.open_wins = open_wins
        self.asked: list[tuple[int, bool, float | None]] = []
        self.table_bytes = self.real.table_bytes

    def prove(self, state: Any, attacker: int, draw_ok: bool, time: float | None = None,
              **limits: Any) -> dict[str, Any]:
        self.asked.append((attacker, draw_ok, time))
        if attacker == int(state.turn) and not draw_ok and (
                self.open_wins is None or self.open_wins > 0):
            if self.open_wins is not None:
                self.open_wins -= 1
            return {"verdict": "unknown", "nodes": 1, "time": 0.0, "table_fill": 0.0}
        return self.real.prove(state, attacker, draw_ok, time=time, **limits)

    def strategy(self, *args: Any, **limits: Any) -> Any:
        return self.real.strategy(*args, **limits)


@pytest.mark.parametrize("open_wins", [None, 1])
def test_under_a_time_limit_the_opponents_win_is_asked_after_half_of_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, open_wins: int | None) -> None:
    """The first question (can White win?) took the whole time, and a position whose
    other question settles at once (Red cannot win: White does not lose) ended unknown:
    the first now gets half the time, the second half of the rest, and the first the
    rest again. When the first stays open to the end, the value is ``not-lose`` with
    White's proof of not losing (which verifies); when it is then answered, ``win``."""
    import hexgames.solver as solver

    monkeypatch.setattr(solver.native, "Prover", _Sliced)
    rules = andantino.Rules(tiles_per_player=10)
    board = andantino.Board("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 "
                            "turn=w hands=w5,r5", rules)
    prover = _Sliced(open_wins)
    result = solve(board, time=100.0, prover=prover,  # type: ignore[arg-type]
                   proof=tmp_path / "proof.txt")
    (white, red) = (0, 1)
    first, second, *rest = prover.asked
    assert first[:2] == (white, False) and first[2] is not None and 49 < first[2] <= 50
    # (the scripted first search ended at once: half of the 100 s were still left)
    assert second[:2] == (red, False) and second[2] is not None and 49 < second[2] <= 50
    assert rest[0][:2] == (white, True)  # White's not losing: from Red's disproof
    assert rest[1][:2] == (white, False) and rest[1][2] is not None and rest[1][2] > 90
    if open_wins is None:
        assert result.value == "not-lose" and result.winner is None and not result.proven
        (claim,) = result.claims
        assert (claim.header.winner, claim.header.claim) == (white, "not-lose")
    else:
        assert result.value == "win" and result.winner == white
        (claim,) = result.claims
        assert (claim.header.winner, claim.header.claim) == (white, "win")
    assert claim.path is not None and verify(claim.path).header.claim == claim.header.claim
    # no time limit (or a node limit): one question after the other, as before
    prover = _Sliced(None)
    assert solve(board, max_nodes=10_000, time=100.0,  # type: ignore[arg-type]
                 prover=prover).value == "unknown"
    assert [a[:2] for a in prover.asked] == [(white, False)]


def test_a_solve_counts_its_time_on_the_clock_it_is_given() -> None:
    """``clock``: the time limit in CPU seconds (a machine shared with other work) or
    any clock; a clock that is no function is refused."""
    board = andantino.Board()
    ticks = [0.0]

    def clock() -> float:  # 1 s a reading: the limit passes after a few polls
        ticks[0] += 1.0
        return ticks[0]

    started = time.perf_counter()
    result = solve(board, time=5.0, clock=clock)
    assert result.value == "unknown" and time.perf_counter() - started < 5.0
    assert ticks[0] >= 5  # (read by the searches' polls)
    assert solve(board, time=0.3, clock=time.process_time).value == "unknown"
    with pytest.raises(HexgamesError, match="clock must be a function"):
        solve(board, time=1.0, clock=3)  # type: ignore[arg-type]
