"""Tournaments of the server mode (issue 35) against a real server with real HTTP
clients and sockets: every refusal (creating without the right, joining after the
start or twice, a full tournament, malformed options, acting on a tournament game not
one's own), the caps under requests that arrive at once, and round robins, a Swiss
tournament and a league played through to their ends (the games ended by
resignations)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from concurrency import at_once, statuses
from server_helpers import PASSWORD, Client, LiveServer

from hexgames import limits
from hexgames.web.accounts import hash_password

HASH = hash_password(PASSWORD)  # one hash for every account: argon2 is slow on purpose
LIVE = {"kind": "live", "base": 600, "increment": 0}
DAYS = {"kind": "correspondence", "days": 3}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db")
    yield srv
    srv.stop()


@pytest.fixture
def members(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db", tournaments="members")
    yield srv
    srv.stop()


def account(server: LiveServer, name: str, *, admin: bool = False) -> Client:
    """A client logged in to a new account (made in the store)."""
    server.app.state.store.add_user(name, HASH, admin=admin)
    client = Client(server)
    assert client.login(name).status_code == 200
    return client


def create(client: Client, **body: Any) -> Any:
    body = {"name": "Club cup", "kind": "round_robin", "game": "andantino",
            "time_control": LIVE, **body}
    return client.http.post("/api/tournaments", json=body)


def made(client: Client, **body: Any) -> str:
    answer = create(client, **body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def show(client: Client, tournament_id: str) -> dict[str, Any]:
    answer = client.http.get(f"/api/tournaments/{tournament_id}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def join(client: Client, tournament_id: str, **body: Any) -> Any:
    return client.http.post(f"/api/tournaments/{tournament_id}/join", json=body)


def wait_round(client: Client, tournament_id: str, number: int,
               timeout: float = 60) -> dict[str, Any]:
    """The tournament once it stands at round ``number`` (or has finished)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = show(client, tournament_id)
        if shown["round"] >= number or shown["status"] == "finished":
            return shown
        assert time.monotonic() < deadline, shown
        time.sleep(0.05)


def resign(client: Client, game_id: str, side: int) -> None:
    """``client`` resigns ``side`` of a game and sees it end."""
    socket = client.socket(game_id)
    try:
        socket.state()
        socket.send({"type": "resign", "side": side})
        socket.until(lambda m: m["type"] == "state" and m["result"] != "*")
    finally:
        socket.close()


def play_round(clients: dict[str, Client], shown: dict[str, Any], loser: str) -> None:
    """End every game of the tournament's current round: ``loser`` ``first`` or
    ``second`` resigns (an AI's opponent resigns whatever ``loser`` says)."""
    current = shown["rounds"][-1]
    for game in current["games"]:
        if game["second"] is None:
            continue
        side = 0 if loser == "first" else 1
        name = game["first"] if side == 0 else game["second"]
        if name.startswith("AI "):
            side = 1 - side
            name = game["first"] if side == 0 else game["second"]
        resign(clients[name], game["game_id"], side)


# --- refusals ----------------------------------------------------------------------------


def test_creating_needs_the_right(server: LiveServer, members: LiveServer) -> None:
    alice = account(server, "alice")
    refused = create(alice)
    assert refused.status_code == 403
    assert "only an administrator" in refused.json()["error"]
    assert alice.http.get("/api/tournaments").json()["may_create"] is False
    root = account(server, "root", admin=True)
    assert create(root).status_code == 201
    assert root.http.get("/api/tournaments").json()["may_create"] is True
    # --tournaments members: any account
    bob = account(members, "bob")
    assert create(bob).status_code == 201
    # nobody logged in
    assert Client(server).http.post("/api/tournaments", json={}).status_code == 401


