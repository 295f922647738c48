"""The server mode end to end: the real page in headless Chromium, two people on two
"computers" (two browser contexts, each with its own cookies) and a third who
watches, against a real ``hexgames serve --server`` process.

They sign up, challenge and accept, play a whole game of each game with clocks, ask
for a take-back and refuse it, one player's flag falls, a watcher follows live, a page
is reloaded and the server is killed and restarted mid-game. Screenshots go to
``tests/artifacts/``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from test_web_browser import ARTIFACTS, CHROMIUM
from web_helpers import free_port, wait_for_server

PASSWORD = "correct horse battery"


class ServerMode:
    """``hexgames serve --server`` in a process; :meth:`restart` keeps port and
    database (``kill -9`` first when asked)."""

    def __init__(self, db: Path, args: list[str] | None = None) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = args or []
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    def start(self) -> None:
        command = [sys.executable, "-c", "from hexgames.cli import main; main()", "serve",
                   "--server", "--port", str(self.port), "--db", str(self.db), *self.args]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_for_server(self.process, self.url, self.log)

    def stop(self, *, kill: bool = False) -> None:
        if self.process is None:
            return
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        self.process.wait(10)
        self.process = None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if CHROMIUM is None:
        pytest.skip("no chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerMode]:
    srv = ServerMode(tmp_path / "games.db")
    srv.start()
    yield srv
    srv.stop()


class Person:
    """One person's browser (a context of its own) and page."""

    def __init__(self, browser: Browser, server: ServerMode) -> None:
        self.context: BrowserContext = browser.new_context(viewport={"width": 1280,
                                                                     "height": 860})
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.server = server

    def signup(self, name: str, via: str = "/#/signup") -> None:
        self.page.goto(self.server.url + via)
        # (a page already open changes its view after the goto: typed into the form it
        # showed before, the name would be lost)
        expect(self.page.locator("#signup-form")).to_be_visible()
        self.page.fill("#account-name", name)
        self.page.fill("#account-password", PASSWORD)
        self.page.click("#account-submit")
        expect(self.page.locator("#me-link")).to_have_text(name)

    def api(self, method: str, path: str, data: object = None) -> dict[str, object]:
        """A request with this person's cookies (and the page's Origin)."""
        headers = {"origin": self.server.url}
        request = self.page.request
        if method == "POST":
            answer = request.post(self.server.url + path, data=data or {}, headers=headers)
        else:
            answer = request.get(self.server.url + path)
        assert answer.ok, answer.text()
        result: dict[str, object] = answer.json()
        return result

    def open(self, game_id: str) -> None:
        self.page.goto(f"{self.server.url}/#/game/{game_id}")
        self.page.wait_for_selector("#game-view")

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"JavaScript errors on the page: {self.errors}"


def ply(page: Page) -> int:
    return int(page.get_attribute("#game-view", "data-ply") or "0")


def wait_ply(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "n => { const v = document.querySelector('#game-view');"
        " return v && Number(v.dataset.ply) >= n; }", arg=at_least)


def move(person: Person, cell: str) -> None:
    """Click a cell as a move when it is this person's turn, and wait for it."""
    page = person.page
    page.wait_for_selector("#game-view[data-interactive='true']")
    before = ply(page)
    page.locator(f'#board [data-cell="{cell}"]').click()
    wait_ply(page, before + 1)


