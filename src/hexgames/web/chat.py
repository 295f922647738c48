"""The chat of a game between its two players (server mode), as lichess's player chat:
only the accounts in the game's seats write it and see it; watchers neither write nor
receive it, the computer never reads it (there is no chat in a game against an AI),
and it is kept with the game (the ``chat`` table, schema version 6), not in its record.

The operator turns it off with ``hexgames serve --chat off``. A message is one line of
at most :data:`hexgames.limits.MAX_CHAT_TEXT` characters; a game keeps at most
:data:`hexgames.limits.MAX_CHAT_MESSAGES` (counted and stored in one transaction) and
an account sends at most :data:`hexgames.limits.MAX_CHAT_PER_WINDOW` within
:data:`hexgames.limits.CHAT_WINDOW` seconds.

The messages of a game's socket (docs/web-protocol.md): ``{"type": "chat", "text":
...}`` writes one, sent to the players' sockets as ``{"type": "chat", "message":
CHAT}``; ``{"type": "chat_history"}`` asks for the game's messages, answered with
``{"type": "chat_history", "messages": [CHAT, ...]}``. A CHAT is ``{"id", "side",
"name", "text", "ply", "time"}``.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from hexgames import limits
from hexgames.web import policy
from hexgames.web.limiter import TooManyError, WindowLimit, wait_text
from hexgames.web.views import JSON, AppError, ConflictError
from hexgames.web.views import message_field as _field

if TYPE_CHECKING:
    from hexgames.web.searches import Subscriber
    from hexgames.web.session import GameSession

#: The statements of schema version 6: the chat messages of the games.
CHAT_TABLES = (
    """CREATE TABLE IF NOT EXISTS chat (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        side INTEGER NOT NULL,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        ply INTEGER NOT NULL,
        created TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS chat_by_game ON chat (game_id, id)",
)


class ChatTables:
    """The store's methods on the ``chat`` table (mixed into
    :class:`~hexgames.web.store.GameStore`, beside
    :class:`~hexgames.web.tables.AccountTables`, whose helpers they use)."""

    _db: sqlite3.Connection
    _transaction: Callable[[], contextlib.AbstractContextManager[None]]
    _read: Callable[..., list[tuple[object, ...]]]

    def add_chat(self, game_id: str, user_id: int, side: int, name: str, text: str,
                 ply: int, most: int) -> JSON | None:
        """Store a chat message of a game if it holds fewer than ``most``; the message
        as the protocol shows it, or ``None`` (nothing stored) when the game is full.
        The count and the insert are one transaction."""
        created = datetime.now(UTC).isoformat(timespec="seconds")
        with self._transaction():
            (count,) = self._db.execute("SELECT COUNT(*) FROM chat WHERE game_id = ?",
                                        (game_id,)).fetchone()
            if count >= most:
                return None
            cursor = self._db.execute(
                "INSERT INTO chat (game_id, user_id, side, name, text, ply, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, user_id, side, name, text, ply,
                                                 created))
        return {"id": cursor.lastrowid, "side": side, "name": name, "text": text,
                "ply": ply, "time": created}

    def chat_of(self, game_id: str) -> list[JSON]:
        """The chat messages of a game, oldest first."""
        rows = self._read("SELECT id, side, name, text, ply, created FROM chat "
                          "WHERE game_id = ? ORDER BY id", (game_id,))
        return [{"id": row[0], "side": row[1], "name": row[2], "text": row[3],
                 "ply": row[4], "time": row[5]} for row in rows]


class ChatRoom:
    """The chat of a server (``None`` on the manager when the operator turned it off):
    its rate limit of messages per account.

    Args:
        clock: monotonic seconds (tests give a fake one).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = WindowLimit(limits.MAX_CHAT_PER_WINDOW, limits.CHAT_WINDOW, clock=clock)


def allowed(session: GameSession, subscriber: Subscriber) -> bool:
    """Whether ``subscriber``'s account may read and write the game's chat (for the
    state's ``chat`` field: the page shows the chat only then)."""
    return session.manager.chat is not None and \
        policy.allows(subscriber.actor, "chat", session.facts())


def _check(session: GameSession, subscriber: Subscriber) -> None:
    if session.manager.chat is None:
        raise policy.refuse(subscriber.actor, "chat", session.stored.id,
                            "the chat is turned off on this server")
    session.check(subscriber, "chat")


def clean_text(text: str) -> str:
    """A chat message as it is kept: stripped, one line.

    Raises:
        AppError: for an empty message, one longer than
            :data:`hexgames.limits.MAX_CHAT_TEXT` or one with control characters.
    """
    if len(text) > limits.MAX_CHAT_TEXT:
        raise AppError(f"a chat message is at most {limits.MAX_CHAT_TEXT} characters, "
                       f"not {len(text)} (hexgames.limits.MAX_CHAT_TEXT)")
    text = text.strip()
    if not text:
        raise AppError("the chat message is empty")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in text):
        raise AppError("a chat message is one line of text without control characters")
    return text


def chat(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "chat", "text": ...}``: a player writes in the game's chat.

    Raises:
        ForbiddenError: for a watcher, in a game against the computer, or when the chat
            is off.
        AppError: for a bad text; TooManyError past the rate limit; ConflictError when
            the game holds its most messages.
    """
    text = _field(message, "text", str)
    _check(session, subscriber)
    text = clean_text(text)
    actor = subscriber.actor
    assert actor.user_id is not None and session.manager.chat is not None
    place = session.manager.chat.limit.take(str(actor.user_id))
    if isinstance(place, float):
        raise TooManyError(f"at most {limits.MAX_CHAT_PER_WINDOW} chat messages in "
                           f"{limits.CHAT_WINDOW:g} seconds: {wait_text(place)}", place)
    facts = session.facts()
    mine = facts.sides_of(actor)
    side = mine[0] if len(mine) == 1 or facts.turn not in mine else facts.turn
    shown = session.store.add_chat(session.stored.id, actor.user_id, side,
                                   actor.name or "?", text, len(session.stored.moves),
                                   limits.MAX_CHAT_MESSAGES)
    if shown is None:
        raise ConflictError(f"this game's chat holds its {limits.MAX_CHAT_MESSAGES} "
                            "messages: no more (hexgames.limits.MAX_CHAT_MESSAGES)")
    send_to_players(session, {"type": "chat", "message": shown})


def history(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "chat_history"}``: the game's chat, to a player's socket only.

    Raises:
        ForbiddenError: as :func:`chat`.
    """
    _check(session, subscriber)
    subscriber.send({"type": "chat_history",
                     "messages": session.store.chat_of(session.stored.id)})


def send_to_players(session: GameSession, message: JSON) -> None:
    """Send ``message`` to the sockets of the accounts in the game's seats only."""
    facts = session.facts()
    for subscriber in list(session.subscribers):
        if facts.sides_of(subscriber.actor):
            subscriber.send(message)
