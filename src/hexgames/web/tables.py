"""The server mode's tables in the games database: accounts, login sessions,
challenges (and invitations) and ratings, as methods of
:class:`~hexgames.web.store.GameStore` (this mixin uses its connections and locks).

- ``users``: one row per account: a name (unique without regard to letter case), the
  argon2id hash of its password (:mod:`hexgames.web.accounts`), whether it is an
  administrator, when it was made.
- ``sessions``: one row per login: a random token (the signed cookie carries it), the
  account, when it expires; logging out, changing the password or removing the account
  deletes the rows, so a stolen cookie stops working (a server-side revocation list).
  An account has at most :data:`hexgames.limits.MAX_SESSIONS_PER_USER` of them (a new
  login ends the oldest) and expired ones are deleted.
- ``challenges``: an offer to play: its game, rules, time control, the colour its
  creator takes, the one account it is for (or anyone), whether it is rated, and for an
  invitation a random token that the link carries; accepting it makes the game. An
  invitation expires after :data:`hexgames.limits.INVITE_SECONDS`, and the account that
  signs up with it becomes the one it is for, so it serves one person.
- ``ratings``: one Glicko-2 rating a game and account (:mod:`hexgames.web.ratings`).
- ``results`` (schema 5): one row per rated game that has ended, in the order they were
  rated: the accounts (or the AI level and its fixed rating) and the score. The
  ratings are these results folded in order; when an administrator deletes a rated
  game its result goes too and the ratings of that game are folded again
  (:meth:`AccountTables.delete_game`), so ratings and results always agree.

Every write is one committed statement (or one transaction), as for the games. A cap
(open challenges, running games) is checked and the row stored in one transaction
(``BEGIN IMMEDIATE``), so requests that arrive at once cannot pass it together.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from hexgames import limits

#: The columns of ``users``: an id never given again (AUTOINCREMENT, schema 5), a name
#: unique in any letter case, the password hash, the administrator flag, the creation.
_USERS = """(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password TEXT NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL
)"""

#: The statements that make the tables (schema version 3).
TABLES = (
    f"CREATE TABLE IF NOT EXISTS users {_USERS}",
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

#: The statements of schema version 5: the rated results (filled from the games rated
#: before, in the order of their last update) and an index of the games by result.
RESULTS_TABLES = (
    """CREATE TABLE IF NOT EXISTS results (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id TEXT NOT NULL UNIQUE,
        game TEXT NOT NULL,
        first INTEGER,
        second INTEGER,
        ai TEXT,
        ai_rating REAL,
        score REAL NOT NULL,
        rated TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS games_by_result ON games (result)",
    # An account's id is never given again (AUTOINCREMENT): a removed account's id
    # stays in its games' seats, results and ratings, and a new account must not
    # inherit them. The table is made anew with that, and the next id is past every id
    # any table names.
    f"CREATE TABLE users_v5 {_USERS}",
    "INSERT INTO users_v5 (id, name, password, admin, created) "
    "SELECT id, name, password, admin, created FROM users",
    "DROP TABLE users",
    "ALTER TABLE users_v5 RENAME TO users",
    "DELETE FROM sqlite_sequence WHERE name IN ('users', 'users_v5')",
    """INSERT INTO sqlite_sequence (name, seq) SELECT 'users', max(coalesce(max(id), 0),
        coalesce((SELECT max(user_id) FROM sessions), 0),
        coalesce((SELECT max(user_id) FROM ratings), 0),
        coalesce((SELECT max(creator) FROM challenges), 0),
        coalesce((SELECT max(opponent) FROM challenges), 0),
        coalesce((SELECT max(max(coalesce(first, 0), coalesce(second, 0))) FROM results), 0),
        coalesce((SELECT max(CAST(value AS INTEGER)) FROM games, json_each(games.seats)
                  WHERE games.seats IS NOT NULL), 0)) FROM users""",
    """INSERT OR IGNORE INTO results (game_id, game, first, second, ai, ai_rating, score,
        rated)
       SELECT id, game, json_extract(seats, '$[0]'), json_extract(seats, '$[1]'),
        CASE WHEN json_extract(seats, '$[0]') IS NULL THEN json_extract(players, '$[0]')
             WHEN json_extract(seats, '$[1]') IS NULL THEN json_extract(players, '$[1]')
        END, NULL,
        CASE result WHEN '1-0' THEN 1.0 WHEN '0-1' THEN 0.0 ELSE 0.5 END, updated
       FROM games WHERE rated = 1 AND seats IS NOT NULL
        AND result IN ('1-0', '0-1', '1/2-1/2')
        AND json_extract(extra, '$.rated_done')
       ORDER BY updated, rowid""",
)


