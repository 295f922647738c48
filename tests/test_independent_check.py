"""tools/independent_check: the stand-alone Andantino proof checker that shares no code with
hexgames, run as a person runs it (a subprocess) on proofs that hexgames' solver writes,
on corrupted copies of them, and its rules module on the perft figures."""

from __future__ import annotations

import gzip
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hexgames import andantino
from hexgames.proof import verify
from hexgames.solver import solve

TOOL = Path(__file__).parent.parent / "tools" / "independent_check"
CHECKER = TOOL / "check_andantino_proof.py"

# Positions of the default rules (24 tiles a player after the set-up) that the solver
# proves in a fraction of a second: White to move and wins (about 1,300 strategy lines);
# Red to move and wins (about 70); Red to move and loses (about 90).
WHITE_WINS = (
    "andantino w=2,-2;1,-1;2,-1;-1,0;0,0;2,0;-2,1 r=3,-2;0,-1;-2,0;1,0;-1,1;0,1;1,1 "
    "turn=w hands=w18,r18"
)
RED_WINS = (
    "andantino w=2,-2;4,-2;0,-1;1,-1;0,0;2,0;1,1 r=2,-3;1,-2;3,-2;2,-1;3,-1;1,0 "
    "turn=r hands=w18,r19"
)
RED_LOSES = (
    "andantino w=1,-3;0,-2;0,-1;1,-1;0,0;2,0;1,1;3,1;0,2;2,2;-1,3;-1,4 "
    "r=1,-2;-1,0;1,0;0,1;2,1;-1,2;1,2;0,3;1,3;0,4;-1,5 turn=r hands=w13,r14"
)

# The header of a proof of WHITE_WINS
HEADER = ["game andantino", "rules -", f"root {WHITE_WINS}", "winner w", "claim win"]


def run(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, str(CHECKER), str(path), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def figure(output: str, pattern: str) -> int:
    match = re.search(pattern, output)
    assert match is not None, output
    return int(match[1].replace(",", ""))


@pytest.fixture(scope="module")
def proofs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("independent")
    paths = {}
    for name, position in (("white", WHITE_WINS), ("red", RED_WINS), ("loses", RED_LOSES)):
        path = folder / f"{name}.txt"
        value = solve(andantino.Board(position, andantino.Rules()), proof=path).value
        assert value == ("loss" if name == "loses" else "win")
        paths[name] = path
    return paths


def strategy_lines(path: Path) -> tuple[list[str], list[str]]:
    """The header (comments included) and the strategy lines of a text proof."""
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if "\t" in line)
    return lines[:first], lines[first:]


def write(path: Path, head: list[str], body: list[str]) -> Path:
    path.write_text("\n".join([*head, *body]) + "\n")
    return path


@pytest.mark.parametrize("name", ["white", "red", "loses"])
def test_verifies_what_the_solver_writes(proofs: dict[str, Path], name: str) -> None:
    path = proofs[name]
    result = run(path)
    assert result.returncode == 0, result.stdout
    winner = "Red" if name == "red" else "White"
    assert result.stdout.startswith(f"proof verified: {winner} wins from andantino ")
    report = verify(path)
    out = result.stdout
    assert figure(out, r"strategy lines: ([\d,]+)") == report.entries
    assert figure(out, r"positions checked: ([\d,]+)") == report.positions
    assert figure(out, r"\(([\d,]+) of the winner to move") == report.winner_positions
    assert figure(out, r"longest line: (\d+) plies") == report.longest
    assert re.search(r"time: [\d.]+ s", out)


def test_a_gzip_proof_verifies(proofs: dict[str, Path], tmp_path: Path) -> None:
    packed = tmp_path / "white.gz"  # told by its first bytes, not by its name
    packed.write_bytes(gzip.compress(proofs["white"].read_bytes()))
    assert run(packed).returncode == 0


def test_a_deleted_line_is_named(proofs: dict[str, Path], tmp_path: Path) -> None:
    head, body = strategy_lines(proofs["white"])
    listed = dict(line.split("\t") for line in body)
    # a position two plies from the root: White's listed move, then Red's first reply
    # that does not end the game
    board = andantino.Board(WHITE_WINS)
    first = listed[WHITE_WINS]
    board.push_notation(first)
    for reply in board.legal_moves:
        board.push(reply)
        if board.outcome() is None and board.position() in listed:
            break
        board.pop()
    target = board.position()
    kept = [line for line in body if not line.startswith(target + "\t")]
    assert len(kept) == len(body) - 1
    result = run(write(tmp_path / "deleted.txt", head, kept))
    assert result.returncode == 1
    assert "White to move and no move listed" in result.stdout
    assert f"position: {target}" in result.stdout
    assert f"line from the root (2 plies): {first} {reply}" in result.stdout


