"""Accounts of the server mode: password hashes and login sessions in a signed cookie.

- Passwords are hashed with argon2id (``argon2-cffi``'s :class:`PasswordHasher`, its
  default parameters: RFC 9106's second recommended option, 64 MiB of memory, 3
  passes, 4 lanes, :func:`hash_parameters`); a hash made with older parameters is
  re-hashed at the next login. The server runs at most a few hashes at once
  (:class:`hexgames.web.limiter.HashGate`).
- A login makes a row of the ``sessions`` table (:mod:`hexgames.web.tables`) with a
  random token; the cookie :data:`COOKIE` carries that token signed with the server's
  secret (``itsdangerous``), ``HttpOnly``, ``SameSite=Lax`` and, behind TLS,
  ``Secure``. Logging out, changing the password or removing the account deletes the
  rows, so the cookie stops working at once.
- The secret is 32 random bytes in the file ``secret.key`` beside the database,
  readable by its owner only, made on first start.
- The rate limits of logins and sign-ups are :mod:`hexgames.web.limiter`'s. An unknown
  account and a wrong password get the same answer, after the same work (a hash is
  checked either way).
"""

from __future__ import annotations

import functools
import os
import re
import secrets
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from itsdangerous import BadSignature, URLSafeSerializer

from hexgames import limits

#: The session cookie's name.
COOKIE = "hexgames_session"
#: How long a login lasts, in seconds (30 days).
SESSION_SECONDS = 30 * 86400
#: The names an account may have: a letter, then letters, digits, ``_`` or ``-``.
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")

_hasher = PasswordHasher()


@functools.cache
def _dummy_hash() -> str:
    """A hash of a random password, checked for unknown accounts so that they take as
    long (made on first use: an import should not spend a hash's time)."""
    return _hasher.hash(secrets.token_hex(16))


class AccountError(ValueError):
    """A name or password that cannot be used (it says why)."""


def check_name(name: object) -> str:
    """An account name as given (whitespace around it removed).

    Raises:
        AccountError: for a name that is not text, too long or of other characters.
    """
    if not isinstance(name, str):
        raise AccountError("the name must be text")
    name = name.strip()
    if len(name) > limits.MAX_ACCOUNT_NAME:
        raise AccountError(f"a name has at most {limits.MAX_ACCOUNT_NAME} characters")
    if not NAME_RE.fullmatch(name):
        raise AccountError("a name is a letter, then letters, digits, _ or - "
                           "(A to Z, 0 to 9; no spaces)")
    return name


def check_password(password: object) -> str:
    """A new password.

    Raises:
        AccountError: for one that is not text, shorter than 8 or longer than
            :data:`hexgames.limits.MAX_PASSWORD` characters.
    """
    if not isinstance(password, str):
        raise AccountError("the password must be text")
    if len(password) < 8:
        raise AccountError("a password has at least 8 characters")
    if len(password) > limits.MAX_PASSWORD:
        raise AccountError(f"a password has at most {limits.MAX_PASSWORD} characters")
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: undecodable bytes read from a pipe
        raise AccountError("the password is not valid text (bytes that are not UTF-8?)") \
            from None
    return password


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (PHC string form)."""
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the hash ``stored``; ``stored`` ``None`` (an unknown
    account) checks a dummy hash so that the answer takes as long, and is ``False``."""
    if len(password) > limits.MAX_PASSWORD:
        password = password[:limits.MAX_PASSWORD]
    # As bytes: a lone surrogate (JSON allows "\\udcff") cannot be UTF-8; no password
    # that was set holds one, so it matches nothing.
    secret = password.encode("utf-8", "surrogatepass")
    try:
        return _hasher.verify(stored or _dummy_hash(), secret) and stored is not None
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def hash_parameters() -> dict[str, int]:
    """The argon2id cost of a new hash: ``memory_kib`` (KiB), ``time_cost`` (passes),
    ``parallelism`` (lanes)."""
    return {"memory_kib": _hasher.memory_cost, "time_cost": _hasher.time_cost,
            "parallelism": _hasher.parallelism}


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with other parameters than today's."""
    try:
        return _hasher.check_needs_rehash(stored)
    except InvalidHashError:
        return True


def load_secret(folder: Path) -> bytes:
    """The server's secret, from ``folder/secret.key`` (made, readable by its owner
    only, when missing).

    Raises:
        OSError: if it can neither be read nor made.
    """
    path = folder / "secret.key"
    try:
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    except FileNotFoundError:
        pass
    folder.mkdir(parents=True, exist_ok=True)
    data = secrets.token_bytes(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
    return data


class CookieSigner:
    """Signs and checks the session cookie's value (a session token)."""

    def __init__(self, secret: bytes) -> None:
        self._serializer = URLSafeSerializer(secret, salt="hexgames-session")

    def sign(self, token: str) -> str:
        """The cookie value carrying ``token``."""
        return str(self._serializer.dumps(token))

    def token(self, cookie: str | None) -> str | None:
        """The token of a cookie value this server signed, else ``None``."""
        if not cookie or len(cookie) > 200:
            return None
        try:
            value = self._serializer.loads(cookie)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None

    def csrf(self, token: str) -> str:
        """The CSRF token of a session (sent as ``X-Hexgames-CSRF`` by clients that
        send no ``Origin``)."""
        return str(self._serializer.dumps(["csrf", token]))[-43:]