class CapError(ValueError):
    """A cap of an account is reached (its open challenges, its running games):
    ``user_id`` is the account; the message says which cap, with ``{name}`` where the
    account goes (:meth:`text`: ``you are``, ``bob is``)."""

    def __init__(self, message: str, user_id: int) -> None:
        super().__init__(message)
        self.user_id = user_id

    def text(self, name: str) -> str:
        """The message about ``name`` (``you are`` for the one who asked, ``bob is``)."""
        return str(self).replace("{name}", name)


@dataclass(frozen=True)
class GameResult:
    """A rated game that has ended (a row of ``results``): the game's id and kind, the
    accounts in its seats (``None`` for an AI's), the AI level of a game against one and
    its fixed rating then (``None`` if unknown: the level's rating now is used), the
    first player's score (1, 0.5 or 0) and ``seq``, the order of rating."""

    game_id: str
    game: str
    first: int | None
    second: int | None
    ai: str | None
    ai_rating: float | None
    score: float
    seq: int = 0


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
        engine_help: whether its (unrated) game allows both players engine help; kept
            in the ``rules`` column's JSON (``{"options": [...], "engine_help": true}``
            instead of the plain list of options), so the schema stays as it was.
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
    engine_help: bool = False


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

    def add_user(self, name: str, password_hash: str, *, admin: bool = False,
                 invite: str | None = None) -> User | None:
        """Add an account; ``None`` if the name is taken (in any letter case) or, with
        ``invite`` (an invitation's token), if that invitation is no longer open: the
        account and the invitation's being for it are stored in one transaction."""
        from hexgames.web.store import now

        stamp = now()
        try:
            with self._transaction():
                try:
                    cursor = self._db.execute(
                        "INSERT INTO users (name, password, admin, created) "
                        "VALUES (?, ?, ?, ?)", (name, password_hash, int(admin), stamp))
                except sqlite3.IntegrityError:
                    raise _Gone from None
                user_id = int(cursor.lastrowid or 0)
                if invite is not None:
                    taken = self._db.execute(
                        "UPDATE challenges SET opponent = ? WHERE invite = ? AND "
                        "opponent IS NULL AND created > ?",
                        (user_id, invite, invite_cutoff()))
                    if taken.rowcount != 1:
                        raise _Gone
        except _Gone:
            return None
        return User(user_id, name, password_hash, admin, stamp)

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

    def set_password(self, user_id: int, password_hash: str, *,
                     keep: str | None = None) -> None:
        """Change an account's password hash and end its sessions but ``keep`` (a
        token), in one transaction: both or, if SQLite fails, neither."""
        with self._transaction():
            self._db.execute("UPDATE users SET password = ? WHERE id = ?",
                             (password_hash, user_id))
            self._db.execute("DELETE FROM sessions WHERE user_id = ? AND token IS NOT ?",
                             (user_id, keep))

    def set_password_hash(self, user_id: int, password_hash: str) -> None:
        """Store a new hash of the same password (made with today's parameters); the
        sessions stay."""
        self._write("UPDATE users SET password = ? WHERE id = ?", (password_hash, user_id))

    def remove_user(self, user_id: int) -> bool:
        """Remove an account, its sessions and its challenges (its games stay, its seats
        named as a removed account), in one transaction; whether it existed."""
        with self._transaction():
            cursor = self._db.execute("DELETE FROM users WHERE id = ?", (user_id,))
            self._db.execute("DELETE FROM sessions WHERE user_id = ?", (user_id,))
            self._db.execute("DELETE FROM challenges WHERE creator = ? OR opponent = ?",
                             (user_id, user_id))
            for table in ("mail_settings", "mail_warnings", "vacations"):  # schema 8
                self._db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        return cursor.rowcount == 1

    # --- login sessions ----------------------------------------------------------------

    def add_session(self, user_id: int, seconds: float) -> str:
        """A new login session of ``seconds``; its token. The account's expired
        sessions are deleted, and its oldest ones past
        :data:`hexgames.limits.MAX_SESSIONS_PER_USER` end (one transaction)."""
        token = secrets.token_urlsafe(24)
        stamp = time.time()
        with self._transaction():
            self._db.execute("DELETE FROM sessions WHERE user_id = ? AND expires <= ?",
                             (user_id, stamp))
            self._db.execute(
                "DELETE FROM sessions WHERE token IN (SELECT token FROM sessions WHERE "
                "user_id = ? ORDER BY created DESC, rowid DESC LIMIT -1 OFFSET ?)",
                (user_id, limits.MAX_SESSIONS_PER_USER - 1))
            self._db.execute("INSERT INTO sessions (token, user_id, created, expires) "
                             "VALUES (?, ?, ?, ?)", (token, user_id, stamp, stamp + seconds))
        return token

    def live_sessions(self, tokens: Iterable[str]) -> set[str]:
        """Those of ``tokens`` whose session has not ended."""
        wanted = list(tokens)
        alive: set[str] = set()
        stamp = time.time()
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self._read(f"SELECT token FROM sessions WHERE token IN ({marks}) AND "
                              "expires > ?", (*chunk, stamp))
            alive.update(str(row[0]) for row in rows)
        return alive

    def session_count(self, user_id: int) -> int:
        """How many sessions of the account are stored."""
        (count,) = self._read("SELECT COUNT(*) FROM sessions WHERE user_id = ?",
                              (user_id,))[0]
        return int(str(count))

    def expire(self) -> None:
        """Delete the expired sessions and invitations (the server does it now and
        then)."""
        with self._transaction():
            self._db.execute("DELETE FROM sessions WHERE expires <= ?", (time.time(),))
            self._db.execute("DELETE FROM challenges WHERE invite IS NOT NULL AND "
                             "opponent IS NULL AND created <= ?", (invite_cutoff(),))

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

    def add_challenge(self, challenge: Challenge,
                      most: int = limits.MAX_CHALLENGES_PER_USER) -> Challenge:
        """Store a new challenge (its ``id`` and ``created`` are set here), unless its
        creator has ``most`` open challenges already: checked and stored in one
        transaction.

        Raises:
            CapError: when the creator has ``most`` open challenges.
        """
        from hexgames.web.store import now

        challenge.id = secrets.token_hex(6)
        challenge.created = now()
        with self._transaction():
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM challenges WHERE creator = ? AND (invite IS NULL OR "
                "opponent IS NOT NULL OR created > ?)",
                (challenge.creator, invite_cutoff())).fetchone()
            if count >= most:
                raise CapError(f"you have {count} open challenges: at most {most} "
                               "(cancel one first)", challenge.creator)
            self._db.execute(
                "INSERT INTO challenges (id, creator, game, rules, time_control, color, "
                "opponent, rated, invite, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (challenge.id, challenge.creator, challenge.game, _rules_column(challenge),
                 None if challenge.time_control is None else json.dumps(challenge.time_control),
                 challenge.color, challenge.opponent, int(challenge.rated), challenge.invite,
                 challenge.created))
        return challenge

    def challenge(self, challenge_id: str | None = None, *,
                  invite: str | None = None) -> Challenge | None:
        """The challenge of that id or invitation token, or ``None`` (also for an
        invitation that has expired unused)."""
        column, value = ("invite", invite) if invite is not None else ("id", challenge_id)
        rows = self._read(f"SELECT {_CHALLENGE} FROM challenges WHERE {column} = ? AND "
                          f"{_OPEN}", (value, invite_cutoff()))
        return _challenge(rows[0]) if rows else None

    def challenges(self, user_id: int) -> list[Challenge]:
        """The challenges ``user_id`` may see: its own, those for it and those open to
        anyone (not invitations, which only their link shows), newest first."""
        rows = self._read(
            f"SELECT {_CHALLENGE} FROM challenges WHERE (creator = ? OR opponent = ? OR "
            f"(opponent IS NULL AND invite IS NULL)) AND {_OPEN} "
            "ORDER BY created DESC, rowid DESC", (user_id, user_id, invite_cutoff()))
        return [_challenge(row) for row in rows]

    def take_challenge(self, challenge_id: str) -> bool:
        """Remove a challenge that is being cancelled; ``False`` if another request took
        it first."""
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

    def _set_ratings(self, game: str, ratings: dict[int, Rating]) -> None:
        """Store ratings (in the caller's transaction)."""
        from hexgames.web.store import now

        stamp = now()
        for user_id, rating in ratings.items():
            self._db.execute(
                "INSERT OR REPLACE INTO ratings (user_id, game, rating, rd, volatility, "
                "games, updated) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (user_id, game, rating.rating, rating.rd, rating.volatility,
                 rating.games, stamp))

    def _ratings_of(self, game: str, ids: Iterable[int]) -> dict[int, Rating]:
        """The current ratings of ``ids`` in ``game`` (in the caller's transaction)."""
        found = {}
        for user_id in ids:
            row = self._db.execute(
                "SELECT rating, rd, volatility, games, updated FROM ratings WHERE "
                "user_id = ? AND game = ?", (user_id, game)).fetchone()
            found[user_id] = Rating() if row is None else Rating(
                float(row[0]), float(row[1]), float(row[2]), int(row[3]), str(row[4]))
        return found

    def record_result(self, result: GameResult,
                      rate: Callable[[dict[int, Rating]], dict[int, Rating]]) -> bool:
        """Store the result of a rated game that has ended and the new ratings of its
        accounts, ``rate(their ratings now)``, in one transaction (so two games that end
        at once both count); ``False`` (nothing changes) if the game was rated before."""
        with self._transaction():
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO results (game_id, game, first, second, ai, "
                "ai_rating, score, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (result.game_id, result.game, result.first, result.second, result.ai,
                 result.ai_rating, result.score, _now()))
            if cursor.rowcount != 1:
                return False
            ids = [seat for seat in (result.first, result.second) if seat is not None]
            self._set_ratings(result.game, rate(self._ratings_of(result.game, ids)))
        return True

    def results(self, game: str) -> list[GameResult]:
        """The rated results of ``game``, in the order they were rated."""
        rows = self._read("SELECT game_id, game, first, second, ai, ai_rating, score, seq "
                          "FROM results WHERE game = ? ORDER BY seq", (game,))
        return [_result(row) for row in rows]

    def result(self, game_id: str) -> GameResult | None:
        """The rated result of a game, or ``None``."""
        rows = self._read("SELECT game_id, game, first, second, ai, ai_rating, score, seq "
                          "FROM results WHERE game_id = ?", (game_id,))
        return _result(rows[0]) if rows else None

    def delete_game(self, game_id: str,
                    rerate: Callable[[list[GameResult]], dict[int, Rating]]) -> bool:
        """Delete a game; whether it existed. A rated result of it goes too, and the
        ratings of its game become ``rerate(the remaining results, in order)``, in the
        same transaction."""
        with self._transaction():
            cursor = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
            self._db.execute("DELETE FROM chat WHERE game_id = ?", (game_id,))
            row = self._db.execute("SELECT game FROM results WHERE game_id = ?",
                                   (game_id,)).fetchone()
            if row is not None:
                game = str(row[0])
                self._db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
                rows = self._db.execute(
                    "SELECT game_id, game, first, second, ai, ai_rating, score, seq FROM "
                    "results WHERE game = ? ORDER BY seq", (game,)).fetchall()
                self._db.execute("DELETE FROM ratings WHERE game = ?", (game,))
                self._set_ratings(game, rerate([_result(r) for r in rows]))
        return cursor.rowcount == 1

    def score_counts(self, user_id: int) -> dict[str, int]:
        """``won``, ``lost`` and ``drawn``: the finished games of the account against
        another account or an AI level (imports and games it played on both sides are
        not its results)."""
        rows = self._read(
            "SELECT json_extract(seats, '$[0]'), json_extract(seats, '$[1]'), result "
            "FROM games WHERE result IN ('1-0', '0-1', '1/2-1/2') AND seats IS NOT NULL "
            "AND coalesce(json_extract(extra, '$.imported'), 0) = 0 AND EXISTS (SELECT 1 "
            "FROM json_each(games.seats) WHERE json_each.value = ?)", (user_id,))
        counts = {"won": 0, "lost": 0, "drawn": 0}
        for first, second, result in rows:
            if first == second:
                continue
            if result == "1/2-1/2":
                counts["drawn"] += 1
            elif (result == "1-0") == (first == user_id):
                counts["won"] += 1
            else:
                counts["lost"] += 1
        return counts

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
                    limit: int = 200, offset: int = 0) -> list[str]:
        """The ids of the games with ``user_id`` in a seat, most recently updated first
        (only running or finished ones when ``running`` says so): ``limit`` of them from
        the ``offset``-th on."""
        sql = f"SELECT id FROM games WHERE {SEATED}{RUNNING.get(running, '')} " \
            "ORDER BY updated DESC, created DESC, rowid DESC LIMIT ? OFFSET ?"
        return [str(row[0]) for row in self._read(sql, (user_id, limit, offset))]

    def accepted_challenges(self, user_id: int) -> list[tuple[str, str]]:
        """``(challenge id, game id)`` of the running games made from challenges of
        ``user_id`` (their ``extra`` keeps the challenge and its creator), newest first:
        one query, as every open lobby asks it every few seconds."""
        rows = self._read(
            "SELECT json_extract(extra, '$.challenge'), id FROM games WHERE "
            f"{SEATED}{RUNNING[True]} AND json_valid(extra) AND "
            "json_extract(extra, '$.creator') = ? AND "
            "json_type(extra, '$.challenge') = 'text' "
            "ORDER BY created DESC, rowid DESC LIMIT ?",
            (user_id, user_id, limits.MAX_RUNNING_GAMES_PER_USER))
        return [(str(challenge), str(game)) for challenge, game in rows]

    def games_without_help(self, user_id: int) -> tuple[tuple[str, str], ...]:
        """The running games the account sits in that bar engine help from it everywhere
        (docs of :mod:`hexgames.web.policy`), at most two (enough to tell whether one
        other than a given game is left), rated ones first: pairs of the game's id and
        its kind, ``"a rated game"`` (or a tournament's) or ``"a game between two
        people"`` (two accounts, no AI, not an import, and no agreed engine help). A game
        whose players or extra cannot be read bars nothing (it cannot be played): read on
        every request, it made each of its player's fail."""
        return _help_barring(self._read(WITHOUT_HELP, (user_id,)))

    def games_barring(self, user_id: int) -> list[tuple[str, str, bool, str]]:
        """Every running game the account sits in that bars engine help from it (as
        :meth:`games_without_help`, all of them): the game's id, its kind's words,
        whether the computer plays in it, and when it was made (the computer's wait,
        :meth:`hexgames.web.ai.GameAI.waits_for`)."""
        return [(str(game_id), BARRING_KINDS[int(str(kind))], bool(computer), str(created))
                for game_id, computer, created, kind in self._read(BARRING_ALL, (user_id,))]

    def _games_without_help_now(self, user_id: int) -> tuple[tuple[str, str], ...]:
        """:meth:`games_without_help` read in the caller's write transaction."""
        return _help_barring(self._db.execute(WITHOUT_HELP, (user_id,)).fetchall())

    def count_games_of(self, user_id: int, *, running: bool | None = None) -> int:
        """How many games have ``user_id`` in a seat (running or finished ones only when
        ``running`` says so)."""
        sql = f"SELECT COUNT(*) FROM games WHERE {SEATED}{RUNNING.get(running, '')}"
        (count,) = self._read(sql, (user_id,))[0]
        return int(str(count))

    def running_seated_ids(self) -> list[str]:
        """The ids of the running games of the server mode (with seats)."""
        rows = self._read("SELECT id FROM games WHERE result = '*' AND seats IS NOT NULL")
        return [str(row[0]) for row in rows]

    def timed_running_ids(self) -> list[str]:
        """The ids of running games with a clock (to watch for a falling flag)."""
        rows = self._read("SELECT id FROM games WHERE clock IS NOT NULL AND result = '*'")
        return [str(row[0]) for row in rows]


