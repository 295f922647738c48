"""The browser app's server bounded by design (issue 14): Host and Origin checked by
what an address is, a store that degrades per row and checks its schema, reads that no
writer blocks, pages of the games list, caps on imports and messages, the undo ply
guard, and AI searches that cannot run for ever."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

import httpx
from click.testing import CliRunner
from starlette.websockets import WebSocketDisconnect
from web_helpers import (
    ServerProcess,
    TestClient,
    free_port,
    fresh_state,
    new_game,
    receive,
    state_at,
    until,
)

from hexgames import cli, limits
from hexgames.web import create_app
from hexgames.web.hosts import (
    HostError,
    HostPolicy,
    parse_address,
    policy_for_bind,
    same_origin,
    split_host,
)
from hexgames.web.store import SCHEMA_VERSION, GameStore, StoreError


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    app = create_app(db, helper_spec="greedy", hint_time=0.5, workers="thread")
    with TestClient(app) as test_client:
        yield test_client


# --- Host and Origin by address ---------------------------------------------------------

#: Every spelling of a loopback ``--host`` the issue names, and more.
LOOPBACK_SPELLINGS = ["127.0.0.1", "127.0.0.2", "localhost", "LOCALHOST", "::1", "0:0::1",
                      "127.1"]
#: ``Host`` headers a loopback server answers, whatever the spelling it was started with.
LOCAL_HOSTS = ["127.0.0.1", "127.0.0.1:8000", "127.0.0.2:8000", "127.255.0.9", "127.1:8000",
               "0x7f.1", "localhost", "LOCALHOST:8000", "localhost.:8000", "app.localhost",
               "[::1]:8000", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]:8000",
               "[::FFFF:7f00:1]"]
#: ``Host`` headers it refuses: other sites' names (what DNS rebinding sends), other
#: addresses, malformed values.
FOREIGN_HOSTS = ["evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                 "localhost.evil.example", "localhost-evil.example", "10.0.0.1:8000",
                 "0.0.0.0", "[::2]:8000", "[::]", "::1", "", "local host", "[::1",
                 "localhost:99999", "xn--"]


@pytest.mark.parametrize("bind", LOOPBACK_SPELLINGS)
def test_a_loopback_server_answers_every_loopback_spelling_and_nothing_else(
        bind: str) -> None:
    policy = policy_for_bind(bind)
    assert policy.loopback
    for host in LOCAL_HOSTS:
        assert policy.allows(host), (bind, host)
    for host in FOREIGN_HOSTS:
        assert not policy.allows(host), (bind, host)
    assert not policy.allows(None)


def test_addresses_are_compared_by_value() -> None:
    assert parse_address("127.1") == parse_address("127.0.0.1") == parse_address("0x7f.1")
    assert parse_address("[::1]") == parse_address("0:0:0:0:0:0:0:1")
    assert parse_address("::ffff:127.0.0.1") == parse_address("127.0.0.1")
    assert parse_address("localhost") is None and parse_address("") is None
    assert split_host("LOCALHOST.:8000") == ("localhost", 8000)
    assert split_host("[::1]") == (parse_address("::1"), None)
    assert split_host("a b") is None and split_host("[::1]x") is None


def test_a_server_on_every_address_needs_its_public_hosts() -> None:
    for bind in ("0.0.0.0", "::", ""):
        with pytest.raises(HostError, match="--public-host NAME"):
            policy_for_bind(bind)
    policy = policy_for_bind("0.0.0.0", ["Games.Example.org.", "192.168.1.5", "[2001:db8::1]"])
    for host in ("games.example.org:8000", "GAMES.EXAMPLE.ORG", "192.168.1.5:8000",
                 "[2001:db8:0::1]", "localhost:8000", "127.0.0.1"):
        assert policy.allows(host), host
    for host in ("evil.example", "192.168.1.6", "sub.games.example.org"):
        assert not policy.allows(host), host
    with pytest.raises(HostError, match="is not a host name or address"):
        policy_for_bind("0.0.0.0", ["*.example.org"])
    # one other address: that address (in any spelling), and the named hosts
    one = policy_for_bind("192.168.1.5", ["games.example.org"])
    assert one.allows("192.168.1.5") and one.allows("games.example.org")
    assert not one.allows("127.0.0.1") and not one.allows("evil.example")


@pytest.mark.parametrize(("origin", "host", "same"), [
    ("http://localhost:8000", "localhost:8000", True),
    ("http://LOCALHOST:8000", "localhost:8000", True),
    ("http://[::1]:8000", "[0:0::1]:8000", True),
    ("http://127.0.0.1", "127.0.0.1:80", True),
    ("https://games.example.org", "games.example.org", True),
    ("http://127.0.0.1:8000", "localhost:8000", False),  # another origin of the browser
    ("http://localhost:8001", "localhost:8000", False),
    ("http://127.0.0.2:8000", "127.0.0.1:8000", False),
    ("null", "localhost:8000", False),
    ("file://", "localhost:8000", False),
    ("http://evil.example:8000", "evil.example:8000", True),  # equal, yet...
])
def test_origins_are_compared_with_the_host_by_value(origin: str, host: str,
                                                     same: bool) -> None:
    assert same_origin(origin, host) is same
    # ... a rebinding page's origin is no host of a loopback server
    assert same_origin(origin, host, policy_for_bind("127.0.0.1")) is (
        same and "example" not in origin)


@pytest.mark.parametrize("bind", LOOPBACK_SPELLINGS)
def test_dns_rebinding_cannot_create_import_or_delete_games(db: Path, bind: str) -> None:
    """Issue 14: with ``--host 127.0.0.2``, ``--host LOCALHOST`` or ``::1`` the Host check
    was off, and a page of another site that rebinds its name to this address could
    create and delete games (its Origin agrees with its Host). Here the app is made as
    ``serve --host <spelling>`` makes it, and the attacker's requests carry its name in
    both headers."""
    app = create_app(db, hosts=policy_for_bind(bind), workers="thread")
    evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
    own = {"host": "localhost:8000", "origin": "http://localhost:8000"}
    with TestClient(app) as client:
        game_id = client.post("/api/games", json={"game": "abande"}, headers=own).json()["id"]
        record = '[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n'
        for response in (client.post("/api/games", json={"game": "abande"}, headers=evil),
                         client.post("/api/import", json={"text": record}, headers=evil),
                         client.delete(f"/api/games/{game_id}", headers=evil),
                         client.get("/api/games", headers=evil),
                         client.get("/", headers=evil)):
            assert response.status_code == 400
            assert "does not answer to the host 'evil.example:8000'" in response.json()["error"]
        with client.websocket_connect(f"/ws/games/{game_id}", headers=evil) as ws:
            assert "does not answer to the host" in receive(ws)["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4403
        # a page of this server by another loopback spelling is another origin too
        other = {"host": "localhost:8000", "origin": "http://127.0.0.1:8000"}
        assert client.delete(f"/api/games/{game_id}", headers=other).status_code == 403
        assert [g["id"] for g in client.get("/api/games", headers=own).json()["games"]] == \
            [game_id]
        assert client.delete(f"/api/games/{game_id}", headers=own).status_code == 200


@pytest.mark.parametrize("bind", ["127.0.0.2", "LOCALHOST", "::1"])
def test_a_real_server_refuses_a_rebinding_page(tmp_path: Path, bind: str) -> None:
    """``hexgames serve --host <spelling>`` in a process, reached at its own address with
    the attacker's name in Host and Origin, as a rebound page's requests arrive."""
    sync_client = pytest.importorskip("websockets.sync.client")
    address = "127.0.0.1" if bind == "LOCALHOST" else bind
    server = ServerProcess(tmp_path / "g.db", host=bind)
    server.start()
    try:
        shown = f"[{address}]" if ":" in address else address
        url = f"http://{shown}:{server.port}"
        evil = {"host": f"evil.example:{server.port}",
                "origin": f"http://evil.example:{server.port}"}
        made = httpx.post(f"{url}/api/games", json={"game": "abande"}, headers=evil)
        assert made.status_code == 400
        assert "does not answer to the host" in made.json()["error"]
        own = httpx.post(f"{url}/api/games", json={"game": "abande"})
        assert own.status_code == 201, own.text
        game_id = own.json()["id"]
        assert httpx.delete(f"{url}/api/games/{game_id}", headers=evil).status_code == 400
        # the rebound name in the address, the server's address in the connection
        connection = socket.create_connection((address, server.port))
        with sync_client.connect(f"ws://evil.example:{server.port}/ws/games/{game_id}",
                                 sock=connection,
                                 additional_headers={"origin": evil["origin"]}) as ws:
            assert "does not answer" in json.loads(ws.recv(timeout=10))["message"]
        assert [g["id"] for g in httpx.get(f"{url}/api/games").json()["games"]] == [game_id]
    finally:
        server.stop()


def test_ctrl_c_twice_stops_a_real_server_at_once_without_tracebacks(tmp_path: Path) -> None:
    """A second Ctrl-C forces the stop (uvicorn's doing); it printed the traceback of the
    app's cancelled shutdown, and of the AI's search that the stop cut short."""
    import signal

    for attempt, ai in enumerate((False, True, True, True)):
        server = ServerProcess(tmp_path / f"g{attempt}.db")
        server.start()
        assert server.process is not None
        if ai:
            made = httpx.post(f"{server.base}/api/games",
                              json={"game": "andantino", "players": ["expert", "human"]})
            assert made.status_code == 201, made.text
            time.sleep(0.1)
        server.process.send_signal(signal.SIGINT)
        time.sleep(0.01 if ai else 0.05)
        server.process.send_signal(signal.SIGINT)
        _, err = server.process.communicate(timeout=30)
        assert server.process.returncode == 130, err.decode()
        assert err.decode() == "hexgames: the browser app has stopped\n"


def test_a_terminals_ctrl_c_as_the_ai_starts_prints_no_traceback(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole process group: the server, the fork server starting the
    AI's worker (it printed a KeyboardInterrupt while importing) and the workers; the
    thread starting a worker then met EOFError, and the search thread logged a
    traceback."""
    for attempt in range(3):
        server = ServerProcess(tmp_path / f"g{attempt}.db", own_group=True)
        server.start()
        assert server.process is not None
        made = httpx.post(f"{server.base}/api/games",
                          json={"game": "andantino", "players": ["expert", "human"]})
        assert made.status_code == 201, made.text
        server.ctrl_c()
        _, err = server.process.communicate(timeout=30)
        assert server.process.returncode == 130, err.decode()
        assert err.decode() == "hexgames: the browser app has stopped\n"


@pytest.mark.parametrize(("signum", "status"), [("SIGINT", 130), ("SIGTERM", 0),
                                               ("SIGHUP", 0)])
def test_ctrl_c_or_sigterm_stops_a_real_server_and_closes_its_store(
        tmp_path: Path, signum: str, status: int) -> None:
    """Ctrl-C on ``hexgames serve``: uvicorn shuts down, the AI workers end quietly, the
    command exits 130 like every other one stopped by Ctrl-C (uvicorn.run said 0).
    SIGTERM, a service manager's stop, the same with status 0: uvicorn raised SIGTERM
    again after its shutdown, which ended the process (status 143) before the store
    was closed, leaving the database's -wal and -shm files beside it. SIGHUP (the
    terminal closed) as SIGTERM: it ended the process at once."""
    import signal

    db = tmp_path / "g.db"
    server = ServerProcess(db)
    server.start()
    assert server.process is not None
    made = httpx.post(f"{server.base}/api/games",
                      json={"game": "andantino", "players": ["expert", "human"]})
    assert made.status_code == 201
    side_files = [db.with_name("g.db-wal"), db.with_name("g.db-shm")]
    assert all(path.exists() for path in side_files)  # open, the game is in the WAL
    time.sleep(0.2)  # the AI is searching White's first move
    server.process.send_signal(getattr(signal, signum))
    _, err = server.process.communicate(timeout=30)
    assert server.process.returncode == status, err.decode()
    assert err.decode() == "hexgames: the browser app has stopped\n"
    assert not any(path.exists() for path in side_files)  # checkpointed and removed
    with sqlite3.connect(db) as stored:
        assert stored.execute("SELECT id FROM games").fetchall() == [(made.json()["id"],)]
    stored.close()



_STOPPED_WHILE_OPENING = """
import os, signal, sys
import hexgames.web

made = hexgames.web.create_app
stop = getattr(signal, sys.argv[1])

def create_app(*args, **kwargs):
    app = made(*args, **kwargs)  # the store is open: its -wal and -shm files are made
    os.kill(os.getpid(), stop)
    return app

hexgames.web.create_app = create_app
sys.argv = ["hexgames", "serve", "--port", sys.argv[2], "--db", sys.argv[3]]
from hexgames.cli import main
main()
"""


@pytest.mark.parametrize(("signum", "status"), [("SIGINT", 130), ("SIGTERM", 0)])
def test_a_stop_while_the_server_opens_its_database_closes_it(
        tmp_path: Path, signum: str, status: int) -> None:
    """The signal handlers were set only once the store was open: SIGTERM in between
    ended the process by the signal (status 143) and Ctrl-C with 'error: aborted', the
    store left open (its -wal and -shm files beside it)."""
    db = tmp_path / "g.db"
    done = subprocess.run([sys.executable, "-c", _STOPPED_WHILE_OPENING, signum,
                           str(free_port()), str(db)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == \
        (status, "", "hexgames: the browser app has stopped\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.db"]


@pytest.mark.parametrize(("first", "then", "status"), [("SIGINT", "SIGTERM", 130),
                                                       ("SIGTERM", "SIGINT", 0)])
def test_the_first_stop_signal_gives_the_exit_status(tmp_path: Path, first: str,
                                                     then: str, status: int) -> None:
    """uvicorn raises the signals it caught again after its shutdown, the last first:
    Ctrl-C and then SIGTERM during the shutdown ended with SIGTERM's 0, SIGTERM and then
    Ctrl-C with 130."""
    import signal

    server = ServerProcess(tmp_path / "g.db")
    server.start()
    assert server.process is not None
    made = httpx.post(f"{server.base}/api/games",
                      json={"game": "andantino", "players": ["expert", "human"]})
    assert made.status_code == 201
    time.sleep(0.2)  # the AI is searching: the shutdown waits for it to stop
    server.process.send_signal(getattr(signal, first))
    time.sleep(0.05)  # Python handles signals pending together in their numbers' order
    server.process.send_signal(getattr(signal, then))
    _, err = server.process.communicate(timeout=30)
    assert (server.process.returncode, err.decode()) == \
        (status, "hexgames: the browser app has stopped\n")

def test_serve_on_every_address_needs_a_public_host(db: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: served.append(self.config))
    result = CliRunner().invoke(cli.cli, ["serve", "--host", "0.0.0.0", "--db", str(db)])
    assert result.exit_code == 2
    assert "--host 0.0.0.0 listens on every network: name the host people open the app " \
           "at with --public-host NAME" in result.output
    assert served == []
    port = free_port("0.0.0.0")
    result = CliRunner().invoke(cli.cli, ["serve", "--host", "0.0.0.0", "--port", str(port),
                                          "--public-host", "games.example.org",
                                          "--db", str(db)])
    assert result.exit_code == 0, result.output
    [options] = served
    assert result.output.startswith(f"hexgames: the browser app is at http://127.0.0.1:{port}/")
    assert options.ws_max_size == limits.MAX_MESSAGE_BYTES
    assert options.h11_max_incomplete_event_size == limits.MAX_HEADER_BYTES
    assert options.app.state.hosts == HostPolicy(True, frozenset({"games.example.org"}))
    result = CliRunner().invoke(cli.cli, ["serve", "--public-host", "no such host!",
                                          "--db", str(db)])
    assert result.exit_code == 2 and "'no such host!' is not a host name" in result.output



def test_a_host_name_that_does_not_resolve_says_why(monkeypatch: pytest.MonkeyPatch,
                                                     db: Path) -> None:
    """A lookup error has its own numbers: it said "Unknown error -2". Python 3.11's
    ``socket.create_server`` raises it as an OSError with the EAI_ code as errno and
    the address in its text; a gaierror is handled the same."""
    import socket

    errors = [socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
              OSError(socket.EAI_NONAME, "Name or service not known (while attempting to "
                                         "bind on address ('nosuchhost.invalid', 8124))")]
    for error in errors:
        def unresolved(*args: object, error: OSError = error, **kwargs: object) -> None:
            raise error

        monkeypatch.setattr(socket, "create_server", unresolved)
        result = CliRunner().invoke(cli.cli, ["serve", "--host", "nosuchhost.invalid",
                                              "--port", "8124", "--db", str(db)])
        assert result.exit_code == 2
        assert result.output == (
            "error: cannot listen on nosuchhost.invalid:8124: cannot find the address of "
            "this host name (Name or service not known)\n")

# --- the store, row by row --------------------------------------------------------------


def _raw(db: Path, sql: str, *args: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, args)


@pytest.mark.parametrize(("column", "value", "words"), [
    ("moves", "not json", "its moves column cannot be read: it is not JSON"),
    ("moves", '{"a": 1}', "its moves column cannot be read: it is not a JSON list of texts"),
    ("moves", b"\x00\x01", "its moves column cannot be read: it holds bytes, not text"),
    ("rules", "[1, 2]", "its rules column cannot be read: it is not a JSON list of texts"),
    ("players", '["human"]', "its players column cannot be read: it lists 1 values, not 2"),
    ("players", "[" * 100_000, "its players column cannot be read"),
    ("result", "2-0", "its result '2-0' is none of 1-0, 0-1, 1/2-1/2, *"),
    ("game", b"abande", "its game column holds bytes, not text"),
    ("player_names", '["Ann"]', "its player_names column cannot be read: it lists 1 "
                                "values, not 2"),
    ("record", b"[Game]", "its record column holds bytes, not text"),
    ("extra", "{not json", "its extra column cannot be read: it is not JSON"),
    ("extra", b"{}", "its extra column cannot be read: it holds bytes, not text"),
])
def test_an_unreadable_row_is_listed_with_its_error_and_hides_no_other(
        client: TestClient, db: Path, column: str, value: object, words: str) -> None:
    """Issue 14: a stored game whose moves, rules or players column was unreadable made
    GET /api/games answer 500 (the start page listed nothing), and opening it 500
    instead of 409."""
    good = new_game(client)
    bad = new_game(client, "abande")
    _raw(db, f"UPDATE games SET {column} = ? WHERE id = ?", value, bad)
    response = client.get("/api/games")
    assert response.status_code == 200
    listed = {g["id"]: g for g in response.json()["games"]}
    assert set(listed) == {good, bad}
    assert "error" not in listed[good]
    assert listed[bad]["error"].startswith(f"game {bad} cannot be read: ")
    assert words in listed[bad]["error"]
    opened = client.get(f"/api/games/{bad}")
    assert opened.status_code == 409 and words in opened.json()["error"]
    with client.websocket_connect(f"/ws/games/{bad}") as ws:
        assert words in receive(ws)["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4404
    assert client.get(f"/api/games/{bad}/record").status_code == 409
    assert client.get(f"/api/games/{good}").status_code == 200
    assert client.delete(f"/api/games/{bad}").status_code == 200
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [good]


def test_the_schema_version_is_recorded_and_an_old_database_migrated(db: Path) -> None:
    # the unversioned file of hexgames 0.1: the games table, user_version 0
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, "
                     "rules TEXT NOT NULL, position TEXT, players TEXT NOT NULL, "
                     "moves TEXT NOT NULL, result TEXT NOT NULL, termination TEXT, "
                     "created TEXT NOT NULL, updated TEXT NOT NULL)")
        conn.execute("INSERT INTO games VALUES ('0123456789ab', 'abande', '[]', NULL, "
                     "'[\"human\", \"human\"]', '[\"d4\"]', '*', NULL, 'x', 'y')")
    store = GameStore(db)
    [game] = store.games()
    assert (game.id, game.moves, game.error) == ("0123456789ab", ["d4"], None)
    store.close()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 8
        assert conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND "
                            "name = 'games_by_update'").fetchone() is not None
        # version 3: the server mode's columns and tables
        columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
        assert {"seats", "clock", "rated", "extra"} <= columns
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"users", "sessions", "challenges", "ratings"} <= tables
        # version 4: a game's study record and player names
        assert {"record", "player_names"} <= columns
        # version 5: the rated results
        assert "results" in {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    GameStore(db).close()  # a current one opens as it is


def test_a_database_of_a_newer_schema_or_another_program_is_refused(db: Path,
                                                                    tmp_path: Path) -> None:
    GameStore(db).close()
    _raw(db, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match=f"written by a newer hexgames \\(schema version "
                                         f"{SCHEMA_VERSION + 1}; this version reads up to "
                                         f"{SCHEMA_VERSION}\\)"):
        GameStore(db)
    result = CliRunner().invoke(cli.cli, ["serve", "--db", str(db)])
    assert result.exit_code == 2 and "written by a newer hexgames" in result.output
    other = tmp_path / "other.db"
    _raw(other, "CREATE TABLE games (name TEXT)")
    with pytest.raises(StoreError, match=r"is not a hexgames games database .*no column id"):
        GameStore(other)


_LOCKER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE games SET moves = '[]'")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


def test_a_write_lock_of_another_program_blocks_no_read(client: TestClient, db: Path) -> None:
    """Issue 14: a write lock held by another process blocked every read for its 5 s
    timeout. Reads now answer at once (WAL readers on a connection of their own), and a
    write fails after limits.STORE_BUSY_TIMEOUT with an error that says why."""
    game_id = new_game(client)
    other = new_game(client, "abande")
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        until(ws, state_at(1))
        locker = subprocess.Popen([sys.executable, "-c", _LOCKER, str(db), "4"],
                                  stdout=subprocess.PIPE, text=True)
        try:
            assert locker.stdout is not None and locker.stdout.readline() == "locked\n"
            start = time.monotonic()
            ws.send_json({"type": "move", "move": "1,1", "ply": 1})
            for _ in range(5):  # while the move waits for the lock
                listed = client.get("/api/games")
                assert listed.status_code == 200
                assert {g["id"]: g["moves"] for g in listed.json()["games"]} == \
                    {game_id: 1, other: 0}
                assert client.get(f"/api/games/{other}").json()["moves"] == 0
                assert client.get(f"/api/games/{other}/record").status_code == 200
            reads = time.monotonic() - start
            error = receive(ws)
            waited = time.monotonic() - start
            assert "is locked by another program (waited 1 s): nothing was saved" in \
                error["message"]
            # the game itself as stored, not the move that waited
            assert client.get(f"/api/games/{game_id}").json()["moves"] == 1
            made = client.post("/api/games", json={"game": "abande"})
            assert made.status_code == 503
            assert "locked by another program" in made.json()["error"]
        finally:
            locker.wait(20)
        assert reads < limits.STORE_BUSY_TIMEOUT * 0.9, reads
        assert waited < limits.STORE_BUSY_TIMEOUT + 2.0, waited
        assert fresh_state(ws)["ply"] == 1  # the game as it was
        ws.send_json({"type": "move", "move": "1,1", "ply": 1})
        assert until(ws, state_at(2))[0]["moves"] == ["0,1", "1,1"]
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 2


# --- pages of the list, caps on what a client sends ---------------------------------------


def test_the_games_list_comes_in_pages(client: TestClient, db: Path) -> None:
    """Issue 14: one import could make 93,000 games, and then every GET /api/games
    answered 20 MB although the page shows 50."""
    store = client.app.state.store  # type: ignore[attr-defined]
    ids = [store.create("abande", [], ["human", "human"]).id for _ in range(60)]
    for number, game_id in enumerate(ids):  # distinct update times, newest last
        _raw(db, "UPDATE games SET updated = ? WHERE id = ?", f"2026-01-01T00:{number:02}",
             game_id)
    newest = ids[::-1]
    first = client.get("/api/games").json()
    assert (first["total"], first["offset"], first["limit"]) == (60, 0, limits.GAMES_PAGE)
    assert [g["id"] for g in first["games"]] == newest[:50]
    page = client.get("/api/games?limit=7&offset=56").json()
    assert [g["id"] for g in page["games"]] == newest[56:]
    assert client.get("/api/games?offset=600").json()["games"] == []
    assert len(client.get(f"/api/games?limit={limits.MAX_GAMES_PAGE}").json()["games"]) == 60
    for query, words in [("limit=0", "limit must be from 1 to 500, not 0"),
                         (f"limit={limits.MAX_GAMES_PAGE + 1}", "limit must be from 1 to 500"),
                         ("limit=x", "limit must be a whole number, not 'x'"),
                         ("offset=-1", "offset must be a whole number, not '-1'"),
                         ("limit=١٢", "limit must be a whole number")]:
        response = client.get(f"/api/games?{query}")
        assert response.status_code == 400 and words in response.json()["error"], query


def test_an_import_is_capped_in_games_and_bytes(client: TestClient) -> None:
    one = '[Game "Abande"]\n[Result "*"]\n\n1. d4 *\n\n'
    response = client.post("/api/import", json={"text": one * (limits.MAX_IMPORT_GAMES + 1)})
    assert response.status_code == 413
    assert response.json()["error"] == (
        f"the record holds {limits.MAX_IMPORT_GAMES + 1} games: an import may store at most "
        f"{limits.MAX_IMPORT_GAMES} (hexgames.limits.MAX_IMPORT_GAMES); nothing was stored")
    assert client.get("/api/games").json()["total"] == 0
    padded = one + "{" + "x" * limits.MAX_IMPORT_BYTES + "}"
    start = time.monotonic()
    response = client.post("/api/import", json={"text": padded})
    assert response.status_code == 413
    assert "an import may hold at most 1048576" in response.json()["error"]
    assert time.monotonic() - start < 5
    body = json.dumps({"text": "x" * limits.MAX_REQUEST_BYTES})
    response = client.post("/api/import", content=body,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert "hexgames.limits.MAX_REQUEST_BYTES" in response.json()["error"]


def test_a_socket_message_over_the_cap_is_refused(client: TestClient) -> None:
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"type": "state", "pad": "x" * limits.MAX_MESSAGE_BYTES}))
        error = receive(ws)
        assert error["message"] == (f"the message is longer than {limits.MAX_MESSAGE_BYTES} "
                                    "bytes (hexgames.limits.MAX_MESSAGE_BYTES)")
        ws.send_text(json.dumps({"type": "state", "pad": "é" * (limits.MAX_MESSAGE_BYTES // 2)}))
        assert "longer than" in receive(ws)["message"]
        ws.send_json({"type": "state", "pad": "x" * 1000})
        assert receive(ws)["type"] == "state"


def test_text_that_is_not_unicode_is_refused_and_the_game_stays_savable(
        client: TestClient) -> None:
    # JSON allows a lone surrogate ("\\udcff"); UTF-8 cannot hold one. In a comment it
    # stayed in the game, whose every save then failed (its next move was lost); in a
    # name or an imported record it reached SQLite or the record writer (HTTP 500).
    lone = "x\udcff"  # json.dumps writes it as the escape \udcff
    for body in ({"game": "abande", "players": ["human", lone]},
                 {"text": f'[Game "Abande"]\n[White "{lone}"]\n\n*'}):
        for path in ("/api/games", "/api/import"):
            response = client.post(path, content=json.dumps(body).encode(),
                                   headers={"content-type": "application/json"})
            assert response.status_code == 400, (path, response.text)
            assert "not valid Unicode" in response.json()["error"]
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"type": "study", "action": "comment", "line": [],
                                 "text": lone}))
        assert "not valid Unicode" in receive(ws)["message"]
        ws.send_json({"type": "move", "move": "0,1", "ply": 0})
        until(ws, state_at(1))
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200 and "0,1" in record.text
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 1


def test_a_player_spec_over_the_cap_and_nan_options_are_refused(client: TestClient) -> None:
    long_spec = "alphabeta:" + ",".join(f"tt_mb={n}" for n in range(100))
    for spec, words in [(long_spec, f"may be at most {limits.MAX_PLAYER_SPEC}"),
                        ("mcts:exploration=nan", "option exploration takes a finite number"),
                        ("mcts:rave_bias=inf", "option rave_bias takes a finite number")]:
        response = client.post("/api/games", json={"game": "abande",
                                                   "players": ["human", spec]})
        assert response.status_code == 400 and words in response.json()["error"], spec
    assert client.get("/api/games").json()["total"] == 0


# --- undo, AI, pictures ------------------------------------------------------------------


def test_two_tabs_sending_undo_at_once_take_back_one_move(client: TestClient) -> None:
    """Issue 14: undo had no ply guard, unlike moves."""
    game_id = new_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}") as one, \
            client.websocket_connect(f"/ws/games/{game_id}") as two:
        receive(one)
        receive(two)
        for ply, move in enumerate(["0,1", "1,1"]):
            one.send_json({"type": "move", "move": move, "ply": ply})
            until(one, state_at(ply + 1))
            until(two, state_at(ply + 1))
        one.send_json({"type": "undo", "ply": 2})
        two.send_json({"type": "undo", "ply": 2})
        # Which tab's undo the server takes first is its scheduling's choice: that one is
        # applied, the other refused. A tab handles its messages in order, so an undo
        # without a ply sent after it marks where that tab's answers to the undo end.
        marker = 'a undo message needs "ply" (a whole number)'
        answers = []
        for tab in (one, two):
            tab.send_json({"type": "undo"})
            seen = []
            while (message := receive(tab))["type"] != "error" or message["message"] != marker:
                seen.append(message)
            answers.append(seen)
        refused = [seen for seen in answers if any(m["type"] == "error" for m in seen)]
        assert len(refused) == 1, answers
        for seen in answers:
            states = [m for m in seen if m["type"] == "state"]
            assert states and states[-1]["ply"] == 1 and states[-1]["moves"] == ["0,1"]
        [seen] = refused
        errors = [i for i, m in enumerate(seen) if m["type"] == "error"]
        assert [seen[i]["message"] for i in errors] == [
            "the undo was asked at ply 2 but the game is at ply 1: the page was out of "
            "date, nothing was taken back"]
        assert [m["ply"] for m in seen[errors[0]:] if m["type"] == "state"][:1] == [1]
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 1


