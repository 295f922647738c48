"""Bounded by design (issue 14): tasks made lazily, totals in constant memory, records
streamed as games finish, outputs checked before the first game, late write failures
saved elsewhere, Ctrl-C ending promptly with a summary; and self-play samples."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fake_players import FakePlayer

from hexgames import record
from hexgames.arena import (
    ArenaError,
    GameOutput,
    GameResult,
    MatchResult,
    OutputError,
    match_tasks,
    run_match,
    run_selfplay,
    run_tournament,
)
from hexgames.arena import output as output_module
from hexgames.arena.match import drive, play_match
from hexgames.engine import players

HUGE = 10**15  # games no run could build a task list for


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players._PLAYERS, "fake", ("fake_players", "FakePlayer"))
    FakePlayer.games_made = 0


def stop_after(count: int) -> Any:
    """A progress callback that presses Ctrl-C after ``count`` games."""
    def progress(result: GameResult, done: int, total: int) -> None:
        if done >= count:
            raise KeyboardInterrupt
    return progress


def read_records(path: Path) -> list[record.GameRecord]:
    return record.read_games(path.read_text(encoding="utf-8"))


# --- work planned before it is done ---------------------------------------------------


def test_tasks_are_made_as_they_are_asked_for() -> None:
    start = time.perf_counter()
    tasks = match_tasks("andantino", "a", "b", HUGE, seed=1)
    first, second = next(tasks), next(tasks)
    assert time.perf_counter() - start < 1.0
    assert (first.index, second.index, first.seed) == (0, 1, second.seed)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_huge_match_interrupted_ends_promptly_with_its_games(jobs: int,
                                                              tmp_path: Path) -> None:
    start = time.perf_counter()
    match = run_match("andantino", "random", "random", games=HUGE, seed=4, jobs=jobs,
                      progress=stop_after(5), out=tmp_path, keep_results=False,
                      stop_on_interrupt=True)
    assert time.perf_counter() - start < 30
    assert match.interrupted and match.played == 5 and match.games == HUGE
    assert match.results == []  # not kept: only the totals
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 5 and summary["games_planned"] == HUGE
    assert summary["interrupted"] is True and "results" not in summary
    assert len(read_records(tmp_path / "games.hgn")) == 5
    lines = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 and summary["wins"] == sum(
        json.loads(line)["winner"] == "A" for line in lines)


def test_the_summary_of_a_huge_match_does_not_walk_its_planned_games() -> None:
    few = run_match("andantino", "random", "random", games=4, seed=2)
    big = MatchResult("andantino", few.players, list(few.results), HUGE)
    start = time.perf_counter()
    summary = big.summary()
    assert time.perf_counter() - start < 1.0
    assert summary["elo_pairs"]["n"] == 2 and summary["games"] == 4


def test_totals_without_kept_games_equal_those_with() -> None:
    kept = run_match("andantino", "random", "random:nodes=1", games=10, seed=7)
    lean = run_match("andantino", "random", "random:nodes=1", games=10, seed=7,
                     keep_results=False)
    assert lean.results == [] and lean.played == 10
    a, b = kept.summary(), lean.summary()
    for summary in (a, b):
        for key in ("elapsed", "results", "time"):
            summary.pop(key, None)
    assert a == b


# --- streamed records -----------------------------------------------------------------


def test_records_stream_to_the_directory_as_games_finish(tmp_path: Path) -> None:
    seen: list[int] = []

    def progress(result: GameResult, done: int, total: int) -> None:
        # By the time a game is reported, its record and results line are on disk.
        seen.append(len(read_records(tmp_path / "games.hgn")))
        lines = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
        assert json.loads(lines[-1])["game"] == result.index + 1

    match = run_match("abande", "random", "random", games=4, seed=3, out=tmp_path,
                      progress=progress)
    assert seen == [1, 2, 3, 4]
    records = read_records(tmp_path / "games.hgn")
    assert [r.moves for r in records] == [r.record.moves for r in match.results]
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["complete"] and summary["games"] == 4


def test_a_summary_is_written_before_the_first_game(tmp_path: Path) -> None:
    def progress(result: GameResult, done: int, total: int) -> None:
        summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
        assert summary["games"] == 0 and summary["complete"] is False
        raise KeyboardInterrupt

    run_match("abande", "random", "random", games=2, seed=1, out=tmp_path,
              progress=progress, stop_on_interrupt=True)


# --- outputs checked before the work starts -------------------------------------------


@pytest.mark.parametrize("blocked", ["games.hgn", "results.jsonl", "summary.json"])
def test_an_output_that_cannot_be_written_fails_before_any_game(tmp_path: Path,
                                                               blocked: str) -> None:
    (tmp_path / blocked).mkdir()  # a directory where the file should go
    played: list[int] = []
    with pytest.raises(OutputError, match=blocked):
        run_match("andantino", "random", "random", games=HUGE, seed=1, out=tmp_path,
                  progress=lambda r, n, t: played.append(n))
    assert played == []


def test_an_output_directory_under_a_file_fails_before_any_game(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(OutputError, match="cannot create the output directory"):
        run_tournament("abande", ["random", "greedy"], games_per_pair=HUGE * 2,
                       out=tmp_path / "file" / "sub")
    with pytest.raises(OutputError, match="needs a name"):
        GameOutput(" ")


@pytest.mark.parametrize("name", ["games.hgn", "results.jsonl", "summary.json",
                                  "samples.parquet"])
def test_a_directory_holding_a_runs_files_is_refused(tmp_path: Path, name: str) -> None:
    # A second match with the same --out wrote over the first one's games.
    (tmp_path / name).write_text("earlier\n", encoding="utf-8")
    (tmp_path / "results.jsonl").touch(exist_ok=True)  # empty: nothing to lose
    with pytest.raises(OutputError, match=f"already holds a run's {name}: give another "
                                          "directory, or move it away first"):
        run_match("abande", "random", "random", games=2, seed=1, out=tmp_path)
    assert (tmp_path / name).read_text(encoding="utf-8") == "earlier\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({name, "results.jsonl"})


def _locked_by_another(directory: Path) -> bool:
    """Whether another open file description holds ``directory``'s ``flock``."""
    import fcntl

    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_a_directory_another_run_is_writing_is_refused(tmp_path: Path) -> None:
    # Two runs started at once into the same new --out both passed the check for an
    # earlier run's files, and both wrote there.
    first = GameOutput(tmp_path / "out")
    assert _locked_by_another(tmp_path / "out")
    with pytest.raises(OutputError, match=r"out is being written by another run: give "
                                          r"another directory, or wait for that run to end"):
        GameOutput(tmp_path / "out")
    with pytest.raises(OutputError, match="being written by another run"):
        run_match("abande", "random", "random", games=2, seed=1, out=tmp_path / "out")
    first.begin({"games": 0, "interrupted": False})
    first.finish({"games": 0, "interrupted": True})
    assert not _locked_by_another(tmp_path / "out")  # released with the last summary
    run_match("abande", "random", "random", games=2, seed=1, out=tmp_path / "out")
    assert not _locked_by_another(tmp_path / "out")
    # A refused or discarded output lets go too.
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "games.hgn").write_text("earlier\n", encoding="utf-8")
    with pytest.raises(OutputError, match="already holds"):
        GameOutput(tmp_path / "other")
    assert not _locked_by_another(tmp_path / "other")
    stopped = GameOutput(tmp_path / "stopped")
    stopped.discard()
    assert not (tmp_path / "stopped").exists()


