"""Vacations: a player pauses the clocks of their correspondence games for some days,
at most :data:`hexgames.limits.MAX_VACATION_DAYS` days a calendar year.

A vacation is a span of wall-clock time (``vacations`` table,
:mod:`hexgames.web.mail_tables`). Taking one adds it as a pause of the player's side to
the clock of each of their running correspondence games
(:meth:`hexgames.web.clock.GameClock.pause`): while the pause lasts their clock does not
run, also if it starts during the vacation (the opponent moved); its deadline moves
back by the pause. A correspondence game that begins during a vacation gets the pause
too (:meth:`Vacations.pause_new`). Ending the vacation early cuts the pauses at that
moment. Live games are never paused. The state's clock says ``paused`` (until when),
so the opponent sees it.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any

from hexgames import limits
from hexgames.web import policy
from hexgames.web.clock import GameClock
from hexgames.web.mail_tables import VacationError, year_of
from hexgames.web.manager import GameManager
from hexgames.web.policy import Actor
from hexgames.web.session import GameSession
from hexgames.web.store import GameStore
from hexgames.web.views import JSON, AppError, ConflictError

log = logging.getLogger("hexgames.web.vacation")


def whole_in(value: object, low: int, high: int) -> int | None:
    """A JSON value as a whole number if it is one from ``low`` to ``high`` (``3`` or
    ``3.0``), else ``None`` (``true``, ``2.5``, NaN, a number out of range)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    return int(value) if low <= value <= high else None


class Vacations:
    """The vacations of a server's accounts."""

    def __init__(self, store: GameStore, manager: GameManager) -> None:
        self.store = store
        self.manager = manager

    def status(self, user_id: int) -> JSON:
        """``vacation`` of ``GET /api/account/notifications``: ``until`` (the end of
        the vacation now, seconds since the epoch, or ``null``), the days ``used`` in
        this ``year`` and the ``most`` a year."""
        now = self.manager.now()
        vacation = self.store.vacation_at(user_id, now)
        year = year_of(now)
        return {"until": None if vacation is None else vacation.end,
                "used": self.store.vacation_days_used(user_id, year), "year": year,
                "most": limits.MAX_VACATION_DAYS}

    def start(self, actor: Actor, body: dict[str, Any]) -> JSON:
        """``POST /api/account/vacation {"days"}``: a vacation of ``days`` (a whole
        number from 1) from now; its status.

        Raises:
            AppError: for ``days`` that is no whole number from 1 to the yearly most.
            ConflictError: when the account is on vacation already or has not that
                many days left this year.
        """
        policy.require_account(actor, "take a vacation")
        assert actor.user_id is not None
        given = body.get("days")
        days = whole_in(given, 1, limits.MAX_VACATION_DAYS)
        if days is None:
            raise AppError(f"days must be a whole number of days from 1 to "
                           f"{limits.MAX_VACATION_DAYS}, not {str(given)[:40]}")
        now = self.manager.now()
        try:
            vacation = self.store.add_vacation(actor.user_id, now, days,
                                               limits.MAX_VACATION_DAYS)
        except VacationError as error:
            raise ConflictError(str(error)) from None
        paused = self._each_game(actor.user_id, lambda clock, side: clock.pause(
            side, vacation.start, vacation.end))
        log.info("%s is on vacation for %d days (%d games paused)", actor.name, days,
                 paused)
        return {**self.status(actor.user_id), "games": paused}

    def end(self, actor: Actor) -> JSON:
        """``DELETE /api/account/vacation``: the vacation ends now; its status.

        Raises:
            ConflictError: when the account is on no vacation.
        """
        policy.require_account(actor, "end a vacation")
        assert actor.user_id is not None
        now = self.manager.now()
        if self.store.end_vacation(actor.user_id, now) is None:
            raise ConflictError("you are not on vacation")
        games = self._each_game(actor.user_id, lambda clock, side: clock.end_pauses(
            side, now))
        return {**self.status(actor.user_id), "games": games}

    def pause_new(self, clock: GameClock, seats: list[int | None]) -> None:
        """Pause the clock of a new correspondence game for the vacations of the
        accounts in its seats (the lobby calls it)."""
        if clock.control.kind != "correspondence":
            return
        now = self.manager.now()
        for side, seat in enumerate(seats):
            if seat is not None:
                vacation = self.store.vacation_at(seat, now)
                if vacation is not None:
                    clock.pause(side, vacation.start, vacation.end)

    def _each_game(self, user_id: int,
                   change: Callable[[GameClock, int], None]) -> int:
        """Apply ``change(clock, side)`` to the clock of each running correspondence
        game of the account, for each of its sides, commit it and send the new state;
        how many games changed."""
        changed = 0
        for game_id in self.store.game_ids_of(user_id, running=True,
                                              limit=limits.MAX_RUNNING_GAMES_PER_USER * 2):
            session = self.manager.session(game_id)
            with session.lock:
                clock = session.clock
                seats = session.stored.seats
                if clock is None or clock.control.kind != "correspondence" or \
                        session.over() or seats is None:
                    continue
                before = clock.to_json()
                for side, seat in enumerate(seats):
                    if seat == user_id:
                        change(clock, side)

                def restore(session: GameSession = session,
                            before: dict[str, Any] = before) -> None:
                    session.clock = GameClock.from_json(before)
                    session.stored.clock = before

                session.stored.clock = clock.to_json()
                session.save_or_restore("vacation", restore)
                self.manager.changed(session)  # its flag falls later
                session.broadcast_state()
                changed += 1
        return changed
