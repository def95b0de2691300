"""A rolling restart under load: does anyone notice?

Starts a site of two ``asobiba serve`` processes on a fresh PostgreSQL database (127.0.0.1:5432,
dropped afterwards) and the Redis on 127.0.0.1:6379 (keys under a prefix of its own), and keeps
``--games`` games against the computer going, each driven by a scripted person who makes a
random legal move ``--pace`` seconds (0.5 to 1.5 times it) after their turn comes, on a socket
to a process drawn at random (so about half the sockets are relayed to their room's owner); a
finished game is followed by a new one. The bots answer at once (``ASOBIBA_BOT_PACE=0``), so
what a person waits for is the site, not a bot's show of thinking.

After ``--warm`` seconds every process is restarted in turn, as a deploy does: SIGTERM, wait for
it to exit, start a new one, wait for its ``/readyz``, ``--settle`` seconds, the next. A socket
closed by the server is reconnected as the browser page does (``room-socket.js``: after 0.1 to
0.4 s for a 1012, to a process the balancer would choose: a live one, drawn at random).

Prints: games played, moves, how long each game waited for its next event (from the person's
move, or from their socket's close, to the event or sync that answers it: p50, p99 and the
longest, over all waits and over those that spanned a restart), the reconnects by close code,
the errors that reached a person, each process's stop time, and whether nothing was lost or
doubled: every room's log replays through the engine, its seqs have no gap, each finished
game's outcome is the one its person saw, every move a person saw answered is in the log and
the log holds no more of a person's moves than they sent.

    nice .venv/bin/python bench/rolling_restart.py                 # --games 200 --pace 1
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import random
import signal
import statistics
import subprocess
import tempfile
import time
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from load import fresh_database, start_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from asobiba.games import get_game

REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass
class Game:
    """One person's game as they saw it."""

    room_id: str
    seat: int
    acknowledged: int = 0
    """Their moves the server answered with an event."""
    sent: int = 0
    """Their moves sent (one sent as its socket closed may or may not have been taken: the
    sync after the reconnect shows which)."""
    outcome: dict[str, Any] | None = None


@dataclass
class Tally:
    waits: list[float] = field(default_factory=list)
    restart_waits: list[float] = field(default_factory=list)
    closes: Counter[int | None] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    games: list[Game] = field(default_factory=list)


class Site:
    """The processes serving now (the balancer's list)."""

    def __init__(self, root: Path, shared: dict[str, str]) -> None:
        self.root = root
        self.shared = shared
        self.live: list[tuple[subprocess.Popen[bytes], str]] = []
        self.started = 0

    def start(self) -> tuple[subprocess.Popen[bytes], str]:
        data = self.root / str(self.started)
        self.started += 1
        data.mkdir()
        server, base = start_server(data, self.shared)  # it answers once its start-up checks pass
        self.live.append((server, base))
        return server, base

    def pick(self, rng: random.Random) -> str:
        return rng.choice(self.live)[1]