def test_an_ai_search_without_an_end_is_stopped_at_the_cap(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec may name a search that never ends by itself (depth 40, no time): the app
    stops it after limits.MAX_AI_SECONDS and plays its best move so far."""
    monkeypatch.setattr(limits, "MAX_AI_SECONDS", 1.0)
    game_id = new_game(client, "andantino", players=["alphabeta:depth=40", "human"])
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        start = time.monotonic()
        assert receive(ws)["thinking"] is True
        ai_move = until(ws, lambda m: m["type"] == "ai_move", timeout=20)[0]
        assert time.monotonic() - start < 6
        assert until(ws, state_at(1))[0]["moves"] == [ai_move["move"]]


def test_the_picture_of_an_imported_far_apart_position_is_quick_and_small(
        client: TestClient) -> None:
    """Issue 14: GET /api/games/{id}/svg of such an imported game took 32 s and 2.4 GB."""
    far = "andantino w=0,0;0,1;2000,2000 r=1,0;2001,2000 turn=w"
    record = f'[Game "Andantino"]\n[Position "{far}"]\n[Result "*"]\n\n*\n'
    [game_id] = client.post("/api/import", json={"text": record}).json()["ids"]
    start = time.monotonic()
    picture = client.get(f"/api/games/{game_id}/svg")
    assert picture.status_code == 200
    assert time.monotonic() - start < 2
    assert len(picture.text) < 20_000 and 'data-cell="2001,2000"' in picture.text
    assert client.get(f"/api/games/{game_id}/svg?ply=x").status_code == 400
