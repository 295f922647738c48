"""The engine's evaluations on the page, in headless Chromium (issue 35): the win bar of a
finished game, a record's evaluations in the move list and the graph, mate scores
explained, and the selected side-line move readable. The real page against
``tests/study_server.py`` (the fake analyst); each test but the last (a guard) failed on
the page before its fix (``HEXGAMES_TEST_STATIC`` pointed at the older page)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("playwright.sync_api",
                    reason="the browser tests need playwright (hexgames[dev])")

import test_web_study_browser as study_browser
from playwright.sync_api import Page, expect
from test_web_study_browser import STUDY, StudyServer, contrast, import_text

#: A record annotated twice by an older version (the first values stale), its last
#: move's comment a clock reading alone, a blunder marked.
ANNOTATED = """[Game "Andantino"]
[White "Ann"]
[Red "Ben"]
[Result "*"]

1. 0,1 {[%eval 0.20] [%wp 0.55]} 1... 1,1 {quiet [%eval 0.10] [%wp 0.52] [%eval 0.85]
[%wp 0.58]} 2. -1,1?? {[%eval #-5] [%wp 0.00]} 2... -1,0 {[%clk 0:01:00]} *
"""


# the study board's server, browser and page (each module gets its own server)
server = study_browser.server
browser = study_browser.browser
page = study_browser.page


def open_record(page: Page, server: StudyServer, text: str) -> str:
    game_id = import_text(page, server, text)
    page.goto(f"{server.url}/#/game/{game_id}")
    page.wait_for_selector("#game-view[data-connected='true']")
    return game_id


def bar(page: Page, analysed: bool) -> dict[str, Any]:
    """The win bar's figures, once the analysis of the position came (``analysed``:
    the game ended there by a resignation or an agreement, not by its rules)."""
    page.locator("label.switch").click()
    expect(page.locator("#winbar")).to_be_visible()
    if analysed:
        expect(page.locator("#analysis")).not_to_have_attribute("data-position", "")
    return dict(page.evaluate("""() => ({
        width: document.querySelector('#winbar .winbar-fill').style.width,
        left: document.querySelector('#winbar-left').textContent,
        right: document.querySelector('#winbar-right').textContent,
        text: document.querySelector('#eval-text').textContent})"""))


@pytest.mark.parametrize(("text", "analysed", "expected"), [
    (STUDY, False, {"width": "100%", "left": "White 100%", "right": "0% Red",
                    "text": "White won"}),
    ('[Game "Andantino"]\n[Result "0-1"]\n[Termination "resignation"]\n\n'
     "1. 0,1 1,1 0-1\n", True,
     {"width": "0%", "left": "White 0%", "right": "100% Red", "text": "Red won"}),
    ('[Game "Andantino"]\n[Result "*"]\n[Draw "agreement"]\n\n1. 0,1 1,1 *\n', True,
     {"width": "50%", "left": "White 50%", "right": "50% Red", "text": "Draw"}),
])
def test_the_win_bar_of_a_finished_game_shows_its_result(
        page: Page, server: StudyServer, text: str, analysed: bool,
        expected: dict[str, str]) -> None:
    """Issue 35 (6): a game won by a line (or 22-5) showed the bar at 50/50 and no
    figures (a position that ends the game is not analysed), and a resigned game the
    engine's view of its last position."""
    open_record(page, server, text)
    expect(page.locator("#game-view")).to_have_attribute("data-over", "true")
    assert bar(page, analysed) == expected


def test_a_record_s_evaluations_stay_out_of_the_move_list_and_draw_the_graph(
        page: Page, server: StudyServer) -> None:
    """Issue 35 (3): the comments' raw ``[%eval]``/``[%wp]`` under every half-move, one
    row per half-move, and no graph for an imported record with evaluations."""
    open_record(page, server, ANNOTATED)
    moves = page.locator("#moves")
    expect(moves.locator("li.move-row")).to_have_count(2)  # "1. 0,1 1,1", "2. -1,1 -1,0"
    expect(moves.locator("li.comment-row")).to_have_count(1)
    expect(moves.locator("li.comment-row")).to_have_text("quiet")
    assert "[%" not in (moves.text_content() or "")
    # each evaluation small beside its move, the newest of a stale pair, a mate explained
    expect(moves.locator(".move-eval")).to_have_text(["+0.20", "+0.85", "#-5"])
    assert moves.locator(".move-eval").nth(2).get_attribute("title") == (
        "#-5: Red wins by force within 5 plies (a mate score: the search saw a forced "
        "end)")
    # the graph from the record: the newest values, the blunder marked
    expect(page.locator("#eval-graph")).to_be_visible()
    expect(page.locator("#graph-source")).to_be_visible()
    expect(page.locator("#eval-graph .graph-mark.blunder")).to_have_attribute(
        "data-ply", "3")
    expect(page.locator("#analyse-game")).to_be_hidden()  # the game is not over
    expect(page.locator("#mistakes li")).to_have_text(["2. -1,1?? blunder (−58%)"])


def test_mate_scores_are_written_and_explained_alike(page: Page,
                                                     server: StudyServer) -> None:
    """Issue 35 (7): the evaluation jumped between points and "#13" with no word of
    what a mate score is."""
    open_record(page, server, ANNOTATED)
    found = page.evaluate("""async () => {
        const e = await import('/static/js/evaluation.js');
        const names = ['White', 'Red'];
        return [e.evalText({mate: 13}, 1), e.evalText({mate: 13}, 0),
                e.evalText({eval: 85}, 1), e.evalNote('#-13', names),
                e.evalNote('#1', names), e.evalNote('+0.85', names),
                e.recordEvalText('0.85'), e.recordEvalText('#-5'),
                e.commentText('good [%eval 0.1] [%wp 0.5]  [%clk 0:01:00]')];
    }""")
    assert found == [
        "#-13", "#13", "-0.85",
        "#-13: Red wins by force within 13 plies (a mate score: the search saw a forced "
        "end)",
        "#1: White wins by force within 1 ply (a mate score: the search saw a forced end)",
        "+0.85: the engine's points / 100 for White (a mate score, #n, when it sees a "
        "forced end)",
        "+0.85", "#-5", "good"]


@pytest.fixture(scope="module")
def mating(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StudyServer]:
    """The study server whose fake analyst sees a forced win of the side to move."""
    srv = StudyServer(tmp_path_factory.mktemp("mate") / "games.db", helper="lines:mate=13")
    yield srv
    srv.stop()


def test_the_analysis_explains_a_mate_score(page: Page, mating: StudyServer) -> None:
    """Issue 35 (7): the analysis showed "#13" (the figure jumping from "+0.85") and no
    word of what it means."""
    open_record(page, mating, '[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 *\n')
    page.locator("label.switch").click()
    expect(page.locator("#eval-text")).to_have_text("#-13")  # Red to move wins
    note = ("#-13: Red wins by force within 13 plies (a mate score: the search saw a "
            "forced end)")
    expect(page.locator("#eval-note")).to_have_text(note)
    expect(page.locator("#eval-text")).to_have_attribute("title", note)
    expect(page.locator("#winbar-left")).to_have_text("White 0%")
    # back to the start, where the fake sees White's win: the note follows
    page.locator("#nav-first").click()
    expect(page.locator("#eval-text")).to_have_text("#13")
    expect(page.locator("#eval-note")).to_contain_text("White wins by force within 13")


def test_the_selected_side_line_move_is_readable(page: Page, server: StudyServer) -> None:
    """Issue 35 (10): the selected move of a side line showed its number in grey and its
    NAG in brown on the teal: below WCAG AA's 4.5:1."""
    open_record(page, server, STUDY)
    move = page.locator('#moves .side-move[data-line="0,1 1,1 -1,1 -1,0 -1,2"]')
    move.click()
    expect(move).to_have_class(re.compile(r"\bcurrent\b"))
    read = """(priv) => {
        const b = document.querySelector('#moves .side-move.current');
        // a line of the page's own (a watcher's) is marked private: purple, italic
        if (priv) b.classList.add('private');
        const parts = [b, ...b.querySelectorAll('*')];
        return {back: getComputedStyle(b).backgroundColor,
                inks: parts.map((e) => [e.className || 'move', getComputedStyle(e).color])};
    }"""
    for private in (False, True):
        colours = page.evaluate(read, private)
        names = [name for name, _ in colours["inks"]]
        assert names == [f"side-move current{' private' if private else ''}",
                         "move-no-inline", "nag"]
        for name, ink in colours["inks"]:
            assert contrast(ink, colours["back"]) >= 4.5, (name, ink, colours["back"])


def test_the_page_has_one_colour_scheme() -> None:
    """The contrast above holds in every theme: the stylesheet has one (no dark
    scheme to check as well); a second one must be added to the test above."""
    css = (Path(__file__).parent.parent / "src/hexgames/web/static/app.css").read_text(
        encoding="utf-8")
    assert "prefers-color-scheme" not in css and "data-theme" not in css