def test_a_summary_that_cannot_be_written_leaves_no_empty_files(tmp_path: Path) -> None:
    # The run was refused, but it left an empty games.hgn and results.jsonl behind.
    (tmp_path / "summary.json").mkdir()
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    with pytest.raises(OutputError, match=r"\S+summary\.json is a directory"):
        run_match("abande", "random", "random", games=2, seed=1, out=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "summary.json"]
    # It is refused when the output is made, before a progress line is shown.
    with pytest.raises(OutputError, match=r"\S+summary\.json is a directory"):
        GameOutput(tmp_path)
    (tmp_path / "summary.json").rmdir()
    (tmp_path / "summary.json.partial").mkdir()
    with pytest.raises(OutputError, match=r"cannot write \S+summary\.json: \S+summary\.json"
                                          r"\.partial is in the way \(the summary is written "
                                          r"there first\): move it away"):
        GameOutput(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt",
                                                          "summary.json.partial"]
    made = tmp_path / "made"
    output = GameOutput(made)
    (made / "summary.json").mkdir()
    with pytest.raises(OutputError, match="Is a directory"):
        output.begin({"games": 0})
    assert [p.name for p in made.iterdir()] == ["summary.json"]


def test_a_refused_output_removes_only_what_it_made(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    # A refusal removed the empty games.hgn and results.jsonl the user already had (and
    # symbolic links of those names).
    (tmp_path / "summary.json").mkdir()
    (tmp_path / "games.hgn").touch()
    (tmp_path / "results.jsonl").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(OutputError, match="is a directory"):
        GameOutput(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.hgn", "results.jsonl",
                                                          "summary.json"]
    # The directories it made go, the outer ones too (a refusal to lock the innermost left
    # them all); those there before stay.
    deep = tmp_path / "a" / "b" / "c"
    GameOutput(deep).discard()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.hgn", "results.jsonl",
                                                          "summary.json"]

    def refused(directory: Path, text: str) -> int:
        raise OutputError(f"cannot lock the output directory {text}")

    monkeypatch.setattr(output_module, "_lock", refused)
    with pytest.raises(OutputError, match="cannot lock"):
        GameOutput(deep)
    assert not (tmp_path / "a").exists()


