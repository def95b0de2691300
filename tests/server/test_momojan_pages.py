"""MOMOJAN's pages: the play page (settings from the game's data, no engine-only option), the
strings its table names (every yaku and set bonus of data.toml), and its room address."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asobiba.games import COMING, game_names, get_game
from asobiba.games.momojan.data import BONUSES, YAKU
from asobiba.server.http import pages
from tests.server.test_pages import embedded


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(pages.router)
    pages.mount_static(app)
    with TestClient(app) as client:
        yield client


def test_momojan_is_offered_and_no_longer_coming() -> None:
    assert "momojan" in game_names() and game_names()[0] == "mancala"
    assert "momojan" not in COMING


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_play_page_renders_the_table_with_levels_from_the_game(
    client: TestClient, lang: str
) -> None:
    client.cookies.set("lang", lang)
    response = client.get("/games/momojan")
    assert response.status_code == 200
    text = response.text
    strings = pages.strings(lang)
    assert strings["game.momojan.name"] in text
    assert 'id="board"' in text and 'id="prompts"' in text and 'id="round-result"' in text
    assert "/static/js/momojan/play.js" in text and "/static/css/momojan.css" in text
    data = embedded(text, "page-data")
    assert isinstance(data, dict)
    assert data["game"] == "momojan" and data["room"] is None
    assert [level["id"] for level in data["levels"]] == get_game("momojan").levels
    assert data["options"] == [], "dealerships is engine-only (ui=False)"
    assert 'name="dealerships"' not in text
    for order in ("first", "second", "random"):
        assert f'name="order" value="{order}"' in text
    for names in get_game("momojan").level_names().values():
        assert names[lang] in text


def test_every_yaku_and_set_bonus_has_its_data_file_name_in_both_languages() -> None:
    for lang in pages.LANGS:
        strings = pages.strings(lang)
        for yaku in YAKU:
            assert strings[f"momojan.yaku.{yaku.id}"] == getattr(yaku, lang), yaku.id
        for bonus in BONUSES:
            assert strings[f"momojan.bonus.{bonus.id}"] == getattr(bonus, lang), bonus.id


def test_the_game_terms_stay_japanese_in_english() -> None:
    en = pages.strings("en")
    for term in ("pon", "chi", "kai", "ron", "tsumo", "riichi"):
        assert re.search(r"[ぁ-んァ-ン一-龯]", en[f"momojan.act.{term}"]), term