_CHALLENGE = ("id, creator, game, rules, time_control, color, opponent, rated, invite, "
              "created")
#: The games with an account (the one argument) in a seat.
SEATED = ("seats IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(games.seats) WHERE "
         "json_each.value = ?)")
#: The condition on the result of running (``True``) or finished (``False``) games.
RUNNING: dict[bool | None, str] = {True: " AND result = '*'", False: " AND result != '*'"}
#: The running games of an account (the one argument) that bar engine help from it, as
#: ``(id, kind)``: 0 a rated game (or a tournament's), 1 a game between two people
#: without agreed help; at most two, rated ones first
#: (:meth:`AccountTables.games_without_help`).
_BARRING = (
    "CASE WHEN rated = 1 OR json_extract(extra, '$.tournament') IS NOT "
    "NULL THEN 0 ELSE 1 END AS kind FROM games WHERE "
    f"{SEATED}{RUNNING[True]} AND CASE WHEN json_valid(players) AND (extra IS "
    "NULL OR json_valid(extra)) THEN (rated = 1 OR "
    "json_extract(extra, '$.tournament') IS NOT NULL OR ("
    "json_extract(players, '$[0]') = 'human' AND "
    "json_extract(players, '$[1]') = 'human' AND json_array_length(players) = 2 "
    "AND json_extract(seats, '$[0]') IS NOT NULL AND "
    "json_extract(seats, '$[1]') IS NOT NULL AND "
    "json_extract(seats, '$[0]') != json_extract(seats, '$[1]') AND "
    "coalesce(json_extract(extra, '$.engine_help'), 0) != 1 AND "
    "coalesce(json_extract(extra, '$.imported'), 0) != 1)) ELSE 0 END ")
