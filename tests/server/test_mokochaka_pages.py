"""Mokochaka's play page: offered on the site, its settings take the number of players from the
game's seat range (page data ``seats``) and its levels from the engine, and a game's own address
seats its guest (a spectator gets the read-only table)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from asobiba.games import COMING, game_names, get_game
from asobiba.server.http.pages import strings
from tests.server.test_room_pages import another_guest, page_data

GAME = get_game("mokochaka")


def test_mokochaka_is_offered_and_no_longer_coming() -> None:
    assert "mokochaka" in game_names()
    assert "mokochaka" not in COMING


def test_play_page_renders_with_the_seat_range_and_the_levels(client: TestClient) -> None:
    client.cookies.set("lang", "ja")
    response = client.get("/games/mokochaka")
    assert response.status_code == 200
    text = response.text
    data = page_data(text)
    assert data["game"] == "mokochaka"
    assert data["seats"] == {"min": GAME.min_seats, "max": GAME.max_seats} == {"min": 2, "max": 6}
    assert [level["id"] for level in data["levels"]] == GAME.levels
    assert data["room"] is None
    for n in range(GAME.min_seats, GAME.max_seats + 1):
        assert f'name="players" value="{n}"' in text
    assert 'name="players" value="1"' not in text and 'name="players" value="7"' not in text
    assert 'name="players" value="3" checked' in text, "three players by default"
    for level in GAME.levels:
        assert f'name="level" value="{level}"' in text
    ja = strings("ja")
    assert ja["moko.tagline"] in text
    assert 'src="/static/js/mokochaka/play.js' in text
    assert 'href="/static/css/mokochaka.css' in text
    assert 'style="' not in text, "the CSP refuses style attributes"


def test_a_mokochaka_game_has_an_address_and_spectators_watch(
    client: TestClient, sqlite_url: str
) -> None:
    created = client.post(
        "/api/rooms",
        json={
            "game": "mokochaka",
            "options": {},
            "level": GAME.levels[0],
            "order": "random",
            "players": 4,
        },
    )
    assert created.status_code == 201, created.text
    room = created.json()
    response = client.get(f"/games/mokochaka/{room['room_id']}")
    assert response.status_code == 200
    data = page_data(response.text)
    assert data["room"]["seat"] == room["seat"]
    assert len(data["room"]["players"]) == 4
    assert data["seats"]["max"] == 6
    # "Same settings again" seats four again, at random (first/second mean nothing at four).
    assert data["room"]["settings"]["players"] == 4
    assert data["room"]["settings"]["order"] == "random"
    assert 'id="pad"' in response.text, "the seated guest gets the call pad"
    assert 'id="rematch"' in response.text
    with another_guest(sqlite_url) as other:
        watched = other.get(f"/games/mokochaka/{room['room_id']}")
        assert watched.status_code == 200
        assert page_data(watched.text)["room"]["seat"] is None
        assert 'data-mode="watch"' in watched.text
        assert 'id="pad"' not in watched.text, "a spectator has nothing to press"
        assert 'id="rematch"' not in watched.text, "a spectator has no game to play again"
