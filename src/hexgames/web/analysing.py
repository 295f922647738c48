"""The engine's help in a game's socket (docs/web-protocol.md): ``hint`` (the best move
of the game's position), ``analyse`` (each socket's analysis of the position its page
shows, with MultiPV) and ``analyse_game`` (the whole-game analysis of a finished game,
:mod:`hexgames.web.game_analysis`, saved with it).

They are handlers of :class:`~hexgames.web.session.GameSession`, called with its lock
held; they check with :mod:`hexgames.web.policy`, take a helper slot of the manager
(:class:`~hexgames.web.searches.HelperSlots`) for each search and give it back when it
ends; a search's result is dropped if the game changed meanwhile. While the AI thinks
the analyses wait (its figures stand in): :func:`start_analysis` and
:func:`stop_analysis` are called by the session and its AI as the game changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.base import Limit
from hexgames.web import policy
from hexgames.web import study as studies
from hexgames.web.game_analysis import GameAnalysisRun
from hexgames.web.searches import Search, Subscriber
from hexgames.web.store import StoreError
from hexgames.web.studying import line_board
from hexgames.web.views import JSON, AppError, ConflictError, move_text
from hexgames.web.views import message_field as _field

if TYPE_CHECKING:
    from hexgames.web.session import GameSession


def hint(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "hint"}``: the engine's best move in the game's position, searched for
    :attr:`~hexgames.web.manager.GameManager.hint_time` seconds and sent as a ``hint``
    message to ``subscriber`` alone (dropped if the game changes meanwhile; refused by an
    ``error`` if its account may no longer have it, barred from engine help meanwhile).

    Raises:
        ConflictError: if the game is over, a hint is being worked out already, or
            the asker or the server has no helper free
            (:meth:`~hexgames.web.searches.HelperSlots.claim`).
        ForbiddenError: if the socket's account may not ask for one.
    """
    if session.over():
        raise ConflictError(f"the game is over ({session.stored.result}): no hint")
    session.check(subscriber, "hint")
    if session.hint is not None:
        raise ConflictError("a hint is already being worked out")
    asker = subscriber.actor
    help_slots = session.manager.help
    help_slots.claim(asker)
    try:
        player = session.manager.make_helper(session.stored.id)
    except BaseException:
        help_slots.give_back(asker)
        raise
    limit = Limit(time=session.manager.hint_time)

    def done(search: Search, result: Any) -> None:
        help_slots.give_back(asker)
        with session.lock:
            if session.hint is search:
                session.hint = None
            if search.version != session.version or session.closed:
                return  # stale: its failure (a cancelled search) is no news either
            if not isinstance(result, Exception):
                try:  # the account may have been barred from engine help meanwhile
                    session.actor_read(subscriber, lambda: session.manager.help_now(
                        subscriber.actor))
                except Exception as error:  # (the store is busy, say)
                    result = error
            if isinstance(result, Exception):
                subscriber.send({"type": "error", "message": f"the hint failed: {result}"})
                return
            try:
                session.check(subscriber, "hint")
            except policy.ForbiddenError as error:
                subscriber.send({"type": "error", "message": str(error)})
                return
            info = result.info
            subscriber.send({"type": "hint", "move": move_text(result.move),
                             "score": info.score, "ply": search.ply,
                             "pv": [move_text(m) for m in info.pv]})

    session.hint = Search(player, session.board, limit, version=session.version,
                          on_progress=lambda search: None, on_done=done)
    session.hint.start()


