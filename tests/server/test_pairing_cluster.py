"""Play someone now on a site of two real ``asobiba serve`` processes sharing PostgreSQL and Redis
(docs/ARCHITECTURE.md, "Play someone now"): people whose seeks and pages are on different
processes are paired and play, and many people arriving at once on both processes are each
seated exactly once, whichever process made their table."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from websockets.sync.client import ClientConnection

from tests.server.cluster import Site, pg_url, replayed_outcome, results
from tests.server.servers import Guest, next_message


@pytest.fixture
def site(tmp_path: Path, postgres_url: str) -> Iterator[Site]:
    # Every test person is on this machine's one address.
    env = {"ASOBIBA_DEV_RATINGS": "1", "ASOBIBA_LIMIT_PAIRING_SOCKETS_PER_ADDRESS": "100"}
    site = Site(tmp_path, postgres_url, env=env)
    try:
        yield site
    finally:
        site.stop()
        site.forget()


def seek(guest: Guest, **body: Any) -> dict[str, Any]:
    status, answer = guest.request("POST", "/api/pairing", {"game": "mancala", **body})
    assert status == 201, answer
    return dict(answer)


def paired(ws: ClientConnection, timeout: float = 90.0) -> dict[str, Any]:
    """Read the pairing socket until its last message, which must be a table."""
    deadline = time.monotonic() + timeout
    while True:
        message = next_message(ws, deadline - time.monotonic())
        if message["type"] in {"paired", "ended"}:
            assert message["type"] == "paired", message
            return message


def tables_of(site: Site) -> dict[str, list[str]]:
    """Every room of the site: the people seated at it."""
    with psycopg.connect(pg_url(site.database_url)) as db:
        rows = db.execute("SELECT id, seats FROM rooms").fetchall()
    return {room: [seat["player"] for seat in seats if "player" in seat] for room, seats in rows}


def test_people_on_two_processes_are_paired_and_play_to_the_end(site: Site) -> None:
    one, two = site.start(2)
    aki, bea = Guest(one.base), Guest(two.base)
    mine, theirs = seek(aki), seek(bea)
    assert mine["pool"] == theirs["pool"]
    # Each page's socket lands on the other process than its seek.
    with (
        aki.socket(mine["ws"], base=two.base) as aki_ws,
        bea.socket(theirs["ws"], base=one.base) as bea_ws,
    ):
        assert next_message(aki_ws)["type"] == "seeking"
        for_aki, for_bea = paired(aki_ws), paired(bea_ws)
    room = for_aki["room_id"]
    assert for_bea["room_id"] == room and {for_aki["seat"], for_bea["seat"]} == {0, 1}
    assert tables_of(site)[room] != [] and len(tables_of(site)) == 1
    with aki.socket(for_aki["ws"]) as a, bea.socket(for_bea["ws"]) as b:
        first = [a, b] if for_aki["seat"] == 0 else [b, a]
        # Seat 0 moves first; each socket plays its moves as its turn comes.
        outcome = _alternate(first)
    assert replayed_outcome(site.database_url, room) == outcome
    assert len(results(site.database_url, room)) == 2


def _alternate(sockets: list[ClientConnection]) -> dict[str, Any]:
    views = [_view(ws) for ws in sockets]
    while views[0]["obs"]["outcome"] is None:
        seat = next(k for k, view in enumerate(views) if view["legal"])
        sockets[seat].send(json.dumps({"type": "act", "action": views[seat]["legal"][0]}))
        views = [_view(ws, "event") for ws in sockets]
    outcome: dict[str, Any] = views[0]["obs"]["outcome"]
    return outcome


def _view(ws: ClientConnection, kind: str = "sync") -> dict[str, Any]:
    while True:
        message = next_message(ws)
        assert message["type"] != "error", message
        if message["type"] == kind:
            return message


def test_many_people_arriving_on_both_processes_are_each_seated_once(site: Site) -> None:
    """Forty people of spread ratings seek at once, each seek and page on a process drawn at
    random; both processes form tables from the same pool at the same moments. Everyone is
    told one table, sits at exactly that one, and no room seats anyone twice."""
    processes = site.start(2)
    rng = random.Random(33)
    people = 40
    guests = [Guest(rng.choice(processes).base) for _ in range(people)]
    ratings = [round(rng.gauss(1500, 150)) for _ in range(people)]
    with contextlib.ExitStack() as stack:
        sockets = []
        for guest, rating in zip(guests, ratings, strict=True):
            answer = seek(guest, rating=rating)
            assert answer["rating"] == rating
            base = rng.choice(processes).base
            sockets.append(stack.enter_context(guest.socket(answer["ws"], base=base)))
        told = [paired(ws) for ws in sockets]
    tables = tables_of(site)
    seated = [person for room in tables.values() for person in room]
    assert len(seated) == len(set(seated)) == people, "each person at one table"
    assert all(len(room) == 2 for room in tables.values())
    ids = [_guest_id(site, guest) for guest in guests]
    for person, table in zip(ids, told, strict=True):
        assert person in tables[table["room_id"]], "seated where they were told"
        assert tables[table["room_id"]].index(person) == table["seat"]
    made = [process.log().count("pairing: a table of 2 people made") for process in processes]
    assert sum(made) == people // 2 and all(made), f"both processes made tables: {made}"
    _no_keys_left(site)


def _guest_id(site: Site, guest: Guest) -> str:
    """The guest's own id, found in the store by the public id ``GET /api/me`` answers."""
    status, me = guest.request("GET", "/api/me")
    assert status == 200, me
    with psycopg.connect(pg_url(site.database_url)) as db:
        row = db.execute("SELECT id FROM players WHERE public_id = %s", (me["id"],)).fetchone()
    assert row is not None, "seated people are known to the store"
    return str(row[0])


def _no_keys_left(site: Site) -> None:
    with redis.Redis.from_url(site.redis_url) as client:
        left = [key.decode() for key in client.scan_iter(f"{site.prefix}:pairing:pool*")]
    assert left == [], "every pool emptied"
