"""Issue 32's server hardening, with real clients on a real server: sockets that end
with their login, limits that hold when requests arrive at once (the concurrency kit,
tests/concurrency.py), bounded bookkeeping, invitations used once, no engine help in a
rated game's messages, rated results that stand. Each test fails on the server as it
was before (the numbers are the issue's)."""

from __future__ import annotations

import sqlite3
import threading
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


#: A correspondence clock: a rated game needs a clock.
DAYS = {"kind": "correspondence", "days": 3}


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


def ai_game(client: Client, game: str = "abande", **body: Any) -> str:
    made = client.http.post("/api/games", json={"game": game,
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


def test_a_socket_opened_while_the_logins_are_looked_up_stays_open(
        server: LiveServer, alice: Client, bob: Client,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The look for ended logins read the sockets' tokens, then the sessions, then closed
    # every socket whose token was not among those found alive: also a socket opened
    # in between, whose token it had not looked up ("your login has ended").
    game = people_game(alice, bob)
    auth = server.app.state.auth
    store = server.app.state.store
    looked_up = store.live_sessions
    opened: list[Any] = []

    def slow_lookup(tokens: Any) -> set[str]:
        alive = looked_up(tokens)
        late = bob.socket(game)  # opened while the sessions are read
        late.receive()
        opened.append(late)
        return alive

    first = alice.socket(game)
    first.receive()
    monkeypatch.setattr(store, "live_sessions", slow_lookup)
    assert auth.check_sockets() == 0
    monkeypatch.undo()
    assert opened[0].state()["ply"] == 0  # open, and its login good
    assert first.state()["ply"] == 0


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


def _held_creates(monkeypatch: pytest.MonkeyPatch, server: LiveServer,
                  count: int) -> None:
    """Hold the first ``count`` games made (``GameStore.create``) until all of them are
    on their way, so each request has passed its checks made before the store's
    transaction when the first game is stored."""
    store = server.app.state.store
    create = store.create
    barrier = threading.Barrier(count)

    def held(*args: Any, **kwargs: Any) -> Any:
        barrier.wait(10)
        return create(*args, **kwargs)

    monkeypatch.setattr(store, "create", held)


def test_two_rated_games_against_the_computer_at_once_make_one(
        server: LiveServer, alice: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rated game against a level bars its player from other games against the
    computer (two of them would let the computer play one against the other: docs/
    server.md), but the barring was read as each request came, before either game was
    stored: two asked at once were both made (6 times in 6 on a live server), one with
    each colour, and the player could pass the computer's moves from one to the
    other. The check is made again in the transaction that stores the game."""
    _held_creates(monkeypatch, server, 2)
    answers = at_once(2, lambda i: alice.http.post("/api/games", json={
        "game": "abande", "players": [["human", "easy"], ["easy", "human"]][i],
        "rated": True, "time_control": DAYS}))
    assert statuses(answers) == {201: 1, 403: 1}, [a.text for a in answers]
    refused = next(a for a in answers if a.status_code == 403).json()["error"]
    assert refused.startswith("no game against the computer while you play a rated "
                              "game without engine help"), refused
    assert len(server.app.state.store.game_ids_of(1, running=True)) == 1


def test_a_game_against_the_computer_asked_as_a_barring_game_is_made_is_refused(
        server: LiveServer, alice: Client, bob: Client,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game against the computer asked for at the moment a challenge of its account
    is accepted, and stored just after the game between two people (its barring read
    before that game was stored), was made: a game the account could not have
    started a moment later. (Stored first, it would be a game begun before, which
    goes on.) Now the check is made again in the transaction that stores it."""
    made = alice.http.post("/api/challenges", json={"game": "abande"}).json()["id"]
    store = server.app.state.store
    create = store.create
    both = threading.Barrier(2)
    people_stored = threading.Event()

    def ordered(*args: Any, **kwargs: Any) -> Any:
        both.wait(10)  # both requests past their first checks
        if kwargs.get("challenge") is None:  # the computer's game: after the people's
            people_stored.wait(10)
            return create(*args, **kwargs)
        try:
            return create(*args, **kwargs)
        finally:
            people_stored.set()

    monkeypatch.setattr(store, "create", ordered)
    answers = at_once(2, lambda i: (
        bob.http.post(f"/api/challenges/{made}/accept") if i == 0 else
        alice.http.post("/api/games", json={"game": "abande",
                                            "players": ["human", "easy"]})))
    assert answers[0].status_code == 201, answers[0].text
    assert answers[1].status_code == 403, answers[1].text
    assert answers[1].json()["error"].startswith(
        "no game against the computer while you play a game between two people")
    assert len(store.game_ids_of(1, running=True)) == 1


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


def test_logins_keep_a_bounded_number_of_sessions_even_at_once(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", proxy_headers=True)
    try:
        first = account(server, "alice")

        def login(i: int, wave: int) -> Any:
            client = Client(server)
            client.http.headers["x-forwarded-for"] = f"198.51.100.{wave}"
            return client.login("alice")

        # a login in progress holds a place of the account's limits until it has
        # succeeded, so a burst of good logins passes in waves of those limits
        for wave in range(6):
            answers = at_once(limits.MAX_LOGIN_FAILURES, lambda i, w=wave: login(i, w))
            assert statuses(answers) == {200: limits.MAX_LOGIN_FAILURES}
        assert server.app.state.store.session_count(1) == limits.MAX_SESSIONS_PER_USER
        assert first.http.get("/api/me").json()["user"] is None  # the oldest login ended
    finally:
        server.stop()


def test_logins_of_one_address_are_limited_whatever_their_outcome(server: LiveServer,
                                                                  alice: Client) -> None:
    # each login checks a hash: good ones in a loop would hold the hashing gate
    answers = [Client(server).login("alice") for _ in range(limits.MAX_LOGINS_PER_ADDRESS)]
    assert statuses(answers) == {200: limits.MAX_LOGINS_PER_ADDRESS - 1, 429: 1}


def test_a_guesser_locks_out_only_its_own_address_at_first(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", proxy_headers=True)
    try:
        account(server, "alice")

        def client(address: str) -> Client:
            made = Client(server)
            made.http.headers["x-forwarded-for"] = address
            return made

        guesser = client("203.0.113.9")
        for _ in range(limits.MAX_LOGIN_FAILURES):
            assert guesser.login("alice", "guess-guess").status_code == 401
        assert guesser.login("alice").status_code == 429
        assert client("198.51.100.1").login("alice").status_code == 200
        # password changes are limited too, right or wrong
        owner = client("198.51.100.2")
        assert owner.login("alice").status_code == 200
        changes = [owner.http.post("/api/auth/password", json={"old": PASSWORD,
                                                               "new": PASSWORD})
                   for _ in range(limits.MAX_PASSWORD_CHANGES + 1)]
        assert statuses(changes) == {200: limits.MAX_PASSWORD_CHANGES, 429: 1}
    finally:
        server.stop()


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
    game = ai_game(alice, players=["expert", "human"], rated=rated, time_control=DAYS)
    socket = alice.socket(game)
    thinking = socket.until(lambda m: m["type"] == "thinking" and m["elapsed"] > 0.4)
    if rated:  # nor may the player make a rated level play weaker
        assert "takes its own time" in socket.error({"type": "stop"})
    else:
        socket.send({"type": "stop"})
    played = socket.until(lambda m: m["type"] == "ai_move", timeout=30)
    if rated:
        assert set(thinking) == {"type", "side", "elapsed"}
        assert set(played) == {"type", "move", "side", "time"}
    else:  # the same messages carry the engine's findings in an unrated game
        assert {"pv", "score", "eval", "best"} <= set(thinking)
        assert {"score", "depth"} <= set(played)


# --- 7. a rated result cannot be erased ------------------------------------------------


def test_a_rated_games_player_cannot_delete_it(server: LiveServer, alice: Client) -> None:
    finished = ai_game(alice, rated=True, time_control=DAYS)
    socket = alice.socket(finished)
    socket.receive()
    socket.send({"type": "resign", "side": 0})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    unrated = ai_game(alice)  # (none while a rated game runs)
    running = ai_game(alice, rated=True, time_control=DAYS)
    for game_id in (running, finished):
        refused = alice.http.delete(f"/api/games/{game_id}")
        assert refused.status_code == 403
        assert "only an administrator" in refused.json()["error"]
    assert alice.http.get("/api/users/alice").json()["results"]["lost"] == 1
    assert alice.http.get("/api/users/alice").json()["ratings"]["abande"]["games"] == 1
    assert alice.http.delete(f"/api/games/{unrated}").status_code == 200


def test_an_administrators_deletion_refolds_the_ratings(server: LiveServer, alice: Client,
                                                        bob: Client) -> None:
    admin = account(server, "root", admin=True)
    games = []
    for result_side in (0, 1, 0):  # alice wins, loses, wins
        game = people_game(alice, bob, rated=True, time_control=DAYS)
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


def test_a_removed_accounts_id_is_never_given_again(server: LiveServer, tmp_path: Path,
                                                    alice: Client) -> None:
    mallory = account(server, "mallory")
    game = people_game(alice, mallory, rated=True, time_control=DAYS)
    store = server.app.state.store
    removed = store.user("mallory")
    assert removed is not None and store.remove_user(removed.id)
    newbie = Client(server)
    assert newbie.signup("newbie").status_code == 201
    assert store.user("newbie").id > removed.id
    # nothing of mallory's is the newcomer's
    assert newbie.http.get("/api/games?mine=1").json()["total"] == 0
    socket = newbie.socket(game)
    assert socket.receive()["you"] == []
    assert "not playing" in socket.error({"type": "resign", "side": 1})


def test_an_older_database_gives_no_removed_id_again(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    GameStore(db).close()
    with sqlite3.connect(db) as conn:  # schema 4's users: ids given again
        conn.execute("DROP TABLE users")
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL "
                     "UNIQUE COLLATE NOCASE, password TEXT NOT NULL, admin INTEGER NOT "
                     "NULL DEFAULT 0, created TEXT NOT NULL)")
        conn.execute("INSERT INTO users VALUES (1, 'alice', 'x', 0, 'then')")
        # account 7 was removed; its seat stays in a game
        conn.execute("INSERT INTO games (id, game, rules, players, moves, result, created, "
                     "updated, seats, rated) VALUES ('g', 'abande', '[]', "
                     "'[\"human\", \"human\"]', '[]', '*', 'x', 'y', '[1, 7]', 0)")
        conn.execute("DROP TABLE results")
        conn.execute("PRAGMA user_version = 4")
    store = GameStore(db)
    made = store.add_user("newbie", "x")
    assert made is not None and made.id == 8
    assert store.user("alice").id == 1
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


# --- what a hostile tester found after the first round ------------------------------------


def test_a_refused_game_of_two_solvers_makes_no_table(server: LiveServer, alice: Client,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from hexgames import native

    made: list[int] = []
    real = native.AbandeSolver

    def spy(table_mb: int) -> Any:
        made.append(table_mb)
        return real(table_mb)

    monkeypatch.setattr(native, "AbandeSolver", spy)
    big = "solver:table_mb=1024"
    refused = alice.http.post("/api/games", json={"game": "abande", "players": [big, big]})
    assert refused.status_code == 403  # two AIs: no game; and no 1 GB table made for it
    assert made and max(made) == 1


def test_a_page_that_does_not_read_costs_one_state_and_then_is_closed() -> None:
    import asyncio

    from hexgames.web.searches import CLOSE_TOO_SLOW, Closing, Outgoing, Subscriber

    async def run() -> tuple[int, int, list[Any]]:
        subscriber = Subscriber(asyncio.get_running_loop())
        state = {"type": "state", "pad": "x" * 1000}
        for _ in range(1000):  # a page asking for the state and never reading
            subscriber.send(state)
        await asyncio.sleep(0)
        waiting = [i for i in list(subscriber.queue._queue)  # type: ignore[attr-defined]
                   if isinstance(i, Outgoing) and not i.dropped]
        backlog_states = subscriber.backlog
        for _ in range(limits.MAX_SOCKET_BACKLOG // 100_000 + 2):  # views pile up
            subscriber.send({"type": "view", "pad": "y" * 100_000})
        await asyncio.sleep(0)
        return len(waiting), backlog_states, list(subscriber.queue._queue)  # type: ignore

    states, backlog, queue = asyncio.run(run())
    assert states == 1 and backlog < 1100  # only the newest state waits
    assert len(queue) == 1 and isinstance(queue[0], Closing)
    assert queue[0].code == CLOSE_TOO_SLOW


def test_a_live_socket_that_stops_reading_holds_one_state(server: LiveServer,
                                                          alice: Client) -> None:
    from large_positions import STRIP_RULES, strip_position

    made = alice.http.post("/api/games", json={
        "game": "andantino", "players": ["human", "easy"],
        "rules": {"extended": True, "tiles_per_player": STRIP_RULES.tiles_per_player},
        "position": strip_position()})
    assert made.status_code == 201, made.text
    socket = alice.socket(made.json()["id"])
    for _ in range(2000):  # 42 KB states asked for; nothing read
        socket.send({"type": "state"})
    time.sleep(2)
    [subscriber] = list(server.app.state.auth.sockets._sockets)
    assert subscriber.backlog < 2 * 60_000, subscriber.backlog
    assert socket.state()["type"] == "state"  # and the page still works


@pytest.mark.parametrize(("change", "why"), [
    ({"position": "andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w"},
     "standard start"),
    ({"rules": {"tiles_per_player": 2}}, "tiles_per_player=25 or more"),
    ({"time_control": None}, "has a clock"),
])
def test_a_rated_game_is_a_real_game(server: LiveServer, alice: Client,
                                     change: dict[str, Any], why: str) -> None:
    body = {"game": "andantino", "players": ["human", "easy"], "rated": True,
            "time_control": DAYS, **change}
    for path in ("/api/games", "/api/challenges"):
        refused = alice.http.post(path, json=body)
        if path == "/api/challenges" and "position" in change:
            continue  # a challenge has no position
        assert refused.status_code == 400 and why in refused.json()["error"], path
    abande = alice.http.post("/api/challenges", json={
        "game": "abande", "rated": True, "time_control": DAYS, "rules": {"max_height": 2}})
    assert abande.status_code == 400 and "max_height=3 or more" in abande.json()["error"]


def test_no_engine_help_anywhere_while_one_plays_a_rated_game(server: LiveServer,
                                                              alice: Client,
                                                              bob: Client) -> None:
    done = ai_game(alice)
    finished = alice.socket(done)
    finished.receive()
    finished.send({"type": "resign", "side": 0})
    finished.until(lambda m: m["type"] == "state" and m["over"])
    rated = people_game(alice, bob, rated=True, time_control=DAYS)
    line = ["d4"]
    live = alice.socket(rated)
    live.receive()
    live.send({"type": "move", "move": "d4", "ply": 0})
    live.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    # the rated game's position analysed in another game of alice's: refused
    refused = finished.error({"type": "analyse", "on": True, "line": line, "multipv": 3})
    assert "while you play a rated game" in refused
    # nor a game against the computer, set up or from the start
    for position in ("abande d4=B turn=w hands=b17,w18", None):
        setup = alice.http.post("/api/games", json={
            "game": "abande", "players": ["human", "easy"], "position": position})
        assert setup.status_code == 403
        assert "no game against the computer while you play a rated game" in \
            setup.json()["error"]
    # carol, who plays no rated game, may analyse the same line
    carol = account(server, "carol")
    watcher = carol.socket(done)
    watcher.receive()
    watcher.send({"type": "analyse", "on": True, "line": line})
    assert watcher.until(lambda m: m["type"] == "analysis")["line"] == line


def test_the_seed_of_an_ais_varied_play_is_secret_while_the_game_runs(
        server: LiveServer, alice: Client) -> None:
    game = ai_game(alice, players=["human", "hard"])
    socket = alice.socket(game)
    state = socket.receive()
    assert state["seed"] is None and "Seed" not in state["tags"]
    record = alice.http.get(f"/api/games/{game}/record").text
    assert "[Seed " not in record
    socket.send({"type": "resign", "side": 0})
    over = socket.until(lambda m: m["type"] == "state" and m["over"])
    assert isinstance(over["seed"], int) and over["tags"]["Seed"] == str(over["seed"])
    assert f'[Seed "{over["seed"]}"]' in alice.http.get(f"/api/games/{game}/record").text


def test_one_account_has_a_bounded_share_of_the_engines(tmp_path: Path) -> None:
    # analyses that run until stopped (alpha-beta for up to a minute a position)
    server = LiveServer(tmp_path / "games.db", helper_spec="alphabeta", analysis_time=60)
    try:
        _bounded_share_of_the_engines(server, account(server, "alice"))
    finally:
        server.stop()


def _bounded_share_of_the_engines(server: LiveServer, alice: Client) -> None:
    sockets = []
    for _ in range(limits.MAX_HELP_PER_USER + 1):
        game = ai_game(alice)
        socket = alice.socket(game)
        socket.receive()
        socket.send({"type": "resign", "side": 0})
        socket.until(lambda m: m["type"] == "state" and m["over"])
        sockets.append(socket)
    for socket in sockets[:-1]:
        socket.send({"type": "analyse", "on": True})
        socket.until(lambda m: m["type"] == "analysis")
    refused = sockets[-1].error({"type": "analyse", "on": True})
    assert "analyses and hints running, the most at once" in refused
    running = alice.socket(ai_game(alice))
    running.receive()
    assert "analyses and hints running" in running.error({"type": "hint"})
    assert server.app.state.manager.help.running() == limits.MAX_HELP_PER_USER
    sockets[0].send({"type": "analyse", "on": False})  # one stopped: a slot is free
    sockets[0].state()
    deadline = time.monotonic() + 10
    while server.app.state.manager.help.running() == limits.MAX_HELP_PER_USER:
        assert time.monotonic() < deadline, "the stopped analysis kept its slot"
        time.sleep(0.05)
    sockets[-1].send({"type": "analyse", "on": True})
    sockets[-1].until(lambda m: m["type"] == "analysis")
    for socket in sockets:
        socket.close()


def test_a_take_back_that_reopens_a_game_counts_against_the_cap(server: LiveServer,
                                                                 alice: Client) -> None:
    # a win in one for White (alice): 4,0 makes five
    won = ai_game(alice, game="andantino",
                  position="andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w")
    socket = alice.socket(won)
    socket.receive()
    socket.send({"type": "move", "move": "4,0", "ply": 0})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    for _ in range(limits.MAX_RUNNING_GAMES_PER_USER):
        ai_game(alice)
    refused = socket.error({"type": "undo", "ply": 1})
    assert f"you are in {limits.MAX_RUNNING_GAMES_PER_USER} running games" in refused
    assert server.app.state.store.get(won).result == "1-0"


def test_a_watcher_cannot_stop_another_pages_whole_game_analysis(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", helper_spec="alphabeta", game_analysis_time=5.0)
    try:
        alice, bob = account(server, "alice"), account(server, "bob")
        game = ai_game(alice)
        socket = alice.socket(game)
        socket.receive()
        socket.send({"type": "move", "move": "d4", "ply": 0})
        socket.until(lambda m: m["type"] == "state" and m["ply"] == 2)
        socket.send({"type": "resign", "side": 0})
        socket.until(lambda m: m["type"] == "state" and m["over"])
        socket.send({"type": "analyse_game", "action": "start"})
        socket.until(lambda m: m["type"] == "game_analysis" and m["running"])
        watcher = bob.socket(game)
        watcher.receive()
        refused = watcher.error({"type": "analyse_game", "action": "stop"})
        assert "only who started it or a player" in refused
        socket.send({"type": "analyse_game", "action": "stop"})  # the player may
        socket.until(lambda m: m["type"] == "game_analysis" and not m["running"])
    finally:
        server.stop()


def test_a_taken_invitation_shows_only_to_its_two_accounts(
        invited: tuple[LiveServer, Client, str, str]) -> None:
    server, alice, _, token = invited
    friend = Client(server)
    assert friend.signup("friend", invite=token).status_code == 201
    assert friend.http.get(f"/api/invites/{token}").status_code == 200
    assert alice.http.get(f"/api/invites/{token}").status_code == 200
    assert Client(server).http.get(f"/api/invites/{token}").status_code == 404


def test_ipv6_addresses_count_by_their_network() -> None:
    from hexgames.web.limiter import address_key

    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9") \
        == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("198.51.100.7") == "198.51.100.7"


def test_a_request_without_a_record_text_takes_no_import_of_the_hour(
        server: LiveServer, alice: Client) -> None:
    """A body whose ``text`` is no string is refused before it counts as an import (since
    the import and the explorer shared their reader, it took one of the hour's)."""
    for body in ({}, {"text": None}, {"text": 1}) * limits.MAX_IMPORTS_PER_USER:
        refused = alice.http.post("/api/import", json=body)
        assert refused.status_code == 400, refused.text
        assert "must be the text of a .hgn record" in refused.json()["error"]
    record = '[Game "Abande"]\n[Result "*"]\n\n1. d4 e4 *\n'
    assert alice.http.post("/api/import", json={"text": record}).status_code == 201
