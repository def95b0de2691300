"""The MICHIKAKE rule pages (rules.ja.md, rules.en.md): present, parallel, complete, not copied."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asobiba.games import get_game
from asobiba.games.michikake.data import BONUS_CARDS, VALUES, YAKU

PAGES = Path(__file__).resolve().parents[3] / "asobiba" / "games" / "michikake"
LANGS = ("ja", "en")


def _page(lang: str) -> str:
    return (PAGES / f"rules.{lang}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_page_exists_and_is_not_empty(lang: str) -> None:
    assert _page(lang).strip(), f"rules.{lang}.md is empty"


def test_pages_have_the_same_sections() -> None:
    counts = {lang: len(re.findall(r"^## ", _page(lang), flags=re.M)) for lang in LANGS}
    assert counts["ja"] == counts["en"] > 0, counts


@pytest.mark.parametrize("lang", LANGS)
def test_page_names_every_hand_with_its_points(lang: str) -> None:
    rows = [line for line in _page(lang).splitlines() if line.startswith("|")]
    for yaku in YAKU.values():
        name = yaku.name_ja if lang == "ja" else yaku.name_en
        row = [r for r in rows if r.startswith(f"| {name} |")]
        assert row, f"rules.{lang}.md has no table row for {name}"
        assert re.search(rf"\| \+?{yaku.points} \|", row[0]), f"{name}: {yaku.points} missing"


@pytest.mark.parametrize("lang", LANGS)
def test_page_lists_all_eleven_bonus_cards_with_their_points(lang: str) -> None:
    rows = [line for line in _page(lang).splitlines() if line.startswith("|")]
    for card in BONUS_CARDS.values():
        name = card.name_ja if lang == "ja" else card.name_en
        row = [r for r in rows if r.startswith(f"| {name} |")]
        assert row, f"rules.{lang}.md has no table row for bonus card {name}"
        assert f"| +{card.each} | {6 * card.each} |" in row[-1], row[-1]  # the bonus table is last


@pytest.mark.parametrize("lang", LANGS)
def test_page_works_both_rulebook_examples_and_says_what_is_designed(lang: str) -> None:
    page = _page(lang)
    for number in ("260", "87", "261", "110", "165"):
        assert number in page
    assert "designed" in page and "rulebook" in page


def test_designed_values_cover_every_data_entry_in_both_languages() -> None:
    rows = get_game("michikake").designed_values()
    assert len(rows) >= 11 + len(YAKU)
    assert {row.source for row in rows} == {"rulebook", "designed"}
    for row in rows:
        for field in (row.name, row.value, row.reason):
            assert set(field) == {"ja", "en"} and all(field.values())


def test_every_number_in_data_is_said_in_its_words_in_both_languages() -> None:
    for value in VALUES.values():
        numbers = value.value if isinstance(value.value, list) else [value.value]
        for number in numbers:
            if isinstance(number, bool) or not isinstance(number, int | float):
                continue
            text = f"{number:g}" if isinstance(number, float) else str(number)
            assert text in value.text_ja and text in value.text_en, (value.key, text)


def test_japanese_page_says_turns_go_clockwise_like_the_engine() -> None:
    """Issue 20: the engine passes the turn to seat + 1, the nearest clockwise (the rulebook's
    claim order); the Japanese page once said 左回り (counter-clockwise)."""
    page = _page("ja")
    assert "左回り" not in page and "反時計" not in page
    assert "時計回り" in page.split("## 番の流れ")[1].split("\n## ")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_pages_say_a_hand_completed_by_the_draw_wins_there_and_then(lang: str) -> None:
    heading = "A turn" if lang == "en" else "番の流れ"
    turn = _page(lang).split(f"\n## {heading}\n")[1].split("\n## ")[0]
    assert ("Win is the only button" in turn) if lang == "en" else ("「上がる」ボタンだけ" in turn)
    assert "may declare" not in turn and "宣言できます" not in turn


def _decisions(lang: str) -> list[str]:
    """The first cells of the page's last table, "What this site decided"."""
    section = _page(lang).split("\n## ")[-1]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [row.split("|")[1].strip() for row in rows[1:]]


@pytest.mark.parametrize("lang", LANGS)
def test_decision_table_names_every_designed_value_of_data_toml(lang: str) -> None:
    """Issue 20: every designed entry of data.toml's values has its row (by its name) in the
    page's table of decisions; shown_cards once had none."""
    names = _decisions(lang)
    for value in VALUES.values():
        if value.source == "designed":
            assert getattr(value, f"name_{lang}") in names, (lang, value.key)


@pytest.mark.parametrize("lang", LANGS)
def test_pages_link_the_course_and_say_how_time_works_in_a_lesson(lang: str) -> None:
    page = _page(lang)
    assert "](/learn/michikake)" in page
    heading = "### Time in a lesson" if lang == "en" else "### レッスンの時間"
    section = page.split(heading)[1].split("\n## ")[0]
    for said in ("1 second", "5-second", "2 seconds") if lang == "en" else ("1秒", "5秒", "2秒"):
        assert said in section, said
