"""Server load: many concurrent games against a bot over real sockets on loopback.

Starts ``asobiba serve`` on a free port with a fresh SQLite database in a temporary directory
(or uses ``--url``), then keeps ``--games`` games going at once for ``--seconds``: each is a new
guest who makes a room, connects its socket and plays a random legal move the moment it is their
turn (``--pace S``: S seconds after it, as a person would, and the games then start at random
moments over the first S seconds); a finished game is replaced by a new one. Bounded in count
and time, loopback only.

``--processes N`` measures a site of 1, then 2, ... N processes on one PostgreSQL database (a
fresh one on 127.0.0.1:5432, dropped afterwards) and the Redis on 127.0.0.1:6379 (keys under a
prefix of its own), one row each: every game makes its room on a process drawn at random and
connects its socket to another draw, as a load balancer without sticky sessions would, so about
half the sockets are relayed to their room's owner.

Prints: concurrent games, games finished, moves applied a second (both sides), the bot's reply
time (from our move sent to the bot's move received, p50 and p99: over the whole run, and over
the moves made once every game had connected, so a thousand people arriving within a pace are
seen apart from the site they then play on), errors, the CPU the server
process, its bot workers and this client used (in cores: 1.0 is one core busy all the time;
the client plays every game in one process, so at 1.0 it, not the server, sets the pace), the
server's memory (the server process and its bot workers, at the start and at the end) and
whether every finished game was stored (each guest's records list it).

``--profile DIR`` samples the server process with py-spy (``--py-spy``: its path) while the
games run, only the thread holding the GIL (``--gil``: Python's CPU work, whichever thread does
it; C code that releases the GIL, such as SQLite's commit, does not show), keeps its raw stacks
in DIR and prints the top frames by self and cumulative time.

    .venv/bin/python bench/load.py                  # --games 200 --seconds 30 --level beginner
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from websockets.asyncio.client import connect


@dataclass
class Tally:
    games: int
    moves: int = 0
    finished: int = 0
    errors: list[str] = field(default_factory=list)
    replies: list[tuple[float, float]] = field(default_factory=list)
    """(when our move was sent, how long the bot's reply took)"""
    stored: list[tuple[urllib.request.OpenerDirector, str]] = field(default_factory=list)
    arrived: int = 0
    """Games whose first socket has connected."""
    all_arrived_at: float = math.inf

    def arrive(self) -> None:
        self.arrived += 1
        if self.arrived == self.games:
            self.all_arrived_at = time.monotonic()

    def reply_times(self, since: float = -math.inf) -> list[float]:
        return [took for sent, took in self.replies if sent >= since]


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


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (the bot workers, the forkserver)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def cpu_seconds(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) used so far by ``pid`` itself and by the processes below it."""
    tick = os.sysconf("SC_CLK_TCK")
    own = below = 0.0
    for current in descendants(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used = (int(fields[11]) + int(fields[12])) / tick
        if current == pid:
            own += used
        else:
            below += used
    return own, below


WAITING = ("select (selectors.py)", "wait (threading.py)", "_worker (concurrent/futures/thread.py)")
"""Leaf frames of a thread that waits (for sockets, for work): py-spy counts some as working."""


OUTER = (
    "(asobiba/cli.py)",
    "(asobiba/server/main.py)",
    "(asobiba/server/http/middleware.py)",
    "Identify.__call__ (asobiba/server/http/identity.py)",
)
"""asobiba's frames that every request or socket runs under: left out of the cumulative table."""


def library(frame: str) -> str:
    """The package a py-spy frame's file belongs to: ``f (sqlalchemy/engine/base.py)`` is
    sqlalchemy's."""
    where = frame.rpartition(" (")[2].rstrip(")")
    top = where.split("/", 1)[0]
    return top.removesuffix(".py") if "/" in where or where.endswith(".py") else "other"


def profile_top(raw: Path, rate: int, lines: int = 15) -> str:
    """The top frames of py-spy's raw stacks as markdown tables: self time per package, self
    time per frame, and cumulative time of asobiba's own functions. Seconds of samples, and their
    share of the samples in which a thread held the GIL (waiting for sockets or work left out)."""
    own: dict[str, int] = {}
    total: dict[str, int] = {}
    packages: dict[str, int] = {}
    threads: dict[str, int] = {}
    samples = 0
    for line in raw.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = stack.split(";")
        calls = frames[1:]
        if not calls or calls[-1].endswith(WAITING):
            continue
        thread = "main thread (event loop)" if "MainThread" in frames[0] else "other threads"
        threads[thread] = threads.get(thread, 0) + count
        samples += count
        own[calls[-1]] = own.get(calls[-1], 0) + count
        package = library(calls[-1])
        packages[package] = packages.get(package, 0) + count
        for frame in set(calls):
            if library(frame) == "asobiba" and not frame.endswith(OUTER):
                total[frame] = total.get(frame, 0) + count
    out = [f"{samples} samples at {rate} Hz in which a thread held the GIL: "]
    out[0] += ", ".join(f"{name} {n / rate:.1f} s" for name, n in sorted(threads.items()))
    tables = (("self, per package", packages), ("self", own), ("cumulative, asobiba's", total))
    for title, counts in tables:
        what = "package" if counts is packages else "frame"
        out += ["", f"| {title} s | % | {what} |", "|---:|---:|---|"]
        for frame, n in sorted(counts.items(), key=lambda item: -item[1])[:lines]:
            out.append(f"| {n / rate:.1f} | {100 * n / samples:.1f} | `{frame}` |")
    return "\n".join(out)


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


async def play(
    bases: list[str], level: str, until: float, rng: random.Random, tally: Tally, pace: float
) -> None:
    if pace:  # people arrive over the first move's time, not all in one millisecond
        await asyncio.sleep(rng.uniform(0.0, pace))
    first = True
    while time.monotonic() < until:
        try:
            base = rng.choice(bases)
            opener, cookie, room = await asyncio.to_thread(new_room, base, level)
            ws_url = rng.choice(bases).replace("http", "ws", 1) + room["ws"]
            async with connect(ws_url, additional_headers={"Cookie": cookie}) as ws:
                if first:
                    tally.arrive()
                    first = False
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
                            tally.replies.append((sent_at, time.monotonic() - sent_at))
                            sent_at = None
                    if message["obs"]["outcome"] is not None:
                        tally.finished += 1
                        tally.stored.append((opener, room["room_id"]))
                        break
                    if message["legal"] and time.monotonic() < until:
                        if pace:
                            await asyncio.sleep(pace * rng.uniform(0.5, 1.5))
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


async def run(
    bases: list[str], games: int, seconds: float, level: str, seed: int, pace: float
) -> Tally:
    tally = Tally(games)
    until = time.monotonic() + seconds
    rngs = [random.Random(seed * 1_000 + i) for i in range(games)]
    await asyncio.gather(*(play(bases, level, until, rng, tally, pace) for rng in rngs))
    return tally


def start_server(
    data: Path, shared: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """``asobiba serve`` with its data in ``data``; ``shared``: the environment of a site of
    several processes (``DATABASE_URL``, ``REDIS_URL``, ...), else its own SQLite file."""
    port = free_port()
    env = {**os.environ, "ASOBIBA_DATA_DIR": str(data), "SECRET_KEY": "bench"}
    # Every game of the load comes from one address: lift the flood limits for it. The bots act
    # as soon as they decide (no human pace), so the figures measure the server, not the pace.
    env.update({f"ASOBIBA_LIMIT_{name}": "100000" for name in ("ROOMS_BURST", "ADDRESS_BURST")})
    env["ASOBIBA_BOT_PACE"] = "0"
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    env.update(shared or {})
    log = (data / "server.log").open("ab")
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
    parser.add_argument("--games", type=int, default=200, help="concurrent games (max 2000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long (max 600)")
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server on this machine (default: start one)")
    parser.add_argument("--profile", type=Path, help="sample the server with py-spy into DIR")
    parser.add_argument("--py-spy", default="py-spy", help="py-spy's path (with --profile)")
    parser.add_argument("--rate", type=int, default=100, help="py-spy samples a second")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds a person takes a move")
    parser.add_argument(
        "--processes", type=int, default=0, help="sites of 1..N processes on PostgreSQL and Redis"
    )
    args = parser.parse_args()
    games, seconds = min(args.games, 2000), min(args.seconds, 600.0)
    if args.processes:
        grow(args, games, seconds)
        return

    with tempfile.TemporaryDirectory() as data:
        server, base = (None, args.url) if args.url else start_server(Path(data))
        spy = None
        try:
            memory_before = memory_mib(server.pid) if server else float("nan")
            cpu_before = cpu_seconds(server.pid) if server else (float("nan"),) * 2
            if args.profile is not None and server is not None:
                args.profile.mkdir(parents=True, exist_ok=True)
                record = [args.py_spy, "record", "--pid", str(server.pid), "--rate", str(args.rate)]
                record += ["--format", "raw", "--nolineno", "--threads", "--gil"]
                record += ["--duration", str(int(seconds)), "-o", str(args.profile / "raw.txt")]
                spy = subprocess.Popen(
                    record,
                    stdout=subprocess.DEVNULL,
                    stderr=(args.profile / "py-spy.log").open("wb"),
                )
            started, client_before = time.monotonic(), time.process_time()
            tally = asyncio.run(run([base], games, seconds, args.level, args.seed, args.pace))
            elapsed, client = time.monotonic() - started, time.process_time() - client_before
            cpu_after = cpu_seconds(server.pid) if server else (float("nan"),) * 2
            memory_after = memory_mib(server.pid) if server else float("nan")
            kept = sum(stored(base, opener, room_id) for opener, room_id in tally.stored)
            if spy is not None:
                spy.wait(timeout=60)
        finally:
            if spy is not None and spy.poll() is None:
                spy.terminate()
            if server is not None:
                server.terminate()
                server.wait(timeout=30)

    pace = f", a person's move every {args.pace:g} s" if args.pace else ""
    print(
        f"| measure ({games} games at once against {args.level}{pace}, {elapsed:.0f} s) | figure |"
    )
    print("|---|---:|")
    print(f"| concurrent games | {games} |")
    print(f"| games finished | {tally.finished} |")
    print(f"| moves applied a second (both sides) | {tally.moves / elapsed:,.0f} |")
    p50, p99 = percentiles(tally.reply_times())
    print(f"| bot reply p50 / p99 | {p50 * 1000:.0f} ms / {p99 * 1000:.0f} ms |")
    p50, p99 = percentiles(tally.reply_times(since=tally.all_arrived_at))
    arrival = tally.all_arrived_at - started
    print(
        f"| bot reply p50 / p99 once every game had started ({arrival:.1f} s in) "
        f"| {p50 * 1000:.0f} ms / {p99 * 1000:.0f} ms |"
    )
    print(f"| errors | {len(tally.errors)} {sorted(set(tally.errors)) or ''} |")
    own, below = (after - before for after, before in zip(cpu_after, cpu_before, strict=True))
    cores = f"{own / elapsed:.2f} / {below / elapsed:.2f} / {client / elapsed:.2f}"
    print(f"| CPU in cores: the server process / its bot workers / this client | {cores} |")
    per_move = 1000 * own / max(1, tally.moves)
    print(f"| the server process's CPU per move (its bot workers apart) | {per_move:.2f} ms |")
    memory = f"{memory_before:.0f} / {memory_after:.0f} MiB"
    print(f"| server memory with its bot workers, idle before / after | {memory} |")
    print(f"| finished games stored | {kept} of {tally.finished} |")
    if args.profile is not None and (args.profile / "raw.txt").exists():
        print()
        print(profile_top(args.profile / "raw.txt", args.rate))


def percentiles(values: list[float]) -> tuple[float, float]:
    """The median and the 99th percentile (nan for no values)."""
    ordered = sorted(values) or [float("nan")]
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"


def grow(args: argparse.Namespace, games: int, seconds: float) -> None:
    """One row per site of 1..``args.processes`` processes on a fresh PostgreSQL database."""
    pace = f", a person's move every {args.pace:g} s" if args.pace else ""
    print(f"{games} games at once against {args.level}{pace}, {seconds:.0f} s a row")
    print()
    print(
        "| processes | moves a second | bot reply p50 / p99 "
        "| CPU of the servers and their bot workers (cores) | errors | stored |"
    )
    print("|---:|---:|---|---:|---:|---|")
    for count in range(1, args.processes + 1):
        with tempfile.TemporaryDirectory() as data, fresh_database() as url:
            shared = {
                "DATABASE_URL": url,
                "REDIS_URL": REDIS_URL,
                "ASOBIBA_REDIS_PREFIX": f"bench-{uuid.uuid4().hex[:8]}",
            }
            servers = []
            try:
                for k in range(count):
                    (Path(data) / str(k)).mkdir()
                    servers.append(start_server(Path(data) / str(k), shared))
                bases = [base for _, base in servers]
                before = [sum(cpu_seconds(server.pid)) for server, _ in servers]
                started = time.monotonic()
                tally = asyncio.run(run(bases, games, seconds, args.level, args.seed, args.pace))
                elapsed = time.monotonic() - started
                used = sum(sum(cpu_seconds(server.pid)) for server, _ in servers) - sum(before)
                kept = sum(stored(bases[0], opener, room_id) for opener, room_id in tally.stored)
            finally:
                for server, _ in servers:
                    server.terminate()
                    server.wait(timeout=30)
        p50, p99 = percentiles(tally.reply_times())
        print(
            f"| {count} | {tally.moves / elapsed:,.0f} | {p50 * 1000:.0f} ms / {p99 * 1000:.0f} ms"
            f" | {used / elapsed:.2f} | {len(tally.errors)} | {kept} of {tally.finished} |",
            flush=True,
        )


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new database on the machine's PostgreSQL, dropped afterwards."""
    name = f"asobiba_bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
