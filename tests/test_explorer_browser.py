"""The opening explorer, and playing and reading the board without a mouse (issue 35), in
the real page in headless Chromium against a real ``hexgames serve`` whose database holds
games with known results and an imported collection with known ratings."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

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
    # the collection alone: its two games
    page.select_option("#explorer-source", "collection")
    expect(page.locator("#explorer-summary")).to_contain_text("2 games from this position")
    assert row(page, "0,1") == {"games": "1", "wins": "1,0", "draws": "0", "rating": "1900"}
    page.select_option("#explorer-source", "games")
    expect(page.locator("#explorer-summary")).to_contain_text("3 games from this position")
    assert row(page, "0,1") == {"games": "2", "wins": "1,1", "draws": "0", "rating": ""}
    page.select_option("#explorer-source", "all")
    expect(page.locator("#explorer-summary")).to_contain_text("5 games from this position")
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
    # this game, finished, is indexed: the start's table counts it at once
    for number, move in enumerate(WIN[3:], 4):
        page.locator(f'#board [data-cell="{move}"]').click()
        expect(page.locator("#game-view")).to_have_attribute("data-ply", str(number))
    expect(page.locator("#result")).to_contain_text("White wins")
    page.keyboard.press("Home")
    expect(page.locator("#explorer-summary")).to_contain_text("6 games from this position")
    assert row(page, "0,1") == {"games": "4", "wins": "3,1", "draws": "0", "rating": "1900"}


# --- the board without a mouse: the keyboard and the accessibility tree --------------------

#: A position of Abande with one piece in each hand, Black to move (a random game's).
ABANDE_END = ("abande a1=W a2=W a3=W a4=W b1=B b2=B b3=B b4=B b5=B c1=W c2=B c4=B c5=W "
              "c6=W d1=B d2=B d3=W d4=W d5=W d6=B d7=B e1=W e2=B e3=W e4=W e6=B f2=W f3=B "
              "f4=W f5=W g1=B g2=W g3=B g4=B turn=b hands=b1,w1")
ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


def focused_cell(page: Page) -> str | None:
    return page.evaluate("() => document.activeElement?.dataset?.cell ?? null")


def arrow_target(centres: dict[str, tuple[float, float]], at: str,
                 step: tuple[int, int]) -> str | None:
    """Where an arrow key takes the cursor from ``at`` (board.js's rule: the nearest
    drawn cell within about 60 degrees of the key's direction, the upper of two as
    near)."""
    x0, y0 = centres[at]
    dx, dy = step
    best, score, best_y = None, float("inf"), float("inf")
    for cell, (x, y) in centres.items():
        if cell == at:
            continue
        vx, vy = x - x0, y - y0
        along = vx * dx + vy * dy
        across = abs(vx * dy - vy * dx)
        if along <= 0.1 or across > along * 1.8:
            continue
        d = along + across * 2
        # the centres read from the drawing are rounded to 0.01: a tie within 0.1
        if d < score - 0.1 or (abs(d - score) < 0.1 and y < best_y - 0.1):
            best, score, best_y = cell, d, y
    return best


def key_to(page: Page, cell: str) -> None:
    """Move the board's focus to ``cell`` with the arrow keys only (the shortest way, as
    the keys move), checking each step, then press Enter."""
    centres = {c: (x, y) for c, x, y in page.eval_on_selector_all(
        "#board [data-cell] > .hex, #board [data-cell] > .hit",
        "els => els.map(e => { const b = e.getBBox(); "
        "return [e.parentNode.dataset.cell, b.x + b.width / 2, b.y + b.height / 2]; })")}
    start = focused_cell(page)
    assert start is not None, "the board has no focus"
    paths: dict[str, list[str]] = {start: []}
    queue = [start]
    while queue and cell not in paths:
        at = queue.pop(0)
        for key, step in ARROWS.items():
            to = arrow_target(centres, at, step)
            if to is not None and to not in paths:
                paths[to] = [*paths[at], key]
                queue.append(to)
    assert cell in paths, f"{cell} cannot be reached by the arrows from {start}"
    seen = [start]
    for key in paths[cell]:
        page.keyboard.press(key)
        seen.append(f"{key}->{focused_cell(page)}")
    assert focused_cell(page) == cell, (paths[cell], seen, {c: centres.get(c) for c in
                                                            (start, cell, "0,2", "0,3")})
    page.keyboard.press("Enter")


def test_andantino_is_played_and_read_with_the_keyboard_alone(page: Page,
                                                              server: Server) -> None:
    create_game(page, server, "andantino", ["human", "human"])
    page.keyboard.press("b")  # the board's shortcut: the focus on its cursor's cell
    assert focused_cell(page) is not None
    # every cell is a button named by its coordinate and content
    expect(page.get_by_role("button", name="0,0, White tile", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="1,0, Red tile", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="0,1, empty, place a tile")).to_have_count(1)
    for number, move in enumerate(WIN, 1):
        key_to(page, move)
        expect(page.locator("#game-view")).to_have_attribute("data-ply", str(number))
        if number < len(WIN):
            mover = "White" if number % 2 else "Red"
            expect(page.locator("#announcer")).to_have_text(
                f"{mover} played {move}. {'Red' if mover == 'White' else 'White'} to move.")
    expect(page.locator("#result")).to_contain_text("White wins with a line")
    expect(page.locator("#announcer")).to_have_text(
        "White played 0,-1. White wins with a line of five.")
    snapshot = page.locator("#board").aria_snapshot()
    assert '- button "0,-1, White tile, in the winning line, last move"' in snapshot
    assert '- button "1,-1, Red tile"' in snapshot
    assert page.get_by_role("status").filter(has_text="White wins").count() == 1


def test_abande_is_played_to_its_end_with_the_keyboard_alone(page: Page,
                                                             server: Server) -> None:
    answer = page.request.post(server.url + "/api/games", data={
        "game": "abande", "players": ["human", "human"], "position": ABANDE_END})
    assert answer.status == 201, answer.text()
    page.goto(f"{server.url}/#/game/{answer.json()['id']}")
    expect(page.locator("#game-view")).to_have_attribute("data-ply", "0")
    page.keyboard.press("b")
    expect(page.get_by_role("button", name="c4, Black piece, choose this stack")) \
        .to_have_count(1)
    expect(page.get_by_role("button", name="c3, empty, enter a piece")).to_have_count(1)
    key_to(page, "c3")  # Black enters its last piece
    expect(page.locator("#game-view")).to_have_attribute("data-ply", "1")
    key_to(page, "e5")  # White too
    expect(page.locator("#game-view")).to_have_attribute("data-ply", "2")
    # a capture is two steps: the stack, then its target
    key_to(page, "c4")
    expect(page.get_by_role("button", name="c4, Black piece, picked up: press Enter to "
                            "put it back")).to_have_count(1)
    expect(page.locator('#board [data-cell="d4"].target')).to_have_count(1)
    key_to(page, "d4")
    expect(page.locator("#game-view")).to_have_attribute("data-ply", "3")
    expect(page.get_by_role("button", name="d4, Black stack of 2 (from the bottom: "
                            "White, Black), last move")).to_have_count(1)
    expect(page.locator("#announcer")).to_have_text("Black played c4-d4. White to move.")
    # both pass: Tab to the pass button, Enter, twice
    for number in (4, 5):
        for _ in range(80):
            if page.evaluate("() => document.activeElement?.id") == "pass":
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        expect(page.locator("#game-view")).to_have_attribute("data-ply", str(number))
    expect(page.locator("#game-view")).to_have_attribute("data-over", "true")
    banner = page.locator("#result").inner_text()
    assert banner.split(" · ")[0] in page.locator("#announcer").inner_text()
    assert page.locator("#announcer").inner_text().startswith("Black played pass.")


# --- study: the player's arrows and circles, promoting a side line ---------------------------


def cell_centre(page: Page, cell: str) -> tuple[float, float]:
    """The centre of a cell on the board, once it is drawn (a board drawn again, as when
    a panel's answer comes in, has it for a moment nowhere)."""
    hexagon = page.locator(f'#board [data-cell="{cell}"] > .hex')
    expect(hexagon).to_be_visible()
    box = hexagon.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def game_of_three_moves(page: Page, server: Server) -> str:
    """A new game of two people, 1. 0,1 1,1 2. 0,2 played by clicks; its id."""
    game_id = create_game(page, server, "andantino", ["human", "human"])
    for number, move in enumerate(WIN[:3], 1):
        page.locator(f'#board [data-cell="{move}"]').click()
        expect(page.locator("#game-view")).to_have_attribute("data-ply", str(number))
    return game_id


def right_click_with_shift(page: Page, cell: str) -> None:
    page.keyboard.down("Shift")
    page.locator(f'#board [data-cell="{cell}"]').click(button="right")
    page.keyboard.up("Shift")


def test_arrows_and_circles_are_drawn_and_kept_in_the_record(page: Page,
                                                            server: Server) -> None:
    game_id = game_of_three_moves(page, server)
    # back at the position after 1. 0,1 1,1 (a past position: the marks go to move 1...)
    page.click('#moves .move[data-ply="2"]')
    expect(page.locator("#game-view")).to_have_attribute("data-shown-ply", "2")
    # a right drag from White's tile 0,1 to Red's 1,1: a green arrow
    x1, y1 = cell_centre(page, "0,1")
    x2, y2 = cell_centre(page, "1,1")
    page.mouse.move(x1, y1)
    page.mouse.down(button="right")
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up(button="right")
    expect(page.locator('#board [data-mark="G0,1>1,1"]')).to_have_count(1)
    right_click_with_shift(page, "0,0")  # a red circle
    expect(page.locator('#board [data-mark="R0,0"]')).to_have_count(1)
    record = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert "1. 0,1 1,1 {[%csl R0,0] [%cal G0,1>1,1]} 2. 0,2" in record, record
    # the marks belong to that position: not drawn at the live one, back when it is shown
    page.keyboard.press("End")
    expect(page.locator("#board [data-mark]")).to_have_count(0)
    page.click('#moves .move[data-ply="2"]')
    expect(page.locator("#board [data-mark]")).to_have_count(2)
    right_click_with_shift(page, "0,0")  # the same again takes the circle away
    expect(page.locator('#board [data-mark="R0,0"]')).to_have_count(0)
    record = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert "1. 0,1 1,1 {[%cal G0,1>1,1]} 2. 0,2" in record, record


def test_a_side_line_is_promoted(page: Page, server: Server) -> None:
    game_id = game_of_three_moves(page, server)
    # a side line 1... 1,-1 from the position after 1. 0,1, then two replies to it
    page.click('#moves .move[data-ply="1"]')
    page.locator('#board [data-cell="1,-1"]').click()
    expect(page.locator("#game-view")).to_have_attribute("data-line", "0,1 1,-1")
    page.locator('#board [data-cell="2,-1"]').click()
    expect(page.locator("#game-view")).to_have_attribute("data-line", "0,1 1,-1 2,-1")
    page.keyboard.press("ArrowLeft")
    page.locator('#board [data-cell="0,-1"]').click()
    expect(page.locator("#game-view")).to_have_attribute("data-line", "0,1 1,-1 0,-1")
    record = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert "(1... 1,-1 2. 2,-1 (2. 0,-1))" in record, record
    # promoted, 2. 0,-1 becomes the side line's main continuation
    page.click("#line-promote")
    page.wait_for_function(
        """url => fetch(url).then(r => r.text()).then(t => t.includes("2. 0,-1 (2. 2,-1)"))""",
        arg=f"{server.url}/api/games/{game_id}/record")
    record = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert "(1... 1,-1 2. 0,-1 (2. 2,-1))" in record, record
    expect(page.locator("#line-promote")).to_be_disabled()  # first of its position now
    # a line inside that side line, made its main line and then the side line's
    page.locator('#board [data-cell="1,-2"]').click()
    expect(page.locator("#game-view")).to_have_attribute("data-line", "0,1 1,-1 0,-1 1,-2")
    page.keyboard.press("ArrowLeft")
    page.locator('#board [data-cell="-1,0"]').click()
    expect(page.locator("#game-view")).to_have_attribute("data-line", "0,1 1,-1 0,-1 -1,0")
    page.click("#line-first")
    page.wait_for_function(
        """url => fetch(url).then(r => r.text()).then(t => t.includes("2... -1,0 (2... 1,-2)"))""",
        arg=f"{server.url}/api/games/{game_id}/record")
    expect(page.locator("#line-first")).to_be_disabled()


def test_accuracy_and_the_best_move_of_the_analysis(page: Page, server: Server) -> None:
    create_game(page, server, "andantino", ["human", "human"])
    for number, move in enumerate(WIN, 1):
        page.locator(f'#board [data-cell="{move}"]').click()
        expect(page.locator("#game-view")).to_have_attribute("data-ply", str(number))
    page.click("#analyse-game")
    accuracy = page.locator("#accuracy")
    expect(accuracy).to_be_visible(timeout=60_000)
    expect(accuracy).to_contain_text("Accuracy: White")
    first = float(accuracy.get_attribute("data-first") or "nan")
    second = float(accuracy.get_attribute("data-second") or "nan")
    assert 0 <= first <= 100 and 0 <= second <= 100
    # the analysis on, its best move is drawn on the board of the position on view
    page.click('#moves .move[data-ply="6"]')  # White to move: 0,-1 wins
    page.locator("label.switch").click()
    expect(page.locator("#board [data-best]")).to_have_count(1, timeout=30_000)
    expect(page.locator("#board [data-best]")).to_have_attribute("data-best", "0,-1")
    page.locator("label.switch").click()
    expect(page.locator("#board [data-best]")).to_have_count(0)
