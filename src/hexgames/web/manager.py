"""The open games of the browser app: :class:`GameManager` replays a stored game into a
:class:`~hexgames.web.session.GameSession` on first use, keeps it while it is watched or
searched (letting idle ones go, :meth:`GameManager.evict_idle`), watches the clocks'
deadlines (:meth:`GameManager.sweep` flags a fallen one) and makes the engines of hints
and analysis.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.players import make_player, with_options
from hexgames.proving import ANALYSIS
from hexgames.web.chat import ChatRoom
from hexgames.web.clock import GameClock, TimeSource, wall_clock
from hexgames.web.policy import Actor
from hexgames.web.searches import Engine, HelperSlots, Subscriber
from hexgames.web.session import GameSession, SessionEvictedError
from hexgames.web.store import GameStore, StoredGame
from hexgames.web.summary import first_turn
from hexgames.web.tables import GameResult, Rating
from hexgames.web.views import HUMAN, JSON, AppError, ConflictError, NotFoundError
from hexgames.web.worker import ProcessEngine, WorkerPool

log = logging.getLogger("hexgames.web")


#: Called with a session whose game has just ended (the lock held).
FinishedHook = Callable[[GameSession], None]


class GameManager:
    """The open sessions of one store.

    Args:
        store: where games live.
        hint_time: seconds the engine thinks for a hint.
        analysis_time: seconds one analysis runs at most before it stops by itself.
        helper_spec: the player spec of hints and analysis.
        game_analysis_time: seconds of search a position in a whole-game analysis.
        pool: the worker processes that searches run in; ``None`` runs them in threads
            of the server's process.
        server: the server mode (seats, clocks, an AI that moves while nobody watches).
        now: the time source of the clocks (seconds since the epoch).
        on_finished: called when a game ends (the server mode's ratings).
    """

    def __init__(self, store: GameStore, *, hint_time: float = 1.0,
                 analysis_time: float = 60.0, helper_spec: str = "alphabeta",
                 pool: WorkerPool | None = None, server: bool = False,
                 now: TimeSource = wall_clock,
                 on_finished: FinishedHook | None = None,
                 game_analysis_time: float = 0.5) -> None:
        self.store = store
        self.pool = pool
        #: The hints and analyses running for people (server mode: bounded per account
        #: and in all, half the workers at most, so the AIs' moves find workers).
        total = max(1, (pool.limit if pool is not None else 8) // 2)
        self.help = HelperSlots(limits.MAX_HELP_PER_USER if server else 1 << 30,
                                total if server else 1 << 30)
        self.hint_time = hint_time
        self.analysis_time = analysis_time
        self.game_analysis_time = game_analysis_time
        self.helper_spec = helper_spec
        self.server = server
        self.now = now
        self.on_finished = on_finished
        #: Called after every committed change of a game (the opening explorer's index).
        self.on_changed: Callable[[GameSession], None] | None = None
        #: The ratings of a game from its rated results in order (the lobby's fold);
        #: the default knows no ratings.
        self.rerate: Callable[[list[GameResult]], dict[int, Rating]] = lambda results: {}
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()
        self._deadlines: dict[str, float] = {}  # game id -> when its running flag falls
        self._deadline_lock = threading.Lock()
        self._names: dict[int, str] = {}
        #: Makes the rematch of a finished game, its id (the lobby's
        #: :meth:`~hexgames.web.lobby.Lobby.rematch`); the default makes none.
        self.make_rematch: Callable[[GameSession], str] = _no_rematch
        #: The ratings of the accounts (or AI levels) in a game's seats, for the state
        #: (the lobby's :meth:`~hexgames.web.lobby.Lobby.seat_ratings`).
        self.seat_ratings: Callable[[StoredGame], list[JSON | None] | None] = \
            lambda stored: None
        #: The games' chat (:mod:`hexgames.web.chat`), ``None`` when it is off.
        self.chat: ChatRoom | None = None
        #: The seated games known to run (:meth:`seats_changed`), and the one thread
        #: that tells the sockets of their accounts when their engine help changed.
        self._running_seated: set[str] = set()
        #: Guards :attr:`_running_seated` alone, and is held for nothing else: it is
        #: taken under a game's lock, which :meth:`delete` takes under the manager's.
        self._seated_lock = threading.Lock()
        self._help_news = ThreadPoolExecutor(1, thread_name_prefix="help-news")

    def account_names(self, stored: StoredGame) -> list[str | None] | None:
        """The names of the accounts in a game's seats (``None`` for a local game)."""
        if stored.seats is None:
            return None
        wanted = {seat for seat in stored.seats if seat is not None}
        missing = wanted - self._names.keys()
        if missing:
            self._names.update(self.store.user_names(missing))
        return [None if seat is None else self._names.get(seat, "(removed)")
                for seat in stored.seats]

    def forget_names(self) -> None:
        """Forget the cached account names (an account was removed)."""
        self._names.clear()

    def help_now(self, actor: Actor) -> Actor:
        """``actor`` with the engine help its account has now, its running games read
        from the store (server mode), rather than as one of its sockets last knew it
        (:meth:`seats_changed` tells the sockets from a thread of its own, later)."""
        if not self.server or actor.local or actor.user_id is None:
            return actor
        return dataclasses.replace(
            actor, help_barred=self.store.games_without_help(actor.user_id))

    def make_helper(self, game_id: str, multipv: int = 1) -> Engine:
        """A new engine for the hints and analysis of a game; with ``multipv`` above 1
        the helper searches that many lines when its player takes the option
        (:func:`~hexgames.engine.players.with_options`), else one. A helper that takes
        them gets :data:`hexgames.proving.ANALYSIS`: the solver first, for a fifth of
        the time, so a value in reach is shown proven.

        Raises:
            HexgamesError: if the helper spec cannot be made.
        """
        spec = with_options(self.helper_spec, ANALYSIS)  # proven values where in reach
        if multipv > 1:
            spec = with_options(spec, {"multipv": str(multipv)})
        if self.pool is not None:
            return ProcessEngine(self.pool, spec, f"{game_id}:helper")
        return make_player(spec)

    def session(self, game_id: str) -> GameSession:
        """The session of a stored game, opened (replayed) on first use.

        Raises:
            NotFoundError: for an unknown id.
            ConflictError: if the stored row cannot be read or its moves cannot be
                replayed.
        """
        with self._lock:
            session = self._sessions.get(game_id)
            if session is not None:
                session.last_used = time.monotonic()
                return session
            stored = self.store.get(game_id)
            if stored is None:
                raise NotFoundError(f"no game with id {game_id[:40]!r}")
            if stored.error is not None:
                raise ConflictError(stored.error)
            try:
                session = GameSession(self, stored)
            except (HexgamesError, ValueError) as error:
                raise ConflictError(f"game {game_id} cannot be replayed: {error}") from None
            self._sessions[game_id] = session
            return session

    def subscribe(self, game_id: str, subscriber: Subscriber) -> GameSession:
        """Open a game and add a socket to it (:meth:`GameSession.subscribe`), again if
        the session was let go of meanwhile; the session.

        Raises:
            NotFoundError, ConflictError: as :meth:`session`.
            ForbiddenError: if the socket's account may not watch the game.
        """
        while True:
            session = self.session(game_id)
            try:
                session.subscribe(subscriber)
                return session
            except SessionEvictedError:
                continue

    def evict_idle(self, keep: int = limits.MAX_IDLE_SESSIONS) -> int:
        """Let go of the least recently used sessions past ``keep`` among those where
        nothing happens (no socket, no search), so the games kept in memory stay
        bounded however many are opened; how many. Their games are replayed when next
        opened."""
        evicted = 0
        with self._lock:
            idle = sorted((s for s in self._sessions.values() if s.idle()),
                          key=lambda s: s.last_used)
            for session in idle[:max(0, len(idle) - keep)]:
                if not session.lock.acquire(blocking=False):
                    continue  # busy now: not idle after all
                try:
                    if session.idle() and not session.closed:
                        session.closed = session.evicted = True
                        del self._sessions[session.stored.id]
                        evicted += 1
                finally:
                    session.lock.release()
        return evicted

    def forget(self, session: GameSession) -> None:
        """Let go of a session that was closed because its game is gone (aborted: see
        :func:`hexgames.web.live.abort`), and of its deadline. Call it without the
        session's lock held (the manager's lock is taken before a session's)."""
        with self._lock:
            if self._sessions.get(session.stored.id) is session:
                del self._sessions[session.stored.id]
        with self._deadline_lock:
            self._deadlines.pop(session.stored.id, None)

    def watch_deadline(self, game_id: str, deadline: float | None) -> None:
        """Note when the running flag of a game not opened yet falls (a new game made
        while another game's lock is held, which must not open a session)."""
        if deadline is not None:
            with self._deadline_lock:
                self._deadlines[game_id] = deadline

    def open_count(self) -> int:
        """How many games are kept replayed in memory."""
        with self._lock:
            return len(self._sessions)

    def changed(self, session: GameSession) -> None:
        """After a committed change of a session: note when its flag falls, and report
        a game that has ended."""
        self.clock_changed(session)
        seats = session.stored.seats
        with self._seated_lock:
            known_running = session.stored.id in self._running_seated
        if seats is not None and session.over() == known_running:
            self.seats_changed(session.stored.id, seats, running=not session.over())
        if session.over() and self.on_finished is not None:
            try:
                self.on_finished(session)
            except Exception:
                log.exception("after the end of game %s", session.stored.id)
        if self.on_changed is not None:
            try:
                self.on_changed(session)
            except Exception:
                log.exception("after a change of game %s", session.stored.id)

    def clock_changed(self, session: GameSession) -> None:
        """Note when the flag of a session's game falls now (none: stopped or over)."""
        clock = session.clock
        deadline = clock.deadline() if clock is not None and not session.over() else None
        with self._deadline_lock:
            if deadline is None:
                self._deadlines.pop(session.stored.id, None)
            else:
                self._deadlines[session.stored.id] = deadline

    def seats_changed(self, game_id: str, seats: Iterable[int | None], *,
                      running: bool) -> None:
        """A seated game has started (``running``) or ended, or was deleted: the engine
        help of its accounts may have changed everywhere (a running rated game, or one
        between two people without agreed help, bars it: :attr:`Actor.help_barred
        <hexgames.web.policy.Actor.help_barred>`). Their sockets on other games are
        sent a new state with their ``help`` when it did (and lose an analysis they may
        no longer have: :meth:`~hexgames.web.session.GameSession.help_changed`), from a
        thread of its own (it takes other games' locks, which the caller's lock must not
        wait for). The computer stops or starts in their games against it as it must
        wait for them or no longer (:meth:`~hexgames.web.ai.GameAI.barring_changed`)."""
        with self._seated_lock:
            if running:
                self._running_seated.add(game_id)
            else:
                self._running_seated.discard(game_id)
        accounts = frozenset(seat for seat in seats if seat is not None)
        if not self.server or not accounts:
            return
        with contextlib.suppress(RuntimeError):  # (the server stops)
            self._help_news.submit(self._tell_help, accounts)

    def _tell_help(self, accounts: frozenset[int]) -> None:
        """Send a new state to the sockets of ``accounts`` whose engine help changed."""
        try:
            barred = {user_id: self.store.games_without_help(user_id)
                      for user_id in accounts}
            with self._lock:
                sessions = list(self._sessions.values())
            for session in sessions:
                with session.lock:
                    if session.closed:
                        continue
                    waits = not accounts.isdisjoint(session.stored.seats or ()) and \
                        session.ai.barring_changed()
                    for subscriber in list(session.subscribers):
                        actor = subscriber.actor
                        now = barred.get(actor.user_id) if actor.user_id is not None \
                            else None
                        if now is None or actor.local or actor.help_barred == now:
                            if waits:  # the computer waits now, or no longer
                                subscriber.send(session.state(subscriber))
                            continue
                        session.help_changed(subscriber,
                                             dataclasses.replace(actor, help_barred=now))
        except Exception:
            log.exception("telling the sockets of accounts %s of their engine help",
                          sorted(accounts))

    def watch_stored(self) -> int:
        """At start: note the deadlines of every running timed game of the store, and
        (server mode) know the running seated games, whose end is news for their
        accounts' engine help (:meth:`seats_changed`), and open those whose AI is to
        move, so that it moves; how many games are watched."""
        for game_id in self.store.timed_running_ids():
            stored = self.store.get(game_id)
            if stored is None or stored.clock is None or stored.error is not None:
                continue
            try:
                deadline = GameClock.from_json(stored.clock).deadline()
            except (ValueError, TypeError):
                continue
            if deadline is not None:
                with self._deadline_lock:
                    self._deadlines[game_id] = deadline
        if self.server:  # the running games of accounts, without their records
            running = self.store.running_seated_ids()
            with self._seated_lock:  # their end is news (:meth:`changed`), after a restart
                self._running_seated.update(running)
            for game_id in running:
                stored = self.store.get(game_id, whole=False)
                if stored is None or stored.seats is None or stored.error:
                    continue
                turn = (len(stored.moves) + first_turn(stored)) % 2
                if stored.players[turn] != HUMAN:
                    with contextlib.suppress(AppError):
                        session = self.session(stored.id)
                        with session.lock:
                            session.start_searches()
        with self._deadline_lock:
            return len(self._deadlines)

    def sweep(self) -> list[str]:
        """Flag every game whose clock ran out by now (:attr:`now`); their ids."""
        now = self.now()
        with self._deadline_lock:
            due = [game_id for game_id, when in self._deadlines.items() if when <= now]
        flagged = []
        for game_id in due:
            try:
                session = self.session(game_id)
            except AppError:
                with self._deadline_lock:
                    self._deadlines.pop(game_id, None)
                continue
            try:
                if session.flag():
                    flagged.append(game_id)
                    if session.closed:  # aborted: no first move in time
                        self.forget(session)
                else:
                    self.changed(session)  # the deadline moved (a move came in time)
            except AppError as error:
                log.warning("flagging game %s failed: %s", game_id, error)
            except Exception:  # one game's fault stops no other flag, nor the start
                log.exception("flagging game %s failed: it is left as it is until the "
                              "next start", game_id)
                with self._deadline_lock:
                    self._deadlines.pop(game_id, None)
        return flagged

    def deadlines(self) -> dict[str, float]:
        """Game id -> when its running flag falls (a copy)."""
        with self._deadline_lock:
            return dict(self._deadlines)

    def delete(self, game_id: str) -> None:
        """Delete a game, stopping its searches and closing its sockets; a rated result
        of it goes too, and the ratings of its game are folded again from the others
        (:attr:`rerate`).

        Raises:
            NotFoundError: for an unknown id.
        """
        with self._lock:  # held until the row is gone: nobody opens the game meanwhile
            session = self._sessions.pop(game_id, None)
            if session is not None:
                session.close()
                seats = session.stored.seats
            else:  # a game not open bars engine help too (the computer waits for it)
                stored = self.store.get(game_id, whole=False)
                seats = None if stored is None else stored.seats
            if not self.store.delete_game(game_id, self.rerate):
                raise NotFoundError(f"no game with id {game_id[:40]!r}")
        with self._deadline_lock:
            self._deadlines.pop(game_id, None)
        if seats is not None:
            self.seats_changed(game_id, seats, running=False)

    def close(self) -> None:
        """Stop every search (the server stops)."""
        self._help_news.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()
        if self.pool is not None:
            self.pool.close()


def _no_rematch(session: GameSession) -> str:
    raise ConflictError("this server makes no rematches")
