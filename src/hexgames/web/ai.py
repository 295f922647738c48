"""The AI of a live game: :class:`GameAI` searches the moves of the sides the computer
plays, in a worker (:class:`~hexgames.web.searches.Search`), and hands each move it finds
to its :class:`~hexgames.web.session.GameSession`, which plays it. A search is made stale
by any change of the game (the session's version moves on) and its move is dropped.

The AI of a level that varies its play searches each move with a player seeded by the
game's seed and the ply (:func:`hexgames.engine.players.move_seed`), so a game can be
replayed; in a live timed game it plays by its clock (:meth:`GameAI.limit`).

In the server mode **the computer waits** while the person it plays is barred from
engine help by another running game (:meth:`GameAI.waits_for`): it does not search, its
clock is held (:meth:`~hexgames.web.clock.GameClock.hold`: neither side loses on time
meanwhile) and the state says why (``computer_waits``); when the barring ends
(:meth:`GameAI.barring_changed`, told by the manager) its clock runs again from then and
it moves.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.base import Limit
from hexgames.engine.players import check_spec, make_player, move_seed, parse_spec
from hexgames.web import analysing
from hexgames.web.searches import Engine, Search
from hexgames.web.store import StoreError
from hexgames.web.views import AppError, move_text
from hexgames.web.worker import ProcessEngine

if TYPE_CHECKING:
    from hexgames.web.session import GameSession

log = logging.getLogger("hexgames.web")

#: The fields of a ``thinking`` message to a socket shown nothing of what the AI finds
#: (:func:`hexgames.web.policy.thinking_hidden`: while a rated game runs, or to an
#: account barred from engine help): that the AI thinks, and for how long.
THINKING_SHOWN = ("side", "elapsed")
#: The fields of an ``ai_move`` message to such a socket: the move, its side and time,
#: without its score and depth.
MOVE_SHOWN = ("move", "side", "time")


class GameAI:
    """The AI's searches of one game; every method is called with the session's lock
    held (the search's callbacks take it)."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        #: The running search of the side to move, ``None`` while the AI does not think.
        self.search: Search | None = None
        self._players: dict[int, Engine] = {}
        self._busy: set[int] = set()  # ids of players that are searching
        #: The kind of game (``"a game between two people"``...) the computer waits for
        #: instead of moving (:meth:`waits_for`), ``None`` while it does not wait.
        self.waiting: str | None = None

    @property
    def thinking(self) -> bool:
        """Whether the AI searches now."""
        return self.search is not None

    def start(self) -> None:
        """Start searching if the AI is to move in a running game that is watched (or
        in server mode, watched or not) and it does not think already; the analyses of
        the sockets stop (the AI's figures stand in). A spec that cannot be played (one
        stored by an older version, say) is told to the sockets as an ``error``."""
        session = self.session
        if session.closed or session.over():
            self.waiting = None
            return
        if self.search is not None:
            return
        if not session.subscribers and not session.manager.server:
            return  # in the local mode an AI thinks only while someone watches
        side = int(session.board.turn)
        if not session.is_ai(side):
            self.waiting = None
            return
        if self._wait(side):
            return
        analysing.stop_analysis(session)
        try:
            player = self._player(side)
            limit = self.limit(side)
        except HexgamesError as error:
            session.broadcast({"type": "error", "message":
                               f"the AI of {session.names[side]} cannot play: {error}"})
            return
        self._busy.add(id(player))

        def progress(search: Search) -> None:
            with session.lock:
                if self.search is not search:
                    return
                session.broadcast_engine({"type": "thinking", **search.progress()},
                                         THINKING_SHOWN)

        self.search = Search(player, session.board, limit, version=session.version,
                             on_progress=progress, on_done=self._done)
        self.search.start()

    def waits_for(self) -> str | None:
        """The kind of game that makes the computer wait (see the module), or ``None``:
        in the server mode, a running game that bars engine help from the one account
        that plays the computer here (:meth:`~hexgames.web.tables.AccountTables.games_barring`),
        other than this game; when this game bars by itself (rated, or a tournament's),
        only a game between two people, or an older game against the computer that
        bars (the oldest moves, so no two wait for each other). A store that cannot be
        read makes it wait for nothing (logged)."""
        session = self.session
        stored = session.stored
        if not session.manager.server or stored.seats is None or session.over():
            return None
        people = [stored.seats[side] for side in (0, 1) if not session.is_ai(side)]
        if len(people) != 1 or people[0] is None:
            return None
        own = session.for_result()
        try:
            barring = session.store.games_barring(people[0])
        except Exception:
            log.exception("game %s: the games barring its player cannot be read",
                          stored.id)
            return None
        for game_id, kind, computer, created in barring:
            if game_id != stored.id and (not computer or not own or
                                         (created, game_id) < (stored.created, stored.id)):
                return kind
        return None

    def _wait(self, side: int) -> bool:
        """Whether the computer (``side``, to move) must wait now (:meth:`waits_for`):
        if so its clock is held, else it runs again (after a wait, or a restart of the
        server during one); :attr:`waiting` says which."""
        self.waiting = self.waits_for()
        clock = self.session.clock
        if clock is not None:
            now = self.session.manager.now()
            if clock.hold(side, now) if self.waiting else clock.resume(side, now):
                self._save_clock()
        return self.waiting is not None

    def _save_clock(self) -> None:
        """Save the clock held or started again, and its flag's deadline (a failed
        write is logged: the next change saves it)."""
        session = self.session
        assert session.clock is not None
        session.stored.clock = session.clock.to_json()
        try:
            session.commit()
        except StoreError as error:
            log.warning("game %s: the clock of the computer's wait was not saved: %s",
                        session.stored.id, error)
        session.manager.clock_changed(session)

    def barring_changed(self) -> bool:
        """The engine help of the game's player may have changed (a game of theirs
        started or ended): a search that must wait now is dropped and the computer
        waits, a wait that has ended ends and the computer thinks; whether either
        happened (the caller sends the state)."""
        session = self.session
        if session.closed or session.over() or not session.is_ai(int(session.board.turn)):
            return False
        if self.search is not None and self.waits_for() is not None:
            self.cancel()
        before = (self.waiting, self.thinking)
        session.start_searches()  # the analyses too, while the computer waits
        return (self.waiting, self.thinking) != before

    def cancel(self) -> None:
        """Stop the running search and drop what it finds (the game changed)."""
        if self.search is not None:
            self.search.cancel()
            self.search = None

    def move_now(self) -> None:
        """Make the running search (if any) play the best move it has found so far."""
        if self.search is not None:
            self.search.stop()

    def limit(self, side: int) -> Limit | None:
        """The AI's limit: its own (``None``), or in a live game its clock
        (``Limit(clock=seconds_left, increment=...)``) beside the depth or nodes its
        level presets, so it never spends more than its time.

        Raises:
            HexgamesError: if the side's player spec cannot be read.
        """
        session = self.session
        clock = session.clock
        if clock is None or clock.control.kind != "live":
            return None
        preset = check_spec(session.stored.players[side]).default_limit()
        # A clock can hold more than a search may take (MAX_SEARCH_SECONDS) after many
        # increments; the time manager spends a small part of it either way.
        left = min(max(0.0, clock.left(side, session.manager.now())),
                   limits.MAX_SEARCH_SECONDS)
        return Limit(nodes=preset.nodes if preset else None,
                     depth=preset.depth if preset else None,
                     playouts=preset.playouts if preset else None,
                     clock=left, increment=clock.control.increment)

    def _move_seed(self, spec: str) -> int | None:
        """The seed of the AI's next move: for a level that varies its play, from the
        game's seed and the ply (:func:`~hexgames.engine.players.move_seed`), so the
        game can be replayed; else ``None``."""
        stored = self.session.stored
        seed = stored.extra.get("seed")
        if not isinstance(seed, int) or not parse_spec(spec).varied:
            return None
        return move_seed(seed, len(stored.moves))

    def _player(self, side: int) -> Engine:
        session = self.session
        spec = session.stored.players[side]
        pool = session.manager.pool
        seed = self._move_seed(spec)
        if pool is not None:
            check_spec(spec)
            return ProcessEngine(pool, spec, f"{session.stored.id}:{side}", seed=seed)
        if seed is not None:
            return make_player(spec, seed)
        player = self._players.get(side)
        if player is None or id(player) in self._busy:
            # A stale search may still run in the old player: never share one.
            player = make_player(spec)
            self._players[side] = player
        return player

    def _done(self, search: Search, result: Any) -> None:
        session = self.session
        with session.lock:
            self._busy.discard(id(search.player))
            if self.search is not search:
                return  # stale: the game changed or was closed
            self.search = None
            if isinstance(result, Exception):
                session.broadcast({"type": "error", "message":
                                   f"the AI ({session.stored.players[search.side]}) "
                                   f"failed: {result}"})
                session.broadcast_state()
                return
            if search.version != session.version or session.closed:
                return
            if session.flag():
                return  # the AI's own flag fell while it thought
            if self._wait(search.side):  # its player was barred meanwhile: no move
                analysing.start_analysis(session)  # as when nobody thinks
                session.broadcast_state()
                return
            info = result.info
            announce = {"type": "ai_move", "move": move_text(result.move),
                        "side": search.side, "time": round(search.elapsed(), 2),
                        "score": info.score, "depth": info.depth}
            try:
                session.play(result.move, announce)
            except AppError as error:
                session.broadcast({"type": "error", "message": str(error)})