def analyse_game(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "analyse_game", "action": "start" | "stop"}``: start the whole-game
    analysis of a finished game (``game_analysis`` messages to every socket as it goes,
    the result saved with the game and in the state), or stop a running one.

    Raises:
        AppError: for another action.
        ConflictError: if the game is not over, it is being analysed already, or no
            helper is free.
        ForbiddenError: if the account may not analyse, or may not stop another's run.
    """
    action = _field(message, "action", str)
    if action == "stop":
        # who started it, a player of the game or an administrator may stop it; a
        # watcher may not stop another page's
        actor = subscriber.actor
        run = session.game_run
        if run is not None and not (actor.local or actor.admin or
                                    session.facts().sides_of(actor) or
                                    run.started_by == actor.user_id):
            raise policy.refuse(actor, "stop the analysis", session.stored.id,
                                "only who started it or a player stops the whole-game "
                                "analysis")
        if session.game_run is not None:
            session.game_run.stop()
        return
    if action != "start":
        raise AppError(f"an analyse_game action is start or stop, not {action[:40]!r}")
    if not session.over():
        raise ConflictError("the whole game is analysed once it is over")
    session.check(subscriber, "analyse")
    if session.game_run is not None:
        raise ConflictError("the whole game is being analysed already")
    asker = subscriber.actor
    session.manager.help.claim(asker)
    version = session.version
    moves = list(session.stored.moves)

    def progress(done: int, total: int) -> None:
        with session.lock:
            if session.game_run is run:
                session.broadcast({"type": "game_analysis", "running": True,
                                   "done": done, "total": total, "result": None})

    def finished(run: GameAnalysisRun) -> None:
        session.manager.help.give_back(asker)
        with session.lock:
            if session.game_run is not run:
                return
            session.game_run = None
            if run.result is not None and version == session.version and not session.closed:
                session.stored.extra["analysis"] = studies.analysis_json(
                    run.result, moves, run.seconds)
                try:
                    session.commit()
                except StoreError as error:
                    session.stored.extra.pop("analysis", None)
                    session.broadcast({"type": "error", "message":
                                       f"the whole-game analysis was not saved: {error}"})
            elif run.error is not None:
                session.broadcast({"type": "error", "message":
                                   f"the whole-game analysis failed: {run.error}"})
            shown = session.game_analysis_json()
            session.broadcast_game_analysis({"type": "game_analysis", **(shown or {
                "running": False, "done": run.done, "total": run.total,
                "result": None})})
            session.broadcast_state()

    try:
        run = GameAnalysisRun(session.record.copy(), lambda: session.manager.make_helper(
            session.stored.id), session.manager.helper_spec,
            session.manager.game_analysis_time, on_progress=progress, on_done=finished)
    except BaseException:
        session.manager.help.give_back(asker)
        raise
    run.started_by = asker.user_id
    session.game_run = run
    run.start()
    session.broadcast({"type": "game_analysis", "running": True, "done": 0,
                       "total": run.total, "result": None})


def analyse(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "analyse", "on": true | false, "line": [...]?, "multipv": N?}``: turn
    the socket's analysis on (of the game's position, or of the position after
    ``line``; ``multipv`` lines, 1 to :data:`~hexgames.limits.MAX_ANALYSIS_LINES`) or
    off; ``analysis`` messages follow, then the state.

    Raises:
        AppError: for a line that is not legal or a ``multipv`` out of range.
        ConflictError: if :data:`~hexgames.limits.MAX_GAME_ANALYSES` other pages
            analyse the game already.
        ForbiddenError: if the account may not analyse.
    """
    on = _field(message, "on", bool)
    line = None
    multipv = 1
    if on:
        session.check(subscriber, "analyse")
        if message.get("line") is not None:
            line = line_board(session, message)[1]
        if "multipv" in message:
            multipv = _field(message, "multipv", int)
            if not 1 <= multipv <= limits.MAX_ANALYSIS_LINES:
                raise AppError(f"multipv must be 1 to {limits.MAX_ANALYSIS_LINES} "
                               f"(hexgames.limits.MAX_ANALYSIS_LINES), not {multipv}")
        busy = sum(1 for other in session.subscribers
                   if other.analysis_on and other is not subscriber)
        if busy >= limits.MAX_GAME_ANALYSES:
            raise ConflictError(f"{busy} pages analyse this game already, the most at "
                                "once (hexgames.limits.MAX_GAME_ANALYSES): try later")
    stop_analysis(session, subscriber)
    subscriber.analysis_on = on
    subscriber.analysis_line = line
    subscriber.multipv = multipv
    if on:
        start_analysis(session, subscriber)
    subscriber.send(session.state(subscriber))


