"""The small things of live play in the server mode (docs/web-protocol.md), as lichess
does them: aborting a game before its second move, a rematch after the end, a premove
while the opponent thinks, and whose page is open (presence).

- **abort** ``{"type": "abort"}``: a player aborts a game before its second move (each
  side's first); a game whose first player lets the clock run out before the first
  move is aborted too (no game is lost on time without a move). An aborted game is
  deleted, as lichess hides its aborted games: it is unrated, in nobody's results and
  games, and holds no seat against the running games' cap. Its sockets get
  ``{"type": "aborted", "by": name or null, "message": ...}`` and are closed (4404).
- **rematch** ``{"type": "rematch", "action": "offer" | "accept" | "decline"}``: after
  a game between two people has ended, a player offers a rematch (``stored.extra
  ["rematch"] = {"side"}``; one by each side is agreed); accepted, a new game is made
  with the colours swapped, the same rules, clock and rating (:meth:`Lobby.rematch
  <hexgames.web.lobby.Lobby.rematch>`), its id kept as ``stored.extra["rematch_game"]``
  and sent to every socket as ``{"type": "rematch", "game": id}``. The game's lock
  makes the check and the making one step, so accepts sent at once make one game; a
  later accept is answered with the same id.
- **premove** ``{"type": "premove", "move": text or null, "ply": N}``: in a live game
  the player who waits queues one move (``null`` cancels it); when the opponent has
  moved it is played at once if it is legal then, else dropped with ``{"type":
  "premove", "move": null, "dropped": text, "message": ...}``. Kept in memory only
  (:attr:`GameSession.premoves <hexgames.web.session.GameSession.premoves>`), seen only
  by the player's own sockets (the state's ``premove``).
- **presence**: the state's ``online`` (for each seat, whether its account has a socket
  open on the game), and ``{"type": "presence", "online": [bool, bool]}`` when it
  changes.

These are handlers of :class:`~hexgames.web.session.GameSession`, called with its lock
held, and change the game only through its public methods.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.web.store import StoreError
from hexgames.web.views import JSON, AppError, ConflictError
from hexgames.web.views import message_field as _field

if TYPE_CHECKING:
    from hexgames.web.searches import Subscriber
    from hexgames.web.session import GameSession

log = logging.getLogger("hexgames.web")

#: The plies before which a game may be aborted (each side's first move).
ABORT_PLIES = 2


# --- abort ---------------------------------------------------------------------------------


def abort_message(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "abort"}``.

    Raises:
        ConflictError: if the game is over or has had its second move.
        ForbiddenError: for an account not in its seats.
    """
    session.check(subscriber, "abort")
    if session.over():
        raise ConflictError(f"the game is over ({session.stored.result}): it cannot be "
                            "aborted")
    if len(session.stored.moves) >= ABORT_PLIES:
        raise ConflictError("a game is aborted only before its second move: resign "
                            "instead")
    if "tournament" in session.stored.extra:
        raise ConflictError("a tournament's game is played, not aborted: resign instead")
    abort(session, subscriber.actor.name)


def abort(session: GameSession, by: str | None) -> None:
    """Abort the game (the lock held): delete it, tell its sockets and close them.
    ``by``: the account that aborted it, ``None`` when the first move was not made in
    time. The manager forgets the session once the lock is let go
    (:meth:`~hexgames.web.manager.GameManager.forget`).

    Raises:
        AppError: if the database refuses the deletion (the game is as it was).
    """
    stored = session.stored
    try:
        session.store.delete_game(stored.id, session.manager.rerate)
    except StoreError as error:
        raise AppError(f"the abort was not saved: {error}") from None
    text = (f"{by} aborted the game" if by is not None
            else "the game was aborted: the first move was not made in time")
    log.info("game %s aborted (%s)", stored.id, by or "no first move in time")
    if stored.seats is not None:  # it bars its accounts' engine help no longer
        session.manager.seats_changed(stored.id, stored.seats, running=False)
    session.broadcast({"type": "aborted", "by": by, "message": f"{text}."})
    session.close()


# --- rematch -------------------------------------------------------------------------------