def new_room(base: str) -> tuple[str, dict[str, Any]]:
    """A new guest (their own cookie) and their room against the beginner."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    body = json.dumps({"game": "mancala", "level": "beginner", "order": "random"}).encode()
    request = urllib.request.Request(
        f"{base}/api/rooms", data=body, headers={"content-type": "application/json"}
    )
    with opener.open(request, timeout=30) as response:
        room = json.loads(response.read())
    return "; ".join(f"{c.name}={c.value}" for c in jar), room


async def person(site: Site, rng: random.Random, pace: float, until: float, tally: Tally) -> None:
    """Play games one after another until ``until``, reconnecting as the page does."""
    await asyncio.sleep(rng.uniform(0.0, pace))  # people arrive over a move's time
    while time.monotonic() < until:
        try:
            cookie, room = await asyncio.to_thread(new_room, site.pick(rng))
        except OSError as error:
            tally.errors[f"new room: {type(error).__name__}"] += 1
            await asyncio.sleep(0.5)
            continue
        game = Game(room["room_id"], room["seat"])
        tally.games.append(game)
        await play(site, rng, pace, until, tally, game, cookie, room["ws"])


async def play(
    site: Site,
    rng: random.Random,
    pace: float,
    until: float,
    tally: Tally,
    game: Game,
    cookie: str,
    path: str,
) -> None:
    waiting: float | None = None  # since when the person waits for the site
    restarted = False  # the wait spans a close
    delay = 0.0
    while time.monotonic() < until and game.outcome is None:
        await asyncio.sleep(delay)
        url = site.pick(rng).replace("http", "ws", 1) + path
        try:
            async with connect(url, additional_headers={"Cookie": cookie}) as ws:
                async for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "ping":
                        await ws.send(json.dumps({"type": "pong", "id": message["id"]}))
                        continue
                    if kind == "error":
                        tally.errors[str(message["code"])] += 1
                        continue
                    if kind not in {"sync", "event"}:
                        continue
                    if waiting is not None:
                        waited = time.monotonic() - waiting
                        tally.waits.append(waited)
                        if restarted:
                            tally.restart_waits.append(waited)
                        waiting, restarted = None, False
                    if kind == "event":
                        tally.moves += 1
                        if message["obs"]["last"]["seat"] == game.seat:
                            game.acknowledged += 1
                    if message["obs"]["outcome"] is not None:
                        game.outcome = message["obs"]["outcome"]
                        return
                    if message["legal"] and time.monotonic() < until:
                        await asyncio.sleep(pace * rng.uniform(0.5, 1.5))
                        action = rng.choice(message["legal"])
                        await ws.send(json.dumps({"type": "act", "action": action}))
                        game.sent += 1
                        waiting = time.monotonic()
                    elif time.monotonic() >= until:
                        return
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else None
            tally.closes[code] += 1
            delay = rng.uniform(0.1, 0.4) if code == 1012 else rng.uniform(0.6, 1.0)
        except (OSError, InvalidHandshake, TimeoutError) as error:
            tally.errors[f"connect: {type(error).__name__}"] += 1
            delay = rng.uniform(0.6, 1.0)
        if waiting is None:
            waiting = time.monotonic()
        restarted = True


async def roll(site: Site, warm: float, settle: float, stops: list[float]) -> None:
    """Restart every process in turn: SIGTERM, exit, a new one, ready, ``settle`` s."""
    await asyncio.sleep(warm)
    for server, base in list(site.live):
        site.live.remove((server, base))  # the balancer sees /readyz fail, or the port closed
        started = time.monotonic()
        server.send_signal(signal.SIGTERM)
        await asyncio.to_thread(server.wait, 60)
        stops.append(time.monotonic() - started)
        await asyncio.to_thread(site.start)
        await asyncio.sleep(settle)


async def run(site: Site, args: argparse.Namespace) -> tuple[Tally, list[float], float]:
    tally = Tally()
    stops: list[float] = []
    seconds = args.warm + 2 * (args.settle + 5) + args.settle
    until = time.monotonic() + seconds
    rngs = [random.Random(args.seed * 1_000 + i) for i in range(args.games)]
    started = time.monotonic()
    people = [person(site, rng, args.pace, until, tally) for rng in rngs]
    await asyncio.gather(roll(site, args.warm, args.settle, stops), *people)
    return tally, stops, time.monotonic() - started


def replays(url: str, games: list[Game]) -> list[str]:
    """What is wrong in the logs (nothing: an empty list)."""
    problems = []
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as db:
        for game in games:
            room = db.execute(
                "SELECT game, options, seats, seed FROM rooms WHERE id = %s", (game.room_id,)
            ).fetchone()
            if room is None:
                problems.append(f"{game.room_id}: not stored")
                continue
            name, options, seats, seed = room
            rows = db.execute(
                "SELECT seq, seat, action, at FROM room_events WHERE room_id = %s ORDER BY seq",
                (game.room_id,),
            ).fetchall()
            if [row[0] for row in rows] != list(range(1, len(rows) + 1)):
                problems.append(f"{game.room_id}: a gap in its seqs")
            rules = get_game(name)
            state = rules.new_state(options, len(seats), int(seed))
            try:
                for _, seat, action, at in rows:
                    if action is None:
                        state = rules.advance(state, at)
                    else:
                        state = rules.apply(state, seat, action, at)
            except Exception as error:  # an action applied twice is illegal where it stands
                problems.append(f"{game.room_id}: does not replay ({error})")
                continue
            mine = sum(seat == game.seat for _, seat, _, _ in rows)
            if game.outcome is not None and rules.outcome(state) != game.outcome:
                problems.append(f"{game.room_id}: another outcome than its person saw")
            # Lost: a move the person saw answered is not in the log. Doubled: the log holds
            # more of their moves than they sent. (An event sent as its socket closed may never
            # reach them: the sync after the reconnect shows it, so between the two is fine.)
            if not game.acknowledged <= mine <= game.sent:
                problems.append(
                    f"{game.room_id}: {game.acknowledged} moves answered, {game.sent} sent,"
                    f" {mine} logged"
                )
    return problems


def percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{statistics.median(ordered) * 1000:.0f} / {p99 * 1000:.0f} / {ordered[-1] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (max 1000)")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds a person takes a move")
    parser.add_argument("--warm", type=float, default=15.0, help="seconds before the first stop")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds after each start")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.games <= 1000 or args.pace <= 0:
        raise SystemExit("--games 1 to 1000, --pace above 0")
    with tempfile.TemporaryDirectory() as root, fresh_database() as url:
        shared = {
            "DATABASE_URL": url,
            "REDIS_URL": REDIS_URL,
            "ASOBIBA_REDIS_PREFIX": f"bench-{uuid.uuid4().hex[:8]}",
        }
        site = Site(Path(root), shared)
        try:
            site.start()
            site.start()
            tally, stops, elapsed = asyncio.run(run(site, args))
        finally:
            for server, _ in site.live:
                server.terminate()
                server.wait(timeout=30)
        problems = replays(url, tally.games)
    finished = sum(game.outcome is not None for game in tally.games)
    print(f"{args.games} games at once against the beginner, a person's move every {args.pace:g} s")
    print("two processes on PostgreSQL and Redis, each restarted in turn (SIGTERM, a new one)")
    print()
    print("| measure | figure |")
    print("|---|---|")
    print(f"| games played (finished) | {len(tally.games)} ({finished}) in {elapsed:.0f} s |")
    print(f"| moves (both sides) | {tally.moves:,} |")
    print(f"| wait for the next event, p50 / p99 / longest | {percentiles(tally.waits)} |")
    print(f"| the same, waits across a reconnect | {percentiles(tally.restart_waits)} |")
    closes = ", ".join(f"{n} × {code}" for code, n in sorted(tally.closes.items(), key=str))
    print(f"| reconnects (sockets closed by the server) | {closes or 'none'} |")
    errors = ", ".join(f"{n} × {code}" for code, n in tally.errors.most_common())
    print(f"| errors that reached a person | {errors or 'none'} |")
    print(f"| each process's stop after SIGTERM | {', '.join(f'{s:.1f} s' for s in stops)} |")
    verdict = "nothing lost or doubled" if not problems else f"{len(problems)} problems"
    print(f"| the logs replay | {verdict} ({len(tally.games)} rooms) |")
    for problem in problems[:20]:
        print(f"  {problem}")


if __name__ == "__main__":
    main()
