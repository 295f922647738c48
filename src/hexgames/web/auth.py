"""Logging in, in the server mode: who sends a request (:meth:`Auth.actor`), the routes
that sign up, log in, log out and change a password, and the CSRF check of a request
that changes something (docs/web-protocol.md, "Server mode").

A state-changing request (``POST``, ``DELETE``) of the server mode must carry an
``Origin`` that is this server's page (browsers always send one with such a request),
or, from a program that sends none, the header ``X-Hexgames-CSRF`` with the session's
CSRF token (``GET /api/me`` gives it). A WebSocket must carry this server's ``Origin``
and a valid session cookie, and every message on it is checked against that login
again (:meth:`Auth.socket_actor`): a socket whose login has ended (logged out, the
password changed, the account removed) is closed (:class:`LiveSockets`).

Logins, sign-ups and password changes take their place in the rate limits
(:class:`~hexgames.web.limiter.ServerLimits`) before they hash anything, and hash
through the server's :class:`~hexgames.web.limiter.HashGate`.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from hexgames import limits
from hexgames.web import accounts
from hexgames.web.accounts import COOKIE, AccountError, CookieSigner
from hexgames.web.limiter import (
    HashGate,
    ServerLimits,
    TooManyError,
    address_key,
    take_all,
    wait_text,
)
from hexgames.web.policy import LOCAL, NOBODY, Actor, ForbiddenError, LoginRequiredError
from hexgames.web.searches import Subscriber
from hexgames.web.store import GameStore
from hexgames.web.views import AppError

log = logging.getLogger("hexgames.web.auth")

#: What a sign-up may be: ``open`` (anyone), ``invite`` (only with an invitation link),
#: ``closed`` (the operator makes the accounts with ``hexgames user add``).
SIGNUP_MODES = ("open", "invite", "closed")
#: The answer to an unknown account and to a wrong password alike.
WRONG_LOGIN = "wrong name or password"
#: WebSocket close code for a socket without a valid login (or whose login ended).
CLOSE_LOGIN = 4401
#: What a socket whose login has ended is told before it is closed.
LOGIN_ENDED = ("your login has ended (logged out, the password changed or the account "
               "removed): log in again")


class LiveSockets:
    """The game sockets open, by login: at most
    :data:`hexgames.limits.MAX_SOCKETS_PER_USER` an account and
    :data:`hexgames.limits.MAX_ANONYMOUS_SOCKETS` of guests (``--watch anonymous``)
    together, and an account's closed together when its login ends. Thread-safe."""

    def __init__(self) -> None:
        self._sockets: set[Subscriber] = set()
        self._per_user: Counter[int] = Counter()
        self._guests = 0
        self._lock = threading.Lock()

    def add(self, subscriber: Subscriber) -> str | None:
        """Count a new socket: ``None``, or why it is refused (not counted then): its
        account, or the guests together, hold their most already."""
        user = subscriber.actor.user_id
        with self._lock:
            if subscriber.actor.guest:
                if self._guests >= limits.MAX_ANONYMOUS_SOCKETS:
                    return ("too many people watch without an account: log in "
                            "(hexgames.limits.MAX_ANONYMOUS_SOCKETS)")
                self._guests += 1
            elif user is not None:
                if self._per_user[user] >= limits.MAX_SOCKETS_PER_USER:
                    return (f"you have {limits.MAX_SOCKETS_PER_USER} game pages open: "
                            "close some first (hexgames.limits.MAX_SOCKETS_PER_USER)")
                self._per_user[user] += 1
            self._sockets.add(subscriber)
            return None

    def remove(self, subscriber: Subscriber) -> None:
        """Forget a socket that has closed."""
        with self._lock:
            if subscriber not in self._sockets:
                return
            self._sockets.discard(subscriber)
            user = subscriber.actor.user_id
            if subscriber.actor.guest:
                self._guests -= 1
            elif user is not None:
                self._per_user[user] -= 1
                if self._per_user[user] <= 0:
                    del self._per_user[user]

    def tokens(self) -> set[str]:
        """The login tokens of the open sockets."""
        with self._lock:
            return {s.token for s in self._sockets if s.token is not None}

    def end(self, ended: Callable[[Subscriber], bool], why: str = LOGIN_ENDED) -> int:
        """Close every socket for which ``ended(socket)`` holds (its login has ended):
        it is told ``why`` and closed with :data:`CLOSE_LOGIN`; how many."""
        with self._lock:
            closing = [s for s in self._sockets if ended(s)]
        for subscriber in closing:
            subscriber.close(CLOSE_LOGIN, why)
        return len(closing)

    def count(self, user_id: int | None = None) -> int:
        """Open sockets (of one account)."""
        with self._lock:
            return len(self._sockets) if user_id is None else self._per_user[user_id]


