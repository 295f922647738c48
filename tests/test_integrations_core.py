"""The core package stays free of the research extras: only hexgames.integrations'
submodules import numpy, pyspiel, open_spiel, pettingzoo or gymnasium."""

from __future__ import annotations

import subprocess
import sys

CORE = ["hexgames", "hexgames.andantino", "hexgames.abande", "hexgames.record",
        "hexgames.engine", "hexgames.engine.players", "hexgames.arena", "hexgames.cli",
        "hexgames.native", "hexgames.integrations"]
EXTRAS = ["numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium"]


def test_core_imports_none_of_the_extras() -> None:
    code = (f"import importlib, sys\nfor name in {CORE!r}: importlib.import_module(name)\n"
            f"print(sorted(m for m in {EXTRAS!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
