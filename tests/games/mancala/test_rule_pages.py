"""The Mancala rule pages (rules.ja.md, rules.en.md): present, parallel, complete, not copied."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.options import OptionSpec
from asobiba.games.mancala.data import LEVELS
from asobiba.games.mancala.rules import OPTIONS

PAGES = Path(__file__).resolve().parents[3] / "asobiba" / "games" / "mancala"
LANGS = ("ja", "en")
I18N = PAGES.parents[1] / "web" / "i18n"


def _page(lang: str) -> str:
    return (PAGES / f"rules.{lang}.md").read_text(encoding="utf-8")


def _value_text(spec: OptionSpec, value: Any, lang: str) -> str:
    key = ("true" if value else "false") if isinstance(value, bool) else str(value)
    labels = spec.value_labels.get(key)
    return labels[lang] if labels else key


@pytest.mark.parametrize("lang", LANGS)
def test_page_exists_and_is_not_empty(lang: str) -> None:
    assert _page(lang).strip(), f"rules.{lang}.md is empty"


def test_pages_have_the_same_sections() -> None:
    counts = {lang: len(re.findall(r"^## ", _page(lang), flags=re.M)) for lang in LANGS}
    assert counts["ja"] == counts["en"] > 0, counts


@pytest.mark.parametrize("lang", LANGS)
def test_page_names_every_level(lang: str) -> None:
    page = _page(lang)
    for level in LEVELS:
        name = level.name_ja if lang == "ja" else level.name_en
        assert name in page, f"rules.{lang}.md does not name level {level.id} ({name})"
    designed = {"ja": "遊び場が独自に決めました", "en": "asobiba's own design"}[lang]
    assert designed in page, "bot levels are designed values: the page must say so"


@pytest.mark.parametrize("lang", LANGS)
def test_page_mentions_every_offered_option_value(lang: str) -> None:
    page = _page(lang)
    rows = [line for line in page.splitlines() if line.startswith("|")]
    for spec in OPTIONS:
        if not spec.ui:
            continue
        for value in spec.values:
            text = _value_text(spec, value, lang)
            if spec.value_labels:
                assert text in page, f"rules.{lang}.md lacks {spec.key}={text!r}"
            else:
                # Bare numbers are everywhere; require them in the table row naming the option.
                row = [r for r in rows if spec.label[lang] in r]
                assert row, f"rules.{lang}.md has no table row for {spec.label[lang]!r}"
                assert any(re.search(rf"\b{re.escape(text)}\b", r) for r in row), (
                    f"rules.{lang}.md: the {spec.label[lang]!r} row lacks {text!r}"
                )


@pytest.mark.parametrize("lang", LANGS)
def test_page_names_the_random_order_as_the_settings_do(lang: str) -> None:
    random = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))["order.random"]
    page = _page(lang)
    assert f"「{random}」" in page or f'"{random}"' in page, f"rules.{lang}.md lacks {random!r}"
    assert "ランダム" not in page