def test_a_summary_partial_of_any_kind_is_refused(tmp_path: Path) -> None:
    # A summary.json.partial that was a symbolic link had the summary written through it,
    # over a file outside --out; a regular one, the user's, was written over.
    other = tmp_path / "other.txt"
    other.write_text("precious\n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json.partial").symlink_to(other)
    with pytest.raises(OutputError, match=r"summary\.json\.partial is in the way"):
        run_match("abande", "random", "random", games=2, seed=1, out=out)
    assert other.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in out.iterdir()) == ["summary.json.partial"]


def test_an_output_directory_that_cannot_be_reached_is_refused(tmp_path: Path) -> None:
    # Path.exists() raised (a name too long, a parent that cannot be searched): a
    # traceback instead of an OutputError.
    with pytest.raises(OutputError, match="File name too long"):
        GameOutput(tmp_path / ("x" * 300))
    with pytest.raises(OutputError, match="File name too long"):
        GameOutput(tmp_path / ("x" * 300) / "sub")


def test_a_record_file_linked_to_nowhere_is_refused(tmp_path: Path) -> None:
    # games.hgn linked to a file that did not exist was opened through the link, which
    # made that file outside the directory (and left it there when the run was refused).
    outside = tmp_path / "outside"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.hgn").symlink_to(outside / "made_by_run")
    with pytest.raises(OutputError, match=r"cannot write \S+games\.hgn: it is a symbolic link "
                                          r"that leads nowhere \(to \S+made_by_run\)"):
        run_match("abande", "random", "random", games=2, seed=1, out=out)
    assert list(outside.iterdir()) == []
    assert [p.name for p in out.iterdir()] == ["games.hgn"]


