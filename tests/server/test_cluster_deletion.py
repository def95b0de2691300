"""Deleting one's data on a site of several processes (PostgreSQL and Redis): the request
reaches one process while the table being played lives on another; the table's owner takes
the person out (the room command ``forget`` crosses over as a table command does), its stand-in
plays the seat to the end, and the database keeps nothing of the person."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.server.cluster import Site, my_turn, pg_url, results
from tests.server.servers import Guest
from tests.server.test_cluster import until


@pytest.fixture
def site(tmp_path: Path, postgres_url: str) -> Iterator[Site]:
    site = Site(tmp_path, postgres_url)
    try:
        yield site
    finally:
        site.stop()
        site.forget()


def test_a_deletion_on_one_process_reaches_the_table_on_another(site: Site) -> None:
    one, two = site.start(2)
    aki, bea = Guest(one.base), Guest(one.base)
    assert aki.request("PUT", "/api/me", {"name": "Aki"})[0] == 200
    seats = [{"kind": "me"}, {"kind": "open"}]
    body = {"game": "mancala", "options": {"seeds": 3}, "seats": seats}
    status, table = aki.request("POST", "/api/rooms", body)
    assert status == 201, table
    room = table["room_id"]
    assert bea.request("POST", f"/api/rooms/{room}/join", {"name": "Bea"}) == (200, {"seat": 1})
    with bea.socket(table["ws"]) as ws:
        until(ws, lambda m: m["type"] == "sync")
        aki.base = two.base  # the deletion goes to the process that does not hold the table
        status, answer = aki.request("DELETE", "/api/account", {"confirm": True})
        assert (status, answer["rooms_kept"]) == (200, 1), answer
        told = until(ws, lambda m: m["type"] == "sync" and m["players"][0]["kind"] == "deleted")
        assert told["players"][0]["standin"] == "beginner" and told["players"][0]["name"] is None
        view = told if told["legal"] else my_turn(ws)
        while view["obs"]["outcome"] is None:
            ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
            view = my_turn(ws)
    with psycopg.connect(pg_url(site.database_url)) as db:
        [(stored,)] = db.execute("SELECT seats FROM rooms WHERE id = %s", (room,)).fetchall()
        names = db.execute("SELECT name FROM players").fetchall()
    assert stored[0] == {"player": None, "deleted": True}
    assert len(results(site.database_url, room)) == 1, "Bea's result; none for the deleted seat"
    assert ("Aki",) not in names
