"""A short load-and-fault test of the browser app (issue 14), bounded in count and time:
a real ``hexgames serve`` in a process, 50 sockets on 10 games, a few hundred moves
played as fast as the server acknowledges them, the database locked by another program
for a while in the middle, and ``kill -9`` of the server mid-stream. Afterwards every
move the server acknowledged is in the database, and the restarted server goes on."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("websockets")

import httpx
import websockets
from web_helpers import ServerProcess

from hexgames.web.store import GameStore

GAMES = 10
SOCKETS_PER_GAME = 5  # 50 sockets: one plays, four watch
MOVES_PER_GAME = 24  # 240 moves, each broadcast to the game's five sockets
LOCK_AFTER = 60  # acknowledged moves before the database is locked
LOCK_SECONDS = 1.5
KILL_AFTER = 160  # acknowledged moves before kill -9

_LOCKER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


class Run:
    """What the clients saw: the acknowledged moves of each game, in order, and the
    errors the server sent."""

    def __init__(self) -> None:
        self.acknowledged: dict[str, list[str]] = {}
        self.count = 0
        self.errors: list[str] = []
        self.locked_reads: list[float] = []
        self.killed = asyncio.Event()
        self.lock_started = asyncio.Event()


async def _next_state(ws: Any, run: Run, timeout: float = 15.0) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] == "error":
            run.errors.append(message["message"])
        if message["type"] == "state":
            return message  # type: ignore[no-any-return]


async def _watch(url: str) -> int:
    """A watching socket: how many states it received before the server went away."""
    seen = 0
    try:
        async with websockets.connect(url) as ws:
            async for text in ws:
                seen += json.loads(text)["type"] == "state"
    except (websockets.ConnectionClosed, OSError):
        pass
    return seen


async def _play(url: str, game: str, run: Run) -> None:
    """The playing socket of one game: the first legal move, again and again, each sent
    with the ply it follows; a move refused while the database is locked is sent again."""
    moves = run.acknowledged.setdefault(game, [])
    try:
        async with websockets.connect(url) as ws:
            state = await _next_state(ws, run)
            while state["ply"] < MOVES_PER_GAME and not state["over"]:
                move = state["legal"][0]
                await ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))
                answer: dict[str, Any]
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 15))
                    if message["type"] == "state" and message["ply"] == state["ply"] + 1:
                        answer = message
                        break
                    if message["type"] == "error":
                        run.errors.append(message["message"])
                        await ws.send(json.dumps({"type": "state"}))
                        answer = await _next_state(ws, run)
                        break
                if answer["ply"] == state["ply"] + 1:
                    assert answer["moves"][-1] == move
                    moves.append(move)  # acknowledged: the server committed it
                    run.count += 1
                state = answer
    except (TimeoutError, websockets.ConnectionClosed, OSError):
        if not run.killed.is_set():
            raise


async def _faults(server: ServerProcess, db: Path, run: Run) -> None:
    """Lock the database for a while after LOCK_AFTER moves (reading the list meanwhile),
    then kill -9 the server after KILL_AFTER."""
    while run.count < LOCK_AFTER:
        await asyncio.sleep(0.01)
    locker = subprocess.Popen([sys.executable, "-c", _LOCKER, str(db), str(LOCK_SECONDS)],
                              stdout=subprocess.PIPE, text=True)
    assert locker.stdout is not None
    await asyncio.to_thread(locker.stdout.readline)
    run.lock_started.set()
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as client:
        for _ in range(5):
            start = time.monotonic()
            listed = await client.get("/api/games")
            run.locked_reads.append(time.monotonic() - start)
            assert listed.status_code == 200 and listed.json()["total"] == GAMES
            await asyncio.sleep(0.1)
    await asyncio.to_thread(locker.wait, 20)
    while run.count < KILL_AFTER:
        await asyncio.sleep(0.005)
    assert server.process is not None
    run.killed.set()
    server.process.send_signal(signal.SIGKILL)


async def _load(server: ServerProcess, db: Path, games: list[str]) -> tuple[Run, list[int]]:
    run = Run()
    urls = {game: f"{server.ws_base}/ws/games/{game}" for game in games}
    watchers = [asyncio.create_task(_watch(urls[game])) for game in games
                for _ in range(SOCKETS_PER_GAME - 1)]
    players = [asyncio.create_task(_play(urls[game], game, run)) for game in games]
    faults = asyncio.create_task(_faults(server, db, run))
    await asyncio.wait_for(asyncio.gather(*players, faults), 90)
    seen = await asyncio.wait_for(asyncio.gather(*watchers), 30)
    return run, list(seen)


def test_many_sockets_a_locked_database_and_kill_9_lose_no_acknowledged_move(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    server = ServerProcess(db)
    server.start()
    try:
        games = [httpx.post(f"{server.base}/api/games", json={"game": "andantino"}).json()["id"]
                 for _ in range(GAMES)]
        start = time.monotonic()
        run, seen = asyncio.run(_load(server, db, games))
        took = time.monotonic() - start
        print(f"{run.count} moves acknowledged in {took:.1f} s, {len(run.errors)} refused "
              f"during the lock, reads then {max(run.locked_reads):.3f} s at most, "
              f"watchers saw {sum(seen)} states")
        assert server.process is not None and server.process.wait(10) == -signal.SIGKILL
    finally:
        server.stop()
    assert took < 90
    assert len(seen) == GAMES * (SOCKETS_PER_GAME - 1) == 40
    assert sum(seen) > KILL_AFTER  # the watchers were told of the moves
    assert run.count >= KILL_AFTER
    # the lock: reads answered at once, writes were refused with the reason and retried
    assert run.locked_reads and max(run.locked_reads) < 0.5, run.locked_reads
    assert run.errors, "no write met the lock"
    assert all("locked by another program" in e for e in run.errors), run.errors[:5]
    assert run.count < GAMES * MOVES_PER_GAME  # killed mid-stream
    # every acknowledged move is stored, in order (a move sent but not acknowledged
    # before the kill may be stored too)
    store = GameStore(db)
    try:
        stored = {game.id: game.moves for game in store.games()}
    finally:
        store.close()
    for game, moves in run.acknowledged.items():
        assert stored[game][:len(moves)] == moves, game
        assert len(stored[game]) <= len(moves) + 1
    # the restarted server lists every game and plays on
    again = ServerProcess(db, port=server.port)
    again.start()
    try:
        listed = httpx.get(f"{again.base}/api/games").json()
        assert listed["total"] == GAMES
        assert {g["id"]: g["moves"] for g in listed["games"]} == \
            {game: len(moves) for game, moves in stored.items()}

        async def one_more() -> dict[str, Any]:
            game = games[0]
            async with websockets.connect(f"{again.ws_base}/ws/games/{game}") as ws:
                state = json.loads(await ws.recv())
                if state["over"]:
                    return state  # type: ignore[no-any-return]
                await ws.send(json.dumps({"type": "move", "move": state["legal"][0],
                                          "ply": state["ply"]}))
                return json.loads(await ws.recv())  # type: ignore[no-any-return]

        after = asyncio.run(one_more())
        assert after["over"] or after["ply"] == len(stored[games[0]]) + 1
    finally:
        again.stop()


def test_a_real_server_refuses_oversized_frames_and_headers(tmp_path: Path) -> None:
    """The caps that uvicorn applies for the app (``serve`` sets them from
    hexgames.limits): a socket frame over MAX_MESSAGE_BYTES closes the socket (1009),
    a request line over MAX_HEADER_BYTES that does not come in one read (asyncio reads
    256 KiB at a time) is refused; the server answers on."""
    from hexgames import limits

    server = ServerProcess(tmp_path / "games.db")
    server.start()
    try:
        game = httpx.post(f"{server.base}/api/games", json={"game": "abande"}).json()["id"]

        async def big_frame() -> int | None:
            async with websockets.connect(f"{server.ws_base}/ws/games/{game}",
                                          max_size=None) as ws:
                await ws.recv()
                await ws.send("x" * (limits.MAX_MESSAGE_BYTES + 1))
                try:
                    await asyncio.wait_for(ws.recv(), 10)
                except websockets.ConnectionClosed as closed:
                    return closed.rcvd.code if closed.rcvd is not None else None
                return None

        assert asyncio.run(big_frame()) == 1009
        import socket

        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            raw.sendall(f"GET /api/games?{'x' * 400_000} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        "\r\n".encode())
            answer = raw.recv(200)
        assert answer.startswith((b"HTTP/1.1 400 ", b"HTTP/1.1 431 ")) or answer == b"", \
            answer
        assert httpx.get(f"{server.base}/api/games").json()["total"] == 1
    finally:
        server.stop()
