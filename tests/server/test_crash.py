"""A real server process killed with SIGKILL: its bot workers go with it, and after a restart
every game is whole (no gaps, every ended game finished and recorded once, replays unchanged)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from sqlalchemy import select
from websockets.exceptions import WebSocketException

from asobiba.games import get_game
from asobiba.server.rooms.recovery import replay
from asobiba.server.store.db import Result, RoomEvent, RoomRow, make_engine, session_factory
from asobiba.server.store.store import Store
from tests.server.servers import Guest, ServerProcess, descendants, outliving, play_to_the_end


def test_bot_workers_exit_when_the_server_is_killed(server: ServerProcess) -> None:
    guest = Guest(server.base)
    room = guest.new_room()
    with guest.socket(room["ws"]) as ws:
        ws.recv(timeout=10)
        ws.send(json.dumps({"type": "act", "action": {"pit": 0}}))
        while json.loads(ws.recv(timeout=30)).get("obs", {}).get("last", {}).get("seat") != 1:
            pass  # until the bot, in a worker process, has answered (pings aside)
    helpers = descendants(server.pid)
    assert helpers, "the bot pool started worker processes"
    server.kill()
    assert not outliving(helpers), "helper processes outlived the server"


def keep_playing(guest: Guest, stop: threading.Event, finished: list[str]) -> None:
    """Start games and play them to the end, one after another, until the server dies."""
    try:
        while not stop.is_set():
            room = guest.new_room()
            with guest.socket(room["ws"]) as ws:
                play_to_the_end(ws)
            finished.append(room["room_id"])
    except (WebSocketException, OSError, TimeoutError, AssertionError):
        return  # the server was killed under us


def test_nothing_is_lost_when_the_server_is_killed_under_load(
    server: ServerProcess, tmp_path: Path
) -> None:
    guests = [Guest(server.base) for _ in range(12)]
    finished: list[list[str]] = [[] for _ in guests]
    stop = threading.Event()
    players = [
        threading.Thread(target=keep_playing, args=(g, stop, f), daemon=True)
        for g, f in zip(guests, finished, strict=True)
    ]
    for player in players:
        player.start()
    deadline = time.monotonic() + 60
    while sum(map(len, finished)) < 12 and time.monotonic() < deadline:
        time.sleep(0.05)
    done_before = [room_id for rooms in finished for room_id in rooms]
    assert done_before, "games finished before the kill"
    replays_before = {
        room_id: guests[0].request("GET", f"/api/rooms/{room_id}/replay") for room_id in done_before
    }
    server.kill()
    stop.set()
    for player in players:
        player.join(timeout=60)

    server.start()  # the restart repairs and rebuilds
    engine = make_engine(server.database_url)
    store = Store(session_factory(engine))
    game = get_game("mancala")
    try:
        with store.sessions() as session:
            rooms = session.scalars(select(RoomRow)).all()
            results = session.scalars(select(Result)).all()
            seqs: dict[str, list[int]] = {}
            for event in session.scalars(select(RoomEvent)):
                seqs.setdefault(event.room_id, []).append(event.seq)
        assert len(rooms) >= len(done_before)
        per_room: dict[str, list[Any]] = {}
        for result in results:
            per_room.setdefault(result.room_id, []).append(result)
        ended = 0
        for row in rooms:
            assert sorted(seqs.get(row.id, [])) == list(range(1, len(seqs.get(row.id, [])) + 1))
            stored = store.load_room(row.id)
            assert stored is not None
            over = game.outcome(replay(game, stored)) is not None
            assert over == (row.finished_at is not None), row.id
            people = [s["player"] for s in row.seats if "player" in s]
            expected = sorted(people) if over else []
            assert sorted(r.player_id for r in per_room.get(row.id, [])) == expected, row.id
            ended += over
        assert ended >= len(done_before)
        for room_id, before in replays_before.items():
            assert before[0] == 200
            assert guests[0].request("GET", f"/api/rooms/{room_id}/replay") == before
    finally:
        engine.dispose()
