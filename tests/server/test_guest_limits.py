"""One guest cannot flood the server: new rooms are rate-limited per guest and per address,
a guest holds a bounded number of unfinished games, and a room nobody is at stops costing CPU."""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from asobiba.server.app import create_app
from asobiba.server.settings import GuestLimits, SocketLimits
from tests.server.conftest import Start
from tests.server.servers import Guest, ServerProcess
from tests.server.tables import Guest as TableGuest
from tests.server.tables import host_table
from tests.server.test_full_game import hub_of

QUIET = SocketLimits(ping_seconds=None)


def limited(sqlite_url: str, **limits: Any) -> TestClient:
    app = create_app(
        sqlite_url,
        secret_key="test-secret",
        bot_workers=1,
        socket_limits=QUIET,
        guest_limits=GuestLimits(**limits),
    )
    return TestClient(app)


@pytest.fixture
def strict(sqlite_url: str) -> Iterator[TestClient]:
    with limited(sqlite_url, rooms_burst=3, rooms_per_minute=6, address_burst=5) as client:
        yield client


def test_a_guest_starting_rooms_too_fast_is_refused_with_retry_after(
    strict: TestClient, start: Start
) -> None:
    for _ in range(3):
        start(strict)
    refused = strict.post("/api/rooms", json={"game": "mancala", "level": "beginner"})
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_rooms"
    wait = int(refused.headers["retry-after"])
    assert 1 <= wait <= 10, "6 a minute: one more in at most 10 s"
    mine = strict.get("/api/rooms", params={"game": "mancala"}).json()["rooms"]
    assert len(mine) == 3, "the refused request made no room"


def test_fresh_cookies_do_not_escape_the_address_limit(strict: TestClient, start: Start) -> None:
    codes = []
    for _ in range(8):
        strict.cookies.clear()  # a new guest every time, from the same address
        response = strict.post("/api/rooms", json={"game": "mancala", "level": "beginner"})
        codes.append(response.status_code)
    assert codes == [201] * 5 + [429] * 3


def test_bad_numbers_of_players_are_refused_and_change_nothing(
    client: TestClient, start: Start
) -> None:
    for players in ("3", 3.0, True):
        body = {"game": "michikake", "level": "beginner", "players": players}
        response = client.post("/api/rooms", json=body)
        assert response.status_code == 400, players
        assert response.json()["error"]["code"] == "bad_request"
    assert client.get("/api/rooms", params={"game": "michikake"}).json()["rooms"] == []


def test_the_oldest_abandoned_game_ends_when_a_guest_holds_too_many(
    sqlite_url: str, start: Start
) -> None:
    with limited(sqlite_url, unfinished=3) as client:
        rooms = [start(client, options={"seeds": 3}) for _ in range(3)]
        with client.websocket_connect(rooms[0]["ws"]) as ws:  # at the oldest table: kept
            assert ws.receive_json()["legal"]
            rooms.append(start(client, options={"seeds": 3}))
            ids = [r["room_id"] for r in client.get("/api/rooms?game=mancala").json()["rooms"]]
            assert sorted(ids) == sorted(r["room_id"] for r in (rooms[0], *rooms[2:]))
        abandoned = rooms[1]
        with client.websocket_connect(abandoned["ws"]) as ws:
            sync = ws.receive_json()
            assert sync["legal"] == []
            ws.send_json({"type": "act", "action": {"pit": 0}})
            assert ws.receive_json()["code"] == "game_over"
        assert client.get(f"/api/rooms/{abandoned['room_id']}/replay").status_code == 404
        records = client.get("/api/records/mancala").json()
        assert records["rows"] == [], "an abandoned game is no result"


def test_starting_games_never_ends_a_table_shared_with_another_person(
    sqlite_url: str, start: Start
) -> None:
    """Issue 30, point 2: while nobody is connected to a table two people share, one of them
    starts more games than they may hold: their games against the computer make room, the
    table is never ended (before, it was marked abandoned, with no result for either)."""
    with limited(sqlite_url, unfinished=3, rooms_burst=20, address_burst=40) as client:
        aki, bea = TableGuest(client, "Aki"), TableGuest(client, "Bea")
        table = host_table(aki, "mancala", [{"kind": "me"}, {"kind": "open"}])
        assert bea.post(f"/api/rooms/{table['room_id']}/join", json={}).json() == {"seat": 1}
        aki._wear()
        for _ in range(5):
            start(client, options={"seeds": 3})
        aki._keep()
        with bea.socket(table["room_id"]) as ws:
            sync = ws.receive_json()
            assert sync["table"]["status"] == "playing" and sync["obs"]["outcome"] is None
        unfinished = aki.get("/api/rooms?game=mancala").json()["rooms"]
        assert table["room_id"] in [r["room_id"] for r in unfinished]
        assert len(unfinished) == 3, "the games against the computer made room"