def test_two_people_play_andantino_with_clocks_a_watcher_a_refused_take_back_a_reload_and_a_restart(
        browser: Browser, server: ServerMode) -> None:
    alice, bob, carol = (Person(browser, server) for _ in range(3))
    try:
        alice.signup("alice")
        bob.signup("bob")
        carol.signup("carol")
        # alice challenges bob from the lobby: Andantino, 5 minutes + 3 s, she moves first
        page = alice.page
        page.select_option("#ch-game", "andantino")
        page.select_option("#ch-clock", "live")
        page.fill("#ch-minutes", "5")
        page.fill("#ch-increment", "3")
        page.select_option("#ch-color", "first")
        page.fill("#ch-opponent", "bob")
        page.click("#ch-create")
        row = bob.page.locator(".challenge-row[data-creator='alice']")
        expect(row).to_contain_text("5+3", timeout=15_000)  # bob's lobby refreshes itself
        expect(carol.page.locator(".challenge-row")).to_have_count(0)  # it is for bob
        row.locator("button.accept").click()
        bob.page.wait_for_url("**/#/game/*")
        game_id = bob.page.url.rsplit("/", 1)[1]
        expect(bob.page.locator("#account1")).to_have_text("bob (you)")
        expect(bob.page.locator("#status")).to_contain_text("White (alice) to move")
        # alice's lobby takes her to the game (issue 35; the lobby's list of games
        # waiting is tested in test_lobby_browser.py), where it is her move: the title
        # and the icon
        page.wait_for_url(f"**/#/game/{game_id}", timeout=15_000)
        page.wait_for_selector("#game-view[data-interactive='true']")
        expect(page).to_have_title(re.compile(r"^● Your move · Andantino"))
        assert page.get_attribute('link[rel="icon"]', "data-turn") == "true"
        expect(page.locator("#clock0")).to_have_class(re.compile(r"\brunning\b"))
        expect(page.locator("#clock1")).to_have_text("5:00")
        # carol watches: no legal cells, no resign or take-back for her
        carol.open(game_id)
        expect(carol.page.locator("#status")).to_contain_text("White (alice) to move")
        expect(carol.page.locator("#resign")).to_be_hidden()
        expect(carol.page.locator("#board [data-legal]")).to_have_count(0)
        # bob may not move for alice: his board offers nothing
        expect(bob.page.locator("#board [data-legal]")).to_have_count(0)
        move(alice, "0,1")
        expect(carol.page.locator("#moves .move")).to_have_count(1)  # live
        expect(page).not_to_have_title(re.compile("Your move"))
        expect(bob.page.locator("#clock1")).to_have_class(re.compile(r"\brunning\b"))
        move(bob, "1,1")
        # alice asks for a take-back; bob refuses it
        page.click("#undo")
        offer = bob.page.locator("#offer")
        expect(offer).to_contain_text("alice asks to take back the last move")
        expect(page.locator("#offer")).to_contain_text("waiting for the answer")
        bob.page.click("#offer-decline")
        expect(page.locator("#offer-note")).to_contain_text("declined")  # above the board
        expect(offer).to_be_hidden()
        assert [m for m in page.eval_on_selector_all(
            "#moves .move", "els => els.map(e => e.textContent)")] == ["0,1", "1,1"]
        # bob reloads his page mid-game: still his seat and the game as it was
        bob.page.reload()
        bob.page.wait_for_selector("#game-view")
        expect(bob.page.locator("#account1")).to_have_text("bob (you)")
        wait_ply(bob.page, 2)
        move(alice, "0,2")
        move(bob, "1,2")
        # the server is killed mid-game and started again: every page reconnects
        server.stop(kill=True)
        expect(page.locator("#connection")).to_be_visible()
        server.start()
        expect(page.locator("#connection")).to_be_hidden(timeout=15_000)
        expect(carol.page.locator("#connection")).to_be_hidden(timeout=15_000)
        move(alice, "0,3")
        move(bob, "1,-1")
        move(alice, "0,-1")  # five in a row through White's setup tile
        for person in (alice, bob, carol):
            expect(person.page.locator("#result")).to_contain_text("White wins with a line")
        clocks = [float(page.get_attribute(f"#clock{s}", "data-seconds") or 0) for s in (0, 1)]
        assert 250 < clocks[0] <= 300 + 4 * 3 and 250 < clocks[1] <= 300 + 3 * 3
        ARTIFACTS.mkdir(exist_ok=True)
        carol.page.screenshot(path=str(ARTIFACTS / "server-andantino-watcher.png"))
        # the record has the players' names, the time control and the clocks
        record = alice.page.request.get(f"{server.url}/api/games/{game_id}/record").text()
        assert '[White "alice"]' in record and '[Red "bob"]' in record
        assert '[TimeControl "300+3"]' in record and "{[%clk 0:0" in record
    finally:
        for person in (alice, bob, carol):
            person.close()


