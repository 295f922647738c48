"""Issue 32 item 10: the browser app's messages grow with the position, not with its
square, and a position looked at again is not replayed.

In extended play a position of 300 tiles each (``tests/large_positions.py``) has 179,400
relocations: its ``state`` and every ``view`` listed them all as text (2.7 MB each, two
seconds of the server's time a view). Now they list the moves that move no piece and
the pieces that can move (``legal``, ``sources``), and the page asks for one piece's
targets when it is picked up (``targets``).
"""

from __future__ import annotations

import json
import sqlite3
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette would rather have httpx2: not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

from large_positions import STRIP_RULES, strip_position
from web_helpers import Message, new_game, receive, state_at, until

from hexgames import abande, andantino, limits
from hexgames.record import GameRecord, write_game
from hexgames.web import create_app, store
from hexgames.web.positions import Positions
from hexgames.web.views import AppError

#: The most bytes a message of the strip may take: its position string is 3.4 KB, its
#: messages were 2.7 MB.
SMALL = 100_000
STRIP_OPTIONS = {"extended": True, "tiles_per_player": 300}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "games.db", helper_spec="greedy", hint_time=0.5,
                     analysis_time=5.0, workers="thread")
    with TestClient(app) as test_client:
        yield test_client


def strip_game(client: TestClient) -> str:
    answer = client.post("/api/games", json={"game": "andantino", "rules": STRIP_OPTIONS,
                                             "position": strip_position()})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def size(message: Message) -> int:
    return len(json.dumps(message))


def cells(board: andantino.Board, color: int) -> list[str]:
    """The tiles of ``color`` in notation, in position-string order."""
    return [f"{q},{r}" for q, r in sorted(board.tiles(color), key=lambda c: (c[1], c[0]))]


def ask(ws: WebSocketTestSession, message: Message) -> Message:
    """Send ``message`` and return the answer (or the error)."""
    ws.send_json(message)
    return until(ws, lambda m: m["type"] in (message["type"], "error"))[0]


def positions(client: TestClient, game_id: str) -> Positions:
    kept: Positions = client.app.state.manager.session(game_id).positions  # type: ignore[attr-defined]
    return kept


def nobody_watches(client: TestClient, game_id: str) -> None:
    """Wait until the server has seen the game's last socket close (soon after the
    test client closed it)."""
    session = client.app.state.manager.session(game_id)  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while session.subscribers and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not session.subscribers


def test_state_and_views_of_a_large_extended_position_grow_with_the_position(
        client: TestClient) -> None:
    board = andantino.Board(strip_position(), STRIP_RULES)
    game_id = strip_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
        assert size(state) < SMALL
        # no placement with empty hands; every one of White's tiles can move
        assert (state["legal"], state["sources"]) == ([], cells(board, 0))
        view = ask(ws, {"type": "view", "line": []})
        assert size(view) < SMALL
        assert (view["legal"], view["sources"]) == ([], cells(board, 0))
        ws.send_json({"type": "move", "move": "0,0>5,-1", "ply": 0})
        state = until(ws, state_at(1))[0]
        board.push_notation("0,0>5,-1")
        assert size(state) < SMALL
        assert (state["legal"], state["sources"]) == ([], cells(board, 1))
        for asked in ({"ply": 1}, {"line": ["0,0>5,-1"]}):
            view = ask(ws, {"type": "view", **asked})
            assert size(view) < SMALL
            assert (view["line"], view["sources"]) == (["0,0>5,-1"], cells(board, 1))
            assert view["board"]["position"] == board.position()


def test_an_imported_extended_game_is_viewed_in_small_messages(client: TestClient) -> None:
    board = andantino.Board(strip_position(), STRIP_RULES)
    for text in ("0,0>5,-1", "2,0>6,-1", "4,0>0,0"):
        board.push_notation(text)
    record = GameRecord({"Game": "Andantino", "Rules": " ".join(STRIP_RULES.options()),
                         "Position": strip_position(), "Result": "*"},
                        [m.notation() for m in board.move_stack])
    answer = client.post("/api/import", json={"text": write_game(record)})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["ids"][0]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        state = receive(ws)
        assert size(state) < SMALL
        assert state["sources"] == cells(board, 1)
        for ply in range(4):
            view = ask(ws, {"type": "view", "ply": ply})
            assert size(view) < SMALL
            assert len(view["sources"]) == 300


