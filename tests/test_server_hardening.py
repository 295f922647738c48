"""Issue 32's server hardening, with real clients on a real server: sockets that end
with their login, limits that hold when requests arrive at once (the concurrency kit,
tests/concurrency.py), bounded bookkeeping, invitations used once, no engine help in a
rated game's messages, rated results that stand. Each test fails on the server as it
was before (the numbers are the issue's)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from concurrency import at_once, statuses
from server_helpers import PASSWORD, Client, LiveServer, Socket, challenge_game

from hexgames import limits
from hexgames.web.accounts import hash_password
from hexgames.web.auth import CLOSE_LOGIN
from hexgames.web.limiter import WindowLimit
from hexgames.web.store import GameStore


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db", ai_ratings={"easy": 1100.0, "expert": 2000.0})
    yield srv
    srv.stop()


def account(server: LiveServer, name: str, *, admin: bool = False) -> Client:
    """A client logged in to a new account (made in the store: no sign-up limit)."""
    server.app.state.store.add_user(name, hash_password(PASSWORD), admin=admin)
    client = Client(server)
    assert client.login(name).status_code == 200
    return client


@pytest.fixture
def alice(server: LiveServer) -> Client:
    return account(server, "alice")


@pytest.fixture
def bob(server: LiveServer) -> Client:
    return account(server, "bob")


def ai_game(client: Client, **body: Any) -> str:
    made = client.http.post("/api/games", json={"game": "abande",
                                                "players": ["human", "easy"], **body})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def people_game(first: Client, second: Client, **body: Any) -> str:
    return challenge_game(first, second, "abande", **body)


def closed_for_login(socket: Socket) -> tuple[str, int | None]:
    """The error a socket is told before it is closed, and its close code."""
    error = socket.until(lambda m: m["type"] == "error", timeout=5)
    return str(error["message"]), socket.close_code(timeout=5)


# --- 1. a socket lives no longer than its login -----------------------------------------


def test_logging_out_closes_that_logins_sockets_at_once(server: LiveServer, alice: Client,
                                                        bob: Client) -> None:
    game = people_game(alice, bob)
    laptop = Client(server)
    assert laptop.login("alice").status_code == 200
    mine, other = alice.socket(game), laptop.socket(game)
    mine.receive(), other.receive()
    assert alice.http.post("/api/auth/logout").status_code == 200
    message, code = closed_for_login(mine)
    assert code == CLOSE_LOGIN and "logged out" in message
    # the other login of the account goes on: it still moves
    other.send({"type": "move", "move": "d4", "ply": 0})
    assert other.until(lambda m: m["type"] == "state" and m["ply"] == 1)["moves"] == ["d4"]


def test_a_changed_password_closes_every_other_logins_sockets(server: LiveServer,
                                                               alice: Client,
                                                               bob: Client) -> None:
    game = people_game(alice, bob)
    laptop = Client(server)
    assert laptop.login("alice").status_code == 200
    mine, stolen = alice.socket(game), laptop.socket(game)
    mine.receive(), stolen.receive()
    changed = alice.http.post("/api/auth/password", json={"old": PASSWORD,
                                                          "new": "another password"})
    assert changed.status_code == 200
    message, code = closed_for_login(stolen)
    assert code == CLOSE_LOGIN and "password was changed" in message
    # the login that changed it keeps its cookie and its socket
    assert alice.http.get("/api/me").json()["user"]["name"] == "alice"
    mine.send({"type": "move", "move": "d4", "ply": 0})
    assert mine.until(lambda m: m["type"] == "state" and m["ply"] == 1)["ply"] == 1
    assert laptop.http.get("/api/me").json()["user"] is None


def test_an_account_removed_by_another_process_acts_no_more_on_its_sockets(
        server: LiveServer, tmp_path: Path, alice: Client, bob: Client) -> None:
    game = people_game(alice, bob)
    first, second = alice.socket(game), alice.socket(game)
    first.receive(), second.receive()
    operator = GameStore(tmp_path / "games.db")  # as `hexgames user remove` does
    user = operator.user("alice")
    assert user is not None and operator.remove_user(user.id)
    operator.close()
    # a message on the socket is checked against the login first: no move is made
    first.send({"type": "move", "move": "d4", "ply": 0})
    message, code = closed_for_login(first)
    assert code == CLOSE_LOGIN and "log in again" in message
    assert server.app.state.store.get(game).moves == []
    # the server's look for ended logins closes the socket that said nothing
    assert server.app.state.auth.check_sockets() == 1
    assert closed_for_login(second)[1] == CLOSE_LOGIN


def test_an_account_holds_a_bounded_number_of_sockets_even_at_once(
        server: LiveServer, alice: Client, bob: Client) -> None:
    game = people_game(alice, bob)
    opened = limits.MAX_SOCKETS_PER_USER + 10

    def open_one(index: int) -> tuple[str, int | None]:
        socket = alice.socket(game)
        first = socket.receive()
        if first["type"] == "state":
            return "open", None
        return first["message"], socket.close_code()

    answers = at_once(opened, open_one)
    refused = [answer for answer in answers if answer[0] != "open"]
    assert len(refused) == 10
    assert all(code == 4429 and "close some" in text for text, code in refused)
    assert server.app.state.auth.sockets.count() == limits.MAX_SOCKETS_PER_USER


# --- 2. limits hold when requests arrive at once -----------------------------------------


def test_parallel_wrong_logins_pass_the_account_limit_no_more_than_it_allows(
        server: LiveServer, alice: Client) -> None:
    answers = at_once(40, lambda i: Client(server).login("alice", "not the password"))
    counts = statuses(answers)
    assert counts[401] == limits.MAX_LOGIN_FAILURES, counts
    assert counts[429] == 40 - limits.MAX_LOGIN_FAILURES, counts
    waits = {int(a.headers["retry-after"]) for a in answers if a.status_code == 429}
    assert waits and all(0 < wait <= limits.LOGIN_WINDOW + 1 for wait in waits)
    assert server.app.state.auth.gate.peak <= server.app.state.auth.gate.width


def test_parallel_challenges_make_no_more_than_the_cap(server: LiveServer,
                                                       alice: Client) -> None:
    answers = at_once(60, lambda i: alice.http.post("/api/challenges",
                                                    json={"game": "abande"}))
    counts = statuses(answers)
    assert counts == {201: limits.MAX_CHALLENGES_PER_USER,
                      409: 60 - limits.MAX_CHALLENGES_PER_USER}, counts
    mine = alice.http.get("/api/challenges").json()["challenges"]
    assert len(mine) == limits.MAX_CHALLENGES_PER_USER


def test_parallel_signups_from_one_address_make_no_more_than_the_limit(
        server: LiveServer) -> None:
    answers = at_once(12, lambda i: Client(server).signup(f"user{i}"))
    counts = statuses(answers)
    assert counts == {201: limits.MAX_SIGNUPS_PER_ADDRESS,
                      429: 12 - limits.MAX_SIGNUPS_PER_ADDRESS}, counts
    assert server.app.state.store.user_count() == limits.MAX_SIGNUPS_PER_ADDRESS
    refused = next(a for a in answers if a.status_code == 429)
    assert "too many sign-ups" in refused.json()["error"]


def test_parallel_games_against_the_computer_stop_at_the_running_games_cap(
        server: LiveServer, alice: Client) -> None:
    answers = at_once(limits.MAX_RUNNING_GAMES_PER_USER + 8,
                      lambda i: alice.http.post("/api/games", json={
                          "game": "abande", "players": ["human", "easy"]}))
    counts = statuses(answers)
    assert counts == {201: limits.MAX_RUNNING_GAMES_PER_USER, 409: 8}, counts
    refused = next(a for a in answers if a.status_code == 409).json()["error"]
    assert f"you are in {limits.MAX_RUNNING_GAMES_PER_USER} running games" in refused
    running = server.app.state.store.game_ids_of(1, running=True)
    assert len(running) == limits.MAX_RUNNING_GAMES_PER_USER


def test_accepting_at_the_cap_keeps_the_challenge(server: LiveServer, alice: Client,
                                                  bob: Client) -> None:
    for _ in range(limits.MAX_RUNNING_GAMES_PER_USER):
        ai_game(bob)
    made = alice.http.post("/api/challenges", json={"game": "abande"}).json()
    refused = bob.http.post(f"/api/challenges/{made['id']}/accept")
    assert refused.status_code == 409
    assert f"you are in {limits.MAX_RUNNING_GAMES_PER_USER}" in refused.json()["error"]
    # the challenge was not taken: the game and the taking are one transaction
    assert [c["id"] for c in alice.http.get("/api/challenges").json()["challenges"]] == \
        [made["id"]]


def test_parallel_accepts_of_one_challenge_make_one_game(server: LiveServer,
                                                         alice: Client) -> None:
    made = alice.http.post("/api/challenges", json={"game": "abande"}).json()
    takers = [account(server, f"taker{i}") for i in range(8)]
    answers = at_once(8, lambda i: takers[i].http.post(
        f"/api/challenges/{made['id']}/accept"))
    assert statuses(answers) == {201: 1, 404: 7}
    assert server.app.state.store.count() == 1


def test_parallel_imports_stop_at_the_import_limit(server: LiveServer,
                                                   alice: Client) -> None:
    record = '[Game "Abande"]\n[Result "*"]\n\n1. d4 e4 *\n'
    answers = at_once(limits.MAX_IMPORTS_PER_USER + 6, lambda i: alice.http.post(
        "/api/import", json={"text": record}))
    counts = statuses(answers)
    assert counts == {201: limits.MAX_IMPORTS_PER_USER, 429: 6}, counts
    assert server.app.state.store.count() == limits.MAX_IMPORTS_PER_USER


def test_logins_keep_a_bounded_number_of_sessions_even_at_once(server: LiveServer,
                                                               alice: Client) -> None:
    # a login in progress holds a place of the account's login limit until it has
    # succeeded, so a burst of good logins passes in waves of that limit
    waves = 0
    while waves * limits.MAX_LOGIN_FAILURES < limits.MAX_SESSIONS_PER_USER + 10:
        answers = at_once(limits.MAX_LOGIN_FAILURES, lambda i: Client(server).login("alice"))
        assert statuses(answers) == {200: limits.MAX_LOGIN_FAILURES}
        waves += 1
    assert server.app.state.store.session_count(1) == limits.MAX_SESSIONS_PER_USER
    assert alice.http.get("/api/me").json()["user"] is None  # the oldest login ended


# --- 3. password hashing takes bounded memory --------------------------------------------


def test_parallel_hashes_wait_for_the_gate_and_a_flood_is_refused_without_hashing(
        tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", proxy_headers=True)
    try:
        gate = server.app.state.auth.gate
        assert gate.width == limits.HASH_MEMORY_BUDGET // (64 * 1024 * 1024) == 4
        assert gate.queue == limits.MAX_HASH_QUEUE
        gate.queue = 4  # a short queue, so the burst below surely overflows it
        # each from its own (forwarded) address: no rate limit stands in the way
        total = 40

        def signup(i: int) -> Any:
            client = Client(server)
            client.http.headers["x-forwarded-for"] = f"198.51.100.{i}"
            return client.signup(f"user{i}")

        answers = at_once(total, signup)
        counts = statuses(answers)
        assert set(counts) <= {201, 503} and counts[503] >= 1, counts
        assert gate.peak == gate.width
        assert server.app.state.store.user_count() == counts[201]
        busy = next(a for a in answers if a.status_code == 503).json()["error"]
        assert "busy" in busy
    finally:
        server.stop()


# --- 4. bookkeeping stays bounded -----------------------------------------------------


def test_refused_logins_add_no_entries_and_tables_stay_bounded(server: LiveServer) -> None:
    guesser = Client(server)
    for n in range(limits.MAX_LOGIN_FAILURES_PER_ADDRESS):
        assert guesser.login(f"name{n}", "guess-guess").status_code == 401
    auth = server.app.state.auth
    before = len(auth.limits.login_names)
    for n in range(300):  # refused by the address limit: nothing is remembered
        assert guesser.login(f"other{n}", "guess-guess").status_code == 429
    assert len(auth.limits.login_names) == before == limits.MAX_LOGIN_FAILURES_PER_ADDRESS
    assert len(auth.limits.login_addresses) == 1


def test_a_window_limit_expires_its_keys_and_refuses_new_ones_when_full() -> None:
    now = [0.0]
    limit = WindowLimit(2, 10.0, clock=lambda: now[0], max_keys=3)
    for key in "abc":
        assert not isinstance(limit.take(key), float)
    assert len(limit) == 3
    assert limit.take("d") == pytest.approx(10.0)  # full of live keys: refused
    assert len(limit) == 3 and limit.wait("d") == pytest.approx(10.0)
    now[0] = 5.0
    assert not isinstance(limit.take("a"), float)
    assert limit.take("a") == pytest.approx(5.0)  # two in the window: the limit
    now[0] = 10.5
    assert not isinstance(limit.take("d"), float)  # b and c expired and were let go
    assert len(limit) == 2
    ticket = limit.take("e")
    assert not isinstance(ticket, float)
    ticket.give_back()
    assert len(limit) == 2


def test_the_list_of_ones_games_pages_in_sql(server: LiveServer, alice: Client) -> None:
    for _ in range(7):
        ai_game(alice)
    pages = [alice.http.get(f"/api/games?mine=1&limit=3&offset={offset}").json()
             for offset in (0, 3, 6, 9)]
    assert [len(page["games"]) for page in pages] == [3, 3, 1, 0]
    assert {page["total"] for page in pages} == {7}
    ids = [game["id"] for page in pages for game in page["games"]]
    assert len(set(ids)) == 7
    # a far offset reads nothing (it fetched every id of the account up to it)
    far = alice.http.get("/api/games?mine=1&offset=999999999999").json()
    assert far["games"] == [] and far["total"] == 7


def test_games_kept_in_memory_are_bounded(server: LiveServer, alice: Client) -> None:
    store = server.app.state.store
    manager = server.app.state.manager
    record = "".join('[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n\n' for _ in range(40))
    ids = alice.http.post("/api/import", json={"text": record}).json()["ids"]
    kept = ai_game(alice)
    watching = alice.socket(kept)
    watching.receive()
    for game_id in ids:
        assert alice.http.get(f"/api/games/{game_id}").status_code == 200
    assert manager.open_count() == 41
    assert manager.evict_idle(keep=5) == 35
    assert manager.open_count() == 6
    # the watched game stayed; a game let go of opens again, and a socket joins it
    assert kept in manager._sessions
    again = alice.socket(ids[0])
    assert again.receive()["moves"] == ["d4"]
    assert store.get(ids[0]) is not None


def test_expired_sessions_and_invitations_are_deleted(server: LiveServer, tmp_path: Path,
                                                      alice: Client) -> None:
    made = alice.http.post("/api/challenges", json={"game": "abande", "invite": True})
    token = made.json()["invite"]
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE sessions SET expires = 0")
        db.execute("UPDATE challenges SET created = '2000-01-01T00:00:00+00:00'")
    server.app.state.housekeeping()
    with sqlite3.connect(tmp_path / "games.db") as db:
        assert db.execute("SELECT COUNT(*) FROM sessions").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM challenges").fetchone() == (0,)
    assert Client(server).http.get(f"/api/invites/{token}").status_code == 404


# --- 5. an invitation is used once, expires and can be withdrawn ---------------------


@pytest.fixture
def invited(tmp_path: Path) -> Iterator[tuple[LiveServer, Client, str, str]]:
    server = LiveServer(tmp_path / "games.db", signup="invite", proxy_headers=True)
    alice = account(server, "alice")
    made = alice.http.post("/api/challenges", json={"game": "abande", "invite": True})
    yield server, alice, made.json()["id"], made.json()["invite"]
    server.stop()


def test_an_invitation_makes_one_account_even_when_used_at_once(
        invited: tuple[LiveServer, Client, str, str]) -> None:
    server, _, _, token = invited

    def signup(i: int) -> Any:
        client = Client(server)
        client.http.headers["x-forwarded-for"] = f"198.51.100.{i}"
        return client.signup(f"friend{i}", invite=token)

    answers = at_once(10, signup)
    assert statuses(answers) == {201: 1, 403: 9}
    assert server.app.state.store.user_count() == 2  # alice and one friend
    later = Client(server).signup("late", invite=token)
    assert later.status_code == 403 and "used, withdrawn or has expired" in \
        later.json()["error"]


def test_an_invitation_expires(invited: tuple[LiveServer, Client, str, str],
                               tmp_path: Path) -> None:
    server, alice, _, token = invited
    week_ago = time.strftime("%Y-%m-%dT%H:%M:%S+00:00",
                             time.gmtime(time.time() - limits.INVITE_SECONDS - 60))
    with sqlite3.connect(tmp_path / "games.db") as db:
        db.execute("UPDATE challenges SET created = ?", (week_ago,))
    assert Client(server).http.get(f"/api/invites/{token}").status_code == 404
    assert Client(server).signup("friend", invite=token).status_code == 403
    assert alice.http.get("/api/challenges").json()["challenges"] == []
    # an expired invitation no longer counts against its maker's cap
    for _ in range(limits.MAX_CHALLENGES_PER_USER):
        assert alice.http.post("/api/challenges", json={"game": "abande"}).status_code == 201


def test_a_withdrawn_invitation_makes_no_account(
        invited: tuple[LiveServer, Client, str, str]) -> None:
    server, alice, challenge_id, token = invited
    assert alice.http.delete(f"/api/challenges/{challenge_id}").status_code == 200
    assert Client(server).http.get(f"/api/invites/{token}").status_code == 404
    assert Client(server).signup("friend", invite=token).status_code == 403
    assert server.app.state.store.user_count() == 1


# --- 6. no engine help in a rated game, in any message -----------------------------------


@pytest.mark.parametrize("rated", [True, False])
def test_the_ais_thinking_is_kept_from_a_rated_games_players(server: LiveServer,
                                                             alice: Client,
                                                             rated: bool) -> None:
    game = ai_game(alice, players=["expert", "human"], rated=rated)
    socket = alice.socket(game)
    thinking = socket.until(lambda m: m["type"] == "thinking" and m["elapsed"] > 0.4)
    socket.send({"type": "stop"})
    played = socket.until(lambda m: m["type"] == "ai_move")
    if rated:
        assert set(thinking) == {"type", "side", "elapsed"}
        assert set(played) == {"type", "move", "side", "time"}
    else:  # the same messages carry the engine's findings in an unrated game
        assert {"pv", "score", "eval", "best"} <= set(thinking)
        assert {"score", "depth"} <= set(played)


# --- 7. a rated result cannot be erased ------------------------------------------------


def test_a_rated_games_player_cannot_delete_it(server: LiveServer, alice: Client) -> None:
    running = ai_game(alice, rated=True)
    finished = ai_game(alice, rated=True)
    socket = alice.socket(finished)
    socket.receive()
    socket.send({"type": "resign", "side": 0})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    for game_id in (running, finished):
        refused = alice.http.delete(f"/api/games/{game_id}")
        assert refused.status_code == 403
        assert "only an administrator" in refused.json()["error"]
    assert alice.http.get("/api/users/alice").json()["results"]["lost"] == 1
    assert alice.http.get("/api/users/alice").json()["ratings"]["abande"]["games"] == 1
    unrated = ai_game(alice)
    assert alice.http.delete(f"/api/games/{unrated}").status_code == 200


def test_an_administrators_deletion_refolds_the_ratings(server: LiveServer, alice: Client,
                                                        bob: Client) -> None:
    admin = account(server, "root", admin=True)
    games = []
    for result_side in (0, 1, 0):  # alice wins, loses, wins
        game = people_game(alice, bob, rated=True)
        socket = (bob if result_side == 0 else alice).socket(game)
        socket.receive()
        socket.send({"type": "resign", "side": 1 - result_side})
        socket.until(lambda m: m["type"] == "state" and m["over"])
        games.append(game)
    store = server.app.state.store
    lobby = server.app.state.lobby
    assert [r.game_id for r in store.results("abande")] == games
    assert admin.http.delete(f"/api/games/{games[1]}").status_code == 200
    # the ratings are those of the two games that remain, folded in order
    kept = store.results("abande")
    assert [r.game_id for r in kept] == [games[0], games[2]]
    expected = lobby.rerate(kept)
    for user_id in (1, 2):
        rating = store.rating(user_id, "abande")
        assert (rating.rating, rating.rd, rating.games) == pytest.approx(
            (expected[user_id].rating, expected[user_id].rd, 2))
    page = alice.http.get("/api/users/alice").json()
    assert page["results"] == {"won": 2, "lost": 0, "drawn": 0}
    assert page["ratings"]["abande"]["games"] == 2


def test_the_rated_games_of_an_older_database_become_its_results(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = GameStore(db)
    store.add_user("alice", "x")
    store.add_user("bob", "x")
    for game_id, result, done in (("aaaaaaaaaaaa", "1-0", True), ("bbbbbbbbbbbb", "0-1", True),
                                  ("cccccccccccc", "*", False)):
        store.create("abande", [], ["human", "easy"] if game_id[0] == "b" else
                     ["human", "human"], seats=[1, None] if game_id[0] == "b" else [1, 2],
                     rated=True, result=result, extra={"rated_done": True} if done else {})
        with sqlite3.connect(db) as conn:  # the store made a random id: take ours
            conn.execute("UPDATE games SET id = ? WHERE id NOT IN ('aaaaaaaaaaaa', "
                         "'bbbbbbbbbbbb', 'cccccccccccc')", (game_id,))
    store.close()
    with sqlite3.connect(db) as conn:  # as schema 4 left it
        conn.execute("DROP TABLE results")
        conn.execute("PRAGMA user_version = 4")
    store = GameStore(db)
    assert store.results("abande") == [
        store.result("aaaaaaaaaaaa"), store.result("bbbbbbbbbbbb")]
    first, second = store.results("abande")
    assert (first.first, first.second, first.ai, first.score) == (1, 2, None, 1.0)
    assert (second.first, second.second, second.ai, second.score) == (1, None, "easy", 0.0)
    store.close()


# --- 11. a game over at once is no game --------------------------------------------------


def test_rules_that_end_the_game_at_once_make_no_challenge_and_no_game(
        server: LiveServer, alice: Client) -> None:
    body = {"game": "andantino", "rules": {"tiles_per_player": 1}, "rated": True}
    for path in ("/api/challenges", "/api/games"):
        refused = alice.http.post(path, json={**body, "players": ["human", "easy"]})
        assert refused.status_code == 400, path
        assert "over before its first move" in refused.json()["error"]
    assert server.app.state.store.count() == 0


def test_a_burst_of_password_work_takes_bounded_memory(tmp_path: Path) -> None:
    """The issue's measurement: 40 parallel sign-ups and 60 parallel logins (each from
    its own address, so only the hash gate stands in the way) took a server from 44 MB
    to 2 GB and 2.6 GB; now its peak grows by at most the gate's width of hashes."""
    import httpx
    from web_helpers import ServerProcess

    server = ServerProcess(tmp_path / "games.db", ["--server", "--trust-proxy"],
                           log=tmp_path / "server.log")
    server.start()
    try:
        assert server.process is not None
        status = Path(f"/proc/{server.process.pid}/status")

        def peak_mb() -> float:
            line = next(x for x in status.read_text().splitlines() if x.startswith("VmHWM"))
            return int(line.split()[1]) / 1024

        base = {"origin": server.base, **server.local_host()}

        def post(path: str, body: dict[str, str], address: str) -> httpx.Response:
            with httpx.Client(base_url=server.base, timeout=60) as client:
                return client.post(path, json=body,
                                   headers={**base, "x-forwarded-for": address})

        warm = post("/api/auth/signup", {"name": "warm", "password": PASSWORD}, "192.0.2.1")
        assert warm.status_code == 201, warm.text
        before = peak_mb()
        signups = at_once(40, lambda i: post("/api/auth/signup", {
            "name": f"user{i}", "password": PASSWORD}, f"198.51.100.{i}"))
        logins = at_once(60, lambda i: post("/api/auth/login", {
            "name": f"user{i % 40}", "password": "wrong password"}, f"203.0.113.{i}"))
        answers = statuses(signups + logins)
        assert set(answers) <= {201, 401, 503}, answers
        assert answers[201] + answers[401] >= 8  # the gate let some through
        grown = peak_mb() - before
        hashes = limits.HASH_MEMORY_BUDGET / 2**20
        assert grown < hashes + 120, f"the peak grew by {grown:.0f} MB"
    finally:
        server.stop()
