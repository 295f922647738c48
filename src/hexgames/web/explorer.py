"""The opening explorer (issue 35): for a position, each move played from it in this
server's finished games (and in a collection of records imported for it), with how
many games, the score of each side, the players' average rating and the proven value
where the shipped opening book (:mod:`hexgames.book`) knows it.

The counts come from the index of :mod:`hexgames.web.explorer_tables`, never from a
scan of the games: a finished game is indexed when it ends (:meth:`Explorer.changed`,
called by the game manager after every committed change, takes a game out again when
a take-back reopens it), a deleted game is taken out, and the games that ended before
the index existed are indexed when the server starts (:meth:`Explorer.catch_up`) or by
``hexgames explorer build``.

The ratings of a server game are its players' as they stood when it was indexed (just
after it was rated): an account's Glicko-2 rating of the game once it has played a
rated game, an AI level's fixed rating (``--ai-rating``); other players count in no
average. A collection game's are its record's ``<player tag>Elo`` tags (``WhiteElo``,
``RedElo``; Abande ``BlackElo``, ``WhiteElo``) when they are numbers.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from hexgames import book
from hexgames.core import HexgamesError
from hexgames.games import GAME_NAMES, game_module
from hexgames.record import GameRecord, write_game
from hexgames.web.explorer_tables import SOURCES, IndexedGame, MoveCounts, position_key
from hexgames.web.policy import Actor, refuse
from hexgames.web.store import GameStore, StoredGame
from hexgames.web.views import JSON, AppError, uploaded_records

log = logging.getLogger("hexgames.web.explorer")

#: The longest position string an explorer query takes (characters); a longer query is
#: refused (413) before anything is parsed. Andantino's longest position of its
#: standard supply is about 700 characters.
MAX_EXPLORER_POSITION = 4000
#: The longest rules text of a query (characters).
MAX_EXPLORER_RULES = 400
#: Finished games indexed a transaction when catching up.
CATCH_UP_BATCH = 200
#: The results a game is indexed with.
_ENDS = ("1-0", "0-1", "1/2-1/2")


class QueryTooLargeError(AppError):
    """An explorer query over its caps (HTTP 413)."""

    status = 413


def _elo(text: str | None) -> float | None:
    try:
        value = float(text) if text is not None else None
    except ValueError:
        return None
    return value if value is not None and 0 <= value <= 5000 else None


def record_entry(record: GameRecord) -> IndexedGame | None:
    """The index's entry of a collection game (``None`` for an unfinished one): its id
    is a digest of its written record, so a game imported twice is indexed once."""
    if record.result not in _ENDS:
        return None
    module = game_module(record.game)
    text = write_game(record)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]
    tags = record.tags
    ratings = (_elo(tags.get(f"{module.PLAYER_TAGS[0]}Elo")),
               _elo(tags.get(f"{module.PLAYER_TAGS[1]}Elo")))
    start = record.starting_board()
    standard = module.Board(None, record.rules())
    position = None if start.position() == standard.position() else start.position()
    return IndexedGame("collection", digest, record.game.lower(),
                       tuple(record.rules().options()), position, tuple(record.moves),
                       record.result, ratings)


class Explorer:
    """The explorer of one server: its store and the fixed ratings of the AI levels."""

    def __init__(self, store: GameStore, ai_ratings: Mapping[str, float]) -> None:
        self.store = store
        self.ai_ratings = ai_ratings

    # --- the index ----------------------------------------------------------------------

    def entry(self, stored: StoredGame) -> IndexedGame | None:
        """The index's entry of a stored game, or ``None`` when it is unfinished, cannot
        be read, or was imported (a record, not a game played here: the operator adds
        records to the collection, ``hexgames explorer import``)."""
        if stored.error is not None or stored.result not in _ENDS \
                or stored.extra.get("imported"):
            return None
        ratings: list[float | None] = []
        for side in (0, 1):
            seat = stored.seats[side] if stored.seats is not None else None
            rating = None
            if seat is not None:
                found = self.store.rating(seat, stored.game)
                rating = found.rating if found.games > 0 else None
            elif len(stored.players) == 2 and stored.players[side] != "human":
                rating = self.ai_ratings.get(stored.players[side])
            ratings.append(rating)
        return IndexedGame("games", stored.id, stored.game, tuple(stored.rules),
                           stored.position, tuple(stored.moves), stored.result,
                           (ratings[0], ratings[1]))

    def changed(self, stored: StoredGame) -> None:
        """After a committed change of a game (the manager's hook): index it when it
        has ended, take it out when it runs again (a take-back)."""
        entry = self.entry(stored)
        if entry is not None:
            self.store.explorer_index([entry])
        elif stored.result == "*" and self.store.explorer_has("games", stored.id):
            self.store.explorer_remove("games", stored.id)

    def deleted(self, game_id: str) -> None:
        """A game was deleted: take it out of the index."""
        self.store.explorer_remove("games", game_id)

    def catch_up(self) -> int:
        """Index the finished games that are not in the index (those that ended
        before it existed); how many were added. A game that cannot be replayed is
        logged and left out."""
        added = 0
        missing = self.store.explorer_missing()
        for start in range(0, len(missing), CATCH_UP_BATCH):
            entries = []
            for game_id in missing[start:start + CATCH_UP_BATCH]:
                stored = self.store.get(game_id)
                entry = None if stored is None else self.entry(stored)
                if entry is not None:
                    entries.append(entry)
            try:
                added += self.store.explorer_index(entries)
            except HexgamesError:  # one bad game: index the others one by one
                for entry in entries:
                    try:
                        added += self.store.explorer_index([entry])
                    except HexgamesError as error:
                        log.warning("game %s not indexed: %s", entry.game_id, error)
        return added

    # --- the query ----------------------------------------------------------------------

    def query(self, actor: Actor, params: Mapping[str, str]) -> JSON:
        """The answer of ``GET /api/explorer`` (docs/web-protocol.md).

        Raises:
            QueryTooLargeError: for a position or rules text over its cap.
            AppError: for an unknown game or source, malformed rules or position.
            ForbiddenError: for an account that sits in a running rated game or a
                running game between two people without agreed engine help
                (:attr:`Actor.help_barred`).
        """
        barred = actor.barred_by()
        if barred:
            raise refuse(actor, "use the opening explorer", None,
                         f"no opening explorer while you play {barred}")
        position = params.get("position", "")
        rules_text = params.get("rules", "")
        if len(position) > MAX_EXPLORER_POSITION:
            raise QueryTooLargeError(
                f"the position is {len(position)} characters long: at most "
                f"{MAX_EXPLORER_POSITION}")
        if len(rules_text) > MAX_EXPLORER_RULES:
            raise QueryTooLargeError(f"the rules are {len(rules_text)} characters long: "
                                     f"at most {MAX_EXPLORER_RULES}")
        name = params.get("game", "").strip().lower()
        if name not in GAME_NAMES:
            raise AppError(f"game must be one of {', '.join(GAME_NAMES)}, not "
                           f"{name[:40]!r}")
        source = params.get("source", "all")
        sources = SOURCES if source == "all" else (source,)
        if source != "all" and source not in SOURCES:
            raise AppError(f"source must be games, collection or all, not {source[:40]!r}")
        module = game_module(name)
        try:
            rules = module.Rules.from_options(rules_text.split())
            board = module.Board(position or None, rules)
        except (HexgamesError, ValueError) as error:
            raise AppError(f"not a position of {name} under these rules: {error}") \
                from None
        options = rules.options()
        moves = self.store.explorer_moves(position_key(name, options, board.position()),
                                          sources)
        proven = book.book_move(board)
        return {"game": name, "rules": options, "position": board.position(),
                "source": source, "turn": int(board.turn),
                "games": sum(m.games for m in moves),
                "moves": [self._move_json(board, m, proven) for m in moves],
                "proven": None if proven is None else
                {"move": proven[0].notation(), "winner": int(board.turn),
                 "plies": proven[1]}}

    def _move_json(self, board: Any, counts: MoveCounts,
                   proven: tuple[Any, int] | None) -> JSON:
        """One move of the answer with its proven value from the book: a win for the
        side to move when it is the book's move here, a loss when the position it
        leads to is in the book (its mover's opponent then wins)."""
        value = None
        turn = int(board.turn)
        if proven is not None and proven[0].notation() == counts.move:
            value = {"winner": turn, "plies": proven[1]}
        else:
            try:
                after = board.copy()
                after.push_notation(counts.move)
            except HexgamesError:
                after = None
            found = None if after is None else book.book_move(after)
            if found is not None:
                value = {"winner": 1 - turn, "plies": found[1] + 1}
        average = counts.average_rating
        return {"move": counts.move, "games": counts.games,
                "wins": [counts.first_wins, counts.second_wins], "draws": counts.draws,
                "score": (counts.first_wins + counts.draws / 2) / counts.games
                if counts.games else None,
                "rating": None if average is None else round(average),
                "proven": value}


def upload(store: GameStore, actor: Actor, text: object) -> JSON:
    """``POST /api/explorer/import``: the operator adds a record's finished games to the
    collection (an administrator in server mode, the local person in the local mode);
    ``{"added", "skipped", "total"}``.

    Raises:
        ForbiddenError: for an account that is no administrator.
        TooLargeError: for a text over :data:`hexgames.limits.MAX_IMPORT_BYTES` or
            of more than :data:`hexgames.limits.MAX_IMPORT_GAMES` games.
        AppError: for text that is no record or holds no game (nothing is added then).
    """
    if not actor.local and not actor.admin:
        raise refuse(actor, "add records to the explorer", None,
                     "only an administrator adds records to the explorer's collection")
    records = uploaded_records(text, "added")
    added, skipped = import_records(store, records)
    return {"added": added, "skipped": skipped, "total": store.explorer_count("collection")}


def import_records(store: GameStore, records: Iterable[GameRecord]) -> tuple[int, int]:
    """Index collection games; (games added, games left out: unfinished or indexed
    before)."""
    entries = []
    skipped = 0
    for record in records:
        entry = record_entry(record)
        if entry is None:
            skipped += 1
        else:
            entries.append(entry)
    added = store.explorer_index(entries)
    return added, skipped + len(entries) - added
