"""Several ``asobiba serve`` processes on one PostgreSQL database and one Redis: any process serves
any socket, a room has one owner at a time, and an owner's death loses nothing acknowledged
(docs/ARCHITECTURE.md, "Several processes"). Real processes, real PostgreSQL and Redis."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
from psycopg.types.json import Jsonb
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.server.cluster import (
    LEASE_SECONDS,
    Site,
    Unavailable,
    close_code,
    events,
    finished,
    my_turn,
    next_view,
    pg_url,
    replayed_outcome,
    results,
)
from tests.server.servers import Guest, ServerProcess, eventually, next_message, says


@pytest.fixture
def site(tmp_path: Path, postgres_url: str) -> Iterator[Site]:
    site = Site(tmp_path, postgres_url)
    try:
        yield site
    finally:
        site.stop()
        site.forget()


def lease_owner(site: Site, room_id: str) -> str | None:
    with redis.Redis.from_url(site.redis_url) as client:
        owner = client.get(f"{site.prefix}:lease:{room_id}")
    return None if owner is None else owner.decode()


def process_id(process: ServerProcess) -> str:
    """The id a process prints when it joins the site."""
    for line in process.log().splitlines():
        if line.startswith("asobiba: process "):
            return line.split()[2]
    raise AssertionError("the process did not say its id")


def play(
    ws: ClientConnection, moves: int | None = None, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Make ``moves`` moves (None: to the end) with the first legal action, from ``view`` if it
    is the latest one read; the last view."""
    if view is None or not (view["legal"] or view["obs"]["outcome"] is not None):
        view = my_turn(ws)
    made = 0
    while view["obs"]["outcome"] is None and (moves is None or made < moves):
        ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
        made += 1
        view = my_turn(ws)
    return view


def test_a_socket_on_another_process_plays_the_room(site: Site) -> None:
    owner, other = site.start(2)
    guest = Guest(owner.base)
    room = guest.new_room()
    assert lease_owner(site, room["room_id"]) == process_id(owner), "its creator holds it"
    with guest.socket(room["ws"], base=other.base) as ws:
        last = play(ws)
        assert lease_owner(site, room["room_id"]) == process_id(owner), "never moved"
    assert last["obs"]["outcome"] is not None
    log = events(site.database_url, room["room_id"])
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert replayed_outcome(site.database_url, room["room_id"]) == last["obs"]["outcome"]
    assert finished(site.database_url, room["room_id"])
    assert len(results(site.database_url, room["room_id"])) == 1


def reconnect(guest: Guest, ws_path: str, processes: list[ServerProcess]) -> ClientConnection:
    """A page's reconnect after its socket dropped: to any live process (no sticky sessions)."""
    live = [p for p in processes if p.process is not None and p.process.poll() is None]
    return guest.socket(ws_path, base=random.choice(live).base)


def test_sigkill_of_the_owner_mid_game_another_process_takes_over(site: Site) -> None:
    owner, other = site.start(2)
    guest = Guest(owner.base)
    room = guest.new_room()
    with guest.socket(room["ws"]) as ws:
        before = play(ws, moves=3)
        seen = events(site.database_url, room["room_id"])
        owner.kill()
    assert len(seen) >= 3
    started = time.monotonic()
    with guest.socket(room["ws"], base=other.base) as ws:
        view = next_view(ws)  # served once the dead owner's lease ran out
        assert time.monotonic() - started < LEASE_SECONDS + 10
        assert view["type"] == "sync"
        assert lease_owner(site, room["room_id"]) == process_id(other)
        # Nothing acknowledged was lost: the sync shows the board the last event showed.
        assert view["obs"] == before["obs"]
        last = play(ws, view=view)
    log = events(site.database_url, room["room_id"])
    assert log[: len(seen)] == seen
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert replayed_outcome(site.database_url, room["room_id"]) == last["obs"]["outcome"]
    assert len(results(site.database_url, room["room_id"])) == 1


ANSWER_SECONDS = 10 * LEASE_SECONDS
"""A deadline for the answer to a frame whose owner died (it comes within about a lease and a
third; the rest is slack for a loaded machine): on failure the test ends instead of hanging."""


