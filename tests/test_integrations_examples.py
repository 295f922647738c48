"""The research examples run (with tiny budgets), so they cannot rot unnoticed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _run(script: str) -> str:
    return _run_args(script)


def _run_args(script: str, *args: str) -> str:
    result = subprocess.run([sys.executable, str(EXAMPLES / script), "--quick", *args],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, f"{script} exited {result.returncode}\n{result.stderr}"
    return result.stdout


def test_openspiel_mcts_vs_alphabeta_example() -> None:
    pytest.importorskip("pyspiel")
    out = _run("openspiel_mcts_vs_alphabeta.py")
    assert "game 1: Black mcts, White alphabeta:" in out
    assert "points: mcts" in out and "of 1" in out


def test_pettingzoo_loop_example() -> None:
    pytest.importorskip("pettingzoo")
    out = _run("pettingzoo_loop.py").splitlines()
    assert [line.split(":")[0] for line in out] == ["andantino_v0", "abande_v0"]
    assert all("1 games" in line and "steps/s" in line for line in out)


def test_vector_self_play_example() -> None:
    pytest.importorskip("gymnasium")
    for game in ("andantino", "abande"):
        out = _run_args("vector_self_play.py", "--game", game, "--envs", "16").strip()
        assert out.startswith(f"{game}: 16 envs, observations (")
        assert " games, {" in out and "steps/s" in out
        played = int(out.split(" games, ")[0].rsplit(", ", 1)[1])
        assert played > 0, out
