"""PostgreSQL or Redis briefly unreachable: a room refuses actions with a clear error and changes
nothing, then goes on once they are back; no action is lost or applied twice. Real servers: a
Redis of the test's own is stopped and started again; PostgreSQL is cut off by a relay in front
of it (``tcp_cut.py``)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.server.cluster import (
    LEASE_SECONDS,
    RedisServer,
    Site,
    events,
    own_redis,
    replayed_outcome,
    results,
)
from tests.server.servers import Guest, ServerProcess, next_message
from tests.server.tcp_cut import cuttable
from tests.server.test_cluster import play


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    with own_redis() as server:
        yield server


def refused_then_accepted(ws: ClientConnection, action: dict[str, Any], mend: Any) -> None:
    """Act while the outage lasts: refused with ``unavailable`` and nothing changes; ``mend``
    ends the outage; acting again is accepted (retried while the server finds its feet)."""
    ws.send(json.dumps({"type": "sync"}))
    before = next_view_of(ws, "sync")
    ws.send(json.dumps({"type": "act", "action": action}))
    refusal = next_message(ws)
    assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
    assert "try again" in refusal["message"]
    ws.send(json.dumps({"type": "sync"}))
    assert next_view_of(ws, "sync")["obs"] == before["obs"], "a refused action changed nothing"
    mend()
    deadline = time.monotonic() + 30
    while True:
        assert time.monotonic() < deadline, "the room did not recover"
        ws.send(json.dumps({"type": "act", "action": action}))
        answer = next_message(ws)
        if answer["type"] == "event":
            return
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        time.sleep(0.2)


def next_view_of(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message = next_message(ws)
        if message["type"] == kind:
            return message


def test_redis_restarted_mid_game(tmp_path: Path, postgres_url: str, redis_server: Any) -> None:
    """The owner's leases lapse while Redis is down: its person's action is refused, not
    written (another process might own the room by then). Redis comes back empty; the owner
    takes its leases again and the game goes on. A socket relayed through the other process
    lost its subscription: it is sent off (1012) and its page reconnects."""
    site = Site(tmp_path, postgres_url, redis_server.url)
    try:
        owner, other = site.start(2)
        guest = Guest(owner.base)
        room = guest.new_room()
        with (
            guest.socket(room["ws"]) as ws,
            guest.socket(room["ws"], base=other.base) as relayed,
        ):
            view = play(ws, moves=2)
            assert next_view_of(relayed, "sync")["obs"]["game"] == "mancala"
            redis_server.stop()
            time.sleep(LEASE_SECONDS)  # the leases' own time: past it they are not trusted
            refused_then_accepted(ws, view["legal"][0], redis_server.start)
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    next_message(relayed)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            last = play(ws)
        with guest.socket(room["ws"], base=other.base) as again:
            assert next_view_of(again, "sync")["obs"] == last["obs"]
        log = events(site.database_url, room["room_id"])
        assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
        assert replayed_outcome(site.database_url, room["room_id"]) == last["obs"]["outcome"]
        assert len(results(site.database_url, room["room_id"])) == 1
    finally:
        site.stop()


def test_postgres_unreachable_for_a_while(tmp_path: Path, postgres_url: str) -> None:
    """The database is cut off mid-game: the person's action is refused with a clear error and
    the game is unchanged; once the line is back, the same action is played once."""
    with cuttable(("127.0.0.1", 5432)) as line:
        through = postgres_url.replace("127.0.0.1:5432", f"127.0.0.1:{line.port}")
        server = ServerProcess(tmp_path, through)
        server.start()
        try:
            guest = Guest(server.base)
            room = guest.new_room()
            with guest.socket(room["ws"]) as ws:
                view = play(ws, moves=2)
                line.cut()
                refused_then_accepted(ws, view["legal"][0], line.mend)
                last = play(ws)
        finally:
            server.stop()
    log = events(postgres_url, room["room_id"])
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    mine = [action for _, seat, action in log if seat == 0]
    assert mine.count(view["legal"][0]) >= 1
    assert replayed_outcome(postgres_url, room["room_id"]) == last["obs"]["outcome"]
    assert len(results(postgres_url, room["room_id"])) == 1
