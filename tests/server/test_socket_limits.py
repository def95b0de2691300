"""What one socket may cost the server: a client that sends too fast is told and closed, one that
stops reading is closed once its outbox is full, repeated syncs coalesce, odd frames get errors."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from asobiba.server.app import create_app
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.sockets.messages import CLOSE_NOT_READING, CLOSE_RATE_LIMITED
from tests.server.servers import Guest, ServerProcess, thread_server

Start = Callable[..., dict[str, Any]]


def test_a_binary_frame_gets_bad_message_and_the_socket_stays_open(
    client: TestClient, start: Start
) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        ws.send_bytes(b'{"type": "sync"}')
        error = ws.receive_json()
        assert (error["type"], error["code"]) == ("error", "bad_message")
        ws.send_json({"type": "sync"})
        assert ws.receive_json()["seq"] == before["seq"]


def test_json_nested_too_deep_gets_bad_json_and_the_socket_stays_open(
    client: TestClient, start: Start, caplog: pytest.LogCaptureFixture
) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        ws.receive_json()
        deep = "[" * 1000 + "]" * 1000
        assert len(deep) <= 2048
        ws.send_text(deep)
        error = ws.receive_json()
        assert (error["type"], error["code"]) == ("error", "bad_json")
        ws.send_text('{"type": "act", "action": ' + "{" * 900 + "}" * 900 + "}")
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_json({"type": "act", "action": {"pit": 2}})
        assert ws.receive_json()["type"] == "event"
    assert "Traceback" not in caplog.text


def test_a_client_sending_too_fast_gets_rate_limited_then_a_close(sqlite_url: str) -> None:
    limits = SocketLimits(per_second=1.0, burst=5, ping_seconds=None)
    app = create_app(sqlite_url, secret_key="s", bot_workers=1, socket_limits=limits)
    with TestClient(app) as client:
        room = client.post("/api/rooms", json={"game": "mancala", "level": "beginner"}).json()
        with client.websocket_connect(room["ws"]) as ws:
            ws.receive_json()
            for _ in range(6):
                ws.send_json({"type": "sync"})
            received = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    received.append(ws.receive_json())
        assert closed.value.code == CLOSE_RATE_LIMITED
        assert closed.value.reason == "rate limited"
        assert [m["type"] for m in received[:-1]] == ["sync"] * (len(received) - 1)
        assert received[-1]["type"] == "error"
        assert received[-1]["code"] == "rate_limited"
        # A new socket starts with a full allowance.
        with client.websocket_connect(room["ws"]) as ws:
            assert ws.receive_json()["type"] == "sync"


def not_reading_socket(guest: Guest, ws_path: str) -> ClientConnection:
    """A room socket over TCP with a small receive buffer and a one-message client queue, so
    whatever the test does not read backs up into the server soon. Not the smallest buffer: a
    1 KiB window made the server wait on TCP's zero-window probes, whose back-off reached
    minutes (the coalescing test hung one run in six). No keepalive pings on either side (the
    tests' servers run with ``keepalive=False``): a pong waits behind what the client does not
    read, and a slow run (past 40 s) saw the socket closed with 1011 "keepalive ping timeout"
    before the test was done."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 65536)
    sock.connect(("127.0.0.1", int(guest.base.rsplit(":", 1)[1])))
    return guest.socket(ws_path, sock=sock, compression=None, max_queue=1, ping_interval=None)


def test_a_client_that_does_not_read_is_closed_once_its_outbox_is_full(sqlite_url: str) -> None:
    limits = SocketLimits(outbox=8, per_second=100_000, burst=100_000, ping_seconds=None)
    app = create_app(sqlite_url, secret_key="s", bot_workers=1, socket_limits=limits)
    with thread_server(app, keepalive=False) as base:
        guest = Guest(base)
        room = guest.new_room()
        # Errors are not coalesced: each bad message queues one answer the client never takes.
        with not_reading_socket(guest, room["ws"]) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "sync"
            try:
                for _ in range(20_000):
                    ws.send('{"type": "nonsense", "padding": "' + "x" * 1000 + '"}')
            except ConnectionClosed:
                pass
            codes = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    codes.append(json.loads(ws.recv(timeout=30))["code"])
        assert set(codes) == {"bad_message"}
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == CLOSE_NOT_READING
        assert "not reading" in closed.value.rcvd.reason
        # The room goes on for everyone else.
        with guest.socket(room["ws"]) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "sync"


def test_repeated_syncs_coalesce_while_the_client_is_not_reading(sqlite_url: str) -> None:
    limits = SocketLimits(outbox=8, per_second=100_000, burst=100_000, ping_seconds=None)
    app = create_app(sqlite_url, secret_key="s", bot_workers=1, socket_limits=limits)
    with thread_server(app, keepalive=False) as base:
        guest = Guest(base)
        room = guest.new_room()
        sent = 20_000
        with not_reading_socket(guest, room["ws"]) as ws:
            for _ in range(sent):
                ws.send('{"type": "sync"}')
            ws.send(json.dumps({"type": "act", "action": {"pit": 2}}))  # 4 stones: extra turn
            messages: list[dict[str, Any]] = []
            while not messages or messages[-1]["type"] != "event":
                messages.append(json.loads(ws.recv(timeout=30)))
        syncs = [m for m in messages if m["type"] == "sync"]
        assert len(syncs) < sent / 2, "queued syncs were not coalesced"
        assert all(m["type"] == "sync" for m in messages[:-1])
        assert messages[-1]["seq"] == 1, "the socket stayed open and in order"


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}"
    limits = SocketLimits(per_second=1000.0, burst=1000, ping_seconds=None)
    # A room per example, hundreds of them: the guest limits are not what is tested here.
    roomy = GuestLimits(rooms_burst=10_000, address_burst=10_000, unfinished=10_000)
    app = create_app(url, secret_key="s", bot_workers=1, socket_limits=limits, guest_limits=roomy)
    with TestClient(app) as c:
        yield c