@pytest.mark.parametrize(("body", "named"), [
    ({"name": ""}, "name must be"),
    ({"name": "x" * 81}, "name must be"),
    ({"name": "two\nlines"}, "one line of printable characters"),
    ({"kind": "knockout"}, "kind must be one of"),
    ({"game": "chess"}, "game must be one of"),
    ({"rules": {"self_trap": "sometimes"}}, "self_trap"),
    ({"time_control": None}, "a tournament's games have a clock"),
    ({"time_control": {"kind": "live", "base": -5}}, "base"),
    ({"rated": "yes"}, "rated must be"),
    ({"max_entrants": 1}, "max_entrants must be a whole number from 2 to 64"),
    ({"max_entrants": 65}, "max_entrants must be"),
    ({"max_entrants": True}, "max_entrants must be"),
    ({"kind": "swiss"}, "rounds is missing"),
    ({"kind": "swiss", "rounds": 16}, "rounds must be a whole number from 1 to 15"),
    ({"rounds": 3}, "rounds is for a Swiss"),
    ({"kind": "league", "division_size": 1}, "division_size must be"),
    ({"kind": "league", "division_size": 4, "promote": 3}, "promote must be a whole number "
                                                           "from 0 to 2"),
    ({"promote": 1}, "promote is for a league"),
    ({"scoring": "elo"}, "scoring must be one of"),
    ({"game": "abande", "scoring": "series"}, "for Andantino only"),
    ({"ai": ["grandmaster"]}, "AI entrant is one of the levels"),
    ({"ai": ["easy", "easy"]}, "names a level twice"),
    ({"ai": "easy"}, "ai must be a list"),
    ({"rated": True, "rules": {"tiles_per_player": 10}}, "tiles_per_player=25"),
    ({"colour": "white"}, "unknown field 'colour'"),
])
def test_malformed_options_are_refused_naming_the_field(server: LiveServer,
                                                        body: dict[str, Any],
                                                        named: str) -> None:
    root = account(server, "root", admin=True)
    answer = create(root, **body)
    assert answer.status_code == 400, answer.text
    assert named in answer.json()["error"]
    assert root.http.get("/api/tournaments").json()["tournaments"] == []


