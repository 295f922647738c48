"""The tournaments' tables in the games database (schema version 7), as methods of
:class:`~hexgames.web.store.GameStore` (this mixin uses its connections and locks).

- ``tournaments``: one row per tournament: its name, kind (``round_robin``,
  ``double_round_robin``, ``swiss``, ``league``), game, rules, time control, whether
  its games are rated, its settings (JSON: ``max_entrants``, ``rounds``, ``scoring``,
  ``division_size``, ``promote``, ``seasons``), its creator, its status (``open``
  while entrants join, ``running``, ``finished``), the round (a league: the season)
  whose games were made last, and its state (JSON: a league's divisions, why it ended).
- ``tournament_entrants``: one row per entrant: its number (the order of joining, the
  seed), the account or the AI level, whether it leaves a league after this season.
- ``tournament_games``: one row per game (or bye) of a round: the round (a league's
  season), division, board, the entrants' numbers (``second`` null for a bye) and the
  game's id; the game's result is the ``games`` row's.

A cap (tournaments open, entrants, entries of an account) is checked and the row stored
in one transaction (``BEGIN IMMEDIATE``), so requests that arrive at once cannot pass
it together, and a round's games are stored with its pairings, and the round counted,
in one transaction that is made only once however many games end at once.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hexgames.web.tables import AccountTables, CapError

if TYPE_CHECKING:
    from hexgames.web.store import StoredGame

#: The statements of schema version 7.
TOURNAMENT_TABLES = (
    """CREATE TABLE IF NOT EXISTS tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        time_control TEXT,
        rated INTEGER NOT NULL,
        settings TEXT NOT NULL,
        creator INTEGER NOT NULL,
        status TEXT NOT NULL,
        round INTEGER NOT NULL DEFAULT 0,
        state TEXT,
        created TEXT NOT NULL,
        started TEXT,
        finished TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_entrants (
        tournament TEXT NOT NULL,
        number INTEGER NOT NULL,
        user_id INTEGER,
        ai TEXT,
        joined TEXT NOT NULL,
        leaving INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament, number),
        UNIQUE (tournament, user_id),
        UNIQUE (tournament, ai)
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_games (
        tournament TEXT NOT NULL,
        round INTEGER NOT NULL,
        division INTEGER NOT NULL,
        board INTEGER NOT NULL,
        first INTEGER NOT NULL,
        second INTEGER,
        game_id TEXT,
        PRIMARY KEY (tournament, round, division, board)
    )""",
    "CREATE INDEX IF NOT EXISTS tournament_games_by_game ON tournament_games (game_id)",
    "CREATE INDEX IF NOT EXISTS tournament_entrants_by_user ON tournament_entrants "
    "(user_id)",
)

#: The statuses of a tournament.
STATUSES = ("open", "running", "finished")


class _Stale(Exception):
    """A round that was paired for a tournament that has changed since."""


class TournamentError(ValueError):
    """An entry or a round refused by the state of the tournament (it started, it is
    full, one is in it already...); the message says which. ``status`` is the HTTP
    status the server answers with."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Tournament:
    """A row of ``tournaments`` (see the module's documentation)."""

    id: str
    name: str
    kind: str
    game: str
    rules: list[str]
    time_control: dict[str, Any] | None
    rated: bool
    settings: dict[str, Any]
    creator: int
    status: str = "open"
    round: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    created: str = ""
    started: str | None = None
    finished: str | None = None
    entrants: int = 0


@dataclass(frozen=True)
class Entrant:
    """A row of ``tournament_entrants``: its ``number``, the account (``user_id``) or
    the AI level (``ai``), and whether it leaves a league after this season."""

    number: int
    user_id: int | None
    ai: str | None
    leaving: bool = False


@dataclass(frozen=True)
class TournamentGame:
    """A row of ``tournament_games`` with its game's result and plies (``*`` and 0 for
    a bye; ``0-0``, lost by both, for a game an administrator deleted since)."""

    round: int
    division: int
    board: int
    first: int
    second: int | None
    game_id: str | None
    result: str = "*"
    plies: int = 0


#: A pairing to store: (division, board, first, second, the new game or None).
NewGame = tuple[int, int, int, int | None, "StoredGame | None"]