WITHOUT_HELP = f"SELECT id, {_BARRING}ORDER BY kind LIMIT 2"
#: The words of the barring games' kinds, by the ``kind`` of :data:`_BARRING`.
BARRING_KINDS = ("a rated game", "a game between two people")
#: All the running games of an account (the one argument) that bar engine help from it,
#: as ``(id, kind, against the computer, created)``, rated ones first
#: (:meth:`AccountTables.games_barring`).
BARRING_ALL = ("SELECT id, coalesce(json_extract(players, '$[0]') != 'human' OR "
               f"json_extract(players, '$[1]') != 'human', 0) AS computer, created, "
               f"{_BARRING}ORDER BY kind, created, id")


def _help_barring(rows: Any) -> tuple[tuple[str, str], ...]:
    """The rows of :data:`WITHOUT_HELP` as pairs of a game's id and its kind's words."""
    return tuple((str(game_id), BARRING_KINDS[int(str(kind))]) for game_id, kind in rows)


#: The condition of a challenge that is open: not an invitation that has expired unused
#: (its one argument: :func:`invite_cutoff`).
_OPEN = "(invite IS NULL OR opponent IS NOT NULL OR created > ?)"


class _Gone(Exception):
    """An invitation that was no longer open when an account signed up with it."""


def _now() -> str:
    from hexgames.web.store import now

    return now()