def test_two_people_play_a_whole_game_of_abande_with_clocks(browser: Browser,
                                                           server: ServerMode) -> None:
    alice, bob = Person(browser, server), Person(browser, server)
    try:
        alice.signup("alice")
        bob.signup("bob")
        made = alice.api("POST", "/api/challenges", {
            "game": "abande", "color": "second", "rated": True,
            "time_control": {"kind": "live", "base": 600, "increment": 5}})
        game = bob.api("POST", f"/api/challenges/{made['id']}/accept")
        game_id = str(game["id"])
        assert game["accounts"] == ["bob", "alice"]  # alice took the second colour
        alice.open(game_id)
        bob.open(game_id)
        people = {0: bob, 1: alice}
        for _ in range(200):
            if bob.page.get_attribute("#game-view", "data-over") == "true":
                break
            turn = int(bob.page.get_attribute("#game-view", "data-turn") or "0")
            person = people[turn]
            page = person.page
            page.wait_for_selector("#game-view[data-interactive='true']")
            before = ply(page)
            entries = page.locator("#board .point.legal")
            if entries.count():
                entries.first.click()
            elif page.locator("#pass").is_visible():
                page.click("#pass")
            else:  # a stack move: choose a stack, then its first target
                page.locator("#board .point.source").first.click()
                page.locator("#board .point.target").first.click()
            wait_ply(bob.page, before + 1)
            wait_ply(alice.page, before + 1)
        assert bob.page.get_attribute("#game-view", "data-over") == "true"
        banner = alice.page.locator("#result")
        expect(banner).to_be_visible()
        expect(banner).to_contain_text(re.compile(r"wins on score|Draw"))
        bob.page.screenshot(path=str(ARTIFACTS / "server-abande-finished.png"))
        # rated: both are on the rating list now
        bob.page.goto(server.url + "/#/ratings/abande")
        expect(bob.page.locator("#ratings-table tbody tr")).to_have_count(2)
    finally:
        alice.close()
        bob.close()


def test_a_flag_falls_and_the_page_warns_first(browser: Browser, server: ServerMode) -> None:
    alice, bob = Person(browser, server), Person(browser, server)
    try:
        alice.signup("alice")
        bob.signup("bob")
        made = alice.api("POST", "/api/challenges", {
            "game": "andantino", "color": "first",
            "time_control": {"kind": "live", "base": 6, "increment": 0}})
        game_id = str(bob.api("POST", f"/api/challenges/{made['id']}/accept")["id"])
        alice.open(game_id)
        bob.open(game_id)
        move(alice, "0,1")
        # bob does not move: his clock warns in its last seconds, then his flag falls
        expect(bob.page.locator("#clock1")).to_have_class(re.compile(r"\blow\b"),
                                                          timeout=10_000)
        bob.page.screenshot(path=str(ARTIFACTS / "server-clock-warning.png"))
        expect(alice.page.locator("#result")).to_have_text("White wins on time",
                                                          timeout=15_000)
        expect(bob.page.locator("#clock1")).to_have_text("0:00.0")
        expect(bob.page.locator("#board [data-legal]")).to_have_count(0)
    finally:
        alice.close()
        bob.close()


