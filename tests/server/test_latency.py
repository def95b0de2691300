"""The server dates a player's action back by their round trip: the kernel's TCP estimate where
it has one, else its own pings trusted only a little, so a slower line is not robbed in a race
and a held-back pong gains (almost) nothing. Over real TCP: ``test_fair_timing.py``."""

from __future__ import annotations

import asyncio
import re
import shutil
import socket
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.core.bots import Timed
from asobiba.server.app import create_app
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import SocketLimits
from asobiba.server.sockets.latency import (
    MAX_PING_ROUND_TRIP_SECONDS,
    MAX_ROUND_TRIP_SECONDS,
    Latency,
    kernel_round_trip,
    tcp_info_round_trip,
)
from tests.server.test_rooms import make_store


def test_with_pings_only_the_round_trip_is_the_smallest_recent_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = iter([10.0, 10.004, 20.0, 20.003, 30.0, 30.2])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    latency = Latency()
    assert latency.round_trip() == 0.0, "nothing is dated back before a round trip is known"
    for _ in range(3):
        latency.pong(latency.ping())
    assert latency.round_trip() == pytest.approx(0.003)  # queueing only ever adds delay


def test_a_pong_held_back_buys_at_most_the_ping_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 0.3])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    latency = Latency()
    latency.pong(latency.ping())  # a pong held back 300 ms on purpose
    assert latency.round_trip() == MAX_PING_ROUND_TRIP_SECONDS


def test_the_kernel_estimate_wins_over_pongs_and_its_smallest_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = iter([0.121, 0.135, None])  # at connect, then at each action
    clock = iter([0.0, 0.3])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    latency = Latency(lambda: next(readings))
    latency.pong(latency.ping())
    assert latency.round_trip() == 0.121, "a later, larger estimate (delayed acks) is not taken"
    assert latency.round_trip() == 0.121, "nor is a missing one"


def test_the_kernel_estimate_is_capped() -> None:
    assert Latency(lambda: 0.5).round_trip() == MAX_ROUND_TRIP_SECONDS


def test_without_a_kernel_estimate_pings_time_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([0.0, 0.002])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    latency = Latency(lambda: None)  # a socket with no sample yet, or no TCP_INFO
    latency.pong(latency.ping())
    assert latency.round_trip() == pytest.approx(0.002)


def test_unknown_and_repeated_pongs_are_ignored() -> None:
    latency = Latency()
    latency.pong(99)
    ping = latency.ping()
    latency.pong(ping)
    latency.pong(ping)
    assert len(latency.round_trips) == 1


def tcp_info(length: int, rtt: int, min_rtt: int) -> bytes:
    info = bytearray(length)
    struct.pack_into("=I", info, 68, rtt)
    if length >= 152:
        struct.pack_into("=I", info, 148, min_rtt)
    return bytes(info)


def test_tcp_info_gives_the_minimum_round_trip_or_else_the_smoothed_one() -> None:
    assert tcp_info_round_trip(tcp_info(232, 120_779, 120_451)) == 0.120451
    assert tcp_info_round_trip(tcp_info(104, 120_779, 0)) == 0.120779  # an older kernel's struct
    assert tcp_info_round_trip(tcp_info(232, 0, 0xFFFFFFFF)) is None  # no sample yet
    assert tcp_info_round_trip(tcp_info(104, 0, 0)) is None
    assert tcp_info_round_trip(b"") is None


def test_the_offsets_read_what_the_kernel_reports() -> None:
    """The same connection, read by ``ss`` (iproute2's own reading of ``struct tcp_info``)."""
    if shutil.which("ss") is None or not hasattr(socket, "TCP_INFO"):
        pytest.skip("needs Linux and ss")
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            server, _ = listener.accept()
            with server:
                server.sendall(b"x")
                client.recv(1)
                client.sendall(b"y")
                server.recv(1)
                info = server.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
                shown = subprocess.run(
                    ["ss", "-tinH", "src", f"127.0.0.1:{port}"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                assert kernel_round_trip(server) == tcp_info_round_trip(info)
    smoothed = re.search(r"(?<![\w])rtt:([\d.]+)/", shown)
    minimum = re.search(r"\bminrtt:([\d.]+)", shown)
    assert smoothed is not None and minimum is not None, shown
    assert tcp_info_round_trip(info) == pytest.approx(float(minimum[1]) / 1000, abs=1e-6)
    assert tcp_info_round_trip(info[:148]) == pytest.approx(float(smoothed[1]) / 1000, abs=1e-6)


def test_a_socket_without_tcp_info_has_no_kernel_estimate() -> None:
    left, right = socket.socketpair()
    with left, right:
        assert kernel_round_trip(left) is None


@pytest.fixture
def pinging(sqlite_url: str) -> Any:
    app = create_app(sqlite_url, secret_key="s", bot_workers=1, socket_limits=SocketLimits())
    with TestClient(app) as client:
        yield client


def test_without_a_kernel_estimate_an_action_is_dated_back_by_pings_up_to_their_cap(
    pinging: TestClient,
) -> None:
    room = pinging.post("/api/rooms", json={"game": "mancala", "level": "beginner"}).json()
    with pinging.websocket_connect(room["ws"]) as ws:
        assert ws.receive_json()["type"] == "sync"
        ping = ws.receive_json()
        assert ping["type"] == "ping" and isinstance(ping["id"], int)
        time.sleep(0.08)  # an 80 ms round trip at least: more than pongs alone are trusted
        ws.send_json({"type": "pong", "id": ping["id"]})
        sent = time.time()
        ws.send_json({"type": "act", "action": {"pit": 2}})
        assert ws.receive_json()["type"] == "event"
        received = time.time()
        ws.send_json({"type": "pong", "id": "x"})
        assert ws.receive_json()["code"] == "bad_message"
    stored = pinging.app.state.hub.store.load_room(room["room_id"])  # type: ignore[attr-defined]
    [(_, _, at)] = stored.events
    assert sent - MAX_PING_ROUND_TRIP_SECONDS <= at <= received - MAX_PING_ROUND_TRIP_SECONDS


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
        # Game time: the wall's, less the moments the room stood still writing (well under 1 s).
        assert 999.0 < second <= 1000.0 < first
        await hub.close()

    asyncio.run(scenario())
