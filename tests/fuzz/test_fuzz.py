"""The fuzz suite (issue 14): hypothesis-generated and mutated inputs for the parsers of
position strings (both games), moves, records (through ``record.read_games``), rules
options and player specs, and for the browser app's HTTP routes and WebSocket messages.

Each input runs in a worker process limited to ``fuzz_pool.DEFAULT_MEMORY`` bytes of
address space (``resource.setrlimit(RLIMIT_AS)``), within ``fuzz_pool.DEFAULT_SECONDS``;
an input passes when hexgames refuses it with a ``ValueError`` subclass of its own (or a
clean HTTP error, or an ``error`` message) or takes it and stays consistent. The inputs
come from a fixed seed and a fixed number of examples, so CI runs the same ones in about
a minute and a half. To run longer, or with other inputs::

    HEXGAMES_FUZZ_EXAMPLES=20000 HEXGAMES_FUZZ_SEED=7 .venv/bin/python -m pytest tests/fuzz

and for coverage-guided fuzzing, ``tests/fuzz/atheris_fuzz.py`` (see its docstring).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("hypothesis")
if sys.platform == "win32":  # resource and select on pipes
    pytest.skip("the fuzz suite needs a POSIX system", allow_module_level=True)

from hypothesis import HealthCheck, given, seed, settings

sys.path.insert(0, str(Path(__file__).parent))

from fuzz_inputs import inputs
from fuzz_pool import FuzzPool
from fuzz_targets import TARGETS

#: Examples per target in CI, chosen so the whole suite takes about a minute and a half
#: on one core of the CI machine: hypothesis takes some 2 to 20 milliseconds to build a
#: structured input (a record the most), more than a parser takes to refuse it; a server
#: input (some 40 requests or messages) takes 50 to 200. (Twice as many took three
#: minutes of a 25-minute CI run in December 2026.)
EXAMPLES = {"andantino_position": 1500, "abande_position": 1200, "andantino_move": 800,
            "abande_move": 800, "record": 1500, "rules": 800, "player_spec": 800,
            "http": 250, "websocket": 120}
_OVERRIDE = int(os.environ.get("HEXGAMES_FUZZ_EXAMPLES", "0"))
SEED = int(os.environ.get("HEXGAMES_FUZZ_SEED", "14"))


@pytest.fixture(scope="module")
def pool() -> Iterator[FuzzPool]:
    fuzz_pool = FuzzPool()
    yield fuzz_pool
    fuzz_pool.close()


@pytest.mark.parametrize("target", sorted(EXAMPLES))
def test_fuzzed_inputs_are_refused_cleanly_within_budget(pool: FuzzPool, target: str) -> None:
    @seed(SEED)
    @settings(max_examples=_OVERRIDE or EXAMPLES[target], database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(inputs(target))
    def check(text: str) -> None:
        outcome = pool.run(target, text)
        assert outcome.problem is None, f"{target} on {text[:300]!r}: {outcome.problem}"

    before = pool.inputs
    check()
    # as many inputs as asked were run (not, say, the few of an exhausted strategy)
    assert pool.inputs - before >= (_OVERRIDE or EXAMPLES[target])


def test_every_target_is_fuzzed() -> None:
    assert set(EXAMPLES) == set(TARGETS) - {"harness_check"}


@pytest.mark.parametrize(("text", "seconds", "words"), [
    ("sleep", 2.0, "took more than 2 s (time budget)"),
    ("memory", 2.0, "MemoryError"),
    # (filling the memory limit, about 600 MB past the interpreter's, took 2.05 s once
    # on a loaded machine: the time budget is not what this case tests)
    ("grow", 20.0, "MemoryError"),
    ("abort", 2.0, "killed the worker (signal 6; memory limit 1024 MiB)"),
    ("keyerror", 2.0, "a parser raised KeyError: 'x'"),
])
def test_the_harness_catches_each_kind_of_failure(text: str, seconds: float,
                                                  words: str) -> None:
    """The suite can fail: a target that runs for ever, runs out of memory, crashes or
    raises something else than a ValueError is reported, and the next input runs in a
    fresh worker."""
    harness = FuzzPool(seconds=seconds)
    try:
        outcome = harness.run("harness_check", text)
        assert outcome.problem is not None and words in outcome.problem, outcome
        assert outcome.seconds < 30
        assert harness.run("harness_check", "fine").problem is None
        assert harness.restarts == 1
    finally:
        harness.close()


def test_the_atheris_entry_point_runs(tmp_path: Path) -> None:
    """The optional coverage-guided runner (``atheris_fuzz.py``) works: a short run from
    the seeds ends without a crash file."""
    pytest.importorskip("atheris")
    import subprocess

    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("atheris_fuzz.py")), "record",
         "-runs=300", "-seed=1"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Done 300 runs" in done.stderr
    assert not list(tmp_path.glob("crash-*"))
