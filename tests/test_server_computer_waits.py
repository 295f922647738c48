"""The computer waits (docs/server.md, "Seats"): while the person it plays is barred
from engine help by another running game, the computer does not move in its games
against them, its clock held, and moves when the barring ends; with real clients on a
real uvicorn server (HTTP and websockets), and a clock the test moves by hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from server_helpers import Client, FakeClock, LiveServer, Message, Socket, challenge_game

WAITS = ("the computer waits while {} a game between two people without engine help: "
         "it moves when that game ends")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[LiveServer, FakeClock]]:
    """A server of accounts on a clock that moves only when a test moves it (no flag
    falls by itself; the test calls the sweep)."""
    clock = FakeClock()
    srv = LiveServer(tmp_path / "games.db", now=clock)
    yield srv, clock
    srv.stop()


@pytest.fixture
def server(served: tuple[LiveServer, FakeClock]) -> LiveServer:
    return served[0]


@pytest.fixture
def clock(served: tuple[LiveServer, FakeClock]) -> FakeClock:
    return served[1]


@pytest.fixture
def people(server: LiveServer) -> Iterator[tuple[Client, Client, Client]]:
    clients = [Client(server) for _ in range(3)]
    for client, name in zip(clients, ("dave", "erin", "carol"), strict=True):
        assert client.signup(name).status_code == 201
    yield clients[0], clients[1], clients[2]
    for client in clients:
        client.close()


def _at(socket: Socket, ply: int) -> Message:
    """The first state at ``ply`` or later (the AI may be told to move now)."""
    state = socket.state()
    while state["ply"] < ply:
        message = socket.receive(30)
        if message["type"] == "thinking":
            socket.send({"type": "stop"})
        elif message["type"] == "state":
            state = message
    return state


def _no_ai_move(socket: Socket, seconds: float = 2.0) -> list[Message]:
    """The messages of ``seconds`` in which no ``ai_move`` nor ``thinking`` may come."""
    seen: list[Message] = []
    with pytest.raises(TimeoutError):
        while True:
            message = socket.receive(seconds)
            assert message["type"] not in ("ai_move", "thinking"), message
            seen.append(message)
    return seen


def _end(game_id: str, loser: Client, side: int) -> None:
    socket = loser.socket(game_id)
    socket.receive()
    socket.send({"type": "resign", "side": side})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    socket.close()


def test_the_computer_waits_while_its_player_plays_a_person(
        people: tuple[Client, Client, Client], server: LiveServer) -> None:
    """The tester's hole (/tmp/b2_c3.py): dave starts a game with ``expert`` as White,
    then plays erin as White and would copy expert's moves into that game and erin's
    replies back. The computer moved in the old game meanwhile; now it waits (the
    state says why, to dave and to a watcher alike) until that game is over."""
    dave, erin, carol = people
    made = dave.http.post("/api/games", json={"game": "andantino",
                                              "players": ["expert", "human"]})
    assert made.status_code == 201, made.text
    computer = str(made.json()["id"])
    mine = dave.socket(computer)
    expert = _at(mine, 1)["moves"][0]  # expert's first move, made before the barring
    assert mine.state().get("computer_waits") is None
    people_game = challenge_game(dave, erin)
    refused = dave.http.post("/api/games", json={"game": "andantino",
                                                 "players": ["human", "expert"]})
    assert refused.status_code == 403
    # dave copies expert's move into his game with erin, and erin's reply back
    own, hers = dave.socket(people_game), erin.socket(people_game)
    own.receive()
    own.send({"type": "move", "move": expert, "ply": 0})
    reply = _at(hers, 1)["legal"][0]
    hers.send({"type": "move", "move": reply, "ply": 1})
    _at(own, 2)
    mine.send({"type": "move", "move": reply, "ply": 1})
    waiting = mine.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    _no_ai_move(mine)  # (it came here at once, for dave to copy into erin's game)
    assert mine.state()["ply"] == 2  # no move of the computer while dave plays erin
    assert (waiting["thinking"], waiting.get("computer_waits")) == \
        (False, WAITS.format("you play"))
    watcher = carol.socket(computer)
    assert watcher.receive()["computer_waits"] == WAITS.format("dave plays")
    # the session waiting for the news is kept, however many idle ones go
    for socket in (mine, watcher):
        socket.close()
    server.manager.evict_idle(keep=0)
    mine = dave.socket(computer)
    assert mine.receive()["computer_waits"] == WAITS.format("you play")
    for socket in (own, hers):
        socket.close()
    _end(people_game, erin, 1)
    moved = _at(mine, 3)
    assert moved["computer_waits"] is None and not moved["over"]
    mine.close()


def test_a_timed_game_loses_no_time_while_the_computer_waits(
        people: tuple[Client, Client, Client], server: LiveServer,
        clock: FakeClock) -> None:
    """The computer's clock is held while it waits (saved so, for a restart): ten
    minutes of a 1+0 game pass, no flag falls; when the barring ends its clock runs
    again from then, with the time it had."""
    dave, erin, _ = people
    made = dave.http.post("/api/games", json={
        "game": "andantino", "players": ["human", "easy"],
        "time_control": {"kind": "live", "base": 60, "increment": 0}})
    assert made.status_code == 201, made.text
    game_id = str(made.json()["id"])
    mine = dave.socket(game_id)
    first = mine.receive()
    people_game = challenge_game(dave, erin)
    clock.advance(5)
    mine.send({"type": "move", "move": first["legal"][0], "ply": 0})
    waiting = mine.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    assert (waiting["clock"]["running"], waiting["clock"]["remaining"]) == (None, [55, 60])
    assert waiting["computer_waits"] == WAITS.format("you play")
    stored = server.manager.store.get(game_id)
    assert stored.clock["running"] is None and stored.clock["remaining"] == [55, 60]
    clock.advance(600)
    assert server.manager.sweep() == []
    assert game_id not in server.manager.deadlines()
    state = mine.state()
    assert not state["over"] and state["clock"]["remaining"] == [55, 60]
    _end(people_game, erin, 1)
    clock.advance(10)  # the computer thinks after the wait: its own time
    moved = _at(mine, 2)
    assert not moved["over"] and moved["computer_waits"] is None
    assert moved["clock"]["running"] == 0 and moved["clock"]["readings"][1] <= 60
    assert moved["clock"]["readings"][1] >= 50
    mine.close()


def test_an_unbarred_accounts_computer_moves_as_before(
        people: tuple[Client, Client, Client], server: LiveServer) -> None:
    """Others' games between two people (erin's with carol, who watches) make dave's
    computer wait for nothing; nor does dave's game end the wait of anyone."""
    dave, erin, carol = people
    challenge_game(erin, carol)  # erin and carol barred, dave not
    made = dave.http.post("/api/games", json={
        "game": "andantino", "players": ["human", "easy"],
        "time_control": {"kind": "live", "base": 60, "increment": 0}})
    assert made.status_code == 201, made.text
    game_id = str(made.json()["id"])
    mine, watcher = dave.socket(game_id), carol.socket(game_id)
    first = mine.receive()
    watcher.receive()
    mine.send({"type": "move", "move": first["legal"][0], "ply": 0})
    moved = _at(mine, 2)
    assert moved["computer_waits"] is None and moved["clock"]["running"] == 0
    assert _at(watcher, 2)["computer_waits"] is None
    for socket in (mine, watcher):
        socket.close()


