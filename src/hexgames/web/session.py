"""Live games of the browser app: one game's state, its sockets and every change to it.

A :class:`GameSession` holds one game's board (rebuilt from the store by replaying the
moves), its study record (:mod:`hexgames.web.study`: its main line always the game's
moves, grafted on at every change) and the sockets watching it. Every change is committed
to the store before it is announced. The AI (:mod:`hexgames.web.ai`), hints and analysis
(:mod:`hexgames.web.analysing`) search in worker threads
(:class:`~hexgames.web.searches.Search`); a search's result is applied only if the game
has not changed since it began, so an undo or a new move simply makes a running search
stale (it is stopped and its move dropped).

The methods of a session may be called from any thread: one lock per session guards the
board, and messages to a socket go through that socket's event loop
(:class:`~hexgames.web.searches.Subscriber`).

In the server mode each socket belongs to an account (:attr:`Subscriber.actor`) and
every message is checked by :func:`hexgames.web.policy.check` before it acts; a game has
seats, maybe a clock (:class:`~hexgames.web.clock.GameClock`, whose readings are saved
with each move in the same statement) and a standing draw offer or take-back request
(:mod:`hexgames.web.offers`). A fallen flag is found by
:meth:`~hexgames.web.manager.GameManager.sweep` (or by the next message to the game) and
ends it as ``time-forfeit``; a game that ends is handed to
:attr:`~hexgames.web.manager.GameManager.on_finished` (the ratings). An AI of the server
mode moves whether anyone watches or not.

Layers: :class:`GameSession` is the one place that changes a game
(:meth:`~GameSession.play`, :meth:`~GameSession.take_back`, :meth:`~GameSession.end`)
or its study record (:meth:`~GameSession.save_study`), each change committed, then
broadcast. The handlers of ``_HANDLERS`` only check and call those: the play messages
(``move``, ``undo``, ``resign``, ``state``, ``stop``) here, the offers in
:mod:`hexgames.web.offers`, the engine's help in :mod:`hexgames.web.analysing`, the
study board in :mod:`hexgames.web.studying` (the positions it looks at are kept by
:class:`~hexgames.web.positions.Positions`). The open sessions are kept by
:class:`~hexgames.web.manager.GameManager`.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hexgames import limits
from hexgames.analysis import has_annotations, without_annotations
from hexgames.core import HexgamesError
from hexgames.engine.players import parse_spec
from hexgames.games import game_module
from hexgames.record import GameRecord
from hexgames.web import analysing, chat, live, offers, policy, study, studying
from hexgames.web.ai import MOVE_SHOWN, GameAI
from hexgames.web.clock import GameClock
from hexgames.web.game_analysis import GameAnalysisRun
from hexgames.web.policy import Actor, GameFacts
from hexgames.web.positions import Positions
from hexgames.web.searches import Search, Subscriber
from hexgames.web.store import StoredGame, StoreError
from hexgames.web.study import EARLY_ENDS
from hexgames.web.summary import summary
from hexgames.web.tables import CapError
from hexgames.web.views import (
    HUMAN,
    JSON,
    AppError,
    ConflictError,
    NotFoundError,
    board_json,
    json_object,
    move_text,
    moves_json,
    rules_json,
    winner,
)
from hexgames.web.views import message_field as _field

if TYPE_CHECKING:
    from hexgames.web.manager import GameManager

log = logging.getLogger("hexgames.web")

#: The longest move text read (the cap lives with the others).
MAX_MOVE_TEXT = limits.MAX_MOVE_TEXT


class SessionEvictedError(Exception):
    """A session the manager let go of while idle (its game is still stored)."""


class GameSession:
    """One game in play: its board, the sockets watching it and its searches; in server
    mode also its seats, clock and standing offer (:mod:`hexgames.web.policy` decides
    who may act, :mod:`hexgames.web.clock` keeps the time).

    Raises:
        HexgamesError: from the constructor if the stored game cannot be replayed.
        ValueError: from the constructor if its stored clock cannot be read.
    """

    def __init__(self, manager: GameManager, stored: StoredGame) -> None:
        self.manager = manager
        self.store = manager.store
        self.stored = stored
        self.module = game_module(stored.game)
        self.rules = self.module.Rules.from_options(stored.rules)
        self.board = self.module.Board(stored.position, self.rules)
        self.first_turn = int(self.board.turn)
        for text in stored.moves:
            self.board.push_notation(text)
        self.clock = GameClock.from_json(stored.clock) if stored.clock else None
        if stored.extra.get("seed") is None and self._varies():
            # the seed of the AI's varied play, saved with the next move and recorded
            stored.extra["seed"] = secrets.randbits(62)
        self.record = study.load_record(stored, self.board, self.default_names())
        #: Whether the study record holds an engine's annotations (:meth:`annotated`),
        #: and the record without them with its tree's JSON (:meth:`unannotated`), each
        #: kept with the record it was made of.
        self._annotated: tuple[GameRecord, bool] | None = None
        self._unannotated: tuple[GameRecord, GameRecord | None, JSON | None] | None = None
        # the positions the pages look at (view, targets), kept while they watch
        self.positions = Positions(self.board.root, studying.view_json)
        self.lock = threading.RLock()
        self.subscribers: set[Subscriber] = set()
        self.version = 0
        #: The AI of the sides the computer plays (its search, while it thinks).
        self.ai = GameAI(self)
        #: The premove queued for each side (side -> move text), in memory only
        #: (:func:`hexgames.web.live.premove`).
        self.premoves: dict[int, str] = {}
        #: The running hint's search (:func:`hexgames.web.analysing.hint`).
        self.hint: Search | None = None
        #: The running whole-game analysis (:func:`hexgames.web.analysing.analyse_game`).
        self.game_run: GameAnalysisRun | None = None
        self.closed = False
        #: Let go of by the manager while idle
        #: (:meth:`~hexgames.web.manager.GameManager.evict_idle`): closed, so nothing
        #: changes the game through it; a new session replays it.
        self.evicted = False
        #: When the manager last handed the session out (monotonic seconds).
        self.last_used = time.monotonic()

    # --- state -------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """The sides' names, first player first (``["White", "Red"]``)."""
        return list(self.module.PLAYER_TAGS)

    def is_ai(self, side: int) -> bool:
        """Whether an AI plays ``side``."""
        return self.stored.players[side] != HUMAN

    def _varies(self) -> bool:
        """Whether an AI of the game is a level that varies its play."""
        for spec in self.stored.players:
            with contextlib.suppress(HexgamesError):
                if spec != HUMAN and parse_spec(spec).varied:
                    return True
        return False

    def over(self) -> bool:
        """Whether the game has ended, by its moves or by resignation."""
        return self.stored.result != "*"

    def for_result(self) -> bool:
        """Whether the game is played for a result that counts: a rated game or a
        tournament's (the policy treats both as rated: no engine help, no take-back
        against the AI, no deletion by a player)."""
        return self.stored.rated or "tournament" in self.stored.extra

    def mover(self, ply: int) -> int:
        """The side (0 or 1) that played the ``ply``-th move (0-based)."""
        return (self.first_turn + ply) % 2

    def can_undo(self) -> bool:
        """Whether ``undo`` would take back a move: a person's move was played and the game
        did not end by resignation."""
        if self.stored.termination in EARLY_ENDS:
            return False
        return any(not self.is_ai(self.mover(ply)) for ply in range(len(self.stored.moves)))

    def facts(self) -> GameFacts:
        """What :func:`hexgames.web.policy.check` needs to know of the game."""
        seats = self.stored.seats
        return GameFacts(self.stored.id, None if seats is None else (seats[0], seats[1]),
                         (self.is_ai(0), self.is_ai(1)), int(self.board.turn), self.over(),
                         self.for_result(), bool(self.stored.extra.get("imported")),
                         self.stored.extra.get("engine_help") is True, self.annotated())

    def annotated(self) -> bool:
        """Whether the study record holds what an engine wrote into it
        (:func:`hexgames.analysis.has_annotations`; looked for once a record, the lock
        held)."""
        known = self._annotated
        if known is None or known[0] is not self.record:
            known = (self.record, has_annotations(self.record))
            self._annotated = known
        return known[1]

    def unannotated(self) -> GameRecord | None:
        """The study record without what an engine wrote into it
        (:func:`hexgames.analysis.without_annotations`), for the accounts shown no
        engine analysis; ``None`` when it holds none. Made once for each record (the
        lock held)."""
        return self._unannotated_view()[1]

    def _unannotated_view(self) -> tuple[GameRecord, GameRecord | None, JSON | None]:
        view = self._unannotated
        if view is None or view[0] is not self.record:
            record = self.record
            shown = without_annotations(record) if self.annotated() else None
            view = (record, shown, None if shown is None else study.tree_json(shown))
            self._unannotated = view
        return view

    def summary(self) -> JSON:
        """The SUMMARY of the protocol."""
        return summary(self.stored, self.manager.account_names(self.stored))

    def default_names(self) -> list[str]:
        """The players' names that the study record's tags fall back to, first player
        first (:func:`hexgames.web.study.default_names`: the accounts', an AI's
        ``hexgames <level>``, else ``Person``)."""
        return study.default_names(self.stored, self.manager.account_names(self.stored))

    def accounts_name_players(self) -> bool:
        """Whether the accounts in the seats give the player names (server mode, a game
        that was not imported)."""
        return self.stored.seats is not None and not self.stored.extra.get("imported")

    def player_names(self) -> list[str]:
        """The names of the players, first player first: the accounts' in a server-mode
        game's seats (an AI's ``hexgames <level>``), else the record's player tags."""
        defaults = self.default_names()
        if self.accounts_name_players():
            return defaults
        tags = self.record.tags
        return [tags.get(tag) or defaults[side] for side, tag in enumerate(self.names)]

    def game_analysis_json(self) -> JSON | None:
        """The state's ``game_analysis``: the stored whole-game analysis of the game's
        moves (``result``) and, while one runs, its progress."""
        stored = self.stored.extra.get("analysis")
        if not isinstance(stored, dict) or stored.get("moves") != self.stored.moves:
            stored = None
        run = self.game_run
        if stored is None and run is None:
            return None
        return {"running": run is not None, "done": run.done if run else 0,
                "total": run.total if run else len(self.stored.moves) + 1,
                "result": stored}

    def _shared_state(self) -> JSON:
        """The parts of the state that are the same for every socket."""
        board = self.board
        over = self.over()
        turn = int(board.turn)
        moves = ({"legal": [], "sources": []} if over or self.is_ai(turn)
                 else moves_json(board))
        return {"type": "state", "id": self.stored.id, "game": self.stored.game,
                "rules": rules_json(self.rules), "players": list(self.stored.players),
                "names": self.names, "moves": list(self.stored.moves),
                "ply": len(self.stored.moves), "turn": turn, "over": over,
                "result": self.stored.result, "termination": self.stored.termination,
                "winner": winner(board, self.stored.result), "board": board_json(board),
                **moves, "thinking": self.ai.thinking,
                "computer_waits": self.computer_waits(),
                "can_undo": self.can_undo(),
                "mode": "server" if self.manager.server else "local",
                "accounts": self.manager.account_names(self.stored),
                "rated": self.stored.rated, "offer": self.stored.extra.get("offer"),
                "tournament": self.stored.extra.get("tournament"),
                "clock": self.clock_json(), "setup": self.stored.position,
                "first_turn": self.first_turn, "player_names": self.player_names(),
                "tags": self.shown_tags(), "tree": study.tree_json(self.record),
                "seed": None if self.seed_hidden() else self.stored.extra.get("seed"),
                "game_analysis": self.game_analysis_json(),
                "engine_help": self.stored.extra.get("engine_help") is True,
                "imported": bool(self.stored.extra.get("imported")),
                "online": live.online(self), "ratings": self.manager.seat_ratings(self.stored),
                "rating_change": self.stored.extra.get("rating_change"),
                "rematch": self.stored.extra.get("rematch"),
                "rematch_game": self.stored.extra.get("rematch_game")}

    def computer_waits(self, subscriber: Subscriber | None = None) -> str | None:
        """The state's ``computer_waits``: why the computer does not move (its player is
        barred from engine help: :meth:`hexgames.web.ai.GameAI.waits_for`), in the words
        of ``subscriber`` (the player: "you play"), or ``None``."""
        barred = self.ai.waiting
        if barred is None:
            return None
        seats = self.stored.seats or (None, None)
        side = next(side for side in (0, 1) if not self.is_ai(side))
        if subscriber is not None and subscriber.actor.user_id is not None and \
                subscriber.actor.user_id == seats[side]:
            return policy.computer_waits(barred)
        names = self.manager.account_names(self.stored) or [None, None]
        return policy.computer_waits(barred, names[side] or "its player")

    def seed_hidden(self) -> bool:
        """Whether the seed of the AI's varied play is kept secret: while a game of the
        server mode runs, since with it anyone could foresee the AI's moves (the
        players' copy of the library replays them); it is shown, and recorded, once the
        game is over, so the game can be replayed."""
        return self.manager.server and not self.over()

    def shown_tags(self, record: GameRecord | None = None) -> dict[str, str]:
        """The study record's tags (or ``record``'s) as the pages see them (no ``Seed``
        while :meth:`seed_hidden`)."""
        tags = dict((record or self.record).tags)
        if self.seed_hidden():
            tags.pop(study.SEED_TAG, None)
        return tags

    def _personal(self, shared: JSON, subscriber: Subscriber | None) -> JSON:
        """``shared`` with what is the socket's own: ``you`` (the sides it plays),
        ``analysis`` (its analysis switch), ``study`` and ``can_name`` (whether it may
        edit the study record and the player names), ``help`` (whether it may ask for a
        hint or analysis), ``analysis_hidden`` (why it is shown no engine analysis, or
        ``None``: then its ``tree``, ``tags`` and ``game_analysis`` are without it),
        ``thinking_hidden`` (why it is shown nothing of what the computer finds as it
        thinks, or ``None``: :meth:`broadcast_engine`), ``computer_waits`` in its words
        (:meth:`computer_waits`)."""
        state = dict(shared)
        state["analysis"] = subscriber.analysis_on if subscriber is not None else False
        if subscriber is not None:
            facts = self.facts()
            state["you"] = facts.sides_of(subscriber.actor)
            state["study"] = policy.allows(subscriber.actor, "study", facts)
            state["can_name"] = policy.allows(subscriber.actor, "name", facts)
            state["chat"] = chat.allowed(self, subscriber)
            state["premove"] = live.premove_of(self, subscriber)
            state["help"] = policy.allows(subscriber.actor, "hint", facts)
            hidden = policy.analysis_hidden(subscriber.actor, facts)
            state["analysis_hidden"] = hidden
            if hidden:
                state.update(self._without_analysis(shared))
            state["thinking_hidden"] = policy.thinking_hidden(subscriber.actor, facts)
            if state["computer_waits"] is not None:
                state["computer_waits"] = self.computer_waits(subscriber)
        return state

    def _without_analysis(self, shared: JSON) -> JSON:
        """The fields of the shared state that differ for a socket shown no engine
        analysis: the study record's ``tree`` and ``tags`` without it, and no
        ``game_analysis`` result (a run's progress stays)."""
        _, record, tree = self._unannotated_view()
        changed: JSON = {}
        if record is not None:
            changed["tree"] = tree
            changed["tags"] = self.shown_tags(record)
        run = shared["game_analysis"]
        if run is not None:
            changed["game_analysis"] = {**run, "result": None} if run["running"] else None
        return changed

    def state(self, subscriber: Subscriber | None = None) -> JSON:
        """The ``state`` message, with the fields that are ``subscriber``'s own."""
        return self._personal(self._shared_state(), subscriber)

    def clock_json(self) -> JSON | None:
        """The ``clock`` of the state: the control, each side's time left now (seconds),
        the side whose clock runs, and the readings; ``None`` for an untimed game."""
        if self.clock is None:
            return None
        shown = self.clock.to_json(self.manager.now())
        shown.pop("since")
        shown["text"] = self.clock.control.describe()
        return shown

    def broadcast(self, message: JSON) -> None:
        """Send ``message`` to every socket watching the game."""
        for subscriber in list(self.subscribers):
            subscriber.send(message)

    def broadcast_game_analysis(self, message: JSON) -> None:
        """Send a ``game_analysis`` message to every socket, without its ``result`` to
        those shown no engine analysis (:func:`hexgames.web.policy.analysis_hidden`)."""
        facts = self.facts()
        for subscriber in list(self.subscribers):
            hidden = policy.analysis_hidden(subscriber.actor, facts)
            subscriber.send({**message, "result": None} if hidden else message)

    def broadcast_engine(self, message: JSON, shown: tuple[str, ...],
                         facts: GameFacts | None = None) -> None:
        """Send ``message``, which says what the AI found (a ``thinking`` or ``ai_move``),
        to every socket: to those it is withheld from
        (:func:`hexgames.web.policy.thinking_hidden`, with the game's ``facts``: by
        default as it is now) with only its ``type`` and ``shown`` fields."""
        facts = facts or self.facts()
        bare = {key: message[key] for key in ("type", *shown)}
        for subscriber in list(self.subscribers):
            hidden = policy.thinking_hidden(subscriber.actor, facts)
            subscriber.send(bare if hidden else message)

    def help_changed(self, subscriber: Subscriber, actor: Actor) -> None:
        """The engine help of the account of ``subscriber`` changed (a game that bars it
        started or ended: :meth:`~hexgames.web.manager.GameManager.seats_changed`); it
        is ``actor`` now, the lock held. An analysis it may no longer have is switched
        off, and it gets the new state; the AI's messages follow by themselves
        (:meth:`broadcast_engine`)."""
        subscriber.actor = actor
        if subscriber.analysis_on and not policy.allows(actor, "analyse", self.facts()):
            subscriber.analysis_on = False
            analysing.stop_analysis(self, subscriber)
        subscriber.send(self.state(subscriber))

    def actor_read(self, subscriber: Subscriber,
                   read: Callable[[], Actor | None]) -> Actor | None:
        """Read the account of ``subscriber`` afresh (for a message of its socket, or a
        hint it is about to get) with ``read`` (its login and engine help as the store
        has them now; ``None``: its login has ended, and nothing changes) and give the
        socket what it read: when its engine help differs from what the socket knew, as
        :meth:`help_changed` (the manager's news of it may come later, and then finds
        nothing changed); else the socket's actor only. The actor read, or ``None``.

        The read and the change are one step under the game's lock, which the
        manager's news takes too (:meth:`~hexgames.web.manager.GameManager.seats_changed`,
        its read made after the barring game was saved): a read made before that game
        was saved cannot be applied after the news marked the socket barred, which
        would unbar it again.

        Raises:
            whatever ``read`` raises (the store busy, say), nothing changed.
        """
        with self.lock:
            actor = read()
            if actor is None:
                return None
            if actor.help_barred != subscriber.actor.help_barred:
                self.help_changed(subscriber, actor)
            else:
                subscriber.actor = actor
            return actor

    def broadcast_state(self) -> None:
        """Send the state to every socket, each with its own fields."""
        shared = self._shared_state()
        for subscriber in list(self.subscribers):
            subscriber.send(self._personal(shared, subscriber))

    def idle(self) -> bool:
        """Whether nothing happens in the game: no socket, no search (the lock held)."""
        return not self.subscribers and not self.ai.thinking and self.hint is None and \
            self.game_run is None and self.ai.waiting is None  # (its barring's news)

    def subscribe(self, subscriber: Subscriber) -> None:
        """Add a socket: it gets the state at once; the AI starts if it is to move.

        Raises:
            NotFoundError: if the game was deleted.
            SessionEvictedError: if the manager let go of this session meanwhile (open
                the game again).
            ForbiddenError: if the socket's account may not watch it.
        """
        with self.lock:
            if self.evicted:
                raise SessionEvictedError(self.stored.id)
            if self.closed:
                raise NotFoundError(f"game {self.stored.id} was deleted")
            # its engine help as it is now, read under the lock: the manager's news of a
            # barring that started since the socket read its account did not find it
            # among the sockets (:meth:`actor_read`)
            subscriber.actor = self.manager.help_now(subscriber.actor)
            policy.check(subscriber.actor, "watch", self.facts())
            before = live.online(self)
            self.subscribers.add(subscriber)
            self.start_searches()
            subscriber.send(self.state(subscriber))
            live.presence_changed(self, before, subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Remove a socket and stop its analysis."""
        with self.lock:
            before = live.online(self)
            self.subscribers.discard(subscriber)
            if not self.closed:
                live.presence_changed(self, before)
            subscriber.analysis_on = False
            analysing.stop_analysis(self, subscriber)
            if not self.subscribers:
                self.positions.clear()  # their memory, while nobody looks

    def close(self) -> None:
        """Stop every search and close the sockets (the game was deleted or the server
        stops)."""
        with self.lock:
            self.closed = True
            self.ai.cancel()
            if self.hint is not None:
                self.hint.cancel()
            self.hint = None
            analysing.stop_analysis(self)
            if self.game_run is not None:
                self.game_run.stop()
                self.game_run = None
            for subscriber in list(self.subscribers):
                subscriber.send(None)
            self.subscribers.clear()
            self.positions.clear()

    # --- messages ------------------------------------------------------------------------

    def handle(self, text: str, subscriber: Subscriber) -> None:
        """Act on one message of the page; any problem is answered with an ``error``
        message to ``subscriber`` and leaves the game unchanged. Never raises."""
        try:
            message = json_object(text, "the message")
            kind = message.get("type")
            if not isinstance(kind, str):
                raise AppError("the message has no \"type\" text")
            handler = _HANDLERS.get(kind)
            if handler is None:
                raise AppError(f"unknown message type {kind[:40]!r} "
                               f"(known: {', '.join(_HANDLERS)})")
            with self.lock:
                if self.closed:
                    raise NotFoundError(f"game {self.stored.id} was deleted")
                self.flag()  # a flag that fell is flagged before anything else
                if not self.closed:  # (aborted: no first move in time)
                    handler(self, message, subscriber)
            if self.closed and not self.evicted:  # aborted: the lock let go of first
                self.manager.forget(self)
        except AppError as error:
            subscriber.send({"type": "error", "message": str(error)})
        except Exception as error:
            log.exception("message %.200r failed", text)
            subscriber.send({"type": "error", "message": f"internal error: {error}"})

    def check(self, subscriber: Subscriber, action: str, side: int | None = None) -> None:
        """Refuse ``action`` (a word of :mod:`hexgames.web.policy`: ``"move"``,
        ``"study"``, ``"analyse"``, ...; for ``side`` 0 or 1 when it names one) unless
        ``subscriber``'s account may take it in this game.

        Raises:
            ForbiddenError: saying why it may not.
        """
        policy.check(subscriber.actor, action, self.facts(), side)

    # --- changes: the one place a game changes ---------------------------------------------

    def play(self, move: Any, announce: JSON | None = None) -> None:
        """Push ``move`` (a legal move of the board, as its ``parse_notation`` gives),
        commit it (with its clock reading; a standing offer is withdrawn), then send
        ``announce`` (the AI's ``ai_move``, if it played it: as :meth:`broadcast_engine`
        does, judged as the game was before the move) and the new state to every socket
        (the lock is held).

        Raises:
            AppError: if the store refuses the move (the game is as it was).
        """
        side = int(self.board.turn)
        facts = self.facts() if announce is not None else None
        clock_before = None if self.clock is None else self.clock.to_json()
        offer = self._withdraw_offers()
        self.board.push(move)
        self.stored.moves.append(move_text(move))
        self._sync_result()
        if self.clock is not None:
            now = self.manager.now()
            self.clock.moved(side, now)  # the flag was checked before: it stands
            if self.over():
                self.clock.stop(now)
            self.stored.clock = self.clock.to_json()
        try:
            self.commit()
        except StoreError as error:
            self.board.pop()
            self.stored.moves.pop()
            self._sync_result()
            self._restore(clock_before, offer)
            raise AppError(f"the move was not saved: {error}") from None
        self._changed(announce, facts)
        live.after_move(self)  # the opponent's premove, if any

    def save_or_restore(self, what: str, restore: Callable[[], None], *,
                         capped: bool = False) -> None:
        """Commit the stored game (:meth:`commit`; ``capped``: under the running games'
        cap, see :meth:`~hexgames.web.store.GameStore.save`); on failure call
        ``restore`` (which puts back what the caller changed) and refuse.

        Raises:
            AppError: if the store refuses the write, naming ``what`` was not saved.
            ConflictError: if ``capped`` and an account plays its most games already.
        """
        try:
            self.commit(capped=capped)
        except StoreError as error:
            restore()
            raise AppError(f"the {what} was not saved: {error}") from None
        except CapError as error:
            restore()
            raise ConflictError(error.text("you are")) from None

    def commit(self, *, capped: bool = False) -> None:
        """Bring the study record up to the game (its main line the moves, its end tags
        the result) and save the stored game with it, in one statement; on failure the
        record is as it was.

        Raises:
            StoreError: if the database refuses the write.
            CapError: if ``capped`` and an account plays its most games already.
        """
        kept = (self.record, self.stored.record, self.stored.player_names)
        try:
            self.record = study.sync(self.record, self.stored, self.board)
            self.stored.record = study.write(self.record)
            self.stored.player_names = self.player_names()
            self.store.save(self.stored, capped=capped)
        except BaseException:
            self.record, self.stored.record, self.stored.player_names = kept
            raise

    def save_study(self, record: GameRecord, what: str) -> None:
        """Make ``record`` the game's study record, commit it and send the new state to
        every socket; on failure nothing changes.

        Raises:
            AppError: if it was not saved.
        """
        kept = self.record
        self.record = record
        try:
            self.commit()
        except StoreError as error:
            self.record = kept
            raise AppError(f"the {what} was not saved: {error}") from None
        self.broadcast_state()

    def _withdraw_offers(self) -> dict[str, Any]:
        """Take out the standing offer and the record of declined ones (a move or a
        take-back withdraws an offer, and a declined one may come again); what was
        there, for :meth:`_restore`."""
        return {key: self.stored.extra.pop(key) for key in ("offer", "declined")
                if key in self.stored.extra}

    def _restore(self, clock_before: dict[str, Any] | None, offers: dict[str, Any]) -> None:
        """Put back the clock and the offers as they were before a change that is
        being undone (a move not saved, a take-back refused by the store)."""
        if clock_before is not None:
            self.clock = GameClock.from_json(clock_before)
            self.stored.clock = clock_before
        self.stored.extra.update(offers)

    def _sync_result(self) -> None:
        outcome = self.board.outcome()
        if outcome is not None:
            self.stored.result = outcome.result()
            self.stored.termination = outcome.termination.value
        elif self.stored.termination not in EARLY_ENDS:
            self.stored.result, self.stored.termination = "*", None

    def _changed(self, announce: JSON | None = None, facts: GameFacts | None = None) -> None:
        """After a committed change: make running searches stale, report the change to
        the manager (a game that has just ended: the ratings), start the AI or analysis
        as needed, send ``announce`` (the AI's move, as the game's ``facts`` were before
        it) and the state to the sockets."""
        self.version += 1
        self.ai.cancel()
        analysing.stop_analysis(self)
        if self.hint is not None:
            self.hint.cancel()
            self.hint = None
        # the deadline and (for a game that has just ended) the ratings first, so that
        # whoever sees the new state finds them stored
        self.manager.changed(self)
        if announce is not None:
            self.broadcast_engine(announce, MOVE_SHOWN, facts)
        self.start_searches()
        self.broadcast_state()

    def start_searches(self) -> None:
        """Start what the game's position calls for (the lock held): the AI's search if
        it is to move (:meth:`hexgames.web.ai.GameAI.start`), else the analyses the
        sockets have switched on (:func:`hexgames.web.analysing.start_analysis`)."""
        self.ai.start()
        analysing.start_analysis(self)

    def end(self, result: str, termination: str) -> None:
        """End the game otherwise than by its moves: ``result`` ``"1-0"``, ``"0-1"`` or
        ``"1/2-1/2"``, ``termination`` one of :data:`~hexgames.web.study.EARLY_ENDS`;
        commit it, stop the clock, withdraw a standing offer, tell everyone.

        Raises:
            AppError: if the store refuses the change (the game is as it was).
        """
        old = (self.stored.result, self.stored.termination, self.stored.clock,
               self.stored.extra.get("offer"))
        self.stored.result, self.stored.termination = result, termination
        self.stored.extra.pop("offer", None)
        if self.clock is not None:
            self.clock.stop(self.manager.now())
            self.stored.clock = self.clock.to_json()

        def restore() -> None:
            self.stored.result, self.stored.termination, self.stored.clock = old[:3]
            if old[2] is not None:
                self.clock = GameClock.from_json(old[2])
            if old[3] is not None:
                self.stored.extra["offer"] = old[3]

        self.save_or_restore(termination.replace("-", " ").replace("agreement", "draw"),
                              restore)
        self._changed()

    def flag(self) -> bool:
        """End the game on time if the running clock's flag has fallen (the lock is
        held or taken here); whether it did."""
        with self.lock:
            if self.clock is None or self.over() or self.closed:
                return False
            side = self.clock.fallen(self.manager.now())
            if side is None:
                return False
            if not self.stored.moves and self.stored.seats is not None and \
                    "tournament" not in self.stored.extra:  # a round waits for no abort
                live.abort(self, None)  # no game is lost on time without a move
                return True
            log.info("game %s: %s lost on time", self.stored.id, self.names[side])
            self.end("0-1" if side == 0 else "1-0", "time-forfeit")
            return True

    def take_back(self, plies: int) -> None:
        """Take back ``plies`` moves (1 to the game's length) and commit, the clock
        given back its time (the lock is held); a finished game of accounts that runs
        again so counts against their running games' cap.

        Raises:
            AppError: if the store refuses the change (the game is as it was).
            ConflictError: if the game would run again past an account's cap.
        """
        self.ai.cancel()
        self.premoves.clear()
        was_over = self.over()
        taken = []
        for _ in range(plies):
            taken.append(self.board.pop())
            self.stored.moves.pop()
        offer = self._withdraw_offers()
        self._sync_result()
        clock_before = None
        if self.clock is not None:
            clock_before = self.clock.to_json()
            self.clock.take_back(plies, self.first_turn, int(self.board.turn),
                                 self.manager.now())
            self.stored.clock = self.clock.to_json()

        def restore() -> None:
            for move in reversed(taken):
                self.board.push(move)
                self.stored.moves.append(move_text(move))
            self._sync_result()
            self._restore(clock_before, offer)
            self.start_searches()  # the AI stopped above thinks again

        reopens = was_over and not self.over() and self.accounts_name_players()
        self.save_or_restore("undo", restore, capped=reopens)
        self._changed()

    # --- the play messages ---------------------------------------------------------------

    def _move(self, message: JSON, subscriber: Subscriber) -> None:
        text = _field(message, "move", str)
        ply = _field(message, "ply", int)
        if len(text) > MAX_MOVE_TEXT:
            raise AppError(f"the move {text[:20]!r}... is {len(text)} characters long: "
                           f"no move is longer than {MAX_MOVE_TEXT}")
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result}): no more moves")
        if self._out_of_date(ply, subscriber, f"the move {text[:40]!r} was made"):
            return
        turn = int(self.board.turn)
        if self.is_ai(turn):
            raise ConflictError(f"it is {self.names[turn]}'s turn, played by the AI "
                                f"({self.stored.players[turn]})")
        self.check(subscriber, "move")
        try:
            move = self.board.parse_notation(text)
        except HexgamesError as error:
            raise AppError(str(error)) from None
        self.play(move)

    def _undo(self, message: JSON, subscriber: Subscriber) -> None:
        self.undo(_field(message, "ply", int), subscriber)

    def undo(self, ply: int, subscriber: Subscriber) -> None:
        """``subscriber`` takes back the last move of a person, asked at ``ply`` (the
        plies the page saw): with the AI's replies after it, at once; between two
        people of the server mode it asks the opponent (:func:`hexgames.web.offers.offer`).
        A ``ply`` that is not the game's is answered with an ``error`` and the state,
        and nothing is taken back.

        Raises:
            ConflictError: if the game ended by resignation, time or agreement, or no
                person has moved.
            ForbiddenError: if the account may not take back, or the game is rated.
            AppError: if the store refuses the change.
        """
        # Two tabs sending undo at once must not take back two moves.
        if self._out_of_date(ply, subscriber, "the undo was asked",
                             ", nothing was taken back"):
            return
        current = len(self.stored.moves)
        if self.stored.termination in EARLY_ENDS:
            raise ConflictError(f"the game ended by {self.stored.termination}: "
                                "there is no move to take back")
        if not self.can_undo():
            raise ConflictError("there is no move of a person to take back")
        self.check(subscriber, "takeback")
        if self.stored.seats is not None and not (self.is_ai(0) or self.is_ai(1)):
            # between two people a take-back needs the opponent's consent
            offers.offer(self, "takeback", subscriber)
            return
        if self.for_result() and not subscriber.actor.local:
            raise policy.refuse(subscriber.actor, "takeback", self.stored.id,
                                "no take-backs in a rated game or a tournament's")
        why = policy.takeback_refusal(subscriber.actor, self.facts())
        if why is not None:
            raise policy.refuse(subscriber.actor, "takeback", self.stored.id, why)
        has_human = not (self.is_ai(0) and self.is_ai(1))
        # back past the AI's moves to a person's (no copy of the board: it replays the
        # whole game)
        plies = 1
        while plies < current and has_human and self.is_ai(self.mover(current - plies)):
            plies += 1
        self.take_back(plies)

    def _out_of_date(self, ply: int, subscriber: Subscriber, asked: str,
                     after: str = "") -> bool:
        """Whether a message made at ``ply`` is out of date (the game is at another ply);
        if so it is answered with an ``error`` ("``asked`` at ply ... but the game is at
        ply ...: the page was out of date``after``") and the state, so the page catches
        up."""
        current = len(self.stored.moves)
        if ply == current:
            return False
        subscriber.send({"type": "error", "message":
                         f"{asked} at ply {ply} but the game is at ply {current}: the page "
                         f"was out of date{after}"})
        subscriber.send(self.state(subscriber))
        return True

    def _resign(self, message: JSON, subscriber: Subscriber) -> None:
        side = _field(message, "side", int)
        if side not in (0, 1):
            raise AppError(f"side must be 0 or 1, not {side}")
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result}): nobody can resign")
        if self.is_ai(side):
            raise ConflictError(f"{self.names[side]} is played by the AI and cannot resign")
        self.check(subscriber, "resign", side)
        self.end("0-1" if side == 0 else "1-0", "resignation")

    def _state(self, message: JSON, subscriber: Subscriber) -> None:
        subscriber.send(self.state(subscriber))

    def _stop(self, message: JSON, subscriber: Subscriber) -> None:
        if not self.ai.thinking:
            raise ConflictError("no AI is thinking")
        self.check(subscriber, "stop")
        self.ai.move_now()


_Handler = Callable[[GameSession, JSON, Subscriber], None]
_HANDLERS: dict[str, _Handler] = {
    "move": GameSession._move, "undo": GameSession._undo, "resign": GameSession._resign,
    "hint": analysing.hint, "analyse": analysing.analyse, "stop": GameSession._stop,
    "view": studying.view, "targets": studying.targets, "state": GameSession._state,
    "draw": offers.draw,
    "takeback": offers.takeback, "study": studying.study,
    "names": studying.names, "analyse_game": analysing.analyse_game,
    "abort": live.abort_message, "rematch": live.rematch, "premove": live.premove,
    "chat": chat.chat, "chat_history": chat.history,
}
