"""Logging in, in the server mode: who sends a request (:meth:`Auth.actor`), the routes
that sign up, log in, log out and change a password, and the CSRF check of a request
that changes something (docs/web-protocol.md, "Server mode").

A state-changing request (``POST``, ``DELETE``) of the server mode must carry an
``Origin`` that is this server's page (browsers always send one with such a request),
or, from a program that sends none, the header ``X-Hexgames-CSRF`` with the session's
CSRF token (``GET /api/me`` gives it). A WebSocket must carry this server's ``Origin``
and a valid session cookie.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import anyio.to_thread
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from hexgames.web import accounts
from hexgames.web.accounts import COOKIE, AccountError, CookieSigner, LoginLimiter
from hexgames.web.policy import LOCAL, NOBODY, Actor, ForbiddenError, LoginRequiredError
from hexgames.web.store import GameStore
from hexgames.web.views import AppError

log = logging.getLogger("hexgames.web.auth")

#: What a sign-up may be: ``open`` (anyone), ``invite`` (only with an invitation link),
#: ``closed`` (the operator makes the accounts with ``hexgames user add``).
SIGNUP_MODES = ("open", "invite", "closed")
#: The answer to an unknown account and to a wrong password alike.
WRONG_LOGIN = "wrong name or password"


class TooManyError(AppError):
    """Too many failed logins (HTTP 429)."""

    status = 429


@dataclass
class Auth:
    """The accounts of a server (``server`` false: the local mode, where everyone is
    :data:`~hexgames.web.policy.LOCAL` and these routes answer 404).

    Attributes:
        store: the database.
        signer: signs the session cookie.
        limiter: the login rate limit.
        server: whether the app runs in server mode.
        signup: one of :data:`SIGNUP_MODES`.
        secure: mark the cookie ``Secure`` (behind TLS); ``None``: when the request
            came by ``https`` (as the trusted proxy says).
    """

    store: GameStore
    signer: CookieSigner
    limiter: LoginLimiter
    server: bool = False
    signup: str = "open"
    secure: bool | None = None

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
        return Actor(user.id, user.name, user.admin)

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
        """The client's address (as uvicorn gives it: the proxy's ``X-Forwarded-For``
        only when the operator trusts the proxy)."""
        client = connection.client
        return client.host if client is not None else "unknown"

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
        (the same for an unknown account and a wrong password), or 429."""
        name, password = body.get("name"), body.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            raise AppError("a login needs \"name\" and \"password\" (text)")
        name = name.strip()[:100]
        address = self.address(request)
        wait = self.limiter.wait(name, address)
        if wait > 0:
            log.warning("refused: login of %.40r from %s: too many failures", name, address)
            raise TooManyError(f"too many failed logins: try again in {int(wait) + 1} s")
        user = await anyio.to_thread.run_sync(self.store.user, name)
        good = await anyio.to_thread.run_sync(
            accounts.verify_password, None if user is None else user.password, password)
        if user is None or not good:
            self.limiter.failed(name, address)
            log.warning("failed login of %.40r from %s", name, address)
            raise LoginRequiredError(WRONG_LOGIN)
        self.limiter.succeeded(name)
        if accounts.needs_rehash(user.password):
            fresh = await anyio.to_thread.run_sync(accounts.hash_password, password)
            self.store.set_password(user.id, fresh)
        return self._logged_in(request, user.id, user.name, user.admin, 200)

    def _logged_in(self, request: Request, user_id: int, name: str, admin: bool,
                   status: int) -> Response:
        token = self.store.add_session(user_id, accounts.SESSION_SECONDS)
        response = JSONResponse({"user": {"name": name, "admin": admin},
                                 "csrf": self.signer.csrf(token)}, status_code=status)
        self._cookie(request, response, token)
        return response

    async def signup_route(self, request: Request, body: dict[str, Any]) -> Response:
        """``POST /api/auth/signup {"name", "password", "invite"?}``: a new account,
        logged in (201); ``invite`` is an invitation's token, needed when sign-up is by
        invitation only."""
        invite = body.get("invite")
        if self.signup != "open":
            challenge = None
            if isinstance(invite, str) and self.signup == "invite":
                challenge = self.store.challenge(invite=invite[:100])
            if challenge is None:
                why = ("sign-up is by invitation only: open the link a member sent you"
                       if self.signup == "invite" else
                       "sign-up is closed: the operator makes the accounts")
                raise ForbiddenError(why)
        try:
            name = accounts.check_name(body.get("name"))
            password = accounts.check_password(body.get("password"))
        except AccountError as error:
            raise AppError(str(error)) from None
        hashed = await anyio.to_thread.run_sync(accounts.hash_password, password)
        user = self.store.add_user(name, hashed)
        if user is None:
            raise AppError(f"the name {name} is taken")
        log.info("account %s signed up from %s", name, self.address(request))
        return self._logged_in(request, user.id, user.name, user.admin, 201)

    def logout(self, request: Request) -> Response:
        """``POST /api/auth/logout``: the session ends (its cookie stops working)."""
        token = self.token(request)
        if token is not None:
            self.store.end_session(token)
        response = JSONResponse({"user": None})
        self._cookie(request, response, None)
        return response

    async def password(self, request: Request, body: dict[str, Any]) -> Response:
        """``POST /api/auth/password {"old", "new"}``: every session of the account
        ends; this one gets a new cookie."""
        actor = self.actor(request)
        if actor.user_id is None:
            raise LoginRequiredError("log in first")
        user = self.store.user(user_id=actor.user_id)
        old = body.get("old")
        if user is None or not isinstance(old, str) or not await anyio.to_thread.run_sync(
                accounts.verify_password, user.password, old):
            raise ForbiddenError("the old password is wrong")
        try:
            new = accounts.check_password(body.get("new"))
        except AccountError as error:
            raise AppError(str(error)) from None
        hashed = await anyio.to_thread.run_sync(accounts.hash_password, new)
        self.store.set_password(user.id, hashed)
        return self._logged_in(request, user.id, user.name, user.admin, 200)