ANSWERS = {
    "bad_json",
    "bad_message",
    "too_large",
    "illegal_action",
    "not_your_turn",
    "game_over",
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
frames = st.one_of(
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
    st.text(max_size=200).map(lambda t: ("text", t)),
    json_values.map(lambda v: ("text", json.dumps(v))),
    st.dictionaries(st.text(max_size=8), json_values, max_size=3).map(
        lambda action: ("text", json.dumps({"type": "act", "action": action}))
    ),
    st.sampled_from(["type", "act", "sync", "action", "pit"]).flatmap(
        lambda key: json_values.map(lambda v: ("text", json.dumps({"type": v, key: v})))
    ),
)


@settings(max_examples=300, deadline=None)
@given(frame=frames)
def test_every_frame_gets_an_answer_and_the_socket_stays_open(
    shared_client: TestClient, frame: tuple[str, Any]
) -> None:
    kind, data = frame
    room = shared_client.post("/api/rooms", json={"game": "mancala", "level": "beginner"}).json()
    with shared_client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        if kind == "bytes":
            ws.send_bytes(data)
        else:
            ws.send_text(data)
        answer = ws.receive_json()
        assert answer["type"] in {"error", "event", "sync"}, answer
        if answer["type"] == "error":
            assert answer["code"] in ANSWERS, answer
            assert isinstance(answer["message"], str) and answer["message"]
        ws.send_json({"type": "sync"})
        after = ws.receive_json()
        while after["type"] != "sync":
            after = ws.receive_json()
        if answer["type"] == "error":
            assert after["seq"] == before["seq"], "a refused frame changed nothing"


def test_frames_the_protocol_refuses_close_cleanly_with_one_plain_log_line(
    server: ServerProcess,
) -> None:
    """Under ``asobiba serve`` itself, answers still going out: a frame over uvicorn's 64 KiB
    limit is closed with 1009, a text frame that is not UTF-8 with 1007; the server's output has
    one warning line for each, and no error or traceback (the answers sent after uvicorn's close
    used to raise "Unexpected ASGI message 'websocket.send', after sending 'websocket.close'")."""
    guest = Guest(server.base)
    room = guest.new_room()
    tries = 12
    for attempt in range(tries):
        with guest.socket(room["ws"], compression=None) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "sync"
            for _ in range(25):  # each answered with an error while the bad frame arrives
                ws.send('{"type": "nonsense"}')
            if attempt % 2:
                ws.send(b"\xff" * 8, text=True)
            else:
                ws.send(bytes(range(256)) * 300)  # 76,800 bytes
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == (1007 if attempt % 2 else 1009)
    server.stop()  # everything it had to say about those sockets is written
    log = server.log()
    assert "Traceback" not in log and "ERROR" not in log, log
    closes = [
        line for line in log.splitlines() if '"WebSocket /ws/rooms/' in line and "closed" in line
    ]
    assert len(closes) == tries, log
    too_big = "closed 1009: frame with 76800 bytes exceeds limit of 65536 bytes"
    assert sum(line.endswith(too_big) for line in closes) == tries // 2, log