@pytest.mark.parametrize("frozen", [False, True], ids=["killed", "frozen"])
def test_an_action_the_dead_owner_never_took_is_answered(site: Site, frozen: bool) -> None:
    """The room's owner dies (its lease still running) and the person acts right after, on a
    socket of another process: the action is answered ``unavailable`` and the socket closed with
    1012; the page reconnects, finds the room at its new owner as it stood, and acts again.
    Killed (SIGKILL): its connections are closed, so the frame reaches nobody and is answered
    as soon as it is published (or by the liveness check, if Redis had not yet seen the close).
    Frozen (SIGSTOP: a machine gone silent, its connections open): the frame waits at Redis, and
    is answered once the owner's liveness key lapses."""
    owner, other = site.start(2)
    guest = Guest(owner.base)
    room = guest.new_room()
    with guest.socket(room["ws"], base=other.base) as ws:
        view = my_turn(ws)
        seen = events(site.database_url, room["room_id"])
        if frozen:
            os.kill(owner.pid, signal.SIGSTOP)
        else:
            owner.kill()  # and reaped
        move = json.dumps({"type": "act", "action": view["legal"][0]})
        ws.send(move)
        answer = next_message(ws, timeout=ANSWER_SECONDS)
        assert answer["type"] == "error" and answer["code"] == "unavailable", answer
        assert close_code(ws, timeout=ANSWER_SECONDS) == 1012
    owner.kill()  # the frozen one too: it never comes back
    with guest.socket(room["ws"], base=other.base) as ws:
        again = my_turn(ws)  # once the dead owner's lease ran out
        assert lease_owner(site, room["room_id"]) == process_id(other)
        assert again["obs"] == view["obs"], "the action the dead owner never took is not in it"
        ws.send(move)
        assert next_view(ws)["type"] == "event"
    log = events(site.database_url, room["room_id"])
    assert log[: len(seen) + 1] == [*seen, (len(seen) + 1, 0, view["legal"][0])]


def test_processes_killed_at_random_moments_lose_nothing(site: Site) -> None:
    """Three processes; a person plays on whichever a reconnect reaches, while processes are
    SIGKILLed at random moments and started again (an action the killed owner never took is
    answered ``unavailable`` and its socket closed, so the page reconnects). The game ends with a
    gapless log that replays, the last view the person saw is its end, and one result."""
    rng = random.Random(19)
    processes = site.start(3)
    guest = Guest(processes[0].base)
    room = guest.new_room()
    kills = 0
    last: dict[str, Any] | None = None
    deadline = time.monotonic() + 180
    while last is None or last["obs"]["outcome"] is None:
        assert time.monotonic() < deadline, "the game did not end"
        ws = reconnect(guest, room["ws"], processes)
        try:
            with ws:
                view = my_turn(ws)
                for _ in range(rng.randint(1, 5)):
                    if view["obs"]["outcome"] is not None:
                        break
                    ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])}))
                    if kills < 4 and rng.random() < 0.25:
                        victim = rng.choice(processes)  # maybe the owner, maybe not
                        victim.kill()
                        kills += 1
                        victim.start()
                    view = my_turn(ws)
                last = view
        except (ConnectionClosed, TimeoutError, Unavailable):
            continue
    assert kills >= 1
    log = events(site.database_url, room["room_id"])
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert replayed_outcome(site.database_url, room["room_id"]) == last["obs"]["outcome"]
    assert finished(site.database_url, room["room_id"])
    assert len(results(site.database_url, room["room_id"])) == 1