def invite_cutoff() -> str:
    """The creation time (ISO-8601 UTC, as stored) before which an unused invitation
    has expired."""
    then = datetime.datetime.now(datetime.UTC) - datetime.timedelta(
        seconds=limits.INVITE_SECONDS)
    return then.isoformat(timespec="seconds")


def _result(row: tuple[object, ...] | Any) -> GameResult:
    game_id, game, first, second, ai, ai_rating, score, seq = row
    return GameResult(str(game_id), str(game), None if first is None else int(str(first)),
                      None if second is None else int(str(second)),
                      None if ai is None else str(ai),
                      None if ai_rating is None else float(str(ai_rating)),
                      float(str(score)), int(str(seq)))


def _user(row: tuple[object, ...]) -> User:
    user_id, name, password, admin, created = row
    return User(int(str(user_id)), str(name), str(password), admin == 1, str(created))


def _rules_column(challenge: Challenge) -> str:
    """The ``rules`` column of a challenge: its options, with its engine help."""
    if challenge.engine_help:
        return json.dumps({"options": challenge.rules, "engine_help": True})
    return json.dumps(challenge.rules)


def _challenge(row: tuple[object, ...]) -> Challenge:
    (challenge_id, creator, game, rules, time_control, color, opponent, rated, invite,
     created) = row
    options = json.loads(str(rules))
    engine_help = False
    if isinstance(options, dict):  # see Challenge.engine_help
        engine_help = options.get("engine_help") is True
        options = options.get("options", [])
    return Challenge(str(challenge_id), int(str(creator)), str(game), options,
                     None if time_control is None else json.loads(str(time_control)),
                     str(color), None if opponent is None else int(str(opponent)),
                     rated == 1, None if invite is None else str(invite), str(created),
                     engine_help)
