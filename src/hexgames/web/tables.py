"""The server mode's tables in the games database: accounts, login sessions,
challenges (and invitations) and ratings, as methods of
:class:`~hexgames.web.store.GameStore` (this mixin uses its connections and locks).

- ``users``: one row per account: a name (unique without regard to letter case), the
  argon2id hash of its password (:mod:`hexgames.web.accounts`), whether it is an
  administrator, when it was made.
- ``sessions``: one row per login: a random token (the signed cookie carries it), the
  account, when it expires; logging out, changing the password or removing the account
  deletes the rows, so a stolen cookie stops working (a server-side revocation list).
- ``challenges``: an offer to play: its game, rules, time control, the colour its
  creator takes, the one account it is for (or anyone), whether it is rated, and for an
  invitation a random token that the link carries; accepting it makes the game.
- ``ratings``: one Glicko-2 rating a game and account (:mod:`hexgames.web.ratings`).

Every write is one committed statement (or one transaction), as for the games.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

#: The statements that make the tables (schema version 3).
TABLES = (
    """CREATE TABLE IF NOT EXISTS users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password TEXT NOT NULL,
        admin INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS sessions (
        token TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL,
        created REAL NOT NULL,
        expires REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id)",
    """CREATE TABLE IF NOT EXISTS challenges (
        id TEXT PRIMARY KEY,
        creator INTEGER NOT NULL,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        time_control TEXT,
        color TEXT NOT NULL,
        opponent INTEGER,
        rated INTEGER NOT NULL,
        invite TEXT UNIQUE,
        created TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS ratings (
        user_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        rating REAL NOT NULL,
        rd REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        updated TEXT NOT NULL,
        PRIMARY KEY (user_id, game)
    )""",
)


@dataclass(frozen=True)
class User:
    """An account: ``id``, ``name``, the ``password`` hash, ``admin``, ``created``."""

    id: int
    name: str
    password: str
    admin: bool
    created: str


@dataclass
class Challenge:
    """An offer to play (see the module's documentation).

    Attributes:
        id: a 12-character hex id.
        creator: the account that made it.
        game, rules: the game and its rules options (``key=value`` words).
        time_control: the JSON time control (:mod:`hexgames.web.clock`), or ``None``.
        color: the creator's colour: ``first``, ``second`` or ``random``.
        opponent: the one account it is for, or ``None`` (anyone).
        rated: whether the game is rated.
        invite: the token of an invitation link, or ``None``.
        created: ISO-8601 UTC time.
    """

    id: str
    creator: int
    game: str
    rules: list[str]
    time_control: dict[str, Any] | None
    color: str
    opponent: int | None
    rated: bool
    invite: str | None = None
    created: str = ""


