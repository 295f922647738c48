"""The Ray executor on a local Ray cluster started once for this module (2 CPUs): the
same games as the process pool, a killed worker's game replayed, cancellation, and the
clear error without Ray."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fake_players
import pytest
from click.testing import CliRunner

from hexgames import cli, record
from hexgames.arena import ArenaError, LocalProcessExecutor, match_tasks, play_task, run_match
from hexgames.arena.cluster import RayExecutor, check_address
from hexgames.processes import signal_handlers_kept

# Ray on this machine only: every process on loopback, never the network address (read
# by Ray when it is imported, and by the processes it starts).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def comparable(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without what depends on the machine and the clock."""
    skip = {"elapsed", "time", "executor", "jobs"}
    data = {k: v for k, v in summary.items() if k not in skip}
    data["results"] = [{k: v for k, v in r.items() if k != "times"} for r in data["results"]]
    return data


def records(match: Any) -> list[tuple[dict[str, str], list[str]]]:
    return [({k: v for k, v in r.record.tags.items() if k != "Date"}, r.record.moves)
            for r in match.results]


# --- without Ray ----------------------------------------------------------------------


def test_without_ray_the_executor_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(ArenaError, match=r"pip install 'hexgames\[cluster\]'"):
        RayExecutor()
    result = CliRunner().invoke(cli.cli, ["match", "abande", "-p", "random", "-p", "random",
                                          "--executor", "ray"])
    assert result.exit_code == 2
    assert result.stderr.strip() == ("error: the ray executor needs Ray, which is not "
                                     "installed: pip install 'hexgames[cluster]'")


@pytest.mark.parametrize(("address", "expected"), [
    ("auto", "auto"), (" 10.0.0.5:6379 ", "10.0.0.5:6379"), ("ray://head:10001", "ray://head:10001"),
    (None, None),
])
def test_addresses(address: str | None, expected: str | None) -> None:
    assert check_address(address) == expected


@pytest.mark.parametrize("address", ["", "head", "head:0", "head:70000", "http://x:1",
                                     "a b:1"])
def test_bad_addresses(address: str) -> None:
    with pytest.raises(ArenaError, match="a Ray address is"):
        check_address(address)


def test_address_needs_the_ray_executor() -> None:
    result = CliRunner().invoke(cli.cli, ["match", "abande", "-p", "random", "-p", "random",
                                          "--address", "auto"])
    assert result.exit_code == 2 and "--address is for --executor ray" in result.stderr


# --- on a local Ray cluster -----------------------------------------------------------


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    # The test helpers are not installed on the workers: send them by value.
    ray.cloudpickle.register_pickle_by_value(fake_players)
    with signal_handlers_kept():  # Ray's init and shutdown take SIGTERM
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 object_store_memory=100 * 1024 * 1024)
    # Every Ray process of the test on loopback (the switch is set at the top).
    assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}
    yield ray
    with signal_handlers_kept():
        ray.shutdown()


def _sigterm_caught() -> bool:
    """Whether SIGTERM has a handler underneath Python (the SigCgt mask of /proc)."""
    status = Path("/proc/self/status").read_text(encoding="utf-8")
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(mask, 16) >> (signal.SIGTERM - 1) & 1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_executor_keeps_the_signal_handlers() -> None:
    # ray.init set SIGTERM to exit at once, so a SIGTERM stopped a match on Ray without
    # its summary; ray.shutdown then gave SIGTERM its default back underneath Python, and
    # a later SIGTERM killed the process whose getsignal still named Ray's handler (seen
    # when CI's pytest was killed by a later test's own SIGTERM).
    pytest.importorskip("ray")

    def handler(signum: int, frame: Any) -> None:
        raise AssertionError("not sent")

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        executor = RayExecutor(num_cpus=1)
        executor.connect()
        assert signal.getsignal(signal.SIGTERM) is handler
        executor.close()
        assert signal.getsignal(signal.SIGTERM) is handler
        assert _sigterm_caught()
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_starting_ray_off_the_main_thread_writes_no_warnings(
        capfd: pytest.CaptureFixture[str]) -> None:
    # `hexgames solve --executor ray` starts Ray from its search thread: Ray warned
    # that it set no SIGTERM handler there (we keep our own anyway) and that its local
    # instance has token authentication on, on the user's terminal.
    pytest.importorskip("ray")
    executor = RayExecutor(num_cpus=1)
    thread = threading.Thread(target=executor.connect)
    thread.start()
    thread.join()
    try:
        assert executor.jobs is not None  # it connected
    finally:
        executor.close()
    written = capfd.readouterr().err
    assert "SIGTERM handler is not set" not in written
    assert "Token authentication is enabled" not in written


