"""Live games of the browser app: the page's messages, the AI, hints and analysis.

A :class:`GameSession` holds one game's board (rebuilt from the store by replaying the
moves), its study record (:mod:`hexgames.web.study`: its main line always the game's
moves, grafted on at every change) and the sockets watching it. Every change is committed
to the store before it is announced. The AI, hints and analysis search in worker threads
(:class:`~hexgames.web.searches.Search`); a search's result is applied only if the game
has not changed since it began, so an undo or a new move simply makes a running search
stale (it is stopped and its move dropped). The AI of a level that varies its play
searches each move with a player seeded by the game's seed and the ply
(:func:`hexgames.engine.players.move_seed`).

The methods of a session may be called from any thread: one lock per session guards the
board, and messages to a socket go through that socket's event loop
(:class:`~hexgames.web.searches.Subscriber`).

In the server mode each socket belongs to an account (:attr:`Subscriber.actor`) and
every message is checked by :func:`hexgames.web.policy.check` before it acts; a game has
seats, maybe a clock (:class:`~hexgames.web.clock.GameClock`, whose readings are saved
with each move in the same statement) and a standing draw offer or take-back request
(``stored.extra["offer"]``). A fallen flag is found by :meth:`GameManager.sweep` (or by
the next message to the game) and ends it as ``time-forfeit``; a game that ends is
handed to :attr:`GameManager.on_finished` (the ratings). An AI of the server mode moves
whether anyone watches or not.

Layers: :class:`GameSession` is the one place that changes a game (``_play``,
``_take_back``, ``_end``) or its study record (``_save_study``), each change committed,
then :meth:`GameSession._changed` (or the new state) broadcasts it; the handlers of
``_HANDLERS`` only check and call those. The study board's handlers (``view``,
``targets``, ``study``, ``names``, ``analyse``, ``analyse_game``) are in
:mod:`hexgames.web.studying`; the positions they look at are kept by
:class:`~hexgames.web.positions.Positions`.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.base import Limit
from hexgames.engine.players import check_spec, make_player, move_seed, parse_spec, with_options
from hexgames.games import game_module
from hexgames.record import GameRecord
from hexgames.web import policy, study, studying
from hexgames.web.clock import GameClock, TimeSource, wall_clock
from hexgames.web.game_analysis import GameAnalysisRun
from hexgames.web.policy import GameFacts
from hexgames.web.positions import Positions
from hexgames.web.searches import Engine, HelperSlots, Search, Subscriber
from hexgames.web.store import GameStore, StoredGame, StoreError
from hexgames.web.tables import CapError, GameResult, Rating
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
from hexgames.web.worker import ProcessEngine, WorkerPool

log = logging.getLogger("hexgames.web")

#: The longest move text read (the cap lives with the others).
MAX_MOVE_TEXT = limits.MAX_MOVE_TEXT
#: The fields of a ``thinking`` message while a rated game runs: that the AI thinks, and
#: for how long, nothing of what it found.
RATED_THINKING = ("side", "elapsed")
#: Terminations of a game that ended otherwise than by its moves; ``agreement`` (a draw
#: agreed in server mode) is the server's own word: NOTATION.md's records have no agreed
#: draws, so a record of one says ``[Result "*"]`` and ``[Draw "agreement"]``.
EARLY_ENDS = ("resignation", "time-forfeit", "agreement")


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
        self.record = study.load_record(stored, self.board, self._default_names())
        # the positions the pages look at (view, targets), kept while they watch
        self.positions = Positions(self.board.root, studying.view_json)
        self.lock = threading.RLock()
        self.subscribers: set[Subscriber] = set()
        self.version = 0
        self.ai: Search | None = None
        self.hint: Search | None = None
        self.game_run: GameAnalysisRun | None = None
        self.closed = False
        #: Let go of by the manager while idle (:meth:`GameManager.evict_idle`): closed,
        #: so nothing changes the game through it; a new session replays it.
        self.evicted = False
        #: When the manager last handed the session out (monotonic seconds).
        self.last_used = time.monotonic()
        self._players: dict[int, Engine] = {}
        self._busy: set[int] = set()  # ids of players that are searching

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

    def engine_help_hidden(self) -> bool:
        """Whether what an engine finds is kept from everyone: while a rated game runs,
        its AI's ``thinking`` and ``ai_move`` messages carry no score, evaluation or
        line (only :data:`RATED_THINKING`), as hints and analysis are refused."""
        return self.stored.rated and not self.over()

    def _mover(self, ply: int) -> int:
        """The side that played the ``ply``-th move (0-based)."""
        return (self.first_turn + ply) % 2

    def can_undo(self) -> bool:
        """Whether ``undo`` would take back a move: a person's move was played and the game
        did not end by resignation."""
        if self.stored.termination in EARLY_ENDS:
            return False
        return any(not self.is_ai(self._mover(ply)) for ply in range(len(self.stored.moves)))

    def facts(self) -> GameFacts:
        """What :func:`hexgames.web.policy.check` needs to know of the game."""
        seats = self.stored.seats
        return GameFacts(self.stored.id, None if seats is None else (seats[0], seats[1]),
                         (self.is_ai(0), self.is_ai(1)), int(self.board.turn), self.over(),
                         self.stored.rated, bool(self.stored.extra.get("imported")))

    def summary(self) -> JSON:
        """The SUMMARY of the protocol."""
        return summary(self.stored, self.manager.account_names(self.stored))

    def _default_names(self) -> list[str]:
        return study.default_names(self.stored, self.manager.account_names(self.stored))

    def accounts_name_players(self) -> bool:
        """Whether the accounts in the seats give the player names (server mode, a game
        that was not imported)."""
        return self.stored.seats is not None and not self.stored.extra.get("imported")

    def player_names(self) -> list[str]:
        """The names of the players, first player first: the accounts' in a server-mode
        game's seats (an AI's ``hexgames <level>``), else the record's player tags."""
        defaults = self._default_names()
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
                **moves, "thinking": self.ai is not None,
                "can_undo": self.can_undo(),
                "mode": "server" if self.manager.server else "local",
                "accounts": self.manager.account_names(self.stored),
                "rated": self.stored.rated, "offer": self.stored.extra.get("offer"),
                "clock": self.clock_json(), "setup": self.stored.position,
                "first_turn": self.first_turn, "player_names": self.player_names(),
                "tags": self.shown_tags(), "tree": study.tree_json(self.record),
                "seed": None if self.seed_hidden() else self.stored.extra.get("seed"),
                "game_analysis": self.game_analysis_json()}

    def seed_hidden(self) -> bool:
        """Whether the seed of the AI's varied play is kept secret: while a game of the
        server mode runs, since with it anyone could foresee the AI's moves (the
        players' copy of the library replays them); it is shown, and recorded, once the
        game is over, so the game can be replayed."""
        return self.manager.server and not self.over()

    def shown_tags(self) -> dict[str, str]:
        """The study record's tags as the pages see them (no ``Seed`` while
        :meth:`seed_hidden`)."""
        tags = dict(self.record.tags)
        if self.seed_hidden():
            tags.pop(study.SEED_TAG, None)
        return tags

    def _personal(self, shared: JSON, subscriber: Subscriber | None) -> JSON:
        """``shared`` with what is the socket's own: ``you`` (the sides it plays),
        ``analysis`` (its analysis switch), ``study`` and ``can_name`` (whether it may
        edit the study record and the player names)."""
        state = dict(shared)
        state["analysis"] = subscriber.analysis_on if subscriber is not None else False
        if subscriber is not None:
            facts = self.facts()
            state["you"] = facts.sides_of(subscriber.actor)
            state["study"] = policy.allows(subscriber.actor, "study", facts)
            state["can_name"] = policy.allows(subscriber.actor, "name", facts)
        return state

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

    def broadcast_state(self) -> None:
        """Send the state to every socket, each with its own fields."""
        shared = self._shared_state()
        for subscriber in list(self.subscribers):
            subscriber.send(self._personal(shared, subscriber))

    def idle(self) -> bool:
        """Whether nothing happens in the game: no socket, no search (the lock held)."""
        return not self.subscribers and self.ai is None and self.hint is None and \
            self.game_run is None

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
            policy.check(subscriber.actor, "watch", self.facts())
            self.subscribers.add(subscriber)
            self._after_change()
            subscriber.send(self.state(subscriber))

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Remove a socket and stop its analysis."""
        with self.lock:
            self.subscribers.discard(subscriber)
            subscriber.analysis_on = False
            self._stop_analysis(subscriber)
            if not self.subscribers:
                self.positions.clear()  # their memory, while nobody looks

    def close(self) -> None:
        """Stop every search and close the sockets (the game was deleted or the server
        stops)."""
        with self.lock:
            self.closed = True
            for search in (self.ai, self.hint):
                if search is not None:
                    search.cancel()
            self.ai = self.hint = None
            self._stop_analysis()
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
                handler(self, message, subscriber)
        except AppError as error:
            subscriber.send({"type": "error", "message": str(error)})
        except Exception as error:
            log.exception("message %.200r failed", text)
            subscriber.send({"type": "error", "message": f"internal error: {error}"})

    def _check(self, subscriber: Subscriber, action: str, side: int | None = None) -> None:
        policy.check(subscriber.actor, action, self.facts(), side)

    def _move(self, message: JSON, subscriber: Subscriber) -> None:
        text = _field(message, "move", str)
        ply = _field(message, "ply", int)
        if len(text) > MAX_MOVE_TEXT:
            raise AppError(f"the move {text[:20]!r}... is {len(text)} characters long: "
                           f"no move is longer than {MAX_MOVE_TEXT}")
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result}): no more moves")
        current = len(self.stored.moves)
        if ply != current:
            subscriber.send({"type": "error", "message":
                             f"the move {text[:40]!r} was made at ply {ply} but the game is "
                             f"at ply {current}: the page was out of date"})
            subscriber.send(self.state(subscriber))
            return
        turn = int(self.board.turn)
        if self.is_ai(turn):
            raise ConflictError(f"it is {self.names[turn]}'s turn, played by the AI "
                                f"({self.stored.players[turn]})")
        self._check(subscriber, "move")
        try:
            move = self.board.parse_notation(text)
        except HexgamesError as error:
            raise AppError(str(error)) from None
        self._play(move)

    def _play(self, move: Any, announce: JSON | None = None) -> None:
        """Push ``move``, commit it (with its clock reading), then send ``announce`` (if
        any) and the new state to every socket (the lock is held)."""
        side = int(self.board.turn)
        clock_before = None if self.clock is None else self.clock.to_json()
        offer = self.stored.extra.pop("offer", None)
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
            self._commit()
        except StoreError as error:
            self.board.pop()
            self.stored.moves.pop()
            self._sync_result()
            self._restore(clock_before, offer)
            raise AppError(f"the move was not saved: {error}") from None
        self._changed(announce)

    def _save_or_restore(self, what: str, restore: Callable[[], None], *,
                         capped: bool = False) -> None:
        """Commit the stored game (``capped``: under the running games' cap, see
        :meth:`GameStore.save`); on failure call ``restore`` and refuse."""
        try:
            self._commit(capped=capped)
        except StoreError as error:
            restore()
            raise AppError(f"the {what} was not saved: {error}") from None
        except CapError as error:
            restore()
            raise ConflictError(error.text("you are")) from None

    def _commit(self, *, capped: bool = False) -> None:
        """Bring the study record up to the game (its main line the moves, its end tags
        the result) and save the stored game with it, in one statement; on failure the
        record is as it was.

        Raises:
            StoreError: if the database refuses the write.
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

    def _save_study(self, record: GameRecord, what: str) -> None:
        """Make ``record`` the game's study record, commit it and send the new state to
        every socket; on failure nothing changes.

        Raises:
            AppError: if it was not saved.
        """
        kept = self.record
        self.record = record
        try:
            self._commit()
        except StoreError as error:
            self.record = kept
            raise AppError(f"the {what} was not saved: {error}") from None
        self.broadcast_state()

    def _restore(self, clock_before: dict[str, Any] | None, offer: Any) -> None:
        """Put back the clock and the draw offer as they were before a change that is
        being undone (a move not saved, a take-back refused by the store)."""
        if clock_before is not None:
            self.clock = GameClock.from_json(clock_before)
            self.stored.clock = clock_before
        if offer is not None:
            self.stored.extra["offer"] = offer

    def _sync_result(self) -> None:
        outcome = self.board.outcome()
        if outcome is not None:
            self.stored.result = outcome.result()
            self.stored.termination = outcome.termination.value
        elif self.stored.termination not in EARLY_ENDS:
            self.stored.result, self.stored.termination = "*", None

    def _changed(self, announce: JSON | None = None) -> None:
        """After a committed change: make running searches stale, report the change to
        the manager (a game that has just ended: the ratings), start the AI or analysis
        as needed, send ``announce`` and the state to the sockets."""
        self.version += 1
        self._stop_ai()
        self._stop_analysis()
        if self.hint is not None:
            self.hint.cancel()
            self.hint = None
        # the deadline and (for a game that has just ended) the ratings first, so that
        # whoever sees the new state finds them stored
        self.manager.changed(self)
        if announce is not None:
            self.broadcast(announce)
        self._after_change()
        self.broadcast_state()

    def _after_change(self) -> None:
        self._start_ai()
        self._start_analysis()

    def _end(self, result: str, termination: str) -> None:
        """End the game otherwise than by its moves (resignation, time forfeit, agreed
        draw): commit it, stop the clock, tell everyone."""
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

        self._save_or_restore(termination.replace("-", " ").replace("agreement", "draw"),
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
            log.info("game %s: %s lost on time", self.stored.id, self.names[side])
            self._end("0-1" if side == 0 else "1-0", "time-forfeit")
            return True

    def _take_back(self, plies: int) -> None:
        """Take back ``plies`` moves and commit (the lock is held); a finished game of
        accounts that runs again so counts against their running games' cap."""
        self._stop_ai()
        was_over = self.over()
        taken = []
        for _ in range(plies):
            taken.append(self.board.pop())
            self.stored.moves.pop()
        offer = self.stored.extra.pop("offer", None)
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
            self._after_change()  # the AI stopped above thinks again

        reopens = was_over and not self.over() and self.accounts_name_players()
        self._save_or_restore("undo", restore, capped=reopens)
        self._changed()

    def _undo(self, message: JSON, subscriber: Subscriber) -> None:
        ply = _field(message, "ply", int)
        current = len(self.stored.moves)
        if ply != current:
            # Two tabs sending undo at once must not take back two moves.
            subscriber.send({"type": "error", "message":
                             f"the undo was asked at ply {ply} but the game is at ply "
                             f"{current}: the page was out of date, nothing was taken back"})
            subscriber.send(self.state(subscriber))
            return
        if self.stored.termination in EARLY_ENDS:
            raise ConflictError(f"the game ended by {self.stored.termination}: "
                                "there is no move to take back")
        if not self.can_undo():
            raise ConflictError("there is no move of a person to take back")
        self._check(subscriber, "takeback")
        if self.stored.seats is not None and not (self.is_ai(0) or self.is_ai(1)):
            # between two people a take-back needs the opponent's consent
            self._offer("takeback", subscriber)
            return
        if self.stored.rated and not subscriber.actor.local:
            raise policy.refuse(subscriber.actor, "takeback", self.stored.id,
                                "no take-backs in a rated game")
        has_human = not (self.is_ai(0) and self.is_ai(1))
        # back past the AI's moves to a person's (no copy of the board: it replays the
        # whole game)
        plies = 1
        while plies < current and has_human and self.is_ai(self._mover(current - plies)):
            plies += 1
        self._take_back(plies)

    def _offer(self, kind: str, subscriber: Subscriber) -> None:
        """``subscriber``'s account offers a draw or asks for a take-back."""
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result})")
        mine = self.facts().sides_of(subscriber.actor)
        side = int(self.board.turn) if int(self.board.turn) in mine else mine[0]
        offer = self.stored.extra.get("offer")
        if offer is not None and offer["side"] == side and offer["kind"] == kind:
            raise ConflictError(f"your {kind} offer stands already")
        if self.is_ai(1 - side):
            raise ConflictError(f"the computer does not answer {kind} offers")
        if kind == "takeback" and not any(self._mover(p) == side
                                          for p in range(len(self.stored.moves))):
            raise ConflictError("you have made no move to take back")
        old = offer
        self.stored.extra["offer"] = {"kind": kind, "side": side,
                                      "ply": len(self.stored.moves)}

        def restore() -> None:
            if old is None:
                self.stored.extra.pop("offer", None)
            else:
                self.stored.extra["offer"] = old

        self._save_or_restore(f"{kind} offer", restore)
        self.broadcast({"type": "offer", **self.stored.extra["offer"]})
        self.broadcast_state()

    def _answer(self, kind: str, accept: bool, subscriber: Subscriber) -> None:
        """The opponent of a standing offer accepts or declines it."""
        offer = self.stored.extra.get("offer")
        mine = self.facts().sides_of(subscriber.actor)
        if offer is None or offer["kind"] != kind:
            raise ConflictError(f"there is no {kind} offer to answer")
        if offer["side"] in mine and not subscriber.actor.local:
            raise policy.refuse(subscriber.actor, kind, self.stored.id,
                                f"the {kind} offer is your own: the opponent answers it")
        if not accept:
            self.stored.extra.pop("offer")
            self._save_or_restore(f"{kind} answer",
                                  lambda: self.stored.extra.__setitem__("offer", offer))
            self.broadcast({"type": "offer_declined", **offer})
            self.broadcast_state()
            return
        if kind == "draw":
            self._end("1/2-1/2", "agreement")
            return
        # take back the asker's last move (and the reply to it) so the asker is to move
        plies = 1 if self._mover(len(self.stored.moves) - 1) == offer["side"] else 2
        self._take_back(min(plies, len(self.stored.moves)))

    def _draw(self, message: JSON, subscriber: Subscriber) -> None:
        action = _field(message, "action", str)
        self._check(subscriber, "draw")
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result})")
        if action == "offer":
            offer = self.stored.extra.get("offer")
            if offer is not None and offer["kind"] == "draw" and \
                    offer["side"] not in self.facts().sides_of(subscriber.actor):
                self._answer("draw", True, subscriber)  # both offered: agreed
                return
            self._offer("draw", subscriber)
        elif action in ("accept", "decline"):
            self._answer("draw", action == "accept", subscriber)
        else:
            raise AppError(f"a draw action is offer, accept or decline, not {action[:40]!r}")

    def _takeback(self, message: JSON, subscriber: Subscriber) -> None:
        action = _field(message, "action", str)
        if action == "offer":
            self._undo({"type": "takeback", "ply": _field(message, "ply", int)}, subscriber)
            return
        if action not in ("accept", "decline"):
            raise AppError(f"a takeback action is offer, accept or decline, not "
                           f"{action[:40]!r}")
        self._check(subscriber, "takeback")
        self._answer("takeback", action == "accept", subscriber)

    def _resign(self, message: JSON, subscriber: Subscriber) -> None:
        side = _field(message, "side", int)
        if side not in (0, 1):
            raise AppError(f"side must be 0 or 1, not {side}")
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result}): nobody can resign")
        if self.is_ai(side):
            raise ConflictError(f"{self.names[side]} is played by the AI and cannot resign")
        self._check(subscriber, "resign", side)
        self._end("0-1" if side == 0 else "1-0", "resignation")

    def _state(self, message: JSON, subscriber: Subscriber) -> None:
        subscriber.send(self.state(subscriber))

    def _stop(self, message: JSON, subscriber: Subscriber) -> None:
        if self.ai is None:
            raise ConflictError("no AI is thinking")
        self._check(subscriber, "stop")
        self.ai.stop()

    def _hint(self, message: JSON, subscriber: Subscriber) -> None:
        if self.over():
            raise ConflictError(f"the game is over ({self.stored.result}): no hint")
        self._check(subscriber, "hint")
        if self.hint is not None:
            raise ConflictError("a hint is already being worked out")
        asker = subscriber.actor
        self.manager.help.claim(asker)
        try:
            player = self.manager.make_helper(self.stored.id)
        except BaseException:
            self.manager.help.give_back(asker)
            raise
        limit = Limit(time=self.manager.hint_time)

        def done(search: Search, result: Any) -> None:
            self.manager.help.give_back(asker)
            with self.lock:
                if self.hint is search:
                    self.hint = None
                if search.version != self.version or self.closed:
                    return  # stale: its failure (a cancelled search) is no news either
                if isinstance(result, Exception):
                    subscriber.send({"type": "error", "message": f"the hint failed: {result}"})
                    return
                info = result.info
                subscriber.send({"type": "hint", "move": move_text(result.move),
                                 "score": info.score, "ply": search.ply,
                                 "pv": [move_text(m) for m in info.pv]})

        self.hint = Search(player, self.board, limit, version=self.version,
                           on_progress=lambda search: None, on_done=done)
        self.hint.start()

    # --- searches ------------------------------------------------------------------------

    def _move_seed(self, spec: str) -> int | None:
        """The seed of the AI's next move: for a level that varies its play, from the
        game's seed and the ply (:func:`~hexgames.engine.players.move_seed`), so the
        game can be replayed; else ``None``."""
        seed = self.stored.extra.get("seed")
        if not isinstance(seed, int) or not parse_spec(spec).varied:
            return None
        return move_seed(seed, len(self.stored.moves))

    def _player(self, side: int) -> Engine:
        spec = self.stored.players[side]
        pool = self.manager.pool
        seed = self._move_seed(spec)
        if pool is not None:
            check_spec(spec)
            return ProcessEngine(pool, spec, f"{self.stored.id}:{side}", seed=seed)
        if seed is not None:
            return make_player(spec, seed)
        player = self._players.get(side)
        if player is None or id(player) in self._busy:
            # A stale search may still run in the old player: never share one.
            player = make_player(spec)
            self._players[side] = player
        return player

    def _ai_limit(self, side: int) -> Limit | None:
        """The AI's limit: its own (``None``), or in a live game its clock
        (``Limit(clock=seconds_left, increment=...)``) beside the depth or nodes its
        level presets, so it never spends more than its time."""
        if self.clock is None or self.clock.control.kind != "live":
            return None
        preset = check_spec(self.stored.players[side]).default_limit()
        # A clock can hold more than a search may take (MAX_SEARCH_SECONDS) after many
        # increments; the time manager spends a small part of it either way.
        left = min(max(0.0, self.clock.left(side, self.manager.now())),
                   limits.MAX_SEARCH_SECONDS)
        return Limit(nodes=preset.nodes if preset else None,
                     depth=preset.depth if preset else None,
                     playouts=preset.playouts if preset else None,
                     clock=left, increment=self.clock.control.increment)

    def _start_ai(self) -> None:
        if self.closed or self.over() or self.ai is not None:
            return
        if not self.subscribers and not self.manager.server:
            return  # in the local mode an AI thinks only while someone watches
        side = int(self.board.turn)
        if not self.is_ai(side):
            return
        self._stop_analysis()
        try:
            player = self._player(side)
            limit = self._ai_limit(side)
        except HexgamesError as error:  # a spec stored by an older version, say
            self.broadcast({"type": "error", "message":
                            f"the AI of {self.names[side]} cannot play: {error}"})
            return
        self._busy.add(id(player))

        def progress(search: Search) -> None:
            with self.lock:
                if self.ai is not search:
                    return
                shown = search.progress()
                if self.engine_help_hidden():
                    shown = {key: shown[key] for key in RATED_THINKING}
                self.broadcast({"type": "thinking", **shown})

        self.ai = Search(player, self.board, limit, version=self.version,
                         on_progress=progress, on_done=self._ai_done)
        self.ai.start()

    def _ai_done(self, search: Search, result: Any) -> None:
        with self.lock:
            self._busy.discard(id(search.player))
            if self.ai is not search:
                return  # stale: the game changed or was closed
            self.ai = None
            if isinstance(result, Exception):
                self.broadcast({"type": "error", "message":
                                f"the AI ({self.stored.players[search.side]}) failed: {result}"})
                self.broadcast_state()
                return
            if search.version != self.version or self.closed:
                return
            if self.flag():
                return  # the AI's own flag fell while it thought
            info = result.info
            announce = {"type": "ai_move", "move": move_text(result.move),
                        "side": search.side, "time": round(search.elapsed(), 2)}
            if not self.engine_help_hidden():
                announce.update(score=info.score, depth=info.depth)
            try:
                self._play(result.move, announce)
            except AppError as error:
                self.broadcast({"type": "error", "message": str(error)})

    def _stop_ai(self) -> None:
        if self.ai is not None:
            self.ai.cancel()
            self.ai = None

    def _start_analysis(self, subscriber: Subscriber | None = None) -> None:
        """Start the analyses of the sockets (or of ``subscriber``) that want one."""
        studying.start_analysis(self, subscriber)

    def _stop_analysis(self, subscriber: Subscriber | None = None) -> None:
        """Stop the analysis of ``subscriber`` (of every socket when ``None``)."""
        studying.stop_analysis(self, subscriber)


