"""The room socket: seq on every message, resync, and clear errors that change nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse, WebSocketTestSession
from websockets.exceptions import InvalidStatus

from asobiba.server.rooms.errors import RoomError
from asobiba.server.settings import MAX_MESSAGE_BYTES
from asobiba.server.sockets.messages import Pong, parse_client_message
from tests.server.servers import Guest, ServerProcess

Start = Callable[..., dict[str, Any]]


def expect_error(ws: WebSocketTestSession, code: str) -> dict[str, Any]:
    message = ws.receive_json()
    assert message["type"] == "error", message
    assert message["code"] == code, message
    assert message["message"]
    return message


def assert_unchanged(ws: WebSocketTestSession, before: dict[str, Any]) -> None:
    ws.send_json({"type": "sync"})
    after = ws.receive_json()
    assert after["type"] == "sync"
    assert (after["seq"], after["obs"], after["legal"]) == (
        before["seq"],
        before["obs"],
        before["legal"],
    )


def test_connect_sends_the_seat_observation_and_legal_moves(
    client: TestClient, start: Start
) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        sync = ws.receive_json()
    assert sync["type"] == "sync"
    assert sync["seq"] == 0
    assert sync["seat"] == 0
    assert sync["legal"] == [{"pit": i} for i in range(6)]
    assert sync["obs"]["to_move"] == 0
    assert sync["players"] == [
        {"kind": "human", "name": None, "connected": True, "standin": None}
        | {"away": None, "standin_in": None, "host": False, "clock": None},
        {"kind": "bot", "level": "beginner", "name": None, "connected": True, "standin": None}
        | {"away": None, "standin_in": None, "host": False, "clock": None},
    ]
    assert sync["table"]["status"] == "playing" and sync["table"]["code"] is None
    assert sync["table"]["you"] == {"seat": 0, "host": False, "may_chat": False}


def test_a_move_is_sent_with_the_next_seq_then_the_bot_answers(
    client: TestClient, start: Start
) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "act", "action": {"pit": 2}})  # 4 stones from pit 2: extra turn
        event = ws.receive_json()
        assert (event["type"], event["seq"], event["obs"]["last"]["seat"]) == ("event", 1, 0)
        assert set(event) == {"type", "seq", "obs", "legal"}, "nothing beside the seat's view"
        assert event["obs"]["last"]["extra_turn"] is True
        assert event["obs"]["stores"] == [1, 0]
        ws.send_json({"type": "act", "action": {"pit": 0}})
        event = ws.receive_json()
        assert (event["seq"], event["obs"]["last"]["seat"]) == (2, 0)
        assert event["legal"] == []
        reply = ws.receive_json()
        assert (reply["type"], reply["seq"], reply["obs"]["last"]["seat"]) == ("event", 3, 1)


def test_malformed_json_is_refused(client: TestClient, start: Start) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        ws.send_text("{not json")
        expect_error(ws, "bad_json")
        assert_unchanged(ws, before)


def test_oversized_message_is_refused(client: TestClient, start: Start) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        ws.send_text(
            '{"type": "act", "action": {"pit": 0, "pad": "' + "x" * MAX_MESSAGE_BYTES + '"}}'
        )
        expect_error(ws, "too_large")
        assert_unchanged(ws, before)


def test_messages_of_the_wrong_shape_are_refused(client: TestClient, start: Start) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        for bad in ([1, 2], {"type": "move"}, {"type": "act"}, {"type": "act", "action": 3}):
            ws.send_json(bad)
            expect_error(ws, "bad_message")
        assert_unchanged(ws, before)


def test_illegal_actions_are_refused(client: TestClient, start: Start) -> None:
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        for action in ({"pit": 6}, {"pit": -1}, {"pit": "2"}, {"pit": True}, {"pit": 1, "x": 0}):
            ws.send_json({"type": "act", "action": action})
            expect_error(ws, "illegal_action")
        assert_unchanged(ws, before)


def test_an_onlooker_without_a_seat_cannot_act(client: TestClient, start: Start) -> None:
    room = start(client)
    with TestClient(client.app) as stranger, stranger.websocket_connect(room["ws"]) as ws:
        sync = ws.receive_json()
        assert sync["seat"] is None
        assert sync["legal"] == []
        ws.send_json({"type": "act", "action": {"pit": 0}})
        expect_error(ws, "not_seated")
        assert_unchanged(ws, sync)


def test_unknown_room_is_reported_and_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/nope") as ws:
        expect_error(ws, "unknown_room")


def test_a_socket_opened_from_another_site_is_refused(client: TestClient, start: Start) -> None:
    room = start(client)
    headers = {"origin": "https://evil.example", "host": "testserver"}
    try:
        with client.websocket_connect(room["ws"], headers=headers) as ws:
            ws.receive_json()
    except WebSocketDenialResponse as refused:
        assert refused.status_code == 403
        assert refused.text == "cross-origin socket refused"
    else:
        raise AssertionError("the cross-origin socket was accepted")
    with client.websocket_connect(room["ws"], headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "sync"


def test_the_origins_scheme_must_be_the_sockets(client: TestClient, start: Start) -> None:
    """Issue 30, point 10: a page of the same host over plain HTTP (which anyone on the line can
    write) may not open a socket of the site served over TLS, nor the other way round."""
    room = start(client)
    secure = room["ws"].replace("/ws/", "wss://testserver/ws/", 1)
    for url, origin in [(secure, "http://testserver"), (room["ws"], "https://testserver")]:
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            client.websocket_connect(url, headers={"origin": origin}) as ws,
        ):
            ws.receive_json()
        assert refused.value.status_code == 403, (url, origin)
    with client.websocket_connect(secure, headers={"origin": "https://testserver"}) as ws:
        assert ws.receive_json()["type"] == "sync"


def test_a_cross_origin_handshake_is_refused_with_one_plain_log_line(
    server: ServerProcess,
) -> None:
    """Under ``asobiba serve`` itself: a 403 with its reason, and in the server's output one
    warning line and no error or traceback (uvicorn's own lines about the refusal are INFO)."""
    guest = Guest(server.base)
    room = guest.new_room()
    for _ in range(3):
        with pytest.raises(InvalidStatus) as refused:
            guest.socket(room["ws"], origin="https://evil.example")
        assert refused.value.response.status_code == 403
        assert refused.value.response.body == b"cross-origin socket refused"
    server.stop()  # everything it had to say about those sockets is written
    log = server.log()
    assert "Traceback" not in log and "ERROR" not in log, log
    refusals = [line for line in log.splitlines() if "room socket refused" in line]
    assert len(refusals) == 3, log
    assert "'https://evil.example' is not this site" in refusals[0]


def test_a_pong_gets_no_answer_and_changes_nothing(client: TestClient, start: Start) -> None:
    """A pong is itself the answer to the server's ping: the one frame that gets none back,
    whatever its id, even one no ping had."""
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        ws.send_json({"type": "pong", "id": 1})
        ws.send_json({"type": "pong", "id": 12345})
        assert_unchanged(ws, before)  # the next message is the sync's answer


@pytest.mark.parametrize("ping_id", [3.0, "3", True, None, [3], 1e300])
def test_a_pong_id_must_be_an_integer(client: TestClient, start: Start, ping_id: Any) -> None:
    with pytest.raises(RoomError) as refused:
        parse_client_message(json.dumps({"type": "pong", "id": ping_id}))
    assert refused.value.code == "bad_message"
    room = start(client)
    with client.websocket_connect(room["ws"]) as ws:
        before = ws.receive_json()
        ws.send_json({"type": "pong", "id": ping_id})
        expect_error(ws, "bad_message")
        assert_unchanged(ws, before)
    assert parse_client_message('{"type": "pong", "id": 3}') == Pong(3)
