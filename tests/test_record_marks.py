"""Arrows and circles in a record's comments (``[%csl]``, ``[%cal]``; issue 35): their
syntax round trip through the record reader and writer, their refusals, and the study
action that draws them, refused to an account that may not edit the study."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexgames.record import read_game, write_game
from hexgames.record.marks import (
    MAX_MARKS,
    Mark,
    MarkError,
    join_marks,
    parse_mark,
    split_marks,
)

ABANDE_POINTS = [f"{c}{n}" for c, top in zip("abcdefg", (4, 5, 6, 7, 6, 5, 4), strict=True)
                 for n in range(1, top + 1)]


def test_a_comment_splits_into_its_text_and_marks() -> None:
    text, marks = split_marks("Good. [%csl Gc3;Rd4] [%clk 0:04:00] [%cal Yc3-d4]", "abande")
    assert text == "Good. [%clk 0:04:00]"
    assert marks == [Mark("G", "c3"), Mark("R", "d4"), Mark("Y", "c3", "d4")]
    assert join_marks(text, marks, "abande") == \
        "Good. [%clk 0:04:00] [%csl Gc3;Rd4] [%cal Yc3-d4]"
    text, marks = split_marks("[%cal B0,1>2,-1;G-1,1>1,-3] [%csl R0,0]", "andantino")
    assert text == ""
    assert marks == [Mark("R", "0,0"), Mark("B", "0,1", "2,-1"), Mark("G", "-1,1", "1,-3")]
    assert join_marks("", marks, "andantino") == "[%csl R0,0] [%cal B0,1>2,-1;G-1,1>1,-3]"
    # what is not a mark stays text: nothing of a comment is lost
    assert split_marks("[%csl Xz9] [%cal Gc3]", "abande") == ("[%csl Xz9]", [Mark("G", "c3")])


def test_marks_that_are_none_are_refused() -> None:
    for text, game in (("Xc3", "abande"), ("Gh1", "abande"), ("Gc3-c3", "abande"),
                       ("G0,1-1,1", "andantino"), ("G0;1", "andantino"), ("", "abande")):
        with pytest.raises(MarkError, match=r"mark|two cells"):
            parse_mark(text, game)
    with pytest.raises(MarkError, match=f"at most {MAX_MARKS}"):
        join_marks("", [Mark("G", "c3")] * (MAX_MARKS + 1), "abande")


def test_marks_round_trip_through_a_record() -> None:
    text = ('[Game "Abande"]\n[Black "A"]\n[White "B"]\n[Result "*"]\n\n'
            "{[%csl Gd4]} 1. d4 {Centre. [%csl Rd4;Yc3] [%cal Gd5-d4]} 1... d5 *\n")
    record = read_game(text)
    written = write_game(record)
    assert "{Centre. [%csl Rd4;Yc3] [%cal Gd5-d4]}" in written
    assert read_game(written) == record
    node = record.root.variations[0]
    assert split_marks(node.comment, "abande") == (
        "Centre.", [Mark("R", "d4"), Mark("Y", "c3"), Mark("G", "d5", "d4")])
    assert split_marks(record.root.comment, "abande") == ("", [Mark("G", "d4")])


marks_of_abande = st.lists(
    st.builds(Mark, st.sampled_from("GRYB"), st.sampled_from(ABANDE_POINTS),
              st.none() | st.sampled_from(ABANDE_POINTS)).filter(lambda m: m.cell != m.to),
    max_size=8, unique=True)


@given(marks_of_abande, st.sampled_from(["", "Good move.", "a (b) [c]"]))
def test_join_then_split_gives_back_text_and_marks(marks: list[Mark], text: str) -> None:
    circles = [m for m in marks if m.to is None]
    arrows = [m for m in marks if m.to is not None]
    assert split_marks(join_marks(text, marks, "abande"), "abande") == (text, circles + arrows)


# --- the study action, with real clients ------------------------------------------------------

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")

from server_helpers import Client, LiveServer, challenge_game  # noqa: E402


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "games.db")
    yield server
    server.stop()


def test_marks_are_kept_in_the_study_and_refused_to_others(live: LiveServer) -> None:
    alice, bob, carol = Client(live), Client(live), Client(live)
    for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        assert client.signup(name).status_code == 201
    game_id = challenge_game(alice, bob, game="abande")
    first, second, watcher = (c.socket(game_id) for c in (alice, bob, carol))
    try:
        first.send({"type": "move", "move": "d4", "ply": 0})
        first.until(lambda m: m["type"] == "state" and m["ply"] == 1)
        first.send({"type": "resign", "side": 0})
        first.until(lambda m: m["type"] == "state" and m["over"])
        marks = [{"color": "G", "cell": "d4", "to": None},
                 {"color": "R", "cell": "d4", "to": "c3"}]
        # the watcher may not draw in the players' study
        refused = watcher.error({"type": "study", "action": "marks", "line": ["d4"],
                                 "marks": marks})
        assert "study" in refused
        # a point off the board, a list too long, and no list are refused
        assert "not a point of the board" in second.error(
            {"type": "study", "action": "marks", "line": ["d4"],
             "marks": [{"color": "G", "cell": "a7"}]})
        assert "at most 64 marks" in second.error(
            {"type": "study", "action": "marks", "line": ["d4"],
             "marks": [{"color": "G", "cell": "d4"}] * 65})
        assert "no mark of abande" in second.error(
            {"type": "study", "action": "marks", "line": ["d4"],
             "marks": [{"color": "P", "cell": "d4"}]})
        second.send({"type": "study", "action": "marks", "line": ["d4"], "marks": marks})
        second.until(lambda m: m["type"] == "state" and "[%csl" in str(m.get("tree")))
        record = carol.http.get(f"/api/games/{game_id}/record").text
        assert "1. d4 {[%csl Gd4] [%cal Rd4-c3]}" in record
        # the comment's text and the marks are kept apart
        second.send({"type": "study", "action": "comment", "line": ["d4"],
                     "text": "The centre. [%csl Gd4] [%cal Rd4-c3]"})
        second.until(lambda m: m["type"] == "state" and "The centre" in str(m.get("tree")))
        second.send({"type": "study", "action": "marks", "line": ["d4"], "marks": []})
        second.until(lambda m: m["type"] == "state" and "[%csl" not in str(m.get("tree")))
        assert "1. d4 {The centre.}" in carol.http.get(f"/api/games/{game_id}/record").text
    finally:
        for socket in (first, second, watcher):
            socket.close()
        for client in (alice, bob, carol):
            client.close()
