"""How responsive the browser app's server stays while AI players think.

Starts ``hexgames serve`` in a subprocess on a fresh database, starts N games of AI
against AI (each AI thinking in a worker thread), then in a game between two people
measures, over a few seconds, the round trip of a move (sent on the WebSocket until the
new state comes back) and of ``GET /api/games``. Prints the medians and maxima in
milliseconds, first with no AI thinking and then with N.

    .venv/bin/python benchmarks/bench_web.py [--ais 4] [--spec alphabeta:time=5] [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def measure(base: str, ws_base: str, seconds: float) -> tuple[list[float], list[float]]:
    """Move round trips and HTTP round trips (seconds) in a new game between people."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        game = (await client.post("/api/games", json={"game": "andantino"})).json()["id"]
        moves: list[float] = []
        gets: list[float] = []
        async with websockets.connect(f"{ws_base}/ws/games/{game}") as ws:
            state = json.loads(await ws.recv())
            end = time.monotonic() + seconds
            while time.monotonic() < end and not state["over"]:
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": state["legal"][0],
                                          "ply": state["ply"]}))
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] == "state" and message["ply"] == state["ply"] + 1:
                        break
                moves.append(time.perf_counter() - start)
                state = message
                if state["over"] or state["ply"] >= 40:
                    await ws.send(json.dumps({"type": "undo", "ply": state["ply"]}))
                    state = json.loads(await ws.recv())
                start = time.perf_counter()
                (await client.get("/api/games")).raise_for_status()
                gets.append(time.perf_counter() - start)
        return moves, gets


def report(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"{label}: median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms "
            f"over {len(ms)}")


async def run(args: argparse.Namespace, base: str, ws_base: str) -> None:
    moves, gets = await measure(base, ws_base, args.seconds)
    print(f"no AI thinking   | {report('move', moves)} | {report('GET /api/games', gets)}")
    sockets = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for _ in range(args.ais):
            game = (await client.post("/api/games", json={
                "game": "andantino", "players": [args.spec, args.spec]})).json()["id"]
            sockets.append(await websockets.connect(f"{ws_base}/ws/games/{game}"))
    await asyncio.sleep(1.0)
    moves, gets = await measure(base, ws_base, args.seconds)
    print(f"{args.ais} AIs thinking | {report('move', moves)} | "
          f"{report('GET /api/games', gets)}")
    for ws in sockets:
        await ws.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ais", type=int, default=4, help="AI games thinking at once")
    parser.add_argument("--spec", default="alphabeta:time=5", help="the AI's player spec")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds of measuring")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.db"
        server = subprocess.Popen(
            [sys.executable, "-c", "from hexgames.cli import main; main()", "serve",
             "--port", str(port), "--db", str(db)], stdout=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(150):
                try:
                    httpx.get(f"{base}/api/meta", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.2)
            asyncio.run(run(args, base, f"ws://127.0.0.1:{port}"))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
