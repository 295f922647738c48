"""The study board's messages of a game's socket (docs/web-protocol.md): ``view`` (any
position, of the game or of a line), ``targets`` (where one piece of a position may
go), ``study`` (side lines, comments, NAGs, the annotations of a whole-game analysis)
and ``names``. The engine's help (``hint``, ``analyse``, ``analyse_game``) is in
:mod:`hexgames.web.analysing`.

They are handlers of :class:`~hexgames.web.session.GameSession`, called with its lock
held; they check with :mod:`hexgames.web.policy`, edit a copy of the study record
(:mod:`hexgames.web.study`) and hand it to the session, which commits it
(:meth:`~hexgames.web.session.GameSession.save_study`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexgames import limits
from hexgames.analysis import annotate
from hexgames.core import HexgamesError
from hexgames.record import GameRecord
from hexgames.record.marks import MAX_MARKS, Mark, MarkError, join_marks, parse_mark, split_marks
from hexgames.web import study as studies
from hexgames.web.searches import Subscriber
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
STUDY_ACTIONS = ("add", "delete", "promote", "demote", "comment", "nags", "annotate",
                 "marks", "first")


def line_board(session: GameSession, message: JSON) -> tuple[Any, list[str]]:
    """The board after the moves of ``message["line"]`` from the game's start (kept by
    the session's :class:`~hexgames.web.positions.Positions`: read it, never change it),
    and the moves in canonical notation.

    Raises:
        AppError: for a field that is not a line, or a move that is not legal.
    """
    return session.positions.board(studies.line_field(message.get("line"), "line"))


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
    """``{"type": "view", "ply": N}`` or ``{"type": "view", "line": [...]}``: the
    ``view`` message of that position (:func:`view_json`) to ``subscriber``.

    Raises:
        AppError: if it names neither, a ply the game does not have, or a line that is
            not legal.
    """
    line = _named_line(session, message)
    if line is None:
        raise AppError("a view message needs \"ply\" (a whole number) or \"line\" "
                       "(moves)")
    subscriber.send_text(session.positions.view(line))


def targets(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """The cells the piece on ``from`` may move to, in the position after ``line`` or
    ``ply`` moves of the game, or in the game's current one: for whoever may watch."""
    session.check(subscriber, "watch")
    source = _field(message, "from", str)
    line = _named_line(session, message)
    board = session.board if line is None else session.positions.board(line)[0]
    subscriber.send(targets_json(board, source))


