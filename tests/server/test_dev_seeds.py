"""``ASOBIBA_DEV_SEEDS``: a fixed deal for end-to-end tests, refused unless the server is told to
take it (whoever knows a game's seed knows every hidden card)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from asobiba.games import get_game
from asobiba.server.app import create_app


def test_a_seed_is_refused_while_dev_seeds_is_off(client: TestClient) -> None:
    body = {"game": "momojan", "level": get_game("momojan").levels[0], "seed": 1142}
    response = client.post("/api/rooms", json=body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "seed_refused"


@pytest.mark.parametrize("value", ["0", "", "no"])
def test_only_a_yes_turns_dev_seeds_on(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("ASOBIBA_DEV_SEEDS", value)
    with TestClient(create_app(sqlite_url, secret_key="s", bot_workers=1)) as configured:
        body = {"game": "momojan", "level": get_game("momojan").levels[0], "seed": 7}
        assert configured.post("/api/rooms", json=body).status_code == 400


def test_with_dev_seeds_the_same_seed_deals_the_same_game(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASOBIBA_DEV_SEEDS", "1")
    with TestClient(create_app(sqlite_url, secret_key="s", bot_workers=1)) as configured:
        body = {"game": "momojan", "level": get_game("momojan").levels[0], "seed": 1142}
        hands = []
        for _ in range(2):
            created = configured.post("/api/rooms", json=body)
            assert created.status_code == 201, created.text
            with configured.websocket_connect(created.json()["ws"]) as ws:
                sync = ws.receive_json()
                assert sync["type"] == "sync"
                hands.append(sync["obs"]["hand"])
        assert hands[0] == hands[1]
        assert configured.post("/api/rooms", json={**body, "seed": -1}).status_code == 400