def test_targets_are_the_legal_relocations_of_one_tile(client: TestClient) -> None:
    board = andantino.Board(strip_position(), STRIP_RULES)
    every = board.legal_moves  # all 179,400, as the board lists them

    def expected(cell: tuple[int, int]) -> list[str]:
        return sorted(f"{m.to[0]},{m.to[1]}" for m in every if m.from_ == cell)

    game_id = strip_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        for asked in ({}, {"line": []}, {"ply": 0}):  # the game's position, named so
            answer = ask(ws, {"type": "targets", "from": "2,1", **asked})
            assert answer["type"] == "targets", answer
            assert (answer["from"], answer["position"]) == ("2,1", board.position())
            assert sorted(answer["targets"]) == expected((2, 1))
            assert len(answer["targets"]) == 598
            assert size(answer) < SMALL
        # any spelling of the cell; a tile that is not the mover's, an empty cell: none
        answer = ask(ws, {"type": "targets", "from": " (0, 0) "})
        assert (answer["from"], sorted(answer["targets"])) == ("0,0", expected((0, 0)))
        assert ask(ws, {"type": "targets", "from": "0,1"})["targets"] == []  # Red's
        assert ask(ws, {"type": "targets", "from": "50,50"})["targets"] == []
        # of a side line's position, and of the game's after a move
        board.push_notation("0,0>5,-1")
        every = board.legal_moves
        answer = ask(ws, {"type": "targets", "from": "0,1", "line": ["0,0>5,-1"]})
        assert answer["position"] == board.position()
        assert sorted(answer["targets"]) == expected((0, 1))
        ws.send_json({"type": "move", "move": "0,0>5,-1", "ply": 0})
        until(ws, state_at(1))
        for asked in ({}, {"ply": 1}):
            assert sorted(ask(ws, {"type": "targets", "from": "0,1", **asked})[
                "targets"]) == expected((0, 1))
        # bad requests: an error that names what is wrong, the socket goes on
        for message, words in (
                ({"type": "targets"}, 'needs "from"'),
                ({"type": "targets", "from": 5}, '"from" must be text'),
                ({"type": "targets", "from": "x,1"}, '"from" must be a cell'),
                ({"type": "targets", "from": "1" * 70}, "no cell is longer"),
                ({"type": "targets", "from": "0,1", "ply": 9}, "out of range"),
                ({"type": "targets", "from": "0,1", "line": "0,1"}, "list of moves"),
                ({"type": "targets", "from": "0,1", "line": ["0,0>9,9"]},
                 "move 1 of the line"),
                ({"type": "view"}, 'needs "ply"')):
            error = ask(ws, message)
            assert error["type"] == "error" and words in error["message"], (message, error)
        ws.send_json({"type": "state"})
        assert until(ws, lambda m: m["type"] == "state")[0]["ply"] == 1


def test_targets_of_an_abande_stack(client: TestClient) -> None:
    moves = ["d4", "d5", "d3", "c4", "e4"]
    board = abande.Board()
    for text in moves:
        board.push_notation(text)
    game_id = new_game(client, "abande")
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        for ply, text in enumerate(moves):
            ws.send_json({"type": "move", "move": text, "ply": ply})
            state = until(ws, state_at(ply + 1))[0]
        sources = sorted({m.notation().split("-")[0] for m in board.legal_moves
                          if m.is_stack_move})
        assert sorted(state["sources"]) == sources
        assert sorted(state["legal"]) == sorted(m.notation() for m in board.legal_moves
                                                if not m.is_stack_move)
        for source in sources:
            answer = ask(ws, {"type": "targets", "from": source.upper()})
            assert answer["from"] == source
            assert answer["targets"] == [m.notation().split("-")[1] for m in
                                         board.legal_moves
                                         if m.notation().startswith(f"{source}-")]
        error = ask(ws, {"type": "targets", "from": "h9"})
        assert "not a point" in error["message"]


