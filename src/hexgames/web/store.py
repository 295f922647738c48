"""The browser app's games in SQLite (the standard library's ``sqlite3``).

One row per game: its id, game name, rules options, starting position (for an imported
set-up position), the two player specs, the moves in notation, result, termination and
the creation and update times; its study record (the ``.hgn`` text of its tags, comments,
NAGs and variations, whose main line is the moves) and the names of its players. A board
is rebuilt by replaying the moves.

Every write is committed before the call returns, in WAL mode with ``synchronous=FULL``,
so a move the server acknowledged survives even ``kill -9``. The store is safe to use from
several threads.

Reads and writes use two connections (each behind its own lock), so that reads never
wait for writes: in WAL mode a reader sees the last committed state even while another
program holds the write lock, and a write waits at most
:data:`hexgames.limits.STORE_BUSY_TIMEOUT` for that lock before it fails with
:class:`StoreBusyError`.

Rows are read one by one: a row whose columns this version cannot read (not JSON, not
the right kind of value) comes back as a :class:`StoredGame` with ``error`` saying
which column and why, so one bad row hides no other game and can still be deleted.

The schema's version is kept in ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`) and
checked when the store opens: an older database is brought up to date (version 0, the
unversioned file of hexgames 0.1, is version 1's table), a newer one is refused with a
:class:`StoreError` that says so (this version might misread it).
"""

from __future__ import annotations

import datetime
import json
import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexgames import limits
from hexgames.web.chat import CHAT_TABLES, ChatTables
from hexgames.web.explorer_tables import EXPLORER_TABLES, ExplorerTables
from hexgames.web.mail_tables import MAIL_TABLES, MailTables
from hexgames.web.tables import (
    RESULTS_TABLES,
    RUNNING,
    SEATED,
    TABLES,
    AccountTables,
    CapError,
)
from hexgames.web.tournament_tables import TOURNAMENT_TABLES, TournamentTables

#: The schema this version writes: 1 is the ``games`` table, 2 adds the index that
#: lists games by update time, 3 the server mode's seats, clocks, rated flag and
#: offers of a game, and the tables of :mod:`hexgames.web.tables` (accounts, sessions,
#: challenges, ratings), 4 a game's study record and player names, 5 the rated results
#: (:mod:`hexgames.web.tables`) and an index of the games by result, 6 the games' chat
#: (:mod:`hexgames.web.chat`), 7 the tournaments (:mod:`hexgames.web.tournament_tables`),
#: 8 the e-mail notifications and vacations (:mod:`hexgames.web.mail_tables`), 9 the
#: opening explorer's index (:mod:`hexgames.web.explorer_tables`).
SCHEMA_VERSION = 9

_TABLE = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    position TEXT,
    players TEXT NOT NULL,
    moves TEXT NOT NULL,
    result TEXT NOT NULL,
    termination TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
)
"""
#: The statements that bring a database of version ``n - 1`` to version ``n``.
_MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (_TABLE,),
    2: ("CREATE INDEX IF NOT EXISTS games_by_update ON games (updated, created)",),
    3: ("ALTER TABLE games ADD COLUMN seats TEXT",
        "ALTER TABLE games ADD COLUMN clock TEXT",
        "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN extra TEXT",
        *TABLES),
    4: ("ALTER TABLE games ADD COLUMN record TEXT",
        "ALTER TABLE games ADD COLUMN player_names TEXT"),
    5: RESULTS_TABLES,
    6: CHAT_TABLES,
    7: TOURNAMENT_TABLES,
    8: MAIL_TABLES,
    9: EXPLORER_TABLES,
}
#: The columns every version since 1 has (a table without them is no games table).
_BASE_COLUMNS = ("id", "game", "rules", "position", "players", "moves", "result",
                 "termination", "created", "updated")
_V3_COLUMNS = (*_BASE_COLUMNS, "seats", "clock", "rated", "extra")
_COLUMN_NAMES = (*_V3_COLUMNS, "record", "player_names")
_COLUMNS = ", ".join(_COLUMN_NAMES)
#: The columns for a list of summaries: no study record and no whole-game analysis,
#: which may be megabytes a game and which no summary shows (issue 32: a page of the
#: games list read them all).
#: A column that cannot be read still is (so that the summary says so): only text is
#: left out (SQLite's typeof reads no more than the row's header).
_SUMMARY_COLUMNS = ", ".join(
    "CASE WHEN typeof(record) = 'text' THEN NULL ELSE record END" if name == "record"
    else ("CASE WHEN typeof(extra) = 'text' AND json_valid(extra) "
          "THEN json_remove(extra, '$.analysis') ELSE extra END") if name == "extra"
    else name for name in _COLUMN_NAMES)
_ORDER = "ORDER BY updated DESC, created DESC, rowid DESC"
#: The results a row may hold (docs/notation.md, "Results and terminations").
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class StoreError(Exception):
    """The database cannot be opened or written (a bad path, a full disk, a file that is
    not a hexgames database, one of a newer schema)."""


class ChallengeGoneError(ValueError):
    """A challenge taken or cancelled before the game it was to make was stored."""


class HelpBarredError(ValueError):
    """An account that must not be barred from engine help (a game against the
    computer for it is being stored) sits in a running game that bars it: ``kind`` is
    that game's kind (``"a rated game"``, ``"a game between two people"``)."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"barred from engine help by {kind}")
        self.kind = kind


