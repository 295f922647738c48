"""How the server mode keeps up with many live games on loopback.

Starts ``hexgames serve --server`` in a subprocess on a fresh database, signs up two
accounts a game (each from an address of its own, as the server believes
``X-Forwarded-For`` from loopback under ``--trust-proxy``), makes each game by a
challenge and its acceptance (live clock 10+5), and opens one WebSocket per player.
Each player moves about once a second (0.8 to 1.2 s after it was told it is its move, a
random legal move); the time from a move sent to the opponent's socket receiving the
new state is measured. A game that ends is
replaced by a new challenge between the same two. With ``--ai N`` that many of the
games are a person against an AI level instead (``--level``); their replies are timed
from the person's move to the AI's state. Each account also keeps a lobby open, as a
page does (``--lobby-poll`` seconds, 0 for none): it polls ``GET /api/challenges``
(whose ``accepted`` list reads the account's running games) and ``GET /api/turn``; the
time of those answers is measured too. Before a move the mover writes a line of the
players' chat with the chance ``--chat`` (0.2: some 5 lines a minute a game); the time
to the opponent's socket is measured.

Prints the median and 99th percentile of the move latency, the server's memory (its
RSS and that of its worker processes, MiB) and its CPU time per second of wall time,
sampled over the run. Bounded: ``--seconds`` of play, then it stops by itself.

    .venv/bin/python benchmarks/bench_server.py [--games 100] [--ai 0] [--seconds 60]
        [--lobby-poll 5] [--chat 0.2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

PASSWORD = "benchmark password"
CLOCK = {"kind": "live", "base": 600, "increment": 5}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _proc_stat(pid: int) -> tuple[float, int]:
    """CPU seconds (user + system) and RSS bytes of one process."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def usage(pid: int) -> tuple[float, float]:
    """CPU seconds and RSS (MiB) of the server and its descendants."""
    cpu = rss = 0.0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            c, r = _proc_stat(current)
        except OSError:
            continue
        cpu += c
        rss += r / (1 << 20)
        stack.extend(_children(current))
    return cpu, rss


class Stats:
    def __init__(self) -> None:
        self.latency: list[float] = []
        self.ai_reply: list[float] = []
        self.lobby: list[float] = []
        self.chat: list[float] = []
        self.moves = 0
        self.games_done = 0
        self.errors: list[str] = []


class Player:
    """One account's client: cookies over httpx, one socket per game."""

    def __init__(self, base: str, name: str, number: int) -> None:
        self.base = base
        self.name = name
        # each player's own address (the server trusts the proxy header from loopback),
        # as many people sign up from many places: one address may sign up 5 an hour
        address = f"10.{number // 62500 % 256}.{number // 250 % 250}.{number % 250 + 1}"
        # idle connections are dropped before the server's keep-alive of 5 s ends them,
        # which it might do just as one is reused (a lost request)
        self.http = httpx.AsyncClient(
            base_url=base, headers={"origin": base, "x-forwarded-for": address}, timeout=60,
            limits=httpx.Limits(keepalive_expiry=2))

    async def signup(self) -> None:
        answer = await self.http.post("/api/auth/signup",
                                      json={"name": self.name, "password": PASSWORD})
        answer.raise_for_status()

    def cookie(self) -> str:
        return f"hexgames_session={self.http.cookies.get('hexgames_session')}"

    async def connect(self, ws_base: str, game_id: str) -> Any:
        return await websockets.connect(
            f"{ws_base}/ws/games/{game_id}", max_size=1 << 16,
            additional_headers={"Origin": self.base, "Cookie": self.cookie()})


