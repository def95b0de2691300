"""Games nobody came back to are ended as abandoned in the background (``Hub.reap``), never one
someone is at, never one another process holds; ended public tables leave the lobby.

The abandon times are set tiny through ``GuestLimits`` (``ASOBIBA_LIMIT_ABANDON_SECONDS`` for
real processes); each test waits on the outcome with a deadline.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.social.tables import TableSettings, new_code
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.cluster import Site, events, finished
from tests.server.servers import Guest, eventually
from tests.server.test_cluster import play

OPTIONS = get_game("mancala").resolve_options({})
IDLE = 1.0
"""The abandon time of games against the computer and of tables not started, in these tests."""


def stored_room(store: Store, room_id: str, seats: list[dict[str, Any]], **table: Any) -> None:
    """A room as the site stored it, never loaded by the server under test."""
    store.create_room(room_id, "mancala", OPTIONS, rule_key(OPTIONS), 1, seats, **table)


def ended(store: Store, room_id: str) -> bool:
    stored = store.load_room(room_id)
    assert stored is not None
    return stored.abandoned


def listed(client: TestClient) -> set[str]:
    tables = client.get("/api/tables").json()
    return {entry["room_id"] for entry in tables["waiting"] + tables["playing"]}


def test_rooms_nobody_came_back_to_are_ended_and_leave_the_lobby(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    migrate(engine)
    store = Store(session_factory(engine))
    settings = TableSettings(standin="beginner").to_json()
    host, other = {"player": "host", "name": "Host"}, {"player": "other", "name": "Other"}
    # Stored before the server started, so only the store knows them: a public table nobody
    # joined, and a started table between two people (kept for the longer time).
    stored_room(
        store,
        "lonely",
        [host, {"open": True}],
        status="waiting",
        code=new_code(),
        public=True,
        host="host",
        settings=settings,
    )
    started = TableSettings(standin="beginner", started_at=time.time()).to_json()
    stored_room(store, "friends", [host, other], code=new_code(), host="host", settings=started)

    limits = GuestLimits(abandon_seconds=IDLE, abandon_table_seconds=3600.0, pause_seconds=0.2)
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(sqlite_url, "secret", bot_workers=1, guest_limits=limits, socket_limits=quiet)
    with TestClient(app) as client:
        body = {"game": "mancala", "options": {}, "level": "beginner", "order": "first"}
        at_it = client.post("/api/rooms", json=body).json()
        with client.websocket_connect(at_it["ws"]) as ws:
            assert ws.receive_json()["type"] == "sync"
            # Rooms the server holds in memory, made after the one someone is at: every round
            # that ends them looks at that one first (the longest idle first).
            client.cookies.clear()
            left = client.post("/api/rooms", json=body).json()
            client.cookies.clear()
            seats = [{"kind": "me"}, {"kind": "open"}]
            table = client.post(
                "/api/rooms", json={"game": "mancala", "seats": seats, "public": True}
            ).json()
            gone = [left["room_id"], table["room_id"], "lonely"]

            eventually(
                lambda: (
                    all(ended(store, room_id) for room_id in gone)
                    and not listed(client) & set(gone)
                ),
                "the rooms nobody came back to ended and out of the lobby",
            )

            assert not ended(store, at_it["room_id"]), "someone is at it"
            ws.send_json({"type": "act", "action": {"pit": 0}})
            assert ws.receive_json()["type"] == "event", "and plays on"
        assert not ended(store, "friends"), "a table between people has a longer time"
        assert store.results("host", "mancala") == [], "an abandoned game has no result"
        assert client.get(f"/api/rooms/{left['room_id']}/replay").status_code == 404
    engine.dispose()


def test_a_room_another_process_holds_is_not_reaped(tmp_path: Path, postgres_url: str) -> None:
    """Two real processes on PostgreSQL and Redis. The second ends games after ``IDLE``
    seconds; the first never does. A game held by the first (its person connected there and
    idle since a move) is not ended by the second, which cannot see who is at it, while a game
    the second holds and nobody came back to is."""
    site = Site(tmp_path, postgres_url)
    try:
        keeper = site.add()
        site.env.update(
            {"ASOBIBA_LIMIT_ABANDON_SECONDS": str(IDLE), "ASOBIBA_LIMIT_PAUSE_SECONDS": "0.2"}
        )
        reaper = site.add()
        person = Guest(keeper.base)
        held = person.new_room()
        with person.socket(held["ws"]) as ws:
            view = play(ws, moves=1)  # its last activity, before the other game's
            forgotten = Guest(reaper.base).new_room()
            eventually(
                lambda: finished(site.database_url, forgotten["room_id"]),
                "the game nobody came back to ended",
            )
            assert not finished(site.database_url, held["room_id"]), "another process holds it"
            logged = len(events(site.database_url, held["room_id"]))
            play(ws, moves=1, view=view)
            assert len(events(site.database_url, held["room_id"])) > logged, "it plays on"
    finally:
        site.stop()
        site.forget()
