"""The study board's server side (issue 12), against docs/web-protocol.md: records that
keep everything through import and export, side lines, names, analysis of the position
on view (MultiPV), the whole-game analysis, new games from a position, varied play by
seed, and who may edit a study in the server mode."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette would rather have httpx2: not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import Message, new_game, receive, state_at, until

from hexgames import andantino, limits, record
from hexgames.engine import players
from hexgames.engine.base import Limit
from hexgames.web import create_app
from hexgames.web.store import GameStore


@pytest.fixture(autouse=True)
def lines_player(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake analyst of tests/fake_players.py, which fills Info.lines."""
    monkeypatch.setitem(players._PLAYERS, "lines", ("fake_players", "LinesPlayer"))


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db, helper_spec="lines", hint_time=0.3, analysis_time=5.0,
                     workers="thread", game_analysis_time=0.1)
    with TestClient(app) as test_client:
        yield test_client


def normalised(text: str) -> str:
    """The record writer's canonical form of ``text`` (one game)."""
    return record.write_game(record.read_game(text))


def import_one(client: TestClient, text: str) -> str:
    answer = client.post("/api/import", json={"text": text})
    assert answer.status_code == 201, answer.text
    [game_id] = answer.json()["ids"]
    return str(game_id)


def play_moves(ws: Any, moves: list[str], start: int = 0) -> Message:
    state: Message = {}
    for ply, move in enumerate(moves, start):
        ws.send_json({"type": "move", "move": move, "ply": ply})
        state = until(ws, state_at(ply + 1))[0]
    return state


def state_after(ws: Any, test: Any = lambda m: True) -> Message:
    return until(ws, lambda m: m["type"] == "state" and test(m))[0]


def play_against_the_ai(ws: Any, move: str, ply: int) -> Message:
    """Play ``move`` at ``ply`` and return the state after the AI's reply. The state
    after the move alone may never come: a state still queued for a socket is
    superseded by a newer one (``hexgames.web.searches.Subscriber``), and a quick AI's
    reply makes one at once."""
    ws.send_json({"type": "move", "move": move, "ply": ply})
    return state_after(ws, lambda m: m["ply"] == ply + 2)


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
[Opening "Straight"]

{A short game} 1. 0,1 1,1 2. -1,1! (2. 2,0 {is calmer} 2... 2,-1 (2... -1,1 $14)) 2...
-1,0 $14 {Red waits} 3. 0,-1 (3. -1,2?! 1,-1 (3... 0,2)) 3... 1,-1 4. 0,2 -1,-1 5. 0,-2
{and wins} 1-0
"""

SETUP_RED = """[Game "Andantino"]
[White "Ann"]
[Red "Ben"]
[Position "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24"]
[Result "*"]

1... 1,1 {Red first} 2. -1,1 (2. 2,0) 2... 1,-1 *
"""

ABANDE_WHITE = """[Game "Abande"]
[Black "Kim"]
[White "Lee"]
[Date "2025.01.02"]
[Position "abande d4=B turn=w hands=b17,w18"]
[Result "*"]

1... d5 2. d3 {centre} 2... e4 (2... c4 $5) *
"""


# --- records keep everything -----------------------------------------------------------


BARE = """[Game "Abande"]
[Result "*"]

1. d4 (1. c4 {elsewhere}) 1... d5 *
"""


@pytest.mark.parametrize("text", [STUDY, SETUP_RED, ABANDE_WHITE, BARE])
def test_import_then_export_is_the_record_itself(client: TestClient, text: str) -> None:
    """Issue 12: an import kept the moves only: export wrote "Human", "hexgames web
    game", today's date and no comments; now every tag, comment, NAG and variation."""
    game_id = import_one(client, text)
    exported = client.get(f"/api/games/{game_id}/record").text
    assert exported == normalised(text)
    # and again, through a second import: an archive survives any number of round trips
    assert client.get(f"/api/games/{import_one(client, exported)}/record").text == exported