def test_a_position_looked_at_again_is_not_replayed(client: TestClient) -> None:
    game_id = strip_game(client)
    line = ["0,0>5,-1", "2,0>6,-1", "4,0>0,0"]
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        kept = positions(client, game_id)
        first = ask(ws, {"type": "view", "line": line})
        assert (kept.replayed, kept.hits) == (3, 0)
        # the same line again, and again spelt otherwise: no move replayed
        assert ask(ws, {"type": "view", "line": line}) == first
        assert ask(ws, {"type": "view", "line": [" (0, 0) > (5,-1)", *line[1:]]}) == first
        assert (kept.replayed, kept.hits) == (3, 2)
        # a step back, then forward into a side line: one move each (taken back, played)
        ask(ws, {"type": "view", "line": line[:2]})
        assert kept.replayed == 4
        ask(ws, {"type": "view", "line": [*line[:2], "8,0>0,0"]})
        assert kept.replayed == 5
        # the targets of a tile there replay nothing more either
        ask(ws, {"type": "targets", "from": "6,0", "line": [*line[:2], "8,0>0,0"]})
        assert kept.replayed == 5
        # at most KEPT_VIEWS views are kept: the first of more lines is replayed again
        for ply in range(limits.KEPT_VIEWS):
            ask(ws, {"type": "view", "line": [*line[:2], f"{12 + 4 * ply},0>0,0"]})
        hits = kept.hits
        ask(ws, {"type": "view", "line": line})
        assert kept.hits == hits
    # nobody watches: nothing is kept
    nobody_watches(client, game_id)
    assert kept.sizes() == (0, 0)


def test_kept_boards_and_views_are_bounded_and_a_failed_line_leaves_a_good_board(
        ) -> None:
    made: list[andantino.Board] = []

    def start() -> andantino.Board:
        made.append(andantino.Board())
        return made[-1]

    kept = Positions(start, lambda board, moves: {"moves": moves}, views=2, boards=2)
    assert json.loads(kept.view(["0,1", "1,1"])) == {"moves": ["0,1", "1,1"]}
    with pytest.raises(AppError, match=r"move 3 of the line \('0,1'\): illegal move"):
        kept.view(["0,1", "1,1", "0,1"])
    # the board stands after the two good moves: reaching them replays nothing
    replayed = kept.replayed
    board, moves = kept.board(["(0, 1)", "1,1"])
    assert (moves, kept.replayed, len(made)) == (["0,1", "1,1"], replayed, 1)
    assert [m.notation() for m in board.move_stack] == ["0,1", "1,1"]
    kept.board(["1,-1"])  # nearer a new board (one move) than 0,1 1,1 (three)
    assert len(made) == 2
    kept.board(["0,1", "1,1", "1,-1"])  # one move on from 0,1 1,1
    assert (len(made), kept.replayed) == (2, replayed + 2)
    kept.board(["0,1"])  # a new board, in place of the one least recently used
    assert len(made) == 3
    assert [m.notation() for m in made[1].move_stack] == ["1,-1"]  # dropped, not moved
    for line in (["0,1"], ["1,-1"], ["0,1", "1,-1"]):
        kept.view(line)
    assert kept.sizes() == (2, 2)


def test_kept_views_are_bounded_in_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    # views of 400 KB text each: 2 fit under the byte budget of 1 MiB, whatever the count
    kept = Positions(andantino.Board, lambda board, moves: {"pad": "x" * 400_000},
                     views=32)
    for line in (["0,1"], ["1,-1"], ["0,1", "1,1"], ["0,1", "-1,1"]):
        kept.view(line)
    assert kept.sizes()[0] == 2


