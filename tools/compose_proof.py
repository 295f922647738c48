"""Compose a proof file of a position from the proofs of the positions one winner's
move and each defender's reply after it reach (issue 34: the standard start from the
proofs of the second move's positions).

The proof of ``ROOT`` (the winner to move) is its line ``ROOT<TAB>MOVE`` and every
strategy line of the ``CHILD`` proofs (a position in two of them keeps the first one's
move: either wins, each with its whole strategy listed). Each child must prove the same
claim for the same winner of the same game and rules; the file written is then checked
by :func:`hexgames.proof.verify` (the pure-Python boards), and it is removed again if
the check fails: a composed proof stands only if it verifies as any other. A child may
be missing or superfluous: the check names the position it fails at.

Usage::

    .venv/bin/python tools/compose_proof.py --root POSITION --move=MOVE \\
        [--rules WORDS] --out FILE CHILD [CHILD ...]

(``--move=-1,2``: a cell that begins with a minus is no option.) Exit status 0 when the
composed file verifies, 2 for bad input or a failed check (the
message names the file, line or position).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from hexgames.core import HexgamesError
from hexgames.games import game_module
from hexgames.proof import (
    ProofHeader,
    digest,
    proof_entries,
    read_header,
    verify,
    write_proof,
)


def compose(root: str, move: str, rules: tuple[str, ...], children: list[Path],
            out: Path) -> int:
    """Write the composed proof to ``out``; the strategy lines written.

    Raises:
        HexgamesError: (a ValueError) for a child proof of another game, rules, winner
            or claim than the first's, or one that cannot be read.
        OSError: when ``out`` cannot be written.
    """
    if not children:
        raise HexgamesError("give the proof files of the positions after the move")
    first = read_header(children[0])
    for child in children[1:]:
        header = read_header(child)
        if (header.game, header.rules, header.winner, header.claim) != \
                (first.game, first.rules, first.winner, first.claim):
            raise HexgamesError(f"{child} proves {header.claim} for another side, game or "
                                f"rules than {children[0]}")
    if rules != first.rules:
        raise HexgamesError(f"the children's rules are {','.join(first.rules) or '-'}, "
                            f"not {','.join(rules) or '-'}")
    module = game_module(first.game)
    board = module.Board(root, module.Rules.from_options(list(rules)))
    root = board.position()  # as the checker writes it
    if int(board.turn) != first.winner:
        raise HexgamesError("the root has the defender to move: the winner's move begins "
                            "a composed proof")
    board.push(module.Move.from_notation(move))  # (an illegal move: its error)
    header = ProofHeader(first.game, rules, root, first.winner, first.claim)
    seen: set[bytes] = set()

    def lines() -> Iterator[tuple[str, str]]:
        seen.add(digest(root))
        yield root, move
        for child in children:
            for _, position, child_move in proof_entries(child):
                key = digest(position)
                if key not in seen:
                    seen.add(key)
                    yield position, child_move

    comments = [f"composed of {', '.join(c.name for c in children)} after {move}"]
    return write_proof(out, header, lines(), comments)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--root", required=True, help="the position string of the root")
    parser.add_argument("--move", required=True, help="the winner's move at the root")
    parser.add_argument("--rules", default="-", help="the rules' words (- for the defaults)")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("children", nargs="+", type=Path)
    args = parser.parse_args()
    rules = () if args.rules == "-" else tuple(w for w in args.rules.split(",") if w)
    try:
        count = compose(args.root, args.move, rules, args.children, args.out)
        try:
            report = verify(args.out)
        except HexgamesError:
            args.out.unlink(missing_ok=True)
            raise
    except (HexgamesError, OSError) as error:
        print(f"compose_proof: {error}", file=sys.stderr)
        return 2
    print(f"{args.out}: {count:,} strategy lines; verified: "
          f"{report.positions:,} positions checked, the longest line {report.longest} "
          f"plies, {report.seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