@dataclass
class Auth:
    """The accounts of a server (``server`` false: the local mode, where everyone is
    :data:`~hexgames.web.policy.LOCAL` and these routes answer 404).

    Attributes:
        store: the database.
        signer: signs the session cookie.
        limits: the rate limits of logins, sign-ups and imports.
        server: whether the app runs in server mode.
        signup: one of :data:`SIGNUP_MODES`.
        secure: mark the cookie ``Secure`` (behind TLS); ``None``: when the request
            came by ``https`` (as the trusted proxy says).
        gate: the password hashes' gate (bounded memory).
        sockets: the game sockets open per login.
    """

    store: GameStore
    signer: CookieSigner
    limits: ServerLimits
    server: bool = False
    signup: str = "open"
    secure: bool | None = None
    gate: HashGate = field(default_factory=lambda: HashGate(
        accounts.hash_parameters()["memory_kib"]))
    sockets: LiveSockets = field(default_factory=LiveSockets)

    # --- who asks ------------------------------------------------------------------------

    def token(self, connection: HTTPConnection) -> str | None:
        """The session token of the request's cookie (signature checked), or ``None``."""
        return self.signer.token(connection.cookies.get(COOKIE))

    def actor(self, connection: HTTPConnection) -> Actor:
        """Who sends the request: the local person (local mode), the logged-in account,
        or nobody."""
        if not self.server:
            return LOCAL
        token = self.token(connection)
        if token is None:
            return NOBODY
        user = self.store.session_user(token)
        if user is None:
            return NOBODY
        return Actor(user.id, user.name, user.admin,
                     help_barred=self.store.games_without_help(user.id))

    def socket_actor(self, subscriber: Subscriber) -> Actor | None:
        """Who sends a message on a socket of the server mode: the account of its login
        as it is now, or ``None`` when that login has ended (the socket is to be
        closed). The local mode's socket is always the local person's."""
        if not self.server:
            return subscriber.actor
        if subscriber.token is None:
            return None
        user = self.store.session_user(subscriber.token)
        if user is None or user.id != subscriber.actor.user_id:
            return None
        return Actor(user.id, user.name, user.admin,
                     help_barred=self.store.games_without_help(user.id))

    def check_sockets(self) -> int:
        """Close the sockets whose login has ended since they opened, also by another
        process (``hexgames user remove``); how many were closed."""
        tokens = self.sockets.tokens()
        if not tokens:
            return 0
        alive = self.store.live_sessions(tokens)
        # only the logins looked up: a socket opened while they were read is not judged
        # (it was closed as "your login has ended": 6 of 60 accounts in a minute of
        # games starting at once, on a loaded machine)
        return self.sockets.end(lambda s: s.token in tokens and s.token not in alive)

    def check_csrf(self, request: Request) -> None:
        """Refuse a state-changing request of the server mode that carries neither an
        ``Origin`` (checked to be this server's before) nor the session's CSRF token.

        Raises:
            ForbiddenError: when it has neither.
        """
        if not self.server or request.method in ("GET", "HEAD"):
            return
        if request.headers.get("origin") is not None:
            return  # same-origin: checked by the app before the route
        token = self.token(request)
        sent = request.headers.get("x-hexgames-csrf")
        if token is not None and sent is not None and sent == self.signer.csrf(token):
            return
        log.warning("refused: %s %s without Origin or CSRF token", request.method,
                    request.url.path)
        raise ForbiddenError("a request that changes something needs this server's "
                             "Origin or the X-Hexgames-CSRF header (see GET /api/me)")

    def address(self, connection: HTTPConnection) -> str:
        """The client's address as the limits count it (:func:`address_key`: as uvicorn
        gives it, the proxy's ``X-Forwarded-For`` only when the operator trusts the
        proxy; an IPv6 address by its /64 network)."""
        client = connection.client
        return address_key(client.host) if client is not None else "unknown"

    # --- the routes --------------------------------------------------------------------

    def _cookie(self, request: Request, response: Response, token: str | None) -> None:
        secure = self.secure if self.secure is not None else request.url.scheme == "https"
        if token is None:
            response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                                   secure=secure)
            return
        response.set_cookie(COOKIE, self.signer.sign(token), max_age=int(
            accounts.SESSION_SECONDS), path="/", httponly=True, samesite="lax",
            secure=secure)

    def me(self, request: Request) -> dict[str, Any]:
        """``GET /api/me``: the mode, the account logged in, its CSRF token, how one
        signs up."""
        actor = self.actor(request)
        token = self.token(request) if actor.user_id is not None else None
        user = None if actor.user_id is None else {"name": actor.name,
                                                   "admin": actor.admin}
        return {"mode": "server" if self.server else "local", "user": user,
                "csrf": None if token is None else self.signer.csrf(token),
                "signup": self.signup if self.server else None}

    async def login(self, request: Request, body: dict[str, Any]) -> Response:
        """``POST /api/auth/login {"name", "password"}``: a session cookie, or 401
        (the same for an unknown account and a wrong password), 429 past the login
        limits, 503 when too many passwords are being checked at once."""
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise AppError("a login needs \"name\" and \"password\" (text)")
        name = name.strip()[:100]
        address = self.address(request)
        # The attempt counts as a failure from now on: parallel attempts cannot all pass.
        places = self.limits.login(name, address)
        if isinstance(places, float):
            log.warning("refused: login of %.40r from %s: too many failures", name, address)
            raise TooManyError(f"too many failed logins: {wait_text(places)}", places)
        try:
            user = await anyio.to_thread.run_sync(self.store.user, name)
            good = await self.gate.run(
                accounts.verify_password, None if user is None else user.password, password)
        except BaseException:
            for place in places:  # not tried: it does not count
                place.give_back()
            raise
        if user is None or not good:
            log.warning("failed login of %.40r from %s", name, address)
            raise LoginRequiredError(WRONG_LOGIN)
        self.limits.logged_in(name, address, places)
        if accounts.needs_rehash(user.password):
            fresh = await self.gate.run(accounts.hash_password, password)
            await anyio.to_thread.run_sync(self.store.set_password_hash, user.id, fresh)
        return await self._logged_in(request, user.id, user.name, user.admin, 200)

    async def _logged_in(self, request: Request, user_id: int, name: str, admin: bool,
                         status: int, token: str | None = None) -> Response:
        """The answer of a login: a new session (``token`` ``None``) or the one kept."""
        if token is None:
            token = await anyio.to_thread.run_sync(
                self.store.add_session, user_id, accounts.SESSION_SECONDS)
        response = JSONResponse({"user": {"name": name, "admin": admin},
                                 "csrf": self.signer.csrf(token)}, status_code=status)
        self._cookie(request, response, token)
        return response

    async def signup_route(self, request: Request, body: dict[str, Any]) -> Response:
        """``POST /api/auth/signup {"name", "password", "invite"?}``: a new account,
        logged in (201); ``invite`` is an invitation's token, needed when sign-up is by
        invitation only, and the invitation is then the new account's (no one else
        signs up with it). 429 past :data:`hexgames.limits.MAX_SIGNUPS_PER_ADDRESS`,
        503 when too many passwords are being hashed at once."""
        invite = body.get("invite")
        token = None
        if self.signup != "open":
            challenge = None
            if isinstance(invite, str) and self.signup == "invite":
                challenge = await anyio.to_thread.run_sync(
                    lambda: self.store.challenge(invite=invite[:100]))
            if challenge is None or challenge.opponent is not None:
                why = ("sign-up is by invitation only: open the link a member sent you "
                       "(this one was used, withdrawn or has expired)"
                       if self.signup == "invite" else
                       "sign-up is closed: the operator makes the accounts")
                raise ForbiddenError(why)
            token = challenge.invite
        try:
            name = accounts.check_name(body.get("name"))
            password = accounts.check_password(body.get("password"))
        except AccountError as error:
            raise AppError(str(error)) from None
        if await anyio.to_thread.run_sync(self.store.user, name) is not None:
            raise AppError(f"the name {name} is taken")
        address = self.address(request)
        place = self.limits.signups.take(address)
        if isinstance(place, float):
            log.warning("refused: sign-up of %.40r from %s: too many", name, address)
            raise TooManyError(f"too many sign-ups from your address: {wait_text(place)}",
                               place)
        try:
            hashed = await self.gate.run(accounts.hash_password, password)
        except BaseException:
            place.give_back()
            raise
        user = await anyio.to_thread.run_sync(
            lambda: self.store.add_user(name, hashed, invite=token))
        if user is None:
            if token is not None and await anyio.to_thread.run_sync(
                    self.store.user, name) is None:
                raise ForbiddenError("this invitation was used, withdrawn or has expired "
                                     "meanwhile")
            raise AppError(f"the name {name} is taken")
        log.info("account %s signed up from %s", name, address)
        return await self._logged_in(request, user.id, user.name, user.admin, 201)

    async def logout(self, request: Request) -> Response:
        """``POST /api/auth/logout``: the session ends (its cookie stops working, its
        sockets close)."""
        token = self.token(request)
        if token is not None:
            await anyio.to_thread.run_sync(self.store.end_session, token)
            self.sockets.end(lambda s: s.token == token, "you logged out")
        response = JSONResponse({"user": None})
        self._cookie(request, response, None)
        return response

    async def password(self, request: Request, body: dict[str, Any]) -> Response:
        """``POST /api/auth/password {"old", "new"}``: every other session of the
        account ends, and their sockets close; this one goes on. A wrong old password
        counts as a failed login of the account."""
        actor = await anyio.to_thread.run_sync(self.actor, request)
        token = self.token(request)
        if actor.user_id is None or token is None:
            raise LoginRequiredError("log in first")
        user = await anyio.to_thread.run_sync(
            lambda: self.store.user(user_id=actor.user_id))
        old = body.get("old")
        if user is None or not isinstance(old, str):
            raise ForbiddenError("the old password is wrong")
        try:
            new = accounts.check_password(body.get("new"))
        except AccountError as error:
            raise AppError(str(error)) from None
        address = self.address(request)
        places = take_all([(self.limits.password_changes, str(user.id)),
                           *[(limit, key) for limit, key in (
                               (self.limits.login_tries, f"{user.name.lower()}|{address}"),
                               (self.limits.login_names, user.name.lower()),
                               (self.limits.login_addresses, address))]])
        if isinstance(places, float):
            raise TooManyError(f"too many password changes or wrong passwords: "
                               f"{wait_text(places)}", places)
        try:
            good = await self.gate.run(accounts.verify_password, user.password, old)
        except BaseException:
            for place in places:
                place.give_back()
            raise
        if not good:
            log.warning("wrong old password of %s from %s", user.name, address)
            places[0].give_back()  # a failure, not a change
            raise ForbiddenError("the old password is wrong")
        for place in places[1:]:  # no failure; it stays a change
            place.give_back()
        hashed = await self.gate.run(accounts.hash_password, new)
        await anyio.to_thread.run_sync(
            lambda: self.store.set_password(user.id, hashed, keep=token))
        ended = self.sockets.end(lambda s: s.actor.user_id == user.id and s.token != token,
                                 "your password was changed: log in again")
        log.info("%s changed the password (%d sockets of other logins closed)", user.name,
                 ended)
        return await self._logged_in(request, user.id, user.name, user.admin, 200, token)
