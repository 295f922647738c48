"""Checks an Andantino proof file (docs/proofs.md) with a rules engine of its own.

    python3 tools/independent_check/check_andantino_proof.py FILE [--max-bytes N]

Exit status 0: the proof verifies; 1: it does not (the first failing position is named,
with why and the line of moves that reaches it); 2: the file cannot be read, is malformed
or asks for what this checker does not support (one line `error: ...`).

Independent of hexgames: standard library only, written from the specification (RULES.md,
NOTATION.md, docs/proofs.md) without its code. Default Andantino rules and `claim win`
only; README.md beside this file says what it refuses and how it reads the rules.
"""

from __future__ import annotations

import argparse
import gzip
import io
import re
import struct
import sys
import time
import zlib
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, NoReturn

from andantino_rules import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    DRAW,
    GOES_ON,
    LIMIT,
    MOVER_WINS,
    OFFSET,
    RED,
    STRIDE,
    TILES_PER_PLAYER,
    WHITE,
    Board,
    cell_code,
    cell_text,
    has_line,
)

DEFAULT_MAX_BYTES: Final = 1 << 30

# A position string as Board.position() writes it (docs/notation.md), default rules.
_INT = r"(?:0|-?[1-9][0-9]*)"
_CELLS = rf"(-|{_INT},{_INT}(?:;{_INT},{_INT})*)"
_COUNT = r"(0|[1-9][0-9]?)"
POSITION_RE: Final = re.compile(
    rf"andantino w={_CELLS} r={_CELLS} turn=([wr]) hands=w{_COUNT},r{_COUNT}"
)
# A move in the notation: `q,r` (or `(q, r)`), surrounding whitespace allowed.
MOVE_RE: Final = re.compile(
    r"\s*(?:(-?[0-9]+),(-?[0-9]+)|\(\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\))\s*"
)
SPLIT_RE: Final = re.compile("[,;]")
# Big-endian cell codes, one packer a count of tiles.
PACKERS: Final = [struct.Struct(f">{n}H") for n in range(2 * TILES_PER_PLAYER + 1)]


class Malformed(Exception):
    """The file cannot be read, is malformed, or asks for what is not supported."""


class ProofFails(Exception):
    """The file does not prove its claim: why, at the position where the walk stands."""


@dataclass
class Position:
    """A parsed position string: cell codes in the writer's order, side to move, hands."""

    white: list[int]
    red: list[int]
    turn: int
    hands: tuple[int, int]

    def key(self) -> bytes:
        """The position's identity: side to move, both hands and each colour's tiles."""
        return position_key(self.turn, self.hands, self.white, self.red)


def position_key(
    turn: int, hands: tuple[int, int] | list[int], white: list[int], red: list[int]
) -> bytes:
    return (
        bytes((turn, hands[WHITE], hands[RED], len(white)))
        + PACKERS[len(white)].pack(*white)
        + PACKERS[len(red)].pack(*red)
    )


def parse_cells(text: str, line: int) -> list[int]:
    """Cells joined by `;` (or `-` for none): codes, checked in the writer's order."""
    if text == "-":
        return []
    numbers = [int(part) for part in SPLIT_RE.split(text)]
    if max(numbers) > LIMIT or min(numbers) < -LIMIT:
        raise Malformed(f"line {line}: a cell beyond {LIMIT} from 0,0 (not supported)")
    codes = [
        (numbers[i + 1] + OFFSET) * STRIDE + numbers[i] + OFFSET for i in range(0, len(numbers), 2)
    ]
    if any(a >= b for a, b in pairwise(codes)):
        raise Malformed(f"line {line}: cells not in the writer's order (by r, then q) or repeated")
    return codes