class StoreBusyError(StoreError):
    """A write waited :data:`hexgames.limits.STORE_BUSY_TIMEOUT` seconds for another
    program's write lock on the database, in vain; nothing was written."""


def now() -> str:
    """The current UTC time as ISO-8601 text with seconds, e.g.
    ``2026-11-29T14:47:10+00:00``."""
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


@dataclass
class StoredGame:
    """One stored game.

    Attributes:
        id: a 12-character hex id.
        game: the lower-case game name (``andantino``, ``abande``).
        rules: the rules options that differ from the defaults, as ``key=value`` words.
        position: the starting position string, or ``None`` for the standard start.
        players: two player specs, first player first: ``"human"`` or a spec of
            :mod:`hexgames.engine.players`.
        moves: the moves played, in notation.
        result: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``.
        termination: the record's ``Termination`` word, or ``None`` while unfinished.
        created, updated: ISO-8601 UTC times.
        seats: ``None`` for a game of the local mode; in server mode the account id
            in each seat, first player first (``None``: an AI's seat or an open one).
        clock: ``None`` for an untimed game, else the clock's state as
            :meth:`hexgames.web.clock.GameClock.to_json` writes it (readings included),
            saved with every move.
        rated: whether the result changes the players' ratings.
        extra: the game's other server-mode state: ``{"offer": {"kind": "draw" |
            "takeback", "side": 0|1, "ply": n}}`` while an offer stands, ``"creator"``
            (an account id), ``"draw": true`` for a draw by agreement; in both modes
            ``"seed"`` (the seed of the AI's varied play), ``"imported": true`` for an
            imported game, ``"analysis"`` (the whole-game analysis, see
            :mod:`hexgames.web.study`).
        record: the game's study record as ``.hgn`` text: its tags, comments, NAGs and
            variations, the main line being ``moves`` (``None``: a game stored before
            study records, whose record is made from its moves).
        player_names: the names in the record's player tags, first player first
            (``None`` for such an older game).
        error: ``None``, or why this version cannot read the stored row (the columns
            it could not read then hold empty values).
    """

    id: str
    game: str
    rules: list[str]
    position: str | None
    players: list[str]
    moves: list[str] = field(default_factory=list)
    result: str = "*"
    termination: str | None = None
    created: str = ""
    updated: str = ""
    seats: list[int | None] | None = None
    clock: dict[str, Any] | None = None
    rated: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    record: str | None = None
    player_names: list[str] | None = None
    error: str | None = None