_Handler = Callable[[GameSession, JSON, Subscriber], None]
_HANDLERS: dict[str, _Handler] = {
    "move": GameSession._move, "undo": GameSession._undo, "resign": GameSession._resign,
    "hint": GameSession._hint, "analyse": studying.analyse, "stop": GameSession._stop,
    "view": studying.view, "targets": studying.targets, "state": GameSession._state,
    "draw": GameSession._draw,
    "takeback": GameSession._takeback, "study": studying.study,
    "names": studying.names, "analyse_game": studying.analyse_game,
}


def summary(stored: StoredGame, accounts: list[str | None] | None = None) -> JSON:
    """The SUMMARY of the protocol for a stored game (``accounts``: the names of the
    accounts in its seats, server mode).

    A game this version cannot read (an unknown game, or a rules option it does not
    know, say from another version, or a row whose columns are unreadable) is summed up
    all the same, with what could be read of it and ``"error"`` saying what is wrong,
    so that one such game does not hide the others from the list (and can be
    deleted)."""
    names = ["first player", "second player"]
    problem = stored.error
    try:
        module = game_module(stored.game)
        names = list(module.PLAYER_TAGS)
        rules: JSON = rules_json(module.Rules.from_options(stored.rules))
    except HexgamesError as error:
        problem = problem or f"game {stored.id} cannot be opened: {error}"
        rules = dict(word.partition("=")[::2] for word in stored.rules)
    player_names = stored.player_names
    if player_names is None or (stored.seats is not None and
                                not stored.extra.get("imported")):
        player_names = study.default_names(stored, accounts) \
            if len(stored.players) == 2 else None
    shown = {"id": stored.id, "game": stored.game, "rules": rules,
             "players": list(stored.players), "names": names,
             "created": stored.created, "updated": stored.updated,
             "moves": len(stored.moves), "result": stored.result,
             "termination": stored.termination, "player_names": player_names,
             "setup": stored.position is not None}
    if stored.seats is not None:
        shown["accounts"] = accounts if accounts is not None else [None, None]
        shown["rated"] = stored.rated
        control = (stored.clock or {}).get("control")
        shown["time_control"] = control
        turn = None
        if stored.result == "*" and not problem:
            turn = (len(stored.moves) + _first_turn(stored)) % 2
        shown["turn"] = turn
    if problem is not None:
        shown["error"] = problem
    return shown


