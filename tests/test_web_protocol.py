"""The browser app's server against docs/web-protocol.md, with Starlette's test client:
every HTTP route and WebSocket message, bad input of every kind, the AI, persistence."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from click.testing import CliRunner
from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # Starlette would rather have httpx2: not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from web_helpers import Message, fresh_state, new_game, receive, state_at, until

from hexgames import abande, andantino, book, cli
from hexgames.engine.players import LEVEL_NAMES
from hexgames.web import create_app
from hexgames.web.hosts import HostPolicy


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db, helper_spec="greedy", hint_time=0.5, analysis_time=5.0)
    with TestClient(app) as test_client:
        yield test_client


# --- HTTP ----------------------------------------------------------------------------


def test_meta_lists_games_options_and_levels(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["games"]["andantino"]["sides"] == ["White", "Red"]
    assert meta["games"]["abande"]["sides"] == ["Black", "White"]
    options = {o["name"]: o for o in meta["games"]["andantino"]["options"]}
    assert options["self_trap"] == {"name": "self_trap", "kind": "choice",
                                    "default": "opponent_wins",
                                    "choices": ["opponent_wins", "illegal", "ignore"],
                                    "nullable": False}
    assert options["tiles_per_player"]["kind"] == "int"
    assert options["tiles_per_player"]["nullable"] is True
    assert options["single_adjacency"]["kind"] == "bool"
    assert meta["games"]["abande"]["options"] == [
        {"name": "max_height", "kind": "int", "default": 3, "choices": None,
         "nullable": False}]
    assert [level["name"] for level in meta["levels"]] == list(LEVEL_NAMES)


def test_index_and_static_files(db: Path, tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>hexgames</title>")
    (static / "app.js").write_text("export const x = 1;\n")
    with TestClient(create_app(db, static_dir=static)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "<title>hexgames</title>" in page.text
        script = client.get("/static/app.js")
        assert script.text == "export const x = 1;\n"
        assert client.get("/static/missing.js").status_code == 404
    with TestClient(create_app(db, static_dir=tmp_path / "none")) as client:
        response = client.get("/")
        assert response.status_code == 404
        assert "index.html" in response.json()["error"]


def test_create_list_get_and_delete(client: TestClient) -> None:
    assert client.get("/api/games").json() == {"games": [], "total": 0, "offset": 0,
                                               "limit": 50}
    response = client.post("/api/games", json={
        "game": "Abande", "rules": {"max_height": 4}, "players": ["HUMAN", " Easy"]})
    assert response.status_code == 201
    first = response.json()  # names as the registry writes them ("Easy" stayed "Easy")
    assert first["game"] == "abande"
    assert first["rules"] == {"max_height": 4}
    assert first["players"] == ["human", "easy"]
    assert first["names"] == ["Black", "White"]
    assert (first["moves"], first["result"], first["termination"]) == (0, "*", None)
    assert len(first["id"]) == 12
    second = new_game(client, "andantino", rules={"single_adjacency": True,
                                                  "self_trap": "illegal",
                                                  "tiles_per_player": None})
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == [second, first["id"]] or \
        [g["id"] for g in games] == [first["id"], second]  # same second: either order
    one = client.get(f"/api/games/{second}").json()
    assert one["rules"] == {"single_adjacency": True, "self_trap": "illegal",
                            "tiles_per_player": None}
    assert client.delete(f"/api/games/{first['id']}").json() == {"deleted": first["id"]}
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [second]
    gone = client.get(f"/api/games/{first['id']}")
    assert gone.status_code == 404
    assert first["id"] in gone.json()["error"]
    assert client.delete(f"/api/games/{first['id']}").status_code == 404


@pytest.mark.parametrize(("body", "words"), [
    (b"{not json", "not JSON"),
    (b"[" * 30_000 + b"]" * 30_000, "nested too deeply"),  # JSON, too deep to parse
    (b"[1, 2]", "JSON object"),
    (b"{}", "\"game\""),
    (b'{"game": 7}', "\"game\""),
    (b'{"game": "chess"}', "unknown game"),
    (b'{"game": "abande", "rules": [1]}', "rules must be an object"),
    (b'{"game": "abande", "rules": {"colour": "red"}}', "unknown Abande rules option"),
    (b'{"game": "abande", "rules": {"max_height": 99}}', "max_height"),
    (b'{"game": "abande", "rules": {"max_height": 2.5}}', "max_height"),
    # it said "takes a whole number, not 'on'": not what was sent
    (b'{"game": "abande", "rules": {"max_height": true}}',
     "rules option max_height takes a whole number, not true"),
    (b'{"game": "andantino", "rules": {"tiles_per_player": false}}',
     "rules option tiles_per_player takes a whole number, not false"),
    (b'{"game": "abande", "rules": {"MAX_HEIGHT": true}}',
     "rules option MAX_HEIGHT takes a whole number, not true"),
    (b'{"game": "andantino", "rules": {"self_trap": true}}',
     "self_trap must be one of opponent_wins, illegal, ignore"),
    (b'{"game": "andantino", "rules": {"self_trap": "maybe"}}', "self_trap"),
    (b'{"game": "andantino", "rules": {"extended": "x y"}}', "extended"),
    (b'{"game": "abande", "players": "human"}', "two players"),
    (b'{"game": "abande", "players": ["human"]}', "two players"),
    (b'{"game": "abande", "players": ["human", 3]}', "players[1]"),
    (b'{"game": "abande", "players": ["wizard", "human"]}', "unknown player"),
    (b'{"game": "abande", "players": ["human", "mcts:time=-1"]}', "time"),
])
def test_create_rejects_bad_requests(client: TestClient, body: bytes, words: str) -> None:
    response = client.post("/api/games", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404
    assert missing.json() == {"error": "Not Found"}
    wrong = client.put("/api/games")
    assert wrong.status_code == 405
    assert "error" in wrong.json()
    assert client.get("/api/games/nope/record").status_code == 404
    assert client.get("/api/games/nope/svg").status_code == 404


def test_record_export_then_import_gives_the_same_game(client: TestClient) -> None:
    game_id = new_game(client, "abande", players=["human", "human"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        for ply, move in enumerate(["d4", "d3", "c3", "e4", "c3-d3"]):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            until(ws, state_at(ply + 1))
        ws.send_json({"type": "resign", "side": 1})
        until(ws, lambda m: m["type"] == "state" and m["over"])
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == \
        f'attachment; filename="abande-{game_id}.hgn"'
    text = response.text
    assert '[Game "Abande"]' in text
    assert '[Result "1-0"]' in text
    assert '[Termination "resignation"]' in text
    assert "1. d4 d3 2. c3 e4 3. c3-d3 1-0" in text
    imported = client.post("/api/import", json={"text": text + "\n" + text})
    assert imported.status_code == 201
    ids = imported.json()["ids"]
    assert len(ids) == 2 and game_id not in ids
    with client.websocket_connect(f"/ws/games/{ids[0]}") as ws:
        state = receive(ws)
    assert state["moves"] == ["d4", "d3", "c3", "e4", "c3-d3"]
    assert (state["result"], state["termination"], state["winner"]) == \
        ("1-0", "resignation", 0)
    assert state["players"] == ["human", "human"]


@pytest.mark.parametrize(("body", "words"), [
    ({"text": 5}, "\"text\""),
    ({}, "\"text\""),
    ({"text": ""}, "no game"),
    ({"text": '[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 0,1 *\n'}, "0,1"),
    ({"text": '[Game "Go"]\n[Result "*"]\n\n*\n'}, "Go"),
])
def test_import_rejects_bad_records(client: TestClient, body: dict[str, Any],
                                    words: str) -> None:
    response = client.post("/api/import", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_svg_of_the_current_and_earlier_positions(client: TestClient) -> None:
    pytest.importorskip("hexgames.svg", reason="hexgames.svg (board pictures) not written yet")
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        until(ws, state_at(1))
    now = client.get(f"/api/games/{game_id}/svg")
    assert now.status_code == 200
    assert now.headers["content-type"].startswith("image/svg+xml")
    assert now.text.lstrip().startswith("<svg")
    start = client.get(f"/api/games/{game_id}/svg?ply=0")
    assert start.status_code == 200
    assert start.text != now.text
    assert client.get(f"/api/games/{game_id}/svg?ply=1").text == now.text
    for bad in ("2", "-1", "x"):
        response = client.get(f"/api/games/{game_id}/svg?ply={bad}")
        assert response.status_code == 400
        assert "ply" in response.json()["error"]
    # a side line's picture; with a ply too, the ply was ignored without a word
    assert client.get(f"/api/games/{game_id}/svg?line=0,-1").text != now.text
    both = client.get(f"/api/games/{game_id}/svg?line=0,-1&ply=0")
    assert both.status_code == 400
    assert "not both" in both.json()["error"]


# --- WebSocket -------------------------------------------------------------------------


def test_connect_sends_the_state(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
    assert state["type"] == "state"
    assert state["id"] == game_id
    assert (state["game"], state["rules"], state["names"]) == \
        ("andantino", {}, ["White", "Red"])
    assert (state["moves"], state["ply"], state["turn"], state["over"]) == ([], 0, 0, False)
    assert (state["result"], state["termination"], state["winner"]) == ("*", None, None)
    assert (state["thinking"], state["can_undo"], state["analysis"]) == (False, False, False)
    assert state["board"] == {
        "tiles": [{"cell": "0,0", "q": 0, "r": 0, "side": 0},
                  {"cell": "1,0", "q": 1, "r": 0, "side": 1}],
        "hands": [24, 24], "line": None, "trapped": None, "last": None,
        "single": None, "position": "andantino w=0,0 r=1,0 turn=w hands=w24,r24"}
    assert sorted(state["legal"]) == sorted(m.notation() for m in andantino.Board().legal_moves)


def test_unknown_game_gets_an_error_and_close(client: TestClient) -> None:
    with client.websocket_connect("/ws/games/123456789abc") as ws:
        error = receive(ws)
        assert error == {"type": "error", "message": "no game with id '123456789abc'"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4404


def test_moves_reach_both_sockets_and_are_stored(client: TestClient) -> None:
    game_id = new_game(client, "abande")
    with client.websocket_connect(f"/ws/games/{game_id}") as one, \
            client.websocket_connect(f"/ws/games/{game_id}") as two:
        receive(one)
        receive(two)
        one.send_json({"type": "move", "move": "D4 ", "ply": 0})
        first = until(one, state_at(1))[0]
        second = until(two, state_at(1))[0]
        assert first == second
        assert first["moves"] == ["d4"]
        assert first["turn"] == 1
        assert first["board"]["stacks"] == [{"cell": "d4", "q": 0, "r": 0, "pieces": [0]}]
        assert first["board"]["hands"] == [17, 18]
        assert first["board"]["last"] == "d4"
        assert first["can_undo"] is True
        two.send_json({"type": "move", "move": "d3", "ply": 1})
        state = until(one, state_at(2))[0]
        assert state["board"]["score"] == [1, 1]
        assert state["board"]["awake"] == ["d3", "d4"]
        assert state["board"]["sleeping"] == []
        assert state["board"]["pass_legal"] is False
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 2


BAD_MESSAGES: list[tuple[str, str]] = [
    ("nonsense", "not JSON"),
    ("[1, 2]", "JSON object"),
    ("{}", "\"type\""),
    ('{"type": 5}', "\"type\""),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"type": "move", "ply": 1}', "needs \"move\""),
    ('{"type": "move", "move": 5, "ply": 1}', "\"move\" must be text"),
    ('{"type": "move", "move": "0,-1"}', "needs \"ply\""),
    ('{"type": "move", "move": "0,-1", "ply": "1"}', "\"ply\" must be a whole number"),
    ('{"type": "move", "move": "0,-1", "ply": true}', "\"ply\" must be a whole number"),
    ('{"type": "move", "move": "9,9", "ply": 1}', "illegal move 9,9"),
    ('{"type": "move", "move": "0,1", "ply": 1}', "illegal move 0,1"),
    ('{"type": "move", "move": "d4", "ply": 1}', "not an Andantino move"),
    ('{"type": "move", "move": "0,-1", "ply": 0}', "at ply 1"),
    ('{"type": "resign"}', "needs \"side\""),
    ('{"type": "resign", "side": 2}', "side must be 0 or 1"),
    ('{"type": "resign", "side": "0"}', "\"side\" must be a whole number"),
    ('{"type": "view", "ply": 2}', "out of range"),
    ('{"type": "view", "ply": -1}', "out of range"),
    ('{"type": "analyse", "on": "yes"}', "\"on\" must be true or false"),
    ('{"type": "stop"}', "no AI is thinking"),
]


def test_bad_messages_get_errors_and_change_nothing(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        before = until(ws, state_at(1))[0]
        for text, words in BAD_MESSAGES:
            ws.send_text(text)
            error = receive(ws)
            assert error["type"] == "error", text
            assert words in error["message"], (text, error["message"])
            if "at ply" in words:  # a stale move: the state is resent
                assert receive(ws) == before
            assert fresh_state(ws) == before, text
        ws.send_bytes(b'{"type": "state"}')
        assert "binary" in receive(ws)["message"]
        assert fresh_state(ws) == before
        # the socket still works after all that
        ws.send_json({"type": "move", "move": "1,-1", "ply": 1})
        assert until(ws, state_at(2))[0]["moves"] == ["0,1", "1,-1"]


def test_view_shows_an_earlier_position(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        for ply, move in enumerate(["0,1", "1,-1", "1,1"]):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            until(ws, state_at(ply + 1))
        ws.send_json({"type": "view", "ply": 1})
        view = receive(ws)
    assert view["type"] == "view"
    assert (view["ply"], view["last"], view["line"]) == (1, "0,1", ["0,1"])
    # the legal moves of the position on view: a side line may be played from it
    board = andantino.Board()
    board.push_notation("0,1")
    assert view["legal"] == [m.notation() for m in board.legal_moves]
    assert (view["turn"], view["over"], view["result"]) == (1, False, "*")
    assert [t["cell"] for t in view["board"]["tiles"]] == ["0,0", "0,1", "1,0"]
    assert view["board"]["hands"] == [23, 24]


def test_resign_ends_the_game(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        until(ws, state_at(1))
        ws.send_json({"type": "resign", "side": 0})
        state = receive(ws)
        assert (state["over"], state["result"], state["termination"], state["winner"]) == \
            (True, "0-1", "resignation", 1)
        assert (state["legal"], state["can_undo"]) == ([], False)
        for text, words in [('{"type": "move", "move": "0,-1", "ply": 1}', "game is over"),
                            ('{"type": "resign", "side": 1}', "game is over"),
                            ('{"type": "undo", "ply": 1}', "resignation"),
                            ('{"type": "hint"}', "game is over")]:
            ws.send_text(text)
            error = receive(ws)
            assert words in error["message"], text
            assert fresh_state(ws) == state
    summary = client.get(f"/api/games/{game_id}").json()
    assert (summary["result"], summary["termination"], summary["moves"]) == \
        ("0-1", "resignation", 1)


def test_undo_between_people_takes_back_one_move(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "undo", "ply": 0})
        assert "no move" in receive(ws)["message"]
        for ply, move in enumerate(["0,1", "1,-1"]):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            until(ws, state_at(ply + 1))
        ws.send_json({"type": "undo", "ply": 2})
        state = receive(ws)
    assert (state["moves"], state["turn"], state["board"]["last"]) == (["0,1"], 1, "0,1")
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 1


def test_a_game_against_the_ai(client: TestClient) -> None:
    game_id = new_game(client, "andantino", players=["human", "greedy"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
        ws.send_json({"type": "move", "move": state["legal"][0], "ply": 0})
        # the AI's side is refused to the person while the AI is to move
        ws.send_json({"type": "move", "move": "0,-1", "ply": 1})
        replies: list[Message] = []
        while not (any(m["type"] == "error" for m in replies)
                   and any(state_at(2)(m) for m in replies)):
            replies.append(receive(ws))
        errors = [m["message"] for m in replies if m["type"] == "error"]
        # refused as the AI's turn, or as stale if the AI has moved already
        assert len(errors) == 1
        assert "played by the AI" in errors[0] or "at ply 2" in errors[0]
        ai_move = next(m for m in replies if m["type"] == "ai_move")
        assert (ai_move["side"], type(ai_move["time"])) == (1, float)
        state = fresh_state(ws)
        assert state["ply"] == 2
        assert state["moves"][1] == ai_move["move"]
        assert (state["turn"], state["thinking"]) == (0, False)
        # play on, the person always taking its first legal move, until the end or 16 plies
        while not state["over"] and state["ply"] < 16:
            ws.send_json({"type": "move", "move": state["legal"][0], "ply": state["ply"]})
            state = until(ws, lambda m, p=state["ply"] + 2: m["type"] == "state" and (
                m["ply"] == p or m["over"]))[0]
        board = andantino.Board()
        for move in state["moves"]:
            board.push_notation(move)
        assert state["result"] == board.result()
        red = sorted(board.tiles(1), key=lambda c: (c[1], c[0]))
        assert [t["cell"] for t in state["board"]["tiles"] if t["side"] == 1] == \
            [f"{q},{r}" for q, r in red]
        # undo against the AI takes back the pair: the person is to move again
        plies = state["ply"]
        if not state["over"]:
            ws.send_json({"type": "undo", "ply": plies})
            undone = until(ws, lambda m: m["type"] == "state")[0]
            assert undone["ply"] == plies - 2
            assert undone["moves"] == state["moves"][:-2]
            assert (undone["turn"], undone["thinking"]) == (0, False)


def test_two_ais_play_a_whole_game(client: TestClient) -> None:
    game_id = new_game(client, "abande", players=["random", "random"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws, \
            client.websocket_connect(f"/ws/games/{game_id}") as watcher:
        state, seen = until(ws, lambda m: m["type"] == "state" and m["over"], timeout=40)
        other = until(watcher, lambda m: m["type"] == "state" and m["over"], timeout=10)[0]
        ws.send_json({"type": "undo", "ply": state["ply"]})
        assert "no move of a person" in receive(ws)["message"]
    assert other == state
    ai_moves = [m["move"] for m in seen if m["type"] == "ai_move"]
    assert ai_moves == state["moves"]
    board = abande.Board()
    for move in state["moves"]:
        board.push_notation(move)
    outcome = board.outcome()
    assert outcome is not None
    assert (state["result"], state["termination"]) == \
        (outcome.result(), outcome.termination.value)
    assert state["board"]["score"] == list(outcome.score or board.score())
    summary = client.get(f"/api/games/{game_id}").json()
    assert (summary["moves"], summary["result"]) == (len(state["moves"]), outcome.result())


def test_stop_makes_the_ai_move_now_and_http_still_answers(client: TestClient) -> None:
    game_id = new_game(client, "andantino", players=["alphabeta:time=30", "human"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
        assert (state["thinking"], state["legal"]) == (True, [])
        # a person may not move for the AI
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        assert "played by the AI" in receive(ws)["message"]
        thinking = until(ws, lambda m: m["type"] == "thinking", timeout=10)[0]
        assert thinking["side"] == 0
        assert thinking["elapsed"] > 0.3
        assert set(thinking) >= {"depth", "nodes", "best", "pv", "score"}
        # the server answers HTTP while the AI thinks
        start = time.monotonic()
        listing = client.get("/api/games")
        assert listing.status_code == 200
        assert time.monotonic() - start < 3.0
        assert listing.json()["games"][0]["moves"] == 0
        start = time.monotonic()
        ws.send_json({"type": "stop"})
        ai_move = until(ws, lambda m: m["type"] == "ai_move", timeout=10)[0]
        assert time.monotonic() - start < 5.0
        assert ai_move["time"] < 15.0
        state = until(ws, state_at(1))[0]
        assert state["moves"] == [ai_move["move"]]
        assert (state["thinking"], state["turn"]) == (False, 1)


def test_undo_while_the_ai_thinks_stops_it(client: TestClient) -> None:
    game_id = new_game(client, "abande", players=["human", "alphabeta:time=30"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "d4", "ply": 0})
        state = until(ws, state_at(1))[0]
        assert state["thinking"] is True
        ws.send_json({"type": "undo", "ply": 1})
        undone = until(ws, lambda m: m["type"] == "state")[0]
        assert (undone["ply"], undone["thinking"], undone["turn"]) == (0, False, 0)
        # the stopped search's move is dropped: the person moves again
        ws.send_json({"type": "move", "move": "c3", "ply": 0})
        state = until(ws, state_at(1))[0]
        assert state["moves"] == ["c3"]
        ws.send_json({"type": "stop"})
        ai_move = until(ws, lambda m: m["type"] == "ai_move", timeout=10)[0]
        assert until(ws, state_at(2))[0]["moves"] == ["c3", ai_move["move"]]


def test_hint_and_analysis(client: TestClient) -> None:
    game_id = new_game(client, "abande")
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        legal = receive(ws)["legal"]
        ws.send_json({"type": "hint"})
        hint = until(ws, lambda m: m["type"] == "hint")[0]
        assert hint["move"] in legal
        assert hint["ply"] == 0
        assert hint["pv"][0] == hint["move"]
        ws.send_json({"type": "analyse", "on": True})
        # (a worker that starts slowly may first report no best move yet)
        analysis, seen = until(ws, lambda m: m["type"] == "analysis" and m["best"])
        assert any(m["type"] == "state" and m["analysis"] for m in seen)
        assert analysis["ply"] == 0
        assert analysis["best"] in legal
        ws.send_json({"type": "move", "move": "d4", "ply": 0})
        state = until(ws, state_at(1))[0]
        analysis = until(ws, lambda m: m["type"] == "analysis" and m["ply"] == 1
                         and m["best"])[0]
        assert analysis["best"] in state["legal"]
        ws.send_json({"type": "analyse", "on": False})
        assert until(ws, lambda m: m["type"] == "state" and not m["analysis"])[0]["ply"] == 1


def test_analysis_reports_progress_while_it_runs(db: Path) -> None:
    app = create_app(db, helper_spec="mcts", analysis_time=3.0)
    with TestClient(app) as client:
        game_id = new_game(client)
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            receive(ws)
            ws.send_json({"type": "analyse", "on": True})
            progress = until(ws, lambda m: m["type"] == "analysis" and m["nodes"] > 0,
                             timeout=10)[0]
            assert progress["ply"] == 0
            assert 0 < progress["elapsed"] < 3.0
            assert "done" not in progress  # it goes on for 3 s
            ws.send_json({"type": "analyse", "on": False})
            until(ws, lambda m: m["type"] == "state" and not m["analysis"])


def test_deleting_a_game_closes_its_sockets(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        assert client.delete(f"/api/games/{game_id}").status_code == 200
        error = receive(ws)
        assert error == {"type": "error", "message": f"game {game_id} was closed"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4404


def test_games_survive_a_restart(db: Path) -> None:
    with TestClient(create_app(db)) as client:
        game_id = new_game(client, "andantino", players=["human", "human"],
                           rules={"single_adjacency": True})
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            receive(ws)
            for ply, move in enumerate(["0,1", "1,-1", "1,1"]):
                ws.send_json({"type": "move", "move": move, "ply": ply})
                until(ws, state_at(ply + 1))
            before = fresh_state(ws)
    with TestClient(create_app(db)) as client:
        games = client.get("/api/games").json()["games"]
        assert [(g["id"], g["moves"], g["rules"]) for g in games] == \
            [(game_id, 3, {"single_adjacency": True})]
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            after = receive(ws)
            assert after == before
            ws.send_json({"type": "move", "move": after["legal"][0], "ply": 3})
            assert until(ws, state_at(4))[0]["moves"][:3] == ["0,1", "1,-1", "1,1"]


# --- the command -----------------------------------------------------------------------


@pytest.mark.parametrize(("args", "words"), [
    (["--port", "0"], "--port must be at least 1"),
    (["--port", "70000"], "--port must be at most 65535"),
    (["--port", "x"], "--port must be a whole number"),
    (["--db", "/proc/no/such/games.db"], "cannot open the games database"),
])
def test_serve_rejects_bad_options(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli.cli, ["serve", *args])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") or "error: " in result.output
    assert words in result.output


def test_serve_default_database_is_in_the_user_data_directory() -> None:
    platformdirs = pytest.importorskip("platformdirs")
    path = cli.default_db_path()
    assert path.name == "games.db"
    assert path.parent == Path(platformdirs.user_data_dir("hexgames", appauthor=False))


def test_a_stored_player_that_cannot_be_made_is_reported(db: Path) -> None:
    from hexgames.web.store import GameStore

    stored = GameStore(db).create("andantino", [], ["wizard", "human"])
    with TestClient(create_app(db)) as client, \
            client.websocket_connect(f"/ws/games/{stored.id}") as ws:
        error = receive(ws)
        assert error["type"] == "error"
        assert "the AI of White cannot play" in error["message"]
        assert "wizard" in error["message"]
        state = receive(ws)
        assert (state["ply"], state["thinking"], state["players"]) == \
            (0, False, ["wizard", "human"])


def test_an_acknowledged_move_survives_kill_9(db: Path) -> None:
    """A real server in another process is killed with SIGKILL right after it
    acknowledged a move; the move is in the database."""
    import signal
    import socket
    import subprocess
    import sys

    import httpx

    sync_client = pytest.importorskip("websockets.sync.client")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = ("import sys; from hexgames.cli import main; "
            f"sys.argv = ['hexgames', 'serve', '--port', '{port}', '--db', {str(db)!r}]; "
            "main()")
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/api/games", timeout=1.0)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                assert server.poll() is None, server.communicate()
                time.sleep(0.2)
        game_id = httpx.post(f"{base}/api/games", json={"game": "abande"}).json()["id"]
        with sync_client.connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}") as ws:
            assert json.loads(ws.recv(timeout=10))["ply"] == 0
            ws.send(json.dumps({"type": "move", "move": "d4", "ply": 0}))
            assert json.loads(ws.recv(timeout=10))["moves"] == ["d4"]
            server.send_signal(signal.SIGKILL)
            server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate()
    assert server.returncode == -signal.SIGKILL
    with TestClient(create_app(db)) as client:
        assert client.get(f"/api/games/{game_id}").json()["moves"] == 1


def test_searches_in_threads_of_the_server(db: Path) -> None:
    with pytest.raises(ValueError, match="workers"):
        create_app(db, workers="fibres")
    with TestClient(create_app(db, workers="thread")) as client:
        assert client.app.state.manager.pool is None  # type: ignore[attr-defined]
        game_id = new_game(client, "abande", players=["alphabeta:time=30", "human"])
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            assert receive(ws)["thinking"] is True
            thinking = until(ws, lambda m: m["type"] == "thinking")[0]
            assert thinking["side"] == 0
            start = time.monotonic()
            ws.send_json({"type": "stop"})
            ai_move = until(ws, lambda m: m["type"] == "ai_move")[0]
            assert time.monotonic() - start < 5.0
            state = until(ws, state_at(1))[0]
            assert state["moves"] == [ai_move["move"]]
            ws.send_json({"type": "hint"})
            hint = until(ws, lambda m: m["type"] == "hint")[0]
            assert hint["move"] in state["legal"]


def test_a_worker_process_that_dies_is_reported_and_replaced(client: TestClient) -> None:
    game_id = new_game(client, "andantino", players=["alphabeta:time=30", "human"])
    pool = client.app.state.manager.pool  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        # nodes come from the worker: it is running
        until(ws, lambda m: m["type"] == "thinking" and m["nodes"] > 0)
        [worker] = list(pool._busy)
        worker.process.kill()
        error = until(ws, lambda m: m["type"] == "error")[0]
        assert "worker process ended" in error["message"]
        state = until(ws, lambda m: m["type"] == "state")[0]
        assert (state["ply"], state["thinking"]) == (0, False)
        assert client.get("/api/games").status_code == 200
    # opening the game again starts the AI in a new worker
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        assert receive(ws)["thinking"] is True
        until(ws, lambda m: m["type"] == "thinking")
        ws.send_json({"type": "stop"})
        ai_move = until(ws, lambda m: m["type"] == "ai_move")[0]
        assert until(ws, state_at(1))[0]["moves"] == [ai_move["move"]]


def test_pages_of_other_sites_and_other_host_names_are_refused(db: Path) -> None:
    with TestClient(create_app(db, hosts=HostPolicy.of(hosts=["testserver"]))) as client:
        game_id = new_game(client)
        with client.websocket_connect(f"/ws/games/{game_id}",
                                      headers={"origin": "http://testserver"}) as ws:
            assert receive(ws)["type"] == "state"
        with client.websocket_connect(f"/ws/games/{game_id}",
                                      headers={"origin": "https://evil.example"}) as ws:
            error = receive(ws)
            assert error["message"] == \
                "a page from https://evil.example may not use this server"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4403
        assert client.get("/api/games", headers={"host": "evil.example"}).status_code == 400
        assert client.get(f"/api/games/{game_id}").json()["moves"] == 0


def test_the_protocol_document_names_every_message_the_server_reads() -> None:
    import re

    from hexgames.web.session import _HANDLERS

    doc = Path(__file__).parent.parent / "docs" / "web-protocol.md"
    section = doc.read_text().split("### Page -> server")[1].split("### Server -> page")[0]
    documented = set(re.findall(r'\{"type": "([a-z_]+)"', section))
    assert documented == set(_HANDLERS)


def test_serve_prints_the_address_binds_locally_and_opens_the_browser(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import webbrowser

    import uvicorn

    served: list[tuple[Any, str, int]] = []
    opened: list[str] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(
        (self.config.app, self.config.host, self.config.port)))
    monkeypatch.setattr(webbrowser, "open", opened.append)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    db = tmp_path / "data" / "games.db"
    result = CliRunner().invoke(cli.cli, ["serve", "--port", str(port), "--db", str(db),
                                          "--open"])
    assert result.exit_code == 0, result.output
    url = f"http://127.0.0.1:{port}/"
    assert result.output == \
        f"hexgames: the browser app is at {url} (games in {db}); Ctrl-C stops it\n"
    [(app, host, bound)] = served
    assert (host, bound) == ("127.0.0.1", port)
    assert app.state.store.path == db
    assert db.exists()
    deadline = time.monotonic() + 10
    while not opened and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened == [url]


@pytest.mark.parametrize(("game", "seed"), [("andantino", 0), ("andantino", 9),
                                            ("abande", 1)])
def test_a_finished_game_shows_its_end(client: TestClient, game: str, seed: int) -> None:
    """A random game played to its end, imported: the state shows the winning line or
    trapped tiles (Andantino) or the awake and sleeping stacks and score (Abande)."""
    import random

    from hexgames import record

    module = andantino if game == "andantino" else abande
    rng = random.Random(seed)
    board: Any = module.Board()
    while not board.is_game_over():
        board.push(rng.choice(board.legal_moves))
    outcome = board.outcome()
    text = record.write_game(record.record_from_board(board))
    [game_id] = client.post("/api/import", json={"text": text}).json()["ids"]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
    assert (state["over"], state["result"], state["termination"], state["winner"]) == \
        (True, outcome.result(), outcome.termination.value, outcome.winner)
    assert (state["legal"], state["can_undo"]) == ([], True)
    shown = state["board"]
    if game == "andantino":
        def cells(found: frozenset[tuple[int, int]]) -> list[str] | None:
            return [f"{q},{r}" for q, r in sorted(found)] or None

        assert (shown["line"], shown["trapped"]) == \
            (cells(outcome.line), cells(outcome.trapped))
        assert shown["line"] is not None or shown["trapped"] is not None
    else:
        stacks = board.stacks()
        assert shown["score"] == list(outcome.score)
        assert sorted(shown["awake"] + shown["sleeping"]) == \
            sorted(abande.cell_name(cell) for cell in stacks)
        assert shown["sleeping"] == [abande.cell_name(c) for c in stacks
                                     if c in board.sleeping()]
        assert shown["pass_legal"] is False


def test_a_move_the_database_refuses_is_not_played(client: TestClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.web.store import StoreError

    game_id = new_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        before = until(ws, state_at(1))[0]

        def fail(stored: Any, **options: Any) -> None:
            raise StoreError("disk full")

        monkeypatch.setattr(store, "save", fail)
        for message in ({"type": "move", "move": "1,1", "ply": 1}, {"type": "undo", "ply": 1},
                        {"type": "resign", "side": 1}):
            ws.send_json(message)
            error = receive(ws)
            assert error["type"] == "error"
            assert "not saved: disk full" in error["message"]
            after = fresh_state(ws)
            # the same position; its legal moves may be listed in another order
            assert sorted(after.pop("legal")) == sorted(before["legal"])
            assert after == {k: v for k, v in before.items() if k != "legal"}
    monkeypatch.undo()
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 1


# --- a hostile or hasty page -----------------------------------------------------------


def test_moves_take_backs_and_hints_as_fast_as_possible_stay_within_the_workers(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page sending move, undo and hint over and over (each starting a search that the
    next one makes stale) starts no more worker processes than the limit; searches that
    were cancelled while they waited for a worker report nothing, and the AI still
    plays."""
    from hexgames.web import worker as worker_module

    started: list[object] = []

    class CountedWorker(worker_module.Worker):
        def __init__(self, context: Any, *args: Any) -> None:
            started.append(self)
            super().__init__(context, *args)

    monkeypatch.setattr(worker_module, "Worker", CountedWorker)
    app = create_app(db, helper_spec="greedy", hint_time=0.5, max_workers=2)
    with TestClient(app) as client:
        pool = app.state.manager.pool
        assert pool.limit == 2
        game_id = new_game(client, "andantino", players=["human", "alphabeta:time=30"])
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            receive(ws)
            for _ in range(12):
                ws.send_json({"type": "move", "move": "0,1", "ply": 0})
                ws.send_json({"type": "undo", "ply": 1})
                ws.send_json({"type": "hint"})
            ws.send_json({"type": "move", "move": "0,1", "ply": 0})
            # the last move stands: its search gets a worker and thinks
            seen = until(ws, lambda m: m["type"] == "thinking" and m["nodes"] > 0,
                         timeout=60)[1]
            errors = [m["message"] for m in seen if m["type"] == "error"]
            # refused hints and stale moves only: no failed or cancelled search
            assert all("hint is already" in e or "out of date" in e for e in errors), errors
            ws.send_json({"type": "stop"})
            ai_move = until(ws, lambda m: m["type"] == "ai_move")[0]
            assert until(ws, state_at(2))[0]["moves"] == ["0,1", ai_move["move"]]
        assert 1 <= len(started) <= 2