def parse_position(text: str, line: int) -> Position:
    """A position string exactly as the writer writes it (default rules)."""
    match = POSITION_RE.fullmatch(text)
    if match is None:
        raise Malformed(f"line {line}: not an Andantino position string as written: {text[:200]!r}")
    white = parse_cells(match[1], line)
    red = parse_cells(match[2], line)
    hands = (int(match[4]), int(match[5]))
    if len(white) + hands[WHITE] > TILES_PER_PLAYER or len(red) + hands[RED] > TILES_PER_PLAYER:
        raise Malformed(f"line {line}: more tiles than a player owns ({TILES_PER_PLAYER})")
    if not set(white).isdisjoint(red):
        raise Malformed(f"line {line}: a cell holds two tiles")
    return Position(white, red, COLOUR_LETTERS.index(match[3]), hands)


def parse_move(text: str, line: int) -> int:
    match = MOVE_RE.fullmatch(text)
    if match is None:
        raise Malformed(f"line {line}: not a placement in the notation: {text[:100]!r}")
    q, r = (int(x) for x in match.groups() if x is not None)
    if abs(q) > LIMIT or abs(r) > LIMIT:
        raise Malformed(f"line {line}: a cell beyond {LIMIT} from 0,0 (not supported)")
    return cell_code(q, r)


def read_lines(path: str, max_bytes: int) -> Iterator[tuple[int, str]]:
    """The file's lines (number, text without its end), gzip or not, at most max_bytes."""
    try:
        with open(path, "rb") as probe:
            compressed = probe.read(2) == b"\x1f\x8b"
        stream: io.BufferedIOBase = gzip.open(path, "rb") if compressed else open(path, "rb")  # noqa: SIM115
        with stream:
            total = 0
            number = 0
            while True:
                raw = stream.readline(max_bytes - total + 1)
                if not raw:
                    return
                total += len(raw)
                if total > max_bytes:
                    raise Malformed(
                        f"more than {max_bytes} bytes (after decompression); see --max-bytes"
                    )
                number += 1
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raise Malformed(f"line {number}: not UTF-8") from None
                if number == 1 and text.startswith("\ufeff"):
                    text = text[1:]
                if text.endswith("\n"):
                    text = text[:-1]
                    if text.endswith("\r"):
                        text = text[:-1]
                yield number, text
    except (OSError, EOFError, zlib.error) as error:
        # gzip.BadGzipFile is an OSError; a truncated stream ends in EOFError.
        raise Malformed(f"cannot read {path}: {error}") from None


@dataclass
class ProofFile:
    root: Position
    winner: int
    strategy: dict[bytes, int]  # a position's key -> the winner's move (a cell code)
    lines: int  # strategy lines read
    repeated: int  # lines that repeat an earlier line's position and move


HEADER: Final = ("game", "rules", "root", "winner", "claim")


def read_proof(path: str, max_bytes: int) -> ProofFile:
    header: dict[str, tuple[int, str]] = {}
    strategy: dict[bytes, int] = {}
    lines = repeated = 0
    winner = WHITE
    root: Position | None = None
    for number, text in read_lines(path, max_bytes):
        if not text or text.startswith("#"):
            continue
        if len(header) < len(HEADER):
            name = HEADER[len(header)]
            word, _, value = text.partition(" ")
            if word != name:
                raise Malformed(f"line {number}: expected the header line `{name} ...`")
            header[name] = (number, value)
            if name == "root":
                root = check_root(value, number)
            elif name == "winner":
                winner = check_header(header)
            elif name == "claim" and value != "win":
                raise Malformed(f"line {number}: only `claim win` is supported, not {value!r}")
            continue
        position_text, tab, move_text = text.partition("\t")
        if not tab:
            raise Malformed(f"line {number}: a strategy line without a tab")
        position = parse_position(position_text, number)
        if position.turn != winner:
            raise Malformed(f"line {number}: the winner is not to move")
        move = parse_move(move_text, number)
        known = len(strategy)
        if strategy.setdefault(position.key(), move) != move:
            raise Malformed(f"line {number}: a position listed twice with two moves")
        repeated += len(strategy) == known
        lines += 1
    if len(header) < len(HEADER):
        raise Malformed(f"the header ends early: no `{HEADER[len(header)]}` line")
    assert root is not None
    return ProofFile(root, winner, strategy, lines, repeated)