def _first_turn(stored: StoredGame) -> int:
    """The side that moved first in a stored game: 1 only for a set-up position with
    the second player to move (``turn=r`` in Andantino, ``turn=w`` in Abande)."""
    if stored.position is None:
        return 0
    second = "turn=r" if stored.game == "andantino" else "turn=w"
    return int(second in stored.position.split())


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
        #: The ratings of a game from its rated results in order (the lobby's fold);
        #: the default knows no ratings.
        self.rerate: Callable[[list[GameResult]], dict[int, Rating]] = lambda results: {}
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()
        self._deadlines: dict[str, float] = {}  # game id -> when its running flag falls
        self._deadline_lock = threading.Lock()
        self._names: dict[int, str] = {}

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

    def make_helper(self, game_id: str, multipv: int = 1) -> Engine:
        """A new engine for the hints and analysis of a game; with ``multipv`` above 1
        the helper searches that many lines when its player takes the option
        (:func:`~hexgames.engine.players.with_options`), else one.

        Raises:
            HexgamesError: if the helper spec cannot be made.
        """
        spec = self.helper_spec
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

    def open_count(self) -> int:
        """How many games are kept replayed in memory."""
        with self._lock:
            return len(self._sessions)

    def changed(self, session: GameSession) -> None:
        """After a committed change of a session: note when its flag falls, and report
        a game that has ended."""
        clock = session.clock
        deadline = clock.deadline() if clock is not None and not session.over() else None
        with self._deadline_lock:
            if deadline is None:
                self._deadlines.pop(session.stored.id, None)
            else:
                self._deadlines[session.stored.id] = deadline
        if session.over() and self.on_finished is not None:
            try:
                self.on_finished(session)
            except Exception:
                log.exception("after the end of game %s", session.stored.id)

    def watch_stored(self) -> int:
        """At start: note the deadlines of every running timed game of the store, and
        (server mode) open the running games whose AI is to move, so that it moves;
        how many games are watched."""
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
            for game_id in self.store.running_seated_ids():
                stored = self.store.get(game_id, whole=False)
                if stored is None or stored.seats is None or stored.error:
                    continue
                turn = (len(stored.moves) + _first_turn(stored)) % 2
                if stored.players[turn] != HUMAN:
                    with contextlib.suppress(AppError):
                        session = self.session(stored.id)
                        with session.lock:
                            session._after_change()
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
                else:
                    self.changed(session)  # the deadline moved (a move came in time)
            except AppError as error:
                log.warning("flagging game %s failed: %s", game_id, error)
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
            if not self.store.delete_game(game_id, self.rerate):
                raise NotFoundError(f"no game with id {game_id[:40]!r}")
        with self._deadline_lock:
            self._deadlines.pop(game_id, None)

    def close(self) -> None:
        """Stop every search (the server stops)."""
        with self._lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()
        if self.pool is not None:
            self.pool.close()
