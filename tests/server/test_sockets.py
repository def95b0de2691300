"""The room socket: seq on every message, resync, and clear errors that change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse, WebSocketTestSession

from asobiba.server.settings import MAX_MESSAGE_BYTES

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
    assert sync["players"] == [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]


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
