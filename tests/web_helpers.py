"""Helpers of the browser app's tests: a game made over HTTP, the messages of a test
client's socket with timeouts, and ``hexgames serve`` as a real process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx
from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # Starlette would rather have httpx2: not installed here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

Message = dict[str, Any]


def new_game(client: TestClient, game: str = "andantino",
             players: list[str] | None = None, rules: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"game": game, "players": players or ["human", "human"]}
    if rules is not None:
        body["rules"] = rules
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def receive(ws: WebSocketTestSession, timeout: float = 20.0) -> Message:
    """The next message of the socket, failing after ``timeout`` seconds instead of
    waiting for ever."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000))
    result: Message = json.loads(message["text"])
    return result


def until(ws: WebSocketTestSession, test: Callable[[Message], bool],
          timeout: float = 20.0) -> tuple[Message, list[Message]]:
    """The first message passing ``test`` and every message before it; an ``error``
    that does not pass fails the test at once."""
    seen: list[Message] = []
    deadline = time.monotonic() + timeout
    while True:
        message = receive(ws, max(0.1, deadline - time.monotonic()))
        if test(message):
            return message, seen
        assert message["type"] != "error", message
        seen.append(message)


def state_at(ply: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "state" and m["ply"] == ply


def fresh_state(ws: WebSocketTestSession) -> Message:
    """Ask for the state and return it (skipping whatever came before)."""
    ws.send_json({"type": "state"})
    return until(ws, lambda m: m["type"] == "state")[0]


def free_port(host: str = "127.0.0.1") -> int:
    """A port that is free on ``host`` now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def wait_for_server(process: subprocess.Popen[bytes], url: str, log: Path | None = None,
                    timeout: float = 30.0, headers: dict[str, str] | None = None) -> None:
    """Wait until the server ``process`` answers ``url/api/meta`` (with ``headers``)
    with 200; RuntimeError with the end of its output (the file ``log`` it writes to,
    else its standard error, a pipe) if it stops or does not answer in time, when it
    is killed."""
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        try:
            if httpx.get(f"{url}/api/meta", timeout=2.0, headers=headers).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"the server did not answer: {_output(process, log)}")
        time.sleep(0.1)
    raise RuntimeError(f"the server stopped: {_output(process, log)}")


def _output(process: subprocess.Popen[bytes], log: Path | None) -> str:
    """The end of what the ended server ``process`` wrote: to ``log``, else to its
    standard error."""
    if log is not None:
        process.wait(10)
        return log.read_text(errors="replace")[-2000:]
    return process.communicate(timeout=10)[1].decode(errors="replace")[-2000:]


class ServerProcess:
    """``hexgames serve`` in a process of its own (``--port`` and ``--db`` chosen here,
    more options in ``args``; ``own_group``: in a process group of its own, which
    :meth:`ctrl_c` signals as a terminal's Ctrl-C does); :meth:`start` waits until it
    answers."""

    def __init__(self, db: Path, args: Sequence[str] = (), host: str = "127.0.0.1",
                 port: int | None = None, own_group: bool = False,
                 log: Path | None = None) -> None:
        self.own_group = own_group
        self.log = log  # its output goes there (else to pipes read when it stops)
        self.db = db
        self.host = host
        self.port = port if port is not None else free_port(host)
        self.args = list(args)
        self.process: subprocess.Popen[bytes] | None = None
        shown = f"[{host}]" if ":" in host else host
        self.base = f"http://{shown}:{self.port}"
        self.ws_base = f"ws://{shown}:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        code = ("import sys; from hexgames.cli import main; "
                f"sys.argv = ['hexgames', 'serve', '--host', {self.host!r}, '--port', "
                f"'{self.port}', '--db', {str(self.db)!r}, *{self.args!r}]; main()")
        if self.log is not None:
            with self.log.open("ab") as output:
                self.process = subprocess.Popen([sys.executable, "-c", code], stdout=output,
                                                stderr=subprocess.STDOUT,
                                                start_new_session=self.own_group)
        else:
            self.process = subprocess.Popen([sys.executable, "-c", code],
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                            start_new_session=self.own_group)
        wait_for_server(self.process, self.base, self.log, timeout=timeout,
                        headers=self.local_host())

    def local_host(self) -> dict[str, str]:
        """The ``Host`` header of a request to this server by its own address."""
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return {"host": f"{shown}:{self.port}"}

    def ctrl_c(self) -> None:
        """SIGINT to the server's process group (``own_group``), as a terminal sends
        Ctrl-C to every process of the job: the server and its AI workers."""
        assert self.process is not None and self.own_group
        os.killpg(self.process.pid, signal.SIGINT)

    def kill(self) -> int:
        """``kill -9`` the server; its exit status."""
        assert self.process is not None
        self.process.kill()
        return self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self.process is not None and self.log is None:
            self.process.communicate()
