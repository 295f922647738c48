"""Build the opening book of proven positions (``hexgames/data/book/<game>.book.gz``,
see :mod:`hexgames.book`) from proof files.

Each ``claim win`` proof file given, or in a folder given (its ``*.txt*``), of the game
asked for, without extended play, is checked with :func:`hexgames.proof.verify` (the
pure-Python checker; a file that fails stops the build, naming it, exit status 2), then
its strategy is walked with the
pure-Python boards to find the longest line from each listed position to the end of
the game under the strategy (the defender's longest resistance). A position in two
files keeps the shorter line. Only the openings go in: in Andantino the positions of at
most ``--max-plies`` placements after the two set-up tiles (14: 43,097 of the 767,939
positions of the first run's proofs, 73,362 with the start's proof; all of them would
take some 200 MB of memory in each process that plays), since deeper ones the players'
solver proves again within its budget.

Usage::

    .venv/bin/python tools/build_book.py [--proofs FOLDER_OR_FILE ...]
        [--game andantino] [--max-plies 14]
        [--out src/hexgames/data/book/andantino.book.gz]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hexgames.book import BookError, proof_lines, write_book
from hexgames.proof import ProofFailedError, ProofFileError, verify

ROOT = Path(__file__).resolve().parent.parent
#: the proofs of the run toward Andantino's start: its jobs', White's second move's, and
#: the start's own (where it exists)
DEFAULT_PROOFS = [ROOT / "benchmarks/runs/andantino-start" / name
                  for name in ("proofs", "second-move", "start.txt.gz")]


def placements(position: str) -> int:
    """The placements after the two set-up tiles of an Andantino position string."""
    white, red = position.split()[1:3]
    return white.count(";") + red.count(";")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--proofs", type=Path, nargs="+",
                        default=[path for path in DEFAULT_PROOFS if path.exists()],
                        help="folders of proof files (their *.txt*) and proof files")
    parser.add_argument("--game", default="andantino", choices=("andantino", "abande"))
    parser.add_argument("--out", type=Path)
    parser.add_argument("--max-plies", type=int, default=14,
                        help="Andantino: the most placements after the set-up (14)")
    args = parser.parse_args()
    out = args.out or ROOT / f"src/hexgames/data/book/{args.game}.book.gz"
    entries: dict[tuple[tuple[str, ...], str], tuple[str, int]] = {}
    files = 0
    started = time.perf_counter()
    paths = [path for given in args.proofs
             for path in (sorted(given.glob("*.txt*")) if given.is_dir() else [given])]
    for path in dict.fromkeys(paths):
        try:
            header = verify(path).header
            if header.game != args.game or header.claim != "win":
                continue
            _, lines = proof_lines(path)
        except (ProofFileError, ProofFailedError, BookError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        for key, (move, plies) in lines.items():
            if args.game == "andantino" and placements(key[1]) > args.max_plies:
                continue
            if key not in entries or entries[key][1] > plies:
                entries[key] = (move, plies)
        files += 1
    out.parent.mkdir(parents=True, exist_ok=True)
    write_book(out, args.game, entries,
               f"hexgames opening book of proven positions ({args.game}): built by "
               f"tools/build_book.py\nfrom {files} proof files checked by the pure-Python "
               f"checker; position, the winner's move, the longest line in plies")
    print(f"{out}: {len(entries):,} positions from {files} proof files, "
          f"{out.stat().st_size:,} bytes, {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
