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


def test_english_buttons_lead_with_english_and_keep_the_japanese_term_beside() -> None:
    """Issue 31, point 19: an English page's buttons read "Pon" with ポン beside it (the term
    players say at the table); the Japanese page shows the term alone. Every yaku says in a
    phrase why a hand has it, in both languages."""
    en, ja = pages.strings("en"), pages.strings("ja")
    japanese = re.compile(r"[ぁ-んァ-ン一-龯]")
    for term in ("pon", "chi", "kai", "ron", "tsumo", "riichi"):
        assert re.fullmatch(r"[A-Z][a-z]+", en[f"momojan.act.{term}"]), term
        assert japanese.search(en[f"momojan.act.{term}.term"]), term
        assert ja[f"momojan.act.{term}"] == ja[f"momojan.act.{term}.term"], term
    assert en["momojan.line.ron"] == "Ron bonus"
    for yaku in YAKU:
        assert not japanese.search(en[f"momojan.yaku.{yaku.id}.why"].replace("Ron", "")), yaku
        assert japanese.search(ja[f"momojan.yaku.{yaku.id}.why"]), yaku