class GameStore(TournamentTables, AccountTables, ChatTables, MailTables, ExplorerTables):
    """The games of one SQLite file, created when missing (with the accounts, sessions,
    challenges and ratings of the server mode: :class:`~hexgames.web.tables.AccountTables`).

    With ``read_only`` the file is only read (SQLite's ``mode=ro``: ``hexgames user
    list``): it must exist and be a games database of this version's schema, and
    every write fails. A read-only file, or one in a directory that may not be
    written, can be read so.

    Raises:
        StoreError: from the constructor when the file cannot be opened (or, unless
            ``read_only``, written: :func:`unwritable_problem`), is not a games database
            or is of a newer schema (with ``read_only``, of another schema); from every
            method when SQLite fails (:class:`StoreBusyError` when another program holds
            the write lock).
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()
        if read_only:
            self._open_read_only()
            return
        memory = str(path) == ":memory:"
        problem = None if memory else unwritable_problem(self.path)
        if problem is not None:
            raise StoreError(problem)
        try:
            if not memory:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit: each statement is its own committed transaction.
            self._db = sqlite3.connect(str(path), check_same_thread=False,
                                       isolation_level=None,
                                       timeout=limits.STORE_BUSY_TIMEOUT)
            self._check_tables()  # before WAL mode, which another program's file keeps
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._migrate()
            if memory:  # another connection would be another database
                self._reader = self._db
                self._read_lock = self._write_lock
            else:
                self._reader = sqlite3.connect(str(path), check_same_thread=False,
                                               isolation_level=None,
                                               timeout=limits.STORE_BUSY_TIMEOUT)
                self._reader.execute("PRAGMA query_only=1")
        except StoreError:  # not ours, or of a newer schema: let go of the file at once
            self._db.close()
            raise
        except (sqlite3.Error, OSError) as error:
            raise self._open_error(error) from None

    def _open_read_only(self) -> None:
        """Open the existing file read-only (the constructor's ``read_only``): one
        connection, SQLite's ``mode=ro``; the schema must be this version's."""
        problem = _unreadable_problem(self.path)
        if problem is not None:
            raise StoreError(problem)
        try:
            self._db = self._reader = _connect_read_only(self.path)
        except (sqlite3.Error, OSError) as error:
            raise self._open_error(error) from None
        self._read_lock = self._write_lock
        try:
            if not self._check_tables():
                raise StoreError(f"{str(self.path)!r} is not a hexgames games database "
                                 "(the file is empty)")
            version = self._check_version()
            if version < SCHEMA_VERSION:
                raise StoreError(
                    f"the games database {str(self.path)!r} is of an older hexgames "
                    f"(schema version {version}) and cannot be read without writing: "
                    f"opened for writing (hexgames serve) it is brought up to version "
                    f"{SCHEMA_VERSION}")
            self._check_columns()
        except BaseException as error:
            self._db.close()
            if isinstance(error, sqlite3.Error):
                raise self._open_error(error) from None
            raise

    def _open_error(self, error: sqlite3.Error | OSError) -> StoreError:
        """The error of a database that cannot be opened (a file that is not SQLite's
        said to be no games database)."""
        if getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_NOTADB:
            return StoreError(f"{str(self.path)!r} is not a hexgames games database (it "
                              "is not an SQLite file)")
        return StoreError(f"cannot open the games database {str(self.path)!r}: "
                          f"{_describe(error)}")

    def _check_tables(self) -> bool:
        """Whether the file has tables (``False``: an empty database, to be made one of
        ours), refused when it has some but no ``games`` table: another program's
        database, which must not be given ours (hexgames 0.1's unversioned file has a
        games table)."""
        tables = {row[0] for row in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' "
            "AND name NOT LIKE 'sqlite~_%' ESCAPE '~'")}
        if tables and "games" not in tables:
            raise StoreError(f"{str(self.path)!r} is not a hexgames games database (it "
                             "has no games table)")
        return bool(tables)

    def _check_version(self) -> int:
        """The schema's version, refused when it is newer than this version's."""
        version = self._version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the games database {str(self.path)!r} was written by a newer hexgames "
                f"(schema version {version}; this version reads up to {SCHEMA_VERSION}): "
                "use that version, or another --db")
        return version

    def _migrate(self) -> None:
        """Check the schema's version and bring an older one up to date (in one
        transaction, taken only when there is something to do)."""
        version = self._check_version()
        self._check_columns()
        if version < SCHEMA_VERSION:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                version = self._version()  # another server may have done it meanwhile
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    for statement in _MIGRATIONS[step]:
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            self._check_columns()

    def _check_columns(self) -> None:
        """Refuse a ``games`` table (if there is one) without the columns of ours."""
        found = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        version = self._version()
        wanted = _COLUMN_NAMES if version >= 4 else _V3_COLUMNS if version >= 3 \
            else _BASE_COLUMNS
        missing = [name for name in wanted if name not in found]
        if found and missing:
            raise StoreError(f"{str(self.path)!r} is not a hexgames games database (its "
                             f"games table has no column {', '.join(missing)})")

    def _version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Close the connections; later calls fail with :class:`StoreError`."""
        with self._write_lock:
            self._db.close()
        with self._read_lock:
            self._reader.close()

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with self._read_lock:
            try:
                return self._reader.execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise self._error(error) from None

    def _error(self, error: sqlite3.Error) -> StoreError:
        text = str(error).lower()
        if isinstance(error, sqlite3.OperationalError) and ("locked" in text
                                                             or "busy" in text):
            return StoreBusyError(
                f"the games database {str(self.path)!r} is locked by another program "
                f"(waited {limits.STORE_BUSY_TIMEOUT:g} s): nothing was saved, try again")
        return StoreError(f"games database {str(self.path)!r}: {_describe(error)}")

    def create(self, game: str, rules: list[str], players: list[str], *,
               position: str | None = None, moves: list[str] | None = None,
               result: str = "*", termination: str | None = None,
               seats: list[int | None] | None = None, clock: dict[str, Any] | None = None,
               rated: bool = False, extra: dict[str, Any] | None = None,
               record: str | None = None,
               player_names: list[str] | None = None,
               challenge: str | None = None, capped: bool = False,
               unbarred: int | None = None) -> StoredGame:
        """Store a new game and return it with its new id and times.

        With ``challenge`` (an id) that challenge is taken in the same transaction:
        the game is made only if the challenge was still there. With ``capped`` each
        account seated must sit in fewer than
        :data:`hexgames.limits.MAX_RUNNING_GAMES_PER_USER` running games (imports
        apart) first, checked in the same transaction. With ``unbarred`` (an account:
        the player of a game against the computer) that account must sit in no
        running game that bars it from engine help (:meth:`games_without_help`),
        checked in the same transaction too: a barring game stored meanwhile is seen.

        Raises:
            ChallengeGoneError: when the challenge was taken or cancelled meanwhile.
            CapError: when an account sits in its most running games.
            HelpBarredError: when ``unbarred`` is barred from engine help.
        """
        stamp = now()
        stored = StoredGame(secrets.token_hex(6), game, list(rules), position,
                            list(players), list(moves or []), result, termination,
                            stamp, stamp, seats=None if seats is None else list(seats),
                            clock=clock, rated=rated, extra=dict(extra or {}),
                            record=record,
                            player_names=None if player_names is None else list(player_names))
        with self._transaction():
            if challenge is not None:
                taken = self._db.execute("DELETE FROM challenges WHERE id = ?", (challenge,))
                if taken.rowcount != 1:
                    raise ChallengeGoneError("that challenge was taken or cancelled "
                                             "meanwhile")
            if capped:
                for account in sorted({seat for seat in seats or () if seat is not None}):
                    running = self._running_games(account)
                    if running >= limits.MAX_RUNNING_GAMES_PER_USER:
                        raise CapError(
                            f"{{name}} in {running} running games already: at most "
                            f"{limits.MAX_RUNNING_GAMES_PER_USER} at once (finish or "
                            "resign one first)", account)
            if unbarred is not None:
                barring = self._games_without_help_now(unbarred)
                if barring:
                    raise HelpBarredError(barring[0][1])
            self._db.execute(_INSERT, _row(stored))
        return stored

    def _running_games(self, user_id: int, besides: str = "") -> int:
        """The running games with the account in a seat, imports and the game
        ``besides`` apart (in the caller's transaction)."""
        (count,) = self._db.execute(
            "SELECT COUNT(*) FROM games WHERE result = '*' AND seats IS NOT NULL AND "
            "coalesce(json_extract(extra, '$.imported'), 0) = 0 AND id != ? AND EXISTS "
            "(SELECT 1 FROM json_each(games.seats) WHERE json_each.value = ?)",
            (besides, user_id)).fetchone()
        return int(count)

    def create_many(self, games: list[StoredGame]) -> list[StoredGame]:
        """Store new games (their ``id``, ``created`` and ``updated`` are set here) in one
        transaction: all of them or, if SQLite fails, none."""
        stamp = now()
        for stored in games:
            stored.id = secrets.token_hex(6)
            stored.created = stored.updated = stamp
        with self._transaction():
            self._db.executemany(_INSERT, [_row(stored) for stored in games])
        return games

    def get(self, game_id: str, *, whole: bool = True) -> StoredGame | None:
        """The game with this id (with ``error`` set if its row cannot be read), or
        ``None``; with ``whole`` false without its study record (``record`` is
        ``None``) and whole-game analysis: enough for its summary."""
        columns = _COLUMNS if whole else _SUMMARY_COLUMNS
        rows = self._read(f"SELECT {columns} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    def games(self, limit: int | None = None, offset: int = 0, *,
              whole: bool = True) -> list[StoredGame]:
        """The games, the most recently updated first: ``limit`` of them (all when
        ``None``) from the ``offset``-th on. A row that cannot be read is among them,
        with ``error`` set. With ``whole`` false, as :meth:`get` says."""
        columns = _COLUMNS if whole else _SUMMARY_COLUMNS
        sql = f"SELECT {columns} FROM games {_ORDER}"
        args: tuple[object, ...] = ()
        if limit is not None or offset:
            sql += " LIMIT ? OFFSET ?"
            args = (-1 if limit is None else limit, offset)
        return [_game(row) for row in self._read(sql, args)]

    def games_of(self, user_id: int, *, running: bool | None = None,
                 limit: int = 200) -> list[StoredGame]:
        """The games with ``user_id`` in a seat, as :meth:`AccountTables.game_ids_of
        <hexgames.web.tables.AccountTables.game_ids_of>` orders and filters them, read
        in one query as :meth:`get` with ``whole`` false reads one (enough for their
        summaries)."""
        sql = (f"SELECT {_SUMMARY_COLUMNS} FROM games WHERE {SEATED}"
               f"{RUNNING.get(running, '')} {_ORDER} LIMIT ?")
        return [_game(row) for row in self._read(sql, (user_id, limit))]

    def count(self) -> int:
        """How many games are stored."""
        (count,) = self._read("SELECT COUNT(*) FROM games")[0]
        return count if isinstance(count, int) else 0

    def save(self, stored: StoredGame, *, capped: bool = False) -> None:
        """Commit the game's moves, result, termination, clock (with its readings),
        seats, offers, study record and player names in one statement (``updated`` is
        set now). With ``capped`` (a finished game that runs again, after a take-back)
        each account seated must sit in fewer than
        :data:`hexgames.limits.MAX_RUNNING_GAMES_PER_USER` other running games, checked
        in the same transaction.

        Raises:
            StoreError: also when the game is no longer stored.
            CapError: when an account sits in its most running games.
        """
        stored.updated = now()
        with self._transaction():
            if capped:
                for account in sorted({s for s in stored.seats or () if s is not None}):
                    running = self._running_games(account, besides=stored.id)
                    if running >= limits.MAX_RUNNING_GAMES_PER_USER:
                        raise CapError(
                            f"{{name}} in {running} running games already: at most "
                            f"{limits.MAX_RUNNING_GAMES_PER_USER} at once (finish or "
                            "resign one before this one runs again)", account)
            cursor = self._db.execute(
                "UPDATE games SET moves = ?, result = ?, termination = ?, updated = ?, "
                "seats = ?, clock = ?, rated = ?, extra = ?, record = ?, "
                "player_names = ? WHERE id = ?",
                (json.dumps(stored.moves), stored.result, stored.termination,
                 stored.updated, _json_or_null(stored.seats),
                 _json_or_null(stored.clock), int(stored.rated),
                 _json_or_null(stored.extra or None), stored.record,
                 _json_or_null(stored.player_names), stored.id))
            if cursor.rowcount != 1:
                raise StoreError(f"game {stored.id} is not stored any more")

