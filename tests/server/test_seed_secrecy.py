"""A room's seed is wide, secret and never leaves the database: not in a socket message, a page,
an API answer or a log line."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

from asobiba.core.rng import SEED_BITS
from tests.server.conftest import Start
from tests.server.test_full_game import hub_of


def test_the_seed_is_wide_and_appears_in_nothing_a_player_gets(
    client: TestClient, start: Start, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    room = start(client, game="momojan")
    stored = hub_of(client).store.load_room(room["room_id"])
    assert stored is not None
    seed = stored.seed
    assert seed.bit_length() > SEED_BITS - 40, "drawn from 256 bits (a shorter one: 2^-40)"
    received: list[str] = []
    with client.websocket_connect(room["ws"]) as ws:
        while len(received) < 20:  # some moves of the first round, bot replies included
            received.append(ws.receive_text())
            view = json.loads(received[-1])
            if view["obs"]["outcome"] is not None:
                break
            if view["legal"]:
                ws.send_json({"type": "act", "action": view["legal"][0]})
    pages = [
        client.get(f"/games/momojan/{room['room_id']}").text,
        client.get("/api/rooms", params={"game": "momojan"}).text,
        client.get("/records/momojan").text,
    ]
    logged = [record.getMessage() for record in caplog.records]
    for text in received + pages + logged:
        assert str(seed) not in text
        assert f"{seed:x}" not in text
