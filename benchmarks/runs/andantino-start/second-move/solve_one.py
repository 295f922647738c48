"""Solve one position of the standard game's second move (White to move after one
placement of each side) for White's win alone, with a large table, and write its proof.

Usage: .venv/bin/python benchmarks/runs/andantino-start/second-move/solve_one.py
    POSITION PROOF_FILE SECONDS TABLE_MB [RULES]

RULES: the rules options as ``hexgames --rules`` takes them, joined by commas
(``single_adjacency=on`` for the balance variant); the default rules without it.
"""

from __future__ import annotations

import sys
import time

from hexgames import andantino, native
from hexgames.solver import solve


def main() -> int:
    position, proof, seconds, table_mb = sys.argv[1], sys.argv[2], float(sys.argv[3]), \
        int(sys.argv[4])
    options = sys.argv[5].split(",") if len(sys.argv) > 5 else []
    board = andantino.Board(position, andantino.Rules.from_options(options))
    started = time.process_time()
    # a node limit turns the time slicing off: the side to move's win gets all the time
    result = solve(board, time=seconds, max_nodes=1 << 60, prover=native.Prover(table_mb),
                   proof=proof)
    print(f"{position}: {result.value} (proven {result.proven}), {result.nodes:,} nodes, "
          f"{result.seconds:.1f} s, {time.process_time() - started:.1f} CPU s, "
          f"searches {[(s.attacker, s.verdict, s.nodes) for s in result.searches]}, "
          f"notes {result.notes}", flush=True)
    for claim in result.claims:
        print(f"  claim {claim.header.claim} of {claim.header.winner}: "
              f"{len(claim.strategy):,} positions listed, {claim.checked:,} checked, "
              f"{claim.plies} plies, file {claim.path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
