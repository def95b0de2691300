"""The MOMOJAN rule pages (rules.ja.md, rules.en.md): present, parallel, the whole yaku table
and set bonuses as data.toml has them, every designed rule, and not copied from the rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asobiba.games.momojan.data import BONUSES, OPTIONS, RULES, YAKU
from asobiba.games.momojan.rules import OPTIONS as SPECS
from asobiba.server.http.pages import render_rules
from tests.games.momojan.momojan_positions import GAME, legal, melds, position, river

PAGES = Path(__file__).resolve().parents[3] / "asobiba" / "games" / "momojan"
LANGS = ("ja", "en")


def _page(lang: str) -> str:
    return (PAGES / f"rules.{lang}.md").read_text(encoding="utf-8")


def _rows(lang: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in _page(lang).splitlines()
        if line.startswith("|")
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_page_exists_and_renders(lang: str) -> None:
    html, toc = render_rules(_page(lang))
    assert "<table" in html and len(toc) >= 8


def test_pages_have_the_same_sections() -> None:
    counts = {lang: len(re.findall(r"^##+ ", _page(lang), flags=re.M)) for lang in LANGS}
    assert counts["ja"] == counts["en"] > 0, counts


@pytest.mark.parametrize("lang", LANGS)
def test_page_shows_the_whole_yaku_table_with_points_and_source(lang: str) -> None:
    rows = _rows(lang)
    for yaku in YAKU:
        name = yaku.ja if lang == "ja" else f"{yaku.ja} {yaku.en}"
        matching = [row for row in rows if row[0] == name]
        assert matching, f"rules.{lang}.md has no yaku row {name!r}"
        assert matching[0][1] == str(yaku.points) and matching[0][3] == yaku.source, matching


@pytest.mark.parametrize("lang", LANGS)
def test_page_gives_every_set_bonus(lang: str) -> None:
    page = _page(lang)
    for bonus in BONUSES:
        assert f"{bonus.ja} +{bonus.points}" in page, f"rules.{lang}.md lacks {bonus.ja}"


@pytest.mark.parametrize("lang", LANGS)
def test_page_lists_the_designed_rules(lang: str) -> None:
    rows = [row for row in _rows(lang) if row[-1] == "designed"]
    # Every designed rule of data.toml but the reading of the third example, which has its
    # own paragraph, plus the 6-set bonus.
    assert len(rows) >= len([r for r in RULES if r.id != "example_three"])
    assert "designed" in _page(lang)


FURITEN = {"ja": "**フリテン**", "en": "**Furiten**"}
RON_ONLY_ON_A_PEACH = {"ja": "モモでしかロンできません", "en": "ロン only on a peach"}


@pytest.mark.parametrize("lang", LANGS)
def test_furiten_on_the_page_allows_ron_only_on_a_peach_not_on_a_picture(lang: str) -> None:
    """Point 2 of issue 20: the engine refuses a furiten ロン on every card but モモ, pictures
    included; the page must not say "not on a fruit card" as if a picture could still be won."""
    (paragraph,) = [p for p in _page(lang).split("\n\n") if p.startswith(FURITEN[lang])]
    assert RON_ONLY_ON_A_PEACH[lang] in paragraph
    assert "フルーツの札ではロンできません" not in paragraph
    assert "on a fruit card" not in paragraph


def test_furiten_refuses_ron_on_a_picture_card() -> None:
    # Waiting on dog or moon (two pairs), a moon thrown earlier: the opponent's dog is refused.
    def ron_legal(own_river: str) -> bool:
        state = position(
            "dog dog moon moon",
            "L1 L2 L3 O6",
            melds0=melds("kai: S1 S2 S3", "pon: monkey monkey monkey"),
            rivers=(river(own_river), river("dog")),
            offer="dog",
        )
        return {"type": "ron"} in legal(state)

    assert ron_legal("L9") and not ron_legal("moon")


@pytest.mark.parametrize(
    "rule", ["ittsu_fruits", "kibidango_tsumo", "kibidango_ron_set", "stake_growth"]
)
def test_readings_of_the_rulebook_are_marked_designed_with_reasons(rule: str) -> None:
    """Point 4 of issue 20: what the rulebook does not say (a straight's fruits, きびだんご on a
    ツモ, the stake after a second repeat) is a designed rule with its reason, on both pages;
    so is issue 31's きびだんご with a set the ロン completes."""
    (row,) = [r for r in RULES if r.id == rule]
    assert row.source == "designed" and row.reason and row.reason_ja
    for lang in LANGS:
        name = row.ja if lang == "ja" else row.en
        cells = [r for r in _rows(lang) if r[0] == name]
        assert cells and cells[0][-1] == "designed", (lang, name)


def test_the_dealerships_option_lives_in_data_toml_with_its_source() -> None:
    assert (
        [(o.key, o.values, o.default, o.ui) for o in OPTIONS]
        == [(s.key, s.values, s.default, s.ui) for s in SPECS]
        == [("dealerships", (2, 1), 2, False)]
    )
    assert all(o.source in ("rulebook", "designed") and o.reason and o.reason_ja for o in OPTIONS)
    assert "Option: Deals per player" in [row.name["en"] for row in GAME.designed_values()]