class Chats:
    """The chat lines of one game in flight: text -> (the sender's side, when sent)."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.sent: dict[str, tuple[int, float]] = {}

    def arrived(self, side: int, message: dict[str, Any]) -> None:
        text = message["message"]["text"]
        sender, when = self.sent.get(text, (side, 0.0))
        if sender != side:  # at the opponent's socket (the sender's own is not timed)
            self.stats.chat.append(time.perf_counter() - when)
            del self.sent[text]


async def _next_state(ws: Any, side: int = 0, chats: Chats | None = None) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state":
            return message  # type: ignore[no-any-return]
        if message["type"] == "chat" and chats is not None:
            chats.arrived(side, message)


async def play_pair(first: Player, second: Player, ws_base: str, stats: Stats,
                    end: float, rng: random.Random, chat: float = 0.0) -> None:
    """Games between two people until ``end``; before a move the mover writes a line of
    the players' chat with the chance ``chat``."""
    while time.monotonic() < end:
        made = await first.http.post("/api/challenges", json={
            "game": "andantino", "color": "first", "time_control": CLOCK})
        made.raise_for_status()
        accepted = await second.http.post(f"/api/challenges/{made.json()['id']}/accept")
        accepted.raise_for_status()
        game_id = accepted.json()["id"]
        sockets = [await first.connect(ws_base, game_id),
                   await second.connect(ws_base, game_id)]
        sent: dict[int, float] = {}
        chats = Chats(stats)
        states = [await _next_state(ws) for ws in sockets]
        try:
            while time.monotonic() < end and not states[0]["over"]:
                mover = states[0]["turn"]
                await asyncio.sleep(rng.uniform(0.8, 1.2))
                ply = states[mover]["ply"]
                if rng.random() < chat:
                    text = f"{game_id} {ply} good move"
                    chats.sent[text] = (mover, time.perf_counter())
                    await sockets[mover].send(json.dumps({"type": "chat", "text": text}))
                move = rng.choice(states[mover]["legal"])
                sent[ply + 1] = time.perf_counter()
                await sockets[mover].send(json.dumps({"type": "move", "move": move,
                                                      "ply": ply}))
                other = await asyncio.wait_for(
                    _next_state(sockets[1 - mover], 1 - mover, chats), 30)
                stats.latency.append(time.perf_counter() - sent[ply + 1])
                stats.moves += 1
                mine = await asyncio.wait_for(_next_state(sockets[mover], mover, chats), 30)
                states = [mine, other] if mover == 0 else [other, mine]
            stats.games_done += states[0]["over"]
        except (TimeoutError, websockets.ConnectionClosed) as error:
            stats.errors.append(repr(error))
            return
        finally:
            for ws in sockets:
                await ws.close()


async def play_ai(person: Player, level: str, ws_base: str, stats: Stats, end: float,
                  rng: random.Random) -> None:
    """Games of a person against an AI level until ``end``."""
    while time.monotonic() < end:
        made = await person.http.post("/api/games", json={
            "game": "andantino", "players": ["human", level], "time_control": CLOCK})
        made.raise_for_status()
        ws = await person.connect(ws_base, made.json()["id"])
        state = await _next_state(ws)
        try:
            while time.monotonic() < end and not state["over"]:
                await asyncio.sleep(rng.uniform(0.8, 1.2))
                start = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "move": rng.choice(state["legal"]),
                                          "ply": state["ply"]}))
                target = state["ply"] + 2
                while True:
                    state = await asyncio.wait_for(_next_state(ws), 130)
                    if state["over"] or state["ply"] >= target:
                        break
                stats.ai_reply.append(time.perf_counter() - start)
                stats.moves += 2
        except (TimeoutError, websockets.ConnectionClosed) as error:
            stats.errors.append(repr(error))
            return
        finally:
            await ws.close()


async def poll_lobby(player: Player, every: float, stats: Stats, end: float,
                     rng: random.Random) -> None:
    """A lobby page open until ``end``: the challenges and the games waiting, every
    ``every`` seconds (the first poll at a random moment of the first period)."""
    await asyncio.sleep(rng.uniform(0, every))
    while time.monotonic() < end:
        for path in ("/api/challenges", "/api/turn"):
            start = time.perf_counter()
            answer = await player.http.get(path)
            if answer.status_code != 200:
                stats.errors.append(f"{path}: {answer.status_code}")
                return
            stats.lobby.append(time.perf_counter() - start)
        await asyncio.sleep(every)


