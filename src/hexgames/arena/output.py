"""Where a match's results go as it is played: records and per-game results streamed to
a directory as games finish, and a summary at the start and at the end.

A :class:`GameOutput` writes, in its directory:

- ``games.hgn``: every game's record (``.hgn``), in the order the games finished (each
  record's ``Round`` tag is its game number);
- ``results.jsonl``: one JSON object a line per game, in the same order
  (:func:`hexgames.arena.match.game_json`);
- ``summary.json``: the summary, written before the first game (so that a directory that
  cannot take it is found then, not after hours of play) and again at the end;
- ``samples.parquet``, for self-play on request (:mod:`hexgames.arena.selfplay`).

A directory that holds any of these files already, not empty (an earlier run's), is
refused before any game: the new run would have written over them. What a run stopped
before its first game leaves is the exception: its summary (``"games": 0`` and
``"interrupted": true``) and a ``samples.parquet`` of no rows are written over. A
directory that another run is writing is refused too: each output holds an exclusive
``flock`` on its directory from its start to its final summary (POSIX; where ``fcntl``
is missing or the file system takes no locks, none is taken; a directory that cannot be
opened to lock it is refused), so two runs started at once cannot both write it. Holding
the lock, an output also writes over the summary of no games that a killed run
(``kill -9``) left saying ``"interrupted": false``: no run is going there.

Nothing is held back: memory does not grow with the number of games. Nothing played is
lost to a late write error either: when a file can no longer be written (a full disk, a
removed directory), it moves to a fresh directory under the system's temporary directory,
with what had been written copied over where it can still be read, and
:attr:`GameOutput.notes` says where; if no file can be written at all, the summary's JSON
is kept in :attr:`GameOutput.printed` for the caller to print.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from hexgames.arena.errors import OutputError
from hexgames.record import write_game

try:
    import fcntl
except ImportError:  # not POSIX: no directory lock
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from hexgames.arena.match import GameResult

#: What :meth:`GameOutput._open` opens (a :class:`_Stream`, a samples writer).
_Opened = TypeVar("_Opened")

#: The file names in an output directory.
GAMES_FILE = "games.hgn"
RESULTS_FILE = "results.jsonl"
SUMMARY_FILE = "summary.json"
SAMPLES_FILE = "samples.parquet"


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


class _Stream:
    """One UTF-8 text file written a game at a time, that moves elsewhere when it fails.

    It counts the bytes of the writes that succeeded whole (``good``), so that a move
    copies exactly those: never the broken end of a write that failed half-way, nor
    more than was written (a device such as ``/dev/full`` reads as endless zeros)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.file: io.BufferedRandom | None = open(path, "w+b")  # noqa: SIM115
        self.good = 0

    @property
    def empty(self) -> bool:
        return self.good == 0

    def write(self, text: str) -> None:
        assert self.file is not None
        data = text.encode("utf-8")
        self.file.write(data)
        self.file.flush()
        self.good += len(data)

    def removed(self) -> bool:
        """Whether the file was deleted while open (its writes then reach no file)."""
        if self.file is None:
            return False
        try:
            return os.fstat(self.file.fileno()).st_nlink == 0
        except OSError:
            return True

    def move(self, folder: Path) -> None:
        """Go on in ``folder``, copying what was written so far when it can be read."""
        old, good = self.file, self.good
        self.path = folder / self.path.name
        self.file = open(self.path, "w+b")  # noqa: SIM115
        self.good = 0
        if old is None:
            return
        try:
            if stat.S_ISREG(os.fstat(old.fileno()).st_mode):
                # Unbuffered reads of the bytes known to be there, past any failed write
                # still in the old buffer.
                fd = old.fileno()
                offset = 0
                while offset < good:
                    chunk = os.pread(fd, min(1 << 20, good - offset), offset)
                    if not chunk:
                        break
                    self.file.write(chunk)
                    offset += len(chunk)
                self.file.flush()
                self.good = offset
        except OSError:
            pass
        with contextlib.suppress(OSError):
            old.close()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
            self.file = None


def _would_lose(path: Path, locked: bool) -> bool:
    """Whether writing ``path`` would lose what it holds: a file with something in it,
    but for what a run stopped before its first game leaves (a summary of no games, a
    ``samples.parquet`` of no rows). With the directory ``locked`` by this output no
    other run is going there, so a summary of no games that still says
    ``"interrupted": false`` is a killed run's (``kill -9``) and is written over too."""
    try:
        info = path.stat()
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return False
    if path.name == SUMMARY_FILE:
        return not _no_games(path, locked)
    if path.name == SAMPLES_FILE:
        return not _no_rows(path)
    return True