def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__


def unwritable_problem(path: Path) -> str | None:
    """Why the games database ``path`` cannot be opened for writing, or ``None`` when
    nothing stands in the way that can be seen before trying: an existing path that is
    no regular file (:func:`_no_file_problem`) or a file that may not be written, or a
    directory that may not be written where SQLite has to
    make the database's ``-wal`` and ``-shm`` files beside it; for a file to be made, the
    nearest existing folder above it (missing folders are made) being a file or a
    directory that may not be written. ``os.access`` answers for the permissions (and
    a read-only file system), so root may write where the mode bits say no."""
    try:
        if path.exists():
            problem = _no_file_problem(path)
            if problem is not None:
                return problem
            if not os.access(path, os.R_OK | os.W_OK):
                return (f"cannot write the games database {str(path)!r}: the file may not "
                        "be written")
            real = Path(os.path.realpath(path))  # SQLite follows a symbolic link
            folder = real.parent
            wal = real.with_name(real.name + "-wal")
            if not wal.exists() and not os.access(folder, os.W_OK | os.X_OK):
                return (f"cannot write the games database {str(path)!r}: its directory "
                        f"{str(folder)!r} may not be written (SQLite keeps the -wal and "
                        "-shm files of a database beside it)")
            return None
        if path.is_symlink():  # to nothing: SQLite makes the target, but no folder
            return _dangling_link_problem(path)
        folder = path.parent
        while not folder.exists() and folder != folder.parent:
            if folder.is_symlink():  # a folder to be made where a link points nowhere
                why = ("a symbolic link in a loop of them" if _in_a_loop(folder)
                       else "a symbolic link to nothing")
                return (f"cannot create the games database {str(path)!r}: "
                        f"{str(folder)!r} is {why}")
            folder = folder.parent
        if not folder.is_dir():
            return (f"cannot create the games database {str(path)!r}: {str(folder)!r} is "
                    "not a directory")
        if not os.access(folder, os.W_OK | os.X_OK):
            return (f"cannot create the games database {str(path)!r}: the directory "
                    f"{str(folder)!r} may not be written")
    except OSError:  # a name too long even to look up: opening the file says why
        return None
    return None