@pytest.mark.parametrize("game", ["andantino", "abande"])
def test_ray_plays_the_games_of_the_process_pool(ray_cluster: Any, game: str) -> None:
    kwargs: dict[str, Any] = {"games": 6, "seed": 17, "opening_plies": 2}
    on_ray = run_match(game, "alphabeta:depth=1", "random", executor=RayExecutor(), **kwargs)
    local = run_match(game, "alphabeta:depth=1", "random",
                      executor=LocalProcessExecutor(2), **kwargs)
    assert records(on_ray) == records(local)
    assert comparable(on_ray.summary()) == comparable(local.summary())
    assert on_ray.summary()["executor"] == "ray" and on_ray.jobs == 2


def test_a_killed_workers_game_is_replayed(ray_cluster: Any, tmp_path: Path) -> None:
    marker = tmp_path / "died"
    tasks = list(match_tasks("abande", "random", "greedy", 4, seed=8))
    jobs = [(str(marker), 2, task) for task in tasks]
    results = list(RayExecutor().map_unordered(fake_players.play_task_dying, jobs))
    assert marker.exists()  # game 3's worker was killed once
    expected = [play_task(task) for task in tasks]
    assert sorted((r.index, r.record.moves) for r in results) == \
        [(r.index, r.record.moves) for r in expected]


def test_a_worker_that_dies_every_time_is_an_error(ray_cluster: Any, tmp_path: Path) -> None:
    # retries=0: Ray does not run it again, and the arena says so.
    jobs = [(str(tmp_path / "died"), 3)]
    with pytest.raises(ArenaError, match="Ray worker died 1 times"):
        list(RayExecutor(retries=0).map_unordered(fake_players.die_once, jobs))


def test_a_task_error_is_raised_as_itself(ray_cluster: Any) -> None:
    with pytest.raises(ValueError, match="negative -1"):
        list(RayExecutor().map_unordered(fake_players.square_or_fail, [1, -1, 2]))


def test_closing_the_results_cancels_the_tasks_in_flight(ray_cluster: Any,
                                                         tmp_path: Path) -> None:
    # One task in flight at a time, so the slow one is submitted only once the fast one
    # is done (with two, a loaded machine could start a slow task seconds before the
    # fast one and let it finish before close(): a marker that proves nothing).
    markers = [tmp_path / f"slow{i}" for i in range(4)]
    jobs = [(0.05, "")] + [(6.0, str(m)) for m in markers]
    results = RayExecutor(max_in_flight=1).map_unordered(fake_players.sleep_then_mark, jobs)
    assert next(results) == 0.05
    # Let the slow task start: one cancelled while Ray hands it to a worker may still
    # run (a race inside Ray, seen once in CI); a task in flight is a running one.
    time.sleep(1.0)
    start = time.monotonic()
    results.close()  # what Ctrl-C or a decided SPRT does
    assert time.monotonic() - start < 5
    time.sleep(7)
    assert not any(m.exists() for m in markers)  # the slow task in flight was cancelled


def test_the_cli_runs_a_match_on_ray(ray_cluster: Any, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli.cli, ["match", "abande", "-p", "random", "-p", "greedy",
                                          "-n", "4", "--seed", "2", "--executor", "ray",
                                          "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    games = record.read_games((tmp_path / "games.hgn").read_text(encoding="utf-8"))
    assert sorted(int(g.tags["Round"]) for g in games) == [1, 2, 3, 4]
    assert ray_cluster.is_initialized()  # the executor leaves a cluster it did not start


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_ends_a_match_on_ray_promptly(tmp_path: Path, signum: int, status: int) -> None:
    # SIGTERM too: Ray's own handler made it exit with status 15, no summary written.
    pytest.importorskip("ray")

    out = tmp_path / "out"
    # Its own Ray instance (this module's is in this process only), of 2 CPUs.
    command = [sys.executable, "-c", "from hexgames.cli import main; main()", "match",
               "abande", "-p", "random", "-p", "random", "-n", "100000000", "--seed", "3",
               "--executor", "ray", "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "NO_COLOR": "1"})
    try:
        deadline = time.monotonic() + 120
        results = out / "results.jsonl"
        while time.monotonic() < deadline:
            if results.exists() and results.stat().st_size > 0:
                break
            time.sleep(0.2)
        process.send_signal(signum)
        start = time.monotonic()
        stdout, stderr = process.communicate(timeout=60)
        assert time.monotonic() - start < 30  # cancelling, then stopping Ray
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == status, stderr
    played = len(results.read_text(encoding="utf-8").splitlines())
    assert f"Interrupted after {played} of 100000000 games." in stdout
    assert len(record.read_games((out / "games.hgn").read_text(encoding="utf-8"))) == played
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["interrupted"] is True and summary["games"] == played
