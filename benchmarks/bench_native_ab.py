"""The native alpha-beta's speed in this tree against another version of the core, at a
fixed depth on the same positions, in interleaved rounds.

Prints figures; it is not a test. The other version is a checkout (a folder holding
``Cargo.toml``, ``Cargo.lock`` and ``native/``, such as another git worktree), copied
as it stands, uncommitted files included, into a scratch folder, where this tree's
``native/core/examples/fixed_depth_speed.rs`` (and ``examples/common/``) is added; the
checkout itself is not written to. Both builds of that example run in turn, ``rounds``
times, the order swapped each round (A B, B A, ...), so that a change of the machine's
load falls on both. Each prints nodes and this thread's CPU seconds per game and option
set; the script checks that the two builds searched the same number of nodes (the same
trees) and prints, per set, the median nodes per CPU second of each and their ratio.

Usage::

    .venv/bin/python benchmarks/bench_native_ab.py OTHER_CHECKOUT [--rounds 5]
        [--scratch /tmp/native-ab] [--depths 13 14 9 12]

Builds run with ``cargo -j 1`` (release, fat LTO: about a minute each the first time).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
EXAMPLE = "fixed_depth_speed"
LINE = re.compile(r"^(?P<set>\S+(?: \S+)?)\s+(?:d\d+ )?nodes\s+(?P<nodes>\d+)\s+"
                  r"cpu\s+(?P<cpu>[\d.]+) s")


def copy_checkout(other: Path, scratch: Path) -> Path:
    """Copy ``other``'s workspace (without its build output) to ``scratch/src`` and add
    this tree's example; return the copy."""
    src = scratch / "src"
    if src.exists():
        shutil.rmtree(src)
    src.mkdir(parents=True)
    for name in ("Cargo.toml", "Cargo.lock"):
        shutil.copy2(other / name, src / name)
    shutil.copytree(other / "native", src / "native",
                    ignore=shutil.ignore_patterns("target", "*.so"))
    examples = src / "native" / "core" / "examples"
    shutil.copy2(HERE / "native" / "core" / "examples" / f"{EXAMPLE}.rs", examples)
    shutil.copytree(HERE / "native" / "core" / "examples" / "common", examples / "common",
                    dirs_exist_ok=True)
    return src


def build(workspace: Path, target: Path) -> Path:
    subprocess.run(["cargo", "build", "-j", "1", "--release", "-p", "hexgames-core",
                    "--example", EXAMPLE, "--target-dir", str(target)],
                   cwd=workspace, check=True)
    return target / "release" / "examples" / EXAMPLE


def run(binary: Path, depths: list[str]) -> dict[str, tuple[int, float]]:
    out = subprocess.run([str(binary), *depths], check=True, capture_output=True,
                         text=True).stdout
    found = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            found[m["set"]] = (int(m["nodes"]), float(m["cpu"]))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", type=Path, help="the other checkout (A)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scratch", type=Path, default=Path("/tmp/native-ab"))
    parser.add_argument("--depths", nargs="*", default=[])
    args = parser.parse_args()
    other = build(copy_checkout(args.other.resolve(), args.scratch),
                  args.scratch / "target")
    this = build(HERE, HERE / "target")
    names = {"A": f"A {args.other}", "B": f"B {HERE}"}
    runs: dict[str, list[dict[str, tuple[int, float]]]] = {"A": [], "B": []}
    for i in range(args.rounds):
        for key in ("AB" if i % 2 == 0 else "BA"):
            runs[key].append(run(other if key == "A" else this, args.depths))
        print(f"round {i + 1}: " + "  ".join(
            f"{k} {runs[k][-1]['total'][0] / runs[k][-1]['total'][1]:,.0f} nps"
            for k in "AB"), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}; {names['A']}; {names['B']}")
    same = True
    for name in runs["A"][0]:
        nodes = {k: {r[name][0] for r in runs[k]} for k in "AB"}
        if len(nodes["A"] | nodes["B"]) != 1:
            same = False
        rates = {k: statistics.median(r[name][0] / r[name][1] for r in runs[k]) for k in "AB"}
        print(f"{name:<18} nodes {sorted(nodes['A'] | nodes['B'])}  A {rates['A']:>12,.0f}"
              f"  B {rates['B']:>12,.0f}  B/A {rates['B'] / rates['A']:.3f}")
    if not same:
        print("the two builds searched different trees: the rates do not compare")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