def _in_a_loop(link: Path) -> bool:
    """Whether the symbolic link ``link`` is in a loop of them: ``realpath`` stops at a
    link it meets again."""
    return Path(os.path.realpath(link)).is_symlink()


def _dangling_link_problem(path: Path) -> str | None:
    """Why the games database ``path``, a symbolic link to nothing, cannot be made, or
    ``None`` when its target can: a loop of links, or a target whose folder is missing
    or may not be written."""
    target = Path(os.path.realpath(path))
    if _in_a_loop(path):
        return (f"cannot open the games database {str(path)!r}: it is a symbolic link in "
                "a loop of them")
    folder = target.parent
    if not folder.is_dir():
        return (f"cannot create the games database {str(path)!r}: it is a symbolic link "
                f"to {str(target)!r}, whose folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"cannot create the games database {str(path)!r}: it is a symbolic link "
                f"to {str(target)!r}, in the directory {str(folder)!r} that may not be "
                "written")
    return None


def _unreadable_problem(path: Path) -> str | None:
    """Why the games database ``path`` cannot be read, or ``None`` when nothing that can
    be seen before trying stands in the way: no regular file (:func:`_no_file_problem`),
    a file that may not be read (``os.access``, so root may read where the mode bits
    say no)."""
    try:
        if not path.exists():
            return None
        problem = _no_file_problem(path)
        if problem is None and not os.access(path, os.R_OK):
            problem = (f"cannot read the games database {str(path)!r}: the file may not "
                       "be read")
        return problem
    except OSError:  # a name that cannot be looked up: opening the file says why
        return None


