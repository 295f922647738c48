"""Quick pairing (server mode): the seek pool beside the lobby's challenges, as lichess's
"quick pairing". An account picks a game and a time control of :data:`POOLS` and seeks;
the server pairs two seekers of the same game, time control and rating, at once and in
one step under the pool's lock (two who seek at once get exactly one game), with the
colours drawn by lot, and takes both to the game: the second learns its id in the
answer to its seek, the first when its lobby next asks (``GET /api/seeks``).

Seeks live in memory: a restart forgets them. A seek whose page has not asked after it
for :data:`hexgames.limits.SEEK_IDLE_SECONDS` is dropped, so nobody is paired with a
page that was closed. An account holds at most one seek (a second is refused, 409).

Routes (docs/web-protocol.md): ``GET /api/seeks`` (the pools with how many wait in
each, the account's own seek and the game it was paired into), ``POST /api/seeks``
``{"game", "pool", "rated"}`` (201 with ``{"game": SUMMARY}`` when paired at once, 202
with ``{"seek": ...}`` when it waits), ``DELETE /api/seeks``.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hexgames import limits
from hexgames.games import GAME_NAMES, game_module
from hexgames.web import policy
from hexgames.web.clock import TimeControl
from hexgames.web.lobby import Lobby
from hexgames.web.policy import Actor
from hexgames.web.summary import summary
from hexgames.web.views import HUMAN, JSON, AppError, ConflictError

#: The time controls of the quick pairing: name -> TIME_CONTROL (docs/web-protocol.md).
POOLS: dict[str, JSON] = {
    "1+0": {"kind": "live", "base": 60, "increment": 0},
    "3+2": {"kind": "live", "base": 180, "increment": 2},
    "5+3": {"kind": "live", "base": 300, "increment": 3},
    "10+5": {"kind": "live", "base": 600, "increment": 5},
    "15+10": {"kind": "live", "base": 900, "increment": 10},
    "1d": {"kind": "correspondence", "days": 1},
    "3d": {"kind": "correspondence", "days": 3},
}


@dataclass
class Seek:
    """One account waiting in a pool."""

    user_id: int
    name: str
    game: str
    pool: str
    rated: bool
    seen: float  # monotonic seconds: when its page last asked

    def key(self) -> tuple[str, str, bool]:
        return (self.game, self.pool, self.rated)

    def json(self) -> JSON:
        return {"game": self.game, "pool": self.pool, "rated": self.rated}


class SeekPool:
    """The seeks waiting and the games they were paired into (thread-safe).

    Args:
        lobby: makes the games (:meth:`~hexgames.web.lobby.Lobby`).
        clock: monotonic seconds (tests give a fake one).
    """

    def __init__(self, lobby: Lobby, clock: Callable[[], float] = time.monotonic) -> None:
        self.lobby = lobby
        self.clock = clock
        self._seeks: dict[int, Seek] = {}  # user id -> seek, in the order they came
        self._paired: dict[int, str] = {}  # user id -> the game it was paired into
        self._lock = threading.Lock()

    def _expire(self, now: float) -> None:
        for user, seek in list(self._seeks.items()):
            if now - seek.seen > limits.SEEK_IDLE_SECONDS:
                del self._seeks[user]

    def seek(self, actor: Actor, body: dict[str, Any]) -> tuple[int, JSON]:
        """``POST /api/seeks``: ``actor`` seeks a game; (201, ``{"game": SUMMARY}``)
        when paired with a seeker waiting in the same pool, else (202, ``{"seek"}``).

        Raises:
            AppError: for a bad game, pool or rated field.
            ConflictError: for a second seek of the account, a full pool, or a running
                games' cap reached.
        """
        policy.require_account(actor, "seek a game")
        assert actor.user_id is not None
        name = body.get("game")
        if not isinstance(name, str):
            raise AppError(f"\"game\" must be the name of a game ({', '.join(GAME_NAMES)})")
        module = game_module(name)
        game = module.GAME_NAME.lower()
        pool = body.get("pool")
        if not isinstance(pool, str) or pool not in POOLS:
            raise AppError(f"\"pool\" must be one of {', '.join(POOLS)}")
        rated = body.get("rated", False)
        if not isinstance(rated, bool):
            raise AppError("rated must be true or false")
        now = self.clock()
        with self._lock:
            self._expire(now)
            if actor.user_id in self._seeks:
                raise ConflictError("you are seeking a game already: cancel that seek "
                                    "first")
            self._paired.pop(actor.user_id, None)
            mine = Seek(actor.user_id, actor.name or "?", game, pool, rated, now)
            other = next((s for s in self._seeks.values()
                          if s.key() == mine.key() and s.user_id != actor.user_id), None)
            if other is None:
                if len(self._seeks) >= limits.MAX_SEEKS:
                    raise ConflictError(f"{limits.MAX_SEEKS} seeks wait already: try again "
                                        "later (hexgames.limits.MAX_SEEKS)")
                self._seeks[actor.user_id] = mine
                return 202, {"seek": mine.json()}
            # the pairing and the game are one step under the lock
            seats: list[int | None] = [other.user_id, actor.user_id]
            if secrets.randbelow(2):
                seats.reverse()
            control = TimeControl.from_json(POOLS[pool])
            stored = self.lobby._new_game(game, module.Rules().options(), [HUMAN, HUMAN],
                                          seats, control, rated, other.user_id,
                                          actor=actor, extra={"seek": pool})
            del self._seeks[other.user_id]
            self._paired[other.user_id] = stored.id
        return 201, {"game": summary(stored, self.lobby.manager.account_names(stored))}

    def status(self, actor: Actor) -> JSON:
        """``GET /api/seeks``: the pools, how many wait in each (by game and rating),
        ``actor``'s own seek (kept alive by this call) and ``game``, the id of the game
        it was paired into (told once)."""
        policy.require_account(actor, "see the seeks")
        assert actor.user_id is not None
        now = self.clock()
        with self._lock:
            self._expire(now)
            own = self._seeks.get(actor.user_id)
            if own is not None:
                own.seen = now
            waiting: dict[str, int] = {}
            for seek in self._seeks.values():
                if seek.user_id != actor.user_id:
                    key = f"{seek.game} {seek.pool}{' rated' if seek.rated else ''}"
                    waiting[key] = waiting.get(key, 0) + 1
            paired = self._paired.pop(actor.user_id, None)
        return {"pools": [{"name": name, "time_control": control,
                           "time_text": TimeControl.from_json(control).describe()  # type: ignore[union-attr]
                           } for name, control in POOLS.items()],
                "waiting": waiting, "seek": own.json() if own is not None else None,
                "game": paired}

    def cancel(self, actor: Actor) -> JSON:
        """``DELETE /api/seeks``: ``actor`` stops seeking (nothing if it was not)."""
        policy.require_account(actor, "cancel a seek")
        assert actor.user_id is not None
        with self._lock:
            gone = self._seeks.pop(actor.user_id, None)
        return {"cancelled": gone is not None}