def test_an_invitation_link_brings_a_friend_without_an_account(browser: Browser,
                                                               server: ServerMode) -> None:
    alice, friend = Person(browser, server), Person(browser, server)
    try:
        # Links with a malformed escape (they threw URIError: a blank page) say what
        # they say of any unknown token, player or game, logged out and in.
        friend.page.goto(server.url + "/#/invite/%ff")
        expect(friend.page.locator("#invite-gone")).to_be_visible()
        alice.signup("alice")
        for link, card in (("invite", "#invite-gone"), ("user", "#player-gone"),
                           ("game", "#game-gone")):
            alice.page.goto(f"{server.url}/#/{link}/%ff")
            expect(alice.page.locator(card)).to_be_visible()
        alice.page.goto(server.url + "/#/")
        # 1000 minutes: the form says so in minutes (the server's message spoke of
        # "time_control base ... 36000, not 60000", seconds and API names)
        alice.page.fill("#ch-minutes", "1000")
        assert alice.page.eval_on_selector("#ch-minutes", "e => e.validity.rangeOverflow")
        alice.page.eval_on_selector(
            "#challenge-form", "f => f.dispatchEvent(new Event('submit', {cancelable: true}))")
        expect(alice.page.locator("#alerts")).to_contain_text(
            "Minutes must be from 0.05 to 600 (10 hours).")
        # and the message leaves the top bar's links uncovered, on a phone too, where
        # the bar takes several lines
        below_the_bar = """() =>
            document.querySelector('#alerts').getBoundingClientRect().top >=
            document.querySelector('.topbar').getBoundingClientRect().bottom"""
        assert alice.page.evaluate(below_the_bar)
        alice.page.set_viewport_size({"width": 340, "height": 800})
        alice.page.eval_on_selector(
            "#challenge-form", "f => f.dispatchEvent(new Event('submit', {cancelable: true}))")
        assert alice.page.evaluate(below_the_bar)
        alice.page.set_viewport_size({"width": 1280, "height": 860})
        assert alice.api("GET", "/api/challenges")["challenges"] == []
        alice.page.fill("#ch-minutes", "5")
        alice.page.check("#ch-invite")
        alice.page.select_option("#ch-clock", "none")
        alice.page.click("#ch-create")
        link = alice.page.locator("#invite-url")
        expect(link).to_contain_text("/#/invite/")
        friend.page.goto(link.inner_text())
        expect(friend.page.locator("#invite-text")).to_contain_text("alice invites you")
        friend.page.click("#invite-signup")
        friend.page.fill("#account-name", "friend")
        friend.page.fill("#account-password", PASSWORD)
        friend.page.click("#account-submit")
        friend.page.click("#invite-accept")
        friend.page.wait_for_url("**/#/game/*")
        expect(friend.page.locator("#game-view")).to_be_visible()
        names = [friend.page.inner_text(f"#account{s}") for s in (0, 1)]
        assert sorted(n.replace(" (you)", "") for n in names) == ["alice", "friend"]
    finally:
        alice.close()
        friend.close()


def test_a_watchers_side_lines_stay_in_its_page_and_a_finished_game_is_studied_by_its_players(
        browser: Browser, server: ServerMode) -> None:
    """The server mode's study: while two people play, side lines are each page's own
    (marked as such, not saved, not seen by the others); once the game is over its
    players add to the shared study and everyone sees it."""
    alice, bob, carol = (Person(browser, server) for _ in range(3))
    try:
        for person, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            person.signup(name)
        made = alice.api("POST", "/api/challenges", {"game": "andantino", "color": "first"})
        game = bob.api("POST", f"/api/challenges/{made['id']}/accept")
        game_id = str(game["id"])
        for person in (alice, bob, carol):
            person.open(game_id)
        move(alice, "0,1")
        move(bob, "1,1")
        # carol, watching, tries another reply from move 1: a line of her own
        page = carol.page
        page.click('#moves .move[data-ply="1"]')
        page.locator('#board [data-cell="1,-1"]').click()
        expect(page.locator("#moves .side-move.private")).to_have_count(1)
        expect(page.locator("#line-note")).to_contain_text("Your own line")
        expect(page.locator("#review-text")).to_contain_text("side line")
        # nobody else sees it, and the record does not hold it
        expect(alice.page.locator("#moves .side-move")).to_have_count(0)
        record = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
        assert "1,-1" not in record
        # a move of the game keeps carol's line in her page
        move(alice, "-1,1")
        expect(page.locator("#moves .move")).to_have_count(3)
        expect(page.locator("#moves .side-move.private")).to_have_count(1)
        # bob resigns; the finished game is studied by its players, for everyone
        bob.page.click("#resign")
        bob.page.click("#resign")
        expect(alice.page.locator("#result")).to_contain_text("White wins")
        alice.page.click('#moves .move[data-ply="1"]')
        alice.page.locator('#board [data-cell="-1,1"]').click()
        expect(alice.page.locator("#moves .side-move:not(.private)")).to_have_count(1)
        expect(bob.page.locator('#moves .side-move[data-line="0,1 -1,1"]')).to_have_count(1)
        expect(page.locator('#moves .side-move[data-line="0,1 -1,1"]')).to_have_count(1)
        record = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
        assert "(1... -1,1)" in record and "1,-1" not in record
    finally:
        for person in (alice, bob, carol):
            person.close()
