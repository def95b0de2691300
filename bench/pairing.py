"""Play someone now under arrivals: how long people wait and how close in rating their pairs are.

Starts a site of ``--processes`` (2) ``asobiba serve`` processes on a fresh PostgreSQL database
(127.0.0.1:5432, dropped afterwards) and the machine's Redis (keys under a prefix of their own),
with ``ASOBIBA_DEV_RATINGS=1`` so each simulated person brings a rating. People arrive at random
(a Poisson process) at ``--rate`` a minute for ``--seconds``, with ratings drawn from a normal
distribution (``--mean``, ``--spread``); each posts a seek for default Kalah (or one of
``--pools`` rule sets, drawn at random) to a process drawn at random, watches it on a socket to
another draw (as a load balancer without sticky sessions would), and waits until paired or until
``--patience`` seconds have passed, then stops looking. Nobody takes the computers' offer.

Prints: arrivals, people paired, people who gave up, the wait of those paired (p50, p95, max),
the rating gap of the pairs made (p50, p95, max, and the share within 100 and 200 points), the
tables each process made and the CPU the server processes used. Bounded in count and time,
loopback only.

    .venv/bin/python bench/pairing.py                  # --rate 300 --seconds 120 --processes 2
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import random
import statistics
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from load import cpu_seconds, fresh_database, start_server
from websockets.asyncio.client import connect

REDIS_URL = "redis://127.0.0.1:6379/0"
SEEDS = (4, 3, 5, 6)
"""Default Kalah's stones per pit first: ``--pools N`` spreads people over the first N."""


@dataclass
class Person:
    rating: int
    arrived: float
    waited: float | None = None
    room: str | None = None
    error: str | None = None


@dataclass
class Run:
    people: list[Person] = field(default_factory=list)


def post_seek(base: str, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The seek's answer and the guest's cookie header."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    request = urllib.request.Request(
        f"{base}/api/pairing",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"content-type": "application/json"},
    )
    with opener.open(request, timeout=30) as response:
        answer = json.loads(response.read())
    return answer, "; ".join(f"{c.name}={c.value}" for c in jar)


async def seeker(
    person: Person, bases: list[str], rng: random.Random, pools: int, patience: float
) -> None:
    body: dict[str, Any] = {
        "game": "mancala",
        "options": {"seeds": rng.choice(SEEDS[:pools])},
        "rating": person.rating,
    }
    seek_base, watch_base = rng.choice(bases), rng.choice(bases)
    try:
        answer, cookie = await asyncio.to_thread(post_seek, seek_base, body)
        url = watch_base.replace("http", "ws", 1) + answer["ws"]
        async with connect(url, additional_headers={"Cookie": cookie}, proxy=None) as ws:
            deadline = person.arrived + patience
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    await ws.send(json.dumps({"type": "cancel"}))
                    return
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), left))
                except TimeoutError:
                    continue
                if message["type"] == "paired":
                    person.waited = time.monotonic() - person.arrived
                    person.room = message["room_id"]
                    return
                if message["type"] in {"ended", "error"}:
                    person.error = str(message)
                    return
    except Exception as error:  # counted and printed: a bench reports, it does not stop
        person.error = f"{type(error).__name__}: {error}"


async def arrivals(bases: list[str], args: argparse.Namespace, rng: random.Random) -> Run:
    run = Run()
    tasks = []
    started = time.monotonic()
    moment = 0.0
    while True:
        moment += rng.expovariate(args.rate / 60.0)
        if moment >= args.seconds:
            break
        await asyncio.sleep(max(0.0, started + moment - time.monotonic()))
        rating = round(min(3000.0, max(100.0, rng.gauss(args.mean, args.spread))))
        person = Person(rating, time.monotonic())
        run.people.append(person)
        tasks.append(asyncio.create_task(seeker(person, bases, rng, args.pools, args.patience)))
    await asyncio.gather(*tasks)
    return run


