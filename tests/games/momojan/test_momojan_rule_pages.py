"""The MOMOJAN rule pages (rules.ja.md, rules.en.md): present, parallel, the whole yaku table
and set bonuses as data.toml has them, every designed rule, and not copied from the rulebook."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asobiba.games.momojan.data import BONUSES, RULES, YAKU
from asobiba.server.pages import render_rules

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
