"""Defects of the server mode's page found by breaking the club (after the merge of
tournaments, live play, mail and the explorer), in headless Chromium against a real
``hexgames serve --server``: each test names what went wrong."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

import test_server_browser
import test_tournaments_browser
from playwright.sync_api import Browser, expect
from test_server_browser import Person, ServerMode, move

LIVE = {"kind": "live", "base": 600, "increment": 5}


browser = test_server_browser.browser  # the same Chromium fixture
server = test_tournaments_browser.server  # tournaments by members


def players(browser: Browser, server: ServerMode, count: int) -> list[Person]:
    """``count`` people signed up as player0, player1..."""
    people = [Person(browser, server) for _ in range(count)]
    for number, person in enumerate(people):
        person.signup(f"player{number}")
    return people


def game_of(first: Person, second: Person, opponent: str = "player1",
            time_control: object = LIVE) -> str:
    """The id of a game of Andantino of ``first`` (moving first) against ``second``
    (the account ``opponent``), made by a challenge ``second`` accepts."""
    made = first.api("POST", "/api/challenges", {
        "game": "andantino", "color": "first", "opponent": opponent,
        "time_control": time_control})
    return str(second.api("POST", f"/api/challenges/{made['id']}/accept")["id"])


def test_a_tournament_page_fits_a_phone(browser: Browser, server: ServerMode) -> None:
    # at 390 px the standings table (ten columns) stuck out of its card and made the
    # whole page scroll sideways (528 px wide, the menu bar cut); the crosstable wrote
    # its entrants' names in capitals (U17 for u17: another account's name)
    people = players(browser, server, 3)
    try:
        made = people[0].api("POST", "/api/tournaments", {
            "name": "Phone cup", "kind": "round_robin", "game": "andantino",
            "time_control": LIVE})
        for person in people:
            person.api("POST", f"/api/tournaments/{made['id']}/join", {})
        people[0].api("POST", f"/api/tournaments/{made['id']}/start")
        page = people[1].page
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{server.url}/#/tournament/{made['id']}")
        expect(page.locator("#t-table .t-standings tbody tr")).to_have_count(3)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        name = page.locator('#t-table .t-crosstable tr[data-name="player0"] th')
        assert name.evaluate("e => e.innerText") == "1. player0"
    finally:
        for person in people:
            person.close()


def test_leaving_a_game_right_after_resigning_makes_no_script_error(
        browser: Browser, server: ServerMode) -> None:
    # "Resign", "Really resign?", then the tournament page: 4 s after the first click
    # the armed button's timer drew the game view that was gone (TypeError: Cannot set
    # properties of null, in StudyPanel.renderNodeTools)
    people = players(browser, server, 2)
    try:
        game_id = game_of(*people)
        page = people[0].page
        page.clock.install()
        people[0].open(game_id)
        move(people[0], "0,1")  # a move on view: the study panel draws its tools
        page.click("#resign")
        page.click("#resign")
        expect(page.locator("#game-view")).to_have_attribute("data-over", "true")
        page.goto(f"{server.url}/#/tournaments")
        page.wait_for_selector("#tournaments")
        page.clock.run_for(5000)  # past the armed button's 4 s
        page.wait_for_timeout(100)
    finally:
        for person in people:
            person.close()  # asserts that the page had no script error


def test_a_long_tournament_name_does_not_widen_the_pages(browser: Browser,
                                                         server: ServerMode) -> None:
    # a name of 80 letters without a space (any member may make one) made the list of
    # tournaments 1442 px wide at 390 px and 1454 px at 1280, and its page likewise
    (person,) = players(browser, server, 1)
    try:
        made = person.api("POST", "/api/tournaments", {
            "name": "W" * 80, "kind": "swiss", "rounds": 3, "game": "abande",
            "time_control": {"kind": "correspondence", "days": 3}})
        page = person.page
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 844})
            for view, ready in ((f"#/tournament/{made['id']}", "#t-title"),
                                ("#/tournaments", "#tournament-list")):
                page.goto(f"{server.url}/{view}")
                page.wait_for_selector(ready)
                assert page.evaluate("document.documentElement.scrollWidth") <= width, \
                    (view, width)
    finally:
        person.close()


def test_a_player_page_of_a_long_name_fits_a_phone(browser: Browser,
                                                   server: ServerMode) -> None:
    # a name of 32 letters (the most) and a game against another: the player's page
    # was 647 px wide at 390 px, the menu bar cut
    first, second = Person(browser, server), Person(browser, server)
    try:
        first.signup("A" * 31 + "1")
        second.signup("B" * 31 + "2")
        game_of(first, second, "B" * 31 + "2")
        page = first.page
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{server.url}/#/user/{'A' * 31}1")
        expect(page.locator("#player-games tr")).to_have_count(1)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        first.close()
        second.close()


def test_keyboard_play_with_confirm_moves(browser: Browser, server: ServerMode) -> None:
    # with "Confirm moves" on, Enter on a cell showed the Confirm bar in the side panel
    # but left the focus on the board: a second Enter did nothing, and the Confirm
    # button was many Tab presses away (nor was the bar said to a screen reader)
    people = players(browser, server, 2)
    try:
        game_id = game_of(*people, time_control={"kind": "correspondence", "days": 2})
        page = people[0].page
        people[0].open(game_id)
        page.wait_for_selector("#game-view[data-interactive='true']")
        page.check("#pref-confirm")
        page.keyboard.press("b")  # the board's cursor
        page.keyboard.press("Enter")
        expect(page.locator("#confirm-bar")).to_be_visible()
        expect(page.locator("#confirm-move")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#game-view")).to_have_attribute("data-ply", "1")
        expect(page.locator("#confirm-bar")).to_be_hidden()
    finally:
        for person in people:
            person.close()


def test_offers_are_said_to_a_screen_reader(browser: Browser, server: ServerMode) -> None:
    # the opponent's draw offer, take-back request and rematch offer appeared above
    # the board and in the panel without a live region: a screen reader said nothing
    people = players(browser, server, 2)
    try:
        game_id = game_of(*people)
        alice, bob = people
        alice.open(game_id)
        bob.open(game_id)
        move(alice, "0,1")
        said = alice.page.get_by_role("status")
        alice_page = alice.page
        bob.page.click("#draw")
        expect(said.filter(has_text="player1 offers a draw")).to_have_count(1)
        alice_page.click("#offer-decline")
        move(bob, "1,1")
        bob.page.click("#undo")
        expect(said.filter(has_text="player1 asks to take back")).to_have_count(1)
        alice_page.click("#offer-decline")
        bob.page.click("#resign")
        bob.page.click("#resign")
        expect(alice_page.locator("#game-view")).to_have_attribute("data-over", "true")
        bob.page.click("#rematch")
        expect(said.filter(has_text="player1 offers a rematch")).to_have_count(1)
    finally:
        for person in people:
            person.close()


def test_the_lobby_counts_one_move_in_the_singular(browser: Browser,
                                                   server: ServerMode) -> None:
    # "Andantino · player0 – player1 · 1 moves" in the lobby's lists
    people = players(browser, server, 2)
    try:
        game_id = game_of(*people)
        people[0].open(game_id)
        move(people[0], "0,1")
        page = people[0].page
        page.goto(f"{server.url}/#/")
        expect(page.locator("#my-games")).to_contain_text("player0 – player1 · 1 move")
        expect(page.locator("#my-games")).not_to_contain_text("1 moves")
    finally:
        for person in people:
            person.close()
