"""The JSON API: bad set-ups are refused with a clear error and store nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from asobiba.games import get_game

Start = Callable[..., dict[str, Any]]


def test_games_lists_mancala_with_its_options_and_levels(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    mancala = next(g for g in games if g["name"] == "mancala")
    assert [o["key"] for o in mancala["options"]][:2] == ["variant", "seeds"]
    assert len(mancala["levels"]) >= 4
    assert all({"ja", "en"} <= set(level["name"]) for level in mancala["levels"])


def test_first_visit_gets_a_signed_guest_cookie(client: TestClient) -> None:
    response = client.get("/api/games")
    assert "asobiba" in response.cookies


def test_new_room_takes_the_chosen_seat(client: TestClient, start: Start) -> None:
    assert start(client, order="first")["seat"] == 0
    assert start(client, order="second")["seat"] == 1
    assert start(client, order="random")["seat"] in (0, 1)


def test_new_room_resolves_options_into_the_rule_set(client: TestClient, start: Start) -> None:
    room = start(client, options={"variant": "basic", "seeds": 3})
    with client.websocket_connect(room["ws"]) as ws:
        sync = ws.receive_json()
    assert sync["obs"]["options"] == {"variant": "basic", "seeds": 3, "pits": 6}
    assert sync["obs"]["pits"] == [[3] * 6, [3] * 6]


def error_of(response_json: dict) -> str:
    return response_json["error"]["code"]


def test_unknown_option_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/rooms",
        json={"game": "mancala", "options": {"speed": 2}, "level": "beginner"},
    )
    assert response.status_code == 400
    assert error_of(response.json()) == "invalid_options"
    assert "speed" in response.json()["error"]["message"]


def test_unknown_option_value_is_refused(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", json={"game": "mancala", "options": {"seeds": 7}, "level": "beginner"}
    )
    assert response.status_code == 400
    assert error_of(response.json()) == "invalid_options"


def test_unknown_level_game_order_and_fields_are_refused(client: TestClient) -> None:
    bad_level = client.post("/api/rooms", json={"game": "mancala", "level": "godlike"})
    assert (bad_level.status_code, error_of(bad_level.json())) == (400, "invalid_level")
    bad_game = client.post("/api/rooms", json={"game": "chess", "level": "beginner"})
    assert (bad_game.status_code, error_of(bad_game.json())) == (404, "unknown_game")
    bad_order = client.post(
        "/api/rooms", json={"game": "mancala", "level": "beginner", "order": "last"}
    )
    assert (bad_order.status_code, error_of(bad_order.json())) == (400, "bad_request")
    extra = client.post("/api/rooms", json={"game": "mancala", "level": "beginner", "x": 1})
    assert (extra.status_code, error_of(extra.json())) == (400, "bad_request")
    not_json = client.post(
        "/api/rooms", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert (not_json.status_code, error_of(not_json.json())) == (400, "bad_request")


def test_oversized_body_is_refused(client: TestClient) -> None:
    body = {"game": "mancala", "level": "beginner", "options": {"x": "y" * 20000}}
    response = client.post("/api/rooms", json=body)
    assert (response.status_code, error_of(response.json())) == (413, "too_large")


def test_records_of_a_new_guest_are_empty(client: TestClient) -> None:
    empty: dict[str, object] = {"fields": [], "rows": [], "games": [], "accuracy": []}
    # A new guest has done none of the course, which a game with one still counts.
    lessons = get_game("mancala").lessons()  # type: ignore[attr-defined]
    empty["learning"] = {"lessons": {"done": 0, "total": len(lessons)}}
    assert client.get("/api/records/mancala").json() == empty


def test_replay_of_unknown_or_unfinished_game_is_404(client: TestClient, start: Start) -> None:
    assert client.get("/api/rooms/nope/replay").status_code == 404
    room = start(client)
    assert client.get(f"/api/rooms/{room['room_id']}/replay").status_code == 404


def test_a_player_count_the_game_does_not_take_is_refused(client: TestClient) -> None:
    body = {"game": "mancala", "level": "beginner", "players": 3}
    response = client.post("/api/rooms", json=body)
    assert (response.status_code, error_of(response.json())) == (400, "invalid_players")
    assert response.json()["error"]["message"] == "mancala is played by 2 players, not 3"
    assert client.post("/api/rooms", json={**body, "players": 2}).status_code == 201
    assert client.post("/api/rooms", json={**body, "players": 0}).status_code == 400