def _no_file_problem(path: Path) -> str | None:
    """For the existing ``path`` (a symbolic link followed), why it is no regular file
    and so no database: a directory, or a FIFO (whose opening for reading would wait
    for ever for a writer), a device or a socket; ``None`` for a regular file.

    Raises:
        OSError: if it cannot be looked up.
    """
    if path.is_dir():
        return f"cannot open the games database {str(path)!r}: it is a directory"
    if not path.is_file():
        return f"cannot open the games database {str(path)!r}: it is not a regular file"
    return None


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection to the existing file ``path`` that cannot write it (SQLite's
    ``mode=ro``; it never makes a file), its first read done.

    A WAL database is read with its ``-shm`` file, which SQLite makes when it is
    missing; in a directory that may not be written it cannot
    (``SQLITE_READONLY_DIRECTORY``). Then, if there is no ``-wal`` file either, the
    file is read as immutable (``immutable=1``, no locks): no program can be writing
    it, since a writer needs those files and cannot make them there, and every
    committed write is in the main file (SQLite removes the ``-wal`` file only once it
    is checkpointed). A read-only connection leaves the ``-wal`` and ``-shm`` files it
    made (it may not checkpoint); the next program that writes the database removes
    them when it closes it."""
    uri = path.absolute().as_uri()
    try:
        return _first_read(sqlite3.connect(f"{uri}?mode=ro", uri=True,
                                           check_same_thread=False, isolation_level=None,
                                           timeout=limits.STORE_BUSY_TIMEOUT))
    except sqlite3.OperationalError as error:
        wal = path.with_name(path.name + "-wal")
        if error.sqlite_errorcode != sqlite3.SQLITE_READONLY_DIRECTORY or wal.exists():
            raise
    return _first_read(sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True,
                                       check_same_thread=False, isolation_level=None))


def _first_read(db: sqlite3.Connection) -> sqlite3.Connection:
    """``db`` once it has read the schema (where a file that cannot be read fails),
    closed if that fails."""
    try:
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        db.close()
        raise
    return db


_INSERT = (f"INSERT INTO games ({_COLUMNS}) "
           f"VALUES ({', '.join('?' * len(_COLUMN_NAMES))})")


def _json_or_null(value: object) -> str | None:
    return None if value is None else json.dumps(value)


def _row(stored: StoredGame) -> tuple[object, ...]:
    return (stored.id, stored.game, json.dumps(stored.rules), stored.position,
            json.dumps(stored.players), json.dumps(stored.moves), stored.result,
            stored.termination, stored.created, stored.updated,
            _json_or_null(stored.seats), _json_or_null(stored.clock), int(stored.rated),
            _json_or_null(stored.extra or None), stored.record,
            _json_or_null(stored.player_names))


def _game(row: tuple[object, ...]) -> StoredGame:
    """The stored game of a row; never raises: what cannot be read is named in
    ``error`` and left empty."""
    (game_id, game, rules, position, players, moves, result, termination, created,
     updated, seats, clock, rated, extra, record, player_names) = row
    problems: list[str] = []

    def json_column(name: str, value: object, kind: type) -> Any:
        if value is None:
            return None
        try:
            if not isinstance(value, str):
                raise ValueError(f"it holds {type(value).__name__}, not text")
            item = json.loads(value)
            if not isinstance(item, kind):
                raise ValueError(f"it is not a JSON {kind.__name__}")
        except (ValueError, RecursionError) as error:
            reason = str(error) if not isinstance(error, json.JSONDecodeError) \
                else f"it is not JSON ({error.msg} at character {error.pos})"
            problems.append(f"its {name} column cannot be read: {reason}")
            return None
        return item

    def text_list(name: str, value: object, size: int | None = None) -> list[str]:
        try:
            if not isinstance(value, str):
                raise ValueError(f"it holds {type(value).__name__}, not text")
            items = json.loads(value)
            if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                raise ValueError("it is not a JSON list of texts")
            if size is not None and len(items) != size:
                raise ValueError(f"it lists {len(items)} values, not {size}")
        except (ValueError, RecursionError) as error:
            reason = str(error) if not isinstance(error, json.JSONDecodeError) \
                else f"it is not JSON ({error.msg} at character {error.pos})"
            problems.append(f"its {name} column cannot be read: {reason}")
            return []
        return items

    def text(name: str, value: object, optional: bool = False) -> str | None:
        if value is None and optional:
            return None
        if isinstance(value, str):
            return value
        problems.append(f"its {name} column holds {type(value).__name__}, not text")
        return None

    stored = StoredGame(
        str(game_id), text("game", game) or "", text_list("rules", rules),
        text("position", position, optional=True), text_list("players", players, 2),
        text_list("moves", moves), text("result", result) or "*",
        text("termination", termination, optional=True), text("created", created) or "",
        text("updated", updated) or "")
    seat_list = json_column("seats", seats, list)
    if seat_list is not None and (len(seat_list) != 2 or not all(
            seat is None or (isinstance(seat, int) and not isinstance(seat, bool))
            for seat in seat_list)):
        problems.append("its seats column cannot be read: it is not two account ids")
        seat_list = None
    stored.seats = seat_list
    stored.clock = json_column("clock", clock, dict)
    stored.rated = rated == 1
    stored.extra = json_column("extra", extra, dict) or {}
    stored.record = text("record", record, optional=True)
    if player_names is not None:
        stored.player_names = text_list("player_names", player_names, 2) or None
    if stored.result not in RESULTS:
        problems.append(f"its result {stored.result[:20]!r} is none of "
                        f"{', '.join(RESULTS)}")
        stored.result = "*"
    if problems:
        stored.error = f"game {stored.id} cannot be read: {'; '.join(problems)}"
    return stored
