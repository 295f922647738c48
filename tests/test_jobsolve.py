"""Job-level proof-number search (hexgames.jobsolve, ``hexgames solve --threads``;
issue 34): its values equal the one-search solver's on small positions of both games
(with jobs small enough that the master tree grows), the joined proofs verify from
their files, a run stopped and started again with its work directory runs no job twice,
a damaged results file is refused naming the line (a torn last line dropped), and bad
input is refused. Jobs are bounded by node visits, not time, so the tests do not depend
on the machine's speed."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from proof_reference import near_the_end

from hexgames import abande, andantino, cli
from hexgames.core import HexgamesError
from hexgames.jobsolve import INF, JobProgress, WorkDirError, solve_jobs
from hexgames.jobsolve.tree import MasterTree
from hexgames.jobsolve.workdir import RESULTS
from hexgames.processes import signal_handlers_kept
from hexgames.proof import verify
from hexgames.solver import solve

#: A job's budget in the tests: the fewest node visits a search is looked at after.
JOB_NODES = 1024


def small_positions() -> Iterator[tuple[str, Any]]:
    """Positions of both games that the one-search solver settles at once, some of
    them needing many jobs of :data:`JOB_NODES`."""
    for tiles in (4, 5, 6):
        yield f"start/{tiles}", andantino.Board(None, andantino.Rules(tiles_per_player=tiles))
    rules = andantino.Rules(tiles_per_player=9)
    for i, board in enumerate(near_the_end(andantino, rules, range(8, 12), 6, seed=5)):
        yield f"andantino/{i}", board
    variant = andantino.Rules.from_options(["tiles_per_player=7", "single_adjacency=on"])
    for i, board in enumerate(near_the_end(andantino, variant, range(4, 8), 3, seed=2)):
        yield f"single_adjacency/{i}", board
    for i, board in enumerate(near_the_end(abande, abande.Rules(), range(50, 80), 6,
                                               seed=3, enough=lambda b: sum(b.hands) <= 2)):
        yield f"abande/{i}", board


def claims_verify(result: Any, board: Any) -> None:
    """Each claim's file verifies, proves the claim from ``board`` and lists the
    strategy."""
    for claim in result.claims:
        assert claim.path is not None
        report = verify(claim.path)
        assert report.header == claim.header
        assert report.header.root == board.position()
        assert report.entries == len(claim.strategy)
        assert report.positions == claim.checked


def test_values_equal_the_one_search_solver(tmp_path: Path) -> None:
    grown = 0
    values = set()
    for label, board in small_positions():
        expected = solve(board, table_mb=8)
        assert expected.proven, label
        threads = 1 + len(label) % 2
        result = solve_jobs(board, threads=threads, job_nodes=JOB_NODES, table_mb=4,
                            proof=tmp_path / "proof.txt")
        assert result.value == expected.value, (label, board.position())
        assert result.winner == expected.winner and not result.stopped, label
        assert sorted((c.header.winner, c.header.claim) for c in result.claims) == \
            sorted((c.header.winner, c.header.claim) for c in expected.claims), label
        claims_verify(result, board)
        assert result.nodes == sum(s.nodes for s in result.searches) > 0
        assert result.workers == threads and result.executor == "threads"
        grown += result.jobs > 2 and result.tree_nodes > 2
        values.add(result.value)
        for claim in result.claims:
            assert claim.path is not None
            claim.path.unlink()
    assert grown >= 5, "too few positions needed the master tree"
    assert values == {"win", "loss", "draw"}


def test_more_threads_give_the_same_values_and_proofs_that_verify(tmp_path: Path) -> None:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=6))
    one = solve_jobs(board, threads=1, job_nodes=JOB_NODES, table_mb=4)
    # jobs of 4 ms too: a running job's leaf is expanded for the idle workers
    three = solve_jobs(board, threads=3, job_nodes=JOB_NODES, job_time=0.004, table_mb=4,
                       proof=tmp_path / "draw.txt.gz")
    assert one.value == three.value == "draw"
    assert [c.path.name for c in three.claims if c.path] == ["draw.w.txt.gz",
                                                             "draw.r.txt.gz"]
    claims_verify(three, board)
    # the jobs did the work: many of them, and a master tree above them
    assert three.jobs > 10 and three.tree_nodes > 10 and three.workers == 3


def test_a_win_and_a_loss_are_joined_from_the_jobs(tmp_path: Path) -> None:
    # White wins here in 9 plies at most (tests/test_solver.py): too much for one job
    rules = andantino.Rules(tiles_per_player=10)
    board = andantino.Board("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 "
                            "turn=w hands=w5,r5", rules)
    result = solve_jobs(board, threads=2, job_nodes=JOB_NODES, table_mb=4,
                        proof=tmp_path / "win.txt")
    assert result.value == "win" and result.winner == 0 and result.jobs > 1
    claims_verify(result, board)
    # after a move of White's that keeps the win, Red to move loses
    white = result.claims[0].strategy
    move = dict(white)[board.position()]
    board.push(board.parse_notation(move))
    lost = solve_jobs(board, threads=2, job_nodes=JOB_NODES, table_mb=4,
                      proof=tmp_path / "loss.txt")
    assert lost.value == "loss" and lost.winner == 0
    claims_verify(lost, board)


def test_the_master_tree_numbers_and_flags() -> None:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=5))
    tree = MasterTree(board, 0, False)
    root = tree.root
    assert root.or_node and (root.pn, root.dn) == (1, 1) and len(tree) == 1
    assert tree.select() is root
    root.flagged = True
    assert tree.select() is None and tree.select_flagged() is root
    tree.expand(root)
    children = root.children
    assert len(children) == len(list(board.legal_moves)) == len(root.moves)
    assert all(not c.or_node for c in children)
    # OR: the least proof number, the sum of the disproof numbers
    assert (root.pn, root.dn) == (1, len(children))
    first, second = children[0], children[1]
    assert tree.select() is first and tree.matters(first) and tree.matters(root)
    first.flagged = True
    assert tree.select() is second  # the flagged leaf is passed over
    tree.settle(second, False, record="job")
    assert (root.pn, root.dn) == (1, len(children) - 1)
    for child in children[2:]:
        tree.settle(child, False, record="job")
    assert tree.select() is None and tree.select_flagged() is first
    tree.settle(first, True, record="job")
    assert (root.pn, root.dn) == (0, INF) and root.proven and tree.select() is None
    assert list(tree.proof_tree()) == [(root, root.moves[0]), (first, None)]
    # settled: nothing below it matters any more
    assert not any(tree.matters(n) for n in (root, first, *children))


def results_keys(path: Path) -> list[tuple[str, str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(d["position"], d["attacker"], d["claim"]) for d in map(json.loads, lines)]


def test_a_stopped_run_resumes_without_running_a_job_again(tmp_path: Path) -> None:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=6))
    results = tmp_path / "work" / RESULTS

    def after_some_jobs() -> bool:
        return results.exists() and results.read_text().count("\n") >= 12

    shown: list[JobProgress] = []
    first = solve_jobs(board, threads=1, job_nodes=JOB_NODES, table_mb=4,
                       work_dir=tmp_path / "work", should_stop=after_some_jobs,
                       on_progress=shown.append)
    assert first.stopped and first.value in ("unknown", "no-win")
    assert first.jobs == len(results_keys(results)) >= 12
    assert shown and shown[-1].done == first.jobs and shown[-1].question.startswith("can")
    # on one thread the resumed run replays the first run's choices from its records
    second = solve_jobs(board, threads=1, job_nodes=JOB_NODES, table_mb=4,
                        work_dir=tmp_path / "work")
    assert second.value == "draw" and not second.stopped
    assert second.reused >= first.jobs
    keys = results_keys(results)
    assert len(keys) == first.jobs + second.jobs
    assert len(set(keys)) == len(keys), "a job was run twice"
    # a third run runs nothing
    third = solve_jobs(board, threads=1, job_nodes=JOB_NODES, table_mb=4,
                       work_dir=tmp_path / "work")
    assert third.value == "draw" and third.jobs == 0 and third.reused > 0
    assert third.nodes == 0 and len(results_keys(results)) == len(keys)
    # a larger budget on more threads searches unknowns again, never a settled job
    fourth = solve_jobs(board, threads=2, job_nodes=JOB_NODES * 4, table_mb=4,
                        work_dir=tmp_path / "work")
    assert fourth.value == "draw" and fourth.jobs > 0
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    settled = [(d["position"], d["attacker"], d["claim"]) for d in lines
               if d["verdict"] != "unknown"]
    assert len(set(settled)) == len(settled)


def settled_work(tmp_path: Path) -> tuple[Any, Path]:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=5))
    solve_jobs(board, threads=1, job_nodes=JOB_NODES, table_mb=4, work_dir=tmp_path)
    return board, tmp_path / RESULTS


def test_a_damaged_results_file_is_refused_naming_the_line(tmp_path: Path) -> None:
    board, results = settled_work(tmp_path)
    lines = results.read_text().splitlines()
    assert len(lines) >= 3
    bad = [*lines[:1], "{not json", *lines[1:]]
    results.write_text("\n".join(bad) + "\n")
    with pytest.raises(WorkDirError, match=r"results.jsonl, line 2: not a JSON object"):
        solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    missing = json.loads(lines[0])
    del missing["verdict"]
    results.write_text("\n".join([json.dumps(missing), *lines[1:]]) + "\n")
    with pytest.raises(WorkDirError, match=r"line 1: 'verdict'"):
        solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    # a budget that is no number of seconds, a position or rules that cannot be read
    for key, value, message in [("job_time", float("nan"), "job_time"),
                                ("job_time", float("inf"), "job_time"),
                                ("position", "andantino garbage", "garbage"),
                                ("rules", ["foo=1"], "foo")]:
        changed = json.loads(lines[0])
        changed[key] = value
        results.write_text("\n".join([json.dumps(changed), *lines[1:]]) + "\n")
        with pytest.raises(WorkDirError, match=rf"line 1: .*{message}"):
            solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    # a line whose verdict was changed: its proof file proves another goal
    number, entry = next((i, json.loads(line)) for i, line in enumerate(lines, 1)
                         if json.loads(line)["verdict"] == "disproven")
    entry["verdict"] = "proven"
    changed_lines = [*lines[:number - 1], json.dumps(entry), *lines[number:]]
    results.write_text("\n".join(changed_lines) + "\n")
    with pytest.raises(WorkDirError, match=rf"line {number}: its proof file .* proves "
                                           "another goal"):
        solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    # a proof file changed since its line was written
    results.write_text("\n".join(lines) + "\n")
    number, entry = next((i, json.loads(line)) for i, line in enumerate(lines, 1)
                         if json.loads(line)["proof"])
    proof = tmp_path / "proofs" / entry["proof"]
    assert proof.read_bytes()[:2] == b"\x1f\x8b"  # gzip, as its name says
    proof.write_bytes(proof.read_bytes() + b"\n")
    with pytest.raises(WorkDirError, match=rf"line {number}: its proof file .* does not "
                                           "match the digest"):
        solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    proof.unlink()
    with pytest.raises(WorkDirError, match=rf"line {number}: its proof file .* is missing"):
        solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    # on the command line: one line of error, exit status 2
    run = CliRunner().invoke(cli.cli, ["solve", "andantino", board.position(), "--rules",
                                       "tiles_per_player=5", "--work-dir", str(tmp_path)])
    assert run.exit_code == 2 and "Traceback" not in run.output
    assert f"error: {results}, line {number}: its proof file" in run.output


def test_a_proof_answers_every_goal_it_settles(tmp_path: Path) -> None:
    from hexgames.jobsolve.workdir import Goal, JobRecord, WorkDir

    position = "andantino w=0,0 r=1,0 turn=w hands=w3,r3"
    # the strategy line of a file that Red wins: its position after White's 0,1
    after = "andantino w=0,0;0,1 r=1,0 turn=r hands=w2,r3"
    rules = ("tiles_per_player=4",)

    def goal(attacker: int, draw_ok: bool) -> Goal:
        return Goal("andantino", rules, position, attacker, draw_ok)

    store = WorkDir(tmp_path)
    try:
        assert store.lookup(goal(0, False)) is None
        store.add(JobRecord(goal(0, False), "unknown", 5, 0.1, 1.0, None))
        unknown = store.lookup(goal(0, False))
        assert unknown is not None and not unknown.settled
        assert unknown.covers(0.5, None) and not unknown.covers(2.0, None)
        # "White does not lose" disproven: its file proves that Red wins
        kept = store.add(JobRecord(goal(0, True), "disproven", 9, 0.2, 1.0, None),
                         [(after, "1,1")])
        assert kept.proof is not None and kept.digest is not None
        answers = {(a, d): store.lookup(goal(a, d)) for a in (0, 1) for d in (False, True)}
        assert {k: r.verdict for k, r in answers.items() if r is not None} == {
            (0, False): "disproven", (0, True): "disproven", (1, False): "proven",
            (1, True): "proven"}
        assert {r.proof for r in answers.values() if r is not None} == {kept.proof}
        # a proof that White does not lose contradicts it
        with pytest.raises(WorkDirError, match="settled both ways"):
            store.add(JobRecord(goal(0, True), "proven", 1, 0.1, 1.0, None),
                      [(position, "0,1")])
    finally:
        store.close()
    # nothing was written for it; read again, the file gives the same answers
    results = tmp_path / RESULTS
    assert len(results.read_text().splitlines()) == 2
    store = WorkDir(tmp_path)
    try:
        found = store.lookup(goal(1, True))
        assert found is not None and found.verdict == "proven"
    finally:
        store.close()
    # a line of another run that proves White wins contradicts the file
    other = WorkDir(tmp_path / "other")
    made = other.add(JobRecord(goal(0, False), "proven", 1, 0.1, 1.0, None),
                     [(position, "0,1")])
    other.close()
    assert made.proof is not None
    (tmp_path / "proofs" / made.proof).write_bytes(
        (tmp_path / "other" / "proofs" / made.proof).read_bytes())
    with results.open("a") as out:
        out.write((tmp_path / "other" / RESULTS).read_text())
    with pytest.raises(WorkDirError, match=r"results.jsonl, line 3: .* settled both ways"):
        WorkDir(tmp_path)


def test_a_failed_last_flush_still_lets_the_next_run_have_the_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.jobsolve.workdir import WorkDir

    store = WorkDir(tmp_path)

    class Full:
        def close(self) -> None:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "_out", Full())
    store.close()  # no error: the failed write was reported when it failed
    WorkDir(tmp_path).close()  # and the lock was let go


def test_a_work_directory_serves_one_run_at_a_time(tmp_path: Path) -> None:
    from hexgames.jobsolve.workdir import WorkDir

    board = andantino.Board(None, andantino.Rules(tiles_per_player=4))
    held = WorkDir(tmp_path)
    try:
        with pytest.raises(WorkDirError, match="in use by another run"):
            solve_jobs(board, threads=1, work_dir=tmp_path)
    finally:
        held.close()
    assert solve_jobs(board, threads=1, work_dir=tmp_path).value == "draw"


def test_a_torn_last_line_is_dropped_and_its_job_run_again(tmp_path: Path) -> None:
    board, results = settled_work(tmp_path)
    lines = results.read_text().splitlines()
    torn = lines[-1][: len(lines[-1]) // 2]
    results.write_text("\n".join([*lines[:-1], torn]))  # a crash while writing it
    again = solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    # its job runs again (a fresh table may settle it only after its leaf is expanded:
    # the first run's worker had the table of the jobs before it)
    assert again.value == "draw" and again.jobs >= 1 and again.reused >= len(lines) - 1
    assert any(f"line {len(lines)}: a line cut short" in note for note in again.notes)
    keys = results_keys(results)
    assert keys[:len(lines) - 1] == results_keys_of(lines[:-1])
    assert results_keys_of([lines[-1]])[0] in keys[len(lines) - 1:]
    # a whole last line without its newline is kept, and the newline added
    results.write_text(results.read_text().rstrip("\n"))
    kept = solve_jobs(board, threads=1, job_nodes=JOB_NODES, work_dir=tmp_path)
    assert kept.jobs == 0 and results.read_text().endswith("\n")


def test_a_last_line_torn_inside_a_character_is_dropped(tmp_path: Path) -> None:
    """A line is cut where the run stopped, which may be inside a character of more than
    one byte (a path in it): still a torn line, dropped, not a damaged file."""
    from hexgames.jobsolve.workdir import read_results_lines

    def parse(raw: bytes, where: str) -> str:
        try:
            return str(json.loads(raw.decode("utf-8"))["proof"])
        except (UnicodeDecodeError, ValueError) as error:
            raise WorkDirError(f"{where}: {error}") from error

    whole = json.dumps({"proof": "/tmp/épreuve.txt"}, ensure_ascii=False).encode()
    results = tmp_path / "results.jsonl"
    cut = whole.index("é".encode()) + 1  # between the two bytes of "é"
    results.write_bytes(whole + b"\n" + whole[:cut])
    found, note = read_results_lines(results, parse)
    assert found == ["/tmp/épreuve.txt"]
    assert note is not None and "line 2: a line cut short" in note
    assert results.read_bytes() == whole + b"\n"  # cut from the file
    # a damaged byte inside a whole line is still refused, naming the line
    results.write_bytes(whole + b"\n" + whole[:cut] + whole[cut + 1:] + b"\n")
    with pytest.raises(WorkDirError, match="line 2"):
        read_results_lines(results, parse)


def test_a_last_line_ending_in_bytes_no_character_begins_is_refused(tmp_path: Path) -> None:
    """A torn line may end inside a character, never in bytes that begin none: UTF-8
    has no character beginning ED A0 (a surrogate) or F4 90 (past U+10FFFF), and the
    writer encodes its lines with ``str.encode``, which writes neither. Python's
    incremental decoder let ED A0 through when not told the end had come, so such a
    last line was dropped as torn (and cut from the file) rather than refused as
    damage; F4 90 and a byte that begins nothing (C0) were refused."""
    from hexgames.jobsolve.workdir import read_results_lines

    def parse(raw: bytes, where: str) -> str:
        try:
            return str(json.loads(raw.decode("utf-8"))["proof"])
        except (UnicodeDecodeError, ValueError) as error:
            raise WorkDirError(f"{where}: {error}") from error

    whole = json.dumps({"proof": "/tmp/épreuve.txt"}, ensure_ascii=False).encode() + b"\n"
    results = tmp_path / "results.jsonl"
    for ending in (b"\xed\xa0", b"\xf4\x90", b"\xe0\x80", b"\xc0"):
        results.write_bytes(whole + b'{"proof": "/tmp/' + ending)
        with pytest.raises(WorkDirError, match="line 2"):
            read_results_lines(results, parse)
        assert results.read_bytes().endswith(ending)  # not cut
    for ending in (b"\xed\x9f", b"\xe0\xa0", b"\xf0\x9f\x98", b"\xc3"):  # beginnings
        results.write_bytes(whole + b'{"proof": "/tmp/' + ending)
        found, note = read_results_lines(results, parse)
        assert found == ["/tmp/épreuve.txt"] and note is not None, ending
        assert results.read_bytes() == whole


def results_keys_of(lines: list[str]) -> list[tuple[str, str, str]]:
    return [(d["position"], d["attacker"], d["claim"]) for d in map(json.loads, lines)]


def test_bad_input_is_refused(tmp_path: Path) -> None:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=5))
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for kwargs, match in [
        ({"threads": 0}, "threads"), ({"threads": True}, "threads"),
        ({"threads": 10**6}, "threads"), ({"job_time": math.nan}, "job_time"),
        ({"job_time": 0}, "job_time"), ({"job_time": math.inf}, "job_time"),
        ({"job_nodes": 0}, "job_nodes"), ({"time": -1}, "time"),
        ({"table_mb": 0}, "table_mb"), ({"executor": "mpi"}, "executor"),
        ({"address": "auto"}, "address"), ({"work_dir": a_file}, "is a file"),
        ({"proof": tmp_path}, "proof"), ({"should_stop": 3}, "should_stop"),
        ({"on_progress": 3}, "on_progress"), ({"work_dir": ""}, "work_dir"),
        ({"proof": tmp_path / "missing" / "p.txt"}, "no directory"),
    ]:
        with pytest.raises(HexgamesError, match=match):
            solve_jobs(board, **kwargs)
    extended = andantino.Board(None, andantino.Rules.from_options(["extended=on"]))
    with pytest.raises(HexgamesError, match="extended play"):
        solve_jobs(extended)
    with pytest.raises(HexgamesError, match="not a hexgames board: str"):
        solve_jobs("andantino")  # type: ignore[arg-type]
    runner = CliRunner()
    for args, message in [
        (["--threads", "0"], "--threads"), (["--job-time", "nan"], "--job-time"),
        (["--job-time", "0"], "--job-time"), (["--work-dir", str(a_file)], "is a file"),
        (["--address", "auto"], "--address is for --executor ray"),
        (["--executor", "mpi"], "--executor"),
    ]:
        refused = runner.invoke(cli.cli, ["solve", "andantino", *args])
        assert refused.exit_code == 2, (args, refused.output)
        assert message in refused.output and "Traceback" not in refused.output


def test_the_command(tmp_path: Path) -> None:
    runner = CliRunner()
    position = ("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 turn=w "
                "hands=w5,r5")
    args = ["solve", "andantino", position, "--rules", "tiles_per_player=10"]
    # one thread and no work dir: the one search, as before
    plain = runner.invoke(cli.cli, args)
    assert plain.exit_code == 0 and "df-pn with 64 MB table" in plain.output
    assert "job-level" not in plain.output
    # a work directory alone: jobs on one thread
    proof = tmp_path / "win.txt"
    work = ["--nodes", "1024", "--tt-mb", "4", "--work-dir", str(tmp_path / "w")]
    jobs = runner.invoke(cli.cli, [*args, *work, "--proof", str(proof)])
    assert jobs.exit_code == 0, jobs.output
    assert "job-level proof-number search on 1 thread;" in jobs.output
    assert "White wins in 9 plies at most, proven" in jobs.output
    assert "0 taken from the work directory" in jobs.output
    assert verify(proof).header.claim == "win"
    # again: one thread retraces the first run's choices, all from the directory
    again = runner.invoke(cli.cli, [*args, *work])
    assert again.exit_code == 0 and "jobs: 0 run" in again.output
    assert "White wins in 9 plies at most, proven" in again.output
    # no node limit: the unknowns of 1,024 nodes do not answer for it; one job of 10 s
    # proves the root
    larger = runner.invoke(cli.cli, [*args, "--work-dir", str(tmp_path / "w")])
    assert larger.exit_code == 0 and "jobs: 1 run" in larger.output
    assert "1 thread\n" in larger.output
    two = runner.invoke(cli.cli, [*args, "--threads", "2", "--nodes", "1024", "--tt-mb",
                                  "4"])
    assert two.exit_code == 0 and "job-level proof-number search on 2 threads" in two.output
    assert "White wins in 9 plies at most, proven" in two.output


def test_ctrl_c_stops_the_jobs_and_a_new_run_resumes(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time

    work = tmp_path / "work"
    results = work / RESULTS
    # the standard start: nothing is settled, every job comes back unknown
    command = [sys.executable, "-c", "from hexgames.cli import main; main()", "solve",
               "andantino", "--threads", "2", "--job-time", "0.05", "--tt-mb", "4",
               "--work-dir", str(work)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "NO_COLOR": "1"})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if results.exists() and results.read_text().count("\n") >= 4:
                break
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "Stopped." in stdout and "unknown: stopped" in stdout
    done = results_keys(results)
    assert len(done) >= 4 and f"jobs: {len(done)} run" in stdout
    # started again: every job of the first run is taken from the directory
    again = solve_jobs(andantino.Board(), threads=1, job_time=0.05, table_mb=4,
                       work_dir=work, time=0.5)
    assert again.reused > 0 and again.value == "unknown" and again.stopped
    assert len(set(results_keys(results))) == len(results_keys(results))


def test_without_ray_the_ray_executor_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    refused = CliRunner().invoke(cli.cli, ["solve", "andantino", "--rules",
                                           "tiles_per_player=4", "--executor", "ray"])
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "error: the ray executor needs Ray, which is not installed" in refused.output


# --- on a local Ray cluster -----------------------------------------------------------


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray = pytest.importorskip("ray")
    with signal_handlers_kept():  # Ray's init and shutdown take SIGTERM
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 object_store_memory=100 * 1024 * 1024)
    yield ray
    with signal_handlers_kept():
        ray.shutdown()


def test_ray_tasks_give_the_same_values(ray_cluster: Any, tmp_path: Path) -> None:
    board = andantino.Board(None, andantino.Rules(tiles_per_player=6))
    result = solve_jobs(board, executor="ray", job_nodes=JOB_NODES, table_mb=4,
                        work_dir=tmp_path, proof=tmp_path / "draw.txt")
    assert result.value == "draw" and result.executor == "ray" and result.workers == 2
    assert result.jobs > 10
    claims_verify(result, board)
    assert ray_cluster.is_initialized()  # a cluster it did not start is left running
    # resumed on threads from the same work directory: its jobs are taken from there
    # (not all of them need be: two jobs at once do not choose as one thread does)
    again = solve_jobs(board, threads=2, job_nodes=JOB_NODES, table_mb=4,
                       work_dir=tmp_path)
    assert again.value == "draw" and again.reused > 0
    keys = results_keys(tmp_path / RESULTS)
    assert len(set(keys)) == len(keys) == result.jobs + again.jobs


def test_a_worker_clears_its_table_once_the_jobs_before_filled_half_of_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # in a full table a job's proofs were replaced before its strategy was written
    from hexgames import native
    from hexgames.jobsolve import workers
    from hexgames.jobsolve.workdir import Goal

    class Counting:
        def __init__(self) -> None:
            self.real = native.Prover(1)
            self.clears = 0

        def clear(self) -> None:
            self.clears += 1
            self.real.clear()

        def __getattr__(self, name: str) -> Any:
            return getattr(self.real, name)

    prover = Counting()
    pool = workers.ThreadWorkers(1, 1)
    monkeypatch.setattr(pool, "_prover", lambda: prover)
    goal = Goal("andantino", ("tiles_per_player=5",), "andantino w=0,0 r=1,0 turn=w "
                "hands=w4,r4", 0, False)
    spec = workers.JobSpec(goal, None, 2_000, 1)
    for fill_above, cleared in [(1.0, 0), (-1.0, 1)]:
        monkeypatch.setattr(workers, "CLEAR_ABOVE", fill_above)
        before = prover.clears
        pool.submit(spec)
        pool.submit(spec)
        done: list[Any] = []
        while len(done) < 2:
            done += pool.wait(1.0)
        # the first job of each round follows one of the round before
        assert prover.clears - before == 2 * cleared


@pytest.mark.parametrize("stopped", [False, True])
def test_a_strategy_not_written_is_a_note_unless_the_run_stopped_it(stopped: bool) -> None:
    # A job whose search settled its goal but whose strategy could not be written comes
    # back unknown; that is worth a note when the job's limits ended the writing, but a
    # run's own stop (Ctrl-C, --time) is no failure, and its notes read like one.
    from hexgames import native
    from hexgames.jobsolve import workers
    from hexgames.jobsolve.workdir import Goal

    asked = [False]

    class StopsWhileWriting:
        def __init__(self) -> None:
            self.real = native.Prover(1)

        def prove(self, *args: Any, **kwargs: Any) -> Any:
            assert not asked[0]
            return self.real.prove(*args, **kwargs)

        def strategy(self, *args: Any, should_stop: Any = None, **kwargs: Any) -> Any:
            asked[0] = stopped  # the run's stop comes as the strategy is written
            assert should_stop is not None and should_stop() == stopped
            raise HexgamesError("stopped while the strategy was written")

    goal = Goal("andantino", ("tiles_per_player=5",), "andantino w=0,0 r=1,0 turn=w "
                "hands=w4,r4", 0, False)
    spec = workers.JobSpec(goal, None, 200_000, 1)
    outcome = workers.run_job(spec, StopsWhileWriting(),  # type: ignore[arg-type]
                              lambda: asked[0])
    assert outcome.verdict == "unknown"
    if stopped:
        assert outcome.note is None and outcome.stopped
    else:
        assert outcome.note is not None and "could not be written" in outcome.note
