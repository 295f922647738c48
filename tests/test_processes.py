"""The fork server of the arena's and the browser app's worker processes starts deaf to
Ctrl-C (found by a helper: a Ctrl-C as `hexgames match --jobs 2` started printed a
traceback from the fork server)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods(),
                                reason="no forkserver start method here")

SCRIPT = """
import multiprocessing, os, signal, sys, threading, time
from multiprocessing import forkserver
from hexgames.processes import start_forkserver

context = multiprocessing.get_context("forkserver")
context.set_forkserver_preload(["slow_preload"])

def ctrl_c():  # while the server still imports its preload
    time.sleep(0.5)
    os.kill(forkserver._forkserver._forkserver_pid, signal.SIGINT)

threading.Thread(target=ctrl_c).start()
start_forkserver(context)
time.sleep(1.5)
print("started")
"""


def test_ctrl_c_while_the_fork_server_starts_prints_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "slow_preload.py").write_text("import time\ntime.sleep(1.2)\n",
                                              encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "started" in done.stdout
    assert "KeyboardInterrupt" not in done.stderr and "Traceback" not in done.stderr