def _waiting(dave: Client, erin: Client) -> tuple[str, str, Socket]:
    """dave's game against ``easy`` (his move made) whose computer waits for his new
    game with erin: the ids of both, and dave's socket on the first."""
    made = dave.http.post("/api/games", json={"game": "andantino",
                                              "players": ["human", "easy"]})
    assert made.status_code == 201, made.text
    computer = str(made.json()["id"])
    mine = dave.socket(computer)
    first = mine.receive()
    people_game = challenge_game(dave, erin)
    mine.send({"type": "move", "move": first["legal"][0], "ply": 0})
    waiting = mine.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    assert waiting["computer_waits"] == WAITS.format("you play")
    return computer, people_game, mine


def test_the_computer_moves_when_the_barring_game_is_aborted(
        people: tuple[Client, Client, Client]) -> None:
    """An aborted game (deleted before its second move) bars nothing: the computer
    that waited for it moves (it waited on, its page saying so, until a reload)."""
    dave, erin, _ = people
    _, people_game, mine = _waiting(dave, erin)
    own = dave.socket(people_game)
    own.receive()
    own.send({"type": "abort"})
    own.until(lambda m: m["type"] == "aborted")
    moved = _at(mine, 2)
    assert moved["computer_waits"] is None and not moved["over"]
    mine.close()