@dataclass
class Rating:
    """A Glicko-2 rating on Glickman's scale: ``rating`` (1500 at first), ``rd``
    (its deviation, 350 at first), ``volatility`` (0.06 at first), rated ``games``."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    games: int = 0
    updated: str = ""


class AccountTables:
    """The methods on the server mode's tables (mixed into the store)."""

    _db: sqlite3.Connection
    _reader: sqlite3.Connection
    _write_lock: threading.Lock

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        raise NotImplementedError

    def _error(self, error: sqlite3.Error) -> Exception:
        raise NotImplementedError

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction under the write lock: ``BEGIN IMMEDIATE``, the body,
        ``COMMIT``; ``ROLLBACK`` if the body raises anything. SQLite's errors come out as
        :meth:`_error` makes them (``StoreBusyError`` for a locked database)."""
        with self._write_lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                raise self._error(error) from None

    def _write(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        with self._write_lock:
            try:
                return self._db.execute(sql, args)
            except sqlite3.Error as error:
                raise self._error(error) from None

    # --- accounts --------------------------------------------------------------------

    def add_user(self, name: str, password_hash: str, *, admin: bool = False) -> User | None:
        """Add an account; ``None`` if the name is taken (in any letter case)."""
        from hexgames.web.store import now

        stamp = now()
        try:
            with self._write_lock:
                cursor = self._db.execute(
                    "INSERT INTO users (name, password, admin, created) VALUES (?, ?, ?, ?)",
                    (name, password_hash, int(admin), stamp))
        except sqlite3.IntegrityError:
            return None
        except sqlite3.Error as error:
            raise self._error(error) from None
        return User(int(cursor.lastrowid or 0), name, password_hash, admin, stamp)

    def user_count(self) -> int:
        """How many accounts there are."""
        (count,) = self._read("SELECT COUNT(*) FROM users")[0]
        return int(count) if isinstance(count, int) else 0

    def user(self, name: str | None = None, *, user_id: int | None = None) -> User | None:
        """The account of that name (any letter case) or id, or ``None``."""
        if user_id is not None:
            rows = self._read("SELECT id, name, password, admin, created FROM users "
                              "WHERE id = ?", (user_id,))
        else:
            rows = self._read("SELECT id, name, password, admin, created FROM users "
                              "WHERE name = ?", (name,))
        return _user(rows[0]) if rows else None

    def users(self) -> list[User]:
        """Every account, by name."""
        rows = self._read("SELECT id, name, password, admin, created FROM users "
                          "ORDER BY name COLLATE NOCASE")
        return [_user(row) for row in rows]

    def user_names(self, ids: set[int]) -> dict[int, str]:
        """Account id -> name for the ids that exist."""
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        rows = self._read(f"SELECT id, name FROM users WHERE id IN ({marks})", tuple(ids))
        return {int(str(row[0])): str(row[1]) for row in rows}

    def set_password(self, user_id: int, password_hash: str) -> None:
        """Change an account's password hash and end its sessions (in one transaction:
        both or, if SQLite fails, neither)."""
        with self._transaction():
            self._db.execute("UPDATE users SET password = ? WHERE id = ?",
                             (password_hash, user_id))
            self._db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))

    def remove_user(self, user_id: int) -> bool:
        """Remove an account, its sessions and its challenges (its games stay, its seats
        named as a removed account), in one transaction; whether it existed."""
        with self._transaction():
            cursor = self._db.execute("DELETE FROM users WHERE id = ?", (user_id,))
            self._db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))
            self._db.execute("DELETE FROM challenges WHERE creator = ? OR opponent = ?",
                             (user_id, user_id))
        return cursor.rowcount == 1

    # --- login sessions ----------------------------------------------------------------

    def add_session(self, user_id: int, seconds: float) -> str:
        """A new login session of ``seconds``; its token."""
        token = secrets.token_urlsafe(24)
        stamp = time.time()
        self._write("INSERT INTO sessions (token, user_id, created, expires) "
                    "VALUES (?, ?, ?, ?)", (token, user_id, stamp, stamp + seconds))
        return token

    def session_user(self, token: str) -> User | None:
        """The account of an unexpired session token, or ``None``."""
        rows = self._read(
            "SELECT u.id, u.name, u.password, u.admin, u.created FROM sessions s "
            "JOIN users u ON u.id = s.user_id WHERE s.token = ? AND s.expires > ?",
            (token, time.time()))
        return _user(rows[0]) if rows else None

    def end_session(self, token: str) -> None:
        """Forget a session token (log out)."""
        self._write("DELETE FROM sessions WHERE token = ?", (token,))

    # --- challenges --------------------------------------------------------------------

    def add_challenge(self, challenge: Challenge) -> Challenge:
        """Store a new challenge (its ``id`` and ``created`` are set here)."""
        from hexgames.web.store import now

        challenge.id = secrets.token_hex(6)
        challenge.created = now()
        self._write(
            "INSERT INTO challenges (id, creator, game, rules, time_control, color, "
            "opponent, rated, invite, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (challenge.id, challenge.creator, challenge.game, json.dumps(challenge.rules),
             None if challenge.time_control is None else json.dumps(challenge.time_control),
             challenge.color, challenge.opponent, int(challenge.rated), challenge.invite,
             challenge.created))
        return challenge

    def challenge(self, challenge_id: str | None = None, *,
                  invite: str | None = None) -> Challenge | None:
        """The challenge of that id or invitation token, or ``None``."""
        column, value = ("invite", invite) if invite is not None else ("id", challenge_id)
        rows = self._read(f"SELECT {_CHALLENGE} FROM challenges WHERE {column} = ?",
                          (value,))
        return _challenge(rows[0]) if rows else None

    def challenges(self, user_id: int) -> list[Challenge]:
        """The challenges ``user_id`` may see: its own, those for it and those open to
        anyone (not invitations, which only their link shows), newest first."""
        rows = self._read(
            f"SELECT {_CHALLENGE} FROM challenges WHERE creator = ? OR opponent = ? OR "
            "(opponent IS NULL AND invite IS NULL) ORDER BY created DESC, rowid DESC",
            (user_id, user_id))
        return [_challenge(row) for row in rows]

    def take_challenge(self, challenge_id: str) -> bool:
        """Remove a challenge that is being accepted or cancelled; ``False`` if another
        request took it first (so two acceptances make one game)."""
        cursor = self._write("DELETE FROM challenges WHERE id = ?", (challenge_id,))
        return cursor.rowcount == 1

    # --- ratings -----------------------------------------------------------------------

    def rating(self, user_id: int, game: str) -> Rating:
        """The account's rating in ``game`` (the starting rating if it has none)."""
        rows = self._read("SELECT rating, rd, volatility, games, updated FROM ratings "
                          "WHERE user_id = ? AND game = ?", (user_id, game))
        if not rows:
            return Rating()
        rating, rd, volatility, games, updated = rows[0]
        return Rating(float(str(rating)), float(str(rd)), float(str(volatility)),
                      int(str(games)), str(updated))

    def set_ratings(self, game: str, ratings: dict[int, Rating]) -> None:
        """Store new ratings of several accounts in one transaction."""
        from hexgames.web.store import now

        stamp = now()
        with self._transaction():
            for user_id, rating in ratings.items():
                self._db.execute(
                    "INSERT OR REPLACE INTO ratings (user_id, game, rating, rd, "
                    "volatility, games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (user_id, game, rating.rating, rating.rd, rating.volatility,
                     rating.games, stamp))

    def rating_list(self, game: str) -> list[tuple[str, Rating]]:
        """(account name, rating) of every rated account of ``game``, best first."""
        rows = self._read(
            "SELECT u.name, r.rating, r.rd, r.volatility, r.games, r.updated FROM ratings r "
            "JOIN users u ON u.id = r.user_id WHERE r.game = ? ORDER BY r.rating DESC, "
            "u.name COLLATE NOCASE", (game,))
        return [(str(name), Rating(float(str(rating)), float(str(rd)), float(str(vol)),
                                   int(str(games)), str(updated)))
                for name, rating, rd, vol, games, updated in rows]

    # --- games by account --------------------------------------------------------------

    def game_ids_of(self, user_id: int, *, running: bool | None = None,
                    limit: int = 200) -> list[str]:
        """The ids of the games with ``user_id`` in a seat, most recently updated first
        (only running or finished ones when ``running`` says so), at most ``limit``."""
        sql = ("SELECT id FROM games WHERE seats IS NOT NULL AND EXISTS (SELECT 1 FROM "
               "json_each(games.seats) WHERE json_each.value = ?)")
        if running is True:
            sql += " AND result = '*'"
        elif running is False:
            sql += " AND result != '*'"
        sql += " ORDER BY updated DESC, created DESC, rowid DESC LIMIT ?"
        return [str(row[0]) for row in self._read(sql, (user_id, limit))]

    def timed_running_ids(self) -> list[str]:
        """The ids of running games with a clock (to watch for a falling flag)."""
        rows = self._read("SELECT id FROM games WHERE clock IS NOT NULL AND result = '*'")
        return [str(row[0]) for row in rows]


_CHALLENGE = ("id, creator, game, rules, time_control, color, opponent, rated, invite, "
              "created")


def _user(row: tuple[object, ...]) -> User:
    user_id, name, password, admin, created = row
    return User(int(str(user_id)), str(name), str(password), admin == 1, str(created))


def _challenge(row: tuple[object, ...]) -> Challenge:
    (challenge_id, creator, game, rules, time_control, color, opponent, rated, invite,
     created) = row
    return Challenge(str(challenge_id), int(str(creator)), str(game),
                     json.loads(str(rules)),
                     None if time_control is None else json.loads(str(time_control)),
                     str(color), None if opponent is None else int(str(opponent)),
                     rated == 1, None if invite is None else str(invite), str(created))