def rematch(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "rematch", "action": "offer" | "accept" | "decline"}``.

    Raises:
        AppError: for another action.
        ConflictError: if the game runs, has an AI, or no offer stands to answer.
        ForbiddenError: for an account not in its seats, or one answering its own offer.
    """
    action = _field(message, "action", str)
    if action not in ("offer", "accept", "decline"):
        raise AppError(f"a rematch action is offer, accept or decline, not {action[:40]!r}")
    session.check(subscriber, "rematch")
    stored = session.stored
    if not session.over():
        raise ConflictError("a rematch is offered once the game is over")
    if session.is_ai(0) or session.is_ai(1):
        raise ConflictError("the computer does not answer a rematch: start a new game")
    made = stored.extra.get("rematch_game")
    if made is not None and action != "decline":
        subscriber.send({"type": "rematch", "game": made})  # made already: the same one
        return
    mine = session.facts().sides_of(subscriber.actor)
    standing = stored.extra.get("rematch")
    theirs = standing is not None and standing["side"] not in mine
    if action != "offer" and not theirs:
        raise ConflictError("there is no rematch offer of your opponent to answer")
    if action == "decline":
        stored.extra.pop("rematch")
        session.save_or_restore("rematch answer",
                                lambda: stored.extra.__setitem__("rematch", standing))
        session.broadcast({"type": "rematch_declined", "side": mine[0] ^ 1})
        session.broadcast_state()
        return
    if action == "offer" and not theirs:
        if standing is not None:
            raise ConflictError("your rematch offer stands already")
        # offered again and again, it flashed on the opponent's page in a loop
        counts = list(stored.extra.get("rematch_offers", [0, 0]))
        if counts[mine[0]] >= limits.MAX_REMATCH_OFFERS:
            raise ConflictError(f"you offered a rematch {counts[mine[0]]} times, the most "
                                "in a game (hexgames.limits.MAX_REMATCH_OFFERS)")
        before = stored.extra.get("rematch_offers")
        stored.extra["rematch"] = {"side": mine[0]}
        counts[mine[0]] += 1
        stored.extra["rematch_offers"] = counts

        def withdraw() -> None:
            stored.extra.pop("rematch", None)
            if before is None:
                stored.extra.pop("rematch_offers", None)
            else:
                stored.extra["rematch_offers"] = before

        session.save_or_restore("rematch offer", withdraw)
        session.broadcast({"type": "rematch_offer", "side": mine[0]})
        session.broadcast_state()
        return
    # accepted (or offered by both): the new game, the colours swapped
    game_id = session.manager.make_rematch(session)
    stored.extra.pop("rematch", None)
    stored.extra["rematch_game"] = game_id

    def restore() -> None:
        stored.extra.pop("rematch_game", None)

    try:
        session.save_or_restore("rematch", restore)
    except AppError:
        log.exception("game %s: its rematch %s was made but not noted", stored.id, game_id)
    session.broadcast({"type": "rematch", "game": game_id})
    session.broadcast_state()


# --- premove -------------------------------------------------------------------------------


def premove(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "premove", "move": text or null, "ply": N}``.

    Raises:
        ConflictError: if the game is not live, is over, or the page was out of date.
        ForbiddenError: for a watcher, or the player to move.
        AppError: for a move text that is too long or is no move of the game.
    """
    text = message.get("move")
    if text is not None and not isinstance(text, str):
        raise AppError("\"move\" must be a move text or null")
    ply = _field(message, "ply", int)
    clock = session.clock
    if clock is None or clock.control.kind != "live":
        raise ConflictError("premoves are for live games (with a clock of minutes)")
    if session.over():
        raise ConflictError(f"the game is over ({session.stored.result})")
    session.check(subscriber, "premove")
    if ply != len(session.stored.moves):
        raise ConflictError(f"the premove was made at ply {ply} but the game is at ply "
                            f"{len(session.stored.moves)}: the page was out of date")
    side = 1 - int(session.board.turn)
    if text is None:
        session.premoves.pop(side, None)
    else:
        if len(text) > limits.MAX_MOVE_TEXT:
            raise AppError(f"no move is longer than {limits.MAX_MOVE_TEXT} characters")
        try:  # its legality waits for the opponent's move; its form does not
            move = session.module.Move.from_notation(text.strip())
        except HexgamesError as error:
            raise AppError(f"not a premove: {error}") from None
        session.premoves[side] = move.notation()
    _tell_premove(session, side, {"type": "premove", "move": session.premoves.get(side)})


def after_move(session: GameSession) -> None:
    """After a move is committed (the lock held): play the premove of the side now to
    move, if it has one and it is legal; drop it otherwise."""
    if session.over() or session.closed:
        session.premoves.clear()
        return
    side = int(session.board.turn)
    text = session.premoves.pop(side, None)
    if text is None:
        return
    try:
        move = session.board.parse_notation(text)
    except HexgamesError as error:
        _tell_premove(session, side, {"type": "premove", "move": None, "dropped": text,
                                      "message": f"the premove {text[:40]} was dropped: "
                                                 f"{error}"})
        return
    try:
        session.play(move)
    except AppError as error:
        _tell_premove(session, side, {"type": "premove", "move": None, "dropped": text,
                                      "message": str(error)})


def premove_of(session: GameSession, subscriber: Subscriber) -> str | None:
    """The premove queued by ``subscriber``'s account (for its state), or ``None``."""
    seats = session.stored.seats
    if seats is None or subscriber.actor.user_id is None:
        return None
    return next((text for side, text in session.premoves.items()
                 if seats[side] == subscriber.actor.user_id), None)


def _tell_premove(session: GameSession, side: int, message: JSON) -> None:
    seats = session.stored.seats
    if seats is None:
        return
    for subscriber in list(session.subscribers):
        if subscriber.actor.user_id is not None and subscriber.actor.user_id == seats[side]:
            subscriber.send(message)


# --- presence ------------------------------------------------------------------------------


def online(session: GameSession) -> list[bool] | None:
    """For each seat, whether its account has a socket open on the game (``None`` for
    a game without seats)."""
    seats = session.stored.seats
    if seats is None:
        return None
    present = {s.actor.user_id for s in session.subscribers}
    return [seat is not None and seat in present for seat in seats]


def presence_changed(session: GameSession, before: list[bool] | None,
                     new: Subscriber | None = None) -> None:
    """Tell every socket (but ``new``, whose state says it) whose page is open, if
    that changed since ``before``."""
    now = online(session)
    if now != before:
        for subscriber in list(session.subscribers):
            if subscriber is not new:
                subscriber.send({"type": "presence", "online": now})
