"""Turn notifications by e-mail (issue 35): each player's settings, the digests and the
clock warnings, sent by a background task of the server.

- **Settings** (``GET``/``POST /api/account/notifications``): an address (checked by
  :func:`hexgames.web.mail.check_address`; a new one gets a confirmation mail, and no
  other mail goes to it before its link is opened), the digest's interval (one of
  :data:`hexgames.limits.MAIL_DIGEST_HOURS`, or none) and the warning's threshold
  (1 to :data:`hexgames.limits.MAX_WARN_HOURS` hours, or none).
- **A digest** lists every game waiting for the player's move (live games are left
  out: they are played at the board) with the time left on its clock, those near
  their end marked. It is sent when a game waits that the last digest did not list (a
  game, or a new move in it), and at most once per interval.
- **A warning** is sent when the player's correspondence clock has less than the
  threshold left (not while it is paused by a vacation), once per game and move.
- Every mail has the games' links (the server's public address) and a link that stops
  them (a signed token: ``/api/mail/stop``; mail programs get RFC 8058's one-click
  header too).

:meth:`Notifier.round` does one round (blocking: in a thread); :meth:`Notifier.run`
repeats it every :data:`hexgames.limits.MAIL_ROUND_SECONDS` (injectable) on the event
loop, each round in a thread. A failing SMTP server is logged and tried again after
:data:`hexgames.limits.MAIL_BACKOFF` seconds, doubling up to
:data:`hexgames.limits.MAIL_MAX_BACKOFF`; nothing it could not send is marked sent.
"""

from __future__ import annotations

import asyncio
import html
import logging
import threading
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

import anyio.to_thread

from hexgames import limits
from hexgames.web import policy
from hexgames.web.clock import GameClock, TimeSource
from hexgames.web.limiter import TooManyError, WindowLimit, wait_text
from hexgames.web.lobby import Lobby
from hexgames.web.mail import AddressError, Mailer, MailError, MailTokens, check_address
from hexgames.web.mail_tables import MailSettings
from hexgames.web.policy import Actor
from hexgames.web.store import GameStore
from hexgames.web.vacation import Vacations, whole_in
from hexgames.web.views import JSON, AppError, ConflictError

log = logging.getLogger("hexgames.web.notices")

_HOUR = 3600.0
#: A clock is "near its end" in a digest under this many hours when no warning is set.
NEAR_HOURS = 24


@dataclass
class Waiting:
    """A game waiting for a player's move: its id, ply, what the mail says of it, the
    seconds its clock has left (``None``: untimed), whether that clock is paused."""

    game_id: str
    ply: int
    text: str
    left: float | None
    correspondence: bool
    paused: bool


