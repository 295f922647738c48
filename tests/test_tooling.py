"""The benchmark scripts, stopped by Ctrl-C as a person stops them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


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
