"""The server times each line with its own pings, and dates a player's action back by their
one-way delay (capped), so a slower line is not robbed in a race and a forged pong gains little."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.core.bots import Timed
from asobiba.server.app import create_app
from asobiba.server.hub import Hub
from asobiba.server.latency import MAX_ONE_WAY_SECONDS, Latency
from asobiba.server.settings import SocketLimits
from tests.server.test_rooms import make_store


def test_the_one_way_delay_is_half_the_smallest_recent_round_trip(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter([10.0, 10.5, 20.0, 20.06, 30.0, 30.2])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    latency = Latency()
    assert latency.one_way() == 0.0, "nothing is dated back before a round trip is known"
    for _ in range(3):
        latency.pong(latency.ping())
    assert latency.one_way() == pytest.approx(0.03)  # queueing only ever adds delay


def test_the_one_way_delay_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 5.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    latency = Latency()
    latency.pong(latency.ping())  # a pong held back 5 s on purpose
    assert latency.one_way() == MAX_ONE_WAY_SECONDS


def test_unknown_and_repeated_pongs_are_ignored() -> None:
    latency = Latency()
    latency.pong(99)
    ping = latency.ping()
    latency.pong(ping)
    latency.pong(ping)
    assert len(latency.round_trips) == 1


@pytest.fixture
def pinging(sqlite_url: str) -> Any:
    app = create_app(sqlite_url, secret_key="s", bot_workers=1, socket_limits=SocketLimits())
    with TestClient(app) as client:
        yield client


def test_an_action_is_dated_back_by_the_players_measured_delay(pinging: TestClient) -> None:
    room = pinging.post("/api/rooms", json={"game": "mancala", "level": "beginner"}).json()
    with pinging.websocket_connect(room["ws"]) as ws:
        assert ws.receive_json()["type"] == "sync"
        ping = ws.receive_json()
        assert ping["type"] == "ping" and isinstance(ping["id"], int)
        time.sleep(0.08)  # a slow line: an 80 ms round trip at least
        ws.send_json({"type": "pong", "id": ping["id"]})
        sent = time.time()
        ws.send_json({"type": "act", "action": {"pit": 2}})
        assert ws.receive_json()["type"] == "event"
        received = time.time()
        ws.send_json({"type": "pong", "id": "x"})
        assert ws.receive_json()["code"] == "bad_message"
    stored = pinging.app.state.hub.store.load_room(room["room_id"])  # type: ignore[attr-defined]
    [(_, _, at)] = stored.events
    assert sent - MAX_ONE_WAY_SECONDS <= at <= received - 0.04


def test_a_dated_back_action_keeps_its_time_for_the_game_to_judge(tmp_path: Path) -> None:
    """A grab that left its player before another reached the server may be dated before it;
    the room logs the time it was given and the game decides what it means."""

    async def bot(*_: Any) -> Timed:
        return Timed(None)

    async def scenario() -> None:
        hub = Hub(make_store(tmp_path), bot)
        room = await hub.create("mancala", {}, [{"player": "p"}, {"bot": "beginner"}], seed=1)
        await room.act(0, {"pit": 2})  # an extra turn: seat 0 moves again
        await room.act(0, {"pit": 0}, at=1000.0)
        stored = room.store.load_room(room.id)
        assert stored is not None
        first, second = (at for _, _, at in stored.events)
        assert second == 1000.0 < first
        await hub.close()

    asyncio.run(scenario())