def test_a_worker_ignores_ctrl_c_and_still_plays() -> None:
    """Ctrl-C in the terminal reaches the workers too: they leave it to the server (which
    ends them) instead of dying with a KeyboardInterrupt traceback."""
    import os
    import signal

    from hexgames.web.worker import ProcessEngine, WorkerPool

    pool = WorkerPool(limit=1)
    try:
        engine = ProcessEngine(pool, "greedy", "game:0")
        assert engine.play(andantino.Board()).move in andantino.Board().legal_moves
        worker = pool.acquire()
        assert worker.process.pid is not None
        os.kill(worker.process.pid, signal.SIGINT)
        time.sleep(0.5)
        assert worker.process.is_alive()
        pool.release(worker)
        assert engine.play(andantino.Board()).move in andantino.Board().legal_moves
    finally:
        pool.close()


def _virtual_mb(pid: int) -> float:
    """A process's virtual memory in MB (a table's pages count from its allocation)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmSize")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_a_worker_keeps_two_players_and_gives_their_memory_back_when_idle() -> None:
    """A worker kept the player (and its table) of every spec it searched for, and
    never gave them back: a user could make it hold gigabytes with games of
    `alphabeta:tt_mb=1024` and keep them after deleting the games."""
    from hexgames.web.worker import KEPT_PLAYERS, ProcessEngine, WorkerPool

    assert KEPT_PLAYERS == 2
    pool = WorkerPool(limit=1, idle_seconds=1.5)
    try:
        def search(tt_mb: int) -> None:
            engine = ProcessEngine(pool, f"alphabeta:depth=1,tt_mb={tt_mb}", "game:0")
            assert engine.play(andantino.Board()).move in andantino.Board().legal_moves

        search(1)
        worker = pool.acquire()
        pid = worker.process.pid
        pool.release(worker)
        assert pid is not None
        base = _virtual_mb(pid)
        search(300)
        assert _virtual_mb(pid) > base + 280  # the table, allocated at once
        for tt_mb in (301, 302, 303):
            search(tt_mb)
        # two tables of about 300 MB kept, not four
        assert base + 550 < _virtual_mb(pid) < base + 700
        deadline = time.monotonic() + 10
        while _virtual_mb(pid) > base + 100 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _virtual_mb(pid) < base + 100
        worker = pool.acquire()
        assert worker.process.pid == pid  # the same worker, still there
        pool.release(worker)
        search(300)  # and it searches again
    finally:
        pool.close()


def test_a_search_cancelled_while_it_waits_for_a_worker_gives_up(db: Path) -> None:
    import threading

    from hexgames.web.worker import ProcessEngine, WorkerError, WorkerPool

    pool = WorkerPool(limit=1)
    try:
        busy = pool.acquire()
        engine = ProcessEngine(pool, "greedy", "game:0")
        failures: list[BaseException] = []

        def play() -> None:
            try:
                engine.play(andantino.Board())
            except WorkerError as error:
                failures.append(error)

        thread = threading.Thread(target=play)
        thread.start()
        thread.join(0.3)
        assert thread.is_alive()  # waiting: the one worker is busy
        engine.cancel()
        thread.join(5)
        assert not thread.is_alive()
        assert "cancelled" in str(failures[0])
        pool.release(busy)
        # a stop ("move now") is no cancel: the search waits for the worker and plays
        engine = ProcessEngine(pool, "greedy", "game:0")
        engine.stop()
        assert engine.play(andantino.Board()).move in andantino.Board().legal_moves
    finally:
        pool.close()


def test_an_over_long_move_text_is_refused_briefly(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "9" * 10_000, "ply": 0})
        error = receive(ws)
        assert error["type"] == "error"
        assert "10000 characters long" in error["message"]
        assert len(error["message"]) < 200
        assert fresh_state(ws)["ply"] == 0


def test_an_import_stores_all_its_games_or_none(client: TestClient,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames.web import store as store_module

    one = '[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n\n'
    # the second game gets the first one's id: the database refuses it
    monkeypatch.setattr(store_module.secrets, "token_hex", lambda n: "0123456789ab")
    response = client.post("/api/import", json={"text": one * 3})
    assert response.status_code == 500
    assert "UNIQUE" in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []
    monkeypatch.undo()
    # many games in one transaction: quick
    start = time.monotonic()
    response = client.post("/api/import", json={"text": one * 1000})
    assert response.status_code == 201
    assert len(set(response.json()["ids"])) == 1000
    assert time.monotonic() - start < 30
    assert client.get("/api/games").json()["total"] == 1000


def test_a_game_opened_while_it_is_deleted_stays_deleted(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from hexgames.web.session import GameSession
    from hexgames.web.views import NotFoundError

    game_id = new_game(client)
    manager = client.app.state.manager  # type: ignore[attr-defined]
    manager.session(game_id)
    opened: list[object] = []

    def open_game() -> None:
        try:
            opened.append(manager.session(game_id))
        except NotFoundError as error:
            opened.append(error)

    close = GameSession.close

    def close_while_another_request_opens_it(session: GameSession) -> None:
        other = threading.Thread(target=open_game)
        other.start()
        other.join(0.3)  # the other request runs now, before the row is deleted
        close(session)
        threads.append(other)

    threads: list[threading.Thread] = []
    monkeypatch.setattr(GameSession, "close", close_while_another_request_opens_it)
    assert client.delete(f"/api/games/{game_id}").status_code == 200
    threads[0].join(5)
    assert isinstance(opened[0], NotFoundError)
    assert game_id not in manager._sessions
    assert client.get(f"/api/games/{game_id}").status_code == 404


def test_a_huge_request_body_is_refused_before_it_is_all_read() -> None:
    from starlette.requests import Request

    from hexgames.web.app import MAX_BODY, _json_body
    from hexgames.web.views import AppError

    sent = 0

    async def receive() -> dict[str, Any]:
        nonlocal sent
        sent += 1
        return {"type": "http.request", "body": b" " * (1 << 20), "more_body": sent < 64}

    def request(headers: list[tuple[bytes, bytes]]) -> Request:
        return Request({"type": "http", "method": "POST", "headers": headers}, receive)

    with pytest.raises(AppError, match=f"larger than {MAX_BODY} bytes"):
        anyio.run(_json_body, request([]))  # sent in chunks, of no stated length
    assert sent == MAX_BODY // (1 << 20) + 1
    sent = 0
    with pytest.raises(AppError, match="larger than"):
        anyio.run(_json_body, request([(b"content-length", str(1 << 30).encode())]))
    assert sent == 0


def test_other_sites_pages_cannot_create_import_or_delete_games(client: TestClient) -> None:
    """A page of another site can post JSON without asking first (a no-cors fetch with
    a text body): it is refused, and the same requests from this server's page work."""
    game_id = new_game(client)
    evil = {"origin": "https://evil.example"}
    record = '[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n'
    for response in (
            client.post("/api/games", content=json.dumps({"game": "abande"}),
                        headers={**evil, "content-type": "text/plain"}),
            client.post("/api/import", json={"text": record}, headers=evil),
            client.delete(f"/api/games/{game_id}", headers=evil)):
        assert response.status_code == 403
        assert response.json() == {"error": "a page from https://evil.example may not "
                                            "use this server"}
    assert [g["id"] for g in client.get("/api/games", headers=evil).json()["games"]] == \
        [game_id]
    own = {"origin": "http://testserver"}
    assert client.post("/api/import", json={"text": record}, headers=own).status_code == 201
    assert client.delete(f"/api/games/{game_id}", headers=own).status_code == 200


