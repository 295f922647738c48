"""The AI of a live game: :class:`GameAI` searches the moves of the sides the computer
plays, in a worker (:class:`~hexgames.web.searches.Search`), and hands each move it finds
to its :class:`~hexgames.web.session.GameSession`, which plays it. A search is made stale
by any change of the game (the session's version moves on) and its move is dropped.

The AI of a level that varies its play searches each move with a player seeded by the
game's seed and the ply (:func:`hexgames.engine.players.move_seed`), so a game can be
replayed; in a live timed game it plays by its clock (:meth:`GameAI.limit`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.base import Limit
from hexgames.engine.players import check_spec, make_player, move_seed, parse_spec
from hexgames.web import analysing
from hexgames.web.searches import Engine, Search
from hexgames.web.views import AppError, move_text
from hexgames.web.worker import ProcessEngine

if TYPE_CHECKING:
    from hexgames.web.session import GameSession

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
        if session.closed or session.over() or self.search is not None:
            return
        if not session.subscribers and not session.manager.server:
            return  # in the local mode an AI thinks only while someone watches
        side = int(session.board.turn)
        if not session.is_ai(side):
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
            info = result.info
            announce = {"type": "ai_move", "move": move_text(result.move),
                        "side": search.side, "time": round(search.elapsed(), 2),
                        "score": info.score, "depth": info.depth}
            try:
                session.play(result.move, announce)
            except AppError as error:
                session.broadcast({"type": "error", "message": str(error)})
