"""Turn notifications by e-mail and vacations (issue 35), against a real server on
loopback with real clients, and a real SMTP server (aiosmtpd) whose inbox the tests
read: the digest, its interval, stopping by the mail's link, the clock warning,
STARTTLS with a login, a dead SMTP server; vacations pausing correspondence clocks and
their bound; every refusal. Time is a fake clock, and each round of mail is called by
the test (one test runs the background task)."""

from __future__ import annotations

import email
import email.policy
import re
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")
pytest.importorskip("aiosmtpd")

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from server_helpers import Client, FakeClock, LiveServer, challenge_game, signed_up
from web_helpers import free_port

from hexgames import limits
from hexgames.web.clock import GameClock, TimeControl
from hexgames.web.mail import MailConfig, Mailer, MailError, check_address

DAY = 86400.0
HOUR = 3600.0
PUBLIC = "https://games.example.org"
CORRESPONDENCE = {"kind": "correspondence", "days": 3}


class Inbox:
    """An aiosmtpd handler keeping what arrives: (envelope recipients, message, login)."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], EmailMessage, str | None]] = []
        self.refused: set[str] = set()  # addresses it says do not exist
        self._lock = threading.Lock()

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str,
                          options: list[str]) -> str:
        if address in self.refused:
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        data = session.auth_data  # what the authenticator gave: the login
        login = data.decode() if isinstance(data, bytes) else None
        with self._lock:
            self.mails.append((list(envelope.rcpt_tos), message, login))
        return "250 OK"

    def wait(self, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        """The messages once ``count`` have arrived (a failure after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while len(self.mails) < count:
            assert time.monotonic() < deadline, f"{len(self.mails)} mails, not {count}"
            time.sleep(0.02)
        return [message for _, message, _ in self.mails]

    def to(self, address: str) -> list[EmailMessage]:
        return [message for rcpt, message, _ in self.mails if address in rcpt]


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def _server(tmp_path: Path, clock: FakeClock, port: int, **mail: Any) -> LiveServer:
    config = MailConfig("127.0.0.1", port, "games@example.org", PUBLIC, **mail)
    return LiveServer(tmp_path / "games.db", now=clock, mail=config, mail_interval=None)


@pytest.fixture
def server(tmp_path: Path, clock: FakeClock,
           inbox: tuple[Inbox, int]) -> Iterator[LiveServer]:
    live = _server(tmp_path, clock, inbox[1])
    yield live
    live.stop()


def _body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def _link(text: str, path: str) -> str:
    """The path and query of the link to ``path`` in a mail (its host is the public
    one)."""
    found = re.search(rf"{re.escape(PUBLIC)}{re.escape(path)}\S+", text)
    assert found is not None, text
    parts = urlsplit(found.group(0))
    return f"{parts.path}?{parts.query}"


def _subscribe(client: Client, inbox: Inbox, address: str, **settings: Any) -> None:
    """Give ``address`` and the settings, and open the confirmation mail's link."""
    before = len(inbox.mails)
    answer = client.http.post("/api/account/notifications",
                              json={"email": address, **settings})
    assert answer.status_code == 200, answer.text
    assert answer.json()["confirmed"] is False
    confirmation = inbox.wait(before + 1)[-1]
    assert confirmation["To"] == address
    assert confirmation["Subject"] == "hexgames: confirm your address"
    opened = client.http.get(_link(_body(confirmation), "/api/mail/confirm"))
    assert opened.status_code == 200 and "Address confirmed" in opened.text
    assert client.http.get("/api/account/notifications").json()["confirmed"] is True


def _round(server: LiveServer) -> int:
    return int(server.app.state.notifier.round())


# --- digests ------------------------------------------------------------------------------


def test_a_digest_lists_the_games_waiting_at_most_once_an_interval(
        server: LiveServer, clock: FakeClock, inbox: tuple[Inbox, int]) -> None:
    mails, _ = inbox
    alice, bob, carol = signed_up(server, "alice", "bob", "carol")
    _subscribe(alice, mails, "alice@example.org", digest_hours=1)
    # nothing waits for alice yet: no digest (the confirmation was the one mail)
    assert _round(server) == 0 and len(mails.mails) == 1
    first = challenge_game(alice, bob, time_control=CORRESPONDENCE)  # alice moves first
    waiting_for_bob = challenge_game(bob, alice, time_control=CORRESPONDENCE)
    assert _round(server) == 1
    digest = mails.wait(2)[-1]
    assert digest["To"] == "alice@example.org"
    assert digest["Subject"] == "hexgames: 1 game waits for your move"
    text = _body(digest)
    assert f"{PUBLIC}/#/game/{first}" in text and "against bob" in text
    assert "3 days 0 hours left" in text
    assert waiting_for_bob not in text  # bob's move there
    assert digest["List-Unsubscribe"].startswith(f"<{PUBLIC}/api/mail/stop?token=")
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # a second game waits within the hour: no second mail until the hour has passed
    second = challenge_game(alice, carol, time_control=CORRESPONDENCE)
    clock.advance(HOUR - 60)
    assert _round(server) == 0
    clock.advance(60)
    assert _round(server) == 1
    both = _body(mails.wait(3)[-1])
    assert f"/#/game/{first}" in both and f"/#/game/{second}" in both
    assert mails.to("alice@example.org")[-1]["Subject"] == \
        "hexgames: 2 games wait for your move"
    assert "NEAR ITS END" not in both
    # nothing new since: no mail, however long
    clock.advance(5 * HOUR)
    assert _round(server) == 0 and len(mails.mails) == 3
    assert not mails.to("bob@example.org")  # bob gave no address
    # a third game: the digest lists all three, the first two near their end (under a
    # day left: no warning threshold is set)
    clock.advance(2 * DAY - 5 * HOUR)
    third = challenge_game(alice, bob, time_control=CORRESPONDENCE)
    assert _round(server) == 1
    lines = _body(mails.wait(4)[-1]).split("\n- ")
    near = {game: "NEAR ITS END" in line for line in lines[1:]
            for game in (first, second, third) if game in line}
    assert near == {first: True, second: True, third: False}


def test_no_mail_after_the_stop_link_and_a_bad_link_is_refused(
        server: LiveServer, clock: FakeClock, inbox: tuple[Inbox, int]) -> None:
    mails, _ = inbox
    alice, bob = signed_up(server, "alice", "bob")
    _subscribe(alice, mails, "alice@example.org", digest_hours=6, warn_hours=12)
    challenge_game(alice, bob, time_control=CORRESPONDENCE)
    assert _round(server) == 1
    stop = _link(_body(mails.wait(2)[-1]), "/api/mail/stop")
    nobody = Client(server, origin=None)  # a mail program: no session, no Origin
    page = nobody.http.get(stop)  # a page with a button: opening it stops nothing
    assert page.status_code == 200 and 'method="post"' in page.text
    assert alice.http.get("/api/account/notifications").json()["digest_hours"] == 6
    token = stop.split("token=", 1)[1]
    tampered = nobody.http.post("/api/mail/stop", data={"token": token[:-3] + "abc"})
    assert tampered.status_code == 400 and "not valid" in tampered.json()["error"]
    stopped = nobody.http.post("/api/mail/stop", data={"token": token})  # the button
    assert stopped.status_code == 200 and "Mail stopped" in stopped.text
    shown = alice.http.get("/api/account/notifications").json()
    assert (shown["digest_hours"], shown["warn_hours"]) == (None, None)
    challenge_game(alice, bob, time_control=CORRESPONDENCE)
    clock.advance(2 * DAY + 13 * HOUR)  # a new game waits, and a clock is near its end
    assert _round(server) == 0 and len(mails.mails) == 2
    # RFC 8058's one click: a POST to the link itself
    again = nobody.http.post(stop, data={"List-Unsubscribe": "One-Click"})
    assert again.status_code == 200 and "No more turn notifications" in again.text


# --- the warning ------------------------------------------------------------------------


def test_a_warning_before_a_correspondence_clock_runs_out_once_per_move(
        server: LiveServer, clock: FakeClock, inbox: tuple[Inbox, int]) -> None:
    mails, _ = inbox
    alice, bob = signed_up(server, "alice", "bob")
    _subscribe(alice, mails, "alice@example.org", warn_hours=12)
    game = challenge_game(alice, bob, time_control=CORRESPONDENCE)
    live = challenge_game(alice, bob, time_control={"kind": "live", "base": 600})
    clock.advance(2 * DAY + 11 * HOUR)  # 13 hours left: no warning yet
    assert _round(server) == 0
    clock.advance(2 * HOUR)  # 11 hours left
    assert _round(server) == 1
    warning = mails.wait(2)[-1]
    assert warning["Subject"] == "hexgames: your clock runs out soon (1 game)"
    text = _body(warning)
    assert f"{PUBLIC}/#/game/{game}" in text and "11 hours 0 minutes left" in text
    assert live not in text  # a live game is no matter for mail (and long lost here)
    clock.advance(HOUR)
    assert _round(server) == 0  # once per move
    # alice moves, bob answers: her clock runs again from 3 days, and is warned again
    a = alice.socket(game)
    a.receive()
    a.send({"type": "move", "move": "0,1", "ply": 0})
    a.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    b = bob.socket(game)
    state = b.until(lambda m: m["type"] == "state")
    b.send({"type": "move", "move": state["legal"][0], "ply": 1})
    b.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    clock.advance(2 * DAY + 13 * HOUR)
    assert _round(server) == 1
    assert "11 hours 0 minutes left" in _body(mails.wait(3)[-1])
    a.close()
    b.close()


def _confirm_without_mail(server: LiveServer, client: Client, name: str,
                          address: str) -> None:
    """Open the confirmation link of ``address`` that the test makes itself (the mail
    did not arrive)."""
    user = server.app.state.store.user(name)
    token = server.app.state.notifier.tokens.confirm(user.id, address)
    assert client.http.get(f"/api/mail/confirm?token={token}").status_code == 200


def test_an_address_the_smtp_server_refuses_hurts_no_other(
        server: LiveServer, clock: FakeClock, inbox: tuple[Inbox, int]) -> None:
    mails, _ = inbox
    mails.refused.add("nobody@example.org")
    alice, bob = signed_up(server, "alice", "bob")
    assert bob.http.post("/api/account/notifications", json={
        "email": "nobody@example.org", "digest_hours": 1}).status_code == 200
    _confirm_without_mail(server, bob, "bob", "nobody@example.org")
    _subscribe(alice, mails, "alice@example.org", digest_hours=1)
    challenge_game(alice, bob, time_control=CORRESPONDENCE)
    challenge_game(bob, alice, time_control=CORRESPONDENCE)
    assert _round(server) == 2  # both settled: alice's sent, bob's refused
    assert [m["To"] for m in mails.wait(2)] == ["alice@example.org"] * 2
    assert server.app.state.notifier.retry_at == 0  # the server itself is fine
    clock.advance(2 * HOUR)
    assert _round(server) == 0  # the refused digest is not sent again and again


def test_confirmation_mails_are_limited(server: LiveServer, clock: FakeClock,
                                       inbox: tuple[Inbox, int]) -> None:
    mails, _ = inbox
    (alice,) = signed_up(server, "alice")
    for number in range(limits.MAX_CONFIRMATION_MAILS):
        answer = alice.http.post("/api/account/notifications",
                                 json={"email": f"victim{number}@example.org"})
        assert answer.status_code == 200
    mails.wait(limits.MAX_CONFIRMATION_MAILS)
    refused = alice.http.post("/api/account/notifications",
                              json={"email": "victim@example.org"})
    assert refused.status_code == 429 and "MAX_CONFIRMATION_MAILS" in refused.json()["error"]
    assert int(refused.headers["Retry-After"]) == limits.MAIL_CONFIRM_WINDOW
    shown = alice.http.get("/api/account/notifications").json()
    assert shown["email"] == f"victim{limits.MAX_CONFIRMATION_MAILS - 1}@example.org"
    clock.advance(limits.MAIL_CONFIRM_WINDOW)
    assert alice.http.post("/api/account/notifications",
                           json={"email": "victim@example.org"}).status_code == 200
    assert len(mails.wait(limits.MAX_CONFIRMATION_MAILS + 1)) == \
        limits.MAX_CONFIRMATION_MAILS + 1


# --- the SMTP server ----------------------------------------------------------------------


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate of 127.0.0.1 and its key (openssl)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class Logins:
    """An aiosmtpd authenticator of one login."""

    def __init__(self, user: str, password: str) -> None:
        self.user, self.password = user.encode(), password.encode()

    def __call__(self, server: Any, session: Any, envelope: Any, mechanism: str,
                 data: Any) -> AuthResult:
        good = isinstance(data, LoginPassword) and \
            (data.login, data.password) == (self.user, self.password)
        return AuthResult(success=good, handled=False,
                          auth_data=data.login if good else None)


def test_starttls_and_login(tmp_path: Path) -> None:
    if subprocess.run(["which", "openssl"], capture_output=True).returncode != 0:
        pytest.skip("no openssl to make a certificate")
    cert, key = _certificate(tmp_path)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port, tls_context=served,
                            require_starttls=True, authenticator=Logins("club", "s3cret"),
                            auth_required=True)
    controller.start()
    try:
        trusted = ssl.create_default_context(cafile=str(cert))
        config = MailConfig("127.0.0.1", port, "games@example.org", PUBLIC, user="club",
                            password="s3cret", starttls=True, tls=trusted)
        mailer = Mailer(config)
        mailer.send([mailer.message("alice@example.org", "hello", "over TLS")])
        [(rcpt, message, login)] = inbox.mails
        assert (rcpt, message["Subject"], login) == (["alice@example.org"], "hello", "club")
        wrong = Mailer(MailConfig("127.0.0.1", port, "games@example.org", PUBLIC,
                                  user="club", password="wrong", starttls=True,
                                  tls=trusted))
        with pytest.raises(MailError, match="failed"):
            wrong.send([wrong.message("alice@example.org", "hello", "no")])
        plain = Mailer(MailConfig("127.0.0.1", port, "games@example.org", PUBLIC,
                                  user="club", password="s3cret"))
        with pytest.raises(MailError):  # the server wants STARTTLS first
            plain.send([plain.message("alice@example.org", "hello", "no")])
        untrusted = Mailer(MailConfig("127.0.0.1", port, "games@example.org", PUBLIC,
                                      user="club", password="s3cret", starttls=True))
        with pytest.raises(MailError):  # a certificate nobody vouches for
            untrusted.send([untrusted.message("alice@example.org", "hello", "no")])
        assert len(inbox.mails) == 1
    finally:
        controller.stop()