def test_the_state_of_an_imported_study(client: TestClient) -> None:
    game_id = import_one(client, STUDY)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
    assert state["player_names"] == ["Alice", "Bob"]
    assert (state["tags"]["Event"], state["tags"]["Round"], state["tags"]["Opening"]) == \
        ("Club evening", "3", "Straight")
    tree = state["tree"]
    assert tree["comment"] == "A short game"
    nodes = tree["nodes"]
    # preorder, the main continuation first: the main line is the chain of first children
    main, index = [], -1
    while True:
        children = [i for i, n in enumerate(nodes) if n["parent"] == index]
        if not children:
            break
        index = children[0]
        main.append(nodes[index]["move"])
    assert main == state["moves"]
    third = next(n for n in nodes if n["move"] == "-1,1" and n["parent"] == 1)
    assert third["nags"] == [1]
    sides = [n["move"] for n in nodes if n["parent"] == 1]
    assert sides == ["-1,1", "2,0"]  # the game's move, then its alternative
    assert state["study"] is True and state["can_name"] is True
    assert (state["setup"], state["first_turn"]) == (None, 0)


def test_a_setup_position_with_the_second_player_to_move(client: TestClient) -> None:
    """Issue 12: such an import listed Red's move in White's column and said "standard
    rules": the state says where the game starts and who moved first."""
    game_id = import_one(client, SETUP_RED)
    summary = client.get(f"/api/games/{game_id}").json()
    assert summary["setup"] is True and summary["player_names"] == ["Ann", "Ben"]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
    assert state["setup"] == "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24"
    assert state["first_turn"] == 1 and state["moves"] == ["1,1", "-1,1", "1,-1"]


def test_a_new_game_keeps_its_players_names_and_people_are_persons(
        client: TestClient) -> None:
    """Issue 12: records said "Human" where the page says "Person"; issue 35: the local
    mode's person is "You" in the record as on the page."""
    game_id = new_game(client, players=["human", "random"])
    text = client.get(f"/api/games/{game_id}/record").text
    game = record.read_game(text)
    assert (game.tags["White"], game.tags["Red"]) == ("You", "hexgames random")
    assert game.tags["Event"] == "hexgames web game"
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "names", "names": ["  Ada   Lovelace ", ""]})
        state = state_after(ws, lambda m: m["player_names"][0] == "Ada Lovelace")
        assert state["player_names"] == ["Ada Lovelace", "hexgames random"]
        for names, words in [(["a\x07b", "c"], "one line"), (["x" * 101, "y"], "at most 100"),
                             ("Ada", "two players"), ([1, 2], "two players")]:
            ws.send_json({"type": "names", "names": names})
            assert words in until(ws, lambda m: m["type"] == "error")[0]["message"]
    game = record.read_game(client.get(f"/api/games/{game_id}/record").text)
    assert game.tags["White"] == "Ada Lovelace"
    assert client.get("/api/games").json()["games"][0]["player_names"][0] == "Ada Lovelace"


# --- side lines ----------------------------------------------------------------------


