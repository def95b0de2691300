"""A game between people that nobody is at leaves the lobby's "being played" (issue 31, point
10): once every seated person's socket has closed, the game pauses (its clock and stand-ins
stop) and the table leaves the list for every lobby watcher; a person coming back resumes it
and lists it again. Spectators do not count. One process over real sockets here (SQLite); two
processes on PostgreSQL and Redis in ``test_cluster.py``."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.social.tables import TableSettings, new_code
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.servers import Guest, next_message, thread_server
from tests.server.test_room_clock import never
from tests.server.test_rooms import Watcher

PAUSE = 0.3
"""The pause after the last person left (``GuestLimits.pause_seconds``; 10 s on a real site)."""


@contextmanager
def live(sqlite_url: str) -> Iterator[str]:
    app = create_app(
        sqlite_url,
        secret_key="s",
        bot_workers=1,
        socket_limits=SocketLimits(ping_seconds=None),
        guest_limits=GuestLimits(pause_seconds=PAUSE),
    )
    with thread_server(app) as base:
        yield base


def lobby_until(
    ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool], timeout: float = 30.0
) -> dict[str, Any]:
    """Lobby lists until one is ``wanted`` (a server that never sends it fails the test)."""
    while True:
        message = next_message(ws, timeout)
        assert message["type"] == "lobby", message
        if wanted(message):
            return message


def playing(message: dict[str, Any]) -> list[str]:
    return [t["room_id"] for t in message["playing"]]


def listed(message: dict[str, Any]) -> list[str]:
    return playing(message) + [t["room_id"] for t in message["waiting"]]


def sync_of(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = next_message(ws, 30)
        assert message["type"] != "error", message
        if message["type"] == "sync":
            return message


def table_of_two(base: str) -> tuple[Guest, Guest, dict[str, Any]]:
    """Aki's public Mancala table, Bea in its other seat: started."""
    aki, bea = Guest(base), Guest(base)
    assert aki.request("PUT", "/api/me", {"name": "Aki"})[0] == 200
    seats = [{"kind": "me"}, {"kind": "open"}]
    body = {"game": "mancala", "options": {}, "seats": seats, "public": True}
    status, table = aki.request("POST", "/api/rooms", body)
    assert status == 201, table
    status, joined = bea.request("POST", f"/api/rooms/{table['room_id']}/join", {"name": "Bea"})
    assert (status, joined) == (200, {"seat": 1})
    return aki, bea, table


def test_a_game_nobody_is_at_leaves_the_lobby_and_comes_back_with_a_person(
    sqlite_url: str,
) -> None:
    with live(sqlite_url) as base:
        aki, bea, table = table_of_two(base)
        room = table["room_id"]
        watcher = Guest(base)
        with watcher.socket("/ws/lobby") as lobby, watcher.socket(table["ws"]) as spectator:
            assert sync_of(spectator)["seat"] is None
            with aki.socket(table["ws"]) as aki_ws, bea.socket(table["ws"]) as bea_ws:
                sync_of(aki_ws)
                left = sync_of(bea_ws)
                lobby_until(lobby, lambda m: room in playing(m))
            # Both people's pages closed; the spectator's socket stays open.
            gone = lobby_until(lobby, lambda m: room not in listed(m))
            assert gone["playing"] == [] and gone["waiting"] == []
            assert room not in listed(watcher.request("GET", "/api/tables")[1])

            # The game stood still meanwhile: no stand-in played for anybody.
            with bea.socket(table["ws"]) as bea_ws:
                back = sync_of(bea_ws)
                assert back["obs"] == left["obs"]
                assert all(p["standin"] is None for p in back["players"])
                lobby_until(lobby, lambda m: room in playing(m))
                assert room in playing(watcher.request("GET", "/api/tables")[1])
            lobby_until(lobby, lambda m: room not in listed(m))


def test_a_game_its_process_died_at_is_taken_off_the_lobby_by_the_sweep(tmp_path: Path) -> None:
    """A process killed while people played leaves their game stored as attended (nothing
    could store the pause): the next process lists it from the store, and its sweep, finding
    nobody at it (no process holds it), stores it paused and takes it off; a game someone is
    at stays listed."""
    engine = make_engine(f"sqlite:///{tmp_path / 'crash.sqlite3'}")
    migrate(engine)
    store = Store(session_factory(engine))
    options = get_game("mancala").resolve_options({})
    started = TableSettings(standin="beginner", started_at=time.time()).to_json()
    people = [{"player": "aki", "name": "Aki"}, {"player": "bea", "name": "Bea"}]
    for room_id in ("left", "at_it"):
        store.create_room(
            room_id, "mancala", options, rule_key(options), 1, people,
            code=new_code(), public=True, host="aki", settings=started,
        )  # fmt: skip

    async def scenario() -> None:
        hub = Hub(store, never)
        await hub.load_lobby()
        assert sorted(hub.lobby.playing()) == ["at_it", "left"], "the store says so"
        room = await hub.get("at_it")
        assert room is not None
        room.join(Watcher(0, "aki"))  # a person's socket: stored attended, listed again
        for _ in range(1000):
            if "at_it" in hub.lobby.playing():
                break
            await asyncio.sleep(0.01)
        await hub.sweep()
        assert hub.lobby.playing() == ["at_it"]
        stored = store.load_room("left")
        assert stored is not None and stored.paused
        fresh = Hub(store, never)
        await fresh.load_lobby()
        assert fresh.lobby.playing() == ["at_it"], "every process reads the same"
        await hub.close()

    asyncio.run(scenario())
    engine.dispose()
