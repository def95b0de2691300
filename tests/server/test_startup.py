"""Start-up serves at once and rebuilds, beside serving, only the rooms whose game waits on its
clock (``rooms.timed``, kept with every event): not every unfinished room's log."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import psycopg
import redis

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.cluster import Site, finished, next_view, pg_url
from tests.server.servers import Guest, eventually
from tests.server.test_outage import quiet_first_flip
from tests.server.test_recovery import GUEST, store_crashed_game
from tests.server.test_room_clock import PEOPLE, Watcher, make_hub
from tests.server.test_room_clock import make_store as clock_store

UNFINISHED = 3_000
TIMED = 5
MOKOCHAKA = get_game("mokochaka").resolve_options({})
MANCALA = get_game("mancala").resolve_options({})


def test_only_rooms_waiting_on_their_clock_are_marked_for_start_up(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = clock_store(tmp_path)
        hub = make_hub(store)
        await hub.create("grab", {}, PEOPLE, seed=1)  # nobody rang: it waits on nobody's clock
        rung = await hub.create("grab", {}, PEOPLE, seed=2)
        rung.join(Watcher(0))
        await rung.act(0, {"ring": True})
        await hub.close()
        # Marked as migration 0008 marks every room stored before it: not known to wait.
        store.create_room("older", "grab", {}, rule_key({}), 3, PEOPLE, timed=True)
        assert sorted(store.timed_rooms(10)) == sorted([rung.id, "older"])

        again = make_hub(store)
        assert await again.recover() == [rung.id]
        assert store.timed_rooms(10) == [rung.id], "looked at once, not again"
        await again.close()

    asyncio.run(scenario())


def fill(store: Store) -> tuple[list[str], str]:
    """``UNFINISHED`` games against the computer nobody is at, ``TIMED`` Mokochaka games left in
    a call window, and last a game whose log ends it but which a crash of an older version left
    unfinished: the ids of the timed ones and the crashed one."""
    for n in range(UNFINISHED):
        seats = [{"player": f"guest-{n}"}, {"bot": "beginner"}]
        store.create_room(f"plain{n:04d}", "mancala", MANCALA, rule_key(MANCALA), n, seats)
    timed = [f"timed{n}" for n in range(TIMED)]
    for room_id in timed:
        seats = [{"player": "someone"}, {"bot": "expert"}]
        store.create_room(
            room_id, "mokochaka", MOKOCHAKA, rule_key(MOKOCHAKA), quiet_first_flip(), seats
        )
        store.append_event(room_id, 1, 0, {"flip": 0}, time.time())
    store.ensure_player(GUEST)
    store_crashed_game(store, "crashed", seed=3)
    return timed, "crashed"


def test_start_up_serves_at_once_and_rebuilds_the_timed_rooms_beside(
    tmp_path: Path, postgres_url: str
) -> None:
    """One ``asobiba serve`` on PostgreSQL and Redis (a rebuilt room holds a lease there: what
    the test can see of it). The room start-up looks at first (the latest touched) is locked
    by the test, so its repair waits: the server must answer meanwhile, a call window asked
    for loads on demand with its time, and once the lock goes every timed room is rebuilt."""
    engine = make_engine(postgres_url)
    migrate(engine)
    timed, crashed = fill(Store(session_factory(engine)))
    engine.dispose()
    site = Site(tmp_path, postgres_url)
    try:
        with psycopg.connect(pg_url(postgres_url)) as lock:
            lock.execute("SELECT id FROM rooms WHERE id = %s FOR UPDATE", (crashed,))
            (server,) = site.start(1)  # answers: start-up is not waiting for the rebuild
            with Guest(server.base).socket(f"/ws/rooms/{timed[-1]}") as ws:
                sync = next_view(ws)
                assert sync["obs"]["phase"] == "call" and 0 < sync["deadline_in"] <= 3.0
            assert not finished(site.database_url, crashed), "the rebuild was still waiting"
        eventually(lambda: finished(site.database_url, crashed), "the crashed game finished")

        def leased() -> set[str]:
            with redis.Redis.from_url(site.redis_url) as client:
                keys = client.keys(f"{site.prefix}:lease:*")
            return {key.decode().rsplit(":", 1)[1] for key in keys}

        eventually(lambda: leased() == set(timed), "every timed room rebuilt, and only those")
    finally:
        site.stop()
        site.forget()