def test_two_processes_racing_for_one_room_never_fork_it(site: Site) -> None:
    """The race forced: the owner's lease is deleted while it holds the room (as if it had
    stalled past its expiry), a second process loads the room, and the person's two tabs, one
    on each process, make the same move at once. One write of that seq wins; the other process
    gives the room up (its socket is sent off to reconnect, 1012) and never forks the log.

    Leases of 9 s here, renewed every 3 s: with the tests' 1.5 s ones the first process's
    renewal (every 0.5 s) could find the second's lease before the moves were sent, and give
    the room up before the race it is here to lose (a loaded run saw exactly that)."""
    site.env["ASOBIBA_LEASE_SECONDS"] = "9"
    first, second = site.start(2)
    guest = Guest(first.base)
    room = guest.new_room()
    with guest.socket(room["ws"]) as one:
        view = my_turn(one)
        with redis.Redis.from_url(site.redis_url) as client:
            client.delete(f"{site.prefix}:lease:{room['room_id']}")
        with guest.socket(room["ws"], base=second.base) as two:
            assert my_turn(two)["obs"] == view["obs"]  # a second copy, loaded from the log
            # Asked only now: the handshake is answered before the room is loaded and claimed.
            assert lease_owner(site, room["room_id"]) == process_id(second)
            move = json.dumps({"type": "act", "action": view["legal"][0]})
            for ws in (one, two):
                # The first process renews its leases every 3 s and, finding the room's lease
                # the second's, gives the room up: on a slow run that can come before the move,
                # and its socket is already sent off (the code is read below).
                with contextlib.suppress(ConnectionClosed):
                    ws.send(move)
            codes = []
            for ws in (one, two):
                try:
                    while True:
                        message = next_message(ws, timeout=15)
                        assert message["type"] != "error" or message["code"] in {
                            "moved",
                            "not_your_turn",
                        }, message
                except ConnectionClosed as closed:
                    codes.append(None if closed.rcvd is None else closed.rcvd.code)
                except TimeoutError:
                    codes.append(0)  # still served: this one won
    assert 1012 in codes, codes  # the process that lost the race sent its socket off
    log = events(site.database_url, room["room_id"])
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert sum(action == view["legal"][0] for _, seat, action in log if seat == 0) >= 1
    replayed_outcome(site.database_url, room["room_id"])  # every stored action was legal there
    with guest.socket(room["ws"], base=second.base) as ws:
        last = play(ws)
    assert replayed_outcome(site.database_url, room["room_id"]) == last["obs"]["outcome"]
    assert len(results(site.database_url, room["room_id"])) == 1


def test_a_stale_owners_write_is_refused(site: Site) -> None:
    """Another process wrote the room's next event (it owns the room now): the old owner's write
    of the same seq fails, it answers "moved" and sends its socket off; the game goes on from
    the log, with the other process's move in it, never two moves at one seq."""
    (process,) = site.start(1)
    guest = Guest(process.base)
    room = guest.new_room()
    with guest.socket(room["ws"]) as ws:
        view = my_turn(ws)
        log = events(site.database_url, room["room_id"])
        foreign = view["legal"][-1]
        with psycopg.connect(pg_url(site.database_url)) as db:
            db.execute(
                "INSERT INTO room_events (room_id, seq, seat, action, at) "
                "VALUES (%s, %s, 0, %s, %s)",
                (room["room_id"], len(log) + 1, Jsonb(foreign), time.time()),
            )
        ws.send(json.dumps({"type": "act", "action": view["legal"][0]}))
        error = next_message(ws)
        assert error["type"] == "error" and error["code"] == "moved", error
        assert close_code(ws) == 1012
    after = events(site.database_url, room["room_id"])
    assert after[len(log)] == (len(log) + 1, 0, foreign)
    with guest.socket(room["ws"]) as ws:
        last = play(ws)
    log = events(site.database_url, room["room_id"])
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))
    assert replayed_outcome(site.database_url, room["room_id"]) == last["obs"]["outcome"]


