"""The research examples run (with tiny budgets), so they cannot rot unnoticed."""

from __future__ import annotations

import importlib.util
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


def _agent(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(EXAMPLES / "abande_selfplay_agent.py"), *args],
                          capture_output=True, text=True, timeout=900, check=False)


def _record(out: str, opponent: str) -> tuple[int, int, int]:
    line = next(line for line in out.splitlines() if line.startswith(f"against {opponent}:"))
    words = line.split(": ", 1)[1].replace(",", "").split()
    return int(words[0]), int(words[2]), int(words[4])


def test_abande_selfplay_agent_learns(tmp_path: Path) -> None:
    """50 iterations of self-play (about 15 s of one core, 1,748 games), then 100 games
    against each of easy and random, colours alternated. An agent that learned nothing
    plays like an untrained network, which won 18, 22 and 23 of 100 against easy and 54,
    55 and 62 of 100 against random (seeds 0 to 2; a uniformly random player wins 29 of
    200 against easy). With a win probability of 0.3 against easy, 55 wins or more of
    100 have probability 1.7e-7; with 0.65 against random, 80 or more have 7.8e-4. The
    seeded run won 77 and 91 where it was written."""
    pytest.importorskip("gymnasium")
    weights = tmp_path / "agent.npz"
    result = _agent("--iterations", "50", "--games", "100", "--seed", "0",
                    "--out", str(weights))
    assert result.returncode == 0, result.stderr
    assert "trained 50 iterations" in result.stdout
    wins, draws, losses = _record(result.stdout, "easy")
    assert wins + draws + losses == 100
    assert wins >= 55, result.stdout
    wins, draws, losses = _record(result.stdout, "random")
    assert wins + draws + losses == 100
    assert wins >= 80, result.stdout
    # The weights written, loaded without training, play the same games.
    again = _agent("--load", str(weights), "--games", "100", "--seed", "0")
    assert again.returncode == 0, again.stderr
    assert "trained" not in again.stdout
    assert [_record(again.stdout, o) for o in ("easy", "random")] == [
        _record(result.stdout, o) for o in ("easy", "random")]


def test_abande_selfplay_agent_bad_input(tmp_path: Path) -> None:
    pytest.importorskip("gymnasium")
    np = pytest.importorskip("numpy")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a weights file")
    result = _agent("--load", str(bad), "--games", "0")
    assert result.returncode == 2
    assert "cannot read weights file" in result.stderr and str(bad) in result.stderr
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, format=np.array("hexgames-abande-value-1"), w1=np.zeros((3, 4)))
    result = _agent("--load", str(wrong), "--games", "0")
    assert result.returncode == 2 and "has arrays" in result.stderr
    result = _agent("--envs", "0")
    assert result.returncode == 2 and "--envs" in result.stderr
    result = _agent("--out", str(tmp_path / "missing" / "w.npz"), "--iterations", "0")
    assert result.returncode == 2 and "--out" in result.stderr


def test_abande_selfplay_agent_mirrors_follow_the_batched_games() -> None:
    """The native states the one-ply search plays on stay the batched games: the same
    observation and legal actions after every step, through auto-resets (so the moves
    it chooses among the mirrors' legal actions are legal in the batched games)."""
    pytest.importorskip("gymnasium")
    np = pytest.importorskip("numpy")
    spec = importlib.util.spec_from_file_location(
        "abande_selfplay_agent", EXAMPLES / "abande_selfplay_agent.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    trainer = example.Trainer(seed=3, envs=8)
    encoder = trainer.search.encoder
    observation = np.zeros(trainer.inputs, np.float32)
    mask = np.zeros(encoder.num_actions, np.int8)
    for _ in range(200):
        trainer.step()
        for i, mirror in enumerate(trainer.mirrors):
            encoder.observe(mirror, observation)
            encoder.legal_mask(mirror, mask)
            assert np.array_equal(observation, trainer.state.observation[i].ravel())
            assert np.array_equal(mask.astype(bool), trainer.state.legal_action_mask[i])
    assert trainer.games >= 8
    assert trainer.positions > 0 and trainer.filled == trainer.positions
    assert abs(trainer.targets[:trainer.filled]).max() <= 1.0
