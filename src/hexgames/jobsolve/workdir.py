"""The work directory of a job-level solve: what every finished job found, kept so that
a run that stops can be started again without doing the same work twice
(docs/solver.md, "Job-level proof-number search").

A work directory holds:

- ``results.jsonl``: one JSON object a line, one line for each finished job, written
  (and flushed) as the job finishes, so a crash loses at most the jobs then running.
  Its keys: ``game``, ``rules`` (the rules options' words), ``position`` (the position
  string), ``attacker`` (the colour letter of the side the goal is for: ``w``/``r`` in
  Andantino, ``b``/``w`` in Abande) and ``claim`` (``win``, or ``not-lose``): the goal;
  ``verdict`` (``proven``, ``disproven`` or ``unknown``), ``nodes``, ``seconds``,
  ``job_time`` and ``job_nodes`` (the job's budget; ``null`` for none), and for a
  settled goal ``proof`` (the proof file's name in ``proofs/``) and ``digest`` (its
  BLAKE2b-128 in hex, the hash of :func:`hexgames.proof.digest`, over the file's bytes).
- ``lock``: held locked by the run that uses the directory; a second run at once is
  refused.
- ``proofs/``: a proof file (docs/proofs.md, gzip) for each settled job: the
  attacker's strategy for a proven goal, and for a disproven one the defender's
  strategy for the opposite goal (``A wins`` disproven is ``B does not lose`` proven,
  and ``A does not lose`` disproven is ``B wins``).

A record answers every goal its proof settles (:meth:`WorkDir.lookup`): a proof that
A wins also proves that A does not lose, and refutes that B wins or does not lose; so
the second question of a solve (can the opponent win?) takes the first question's
proofs of the side to move's wins as refutations.

**A damaged results file** is refused with :class:`WorkDirError` naming the file and
the line: a line that is not a JSON object of those keys, a proof file that is missing
or whose bytes do not match the digest (changed or truncated since), two lines whose
proofs contradict each other (each side proven to win, or one to win and the other not
to lose). The one exception is the last line when it does not end
with a newline and cannot be read: a write that a crash cut short; it is dropped with a
note (the job is run again) and the file cut back to its last whole line before
anything is appended.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.games import game_module
from hexgames.proof import COLOR_LETTERS, ProofFileError, ProofHeader, read_header, write_proof

#: The results file's name in a work directory.
RESULTS = "results.jsonl"
#: The folder of the jobs' proof files in a work directory.
PROOFS = "proofs"
#: The file a run holds locked while it uses the work directory.
LOCK = "lock"
#: The verdicts of a job.
VERDICTS = ("proven", "disproven", "unknown")
#: A proof file's name in ``proofs/`` (nothing else is read from there).
_PROOF_NAME = re.compile(r"[0-9a-f]{32}\.txt\.gz")


T = TypeVar("T")


class WorkDirError(HexgamesError):
    """A work directory that cannot be used: a path that is a file, one that cannot be
    written, or a damaged results file (the message names the line)."""


@dataclass(frozen=True)
class Goal:
    """What a job searches: can ``attacker`` (0 the first player, 1 the second) win
    from ``position`` (``draw_ok`` False), or not lose (True), under the rules
    ``rules`` (the options' words) of ``game``."""

    game: str
    rules: tuple[str, ...]
    position: str
    attacker: int
    draw_ok: bool

    def opposite(self) -> Goal:
        """The goal that holds exactly when this one fails: ``A wins`` fails when ``B
        does not lose``, ``A does not lose`` fails when ``B wins``."""
        return Goal(self.game, self.rules, self.position, 1 - self.attacker,
                    not self.draw_ok)

    @property
    def claim(self) -> str:
        """The goal as a proof file's claim: ``win`` or ``not-lose``."""
        return "not-lose" if self.draw_ok else "win"

    def header(self) -> ProofHeader:
        """The header of a proof file proving this goal."""
        return ProofHeader(self.game, self.rules, self.position, self.attacker,
                           self.claim)


@dataclass(frozen=True)
class JobRecord:
    """One finished job (a line of the results file): its goal, ``verdict``
    (``proven``, ``disproven`` or ``unknown``), ``nodes``, ``seconds``, its budget
    (``job_time`` seconds, ``job_nodes`` node visits; None for none), and for a settled
    goal the proof file (``proof``, its name in ``proofs/``) and its ``digest`` (hex).
    The file proves :meth:`proved`."""

    goal: Goal
    verdict: str
    nodes: int
    seconds: float
    job_time: float | None
    job_nodes: int | None
    proof: str | None = None
    digest: str | None = None

    @property
    def settled(self) -> bool:
        return self.verdict != "unknown"

    def proved(self) -> Goal:
        """The goal the proof file proves: the goal itself when proven, its opposite
        when disproven."""
        return self.goal if self.verdict == "proven" else self.goal.opposite()

    def covers(self, job_time: float | None, job_nodes: int | None) -> bool:
        """Whether this unknown's budget was at least ``job_time`` and ``job_nodes``
        (so running the job again with them would find nothing new)."""
        return (_at_least(self.job_time, job_time) and
                _at_least(None if self.job_nodes is None else float(self.job_nodes),
                          None if job_nodes is None else float(job_nodes)))

    def line(self) -> str:
        """The record as a results file's line (without the newline)."""
        g = self.goal
        return json.dumps({
            "game": g.game, "rules": list(g.rules), "position": g.position,
            "attacker": COLOR_LETTERS[g.game][g.attacker], "claim": g.claim,
            "verdict": self.verdict, "nodes": self.nodes,
            "seconds": round(self.seconds, 6), "job_time": self.job_time,
            "job_nodes": self.job_nodes, "proof": self.proof, "digest": self.digest,
        }, ensure_ascii=False, separators=(",", ":"))


def _at_least(had: float | None, wanted: float | None) -> bool:
    """Whether a budget ``had`` (None: none) is at least ``wanted``."""
    return had is None or (wanted is not None and had >= wanted)


def file_digest(path: Path) -> str:
    """The BLAKE2b-128 of a file's bytes in hex (the hash of
    :func:`hexgames.proof.digest`), read in blocks."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def proof_name(goal: Goal) -> str:
    """The proof file's name of a job's goal (a hash of it; the same goal, the same
    name)."""
    text = "\n".join((goal.game, ",".join(goal.rules), goal.position, str(goal.attacker),
                      goal.claim))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest() + ".txt.gz"


class WorkDir:
    """A work directory (see the module): the records read from it, and new ones
    appended as jobs finish.

    Args:
        path: the directory; made (with its parents) when missing.

    Raises:
        WorkDirError: for a path that is a file or cannot be made or written, or a
            damaged results file (naming the line).
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.results = self.path / RESULTS
        self.proofs = self.path / PROOFS
        #: What happened while reading (a torn last line dropped).
        self.notes: list[str] = []
        if self.path.exists() and not self.path.is_dir():
            raise WorkDirError(f"the work directory {self.path} is a file")
        #: The settled records by the goal their proof files prove.
        self._facts: dict[Goal, JobRecord] = {}
        #: The unknowns, the largest budget of each goal.
        self._unknowns: dict[Goal, JobRecord] = {}
        try:
            self.proofs.mkdir(parents=True, exist_ok=True)
            self._lock = lock_file(self.path / LOCK)
        except OSError as error:
            raise self._unusable(error) from None
        try:
            if self.results.is_dir():
                raise WorkDirError(f"{self.results} is a directory, not a results file")
            self._read()
            self._out = open(self.results, "a", encoding="utf-8", newline="\n")  # noqa: SIM115 (closed by close())
        except (OSError, WorkDirError) as error:
            self._lock.close()
            if isinstance(error, WorkDirError):
                raise
            raise self._unusable(error) from None

    def _unusable(self, error: OSError) -> WorkDirError:
        return WorkDirError(f"the work directory {self.path} cannot be used: "
                            f"{error.strerror or error}")

    def close(self) -> None:
        """Close the results file and let another run have the directory (always: a
        flush that fails here, a full disk, was already reported by the write that
        failed, and the next run drops a last line cut short)."""
        try:
            self._out.close()
        except OSError:
            pass
        finally:
            self._lock.close()

    def lookup(self, goal: Goal) -> JobRecord | None:
        """What is known of ``goal``, as a record of it: proven when a proof file
        proves it or a stronger goal (a win proves not losing), disproven when one
        proves a goal of the opponent's that excludes it (``A wins`` is refuted by
        ``B does not lose`` and by ``B wins``, ``A does not lose`` by ``B wins``);
        else the unknown of the largest budget, or None. The record's proof file
        proves :meth:`JobRecord.proved` or a stronger goal."""
        def fact(attacker: int, draw_ok: bool) -> JobRecord | None:
            return self._facts.get(Goal(goal.game, goal.rules, goal.position, attacker,
                                        draw_ok))

        other = 1 - goal.attacker
        for verdict, found in (
                ("proven", fact(goal.attacker, goal.draw_ok)
                 or (fact(goal.attacker, False) if goal.draw_ok else None)),
                ("disproven", fact(other, False)
                 or (None if goal.draw_ok else fact(other, True)))):
            if found is not None:
                return JobRecord(goal, verdict, found.nodes, found.seconds,
                                 found.job_time, found.job_nodes, found.proof,
                                 found.digest)
        return self._unknowns.get(goal)

    def proof_path(self, record: JobRecord) -> Path:
        """The proof file of a settled record."""
        assert record.proof is not None
        return self.proofs / record.proof

    def add(self, record: JobRecord, strategy: list[tuple[str, str]] | None = None
            ) -> JobRecord:
        """Keep a finished job: for a settled one its ``strategy`` (the proven goal's,
        :meth:`JobRecord.proved`) is written as a proof file first; then the results
        line, flushed. Returns the record with its proof file's name and digest.

        Raises:
            WorkDirError: when the files cannot be written, or the proof contradicts
                one kept (then nothing is written).
        """
        if record.settled:  # before anything is written over
            self._refuse_contradiction(record, f"{self.results} (a new job)")
        try:
            if record.settled:
                assert strategy is not None
                proved = record.proved()
                name = proof_name(record.goal)
                target = self.proofs / name
                # (a name that ends in .gz: write_proof compresses by the name; the
                # files of the first run toward the start, before this, are text)
                partial = target.with_name(name + ".part.gz")
                write_proof(partial, proved.header(), strategy,
                            [f"a job of a job-level solve: {record.verdict} "
                             f"{'wins' if not record.goal.draw_ok else 'does not lose'} "
                             f"for {COLOR_LETTERS[record.goal.game][record.goal.attacker]}"])
                os.replace(partial, target)
                record = JobRecord(record.goal, record.verdict, record.nodes,
                                   record.seconds, record.job_time, record.job_nodes,
                                   name, file_digest(target))
            self._out.write(record.line() + "\n")
            self._out.flush()
        except OSError as error:
            raise WorkDirError(f"the work directory {self.path} cannot be written: "
                               f"{error.strerror or error}") from None
        self._keep(record, f"{self.results} (a new job)")
        return record

    def _keep(self, record: JobRecord, where: str) -> None:
        """Remember ``record``: a settled one as the fact its proof file proves, an
        unknown when its budget is at least that of the one known; a fact that
        contradicts one known (one side wins and the other does not lose) is refused."""
        if not record.settled:
            old = self._unknowns.get(record.goal)
            if old is None or record.covers(old.job_time, old.job_nodes):
                self._unknowns[record.goal] = record
            return
        self._refuse_contradiction(record, where)
        self._facts.setdefault(record.proved(), record)

    def _refuse_contradiction(self, record: JobRecord, where: str) -> None:
        fact = record.proved()
        for draw_ok in (False, True):
            theirs = Goal(fact.game, fact.rules, fact.position, 1 - fact.attacker, draw_ok)
            if theirs in self._facts and not (fact.draw_ok and draw_ok):
                raise WorkDirError(f"{where}: {fact.position[:80]!r} is settled both ways "
                                   "in the results file (each side proven to win, or one "
                                   "to win and the other not to lose)")

    def _read(self) -> None:
        """Read the results file, checking each line (see the module); a torn last
        line is dropped and the file cut back to its last whole line."""
        records, note = read_results_lines(
            self.results, lambda raw, where: (self._parse(raw, where), where))
        if note is not None:
            self.notes.append(f"{note}; its job runs again")
        for record, where in records:
            self._keep(record, where)

    def _parse(self, raw: bytes, where: str) -> JobRecord:
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise WorkDirError(f"{where}: not a JSON object (the results file is "
                               "damaged)") from None
        if not isinstance(data, dict):
            raise WorkDirError(f"{where}: not a JSON object (the results file is damaged)")
        try:
            game = _field(data, "game", str)
            if game not in COLOR_LETTERS:
                raise ValueError(f"an unknown game {game[:20]!r}")
            rules = data["rules"]
            if not isinstance(rules, list) or not all(isinstance(w, str) for w in rules):
                raise ValueError("rules is not a list of words")
            letters = COLOR_LETTERS[game]
            attacker = _field(data, "attacker", str)
            if attacker not in letters:
                raise ValueError(f"attacker is not {' or '.join(letters)}")
            claim = _field(data, "claim", str)
            if claim not in ("win", "not-lose"):
                raise ValueError("claim is not win or not-lose")
            verdict = _field(data, "verdict", str)
            if verdict not in VERDICTS:
                raise ValueError(f"verdict is not {', '.join(VERDICTS)}")
            goal = Goal(game, tuple(rules), _field(data, "position", str),
                        letters.index(attacker), claim == "not-lose")
            nodes = _field(data, "nodes", int)
            seconds = float(_field(data, "seconds", (int, float)))
            job_time = data.get("job_time")
            job_nodes = data.get("job_nodes")
            if job_time is not None and (isinstance(job_time, bool) or
                                         not isinstance(job_time, int | float) or
                                         not 0 < job_time < float("inf")):
                raise ValueError("job_time is not a number of seconds above 0")
            if job_nodes is not None and (isinstance(job_nodes, bool) or
                                          not isinstance(job_nodes, int)):
                raise ValueError("job_nodes is not a whole number")
            if nodes < 0 or not seconds >= 0:
                raise ValueError("nodes or seconds below 0")
            module = game_module(game)
            module.Board(goal.position, module.Rules.from_options(rules))
        except (KeyError, ValueError, TypeError) as error:
            raise WorkDirError(f"{where}: {error} (the results file is damaged)") from None
        record = JobRecord(goal, verdict, nodes, seconds,
                           None if job_time is None else float(job_time), job_nodes)
        if not record.settled:
            return record
        proof, digest = data.get("proof"), data.get("digest")
        if not isinstance(proof, str) or not _PROOF_NAME.fullmatch(proof):
            raise WorkDirError(f"{where}: a settled job without the name of its proof "
                               "file (the results file is damaged)")
        path = self.proofs / proof
        if not path.is_file():
            raise WorkDirError(f"{where}: its proof file {path} is missing")
        if not isinstance(digest, str) or file_digest(path) != digest:
            raise WorkDirError(f"{where}: its proof file {path} does not match the digest "
                               "written when it was made (changed or damaged since); "
                               "delete the line to run the job again")
        # the file proves what the line says: the goal, or for a disproof the opposite
        # goal of the defender ("A wins" fails when "B does not lose" holds)
        proved = record.proved()
        try:
            header = read_header(path)
        except ProofFileError as error:
            raise WorkDirError(f"{where}: {error}") from None
        if header != proved.header():
            raise WorkDirError(f"{where}: its proof file {path} proves another goal than "
                               f"the line says ({header.claim} for "
                               f"{COLOR_LETTERS[game][header.winner]} from "
                               f"{header.root[:60]!r}); delete the line to run the job "
                               "again")
        return JobRecord(goal, verdict, nodes, seconds, record.job_time, job_nodes, proof,
                         digest)


def read_results_lines(path: Path, parse: Callable[[bytes, str], T], *,
                       repair: bool = True,
                       cap: int = limits.MAX_RESULTS_LINE_BYTES) -> tuple[list[T], str | None]:
    """The lines of a results file of JSON lines (one result a line, appended as each
    is found), each read by ``parse(raw, where)`` (``where``: the file and line
    number, for its errors), streaming, no line longer than ``cap`` bytes. A last line
    of text without its newline that ``parse`` refuses was cut short by a run that stopped
    while writing it: it is dropped and, with ``repair``, cut from the file, so that
    the next result is not appended to it (a reader beside a running writer does not
    repair). A missing file has no lines.

    Returns:
        The parsed lines and a note of the dropped line (``None`` if none was).

    Raises:
        WorkDirError: for a line longer than ``cap``, or a whole line ``parse``
            refuses (its error), or a file that cannot be read.
    """
    if not path.exists():
        return [], None
    found: list[T] = []
    kept_to = 0
    cut = False
    note = None
    try:
        with open(path, "rb") as source:
            number = 0
            while raw := source.readline(cap + 1):
                number += 1
                where = f"{path}, line {number}"
                if len(raw) > cap:
                    raise WorkDirError(f"{where}: longer than {cap} bytes "
                                       "(hexgames.limits.MAX_RESULTS_LINE_BYTES)")
                torn = not raw.endswith(b"\n")  # only the last line can be
                try:
                    found.append(parse(raw, where))
                except WorkDirError:
                    if not torn or not _is_text(raw, torn=True):  # (no text: no results)
                        raise
                    note = f"{where}: a line cut short (a run that stopped while " \
                           "writing it) was dropped"
                    cut = True
                    break
                kept_to = source.tell()
                cut = torn
        if cut and repair:
            with open(path, "r+b") as out:
                out.truncate(kept_to)
                if kept_to:
                    out.seek(kept_to - 1)
                    if out.read(1) != b"\n":
                        out.write(b"\n")
    except OSError as error:
        raise WorkDirError(f"{path} cannot be read as a results file ({error})") from None
    return found, note


def _is_text(raw: bytes, *, torn: bool = False) -> bool:
    """Whether ``raw`` is UTF-8 text; for a ``torn`` line, text but perhaps for its
    last character, which the cut may have split (the lines are written with
    ``ensure_ascii=False``, so a path in a line may hold any character): its last
    bytes must begin a character. (Python's incremental decoder, not told the end has
    come, lets bytes through that begin none, such as ED A0, a surrogate's; the whole
    decoder's "unexpected end of data" is said only of a beginning cut short.)"""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return torn and error.end == len(raw) and error.reason == "unexpected end of data"
    return True


def lock_file(path: Path) -> IO[bytes]:
    """``path`` opened and locked for this run (on systems with ``fcntl``; elsewhere
    only opened).

    Raises:
        WorkDirError: when another run holds it.
    """
    handle = open(path, "ab")  # noqa: SIM115 (closed by its holder: WorkDir.close)
    try:
        import fcntl
    except ImportError:  # not POSIX: one run at a time is the user's to keep
        return handle
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise WorkDirError(f"the work directory {path.parent} is in use by another "
                           "run") from None
    return handle


def _field(data: dict[str, Any], key: str, kind: Any) -> Any:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise ValueError(f"{key} is not a {getattr(kind, '__name__', 'number')}")
    return value