def _no_games(path: Path, locked: bool) -> bool:
    """Whether ``path`` is the summary of a run stopped before its first game (it may
    be written over: nothing was played). Unless ``locked``, not that of a run still
    going, which says ``"interrupted": false`` until it ends: its games would be lost."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(1 << 16)
        summary = json.loads(text)
    except (OSError, ValueError):
        return False
    if not isinstance(summary, dict) or (summary.get("interrupted") is not True
                                         and not locked):
        return False
    games = summary.get("games")
    return isinstance(games, int) and not isinstance(games, bool) and games == 0


def _no_rows(path: Path) -> bool:
    """Whether ``path`` is a Parquet file of no rows (the samples of a run stopped before
    its first game); ``False`` when it cannot be read as one."""
    try:
        import pyarrow.parquet

        return int(pyarrow.parquet.ParquetFile(path).metadata.num_rows) == 0
    except Exception:  # not pyarrow's to read (or no pyarrow): it may hold data
        return False


def _lock(directory: Path, text: str) -> int | None:
    """An exclusive ``flock`` on ``directory``, held by the returned descriptor (``None``
    where there is no ``fcntl``, or the file system takes no locks).

    Raises:
        OutputError: if another run holds the lock (it is writing there), or the
            directory cannot be opened to lock it (no read permission).
    """
    if fcntl is None:
        return None
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError as error:  # a directory that may be written but not read (-wx)
        raise OutputError(f"cannot lock the output directory {text} against other runs: "
                          f"{_reason(error)}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        if isinstance(error, BlockingIOError):
            raise OutputError(f"{text} is being written by another run: give another "
                              f"directory, or wait for that run to end") from None
        return None  # a file system without locks: go on unlocked
    return fd


def _link_problem(path: Path) -> str | None:
    """What is wrong with ``path`` as a symbolic link that cannot be followed, as the end
    of a sentence about it (``None`` for anything else): it leads nowhere, it loops, it
    goes through a file."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except FileNotFoundError:
        return f"is a symbolic link that leads nowhere (to {os.readlink(path)})"
    except OSError as error:
        return f"is a symbolic link to {os.readlink(path)}: {_reason(error)}"
    return None


def _check_directory(directory: Path, text: str) -> None:
    """Refuse an output directory that is something else: a file, a device, a
    symbolic link that leads nowhere.

    Raises:
        OutputError: naming what ``text`` is.
    """
    try:
        if directory.exists() and not directory.is_dir():
            raise OutputError(f"{text} is a file, not a directory" if directory.is_file()
                              else f"{text} is not a directory")  # a device, a FIFO...
        problem = _link_problem(directory)  # a loop, a link to a file's "sub-directory"
        if problem:
            raise OutputError(f"{text} {problem}")
    except OSError as error:  # a parent that cannot be searched, a name too long
        raise OutputError(f"cannot reach the output directory {text}: "
                          f"{_reason(error)}") from None


