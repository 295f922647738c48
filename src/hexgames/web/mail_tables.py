"""The tables of turn notifications and vacations (schema version 8), as methods of
:class:`~hexgames.web.store.GameStore` (this mixin uses its connections and locks).

- ``mail_settings``: one row per account that gave an e-mail address: the address,
  whether it was confirmed (the link of the confirmation mail was opened), the digest's
  interval in seconds (``NULL``: no digests), the warning's threshold in seconds
  (``NULL``: no warnings), when the last digest was sent and what it listed (the
  games and their plies, ``id:ply`` words: a digest is sent only when a game waits
  that the last one did not list).
- ``mail_warnings``: the warnings sent: one row per account and game with the ply at
  which the warning was sent, so that a clock is warned of once per move.
- ``vacations``: one row per vacation: the account, its start and end (seconds since
  the epoch; a vacation ended early ends when it was ended).

Removing an account removes its rows here too (:meth:`AccountTables.remove_user`).
"""

from __future__ import annotations

import contextlib
import datetime
import math
import sqlite3
import threading
from dataclasses import dataclass

#: The statements of schema version 8.
MAIL_TABLES = (
    """CREATE TABLE IF NOT EXISTS mail_settings (
        user_id INTEGER PRIMARY KEY,
        email TEXT NOT NULL,
        confirmed INTEGER NOT NULL DEFAULT 0,
        digest REAL,
        warn REAL,
        last_digest REAL,
        digest_games TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS mail_warnings (
        user_id INTEGER NOT NULL,
        game_id TEXT NOT NULL,
        ply INTEGER NOT NULL,
        PRIMARY KEY (user_id, game_id)
    )""",
    """CREATE TABLE IF NOT EXISTS vacations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id INTEGER NOT NULL,
        start REAL NOT NULL,
        end REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS vacations_by_user ON vacations (user_id, start)",
)

_DAY = 86400.0


class VacationError(ValueError):
    """A vacation that may not be taken (it says why)."""


@dataclass(frozen=True)
class MailSettings:
    """An account's notification settings (a row of ``mail_settings``).

    Attributes:
        user_id, name: the account.
        email: its address.
        confirmed: whether the confirmation link was opened.
        digest: seconds between two digests at most, or ``None`` (no digests).
        warn: the threshold of the clock warning in seconds, or ``None``.
        last_digest: when the last digest was sent (seconds since the epoch), or
            ``None``.
        digest_games: the ``id:ply`` of the games the last digest listed.
    """

    user_id: int
    name: str
    email: str
    confirmed: bool
    digest: float | None
    warn: float | None
    last_digest: float | None
    digest_games: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Vacation:
    """A vacation: ``start`` and ``end`` in seconds since the epoch."""

    start: float
    end: float

    @property
    def days(self) -> int:
        """The days it counts: its length, a day begun counting whole."""
        return max(1, math.ceil((self.end - self.start) / _DAY - 1e-9))


def year_of(when: float) -> int:
    """The calendar year (UTC) of a time in seconds since the epoch."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC).year


class MailTables:
    """The methods on the notification and vacation tables (mixed into the store)."""

    _db: sqlite3.Connection
    _write_lock: threading.Lock

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        raise NotImplementedError

    def _transaction(self) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError

    def _write(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        raise NotImplementedError

    # --- notification settings ---------------------------------------------------------

    def mail_settings(self, user_id: int) -> MailSettings | None:
        """The account's settings, or ``None`` when it gave no address."""
        rows = self._read(f"{_SETTINGS} WHERE m.user_id = ?", (user_id,))
        return _settings(rows[0]) if rows else None

    def set_mail_settings(self, user_id: int, email: str, digest: float | None,
                          warn: float | None) -> bool:
        """Store the account's address and settings; whether the address is new (it is
        then not confirmed)."""
        with self._transaction():
            row = self._db.execute("SELECT email FROM mail_settings WHERE user_id = ?",
                                   (user_id,)).fetchone()
            fresh = row is None or str(row[0]).lower() != email.lower()
            self._db.execute(
                "INSERT INTO mail_settings (user_id, email, confirmed, digest, warn) "
                "VALUES (?, ?, 0, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "email = excluded.email, digest = excluded.digest, warn = excluded.warn, "
                "confirmed = CASE WHEN ? THEN 0 ELSE confirmed END",
                (user_id, email, digest, warn, int(fresh)))
        return fresh

    def forget_mail(self, user_id: int) -> None:
        """Forget the account's address and settings."""
        with self._transaction():
            self._db.execute("DELETE FROM mail_settings WHERE user_id = ?", (user_id,))
            self._db.execute("DELETE FROM mail_warnings WHERE user_id = ?", (user_id,))

    def confirm_mail(self, user_id: int, email: str) -> bool:
        """Mark the account's address confirmed if it is still ``email``; whether it
        is."""
        cursor = self._write("UPDATE mail_settings SET confirmed = 1 WHERE user_id = ? "
                             "AND email = ? COLLATE NOCASE", (user_id, email))
        return cursor.rowcount == 1

    def stop_mail(self, user_id: int, email: str) -> bool:
        """No more digests or warnings to the account if its address is still
        ``email`` (an unsubscribe link); whether it is."""
        cursor = self._write("UPDATE mail_settings SET digest = NULL, warn = NULL WHERE "
                             "user_id = ? AND email = ? COLLATE NOCASE", (user_id, email))
        return cursor.rowcount == 1

    def mail_subscribers(self) -> list[MailSettings]:
        """The accounts with a confirmed address and digests or warnings on."""
        rows = self._read(f"{_SETTINGS} WHERE m.confirmed = 1 AND (m.digest IS NOT NULL "
                          "OR m.warn IS NOT NULL) ORDER BY m.user_id")
        return [_settings(row) for row in rows]

    def digest_sent(self, user_id: int, when: float, games: set[str]) -> None:
        """Note that a digest listing ``games`` (``id:ply`` words) went to the account
        at ``when``."""
        self._write("UPDATE mail_settings SET last_digest = ?, digest_games = ? WHERE "
                    "user_id = ?", (when, " ".join(sorted(games)), user_id))

    def warned_ply(self, user_id: int, game_id: str) -> int | None:
        """The ply at which the account was last warned of the game's clock, or
        ``None``."""
        rows = self._read("SELECT ply FROM mail_warnings WHERE user_id = ? AND "
                          "game_id = ?", (user_id, game_id))
        return int(str(rows[0][0])) if rows else None

    def set_warned(self, user_id: int, game_id: str, ply: int) -> None:
        """Note a warning of the game's clock at ``ply``."""
        self._write("INSERT OR REPLACE INTO mail_warnings (user_id, game_id, ply) VALUES "
                    "(?, ?, ?)", (user_id, game_id, ply))

    # --- vacations ---------------------------------------------------------------------

    def vacations(self, user_id: int) -> list[Vacation]:
        """The account's vacations, in order."""
        rows = self._read("SELECT start, end FROM vacations WHERE user_id = ? "
                          "ORDER BY start", (user_id,))
        return [Vacation(float(str(start)), float(str(end))) for start, end in rows]

    def vacation_at(self, user_id: int, now: float) -> Vacation | None:
        """The account's vacation at ``now``, or ``None``."""
        rows = self._read("SELECT start, end FROM vacations WHERE user_id = ? AND "
                          "start <= ? AND end > ? ORDER BY start LIMIT 1",
                          (user_id, now, now))
        return Vacation(float(str(rows[0][0])), float(str(rows[0][1]))) if rows else None

    def add_vacation(self, user_id: int, now: float, days: int, most: int) -> Vacation:
        """A vacation of ``days`` from ``now``, if the account is on none and its
        vacations starting in this calendar year (UTC) count at most ``most`` days with
        it: checked and stored in one transaction.

        Raises:
            VacationError: saying which bound it passes.
        """
        year = year_of(now)
        with self._transaction():
            rows = self._db.execute("SELECT start, end FROM vacations WHERE user_id = ?",
                                    (user_id,)).fetchall()
            taken = [Vacation(float(start), float(end)) for start, end in rows]
            if any(vacation.start <= now < vacation.end for vacation in taken):
                raise VacationError("you are on vacation already: end it first")
            used = sum(vacation.days for vacation in taken
                       if year_of(vacation.start) == year)
            if used + days > most:
                raise VacationError(
                    f"a vacation of {days} days is too long: you have taken {used} of "
                    f"the {most} days a year (hexgames.limits.MAX_VACATION_DAYS), "
                    f"{most - used} are left in {year}")
            vacation = Vacation(now, now + days * _DAY)
            self._db.execute("INSERT INTO vacations (user_id, start, end) VALUES (?, ?, ?)",
                             (user_id, vacation.start, vacation.end))
        return vacation

    def end_vacation(self, user_id: int, now: float) -> Vacation | None:
        """End the account's vacation at ``now``; the vacation as it was, or ``None``
        when it was on none."""
        with self._transaction():
            row = self._db.execute(
                "SELECT id, start, end FROM vacations WHERE user_id = ? AND start <= ? "
                "AND end > ?", (user_id, now, now)).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE vacations SET end = ? WHERE id = ?", (now, row[0]))
        return Vacation(float(row[1]), float(row[2]))

    def vacation_days_used(self, user_id: int, year: int) -> int:
        """The days the account's vacations starting in ``year`` count."""
        return sum(vacation.days for vacation in self.vacations(user_id)
                   if year_of(vacation.start) == year)


_SETTINGS = ("SELECT m.user_id, u.name, m.email, m.confirmed, m.digest, m.warn, "
             "m.last_digest, m.digest_games FROM mail_settings m JOIN users u ON u.id = m.user_id")


def _number(value: object) -> float | None:
    return None if value is None else float(str(value))


def _settings(row: tuple[object, ...]) -> MailSettings:
    user_id, name, email, confirmed, digest, warn, last, games = row
    return MailSettings(int(str(user_id)), str(name), str(email), confirmed == 1,
                        _number(digest), _number(warn), _number(last),
                        frozenset(str(games or "").split()))
