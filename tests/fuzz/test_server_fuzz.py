"""A fuzz run of the server mode's protocol (issue 32): hypothesis-generated HTTP
requests (every route, with bodies built from the protocol's fields and mutated, and
raw text) and WebSocket messages (every message type, fields of every kind) against a
live ``hexgames serve --server`` in a process of its own, logged in as a member.

It asserts what docs/security.md promises of bad input: no answer is a 5xx, every
error says what is wrong, a socket answers ``state`` after every message (or was
closed with a code of the protocol), the server never logs a traceback and never
crashes, and its memory stays bounded (the resident set grows by less than
:data:`MEMORY_GROWTH_MB` over the run).

The inputs come from a fixed seed and a fixed number of examples, so CI runs the same
ones in well under a minute; longer::

    HEXGAMES_SERVER_FUZZ_EXAMPLES=5000 HEXGAMES_FUZZ_SEED=7 \\
        .venv/bin/python -m pytest tests/fuzz/test_server_fuzz.py
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("hypothesis")
pytest.importorskip("starlette")
pytest.importorskip("argon2")
if sys.platform != "linux":  # the memory is read from /proc
    pytest.skip("the server fuzz run reads /proc", allow_module_level=True)

import httpx
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent.parent))
sys.path.insert(0, str(Path(__file__).parent))

from fuzz_inputs import ABANDE_MOVE, ANDANTINO_MOVE, RULES
from web_helpers import ServerProcess
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from hexgames import limits
from hexgames.web.accounts import COOKIE

# websockets draws its frame masks from the random module in its own thread, which
# hypothesis takes for a strategy using random.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module inside strategies")

EXAMPLES = int(os.environ.get("HEXGAMES_SERVER_FUZZ_EXAMPLES", "500"))
SEED = int(os.environ.get("HEXGAMES_FUZZ_SEED", "14"))
#: How much the server's resident memory may grow over the run, in MB.
MEMORY_GROWTH_MB = 200
PASSWORD = "fuzzing password"
#: Close codes of the protocol (docs/web-protocol.md).
CLOSE_CODES = {4401, 4403, 4404, 4429, 1000, 1009}

# --- the inputs --------------------------------------------------------------------------

_TEXT = st.text(max_size=40)
_NUMBER = st.one_of(st.integers(-5, 50), st.integers(-(2**70), 2**70),
                    st.floats(allow_nan=True, allow_infinity=True))
_FIELDS = ["game", "rules", "players", "position", "time_control", "color", "opponent",
           "rated", "invite", "name", "password", "old", "new", "text", "move", "ply",
           "side", "on", "line", "action", "multipv", "nags", "names", "kind", "base",
           "increment", "days", "bank", "from", "type"]
_SCALAR = st.one_of(st.none(), st.booleans(), _NUMBER, _TEXT,
                    st.sampled_from(["andantino", "abande", "human", "easy", "expert",
                                     "first", "random", "live", "correspondence", "offer",
                                     "accept", "add", "comment", "d4", "0,1", "pass",
                                     "alphabeta:tt_mb=99999", "mcts:time=1e308"]),
                    ANDANTINO_MOVE, ABANDE_MOVE, RULES)
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=5),
    st.dictionaries(st.one_of(st.sampled_from(_FIELDS), _TEXT), inner, max_size=5)),
    max_leaves=12)
_BODY = st.one_of(st.dictionaries(st.sampled_from(_FIELDS), _VALUE, max_size=6), _VALUE)
_RAW = st.one_of(_TEXT, st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
                 st.just("{"), st.just('{"a": ' * 200), st.just("[" * 5000))

_ROUTES = ["/api/meta", "/api/me", "/api/games", "/api/games/{game}",
           "/api/games/{game}/record", "/api/games/{game}/svg", "/api/import",
           "/api/auth/login", "/api/auth/signup", "/api/auth/password",
           "/api/challenges", "/api/challenges/{challenge}",
           "/api/challenges/{challenge}/accept", "/api/invites/{text}",
           "/api/invites/{text}/accept", "/api/turn", "/api/ratings", "/api/users/{text}"]
_REQUEST = st.tuples(st.sampled_from(["GET", "POST", "DELETE"]), st.sampled_from(_ROUTES),
                     st.one_of(_TEXT, st.sampled_from(["real", "real"])),
                     st.dictionaries(st.sampled_from(["ply", "line", "limit", "offset",
                                                      "mine", "game"]), _TEXT, max_size=3),
                     st.one_of(_BODY.map(lambda b: ("json", b)), _RAW.map(lambda r: ("raw", r))))

_TYPES = ["move", "undo", "resign", "hint", "analyse", "stop", "view", "state", "draw",
          "takeback", "study", "names", "analyse_game", "targets", "nope"]
_MESSAGE = st.one_of(
    st.builds(lambda kind, fields: json.dumps({"type": kind, **fields}, allow_nan=True),
              st.sampled_from(_TYPES), st.dictionaries(st.sampled_from(_FIELDS), _VALUE,
                                                       max_size=4)),
    _BODY.map(lambda b: json.dumps(b, allow_nan=True)), _RAW)


# --- the live server ---------------------------------------------------------------------


class Member:
    """A logged-in member's HTTP client and a game of theirs to send messages to."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.server = server
        headers = {"origin": server.base, **server.local_host()}
        self.http = httpx.Client(base_url=server.base, headers=headers, timeout=30)
        answer = self.http.post("/api/auth/signup", json={"name": name,
                                                          "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.name = name
        self.game = ""
        self.challenge = ""
        self.ws: ClientConnection | None = None

    def login(self) -> None:
        """Log in again if a fuzzed request logged out or changed the password."""
        if self.http.get("/api/me").json()["user"] is None:
            answer = self.http.post("/api/auth/login", json={"name": self.name,
                                                             "password": PASSWORD})
            assert answer.status_code == 200, answer.text

    def new_game(self) -> str:
        self.login()
        made = self.http.post("/api/games", json={"game": "andantino",
                                                  "players": ["human", "random"]})
        if made.status_code == 409:  # the member's cap of running games: start afresh
            for game in self.http.get("/api/games?mine=1&limit=500").json()["games"]:
                self.http.delete(f"/api/games/{game['id']}")
            made = self.http.post("/api/games", json={"game": "andantino",
                                                      "players": ["human", "random"]})
        assert made.status_code == 201, made.text
        self.game = made.json()["id"]
        return self.game

    def socket(self) -> ClientConnection:
        if self.ws is None:
            self.login()
            if not self.game or self.http.get(f"/api/games/{self.game}").status_code != 200:
                self.new_game()
            headers = {"Origin": self.server.base,
                       "Cookie": f"{COOKIE}={self.http.cookies.get(COOKIE)}"}
            self.ws = connect(f"{self.server.ws_base}/ws/games/{self.game}",
                              additional_headers=headers, open_timeout=10,
                              max_size=limits.MAX_MESSAGE_BYTES).__enter__()
            first = json.loads(self.ws.recv(timeout=10))
            assert first["type"] == "state", first
        return self.ws

    def drop_socket(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Member]]:
    folder = tmp_path_factory.mktemp("server-fuzz")
    server = ServerProcess(folder / "games.db", ["--server"], log=folder / "server.log")
    server.start()
    member = Member(server, "fuzzer")
    member.new_game()
    made = member.http.post("/api/challenges", json={"game": "abande"})
    member.challenge = made.json()["id"]
    yield server, member
    member.drop_socket()
    member.http.close()
    server.stop()
    log = (folder / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[log.index("Traceback") - 200:][:3000]


def _resident_mb(server: ServerProcess) -> float:
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    line = next(x for x in status.splitlines() if x.startswith("VmRSS"))
    return int(line.split()[1]) / 1024


def _alive(server: ServerProcess) -> None:
    assert server.process is not None and server.process.poll() is None, \
        "the server crashed"


# --- the runs --------------------------------------------------------------------------

#: The settings of both runs: a fixed number of examples, no deadline (a request to a
#: live server takes what it takes), no example database.
FUZZ = settings(max_examples=EXAMPLES, database=None, deadline=None,
                suppress_health_check=list(HealthCheck))


def test_fuzzed_requests_are_answered_cleanly(live: tuple[ServerProcess, Member]) -> None:
    server, member = live
    start = _resident_mb(server)

    @seed(SEED)
    @FUZZ
    @given(_REQUEST)
    def run(request: tuple[str, str, str, dict[str, str], tuple[str, Any]]) -> None:
        method, route, text, query, (kind, body) = request
        real = text == "real"
        path = route.replace("{game}", member.game if real else quote(text, safe="") or "x")
        path = path.replace("{challenge}", member.challenge if real else
                            quote(text, safe="") or "x")
        path = path.replace("{text}", quote(text, safe="") or "x")
        if path.startswith("/api/auth/password") and isinstance(body, dict) and \
                body.get("old") == PASSWORD:
            return  # not the member's own password change: it would end the run's login
        if method == "DELETE" and route == "/api/games/{game}" and real:
            return  # deleting the game under the socket is a test of its own
        content = (json.dumps(body, allow_nan=True) if kind == "json" else body).encode(
            "utf-8", "surrogatepass")
        answer = member.http.request(method, path, params=query, content=content,
                                     headers={"content-type": "application/json"})
        assert answer.status_code < 500, (method, path, content[:200], answer.text[:300])
        if answer.status_code >= 400 and answer.status_code != 405:
            error = answer.json().get("error")
            assert isinstance(error, str) and error, (method, path, answer.text[:300])
        _alive(server)
        member.login()

    run()
    _alive(server)
    grown = _resident_mb(server) - start
    assert grown < MEMORY_GROWTH_MB, f"the server's memory grew by {grown:.0f} MB"


def test_fuzzed_socket_messages_are_answered_cleanly(
        live: tuple[ServerProcess, Member]) -> None:
    server, member = live
    start = _resident_mb(server)

    @seed(SEED)
    @FUZZ
    @given(_MESSAGE)
    def run(message: str) -> None:
        ws = member.socket()
        try:
            ws.send(message)
            ws.send('{"type": "state"}')
            while True:  # the answers, up to the state asked for
                answer = json.loads(ws.recv(timeout=20))
                assert isinstance(answer, dict) and isinstance(answer.get("type"), str)
                if answer["type"] == "error":
                    assert answer["message"] and "internal error" not in answer["message"]
                if answer["type"] == "state":
                    if answer["over"]:  # resigned: a new game for the next message
                        member.drop_socket()
                        member.new_game()
                    break
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            assert code in CLOSE_CODES, f"the socket closed with {code}"
            member.drop_socket()
        _alive(server)

    run()
    _alive(server)
    grown = _resident_mb(server) - start
    assert grown < MEMORY_GROWTH_MB, f"the server's memory grew by {grown:.0f} MB"