def _make_directories(directory: Path, text: str) -> list[Path]:
    """Make ``directory`` and its missing parents; the ones made, outermost first.

    Raises:
        OutputError: if one cannot be made (those made before it are removed).
    """
    missing: list[Path] = []
    path = directory
    while not os.path.lexists(path) and path != path.parent:
        missing.append(path)
        path = path.parent
    made: list[Path] = []
    try:
        for path in reversed(missing):
            try:
                path.mkdir()
            except FileExistsError:
                if not path.is_dir():  # new/.. of new/../out exists once new is made
                    raise
                continue
            made.append(path)
        directory.mkdir(exist_ok=True)
    except OSError as error:
        for path in reversed(made):
            with contextlib.suppress(OSError):
                path.rmdir()
        # mkdir says "File exists" or "No such file or directory" through a bad link.
        links = [f"{p} {problem}" for p in reversed((directory, *directory.parents))
                 if (problem := _link_problem(p))]
        reason = links[0] if links else _reason(error)
        raise OutputError(f"cannot create the output directory {text}: {reason}") from None
    return made


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class GameOutput:
    """Streams a match's games to ``directory`` (see the module).

    Args:
        directory: the output directory; created if needed.
        samples: also write self-play training samples (``samples.parquet``, needs
            ``pyarrow``: the ``selfplay`` extra).

    Raises:
        OutputError: if the path is no directory (a file, a device, a symbolic link
            that leads nowhere) or cannot be reached or created, holds a run's files
            already (a file of the names above, not empty, but for what a run stopped
            before its first game leaves: they would be lost), another run is writing
            it (its lock), it cannot be opened to lock it, its ``summary.json`` is a
            directory or a ``summary.json.partial`` is in the way, a file in it cannot
            be opened for writing, or ``samples`` is asked for without ``pyarrow``.
            Whatever the output made before the refusal (files, directories) is
            removed; nothing that was there before is touched.
    """

    def __init__(self, directory: str | Path, *, samples: bool = False) -> None:
        text = str(directory)
        if not text.strip():  # Path("") is the current directory
            raise OutputError("an output directory needs a name, not an empty one")
        self.directory = Path(directory)
        _check_directory(self.directory, text)
        #: The directories this output made, outermost first (removed if it stops
        #: before it began, when left empty).
        self._made = _make_directories(self.directory, text)
        #: The files this output made (not there before it): only these may go.
        self._created: set[Path] = set()
        self.notes: list[str] = []
        self.printed: str | None = None
        self._fallback: Path | None = None
        self._streams: dict[str, _Stream] = {}
        self.samples: Any = None
        self._lock: int | None = None
        #: Whether :meth:`begin` was called (the run began).
        self.begun = False
        self.summary_path: Path | None = self.directory / SUMMARY_FILE
        try:
            self._lock = _lock(self.directory, text)
            self._check_files(text)
            for name in (GAMES_FILE, RESULTS_FILE):
                self._streams[name] = self._open(name, text, _Stream)
            if samples:
                from hexgames.arena.samples import SampleWriter

                self.samples = self._open(SAMPLES_FILE, text, SampleWriter)
        except BaseException:
            self.discard()  # what it made so far goes, still empty
            raise

    def _open(self, name: str, text: str, opener: Callable[[Path], _Opened]) -> _Opened:
        """``opener`` of the file ``name``, noted in :attr:`_created` when it was not
        there before (only such files may go).

        Raises:
            OutputError: naming the file as under ``text``, if it cannot be opened.
        """
        path = self.directory / name
        new = not os.path.lexists(path)
        try:
            opened = opener(path)
        except OSError as error:
            raise OutputError(f"cannot write {os.path.join(text, name)}: "
                              f"{_reason(error)}") from None
        if new:
            self._created.add(path)
        return opened

    def _check_files(self, text: str) -> None:
        """Refuse a directory whose files a run would lose, or whose summary cannot be
        written (found now, not when :meth:`begin` writes it after a progress line)."""
        held = [name for name in (GAMES_FILE, RESULTS_FILE, SUMMARY_FILE, SAMPLES_FILE)
                if _would_lose(self.directory / name, self._lock is not None)]
        if held:
            them = "it" if len(held) == 1 else "them"
            raise OutputError(f"{text} already holds a run's {_listed(held)}: give another "
                              f"directory, or move {them} away first")
        assert self.summary_path is not None
        if self.summary_path.is_dir():
            raise OutputError(f"{os.path.join(text, SUMMARY_FILE)} is a directory")
        partial = _partial(self.summary_path)
        if os.path.lexists(partial):
            # Written first and then renamed: through a symbolic link it would write
            # over a file elsewhere, and a file of that name may be the user's.
            raise OutputError(f"cannot write {os.path.join(text, SUMMARY_FILE)}: "
                              f"{os.path.join(text, partial.name)} is in the way "
                              "(the summary is written there first): move it away")
        for name in (GAMES_FILE, RESULTS_FILE, SAMPLES_FILE):
            # Opened through the link, it would make a file outside the directory.
            problem = _link_problem(self.directory / name)
            if problem:
                raise OutputError(f"cannot write {os.path.join(text, name)}: it {problem}")
        try:  # the summary is written there later: a directory that takes no new file
            with open(partial, "x", encoding="utf-8"):
                pass
            partial.unlink()
        except OSError as error:
            raise OutputError(f"cannot write {os.path.join(text, SUMMARY_FILE)}: "
                              f"{_reason(error)}") from None

    @property
    def paths(self) -> dict[str, Path | None]:
        """Where each file is now: file name -> path (``None`` for a summary that no
        file could take)."""
        paths: dict[str, Path | None] = {name: s.path for name, s in self._streams.items()}
        if self.samples is not None:
            paths[SAMPLES_FILE] = self.samples.path
        paths[SUMMARY_FILE] = self.summary_path
        return paths

    def begin(self, summary: dict[str, Any]) -> None:
        """Write the summary of the match about to start.

        Raises:
            OutputError: if ``summary.json`` cannot be written; the files this output
            made, still empty, are removed (see :meth:`discard`).
        """
        self.begun = True
        path = self.directory / SUMMARY_FILE
        try:
            _write_json(path, summary)
        except OSError as error:
            self.discard()
            raise OutputError(f"cannot write {path}: {_reason(error)}") from None

    def discard(self) -> None:
        """For a run stopped before it began (:meth:`begin`): close the files and remove
        those still empty, and the directory if this output made it and it is left
        empty, so that the stop leaves no directory without a summary."""
        self.close()
        paths = [stream.path for stream in self._streams.values()]
        if self.samples is not None:
            with contextlib.suppress(OSError):
                self.samples.close()
            if self.samples.rows == 0 and self.samples.path in self._created:
                with contextlib.suppress(OSError):  # a Parquet file of no rows is not empty
                    self.samples.path.unlink()
        for path in paths:
            with contextlib.suppress(OSError):
                if path in self._created and path.stat().st_size == 0:
                    path.unlink()
        for made in reversed(self._made):
            with contextlib.suppress(OSError):
                made.rmdir()  # only when empty
        self._unlock()  # last: no other run takes the directory while it goes

    def add(self, result: GameResult) -> None:
        """Write a finished game (its record, its results line, its samples)."""
        from hexgames.arena.match import game_json

        record = write_game(result.record)
        self._write(GAMES_FILE, record if self._streams[GAMES_FILE].empty else "\n" + record)
        self._write(RESULTS_FILE, json.dumps(game_json(result), allow_nan=False) + "\n")
        if self.samples is not None and result.samples is not None:
            try:
                self.samples.add(result)
            except OSError as error:
                folder = self._elsewhere(str(self.samples.path), error)
                try:
                    if folder is None:
                        raise error
                    self.samples.move(folder)
                    self.samples.flush()
                except OSError:
                    self.notes.append("the self-play samples from then on are lost")
                    self.samples = None

    def finish(self, summary: dict[str, Any]) -> None:
        """Write the final summary and close the files; never raises for a write error
        (see the module): :attr:`notes` says where things went instead. The directory's
        lock is released last."""
        try:
            self._finish(summary)
        finally:
            self._unlock()

    def _finish(self, summary: dict[str, Any]) -> None:
        for name, stream in self._streams.items():
            if stream.removed():
                self._move(name, OSError(0, f"{stream.path} was removed while it was "
                                            f"being written"))
        if self.samples is not None:
            try:
                rescue = None
                if self.samples.removed():
                    rescue = self._elsewhere(str(self.samples.path), OSError(
                        0, f"{self.samples.path} was removed while it was being written"))
                self.samples.close(rescue)
            except OSError as error:
                self.notes.append(f"cannot finish {self.samples.path}: {_reason(error)}; "
                                  f"its samples are lost")
        self.close()
        path = self.directory / SUMMARY_FILE
        try:
            _write_json(path, summary)
            self.summary_path = path
            return
        except OSError as error:
            folder = self._elsewhere(SUMMARY_FILE, error)
        if folder is not None:
            try:
                _write_json(folder / SUMMARY_FILE, summary)
                self.summary_path = folder / SUMMARY_FILE
                return
            except OSError as error:
                self.notes.append(f"cannot write {folder / SUMMARY_FILE} either: "
                                  f"{_reason(error)}")
        self.summary_path = None
        self.printed = json.dumps(summary, indent=2)
        self.notes.append("the summary could not be written to any file")

    def __del__(self) -> None:
        # An output dropped without finish() or discard() (library use) lets go of its
        # directory when it is collected, not only when the process ends.
        if getattr(self, "_lock", None) is not None:
            self._unlock()

    def _unlock(self) -> None:
        """Release the directory's lock (once; later calls do nothing)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock)
            self._lock = None

    def close(self) -> None:
        """Close the streamed files (:meth:`finish` does)."""
        for stream in self._streams.values():
            try:
                stream.close()
            except OSError as error:
                self.notes.append(f"cannot finish {stream.path}: {_reason(error)}")

    def _write(self, name: str, text: str) -> None:
        stream = self._streams[name]
        if stream.file is None:
            return
        try:
            stream.write(text)
        except OSError as error:
            if self._move(name, error):
                stream.write(text)

    def _move(self, name: str, error: OSError) -> bool:
        stream = self._streams[name]
        folder = self._elsewhere(str(stream.path), error)
        if folder is None:
            stream.file = None
            return False
        try:
            stream.move(folder)
        except OSError as again:
            self.notes.append(f"cannot write {folder / name} either: {_reason(again)}; "
                              f"the rest of {name} is lost")
            stream.file = None
            return False
        return True

    def _elsewhere(self, what: str, error: OSError) -> Path | None:
        """The fallback directory (made on first need), with a note of the failure."""
        if self._fallback is None:
            try:
                self._fallback = Path(tempfile.mkdtemp(prefix="hexgames-output-"))
            except OSError as again:
                self.notes.append(f"cannot write {what} ({_reason(error)}), nor make a "
                                  f"directory for it elsewhere ({_reason(again)})")
                return None
        self.notes.append(f"cannot write {what} ({_reason(error)}): written to "
                          f"{self._fallback} instead")
        return self._fallback


def _partial(path: Path) -> Path:
    """Where :func:`_write_json` writes ``path``'s new text before it renames it."""
    return path.with_name(path.name + ".partial")


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file, then renamed)."""
    temporary = _partial(path)
    try:
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(json.dumps(data, indent=2, allow_nan=False) + "\n")
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise
