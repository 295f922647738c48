"""The browser app's games in SQLite (the standard library's ``sqlite3``).

One row per game: its id, game name, rules options, starting position (for an imported
set-up position), the two player specs, the moves in notation, result, termination and
the creation and update times. A board is rebuilt by replaying the moves.

Every write is committed before the call returns, in WAL mode with ``synchronous=FULL``,
so a move the server acknowledged survives even ``kill -9``. The store is safe to use from
several threads (one connection behind a lock).
"""

from __future__ import annotations

import datetime
import json
import secrets
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path

_SCHEMA = """
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
_COLUMNS = "id, game, rules, position, players, moves, result, termination, created, updated"


class StoreError(Exception):
    """The database cannot be opened or written (a bad path, a full disk, a file that is
    not a hexgames database)."""


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


class GameStore:
    """The games of one SQLite file, created when missing.

    Raises:
        StoreError: from the constructor and every method when SQLite fails.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit: each statement is its own committed transaction.
            self._db = sqlite3.connect(str(path), check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(_SCHEMA)
        except (sqlite3.Error, OSError) as error:
            raise StoreError(f"cannot open the games database {str(path)!r}: {error}") from None

    def close(self) -> None:
        """Close the connection; later calls fail with :class:`StoreError`."""
        with self._lock:
            self._db.close()

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise StoreError(f"games database {str(self.path)!r}: {error}") from None

    def create(self, game: str, rules: list[str], players: list[str], *,
               position: str | None = None, moves: list[str] | None = None,
               result: str = "*", termination: str | None = None) -> StoredGame:
        """Store a new game and return it with its new id and times."""
        stamp = now()
        stored = StoredGame(secrets.token_hex(6), game, list(rules), position,
                            list(players), list(moves or []), result, termination,
                            stamp, stamp)
        self._run(_INSERT, _row(stored))
        return stored

    def create_many(self, games: list[StoredGame]) -> list[StoredGame]:
        """Store new games (their ``id``, ``created`` and ``updated`` are set here) in one
        transaction: all of them or, if SQLite fails, none."""
        stamp = now()
        for stored in games:
            stored.id = secrets.token_hex(6)
            stored.created = stored.updated = stamp
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.executemany(_INSERT, [_row(stored) for stored in games])
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                raise StoreError(f"games database {str(self.path)!r}: {error}") from None
        return games

    def get(self, game_id: str) -> StoredGame | None:
        """The game with this id, or ``None``."""
        rows = self._run(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(rows[0]) if rows else None

    def games(self) -> list[StoredGame]:
        """Every game, the most recently updated first."""
        rows = self._run(f"SELECT {_COLUMNS} FROM games ORDER BY updated DESC, created DESC, "
                         "rowid DESC")
        return [_game(row) for row in rows]

    def save(self, stored: StoredGame) -> None:
        """Commit the game's moves, result and termination (``updated`` is set now).

        Raises:
            StoreError: also when the game is no longer stored.
        """
        stored.updated = now()
        with self._lock:
            try:
                cursor = self._db.execute(
                    "UPDATE games SET moves = ?, result = ?, termination = ?, updated = ? "
                    "WHERE id = ?",
                    (json.dumps(stored.moves), stored.result, stored.termination,
                     stored.updated, stored.id))
            except sqlite3.Error as error:
                raise StoreError(f"games database {str(self.path)!r}: {error}") from None
            if cursor.rowcount != 1:
                raise StoreError(f"game {stored.id} is not stored any more")

    def delete(self, game_id: str) -> bool:
        """Delete a game; whether it existed."""
        with self._lock:
            try:
                cursor = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            except sqlite3.Error as error:
                raise StoreError(f"games database {str(self.path)!r}: {error}") from None
            return cursor.rowcount == 1


_INSERT = f"INSERT INTO games ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


def _row(stored: StoredGame) -> tuple[object, ...]:
    return (stored.id, stored.game, json.dumps(stored.rules), stored.position,
            json.dumps(stored.players), json.dumps(stored.moves), stored.result,
            stored.termination, stored.created, stored.updated)


def _game(row: tuple[object, ...]) -> StoredGame:
    (game_id, game, rules, position, players, moves, result, termination, created,
     updated) = row
    return StoredGame(str(game_id), str(game), json.loads(str(rules)),
                      None if position is None else str(position),
                      json.loads(str(players)), json.loads(str(moves)), str(result),
                      None if termination is None else str(termination), str(created),
                      str(updated))
