"""The opening explorer's index in the games database (schema 9; issue 35), as methods of
:class:`~hexgames.web.store.GameStore` (this mixin uses its connections and locks, as
:class:`~hexgames.web.tables.AccountTables` does).

- ``explorer_moves``: one row per source, position and move: how many indexed games
  played the move from the position, how many the first player won, drew and the second
  player won, and the sum and number of the players' ratings known in them. The
  position is its **key**, :func:`position_key`: 16 bytes of the SHA-256 of the game,
  its rules options (sorted) and the canonical position string (``Board.position()``,
  docs/notation.md), so that the same position reached by other move orders (a
  transposition) is one row, and the same cells under other rules another. The table's
  primary key starts with the key (``WITHOUT ROWID``): the moves of one position are
  one range of the B-tree, read without looking at any game.
- ``explorer_games``: one row per indexed game and source: what was added for it (the
  game, rules, start, moves, result and ratings), so that it can be taken out again
  exactly (a take-back that reopens a finished game, a deletion) and indexed only once.

A source is ``"games"`` (this server's finished games, indexed when each ends) or
``"collection"`` (records imported for the explorer only: ``hexgames explorer import``).
A game adds each (position, move) of its first :data:`MAX_INDEXED_PLIES` plies once,
with its result, so ``games`` counts games.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hexgames.games import game_module

#: The plies of a game that are indexed: an opening explorer (the index grows with the
#: plies indexed, and past the opening almost every position is new).
MAX_INDEXED_PLIES = 60
#: The sources of the index.
SOURCES = ("games", "collection")

#: The statements of schema version 9.
EXPLORER_TABLES = (
    """CREATE TABLE IF NOT EXISTS explorer_moves (
        key BLOB NOT NULL,
        source TEXT NOT NULL,
        move TEXT NOT NULL,
        games INTEGER NOT NULL,
        first_wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        second_wins INTEGER NOT NULL,
        rating_sum REAL NOT NULL,
        rating_count INTEGER NOT NULL,
        PRIMARY KEY (key, source, move)
    ) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS explorer_games (
        source TEXT NOT NULL,
        game_id TEXT NOT NULL,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        position TEXT,
        moves TEXT NOT NULL,
        result TEXT NOT NULL,
        ratings TEXT NOT NULL,
        PRIMARY KEY (source, game_id)
    )""",
)


def position_key(game: str, rules: Iterable[str], position: str) -> bytes:
    """The index's key of a position: 16 bytes of the SHA-256 of the game's name, its
    rules options (sorted; docs/notation.md's words) and its canonical position string
    (what ``Board.position()`` writes)."""
    text = f"{game.lower()}|{' '.join(sorted(rules))}|{position}"
    return hashlib.sha256(text.encode("utf-8")).digest()[:16]


@dataclass(frozen=True)
class IndexedGame:
    """A game as the index takes it.

    Attributes:
        source: ``"games"`` or ``"collection"``.
        game_id: the stored game's id, or a collection game's (a digest of its record).
        game: the game's name (``andantino``, ``abande``).
        rules: its rules options as words.
        position: its start, or ``None`` for the standard start.
        moves: its moves in notation.
        result: ``1-0``, ``0-1`` or ``1/2-1/2``.
        ratings: each player's rating when indexed, first player first (``None``:
            unknown, not counted in the average).
    """

    source: str
    game_id: str
    game: str
    rules: tuple[str, ...]
    position: str | None
    moves: tuple[str, ...]
    result: str
    ratings: tuple[float | None, float | None]


@dataclass(frozen=True)
class MoveCounts:
    """One move of a position in the index (summed over the sources asked for)."""

    move: str
    games: int
    first_wins: int
    draws: int
    second_wins: int
    rating_sum: float
    rating_count: int

    @property
    def average_rating(self) -> float | None:
        """The mean of the known ratings of the players of these games, or ``None``."""
        return self.rating_sum / self.rating_count if self.rating_count else None


def game_steps(entry: IndexedGame) -> list[tuple[bytes, str]]:
    """The (position key, move) pairs ``entry`` adds: its first
    :data:`MAX_INDEXED_PLIES` plies, each pair once.

    Raises:
        HexgamesError: if a move is illegal (a corrupt row).
    """
    module = game_module(entry.game)
    rules = module.Rules.from_options(list(entry.rules))
    board = module.Board(entry.position, rules)
    options = rules.options()
    steps: dict[tuple[bytes, str], None] = {}
    for text in entry.moves[:MAX_INDEXED_PLIES]:
        key = position_key(entry.game, options, board.position())
        move = board.parse_notation(text)
        steps[(key, move.notation())] = None
        board.push(move)
    return list(steps)


class ExplorerTables:
    """The methods on the explorer's tables (mixed into the store)."""

    _db: sqlite3.Connection
    _write_lock: threading.Lock

    def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        raise NotImplementedError

    def _error(self, error: sqlite3.Error) -> Exception:
        raise NotImplementedError

    def _transaction(self) -> Any:
        raise NotImplementedError

    def explorer_index(self, entries: Iterable[IndexedGame]) -> int:
        """Add the games to the index (in one transaction); one indexed before with the
        same moves and result is left as it is, one indexed with others is taken out
        first. How many games were added.

        Raises:
            HexgamesError: if an entry's moves cannot be replayed (nothing is written).
        """
        prepared = [(entry, game_steps(entry)) for entry in entries]
        added = 0
        with self._transaction():
            for entry, steps in prepared:
                row = self._db.execute(
                    "SELECT moves, result FROM explorer_games WHERE source = ? AND "
                    "game_id = ?", (entry.source, entry.game_id)).fetchone()
                if row is not None:
                    if json.loads(row[0]) == list(entry.moves) and row[1] == entry.result:
                        continue
                    self._take_out(entry.source, entry.game_id)
                self._add(entry, steps, 1)
                self._db.execute(
                    "INSERT INTO explorer_games (source, game_id, game, rules, position, "
                    "moves, result, ratings) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (entry.source, entry.game_id, entry.game, json.dumps(list(entry.rules)),
                     entry.position, json.dumps(list(entry.moves)), entry.result,
                     json.dumps(list(entry.ratings))))
                added += 1
        return added

    def explorer_remove(self, source: str, game_id: str) -> bool:
        """Take a game out of the index; whether it was in it."""
        with self._transaction():
            return self._take_out(source, game_id)

    def explorer_has(self, source: str, game_id: str) -> bool:
        """Whether the game is in the index."""
        return bool(self._read("SELECT 1 FROM explorer_games WHERE source = ? AND "
                               "game_id = ?", (source, game_id)))

    def explorer_missing(self) -> list[str]:
        """The ids of this server's finished games (imported records apart) that are not
        in the index."""
        rows = self._read(
            "SELECT id FROM games WHERE result IN ('1-0', '0-1', '1/2-1/2') AND "
            "CASE WHEN json_valid(extra) THEN coalesce(json_extract(extra, '$.imported'), "
            "0) ELSE 0 END = 0 AND id NOT IN "
            "(SELECT game_id FROM explorer_games WHERE source = 'games') ORDER BY rowid")
        return [str(row[0]) for row in rows]

    def explorer_moves(self, key: bytes, sources: Iterable[str]) -> list[MoveCounts]:
        """The moves played from the position ``key`` in the games of ``sources``, the
        most played first (then by their text)."""
        wanted = list(sources)
        marks = ", ".join("?" for _ in wanted)
        rows = self._read(
            "SELECT move, sum(games), sum(first_wins), sum(draws), sum(second_wins), "
            f"sum(rating_sum), sum(rating_count) FROM explorer_moves WHERE key = ? AND "
            f"source IN ({marks}) GROUP BY move ORDER BY sum(games) DESC, move",
            (key, *wanted))
        return [MoveCounts(str(r[0]), int(str(r[1])), int(str(r[2])), int(str(r[3])),
                           int(str(r[4])), float(str(r[5])), int(str(r[6]))) for r in rows]

    def explorer_count(self, source: str) -> int:
        """How many games of ``source`` are indexed."""
        (count,) = self._read("SELECT COUNT(*) FROM explorer_games WHERE source = ?",
                              (source,))[0]
        return count if isinstance(count, int) else 0

    # --- inside a transaction -----------------------------------------------------------

    def _take_out(self, source: str, game_id: str) -> bool:
        row = self._db.execute(
            "SELECT game, rules, position, moves, result, ratings FROM explorer_games "
            "WHERE source = ? AND game_id = ?", (source, game_id)).fetchone()
        if row is None:
            return False
        ratings = json.loads(row[5])
        entry = IndexedGame(source, game_id, str(row[0]), tuple(json.loads(row[1])),
                            row[2], tuple(json.loads(row[3])), str(row[4]),
                            (ratings[0], ratings[1]))
        steps = game_steps(entry)
        self._add(entry, steps, -1)
        self._db.executemany("DELETE FROM explorer_moves WHERE key = ? AND source = ? AND "
                             "move = ? AND games <= 0",
                             [(key, source, move) for key, move in steps])
        self._db.execute("DELETE FROM explorer_games WHERE source = ? AND game_id = ?",
                         (source, game_id))
        return True

    def _add(self, entry: IndexedGame, steps: list[tuple[bytes, str]], sign: int) -> None:
        first = int(entry.result == "1-0")
        draw = int(entry.result == "1/2-1/2")
        second = int(entry.result == "0-1")
        known = [r for r in entry.ratings if r is not None]
        rating_sum = float(sum(known))
        self._db.executemany(
            "INSERT INTO explorer_moves (key, source, move, games, first_wins, draws, "
            "second_wins, rating_sum, rating_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (key, source, move) DO UPDATE SET games = games + excluded.games, "
            "first_wins = first_wins + excluded.first_wins, draws = draws + excluded.draws, "
            "second_wins = second_wins + excluded.second_wins, "
            "rating_sum = rating_sum + excluded.rating_sum, "
            "rating_count = rating_count + excluded.rating_count",
            [(key, entry.source, move, sign, sign * first, sign * draw, sign * second,
              sign * rating_sum, sign * len(known)) for key, move in steps])