def study(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "study", "action": ..., "line": [...], ...}``: change the study record
    (:data:`STUDY_ACTIONS`: add, delete, promote or demote a line, set a move's comment
    ``text`` or its ``nags``, or annotate it with the game's whole-game analysis); the
    new state goes to every socket.

    Raises:
        AppError: for an unknown action, a line or field the record refuses, or a
            record the store does not save.
        ConflictError: for ``annotate`` without a whole-game analysis of the moves.
        ForbiddenError: if the account may not edit the study.
    """
    action = _field(message, "action", str)
    if action not in STUDY_ACTIONS:
        raise AppError(f"a study action is {', '.join(STUDY_ACTIONS)}, not "
                       f"{action[:40]!r}")
    session.check(subscriber, "study")
    record = session.record.copy()
    if action == "annotate":
        _annotate(session, record)
        return
    _, moves = line_board(session, message)
    if action == "add":
        studies.add_line(record, moves)
    elif action == "delete":
        studies.delete(record, moves)
    elif action == "promote":
        studies.promote(record, moves)
    elif action == "demote":
        studies.demote(record, moves)
    elif action == "first":
        promote_first(record, moves)
    elif action == "comment":
        studies.set_comment(record, moves, message.get("text"))
    elif action == "marks":
        set_marks(record, moves, message.get("marks"), session.stored.game)
    else:
        studies.set_nags(record, moves, message.get("nags"))
    session.save_study(record, f"study's {action}")


def set_marks(record: GameRecord, moves: list[str], value: object, game: str) -> None:
    """Make ``value`` (``[{"color": "G", "cell": "c3", "to": "d4" | null}...]``, at most
    :data:`~hexgames.record.marks.MAX_MARKS`) the arrows and circles of the move at the
    end of ``moves`` (``[]``: the start), kept in its comment after its text
    (:mod:`hexgames.record.marks`); ``[]`` removes them.

    Raises:
        AppError: for marks that are not a list of such objects, or a cell of no such
            form (an Abande point off the board).
    """
    if not isinstance(value, list) or len(value) > MAX_MARKS:
        raise AppError(f"\"marks\" must be a list of at most {MAX_MARKS} marks")
    marks: list[Mark] = []
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("cell"), str) \
                or not isinstance(item.get("color", "G"), str) \
                or not isinstance(item.get("to") or "", str):
            raise AppError("a mark is {\"color\": \"G\", \"cell\": cell, \"to\": cell or "
                           "null}")
        separator = "-" if game == "abande" else ">"
        entry = f"{item.get('color', 'G')}{item['cell']}"
        if item.get("to"):
            entry += f"{separator}{item['to']}"
        try:
            mark = parse_mark(entry, game)
        except MarkError as error:
            raise AppError(str(error)) from None
        if game == "abande" and not all(_on_abande_board(c) for c in (mark.cell, mark.to)):
            raise AppError(f"{entry[:40]!r}: not a point of the board")
        if mark not in marks:
            marks.append(mark)
    node = studies.node_at(record, moves)
    text, _ = split_marks(node.comment, game)
    comment = join_marks(text, marks, game)
    if len(comment) > limits.MAX_COMMENT:
        raise AppError(f"the comment with its marks is {len(comment)} characters long: "
                       f"at most {limits.MAX_COMMENT}")
    node.comment = comment or None


def promote_first(record: GameRecord, moves: list[str]) -> None:
    """Promote the side line that holds the end of ``moves`` as far as it goes: one
    place at a time (:func:`hexgames.web.study.promote`) until it is the main line of
    the line it leaves, then that line with it, up to the game's line, where it stays
    the first alternative after the game's own move (the main line is the game).

    Raises:
        AppError: as :func:`hexgames.web.study.promote` for the first step (a node of
            the main line; a variation right after the game's own move already).
    """
    studies.promote(record, moves)
    for _ in range(studies.count_nodes(record)):
        try:
            studies.promote(record, moves)
        except AppError:  # at the game's line: as far as it goes
            return


def _on_abande_board(cell: str | None) -> bool:
    if cell is None:
        return True
    q = "abcdefg".index(cell[0]) - 3
    r = 4 - int(cell[1:]) - max(q, 0)
    return max(abs(q), abs(r), abs(q + r)) <= 3


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
    session.save_study(annotated, "annotation")


def names(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "names", "names": [first, second]}``: the players' names in the study
    record's tags (an empty name: the default one); the new state goes to every socket.

    Raises:
        AppError: for names that are not two lines of printable text of at most
            :data:`~hexgames.limits.MAX_PLAYER_NAME` characters, or a record the store
            does not save.
        ForbiddenError: if the account may not name the players.
    """
    value = message.get("names")
    if not isinstance(value, list) or len(value) != 2 or not all(
            isinstance(name, str) for name in value):
        raise AppError("\"names\" must be the two players' names, first player first")
    session.check(subscriber, "name")
    record = session.record.copy()
    defaults = session.default_names()
    for side, (tag, name) in enumerate(zip(session.names, value, strict=True)):
        name = " ".join(name.split())
        if len(name) > limits.MAX_PLAYER_NAME:
            raise AppError(f"a player name may hold at most {limits.MAX_PLAYER_NAME} "
                           f"characters, not {len(name)}")
        if any(not char.isprintable() for char in name):
            raise AppError("a player name is one line of printable text")
        record.tags[tag] = name or defaults[side]
    session.save_study(record, "names")
