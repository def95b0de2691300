"""A table's turn clock pays for no outage, from the first second of the game: a real server (or
a room's owner among several) is killed with SIGKILL before anyone moved, stays down longer than
the whole move time, and comes back. The person to move gets back at least what they had left,
and the stand-in has played nothing for them (issue 30, point 1)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection

from tests.server.cluster import Site
from tests.server.servers import Guest, ServerProcess, next_message

MOVE = 5.0
"""The shortest move time a table may set: the outage below lasts longer than all of it."""


def _players(ws: ClientConnection) -> dict[str, Any]:
    """The first sync's view and players (pings answered)."""
    while True:
        message = next_message(ws)
        if message["type"] == "sync":
            return message


def _host_started_table(host: Guest, friend: Guest) -> dict[str, Any]:
    """A Mancala table of two people with a turn clock, started by the friend taking the last
    seat: the host (seat 0) is to move and nothing has been played."""
    seats = [{"kind": "me"}, {"kind": "open"}]
    body = {"game": "mancala", "options": {}, "seats": seats, "clock": {"move": MOVE, "reserve": 0}}
    status, table = host.request("POST", "/api/rooms", body)
    assert status == 201, table
    status, joined = friend.request("POST", f"/api/rooms/{table['room_id']}/join", {"name": "Bea"})
    assert (status, joined) == (200, {"seat": 1})
    return dict(table)


def _left_before_the_kill(ws: ClientConnection) -> tuple[float, dict[str, Any]]:
    sync = _players(ws)
    assert sync["table"]["status"] == "playing" and sync["obs"]["ply"] == 0
    clock = sync["players"][0]["clock"]
    assert clock is not None and 0 < clock["deadline_in"] <= MOVE
    return clock["deadline_in"], sync


def _came_back_with(ws: ClientConnection, had: float, before: dict[str, Any]) -> None:
    again = _players(ws)
    assert again["obs"] == before["obs"], "the stand-in played nothing while the server was down"
    assert again["legal"] == before["legal"]
    assert again["players"][0]["standin"] is None
    left = again["players"][0]["clock"]["deadline_in"]
    assert left >= had - 0.05, f"had {had:.2f} s left before the outage, got back {left:.2f} s"


def test_a_table_killed_before_its_first_move_keeps_the_first_turn_clock(
    server: ServerProcess,
) -> None:
    host, friend = Guest(server.base), Guest(server.base)
    table = _host_started_table(host, friend)
    with host.socket(table["ws"]) as ws:
        had, before = _left_before_the_kill(ws)
    server.kill()
    time.sleep(MOVE + 1.0)
    server.start()
    with host.socket(table["ws"]) as ws:
        _came_back_with(ws, had, before)


def test_a_table_taken_over_before_its_first_move_keeps_the_first_turn_clock(
    tmp_path: Path, postgres_url: str
) -> None:
    site = Site(tmp_path, postgres_url)
    try:
        one, two = site.start(2)
        host, friend = Guest(one.base), Guest(one.base)
        table = _host_started_table(host, friend)
        with host.socket(table["ws"]) as ws:  # on the owner, process one
            had, before = _left_before_the_kill(ws)
        one.kill()
        time.sleep(MOVE + 1.0)  # longer than the lease: process two takes the room over
        with host.socket(table["ws"], base=two.base) as ws:
            _came_back_with(ws, had, before)
    finally:
        site.stop()
        site.forget()
