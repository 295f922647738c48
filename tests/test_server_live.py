"""The small things of live play (issue 35) against docs/web-protocol.md, with real
clients on a real uvicorn server: abort, rematch, premove, presence, the players' chat,
ratings beside names and the rating change, quick pairing (seeks) and watching without
an account; every refusal with a real client, and the limits when requests arrive at
once."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from server_helpers import Client, FakeClock, LiveServer, Socket, challenge_game, signed_up

from hexgames import limits

LIVE = {"kind": "live", "base": 300, "increment": 2}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(tmp_path: Path, clock: FakeClock) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db", now=clock)
    yield srv
    srv.stop()


@pytest.fixture
def people(server: LiveServer) -> Iterator[list[Client]]:
    clients = signed_up(server, "alice", "bob", "carol")
    yield clients
    for client in clients:
        client.close()


def play(socket: Socket, moves: list[str], start: int) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for ply, move in enumerate(moves, start):
        socket.send({"type": "move", "move": move, "ply": ply})
        state = socket.until(lambda m, p=ply: m["type"] == "state" and m["ply"] == p + 1)
    return state


def _sockets(game_id: str, *clients: Client) -> list[Socket]:
    sockets = [client.socket(game_id) for client in clients]
    for socket in sockets:
        socket.until(lambda m: m["type"] == "state")
    return sockets


# --- abort ---------------------------------------------------------------------------------


def test_abort_before_the_second_move_and_refusals(people: list[Client],
                                                   server: LiveServer) -> None:
    alice, bob, carol = people
    game_id = challenge_game(alice, bob, rated=True, time_control=LIVE)
    a, b, c = _sockets(game_id, alice, bob, carol)
    play(a, ["0,1"], 0)
    a.send({"type": "chat", "text": "oops"})
    b.until(lambda m: m["type"] == "chat")
    # a watcher may not abort
    assert "not playing" in c.error({"type": "abort"})
    b.send({"type": "abort"})
    for socket in (a, b, c):
        aborted = socket.until(lambda m: m["type"] == "aborted")
        assert aborted["by"] == "bob" and aborted["message"] == "bob aborted the game."
        assert socket.close_code() == 4404
    # gone: no game, no rating, nothing running
    assert alice.http.get(f"/api/games/{game_id}").status_code == 404
    assert alice.http.get("/api/ratings?game=andantino").json()["ratings"] == []
    assert alice.http.get("/api/games?mine=1").json()["total"] == 0
    assert game_id not in server.manager.deadlines()
    assert server.app.state.store.chat_of(game_id) == []  # its chat went with it
    # after the second move: refused, the game goes on
    other = challenge_game(alice, bob, time_control=LIVE)
    a, b = _sockets(other, alice, bob)
    play(a, ["0,1"], 0)
    play(b, ["1,1"], 1)
    for socket in (a, b):
        assert "only before its second move" in socket.error({"type": "abort"})
    assert a.state()["moves"] == ["0,1", "1,1"]
    for socket in (a, b):
        socket.close()


# --- rematch -------------------------------------------------------------------------------


def test_a_rematch_swaps_the_colours_and_keeps_clock_rules_and_rating(
        people: list[Client], server: LiveServer) -> None:
    alice, bob, carol = people
    game_id = challenge_game(alice, bob, rated=True, time_control=LIVE)
    a, b, c = _sockets(game_id, alice, bob, carol)
    assert "once the game is over" in a.error({"type": "rematch", "action": "offer"})
    play(a, ["0,1"], 0)
    a.send({"type": "resign", "side": 0})
    over = b.until(lambda m: m["type"] == "state" and m["over"])
    # ratings beside the names and the change of this rated game
    assert over["rating_change"] is not None
    loss, gain = over["rating_change"]
    assert loss < 0 < gain and loss == -gain
    assert over["ratings"][1]["rating"] == 1500 + gain
    # refusals: a watcher; an answer without an offer; a bad action
    assert "not playing" in c.error({"type": "rematch", "action": "offer"})
    assert "no rematch offer" in a.error({"type": "rematch", "action": "accept"})
    assert "offer, accept or decline" in a.error({"type": "rematch", "action": "maybe"})
    b.send({"type": "rematch", "action": "offer"})
    assert a.until(lambda m: m["type"] == "rematch_offer")["side"] == 1
    assert "stands already" in b.error({"type": "rematch", "action": "offer"})
    assert "no rematch offer of your opponent" in b.error(
        {"type": "rematch", "action": "accept"})
    assert "not playing" in c.error({"type": "rematch", "action": "accept"})
    # declined, offered again, accepted
    a.send({"type": "rematch", "action": "decline"})
    b.until(lambda m: m["type"] == "rematch_declined")
    assert b.state()["rematch"] is None
    b.send({"type": "rematch", "action": "offer"})
    a.until(lambda m: m["type"] == "rematch_offer")
    a.send({"type": "rematch", "action": "accept"})
    new_id = b.until(lambda m: m["type"] == "rematch")["game"]
    assert a.until(lambda m: m["type"] == "rematch")["game"] == new_id
    assert c.until(lambda m: m["type"] == "rematch")["game"] == new_id
    new = bob.http.get(f"/api/games/{new_id}").json()
    assert new["accounts"] == ["bob", "alice"] and new["rated"] is True
    assert new["time_control"] == LIVE and new["result"] == "*"
    # its clock runs for bob, who moves first now
    state = bob.socket(new_id).receive()
    assert state["clock"]["running"] == 0 and state["you"] == [0]
    assert state["ratings"][0]["rating"] == 1500 + gain
    for socket in (a, b, c):
        socket.close()


def test_many_rematch_accepts_at_once_make_one_game(people: list[Client],
                                                    server: LiveServer) -> None:
    alice, bob, _ = people
    game_id = challenge_game(alice, bob, time_control=LIVE)
    a = _sockets(game_id, alice)[0]
    a.send({"type": "resign", "side": 0})
    a.until(lambda m: m["type"] == "state" and m["over"])
    a.send({"type": "rematch", "action": "offer"})
    a.until(lambda m: m["type"] == "rematch_offer")
    # bob accepts from 8 pages at once (and alice offers again from hers: agreed too)
    sockets = _sockets(game_id, *([bob] * 8))
    barrier = threading.Barrier(len(sockets))
    answers: list[str] = []

    def accept(socket: Socket) -> None:
        barrier.wait()
        socket.send({"type": "rematch", "action": "accept"})
        answers.append(socket.until(lambda m: m["type"] == "rematch")["game"])

    threads = [threading.Thread(target=accept, args=(s,)) for s in sockets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(answers) == len(sockets) and len(set(answers)) == 1
    games = alice.http.get("/api/games?mine=1").json()
    assert games["total"] == 2  # the game and one rematch
    assert answers[0] in {g["id"] for g in games["games"]}
    for socket in (a, *sockets):
        socket.close()


def test_no_rematch_against_the_computer(people: list[Client]) -> None:
    alice = people[0]
    made = alice.http.post("/api/games", json={"game": "andantino",
                                               "players": ["human", "random"]})
    a = _sockets(made.json()["id"], alice)[0]
    a.send({"type": "resign", "side": 0})
    a.until(lambda m: m["type"] == "state" and m["over"])
    assert "computer does not answer a rematch" in a.error(
        {"type": "rematch", "action": "offer"})
    a.close()


# --- premove -------------------------------------------------------------------------------


def test_a_premove_is_played_at_once_when_legal(people: list[Client]) -> None:
    alice, bob, carol = people
    game_id = challenge_game(alice, bob, time_control=LIVE)
    a, b, c = _sockets(game_id, alice, bob, carol)
    # refusals: the player to move, a watcher, a correspondence game
    assert "it is your move" in a.error({"type": "premove", "move": "0,1", "ply": 0})
    assert "not playing" in c.error({"type": "premove", "move": "1,1", "ply": 0})
    b.send({"type": "premove", "move": "1,1", "ply": 0})
    assert b.until(lambda m: m["type"] == "premove")["move"] == "1,1"
    assert b.state()["premove"] == "1,1"
    assert a.state()["premove"] is None  # only bob's pages see it
    a.send({"type": "move", "move": "0,1", "ply": 0})
    state = a.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    assert state["moves"] == ["0,1", "1,1"] and state["turn"] == 0
    # cancelled: nothing is played
    a.send({"type": "premove", "move": "2,2", "ply": 2})
    assert "it is your move" in a.until(lambda m: m["type"] == "error")["message"]
    play(a, ["0,2"], 2)
    a.send({"type": "premove", "move": "0,3", "ply": 3})
    a.until(lambda m: m["type"] == "premove" and m["move"] == "0,3")
    a.send({"type": "premove", "move": None, "ply": 3})
    a.until(lambda m: m["type"] == "premove" and m["move"] is None)
    state = play(b, ["1,2"], 3)
    assert state["ply"] == 4 and b.state()["ply"] == 4
    # an illegal one is dropped with a word to its player only
    a.send({"type": "move", "move": "0,3", "ply": 4})
    a.until(lambda m: m["type"] == "state" and m["ply"] == 5)
    # a text that is no move at all is refused when it is queued, naming it
    refused = a.error({"type": "premove", "move": "banana", "ply": 5})
    assert "not a premove" in refused and "banana" in refused
    a.send({"type": "premove", "move": " 9,9 ", "ply": 5})
    assert a.until(lambda m: m["type"] == "premove")["move"] == "9,9"
    b.send({"type": "move", "move": "1,-1", "ply": 5})
    dropped = a.until(lambda m: m["type"] == "premove" and m.get("dropped"))
    assert dropped["dropped"] == "9,9" and dropped["move"] is None
    assert a.state()["ply"] == 6
    for socket in (a, b, c):
        socket.close()
    # only live games
    slow = challenge_game(alice, bob, time_control={"kind": "correspondence", "days": 3})
    b = _sockets(slow, bob)[0]
    assert "live games" in b.error({"type": "premove", "move": "1,1", "ply": 0})
    b.close()


# --- presence ------------------------------------------------------------------------------


def test_the_opponents_connection_is_shown(people: list[Client]) -> None:
    alice, bob, carol = people
    game_id = challenge_game(alice, bob, time_control=LIVE)
    a = alice.socket(game_id)
    assert a.receive()["online"] == [True, False]
    b = bob.socket(game_id)
    assert b.receive()["online"] == [True, True]
    assert a.until(lambda m: m["type"] == "presence")["online"] == [True, True]
    c = carol.socket(game_id)  # a watcher changes nothing
    assert c.receive()["online"] == [True, True]
    b.close()
    assert a.until(lambda m: m["type"] == "presence")["online"] == [True, False]
    assert a.state()["online"] == [True, False]
    for socket in (a, c):
        socket.close()


# --- chat ----------------------------------------------------------------------------------


def test_the_players_chat_and_who_may_not_see_or_write_it(people: list[Client],
                                                           server: LiveServer) -> None:
    alice, bob, carol = people
    game_id = challenge_game(alice, bob, time_control=LIVE)
    a, b, c = alice.socket(game_id), bob.socket(game_id), carol.socket(game_id)
    assert a.receive()["chat"] is True and b.receive()["chat"] is True
    assert c.receive()["chat"] is False
    a.send({"type": "chat", "text": "  good luck!  "})
    for socket in (a, b):
        message = socket.until(lambda m: m["type"] == "chat")["message"]
        assert (message["name"], message["side"], message["text"], message["ply"]) == (
            "alice", 0, "good luck!", 0)
    # carol, watching, was sent nothing of it (her socket's messages come in order)
    c.send({"type": "state"})
    seen = []
    while True:
        message = c.receive()
        seen.append(message["type"])
        if message["type"] == "state":
            break
    assert "chat" not in seen
    assert "only the players" in c.error({"type": "chat", "text": "hi"})
    assert "only the players" in c.error({"type": "chat_history"})
    # bad input
    too_long = "x" * (limits.MAX_CHAT_TEXT + 1)
    assert f"at most {limits.MAX_CHAT_TEXT} characters" in b.error(
        {"type": "chat", "text": too_long})
    assert "empty" in b.error({"type": "chat", "text": "   "})
    assert "one line" in b.error({"type": "chat", "text": "a\nb"})
    # kept with the game
    b.send({"type": "chat", "text": "thanks"})
    a.until(lambda m: m["type"] == "chat" and m["message"]["text"] == "thanks")
    b.send({"type": "chat_history"})
    history = b.until(lambda m: m["type"] == "chat_history")["messages"]
    assert [(m["name"], m["text"]) for m in history] == [("alice", "good luck!"),
                                                          ("bob", "thanks")]
    assert [m["text"] for m in server.app.state.store.chat_of(game_id)] == [
        "good luck!", "thanks"]
    # the rate limit: alice has sent 1 of 5 in the window
    for n in range(limits.MAX_CHAT_PER_WINDOW - 1):
        a.send({"type": "chat", "text": f"n{n}"})
        a.until(lambda m, n=n: m["type"] == "chat" and m["message"]["text"] == f"n{n}")
    assert "try again in" in a.error({"type": "chat", "text": "one too many"})
    # not in the record
    assert "good luck" not in alice.http.get(f"/api/games/{game_id}/record").text
    for socket in (a, b, c):
        socket.close()
    # against the computer: no chat (carol's: alice, playing bob, starts no such game)
    made = carol.http.post("/api/games", json={"game": "andantino",
                                               "players": ["human", "random"]})
    ai = carol.socket(made.json()["id"])
    assert ai.receive()["chat"] is False
    assert "computer reads no chat" in ai.error({"type": "chat", "text": "hello"})
    ai.close()


def test_the_chat_holds_its_cap_when_messages_arrive_at_once(people: list[Client],
                                                            server: LiveServer) -> None:
    alice, bob, _ = people
    game_id = challenge_game(alice, bob, time_control=LIVE)
    store = server.app.state.store
    for n in range(limits.MAX_CHAT_MESSAGES - 3):
        assert store.add_chat(game_id, 1, 0, "alice", f"m{n}", 0,
                              limits.MAX_CHAT_MESSAGES) is not None
    # 10 messages at once from both players' pages: 3 are kept
    sockets = _sockets(game_id, alice, alice, alice, alice, alice, bob, bob, bob, bob, bob)
    barrier = threading.Barrier(len(sockets))

    def send(socket: Socket) -> None:
        barrier.wait()
        socket.send({"type": "chat", "text": "at once"})

    threads = [threading.Thread(target=send, args=(s,)) for s in sockets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    errors = 0
    for socket in sockets:  # a socket's messages are handled in order: the chat first
        socket.send({"type": "state"})
        while (message := socket.receive())["type"] != "state":
            if message["type"] == "error":
                assert "no more" in message["message"], message
                errors += 1
    assert errors == 7
    texts = [m["text"] for m in store.chat_of(game_id)]
    assert len(texts) == limits.MAX_CHAT_MESSAGES and texts[-3:] == ["at once"] * 3
    assert store.add_chat(game_id, 1, 0, "alice", "late", 0,
                          limits.MAX_CHAT_MESSAGES) is None
    for socket in sockets:
        socket.close()


def test_the_operator_turns_the_chat_off(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", chat=False)
    try:
        alice, bob = signed_up(server, "alice", "bob")
        game_id = challenge_game(alice, bob, time_control=LIVE)
        a = alice.socket(game_id)
        assert a.receive()["chat"] is False
        assert "turned off" in a.error({"type": "chat", "text": "hi"})
        assert "turned off" in a.error({"type": "chat_history"})
        a.close()
    finally:
        server.stop()


# --- quick pairing -------------------------------------------------------------------------


def test_quick_pairing_pairs_two_seekers_of_one_pool(people: list[Client]) -> None:
    alice, bob, carol = people
    status = alice.http.get("/api/seeks").json()
    assert "5+3" in [p["name"] for p in status["pools"]] and status["seek"] is None
    made = alice.http.post("/api/seeks", json={"game": "andantino", "pool": "5+3"})
    assert made.status_code == 202 and made.json()["seek"]["pool"] == "5+3"
    # seek twice: refused
    again = alice.http.post("/api/seeks", json={"game": "andantino", "pool": "3+2"})
    assert again.status_code == 409 and "seeking a game already" in again.json()["error"]
    # bad input
    for body, why in (({"game": "andantino", "pool": "7+7"}, "pool"),
                      ({"game": "chess", "pool": "5+3"}, "chess"),
                      ({"game": "andantino", "pool": "5+3", "rated": "yes"}, "rated")):
        answer = carol.http.post("/api/seeks", json=body)
        assert answer.status_code == 400 and why in answer.json()["error"], answer.text
    # another pool, or another game, does not pair
    other = carol.http.post("/api/seeks", json={"game": "abande", "pool": "5+3"})
    assert other.status_code == 202
    assert bob.http.get("/api/seeks").json()["waiting"] == {"andantino 5+3": 1,
                                                            "abande 5+3": 1}
    paired = bob.http.post("/api/seeks", json={"game": "andantino", "pool": "5+3"})
    assert paired.status_code == 201, paired.text
    game = paired.json()["game"]
    assert sorted(game["accounts"]) == ["alice", "bob"]
    assert game["time_control"] == {"kind": "live", "base": 300, "increment": 3}
    assert alice.http.get("/api/seeks").json()["game"] == game["id"]
    assert alice.http.get("/api/seeks").json()["game"] is None  # told once
    assert carol.http.delete("/api/seeks").json() == {"cancelled": True}
    anon = Client(carol.server)
    assert anon.http.post("/api/seeks", json={"game": "abande",
                                              "pool": "5+3"}).status_code == 401
    anon.close()


def test_two_accounts_seeking_at_once_get_exactly_one_game(server: LiveServer) -> None:
    clients = signed_up(server, "p1", "p2")
    for round_ in range(5):
        barrier = threading.Barrier(2)
        answers: dict[str, Any] = {}

        def seek(client: Client, barrier: threading.Barrier,
                 answers: dict[str, Any]) -> None:
            barrier.wait()
            answers[str(client.name)] = client.http.post(
                "/api/seeks", json={"game": "andantino", "pool": "3+2"})

        threads = [threading.Thread(target=seek, args=(c, barrier, answers))
                   for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        codes = {name: answer.status_code for name, answer in answers.items()}
        assert sorted(codes.values()) == [201, 202], round_
        game_id = next(a.json()["game"]["id"] for a in answers.values()
                       if a.status_code == 201)
        waiter = next(c for c in clients if codes[str(c.name)] == 202)
        assert waiter.http.get("/api/seeks").json()["game"] == game_id
    assert clients[0].http.get("/api/games?mine=1").json()["total"] == 5
    for client in clients:
        client.close()


# --- watching without an account -----------------------------------------------------------


def test_watching_without_an_account_when_the_operator_allows_it(tmp_path: Path) -> None:
    closed = LiveServer(tmp_path / "closed.db")
    try:
        alice, bob = signed_up(closed, "alice", "bob")
        game_id = challenge_game(alice, bob, time_control=LIVE)
        assert Client(closed).socket(game_id).close_code() == 4401
    finally:
        closed.stop()
    server = LiveServer(tmp_path / "open.db", watch="anonymous")
    try:
        alice, bob = signed_up(server, "alice", "bob")
        game_id = challenge_game(alice, bob, time_control=LIVE)
        a = alice.socket(game_id)
        a.receive()
        guest = Client(server).socket(game_id)
        state = guest.receive()
        assert state["you"] == [] and state["chat"] is False
        assert state["accounts"] == ["alice", "bob"]
        play(a, ["0,1"], 0)
        assert guest.until(lambda m: m["type"] == "state" and m["ply"] == 1)["moves"] == ["0,1"]
        for message, why in (({"type": "move", "move": "1,1", "ply": 1}, "log in"),
                             ({"type": "chat", "text": "hi"}, "log in"),
                             ({"type": "analyse", "on": True}, "log in"),
                             ({"type": "hint"}, "log in"),
                             ({"type": "resign", "side": 1}, "log in"),
                             ({"type": "abort"}, "log in"),
                             ({"type": "premove", "move": "1,1", "ply": 1}, "log in")):
            assert why in guest.error(message), message
        a.send({"type": "chat", "text": "secret"})
        a.until(lambda m: m["type"] == "chat")
        guest.send({"type": "state"})
        while (message := guest.receive())["type"] != "state":
            assert message["type"] != "chat"
        guest.close()
        a.close()
    finally:
        server.stop()


def test_guests_hold_a_bounded_number_of_sockets_even_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--watch anonymous``: the guests' sockets together are capped, also when they
    open at once; one that closes frees its place, and accounts are not counted."""
    from concurrency import at_once

    monkeypatch.setattr(limits, "MAX_ANONYMOUS_SOCKETS", 4)
    server = LiveServer(tmp_path / "open.db", watch="anonymous")
    sockets: list[Socket] = []
    try:
        alice, bob = signed_up(server, "alice", "bob")
        game_id = challenge_game(alice, bob, time_control=LIVE)

        def open_one(index: int) -> tuple[str, int | None]:
            socket = Client(server).socket(game_id)
            first = socket.receive()
            if first["type"] == "state":
                sockets.append(socket)
                return "open", None
            return first["message"], socket.close_code()

        answers = at_once(10, open_one)
        refused = [answer for answer in answers if answer[0] != "open"]
        assert len(refused) == 6, answers
        assert all(code == 4429 and "without an account" in text for text, code in refused)
        a = alice.socket(game_id)  # an account's socket is no guest's
        assert a.receive()["type"] == "state"
        sockets.append(a)
        sockets.pop(0).close()
        for _ in range(100):  # the server forgets the closed socket when it sees it close
            if server.app.state.auth.sockets.count() == 4:
                break
            time.sleep(0.05)
        assert open_one(0) == ("open", None)
        assert open_one(0)[0].startswith("too many people watch")
    finally:
        for socket in sockets:
            socket.close()
        server.stop()
