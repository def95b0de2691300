"""MICHIKAKE's pages: offered on the site with its table (settings for 3 or 4 players from the
game's data, no engine-only option), its rule page in both languages, the home page's art, and
the names its table shows for every hand and bonus card of data.toml."""

from __future__ import annotations

import html
import re
import tomllib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asobiba.games import COMING, game_names, get_game, michikake
from asobiba.games.michikake.data import BONUS_CARDS, YAKU
from asobiba.server.http import pages
from tests.server.test_pages import embedded


def test_michikake_is_offered_last_and_no_longer_coming() -> None:
    assert game_names()[-1] == "michikake"
    assert "michikake" not in COMING


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_play_page_offers_three_or_four_players_and_every_level(
    client: TestClient, lang: str
) -> None:
    client.cookies.set("lang", lang)
    response = client.get("/games/michikake")
    assert response.status_code == 200
    text = response.text
    assert pages.strings(lang)["game.michikake.name"] in text
    assert 'id="board"' in text and 'id="prompts"' in text and 'id="deal-result"' in text
    assert "/static/js/michikake/play.js" in text and "/static/css/michikake.css" in text
    data = embedded(text, "page-data")
    assert isinstance(data, dict)
    assert data["game"] == "michikake" and data["room"] is None
    assert data["seats"] == {"min": 3, "max": 4}
    assert data["options"] == [], "short_pile is engine-only (ui=False)"
    assert 'name="short_pile"' not in text
    assert 'name="players" value="3" checked' in text and 'name="players" value="4"' in text
    assert 'name="order"' not in text, "the person's seat is drawn at a table of 3 or 4"
    assert [level["id"] for level in data["levels"]] == get_game("michikake").levels
    for names in get_game("michikake").level_names().values():
        assert names[lang] in text


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_rule_page_shows_in_both_languages(client: TestClient, lang: str) -> None:
    client.cookies.set("lang", lang)
    response = client.get("/games/michikake/rules")
    assert response.status_code == 200
    for bonus in BONUS_CARDS.values():
        assert getattr(bonus, f"name_{lang}") in response.text
    for yaku in YAKU.values():
        assert getattr(yaku, f"name_{lang}") in response.text


def test_home_shows_michikake_with_its_art(client: TestClient) -> None:
    text = client.get("/", headers={"Accept-Language": "en"}).text
    assert 'href="/games/michikake"' in text
    assert 'class="michikake-art"' in text
    assert pages.strings("en")["game.michikake.blurb"] in text


def test_every_hand_and_bonus_card_has_its_data_file_name_in_both_languages() -> None:
    for lang in pages.LANGS:
        strings = pages.strings(lang)
        for yaku in YAKU.values():
            assert strings[f"michikake.yaku.{yaku.id}"] == getattr(yaku, f"name_{lang}")
        for bonus in BONUS_CARDS.values():
            assert strings[f"michikake.bonus.{bonus.id}"] == getattr(bonus, f"name_{lang}")
            assert strings[f"michikake.bonus.{bonus.id}.text"] == getattr(bonus, f"text_{lang}")


def _data_entries() -> list[dict[str, object]]:
    text = (Path(michikake.__file__).parent / "data.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    listed = [entry for key in ("values", "yaku", "bonus", "levels", "pace") for entry in data[key]]
    # The review's classes: one table, one row on the page, whose English reason is spelled
    # `reason` as in every game's [review] (core.game.review_design).
    review = dict(data["review"])
    review["reason_en"] = review.pop("reason")
    return [*listed, review]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_data_entry_has_a_source_and_the_rule_page_shows_it(
    client: TestClient, lang: str
) -> None:
    """Issue 20: every entry of data.toml says where it comes from (the bonus cards once had no
    ``source``), with a reason, and the rule page shows each one, its source beside it."""
    entries = _data_entries()
    for entry in entries:
        assert entry.get("source") in ("rulebook", "designed"), entry
        assert entry.get("reason_ja") and entry.get("reason_en"), entry
    rows = get_game("michikake").designed_values()
    assert len(rows) == len(entries)
    client.cookies.set("lang", lang)
    text = client.get("/games/michikake/rules").text
    shown = [
        html.unescape(re.sub(r"<[^>]+>", "|", row))
        for row in re.findall(r"<tr>.*?</tr>", text, flags=re.S)
    ]
    source = pages.strings(lang)
    for row in rows:
        cells = [
            f"|{row.name[lang]}|",
            f"|{row.value[lang]}|",
            f"|{source[f'rules.source.{row.source}']}|",
        ]
        assert any(all(cell in line for cell in cells) for line in shown), (lang, row.name)


@pytest.mark.parametrize(
    "key", ["high", "low", "crest", "ends", "six_ones", "six_nines", "edge_run", "crest_edges"]
)
def test_hands_named_by_asobiba_are_marked_designed(key: str) -> None:
    """Issue 20: the rulebook gives these hands' conditions and points but no names."""
    assert YAKU[key].source == "designed"


SAID = re.compile(r'said\(\s*"([\w.]+)",\s*\w+,\s*\{([^}]*)\}', flags=re.S)


def test_every_sentence_about_seats_has_its_second_person_forms() -> None:
    """Issue 20 ("You pays all 60", "won on You's discard"): a sentence the table words with
    ``said`` has a form for the viewer as its subject (``.you``) and, when it names the seat it
    came from, one for the viewer there (``.from_you``), in both languages."""
    modules = pages.WEB_DIR / "static" / "js" / "michikake"
    calls = [
        match for path in modules.glob("*.js") for match in SAID.findall(path.read_text("utf-8"))
    ]
    assert len(calls) >= 10, calls
    for lang in pages.LANGS:
        strings = pages.strings(lang)
        for key, params in calls:
            forms = [key, f"{key}.you"] + ([f"{key}.from_you"] if "from:" in params else [])
            for form in forms:
                assert form in strings, (lang, form)
            if lang == "en":
                assert "{name}" not in strings[f"{key}.you"], (key, strings[f"{key}.you"])
