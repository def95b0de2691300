"""The lobby's pages (docs/ARCHITECTURE.md, "Tables between people"): /tables in both languages,
the site's menu and home page leading there, and a table's short code at /t/{code} (and the code
box's /t?code=) leading to the table's own address, or to the 404 page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.games import game_names
from asobiba.server.http.pages import strings


def page_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert match, "the page embeds its data"
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def public_table(client: TestClient, game: str = "mancala") -> dict[str, Any]:
    """A public table of two seats, the caller's and one open for a person."""
    response = client.post(
        "/api/rooms",
        json={
            "game": game,
            "options": {},
            "seats": [{"kind": "me"}, {"kind": "open"}],
            "public": True,
        },
    )
    assert response.status_code == 201, response.text
    room: dict[str, Any] = response.json()
    assert re.fullmatch(r"[A-Za-z0-9]{4,8}", room["code"]), room
    return room


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_lobby_page_renders_in_both_languages(client: TestClient, lang: str) -> None:
    client.cookies.set("lang", lang)
    response = client.get("/tables")
    assert response.status_code == 200
    assert response.headers["content-language"] == lang
    text = response.text
    words = strings(lang)
    for key in (
        "lobby.title",
        "lobby.waiting.title",
        "lobby.playing.title",
        "lobby.waiting.empty",
        "lobby.playing.empty",
        "lobby.code.title",
        "lobby.set",
    ):
        assert words[key] in text, key
    assert '<html lang="' + lang + '" data-page="tables">' in text
    assert f'<a href="/tables" aria-current="page">{words["nav.tables"]}</a>' in text
    assert 'id="waiting"' in text and 'id="playing"' in text
    assert re.search(
        r'<input[^>]+id="code"[^>]+maxlength="8"[^>]+autocapitalize="characters"', text
    )
    assert 'href="/games" id="set-table"' in text
    assert "/static/js/lobby.js?v=" in text and "/static/css/lobby.css?v=" in text
    games = page_data(text)["games"]
    assert set(games) == set(game_names())
    assert {spec["key"] for spec in games["mancala"]["options"]} >= {"variant", "seeds"}


def test_the_menu_and_the_home_page_lead_to_the_lobby(client: TestClient) -> None:
    for lang in ("ja", "en"):
        client.cookies.set("lang", lang)
        words = strings(lang)
        for path in ("/", "/games", "/records"):
            text = client.get(path).text
            link = r'<a href="/tables"\s*>' + re.escape(words["nav.tables"]) + "</a>"
            assert re.search(link, text), (lang, path)
        assert words["lobby.home_link"] in client.get("/").text


def test_a_tables_code_leads_to_its_address_in_any_case(client: TestClient) -> None:
    room = public_table(client)
    address = f"/games/mancala/{room['room_id']}"
    for code in (room["code"], room["code"].lower(), room["code"].title()):
        response = client.get(f"/t/{code}", follow_redirects=False)
        assert response.status_code == 303, code
        assert response.headers["location"] == address
    # The code box without scripts: a GET form to /t.
    response = client.get(
        "/t", params={"code": f" {room['code'].lower()} "}, follow_redirects=False
    )
    assert response.status_code == 303
    assert response.headers["location"] == f"/t/{room['code'].upper()}"
    # And all the way: the table's own page.
    assert client.get(f"/t/{room['code']}").url.path == address


@pytest.mark.parametrize(
    "code",
    [
        "ZZZZZZ",
        "ab12",
        "AB",
        "ABCDEFGHJ",
        "AB-CD1",
        "AB%20CD",
        "%E3%81%82%E3%81%84%E3%81%86%E3%81%88",
    ],
)
def test_an_unknown_or_malformed_code_is_the_404_page(client: TestClient, code: str) -> None:
    public_table(client)
    client.cookies.set("lang", "en")
    response = client.get(f"/t/{code}", follow_redirects=False)
    assert response.status_code == 404, code
    assert response.headers["content-type"].startswith("text/html")
    assert strings("en")["notfound.title"] in response.text
    response = client.get("/t", params={"code": code}, follow_redirects=False)
    assert response.status_code in (303, 404)
    if response.status_code == 303:  # well formed: on to /t/{CODE}, which is unknown
        assert client.get(response.headers["location"]).status_code == 404
