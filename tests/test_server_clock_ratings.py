"""Game clocks with a controllable clock (no test sleeps): Fischer increments, a flag
that falls while nobody is connected, a move that comes too late, correspondence days
and banks, a restart that loses no time; and Glicko-2 against Glickman's worked
example."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("argon2")

from server_helpers import Client, FakeClock, LiveServer

from hexgames.engine.base import Limit
from hexgames.web.clock import GameClock, TimeControl, TimeControlError, clk_text
from hexgames.web.ratings import Glicko, rate_game, update

DAY = 86400.0


# --- Glicko-2 ---------------------------------------------------------------------------


def test_glicko2_reproduces_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system", section "Example calculation": a player of
    # 1500 (RD 200, volatility 0.06) beats 1400 (RD 30), loses to 1550 (RD 100) and to
    # 1700 (RD 300), tau 0.5: 1464.06, RD 151.52, volatility 0.05999
    new = update(Glicko(1500, 200, 0.06), [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0),
                                           (Glicko(1700, 300), 0)])
    assert round(new.rating, 2) == 1464.05  # the paper rounds mu' = -0.2069 first: 1464.06
    assert round(new.rd, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)  # 0.059996


def test_glicko2_one_game_and_a_period_without_games() -> None:
    first, second = rate_game(Glicko(), Glicko(), 1)
    assert round(first.rating) == 1662 and round(second.rating) == 1338
    assert round(first.rd) == round(second.rd) == 290
    drawn = rate_game(Glicko(1600, 80), Glicko(1600, 80), 0.5)
    assert round(drawn[0].rating, 6) == round(drawn[1].rating, 6) == 1600
    idle = update(Glicko(1700, 50, 0.06), [])
    # step 6 alone: sqrt(50^2 + (0.06 * 173.7178)^2)
    assert idle.rating == 1700 and round(idle.rd, 2) == 51.07
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        update(Glicko(), [(Glicko(), 2)])


# --- the clock on its own -----------------------------------------------------------------


def test_time_controls_parse_and_write_their_tags() -> None:
    live = TimeControl.from_json({"kind": "live", "base": 300, "increment": 2})
    assert live is not None
    assert (live.tag(), live.describe(), live.to_json()) == \
        ("300+2", "5+2", {"kind": "live", "base": 300, "increment": 2})
    corr = TimeControl.from_json({"kind": "correspondence", "days": 3, "bank": 10})
    assert corr is not None
    assert (corr.base, corr.increment, corr.cap) == (3 * DAY, 3 * DAY, 10 * DAY)
    assert (corr.tag(), corr.describe()) == ("1/259200", "3 days a move (bank 10 days)")
    assert TimeControl.from_json(None) is None
    for bad, words in [({"kind": "blitz"}, "live or correspondence"),
                       ({"kind": "live", "base": -1}, "base must be from 1"),
                       ({"kind": "live", "base": 60, "increment": "2"}, "number"),
                       ({"kind": "live", "base": float("nan")}, "number"),
                       ({"kind": "correspondence", "days": 1.5}, "whole number"),
                       ({"kind": "correspondence", "days": 3, "bank": 1}, "bank"),
                       ([300, 2], "object"),
                       # a 309-digit number in the message; an OverflowError
                       ({"kind": "live", "base": 1e308}, r"36000, not 1e\+308$"),
                       ({"kind": "live", "base": 10 ** 400},
                        "36000, not a number this large$")]:
        with pytest.raises(TimeControlError, match=words):
            TimeControl.from_json(bad)
    assert [clk_text(s) for s in (272.9, 0, 3 * 3600 + 61, 2 * DAY)] == \
        ["[%clk 0:04:32]", "[%clk 0:00:00]", "[%clk 3:01:01]", "[%clk 48:00:00]"]


def test_fischer_increments_flags_and_take_backs() -> None:
    control = TimeControl("live", 60, 5, None)
    clock = GameClock.start(control, 0, 1000.0)
    assert clock.left(0, 1010) == 50 and clock.left(1, 1010) == 60
    assert clock.moved(0, 1010) == 55  # 60 - 10 + 5
    assert (clock.running, clock.deadline()) == (1, 1010 + 60)
    assert clock.moved(1, 1040) == 35  # 60 - 30 + 5
    assert clock.readings == [55, 35]
    assert clock.fallen(1040 + 54.9) is None
    assert clock.fallen(1040 + 55) == 0
    with pytest.raises(ValueError, match="fallen"):
        clock.moved(0, 1040 + 56)
    with pytest.raises(ValueError, match="not running"):
        clock.moved(1, 1041)
    clock.take_back(1, 0, 1, 2000.0)  # bob's move taken back: bob to move, 60 again
    assert (clock.remaining, clock.running, clock.since) == ([55, 60], 1, 2000.0)
    clock.stop(2010.0)
    assert (clock.remaining, clock.running, clock.deadline()) == ([55, 50], None, None)
    again = GameClock.from_json(clock.to_json())
    assert again == clock


def test_correspondence_days_and_bank() -> None:
    plain = TimeControl.from_json({"kind": "correspondence", "days": 2})
    banked = TimeControl.from_json({"kind": "correspondence", "days": 2, "bank": 5})
    assert plain is not None and banked is not None
    clock = GameClock.start(plain, 0, 0.0)
    assert clock.moved(0, 0.5 * DAY) == 2 * DAY  # no bank: every move has two days
    bank = GameClock.start(banked, 0, 0.0)
    assert bank.moved(0, 0.5 * DAY) == 3.5 * DAY  # 2 - 0.5 + 2
    assert bank.moved(1, 1.5 * DAY) == 3 * DAY  # 2 - 1 + 2
    assert bank.moved(0, 1.5 * DAY + 0.25 * DAY) == 5 * DAY  # 3.5 - 0.25 + 2, cut to 5
    # bob's clock runs: his 3 days, whatever alice has banked
    assert bank.fallen(1.75 * DAY + 3 * DAY - 1) is None
    assert bank.fallen(1.75 * DAY + 3 * DAY) == 1


# --- the server keeps the time ------------------------------------------------------------


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def server(tmp_path: Path, clock: FakeClock) -> Iterator[LiveServer]:
    srv = LiveServer(tmp_path / "games.db", now=clock)
    yield srv
    srv.stop()


def _pair(server: LiveServer) -> tuple[Client, Client]:
    alice, bob = Client(server), Client(server)
    assert alice.signup("alice").status_code == 201
    assert bob.signup("bob").status_code == 201
    return alice, bob


def _game(alice: Client, bob: Client, control: dict[str, object],
          rated: bool = False) -> str:
    made = alice.http.post("/api/challenges", json={
        "game": "andantino", "color": "first", "time_control": control, "rated": rated})
    assert made.status_code == 201, made.text
    accepted = bob.http.post(f"/api/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.text
    return str(accepted.json()["id"])


def test_a_flag_falls_while_nobody_is_connected(server: LiveServer, clock: FakeClock) -> None:
    alice, bob = _pair(server)
    game_id = _game(alice, bob, {"kind": "live", "base": 60, "increment": 1}, rated=True)
    socket = alice.socket(game_id)
    state = socket.receive()
    assert state["clock"]["remaining"] == [60, 60] and state["clock"]["running"] == 0
    clock.advance(20)
    socket.send({"type": "move", "move": "0,1", "ply": 0})
    state = socket.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    assert state["clock"]["remaining"] == [41, 60] and state["clock"]["running"] == 1
    socket.close()
    # bob never comes: his flag falls at 60 s, found by the sweep with nobody watching
    clock.advance(59.9)
    assert server.manager.sweep() == []
    clock.advance(0.2)
    assert server.manager.sweep() == [game_id]
    summary = bob.http.get(f"/api/games/{game_id}").json()
    assert (summary["result"], summary["termination"]) == ("1-0", "time-forfeit")
    later = bob.socket(game_id).receive()
    assert later["clock"]["remaining"] == [41, 0] and later["clock"]["running"] is None
    assert later["winner"] == 0
    # rated: alice won on time
    ratings = bob.http.get("/api/ratings?game=andantino").json()["ratings"]
    assert [r["name"] for r in ratings] == ["alice", "bob"]
    record = bob.http.get(f"/api/games/{game_id}/record").text
    assert '[Termination "time-forfeit"]' in record and '[TimeControl "60+1"]' in record
    assert "1. 0,1 {[%clk 0:00:41]} 1-0" in record


def test_a_move_after_the_flag_fell_is_refused(server: LiveServer, clock: FakeClock) -> None:
    alice, bob = _pair(server)
    game_id = _game(alice, bob, {"kind": "live", "base": 30, "increment": 0})
    socket = alice.socket(game_id)
    socket.receive()
    socket.send({"type": "move", "move": "0,1", "ply": 0})
    socket.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    b = bob.socket(game_id)
    b.receive()
    clock.advance(31)  # before any sweep: the move itself finds the flag down
    b.send({"type": "move", "move": "1,1", "ply": 1})
    # Both come, in either order: the state of the end is sent before the refusal, but
    # a newer state (bob's engine help back, as the game ended) supersedes it while it
    # waits and goes after the refusal (hexgames.web.searches.Subscriber).
    over, error = None, None
    while over is None or error is None:
        message = b.receive(10)
        if message["type"] == "state" and message["over"]:
            over = message
        elif message["type"] == "error":
            error = message
    assert (over["result"], over["termination"], over["moves"]) == ("1-0", "time-forfeit",
                                                                    ["0,1"])
    assert "game is over" in error["message"]
    socket.close()
    b.close()


def test_a_game_without_a_move_is_aborted_not_lost_on_time(server: LiveServer,
                                                         clock: FakeClock) -> None:
    alice, bob = _pair(server)
    game_id = _game(alice, bob, {"kind": "live", "base": 30, "increment": 0}, rated=True)
    socket = bob.socket(game_id)
    socket.receive()
    clock.advance(31)
    assert server.manager.sweep() == [game_id]
    aborted = socket.until(lambda m: m["type"] == "aborted")
    assert aborted["by"] is None and "not made in time" in aborted["message"]
    assert socket.close_code() == 4404
    # gone: no result, no rating, no running game of either
    assert alice.http.get(f"/api/games/{game_id}").status_code == 404
    assert bob.http.get("/api/ratings?game=andantino").json()["ratings"] == []
    assert bob.http.get("/api/users/alice").json()["results"] == {"won": 0, "lost": 0,
                                                                   "drawn": 0}
    assert server.manager.deadlines() == {}


def test_correspondence_games_count_days(server: LiveServer, clock: FakeClock) -> None:
    alice, bob = _pair(server)
    game_id = _game(alice, bob, {"kind": "correspondence", "days": 3})
    a = alice.socket(game_id)
    a.receive()
    clock.advance(2 * DAY)
    a.send({"type": "move", "move": "0,1", "ply": 0})
    state = a.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    assert state["clock"]["remaining"] == [3 * DAY, 3 * DAY]
    assert state["clock"]["text"] == "3 days a move"
    clock.advance(3 * DAY - 1)
    assert server.manager.sweep() == []
    assert [g["id"] for g in bob.http.get("/api/turn").json()["games"]] == [game_id]
    waiting = bob.http.get("/api/turn").json()["games"][0]
    assert waiting["clock"]["remaining"] == [3 * DAY, 1]
    clock.advance(2)
    assert server.manager.sweep() == [game_id]
    assert bob.http.get(f"/api/games/{game_id}").json()["termination"] == "time-forfeit"
    a.close()


def test_a_restart_loses_no_time_and_flags_what_fell_meanwhile(tmp_path: Path) -> None:
    clock = FakeClock()
    db = tmp_path / "games.db"
    first = LiveServer(db, now=clock)
    alice, bob = _pair(first)
    running = _game(alice, bob, {"kind": "live", "base": 100, "increment": 0})
    falls = _game(alice, bob, {"kind": "live", "base": 100, "increment": 0})
    socket = alice.socket(running)
    socket.receive()
    clock.advance(10)
    socket.send({"type": "move", "move": "0,1", "ply": 0})
    socket.until(lambda m: m["type"] == "state" and m["ply"] == 1)
    socket.close()
    first.stop()
    # the server is down for 95 s: time passes (docs/server.md); the game whose first
    # player never moved was aborted at 100 s, the other's bob has 5 s left
    clock.advance(95)
    second = LiveServer(db, now=clock)
    try:
        for client in (alice, bob):
            client.server = second
            client.http.base_url = second.base  # type: ignore[assignment]
            client.http.headers["origin"] = second.base
        assert bob.http.get(f"/api/games/{running}").json()["result"] == "*"
        b = bob.socket(running)
        state = b.receive()
        assert state["clock"]["remaining"] == [90, 5] and state["clock"]["running"] == 1
        assert state["moves"] == ["0,1"]
        clock.advance(90)  # before the move that was never acknowledged
        # no first move in time: aborted (and deleted), not lost on time
        assert bob.http.get(f"/api/games/{falls}").status_code == 404
        b.close()
    finally:
        second.stop()


def test_an_ai_plays_with_its_clock(server: LiveServer, clock: FakeClock) -> None:
    alice = Client(server)
    assert alice.signup("alice").status_code == 201
    made = alice.http.post("/api/games", json={
        "game": "abande", "players": ["human", "medium"],
        "time_control": {"kind": "live", "base": 120, "increment": 3}})
    assert made.status_code == 201, made.text
    session = server.manager.session(made.json()["id"])
    clock.advance(40)
    with session.lock:
        session.clock.moved(0, clock())  # as if the person had moved
        limit = session.ai.limit(1)
    # the level's preset depth, and its clock: 120 s left (it has not moved), +3 s
    assert limit == Limit(depth=2, clock=120.0, increment=3.0)
    assert limit.move_time() == pytest.approx(120 / 30 + 0.75 * 3)

    # Increments can fill a clock past the longest search a Limit takes (a day): its
    # search gets a day's clock, not an InvalidLimitError.
    with session.lock:
        session.clock.remaining[1] = 90_000.0
        limit = session.ai.limit(1)
    assert limit == Limit(depth=2, clock=86_400.0, increment=3.0)


def test_kill_9_mid_game_loses_no_acknowledged_move_or_clock_reading(tmp_path: Path) -> None:
    """A real ``hexgames serve --server`` process, killed with SIGKILL right after
    acknowledging moves: the database holds every acknowledged move with its clock."""
    import httpx
    from web_helpers import ServerProcess

    from hexgames.web.store import GameStore

    db = tmp_path / "games.db"
    server = ServerProcess(db, ["--server"])
    server.start()
    try:
        base = server.base
        people = [httpx.Client(base_url=base, headers={"origin": base}, timeout=20)
                  for _ in range(2)]
        for client, name in zip(people, ("alice", "bob"), strict=True):
            answer = client.post("/api/auth/signup", json={"name": name,
                                                           "password": "long enough pw"})
            assert answer.status_code == 201, answer.text
        made = people[0].post("/api/challenges", json={
            "game": "abande", "color": "first",
            "time_control": {"kind": "live", "base": 600, "increment": 2}}).json()
        game_id = people[1].post(f"/api/challenges/{made['id']}/accept").json()["id"]
        from websockets.sync.client import connect

        sockets = []
        for client in people:
            cookie = client.cookies.get("hexgames_session")
            ws = connect(f"{server.ws_base}/ws/games/{game_id}",
                         additional_headers={"Origin": base,
                                             "Cookie": f"hexgames_session={cookie}"})
            sockets.append(ws.__enter__())
        import json

        acknowledged: list[tuple[list[str], list[float]]] = []
        state = json.loads(sockets[0].recv(timeout=10))
        json.loads(sockets[1].recv(timeout=10))
        for _ in range(10):
            mover = state["turn"]
            sockets[mover].send(json.dumps({"type": "move", "move": state["legal"][0],
                                            "ply": state["ply"]}))
            while True:
                message = json.loads(sockets[mover].recv(timeout=10))
                if message["type"] == "state" and message["ply"] == state["ply"] + 1:
                    break
            json.loads(sockets[1 - mover].recv(timeout=10))
            state = message
            acknowledged.append((state["moves"], state["clock"]["readings"]))
        assert server.kill() == -9
    finally:
        server.stop()
    store = GameStore(db)
    try:
        stored = store.get(game_id)
        assert stored is not None and stored.clock is not None
        moves, readings = acknowledged[-1]
        assert stored.moves == moves and len(moves) == 10
        assert stored.clock["readings"] == readings
        # 600 s and 2 s after each own move, less the moments the moves took
        for ply, reading in enumerate(readings):
            assert 590 < reading <= 600 + 2 * (ply // 2 + 1), (ply, reading)
        assert stored.clock["running"] == 0 and stored.clock["since"] is not None
    finally:
        store.close()