def test_joining_twice_full_after_the_start_and_other_refusals(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    alice, bob, carol = (account(server, n) for n in ("alice", "bob", "carol"))
    tid = made(root, max_entrants=2)
    assert join(alice, tid).status_code == 200
    twice = join(alice, tid)
    assert twice.status_code == 409 and "already" in twice.json()["error"]
    # the creator alone may start it, and not with one entrant
    refused = bob.http.post(f"/api/tournaments/{tid}/start")
    assert refused.status_code == 403 and "creator" in refused.json()["error"]
    lonely = root.http.post(f"/api/tournaments/{tid}/start")
    assert lonely.status_code == 409 and "two entrants" in lonely.json()["error"]
    assert join(bob, tid).status_code == 200
    full = join(carol, tid)
    assert full.status_code == 409 and "full" in full.json()["error"]
    # leaving before the start frees the place
    assert carol.http.post(f"/api/tournaments/{tid}/leave", json={}).status_code == 409
    assert bob.http.post(f"/api/tournaments/{tid}/leave", json={}).status_code == 200
    assert join(carol, tid).status_code == 200
    # an AI level is entered by the creator only
    assert join(alice, tid, ai="easy").status_code == 403
    started = root.http.post(f"/api/tournaments/{tid}/start")
    assert started.status_code == 200, started.text
    assert started.json()["status"] == "running"
    late = join(bob, tid)
    assert late.status_code == 409 and "started" in late.json()["error"]
    gone = alice.http.post(f"/api/tournaments/{tid}/leave", json={})
    assert gone.status_code == 409 and "started" in gone.json()["error"]
    again = root.http.post(f"/api/tournaments/{tid}/start")
    assert again.status_code == 409
    assert root.http.delete(f"/api/tournaments/{tid}").status_code == 409
    assert show(root, tid)["entrant_count"] == 2
    unknown = join(alice, "0123456789ab")
    assert unknown.status_code == 404
    assert alice.http.post(f"/api/tournaments/{tid}/dance").status_code == 404
    malformed = alice.http.post(f"/api/tournaments/{tid}/join", content=b"[1]")
    assert malformed.status_code == 400


def test_delete_before_the_start(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    alice = account(server, "alice")
    tid = made(root)
    assert alice.http.delete(f"/api/tournaments/{tid}").status_code == 403
    assert root.http.delete(f"/api/tournaments/{tid}").status_code == 200
    assert alice.http.get(f"/api/tournaments/{tid}").status_code == 404


def test_a_tournament_game_is_only_its_players(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    alice, bob, mallory = (account(server, n) for n in ("alice", "bob", "mallory"))
    tid = made(root)
    for client in (alice, bob):
        assert join(client, tid).status_code == 200
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    [game] = shown["rounds"][0]["games"]
    assert (game["first"], game["second"]) == ("alice", "bob")
    socket = mallory.socket(game["game_id"])
    try:
        state = socket.state()  # watching is allowed
        assert state["accounts"] == ["alice", "bob"] and state["you"] == []
        assert state["clock"]["running"] == 0  # the clock started with the round
        assert "not playing" in socket.error({"type": "resign", "side": 0})
        assert socket.error({"type": "move", "move": "0,1", "ply": 0})
        assert socket.state()["moves"] == []
    finally:
        socket.close()
    # bob may not move for alice either, and nobody aborts a tournament's game
    socket = bob.socket(game["game_id"])
    try:
        assert socket.error({"type": "move", "move": "0,1", "ply": 0})
        assert socket.error({"type": "resign", "side": 0})
        assert "resign instead" in socket.error({"type": "abort"})
    finally:
        socket.close()
    assert show(root, tid)["rounds"][0]["games"][0]["result"] == "*"


def test_a_tournament_game_is_played_for_its_result(server: LiveServer) -> None:
    """An unrated tournament game is treated as a rated one: no hint, no take-back
    against the AI, no deletion by its player, and no engine help elsewhere while it
    runs; an administrator's deletion counts as lost by both and the round is over."""
    root = account(server, "root", admin=True)
    alice = account(server, "alice")
    tid = made(root, ai=["easy"], game="abande")
    assert join(alice, tid).status_code == 200
    other = alice.http.post("/api/games", json={"game": "abande",
                                                "players": ["human", "easy"]})
    assert other.status_code == 201
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    [game] = shown["rounds"][0]["games"]
    assert (game["first"], game["second"]) == ("AI easy", "alice")
    socket = alice.socket(game["game_id"])
    try:
        state = socket.until(lambda m: m["type"] == "state" and m["moves"],
                             timeout=120)  # the AI moved
        assert state["rated"] is False and state["tournament"] == tid
        assert state["tags"]["Event"] == "Club cup" and state["tags"]["Round"] == "1"
        assert "rated game" in socket.error({"type": "hint"})
        socket.send({"type": "move", "move": state["legal"][0], "ply": 1})
        state = socket.until(lambda m: m["type"] == "state" and len(m["moves"]) == 3,
                             timeout=120)
        assert "take-backs" in socket.error({"type": "undo", "ply": 3})
        assert len(socket.state()["moves"]) == 3
    finally:
        socket.close()
    assert alice.http.delete(f"/api/games/{game['game_id']}").status_code == 403
    refused = alice.http.post("/api/games", json={"game": "abande",
                                                  "players": ["human", "easy"]})
    assert refused.status_code == 403
    assert "no game against the computer while you play a rated game" in \
        refused.json()["error"]
    socket = alice.socket(other.json()["id"])  # begun before the tournament
    try:
        assert "while you play a rated game" in socket.error({"type": "hint"})
    finally:
        socket.close()
    assert root.http.delete(f"/api/games/{game['game_id']}").status_code == 200
    server.app.state.housekeeping()  # its one round is over: the tournament ends
    shown = wait_round(root, tid, 2)
    assert shown["rounds"][0]["games"][0]["result"] == "0-0"
    assert (shown["status"], shown["round"]) == ("finished", 1)
    table = {line["name"]: line for line in shown["standings"]}
    assert (table["alice"]["lost"], table["AI easy"]["lost"]) == (1, 1)
    assert table["alice"]["points"] == table["AI easy"]["points"] == 0


# --- caps under requests at once -------------------------------------------------------


def test_creator_cap_holds_at_once(members: LiveServer) -> None:
    alice = account(members, "alice")
    answers = at_once(10, lambda i: create(alice, name=f"cup {i}"))
    assert statuses(answers) == {201: limits.MAX_TOURNAMENTS_PER_USER,
                                 409: 10 - limits.MAX_TOURNAMENTS_PER_USER}
    assert len(alice.http.get("/api/tournaments").json()["tournaments"]) == \
        limits.MAX_TOURNAMENTS_PER_USER
    refused = next(a for a in answers if a.status_code == 409)
    assert "MAX_TOURNAMENTS_PER_USER" in refused.json()["error"]


def test_server_cap_holds_at_once(members: LiveServer,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_OPEN_TOURNAMENTS", 4)
    clients = [account(members, f"user{i}") for i in range(4)]
    answers = at_once(12, lambda i: create(clients[i % 4], name=f"cup {i}"))
    assert statuses(answers) == {201: 4, 409: 8}
    assert len(clients[0].http.get("/api/tournaments").json()["tournaments"]) == 4


def test_entrant_cap_holds_at_once(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    tid = made(root, max_entrants=5)
    clients = [account(server, f"player{i}") for i in range(12)]
    answers = at_once(12, lambda i: join(clients[i], tid))
    assert statuses(answers) == {200: 5, 409: 7}
    shown = show(root, tid)
    assert shown["entrant_count"] == 5 and len(shown["entrants"]) == 5
    # one account joining many times at once is entered once
    other = made(root, max_entrants=10)
    answers = at_once(8, lambda i: join(clients[0], other))
    assert statuses(answers) == {200: 1, 409: 7}
    assert show(root, other)["entrant_count"] == 1


def test_entries_cap_holds_at_once(server: LiveServer) -> None:
    admins = [account(server, f"root{i}", admin=True) for i in range(3)]
    ids = [made(admins[i % 3], name=f"cup {i}") for i in range(8)]
    alice = account(server, "alice")
    answers = at_once(8, lambda i: join(alice, ids[i]))
    assert statuses(answers) == {200: limits.MAX_ENTRIES_PER_USER,
                                 409: 8 - limits.MAX_ENTRIES_PER_USER}
    refused = next(a for a in answers if a.status_code == 409)
    assert "MAX_ENTRIES_PER_USER" in refused.json()["error"]
    joined = sum(show(alice, tid)["joined"] for tid in ids)
    assert joined == limits.MAX_ENTRIES_PER_USER


def test_starts_at_once_make_one_first_round(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    tid = made(root)
    for name in ("alice", "bob", "carol", "dave"):
        assert join(account(server, name), tid).status_code == 200
    answers = at_once(6, lambda i: root.http.post(f"/api/tournaments/{tid}/start"))
    assert statuses(answers) == {200: 1, 409: 5}
    shown = show(root, tid)
    assert len(shown["rounds"]) == 1 and len(shown["rounds"][0]["games"]) == 2


def test_a_start_and_joins_at_once_pair_exactly_the_entrants(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    tid = made(root)
    for name in ("alice", "bob", "carol"):
        assert join(account(server, name), tid).status_code == 200
    late = [account(server, f"late{i}") for i in range(5)]

    def request(i: int) -> Any:
        if i == 0:
            return root.http.post(f"/api/tournaments/{tid}/start")
        return join(late[i - 1], tid)

    answers = at_once(6, request)
    shown = show(root, tid)
    if answers[0].status_code != 200:  # a join came first: it is open still, start it
        assert answers[0].status_code == 409
        shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    names = {e["name"] for e in shown["entrants"]}
    paired = {name for game in shown["rounds"][0]["games"]
              for name in (game["first"], game["second"]) if name is not None}
    assert paired == names  # nobody entered and left out of the pairings
    assert len(shown["rounds"][0]["games"]) == (len(names) + 1) // 2


# --- tournaments played through ------------------------------------------------------------


def test_round_robin_played_to_its_end(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    names = ("alice", "bob", "carol", "dave")
    clients = {n: account(server, n) for n in names}
    tid = made(root, name="Spring round robin", time_control=DAYS)
    for name in names:
        assert join(clients[name], tid).status_code == 200
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    met: set[frozenset[str]] = set()
    for number in (1, 2, 3):
        assert shown["round"] == number and shown["status"] == "running"
        assert len(shown["rounds"][-1]["games"]) == 2
        for game in shown["rounds"][-1]["games"]:
            met.add(frozenset((game["first"], game["second"])))
        play_round(clients, shown, loser="second")  # the first player wins each game
        shown = wait_round(root, tid, number + 1)
    assert shown["status"] == "finished" and len(met) == 6
    # every entrant has three games, a point for each game as first
    firsts: dict[str, int] = dict.fromkeys(names, 0)
    for played in shown["rounds"]:
        for game in played["games"]:
            assert game["result"] == "1-0"
            firsts[game["first"]] += 1
    points = {line["name"]: line["points"] for line in shown["standings"]}
    assert points == {n: float(firsts[n]) for n in names}
    assert sorted(firsts.values()) == [1, 1, 2, 2]  # colours within one
    assert next(line["rank"] for line in shown["standings"]) == 1
    assert shown["standings"][0]["points"] == 2
    # the crosstable agrees with the games
    cross = shown["crosstable"]
    assert cross["names"] == list(names)
    for played in shown["rounds"]:
        for game in played["games"]:
            a, b = names.index(game["first"]), names.index(game["second"])
            assert cross["results"][a][b] == "1" and cross["results"][b][a] == "0"
    # the Andantino series score: a resignation before any move leaves 2 tiles: 48
    assert {line["name"]: line["series"] for line in shown["standings"]} == {
        n: 48 * firsts[n] for n in names}


def test_a_rated_tournament_rates_its_games(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    clients = {n: account(server, n) for n in ("alice", "bob")}
    tid = made(root, rated=True, time_control=DAYS)
    for client in clients.values():
        assert join(client, tid).status_code == 200
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    assert shown["rated"] is True
    [game] = shown["rounds"][0]["games"]
    assert clients["alice"].http.get(f"/api/games/{game['game_id']}").json()["rated"]
    play_round(clients, shown, loser="second")
    assert wait_round(root, tid, 2)["status"] == "finished"
    ratings = {r["name"]: r for r in
               root.http.get("/api/ratings?game=andantino").json()["ratings"]}
    assert ratings["alice"]["games"] == ratings["bob"]["games"] == 1
    assert ratings["alice"]["rating"] > 1500 > ratings["bob"]["rating"]


def test_double_round_robin_with_an_ai_level(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    alice, bob = account(server, "alice"), account(server, "bob")
    clients = {"alice": alice, "bob": bob}
    tid = made(root, kind="double_round_robin", ai=["easy"], game="abande")
    assert [e["name"] for e in show(root, tid)["entrants"]] == ["AI easy"]
    for client in (alice, bob):
        assert join(client, tid).status_code == 200
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    rounds = 0
    while shown["status"] == "running":
        rounds += 1
        games = shown["rounds"][-1]["games"]
        assert sum(1 for g in games if g["second"] is None) == 1  # three: one bye
        play_round(clients, shown, loser="second")
        shown = wait_round(root, tid, rounds + 1, timeout=60)
    assert rounds == 6
    table = {line["name"]: line for line in shown["standings"]}
    # the AI never resigns: it won its four games; alice and bob one game each
    assert table["AI easy"]["points"] == 4 and table["AI easy"]["won"] == 4
    assert table["alice"]["points"] + table["bob"]["points"] == 2
    assert table["alice"]["series"] is None  # Abande has no series score
    assert all(line["played"] == 4 for line in table.values())
    assert sum(line["byes"] for line in table.values()) == 6


def test_swiss_pairs_without_repeats_with_a_bye(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    names = ("ann", "ben", "cat", "dan", "eve")
    clients = {n: account(server, n) for n in names}
    tid = made(root, kind="swiss", rounds=3)
    for name in names:
        assert join(clients[name], tid).status_code == 200
    too_many = made(root, kind="swiss", rounds=6, name="too long")
    for name in names[:3]:
        join(clients[name], too_many)
    refused = root.http.post(f"/api/tournaments/{too_many}/start")
    assert refused.status_code == 409 and "at most 3 rounds" in refused.json()["error"]
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    met: list[frozenset[str]] = []
    byes: list[str] = []
    for number in (1, 2, 3):
        games = shown["rounds"][-1]["games"]
        assert len(games) == 3
        for game in games:
            if game["second"] is None:
                byes.append(game["first"])
                assert game["result"] == "bye"
            else:
                met.append(frozenset((game["first"], game["second"])))
        play_round(clients, shown, loser="second")
        shown = wait_round(root, tid, number + 1)
    assert shown["status"] == "finished"
    assert len(met) == len(set(met)) == 6  # no pair met twice
    assert len(set(byes)) == 3  # nobody had two byes
    # round 1 by seed, top half against bottom half, the last seed's bye
    first = shown["rounds"][0]["games"]
    assert [(g["first"], g["second"]) for g in first] == [("ann", "cat"), ("ben", "dan"),
                                                          ("eve", None)]
    points = {line["name"]: line["points"] for line in shown["standings"]}
    assert sum(points.values()) == 6 + 3  # six games and three byes of a point
    # Buchholz: the sum of the opponents' points, as the standings' points say
    opponents: dict[str, list[str]] = {n: [] for n in names}
    for pair in met:
        a, b = tuple(pair)
        opponents[a].append(b)
        opponents[b].append(a)
    for line in shown["standings"]:
        assert line["buchholz"] == sum(points[o] for o in opponents[line["name"]])


def test_swiss_seeds_by_rating(tmp_path: Path) -> None:
    srv = LiveServer(tmp_path / "games.db", ai_ratings={"easy": 2000.0})
    try:
        root = account(srv, "root", admin=True)
        tid = made(root, kind="swiss", rounds=1)
        for name in ("ann", "ben", "cat"):
            assert join(account(srv, name), tid).status_code == 200
        assert join(root, tid, ai="easy").status_code == 200  # joined last, rated best
        shown = root.http.post(f"/api/tournaments/{tid}/start").json()
        # seeds: easy (2000), then ann, ben, cat (1500, by joining): 1-3, 2-4
        assert [(g["first"], g["second"]) for g in shown["rounds"][0]["games"]] == [
            ("AI easy", "ben"), ("ann", "cat")]
    finally:
        srv.stop()


def test_league_promotes_and_relegates(server: LiveServer) -> None:
    root = account(server, "root", admin=True)
    names = ("ann", "ben", "cat", "dan")
    clients = {n: account(server, n) for n in names}
    tid = made(root, kind="league", division_size=2, promote=1, seasons=2,
               time_control=DAYS)
    for name in names:
        assert join(clients[name], tid).status_code == 200
    shown = root.http.post(f"/api/tournaments/{tid}/start").json()
    season = shown["seasons"][0]
    assert [[line["name"] for line in d["standings"]] for d in season["divisions"]] == [
        ["ann", "ben"], ["cat", "dan"]]
    # a newcomer joins a running league: plays from the next season
    eve = account(server, "eve")
    clients["eve"] = eve
    assert join(eve, tid).status_code == 200
    # ann leaves after this season; cat too, but she thinks again and stays
    assert clients["ann"].http.post(f"/api/tournaments/{tid}/leave",
                                    json={}).json()["entrants"][0]["leaving"] is True
    assert clients["cat"].http.post(f"/api/tournaments/{tid}/leave",
                                    json={}).json()["entrants"][2]["leaving"] is True
    again = join(clients["cat"], tid)
    assert again.status_code == 200 and again.json()["entrants"][2]["leaving"] is False
    assert join(clients["cat"], tid).status_code == 409
    play_round(clients, shown, loser="first")  # the second player wins: ben and dan
    shown = wait_round(root, tid, 2)
    assert shown["round"] == 2
    season = shown["seasons"][0]
    assert season["season"] == 2
    divisions = [sorted(line["name"] for line in d["standings"])
                 for d in season["divisions"]]
    # ben stays up, dan goes up, cat stays, ann left, eve comes in at the bottom
    assert divisions == [["ben", "dan"], ["cat", "eve"]]
    play_round(clients, shown, loser="first")
    shown = wait_round(root, tid, 3)
    assert shown["status"] == "finished" and shown["round"] == 2
    last = shown["seasons"][0]["divisions"]
    assert [line["points"] for line in last[0]["standings"]] == [1, 0]


def test_serve_tournaments_option_and_config_key(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from click.testing import CliRunner
    from web_helpers import free_port

    from hexgames import cli

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: served.append(self.config))
    runner = CliRunner()
    db = tmp_path / "games.db"
    base = ["serve", "--server", "--port", str(free_port()), "--db", str(db)]
    assert runner.invoke(cli.cli, base).exit_code == 0
    assert served[-1].app.state.tournaments.creators == "admins"
    assert runner.invoke(cli.cli, [*base, "--tournaments", "members"]).exit_code == 0
    assert served[-1].app.state.tournaments.creators == "members"
    bad = runner.invoke(cli.cli, [*base, "--tournaments", "everyone"])
    assert bad.exit_code == 2 and "everyone" in bad.output
    path = tmp_path / "hexgames.toml"
    path.write_text(f'server = true\nport = {free_port()}\ndb = "{db}"\n'
                    'tournaments = "members"\n')
    assert runner.invoke(cli.cli, ["serve", "--config", str(path)]).exit_code == 0
    assert served[-1].app.state.tournaments.creators == "members"
    path.write_text('tournaments = "all"\n')
    result = runner.invoke(cli.cli, ["serve", "--config", str(path)])
    assert result.exit_code == 2
    assert "tournaments must be admins or members, not all" in result.output


def test_a_flag_that_falls_before_the_first_move_loses_a_tournament_game(
        tmp_path: Path) -> None:
    """The lobby's games are aborted when the first move does not come in time; a
    tournament's is lost on time, so that its round ends with a result."""
    from server_helpers import FakeClock

    clock = FakeClock()
    srv = LiveServer(tmp_path / "games.db", now=clock)
    try:
        root = account(srv, "root", admin=True)
        clients = {n: account(srv, n) for n in ("alice", "bob")}
        tid = made(root, time_control={"kind": "live", "base": 60, "increment": 0})
        for client in clients.values():
            assert join(client, tid).status_code == 200
        shown = root.http.post(f"/api/tournaments/{tid}/start").json()
        game_id = shown["rounds"][0]["games"][0]["game_id"]
        clock.advance(61)
        assert srv.manager.sweep() == [game_id]
        shown = wait_round(root, tid, 2)
        assert shown["status"] == "finished"
        assert shown["rounds"][0]["games"][0]["result"] == "0-1"  # alice's flag fell
        assert clients["bob"].http.get(f"/api/games/{game_id}").status_code == 200
    finally:
        srv.stop()


def test_two_ai_levels_play_their_game_by_themselves(tmp_path: Path) -> None:
    srv = LiveServer(tmp_path / "games.db", sweep_interval=0.25)
    try:
        root = account(srv, "root", admin=True)
        tid = made(root, ai=["easy", "medium"], time_control={"kind": "live", "base": 60,
                                                                "increment": 0})
        shown = root.http.post(f"/api/tournaments/{tid}/start").json()
        assert shown["rounds"][0]["games"][0]["first"] == "AI easy"
        shown = wait_round(root, tid, 2, timeout=240)
        assert shown["status"] == "finished"
        [game] = shown["rounds"][0]["games"]
        assert game["result"] in ("1-0", "0-1", "1/2-1/2")
        assert sum(line["points"] for line in shown["standings"]) == 1
    finally:
        srv.stop()


def test_a_round_over_while_the_server_was_down_starts_when_it_is_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "games.db"
    srv = LiveServer(db)
    try:
        root = account(srv, "root", admin=True)
        names = ("ann", "ben", "cat")
        clients = {n: account(srv, n) for n in names}
        tid = made(root)
        for name in names:
            assert join(clients[name], tid).status_code == 200
        shown = root.http.post(f"/api/tournaments/{tid}/start").json()
        # the server "stops" between the game's end and the next round: no hook
        monkeypatch.setattr(srv.app.state.tournaments, "game_finished", lambda session: None)
        play_round(clients, shown, loser="second")
        assert show(root, tid)["round"] == 1
    finally:
        srv.stop()
    again = LiveServer(db)
    try:
        root = Client(again)
        assert root.login("root").status_code == 200
        shown = show(root, tid)  # the start looked for rounds that are over
        assert shown["round"] == 2
        # the Berger table of three: ann's bye on board 1, ben against cat on board 2
        assert [g["result"] for g in shown["rounds"][0]["games"]] == ["bye", "1-0"]
        assert len(shown["rounds"][1]["games"]) == 2
    finally:
        again.stop()