def percentile(values: Sequence[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(run: Run, made: list[int], cpu: float, elapsed: float, seconds: float) -> None:
    """``elapsed``: the whole run (the last arrivals' waits too); ``seconds``: the arrivals'."""
    people = run.people
    paired = [p for p in people if p.room is not None]
    gave_up = [p for p in people if p.room is None and p.error is None]
    errors = [p for p in people if p.error is not None]
    waits = [p.waited for p in paired if p.waited is not None]
    rooms: dict[str, list[int]] = {}
    for p in paired:
        assert p.room is not None
        rooms.setdefault(p.room, []).append(p.rating)
    gaps = [max(r) - min(r) for r in rooms.values() if len(r) == 2]
    print(f"arrivals: {len(people)} ({len(people) / seconds * 60:.0f} a minute)")
    tables = f"{len(paired)} in {len(rooms)} tables"
    print(f"paired: {tables}; gave up: {len(gave_up)}; errors: {len(errors)}")
    for p in errors[:5]:
        print(f"  error: {p.error}")
    print(
        f"wait of those paired: p50 {statistics.median(waits):.1f} s, "
        f"p95 {percentile(waits, 0.95):.1f} s, max {max(waits):.1f} s"
    )
    print(
        f"rating gap of pairs: p50 {statistics.median(gaps):.0f}, "
        f"p95 {percentile(gaps, 0.95):.0f}, "
        f"max {max(gaps)}; within 100: {sum(g <= 100 for g in gaps) / len(gaps):.1%}, "
        f"within 200: {sum(g <= 200 for g in gaps) / len(gaps):.1%}"
    )
    print(f"tables made by each process: {made}")
    print(f"CPU of the server processes: {cpu / elapsed:.2f} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=300.0, help="arrivals a minute (max 3000)")
    parser.add_argument("--seconds", type=float, default=120.0, help="arrivals for (max 600)")
    parser.add_argument("--processes", type=int, default=2, help="server processes (max 4)")
    parser.add_argument("--mean", type=float, default=1500.0, help="mean rating")
    parser.add_argument("--spread", type=float, default=350.0, help="ratings' standard deviation")
    parser.add_argument("--pools", type=int, default=1, help="rule sets the people choose from")
    parser.add_argument("--patience", type=float, default=90.0, help="seconds before giving up")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    args.rate = min(args.rate, 3000.0)
    args.seconds = min(args.seconds, 600.0)
    args.processes = max(1, min(args.processes, 4))
    args.pools = max(1, min(args.pools, len(SEEDS)))
    rng = random.Random(args.seed)
    print(
        f"{args.rate:g} people a minute for {args.seconds:g} s, ratings N({args.mean:g}, "
        f"{args.spread:g}), {args.pools} rule set(s), {args.processes} processes, "
        f"patience {args.patience:g} s"
    )
    with tempfile.TemporaryDirectory() as data, fresh_database() as url:
        shared = {
            "DATABASE_URL": url,
            "REDIS_URL": REDIS_URL,
            "ASOBIBA_REDIS_PREFIX": f"bench-{uuid.uuid4().hex[:8]}",
            "ASOBIBA_DEV_RATINGS": "1",
            # Every simulated person comes from this machine's one address.
            "ASOBIBA_LIMIT_COMMANDS_ADDRESS_BURST": "100000",
            "ASOBIBA_LIMIT_COMMANDS_ADDRESS_PER_MINUTE": "100000",
            "ASOBIBA_LIMIT_PAIRING_SOCKETS_PER_ADDRESS": "100000",
        }
        servers = []
        try:
            for k in range(args.processes):
                (Path(data) / str(k)).mkdir()
                servers.append(start_server(Path(data) / str(k), shared))
            bases = [base for _, base in servers]
            before = sum(sum(cpu_seconds(server.pid)) for server, _ in servers)
            started = time.monotonic()
            run = asyncio.run(arrivals(bases, args, rng))
            elapsed = time.monotonic() - started
            cpu = sum(sum(cpu_seconds(server.pid)) for server, _ in servers) - before
        finally:
            for server, _ in servers:
                server.terminate()
                server.wait(timeout=30)
        made = [
            (Path(data) / str(k) / "server.log").read_text().count("pairing: a table of")
            for k in range(args.processes)
        ]
    report(run, made, cpu, elapsed, args.seconds)


if __name__ == "__main__":
    main()
