"""Defects found by breaking the club's server mode as a new member and a hostile
user would (after the merge of tournaments, live play, mail and the explorer): each
test names what went wrong, against a real server with real HTTP clients and
sockets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from server_helpers import Client, FakeClock, LiveServer, challenge_game
from test_tournaments_server import account, create

from hexgames import limits
from hexgames.web.clock import GameClock, TimeControl

LIVE_MINUTE = TimeControl("live", 60, 0, None)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db")
    yield srv
    srv.stop()


def test_a_tournament_under_rules_that_end_its_games_at_once_is_refused(
        server: LiveServer) -> None:
    # it was made (201), and its games started over (no legal move) and were lost on time
    root = account(server, "root", admin=True)
    answer = create(root, rules={"tiles_per_player": 1})
    assert answer.status_code == 400, answer.text
    assert "over before its first move" in answer.json()["error"]
    assert root.http.get("/api/tournaments").json()["tournaments"] == []


def test_a_game_whose_flag_cannot_be_recorded_stops_neither_the_start_nor_other_flags(
        tmp_path: Path) -> None:
    # a tournament of tiles_per_player=1 (made before its rules were refused) left a
    # running game over on its board: its flag's result could not be recorded
    # (RecordResultError), which stopped the sweep of every other game's flag and, at
    # the next start, the server itself ("Application startup failed")
    clock = FakeClock()
    db = tmp_path / "games.db"
    first = LiveServer(db, now=clock)
    try:
        alice = account(first, "alice")
        bob = account(first, "bob")
        game_id = challenge_game(alice, bob, time_control={"kind": "live", "base": 60,
                                                           "increment": 0})
        socket = alice.socket(game_id)
        socket.state()
        socket.send({"type": "move", "move": "0,1", "ply": 0})
        socket.until(lambda m: m["type"] == "state" and m["ply"] == 1)
        socket.close()
        store = first.app.state.store
        seats = [store.user("alice").id, store.user("bob").id]
        broken = store.create("andantino", ["tiles_per_player=1"], ["human", "human"],
                              seats=seats, extra={"tournament": "0ld0ld0ld0ld",
                                                  "round": 1, "event": "Old cup"},
                              clock=GameClock.start(
                                  LIVE_MINUTE, 0, clock()).to_json())
    finally:
        first.stop()
    clock.advance(3600)  # both flags fell while the server was down
    second = LiveServer(db, now=clock)
    try:
        shown = Client(second)
        assert shown.login("alice").status_code == 200
        assert shown.http.get(f"/api/games/{game_id}").json()["termination"] == \
            "time-forfeit"
        assert shown.http.get(f"/api/games/{broken.id}").status_code == 200
        second.manager.sweep()  # and the sweeps after it go on
    finally:
        second.stop()


def test_a_game_against_the_computer_refuses_a_rated_that_is_no_boolean(
        server: LiveServer) -> None:
    # {"rated": 1} or "yes" made an unrated game without a word (a challenge says 400)
    alice = account(server, "alice")
    for rated in (1, "yes", None):
        answer = alice.http.post("/api/games", json={
            "game": "andantino", "players": ["human", "easy"], "rated": rated,
            "time_control": {"kind": "live", "base": 300, "increment": 0}})
        assert answer.status_code == 400, (rated, answer.text)
        assert "rated must be true or false" in answer.json()["error"]
    assert alice.http.get("/api/games?mine=1").json()["total"] == 0


def test_a_declined_offer_is_not_made_again_before_a_move(server: LiveServer) -> None:
    # offer, decline, offer... as fast as a program sends them: each one flashed on the
    # opponent's page (and was written to the database); now a declined draw offer or
    # take-back request comes again only after a move, a rematch is offered at most
    # three times
    alice, bob = account(server, "alice"), account(server, "bob")
    game_id = challenge_game(alice, bob, time_control={"kind": "live", "base": 300,
                                                       "increment": 0})
    first, second = alice.socket(game_id), bob.socket(game_id)
    try:
        first.state()
        second.state()
        first.send({"type": "move", "move": "0,1", "ply": 0})
        second.until(lambda m: m["type"] == "state" and m["ply"] == 1)
        for kind, ask in (("draw", {"type": "draw", "action": "offer"}),
                          ("takeback", {"type": "takeback", "action": "offer", "ply": 1})):
            first.send(ask)
            second.until(lambda m, kind=kind: m["type"] == "offer" and m["kind"] == kind)
            second.send({"type": kind, "action": "decline"})
            first.until(lambda m: m["type"] == "offer_declined")
            assert "after a move" in first.error(ask), kind
        second.send({"type": "move", "move": "1,1", "ply": 1})
        first.until(lambda m: m["type"] == "state" and m["ply"] == 2)
        first.send({"type": "draw", "action": "offer"})  # a move later: again
        second.until(lambda m: m["type"] == "offer" and m["kind"] == "draw")
        first.send({"type": "resign", "side": 0})
        second.until(lambda m: m["type"] == "state" and m["result"] == "0-1")
        for _ in range(limits.MAX_REMATCH_OFFERS):
            second.send({"type": "rematch", "action": "offer"})
            first.until(lambda m: m["type"] == "rematch_offer")
            first.send({"type": "rematch", "action": "decline"})
            second.until(lambda m: m["type"] == "rematch_declined")
        assert "MAX_REMATCH_OFFERS" in second.error({"type": "rematch", "action": "offer"})
        first.send({"type": "rematch", "action": "offer"})  # the other may still
        second.until(lambda m: m["type"] == "rematch_offer")
    finally:
        first.close()
        second.close()


def test_join_and_leave_refuse_fields_they_do_not_know(server: LiveServer) -> None:
    # {"name": "bob"} (a guess at taking bob out) was ignored: the caller itself left,
    # or entered
    root = account(server, "root", admin=True)
    bob = account(server, "bob")
    tournament_id = create(root).json()["id"]
    assert bob.http.post(f"/api/tournaments/{tournament_id}/join", json={}).status_code == 200
    assert root.http.post(f"/api/tournaments/{tournament_id}/join",
                          json={}).status_code == 200
    for action in ("leave", "join"):
        answer = root.http.post(f"/api/tournaments/{tournament_id}/{action}",
                                json={"name": "bob"})
        assert answer.status_code == 400, (action, answer.text)
        assert "unknown field 'name'" in answer.json()["error"]
    shown = root.http.get(f"/api/tournaments/{tournament_id}").json()
    assert [e["name"] for e in shown["entrants"]] == ["bob", "root"]
