"""The account page's turn notifications and vacation in headless Chromium, against a
real server on loopback (in a thread, with a fake clock) and a real SMTP server
(aiosmtpd): a player gives an address, confirms it by the mail's link, is refused a bad
one, goes on vacation, and the opponent's page shows the paused clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")
pytest.importorskip("aiosmtpd", reason="the mail tests need aiosmtpd (hexgames[dev])")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

from aiosmtpd.controller import Controller
from playwright.sync_api import Browser, expect, sync_playwright
from server_helpers import FakeClock, LiveServer
from test_server_mail import CORRESPONDENCE, PUBLIC, Inbox, _body, _link
from test_web_browser import CHROMIUM
from web_helpers import free_port

from hexgames.web.mail import MailConfig

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.skip("no chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def test_the_account_page_sets_mail_and_a_vacation_the_opponent_sees(
        browser: Browser, tmp_path: Path) -> None:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    server = LiveServer(tmp_path / "games.db", now=FakeClock(), mail_interval=None,
                        mail=MailConfig("127.0.0.1", port, "games@example.org", PUBLIC))
    errors: list[str] = []
    pages = []
    try:
        for name in ("alice", "bob"):
            page = browser.new_context().new_page()
            page.set_default_timeout(20_000)
            page.on("pageerror", lambda err: errors.append(str(err)))
            page.goto(f"{server.base}/#/signup")
            page.fill("#account-name", name)
            page.fill("#account-password", PASSWORD)
            page.click("#account-submit")
            expect(page.locator("#me-link")).to_have_text(name)
            pages.append(page)
        alice, bob = pages
        alice.click("#notifications-link")
        alice.fill("#mail-email", "alice@example")
        alice.click("#mail-submit")
        expect(alice.locator("#alerts")).to_contain_text("no e-mail address")
        alice.fill("#mail-email", "alice@example.org")
        alice.select_option("#mail-digest", "6")
        alice.fill("#mail-warn", "12")
        alice.click("#mail-submit")
        expect(alice.locator("#mail-confirmed")).to_contain_text("Not confirmed yet")
        [confirmation] = inbox.wait(1)
        alice.goto(server.base + _link(_body(confirmation), "/api/mail/confirm"))
        expect(alice.locator("h1")).to_have_text("Address confirmed")
        alice.goto(f"{server.base}/#/notifications")
        expect(alice.locator("#mail-confirmed")).to_have_text("This address is confirmed.")
        expect(alice.locator("#mail-digest")).to_have_value("6")
        expect(alice.locator("#mail-warn")).to_have_value("12")
        # the two cards stand apart, one width (they touched, of two widths)
        mail_box = alice.locator("#mail-form").bounding_box()
        vacation_box = alice.locator("#vacation-form").bounding_box()
        assert mail_box is not None and vacation_box is not None
        assert vacation_box["y"] >= mail_box["y"] + mail_box["height"] + 8
        assert mail_box["width"] == vacation_box["width"]
        # a correspondence game, alice to move; she goes on vacation
        headers = {"origin": server.base}
        made = alice.request.post(f"{server.base}/api/challenges", headers=headers, data={
            "game": "andantino", "color": "first", "time_control": CORRESPONDENCE})
        assert made.ok, made.text()
        accepted = bob.request.post(
            f"{server.base}/api/challenges/{made.json()['id']}/accept", headers=headers)
        assert accepted.ok, accepted.text()
        game_id = accepted.json()["id"]
        expect(alice.locator("#vacation-status")).to_contain_text("0 of 30 days taken")
        alice.fill("#vacation-days", "3")
        alice.click("#vacation-start")
        expect(alice.locator("#vacation-status")).to_contain_text("You are on vacation until")
        bob.goto(f"{server.base}/#/game/{game_id}")
        expect(bob.locator("#clock0")).to_contain_text("on vacation")
        expect(bob.locator("#clock1")).not_to_contain_text("on vacation")
        expect(bob.locator("#clock0")).to_have_attribute("title", re.compile("On vacation until"))
        alice.click("#vacation-end")
        expect(alice.locator("#vacation-status")).to_contain_text("1 of 30 days taken")
        bob.reload()
        expect(bob.locator("#clock0")).not_to_contain_text("on vacation")
        assert not errors, errors
    finally:
        for page in pages:
            page.context.close()
        server.stop()
        controller.stop()