def check_header(header: dict[str, tuple[int, str]]) -> int:
    """Checks game, rules and winner; returns the winner's colour."""
    number, game = header["game"]
    if game != "andantino":
        raise Malformed(f"line {number}: only `game andantino` is supported, not {game!r}")
    number, rules = header["rules"]
    if rules != "-":
        raise Malformed(
            f"line {number}: only the default rules (`rules -`) are supported, not {rules!r}"
        )
    number, winner = header["winner"]
    if winner not in ("w", "r"):
        raise Malformed(f"line {number}: the winner must be `w` or `r`, not {winner!r}")
    return COLOUR_LETTERS.index(winner)


def check_root(text: str, number: int) -> Position:
    root = parse_position(text, number)
    for colour, tiles in ((WHITE, root.white), (RED, root.red)):
        if len(tiles) + root.hands[colour] != TILES_PER_PLAYER:
            raise Malformed(
                f"line {number}: the root's {COLOUR_NAMES[colour]} tiles and hand are not "
                f"{TILES_PER_PLAYER} (not supported)"
            )
    lead = root.hands[root.turn] - root.hands[1 - root.turn]
    if lead not in (0, 1):
        raise Malformed(
            f"line {number}: the root's hands cannot alternate to the end (not supported)"
        )
    if root.hands == (0, 0):
        raise Malformed(f"line {number}: the root is a finished game (no tile in hand)")
    if has_line(set(root.white)) or has_line(set(root.red)):
        raise Malformed(f"line {number}: the root has a line of five already (not supported)")
    return root


def position_text(board: Board) -> str:
    def cells(colour: int) -> str:
        return ";".join(cell_text(code) for code in sorted(board.tiles[colour])) or "-"

    return (
        f"andantino w={cells(WHITE)} r={cells(RED)} turn={COLOUR_LETTERS[board.turn]} "
        f"hands=w{board.hands[WHITE]},r{board.hands[RED]}"
    )


def _insert(codes: list[int], packed: bytes, code: int) -> tuple[list[int], bytes]:
    i = bisect_left(codes, code)
    return [*codes[:i], code, *codes[i:]], b"".join(
        (packed[: 2 * i], code.to_bytes(2, "big"), packed[2 * i :])
    )


