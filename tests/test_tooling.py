"""The Makefile's app recipes and the benchmark scripts, stopped by Ctrl-C as a person
stops them: a real ``make`` (or the script's own process), SIGINT to its whole process
group as a terminal sends it."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
MAKE = shutil.which("make")


def fake_venv(tmp_path: Path, body: str) -> list[str]:
    """``make`` variables that give the recipes a virtual environment in ``tmp_path``,
    up to date, whose ``hexgames`` is the shell script ``body``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text("")  # the order-only prerequisite: it exists
    app = bin_dir / "hexgames"
    app.write_text(f"#!/bin/sh\n{body}\n")
    app.chmod(0o755)
    stamp = tmp_path / "installed-play"
    stamp.write_text("")  # newer than pyproject.toml and the native sources
    return [f"BIN={bin_dir}", f"PLAY_STAMP={stamp}"]


def real_app(*extra: str) -> str:
    """The body of a ``hexgames`` that is the real command, with ``extra`` arguments."""
    code = "from hexgames.cli import main; main()"
    return (f"exec {shlex.quote(sys.executable)} -c {shlex.quote(code)} \"$@\" "
            + " ".join(shlex.quote(word) for word in extra))


def make_env() -> dict[str, str]:
    """The environment of a ``make`` run as a person runs it, not as a sub-make of the
    ``make test`` that may run these tests (which would add ``Entering directory``
    lines); ``BROWSER=true``: ``serve --open`` opens no browser."""
    outer = {"MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES"}
    return {**{k: v for k, v in os.environ.items() if k not in outer}, "BROWSER": "true"}


def run_make(variables: list[str], target: str, out: Path,
             err: Path) -> subprocess.Popen[bytes]:
    with out.open("wb") as stdout, err.open("wb") as stderr:
        return subprocess.Popen([str(MAKE), target, *variables], cwd=ROOT,
                                stdin=subprocess.PIPE, stdout=stdout, stderr=stderr,
                                start_new_session=True, env=make_env())


