"""The server mode against docs/web-protocol.md ("Server mode"), with real clients on a
real uvicorn server: two logged-in people (alice and bob), a third account that
watches (carol) and an anonymous client, for every route and message, every refusal
included (each one is also in the policy's log)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("argon2")

from server_helpers import PASSWORD, Client, FakeClock, LiveServer, Socket, challenge_game

from hexgames import limits
from hexgames.record import read_game
from hexgames.web.accounts import COOKIE


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(tmp_path: Path, clock: FakeClock) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db", now=clock, ai_ratings={"easy": 1100.0})
    yield srv
    srv.stop()


@pytest.fixture
def people(server: LiveServer) -> Iterator[tuple[Client, Client, Client, Client]]:
    alice, bob, carol, anon = Client(server), Client(server), Client(server), Client(server)
    for client, name in ((alice, "alice"), (bob, "bob"), (carol, "carol")):
        assert client.signup(name).status_code == 201
    yield alice, bob, carol, anon
    for client in (alice, bob, carol, anon):
        client.close()


def play(socket: Socket, moves: list[str], start: int = 0) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for ply, move in enumerate(moves, start):
        socket.send({"type": "move", "move": move, "ply": ply})
        state = socket.until(lambda m, p=ply: m["type"] == "state" and m["ply"] == p + 1)
    return state


# --- accounts -------------------------------------------------------------------------


def test_signup_login_logout_and_the_cookie(server: LiveServer) -> None:
    alice = Client(server)
    me = alice.http.get("/api/me").json()
    assert me == {"mode": "server", "user": None, "csrf": None, "signup": "open",
                  "watch": "accounts"}
    response = alice.signup("alice")
    assert response.json()["user"] == {"name": "alice", "admin": False}
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http on loopback
    assert alice.http.get("/api/me").json()["user"]["name"] == "alice"
    # the name is taken in any letter case; bad names and passwords say why
    other = Client(server)
    assert "taken" in other.signup("ALICE").json()["error"]
    assert "at least 8" in other.signup("bob", "short").json()["error"]
    assert "letter, then" in other.signup("b o b").json()["error"]
    assert "at most 32" in other.signup("b" * 40).json()["error"]
    # log out: the old cookie stops working even if kept
    old = alice.cookie()
    assert alice.http.post("/api/auth/logout").status_code == 200
    kept = Client(server)
    kept.http.cookies.set(COOKIE, old or "")
    assert kept.http.get("/api/me").json()["user"] is None
    assert kept.http.get("/api/challenges").status_code == 401
    # log in again; a forged cookie is nobody
    assert alice.login("alice").status_code == 200
    forged = Client(server)
    forged.http.cookies.set(COOKIE, "x" * 40)
    assert forged.http.get("/api/me").json()["user"] is None
    # the server's secret is in the data directory, readable by its owner only
    secret = Path(server.app.state.store.path).parent / "secret.key"
    assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_bytes()) == 32


def test_unknown_account_and_wrong_password_get_the_same_answer(
        people: tuple[Client, ...], server: LiveServer) -> None:
    stranger = Client(server)
    unknown = stranger.login("nobody")
    wrong = stranger.login("alice", "not the password")
    assert unknown.status_code == wrong.status_code == 401
    assert unknown.json() == wrong.json() == {"error": "wrong name or password"}


def test_login_attempts_are_rate_limited_per_account(tmp_path: Path) -> None:
    login_clock = FakeClock(1000.0)
    server = LiveServer(tmp_path / "games.db", login_clock=login_clock)
    try:
        assert Client(server).signup("alice").status_code == 201
        guesser = Client(server)
        for _ in range(limits.MAX_LOGIN_FAILURES):
            assert guesser.login("alice", "guess-guess").status_code == 401
        # now even the right password is refused, from anywhere, until the window passes
        limited = Client(server).login("alice")
        assert limited.status_code == 429
        assert "too many failed logins" in limited.json()["error"]
        login_clock.advance(limits.LOGIN_WINDOW + 1)
        assert Client(server).login("alice").status_code == 200
    finally:
        server.stop()


def test_login_attempts_are_rate_limited_per_address_and_proxies_only_when_trusted(
        tmp_path: Path) -> None:
    for trusted in (False, True):
        server = LiveServer(tmp_path / f"games{trusted}.db", proxy_headers=trusted,
                            login_clock=FakeClock())
        try:
            guesser = Client(server)
            for n in range(limits.MAX_LOGIN_FAILURES_PER_ADDRESS):
                # many accounts, each a few times: only the address limit is reached;
                # each guess claims another forwarded address
                guesser.http.headers["x-forwarded-for"] = f"203.0.113.{n}"
                assert guesser.login(f"user{n}", "guess-guess").status_code == 401
            guesser.http.headers["x-forwarded-for"] = "203.0.113.250"
            answer = guesser.login("someone", "guess-guess").status_code
            # untrusted: every guess came from 127.0.0.1, limited; trusted: each from
            # its own forwarded address, not limited
            assert answer == (401 if trusted else 429), trusted
        finally:
            server.stop()


def test_password_change_ends_every_other_login(people: tuple[Client, ...],
                                                server: LiveServer) -> None:
    alice = people[0]
    laptop = Client(server)
    assert laptop.login("alice").status_code == 200
    wrong = alice.http.post("/api/auth/password", json={"old": "nope-nope", "new": "x" * 9})
    assert wrong.status_code == 403
    changed = alice.http.post("/api/auth/password", json={"old": PASSWORD,
                                                          "new": "a new password"})
    assert changed.status_code == 200
    assert alice.http.get("/api/me").json()["user"]["name"] == "alice"  # a new cookie
    assert laptop.http.get("/api/me").json()["user"] is None
    assert Client(server).login("alice", "a new password").status_code == 200
    assert Client(server).login("alice").status_code == 401


def test_signup_by_invitation_only(tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "games.db", signup="invite")
    try:
        stranger = Client(server)
        refused = stranger.signup("eve")
        assert refused.status_code == 403 and "invitation" in refused.json()["error"]
        store = server.app.state.store
        from hexgames.web.accounts import hash_password

        store.add_user("alice", hash_password(PASSWORD))
        alice = Client(server)
        assert alice.login("alice").status_code == 200
        made = alice.http.post("/api/challenges", json={"game": "abande", "invite": True})
        token = made.json()["invite"]
        assert token and len(token) >= 16
        # the friend sees the invitation before having an account, signs up with it
        friend = Client(server)
        shown = friend.http.get(f"/api/invites/{token}").json()
        assert (shown["creator"], shown["game"]) == ("alice", "abande")
        assert "invite" not in shown
        # an invitation is not in the lobby, and not taken by its id without the link
        bob = Client(server)
        store.add_user("bob", hash_password(PASSWORD))
        assert bob.login("bob").status_code == 200
        assert bob.http.get("/api/challenges").json()["challenges"] == []
        by_id = bob.http.post(f"/api/challenges/{made.json()['id']}/accept")
        assert by_id.status_code == 403
        assert friend.signup("friend", invite=token).status_code == 201
        # signing up used the link: the invitation is the friend's now, in its lobby,
        # and nobody else signs up with it
        mine = friend.http.get("/api/challenges").json()["challenges"]
        assert [(c["id"], c["opponent"]) for c in mine] == [(made.json()["id"], "friend")]
        again = Client(server).signup("mallory", invite=token)
        assert again.status_code == 403 and "used" in again.json()["error"]
        assert bob.http.post(f"/api/invites/{token}/accept").status_code == 403
        game = friend.http.post(f"/api/invites/{token}/accept")
        assert game.status_code == 201
        assert sorted(game.json()["accounts"]) == ["alice", "friend"]
        assert friend.http.get(f"/api/invites/{token}").status_code == 404
        assert stranger.signup("eve", invite=token).status_code == 403  # used up
    finally:
        server.stop()


# --- who may do what ----------------------------------------------------------------


def test_nobody_may_do_anything_but_log_in(people: tuple[Client, ...],
                                           server: LiveServer) -> None:
    alice, bob, _, anon = people
    game_id = challenge_game(alice, bob)
    for method, path in [("GET", "/api/games"), ("POST", "/api/games"),
                         ("GET", f"/api/games/{game_id}"),
                         ("DELETE", f"/api/games/{game_id}"),
                         ("GET", f"/api/games/{game_id}/record"),
                         ("GET", f"/api/games/{game_id}/svg"),
                         ("POST", "/api/import"), ("GET", "/api/challenges"),
                         ("POST", "/api/challenges"), ("GET", "/api/turn"),
                         ("GET", "/api/ratings"), ("GET", "/api/users/alice")]:
        response = anon.http.request(method, path, json={"game": "abande"} if method ==
                                     "POST" else None)
        assert response.status_code == 401, (method, path, response.text)
        assert response.json()["error"].startswith("log in first")
    # the page, its files, the meta data and the login routes are open
    assert anon.http.get("/api/meta").json()["mode"] == "server"
    assert anon.http.get("/api/me").status_code == 200
    # a socket without a session: an error, then closed (4401)
    socket = anon.socket(game_id)
    assert "log in first" in socket.receive()["message"]
    assert socket.close_code() == 4401


def test_a_socket_and_a_request_need_this_servers_origin(people: tuple[Client, ...],
                                                         server: LiveServer) -> None:
    alice, bob, _, _ = people
    game_id = challenge_game(alice, bob)
    for origin in (None, "https://evil.example"):
        socket = alice.socket(game_id, origin=origin)
        assert "may not use this server" in socket.receive()["message"]
        assert socket.close_code() == 4403
    # a state-changing request without Origin needs the CSRF token of the session
    bare = Client(server, origin=None)
    assert bare.login("alice").status_code == 403  # no Origin, no session: refused
    bare.http.cookies.set(COOKIE, alice.cookie() or "")
    refused = bare.http.post("/api/challenges", json={"game": "abande"})
    assert refused.status_code == 403 and "X-Hexgames-CSRF" in refused.json()["error"]
    token = bare.http.get("/api/me").json()["csrf"]
    made = bare.http.post("/api/challenges", json={"game": "abande"},
                          headers={"x-hexgames-csrf": token})
    assert made.status_code == 201
    forged = bare.http.post("/api/challenges", json={"game": "abande"},
                            headers={"x-hexgames-csrf": "0" * 43})
    assert forged.status_code == 403
    evil = Client(server, origin="https://evil.example")
    evil.http.cookies.set(COOKIE, alice.cookie() or "")
    assert evil.http.post("/api/challenges", json={"game": "abande"}).status_code == 403


def test_every_game_action_is_refused_to_who_may_not(
        people: tuple[Client, ...], server: LiveServer,
        caplog: pytest.LogCaptureFixture) -> None:
    alice, bob, carol, _ = people
    game_id = challenge_game(alice, bob, rated=True,
                             time_control={"kind": "correspondence", "days": 3})
    a, b, c = alice.socket(game_id), bob.socket(game_id), carol.socket(game_id)
    state = a.receive()
    assert (state["accounts"], state["you"], state["rated"]) == (["alice", "bob"], [0], True)
    assert b.receive()["you"] == [1]
    assert c.receive()["you"] == []  # carol watches
    caplog.set_level(logging.WARNING, logger="hexgames.web.policy")
    # bob, out of turn; carol, not in the game
    assert "not your turn" in b.error({"type": "move", "move": "0,1", "ply": 0})
    assert "not playing" in c.error({"type": "move", "move": "0,1", "ply": 0})
    play(a, ["0,1"])
    # alice now out of turn
    assert "not your turn" in a.error({"type": "move", "move": "1,1", "ply": 1})
    # resign: not for the other side, not by a watcher
    assert "not yours" in a.error({"type": "resign", "side": 1})
    assert "not playing" in c.error({"type": "resign", "side": 0})
    # draws and take-backs: watchers may not; nobody answers their own offer
    assert "not playing" in c.error({"type": "draw", "action": "offer"})
    assert "not playing" in c.error({"type": "takeback", "action": "offer", "ply": 1})
    assert "no draw offer" in b.error({"type": "draw", "action": "accept"})
    a.send({"type": "draw", "action": "offer"})
    offer = b.until(lambda m: m["type"] == "offer")
    assert (offer["kind"], offer["side"]) == ("draw", 0)
    assert "your own" in a.error({"type": "draw", "action": "accept"})
    assert "not playing" in c.error({"type": "draw", "action": "accept"})
    b.send({"type": "draw", "action": "decline"})
    assert a.until(lambda m: m["type"] == "offer_declined")["kind"] == "draw"
    assert a.state()["offer"] is None
    # where a piece may go is answered to whoever may watch (no tile moves here)
    c.send({"type": "targets", "from": "0,0", "line": ["0,1"]})
    answer = c.until(lambda m: m["type"] == "targets")
    assert (answer["from"], answer["targets"]) == ("0,0", [])
    assert answer["position"].startswith("andantino w=0,0;0,1 r=1,0 turn=r")
    # engine help in a rated game: nobody, not even the players (who get none anywhere
    # while they play it)
    for socket, why in ((a, "while you play a rated game"), (b, "while you play a rated"),
                        (c, "no engine help in a rated game")):
        assert why in socket.error({"type": "hint"})
        assert "no engine help" in socket.error({"type": "analyse", "on": True})
    assert "no AI is thinking" in a.error({"type": "stop"})
    # every refusal was logged with the account and the game
    refusals = [r.getMessage() for r in caplog.records if r.name == "hexgames.web.policy"]
    assert any(re.search(rf"bob may not move in game {game_id}: it is not your turn", r)
               for r in refusals), refusals
    assert any("carol may not resign" in r for r in refusals)
    assert len(refusals) >= 12
    # over HTTP: bob and carol may watch and read, nobody but an admin deletes
    assert carol.http.get(f"/api/games/{game_id}").json()["accounts"] == ["alice", "bob"]
    assert carol.http.get(f"/api/games/{game_id}/record").status_code == 200
    for client in (alice, bob, carol):
        answer = client.http.delete(f"/api/games/{game_id}")
        assert answer.status_code == 403 and "administrator" in answer.json()["error"]
    # the game is as it was
    assert a.state()["moves"] == ["0,1"]
    for socket in (a, b, c):
        socket.close()


def test_take_back_needs_the_opponents_consent(people: tuple[Client, ...]) -> None:
    alice, bob, carol, _ = people
    game_id = challenge_game(alice, bob)
    a, b, c = alice.socket(game_id), bob.socket(game_id), carol.socket(game_id)
    for socket in (a, b, c):
        socket.receive()
    assert "no move of a person" in a.error({"type": "takeback", "action": "offer",
                                            "ply": 0})
    play(a, ["0,1"])
    # bob has made no move to take back
    assert "no move to take back" in b.error({"type": "takeback", "action": "offer",
                                              "ply": 1})
    # alice asks; bob refuses: nothing is taken back
    a.send({"type": "takeback", "action": "offer", "ply": 1})
    assert b.until(lambda m: m["type"] == "offer")["kind"] == "takeback"
    assert c.until(lambda m: m["type"] == "state" and m["offer"])["offer"]["kind"] == \
        "takeback"
    assert "your own" in a.error({"type": "takeback", "action": "accept"})
    b.send({"type": "takeback", "action": "decline"})
    a.until(lambda m: m["type"] == "offer_declined")
    assert a.state()["moves"] == ["0,1"]
    # a stale request changes nothing
    assert "out of date" in a.error({"type": "takeback", "action": "offer", "ply": 0})
    # asked again, and accepted: alice is to move again; the watcher sees it live
    play(b, ["1,1"], 1)
    a.send({"type": "takeback", "action": "offer", "ply": 2})
    b.until(lambda m: m["type"] == "offer")
    b.send({"type": "takeback", "action": "accept"})
    state = c.until(lambda m: m["type"] == "state" and m["ply"] == 0)
    assert (state["moves"], state["turn"], state["offer"]) == ([], 0, None)
    # undo (the local mode's message) asks for a take-back too between two people
    play(a, ["0,1"])
    a.send({"type": "undo", "ply": 1})
    assert b.until(lambda m: m["type"] == "offer")["kind"] == "takeback"
    for socket in (a, b, c):
        socket.close()


def test_draw_by_agreement_and_resignation_end_the_game(people: tuple[Client, ...]) -> None:
    alice, bob, _, _ = people
    game_id = challenge_game(alice, bob)
    a, b = alice.socket(game_id), bob.socket(game_id)
    a.receive(), b.receive()
    a.send({"type": "draw", "action": "offer"})
    b.until(lambda m: m["type"] == "offer")
    b.send({"type": "draw", "action": "accept"})
    state = a.until(lambda m: m["type"] == "state" and m["over"])
    assert (state["result"], state["termination"]) == ("1/2-1/2", "agreement")
    assert "game is over" in b.error({"type": "resign", "side": 1})
    record = alice.http.get(f"/api/games/{game_id}/record").text
    # records have no agreed draws (docs/notation.md): the record says so in a tag of its own
    assert '[Draw "agreement"]' in record and '[Result "*"]' in record
    read_game(record)
    second = challenge_game(alice, bob)
    b2 = bob.socket(second)
    b2.receive()
    b2.send({"type": "resign", "side": 1})
    state = b2.until(lambda m: m["type"] == "state" and m["over"])
    assert (state["result"], state["termination"], state["winner"]) == \
        ("1-0", "resignation", 0)
    for socket in (a, b, b2):
        socket.close()


def test_challenges_refused_to_who_may_not_take_them(people: tuple[Client, ...]) -> None:
    alice, bob, carol, anon = people
    mine = alice.http.post("/api/challenges", json={"game": "andantino",
                                                    "opponent": "bob"}).json()
    open_one = alice.http.post("/api/challenges", json={
        "game": "abande", "color": "second", "rated": True,
        "time_control": {"kind": "live", "base": 300, "increment": 2}}).json()
    assert (open_one["time_text"], open_one["rated"]) == ("5+2", True)
    # each sees what is for them: carol not alice's challenge for bob
    assert {c["id"] for c in bob.http.get("/api/challenges").json()["challenges"]} == \
        {mine["id"], open_one["id"]}
    lobby = carol.http.get("/api/challenges").json()
    assert [c["id"] for c in lobby["challenges"]] == [open_one["id"]]
    assert [ai["level"] for ai in lobby["ai"]][:2] == ["easy", "medium"]
    assert lobby["ai"][0]["rating"] == 1100.0
    # alice may not accept her own; carol not bob's; nobody not anything
    assert alice.http.post(f"/api/challenges/{open_one['id']}/accept").status_code == 403
    assert carol.http.post(f"/api/challenges/{mine['id']}/accept").status_code == 403
    assert anon.http.post(f"/api/challenges/{open_one['id']}/accept").status_code == 401
    # only its creator cancels it
    assert bob.http.delete(f"/api/challenges/{mine['id']}").status_code == 403
    assert anon.http.delete(f"/api/challenges/{mine['id']}").status_code == 401
    assert alice.http.delete(f"/api/challenges/{mine['id']}").status_code == 200
    assert bob.http.post(f"/api/challenges/{mine['id']}/accept").status_code == 404
    # bad challenges say why
    for body, words in [({"game": "chess"}, "unknown game"),
                        ({"game": "abande", "color": "blue"}, "color"),
                        ({"game": "abande", "opponent": "nobody"}, "no account"),
                        ({"game": "abande", "opponent": "alice"}, "yourself"),
                        ({"game": "abande", "time_control": {"kind": "live", "base": 0}},
                         "base"),
                        ({"game": "abande", "time_control": {"kind": "correspondence",
                                                             "days": 3, "bank": 2}},
                         "bank"),
                        ({"game": "abande", "time_control": "5+2"}, "time_control"),
                        # taken before as an open challenge (anything but true)
                        ({"game": "abande", "invite": "yes"}, "invite must be true or false"),
                        ({"game": "abande", "rated": "yes"}, "rated must be true or false")]:
        answer = alice.http.post("/api/challenges", json=body)
        assert answer.status_code in (400, 404), body
        assert words in answer.json()["error"], (body, answer.json())
    # the second of two acceptances finds it gone: one game
    made = bob.http.post(f"/api/challenges/{open_one['id']}/accept")
    assert made.status_code == 201
    game = made.json()
    assert game["accounts"] == ["bob", "alice"]  # alice took the second colour
    assert (game["rated"], game["time_control"]) == \
        (True, {"kind": "live", "base": 300, "increment": 2})
    assert carol.http.post(f"/api/challenges/{open_one['id']}/accept").status_code == 404


def test_games_against_the_ai_and_imports_belong_to_their_account(
        people: tuple[Client, ...], server: LiveServer) -> None:
    alice, bob, carol, _ = people
    # two people in one game: through a challenge only
    refused = alice.http.post("/api/games", json={"game": "abande",
                                                  "players": ["human", "human"]})
    assert refused.status_code == 403 and "challenge" in refused.json()["error"]
    unrated = alice.http.post("/api/games", json={"game": "abande", "players":
                                                  ["human", "medium"], "rated": True})
    assert "unrated" in unrated.json()["error"]
    made = alice.http.post("/api/games", json={"game": "abande",
                                               "players": ["human", "random"]})
    assert made.status_code == 201
    game_id = made.json()["id"]
    assert made.json()["accounts"] == ["alice", None]
    a, c = alice.socket(game_id), carol.socket(game_id)
    a.receive(), c.receive()
    # a take-back against the AI is made at once in an unrated game; carol may not
    play(a, ["d4"])
    a.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    assert "not playing" in c.error({"type": "undo", "ply": 2})
    assert "only the players" in c.error({"type": "hint"})
    a.send({"type": "undo", "ply": 2})
    assert a.until(lambda m: m["type"] == "state" and m["ply"] == 0)["moves"] == []
    a.send({"type": "hint"})
    assert a.until(lambda m: m["type"] == "hint")["move"]
    # delete: alice's game (she is its one account), not bob's or carol's to delete
    assert bob.http.delete(f"/api/games/{game_id}").status_code == 403
    assert carol.http.delete(f"/api/games/{game_id}").status_code == 403
    # an import is the importer's
    text = '[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n'
    imported = bob.http.post("/api/import", json={"text": text})
    assert imported.status_code == 201
    [copy] = imported.json()["ids"]
    assert bob.http.get(f"/api/games/{copy}").json()["accounts"] == ["bob", "bob"]
    assert alice.http.delete(f"/api/games/{copy}").status_code == 403
    assert bob.http.delete(f"/api/games/{copy}").status_code == 200
    assert alice.http.delete(f"/api/games/{game_id}").status_code == 200
    a.close(), c.close()
    # "move now" is the player's: a watcher may not hurry the computer
    slow = alice.http.post("/api/games", json={
        "game": "andantino", "players": ["alphabeta:time=30", "human"]}).json()["id"]
    a, c = alice.socket(slow), carol.socket(slow)
    assert a.receive()["thinking"] is True
    c.receive()
    assert "only the player" in c.error({"type": "stop"})
    a.send({"type": "stop"})
    assert a.until(lambda m: m["type"] == "ai_move", timeout=20)["side"] == 0
    a.close(), c.close()


def test_the_first_account_made_by_the_operator_is_an_admin(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexgames import cli

    db = tmp_path / "games.db"
    runner = CliRunner()
    made = runner.invoke(cli.cli, ["user", "add", "root", "--password-stdin", "--db",
                                   str(db)], input=PASSWORD + "\n")
    assert made.exit_code == 0, made.output
    assert made.output == "account root made (administrator)\n"
    second = runner.invoke(cli.cli, ["user", "add", "bob", "--password-stdin", "--db",
                                     str(db)], input=PASSWORD + "\n")
    assert second.output == "account bob made (player)\n"
    short = runner.invoke(cli.cli, ["user", "add", "eve", "--password-stdin", "--db",
                                    str(db)], input="short\n")
    assert short.exit_code == 2 and "at least 8" in short.output
    taken = runner.invoke(cli.cli, ["user", "add", "BOB", "--password-stdin", "--db",
                                    str(db)], input=PASSWORD + "\n")
    assert taken.exit_code == 2 and "taken" in taken.output
    # At the prompt: the password twice; two that differ, or none, are refused (exit 2).
    prompted = runner.invoke(cli.cli, ["user", "add", "carol", "--db", str(db)],
                             input=f"{PASSWORD}\n{PASSWORD}\n")
    assert prompted.exit_code == 0 and "account carol made (player)" in prompted.output
    differ = runner.invoke(cli.cli, ["user", "add", "dave", "--db", str(db)],
                           input=f"{PASSWORD}\nsomething else\n")
    assert differ.exit_code == 2, differ.output
    assert "error: the two passwords entered differ" in differ.output
    silent = runner.invoke(cli.cli, ["user", "add", "dave", "--db", str(db)], input="")
    assert silent.exit_code == 2 and "--password-stdin" in silent.output
    assert runner.invoke(cli.cli, ["user", "remove", "carol", "--db", str(db)]).exit_code == 0
    listed = runner.invoke(cli.cli, ["user", "list", "--db", str(db)])
    assert [line.split("\t")[:2] for line in listed.output.splitlines()] == \
        [["bob", "player"], ["root", "administrator"]]
    server = LiveServer(db)
    try:
        root, bob = Client(server), Client(server)
        assert root.login("root").json()["user"] == {"name": "root", "admin": True}
        assert bob.login("bob").status_code == 200
        game = challenge_game(bob, root)
        # the administrator may delete a game between two people
        assert bob.http.delete(f"/api/games/{game}").status_code == 403
        assert root.http.delete(f"/api/games/{game}").status_code == 200
        reset = runner.invoke(cli.cli, ["user", "reset-password", "bob", "--password-stdin",
                                        "--db", str(db)], input="another password\n")
        assert reset.exit_code == 0, reset.output
        assert bob.http.get("/api/me").json()["user"] is None  # its logins ended
        assert bob.login("bob", "another password").status_code == 200
        removed = runner.invoke(cli.cli, ["user", "remove", "bob", "--db", str(db)])
        assert removed.output == "account bob removed\n"
        assert bob.http.get("/api/me").json()["user"] is None
        assert runner.invoke(cli.cli, ["user", "remove", "bob", "--db",
                                       str(db)]).exit_code == 2
    finally:
        server.stop()


def test_account_commands_make_no_database_unless_an_account_is_made(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from hexgames import cli

    db = tmp_path / "new.db"
    runner = CliRunner()
    listed = runner.invoke(cli.cli, ["user", "list", "--db", str(db)])
    assert listed.exit_code == 2  # a mistyped path is not an empty list
    assert "error: there is no database at /" in listed.output
    for words, stdin in ((["add", "eve", "--password-stdin"], "short\n"),
                         (["add", "eve"], f"{PASSWORD}\nsomething else\n"),
                         (["add", "eve"], ""),
                         (["remove", "eve"], ""),
                         (["reset-password", "eve", "--password-stdin"], PASSWORD + "\n"),
                         # not UTF-8: argon2 raised UnicodeEncodeError after the file was made
                         (["add", "eve", "--password-stdin"], b"\xff\xfe12345678\n"),
                         (["add", "eve"], b"\xff\xfe12345678\n\xff\xfe12345678\n")):
        failed = runner.invoke(cli.cli, ["user", *words, "--db", str(db)], input=stdin)
        assert failed.exit_code == 2, (words, failed.output)
        assert not db.exists(), words
    removed = runner.invoke(cli.cli, ["user", "remove", "eve", "--db", str(db)])
    assert "error: there is no account 'eve' (no database at /" in removed.output
    made = runner.invoke(cli.cli, ["user", "add", "eve", "--password-stdin", "--db", str(db)],
                         input=PASSWORD + "\n")
    assert made.exit_code == 0 and db.exists()
    empty = runner.invoke(cli.cli, ["user", "list", "--db", ""])
    assert empty.exit_code == 2 and "--db names no file" in empty.output


def test_a_password_that_is_no_text_is_refused_and_matches_nothing() -> None:
    from hexgames.web.accounts import AccountError, check_password, hash_password, verify_password

    with pytest.raises(AccountError, match="not valid text"):
        check_password("\udcff\udcfe12345678")  # undecodable bytes, as Python reads them
    stored = hash_password(PASSWORD)
    assert verify_password(stored, PASSWORD)
    assert not verify_password(stored, "\udcff" + PASSWORD)  # raised UnicodeEncodeError
    assert not verify_password(None, "\udcff" + PASSWORD)


# --- your turn, ratings, players, records ---------------------------------------------


def test_your_turn_ratings_player_pages_and_records(people: tuple[Client, ...],
                                                    clock: FakeClock) -> None:
    alice, bob, carol, _ = people
    game_id = challenge_game(alice, bob, rated=True,
                             time_control={"kind": "live", "base": 300, "increment": 2})
    assert [g["id"] for g in alice.http.get("/api/turn").json()["games"]] == [game_id]
    assert bob.http.get("/api/turn").json()["games"] == []
    a, b = alice.socket(game_id), bob.socket(game_id)
    a.receive(), b.receive()
    # White builds a line of five through its setup tile while Red looks on
    white = ["0,1", "0,2", "0,3", "0,-1"]
    red = ["1,1", "1,2", "1,-1"]
    for n, move in enumerate(white):
        clock.advance(10)
        play(a, [move], 2 * n)
        if n < len(red):
            assert [g["id"] for g in bob.http.get("/api/turn").json()["games"]] == [game_id]
            clock.advance(4)
            play(b, [red[n]], 2 * n + 1)
    state = b.until(lambda m: m["type"] == "state" and m["over"])
    assert (state["result"], state["termination"]) == ("1-0", "line")
    assert state["clock"]["running"] is None
    # 300 - 10 + 2 after every move of alice's, 300 - 4 + 2 of bob's
    assert state["clock"]["remaining"] == [300 - 4 * 8, 300 - 3 * 2]
    ratings = carol.http.get("/api/ratings?game=andantino").json()
    assert [(r["name"], r["games"]) for r in ratings["ratings"]] == [("alice", 1), ("bob", 1)]
    assert ratings["ratings"][0]["rating"] > 1500 > ratings["ratings"][1]["rating"]
    assert carol.http.get("/api/ratings?game=abande").json()["ratings"] == []
    page = carol.http.get("/api/users/alice").json()
    assert page["results"] == {"won": 1, "lost": 0, "drawn": 0}
    assert page["ratings"]["andantino"]["games"] == 1
    assert [g["id"] for g in page["games"]] == [game_id]
    assert carol.http.get("/api/users/nobody").status_code == 404
    # the record: names, time control, each move's clock
    text = carol.http.get(f"/api/games/{game_id}/record").text
    record = read_game(text)
    assert (record.tags["White"], record.tags["Red"]) == ("alice", "bob")
    assert record.tags["TimeControl"] == "300+2"
    assert record.comments[1] == "[%clk 0:04:52]"
    assert record.comments[2] == "[%clk 0:04:58]"
    assert record.comments[7] == "[%clk 0:04:28]"
    # the same record as the example of docs/records.md, but for its date
    doc = (Path(__file__).parent.parent / "docs" / "records.md").read_text()
    example = read_game(doc.split("```hgn\n")[1].split("```")[0])
    assert example.moves == record.moves
    assert example.comments == record.comments
    assert {k: v for k, v in example.tags.items() if k != "Date"} == \
        {k: v for k, v in record.tags.items() if k != "Date"}
    # the rating is applied once: a state request after the end changes nothing
    a.state()
    assert carol.http.get("/api/users/alice").json()["ratings"]["andantino"]["games"] == 1
    a.close(), b.close()


def test_serve_in_server_mode_from_options_and_the_documented_config(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    import uvicorn
    from click.testing import CliRunner
    from web_helpers import free_port

    from hexgames import cli
    from hexgames.cli.serve import read_config

    doc = (Path(__file__).parent.parent / "docs" / "server.md").read_text()
    example = doc.split("```toml\n")[1].split("```")[0]
    config = read_config_text(tmp_path, example)
    assert config == tomllib.loads(example)
    assert config["ai_ratings"] == {"easy": 1000, "medium": 1300}
    served: list[Any] = []  # the uvicorn.Config of each server started
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: served.append(self.config))
    port = free_port()
    db = tmp_path / "games.db"
    runner = CliRunner()
    result = runner.invoke(cli.cli, ["serve", "--server", "--port", str(port), "--db",
                                     str(db), "--ai-rating", "easy=1200"])
    assert result.exit_code == 0, result.output
    assert "in server mode" in result.output
    [run] = served
    assert run.proxy_headers is False  # X-Forwarded-* are not believed
    assert run.app.state.auth.server is True
    assert run.app.state.lobby.ai_ratings == {"easy": 1200.0}
    # a config file, and --trust-proxy
    path = tmp_path / "hexgames.toml"
    path.write_text(f'server = true\nport = {port}\ndb = "{db}"\nsignup = "closed"\n'
                    'trust_proxy = true\n[ai_ratings]\nhard = 1500\n')
    result = runner.invoke(cli.cli, ["serve", "--config", str(path)])
    assert result.exit_code == 0, result.output
    run = served[1]
    assert (run.proxy_headers, run.forwarded_allow_ips) == (True, "127.0.0.1")
    assert run.app.state.auth.signup == "closed"
    for bad, words in [("colour = 1\n", "unknown key 'colour'"), ("port = 'x'\n", "type"),
                       ("server = \n", "not TOML"),
                       # bind() raised OverflowError: a traceback
                       ("port = 70000\n", "port must be 1 to 65535, not 70000"),
                       ("port = -1\n", "port must be 1 to 65535, not -1"),
                       ("port = 99999999999999999999\n", "port must be 1 to 65535")]:
        path.write_text(bad)
        result = runner.invoke(cli.cli, ["serve", "--config", str(path)])
        assert result.exit_code == 2 and words in result.output, result.output
    result = runner.invoke(cli.cli, ["serve", "--server", "--ai-rating", "wizard=3"])
    assert result.exit_code == 2 and "no AI level" in result.output
    # NaN was taken (and made the ratings NaN), 1e6 overflowed the Glicko-2 update
    for bad in ("easy=nan", "easy=inf", "hard=1e6", "medium=-1"):
        result = runner.invoke(cli.cli, ["serve", "--server", "--ai-rating", bad])
        assert result.exit_code == 2 and "a rating is a number from 0 to 5000" \
            in result.output, result.output
    path.write_text("[ai_ratings]\neasy = nan\n")
    result = runner.invoke(cli.cli, ["serve", "--config", str(path)])
    assert result.exit_code == 2 and "a rating is a number from 0 to 5000" in result.output
    # The proxy addresses were taken unread ("not an ip" started the server).
    # (uvicorn takes such an item as a name that never matches: nobody is trusted)
    for allow, words in (("not an ip", "'not an ip' is not an IP address or network"),
                         ("10.0.0.0/8,bad", "'bad' is not an IP address"),
                         ("10.0.0.1/8", "'10.0.0.1/8' has host bits set"),
                         ("*,127.0.0.1", "* trusts every address only alone"),
                         (" *", "* trusts every address only alone")):
        result = runner.invoke(cli.cli, ["serve", "--trust-proxy", "--port", str(port),
                                         "--db", str(db), "--forwarded-allow-ips", allow])
        assert result.exit_code == 2 and words in result.output, result.output
    for allow in ("*", "10.0.0.0/8, ::1", "192.168.1.7", "127.0.0.1,", "::/0"):
        result = runner.invoke(cli.cli, ["serve", "--trust-proxy", "--port", str(port),
                                         "--db", str(db), "--forwarded-allow-ips", allow])
        assert result.exit_code == 0, result.output
        assert served[-1].forwarded_allow_ips == allow
    assert read_config  # the function the command uses


def read_config_text(folder: Path, text: str) -> dict[str, Any]:
    from hexgames.cli.serve import read_config

    path = folder / "example.toml"
    path.write_text(text)
    return read_config(str(path))


def test_a_rated_game_against_an_ai_level_with_a_fixed_rating(
        people: tuple[Client, ...]) -> None:
    alice, bob, _, _ = people
    made = alice.http.post("/api/games", json={
        "game": "abande", "rated": True, "players": ["human", "easy"],
        "time_control": {"kind": "correspondence", "days": 3}})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    assert made.json()["rated"] is True
    socket = alice.socket(game_id)
    socket.receive()
    # no take-back against the computer in a rated game
    socket.send({"type": "move", "move": "d4", "ply": 0})
    socket.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    assert "no take-backs in a rated game" in socket.error({"type": "undo", "ply": 2})
    socket.send({"type": "resign", "side": 0})
    socket.until(lambda m: m["type"] == "state" and m["over"])
    ratings = bob.http.get("/api/ratings?game=abande").json()
    # only the person is rated; the level keeps its fixed 1100
    [(name, rating)] = [(r["name"], r) for r in ratings["ratings"]]
    assert (name, rating["games"]) == ("alice", 1) and rating["rating"] < 1500
    assert ratings["ai"] == {"easy": 1100.0}
    # alice's own games, the newest first
    mine = alice.http.get("/api/games?mine=1").json()
    assert [g["id"] for g in mine["games"]] == [game_id] and mine["total"] == 1
    assert bob.http.get("/api/games?mine=1").json()["games"] == []
    socket.close()


def test_the_cookie_is_secure_behind_a_trusted_tls_proxy(tmp_path: Path) -> None:
    for trusted in (True, False):
        server = LiveServer(tmp_path / f"games{trusted}.db", proxy_headers=trusted)
        try:
            client = Client(server)
            client.http.headers["x-forwarded-proto"] = "https"
            # the page is then https: its Origin says so
            client.http.headers["origin"] = f"https://127.0.0.1:{server.port}" \
                if trusted else server.base
            response = client.signup("alice")
            assert response.status_code == 201, response.text
            assert ("Secure" in response.headers["set-cookie"]) is trusted
        finally:
            server.stop()