def test_a_move_and_an_undo_replay_nothing_of_the_game(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move replayed the whole game to graft it onto the study record, an undo once
    more to copy the board: the work of one move grew with the game (about a
    millisecond a relocation of the strip)."""
    line = ["0,0>5,-1", "2,0>6,-1", "4,0>0,0", "3,0>2,0", "5,0>3,0"]
    game_id = strip_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        for ply, move in enumerate(line[:-1]):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            until(ws, state_at(ply + 1))
        pushed: list[andantino.Move] = []
        copied: list[andantino.Board] = []
        push, copy = andantino.Board.push, andantino.Board.copy
        monkeypatch.setattr(andantino.Board, "push",
                            lambda board, move: (pushed.append(move), push(board, move)))
        monkeypatch.setattr(andantino.Board, "copy",
                            lambda board: (copied.append(board), copy(board))[1])
        ws.send_json({"type": "move", "move": line[-1], "ply": len(line) - 1})
        state = until(ws, state_at(len(line)))[0]
        ws.send_json({"type": "undo", "ply": len(line)})
        state = until(ws, state_at(len(line) - 1))[0]
    assert state["moves"] == line[:-1]
    assert [m.notation() for m in pushed] == [line[-1]]  # the move itself, no replay
    assert copied == []


def test_a_page_of_the_games_list_reads_no_record_and_no_analysis(
        client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each summary of GET /api/games read its game's whole row: the study record (up
    to megabytes of comments) and the whole-game analysis, which no summary shows."""
    comment = "a long comment " * 40_000  # 600 KB
    text = f'[Game "Andantino"]\n[White "Ann"]\n[Result "*"]\n\n1. 0,1 {{{comment}}} *\n'
    answer = client.post("/api/import", json={"text": text})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["ids"][0]
    analysis = {"moves": ["0,1"], "positions": [{"pv": ["1,1"] * 50}] * 5000}
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE games SET extra = ? WHERE id = ?",
                   (json.dumps({"imported": True, "analysis": analysis}), game_id))
    read: list[tuple[object, ...]] = []
    game_of_row = store._game
    monkeypatch.setattr(store, "_game", lambda row: (read.append(row), game_of_row(row))[1])
    listed = client.get("/api/games").json()["games"]
    assert len(read) == 1 and sum(len(str(value)) for value in read[0]) < 2_000
    assert [(g["id"], g["moves"], g["player_names"]) for g in listed] == [
        (game_id, 1, ["Ann", "?"])]  # a name the record does not give is unknown
    # the game itself has them all
    monkeypatch.undo()
    assert comment.strip() in client.get(f"/api/games/{game_id}/record").text


def test_a_picture_of_the_game_or_of_the_position_on_view_replays_nothing(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """GET /api/games/{id}/svg replayed the game from its start for every picture, the
    current position's too, on the server's event loop."""
    line = ["0,0>5,-1", "2,0>6,-1", "4,0>0,0"]
    game_id = strip_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        for ply, move in enumerate(line):
            ws.send_json({"type": "move", "move": move, "ply": ply})
            until(ws, state_at(ply + 1))
        ask(ws, {"type": "view", "ply": 1})  # the page shows an earlier position
        pushed: list[andantino.Move] = []
        push = andantino.Board.push
        monkeypatch.setattr(andantino.Board, "push",
                            lambda board, move: (pushed.append(move), push(board, move)))
        now = client.get(f"/api/games/{game_id}/svg")
        earlier = client.get(f"/api/games/{game_id}/svg?ply=1")
        side = client.get(f"/api/games/{game_id}/svg?line=0,0>5,-1")
        assert pushed == []
        assert earlier.text == side.text != now.text
        assert 'data-cell="5,-1"' in earlier.text and 'data-cell="4,0"' in earlier.text
        assert now.headers["content-disposition"].endswith('-ply3.svg"')
    # nobody watches: a picture keeps nothing
    nobody_watches(client, game_id)
    assert client.get(f"/api/games/{game_id}/svg?ply=2").status_code == 200
    assert positions(client, game_id).sizes() == (0, 0)