def test_a_stored_game_this_version_cannot_read_hides_no_other(client: TestClient) -> None:
    """A game of an unknown game or with an unknown rules option (a database of another
    version) is listed with an error, cannot be opened, and can be deleted; the other
    games are listed as ever."""
    good = new_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    old_rules = store.create("andantino", ["old_option=3"], ["human", "human"],
                             moves=["0,1"]).id
    old_game = store.create("chess", [], ["human", "easy"]).id
    response = client.get("/api/games")
    assert response.status_code == 200
    listed = {g["id"]: g for g in response.json()["games"]}
    assert set(listed) == {good, old_rules, old_game}
    assert "error" not in listed[good]
    assert listed[old_rules]["rules"] == {"old_option": "3"}
    assert listed[old_rules]["names"] == ["White", "Red"]
    assert listed[old_rules]["moves"] == 1
    assert "unknown Andantino rules option 'old_option'" in listed[old_rules]["error"]
    assert "unknown game 'chess'" in listed[old_game]["error"]
    for game_id in (old_rules, old_game):
        assert client.get(f"/api/games/{game_id}").status_code == 409
        assert client.delete(f"/api/games/{game_id}").status_code == 200
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [good]


@pytest.mark.parametrize(("spec", "message"), [
    ("mcts:exploration=-1", "exploration must be a finite number, 0 or more, not -1"),
    ("alphabeta:tt_mb=1000000", "tt_mb=1000000: an AI of this app may use at most 1024 MB"),
    ("alphabeta:tt_mb=0", "at least 1 MB"),
    # the cap held for tt_mb only: a solver's table, an MCTS tree and a fallback's table
    # could take what they liked (a server's user may make any player)
    ("solver:table_mb=1025", "table_mb=1025: an AI of this app may use at most 1024 MB"),
    ("expert:table_mb=1025", "table_mb=1025: an AI of this app may use at most 1024 MB"),
    ("mcts:tree_mb=1025", "tree_mb=1025: an AI of this app may use at most 1024 MB"),
    ("solver:fallback=alphabeta:tt_mb=2000",
     "fallback alphabeta:tt_mb=2000: tt_mb=2000: an AI of this app may use at most "
     "1024 MB"),
    # each fallback's solver made a table of its own: a short spec, many tables
    ("solver:fallback=solver:fallback=random",
     "fallback: 'solver:fallback=random' is a solver"),
])
def test_an_ai_that_could_never_play_is_refused_when_the_game_is_made(
        client: TestClient, spec: str, message: str) -> None:
    """Option values that only the player's constructor checks, and a transposition
    table (or solver table, or MCTS tree) too large for the app, are refused at once, not
    by every search."""
    response = client.post("/api/games", json={"game": "abande", "players": ["human", spec]})
    assert response.status_code == 400
    assert response.json()["error"].startswith("players[1]: ")
    assert message in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []
    assert client.post("/api/games", json={
        "game": "abande", "players": ["human", "alphabeta:tt_mb=16"]}).status_code == 201


