"""Worker processes that run fuzz targets (:mod:`fuzz_targets`) under a memory limit
(``resource.setrlimit(RLIMIT_AS)``) and a time budget per input.

A :class:`FuzzPool` keeps one worker process (``fuzz_worker.py``): the parent sends it
one input at a time as a JSON line and waits at most the budget for its answer. An input
that makes a target break its promise, run out of memory (a ``MemoryError`` under the
limit), take longer than the budget (the worker is killed) or kill the worker (a
signal, a crash of the native code) is a failure, reported with the input; the worker
is then replaced, so no input sees another's damage.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

WORKER = Path(__file__).with_name("fuzz_worker.py")
#: The address space of a worker, in bytes: the interpreter with hexgames, Starlette and
#: a test client takes some 400 MB of it, the input the rest.
DEFAULT_MEMORY = 1 << 30
#: Seconds an input may take (a parser takes milliseconds; the server's routes, a few
#: dozen requests, some tenths of a second).
DEFAULT_SECONDS = 10.0


@dataclass(frozen=True)
class Outcome:
    """What one input did: ``problem`` is ``None`` when the target kept its promise."""

    problem: str | None
    seconds: float


class FuzzPool:
    """One worker process at a time, replaced after each failure.

    Args:
        memory: the worker's ``RLIMIT_AS`` in bytes.
        seconds: the time budget of one input.
    """

    def __init__(self, memory: int = DEFAULT_MEMORY, seconds: float = DEFAULT_SECONDS) -> None:
        self.memory = memory
        self.seconds = seconds
        self._worker: subprocess.Popen[bytes] | None = None
        self.inputs = 0
        self.restarts = 0

    def _start(self) -> subprocess.Popen[bytes]:
        worker = subprocess.Popen(
            [sys.executable, str(WORKER), str(self.memory)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONHASHSEED": "0"})
        ready = self._line(worker, 60.0)
        if ready != b"ready\n":
            worker.kill()
            worker.wait()
            raise RuntimeError(f"the fuzz worker did not start: {ready!r}")
        return worker

    @staticmethod
    def _line(worker: subprocess.Popen[bytes], seconds: float) -> bytes | None:
        """The worker's next line, or ``None`` if none came within ``seconds``."""
        assert worker.stdout is not None
        ready, _, _ = select.select([worker.stdout], [], [], seconds)
        if not ready:
            return None
        return worker.stdout.readline()

    def run(self, target: str, text: str) -> Outcome:
        """Run ``target`` on ``text`` in the worker, within the budget."""
        if self._worker is None or self._worker.poll() is not None:
            self._worker = self._start()
        worker = self._worker
        assert worker.stdin is not None
        self.inputs += 1
        start = time.monotonic()
        try:
            worker.stdin.write(json.dumps({"target": target, "text": text}).encode() + b"\n")
            worker.stdin.flush()
        except OSError:
            return self._failed(f"the worker had ended (status {worker.poll()})", start)
        line = self._line(worker, self.seconds)
        elapsed = time.monotonic() - start
        if line is None:
            return self._failed(f"took more than {self.seconds:g} s (time budget)", start)
        if not line:
            status = worker.wait()
            how = f"signal {-status}" if status < 0 else f"exit status {status}"
            return self._failed(f"killed the worker ({how}; memory limit "
                                f"{self.memory >> 20} MiB)", start)
        answer = json.loads(line)
        if answer["problem"] is not None:
            return self._failed(answer["problem"], start)
        return Outcome(None, elapsed)

    def _failed(self, problem: str, start: float) -> Outcome:
        self._stop()
        self.restarts += 1
        return Outcome(problem, time.monotonic() - start)

    def _stop(self) -> None:
        worker, self._worker = self._worker, None
        if worker is None:
            return
        with contextlib.suppress(OSError):
            worker.kill()
        worker.wait()
        for stream in (worker.stdin, worker.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self) -> None:
        """End the worker."""
        self._stop()
