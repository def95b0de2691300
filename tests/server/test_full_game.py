"""A whole game through the socket lands in the records and replays move for move.

Runs on the embedded SQLite file and on the machine's real PostgreSQL server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.rooms import recovery
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import SocketLimits

Start = Callable[..., dict[str, Any]]


def hub_of(client: TestClient) -> Hub:
    app = client.app
    assert isinstance(app, FastAPI)
    hub: Hub = app.state.hub
    return hub


def play_out(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    """Play the leftmost legal pit whenever it is our turn; return the final event."""
    with client.websocket_connect(room["ws"]) as ws:
        message = ws.receive_json()
        seq = message["seq"]
        while message["obs"]["outcome"] is None:
            if message["legal"]:
                ws.send_json({"type": "act", "action": message["legal"][0]})
            message = ws.receive_json()
            assert message["type"] == "event", message
            assert message["seq"] == seq + 1
            seq = message["seq"]
        return message


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_finished_game_is_recorded_and_replayable(
    backend: str, request: pytest.FixtureRequest, start: Start
) -> None:
    url = request.getfixturevalue(f"{backend}_url" if backend == "sqlite" else "postgres_url")
    quiet = SocketLimits(ping_seconds=None)  # this test reads every message in order
    with TestClient(create_app(url, secret_key="k", bot_workers=1, socket_limits=quiet)) as client:
        room = start(client, order="second", options={"seeds": 3})
        final = play_out(client, room)
        outcome = final["obs"]["outcome"]
        records = client.get("/api/records/mancala").json()
        [row] = records["rows"]
        assert row["level"] == "beginner"
        assert row["seat"] == 1
        assert row["games"] == 1
        assert row["wins"] + row["draws"] + row["losses"] == 1
        assert row["options"]["seeds"] == 3
        [listed] = records["games"]
        assert listed["room_id"] == room["room_id"]
        assert listed["scores"] == [outcome["scores"][1], outcome["scores"][0]]

        replay = client.get(f"/api/rooms/{room['room_id']}/replay").json()
        assert replay["seat"] == 1
        stored = hub_of(client).store.load_room(room["room_id"])
        assert stored is not None
        # One frame per event and the start. The socket numbers only what it was sent: the bot's
        # opening moves (a sowing into its store moves again) may already be in the position its
        # socket's first message shows, and every event after that was sent to it.
        assert len(replay["frames"]) == len(stored.events) + 1
        before = len(stored.events) - final["seq"]
        assert before >= 0
        assert all(seat == 0 for seat, _, _ in stored.events[:before]), "only the bot's opening"
        game = get_game("mancala")
        assert replay["frames"][-1] == game.observe(recovery.replay(game, stored), 1)
        assert "events" not in replay, "every byte of a replay is an observation"
        assert replay["outcome"] == outcome


def test_records_count_streaks_per_rule_set_strength_and_seat(
    client: TestClient, start: Start
) -> None:
    for order in ("first", "first", "second"):
        play_out(client, start(client, order=order, options={"seeds": 3}))
    play_out(client, start(client, order="first", options={"variant": "basic", "seeds": 3}))
    rows = client.get("/api/records/mancala").json()["rows"]
    keys = [(r["options"]["variant"], r["seat"], r["games"]) for r in rows]
    assert sorted(keys) == [("basic", 0, 1), ("kalah", 0, 2), ("kalah", 1, 1)]
    assert {row["players"] for row in rows} == {2}
    for row in rows:
        assert row["streak"]["length"] >= 1
        assert row["win_rate"] == round(row["wins"] / row["games"], 4)


def test_a_finished_room_leaves_memory_when_its_last_socket_closes(
    client: TestClient, start: Start
) -> None:
    room = start(client, options={"seeds": 3})
    hub = hub_of(client)
    play_out(client, room)
    assert room["room_id"] not in hub
    assert client.get(f"/api/rooms/{room['room_id']}/replay").status_code == 200


def test_a_game_left_halfway_is_dropped_and_resumes_on_the_next_socket(
    client: TestClient, start: Start
) -> None:
    room = start(client, options={"seeds": 4})
    hub = hub_of(client)
    with client.websocket_connect(room["ws"]) as ws:
        first = ws.receive_json()
        ws.send_json({"type": "act", "action": {"pit": 2}})  # an extra turn: still ours
        after = ws.receive_json()
        assert after["seq"] == 1 and after["legal"]
    assert room["room_id"] not in hub
    with client.websocket_connect(room["ws"]) as ws:
        again = ws.receive_json()
        assert again["type"] == "sync"
        assert (again["obs"], again["legal"]) == (after["obs"], after["legal"])
        assert again["seq"] == 0, "a new socket counts the changes it is sent from 0"
        assert first["obs"] != again["obs"]