def test_a_worker_sends_multipv_lines_and_searches_a_seeded_job_with_its_own_player(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing
    import threading

    from hexgames.engine import players
    from hexgames.web import worker

    monkeypatch.setitem(players._PLAYERS, "lines", ("fake_players", "LinesPlayer"))
    parent, child = multiprocessing.Pipe()
    thread = threading.Thread(target=worker._run_worker, args=(child,), daemon=True)
    thread.start()  # the worker's loop in a thread: the fake player is registered here
    start = andantino.Board().position()
    parent.send(("job", 1, "lines:multipv=3", "g", start, [], ["0,1"], None, None))
    messages = []
    while not messages or messages[-1][0] == "info":
        messages.append(parent.recv())
    kind, job, move, info = messages[-1]
    assert (kind, job) == ("done", 1)
    board = andantino.Board()
    board.push_notation("0,1")
    first = sorted(m.notation() for m in board.legal_moves)[:3]
    assert move == first[0]
    assert [line["pv"][0] for line in info["lines"]] == first
    assert [line["score"] for line in info["lines"]] == [0.5, 0.45, 0.4]
    rebuilt = worker.info_of(info)
    assert [line.pv[0] for line in rebuilt.lines] == first and rebuilt.depth == 3
    # a seeded job: a player of that seed, the same move for the same seed every time
    answers = []
    for job_id, seed in enumerate([5, 6, 5, 5, 7, 8, 9], 2):
        parent.send(("job", job_id, "lines:randomness=10", "g", start, [], [], None, seed))
        while (message := parent.recv())[0] == "info":
            pass
        answers.append(message[2])
    assert answers[0] == answers[2] == answers[3]
    assert len(set(answers)) > 1
    parent.close()
    thread.join(5)


#: White to move wins in 9 with 10 tiles a player (docs/solver.md's example).
PROVEN_WIN = "andantino w=0,0;0,1;-1,2;0,2;0,3 r=1,0;1,1;2,1;1,2;-1,3 turn=w hands=w5,r5"


def _analysed(client: TestClient, game_id: str, test: Callable[[Any], bool]) -> Any:
    """The first ``analysis`` message of the game's position that passes ``test``."""
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "analyse", "on": True})
        found = until(ws, lambda m: m["type"] == "analysis" and test(m), timeout=20)[0]
        ws.send_json({"type": "analyse", "on": False})
        until(ws, lambda m: m["type"] == "state" and not m["analysis"])
    return found


