"""The opening explorer (issue 35): its index (counts per move, transpositions, a game
indexed when it ends and taken out when a take-back reopens it or it is deleted, a
collection imported from records) and its HTTP endpoint with real clients, refusals
included."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("starlette", reason="the browser app needs hexgames[web]")
pytest.importorskip("argon2", reason="the server mode needs hexgames[web]")

from server_helpers import PASSWORD, Client, LiveServer, Socket, challenge_game

from hexgames import andantino
from hexgames.record import read_games
from hexgames.web.accounts import hash_password
from hexgames.web.explorer import Explorer, import_records
from hexgames.web.explorer_tables import IndexedGame, position_key
from hexgames.web.store import GameStore

START = andantino.Board().position()
#: White's line of five through its set-up tile: 0,-1 .. 0,3 (7 plies).
WIN = ["0,1", "1,1", "0,2", "1,2", "0,3", "1,-1", "0,-1"]


def key_after(moves: list[str]) -> bytes:
    board = andantino.Board()
    for move in moves:
        board.push_notation(move)
    return position_key("andantino", [], board.position())


def entry(game_id: str, moves: list[str], result: str,
          ratings: tuple[float | None, float | None] = (None, None),
          source: str = "games") -> IndexedGame:
    return IndexedGame(source, game_id, "andantino", (), None, tuple(moves), result, ratings)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[GameStore]:
    opened = GameStore(tmp_path / "games.db")
    yield opened
    opened.close()


def test_counts_per_move_scores_and_ratings(store: GameStore) -> None:
    store.explorer_index([
        entry("a", ["0,1", "1,1"], "1-0", (1600, 1400)),
        entry("b", ["0,1", "-1,1"], "0-1", (1800, None)),
        entry("c", ["1,-1", "0,1"], "1/2-1/2"),
        entry("d", ["0,1"], "1-0", (2000, 2200)),
    ])
    moves = {m.move: m for m in store.explorer_moves(key_after([]), ["games"])}
    assert list(moves) == ["0,1", "1,-1"]  # the most played first
    first = moves["0,1"]
    assert (first.games, first.first_wins, first.draws, first.second_wins) == (3, 2, 0, 1)
    assert first.rating_count == 5 and first.average_rating == pytest.approx(9000 / 5)
    other = moves["1,-1"]
    assert (other.games, other.first_wins, other.draws, other.second_wins) == (1, 0, 1, 0)
    assert other.average_rating is None
    replies = {m.move: m.games for m in store.explorer_moves(key_after(["0,1"]), ["games"])}
    assert replies == {"1,1": 1, "-1,1": 1}
    assert store.explorer_count("games") == 4


def test_transpositions_share_a_position(store: GameStore) -> None:
    # two move orders reach one position: its moves are counted together
    one = ["1,-1", "0,1", "2,-1", "0,-1"]
    other = ["1,-1", "0,-1", "2,-1", "0,1"]
    store.explorer_index([entry("a", [*one, "1,1"], "1-0"),
                          entry("b", [*other, "1,1"], "0-1"),
                          entry("c", [*other, "-1,1"], "1-0")])
    assert key_after(one) == key_after(other)
    moves = {m.move: (m.games, m.first_wins, m.second_wins)
             for m in store.explorer_moves(key_after(one), ["games"])}
    assert moves == {"1,1": (2, 1, 1), "-1,1": (1, 1, 0)}
    # other rules are another position
    assert position_key("andantino", ["tiles_per_player=30"], START) != key_after([])


def test_reindexing_replaces_and_removal_subtracts(store: GameStore) -> None:
    store.explorer_index([entry("a", ["0,1", "1,1"], "1-0")])
    assert store.explorer_index([entry("a", ["0,1", "1,1"], "1-0")]) == 0  # once
    store.explorer_index([entry("a", ["0,1", "-1,1"], "0-1")])  # the game changed
    moves = store.explorer_moves(key_after(["0,1"]), ["games"])
    assert [(m.move, m.games, m.second_wins) for m in moves] == [("-1,1", 1, 1)]
    assert store.explorer_remove("games", "a")
    assert store.explorer_moves(key_after([]), ["games"]) == []
    assert not store.explorer_remove("games", "a")


def test_sources_are_kept_apart_and_a_collection_is_imported_once(store: GameStore) -> None:
    text = ('[Game "Andantino"]\n[White "A"]\n[Red "B"]\n[WhiteElo "2100"]\n[RedElo "1900"]\n'
            '[Result "1-0"]\n[Termination "line"]\n\n'
            "1. 0,1 1,1 2. 0,2 1,2 3. 0,3 1,-1 4. 0,-1 1-0\n\n"
            '[Game "Andantino"]\n[White "C"]\n[Red "D"]\n[Result "*"]\n\n1. 0,1 *\n')
    records = read_games(text)
    assert import_records(store, records) == (1, 1)
    assert import_records(store, records) == (0, 2)  # the same game is not added again
    store.explorer_index([entry("x", ["0,1"], "0-1")])
    both = store.explorer_moves(key_after([]), ["games", "collection"])
    assert [(m.move, m.games, m.first_wins, m.second_wins) for m in both] == [("0,1", 2, 1, 1)]
    collection = store.explorer_moves(key_after([]), ["collection"])
    assert collection[0].average_rating == 2000


# --- the server: indexed when a game ends, with real clients -------------------------------


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "games.db")
    yield server
    server.stop()


def explore(client: Client, moves: list[str], **params: str) -> httpx.Response:
    board = andantino.Board()
    for move in moves:
        board.push_notation(move)
    query = urllib.parse.urlencode({"game": "andantino", "position": board.position(),
                                    **params})
    return client.http.get(f"/api/explorer?{query}")


def play(sockets: dict[int, Socket], moves: list[str], start_ply: int = 0) -> None:
    for ply, move in enumerate(moves, start_ply):
        socket = sockets[ply % 2]
        socket.send({"type": "move", "move": move, "ply": ply})
        socket.until(lambda m, p=ply: m["type"] == "state" and m["ply"] == p + 1)


def test_a_game_is_indexed_when_it_ends(live: LiveServer) -> None:
    alice, bob, carol = Client(live), Client(live), Client(live)
    for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        assert client.signup(name).status_code == 201
    game_id = challenge_game(alice, bob)
    sockets = {0: alice.socket(game_id), 1: bob.socket(game_id)}
    try:
        play(sockets, WIN[:6])
        assert explore(carol, []).json()["moves"] == []  # running: not indexed
        play(sockets, WIN[6:], 6)
        answer = explore(carol, []).json()
        assert answer["games"] == 1
        # (the start is proven: White's 0,1 wins within 47 plies, the book says)
        assert answer["moves"] == [{"move": "0,1", "games": 1, "wins": [1, 0], "draws": 0,
                                    "score": 1.0, "rating": None,
                                    "proven": {"winner": 0, "plies": 47}}]
        assert explore(carol, WIN[:6]).json()["moves"][0]["move"] == "0,-1"
    finally:
        for socket in sockets.values():
            socket.close()
        for client in (alice, bob, carol):
            client.close()


def test_refusals(live: LiveServer) -> None:
    nobody, alice, bob = Client(live), Client(live), Client(live)
    alice.signup("alice")
    bob.signup("bob")
    try:
        assert explore(nobody, []).status_code == 401
        bad = alice.http.get("/api/explorer", params={"game": "andantino",
                                                      "position": "andantino w=0,0 turn=q"})
        assert bad.status_code == 400 and "not a position of andantino" in bad.json()["error"]
        huge = alice.http.get("/api/explorer", params={"game": "andantino",
                                                       "position": "x" * 5000})
        assert huge.status_code == 413 and "5000 characters" in huge.json()["error"]
        unknown = alice.http.get("/api/explorer", params={"game": "chess"})
        assert unknown.status_code == 400 and "game must be one of" in unknown.json()["error"]
        source = explore(alice, [], source="everything")
        assert source.status_code == 400 and "source must be" in source.json()["error"]
        # a player of a running rated game gets no explorer
        challenge_game(alice, bob, rated=True,
                       time_control={"kind": "live", "base": 300, "increment": 2})
        refused = explore(alice, [])
        assert refused.status_code == 403 and "rated game" in refused.json()["error"]
    finally:
        for client in (nobody, alice, bob):
            client.close()


def test_a_casual_game_between_people_bars_the_explorer_unless_help_was_agreed(
        live: LiveServer) -> None:
    """The explorer's answers hold the book's proven moves: engine help. A player of a
    running game between two people gets none of it anywhere unless both agreed to a
    casual game with engine help; a watcher does, and the players again once it ends."""
    alice, bob, carol = Client(live), Client(live), Client(live)
    for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        assert client.signup(name).status_code == 201
    try:
        assert explore(alice, []).status_code == 200
        own = alice.http.post("/api/games", json={"game": "andantino",
                                                  "players": ["human", "easy"]})
        assert own.status_code == 201, own.text
        game_id = challenge_game(alice, bob)
        for player in (alice, bob):
            refused = explore(player, [])
            assert refused.status_code == 403, refused.text
            assert "game between two people" in refused.json()["error"]
        # nor a hint elsewhere: in a game of its own against the computer (begun before)
        socket = alice.socket(own.json()["id"])
        try:
            socket.receive()
            assert "game between two people" in socket.error({"type": "hint"})
        finally:
            socket.close()
        assert explore(carol, []).status_code == 200  # a watcher is not playing it
        socket = alice.socket(game_id)
        try:
            socket.receive()
            socket.send({"type": "resign", "side": 0})
            socket.until(lambda m: m["type"] == "state" and m["over"])
        finally:
            socket.close()
        assert explore(alice, []).status_code == 200
        # a casual game with help agreed bars nothing
        challenge_game(alice, carol, engine_help=True)
        assert explore(alice, []).status_code == 200
        assert explore(carol, []).status_code == 200
    finally:
        for client in (alice, bob, carol):
            client.close()


@pytest.mark.parametrize(("column", "value"), [("players", "[" * 10),
                                               ("extra", "{not json")])
def test_an_unreadable_game_bars_nothing_and_locks_no_account_out(
        live: LiveServer, tmp_path: Path, column: str, value: str) -> None:
    """The account's games are read for what bars its engine help on every request: a
    running game whose players or extra column could not be read made every request of
    its player answer 500 (the server lists such a game with its error, to be deleted)."""
    import sqlite3

    [alice] = [Client(live)]
    assert alice.signup("alice").status_code == 201
    try:
        made = alice.http.post("/api/games", json={"game": "andantino",
                                                   "players": ["human", "easy"]})
        assert made.status_code == 201, made.text
        with sqlite3.connect(tmp_path / "games.db") as conn:
            conn.execute(f"UPDATE games SET {column} = ? WHERE id = ?",
                         (value, made.json()["id"]))
        assert alice.http.get("/api/me").status_code == 200
        assert explore(alice, []).status_code == 200
        listed = alice.http.get("/api/games", params={"mine": "1"})
        assert listed.status_code == 200, listed.text
        assert "error" in listed.json()["games"][0]
    finally:
        alice.close()


def test_catch_up_indexes_games_that_ended_before(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.db")
    try:
        store.create("andantino", [], ["human", "human"], moves=WIN, result="1-0",
                     termination="line")
        store.create("andantino", [], ["human", "human"], moves=["0,1"])  # running
        store.create("andantino", [], ["human", "human"], moves=WIN, result="1-0",
                     termination="line", extra={"imported": True})  # a record: left out
        explorer = Explorer(store, {})
        assert len(store.explorer_missing()) == 1  # neither the running nor the import
        assert explorer.catch_up() == 1
        assert explorer.catch_up() == 0
        assert [m.games for m in store.explorer_moves(key_after([]), ["games"])] == [1]
        # the manager's hook: a game that runs again (a take-back) leaves the index,
        # and so does a deleted one
        (won,) = [g for g in store.games() if g.result == "1-0" and not g.extra]
        won.moves, won.result, won.termination = WIN[:6], "*", None
        store.save(won)
        explorer.changed(won)
        assert store.explorer_moves(key_after([]), ["games"]) == []
        won.moves, won.result, won.termination = WIN, "1-0", "line"
        explorer.changed(won)
        assert [m.games for m in store.explorer_moves(key_after([]), ["games"])] == [1]
        explorer.deleted(won.id)
        assert store.explorer_moves(key_after([]), ["games"]) == []
    finally:
        store.close()


def test_the_commands_import_a_collection_and_build_the_index(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexgames.cli import cli

    db = tmp_path / "games.db"
    records = tmp_path / "games.hgn"
    records.write_text(
        '[Game "Andantino"]\n[White "A"]\n[Red "B"]\n[WhiteElo "2000"]\n[RedElo "1800"]\n'
        '[Result "1-0"]\n[Termination "line"]\n\n1. 0,1 1,1 2. 0,2 1,2 3. 0,3 1,-1 '
        "4. 0,-1 1-0\n", encoding="utf-8")
    runner = CliRunner()
    done = runner.invoke(cli, ["explorer", "import", str(records), "--db", str(db)])
    assert done.exit_code == 0, done.output
    assert "1 games added to the explorer's collection (0 left out" in done.output
    again = runner.invoke(cli, ["explorer", "import", str(records), "--db", str(db)])
    assert "0 games added" in again.output and "1 in all" in again.output
    bad = tmp_path / "bad.hgn"
    bad.write_text('[Game "Andantino"]\n[Result "1-0"]\n\n1. 9,9 1-0\n', encoding="utf-8")
    refused = runner.invoke(cli, ["explorer", "import", str(bad), "--db", str(db)])
    assert refused.exit_code == 2 and "bad.hgn" in refused.output
    store = GameStore(db)
    try:
        store.create("andantino", [], ["human", "human"], moves=WIN, result="1-0",
                     termination="line")
    finally:
        store.close()
    built = runner.invoke(cli, ["explorer", "build", "--db", str(db)])
    assert built.exit_code == 0 and "1 games indexed" in built.output, built.output
    store = GameStore(db)
    try:
        (move,) = store.explorer_moves(key_after([]), ["games", "collection"])
        assert (move.games, move.first_wins, move.rating_count) == (2, 2, 2)
    finally:
        store.close()


def test_a_database_of_schema_5_gets_the_index_and_its_games_indexed(tmp_path: Path) -> None:
    import sqlite3

    db = tmp_path / "games.db"
    store = GameStore(db)
    store.create("andantino", [], ["human", "human"], moves=WIN, result="1-0",
                 termination="line")
    store.close()
    with sqlite3.connect(db) as conn:  # as hexgames of schema 5 left it
        conn.execute("DROP TABLE explorer_moves")
        conn.execute("DROP TABLE explorer_games")
        conn.execute("PRAGMA user_version = 5")
    store = GameStore(db)
    try:
        assert store.explorer_missing() == [g.id for g in store.games()]
        assert Explorer(store, {}).catch_up() == 1
        assert [m.games for m in store.explorer_moves(key_after(WIN[:6]), ["games"])] == [1]
    finally:
        store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 9


def test_an_administrator_adds_records_to_the_collection(live: LiveServer) -> None:
    live.app.state.store.add_user("root", hash_password(PASSWORD), admin=True)
    root, alice = Client(live), Client(live)
    assert root.login("root").status_code == 200
    assert alice.signup("alice").status_code == 201
    text = ('[Game "Andantino"]\n[White "A"]\n[Red "B"]\n[WhiteElo "2100"]\n'
            '[RedElo "1900"]\n[Result "1-0"]\n[Termination "line"]\n\n'
            "1. 0,1 1,1 2. 0,2 1,2 3. 0,3 1,-1 4. 0,-1 1-0\n")
    try:
        refused = alice.http.post("/api/explorer/import", json={"text": text})
        assert refused.status_code == 403 and "administrator" in refused.json()["error"]
        added = root.http.post("/api/explorer/import", json={"text": text})
        assert added.status_code == 201 and added.json() == {"added": 1, "skipped": 0,
                                                             "total": 1}
        again = root.http.post("/api/explorer/import", json={"text": text})
        assert again.json() == {"added": 0, "skipped": 1, "total": 1}
        bad = root.http.post("/api/explorer/import", json={"text": "[Game \"Chess\"]"})
        assert bad.status_code == 400 and "cannot be added" in bad.json()["error"]
        huge = root.http.post("/api/explorer/import", json={"text": " " * (2 << 20)})
        assert huge.status_code == 413
        answer = explore(alice, [], source="collection").json()
        assert answer["moves"][0] == {
            "move": "0,1", "games": 1, "wins": [1, 0], "draws": 0, "score": 1.0,
            "rating": 2000, "proven": {"winner": 0, "plies": 47}}
    finally:
        root.close()
        alice.close()


def test_the_books_proven_values_are_in_the_answer(store: GameStore) -> None:
    from hexgames.web.policy import LOCAL

    # a position of the shipped book: White wins with -1,-2 in at most 15 plies; after
    # it and Red's 0,-2, White is to move in a position of the book again
    start = ("andantino w=-1,-1;0,-1;1,-1;-1,0;0,0;-1,1;-2,2 "
             "r=-2,-1;-2,0;1,0;-2,1;0,1;-1,2;0,2 turn=w hands=w18,r18")
    store.explorer_index([IndexedGame("games", "a", "andantino", (), start,
                                      ("-1,-2", "0,-2", "2,-1"), "1-0", (None, None)),
                          IndexedGame("games", "b", "andantino", (), start,
                                      ("0,-2",), "0-1", (None, None))])
    explorer = Explorer(store, {})
    answer = explorer.query(LOCAL, {"game": "andantino", "position": start})
    assert answer["proven"] == {"move": "-1,-2", "winner": 0, "plies": 15}
    proven = {m["move"]: m["proven"] for m in answer["moves"]}
    assert proven == {"-1,-2": {"winner": 0, "plies": 15}, "0,-2": None}
    board = andantino.Board(start)
    board.push_notation("-1,-2")
    after = explorer.query(LOCAL, {"game": "andantino", "position": board.position()})
    assert after["proven"] is None  # Red to move has no win
    # Red's 0,-2 leads to a position of the book: a proven loss for Red
    assert after["moves"][0]["proven"] == {"winner": 0, "plies": 14}
