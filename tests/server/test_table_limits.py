"""What a guest may cost the tables between people (issue 30, points 4-6): the lobby socket's
frames and how many one address holds open, the rate of table commands per guest and per
address, lobby lists sent only when they changed, spectators' chat limited per address and per
table, and the host muting spectators. Sockets that need a real address (or several: 127.0.0.1
and 127.0.0.2 are two) go over loopback to uvicorn in a thread."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from asobiba.server.app import create_app
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.sockets.messages import CLOSE_RATE_LIMITED, CLOSE_TOO_MANY_SOCKETS
from tests.server import tables
from tests.server.cluster import close_code
from tests.server.servers import Guest, next_message, says, thread_server

ME, OPEN = {"kind": "me"}, {"kind": "open"}
WAITING = ("michikake", [ME, OPEN, OPEN])
"""A table that one more person does not start."""
QUIET = SocketLimits(ping_seconds=None)


def app_with(sqlite_url: str, **limits: Any) -> FastAPI:
    return create_app(
        sqlite_url,
        secret_key="s",
        bot_workers=1,
        socket_limits=QUIET,
        guest_limits=GuestLimits(**limits),
    )


@contextmanager
def live(sqlite_url: str, **limits: Any) -> Iterator[str]:
    """The app with these ``GuestLimits`` served over loopback; its URL."""
    with thread_server(app_with(sqlite_url, **limits)) as base:
        yield base


def lobby_socket(base: str, address: str = "127.0.0.1") -> ClientConnection:
    return Guest(base).socket_from(address, "/ws/lobby")


def lobby_list(ws: ClientConnection) -> dict[str, Any]:
    message = next_message(ws, 10)
    assert message["type"] == "lobby", message
    return message


# --- the lobby socket ----------------------------------------------------------------------


def test_a_lobby_socket_sent_a_frame_over_the_limit_is_closed(sqlite_url: str) -> None:
    with live(sqlite_url) as base, lobby_socket(base) as ws:
        lobby_list(ws)
        ws.send(json.dumps({"type": "pong", "id": 1}))
        assert next_message(ws, 10)["code"] == "bad_message", "a small frame: told, kept open"
        ws.send("x" * 5000)
        assert next_message(ws, 10)["code"] == "too_large"
        assert close_code(ws, 10) == 1009


def test_a_lobby_socket_that_keeps_sending_is_closed(sqlite_url: str) -> None:
    with live(sqlite_url) as base, lobby_socket(base) as ws:
        lobby_list(ws)
        burst = SocketLimits().lobby_burst
        for _ in range(burst + 1):  # one more would race the server's close
            ws.send(json.dumps({"type": "pong", "id": 1}))
        codes = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                codes.append(next_message(ws, 10)["code"])
        assert codes == ["bad_message"] * burst + ["rate_limited"]
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_RATE_LIMITED


def test_one_address_holds_a_few_lobby_sockets(sqlite_url: str) -> None:
    with live(sqlite_url, lobby_sockets_per_address=3) as base, ExitStack() as stack:
        held = [stack.enter_context(lobby_socket(base)) for _ in range(3)]
        for ws in held:
            lobby_list(ws)
        with lobby_socket(base) as refused:
            error = next_message(refused, 10)
            assert (error["type"], error["code"]) == ("error", "too_many_sockets")
            assert close_code(refused, 10) == CLOSE_TOO_MANY_SOCKETS
        with lobby_socket(base, "127.0.0.2") as elsewhere:
            lobby_list(elsewhere)  # another address has its own count
        held.pop().close()
        deadline = time.monotonic() + 10
        while True:  # the server counts the closed one out as soon as it sees it go
            with lobby_socket(base) as again:
                if next_message(again, 10)["type"] == "lobby":
                    break
            assert time.monotonic() < deadline, "a closed lobby socket was never counted out"
            time.sleep(0.05)


# --- table commands --------------------------------------------------------------------------


def test_table_commands_past_the_rate_get_429_per_guest_and_per_address(sqlite_url: str) -> None:
    app = app_with(
        sqlite_url,
        commands_burst=4,
        commands_per_minute=1,
        commands_address_burst=10,
        commands_address_per_minute=1,
    )
    with TestClient(app) as client:
        host = tables.Guest(client, "Aki")
        room = tables.host_table(host, *WAITING, public=True)["room_id"]
        friend = tables.Guest(client)
        for _ in range(2):
            assert friend.post(f"/api/rooms/{room}/join", json={}).status_code == 200
            assert friend.post(f"/api/rooms/{room}/leave").status_code == 200

        def refused(response: Any) -> None:
            assert response.status_code == 429, response.text
            assert response.json()["error"]["code"] == "too_many_commands"
            assert int(response.headers["Retry-After"]) >= 1

        refused(friend.post(f"/api/rooms/{room}/join", json={}))
        assert client.get("/api/tables").json()["waiting"][0]["free"] == 2, "nothing was done"
        # Fresh cookies are new guests, but the address has spent its burst after six more.
        for _ in range(3):
            fresh = tables.Guest(client)
            assert fresh.post(f"/api/rooms/{room}/join", json={}).status_code == 200
            assert fresh.post(f"/api/rooms/{room}/leave").status_code == 200
        refused(tables.Guest(client).post(f"/api/rooms/{room}/join", json={}))
        refused(host.post(f"/api/rooms/{room}/start", json={"fill": "beginner"}))
        assert client.get("/api/tables").json()["waiting"][0]["free"] == 2


@pytest.mark.parametrize("host_here", [True, False], ids=["host-here", "nobody-here"])
def test_a_seat_taken_and_left_between_two_flushes_sends_the_lobby_nothing(
    client: TestClient, host_here: bool
) -> None:
    """The table in memory all along (its host's socket is open), or read back from the store
    for every command (nobody is at it): either way, the list as it was is not sent again."""
    host = tables.Guest(client, "Aki")
    first = tables.host_table(host, *WAITING, public=True)["room_id"]
    lobby = client.app.state.hub.lobby  # type: ignore[attr-defined]
    with ExitStack() as stack:
        if host_here:
            stack.enter_context(host.socket(first))
        ws = stack.enter_context(client.websocket_connect("/ws/lobby"))
        shown = [ws.receive_json()]
        friend = tables.Guest(client)
        for _ in range(3):
            assert friend.post(f"/api/rooms/{first}/join", json={}).status_code == 200
            assert friend.post(f"/api/rooms/{first}/leave").status_code == 200
        deadline = time.monotonic() + 10
        while lobby._flush is not None:  # the flush those changes asked for has run
            assert time.monotonic() < deadline
            time.sleep(0.02)
        second = tables.host_table(host, *WAITING, public=True)["room_id"]
        while len(shown[-1]["waiting"]) < 2:
            shown.append(ws.receive_json())
    assert [t["room_id"] for t in shown[-1]["waiting"]] == [second, first]
    # A flush may have fallen between a join and its leave (the list then said so), but no
    # watcher is sent the list it was sent last.
    assert all(a != b for a, b in itertools.pairwise(shown)), shown
    made = {t["created_at"] for m in shown for t in m["waiting"] if t["room_id"] == first}
    assert len(made) == 1, "a table read back from the store is listed as it was made"


# --- spectators' chat ------------------------------------------------------------------------


@contextmanager
def watched(sqlite_url: str, **limits: Any) -> Iterator[tuple[str, Guest, str]]:
    """The app with these limits over loopback, and a game of its host against the computer
    that spectators may chat at: its URL, the host and the room's id."""
    with live(sqlite_url, **limits) as base:
        host = Guest(base)
        seats = [ME, {"kind": "bot", "level": "beginner"}]
        body = {"game": "mancala", "options": {}, "seats": seats, "spectator_chat": True}
        status, table = host.request("POST", "/api/rooms", body)
        assert status == 201, table
        yield base, host, str(table["room_id"])


def spectator_says(base: str, address: str, room: str, text: str) -> str | None:
    """A fresh guest (a new cookie) from ``address`` watches ``room`` and writes one line."""
    guest = Guest(base)
    guest.request("GET", "/api/me")
    with guest.socket_from(address, f"/ws/rooms/{room}") as ws:
        assert next_message(ws, 10)["type"] == "sync"
        return says(ws, text)


def player_says(player: Guest, room: str, text: str) -> list[str]:
    """A seated guest (on 127.0.0.1) writes a line, which the table takes; the lines it had."""
    with player.socket(f"/ws/rooms/{room}") as ws:
        sync = next_message(ws, 10)
        assert says(ws, text) is None
    return [line["text"] for line in sync["chat"]]


def test_spectators_with_fresh_cookies_on_one_address_are_limited_together(
    sqlite_url: str,
) -> None:
    limits = {"spectator_address_burst": 2, "spectator_address_per_minute": 1}
    with watched(sqlite_url, **limits, spectator_lines_burst=100) as (base, host, room):
        answers = [spectator_says(base, "127.0.0.1", room, f"line {k}") for k in range(4)]
        assert answers == [None, None, "chat_rate_limited", "chat_rate_limited"]
        assert spectator_says(base, "127.0.0.2", room, "from elsewhere") is None
        player_says(host, room, "the host")  # a player on the spent address


def test_all_the_spectators_of_a_table_share_one_budget(sqlite_url: str) -> None:
    limits = {"spectator_lines_burst": 3, "spectator_lines_per_minute": 1}
    with watched(sqlite_url, **limits, spectator_address_burst=100) as (base, host, room):
        answers = [spectator_says(base, f"127.0.0.{k}", room, f"line {k}") for k in range(2, 7)]
        assert answers == [None, None, None, "chat_rate_limited", "chat_rate_limited"]
        kept = player_says(host, room, "the host")  # the players' lines are their own
    assert kept == ["line 2", "line 3", "line 4"], "refused lines are not kept"


# --- the host mutes spectators ---------------------------------------------------------------


def test_the_host_mutes_spectators_and_lets_them_chat_again(client: TestClient) -> None:
    host, friend, stranger = (
        tables.Guest(client, "Aki"),
        tables.Guest(client, "Bea"),
        tables.Guest(client),
    )
    seats = [ME, OPEN]
    room = tables.host_table(host, "mancala", seats, spectator_chat=True)["room_id"]
    friend.post(f"/api/rooms/{room}/join", json={})
    address = f"/api/rooms/{room}/spectator_chat"

    def you(message: dict[str, Any]) -> dict[str, Any]:
        return dict(message["table"]["you"])

    def allowed(on: bool) -> Any:
        return lambda m: m["type"] == "players" and m["table"]["spectator_chat"] is on

    with (
        host.socket(room) as aki,
        friend.socket(room) as bea,
        stranger.socket(room) as watching,
    ):
        sync, _ = tables.until(watching, lambda m: m["type"] == "sync")
        assert you(sync)["may_chat"] is True
        for other in (stranger, friend):
            answer = other.put(address, json={"on": False})
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_host"
        bad = host.put(address, json={"on": "no"})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"

        assert host.put(address, json={"on": False}).json() == {"spectator_chat": False}
        told, _ = tables.until(watching, allowed(False))
        assert you(told)["may_chat"] is False
        assert you(tables.until(bea, allowed(False))[0])["may_chat"] is True
        watching.send_json({"type": "chat", "text": "may I?"})
        error, _ = tables.until(watching, lambda m: m["type"] == "error")
        assert error["code"] == "chat_closed"
        bea.send_json({"type": "chat", "text": "players still chat"})
        line, _ = tables.until(aki, lambda m: m["type"] == "chat")
        assert line["entry"]["text"] == "players still chat"
        with stranger.socket(room) as late:  # a spectator arriving now is told at once
            late_sync, _ = tables.until(late, lambda m: m["type"] == "sync")
            assert you(late_sync)["may_chat"] is False

        assert host.put(address, json={"on": True}).json() == {"spectator_chat": True}
        told, _ = tables.until(watching, allowed(True))
        assert you(told)["may_chat"] is True
        watching.send_json({"type": "chat", "text": "thanks"})
        line, _ = tables.until(aki, lambda m: m["type"] == "chat")
        assert (line["entry"]["seat"], line["entry"]["text"]) == (None, "thanks")
    stored = client.app.state.hub.store.load_room(room)  # type: ignore[attr-defined]
    assert stored.settings["spectator_chat"] is True
    assert [line.text for line in stored.chat] == ["players still chat", "thanks"]