def test_the_computer_moves_when_an_administrator_deletes_the_barring_game(
        people: tuple[Client, Client, Client], server: LiveServer) -> None:
    """A running game between two people that nobody has open (untimed, no socket:
    no session) deleted by an administrator bars nothing either."""
    from argon2 import PasswordHasher

    dave, erin, _ = people
    _, people_game, mine = _waiting(dave, erin)
    password = "an administrator's password"
    server.app.state.store.add_user("root", PasswordHasher().hash(password), admin=True)
    root = Client(server)
    try:
        assert root.login("root", password).status_code == 200
        assert root.http.delete(f"/api/games/{people_game}").status_code == 200
    finally:
        root.close()
    moved = _at(mine, 2)
    assert moved["computer_waits"] is None and not moved["over"]
    mine.close()


def test_the_computer_moves_when_the_barring_game_ends_after_a_restart(
        tmp_path: Path) -> None:
    """The server restarts while the computer waits (it waits on, its clock held);
    then the barring game is resigned without a move since: the computer moves."""
    clock = FakeClock()
    db = tmp_path / "games.db"
    server = LiveServer(db, now=clock)
    try:
        dave, erin = Client(server), Client(server)
        for client, name in ((dave, "dave"), (erin, "erin")):
            assert client.signup(name).status_code == 201
        computer, people_game, mine = _waiting(dave, erin)
        own, hers = dave.socket(people_game), erin.socket(people_game)
        state = own.receive()  # two moves: the game is no longer aborted
        own.send({"type": "move", "move": state["legal"][0], "ply": 0})
        hers.send({"type": "move", "move": _at(hers, 1)["legal"][0], "ply": 1})
        _at(own, 2)
        for socket in (mine, own, hers):
            socket.close()
    finally:
        server.stop()
    server = LiveServer(db, now=clock)
    dave, erin = Client(server), Client(server)
    try:
        for client, name in ((dave, "dave"), (erin, "erin")):
            assert client.login(name).status_code == 200
        mine = dave.socket(computer)
        assert mine.receive()["computer_waits"] == WAITS.format("you play")
        _end(people_game, erin, 1)
        moved = _at(mine, 2)
        assert moved["computer_waits"] is None and not moved["over"]
        mine.close()
    finally:
        for client in (dave, erin):
            client.close()
        server.stop()


def test_news_of_a_game_under_its_lock_does_not_wait_for_a_delete(
        people: tuple[Client, Client, Client], server: LiveServer) -> None:
    """``seats_changed`` is called under a game's lock (an abort, a move that ends it);
    ``GameManager.delete`` holds the manager's lock while it closes the game, which
    takes that game's lock. The news must not need the manager's lock, or the two wait
    for each other for ever."""
    import threading
    import time

    dave, erin, _ = people
    game_id = challenge_game(dave, erin)
    watching = dave.socket(game_id)
    watching.receive()  # the game is open: it has a session and a lock
    manager = server.manager
    session = manager._sessions[game_id]
    seats = session.stored.seats
    done = threading.Event()
    with session.lock:
        deleter = threading.Thread(target=manager.delete, args=(game_id,), daemon=True)
        deleter.start()
        for _ in range(500):  # until the delete holds the manager's lock
            if manager._lock.locked():
                break
            time.sleep(0.01)
        assert manager._lock.locked()
        news = threading.Thread(
            target=lambda: (manager.seats_changed(game_id, seats, running=False),
                            done.set()), daemon=True)
        news.start()
        news.join(5)
        finished = done.is_set()
    deleter.join(10)
    assert finished, "the news waited for the manager's lock held by the delete"
    assert not deleter.is_alive()
    watching.close()