def until(ws: ClientConnection, wanted: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Messages until one is ``wanted`` (errors fail the test)."""
    deadline = time.monotonic() + timeout
    while True:
        message = next_message(ws, max(0.01, deadline - time.monotonic()))
        assert message["type"] != "error", message
        if wanted(message):
            return message


def test_friends_at_one_table_on_different_processes(site: Site) -> None:
    """The host's table lives on one process; a friend finds it in the lobby of another,
    takes the seat there, and plays there: presence, chat and every move cross over."""
    one, two = site.start(2)
    host, friend = Guest(one.base), Guest(two.base)
    assert host.request("PUT", "/api/me", {"name": "Aki"})[0] == 200
    seats = [{"kind": "me"}, {"kind": "open"}]
    status, table = host.request(
        "POST", "/api/rooms", {"game": "mancala", "options": {}, "seats": seats, "public": True}
    )
    assert status == 201, table
    room = table["room_id"]
    deadline = time.monotonic() + 10
    while room not in [t["room_id"] for t in friend.request("GET", "/api/tables")[1]["waiting"]]:
        assert time.monotonic() < deadline, "the other process's lobby never listed the table"
        time.sleep(0.1)
    with host.socket(table["ws"]) as aki:
        until(aki, lambda m: m["type"] == "sync")
        status, joined = friend.request("POST", f"/api/rooms/{room}/join", {"name": "Bea"})
        assert (status, joined) == (200, {"seat": 1})
        started = until(aki, lambda m: m["type"] == "sync" and m["table"]["status"] == "playing")
        assert [p["name"] for p in started["players"]] == ["Aki", "Bea"]
        with friend.socket(table["ws"]) as bea:
            mine = until(bea, lambda m: m["type"] == "sync")
            assert mine["seat"] == 1 and mine["table"]["you"]["seat"] == 1
            here = until(aki, lambda m: m["type"] == "players" and m["players"][1]["connected"])
            assert here["players"][0]["connected"]
            bea.send(json.dumps({"type": "chat", "text": "よろしく"}))
            line = until(aki, lambda m: m["type"] == "chat")
            assert (line["entry"]["name"], line["entry"]["text"]) == ("Bea", "よろしく")
            views = {0: started, 1: mine}
            sockets = {0: aki, 1: bea}
            while True:
                movers = [seat for seat, view in views.items() if view["legal"]]
                if views[0]["obs"]["outcome"] is not None:
                    break
                seat = movers[0]
                sockets[seat].send(json.dumps({"type": "act", "action": views[seat]["legal"][0]}))
                for k, ws in sockets.items():
                    views[k] = until(ws, lambda m: m["type"] == "event")
            assert views[1]["obs"]["outcome"] == views[0]["obs"]["outcome"]
    assert sorted(results(site.database_url, room)) == sorted(
        spec["player"] for spec in _seats(site, room)
    )
    log = events(site.database_url, room)
    assert replayed_outcome(site.database_url, room) == views[0]["obs"]["outcome"]
    assert [seq for seq, _, _ in log] == list(range(1, len(log) + 1))


def test_spectators_chat_limits_and_the_hosts_mute_hold_on_another_process(
    tmp_path: Path, postgres_url: str
) -> None:
    """Spectators watch through the process that does not own the table: their lines count
    against their own network address (the owner learns it with the socket), and the host
    mutes them through that process too."""
    limits = {"SPECTATOR_ADDRESS_BURST": "2", "SPECTATOR_ADDRESS_PER_MINUTE": "1"}
    env = {f"ASOBIBA_LIMIT_{name}": value for name, value in limits.items()}
    site = Site(tmp_path, postgres_url, env=env)
    try:
        one, two = site.start(2)
        host = Guest(one.base)
        seats = [{"kind": "me"}, {"kind": "bot", "level": "beginner"}]
        body = {"game": "mancala", "options": {}, "seats": seats, "spectator_chat": True}
        status, table = host.request("POST", "/api/rooms", body)
        assert status == 201, table

        @contextmanager
        def spectator(address: str) -> Iterator[ClientConnection]:
            """A fresh guest from ``address`` watching on two."""
            guest = Guest(two.base)
            guest.request("GET", "/api/me")
            with guest.socket_from(address, table["ws"]) as ws:
                assert until(ws, lambda m: m["type"] == "sync")["table"]["you"]["seat"] is None
                yield ws

        with host.socket(table["ws"]) as aki:  # the table stays on one
            until(aki, lambda m: m["type"] == "sync")
            assert lease_owner(site, table["room_id"]) == process_id(one)
            answers = []
            for k in range(3):
                with spectator("127.0.0.1") as ws:
                    answers.append(says(ws, f"line {k}"))
            assert answers == [None, None, "chat_rate_limited"]
            with spectator("127.0.0.2") as ws:
                assert says(ws, "from elsewhere") is None
                muted = _on(host, two).request(
                    "PUT", f"/api/rooms/{table['room_id']}/spectator_chat", {"on": False}
                )
                assert muted == (200, {"spectator_chat": False})
                told = until(ws, lambda m: m["type"] == "players")
                assert told["table"]["you"]["may_chat"] is False
                assert says(ws, "still here?") == "chat_closed"
            assert says(aki, "the host") is None
    finally:
        site.stop()
        site.forget()


def _seats(site: Site, room_id: str) -> list[dict[str, Any]]:
    with psycopg.connect(pg_url(site.database_url)) as db:
        row = db.execute("SELECT seats FROM rooms WHERE id = %s", (room_id,)).fetchone()
    assert row is not None
    seats: list[dict[str, Any]] = row[0]
    return seats


def test_a_game_held_by_another_process_is_not_ended_to_make_room(
    tmp_path: Path, postgres_url: str
) -> None:
    """A guest at the limit of unfinished games starts one more on another process: the game
    they are playing, held elsewhere, is not the one ended (whether someone is at it is known
    only where it is held)."""
    site = Site(tmp_path, postgres_url, env={"ASOBIBA_LIMIT_UNFINISHED": "1"})
    try:
        one, two = site.start(2)
        guest = Guest(one.base)
        first = guest.new_room()
        with guest.socket(first["ws"]) as ws:
            view = play(ws, moves=1)
            second = Guest.new_room(_on(guest, two))
            assert second["room_id"] != first["room_id"]
            assert not finished(site.database_url, first["room_id"])
            last = play(ws, view=view)
        assert last["obs"]["outcome"] is not None
        assert len(results(site.database_url, first["room_id"])) == 1
    finally:
        site.stop()
        site.forget()


def _on(guest: Guest, process: ServerProcess) -> Guest:
    """The same guest (cookie) talking to another process."""
    other = Guest(process.base)
    other.cookies, other.opener = guest.cookies, guest.opener
    other.base = process.base
    return other


def test_a_game_nobody_is_at_leaves_every_processs_lobby(tmp_path: Path, postgres_url: str) -> None:
    """Issue 31, point 10: a table played on process one, one of its people through process
    two; a lobby watched on process two lists it while they play, drops it once both their
    pages closed (the owner paused the game), lists it again when one of them comes back
    (through process two), and a process started meanwhile reads the same from the database."""
    site = Site(tmp_path, postgres_url, env={"ASOBIBA_LIMIT_PAUSE_SECONDS": "0.3"})
    try:
        one, two = site.start(2)
        aki, bea, watcher = Guest(one.base), Guest(two.base), Guest(two.base)
        assert aki.request("PUT", "/api/me", {"name": "Aki"})[0] == 200
        seats = [{"kind": "me"}, {"kind": "open"}]
        body = {"game": "mancala", "options": {}, "seats": seats, "public": True}
        status, table = aki.request("POST", "/api/rooms", body)
        assert status == 201, table
        room = table["room_id"]
        assert bea.request("POST", f"/api/rooms/{room}/join", {"name": "Bea"})[0] == 200

        def playing(message: dict[str, Any]) -> list[str]:
            return [t["room_id"] for t in message["playing"]]

        with watcher.socket("/ws/lobby") as lobby:
            with aki.socket(table["ws"]) as aki_ws, bea.socket(table["ws"]) as bea_ws:
                until(aki_ws, lambda m: m["type"] == "sync")
                until(bea_ws, lambda m: m["type"] == "sync")
                until(lobby, lambda m: room in playing(m))
            assert lease_owner(site, room) == process_id(one), "the table is played on one"
            gone = until(lobby, lambda m: room not in playing(m))
            assert room not in [t["room_id"] for t in gone["waiting"]]
            three = site.add()
            assert room not in playing(Guest(three.base).request("GET", "/api/tables")[1])
            with bea.socket(table["ws"]) as bea_ws:
                until(bea_ws, lambda m: m["type"] == "sync")
                until(lobby, lambda m: room in playing(m))
                eventually(
                    lambda: room in playing(Guest(three.base).request("GET", "/api/tables")[1]),
                    "the third process lists the game again",
                )
    finally:
        site.stop()
        site.forget()