def test_a_room_nobody_is_at_stops_its_clock_and_bots_and_leaves_memory(
    sqlite_url: str, start: Start
) -> None:
    """MICHIKAKE against bots: its claim windows and bots play on only while a person is there."""
    with limited(sqlite_url, pause_seconds=0.2) as client:
        room = start(client, game="michikake", players=3)
        with client.websocket_connect(room["ws"]) as ws:
            assert ws.receive_json()["type"] == "sync"
        hub = hub_of(client)
        live = client.portal.call(hub.get, room["room_id"])  # type: ignore[union-attr]
        assert live is not None
        deadline = time.monotonic() + 10
        while live.clock.running and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not live.clock.running
        seq = live.seq
        time.sleep(0.5)
        assert live.seq == seq, "nothing is played while nobody is there"
        assert live.idle
        client.portal.call(hub.sweep)  # type: ignore[union-attr]
        assert room["room_id"] not in hub, "a paused room costs no memory either"
        with client.websocket_connect(room["ws"]) as ws:
            back = ws.receive_json()
            assert back["type"] == "sync" and back["obs"]["ply"] >= 0


def test_sockets_are_bounded_per_seat_and_per_room(sqlite_url: str, start: Start) -> None:
    with limited(sqlite_url, sockets_per_seat=2, sockets_per_room=3) as client:
        room = start(client)
        with ExitStack() as stack:
            for _ in range(2):
                ws = stack.enter_context(client.websocket_connect(room["ws"]))
                assert ws.receive_json()["type"] == "sync"
            with client.websocket_connect(room["ws"]) as third:
                assert third.receive_json()["code"] == "too_many_sockets"
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == 4409
            spectator = TestClient(client.app)  # another guest: no seat
            watching = stack.enter_context(spectator.websocket_connect(room["ws"]))
            assert watching.receive_json()["seat"] is None
            with spectator.websocket_connect(room["ws"]) as crowd:
                assert crowd.receive_json()["code"] == "too_many_sockets"
        with ExitStack() as stack:  # spectators fill the room: its player still gets in
            for _ in range(3):
                ws = stack.enter_context(spectator.websocket_connect(room["ws"]))
                assert ws.receive_json()["seat"] is None
            with client.websocket_connect(room["ws"]) as player:
                assert player.receive_json()["seat"] == 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def events(data: Path) -> int:
    """How many events the live server's database holds."""
    with sqlite3.connect(data / "live.sqlite3") as db:
        return int(db.execute("SELECT count(*) FROM room_events").fetchone()[0])


def test_on_a_real_server_a_flood_is_refused_and_left_tables_cost_no_cpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``asobiba serve`` itself: guests start Mokochaka and MICHIKAKE tables against bots, look
    in and leave; once the pause has passed nothing is played and the server spends next to no
    CPU (with the pause at 100 s instead, these tables played 6 moves in the same 3 s); one
    guest that keeps starting games is refused with 429."""
    monkeypatch.setenv("ASOBIBA_LIMIT_PAUSE_SECONDS", "0.5")
    monkeypatch.setenv("ASOBIBA_BOT_PACE", "1")
    server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}")
    server.start()
    try:
        for _ in range(4):
            guest = Guest(server.base)
            for body in (
                {"game": "mokochaka", "level": "expert", "players": 6},
                {"game": "michikake", "level": "expert", "players": 4},
            ):
                status, room = guest.request("POST", "/api/rooms", body)
                assert status == 201, room
                with guest.socket(room["ws"]) as ws:
                    assert json.loads(ws.recv(timeout=10))["type"] == "sync"
        time.sleep(1.5)  # the pause (0.5 s) and any move already under way
        before, logged = cpu_seconds(server.pid), events(tmp_path)
        time.sleep(3.0)
        spent, played = cpu_seconds(server.pid) - before, events(tmp_path) - logged
        assert played == 0, f"{played} moves played with nobody at any table"
        assert spent < 0.3, f"{spent:.2f} CPU seconds in 3 s with nobody at any table"

        flooder = Guest(server.base)
        statuses = []
        for _ in range(12):
            status, answer = flooder.request(
                "POST", "/api/rooms", {"game": "mancala", "level": "beginner"}
            )
            statuses.append(status)
        assert statuses == [201] * 10 + [429] * 2
        assert answer["error"]["code"] == "too_many_rooms"
    finally:
        server.stop()
