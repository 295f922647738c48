"""The opening explorer, and playing and reading the board without a mouse (issue 35), in
the real page in headless Chromium against a real ``hexgames serve`` whose database holds
games with known results and an imported collection with known ratings."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

from playwright.sync_api import Browser, Page, expect
from test_web_browser import Server, create_game

from hexgames.web.store import GameStore

#: White's line of five through its set-up tile (7 plies).
WIN = ["0,1", "1,1", "0,2", "1,2", "0,3", "1,-1", "0,-1"]
COLLECTION = (
    '[Game "Andantino"]\n[White "Ann"]\n[Red "Ben"]\n[WhiteElo "2000"]\n[RedElo "1800"]\n'
    '[Result "1-0"]\n[Termination "line"]\n\n'
    "1. 0,1 1,1 2. 0,2 1,2 3. 0,3 1,-1 4. 0,-1 1-0\n\n"
    '[Game "Andantino"]\n[White "Cy"]\n[Red "Di"]\n[WhiteElo "1500"]\n[RedElo "1700"]\n'
    '[Result "0-1"]\n[Termination "resignation"]\n\n1. 1,-1 0,1 0-1\n')


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("explorer")
    db = folder / "games.db"
    store = GameStore(db)
    try:  # games that ended before the server starts: its catch-up indexes them
        store.create("andantino", [], ["human", "human"], moves=WIN, result="1-0",
                     termination="line")
        store.create("andantino", [], ["human", "human"], moves=WIN[:4], result="0-1",
                     termination="resignation")
        store.create("andantino", [], ["human", "human"], moves=["1,-1", "0,1"],
                     result="1/2-1/2", termination="agreement")
        store.create("andantino", [], ["human", "human"], moves=WIN[:3])  # running
    finally:
        store.close()
    records = folder / "collection.hgn"
    records.write_text(COLLECTION, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", "from hexgames.cli import cli; cli()",
                           "explorer", "import", str(records), "--db", str(db)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    srv = Server(db)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright
    from test_web_browser import CHROMIUM

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def row(page: Page, move: str) -> dict[str, str | None]:
    locator = page.locator(f'#explorer-table tr[data-move="{move}"]')
    return {key: locator.get_attribute(f"data-{key}")
            for key in ("games", "wins", "draws", "rating")}


def test_the_explorer_shows_counts_scores_and_ratings(page: Page, server: Server) -> None:
    create_game(page, server, "andantino", ["human", "human"])
    page.click("#explorer-toggle")
    expect(page.locator("#explorer-table tr.explorer-move")).to_have_count(2)
    # from the start: 0,1 in two server games (won, lost) and one collection game (won,
    # by players of 2000 and 1800); 1,-1 in the drawn server game and a collection game
    # won by Red (1500 and 1700)
    assert row(page, "0,1") == {"games": "3", "wins": "2,1", "draws": "0", "rating": "1900"}
    assert row(page, "1,-1") == {"games": "2", "wins": "0,1", "draws": "1", "rating": "1600"}
    expect(page.locator("#explorer-summary")).to_contain_text("5 games from this position")
    moves = page.eval_on_selector_all("#explorer-table tr.explorer-move",
                                      "rows => rows.map(r => r.dataset.move)")
    assert moves == ["0,1", "1,-1"]  # the most played first
    # a click plays the move; the table follows the position
    page.click('#explorer-table tr[data-move="0,1"] button')
    expect(page.locator("#game-view")).to_have_attribute("data-ply", "1")
    expect(page.locator('#explorer-table tr[data-move="1,1"]')).to_have_count(1)
    assert row(page, "1,1") == {"games": "3", "wins": "2,1", "draws": "0", "rating": "1900"}
    # the running game counts nowhere: after 0,1 1,1 0,2 only the finished games' 1,2
    page.click('#explorer-table tr[data-move="1,1"] button')
    page.click('#explorer-table tr[data-move="0,2"] button')
    expect(page.locator("#game-view")).to_have_attribute("data-ply", "3")
    expect(page.locator("#explorer-summary")).to_contain_text("3 games from this position")
    assert row(page, "1,2")["games"] == "3"
