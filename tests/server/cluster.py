"""A site of several real ``asobiba serve`` processes on one PostgreSQL database and one Redis,
and what the tests read back from both."""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from asobiba.games import get_game
from tests.server.servers import Guest, ServerProcess, free_port, next_message

REDIS_URL = "redis://127.0.0.1:6379/0"
LEASE_SECONDS = 1.5
"""Short leases, so a killed owner's rooms are free again soon."""


class Site:
    """``asobiba serve`` processes sharing ``database_url`` and ``redis_url``."""

    def __init__(
        self,
        root: Path,
        database_url: str,
        redis_url: str = REDIS_URL,
        env: dict[str, str] | None = None,
    ) -> None:
        """``env``: more settings for every process."""
        self.root = root
        self.env = env or {}
        self.database_url = database_url
        self.redis_url = redis_url
        self.prefix = f"asobiba-test-{uuid.uuid4().hex[:10]}"
        self.processes: list[ServerProcess] = []

    def start(self, count: int) -> list[ServerProcess]:
        return [self.add() for _ in range(count)]

    def add(self) -> ServerProcess:
        data = self.root / f"process-{len(self.processes)}"
        data.mkdir()
        env = {
            "REDIS_URL": self.redis_url,
            "ASOBIBA_REDIS_PREFIX": self.prefix,
            "ASOBIBA_LEASE_SECONDS": str(LEASE_SECONDS),
            "ASOBIBA_BOT_PACE": "0",
            **self.env,
        }
        process = ServerProcess(data, self.database_url, env)
        process.start()
        self.processes.append(process)
        return process

    def stop(self) -> None:
        for process in self.processes:
            process.stop()

    def logs(self) -> str:
        return "\n".join(process.log() for process in self.processes)

    def forget(self) -> None:
        """Delete the site's keys from the shared Redis (after its processes stopped)."""
        with redis.Redis.from_url(self.redis_url) as client:
            keys = list(client.scan_iter(f"{self.prefix}:*"))
            if keys:
                client.delete(*keys)


def pg_url(database_url: str) -> str:
    return database_url.replace("postgresql+psycopg://", "postgresql://")


def events(database_url: str, room_id: str) -> list[tuple[int, int | None, Any]]:
    """The room's log: ``(seq, seat, action)`` in seq order."""
    with psycopg.connect(pg_url(database_url)) as db:
        rows = db.execute(
            "SELECT seq, seat, action FROM room_events WHERE room_id = %s ORDER BY seq", (room_id,)
        ).fetchall()
    return [(seq, seat, action) for seq, seat, action in rows]


def results(database_url: str, room_id: str) -> list[str]:
    """The player ids of the room's results, one row per person."""
    with psycopg.connect(pg_url(database_url)) as db:
        rows = db.execute("SELECT player_id FROM results WHERE room_id = %s", (room_id,)).fetchall()
    return [player for (player,) in rows]


def finished(database_url: str, room_id: str) -> bool:
    with psycopg.connect(pg_url(database_url)) as db:
        row = db.execute("SELECT finished_at FROM rooms WHERE id = %s", (room_id,)).fetchone()
    return row is not None and row[0] is not None


def replayed_outcome(database_url: str, room_id: str) -> dict[str, Any] | None:
    """The outcome of the room's game replayed from its log through the engine: every stored
    action must be legal where it stands, so an action applied twice or a forked log fails."""
    with psycopg.connect(pg_url(database_url)) as db:
        room = db.execute(
            "SELECT game, options, seats, seed FROM rooms WHERE id = %s", (room_id,)
        ).fetchone()
        assert room is not None, f"no room {room_id}"
        game_name, options, seats, seed = room
        rows = db.execute(
            "SELECT seat, action, at FROM room_events WHERE room_id = %s ORDER BY seq", (room_id,)
        ).fetchall()
    game = get_game(game_name)
    state = game.new_state(options, len(seats), int(seed))
    for seat, action, at in rows:
        state = game.advance(state, at) if action is None else game.apply(state, seat, action, at)
    outcome: dict[str, Any] | None = game.outcome(state)
    return outcome


class Unavailable(AssertionError):
    """The server answered ``unavailable`` (an action the room's dead owner never took: its
    socket is closed next, and the page reconnects)."""


def next_view(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    """The next sync or event (errors raise; ``unavailable`` raises ``Unavailable``)."""
    while True:
        message = next_message(ws, timeout)
        if message["type"] == "error":
            raise (Unavailable if message["code"] == "unavailable" else AssertionError)(message)
        if message["type"] in {"sync", "event"}:
            return message


def close_code(ws: ClientConnection, timeout: float = 30.0) -> int | None:
    """Read until the server closes the socket; its close code."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            next_message(ws, deadline - time.monotonic())
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None
    raise AssertionError("the socket stayed open")


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    """Views until one offers this seat a move (or the game is over)."""
    while True:
        view = next_view(ws)
        if view["legal"] or view["obs"]["outcome"] is not None:
            return view


@contextmanager
def own_redis() -> Iterator[RedisServer]:
    """A Redis server of the test's own (to stop and start again), on a free port."""
    server = RedisServer(free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


class RedisServer:
    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            done = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, check=False
            )
            if done.stdout.strip() == b"PONG":
                return
            time.sleep(0.1)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


def guest_on(process: ServerProcess) -> Guest:
    return Guest(process.base)
