"""Proof files: a winning strategy written down so that anyone can check it, and the
checker (issue 34; docs/proofs.md).

A proof file is UTF-8 text (gzip-compressed when its name ends in ``.gz``)::

    # hexgames proof: White wins standard Andantino from the standard start
    game andantino
    rules -
    root andantino w=0,0 r=1,0 turn=w hands=w24,r24
    winner w
    claim win
    andantino w=0,0 r=1,0 turn=w hands=w24,r24<TAB>0,1
    ...

- The header lines come first, in this order: ``game`` (``andantino`` or ``abande``),
  ``rules`` (the rules options as ``--rules`` takes them, ``key=value`` joined by
  commas, or ``-`` for the defaults), ``root`` (the position string of the proven
  position), ``winner`` (the colour letter of position strings: ``w`` or ``r`` in
  Andantino, ``b`` or ``w`` in Abande) and ``claim`` (``win``, or ``not-lose`` for a
  proven draw or better).
- Then one line for each position in which the winner is to move: the position string
  exactly as ``Board.position()`` writes it, a tab, and the winner's move there in the
  game's notation (docs/notation.md). The defender's positions are not listed: every
  legal reply must lead to a listed position or to a finished game the claim allows
  (the winner's win; for ``not-lose`` a draw too).
- Lines starting with ``#`` and empty lines are comments anywhere.

:func:`verify` checks a file with the pure-Python boards of :mod:`hexgames.andantino`
and :mod:`hexgames.abande` only: it shares no code with the native solver that writes
the files. It walks the strategy from the root, playing the listed move wherever the
winner is to move and every legal reply wherever the defender is, and names the first
position where the file fails. A position reached again by another move order is
checked once (in games where the history cannot change a position's value: everywhere
but Andantino's extended play, whose repetition rule looks at the history).

The file is read streaming and at most ``max_bytes`` of it (after decompression) are
read, so a huge or endless file costs bounded memory; the strategy is kept as 16-byte
digests of the position strings (BLAKE2b), which cannot make a wrong proof pass: a
digest only chooses which listed move the checker plays, and whatever it plays, every
reply is then checked by play.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from hexgames.core import HexgamesError
from hexgames.games import GAME_NAMES, game_module

#: The most bytes of a proof file (after decompression) that :func:`read_proof` and
#: :func:`verify` read by default (1 GiB); a larger file is refused.
MAX_PROOF_BYTES = 1 << 30
#: The longest line of a proof file, in bytes (a position of 1,000 tiles and its move
#: take about 16 KB).
MAX_LINE_BYTES = 1 << 20
#: The most empty and comment lines a proof file may have (a file of a few megabytes of
#: gzip can hold a billion empty lines, which would take the checker minutes to skip).
MAX_COMMENT_LINES = 1_000_000
#: The claims a proof file may make.
CLAIMS = ("win", "not-lose")
#: The header keys, in their order.
HEADER = ("game", "rules", "root", "winner", "claim")
#: The colour letters of position strings, first player first.
COLOR_LETTERS = {"andantino": ("w", "r"), "abande": ("b", "w")}
_CELL = r"-?[0-9]+,-?[0-9]+"
_CELLS = rf"(?:-|{_CELL}(?:;{_CELL})*)"
#: A position string as ``Board.position()`` writes it (docs/notation.md: the writer's
#: fields, order and case), of each game: a strategy line of another form can be
#: reached by no walk (positions are matched as written), so it is refused as it is read.
WRITTEN_POSITION = {
    "andantino": re.compile(rf"andantino w={_CELLS} r={_CELLS} turn=[wr]"
                            r"(?: hands=w[0-9]+,r[0-9]+)?(?: single=(?:unused|used))?"
                            r"(?: relocations=[0-9]+)?"),
    "abande": re.compile(r"abande(?: [a-g][1-7]=[BW]+)* turn=[bw] hands=b[0-9]+,w[0-9]+"
                         r"(?: passes=[12])?"),
}


class ProofFileError(HexgamesError):
    """A proof file that cannot be read: malformed (the message names the line), too
    large, not a file, or of an unknown game."""


class ProofFailedError(HexgamesError):
    """A proof file that is well formed but does not prove its claim: the message names
    the first position where it fails (:attr:`position`) and why."""

    def __init__(self, message: str, position: str) -> None:
        super().__init__(message)
        self.position = position


@dataclass(frozen=True)
class ProofHeader:
    """What a proof file claims: ``game`` (lower case), ``rules`` (the options' words),
    ``root`` (a position string), ``winner`` (0 for the first player, 1 for the second)
    and ``claim`` (``win`` or ``not-lose``)."""

    game: str
    rules: tuple[str, ...]
    root: str
    winner: int
    claim: str

    def lines(self) -> list[str]:
        """The header's lines, as a proof file begins."""
        return [f"game {self.game}", f"rules {','.join(self.rules) or '-'}",
                f"root {self.root}", f"winner {COLOR_LETTERS[self.game][self.winner]}",
                f"claim {self.claim}"]


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify` checked: the header, ``positions`` (the distinct positions
    checked: the winner's and the defender's), ``winner_positions`` (those where the
    winner moved), ``entries`` (the lines of the file's strategy), ``longest`` (the
    longest line of play checked, in plies, to the end of the game) and ``seconds``."""

    header: ProofHeader
    positions: int
    winner_positions: int
    entries: int
    longest: int
    seconds: float


def digest(position: str) -> bytes:
    """The 16-byte key of a position string in a strategy."""
    return hashlib.blake2b(position.encode("utf-8"), digest_size=16).digest()


def write_proof(path: str | Path, header: ProofHeader,
                strategy: Iterable[tuple[str, str]], comments: Iterable[str] = ()) -> int:
    """Write a proof file (gzip when ``path`` ends in ``.gz``): ``comments`` (each line
    prefixed ``# ``), the header, then each ``(position, move)`` of ``strategy``; the
    number of strategy lines written.

    Raises:
        OSError: if the file cannot be written.
    """
    path = Path(path)
    count = 0
    with (gzip.open(path, "wt", encoding="utf-8", newline="\n") if path.suffix == ".gz"
          else open(path, "w", encoding="utf-8", newline="\n")) as out:
        for comment in comments:
            out.write(f"# {comment}\n")
        for line in header.lines():
            out.write(line + "\n")
        for position, move in strategy:
            out.write(f"{position}\t{move}\n")
            count += 1
    return count


def _lines(source: IO[bytes], max_bytes: int, name: str) -> Iterator[tuple[int, str]]:
    """The numbered text lines of a binary stream, refusing one past ``max_bytes`` in
    all, a line longer than :data:`MAX_LINE_BYTES` or one that is not UTF-8. No more
    than the limits is ever read into memory (a line is read with a bound)."""
    read = 0
    number = 0
    while True:
        limit = min(max_bytes - read, MAX_LINE_BYTES) + 1
        raw = source.readline(limit)
        if not raw:
            return
        number += 1
        read += len(raw)
        if read > max_bytes:
            raise ProofFileError(f"{name} holds more than {max_bytes} bytes, the most a "
                                 "proof file may hold here (--max-bytes)")
        if len(raw) > MAX_LINE_BYTES:
            raise ProofFileError(f"{name}, line {number}: longer than {MAX_LINE_BYTES} "
                                 "bytes, which no position of a proof is")
        try:
            line = raw.decode("utf-8-sig" if number == 1 else "utf-8")  # (a BOM: Notepad)
        except UnicodeDecodeError:
            raise ProofFileError(f"{name}, line {number}: not UTF-8 text") from None
        line = line.rstrip("\r\n")
        if "\r" in line:  # (lines ended by CR alone read as one comment line before)
            raise ProofFileError(f"{name}, line {number}: a carriage return inside the "
                                 "line (lines end with LF or CR LF)")
        yield number, line


def _open(path: str | Path) -> IO[bytes]:
    """The file's bytes (``-``: standard input), decompressed when it is gzip (by its
    first two bytes)."""
    if str(path) == "-":
        import sys

        stream: Any = sys.stdin.buffer
        if not hasattr(stream, "peek"):
            stream = io.BufferedReader(stream)
        if stream.peek(2)[:2] == b"\x1f\x8b":
            return gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[return-value]
        return stream  # type: ignore[no-any-return]
    path = Path(path)
    if path.is_dir():
        raise ProofFileError(f"{path} is a directory, not a proof file")
    try:
        raw = open(path, "rb")  # noqa: SIM115 (the caller's with-statement closes it)
    except OSError as error:
        raise ProofFileError(f"{path}: {error.strerror or error}") from None
    if raw.peek(2)[:2] == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    return raw


def read_proof(path: str | Path, *, max_bytes: int = MAX_PROOF_BYTES
               ) -> tuple[ProofHeader, dict[bytes, str]]:
    """The header and the strategy (position digest -> the winner's move) of a proof
    file, read streaming.

    Raises:
        ProofFileError: for a file that cannot be read or is malformed, naming the line;
            for a position listed twice with different moves.
    """
    name = "standard input" if str(path) == "-" else str(path)
    try:
        with _open(path) as source:
            return _parse(_lines(source, max_bytes, name), name)
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise ProofFileError(f"{name}: cannot be read ({error})") from None


def parse_proof_text(text: str, name: str = "the proof") -> tuple[ProofHeader, dict[bytes, str]]:
    """:func:`read_proof` of a text in memory."""
    source = io.BytesIO(text.encode("utf-8"))
    return _parse(_lines(source, MAX_PROOF_BYTES, name), name)


def _parse(lines: Iterator[tuple[int, str]], name: str
           ) -> tuple[ProofHeader, dict[bytes, str]]:
    strategy: dict[bytes, str] = {}
    moves: dict[str, str] = {}  # one string object per move text
    found: list[ProofHeader] = []
    for where, key, position, move in _entries(lines, name, found):
        move = moves.setdefault(move, move)
        if strategy.setdefault(key, move) != move:
            raise ProofFileError(f"{where}: the position {position[:80]!r} is listed "
                                 f"twice, with {strategy[key]!r} and {move!r}")
    return found[0], strategy


def _entries(lines: Iterator[tuple[int, str]], name: str, found: list[ProofHeader]
             ) -> Iterator[tuple[str, bytes, str, str]]:
    """The strategy lines of a proof file as ``(where, digest, position, move)``, after
    its header, which is appended to ``found`` once read (a file whose header ends
    early is refused at its end)."""
    fields: dict[str, str] = {}
    header: ProofHeader | None = None
    skipped = 0
    turn = ""  # the turn field of the winner's positions, once the header is read
    module: Any = None
    for number, line in lines:
        if not line.strip() or line.startswith("#"):
            skipped += 1
            if skipped > MAX_COMMENT_LINES:
                raise ProofFileError(f"{name}, line {number}: more than "
                                     f"{MAX_COMMENT_LINES:,} empty or comment lines")
            continue
        where = f"{name}, line {number}"
        if header is None:
            field, _, value = line.partition(" ")
            wanted = HEADER[len(fields)]
            if field != wanted:
                raise ProofFileError(f"{where}: expected the header line {wanted!r} "
                                     f"(the header is {', '.join(HEADER)}), not "
                                     f"{line[:60]!r}")
            fields[field] = value.strip()
            if len(fields) == len(HEADER):
                header = _header(fields, name)
                found.append(header)
                turn = f"turn={COLOR_LETTERS[header.game][header.winner]}"
                module = game_module(header.game)
            continue
        position, tab, move = line.partition("\t")
        position, move = position.strip(), move.strip()
        if not tab or not position or not move or "\t" in move:
            raise ProofFileError(f"{where}: a strategy line is a position string, a tab "
                                 f"and a move, not {line[:60]!r}")
        if not position.startswith(header.game + " "):
            raise ProofFileError(f"{where}: {position[:40]!r} is no {header.game} position")
        if not WRITTEN_POSITION[header.game].fullmatch(position):
            raise ProofFileError(f"{where}: {position[:200]!r} is not a position string as "
                                 "Board.position() writes it (docs/notation.md)")
        # cheap checks of form (the walk plays only the lines it reaches, so a line it
        # never reaches could otherwise hold anything)
        if turn not in position.split(" "):
            raise ProofFileError(f"{where}: {position[:200]!r} does not have the winner to "
                                 f"move ({turn}): only the winner's positions are listed")
        try:
            module.Move.from_notation(move)
        except HexgamesError as error:
            raise ProofFileError(f"{where}: {error}") from None
        yield where, digest(position), position, move
    if header is None:
        missing = HEADER[len(fields)]
        raise ProofFileError(f"{name}: the header ends early: no {missing!r} line "
                             "(a proof file begins with game, rules, root, winner, claim)")


def read_header(path: str | Path, *, max_bytes: int = MAX_PROOF_BYTES) -> ProofHeader:
    """The header of a proof file (what it claims), reading no further than its first
    strategy line.

    Raises:
        ProofFileError: for a file that cannot be read or whose header is malformed.
    """
    name = str(path)
    found: list[ProofHeader] = []
    try:
        with _open(path) as source:
            for _ in _entries(_lines(source, max_bytes, name), name, found):
                break
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise ProofFileError(f"{name}: cannot be read ({error})") from None
    return found[0]


def proof_entries(path: str | Path, *, max_bytes: int = MAX_PROOF_BYTES
                  ) -> Iterator[tuple[ProofHeader, str, str]]:
    """Each strategy line of a proof file as ``(header, position, move)``, read
    streaming (the header is the file's, the same object for every line): for copying
    a strategy into another file without holding it in memory. Lines are checked as
    :func:`read_proof` checks them, but a position listed twice is not looked for.

    Raises:
        ProofFileError: for a file that cannot be read or is malformed, naming the line.
    """
    name = str(path)
    found: list[ProofHeader] = []
    try:
        with _open(path) as source:
            for _, _, position, move in _entries(_lines(source, max_bytes, name), name,
                                                 found):
                yield found[0], position, move
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        raise ProofFileError(f"{name}: cannot be read ({error})") from None


def _header(fields: dict[str, str], name: str) -> ProofHeader:
    game = fields["game"].strip().lower()
    if game not in GAME_NAMES:
        raise ProofFileError(f"{name}: unknown game {fields['game'][:40]!r} (known: "
                             f"{', '.join(GAME_NAMES)})")
    words = () if fields["rules"] in ("-", "") else tuple(
        word.strip() for word in fields["rules"].split(",") if word.strip())
    module = game_module(game)
    try:
        rules = module.Rules.from_options(words)
        root = module.Board(fields["root"], rules)
    except HexgamesError as error:
        raise ProofFileError(f"{name}: {error}") from None
    letters = COLOR_LETTERS[game]
    if fields["winner"] not in letters:
        raise ProofFileError(f"{name}: the winner is {' or '.join(letters)} in {game}, "
                             f"not {fields['winner'][:20]!r}")
    if fields["claim"] not in CLAIMS:
        raise ProofFileError(f"{name}: the claim is {' or '.join(CLAIMS)}, not "
                             f"{fields['claim'][:20]!r}")
    if root.is_game_over():
        raise ProofFileError(f"{name}: the root position is a finished game")
    return ProofHeader(game, tuple(rules.options()), str(root.position()),
                       letters.index(fields["winner"]), fields["claim"])


def verify(path: str | Path, *, max_bytes: int = MAX_PROOF_BYTES,
           progress: Callable[[int], None] | None = None) -> VerifyReport:
    """Check a proof file with the pure-Python boards (see the module's documentation).

    Args:
        path: the proof file (gzip or text).
        max_bytes: the most bytes of it to read (after decompression).
        progress: called now and then with the positions checked so far.

    Returns:
        What was checked, when the file proves its claim.

    Raises:
        ProofFileError: for a file that cannot be read or is malformed.
        ProofFailedError: naming the first position where the strategy fails.
    """
    start = time.perf_counter()
    header, strategy = read_proof(path, max_bytes=max_bytes)
    return check(header, strategy, progress=progress, started=start)


def check(header: ProofHeader, strategy: dict[bytes, str], *,
          progress: Callable[[int], None] | None = None,
          started: float | None = None) -> VerifyReport:
    """:func:`verify` of a header and strategy already read."""
    started = time.perf_counter() if started is None else started
    module = game_module(header.game)
    board: Any = module.Board(header.root, module.Rules.from_options(header.rules))
    walk = _Walk(board, header, strategy, progress)
    walk.run()
    return VerifyReport(header, walk.checked, walk.winner_checked, len(strategy),
                        walk.longest, time.perf_counter() - started)


class _Walk:
    """The checker's walk of the strategy tree, with an explicit stack (lines of
    hundreds of plies need no deep recursion)."""

    def __init__(self, board: Any, header: ProofHeader, strategy: dict[bytes, str],
                 progress: Callable[[int], None] | None) -> None:
        self.board = board
        self.header = header
        self.strategy = strategy
        self.progress = progress
        self.winner = header.winner
        self.rules = board.rules
        # the history changes a position's value only through the repetition rule
        self.memo = not getattr(self.rules, "extended", False)
        self.done: set[bytes] = set()
        self.checked = 0
        self.winner_checked = 0
        self.longest = 0
        self.root_ply = board.ply()

    def _fail(self, why: str) -> ProofFailedError:
        position = str(self.board.position())
        line = " ".join(m.notation() for m in self.board.move_stack[self.root_ply:])
        return ProofFailedError(f"the proof fails at {position}: {why} (reached by "
                                f"{line or 'no move: the root'})", position)

    def _end_allowed(self) -> bool:
        outcome = self.board.outcome()
        assert outcome is not None
        if outcome.winner is not None:
            return int(outcome.winner) == self.winner
        return self.header.claim == "not-lose"

    def _finished(self) -> None:
        """The game is over on the board: the claim must allow its result."""
        self.longest = max(self.longest, self.board.ply() - self.root_ply)
        if not self._end_allowed():
            outcome = self.board.outcome()
            assert outcome is not None
            result = ("a draw" if outcome.winner is None else "a loss for the winner")
            raise self._fail(f"the game ends in {result} ({outcome.termination.value}), "
                             f"which the claim {self.header.claim!r} does not allow")

    def _count(self) -> None:
        self.checked += 1
        if self.progress is not None and self.checked % 4096 == 0:
            self.progress(self.checked)

    def run(self) -> None:
        board = self.board
        # a frame: (key to mark done or None, the moves to try, their next index)
        stack: list[tuple[bytes | None, list[Any], int]] = []

        def enter() -> None:
            """Open a frame for the position on the board (not finished)."""
            position = str(board.position())
            key = digest(position) if self.memo else None
            if key is not None and key in self.done:
                stack.append((None, [], 0))
                return
            self._count()
            if int(board.turn) == self.winner:
                self.winner_checked += 1
                text = self.strategy.get(digest(position))
                if text is None:
                    raise self._fail("the file gives the winner no move here")
                try:
                    move = board.parse_notation(text)
                except HexgamesError as error:
                    raise self._fail(f"the file's move {text!r} is not legal here: "
                                     f"{error}") from None
                stack.append((key, [move], 0))
            else:
                stack.append((key, list(board.legal_moves), 0))

        enter()
        while stack:
            key, moves, index = stack[-1]
            if index == len(moves):
                stack.pop()
                if key is not None:
                    self.done.add(key)
                if stack:
                    board.pop()
                continue
            stack[-1] = (key, moves, index + 1)
            board.push(moves[index])
            if board.is_game_over():
                self._finished()
                board.pop()
                continue
            enter()
