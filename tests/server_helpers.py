"""Helpers of the server mode's tests: a real uvicorn server on loopback in a thread of
the test (so that the test holds its app: a fake clock, the manager's sweep), and
clients that log in and keep their own cookie, over httpx and websockets."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from web_helpers import free_port
from websockets.sync.client import ClientConnection, connect

from hexgames import limits
from hexgames.web import create_app
from hexgames.web.accounts import COOKIE

Message = dict[str, Any]
PASSWORD = "correct horse battery"


class FakeClock:
    """A time source the test moves by hand (seconds since the epoch)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class LiveServer:
    """The app of ``create_app(db, server=True, ...)`` served by uvicorn on a free
    loopback port in a thread; :meth:`stop` ends it."""

    def __init__(self, db: Path, *, proxy_headers: bool = False, **options: Any) -> None:
        options.setdefault("workers", "thread")
        options.setdefault("helper_spec", "greedy")
        options.setdefault("hint_time", 0.3)
        options.setdefault("sweep_interval", None)
        options.setdefault("session_check_interval", None)  # app.state.housekeeping()
        options.setdefault("server", True)
        self.app = create_app(db, **options)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", ws_max_size=limits.MAX_MESSAGE_BYTES,
                                proxy_headers=proxy_headers,
                                forwarded_allow_ips="127.0.0.1" if proxy_headers else None,
                                lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive(), "the server did not start"
            assert time.monotonic() < deadline, "the server did not start in time"
            time.sleep(0.02)

    @property
    def manager(self) -> Any:
        return self.app.state.manager

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)


class Client:
    """One person's browser: an httpx client with its own cookies, sending this
    server's ``Origin`` with every request (as a browser does)."""

    def __init__(self, server: LiveServer, *, origin: str | None = "same") -> None:
        self.server = server
        headers = {} if origin is None else {
            "origin": server.base if origin == "same" else origin}
        self.http = httpx.Client(base_url=server.base, headers=headers, timeout=20)
        self.name: str | None = None

    def signup(self, name: str, password: str = PASSWORD, **extra: Any) -> httpx.Response:
        response = self.http.post("/api/auth/signup",
                                  json={"name": name, "password": password, **extra})
        if response.status_code == 201:
            self.name = name
        return response

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        response = self.http.post("/api/auth/login", json={"name": name, "password": password})
        if response.status_code == 200:
            self.name = name
        return response

    def cookie(self) -> str | None:
        return self.http.cookies.get(COOKIE)

    def socket(self, game_id: str, *, origin: str | None = "same") -> Socket:
        headers = {}
        if origin is not None:
            headers["Origin"] = self.server.base if origin == "same" else origin
        cookie = self.cookie()
        if cookie is not None:
            headers["Cookie"] = f"{COOKIE}={cookie}"
        ws = connect(f"{self.server.ws_base}/ws/games/{game_id}", additional_headers=headers,
                     open_timeout=10, max_size=limits.MAX_MESSAGE_BYTES)
        return Socket(ws.__enter__())  # closed by Socket.close

    def close(self) -> None:
        self.http.close()


class Socket:
    """A game's WebSocket with messages read under a timeout."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    def send(self, message: Message) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float = 10.0) -> Message:
        result: Message = json.loads(self.ws.recv(timeout=timeout))
        return result

    def until(self, test: Callable[[Message], bool], timeout: float = 10.0) -> Message:
        """The first message passing ``test`` (an ``error`` that does not fails)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(0.05, deadline - time.monotonic()))
            if test(message):
                return message
            assert message["type"] != "error", message

    def state(self) -> Message:
        """Ask for the state and return it."""
        self.send({"type": "state"})
        return self.until(lambda m: m["type"] == "state")

    def error(self, message: Message) -> str:
        """Send ``message`` and return the ``error`` it gets (skipping other messages)."""
        self.send(message)
        answer = self.until(lambda m: m["type"] == "error")
        return str(answer["message"])

    def close_code(self, timeout: float = 10.0) -> int | None:
        """Read until the server closes the socket; its close code."""
        from websockets.exceptions import ConnectionClosed

        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.ws.recv(timeout=max(0.05, deadline - time.monotonic()))
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
        raise AssertionError("the socket was not closed")

    def close(self) -> None:
        self.ws.close()


def signed_up(server: LiveServer, *names: str) -> list[Client]:
    """A client for each of ``names``, each signed up as that account."""
    clients = []
    for name in names:
        client = Client(server)
        assert client.signup(name).status_code == 201
        clients.append(client)
    return clients


def challenge_game(first: Client, second: Client, game: str = "andantino",
                   **body: Any) -> str:
    """The id of a game of ``first`` (the first player) against ``second``, made by a
    challenge of ``first`` (with more fields in ``body``: ``rated``...) that ``second``
    accepts."""
    made = first.http.post("/api/challenges", json={"game": game, "color": "first", **body})
    assert made.status_code == 201, made.text
    accepted = second.http.post(f"/api/challenges/{made.json()['id']}/accept")
    assert accepted.status_code == 201, accepted.text
    return str(accepted.json()["id"])
