"""The study board's messages of a game's socket (docs/web-protocol.md): ``view`` (any
position, of the game or of a line), ``targets`` (where one piece of a position may
go), ``study`` (side lines, comments, NAGs, the
annotations of a whole-game analysis), ``names``, ``analyse`` (each socket's analysis of
the position its page shows, with MultiPV) and ``analyse_game`` (the whole-game
analysis, :mod:`hexgames.web.game_analysis`).

They are handlers of :class:`~hexgames.web.session.GameSession` (called with its lock
held, as its own); they check with :mod:`hexgames.web.policy`, edit a copy of the study
record (:mod:`hexgames.web.study`) and hand it to the session, which commits it
(``_save_study``) or, for a change of the game, does the change itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexgames import limits
from hexgames.analysis import annotate
from hexgames.core import HexgamesError
from hexgames.engine.base import Limit
from hexgames.record import GameRecord
from hexgames.web import policy
from hexgames.web import study as studies
from hexgames.web.game_analysis import GameAnalysisRun
from hexgames.web.searches import Search, Subscriber
from hexgames.web.store import StoreError
from hexgames.web.views import (
    JSON,
    AppError,
    ConflictError,
    board_json,
    moves_json,
    targets_json,
)
from hexgames.web.views import message_field as _field

if TYPE_CHECKING:
    from hexgames.web.session import GameSession

#: The actions of a ``study`` message.
STUDY_ACTIONS = ("add", "delete", "promote", "demote", "comment", "nags", "annotate")


def _line(session: GameSession, message: JSON, name: str = "line") -> tuple[Any, list[str]]:
    """The board after the moves of ``message[name]`` from the game's start (kept by
    the session's :class:`~hexgames.web.positions.Positions`: read it, never change it),
    and the moves in canonical notation.

    Raises:
        AppError: for a field that is not a line, or a move that is not legal.
    """
    return session.positions.board(studies.line_field(message.get(name), name))


def _named_line(session: GameSession, message: JSON) -> list[str] | None:
    """The line of the position a ``view`` or ``targets`` message names: its ``line``,
    or the game's first ``ply`` moves; ``None`` when it names neither (``targets`` of
    the game's current position).

    Raises:
        AppError: for a field that is not a line, or a ply the game does not have.
    """
    if "line" in message:
        return studies.line_field(message.get("line"), "line")
    if "ply" not in message:
        return None
    ply = _field(message, "ply", int)
    if not 0 <= ply <= len(session.stored.moves):
        raise AppError(f"ply {ply} is out of range: the game has "
                       f"{len(session.stored.moves)} plies")
    return session.stored.moves[:ply]


def view_json(board: Any, moves: list[str]) -> JSON:
    """The ``view`` message of ``board``, the position after ``moves`` (canonical)."""
    shown = board_json(board)
    over = board.is_game_over()
    outcome = board.outcome()
    legal = {"legal": [], "sources": []} if over else moves_json(board)
    return {"type": "view", "ply": len(moves), "line": moves, "board": shown, **legal,
            "last": shown["last"], "turn": int(board.turn), "over": over,
            "result": board.result(),
            "termination": outcome.termination.value if outcome else None,
            "winner": outcome.winner if outcome else None}


def view(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    line = _named_line(session, message)
    if line is None:
        raise AppError("a view message needs \"ply\" (a whole number) or \"line\" "
                       "(moves)")
    subscriber.send_text(session.positions.view(line))


def targets(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """The cells the piece on ``from`` may move to, in the position after ``line`` or
    ``ply`` moves of the game, or in the game's current one: for whoever may watch."""
    session._check(subscriber, "watch")
    source = _field(message, "from", str)
    line = _named_line(session, message)
    board = session.board if line is None else session.positions.board(line)[0]
    subscriber.send(targets_json(board, source))

def study(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    action = _field(message, "action", str)
    if action not in STUDY_ACTIONS:
        raise AppError(f"a study action is {', '.join(STUDY_ACTIONS)}, not "
                       f"{action[:40]!r}")
    session._check(subscriber, "study")
    record = session.record.copy()
    if action == "annotate":
        _annotate(session, record)
        return
    _, moves = _line(session, message)
    if action == "add":
        studies.add_line(record, moves)
    elif action == "delete":
        studies.delete(record, moves)
    elif action == "promote":
        studies.promote(record, moves)
    elif action == "demote":
        studies.demote(record, moves)
    elif action == "comment":
        studies.set_comment(record, moves, message.get("text"))
    else:
        studies.set_nags(record, moves, message.get("nags"))
    session._save_study(record, f"study's {action}")

def _annotate(session: GameSession, record: GameRecord) -> None:
    """Write the stored whole-game analysis into the study record (comments with
    the evaluations, NAGs for the mistakes, the better lines as variations)."""
    found = session.stored.extra.get("analysis")
    if not isinstance(found, dict) or found.get("moves") != session.stored.moves:
        raise ConflictError("the game has no whole-game analysis of its moves: "
                            "analyse the whole game first")
    annotated = annotate(record, studies.analysis_of_json(found))
    if studies.count_nodes(annotated) > limits.MAX_STUDY_NODES:
        raise AppError(f"the annotated study would hold more than "
                       f"{limits.MAX_STUDY_NODES} moves (hexgames.limits."
                       "MAX_STUDY_NODES)")
    try:
        annotated.validate()
    except HexgamesError as error:
        raise AppError(f"the annotation does not fit the game: {error}") from None
    session._save_study(annotated, "annotation")

def names(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    value = message.get("names")
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(name, str) for name in value):
        raise AppError("\"names\" must be the two players' names, first player first")
    session._check(subscriber, "name")
    record = session.record.copy()
    defaults = session._default_names()
    for side, (tag, name) in enumerate(zip(session.names, value, strict=True)):
        name = " ".join(name.split())
        if len(name) > limits.MAX_PLAYER_NAME:
            raise AppError(f"a player name may hold at most {limits.MAX_PLAYER_NAME} "
                           f"characters, not {len(name)}")
        if any(not char.isprintable() for char in name):
            raise AppError("a player name is one line of printable text")
        record.tags[tag] = name or defaults[side]
    session._save_study(record, "names")

def analyse_game(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
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
    session._check(subscriber, "analyse")
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
                    session._commit()
                except StoreError as error:
                    session.stored.extra.pop("analysis", None)
                    session.broadcast({"type": "error", "message":
                                    f"the whole-game analysis was not saved: {error}"})
            elif run.error is not None:
                session.broadcast({"type": "error", "message":
                                f"the whole-game analysis failed: {run.error}"})
            shown = session.game_analysis_json()
            session.broadcast({"type": "game_analysis", **(shown or {
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
    on = _field(message, "on", bool)
    line = None
    multipv = 1
    if on:
        session._check(subscriber, "analyse")
        if message.get("line") is not None:
            line = _line(session, message)[1]
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
    whose position is not over, unless the AI thinks (its figures stand in)."""
    if session.closed or session.ai is not None:
        return
    for each in [subscriber] if subscriber is not None else list(session.subscribers):
        if each.analysis_on and each.analysis is None:
            _analyse_for(session, each)

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