def percentiles(values: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile of ``values`` (seconds) in milliseconds."""
    ms = sorted(v * 1000 for v in values)
    return statistics.median(ms), ms[min(len(ms) - 1, int(0.99 * len(ms)))]


async def run(args: argparse.Namespace, base: str, ws_base: str, pid: int) -> None:
    rng = random.Random(args.seed)
    people = args.games - args.ai
    players = [Player(base, f"p{n}", n) for n in range(2 * people + args.ai)]
    start = time.monotonic()
    for batch in range(0, len(players), 8):  # argon2 hashes: a few at a time
        await asyncio.gather(*(p.signup() for p in players[batch:batch + 8]))
    print(f"{len(players)} accounts signed up in {time.monotonic() - start:.1f} s")
    stats = Stats()
    cpu0, _ = usage(pid)
    wall0 = time.monotonic()
    end = wall0 + args.seconds
    tasks = [play_pair(players[2 * n], players[2 * n + 1], ws_base, stats, end,
                       random.Random(rng.random()), args.chat) for n in range(people)]
    tasks += [play_ai(players[2 * people + n], args.level, ws_base, stats, end,
                      random.Random(rng.random())) for n in range(args.ai)]
    if args.lobby_poll > 0:
        tasks += [poll_lobby(player, args.lobby_poll, stats, end, random.Random(rng.random()))
                  for player in players]
    peak = 0.0
    samples: list[float] = []

    async def sample() -> None:
        nonlocal peak
        while time.monotonic() < end:
            await asyncio.sleep(2)
            _, rss = usage(pid)
            peak = max(peak, rss)
            samples.append(rss)

    await asyncio.gather(*tasks, sample())
    cpu1, rss = usage(pid)
    wall = time.monotonic() - wall0
    print(f"games: {people} between people, {args.ai} against {args.level}; "
          f"{wall:.0f} s of play, {stats.moves} moves, {stats.games_done} games finished")
    for what, values in (("move to opponent", stats.latency),
                         ("person's move to the AI's reply", stats.ai_reply),
                         ("lobby polls (GET /api/challenges, /api/turn)", stats.lobby),
                         ("chat line to the opponent", stats.chat)):
        if values:
            median, p99 = percentiles(values)
            print(f"{what}: median {median:.1f} ms, p99 {p99:.1f} ms, "
                  f"max {max(values) * 1000:.1f} ms over {len(values)}")
    print(f"server memory (with its workers): {rss:.0f} MiB at the end, peak "
          f"{peak:.0f} MiB; CPU {100 * (cpu1 - cpu0) / wall:.0f}% of one core")
    if stats.errors:
        print(f"errors: {len(stats.errors)} ({stats.errors[:3]})")
    for player in players:
        await player.http.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ai", type=int, default=0, help="games against an AI level")
    parser.add_argument("--level", default="easy")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lobby-poll", type=float, default=5,
                        help="seconds between an account's lobby polls (0: none)")
    parser.add_argument("--log", default=None, help="keep the server's log in this file")
    parser.add_argument("--chat", type=float, default=0.2,
                        help="the chance that a player writes a chat line before a move")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        # the server's log to a file (a pipe nobody reads would stall the server once
        # full); --log keeps it
        log_path = Path(args.log) if args.log else Path(folder) / "server.log"
        log = log_path.open("wb")
        server = subprocess.Popen(
            [sys.executable, "-c", "from hexgames.cli import main; main()", "serve",
             "--server", "--port", str(port), "--db", str(db), "--trust-proxy"],
            stdout=subprocess.DEVNULL, stderr=log)
        base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{base}/api/meta", timeout=1).raise_for_status()
                    break
                except httpx.TransportError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            asyncio.run(run(args, base, ws_base, server.pid))
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()
            warnings = [line for line in log_path.read_text("utf-8", "replace").splitlines()
                        if "WARNING" in line or "ERROR" in line]
            print(f"server log: {len(warnings)} warnings or errors"
                  + "".join(f"\n  {line[:200]}" for line in warnings[:5]))


if __name__ == "__main__":
    main()
