"""The Mokochaka rule pages (rules.ja.md, rules.en.md): present, parallel, right, not copied.

The pages' worked examples are checked against ``judge``, their deal and face tables against the
engine, and their numbers against data.toml, so the page cannot drift from what is played.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from asobiba.games.mokochaka import judge
from asobiba.games.mokochaka.data import FACES, LEVELS, NUMBERS, TABLE_IDS, designed_values
from tests.games.mokochaka.mokochaka_helpers import GAME

PAGES = Path(__file__).resolve().parents[3] / "asobiba" / "games" / "mokochaka"
LANGS = ("ja", "en")

ANIMAL_WORDS = {
    "en": {"Moko": "moko", "Paka": "paka", "Pome": "pome", "Gabu": "gabu"},
    "ja": {"モコ": "moko", "パカ": "paka", "ポメ": "pome", "ガブ": "gabu"},
}
EXAMPLE_HEADERS = {"en": ("| Showing |",), "ja": ("| 見えている札 |",)}


def _page(lang: str) -> str:
    return (PAGES / f"rules.{lang}.md").read_text(encoding="utf-8")


def _romaji(call: str, lang: str) -> str:
    if lang == "en":
        return call.strip().lower()
    for kana, word in (("チャカ", "chaka"), *ANIMAL_WORDS["ja"].items()):
        call = call.replace(kana, word)
    return call.strip()


def _examples(lang: str) -> list[tuple[str, list[tuple[str, int]], set[str]]]:
    """Each example row: the row text, its showing cards and its set of right calls."""
    rows = []
    in_table = False
    names = "|".join(ANIMAL_WORDS[lang])
    for line in _page(lang).splitlines():
        if line.startswith(EXAMPLE_HEADERS[lang]):
            in_table = True
            continue
        if not line.startswith("|"):
            in_table = False
            continue
        if not in_table or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        top = [
            (ANIMAL_WORDS[lang][name], int(n))
            for name, n in re.findall(rf"({names}) ?(\d)", cells[0])
        ]
        answer = re.sub(r"[（(].*", "", cells[-1])
        calls = {_romaji(word, lang) for word in re.split(r" or |／", answer)}
        rows.append((line, top, calls))
    return rows


@pytest.mark.parametrize("lang", LANGS)
def test_page_exists_and_is_not_empty(lang: str) -> None:
    assert _page(lang).strip(), f"rules.{lang}.md is empty"


def test_pages_have_the_same_sections() -> None:
    for level in ("## ", "### "):
        counts = {lang: len(re.findall(rf"^{level}", _page(lang), flags=re.M)) for lang in LANGS}
        assert counts["ja"] == counts["en"] > 0, (level, counts)


@pytest.mark.parametrize("lang", LANGS)
def test_page_worked_examples_are_what_judge_says(lang: str) -> None:
    examples = _examples(lang)
    assert len(examples) >= 14
    for line, top, calls in examples:
        assert 1 <= len(top) <= 3, line
        assert judge(top) == calls, f"rules.{lang}.md: {line}"


def test_pages_give_the_same_worked_examples() -> None:
    assert [(top, calls) for _, top, calls in _examples("ja")] == [
        (top, calls) for _, top, calls in _examples("en")
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_page_face_table_is_the_deck(lang: str) -> None:
    for animal_name, animal in ANIMAL_WORDS[lang].items():
        row = next(
            line for line in _page(lang).splitlines() if line.startswith(f"| {animal_name} |")
        )
        numbers = [int(cell) for cell in row.strip("|").split("|")[1:]]
        assert numbers == [sum(FACES[animal]), *FACES[animal]], row


@pytest.mark.parametrize("lang", LANGS)
def test_page_deal_table_is_the_deal(lang: str) -> None:
    rows = [
        line for line in _page(lang).splitlines() if re.match(r"^\| [2-6] \| \d+ \| \d+ \|$", line)
    ]
    assert len(rows) == 5
    for row in rows:
        seats, each, extra = (int(cell) for cell in row.strip("|").split("|"))
        state = GAME.new_state({}, seats, 0)
        assert {len(hand) for hand in state.hands} == {each}
        assert sum(map(len, state.piles)) == NUMBERS.piles + extra


@pytest.mark.parametrize("lang", LANGS)
def test_page_numbers_are_the_engines(lang: str) -> None:
    page = _page(lang)
    for number in (
        NUMBERS.call_seconds, NUMBERS.grab_window, NUMBERS.choice_seconds, NUMBERS.flip_seconds,
        NUMBERS.min_seats, NUMBERS.max_seats,
    ):  # fmt: skip
        assert f"{number:g}" in page, f"rules.{lang}.md does not give {number:g}"


@pytest.mark.parametrize("lang", LANGS)
def test_page_names_the_bot_level_and_says_what_is_designed(lang: str) -> None:
    page = _page(lang)
    for level in LEVELS:
        assert level.name_ja in page and level.name_en in page
    assert "designed" in page


def test_designed_values_table_covers_every_row_in_both_languages() -> None:
    rows = GAME.designed_values()
    assert rows == designed_values()
    assert len(rows) == len(TABLE_IDS) + len(LEVELS)
    assert len(set(TABLE_IDS)) == len(TABLE_IDS)
    for row in rows:
        assert row.source in ("rulebook", "designed")
        for field in (row.name, row.value, row.reason):
            assert set(field) == {"ja", "en"} and all(field.values())
            assert "{" not in field["ja"] + field["en"], "a number was left unfilled"


def test_designed_values_table_fills_in_the_engines_numbers() -> None:
    by_name = {row.name["en"]: row for row in GAME.designed_values()}
    assert "3 seconds" in by_name["Time to call"].value["en"]
    assert f"{NUMBERS.grab_window:g} seconds" in by_name["Token race window"].value["en"]
    assert by_name["Card faces (cards with 1, 2, 3, 4 animals)"].value["en"] == (
        "Moko and Paka 3/3/2/2 each, Pome and Gabu 2/2/1/1 each"
    )
    assert by_name["Players"].value == {"ja": "2〜6人", "en": "2 to 6"}