def start_analysis(session: GameSession, subscriber: Subscriber | None = None) -> None:
    """Start the analysis of each socket (or of ``subscriber``) whose switch is on and
    whose position is not over, unless the AI thinks (its figures stand in), and the
    policy allows it now (:func:`_refusal`): else its switch is turned off, and it gets
    an ``error`` that says why and the state."""
    if session.closed or session.ai.thinking:
        return
    for each in [subscriber] if subscriber is not None else list(session.subscribers):
        if not each.analysis_on or each.analysis is not None:
            continue
        why = _refusal(session, each)
        if why is not None:
            was_on = each.analysis_on  # (switched off with a new state already, if
            each.analysis_on = False   # the account's barring changed as it was read)
            each.send({"type": "error", "message": f"the analysis is switched off: {why}"})
            if was_on:
                each.send(session.state(each))
            continue
        _analyse_for(session, each)


def _refusal(session: GameSession, subscriber: Subscriber) -> str | None:
    """Why the analysis of ``subscriber`` may not start (again) now, or ``None``: the
    policy is asked as when it was switched on, with the account's barring read afresh
    (:meth:`~hexgames.web.session.GameSession.actor_read`), since the switch stays on
    while the game changes: its account may have started a game that bars it, of which
    the manager's news has not come yet, or a take-back may have made a finished game
    run again."""
    try:
        actor = session.actor_read(subscriber, lambda: session.manager.help_now(
            subscriber.actor))
    except Exception as error:  # (the store is busy, say)
        return f"its account could not be read ({error})"
    assert actor is not None  # (help_now reads an actor always)
    try:
        policy.check(actor, "analyse", session.facts())
    except policy.ForbiddenError as error:
        return str(error)
    return None


def _analyse_for(session: GameSession, subscriber: Subscriber) -> None:
    line = subscriber.analysis_line
    if line is None:
        board = session.board
    else:
        try:
            board = session.positions.board(line)[0]  # the search copies it
        except AppError:
            return
    if board.is_game_over():
        return

    def progress(search: Search) -> None:
        with session.lock:
            if subscriber.analysis is search:
                subscriber.send(_analysis_message(search))

    def done(search: Search, result: Any) -> None:
        session.manager.help.give_back(asker)
        with session.lock:
            if subscriber.analysis is not search:
                return
            subscriber.analysis = None
            if isinstance(result, Exception):
                subscriber.send({"type": "error", "message": f"analysis failed: {result}"})
                return
            search.info = result.info
            subscriber.send({**_analysis_message(search), "done": True})

    asker = subscriber.actor
    busy = session.manager.help.take(asker)
    if busy is not None:
        subscriber.analysis_on = False
        subscriber.send({"type": "error", "message": f"no analysis: {busy}"})
        return
    try:
        engine = session.manager.make_helper(session.stored.id, subscriber.multipv)
    except HexgamesError as error:
        session.manager.help.give_back(asker)
        subscriber.send({"type": "error", "message": f"analysis failed: {error}"})
        return
    subscriber.analysis = Search(engine, board, Limit(time=session.manager.analysis_time),
                                 version=session.version, on_progress=progress,
                                 on_done=done)
    subscriber.analysis.start()


def _analysis_message(search: Search) -> JSON:
    return {"type": "analysis", "ply": search.ply, "line": search.line,
            "position": search.position, **search.progress()}


def stop_analysis(session: GameSession, subscriber: Subscriber | None = None) -> None:
    """Stop the analysis of ``subscriber`` (of every socket when ``None``); the
    switches stay as they are."""
    for each in [subscriber] if subscriber is not None else list(session.subscribers):
        if each.analysis is not None:
            each.analysis.cancel()
            each.analysis = None
