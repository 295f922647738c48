"""The study board in headless Chromium (issue 12): the real page against a real server
(``tests/study_server.py``: the app with the fake analyst ``LinesPlayer`` of
``fake_players.py`` as its helper, so analyses are instant and exact), checked from the
DOM. One test for each item of the issue and for each bug of its first list; each bug's
test failed on the page before the fix (see the test's docstring)."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

from playwright.sync_api import Browser, Page, expect, sync_playwright
from test_web_browser import ARTIFACTS, CHROMIUM
from web_helpers import free_port, wait_for_server

from hexgames import abande, andantino, record


class StudyServer:
    """``tests/study_server.py`` in a process of its own, on a free port; ``helper``:
    another helper spec than its fake analyst's (``lines:mate=13``)."""

    def __init__(self, db: Path, helper: str | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = db.with_suffix(".log")
        script = Path(__file__).parent / "study_server.py"
        # HEXGAMES_TEST_STATIC: serve another page (an older one: its bugs' tests fail)
        static = os.environ.get("HEXGAMES_TEST_STATIC")
        extra = ["--static", static] if static else []
        if helper is not None:
            extra += ["--helper", helper]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(script), "--port", str(self.port), "--db", str(db),
                 *extra], stdout=log, stderr=subprocess.STDOUT)
        wait_for_server(self.process, self.url, self.log)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudyServer]:
    srv = StudyServer(tmp_path_factory.mktemp("study") / "games.db")
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _page(browser: Browser, **options: Any) -> Iterator[Page]:
    context = browser.new_context(accept_downloads=True, **options)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, viewport={"width": 1280, "height": 860})


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    yield from _page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                     has_touch=True)


# ---- helpers ---------------------------------------------------------------------------


def create(page: Page, server: StudyServer, game: str, players: list[str] | None = None,
           rules: dict[str, Any] | None = None, position: str | None = None) -> str:
    body: dict[str, Any] = {"game": game, "players": players or ["human", "human"],
                            "rules": rules or {}}
    if position is not None:
        body["position"] = position
    answer = page.request.post(server.url + "/api/games", data=body)
    assert answer.status == 201, answer.text()
    game_id = str(answer.json()["id"])
    open_game(page, server, game_id)
    return game_id


def open_game(page: Page, server: StudyServer, game_id: str, query: str = "") -> None:
    page.goto(f"{server.url}/#/game/{game_id}{query}")
    page.wait_for_selector("#game-view[data-connected='true']")
    page.wait_for_function("document.querySelector('#game-view').dataset.ply !== undefined")


def import_text(page: Page, server: StudyServer, text: str) -> str:
    answer = page.request.post(server.url + "/api/import", data={"text": text})
    assert answer.status == 201, answer.text()
    [game_id] = answer.json()["ids"]
    return str(game_id)


def data(page: Page, key: str) -> str:
    return str(page.get_attribute("#game-view", f"data-{key}"))


def ply(page: Page) -> int:
    return int(data(page, "ply"))


def wait_ply(page: Page, n: int) -> None:
    page.wait_for_function(
        "n => { const v = document.querySelector('#game-view');"
        " return v && Number(v.dataset.ply) === n && (v.dataset.interactive === 'true'"
        " || v.dataset.over === 'true' || v.dataset.reviewing === 'true'); }", arg=n)


def play(page: Page, move: str) -> None:
    """Play a move of the game on the board (the live position)."""
    before = ply(page)
    abande_move = re.fullmatch(r"[a-g][0-9]-[a-g][0-9]", move)
    cells = move.split("-") if abande_move else move.split(">")
    for cell in cells:
        page.locator(f'#board [data-cell="{cell}"]').first.click()
    wait_ply(page, before + 1)


def shown_line(page: Page) -> list[str]:
    line = data(page, "line")
    return line.split(" ") if line else []


def wait_line(page: Page, line: list[str]) -> None:
    expect(page.locator("#game-view")).to_have_attribute("data-line", " ".join(line))


def board_after(game: str, moves: list[str], position: str | None = None,
                rules: Any = None) -> Any:
    module = andantino if game == "andantino" else abande
    board = module.Board(position, rules)
    for move in moves:
        board.push_notation(move)
    return board


