"""Live play in the server mode end to end (issue 35): the real page in headless
Chromium, two people (and a watcher) in browser contexts of their own, against a real
``hexgames serve --server`` process: an abort, a rated game that ends with its rating
change and a rematch both are taken to, the players' chat that the watcher never sees,
the opponent's connection, and a premove."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

import test_server_browser
from playwright.sync_api import Browser, expect
from test_server_browser import Person, ServerMode, move, wait_ply

browser = test_server_browser.browser
server = test_server_browser.server

LIVE = {"kind": "live", "base": 300, "increment": 2}


def _game(first: Person, second: Person, **body: object) -> str:
    """A game of ``first`` (moving first) against ``second``, made through the API
    with their cookies; both pages opened on it."""
    made = first.api("POST", "/api/challenges", {"game": "andantino", "color": "first",
                                                  "opponent": second.page.evaluate(
                                                      "document.querySelector('#me-link')"
                                                      ".textContent"),
                                                  "time_control": LIVE, **body})
    accepted = second.api("POST", f"/api/challenges/{made['id']}/accept")
    game_id = str(accepted["id"])
    first.open(game_id)
    second.open(game_id)
    return game_id


def test_an_abort_a_rating_change_and_a_rematch(browser: Browser, server: ServerMode) -> None:
    alice, bob = Person(browser, server), Person(browser, server)
    try:
        alice.signup("alice")
        bob.signup("bob")
        # an abort before the second move: both pages say so, the game is gone
        _game(alice, bob)
        move(alice, "0,1")
        expect(bob.page.locator("#abort")).to_be_visible()
        bob.page.click("#abort")
        for person in (alice, bob):
            expect(person.page.locator("#game-gone h2")).to_have_text("This game was aborted")
            expect(person.page.locator("#gone-message")).to_contain_text("bob aborted the game")
        # a rated game: the ratings beside the names, the opponent online
        game_id = _game(alice, bob, rated=True)
        page = alice.page
        expect(page.locator("#rating0")).to_have_text(re.compile(r"1500\?"))
        expect(page.locator("#online1")).to_have_attribute("data-online", "true")
        move(alice, "0,1")
        move(bob, "1,1")
        expect(page.locator("#abort")).to_be_hidden()  # after the second move
        page.click("#resign")
        page.click("#resign")  # "Really resign?"
        for person in (alice, bob):
            expect(person.page.locator("#rating-change")).to_contain_text(
                re.compile(r"alice −\d+ · bob \+\d+"))
        # bob offers a rematch, alice accepts: both are taken to the new game, colours
        # swapped
        expect(page.locator("#rematch")).to_be_visible()
        bob.page.click("#rematch")
        expect(page.locator("#rematch-text")).to_have_text("bob offers a rematch.")
        expect(bob.page.locator("#rematch-text")).to_contain_text("waiting for the answer")
        page.click("#rematch-accept")
        for person in (alice, bob):
            person.page.wait_for_url(re.compile(r"#/game/(?!" + game_id + ")"))
            person.page.wait_for_selector("#game-view")
        new_id = bob.page.url.rsplit("/", 1)[1]
        assert alice.page.url.endswith(new_id) and new_id != game_id
        expect(bob.page.locator("#account0")).to_have_text("bob (you)")
        expect(page.locator("#account1")).to_have_text("alice (you)")
        expect(page.locator("#clock1")).to_have_text("5:00")  # the same clock
        expect(page.locator("#clock0")).to_have_class(re.compile(r"\brunning\b"))
        move(bob, "0,1")  # bob moves first now
    finally:
        for person in (alice, bob):
            person.close()


def test_the_players_chat_a_watcher_who_does_not_see_it_and_a_premove(
        browser: Browser, server: ServerMode) -> None:
    alice, bob, carol = (Person(browser, server) for _ in range(3))
    try:
        alice.signup("alice")
        bob.signup("bob")
        carol.signup("carol")
        game_id = _game(alice, bob)
        carol.open(game_id)
        page = alice.page
        expect(page.locator("#chat")).to_be_visible()
        expect(carol.page.locator("#chat")).to_be_hidden()
        page.fill("#chat-input", "good luck!")
        page.click("#chat-send")
        expect(bob.page.locator("#chat-list .chat-line")).to_have_text(["alice good luck!"])
        bob.page.fill("#chat-input", "you too")
        bob.page.press("#chat-input", "Enter")
        expect(page.locator("#chat-list .chat-line")).to_have_text(
            ["alice good luck!", "bob you too"])
        # a reload brings the chat back from the server
        bob.page.reload()
        bob.page.wait_for_selector("#game-view")
        expect(bob.page.locator("#chat-list .chat-line")).to_have_count(2)
        expect(carol.page.locator("#chat-list .chat-line")).to_have_count(0)
        # bob premoves while alice thinks; it is played as soon as she has moved
        expect(bob.page.locator("#game-view[data-interactive='false']")).to_be_visible()
        bob.page.locator('#board [data-cell="1,1"]').click()
        expect(bob.page.locator("#premove-text")).to_have_text("Premove: 1,1")
        expect(page.locator("#premove")).to_be_hidden()  # only bob's page shows it
        move(alice, "0,1")
        for person in (alice, bob, carol):
            wait_ply(person.page, 2)
        assert carol.page.eval_on_selector_all(
            "#moves .move", "els => els.map(e => e.textContent)") == ["0,1", "1,1"]
        expect(bob.page.locator("#premove")).to_be_hidden()
        # bob's page closes: alice sees him offline
        expect(page.locator("#online1")).to_have_attribute("data-online", "true")
        bob.page.goto(server.url + "/#/")
        expect(page.locator("#online1")).to_have_attribute("data-online", "false")
        # the watcher was never sent a line of it
        expect(carol.page.locator("#chat")).to_be_hidden()
        assert carol.page.locator(".chat-line").count() == 0
    finally:
        for person in (alice, bob, carol):
            person.close()


def test_watching_without_an_account_when_the_operator_allows_it(browser: Browser,
                                                                 tmp_path: Path) -> None:
    srv = ServerMode(tmp_path / "games.db", ["--watch", "anonymous", "--chat", "off"])
    srv.start()
    alice, bob, guest = (Person(browser, srv) for _ in range(3))
    try:
        alice.signup("alice")
        bob.signup("bob")
        game_id = _game(alice, bob)
        expect(alice.page.locator("#chat")).to_be_hidden()  # --chat off
        guest.open(game_id)
        expect(guest.page.locator("#account0")).to_have_text("alice")
        expect(guest.page.locator("#resign")).to_be_hidden()
        expect(guest.page.locator("#abort")).to_be_hidden()
        expect(guest.page.locator("#board [data-legal]")).to_have_count(0)
        move(alice, "0,1")
        wait_ply(guest.page, 1)
        # the lobby is for accounts: the guest is asked to log in
        guest.page.goto(srv.url + "/#/")
        expect(guest.page.locator("#account-name")).to_be_visible()
    finally:
        for person in (alice, bob, guest):
            person.close()
        srv.stop()


#: Counts the WebAudio tones a page makes (window.tones).
COUNT_TONES = """
window.tones = 0;
const original = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.tones += 1;
  return original.call(this);
};
"""


def test_confirm_move_in_correspondence_and_sounds_off_by_default(browser: Browser,
                                                                   server: ServerMode) -> None:
    alice, bob = Person(browser, server), Person(browser, server)
    try:
        for person in (alice, bob):
            person.context.add_init_script(COUNT_TONES)
        alice.signup("alice")
        bob.signup("bob")
        made = alice.api("POST", "/api/challenges", {
            "game": "andantino", "color": "first", "opponent": "bob",
            "time_control": {"kind": "correspondence", "days": 3}})
        game_id = str(bob.api("POST", f"/api/challenges/{made['id']}/accept")["id"])
        alice.open(game_id)
        bob.open(game_id)
        page = alice.page
        # both switches are off by default: a move is sent at once, and makes no sound
        expect(page.locator("#pref-sounds")).not_to_be_checked()
        expect(page.locator("#pref-confirm")).not_to_be_checked()
        move(alice, "0,1")
        assert bob.page.evaluate("window.tones") == 0
        # bob turns sounds on (a tone says so) and asks to confirm his moves
        bob.page.check("#pref-sounds")
        bob.page.check("#pref-confirm")
        before = bob.page.evaluate("window.tones")
        assert before >= 1
        bob.page.wait_for_selector("#game-view[data-interactive='true']")
        bob.page.locator('#board [data-cell="1,1"]').click()
        expect(bob.page.locator("#confirm-text")).to_have_text("Play 1,1?")
        bob.page.click("#cancel-move")  # not sent
        expect(bob.page.locator("#confirm-bar")).to_be_hidden()
        assert bob.page.get_attribute("#game-view", "data-ply") == "1"
        bob.page.locator('#board [data-cell="1,1"]').click()
        bob.page.click("#confirm-move")
        wait_ply(page, 2)
        wait_ply(bob.page, 2)
        # bob's page sounded his move; alice's, with sounds off, still nothing
        bob.page.wait_for_function("n => window.tones > n", arg=before)
        assert page.evaluate("window.tones") == 0
        # the switches are kept in the browser
        bob.page.reload()
        bob.page.wait_for_selector("#game-view")
        expect(bob.page.locator("#pref-sounds")).to_be_checked()
    finally:
        for person in (alice, bob):
            person.close()


def test_quick_pairing_takes_both_seekers_to_the_game(browser: Browser,
                                                      server: ServerMode) -> None:
    alice, bob = Person(browser, server), Person(browser, server)
    try:
        alice.signup("alice")
        bob.signup("bob")
        alice.page.click("#seeks [data-pool='5+3']")
        expect(alice.page.locator("#seek-line")).to_contain_text("Seeking Andantino 5+3")
        expect(bob.page.locator("#seeks [data-pool='5+3']")).to_have_text(
            "5+3 (1 waiting)", timeout=15_000)
        bob.page.click("#seeks [data-pool='5+3']")
        for person in (alice, bob):
            person.page.wait_for_url("**/#/game/*", timeout=15_000)
            person.page.wait_for_selector("#game-view")
        assert alice.page.url == bob.page.url
        expect(alice.page.locator("#clock1")).to_have_text("5:00")  # 5+3: not running
        you = [alice.page.locator("#account0").text_content(),
               alice.page.locator("#account1").text_content()]
        assert "alice (you)" in you and "bob" in you
    finally:
        for person in (alice, bob):
            person.close()
