"""Server load: many concurrent games against a bot over real sockets on loopback.

Starts ``asobiba serve`` on a free port with a fresh SQLite database in a temporary directory
(or uses ``--url``), then keeps ``--games`` games going at once for ``--seconds``: each is a new
guest who makes a room, connects its socket and plays a random legal move the moment it is their
turn; a finished game is replaced by a new one. Bounded in count and time, loopback only.

Prints: concurrent games, games finished, moves applied a second (both sides), the bot's reply
time (from our move sent to the bot's move received, p50 and p99), errors, the server's memory
(the server process and its bot workers, at the start and at the end) and whether every finished
game was stored (each guest's records list it).

    .venv/bin/python bench/load.py                  # --games 200 --seconds 30 --level beginner
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


@dataclass
class Tally:
    moves: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    stored: list[tuple[urllib.request.OpenerDirector, str]] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def memory_mib(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it (the bot workers)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo.extend(children.get(current, []))
        try:
            status = Path(f"/proc/{current}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024


def new_room(base: str, level: str) -> tuple[urllib.request.OpenerDirector, str, dict[str, Any]]:
    """A new guest (their own cookie) and their room."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    body = json.dumps({"game": "mancala", "level": level, "order": "random"}).encode()
    request = urllib.request.Request(
        f"{base}/api/rooms", data=body, headers={"content-type": "application/json"}
    )
    with opener.open(request, timeout=30) as response:
        room = json.loads(response.read())
    cookie = "; ".join(f"{c.name}={c.value}" for c in jar)
    return opener, cookie, room


async def play(base: str, level: str, until: float, rng: random.Random, tally: Tally) -> None:
    while time.monotonic() < until:
        try:
            opener, cookie, room = await asyncio.to_thread(new_room, base, level)
            ws_url = base.replace("http", "ws", 1) + room["ws"]
            async with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
                sent_at: float | None = None
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "ping":
                        await ws.send(json.dumps({"type": "pong", "id": message["id"]}))
                        continue
                    if message["type"] == "error":
                        tally.errors.append(message["code"])
                        break
                    if message["type"] == "event":
                        tally.moves += 1
                        mover = message["obs"]["last"]["seat"]
                        if mover != room["seat"] and sent_at is not None:
                            tally.replies.append(time.monotonic() - sent_at)
                            sent_at = None
                    if message["obs"]["outcome"] is not None:
                        tally.finished += 1
                        tally.stored.append((opener, room["room_id"]))
                        break
                    if message["legal"] and time.monotonic() < until:
                        sent_at = time.monotonic()
                        action = rng.choice(message["legal"])
                        await ws.send(json.dumps({"type": "act", "action": action}))
                    elif time.monotonic() >= until:
                        break
        except (OSError, TimeoutError, ValueError) as error:
            tally.errors.append(type(error).__name__)


def stored(base: str, opener: urllib.request.OpenerDirector, room_id: str) -> bool:
    with opener.open(f"{base}/api/records/mancala", timeout=30) as response:
        return room_id in {g["room_id"] for g in json.loads(response.read())["games"]}


async def run(base: str, games: int, seconds: float, level: str, seed: int) -> Tally:
    tally = Tally()
    until = time.monotonic() + seconds
    rngs = [random.Random(seed * 1_000 + i) for i in range(games)]
    await asyncio.gather(*(play(base, level, until, rng, tally) for rng in rngs))
    return tally


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "ASOBIBA_DATA_DIR": str(data), "SECRET_KEY": "bench"}
    # Every game of the load comes from one address: lift the flood limits for it. The bots act
    # as soon as they decide (no human pace), so the figures measure the server, not the pace.
    env.update({f"ASOBIBA_LIMIT_{name}": "100000" for name in ("ROOMS_BURST", "ADDRESS_BURST")})
    env["ASOBIBA_BOT_PACE"] = "0"
    env.pop("DATABASE_URL", None)
    log = (data / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "asobiba.cli", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"{base}/api/games", timeout=2):
                return server, base
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (max 500)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long (max 600)")
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server on this machine (default: start one)")
    args = parser.parse_args()
    games, seconds = min(args.games, 500), min(args.seconds, 600.0)

    with tempfile.TemporaryDirectory() as data:
        server, base = (None, args.url) if args.url else start_server(Path(data))
        try:
            memory_before = memory_mib(server.pid) if server else float("nan")
            started = time.monotonic()
            tally = asyncio.run(run(base, games, seconds, args.level, args.seed))
            elapsed = time.monotonic() - started
            memory_after = memory_mib(server.pid) if server else float("nan")
            kept = sum(stored(base, opener, room_id) for opener, room_id in tally.stored)
        finally:
            if server is not None:
                server.terminate()
                server.wait(timeout=30)

    replies = sorted(tally.replies) or [float("nan")]
    p99 = replies[min(len(replies) - 1, int(0.99 * len(replies)))]
    print(f"| measure ({games} games at once against {args.level}, {elapsed:.0f} s) | figure |")
    print("|---|---:|")
    print(f"| concurrent games | {games} |")
    print(f"| games finished | {tally.finished} |")
    print(f"| moves applied a second (both sides) | {tally.moves / elapsed:,.0f} |")
    p50 = statistics.median(replies)
    print(f"| bot reply p50 / p99 | {p50 * 1000:.0f} ms / {p99 * 1000:.0f} ms |")
    print(f"| errors | {len(tally.errors)} {sorted(set(tally.errors)) or ''} |")
    memory = f"{memory_before:.0f} / {memory_after:.0f} MiB"
    print(f"| server memory with its bot workers, idle before / after | {memory} |")
    print(f"| finished games stored | {kept} of {tally.finished} |")


if __name__ == "__main__":
    main()