def best_of(board: Any, count: int = 1) -> list[str]:
    """The fake analyst's best lines: the legal moves in notation order."""
    return sorted(m.notation() for m in board.legal_moves)[:count]


def boxes_overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def luminance(css: str) -> float:
    """WCAG 2's relative luminance of a computed ``rgb(...)`` colour."""
    r, g, b = (int(v) / 255 for v in re.findall(r"[0-9.]+", css)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG 2's contrast ratio of two computed colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


STUDY = """[Game "Andantino"]
[Event "Club evening"]
[Site "Lisbon"]
[Date "2026.11.29"]
[Round "3"]
[White "Alice"]
[Red "Bob"]
[Result "1-0"]
[Termination "line"]
[Annotator "Carol"]

{A short game} 1. 0,1 1,1 2. -1,1! (2. 2,0 {is calmer} 2... 2,-1 (2... -1,1 $14)) 2...
-1,0 $14 {Red waits} 3. 0,-1 (3. -1,2?! 1,-1 (3... 0,2)) 3... 1,-1 4. 0,2 -1,-1 5. 0,-2
{and wins} 1-0
"""


# ---- analysis follows the board ---------------------------------------------------------


def test_a_review_shows_one_position_board_panel_and_analysis_alike(
        page: Page, server: StudyServer) -> None:
    """Issue 12: reviewing showed the reviewed board beside the current position's
    hands, points and best line."""
    moves = ["d4", "d5", "d3", "d5-d4", "c4", "e4"]
    create(page, server, "abande")
    for move in moves:
        play(page, move)
    page.locator("label.switch").click()
    expect(page.locator("#analysis")).to_be_visible()
    for at in (2, 4, 0):
        if at:
            page.click(f'#moves .move[data-ply="{at}"]')
        else:
            page.keyboard.press("Home")
        board = board_after("abande", moves[:at])
        # the board
        expect(page.locator("#board .point.stack")).to_have_count(len(board.stacks()))
        # the panel: hands and points of that position
        for side in (0, 1):
            expect(page.locator(f'#player{side} [data-stat="hand"] b')).to_have_text(
                str(board.hands[side]))
            expect(page.locator(f"#score{side}")).to_have_text(str(board.score()[side]))
        # the analysis: of that position, its best move (the fake's) legal there
        expect(page.locator("#pv")).to_contain_text(f"Best line: {best_of(board)[0]}")
        expect(page.locator("#analysis")).to_have_attribute("data-position",
                                                             board.position())
    screenshot(page, "study-review.png")


def test_the_start_of_a_finished_game_is_analysed_not_its_end(
        page: Page, server: StudyServer) -> None:
    """Issue 12: reviewing the start of a finished game still showed the final best line."""
    game_id = import_text(page, server, STUDY)
    open_game(page, server, game_id)
    page.locator("label.switch").click()
    page.keyboard.press("Home")
    start = andantino.Board()
    expect(page.locator("#pv")).to_contain_text(f"Best line: {best_of(start)[0]}")
    expect(page.locator("#analysis")).to_have_attribute("data-position", start.position())
    # several lines on request (MultiPV), each with its winning chance
    page.select_option("#analysis-lines", "3")
    lines = page.locator("#pv-lines .pv-line")
    expect(lines).to_have_count(2)  # the start has two legal moves
    assert [lines.nth(i).locator(".pv-moves").inner_text().split()[0] for i in range(2)] == \
        best_of(start, 2)
    page.keyboard.press("ArrowRight")
    after = board_after("andantino", ["0,1"])
    expect(lines).to_have_count(3)
    assert [lines.nth(i).locator(".pv-moves").inner_text().split()[0] for i in range(3)] == \
        best_of(after, 3)


def test_the_arrow_keys_work_after_the_analysis_switch(page: Page, server: StudyServer) -> None:
    """Issue 12: after using the Analysis switch, Home and the arrows did nothing until
    one clicked elsewhere (the switch's checkbox kept the keys)."""
    create(page, server, "andantino")
    for move in ["0,1", "1,1", "-1,1"]:
        play(page, move)
    page.locator("label.switch").click()
    expect(page.locator("#analysis-toggle")).to_be_focused()
    tiles = page.locator("#board .tile")
    page.keyboard.press("Home")
    expect(tiles).to_have_count(2)
    page.keyboard.press("ArrowRight")
    expect(tiles).to_have_count(3)
    page.keyboard.press("End")
    expect(tiles).to_have_count(5)
    expect(page.locator("#game-view")).to_have_attribute("data-reviewing", "false")


# ---- side lines -----------------------------------------------------------------------


def test_a_side_line_is_made_navigated_promoted_annotated_and_exported(
        page: Page, server: StudyServer, tmp_path: Path) -> None:
    game_id = create(page, server, "andantino")
    main = ["0,1", "1,1", "-1,1", "-1,0"]
    for move in main:
        play(page, move)
    page.click('#moves .move[data-ply="1"]')
    wait_line(page, ["0,1"])
    # a move from an earlier position: a side line, not a move of the game
    page.locator('#board [data-cell="1,-1"]').click()
    wait_line(page, ["0,1", "1,-1"])
    page.locator('#board [data-cell="2,-1"]').click()
    wait_line(page, ["0,1", "1,-1", "2,-1"])
    assert [m.inner_text() for m in page.locator("#moves .move").all()] == main
    side = page.locator("#moves .side-move")
    expect(side).to_have_count(2)
    expect(page.locator("#review-text")).to_contain_text("side line")
    # navigate it by keys and clicks
    page.keyboard.press("ArrowLeft")
    wait_line(page, ["0,1", "1,-1"])
    page.keyboard.press("ArrowRight")
    wait_line(page, ["0,1", "1,-1", "2,-1"])
    page.click('#moves .side-move[data-line="0,1 1,-1"]')
    wait_line(page, ["0,1", "1,-1"])
    # a second side line from the same position, switched to with the arrow keys
    page.click('#moves .move[data-ply="1"]')
    page.locator('#board [data-cell="-1,1"]').click()
    wait_line(page, ["0,1", "-1,1"])
    page.keyboard.press("ArrowUp")
    wait_line(page, ["0,1", "1,-1"])
    page.keyboard.press("ArrowDown")
    wait_line(page, ["0,1", "-1,1"])
    # promoted before the first one; the game's move stays first
    page.click("#line-promote")
    expect(page.locator(".variations .variation-line").first).to_contain_text("-1,1")
    expect(page.locator("#line-promote")).to_be_disabled()
    # a NAG and a comment on it
    page.click("#nag-5")
    expect(page.locator('#moves .side-move[data-line="0,1 -1,1"] .nag')).to_have_text("!?")
    page.fill("#comment-text", "worth a look")
    page.click("#comment-save")
    expect(page.locator("#moves .move-comment")).to_have_text("worth a look")
    # the game is as it was, and the export holds the lines in their order
    assert [m.inner_text() for m in page.locator("#moves .move").all()] == main
    with page.expect_download() as download:
        page.click("#export-hgn")
    saved = tmp_path / "study.hgn"
    download.value.save_as(saved)
    text = " ".join(saved.read_text().split())
    assert "1. 0,1 1,1 (1... -1,1!? {worth a look}) (1... 1,-1 2. 2,-1) 2. -1,1 -1,0" in text
    # deleted again
    page.click('#moves .side-move[data-line="0,1 1,-1"]')
    page.click("#line-delete")
    expect(page.locator("#moves .side-move")).to_have_count(1)
    record_text = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert "1,-1 2. 2,-1" not in " ".join(record_text.split())
    screenshot(page, "study-side-lines.png")


def test_a_read_only_link_plays_nothing_until_one_goes_back_to_the_game(
        page: Page, server: StudyServer) -> None:
    game_id = create(page, server, "andantino", ["human", "human"])
    for move in ["0,1", "1,1"]:
        play(page, move)
    open_game(page, server, game_id, "?ply=1")
    wait_line(page, ["0,1"])
    expect(page.locator("#review-text")).to_contain_text("read-only")
    expect(page.locator("#board [data-legal]")).to_have_count(0)
    page.locator('#board [data-cell="0,0"]').click()
    expect(page.locator("#alerts")).to_contain_text("read-only")
    expect(page.locator("#moves .side-move")).to_have_count(0)
    page.click("#review-exit")
    expect(page.locator("#game-view")).to_have_attribute("data-reviewing", "false")
    expect(page.locator("#game-view")).to_have_attribute("data-read-only", "false")


# ---- records ------------------------------------------------------------------------------


def test_import_and_export_give_the_record_back_byte_for_byte(
        page: Page, server: StudyServer, tmp_path: Path) -> None:
    """Issue 12: an import threw away the player names, Event, Date, the other tags and
    every comment; export then wrote "Human", "hexgames web game" and today's date."""
    page.goto(server.url + "/")
    page.fill("#import-text", STUDY)
    page.click("#import-button")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#game-view[data-connected='true']")
    expect(page.locator("#account0")).to_contain_text("Alice")
    expect(page.locator("#account1")).to_contain_text("Bob")
    expect(page.locator("#event-line")).to_contain_text("Club evening · Lisbon · 2026.11.29")
    expect(page.locator("#moves .move-comment").first).to_be_visible()
    expect(page.locator("#moves .comment-row").first).to_have_text("A short game")
    with page.expect_download() as download:
        page.click("#export-hgn")
    saved = tmp_path / "back.hgn"
    download.value.save_as(saved)
    assert saved.read_text() == record.write_game(record.read_game(STUDY))


def test_a_dropped_record_file_is_imported(page: Page, server: StudyServer) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#start-view")
    page.evaluate("""text => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], "study.hgn", { type: "text/plain" }));
        const init = { dataTransfer: dt, bubbles: true, cancelable: true };
        window.dispatchEvent(new DragEvent("dragover", init));
        window.dispatchEvent(new DragEvent("drop", init));
    }""", STUDY)
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#game-view[data-connected='true']")
    expect(page.locator("#account0")).to_contain_text("Alice")
    assert [m.inner_text() for m in page.locator("#moves .move").all()] == \
        list(record.read_game(STUDY).moves)


def test_names_are_entered_in_the_page_and_people_are_persons(
        page: Page, server: StudyServer) -> None:
    """Issue 12: records said "Human" where the page says "Person", and names could not
    be entered."""
    game_id = create(page, server, "andantino", ["human", "random"])
    text = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert '[White "You"]' in text  # issue 35: as the page says
    expect(page.locator("#account0")).to_have_text("You")
    page.click("#edit-names")
    page.fill("#name0", "Ada")
    page.click("#names-save")
    expect(page.locator("#account0")).to_contain_text("Ada")
    text = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert '[White "Ada"]' in text and '[Red "hexgames random"]' in text
    # A long name with no space (the field takes 100 characters) stays inside its
    # card: it pushed the tile count out of view.
    page.click("#edit-names")
    page.fill("#name0", "W" * 100)
    page.click("#names-save")
    expect(page.locator("#account0")).to_contain_text("W" * 100)
    assert page.eval_on_selector("#player0 .stats", """e => {
        const right = (x) => x.getBoundingClientRect().right;
        const card = e.closest('.player-card'), panel = e.closest('.panel');
        return right(e) <= right(card) + 0.5 && right(card) <= right(panel) + 0.5;
    }""")


# ---- the whole game --------------------------------------------------------------------


def test_the_evaluation_graph_of_a_finished_game_goes_to_a_position(
        page: Page, server: StudyServer) -> None:
    game_id = import_text(page, server, STUDY)
    open_game(page, server, game_id)
    page.click("#analyse-game")
    graph = page.locator("#eval-graph")
    expect(graph).to_be_visible()
    moves = list(record.read_game(STUDY).moves)
    # the fake analyst's blunders: the moves into and out of the positions after 2, 6 plies
    marks = page.locator("#eval-graph .graph-mark")
    expect(marks).to_have_count(4)
    assert sorted(int(m.get_attribute("data-ply") or 0) for m in marks.all()) == [2, 3, 6, 7]
    expect(page.locator("#mistakes .mistake")).to_have_count(4)
    expect(page.locator("#mistakes .mistake").first).to_contain_text("blunder")
    # a click on the graph goes to the position under it
    box = graph.bounding_box()
    assert box is not None
    ply_at = 3
    x = box["x"] + 4 / 300 * box["width"] + (box["width"] * (292 / 300)) * ply_at / len(moves)
    page.mouse.click(x, box["y"] + box["height"] / 2)
    wait_line(page, moves[:ply_at])
    expect(page.locator("#eval-graph .graph-now")).to_have_count(1)
    page.locator("#mistakes .mistake button").last.click()
    wait_line(page, moves[:7])
    # written into the record
    page.click("#annotate")
    # each evaluation beside its move (the last ended the game: no search after it),
    # none raw in the comments (issue 35)
    expect(page.locator("#moves .move-eval")).to_have_count(len(moves) - 1)
    assert "[%" not in (page.locator("#moves").text_content() or "")
    text = page.request.get(f"{server.url}/api/games/{game_id}/record").text()
    assert "[%eval" in text and '[Annotator "hexgames lines' in text
    screenshot(page, "study-graph.png")


# ---- share and set up ------------------------------------------------------------------


def test_a_game_from_a_pasted_position_numbers_the_second_players_move_as_such(
        page: Page, server: StudyServer) -> None:
    """Issue 12: a game from a set-up position with Red to move listed Red's move in
    White's column as move 1, and the header said "standard rules"."""
    position = "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24"
    page.goto(server.url + "/")
    page.click("#setup-details summary")
    page.fill("#start-position", position)
    page.select_option("#player0", "human")
    page.select_option("#player1", "human")
    page.click("#start-game")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#game-view[data-connected='true']")
    expect(page.locator("#board .tile")).to_have_count(3)
    expect(page.locator("#status")).to_contain_text("Red to move")
    expect(page.locator("#rules-line")).to_contain_text("set-up position")
    play(page, "1,1")
    row = page.locator("#moves .move-row").first
    expect(row.locator(".move-no")).to_have_text("1.")
    expect(row.locator(".move-gap")).to_have_count(1)  # White's column: nothing
    children = row.evaluate("r => [...r.children].map(c => c.className)")
    assert children[:2] == ["move-no", "move-gap"]
    expect(row.locator(".move")).to_have_attribute("aria-label", "Move 1 Red 1,1")
    play(page, "-1,1")
    expect(page.locator("#moves .move-row").nth(1).locator(".move-no")).to_have_text("2.")
    # copy the position on view, start a new game from it
    page.click('#moves .move[data-ply="1"]')
    after = board_after("andantino", ["1,1"], position)
    expect(page.locator("#position-text")).to_have_value(after.position())
    page.click("#copy-position")
    assert page.evaluate("navigator.clipboard.readText()") == after.position()
    page.click("#new-from-here")
    page.select_option("#from-player0", "human")
    page.select_option("#from-player1", "human")
    old_game = data(page, "game-id")  # read before the click: the new game may open at once
    page.click("#from-here-start")
    page.wait_for_function(f"!location.hash.includes('{old_game}')")
    page.wait_for_selector("#game-view[data-connected='true']")
    expect(page.locator("#board .tile")).to_have_count(4)
    expect(page.locator("#position-text")).to_have_value(after.position())


def test_a_read_only_link_opens_the_game_at_its_ply(page: Page, server: StudyServer) -> None:
    game_id = create(page, server, "andantino")
    for move in ["0,1", "1,1", "-1,1"]:
        play(page, move)
    page.click('#moves .move[data-ply="2"]')
    page.click("#copy-link")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == f"{server.url}/#/game/{game_id}?ply=2"
    page.goto(link)
    page.wait_for_selector("#game-view[data-connected='true']")
    wait_line(page, ["0,1", "1,1"])
    expect(page.locator("#board [data-legal]")).to_have_count(0)
    expect(page.locator("#board .tile")).to_have_count(4)


def test_the_picture_of_a_position_downloads_under_its_name(
        page: Page, server: StudyServer) -> None:
    """Issue 12: "Position SVG" downloaded as svg.svg."""
    game_id = create(page, server, "andantino")
    for move in ["0,1", "1,1"]:
        play(page, move)
    page.click('#moves .move[data-ply="1"]')
    with page.expect_download() as download:
        page.click("#export-svg")
    assert download.value.suggested_filename == f"andantino-{game_id}-ply1.svg"


# ---- rules help on the board -----------------------------------------------------------


def test_abande_stacks_that_can_capture_are_ringed_and_sleeping_ones_shown_on_request(
        phone: Page, server: StudyServer) -> None:
    """Issue 12: nothing showed which stacks can capture (an outline on hover only; on a
    phone never)."""
    page = phone
    moves = ["d4", "d5", "d3", "c4", "e4"]
    create(page, server, "abande")
    for move in moves:
        page.locator(f'#board [data-cell="{move}"]').first.tap()
        wait_ply(page, moves.index(move) + 1)
    board = board_after("abande", moves)
    sources = sorted({m.notation().split("-")[0] for m in board.legal_moves
                      if "-" in m.notation()})
    rings = page.locator("#board .can-move-ring")
    expect(rings).to_have_count(len(sources))
    assert sorted(r.get_attribute("data-ring") or "" for r in rings.all()) == sources
    page.locator(f'#board [data-cell="{sources[0]}"]').tap()
    targets = sorted(m.notation().split("-")[1] for m in board.legal_moves
                     if m.notation().startswith(sources[0] + "-"))
    # (the page asks the server for the stack's targets: wait for them)
    expect(page.locator("#board .point.target")).to_have_count(len(targets))
    assert sorted(t.get_attribute("data-cell") or "" for t in
                  page.locator("#board .point.target").all()) == targets
    # the stacks that would sleep now, on request
    expect(page.locator("#board .point.sleeping")).to_have_count(0)
    page.click("#show-sleeping")
    from hexgames.abande import cell_name
    asleep = sorted(cell_name(c) for c in board.sleeping())
    assert sorted(p.get_attribute("data-cell") or "" for p in
                  page.locator("#board .point.sleeping").all()) == asleep
    screenshot(page, "study-abande-rings.png")


def test_the_balance_variants_single_touch_cells_are_drawn_apart(
        page: Page, server: StudyServer) -> None:
    """Issue 12: with the balance variant Red's single-touch placements looked like every
    other legal cell, and nothing said whether the right was still there."""
    create(page, server, "andantino", rules={"single_adjacency": True})
    play(page, "0,1")
    expect(page.locator("#board [data-legal]")).to_have_count(9)
    single = page.locator("#board .empty.single-touch")
    expect(single).to_have_count(6)
    expect(page.locator("#board .single-ring")).to_have_count(6)
    expect(page.locator("#single-status")).to_contain_text("unused")
    cell = single.first.get_attribute("data-cell") or ""
    board = board_after("andantino", ["0,1"], rules=andantino.Rules(single_adjacency=True))
    occupied = board.tiles(0) | board.tiles(1)
    from hexgames.hexgrid import neighbours
    target = andantino.Move.from_notation(cell).to
    assert sum(n in occupied for n in neighbours(target)) == 1
    play(page, cell)
    expect(page.locator("#single-status")).to_contain_text("has used")
    expect(page.locator("#board .empty.single-touch")).to_have_count(0)


def test_the_rules_pages_describe_both_games_and_the_levels(
        page: Page, server: StudyServer) -> None:
    page.goto(server.url + "/")
    page.locator("label:has(#game-abande)").click()
    page.click("#rules-link")
    expect(page.locator("#rules-page")).to_have_attribute("data-game", "abande")
    expect(page.locator("#rules-page")).to_contain_text("awake")
    levels = page.locator("#levels-list li")
    expect(levels).to_have_count(4)
    expect(levels.nth(2)).to_contain_text("15 points")
    # the whole rulebook, served, at this game's part (it named RULES.md, which a player
    # cannot open)
    expect(page.locator("#rules-page")).not_to_contain_text("RULES.md")
    page.click("#full-rules")
    expect(page).to_have_url(f"{server.url}/docs/rules#abande")
    expect(page.locator("#doc h2#abande")).to_be_in_viewport()
    expect(page.locator("#doc")).to_contain_text("Capturing is never compulsory")
    page.go_back()
    expect(page.locator("#rules-page")).to_have_attribute("data-game", "abande")
    page.click("#rules-andantino")
    expect(page.locator("#rules-page")).to_contain_text("five")
    # a game hexgames does not have: said, not silently Andantino's rules
    for name in ("chess", "constructor", "abandeX", "%ff"):  # "constructor" blanked it
        page.goto(server.url + "/#/")
        page.goto(f"{server.url}/#/rules/{name}")
        expect(page.locator("#alerts")).to_contain_text(f'hexgames has no game "{name}"')
        expect(page.locator("#rules-page")).to_have_attribute("data-game", "andantino")
    page.goto(server.url + "/#/rules/Abande")  # a capital letter is no other game
    expect(page.locator("#rules-page")).to_have_attribute("data-game", "abande")


def test_a_view_left_before_its_answer_leaves_the_next_view_alone(
        page: Page, server: StudyServer) -> None:
    """The start page, answered after the person had moved on, wrote into a page that
    was gone ("Cannot set properties of null", a JavaScript error); the rules page drew
    itself over the view that followed it."""
    page.add_init_script("""(() => {
        const fetch0 = window.fetch;
        window.fetch = (url, init) => String(url).includes('/api/meta')
            ? new Promise((done) => setTimeout(done, 1200)).then(() => fetch0(url, init))
            : fetch0(url, init);
    })()""")
    page.goto(server.url + "/#/")
    page.evaluate("location.hash = '#/rules/abande'")
    expect(page.locator("#rules-page")).to_be_visible()
    page.evaluate("location.hash = '#/game/no-such-game'")
    expect(page.locator("#game-gone")).to_be_visible()
    page.wait_for_timeout(2500)  # both answers have come
    expect(page.locator("#game-gone")).to_be_visible()
    expect(page.locator("#rules-page")).to_have_count(0)
    expect(page.locator("#start-view")).to_have_count(0)


# ---- keyboard ---------------------------------------------------------------------------


def test_the_board_cursor_and_the_move_box(page: Page, server: StudyServer) -> None:
    create(page, server, "andantino")
    page.focus("#board svg")
    page.keyboard.press("ArrowRight")
    svg = page.locator("#board svg")
    first = svg.get_attribute("data-cursor")
    assert first in ("0,1", "1,-1")
    expect(page.locator("#board .cursor-mark")).to_have_count(1)
    # the arrows move the cursor over the board, not through the moves
    moved = set()
    for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        moved.add(svg.get_attribute("data-cursor"))
    assert len(moved) > 1
    # Enter plays the cell under the cursor, whichever it is (a refusal says why)
    cursor = svg.get_attribute("data-cursor") or ""
    page.keyboard.press("Enter")
    if cursor in ("0,1", "1,-1"):
        wait_ply(page, 1)
        assert [m.inner_text() for m in page.locator("#moves .move").all()] == [cursor]
    else:
        expect(page.locator("#alerts")).to_be_visible()
    # a typed move, in any spelling of its notation
    before = ply(page)
    board = board_after("andantino", [m.inner_text() for m in page.locator("#moves .move").all()])
    typed = best_of(board)[0]
    page.fill("#move-input", f" ({typed}) ")
    page.press("#move-input", "Enter")
    wait_ply(page, before + 1)
    assert page.locator("#moves .move").last.inner_text() == typed


# ---- the look of the page -------------------------------------------------------------


def test_on_a_phone_the_review_bar_fits_and_says_the_moves_as_the_list_does(
        phone: Page, server: StudyServer) -> None:
    """Issue 12: on a phone the review bar ran off both edges, and its move number (in
    half-moves) disagreed with the bar above the board (full moves)."""
    page = phone
    create(page, server, "abande")
    for n, move in enumerate(["d4", "d5", "d3", "c4"], 1):
        page.locator(f'#board [data-cell="{move}"]').first.tap()
        page.wait_for_function(
            "n => Number(document.querySelector('#game-view').dataset.ply) === n", arg=n)
    page.locator('#moves .move[data-ply="3"]').tap()
    bar = page.locator("#review-bar")
    expect(bar).to_be_visible()
    box = bar.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    expect(page.locator("#review-text")).to_contain_text("After 2. d3")
    expect(page.locator("#mini-status-text")).to_contain_text("After 2. d3")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_result_and_the_review_bar_cover_no_point(
        page: Page, phone: Page, server: StudyServer) -> None:
    """Issue 12: on a phone the result banner covered the top Abande stacks, and on a
    laptop the review bar covered point d1."""
    import random

    # a finished game whose top point d7 holds a stack of three (seed 2)
    board = abande.Board()
    rng = random.Random(2)
    while not board.is_game_over():
        board.push(rng.choice(sorted(board.legal_moves, key=lambda m: m.notation())))
    assert len(board.stack("d7")) == 3
    text = record.write_game(record.record_from_board(board))
    game_id = import_text(page, server, text)
    page.set_viewport_size({"width": 1280, "height": 720})  # a laptop's screen
    for pg in (phone, page):
        open_game(pg, server, game_id)
        banner = pg.locator("#result")
        expect(banner).to_be_visible()
        for piece in pg.locator("#board .point.stack .piece").all():
            assert not boxes_overlap(banner.bounding_box(), piece.bounding_box())
    page.click('#moves .move[data-ply="10"]')
    bar = page.locator("#review-bar")
    expect(bar).to_be_visible()
    d1 = page.locator('#board [data-cell="d1"] .hit')
    expect(d1).to_be_visible()  # (the board is drawn again for the ply chosen)
    assert not boxes_overlap(bar.bounding_box(), d1.bounding_box())
    # the bar is off the board altogether (it stood on its lower edge, over d1 once the
    # board is as high as the window lets it be)
    assert not boxes_overlap(bar.bounding_box(), page.locator("#board").bounding_box())


def test_the_win_bar_is_seen_full_of_either_colour(page: Page, server: StudyServer) -> None:
    """Issue 12: at 100% for White the bar looked empty (cream on cream)."""
    create(page, server, "andantino")
    page.locator("label.switch").click()
    expect(page.locator("#winbar")).to_be_visible()
    colours = page.evaluate("""() => {
        const bar = getComputedStyle(document.querySelector('#winbar'));
        const fill = getComputedStyle(document.querySelector('#winbar .winbar-fill'));
        const panel = getComputedStyle(document.querySelector('.panel'));
        return [bar.borderTopColor, fill.backgroundColor, panel.backgroundColor,
                bar.borderTopWidth];
    }""")
    border, fill, panel, width = colours
    # WCAG's 3:1 for the parts of a graphic: the frame is seen against the white fill
    # and against the panel
    assert contrast(border, fill) >= 3 and contrast(border, panel) >= 3
    assert float(width.rstrip("px")) >= 1


def test_abande_coordinates_stand_at_the_rim_clear_of_every_stack(
        page: Page, server: StudyServer) -> None:
    """Issue 12: Abande coordinates sat between the points and hid under the stacks."""
    # every point but one holds a piece: a label between the points would touch one
    stacks = []
    board = abande.Board()
    cells = sorted(board.legal_moves, key=lambda m: m.notation())
    names = sorted(m.notation() for m in cells)
    for index, name in enumerate(names[:36]):
        stacks.append(f"{name}={'B' if index % 2 == 0 else 'W'}")
    position = f"abande {' '.join(stacks)} turn=b hands=b0,w0"
    create(page, server, "abande", position=position)
    if page.get_attribute("#coords", "aria-pressed") != "true":
        page.click("#coords")
    labels = page.locator("#board .coord")
    expect(labels.first).to_be_visible()
    spots = [box for p in page.locator("#board .point .piece, #board .point .spot").all()
             if (box := p.bounding_box()) is not None]  # the spot under a stack is not drawn
    assert len(spots) == 37
    for label in labels.all():
        box = label.bounding_box()
        for spot in spots:
            assert not boxes_overlap(box, spot), (label.text_content(), box, spot)
    expect(labels).to_have_count(14)  # a-g and 1-7, at the rim


def test_andantino_coordinates_are_on_and_a_move_of_the_list_shows_its_cell(
        page: Page, server: StudyServer) -> None:
    """Issue 12: Andantino coordinates were off by default although the list is written
    in them, and hovering a move of the list did not show its cell."""
    create(page, server, "andantino")
    expect(page.locator("#board .coord").first).to_be_visible()
    for move in ["0,1", "1,1", "-1,1"]:
        play(page, move)
    page.hover('#moves .move[data-ply="2"]')
    expect(page.locator('#board [data-cell="1,1"]')).to_have_class(re.compile(r"\bpreviewed\b"))
    page.mouse.move(0, 0)
    expect(page.locator("#board .previewed")).to_have_count(0)


def test_a_resigned_abande_game_shows_no_score(page: Page, server: StudyServer) -> None:
    """Issue 12: a resigned Abande game showed a meaningless live score."""
    create(page, server, "abande")
    for move in ["d4", "d5", "d3"]:
        play(page, move)
    page.click("#resign")
    page.click("#resign")
    expect(page.locator("#result")).to_have_text("Black wins by resignation")
    expect(page.locator("#status")).not_to_contain_text("–")
    expect(page.locator("#score0")).to_have_count(0)
    assert math.isfinite(ply(page))