def test_side_lines_are_made_navigated_promoted_deleted_and_exported(
        client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        play_moves(ws, ["0,1", "1,1", "-1,1", "-1,0"])
        # a side line from the position after 1. 0,1: Red plays 1,-1 instead of 1,1
        ws.send_json({"type": "study", "action": "add", "line": ["0,1", "1,-1", "2,-1"]})
        state = state_after(ws)
        assert state["moves"] == ["0,1", "1,1", "-1,1", "-1,0"]  # the game is as it was
        ws.send_json({"type": "view", "line": ["0,1", "1,-1", "2,-1"]})
        view = until(ws, lambda m: m["type"] == "view")[0]
        assert (view["ply"], view["turn"], view["last"]) == (3, 1, "2,-1")
        assert sorted(t["cell"] for t in view["board"]["tiles"]) == \
            ["0,0", "0,1", "1,-1", "1,0", "2,-1"]
        assert "2,0" in view["legal"]
        # a second side line there, then a line inside the first one
        ws.send_json({"type": "study", "action": "add", "line": ["0,1", "-1,1"]})
        ws.send_json({"type": "study", "action": "add",
                      "line": ["0,1", "1,-1", "2,-1", "2,0"]})
        ws.send_json({"type": "study", "action": "add", "line": ["0,1", "1,-1", "1,1"]})
        ws.send_json({"type": "study", "action": "comment", "line": ["0,1", "1,-1"],
                      "text": "sharper"})
        ws.send_json({"type": "study", "action": "nags", "line": ["0,1", "1,-1"],
                      "nags": [5]})
        state = state_after(ws, lambda m: any(n["nags"] == [5] for n in m["tree"]["nodes"]))
        text = client.get(f"/api/games/{game_id}/record").text
        assert "1. 0,1 1,1 (1... 1,-1!? {sharper} 2. 2,-1 (2. 1,1) 2... 2,0) (1... -1,1) " \
            "2. -1,1 -1,0" in " ".join(text.split())
        # promote: the second alternative goes before the first; the game's move stays
        ws.send_json({"type": "study", "action": "promote", "line": ["0,1", "-1,1"]})
        state_after(ws)
        ws.send_json({"type": "study", "action": "promote", "line": ["0,1", "-1,1"]})
        error = until(ws, lambda m: m["type"] == "error")[0]["message"]
        assert "the game's own move stays first" in error
        # inside a side line a variation may become its main continuation
        ws.send_json({"type": "study", "action": "promote",
                      "line": ["0,1", "1,-1", "1,1"]})
        state_after(ws)
        text = " ".join(client.get(f"/api/games/{game_id}/record").text.split())
        assert "1. 0,1 1,1 (1... -1,1) (1... 1,-1!? {sharper} 2. 1,1 (2. 2,-1 2,0)) " \
            "2. -1,1 -1,0" in text
        ws.send_json({"type": "study", "action": "demote", "line": ["0,1", "-1,1"]})
        state_after(ws)
        ws.send_json({"type": "study", "action": "delete", "line": ["0,1", "1,-1"]})
        state = state_after(ws)
        text = " ".join(client.get(f"/api/games/{game_id}/record").text.split())
        assert "1. 0,1 1,1 (1... -1,1) 2. -1,1 -1,0" in text
        # the game's own moves are no side lines: not deleted, not continued from its end
        for message, words in [
                ({"action": "delete", "line": ["0,1", "1,1"]}, "the game's own"),
                ({"action": "add", "line": ["0,1", "1,1", "-1,1", "-1,0", "0,-1"]},
                 "the game goes on from this position"),
                ({"action": "add", "line": ["0,1", "0,1"]}, "move 2 of the line"),
                ({"action": "add", "line": "0,1"}, "list of moves"),
                ({"action": "fly", "line": []}, "a study action is"),
                ({"action": "comment", "line": ["0,1"], "text": "a } b"}, "'}'"),
                ({"action": "nags", "line": ["0,1"], "nags": [256]}, "0 to 255"),
                ({"action": "delete", "line": ["0,1", "1,-1"]}, "no line")]:
            ws.send_json({"type": "study", **message})
            assert words in until(ws, lambda m: m["type"] == "error")[0]["message"]
        # a move of the game: the side line from the position it leaves stays
        state = play_moves(ws, ["0,-1"], 4)
        assert [n["move"] for n in state["tree"]["nodes"] if n["parent"] == 0] == \
            ["1,1", "-1,1"]
        # undo takes back the move; the side lines before it stay
        ws.send_json({"type": "undo", "ply": 5})
        state = state_after(ws, lambda m: m["ply"] == 4)
        assert [n["move"] for n in state["tree"]["nodes"] if n["parent"] == 0] == \
            ["1,1", "-1,1"]


def test_undo_takes_the_side_lines_of_the_positions_it_goes_back_to(
        client: TestClient) -> None:
    game_id = new_game(client, players=["human", "random"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        state = play_against_the_ai(ws, "0,1", 0)
        ai_move = state["moves"][1]
        state = play_against_the_ai(ws, "-1,1" if ai_move != "-1,1" else "1,-1", 2)
        other = next(m for m in ("1,1", "1,-1", "-1,1") if m != ai_move)
        ws.send_json({"type": "study", "action": "add", "line": ["0,1", other]})
        state = state_after(ws, lambda m: len(m["tree"]["nodes"]) == 5)
        ws.send_json({"type": "undo", "ply": 4})  # against the AI: the last move pair
        state = state_after(ws, lambda m: m["ply"] == 2)
    moves = [n["move"] for n in state["tree"]["nodes"]]
    assert moves == ["0,1", ai_move, other]  # the line from ply 1 stays


def test_the_study_tree_is_capped(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_STUDY_NODES", 5)
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        play_moves(ws, ["0,1", "1,1"])
        ws.send_json({"type": "study", "action": "add",
                      "line": ["0,1", "1,-1", "2,-1", "2,0", "-1,1"]})
        assert "at most 5" in until(ws, lambda m: m["type"] == "error")[0]["message"]
    text = STUDY
    answer = client.post("/api/import", json={"text": text})
    assert answer.status_code == 413 and "MAX_STUDY_NODES" in answer.json()["error"]


# --- analysis of the position on view --------------------------------------------------


def test_analysis_follows_the_position_on_view_with_multipv(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        play_moves(ws, ["0,1", "1,1", "-1,1"])
        line = ["0,1", "1,-1"]  # a position the game never reached
        ws.send_json({"type": "analyse", "on": True, "line": line, "multipv": 3})
        state = state_after(ws)
        assert state["analysis"] is True
        analysis = until(ws, lambda m: m["type"] == "analysis" and m.get("done"))[0]
    board = andantino.Board()
    for move in line:
        board.push_notation(move)
    best = sorted(m.notation() for m in board.legal_moves)[:3]
    assert analysis["position"] == board.position() and analysis["line"] == line
    assert analysis["ply"] == 2 and analysis["best"] == best[0]
    assert [each["pv"][0] for each in analysis["lines"]] == best
    assert [each["score"] for each in analysis["lines"]] == pytest.approx([0.85, 0.8, 0.75])


def test_the_native_analysis_sends_its_lines_while_it_searches(db: Path) -> None:
    """Issue 35: with the app's own helper (the native alpha-beta) "2 lines" or "3
    lines" showed one: every ``analysis`` message while it searched said ``"lines":
    []``; only the last, after the analysis's whole time, had them."""
    # (the solver first for at most half a second: the app's analyses try it)
    app = create_app(db, helper_spec="alphabeta:tt_mb=8,prove_max=0.5",
                     analysis_time=30.0, workers="thread")
    with TestClient(app) as client:
        # the balance variant: the standard game after 0,1 1,1 is in the shipped book of
        # proven positions, whose one proven line an analysis shows at once
        game_id = new_game(client, rules={"single_adjacency": True})
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            receive(ws)
            play_moves(ws, ["0,1", "1,1"])
            ws.send_json({"type": "analyse", "on": True, "multipv": 3})
            message = until(ws, lambda m: m["type"] == "analysis" and m["depth"] > 0,
                            timeout=60.0)[0]
            ws.send_json({"type": "analyse", "on": False})
            state_after(ws)
    assert "done" not in message
    assert len(message["lines"]) == 3 and message["lines"][0]["pv"] == message["pv"]
    assert len({line["pv"][0] for line in message["lines"]}) == 3
    assert all(line["depth"] == message["depth"] for line in message["lines"])


def test_analysis_of_the_game_follows_its_moves_and_bad_requests_are_refused(
        client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "analyse", "on": True})
        first = until(ws, lambda m: m["type"] == "analysis" and m.get("done"))[0]
        assert first["line"] == [] and first["lines"] == []  # one line asked for
        play_moves(ws, ["0,1"])
        after = until(ws, lambda m: m["type"] == "analysis" and m["ply"] == 1)[0]
        assert after["line"] == ["0,1"]
        for message, words in [({"multipv": 9}, "multipv must be 1 to 5"),
                               ({"line": ["9,9"]}, "move 1 of the line"),
                               ({"multipv": "3"}, "a whole number")]:
            ws.send_json({"type": "analyse", "on": True, **message})
            assert words in until(ws, lambda m: m["type"] == "error")[0]["message"]


def test_at_most_a_few_pages_analyse_one_game(client: TestClient) -> None:
    game_id = new_game(client)
    sockets = [client.websocket_connect(f"/ws/games/{game_id}")
               for _ in range(limits.MAX_GAME_ANALYSES + 1)]
    try:
        for ws in sockets:
            ws.__enter__()
            receive(ws)
        for ws in sockets[:-1]:
            ws.send_json({"type": "analyse", "on": True})
            state_after(ws, lambda m: m["analysis"])
        sockets[-1].send_json({"type": "analyse", "on": True})
        message = until(sockets[-1], lambda m: m["type"] == "error")[0]["message"]
        assert "MAX_GAME_ANALYSES" in message
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


# --- the whole game ---------------------------------------------------------------------


FINISHED = """[Game "Andantino"]
[White "Ann"]
[Red "Ben"]
[Result "0-1"]
[Termination "resignation"]

1. 0,1 1,1 2. -1,1 -1,0 3. 0,-1 1,-1 0-1
"""


def test_the_whole_game_is_analysed_stored_and_annotated(client: TestClient) -> None:
    game_id = import_one(client, FINISHED)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "analyse_game", "action": "start"})
        progress, _ = until(ws, lambda m: m["type"] == "game_analysis" and m["done"] > 0)
        assert progress["running"] is True and progress["total"] == 7
        done, _ = until(ws, lambda m: m["type"] == "game_analysis" and not m["running"])
        result = done["result"]
        assert result["complete"] and len(result["positions"]) == 7
        # the fake analyst gives the side to move 0.85 after 2, 6... plies and 0.5
        # elsewhere: the moves into those positions drop the mover's chance from 0.5 to
        # 0.15, and the moves out of them from 0.85 to 0.5: blunders all
        judged = {r["ply"]: r["judgement"] for r in result["reports"]}
        assert judged == {0: None, 1: "blunder", 2: "blunder", 3: None, 4: None,
                          5: "blunder"}
        assert result["positions"][2]["wp"] == 0.85  # White to move after 2 plies
        assert result["positions"][3]["wp"] == pytest.approx(0.5)
        state = state_after(ws)
        assert state["game_analysis"]["result"]["reports"] == result["reports"]
        ws.send_json({"type": "study", "action": "annotate"})
        state = state_after(ws, lambda m: "Annotator" in m["tags"])
        once = client.get(f"/api/games/{game_id}/record").text
        # pressed again: the same record, not the evaluations twice (issue 35)
        ws.send_json({"type": "study", "action": "annotate"})
        state_after(ws)
        assert client.get(f"/api/games/{game_id}/record").text == once
        assert once.count("[%wp ") == len(record.read_game(FINISHED).moves)
    annotated = record.read_game(client.get(f"/api/games/{game_id}/record").text)
    assert annotated.tags["Annotator"] == "hexgames lines, 0.1 s a position"
    second = list(annotated.mainline())[1]
    assert second.nags == [4] and "[%wp 0.85]" in (second.comment or "")
    assert annotated.moves == record.read_game(FINISHED).moves
    # a game that is not over is not analysed whole; a stale annotation is refused
    running = new_game(client)
    with client.websocket_connect(f"/ws/games/{running}") as ws:
        receive(ws)
        ws.send_json({"type": "analyse_game", "action": "start"})
        assert "once it is over" in until(ws, lambda m: m["type"] == "error")[0]["message"]
        ws.send_json({"type": "study", "action": "annotate"})
        assert "analyse the whole game first" in \
            until(ws, lambda m: m["type"] == "error")[0]["message"]


# --- new games from a position, pictures -----------------------------------------------


def test_a_new_game_from_a_position_string(client: TestClient) -> None:
    position = "andantino w=0,0;0,1 r=1,0 turn=r hands=w23,r24"
    made = client.post("/api/games", json={"game": "andantino", "position": position,
                                           "players": ["human", "human"]})
    assert made.status_code == 201, made.text
    assert made.json()["setup"] is True
    with client.websocket_connect(f"/ws/games/{made.json()['id']}") as ws:
        state = receive(ws)
        assert (state["setup"], state["turn"], state["first_turn"]) == (position, 1, 1)
        state = play_moves(ws, ["1,1"])
    text = client.get(f"/api/games/{made.json()['id']}/record").text
    assert f'[Position "{position}"]' in text and "1... 1,1 *" in text
    for body, words in [
            ({"position": "andantino w=0,0 r=1,0 turn=x"}, "turn"),
            ({"position": 5}, "position string"),
            ({"position": "abande turn=b hands=b18,w18"}, "andantino"),
            ({"position": "andantino w=0,0;0,1;0,2;0,3;0,4 r=1,0;1,1;1,2;1,3 turn=r "
                          "hands=w20,r21"}, "the game is over")]:
        answer = client.post("/api/games", json={"game": "andantino", **body})
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    # the standard start is no set-up position
    start = client.post("/api/games", json={"game": "andantino",
                                            "position": andantino.Board().position()})
    assert start.json()["setup"] is False


def test_the_picture_of_a_side_line_has_a_file_name(client: TestClient) -> None:
    pytest.importorskip("hexgames.svg")
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        play_moves(ws, ["0,1", "1,1"])
    picture = client.get(f"/api/games/{game_id}/svg?ply=1")
    assert picture.headers["content-disposition"] == \
        f'attachment; filename="andantino-{game_id}-ply1.svg"'
    side = client.get(f"/api/games/{game_id}/svg", params={"line": "0,1 1,-1 2,-1"})
    assert side.status_code == 200 and side.text.count('class="cell tile') == 5
    assert f"andantino-{game_id}-line3.svg" in side.headers["content-disposition"]
    assert client.get(f"/api/games/{game_id}/svg", params={"line": "0,0"}).status_code == 400


# --- varied play -----------------------------------------------------------------------


def test_a_level_below_expert_plays_by_the_games_seed_and_can_be_replayed(
        client: TestClient, db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 12: the computer played the same game every time from the same moves."""
    monkeypatch.setitem(players.LEVELS, "hard", players.Level(
        "lines", Limit(depth=1), "t", varied=(("randomness", "15"),)))
    games = []
    for _ in range(4):
        game_id = new_game(client, players=["hard", "hard"])
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            state = state_after(ws, lambda m: m["ply"] >= 8)
        games.append((game_id, state["moves"][:8], state["seed"]))
    assert len({tuple(moves) for _, moves, _ in games}) > 1
    for game_id, moves, seed in games:
        assert isinstance(seed, int)
        text = client.get(f"/api/games/{game_id}/record").text
        assert record.read_game(text).tags["Seed"] == str(seed)
        # the replay: each move by a player made with move_seed(seed, ply)
        board = andantino.Board()
        for ply in range(8):
            player = players.make_player("hard", players.move_seed(seed, ply))
            board.push(player.play(board).move)
        assert [m.notation() for m in board.move_stack] == moves
    # expert plays its best: no seed
    monkeypatch.setitem(players.LEVELS, "expert", players.Level("lines", Limit(depth=1), "t"))
    game_id = new_game(client, players=["expert", "human"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        assert state_after(ws, lambda m: m["ply"] == 1)["seed"] is None
    store = GameStore(db)
    try:
        assert store.get(games[0][0]).extra["seed"] == games[0][2]  # type: ignore[union-attr]
    finally:
        store.close()


# --- who may edit a study (server mode) --------------------------------------------------


def test_who_may_edit_a_study_in_the_server_mode(tmp_path: Path) -> None:
    pytest.importorskip("argon2")
    from server_helpers import Client, LiveServer

    server = LiveServer(tmp_path / "server.db", helper_spec="lines")
    alice, bob, carol = Client(server), Client(server), Client(server)
    try:
        for person, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
            assert person.signup(name).status_code == 201
        made = alice.http.post("/api/challenges", json={"game": "andantino",
                                                        "color": "first"})
        game_id = bob.http.post(f"/api/challenges/{made.json()['id']}/accept").json()["id"]
        a, b, c = (person.socket(game_id) for person in (alice, bob, carol))
        states = [socket.receive() for socket in (a, b, c)]
        # while two people play, nobody edits the shared study: side lines are private
        assert [s["study"] for s in states] == [False, False, False]
        assert not any(s["can_name"] for s in states)
        for ply, (socket, move) in enumerate([(a, "0,1"), (b, "1,1"), (a, "-1,1")]):
            socket.send({"type": "move", "move": move, "ply": ply})
            socket.until(lambda m, p=ply: m["type"] == "state" and m["ply"] == p + 1)
        assert "private" in a.error({"type": "study", "action": "add",
                                     "line": ["0,1", "1,-1"]})
        # but anyone watching may look at any position of a line
        c.send({"type": "view", "line": ["0,1", "1,-1", "2,-1"]})
        assert c.until(lambda m: m["type"] == "view")["ply"] == 3
        assert "accounts'" in a.error({"type": "names", "names": ["x", "y"]})
        b.send({"type": "resign", "side": 1})
        over = a.until(lambda m: m["type"] == "state" and m["over"])
        assert over["study"] is True and over["can_name"] is False
        assert c.state()["study"] is False  # a watcher's lines stay in its page
        a.send({"type": "study", "action": "add", "line": ["0,1", "1,-1"]})
        assert b.until(lambda m: m["type"] == "state" and len(m["tree"]["nodes"]) == 4)
        assert "only the players edit" in c.error({"type": "study", "action": "add",
                                                   "line": ["0,1", "-1,1"]})
        text = carol.http.get(f"/api/games/{game_id}/record").text
        assert '[White "alice"]' in text and "(1... 1,-1)" in text
        # an imported game is its importer's: the names are the record's, editable
        imported = carol.http.post("/api/import", json={"text": SETUP_RED})
        [own] = imported.json()["ids"]
        mine = carol.socket(own)
        state = mine.receive()
        assert state["player_names"] == ["Ann", "Ben"]
        assert state["study"] is True and state["can_name"] is True
        mine.send({"type": "names", "names": ["Ann B.", "Ben"]})
        mine.until(lambda m: m["type"] == "state" and m["player_names"][0] == "Ann B.")
        assert '[White "Ann B."]' in carol.http.get(f"/api/games/{own}/record").text
        for socket in (a, b, c, mine):
            socket.close()
    finally:
        for person in (alice, bob, carol):
            person.close()
        server.stop()


def test_the_whole_game_is_analysed_in_the_apps_worker_processes(db: Path) -> None:
    """With a pool (the app's default) each position is searched by a worker process,
    as the AI's moves are; the principal variations come back as moves."""
    app = create_app(db, helper_spec="greedy", game_analysis_time=0.05)
    with TestClient(app) as client:
        game_id = import_one(client, FINISHED)
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            receive(ws)
            ws.send_json({"type": "analyse_game", "action": "start"})
            done, _ = until(ws, lambda m: m["type"] == "game_analysis" and not m["running"],
                            timeout=60)
        pool = app.state.manager.pool
        assert pool is not None and pool._idle  # the workers it used, kept for later
        assert all(worker.process.pid != os.getpid() for worker in pool._idle)
    result = done["result"]
    assert result["complete"] and result["player"] == "greedy"
    assert all(p is not None and p["pv"] for p in result["positions"])
    board = andantino.Board()
    for ply, move in enumerate(record.read_game(FINISHED).moves):
        assert result["positions"][ply]["pv"][0] in [m.notation() for m in board.legal_moves]
        board.push_notation(move)


def test_a_stored_study_record_that_does_not_fit_its_game_is_reported(
        client: TestClient, db: Path) -> None:
    import sqlite3

    good = import_one(client, STUDY)
    bad = import_one(client, SETUP_RED)
    with sqlite3.connect(db) as conn:
        text = conn.execute("SELECT record FROM games WHERE id = ?", (bad,)).fetchone()[0]
        # a side line whose move is illegal where it stands (1,1 is taken)
        conn.execute("UPDATE games SET record = ? WHERE id = ?",
                     (text.replace("(2. 2,0)", "(2. 1,1)"), bad))
    opened = client.get(f"/api/games/{bad}")
    assert opened.status_code == 409 and "1,1" in opened.json()["error"]
    assert client.get(f"/api/games/{good}").status_code == 200
    assert client.delete(f"/api/games/{bad}").status_code == 200