class Notifier:
    """The mail settings routes and the rounds of digests and warnings.

    Args:
        store: the database.
        lobby: for the games waiting for a player.
        vacations: for the vacation in the settings.
        mailer: the SMTP server, or ``None`` when the operator gave none (settings of
            mail are then refused; vacations work).
        tokens: signs the links of a mail.
        base_url: the server's public address, without a final ``/``.
        now: the time source (seconds since the epoch).
    """

    def __init__(self, store: GameStore, lobby: Lobby, vacations: Vacations,
                 mailer: Mailer | None, tokens: MailTokens, base_url: str,
                 now: TimeSource) -> None:
        self.store = store
        self.lobby = lobby
        self.vacations = vacations
        self.mailer = mailer
        self.tokens = tokens
        self.base_url = base_url.rstrip("/")
        self.now = now
        #: when the SMTP server may be tried again after failures, and their count
        self.retry_at = 0.0
        self.failures = 0
        self._lock = threading.Lock()  # one round at a time
        self.confirmations = WindowLimit(limits.MAX_CONFIRMATION_MAILS,
                                         limits.MAIL_CONFIRM_WINDOW, clock=now)

    # --- settings ----------------------------------------------------------------------

    def settings(self, actor: Actor) -> JSON:
        """``GET /api/account/notifications``."""
        policy.require_account(actor, "see your notifications")
        assert actor.user_id is not None
        found = self.store.mail_settings(actor.user_id)
        return {"mail": self.mailer is not None,
                "email": None if found is None else found.email,
                "confirmed": found is not None and found.confirmed,
                "digest_hours": None if found is None or found.digest is None
                else round(found.digest / _HOUR),
                "warn_hours": None if found is None or found.warn is None
                else round(found.warn / _HOUR),
                "digest_choices": list(limits.MAIL_DIGEST_HOURS),
                "max_warn_hours": limits.MAX_WARN_HOURS,
                "vacation": self.vacations.status(actor.user_id)}

    def change(self, actor: Actor, body: dict[str, Any]) -> tuple[JSON, EmailMessage | None]:
        """``POST /api/account/notifications {"email", "digest_hours", "warn_hours"}``:
        the new settings and the confirmation mail to send (when the address is not
        confirmed yet), or ``None``. ``email`` ``null`` forgets the address and stops
        every mail.

        Raises:
            AppError: naming the field that is wrong.
            ConflictError: when the server sends no mail.
            TooManyError: when the account has had its most confirmation mails
                (:data:`hexgames.limits.MAX_CONFIRMATION_MAILS` an hour); nothing
                changes.
        """
        policy.require_account(actor, "change your notifications")
        assert actor.user_id is not None
        if self.mailer is None:
            raise ConflictError("this server sends no mail: its operator gave no SMTP "
                                "server (hexgames serve --smtp)")
        unknown = set(body) - {"email", "digest_hours", "warn_hours"}
        if unknown:
            raise AppError(f"unknown field {sorted(unknown)[0][:40]!r}: the settings are "
                           "email, digest_hours and warn_hours")
        digest = body.get("digest_hours")
        if digest is not None and (isinstance(digest, bool) or
                                   digest not in limits.MAIL_DIGEST_HOURS):
            choices = ", ".join(str(hours) for hours in limits.MAIL_DIGEST_HOURS)
            raise AppError(f"digest_hours must be one of {choices} or null (no digest), "
                           f"not {str(digest)[:40]}")
        warn = body.get("warn_hours")
        hours = None if warn is None else whole_in(warn, 1, limits.MAX_WARN_HOURS)
        if warn is not None and hours is None:
            raise AppError(f"warn_hours must be a whole number of hours from 1 to "
                           f"{limits.MAX_WARN_HOURS} or null (no warning), not "
                           f"{str(warn)[:40]}")
        before = self.store.mail_settings(actor.user_id)
        if "email" not in body:  # the other settings alone: the address stays
            if before is None:
                raise AppError("email is missing: the settings need an address")
            body = {**body, "email": before.email}
        if body["email"] is None:
            self.store.forget_mail(actor.user_id)
            return self.settings(actor), None
        try:
            email = check_address(body["email"])
        except AddressError as error:
            raise AppError(str(error)) from None
        if before is None or not before.confirmed or before.email.lower() != email.lower():
            ticket = self.confirmations.take(str(actor.user_id))  # a mail will go
            if isinstance(ticket, float):
                raise TooManyError(f"at most {limits.MAX_CONFIRMATION_MAILS} confirmation "
                                   f"mails an hour (hexgames.limits."
                                   f"MAX_CONFIRMATION_MAILS): {wait_text(ticket)}", ticket)
        self.store.set_mail_settings(actor.user_id, email,
                                     None if digest is None else digest * _HOUR,
                                     None if hours is None else hours * _HOUR)
        shown = self.settings(actor)
        confirmation = None
        if not shown["confirmed"]:
            confirmation = self._confirmation(actor.user_id, actor.name or "", email)
        return shown, confirmation

    def _confirmation(self, user_id: int, name: str, email: str) -> EmailMessage:
        assert self.mailer is not None
        link = f"{self.base_url}/api/mail/confirm?token={self.tokens.confirm(user_id, email)}"
        return self.mailer.message(email, "hexgames: confirm your address", (
            f"Hello {name},\n\nthis address was given for the turn notifications of the "
            f"account {name} at {self.base_url}/.\nOpen this link to confirm it:\n\n"
            f"{link}\n\nIf it was not you, do nothing: no other mail will come.\n"))

    def send_soon(self, message: EmailMessage) -> None:
        """Send one mail in a thread of its own (a failure is logged)."""
        mailer = self.mailer
        if mailer is None:
            return

        def send() -> None:
            try:
                mailer.send([message])
            except MailError as error:
                log.warning("a confirmation mail was not sent: %s", error)

        threading.Thread(target=send, name="hexgames-mail", daemon=True).start()

    def confirm(self, token: str) -> str:
        """``GET /api/mail/confirm?token=``: a page saying whether the address is
        confirmed."""
        read = self.tokens.read_confirm(token)
        if read is None or not self.store.confirm_mail(*read):
            raise AppError("this confirmation link is not valid (the address was changed "
                           "since, or the link was cut short)")
        return _page("Address confirmed", f"Turn notifications go to {read[1]} now.")

    def stop(self, token: str) -> str:
        """``POST /api/mail/stop?token=`` (or ``token`` in the form): no more mail to
        the token's address; a page that says so."""
        read = self.tokens.read_stop(token)
        if read is None:
            raise AppError("this link is not valid (it was cut short)")
        if not self.store.stop_mail(*read):
            return _page("No mail", "No more mail goes to this address.")
        log.info("mail stopped by its link for account %d", read[0])
        return _page("Mail stopped", f"No more turn notifications go to {read[1]}. "
                     "Your account page can turn them on again.")

    def stop_form(self, token: str) -> str:
        """``GET /api/mail/stop?token=``: a page with the button that stops them (a mail
        program that opens links must not stop them by itself)."""
        if self.tokens.read_stop(token) is None:
            raise AppError("this link is not valid (it was cut short)")
        return _page("Stop the mails", (
            '<form method="post"><input type="hidden" name="token" value="'
            f'{html.escape(token)}"><button type="submit">Stop the turn notifications'
            "</button></form>"), raw=True)

    # --- the rounds ----------------------------------------------------------------------

    async def run(self, interval: float) -> None:
        """Do a round every ``interval`` seconds, each in a thread, until cancelled (a
        round that waits for the SMTP server is left to end in its thread: the server's
        stop does not wait for it)."""
        while True:
            try:
                await anyio.to_thread.run_sync(self.round, abandon_on_cancel=True)
            except Exception:
                log.exception("a round of turn notifications failed")
            await asyncio.sleep(interval)

    def round(self) -> int:
        """Send the digests and warnings due now (blocking); how many mails were
        settled (sent, or refused for a bad address; 0 while the SMTP server is failing
        and not to be tried yet)."""
        if self.mailer is None:
            return 0
        with self._lock:
            now = self.now()
            if now < self.retry_at:
                return 0
            outgoing: list[tuple[EmailMessage, Any]] = []
            for settings in self.store.mail_subscribers():
                outgoing.extend(self._mails_of(settings, now))
            if not outgoing:
                return 0
            settled: list[int] = []

            def done(index: int) -> None:
                outgoing[index][1]()  # noted at once: a later failure sends it not again
                settled.append(index)

            try:
                self.mailer.send([message for message, _ in outgoing], done)
            except MailError as error:
                self.failures += 1
                wait = min(limits.MAIL_MAX_BACKOFF,
                           limits.MAIL_BACKOFF * 2 ** (self.failures - 1))
                self.retry_at = now + wait
                log.warning("%d of %d mails not sent, tried again in %d s: %s",
                            len(outgoing) - len(settled), len(outgoing), wait, error)
                return len(settled)
            self.failures = 0
            return len(settled)

    def _mails_of(self, settings: MailSettings, now: float) -> list[tuple[EmailMessage, Any]]:
        """The mails due to one account, each with what to note once it is sent."""
        assert self.mailer is not None
        waiting = self.waiting(settings.user_id, settings.name, now, settings.warn)
        stop = f"{self.base_url}/api/mail/stop?token=" \
            f"{self.tokens.stop(settings.user_id, settings.email)}"
        footer = (f"\n--\nhexgames at {self.base_url}/\nStop these mails: {stop}\n"
                  "(or change them in your account page)\n")
        mails: list[tuple[EmailMessage, Any]] = []
        if settings.warn is not None:
            warned = [game for game in waiting if game.correspondence and not game.paused
                      and game.left is not None and 0 < game.left < settings.warn
                      and self.store.warned_ply(settings.user_id, game.game_id) != game.ply]
            if warned:
                text = (f"Hello {settings.name},\n\nyour clock runs out soon in "
                        f"{_count(len(warned), 'game')}:\n\n" +
                        "".join(game.text for game in warned) + footer)
                message = self.mailer.message(
                    settings.email, f"hexgames: your clock runs out soon "
                    f"({_count(len(warned), 'game')})", text, stop_url=stop)

                def noted(user_id: int = settings.user_id,
                          games: list[Waiting] = warned) -> None:
                    for game in games:
                        self.store.set_warned(user_id, game.game_id, game.ply)

                mails.append((message, noted))
        if settings.digest is not None and waiting:
            listed = {f"{game.game_id}:{game.ply}" for game in waiting}
            due = settings.last_digest is None or \
                now - settings.last_digest >= settings.digest
            if due and not listed <= settings.digest_games:
                text = (f"Hello {settings.name},\n\n"
                        f"{_waits(len(waiting))} for your move:\n\n" +
                        "".join(game.text for game in waiting) + footer)
                message = self.mailer.message(
                    settings.email,
                    f"hexgames: {_waits(len(waiting))} for your move", text,
                    stop_url=stop)

                def digested(user_id: int = settings.user_id,
                             games: set[str] = listed) -> None:
                    self.store.digest_sent(user_id, now, games)

                mails.append((message, digested))
        return mails

    def waiting(self, user_id: int, name: str, now: float,
                warn: float | None) -> list[Waiting]:
        """The games waiting for the account's move but live games, each with its text
        in a mail (a clock under ``warn``, or a day, is marked near its end)."""
        found = []
        near = warn if warn is not None else NEAR_HOURS * _HOUR
        for shown in self.lobby.my_turn(Actor(user_id, name))["games"]:
            game_id = str(shown["id"])
            stored = self.store.get(game_id, whole=False)
            if stored is None or stored.extra.get("imported"):
                continue
            clock = GameClock.from_json(stored.clock) if stored.clock else None
            if clock is not None and clock.control.kind == "live":
                continue
            turn = int(shown["turn"])
            left = None if clock is None else clock.left(turn, now)
            paused = clock is not None and clock.paused_until(turn, now) is not None
            opponent = (shown.get("player_names") or ["", ""])[1 - turn]
            line = f"- {shown['game'].capitalize()} against {opponent}, move " \
                f"{len(stored.moves) + 1}"
            if left is not None:
                line += f", {_duration(left)} left"
                if paused:
                    line += " (paused: you are on vacation)"
                elif left < near:
                    line += " - NEAR ITS END"
            line += f"\n  {self.base_url}/#/game/{game_id}\n"
            found.append(Waiting(game_id, len(stored.moves), line, left,
                                 clock is not None and clock.control.kind ==
                                 "correspondence", paused))
        return found


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"


def _waits(number: int) -> str:
    return "1 game waits" if number == 1 else f"{number} games wait"


def _duration(seconds: float) -> str:
    """``2 days 3 hours``, ``5 hours 10 minutes``, ``12 minutes``."""
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 1440)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{_count(days, 'day')} {_count(hours, 'hour')}"
    if hours:
        return f"{_count(hours, 'hour')} {_count(minutes, 'minute')}"
    return _count(minutes, "minute")


def _page(title: str, body: str, *, raw: bool = False) -> str:
    """A small HTML page (``body`` escaped unless ``raw``)."""
    shown = body if raw else html.escape(body)
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(title)} - hexgames</title></head><body>"
            f"<h1>{html.escape(title)}</h1><p>{shown}</p>"
            f"<p><a href=\"/\">hexgames</a></p></body></html>")
