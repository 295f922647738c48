"""E-mail of the server mode: the SMTP server the operator names, the addresses players
give, the signed links of a mail, and the mails themselves (the standard library's
:mod:`smtplib` and :mod:`email`).

Sending blocks (a connection, maybe STARTTLS and a login, the messages), so the server
calls :meth:`Mailer.send` in a thread, never on the event loop; every step waits at most
:data:`hexgames.limits.MAIL_TIMEOUT` seconds and a failure is raised as
:class:`MailError` for the caller to log and try again later
(:mod:`hexgames.web.notices`).
"""

from __future__ import annotations

import logging
import re
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from itsdangerous import BadSignature, URLSafeSerializer

from hexgames import limits

log = logging.getLogger("hexgames.web.mail")

#: An address as players give it: a dot-atom local part (RFC 5322, no quoted strings),
#: ``@``, a domain name of at least two labels.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDRESS = re.compile(
    rf"[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~-]+)*"
    rf"@{_LABEL}(?:\.{_LABEL})+")


class MailError(Exception):
    """The SMTP server could not be reached or refused the mail (it says why)."""


class AddressError(ValueError):
    """An e-mail address that cannot be used (it says why)."""


def check_address(text: object) -> str:
    """An e-mail address as given (whitespace around it removed).

    Raises:
        AddressError: for what is not text, too long, or no address of the form
            ``name@example.org``.
    """
    if not isinstance(text, str):
        raise AddressError("email must be an address as text, e.g. alice@example.org")
    address = text.strip()
    if len(address) > limits.MAX_EMAIL_LENGTH:
        raise AddressError(f"an e-mail address has at most {limits.MAX_EMAIL_LENGTH} "
                           "characters (hexgames.limits.MAX_EMAIL_LENGTH)")
    if not _ADDRESS.fullmatch(address):
        raise AddressError(f"{address[:60]!r} is no e-mail address: give one such as "
                           "alice@example.org")
    if len(address.partition("@")[0]) > 64:
        raise AddressError("the part of an e-mail address before @ has at most 64 "
                           "characters")
    return address


def parse_server(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:25`` for an IPv6 address) as a host and a port.

    Raises:
        ValueError: naming what is wrong.
    """
    host, colon, port = text.strip().rpartition(":")
    if not colon or not host or not port:
        raise ValueError(f"give the SMTP server as HOST:PORT (e.g. mail.example.org:587), "
                         f"not {text[:60]!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"the SMTP server's port must be 1 to 65535, not {port[:20]!r}")
    return host, int(port)


@dataclass(frozen=True)
class MailConfig:
    """How the server sends mail.

    Attributes:
        host, port: the SMTP server.
        sender: the ``From`` address.
        base_url: the server's public address, without a final ``/``
            (``https://games.example.org``): the links of a mail start with it.
        user: the login at the SMTP server, or ``None`` (no login).
        password: its password (from an environment variable or a file, never the
            command line).
        starttls: upgrade the connection with STARTTLS before the login (refused if the
            server does not offer it).
        timeout: seconds each step may take.
        tls: the TLS context of STARTTLS (default: the system's trusted certificates).
    """

    host: str
    port: int
    sender: str
    base_url: str
    user: str | None = None
    password: str | None = None
    starttls: bool = False
    timeout: float = limits.MAIL_TIMEOUT
    tls: ssl.SSLContext | None = None


class Mailer:
    """Sends mails through the SMTP server of a :class:`MailConfig`."""

    def __init__(self, config: MailConfig) -> None:
        self.config = config

    def send(self, messages: list[EmailMessage],
             done: Callable[[int], None] | None = None) -> None:
        """Send ``messages`` over one connection (blocking: call it in a thread);
        ``done(index)`` is called after each message that is settled: sent, or refused
        by the server for its recipient (a bad address: logged, not tried again).

        Raises:
            MailError: if the server cannot be reached, offers no STARTTLS when asked
                for it, refuses the login, or fails on the way; the messages settled
                before were reported to ``done``.
        """
        if not messages:
            return
        config = self.config
        try:
            with smtplib.SMTP(config.host, config.port, timeout=config.timeout) as smtp:
                smtp.ehlo()
                if config.starttls:
                    if not smtp.has_extn("starttls"):
                        raise MailError(f"the SMTP server {config.host}:{config.port} "
                                        "offers no STARTTLS")
                    smtp.starttls(context=config.tls or ssl.create_default_context())
                    smtp.ehlo()
                if config.user is not None:
                    smtp.login(config.user, config.password or "")
                for index, message in enumerate(messages):
                    try:
                        smtp.send_message(message)
                    except smtplib.SMTPRecipientsRefused as error:
                        log.warning("the SMTP server refused the address %s: %s",
                                    message["To"], error.recipients)
                    if done is not None:
                        done(index)
        except MailError:
            raise
        except (smtplib.SMTPException, OSError, ssl.SSLError) as error:
            raise MailError(f"the SMTP server {config.host}:{config.port} failed: "
                            f"{str(error) or type(error).__name__}") from None

    def message(self, to: str, subject: str, text: str, *,
                stop_url: str | None = None) -> EmailMessage:
        """A plain-text mail to ``to``; with ``stop_url`` the headers by which mail
        programs offer to stop them (RFC 2369 and RFC 8058's one click)."""
        message = EmailMessage()
        message["From"] = self.config.sender
        message["To"] = to
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain=self.config.sender.rpartition("@")[2]
                                           or None)
        message["Auto-Submitted"] = "auto-generated"
        if stop_url is not None:
            message["List-Unsubscribe"] = f"<{stop_url}>"
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        message.set_content(text)
        return message


class MailTokens:
    """The signed tokens of a mail's links: one that stops an account's mails, one that
    confirms its address; each names the account and the address, so a link stops
    working when the address changes."""

    def __init__(self, secret: bytes) -> None:
        self._stop = URLSafeSerializer(secret, salt="hexgames-mail-stop")
        self._confirm = URLSafeSerializer(secret, salt="hexgames-mail-confirm")

    def stop(self, user_id: int, email: str) -> str:
        """The token of the link that stops the mails to ``email``."""
        return str(self._stop.dumps([user_id, email.lower()]))

    def confirm(self, user_id: int, email: str) -> str:
        """The token of the link that confirms ``email``."""
        return str(self._confirm.dumps([user_id, email.lower()]))

    def read_stop(self, token: str) -> tuple[int, str] | None:
        """The account and address of a stop token this server made, else ``None``."""
        return _read(self._stop, token)

    def read_confirm(self, token: str) -> tuple[int, str] | None:
        """The account and address of a confirmation token, else ``None``."""
        return _read(self._confirm, token)


def _read(serializer: URLSafeSerializer, token: str) -> tuple[int, str] | None:
    if not token or len(token) > 1000:
        return None
    try:
        value = serializer.loads(token)
    except BadSignature:
        return None
    if isinstance(value, list) and len(value) == 2 and isinstance(value[0], int) and \
            isinstance(value[1], str):
        return value[0], value[1]
    return None