def test_a_wrong_move_fails(proofs: dict[str, Path], tmp_path: Path) -> None:
    head, body = strategy_lines(proofs["white"])
    root_line = f"{WHITE_WINS}\t"
    # an occupied cell: not legal
    occupied = [root_line + "0,0" if line.startswith(root_line) else line for line in body]
    result = run(write(tmp_path / "occupied.txt", head, occupied))
    assert result.returncode == 1
    assert "the listed move 0,0 is not legal" in result.stdout
    assert f"position: {WHITE_WINS}" in result.stdout
    # a legal move other than the listed one leads where the file lists nothing
    listed = next(line for line in body if line.startswith(root_line)).split("\t")[1]
    other = next(
        str(move) for move in andantino.Board(WHITE_WINS).legal_moves if str(move) != listed
    )
    elsewhere = [root_line + other if line.startswith(root_line) else line for line in body]
    result = run(write(tmp_path / "elsewhere.txt", head, elsewhere))
    assert result.returncode == 1
    assert result.stdout.startswith("proof fails: ")
    assert "line from the root (" in result.stdout


def test_a_wrong_winner_is_refused(proofs: dict[str, Path], tmp_path: Path) -> None:
    head, body = strategy_lines(proofs["white"])
    swapped = [("winner r" if line == "winner w" else line) for line in head]
    result = run(write(tmp_path / "winner.txt", swapped, body))
    assert result.returncode == 2
    line = len(head) + 1
    assert result.stdout == f"error: line {line}: the winner is not to move\n"


def test_a_truncated_gzip_is_refused(proofs: dict[str, Path], tmp_path: Path) -> None:
    packed = gzip.compress(proofs["white"].read_bytes())
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(packed[: len(packed) // 2])
    result = run(cut)
    assert result.returncode == 2
    assert result.stdout.startswith("error: cannot read ")
    assert result.stdout.count("\n") == 1


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (" turn=w ", " turn=x ", "not an Andantino position string as written"),
        ("andantino w=", "abande w=", "not an Andantino position string as written"),
        ("hands=w", "hands=W", "not an Andantino position string as written"),
        ("\t", " ", "a strategy line without a tab"),
    ],
)
def test_a_malformed_line_is_named(
    proofs: dict[str, Path], tmp_path: Path, old: str, new: str, message: str
) -> None:
    head, body = strategy_lines(proofs["white"])
    body[5] = body[5].replace(old, new, 1)
    result = run(write(tmp_path / "malformed.txt", head, body))
    assert result.returncode == 2
    assert result.stdout.startswith(f"error: line {len(head) + 6}: {message}")


def test_cells_out_of_order_are_refused(tmp_path: Path) -> None:
    head = HEADER
    swapped = WHITE_WINS.replace("w=2,-2;1,-1", "w=1,-1;2,-2")
    result = run(write(tmp_path / "order.txt", head, [f"{swapped}\t0,2"]))
    assert result.returncode == 2
    assert result.stdout.startswith("error: line 6: cells not in the writer's order")


@pytest.mark.parametrize(
    ("index", "replacement", "message"),
    [
        (1, "rules single_adjacency=on", "line 2: only the default rules"),
        (4, "claim not-lose", "line 5: only `claim win` is supported"),
        (0, "game abande", "line 1: only `game andantino` is supported"),
        (3, None, "the header ends early: no `claim` line"),
        (2, "root andantino w=0,0 r=1,0 turn=w hands=w20,r24", "line 3: the root's White"),
    ],
)
def test_unsupported_headers_are_refused(
    proofs: dict[str, Path], tmp_path: Path, index: int, replacement: str | None, message: str
) -> None:
    head, body = strategy_lines(proofs["white"])
    head = [line for line in head if not line.startswith("#")]
    assert head == HEADER
    if replacement is None:
        head, body = head[: index + 1], []
    else:
        head[index] = replacement
    result = run(write(tmp_path / "header.txt", head, body))
    assert result.returncode == 2
    assert result.stdout.startswith(f"error: {message}")
    assert result.stdout.count("\n") == 1


def test_size_cap_and_missing_file(proofs: dict[str, Path], tmp_path: Path) -> None:
    result = run(proofs["white"], "--max-bytes", "1000")
    assert result.returncode == 2
    assert result.stdout.startswith("error: more than 1000 bytes")
    result = run(tmp_path / "absent.txt")
    assert result.returncode == 2
    assert result.stdout.startswith("error: cannot read ")


def test_a_hand_made_proof_one_move_from_a_line(tmp_path: Path) -> None:
    # White has four in a row on r=0 (0..3) and -1,0 and 4,0 both empty: either wins
    root = "andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w hands=w21,r21"
    head = ["# hand-made", "game andantino", "rules -", f"root {root}", "winner w", "claim win"]
    result = run(write(tmp_path / "line.txt", head, [f"{root}\t4,0"]))
    assert result.returncode == 0, result.stdout
    assert "positions checked: 1 (1 of the winner to move, 0 of the defender)" in result.stdout
    assert "longest line: 1 plies" in result.stdout


def load_rules() -> ModuleType:
    spec = importlib.util.spec_from_file_location("andantino_rules", TOOL / "andantino_rules.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rules_module_counts_the_perft_figures() -> None:
    rules = load_rules()
    assert [rules.perft(rules.start(), depth) for depth in range(1, 6)] == [2, 6, 24, 120, 672]