class Walk:
    """The walk of docs/proofs.md: the winner's listed move, every reply of the defender.

    A position reached again is checked once: a checked winner's position keeps, in place
    of its move in `strategy`, minus the longest line from it; a defender's, in `replied`.
    Recursion goes one call a ply, and a game has at most 48 plies.
    """

    def __init__(self, proof: ProofFile, progress: bool) -> None:
        self.strategy = proof.strategy
        self.winner = proof.winner
        self.board = Board(proof.root.white, proof.root.red, proof.root.turn, proof.root.hands)
        self.winner_checked = 0
        self.replied: dict[bytes, int] = {}
        self.replies = 0
        self.finished = 0
        self.line: list[int] = []
        self.progress = progress
        self.started = time.perf_counter()

    def run(self) -> int:
        """The longest line from the root, in plies; raises ProofFails."""
        white = sorted(self.board.tiles[WHITE])
        red = sorted(self.board.tiles[RED])
        packed_white = PACKERS[len(white)].pack(*white)
        packed_red = PACKERS[len(red)].pack(*red)
        if self.board.turn == self.winner:
            return self.attack(white, packed_white, red, packed_red)
        return self.defend(white, packed_white, red, packed_red)

    def fail(self, why: str) -> NoReturn:
        moves = " ".join(cell_text(code) for code in self.line) or "(none)"
        raise ProofFails(
            f"{why}\n  position: {position_text(self.board)}\n"
            f"  line from the root ({len(self.line)} plies): {moves}"
        )

    def _key(self, white: bytes, red: bytes, count: int) -> bytes:
        hands = self.board.hands
        return bytes((self.board.turn, hands[WHITE], hands[RED], count)) + white + red

    def attack(
        self, white: list[int], packed_white: bytes, red: list[int], packed_red: bytes
    ) -> int:
        board = self.board
        key = self._key(packed_white, packed_red, len(white))
        move = self.strategy.get(key)
        if move is None:
            self.fail(f"{COLOUR_NAMES[self.winner]} to move and no move listed")
        if move < 0:
            return -move
        if not board.is_legal(move):
            self.fail(f"the listed move {cell_text(move)} is not legal")
        outcome, undo = board.play(move)
        self.line.append(move)
        if self.winner == WHITE:
            white, packed_white = _insert(white, packed_white, move)
        else:
            red, packed_red = _insert(red, packed_red, move)
        if outcome == MOVER_WINS:
            self.finished += 1
            height = 1
        elif outcome == GOES_ON:
            height = 1 + self.defend(white, packed_white, red, packed_red)
        else:
            board.undo(undo)
            self.line.pop()
            why = "a draw" if outcome == DRAW else "a self-trap (the defender wins)"
            self.fail(f"the listed move {cell_text(move)} ends the game in {why}")
        self.line.pop()
        board.undo(undo)
        self.strategy[key] = -height
        self.winner_checked += 1
        if self.progress and self.winner_checked % 100_000 == 0:
            print(
                f"  {self.winner_checked:,} positions of the winner checked, "
                f"{len(self.replied):,} of the defender, "
                f"{time.perf_counter() - self.started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        return height

    def defend(
        self, white: list[int], packed_white: bytes, red: list[int], packed_red: bytes
    ) -> int:
        board = self.board
        key = self._key(packed_white, packed_red, len(white))
        height = self.replied.get(key)
        if height is not None:
            return height
        moves = board.legal_moves()
        if not moves:
            self.fail(f"{COLOUR_NAMES[board.turn]} to move has no legal placement")
        height = 0
        for move in moves:
            self.replies += 1
            outcome, undo = board.play(move)
            self.line.append(move)
            if outcome == GOES_ON:
                if self.winner == WHITE:
                    below = self.attack(white, packed_white, *_insert(red, packed_red, move))
                else:
                    below = self.attack(*_insert(white, packed_white, move), red, packed_red)
                height = max(height, 1 + below)
            elif outcome in (MOVER_WINS, DRAW):
                self.line.pop()
                board.undo(undo)
                end = "a draw" if outcome == DRAW else f"a win for {COLOUR_NAMES[1 - self.winner]}"
                self.fail(f"the reply {cell_text(move)} ends the game in {end}")
            else:  # the defender walled in its own tile: the winner wins
                self.finished += 1
                height = max(height, 1)
            self.line.pop()
            board.undo(undo)
        self.replied[key] = height
        return height


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check an Andantino proof file (docs/proofs.md) independently of hexgames."
    )
    parser.add_argument("file", help="the proof file, text or gzip")
    parser.add_argument(
        "--max-bytes",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="refuse a file larger than this after decompression (default 1 GiB)",
    )
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        proof = read_proof(args.file, args.max_bytes)
    except Malformed as error:
        print(f"error: {error}")
        return 2
    read = time.perf_counter() - started
    walk = Walk(proof, args.progress)
    try:
        longest = walk.run()
    except ProofFails as error:
        print(f"proof fails: {error}")
        print(
            f"checked before it: {walk.winner_checked:,} positions of the winner, "
            f"{len(walk.replied):,} of the defender; {time.perf_counter() - started:.1f} s"
        )
        return 1
    total = time.perf_counter() - started
    root = proof.root
    print(
        f"proof verified: {COLOUR_NAMES[proof.winner]} wins from "
        f"{position_text(Board(root.white, root.red, root.turn, root.hands))}"
    )
    print(
        f"strategy lines: {proof.lines:,} ({len(proof.strategy):,} positions of the winner, "
        f"{proof.repeated:,} repeated lines); "
        f"never reached: {len(proof.strategy) - walk.winner_checked:,}"
    )
    print(
        f"positions checked: {walk.winner_checked + len(walk.replied):,} "
        f"({walk.winner_checked:,} of the winner to move, {len(walk.replied):,} of the defender)"
    )
    print(f"replies of the defender played: {walk.replies:,}; games won: {walk.finished:,}")
    print(f"longest line: {longest} plies")
    print(f"time: {total:.1f} s (read {read:.1f} s, walk {total - read:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
