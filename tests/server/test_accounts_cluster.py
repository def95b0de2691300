"""Accounts on a site of several ``asobiba serve`` processes (one PostgreSQL database, one
Redis): the sign-in limits hold across processes, and a guest's game held by one process moves
to the account when the guest signs in through another. Real processes, PostgreSQL and Redis,
each site under a key prefix of its own."""

from __future__ import annotations

import base64
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from itsdangerous import TimestampSigner

from tests.server.cluster import Site, close_code, next_view, results
from tests.server.servers import Guest
from tests.server.test_cluster import lease_owner, play, process_id

PASSWORD = "correct horse battery"


@pytest.fixture
def site(tmp_path: Path, postgres_url: str) -> Iterator[Site]:
    site = Site(
        tmp_path,
        postgres_url,
        env={"ASOBIBA_LIMIT_SIGNIN_PER_NAME": "3", "ASOBIBA_LIMIT_SIGNIN_PER_ADDRESS": "6"},
    )
    try:
        yield site
    finally:
        site.stop()
        site.forget()


def secret_id(guest: Guest) -> str:
    """The guest id in a guest's signed cookie (the site's processes sign with "live-secret")."""
    [cookie] = [c.value for c in guest.cookies if c.name == "asobiba"]
    assert cookie is not None
    payload = TimestampSigner("live-secret").unsign(cookie)
    player: str = json.loads(base64.b64decode(payload))["player"]
    return player


def on(guest: Guest, base: str) -> Guest:
    """The same browser (its cookies) talking to another process of the site."""
    other = Guest(base)
    other.cookies, other.opener = guest.cookies, guest.opener
    return other


def test_sign_in_limits_hold_across_processes(site: Site) -> None:
    one, two = site.start(2)
    owner = Guest(one.base)
    assert (
        owner.request("POST", "/api/account", {"username": "Aki", "password": PASSWORD})[0] == 201
    )
    guesser = Guest(one.base)
    tries = [on(guesser, process.base) for process in (one, two, one)]
    for attempt in tries:  # the name's three, spread over both processes
        status, _ = attempt.request(
            "POST", "/api/session", {"username": "aki", "password": "x" * 8}
        )
        assert status == 401
    status, refused = on(guesser, two.base).request(
        "POST", "/api/session", {"username": "AKI", "password": PASSWORD}
    )
    assert status == 429 and refused["error"]["code"] == "too_many_attempts"
    # The address: one account made and three guesses so far; two more names, then none.
    for name, expected in [("Ben", 401), ("Carl", 401), ("Dan", 429)]:
        process = two if name == "Carl" else one
        status, _ = on(guesser, process.base).request(
            "POST", "/api/session", {"username": name, "password": PASSWORD}
        )
        assert status == expected, name
    with redis.Redis.from_url(site.redis_url) as client:
        keys = {key.decode() for key in client.scan_iter(f"{site.prefix}:signin:*")}
        assert f"{site.prefix}:signin:address:127.0.0.1" in keys
        assert not any("aki" in key.lower() for key in keys), "names are kept as digests"
        assert all(0 < client.pttl(key) <= 900_000 for key in keys)


def test_a_game_held_by_another_process_moves_to_the_account(site: Site) -> None:
    one, two = site.start(2)
    home = Guest(two.base)
    assert home.request("GET", "/api/me")[0] == 200
    account = secret_id(home)
    status, _ = home.request("POST", "/api/account", {"username": "Aki", "password": PASSWORD})
    assert status == 201
    laptop = Guest(one.base)
    room = laptop.new_room()
    with laptop.socket(room["ws"]) as ws:  # held in memory by the first process
        view = next_view(ws)
        assert view["seat"] == 0
        status, signed = on(laptop, two.base).request(
            "POST", "/api/session", {"username": "Aki", "password": PASSWORD}
        )
        assert status == 200 and signed["merged"]["rooms"] == 1
        assert lease_owner(site, room["room_id"]) == process_id(one), "moved where it is"
        last = play(ws, view=view)  # the socket keeps its seat and plays to the end
    assert last["obs"]["outcome"] is not None
    assert results(site.database_url, room["room_id"]) == [account]
    status, listed = home.request("GET", "/api/records/mancala")
    assert status == 200 and [game["room_id"] for game in listed["games"]] == [room["room_id"]]


def test_a_session_revoked_on_one_process_closes_its_sockets_on_another(site: Site) -> None:
    one, two = site.start(2)
    home = Guest(two.base)
    assert home.request("POST", "/api/account", {"username": "Aki", "password": PASSWORD})[0] == 201
    phone = Guest(one.base)
    assert (
        phone.request("POST", "/api/session", {"username": "Aki", "password": PASSWORD})[0] == 200
    )
    room = phone.new_room()
    with phone.socket(room["ws"]) as ws:
        assert next_view(ws)["seat"] == 0
        _, listed = home.request("GET", "/api/sessions")
        [theirs] = [s for s in listed["sessions"] if not s["current"]]
        assert home.request("DELETE", f"/api/sessions/{theirs['id']}")[0] == 200
        assert close_code(ws) == 4401


def test_a_game_whose_owner_froze_is_taken_over_and_moved(site: Site) -> None:
    """The guest's room is held by a process that stopped answering (SIGSTOP: its lease still
    runs for a moment): the sign-in on another process waits for the lease to lapse, takes the
    room over and moves it, rather than leave the game to a guest nobody can be again."""
    one, two = site.start(2)
    home = Guest(two.base)
    assert home.request("POST", "/api/account", {"username": "Aki", "password": PASSWORD})[0] == 201
    laptop = Guest(one.base)
    room = laptop.new_room()
    assert lease_owner(site, room["room_id"]) == process_id(one)
    os.kill(one.pid, signal.SIGSTOP)
    try:
        status, signed = on(laptop, two.base).request(
            "POST", "/api/session", {"username": "Aki", "password": PASSWORD}
        )
        assert status == 200 and signed["merged"]["rooms"] == 1
        with on(laptop, two.base).socket(room["ws"]) as ws:
            assert next_view(ws)["seat"] == 0
            assert lease_owner(site, room["room_id"]) == process_id(two)
    finally:
        one.kill()