def test_a_directory_that_takes_no_new_file_is_refused_before_any_file_is_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The summary could not be made (a directory the user may not add to, with writable
    # empty records in it): found after the progress line, and the user's empty
    # samples.parquet had been rewritten by then.
    (tmp_path / "samples.parquet").touch()
    (tmp_path / "games.hgn").touch()
    monkeypatch.setattr(output_module, "_partial",
                        lambda path: path.parent / "no such directory" / "x")
    with pytest.raises(OutputError, match=r"cannot write \S+summary\.json: No such file"):
        GameOutput(tmp_path, samples=True)
    assert sorted((p.name, p.stat().st_size) for p in tmp_path.iterdir()) == [
        ("games.hgn", 0), ("samples.parquet", 0)]


def test_a_path_through_its_parent_is_made(tmp_path: Path) -> None:
    # new/../out said "cannot create the output directory new/../out: File exists".
    output = GameOutput(tmp_path / "new" / ".." / "out")
    output.begin({"games": 0})
    output.finish({"games": 0})
    assert (tmp_path / "out" / "summary.json").exists()


def test_symbolic_links_that_lead_nowhere_are_named(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    (tmp_path / "slash").symlink_to(str(tmp_path / "afile") + "/")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    with pytest.raises(OutputError, match=r"loop is a symbolic link to \S+loop: Too many "
                                          r"levels of symbolic links"):
        GameOutput(tmp_path / "loop")
    with pytest.raises(OutputError, match=r"slash is a symbolic link to \S+afile/: Not a "
                                          r"directory"):
        GameOutput(tmp_path / "slash")
    with pytest.raises(OutputError, match=r"dangling is a symbolic link that leads nowhere "
                                          r"\(to \S+gone\)"):
        GameOutput(tmp_path / "dangling")
    # A loop inside the path was called a link that leads nowhere.
    with pytest.raises(OutputError, match=r"cannot create the output directory \S+x: \S+loop "
                                          r"is a symbolic link to \S+loop: Too many levels"):
        GameOutput(tmp_path / "loop" / "x")
    # Through one, mkdir said "File exists".
    with pytest.raises(OutputError, match=r"cannot create the output directory \S+sub: "
                                          r"\S+dangling is a symbolic link that leads nowhere"):
        GameOutput(tmp_path / "dangling" / "sub")
    assert not (tmp_path / "gone").exists()


def test_the_summary_of_a_run_stopped_before_its_first_game_is_written_over(
        tmp_path: Path) -> None:
    # A run stopped at once left this, and its directory could not be used again.
    (tmp_path / "summary.json").write_text('{"games": 0, "interrupted": true}\n',
                                           encoding="utf-8")
    (tmp_path / "games.hgn").touch()
    run_match("abande", "random", "random", games=2, seed=1, out=tmp_path)
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["games"] == 2
    (tmp_path / "again").mkdir()
    for text in ('{"games": 0', '{"games": false, "interrupted": true}', '[0]',
                 '{"games": 1, "interrupted": false}'):
        (tmp_path / "again" / "summary.json").write_text(text, encoding="utf-8")
        with pytest.raises(OutputError, match=r"already holds a run's summary\.json"):
            GameOutput(tmp_path / "again")


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_the_summary_a_killed_run_left_before_its_first_game_is_written_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # kill -9 before the first game left a summary of no games saying "interrupted":
    # false (a run still going says so) and the directory could not be used again.
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text('{"games": 0, "interrupted": false}', encoding="utf-8")
    (out / "games.hgn").touch()
    going = GameOutput(out)  # no run holds the directory: the summary is stale
    with pytest.raises(OutputError, match="being written by another run"):
        GameOutput(out)  # while one does, its directory is refused
    going.discard()
    # Without a lock (no fcntl) such a summary may be a run's still going: refused.
    monkeypatch.setattr(output_module, "fcntl", None)
    with pytest.raises(OutputError, match=r"already holds a run's summary\.json"):
        GameOutput(out)


def test_a_directory_that_cannot_be_opened_to_lock_it_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A write-only directory (-wx) took no lock, and two runs started at once both wrote
    # there (a helper's find, as a user without root's overrides).
    real_open = os.open

    def no_reading(path: Any, flags: int, *args: Any) -> int:
        if Path(path) == tmp_path and flags == os.O_RDONLY:
            raise PermissionError(13, "Permission denied")
        return int(real_open(path, flags, *args))

    monkeypatch.setattr(output_module.os, "open", no_reading)
    with pytest.raises(OutputError, match=f"cannot lock the output directory {tmp_path} "
                                          "against other runs: Permission denied"):
        GameOutput(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_cannot_be_opened_leaves_no_empty_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An --out whose results.jsonl is a directory was refused but left an empty games.hgn.
    (tmp_path / "results.jsonl").mkdir()
    with pytest.raises(OutputError, match=r"cannot write \S+results\.jsonl"):
        GameOutput(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["results.jsonl"]
    made = tmp_path / "made" / "deeper"
    real = output_module._Stream

    def failing(path: Path) -> Any:
        if path.name == "results.jsonl":
            raise OSError(28, "No space left on device")
        return real(path)

    monkeypatch.setattr(output_module, "_Stream", failing)
    with pytest.raises(OutputError, match="No space left on device"):
        GameOutput(made)
    assert not made.exists()  # the directory it made goes too


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_an_output_dropped_unfinished_lets_go_of_its_directory(tmp_path: Path) -> None:
    import gc

    output = GameOutput(tmp_path)
    assert _locked_by_another(tmp_path)
    del output
    gc.collect()
    assert not _locked_by_another(tmp_path)


def test_samples_of_no_rows_are_written_over(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from hexgames.arena import run_selfplay

    stopped = GameOutput(tmp_path, samples=True)  # a run stopped before its first game
    stopped.begin({"games": 0})
    stopped.finish({"games": 0, "interrupted": True})
    assert (tmp_path / "samples.parquet").stat().st_size > 0
    run_selfplay("abande", "greedy", games=2, seed=1, samples=True,
                 out=GameOutput(tmp_path, samples=True))
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["games"] == 2
    with pytest.raises(OutputError, match=r"summary\.json and samples\.parquet: give"):
        GameOutput(tmp_path, samples=True)


def test_an_output_directory_of_other_files_is_used(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "games.hgn").touch()
    run_match("abande", "random", "random", games=2, seed=1, out=tmp_path)
    assert len(read_records(tmp_path / "games.hgn")) == 2
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"


# --- results lost to a late write error -----------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_the_output_notes_where_the_records_went(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    # /dev/full opens but fails every write with "No space left on device", as a full
    # disk does after hours of play.
    (out / "games.hgn").symlink_to("/dev/full")
    output = GameOutput(out)
    match = run_match("andantino", "random", "random", games=4, seed=5, out=output)
    assert match.played == 4
    moved = output.paths["games.hgn"]
    assert moved is not None and moved.parent != out
    assert any("No space left on device" in note and str(moved.parent) in note
               for note in output.notes)
    records = read_records(moved)
    assert [r.moves for r in records] == [r.record.moves for r in match.results]
    assert output.paths["summary.json"] == out / "summary.json"
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["games"] == 4
    shutil.rmtree(moved.parent)


def test_a_directory_removed_during_the_match_is_saved_elsewhere(tmp_path: Path) -> None:
    out = tmp_path / "out"
    output = GameOutput(out)

    def progress(result: GameResult, done: int, total: int) -> None:
        if done == 2:
            shutil.rmtree(out)  # the disk went away, say

    match = run_match("abande", "random", "random", games=4, seed=6, out=output,
                      progress=progress)
    paths = output.paths
    summary_path, games_path = paths["summary.json"], paths["games.hgn"]
    assert summary_path is not None and games_path is not None
    assert summary_path.parent != out and games_path.parent == summary_path.parent
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    assert summary["games"] == 4
    # Every game is there, those written before the removal too.
    assert [r.moves for r in read_records(games_path)] == \
        [r.record.moves for r in match.results]
    assert len((summary_path.parent / "results.jsonl").read_text().splitlines()) == 4
    assert output.notes and all(str(summary_path.parent) in note for note in output.notes)
    shutil.rmtree(summary_path.parent)


def test_a_summary_no_file_can_take_is_kept_to_print(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    output = GameOutput(out)

    def no_directory(prefix: str = "") -> str:
        raise OSError(28, "No space left on device")

    def progress(result: GameResult, done: int, total: int) -> None:
        if done == 1:
            shutil.rmtree(out)
        monkeypatch.setattr(output_module.tempfile, "mkdtemp", no_directory)

    run_match("abande", "random", "random", games=2, seed=6, out=output, progress=progress)
    assert output.paths["summary.json"] is None
    assert output.printed is not None and json.loads(output.printed)["games"] == 2
    assert any("could not be written to any file" in note for note in output.notes)


# --- Ctrl-C in a real process ---------------------------------------------------------


class _ListExecutor:
    """Hands out the results it was made with, as if the games had just finished."""

    def __init__(self, results: list[Any]) -> None:
        self.results = results

    def map_unordered(self, fn: Any, tasks: Any) -> Any:
        return iter(self.results)


def test_ctrl_c_while_a_game_is_recorded_waits_until_it_is_counted_too() -> None:
    # A real run once wrote 140 records for 139 counted games: Ctrl-C fell between
    # writing a game and counting it. The interrupt now waits for the end of the result.
    done: list[tuple[str, int]] = []

    def on_result(result: int) -> bool:
        done.append(("written", result))
        signal.raise_signal(signal.SIGINT)
        done.append(("counted", result))
        return False

    assert drive(_ListExecutor([1, 2, 3]), iter([]), on_result,  # type: ignore[arg-type]
                 stop_on_interrupt=True) is True
    assert done == [("written", 1), ("counted", 1)]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


class _InterruptedRun:
    """Results that end in a Ctrl-C after the given ones; a second Ctrl-C comes while
    the run is closed."""

    def __init__(self, results: list[Any]) -> None:
        self.results = results

    def __iter__(self) -> Any:
        yield from self.results
        raise KeyboardInterrupt

    def close(self) -> None:
        raise KeyboardInterrupt


def test_a_second_ctrl_c_while_the_games_stop_still_counts_as_the_interrupt() -> None:
    # Found by a helper: two quick Ctrl-Cs left summaries saying "not interrupted".
    class Executor:
        def map_unordered(self, fn: Any, tasks: Any) -> Any:
            return _InterruptedRun([1, 2])

    seen: list[int] = []
    assert drive(Executor(), iter([]), lambda r: seen.append(r) is not None,  # type: ignore[arg-type]
                 stop_on_interrupt=True) is True
    assert seen == [1, 2]
    with pytest.raises(KeyboardInterrupt):
        drive(Executor(), iter([]), lambda r: False)  # type: ignore[arg-type]


def test_a_second_ctrl_c_while_the_summary_is_written_leaves_it_whole() -> None:
    class Output:
        def __init__(self) -> None:
            self.summaries: list[dict[str, Any]] = []

        def begin(self, summary: dict[str, Any]) -> None:
            self.summaries.append(summary)

        def add(self, result: Any) -> None:
            pass

        def finish(self, summary: dict[str, Any]) -> None:
            signal.raise_signal(signal.SIGINT)  # the second Ctrl-C, half-way
            self.summaries.append(summary)

    class Executor:
        def map_unordered(self, fn: Any, tasks: Any) -> Any:
            return _InterruptedRun([])

    output = Output()
    match = MatchResult(game="andantino", players=("random", "random"), results=[], games=4)
    play_match(match, Executor(), iter([]), output=output,  # type: ignore[arg-type]
               stop_on_interrupt=True)
    assert match.interrupted
    assert len(output.summaries) == 2 and output.summaries[-1]["interrupted"] is True
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


@pytest.mark.parametrize("where", ["begin", "executor"])
@pytest.mark.parametrize("stop_on_interrupt", [True, False])
def test_ctrl_c_before_the_loop_begins_is_an_interrupt_in_the_summary(
        where: str, stop_on_interrupt: bool) -> None:
    """A stop as the starting summary was written left no summary at all, and one as
    the executor began (before :func:`drive`'s loop) a final summary saying "not
    interrupted" (with the exit status of a stop), found by a helper sending SIGTERM at
    those points. Now each is a stop like any other."""
    class Output:
        def __init__(self) -> None:
            self.summaries: list[dict[str, Any]] = []

        def begin(self, summary: dict[str, Any]) -> None:
            if where == "begin":
                raise KeyboardInterrupt
            self.summaries.append(summary)

        def add(self, result: Any) -> None:
            pass

        def finish(self, summary: dict[str, Any]) -> None:
            self.summaries.append(summary)

    class Executor:
        def map_unordered(self, fn: Any, tasks: Any) -> Any:
            raise KeyboardInterrupt  # not a generator: it runs as drive calls it

    output = Output()
    match = MatchResult(game="andantino", players=("random", "random"), results=[], games=4)
    if stop_on_interrupt:
        play_match(match, Executor(), iter([]), output=output,  # type: ignore[arg-type]
                   stop_on_interrupt=True)
    else:
        with pytest.raises(KeyboardInterrupt):
            play_match(match, Executor(), iter([]), output=output)  # type: ignore[arg-type]
    assert match.interrupted
    assert output.summaries[-1]["interrupted"] is True
    assert len(output.summaries) == (1 if where == "begin" else 2)


def test_a_starting_summary_that_cannot_be_written_ends_the_run_before_any_game(
        tmp_path: Path) -> None:
    # (and nothing tries to write the final one)
    class Output:
        finished = False

        def begin(self, summary: dict[str, Any]) -> None:
            raise OutputError("cannot write summary.json: disk full")

        def finish(self, summary: dict[str, Any]) -> None:
            self.finished = True

    class Executor:
        def map_unordered(self, fn: Any, tasks: Any) -> Any:
            raise AssertionError("no game may start")

    output = Output()
    match = MatchResult(game="andantino", players=("random", "random"), results=[], games=4)
    with pytest.raises(OutputError, match="disk full"):
        play_match(match, Executor(), iter([]), output=output)  # type: ignore[arg-type]
    assert not output.finished and not match.interrupted


def test_ctrl_c_ends_a_huge_match_promptly_with_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = [sys.executable, "-c", "from hexgames.cli import main; main()", "match",
               "andantino", "-p", "random", "-p", "random", "-n", "100000000", "--jobs",
               "2", "--seed", "3", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "NO_COLOR": "1"})
    try:
        deadline = time.monotonic() + 60
        results = out / "results.jsonl"
        while time.monotonic() < deadline:
            if results.exists() and results.stat().st_size > 0:
                break
            time.sleep(0.1)
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        start = time.monotonic()
        stdout, stderr = process.communicate(timeout=30)
        assert time.monotonic() - start < 10
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    played = summary["games"]
    assert played > 0 and summary["interrupted"] is True
    assert f"Interrupted after {played} of 100000000 games." in stdout
    assert len(read_records(out / "games.hgn")) == played
    assert len(results.read_text(encoding="utf-8").splitlines()) == played


def test_ctrl_c_in_a_tournament_keeps_the_games_so_far(fake: None) -> None:
    result = run_tournament("andantino", ["fake:interrupt=3", "random", "greedy"],
                            games_per_pair=HUGE * 2, seed=1, stop_on_interrupt=True)
    assert result.interrupted and result.games == 2
    with pytest.raises(KeyboardInterrupt):
        FakePlayer.games_made = 0
        run_tournament("andantino", ["fake:interrupt=3", "random"], games_per_pair=HUGE * 2,
                       seed=1)


# --- self-play ------------------------------------------------------------------------


def test_selfplay_writes_samples_of_every_searched_position(tmp_path: Path,
                                                           fake: None) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    match = run_selfplay("andantino", "fake:policy=on", games=3, seed=2, out=tmp_path,
                         samples=True, opening_plies=2, limit=None)
    table = pq.read_table(tmp_path / "samples.parquet")
    assert table.column_names == ["game", "ply", "position", "turn", "player", "move",
                                  "score", "eval", "depth", "nodes", "policy_moves",
                                  "policy_probs", "result"]
    rows = table.to_pylist()
    assert len(rows) == sum(r.plies - 2 for r in match.results)  # openings give none
    by_game = {r.index + 1: r for r in match.results}
    for row in rows:
        game = by_game[row["game"]]
        assert row["ply"] >= 2 and row["player"] == "fake:policy=on"
        assert game.record.moves[row["ply"]] == row["move"]
        assert (row["score"], row["eval"], row["depth"], row["nodes"]) == \
            (pytest.approx(0.53), pytest.approx(0.3), 3, 30)
        assert row["policy_moves"][0] == row["move"]
        assert sum(row["policy_probs"]) == pytest.approx(1.0)
        winner = game.outcome.winner
        assert row["result"] == (0.5 if winner is None else float(winner == row["turn"]))
    first = rows[0]
    board = record.read_game(record.write_game(by_game[first["game"]].record)).board()
    while board.ply() > first["ply"]:
        board.pop()
    assert board.position() == first["position"] and int(board.turn) == first["turn"]


def test_selfplay_seeds_each_game_apart() -> None:
    match = run_selfplay("abande", "random", games=4, seed=3)
    moves = [r.record.moves for r in match.results]
    assert len({tuple(m) for m in moves}) == 4
    assert all(r.first == 0 and r.players == ("random", "random") for r in match.results)
    again = run_selfplay("abande", "random", games=4, seed=3, jobs=2)
    assert [r.record.moves for r in again.results] == moves


def test_selfplay_samples_need_pyarrow_and_a_directory(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ArenaError, match="output directory"):
        run_selfplay("abande", "random", games=1, samples=True)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    played: list[int] = []
    with pytest.raises(OutputError, match=r"pip install 'hexgames\[selfplay\]'"):
        run_selfplay("abande", "random", games=HUGE, samples=True, out=tmp_path,
                     progress=lambda r, n, t: played.append(n))
    assert played == []


def test_selfplay_samples_survive_a_removed_directory(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "out"
    output = GameOutput(out, samples=True)

    def progress(result: GameResult, done: int, total: int) -> None:
        if done == 1:
            shutil.rmtree(out)

    match = run_selfplay("abande", "greedy", games=3, seed=1, out=output, samples=True,
                         progress=progress)
    samples = output.paths["samples.parquet"]
    assert samples is not None and samples.parent != out
    assert pq.read_table(samples).num_rows == sum(r.plies for r in match.results)
    assert output.paths["summary.json"] == samples.parent / "summary.json"
    assert len(read_records(samples.parent / "games.hgn")) == 3
    shutil.rmtree(samples.parent)


def test_ctrl_c_in_selfplay_keeps_the_games_and_samples_so_far(tmp_path: Path,
                                                               fake: None) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    # Two fake players a game: the 7th begins game 4.
    match = run_selfplay("andantino", "fake:interrupt=7", games=HUGE, seed=1, out=tmp_path,
                         samples=True, stop_on_interrupt=True)
    assert match.interrupted and match.played == 3
    assert pq.read_table(tmp_path / "samples.parquet").num_rows == \
        sum(r.plies for r in match.results)
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == 3 and summary["interrupted"] is True


def test_a_moved_stream_keeps_only_the_writes_that_succeeded(tmp_path: Path) -> None:
    stream = output_module._Stream(tmp_path / "games.hgn")
    stream.write("first game\n")
    assert stream.file is not None
    stream.file.write(b"half of a second ga")  # a write that failed half-way
    stream.file.flush()
    (tmp_path / "elsewhere").mkdir()
    stream.move(tmp_path / "elsewhere")
    stream.write("second game\n")
    stream.close()
    assert (tmp_path / "elsewhere" / "games.hgn").read_text(encoding="utf-8") == \
        "first game\nsecond game\n"