def test_the_analysis_shows_a_proven_value_with_its_line(db: Path) -> None:
    app = create_app(db, helper_spec="alphabeta", analysis_time=5.0)
    with TestClient(app) as client:
        response = client.post("/api/games", json={
            "game": "andantino", "players": ["human", "human"],
            "rules": {"tiles_per_player": 10}, "position": PROVEN_WIN})
        assert response.status_code == 201, response.text
        shown = _analysed(client, response.json()["id"], lambda m: m["proven"])
        assert shown["proven"] == f"White wins in {len(shown['pv'])} (proven)"
        assert shown["mate"] == len(shown["pv"])
        board = andantino.Board(PROVEN_WIN, andantino.Rules(tiles_per_player=10))
        for text in shown["pv"]:
            board.push(board.parse_notation(text))
        assert board.outcome().winner == andantino.Color.WHITE
        # the start of the balance variant is not settled: the engine's guess (the
        # standard start is proven, and the shipped book answers it)
        guess = _analysed(client, new_game(client, rules={"single_adjacency": True}),
                          lambda m: m["depth"] > 0)
        assert guess["proven"] is None and guess["mate"] is None


def test_the_analysis_of_a_book_position_shows_the_books_line(tmp_path: Path) -> None:
    """The shipped book lists the standard start with White's winning move; the analysis
    showed that move alone as the proven line ("Proven line: 0,1"). Now it shows the
    book's line as far as the book goes: White's moves and Red's longest replies, 15 of
    the win's 47 plies (a real server and socket)."""
    from server_helpers import Client, LiveServer

    srv = LiveServer(tmp_path / "games.db", server=False, helper_spec="alphabeta",
                     analysis_time=5.0)
    client = Client(srv)
    try:
        made = client.http.post("/api/games", json={"game": "andantino",
                                                    "players": ["human", "human"]})
        assert made.status_code == 201, made.text
        socket = client.socket(made.json()["id"])
        assert socket.receive()["type"] == "state"
        socket.send({"type": "analyse", "on": True})
        shown = socket.until(lambda m: m["type"] == "analysis" and m["proven"], timeout=20)
        socket.close()
    finally:
        client.close()
        srv.stop()
    line = [m.notation() for m in book.book_line(andantino.Board())]
    assert (shown["proven"], shown["mate"], shown["pv"]) == (
        "White wins in 47 (proven)", 47, line)
    assert len(line) == 15 and line[:2] == ["0,1", "1,-1"]
