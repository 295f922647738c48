"""Draw offers and take-back requests between two people (server mode), the ``draw`` and
``takeback`` messages of a game's socket (docs/web-protocol.md).

A game holds at most one standing offer, ``stored.extra["offer"]`` (``{"kind": "draw" or
"takeback", "side": 0 or 1, "ply": plies when made}``), saved with the game; any move
withdraws it. The opponent accepts or declines it; a draw offered by both is agreed. A
declined offer (``stored.extra["declined"][kind]``, withdrawn as an offer is) is not made
again before a move or a take-back.

These are handlers of :class:`~hexgames.web.session.GameSession`, called with its lock
held; they check with :mod:`hexgames.web.policy` and change the game only through the
session's public methods (:meth:`~hexgames.web.session.GameSession.save_or_restore`,
:meth:`~hexgames.web.session.GameSession.end`,
:meth:`~hexgames.web.session.GameSession.take_back`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexgames.web import policy
from hexgames.web.searches import Subscriber
from hexgames.web.views import JSON, AppError, ConflictError
from hexgames.web.views import message_field as _field

if TYPE_CHECKING:
    from hexgames.web.session import GameSession


def draw(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "draw", "action": "offer" | "accept" | "decline"}``.

    Raises:
        AppError: for another action.
        ConflictError: if the game is over, or as :func:`offer` and :func:`_answer`.
        ForbiddenError: if the socket's account may not offer or answer.
    """
    action = _field(message, "action", str)
    session.check(subscriber, "draw")
    stored = session.stored
    if session.over():
        raise ConflictError(f"the game is over ({stored.result})")
    if action == "offer":
        standing = stored.extra.get("offer")
        if standing is not None and standing["kind"] == "draw" and \
                standing["side"] not in session.facts().sides_of(subscriber.actor):
            _answer(session, "draw", True, subscriber)  # both offered: agreed
            return
        offer(session, "draw", subscriber)
    elif action in ("accept", "decline"):
        _answer(session, "draw", action == "accept", subscriber)
    else:
        raise AppError(f"a draw action is offer, accept or decline, not {action[:40]!r}")


def takeback(session: GameSession, message: JSON, subscriber: Subscriber) -> None:
    """``{"type": "takeback", "action": "offer", "ply": N}`` (as ``undo``:
    :meth:`~hexgames.web.session.GameSession.undo`) or ``"action": "accept" |
    "decline"``.

    Raises:
        AppError: for another action.
        ConflictError, ForbiddenError: as :func:`_answer`.
    """
    action = _field(message, "action", str)
    if action == "offer":
        session.undo(_field(message, "ply", int), subscriber)
        return
    if action not in ("accept", "decline"):
        raise AppError(f"a takeback action is offer, accept or decline, not "
                       f"{action[:40]!r}")
    session.check(subscriber, "takeback")
    _answer(session, "takeback", action == "accept", subscriber)


def offer(session: GameSession, kind: str, subscriber: Subscriber) -> None:
    """``subscriber``'s account offers a draw (``kind`` ``"draw"``) or asks for a
    take-back (``"takeback"``): the offer is saved and announced (``offer``) with the
    new state.

    Raises:
        ConflictError: if the game is over, the same offer stands already, the
            opponent is the computer, or (a take-back) the asker has made no move.
        AppError: if the store refuses the offer.
    """
    stored = session.stored
    if session.over():
        raise ConflictError(f"the game is over ({stored.result})")
    mine = session.facts().sides_of(subscriber.actor)
    turn = int(session.board.turn)
    side = turn if turn in mine else mine[0]
    old = stored.extra.get("offer")
    if old is not None and old["side"] == side and old["kind"] == kind:
        raise ConflictError(f"your {kind} offer stands already")
    declined = stored.extra.get("declined", {}).get(kind)  # gone at the next move
    if declined is not None and declined["side"] == side:
        raise ConflictError(f"your {kind} offer was declined: make it again after a move")
    if session.is_ai(1 - side):
        raise ConflictError(f"the computer does not answer {kind} offers")
    if kind == "takeback" and not any(session.mover(p) == side
                                      for p in range(len(stored.moves))):
        raise ConflictError("you have made no move to take back")
    stored.extra["offer"] = {"kind": kind, "side": side, "ply": len(stored.moves)}

    def restore() -> None:
        if old is None:
            stored.extra.pop("offer", None)
        else:
            stored.extra["offer"] = old

    session.save_or_restore(f"{kind} offer", restore)
    session.broadcast({"type": "offer", **stored.extra["offer"]})
    session.broadcast_state()


def _answer(session: GameSession, kind: str, accept: bool, subscriber: Subscriber) -> None:
    """The opponent of a standing offer accepts or declines it: an accepted draw ends
    the game (``agreement``), an accepted take-back takes back the asker's last move
    (and the reply to it) so the asker is to move.

    Raises:
        ConflictError: if no such offer stands.
        ForbiddenError: if the offer is the answering account's own.
    """
    stored = session.stored
    standing = stored.extra.get("offer")
    mine = session.facts().sides_of(subscriber.actor)
    if standing is None or standing["kind"] != kind:
        raise ConflictError(f"there is no {kind} offer to answer")
    if standing["side"] in mine and not subscriber.actor.local:
        raise policy.refuse(subscriber.actor, kind, stored.id,
                            f"the {kind} offer is your own: the opponent answers it")
    if not accept:
        # the same offer comes again only after a move (not in a loop of offers)
        before = stored.extra.get("declined")
        stored.extra.pop("offer")
        stored.extra["declined"] = {**(before or {}), kind: {"side": standing["side"]}}

        def restore() -> None:
            stored.extra["offer"] = standing
            if before is None:
                stored.extra.pop("declined", None)
            else:
                stored.extra["declined"] = before

        session.save_or_restore(f"{kind} answer", restore)
        session.broadcast({"type": "offer_declined", **standing})
        session.broadcast_state()
        return
    if kind == "draw":
        session.end("1/2-1/2", "agreement")
        return
    plies = 1 if session.mover(len(stored.moves) - 1) == standing["side"] else 2
    session.take_back(min(plies, len(stored.moves)))