_TOURNAMENT = ("t.id, t.name, t.kind, t.game, t.rules, t.time_control, t.rated, t.settings, "
               "t.creator, t.status, t.round, t.state, t.created, t.started, t.finished, "
               "(SELECT COUNT(*) FROM tournament_entrants e WHERE e.tournament = t.id)")


class TournamentTables(AccountTables):
    """The methods on the tournaments' tables (mixed into the store)."""

    def add_tournament(self, tournament: Tournament, *, most_open: int,
                       most_of_creator: int) -> Tournament:
        """Store a new tournament (its ``id`` and ``created`` set here) unless
        ``most_open`` tournaments are not finished, or its creator made
        ``most_of_creator`` of them: checked and stored in one transaction.

        Raises:
            CapError: naming the cap.
        """
        from hexgames.web.store import now

        tournament.id = secrets.token_hex(6)
        tournament.created = now()
        with self._transaction():
            (total,) = self._db.execute("SELECT COUNT(*) FROM tournaments WHERE "
                                        "status != 'finished'").fetchone()
            if total >= most_open:
                raise CapError(f"the server has {total} tournaments that are not "
                               f"finished: at most {most_open} (hexgames.limits."
                               "MAX_OPEN_TOURNAMENTS)", tournament.creator)
            (own,) = self._db.execute("SELECT COUNT(*) FROM tournaments WHERE creator = ? "
                                      "AND status != 'finished'",
                                      (tournament.creator,)).fetchone()
            if own >= most_of_creator:
                raise CapError(f"you made {own} tournaments that are not finished: at "
                               f"most {most_of_creator} (hexgames.limits."
                               "MAX_TOURNAMENTS_PER_USER)", tournament.creator)
            self._db.execute(
                "INSERT INTO tournaments (id, name, kind, game, rules, time_control, rated, "
                "settings, creator, status, round, state, created) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', 0, NULL, ?)",
                (tournament.id, tournament.name, tournament.kind, tournament.game,
                 json.dumps(tournament.rules), _json_or_null(tournament.time_control),
                 int(tournament.rated), json.dumps(tournament.settings), tournament.creator,
                 tournament.created))
        return tournament

    def tournament(self, tournament_id: str) -> Tournament | None:
        """The tournament of that id, or ``None``."""
        rows = self._read(f"SELECT {_TOURNAMENT} FROM tournaments t WHERE t.id = ?",
                          (tournament_id,))
        return _tournament(rows[0]) if rows else None

    def tournaments(self, limit: int = 200) -> list[Tournament]:
        """The tournaments, open and running ones first, newest first."""
        rows = self._read(
            f"SELECT {_TOURNAMENT} FROM tournaments t ORDER BY t.status = 'finished', "
            "t.created DESC, t.rowid DESC LIMIT ?", (limit,))
        return [_tournament(row) for row in rows]

    def running_tournament_ids(self) -> list[str]:
        """The ids of the running tournaments."""
        return [str(row[0]) for row in
                self._read("SELECT id FROM tournaments WHERE status = 'running'")]

    def entrants(self, tournament_id: str) -> list[Entrant]:
        """The entrants of a tournament, by number."""
        rows = self._read("SELECT number, user_id, ai, leaving FROM tournament_entrants "
                          "WHERE tournament = ? ORDER BY number", (tournament_id,))
        return [Entrant(int(str(n)), None if u is None else int(str(u)),
                        None if a is None else str(a), leaving == 1)
                for n, u, a, leaving in rows]

    def join_tournament(self, tournament_id: str, *, user_id: int | None = None,
                        ai: str | None = None, most_entries: int) -> Entrant:
        """Enter an account (or an AI level) in a tournament that is open (a league: any
        time before it has finished; a running league's newcomer plays from the next
        season, and one who was to leave it after this season stays) and not full, if
        the account is in fewer than ``most_entries`` tournaments not finished: checked
        and stored in one transaction.

        Raises:
            TournamentError: for a tournament that is unknown (404), started or
                finished, full, or already entered; or an account at its entries.
        """
        from hexgames.web.store import now

        with self._transaction():
            row = self._db.execute("SELECT status, kind, settings FROM tournaments WHERE "
                                   "id = ?", (tournament_id,)).fetchone()
            if row is None:
                raise TournamentError(f"no tournament {tournament_id[:40]!r}", 404)
            status, kind, settings = str(row[0]), str(row[1]), json.loads(str(row[2]))
            if status == "finished" or (status == "running" and kind != "league"):
                done = "ended" if status == "finished" else "started"
                raise TournamentError(f"the tournament has {done}: entrants join only "
                                      "before it starts")
            column, value = ("user_id", user_id) if user_id is not None else ("ai", ai)
            entered = self._db.execute(f"SELECT number, leaving FROM tournament_entrants "
                                       f"WHERE tournament = ? AND {column} = ?",
                                       (tournament_id, value)).fetchone()
            if entered is not None and entered[1] == 0:
                who = "you are" if user_id is not None else f"{ai} is"
                raise TournamentError(f"{who} in this tournament already")
            (count, last) = self._db.execute(
                "SELECT COUNT(*), coalesce(max(number), -1) FROM tournament_entrants "
                "WHERE tournament = ? AND leaving = 0", (tournament_id,)).fetchone()
            most = int(settings["max_entrants"])
            if count >= most:
                raise TournamentError(f"the tournament is full: {most} entrants")
            if user_id is not None:
                (entries,) = self._db.execute(
                    "SELECT COUNT(*) FROM tournament_entrants e JOIN tournaments t ON "
                    "t.id = e.tournament WHERE e.user_id = ? AND t.status != 'finished' "
                    "AND e.leaving = 0", (user_id,)).fetchone()
                if entries >= most_entries:
                    raise TournamentError(f"you are in {entries} tournaments that are not "
                                          f"finished: at most {most_entries} "
                                          "(hexgames.limits.MAX_ENTRIES_PER_USER)")
            if entered is not None:  # one leaving a league after this season stays
                self._db.execute("UPDATE tournament_entrants SET leaving = 0 WHERE "
                                 "tournament = ? AND number = ?",
                                 (tournament_id, entered[0]))
                return Entrant(int(entered[0]), user_id, ai)
            (top,) = self._db.execute("SELECT coalesce(max(number), -1) FROM "
                                      "tournament_entrants WHERE tournament = ?",
                                      (tournament_id,)).fetchone()
            number = max(int(top), int(last)) + 1
            self._db.execute("INSERT INTO tournament_entrants (tournament, number, user_id, "
                             "ai, joined) VALUES (?, ?, ?, ?, ?)",
                             (tournament_id, number, user_id, ai, now()))
        return Entrant(number, user_id, ai)

    def leave_tournament(self, tournament_id: str, *, user_id: int | None = None,
                         ai: str | None = None) -> str:
        """Take an entrant out of a tournament: before it starts its entry goes;
        from a running league it leaves after this season (``leaving``). ``"left"`` or
        ``"leaving"``.

        Raises:
            TournamentError: for an unknown tournament (404), one that started (not a
                league) or finished, or one the entrant is not in.
        """
        with self._transaction():
            row = self._db.execute("SELECT status, kind FROM tournaments WHERE id = ?",
                                   (tournament_id,)).fetchone()
            if row is None:
                raise TournamentError(f"no tournament {tournament_id[:40]!r}", 404)
            status, kind = str(row[0]), str(row[1])
            column, value = ("user_id", user_id) if user_id is not None else ("ai", ai)
            where = f"tournament = ? AND {column} = ? AND leaving = 0"
            if not self._db.execute(f"SELECT 1 FROM tournament_entrants WHERE {where}",
                                    (tournament_id, value)).fetchone():
                who = "you are" if user_id is not None else f"{ai} is"
                raise TournamentError(f"{who} not in this tournament")
            if status == "open":
                self._db.execute(f"DELETE FROM tournament_entrants WHERE {where}",
                                 (tournament_id, value))
                return "left"
            if status == "running" and kind == "league":
                self._db.execute(f"UPDATE tournament_entrants SET leaving = 1 WHERE {where}",
                                 (tournament_id, value))
                return "leaving"
            raise TournamentError("the tournament has started: its entrants play it to "
                                  "the end (resign a game you do not want to play)")

    def delete_tournament(self, tournament_id: str) -> bool:
        """Delete a tournament that has not started, with its entries; whether it was
        deleted (``False``: unknown, or started meanwhile)."""
        with self._transaction():
            cursor = self._db.execute("DELETE FROM tournaments WHERE id = ? AND "
                                      "status = 'open'", (tournament_id,))
            if cursor.rowcount != 1:
                return False
            self._db.execute("DELETE FROM tournament_entrants WHERE tournament = ?",
                             (tournament_id,))
        return True

    def start_round(self, tournament_id: str, after: int, number: int,
                    games: list[NewGame], state: dict[str, Any], *,
                    entrants: int | None = None) -> bool:
        """Store round ``number``'s games and pairings, the tournament running at round
        ``number`` with ``state``, in one transaction, only if it stood at round
        ``after`` (so two requests, or two games ending at once, make a round once)
        and, when ``entrants`` is given, has that many entrants (none joined or left
        since they were paired); whether it was made."""
        from hexgames.web.store import now

        stamp = now()
        try:
            self._store_round(tournament_id, after, number, games, state, entrants, stamp)
        except _Stale:
            return False
        return True

    def _store_round(self, tournament_id: str, after: int, number: int,
                     games: list[NewGame], state: dict[str, Any], entrants: int | None,
                     stamp: str) -> None:
        """:meth:`start_round`'s transaction; :class:`_Stale` (rolled back) when the
        tournament is not as it was paired."""
        from hexgames.web.store import _INSERT, _row

        with self._transaction():
            cursor = self._db.execute(
                "UPDATE tournaments SET round = ?, status = 'running', state = ?, "
                "started = coalesce(started, ?) WHERE id = ? AND round = ? AND "
                "status != 'finished'",
                (number, json.dumps(state), stamp, tournament_id, after))
            if cursor.rowcount != 1:
                raise _Stale
            if entrants is not None:
                (count,) = self._db.execute("SELECT COUNT(*) FROM tournament_entrants "
                                            "WHERE tournament = ?",
                                            (tournament_id,)).fetchone()
                if count != entrants:
                    raise _Stale
            for division, board, first, second, stored in games:
                if stored is not None:
                    stored.created = stored.updated = stamp
                    self._db.execute(_INSERT, _row(stored))
                self._db.execute(
                    "INSERT INTO tournament_games (tournament, round, division, board, "
                    "first, second, game_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (tournament_id, number, division, board, first, second,
                     None if stored is None else stored.id))

    def finish_tournament(self, tournament_id: str, after: int,
                          state: dict[str, Any]) -> bool:
        """Mark a tournament finished (with ``state``) if it stood at round ``after``;
        whether it was."""
        from hexgames.web.store import now

        cursor = self._write("UPDATE tournaments SET status = 'finished', finished = ?, "
                             "state = ? WHERE id = ? AND round = ? AND status != 'finished'",
                             (now(), json.dumps(state), tournament_id, after))
        return cursor.rowcount == 1

    def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        """The games and byes of a tournament with their results, by round, division
        and board."""
        rows = self._read(
            "SELECT p.round, p.division, p.board, p.first, p.second, p.game_id, "
            "g.result, json_array_length(g.moves) FROM tournament_games p LEFT JOIN games "
            "g ON g.id = p.game_id WHERE p.tournament = ? ORDER BY p.round, p.division, "
            "p.board", (tournament_id,))
        return [TournamentGame(int(str(r)), int(str(d)), int(str(b)), int(str(f)),
                               None if s is None else int(str(s)),
                               None if g is None else str(g),
                               str(result) if result is not None
                               else "*" if g is None else "0-0",
                               0 if plies is None else int(str(plies)))
                for r, d, b, f, s, g, result, plies in rows]

    def tournament_of_game(self, game_id: str) -> str | None:
        """The id of the tournament a game belongs to, or ``None``."""
        rows = self._read("SELECT tournament FROM tournament_games WHERE game_id = ?",
                          (game_id,))
        return str(rows[0][0]) if rows else None


def _json_or_null(value: object) -> str | None:
    return None if value is None else json.dumps(value)


def _tournament(row: tuple[object, ...]) -> Tournament:
    (tid, name, kind, game, rules, control, rated, settings, creator, status, number, state,
     created, started, finished, entrants) = row
    return Tournament(str(tid), str(name), str(kind), str(game), json.loads(str(rules)),
                      None if control is None else json.loads(str(control)), rated == 1,
                      json.loads(str(settings)), int(str(creator)), str(status),
                      int(str(number)), {} if state is None else json.loads(str(state)),
                      str(created), None if started is None else str(started),
                      None if finished is None else str(finished), int(str(entrants)))