def test_a_dead_smtp_server_does_not_hurt_play_and_is_tried_again(
        tmp_path: Path, clock: FakeClock) -> None:
    port = free_port()  # nothing listens there yet
    server = _server(tmp_path, clock, port, timeout=5)
    try:
        alice, bob = signed_up(server, "alice", "bob")
        answer = alice.http.post("/api/account/notifications",
                                 json={"email": "alice@example.org", "digest_hours": 1})
        assert answer.status_code == 200  # the confirmation fails in its thread
        _confirm_without_mail(server, alice, "alice", "alice@example.org")
        game = challenge_game(alice, bob, time_control=CORRESPONDENCE)
        assert _round(server) == 0  # refused: logged, tried again later
        notifier = server.app.state.notifier
        assert notifier.retry_at == clock.now + limits.MAIL_BACKOFF
        a = alice.socket(game)  # play goes on
        a.receive()
        a.send({"type": "move", "move": "0,1", "ply": 0})
        a.until(lambda m: m["type"] == "state" and m["ply"] == 1)
        a.close()
        inbox = Inbox()
        controller = Controller(inbox, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            b = bob.socket(game)
            state = b.until(lambda m: m["type"] == "state")
            b.send({"type": "move", "move": state["legal"][0], "ply": 1})
            b.until(lambda m: m["type"] == "state" and m["ply"] == 2)
            b.close()
            assert _round(server) == 0  # not before the wait is over
            clock.advance(limits.MAIL_BACKOFF)
            assert _round(server) == 1
            assert f"/#/game/{game}" in _body(inbox.wait(1)[0])
        finally:
            controller.stop()
    finally:
        server.stop()


def test_the_background_task_sends_the_digest(tmp_path: Path, clock: FakeClock,
                                              inbox: tuple[Inbox, int]) -> None:
    mails, port = inbox
    config = MailConfig("127.0.0.1", port, "games@example.org", PUBLIC)
    server = LiveServer(tmp_path / "games.db", now=clock, mail=config, mail_interval=0.05)
    try:
        alice, bob = signed_up(server, "alice", "bob")
        _subscribe(alice, mails, "alice@example.org", digest_hours=24)
        game = challenge_game(alice, bob, time_control=CORRESPONDENCE)
        assert f"/#/game/{game}" in _body(mails.wait(2)[-1])
    finally:
        server.stop()


# --- settings: refusals ---------------------------------------------------------------------


def test_bad_settings_get_a_clear_error(server: LiveServer,
                                        inbox: tuple[Inbox, int]) -> None:
    (alice,) = signed_up(server, "alice")
    post = alice.http.post
    for body, words in [
            ({"email": "alice"}, "no e-mail address"),
            ({"email": "alice@example"}, "no e-mail address"),
            ({"email": "al ice@example.org"}, "no e-mail address"),
            ({"email": "a@b.org\r\nBcc: x@y.org"}, "no e-mail address"),
            ({"email": 12}, "address as text"),
            ({"email": "a" * 250 + "@b.org"}, "at most 254"),
            ({"email": "a@example.org", "digest_hours": 5}, "one of 1, 6, 24"),
            ({"email": "a@example.org", "digest_hours": True}, "one of 1, 6, 24"),
            ({"email": "a@example.org", "warn_hours": 0}, "from 1 to 168"),
            ({"email": "a@example.org", "warn_hours": -3}, "from 1 to 168"),
            ({"email": "a@example.org", "warn_hours": 1.5}, "whole number"),
            ({"email": "a@example.org", "warn_hours": 10**400}, "from 1 to 168"),
            ({"email": "a@example.org", "sms": True}, "unknown field 'sms'")]:
        answer = post("/api/account/notifications", json=body)
        assert answer.status_code == 400, body
        assert words in answer.json()["error"], (body, answer.json())
    assert alice.http.get("/api/account/notifications").json()["email"] is None
    nobody = Client(server)
    assert nobody.http.get("/api/account/notifications").status_code == 401
    assert nobody.http.post("/api/account/notifications",
                            json={"email": "a@example.org"}).status_code == 401
    no_origin = Client(server, origin=None)
    no_origin.http.cookies = alice.http.cookies
    refused = no_origin.http.post("/api/account/notifications",
                                  json={"email": "a@example.org"})
    assert refused.status_code == 403 and "Origin" in refused.json()["error"]
    foreign = Client(server, origin="https://evil.example")
    foreign.http.cookies = alice.http.cookies
    assert foreign.http.post("/api/account/notifications",
                             json={"email": "a@example.org"}).status_code == 403
    assert nobody.http.get("/api/mail/confirm?token=nonsense").status_code == 400
    assert alice.http.get("/api/account/notifications").json()["email"] is None


def test_settings_without_the_address_keep_it_and_are_checked(
        server: LiveServer, inbox: tuple[Inbox, int]) -> None:
    # a body without "email" forgot the confirmed address (as "email": null does) and
    # answered 200 to any digest_hours or warn_hours, however wrong
    (alice,) = signed_up(server, "alice")
    post = alice.http.post
    for body in [{"digest_hours": 5}, {"warn_hours": 0}, {"warn_hours": True}]:
        answer = post("/api/account/notifications", json=body)
        assert answer.status_code == 400, (body, answer.text)
    assert "address" in post("/api/account/notifications",
                             json={"digest_hours": 6}).json()["error"]
    _subscribe(alice, inbox[0], "alice@example.org", digest_hours=24)
    for body, words in [({"digest_hours": 5}, "one of 1, 6, 24"),
                        ({"warn_hours": 169}, "from 1 to 168")]:
        answer = post("/api/account/notifications", json=body)
        assert answer.status_code == 400 and words in answer.json()["error"], body
    sent = len(inbox[0].mails)
    answer = post("/api/account/notifications", json={"digest_hours": 6, "warn_hours": 12})
    assert answer.status_code == 200, answer.text
    shown = alice.http.get("/api/account/notifications").json()
    assert (shown["email"], shown["confirmed"], shown["digest_hours"],
            shown["warn_hours"]) == ("alice@example.org", True, 6, 12)
    assert len(inbox[0].mails) == sent  # a confirmed address is not confirmed again
    assert post("/api/account/notifications", json={"email": None}).status_code == 200
    assert alice.http.get("/api/account/notifications").json()["email"] is None


def test_a_server_without_smtp_refuses_mail_settings(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db")
    try:
        (alice,) = signed_up(server, "alice")
        shown = alice.http.get("/api/account/notifications").json()
        assert shown["mail"] is False and shown["vacation"]["most"] == 30
        refused = alice.http.post("/api/account/notifications",
                                  json={"email": "alice@example.org"})
        assert refused.status_code == 409 and "--smtp" in refused.json()["error"]
    finally:
        server.stop()


def test_addresses() -> None:
    assert check_address("  Alice.B+games@mail.example.org ") == \
        "Alice.B+games@mail.example.org"
    for bad in ["", "@example.org", "a@", "a..b@example.org", ".a@example.org",
                "a@-example.org", "a@example..org", "a@exa_mple.org", "<a@example.org>"]:
        with pytest.raises(ValueError, match="no e-mail address"):
            check_address(bad)


# --- vacations ------------------------------------------------------------------------------


def test_a_clock_pause_holds_its_time() -> None:
    control = TimeControl.from_json(CORRESPONDENCE)
    assert control is not None
    clock = GameClock.start(control, 0, 1000.0)
    clock.pause(0, 1000.0 + DAY, 1000.0 + 3 * DAY)
    assert clock.left(0, 1000.0 + DAY) == 2 * DAY
    assert clock.left(0, 1000.0 + 2 * DAY) == 2 * DAY  # paused
    assert clock.left(0, 1000.0 + 4 * DAY) == DAY
    assert clock.deadline() == 1000.0 + 5 * DAY
    assert clock.paused_until(0, 1000.0 + 2 * DAY) == 1000.0 + 3 * DAY
    assert clock.paused_until(1, 1000.0 + 2 * DAY) is None
    stored = GameClock.from_json(clock.to_json())
    assert stored.deadline() == 1000.0 + 5 * DAY  # the pause is kept with the clock
    clock.end_pauses(0, 1000.0 + 2 * DAY)  # ended early: one day paused
    assert clock.deadline() == 1000.0 + 4 * DAY
    clock.moved(0, 1000.0 + 3 * DAY)  # the pause is over: forgotten
    assert clock.pauses == [[], []] and clock.remaining[0] == 3 * DAY


def _vacation(client: Client, days: object) -> Any:
    return client.http.post("/api/account/vacation", json={"days": days})


def test_a_vacation_pauses_correspondence_clocks_and_the_opponent_sees_it(
        server: LiveServer, clock: FakeClock) -> None:
    alice, bob = signed_up(server, "alice", "bob")
    game = challenge_game(alice, bob, time_control=CORRESPONDENCE)
    live = challenge_game(alice, bob, time_control={"kind": "live", "base": 600})
    clock.advance(DAY)
    started = _vacation(alice, 5)
    assert started.status_code == 200, started.text
    until = clock.now + 5 * DAY
    assert started.json()["until"] == until and started.json()["games"] == 1
    watching = bob.socket(game)
    state = watching.until(lambda m: m["type"] == "state")
    assert state["clock"]["paused"] == [until, None]
    assert state["clock"]["remaining"][0] == 2 * DAY
    live_state = bob.socket(live).until(lambda m: m["type"] == "state")
    assert "paused" not in live_state["clock"]  # a live game is not paused
    clock.advance(4 * DAY)
    assert server.manager.sweep() == [live]  # the live game lost on time; not this one
    waiting = alice.http.get("/api/turn").json()["games"]
    assert [g["clock"]["remaining"][0] for g in waiting if g["id"] == game] == [2 * DAY]
    # a game that begins during the vacation is paused too
    later = challenge_game(alice, bob, time_control=CORRESPONDENCE)
    clock.advance(DAY + HOUR)  # the vacation is over: the clocks run again
    turn = {g["id"]: g["clock"] for g in alice.http.get("/api/turn").json()["games"]}
    assert turn[game]["remaining"][0] == 2 * DAY - HOUR
    assert turn[game]["paused"] == [None, None]
    assert turn[later]["remaining"][0] == 3 * DAY - HOUR
    clock.advance(2 * DAY - 2 * HOUR)
    assert server.manager.sweep() == []
    clock.advance(2 * HOUR)
    assert server.manager.sweep() == [game]
    watching.close()


def test_ending_a_vacation_early_and_its_bound(server: LiveServer,
                                               clock: FakeClock) -> None:
    alice, bob = signed_up(server, "alice", "bob")
    game = challenge_game(alice, bob, time_control=CORRESPONDENCE)
    assert _vacation(alice, 10).status_code == 200
    again = _vacation(alice, 1)
    assert again.status_code == 409 and "on vacation already" in again.json()["error"]
    clock.advance(2 * DAY + HOUR)
    ended = alice.http.delete("/api/account/vacation")
    assert ended.status_code == 200 and ended.json()["until"] is None
    assert ended.json()["used"] == 3  # a day begun counts whole
    waiting = alice.http.get("/api/turn").json()["games"]
    assert [g["clock"]["remaining"][0] for g in waiting if g["id"] == game] == [3 * DAY]
    clock.advance(HOUR)
    waiting = alice.http.get("/api/turn").json()["games"]
    assert [g["clock"]["remaining"][0] for g in waiting if g["id"] == game] == \
        [3 * DAY - HOUR]
    not_on = alice.http.delete("/api/account/vacation")
    assert not_on.status_code == 409 and "not on vacation" in not_on.json()["error"]
    too_long = _vacation(alice, 28)
    assert too_long.status_code == 409
    assert "27 are left" in too_long.json()["error"]
    assert "MAX_VACATION_DAYS" in too_long.json()["error"]
    assert _vacation(alice, 27).status_code == 200
    for bad in [0, -3, 31, 2.5, "7", None, True, 10**400]:
        answer = _vacation(bob, bad)
        assert answer.status_code == 400, bad
        assert "days must be a whole number of days from 1 to 30" in answer.json()["error"]
    assert Client(server).http.post("/api/account/vacation",
                                    json={"days": 3}).status_code == 401
    no_origin = Client(server, origin=None)
    no_origin.http.cookies = bob.http.cookies
    assert _vacation(no_origin, 3).status_code == 403
    shown = bob.http.get("/api/account/notifications").json()["vacation"]
    assert (shown["until"], shown["used"]) == (None, 0)


# --- the command line -----------------------------------------------------------------------


def _serve(*args: str, env: dict[str, str | None] | None = None) -> Any:
    from click.testing import CliRunner

    from hexgames import cli

    return CliRunner().invoke(cli.cli, ["serve", *args], prog_name="hexgames",
                              env={"HEXGAMES_SMTP_PASSWORD": None, **(env or {})})


def test_bad_smtp_options_exit_2_with_a_message(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    base = ["--db", db, "--public-host", "games.example.org"]
    for args, words in [
            (["--smtp", "mail.example.org:587", "--smtp-from", "g@example.org"],
             "give --server too"),
            (["--server", "--smtp", "mail.example.org", "--smtp-from", "g@example.org"],
             "HOST:PORT"),
            (["--server", "--smtp", "mail.example.org:99999", "--smtp-from",
              "g@example.org"], "port must be 1 to 65535"),
            (["--server", "--smtp", "mail.example.org:587"], "needs --smtp-from"),
            (["--server", "--smtp", "mail.example.org:587", "--smtp-from", "games"],
             "no e-mail address"),
            (["--server", "--smtp", "mail.example.org:587", "--smtp-from", "g@example.org",
              "--smtp-user", "club"], "HEXGAMES_SMTP_PASSWORD"),
            (["--server", "--smtp", "mail.example.org:587", "--smtp-from", "g@example.org",
              "--smtp-user", "club", "--smtp-password-file", str(tmp_path / "missing")],
             "cannot read"),
            (["--server", "--smtp-user", "club"], "needs --smtp HOST:PORT"),
            (["--server", "--smtp", "mail.example.org:587", "--smtp-from", "g@example.org",
              "--mail-url", "games.example.org"], "--mail-url must be an http"),
    ]:
        result = _serve(*base, *args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.stderr, (args, result.stderr)
    nameless = _serve("--db", db, "--server", "--smtp", "mail.example.org:587",
                      "--smtp-from", "g@example.org")
    assert nameless.exit_code == 2 and "--public-host NAME" in nameless.stderr
    assert not (tmp_path / "games.db").exists()  # refused before the database is made


def test_the_smtp_password_comes_from_the_environment_or_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.cli.serve import mail_config

    monkeypatch.setenv("HEXGAMES_SMTP_PASSWORD", "from env")
    config = mail_config("mail.example.org:587", "club", None, "g@example.org", True,
                         None, ("games.example.org",), True)
    assert (config.host, config.port, config.user, config.password, config.starttls,
            config.base_url) == ("mail.example.org", 587, "club", "from env", True,
                                 "https://games.example.org")
    secret = tmp_path / "smtp-password"
    secret.write_text("from file\nsecond line\n")
    config = mail_config("[::1]:25", "club", str(secret), "g@example.org", False,
                         "http://192.168.1.5:8000/", (), True)
    assert (config.host, config.port, config.password, config.base_url) == \
        ("::1", 25, "from file", "http://192.168.1.5:8000")


def test_serve_with_smtp_gives_the_app_its_mailer(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: served.append(self.config.app))
    result = _serve("--server", "--port", str(free_port()), "--db",
                    str(tmp_path / "games.db"), "--public-host", "games.example.org",
                    "--smtp", "mail.example.org:587", "--smtp-starttls", "--smtp-user",
                    "club", "--smtp-from", "games@example.org",
                    env={"HEXGAMES_SMTP_PASSWORD": "s3cret"})
    assert result.exit_code == 0, result.output
    [app] = served
    config = app.state.notifier.mailer.config
    assert (config.host, config.port, config.starttls, config.user, config.password,
            config.sender, config.base_url) == (
        "mail.example.org", 587, True, "club", "s3cret", "games@example.org",
        "https://games.example.org")


def test_removing_an_account_forgets_its_address_and_vacations(tmp_path: Path) -> None:
    from hexgames.web.store import GameStore

    store = GameStore(tmp_path / "games.db")
    try:
        user = store.add_user("alice", "hash")
        assert user is not None
        store.set_mail_settings(user.id, "alice@example.org", HOUR, None)
        store.set_warned(user.id, "abc", 3)
        store.add_vacation(user.id, 1_800_000_000.0, 3, limits.MAX_VACATION_DAYS)
        assert store.mail_settings(user.id) is not None
        assert store.remove_user(user.id)
        assert store.mail_settings(user.id) is None
        assert store.warned_ply(user.id, "abc") is None
        assert store.vacations(user.id) == []
    finally:
        store.close()


def test_a_vacation_counts_in_the_year_it_starts(tmp_path: Path) -> None:
    import datetime

    from hexgames.web.mail_tables import VacationError
    from hexgames.web.store import GameStore

    def at(year: int, month: int, day: int) -> float:
        return datetime.datetime(year, month, day, 12, tzinfo=datetime.UTC).timestamp()

    store = GameStore(tmp_path / "games.db")
    try:
        user = store.add_user("alice", "hash")
        assert user is not None
        most = limits.MAX_VACATION_DAYS
        store.add_vacation(user.id, at(2026, 12, 1), 20, most)  # into 2026's days
        with pytest.raises(VacationError, match="10 are left in 2026"):
            store.add_vacation(user.id, at(2026, 12, 22), 11, most)
        store.add_vacation(user.id, at(2026, 12, 22), 10, most)  # ends in January
        assert store.vacation_days_used(user.id, 2026) == 30
        with pytest.raises(VacationError, match="on vacation already"):
            store.add_vacation(user.id, at(2026, 12, 31), 1, most)
        assert store.add_vacation(user.id, at(2027, 1, 2), 30, most).days == 30
        assert store.vacation_days_used(user.id, 2027) == 30
    finally:
        store.close()