def wait_for_text(path: Path, text: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while text not in path.read_text():
        assert process.poll() is None, path.read_text()
        assert time.monotonic() < deadline, path.read_text()
        time.sleep(0.1)


@pytest.mark.skipif(MAKE is None, reason="no make")
@pytest.mark.parametrize("target", ["play", "terminal"])
def test_ctrl_c_stops_make_play_and_terminal_without_a_make_error(
        tmp_path: Path, target: str) -> None:
    """The app exits 130 when Ctrl-C stops it; make said ``make: *** [Makefile:..: play]
    Error 130`` after it (and ``Interrupt`` when a shell ran the app and died of the
    same Ctrl-C)."""
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    if target == "play":
        pytest.importorskip("starlette")
        from web_helpers import free_port, wait_for_server

        port = free_port()  # make's PORT, as README says
        variables = [*fake_venv(tmp_path, real_app("--db", str(tmp_path / "games.db"))),
                     f"PORT={port}"]
        make = run_make(variables, target, out, err)
        wait_for_server(make, f"http://127.0.0.1:{port}", err)
        command = f"serve --open --port {port}"
        stopped = "hexgames: the browser app has stopped\n"
    else:
        variables = fake_venv(tmp_path, real_app())
        make = run_make(variables, target, out, err)
        wait_for_text(out, "White move (or help)> ", make)
        command, stopped = "play andantino", ""
    os.killpg(make.pid, signal.SIGINT)
    assert make.wait(60) == -signal.SIGINT  # make ends by the signal, as stopped programs do
    assert err.read_text() == stopped
    assert out.read_text().startswith(f"{tmp_path}/bin/hexgames {command}\n")



@pytest.mark.skipif(MAKE is None, reason="no make")
def test_sigterm_to_make_play_stops_the_server_too(tmp_path: Path) -> None:
    """``kill MAKE_PID`` (or ``timeout make play``): make sends SIGTERM to the recipe's
    process, which was the shell of the recipe's function, not the app: the shell died,
    and the server lived on, orphaned, its port and database still open."""
    pytest.importorskip("starlette")
    from web_helpers import free_port, wait_for_server

    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    port = free_port()
    db = tmp_path / "games.db"
    variables = fake_venv(tmp_path, real_app("--port", str(port), "--db", str(db)))
    make = run_make(variables, "play", out, err)
    try:
        wait_for_server(make, f"http://127.0.0.1:{port}", err)
        make.send_signal(signal.SIGTERM)  # to make alone, as kill does
        assert make.wait(60) == -signal.SIGTERM
        assert err.read_text().startswith("hexgames: the browser app has stopped\n")
        assert sorted(path.name for path in tmp_path.iterdir() if "games" in path.name) \
            == ["games.db"]  # the store closed
        with socket.socket() as probe:  # and nothing listens any more
            probe.bind(("127.0.0.1", port))
    finally:
        with contextlib.suppress(ProcessLookupError):  # what is left of the test's group
            os.killpg(make.pid, signal.SIGKILL)

@pytest.mark.skipif(MAKE is None, reason="no make")
def test_make_play_still_fails_when_the_app_fails(tmp_path: Path) -> None:
    variables = fake_venv(tmp_path, "echo 'the app failed' >&2; exit 3")
    done = subprocess.run([str(MAKE), "play", *variables], cwd=ROOT, env=make_env(),
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    first, second = done.stderr.splitlines()
    assert first == "the app failed"
    assert re.fullmatch(r"make: \*\*\* \[Makefile:\d+: play\] Error 3", second), second


@pytest.mark.parametrize("module", ["hexgames.engine.players", "hexgames.engine.alphabeta"])
def test_ctrl_c_while_bench_openings_imports_exits_130_quietly(module: str) -> None:
    """Ctrl-C in the benchmark's first moments, as it imports the engines (at the top,
    and when it makes its first player): SIGINT, sent by the process itself as the
    import of ``module`` starts, printed a KeyboardInterrupt traceback at the top."""
    script = ROOT / "benchmarks" / "bench_openings.py"
    code = textwrap.dedent(f"""
        import os, runpy, signal, sys

        class CtrlC:
            def find_spec(self, name, path=None, target=None):
                if name == {module!r}:
                    os.kill(os.getpid(), signal.SIGINT)
                return None

        sys.meta_path.insert(0, CtrlC())
        sys.argv = [{str(script)!r}, "andantino", "--pairs", "1", "--seconds", "0.1"]
        runpy.run_path(sys.argv[0], run_name="__main__")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stderr, done.stdout) == (130, "interrupted\n", "")


def test_bench_openings_distinct_skips_repeated_and_mirrored_openings() -> None:
    """``bench_openings.py --distinct``: an opening is drawn once, its mirror image in the
    line through the starting tiles counting as the same; without it they repeat."""
    import argparse
    import runpy

    from hexgames import andantino

    bench = runpy.run_path(str(ROOT / "benchmarks" / "bench_openings.py"))
    key = bench["opening_key"]
    rules = andantino.Rules(single_adjacency=True)
    board = andantino.Board("andantino w=0,0;1,-1 r=1,0;2,-1 turn=w hands=w23,r23", rules)
    mirror = andantino.Board("andantino w=0,0;0,1 r=1,0;1,1 turn=w hands=w23,r23", rules)
    other = andantino.Board("andantino w=0,0;1,-1 r=1,0;0,-1 turn=w hands=w23,r23", rules)
    assert key(board) == key(mirror) != key(other)
    found = {}
    for distinct in (False, True):
        args = argparse.Namespace(pairs=80, seed=25, opening_plies=4, draw="match",
                                  distinct=distinct)
        drawn = list(bench["draws"](args, andantino, rules))
        found[distinct] = {key(b) for _, b in drawn}
        pairs = [pair for pair, _ in drawn]
        assert pairs == sorted(set(pairs))
        if distinct:  # 4 plies leave 56 openings, mirror images counted once
            assert len(drawn) == len(found[True]) == 56
        else:
            assert len(drawn) == 80 > len(found[False])
    assert found[False] <= found[True]


def _ladder(work: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """``benchmarks/run_ladder.py --work-dir work options...`` (only ``--report`` and
    refusals here: nothing is solved)."""
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run_ladder.py"),
                           "--work-dir", str(work), *options],
                          capture_output=True, text=True, timeout=120, check=False)


def test_run_ladder_refuses_a_results_file_it_cannot_show_and_its_report_writes_nothing(
        tmp_path: Path) -> None:
    """A line with the few fields a resume reads but not those of the table made
    ``--report`` fail with a KeyError, a file that is no text with a traceback; and
    ``--report`` cut a torn last line from the file, which a running part may be
    writing."""
    results = tmp_path / "results.jsonl"
    line = {"variant": "standard", "rung": 30, "index": 0, "seed": "1/opening/30/0",
            "position": "andantino w=0,0 r=1,0 turn=w hands=w24,r24", "budget": 1.0,
            "value": "unknown", "proven": False, "seconds": 1.0, "nodes": 10,
            "search_seconds": 1.0, "proof_lines": 0, "plies": 0, "timed_out": True,
            "load": 0.5, "host": "h", "finished": "2026-12-05T12:00:00Z"}
    short = {key: line[key] for key in ("variant", "rung", "index", "budget", "proven")}
    results.write_text(json.dumps(line) + "\n" + json.dumps(short) + "\n")
    done = _ladder(tmp_path, "--report")
    assert done.returncode == 2, done.stderr
    assert "line 2 is no result" in done.stderr and "Traceback" not in done.stderr
    results.write_bytes(gzip.compress(b"junk"))
    done = _ladder(tmp_path, "--report")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    torn = json.dumps(line) + "\n" + json.dumps(line)[:40]
    results.write_text(torn)
    done = _ladder(tmp_path, "--report")
    assert done.returncode == 0, done.stderr
    assert "line 2: a line cut short" in done.stderr and " 1 of 1 " not in done.stdout
    assert results.read_text() == torn
    # a second part at once (it would solve the same positions into the same file)
    import fcntl

    with open(tmp_path / "lock", "ab") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        done = _ladder(tmp_path, "--rungs", "30", "--budget", "1", "--positions", "1")
        assert done.returncode == 2 and "in use by another run" in done.stderr, done
        assert _ladder(tmp_path, "--report").returncode == 0  # reads only
    # a rung no game reaches was looked for in game after game, for ever
    done = _ladder(tmp_path, "--rungs", "30", "48", "--budget", "1", "--positions", "1")
    assert done.returncode == 2 and "--rungs are at most 47 plies" in done.stderr, done
    assert results.read_text() == torn


def test_run_ladder_refuses_lines_a_resume_or_the_table_cannot_use_and_a_huge_table(
        tmp_path: Path) -> None:
    """A line without its position made a resumed part fail with a KeyError (a list
    for it, with a TypeError), a solved line of a CPU budget without its CPU seconds
    made the table fail; ``--tt-mb`` above the prover's 65,536 failed in the worker
    with a traceback after the work directory was taken."""
    line = {"variant": "standard", "rung": 30, "index": 0, "seed": "1/opening/30/0",
            "position": "andantino w=0,0 r=1,0 turn=w hands=w24,r24", "budget": 1.0,
            "value": "win", "proven": True, "seconds": 1.0, "nodes": 10,
            "search_seconds": 1.0, "proof_lines": 3, "plies": 3, "timed_out": False,
            "load": 0.5, "host": "h", "finished": "2026-12-05T12:00:00Z", "clock": "cpu",
            "cpu_seconds": 0.9}
    results = tmp_path / "results.jsonl"
    for key, value, why in (("position", None, "no position"),
                            ("position", ["p"], "no position"),
                            ("cpu_seconds", None, r"no cpu_seconds \(its clock is cpu\)")):
        damaged = {k: v for k, v in line.items() if k != key}
        if value is not None:
            damaged[key] = value
        results.write_text(json.dumps(line) + "\n" + json.dumps(damaged) + "\n")
        for options in (("--report",), ("--rungs", "30", "--budget", "1", "--positions", "1")):
            done = _ladder(tmp_path, *options)
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
            assert re.search(rf"line 2 is no result \({why}\)", done.stderr), done.stderr
    results.write_text(json.dumps(line) + "\n")
    assert _ladder(tmp_path, "--report").returncode == 0
    other = tmp_path / "other"
    done = _ladder(other, "--tt-mb", "65537", "--rungs", "30", "--budget", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "--tt-mb is at most 65,536 (MB), not 65,537" in done.stderr
    assert not other.exists()


def test_run_ladder_runs_a_rung_given_twice_once_and_another_seed_anew(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rungs 30 30`` solved the same positions twice; a part with another ``--seed``
    skipped its positions as done by the first seed's (keyed by rung and index)."""
    import argparse
    import runpy

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    ladder = runpy.run_path(str(ROOT / "benchmarks" / "run_ladder.py"))
    args = argparse.Namespace(variant="standard", rungs=[2, 2], positions=2, seed=1,
                              budget=1.0, tt_mb=1, clock="wall")
    first = list(ladder["tasks"](args, {}))
    assert [(t.rung, t.index) for t in first] == [(2, 0), (2, 1)]
    done = {(t.variant, t.seed): t.position for t in first}
    assert list(ladder["tasks"](args, done)) == []
    args.seed = 2
    second = list(ladder["tasks"](args, done))
    assert [(t.rung, t.index) for t in second] == [(2, 0), (2, 1)]
    assert {t.seed for t in second}.isdisjoint(t.seed for t in first)


def test_run_ladder_skips_a_seed_that_repeats_a_position_until_the_rung_has_enough(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening player played the same game from two seeds, and a rung of 20 seeds
    had 14 distinct positions: a repeat is skipped and the next seed taken, positions
    of earlier parts count, and a rung of too few openings ends."""
    import argparse
    import runpy

    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))
    ladder = runpy.run_path(str(ROOT / "benchmarks" / "run_ladder.py"))

    class Opening:
        def __init__(self, text: str) -> None:
            self.text = text

        def position(self) -> str:
            return self.text

    made: list[str] = []

    def pairs(rung: int, seed: str, rules: object) -> Opening:
        made.append(seed)
        return Opening(f"p{int(seed.rsplit('/', 1)[1]) // 2}")  # seeds 0 and 1 alike...

    monkeypatch.setitem(ladder["tasks"].__globals__, "opening_position", pairs)
    args = argparse.Namespace(variant="standard", rungs=[6], positions=3, seed=1,
                              budget=1.0, tt_mb=1, clock="wall")
    first = list(ladder["tasks"](args, {}))
    assert [t.index for t in first] == [0, 2, 4]
    assert [t.position for t in first] == ["p0", "p1", "p2"]
    # a part that solved seeds 0 and 1 (a repeat) before: two more distinct ones
    done = {("standard", "1/opening/6/0"): "p0", ("standard", "1/opening/6/1"): "p0"}
    assert [t.index for t in ladder["tasks"](args, done)] == [2, 4]
    # one opening only: the rung ends after SEEDS_PER_POSITION seeds a position
    made.clear()
    monkeypatch.setitem(ladder["tasks"].__globals__, "opening_position",
                        lambda rung, seed, rules: made.append(seed) or Opening("p"))
    assert [t.index for t in ladder["tasks"](args, {})] == [0]
    assert len(made) == 3 * ladder["SEEDS_PER_POSITION"]


def test_compose_proof_makes_a_root_proof_from_its_childrens_that_verifies(
        tmp_path: Path) -> None:
    """``tools/compose_proof.py``: the winner's move at a root and the proofs of every
    position after each reply compose a proof of the root, checked by the verifier; a
    missing child fails the check naming a position (and no file is left), a child of
    other rules is refused; all with exit status 2 and no traceback."""
    from hexgames import andantino
    from hexgames.solver import solve

    rules = andantino.Rules(tiles_per_player=10)
    root = andantino.Board("andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 "
                           "turn=w hands=w5,r5", rules)
    (claim,) = solve(root, table_mb=8).claims
    move = dict(claim.strategy)[root.position()]
    after = root.copy()
    after.push(andantino.Move.from_notation(move))
    children = []
    for reply in after.legal_moves:
        child = after.copy()
        child.push(reply)
        if child.is_game_over():
            continue
        path = tmp_path / f"child{len(children)}.txt.gz"
        assert solve(child, table_mb=8, proof=path).value == "win"
        children.append(path)
    assert len(children) >= 2
    out = tmp_path / "root.txt.gz"

    def compose(*extra: str, files: list[Path] = children) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(ROOT / "tools" / "compose_proof.py"), "--root",
             root.position(), f"--move={move}", "--rules", "tiles_per_player=10", "--out",
             str(out), *extra, *map(str, files)],
            capture_output=True, text=True, timeout=300, check=False)

    done = compose()
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout and out.exists()
    missing = compose(files=children[1:])
    assert missing.returncode == 2 and "Traceback" not in missing.stderr, missing.stderr
    assert "andantino w=" in missing.stderr and not out.exists()
    other = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "compose_proof.py"), "--root",
         root.position(), f"--move={move}", "--out", str(out), *map(str, children)],
        capture_output=True, text=True, timeout=300, check=False)
    assert other.returncode == 2 and "rules" in other.stderr and "Traceback" not in \
        other.stderr, other.stderr


BENCH_INTEGRATIONS = ROOT / "benchmarks" / "bench_integrations.py"


def _needs_integration_extras() -> None:
    for module in ("pyspiel", "pettingzoo", "gymnasium"):
        pytest.importorskip(module)


@pytest.mark.parametrize(("args", "named"), [
    (["--rounds", "0"], "--rounds"), (["--rounds", "-2"], "--rounds"),
    (["--seconds", "0"], "--seconds"), (["--seconds", "-1"], "--seconds"),
    (["--seconds", "nan"], "--seconds"), (["--seconds", "inf"], "--seconds")])
def test_bench_integrations_refuses_options_that_measure_nothing(args: list[str],
                                                                  named: str) -> None:
    """``--rounds 0`` ended in a StatisticsError traceback after the runs (no median of
    nothing); ``--seconds`` 0, negative or NaN printed 0 steps/s for every loop ("beyond
    this ceiling"), and ``inf`` ran for ever: each is a usage error now, before any
    loop runs."""
    _needs_integration_extras()
    done = subprocess.run([sys.executable, str(BENCH_INTEGRATIONS), *args,
                           "--only", "board"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout == "", done.stderr
    assert f"argument {named}" in done.stderr, done.stderr


def test_bench_integrations_board_loop_and_ceilings_measure_what_they_say() -> None:
    """The ``board`` loop is documented as the plain Python board but measured the native
    playouts (``random_playouts`` plays natively by default since it learned to), some
    17,900,000 steps/s against the Python board's few hundred thousand. And the
    ceilings, "the same loops on games that do nothing", played 40 plies a game with 20
    legal actions in both games, where random games of Andantino last about 32 plies
    with 11 legal actions and Abande's 56 with 17: a game's start costs OpenSpiel's
    loop the same whatever its length, so Abande's ceiling counted it over fewer steps
    than the real game does (some 0.1 us a step, a third of the margin it shows)."""
    _needs_integration_extras()
    code = textwrap.dedent(f"""
        import json, random, runpy, statistics, sys
        sys.argv = [{str(BENCH_INTEGRATIONS)!r}]
        bench = runpy.run_path(sys.argv[0], run_name="bench")
        seen = {{}}
        def playouts(game, seconds, seed, **options):
            seen.update(options)
            class Result:
                plies_per_second = 1.0
            return Result()
        bench["board_rate"].__globals__["random_playouts"] = playouts
        bench["board_rate"]("abande", 0.01, 1)
        import pyspiel
        shapes = {{}}
        for game in ("andantino", "abande"):
            rng = random.Random(7)
            found = []
            for suffix in ("", "_ceiling"):
                spiel_game = pyspiel.load_game(f"python_{{game}}{{suffix}}")
                plies, legal = [], []
                for _ in range(300):
                    state = spiel_game.new_initial_state()
                    count = 0
                    while not state.is_terminal():
                        actions = state.legal_actions()
                        legal.append(len(actions))
                        state.apply_action(rng.choice(actions))
                        count += 1
                    plies.append(count)
                found.append((statistics.mean(plies), statistics.mean(legal)))
            shapes[game] = found
        print(json.dumps({{"native": seen.get("native", True), "shapes": shapes}}))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert found["native"] is False  # the Python board, as documented
    for game, ((plies, legal), (ceiling_plies, ceiling_legal)) in found["shapes"].items():
        assert abs(ceiling_plies - plies) <= 1.5, (game, plies, ceiling_plies)
        assert abs(ceiling_legal - legal) <= 1.5, (game, legal, ceiling_legal)
