"""A club tournament end to end (issue 35): four people, each in a browser of their own
(four contexts of headless Chromium), against a real ``hexgames serve --server
--tournaments members`` process. Alice creates a round robin with the page's form,
the four join with its button, she starts it, and the rounds start by themselves as
the games end (a few moves and a resignation, or a resignation at once); the
standings, their tie-break and the Andantino series score are checked on the page.
A screenshot goes to ``tests/artifacts/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

import test_server_browser
from playwright.sync_api import Browser, expect
from test_server_browser import Person, ServerMode, move
from test_web_browser import ARTIFACTS

browser = test_server_browser.browser  # the same Chromium fixture


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerMode]:
    srv = ServerMode(tmp_path / "games.db", ["--tournaments", "members"])
    srv.start()
    yield srv
    srv.stop()


def current_games(person: Person, number: int) -> list[tuple[str, str, str]]:
    """(first, second, game link) of the games of round ``number`` on the tournament's
    page, once that round is shown."""
    page = person.page
    expect(page.locator("#t-status")).to_have_attribute("data-round", str(number),
                                                        timeout=30_000)
    links = page.locator(f'.t-round[data-round="{number}"] a.t-game')
    expect(links).to_have_count(2)
    return [(links.nth(i).get_attribute("data-first") or "",
             links.nth(i).get_attribute("data-second") or "",
             links.nth(i).get_attribute("href") or "") for i in range(2)]


def resign(person: Person, link: str) -> None:
    """Open a game by its link on the tournament's page and resign it."""
    page = person.page
    page.goto(person.server.url + "/" + link)
    # this game's state shown (a hash change keeps the page: the view is new, its state
    # comes by its socket), then the two clicks of a resignation
    expect(page.locator("#game-view")).to_have_attribute("data-over", "false")
    expect(page.locator("#event-line")).to_contain_text("Winter round robin")
    page.click("#resign")
    expect(page.locator("#resign")).to_have_text("Really resign?")
    page.click("#resign")
    expect(page.locator("#result")).to_contain_text("wins")


def test_four_people_play_a_round_robin_to_its_end(browser: Browser,
                                                   server: ServerMode) -> None:
    names = ("alice", "bob", "carol", "dave")
    people = {name: Person(browser, server) for name in names}
    try:
        for name, person in people.items():
            person.signup(name)
        alice = people["alice"]
        page = alice.page
        page.click("#tournaments-link")
        expect(page.locator("#no-tournaments")).to_be_visible()
        page.fill("#t-name", "Winter round robin")
        page.select_option("#t-kind", "round_robin")
        page.select_option("#t-game", "andantino")
        page.select_option("#t-clock", "live")
        page.fill("#t-minutes", "10")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "tournament-form.png"), full_page=True)
        page.click("#t-create")
        expect(page.locator("#t-title")).to_have_text("Winter round robin")
        expect(page.locator("#t-status")).to_have_attribute("data-status", "open")
        url = page.url
        for name in names:  # in this order: the entrants' numbers, the Berger seeds
            person = people[name]
            person.page.goto(url)
            person.page.click("#t-join")
            expect(person.page.locator("#t-leave")).to_be_visible()
            expect(person.page.locator(f'#t-entrants li[data-name="{name}"]')).to_be_visible()
        # bob may not start it: the page shows him no button
        bob = people["bob"]
        bob.page.reload()
        expect(bob.page.locator("#t-entrants li")).to_have_count(4)
        expect(bob.page.locator("#t-start")).to_have_count(0)
        page.reload()
        page.click("#t-start")
        expect(page.locator("#t-status")).to_have_attribute("data-status", "running")
        # FIDE's Berger table of four: 1-4 2-3 / 4-3 1-2 / 2-4 3-1
        expected = {1: [("alice", "dave"), ("bob", "carol")],
                    2: [("dave", "carol"), ("alice", "bob")],
                    3: [("bob", "dave"), ("carol", "alice")]}
        for number in (1, 2, 3):
            watcher = people["alice"]
            watcher.page.goto(url)
            games = current_games(watcher, number)
            assert sorted((f, s) for f, s, _ in games) == sorted(expected[number])
            for first, second, link in games:
                if number == 1 and first == "alice":
                    # a few moves first: alice (White) 0,1, dave (Red) 1,1
                    for person, cell in ((people["alice"], "0,1"), (people["dave"], "1,1")):
                        person.page.goto(person.server.url + "/" + link)
                        person.page.wait_for_selector("#game-view")
                        expect(person.page.locator("#event-line")).to_contain_text(
                            "Winter round robin")
                        expect(person.page.locator("#event-line")).to_contain_text("round 1")
                        expect(person.page.locator("#event-link")).to_have_attribute(
                            "href", url[url.index("#"):])
                        move(person, cell)
                resign(people[second], link)  # the first player wins every game
        page.goto(url)
        expect(page.locator("#t-status")).to_have_attribute("data-status", "finished",
                                                            timeout=30_000)
        rows = page.locator("#t-table .t-standings tbody tr")
        expect(rows).to_have_count(4)
        # alice and bob won twice; alice's beaten (bob 2, dave 1) outweigh bob's (carol
        # 1, dave 1) by Sonneborn-Berger; carol's win (over alice) outweighs dave's
        order = [rows.nth(i).get_attribute("data-name") for i in range(4)]
        assert order == ["alice", "bob", "carol", "dave"]
        points = [rows.nth(i).locator(".t-points").inner_text() for i in range(4)]
        assert points == ["2", "2", "1", "1"]
        # the series score: 50 less the tiles; alice's first win had 4 tiles out
        series = [rows.nth(i).locator(".t-series").inner_text() for i in range(4)]
        assert series == ["94", "96", "48", "48"]
        cross = page.locator('#t-table .t-crosstable tr[data-name="alice"] td')
        assert [cross.nth(i).inner_text() for i in range(4)] == ["×", "1", "0", "1"]
        # everyone sees the same standings
        dave = people["dave"].page
        dave.goto(url)
        expect(dave.locator("#t-table .t-standings tbody tr").first).to_have_attribute(
            "data-name", "alice")
        expect(dave.locator("#t-join")).to_have_count(0)  # it is over: no entries
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "tournament-round-robin.png"), full_page=True)
    finally:
        for person in people.values():
            person.close()
