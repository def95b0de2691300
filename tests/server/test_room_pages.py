"""Pages that need the whole app (the hub and its store): a game's own address, who sits and who
watches there, the list of a guest's unfinished games, replays of unknown games, /games,
/records and HEAD requests."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from asobiba.games import game_names, get_game
from asobiba.server.app import create_app
from asobiba.server.http.pages import strings
from asobiba.server.main import startup_line
from asobiba.server.settings import SocketLimits
from tests.server.stored_games import store_of
from tests.server.test_full_game import play_out

Start = Callable[..., dict[str, Any]]


def page_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match, "the page embeds its data"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def another_guest(sqlite_url: str) -> TestClient:
    """A second browser on the same server: same database and key, its own guest cookie."""
    quiet = SocketLimits(ping_seconds=None)  # these tests read every message in order
    return TestClient(
        create_app(sqlite_url, secret_key="test-secret", bot_workers=1, socket_limits=quiet)
    )


def test_a_game_has_an_address_where_its_guest_is_seated(client: TestClient, start: Start) -> None:
    room = start(client, order="second")
    response = client.get(f"/games/mancala/{room['room_id']}")
    assert response.status_code == 200
    data = page_data(response.text)
    assert data["room"]["room_id"] == room["room_id"]
    assert data["room"]["seat"] == 1, "the seat comes from the signed guest cookie"
    assert data["room"]["ws"] == room["ws"]
    assert data["room"]["settings"]["level"] == "beginner"
    assert data["room"]["settings"]["order"] == "second"
    assert 'data-state="playing"' in response.text
    assert 'data-mode="watch"' not in response.text
    assert 'id="rematch"' in response.text


def test_anyone_else_at_that_address_is_a_spectator(
    client: TestClient, start: Start, sqlite_url: str
) -> None:
    room = start(client)
    with another_guest(sqlite_url) as other:
        response = other.get(f"/games/mancala/{room['room_id']}")
        assert response.status_code == 200
        assert page_data(response.text)["room"]["seat"] is None
        assert 'data-mode="watch"' in response.text
        assert strings("ja")["play.watching"] in response.text
        # The result dialog offers a spectator the review and the close, not a rematch of a
        # game that was not theirs, nor their own settings or records.
        for button in ('id="rematch"', 'id="change"', 'id="to-records"'):
            assert button not in response.text, button
        assert 'id="review-game"' in response.text and 'id="close-result"' in response.text
        # The server, not the page, decides: the spectator's socket cannot act.
        with other.websocket_connect(room["ws"]) as ws:
            sync = ws.receive_json()
            assert sync["seat"] is None and sync["legal"] == []
            ws.send_json({"type": "act", "action": {"pit": 0}})
            assert ws.receive_json()["code"] == "not_seated"


def test_unknown_rooms_and_rooms_of_another_game_are_404_pages(
    client: TestClient, start: Start
) -> None:
    room = start(client)
    for path in (
        "/games/mancala/0123456789abcdef",
        "/games/mancala/bad%21id",
        f"/games/momojan/{room['room_id']}",
        f"/games/nope/{room['room_id']}",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert strings("ja")["notfound.title"] in response.text


def test_unfinished_games_are_listed_for_their_guest_only(
    client: TestClient, start: Start, sqlite_url: str
) -> None:
    first = start(client, order="first")
    with client.websocket_connect(first["ws"]) as ws:
        sync = ws.receive_json()
        ws.send_json({"type": "act", "action": sync["legal"][0]})
        assert ws.receive_json()["seq"] == 1
    second = start(client, order="second", options={"variant": "basic"})
    listed = client.get("/api/rooms", params={"mine": "unfinished", "game": "mancala"}).json()
    assert [room["room_id"] for room in listed["rooms"]] == [
        second["room_id"],
        first["room_id"],
    ], "newest first"
    newest = listed["rooms"][0]
    assert newest["url"] == f"/games/mancala/{second['room_id']}"
    assert (newest["seat"], newest["players"], newest["level"]) == (1, 2, "beginner")
    assert newest["options"]["variant"] == "basic"
    assert "moves" not in listed["rooms"][1], "a raw event count would show secret answers"
    with another_guest(sqlite_url) as other:
        assert other.get("/api/rooms?mine=unfinished&game=mancala").json()["rooms"] == []
    play_out(client, first)
    left = client.get("/api/rooms?mine=unfinished&game=mancala").json()["rooms"]
    assert [room["room_id"] for room in left] == [second["room_id"]], "finished games drop out"


def test_unfinished_games_need_a_known_game(client: TestClient) -> None:
    assert client.get("/api/rooms?mine=unfinished&game=nope").status_code == 404
    assert client.get("/api/rooms?mine=everything&game=mancala").status_code == 400


def test_replay_page_of_an_unknown_or_abandoned_game_is_a_404_page(
    client: TestClient, start: Start
) -> None:
    kept = store_of(client).load_room(start(client)["room_id"])
    assert kept is not None
    abandoned = start(client)["room_id"]
    guest = kept.seats[0]["player"]
    assert store_of(client).abandon_oldest(guest, keep=1, busy={kept.id}) == [abandoned]
    for path in ("/replay/0123456789abcdef", f"/replay/{abandoned}", "/replay/bad%21id"):
        response = with_lang(client, "en").get(path)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/html")
        assert strings("en")["notfound.title"] in response.text


def test_replay_page_of_a_game_still_being_played_says_so_and_links_to_it(
    client: TestClient, start: Start
) -> None:
    room = start(client)
    address = f'href="/games/mancala/{room["room_id"]}"'
    for lang in ("ja", "en"):
        words = strings(lang)
        response = with_lang(client, lang).get(f"/replay/{room['room_id']}")
        assert response.status_code == 200
        main = response.text[response.text.index("<main") : response.text.index("</main>")]
        assert f"<h1>{words['replay.playing.title']}</h1>" in main
        lead = words["replay.playing.lead"].replace("{game}", words["game.mancala.name"])
        assert lead in main
        assert f'id="watch-game" {address}>{words["replay.playing.watch"]}</a>' in main
        assert words["notfound.lead"] not in main
    play_out(client, room)
    response = client.get(f"/replay/{room['room_id']}")
    assert response.status_code == 200
    assert page_data(response.text)["room_id"] == room["room_id"]


def with_lang(client: TestClient, lang: str) -> TestClient:
    client.cookies.set("lang", lang)
    return client


def test_games_lists_every_game(client: TestClient) -> None:
    response = with_lang(client, "en").get("/games")
    assert response.status_code == 200
    en = strings("en")
    assert f"<h1>{en['games.title']}</h1>" in response.text
    for key in ("game.mancala.name", "game.mokochaka.name", "game.momojan.name"):
        assert en[key] in response.text
    assert 'href="/games/mancala"' in response.text
    assert 'href="/games" aria-current="page"' in response.text


def test_records_shows_every_game(client: TestClient) -> None:
    response = with_lang(client, "en").get("/records")
    assert response.status_code == 200
    assert f"<h1>{strings('en')['records.all_title']}</h1>" in response.text
    data = page_data(response.text)
    assert data["game"] is None
    assert [entry["game"] for entry in data["games"]] == game_names()
    assert data["games"][0]["levels"][0]["id"] == "beginner"


def test_pages_answer_head(client: TestClient, start: Start) -> None:
    room = start(client)
    for path in ("/", "/games", "/games/mancala", "/records", f"/games/mancala/{room['room_id']}"):
        response = client.head(path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].startswith("text/html")
    assert client.head("/replay/0123456789abcdef").status_code == 404


def test_startup_line_names_the_address_and_the_database() -> None:
    line = startup_line("127.0.0.1", 8000, "sqlite:////data/asobiba.sqlite3")
    assert (
        line == "asobiba: open http://127.0.0.1:8000 (database: SQLite file /data/asobiba.sqlite3)"
    )
    hidden = startup_line("0.0.0.0", 80, "postgresql+psycopg://me:secret@db.example/asobiba")
    assert "secret" not in hidden
    assert "postgresql+psycopg://me:***@db.example/asobiba" in hidden


def test_a_rematch_from_a_game_address_starts_with_offered_options_only(
    client: TestClient, start: Start
) -> None:
    """The address's settings are what "same settings again" posts: an engine-only option of the
    resolved rule set (Mancala's ``pits``, MOMOJAN's ``dealerships``) would be refused."""
    for game in ("mancala", "momojan"):
        level = get_game(game).levels[0]
        created = client.post("/api/rooms", json={"game": game, "level": level})
        assert created.status_code == 201, created.text
        data = page_data(client.get(f"/games/{game}/{created.json()['room_id']}").text)
        settings = data["room"]["settings"]
        assert "pits" not in settings["options"] and "dealerships" not in settings["options"]
        again = client.post("/api/rooms", json={"game": game, **settings})
        assert again.status_code == 201, again.text


def test_a_spectator_of_any_game_gets_no_button_that_plays(
    client: TestClient, sqlite_url: str
) -> None:
    """Every play page shares one frame (_play.html): the seated guest has the table bar's
    new-game button and the result bar's rematch and change buttons; a spectator has none of
    them, nor Mokochaka's call pad."""
    playing_ids = ('id="new-game"', 'id="rematch-bar"', 'id="change-bar"')
    for game in game_names():
        engine = get_game(game)
        created = client.post(
            "/api/rooms",
            json={"game": game, "level": engine.levels[0], "players": engine.min_seats},
        )
        assert created.status_code == 201, created.text
        address = f"/games/{game}/{created.json()['room_id']}"
        seated = client.get(address).text
        assert all(marker in seated for marker in playing_ids), game
        with another_guest(sqlite_url) as other:
            watched = other.get(address).text
        assert 'data-mode="watch"' in watched
        assert not [marker for marker in (*playing_ids, 'id="pad"') if marker in watched], game
