"""Every game's rule pages are written in our own words: nothing copied from its rulebook.

The rulebooks live in shared/seeds beside the repository (as on the developers' machines and in
CI); ASOBIBA_RULEBOOKS points elsewhere. Where they cannot be found the checks skip, saying where
they looked.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from asobiba.games import engine_names

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(os.environ.get("ASOBIBA_RULEBOOKS") or ROOT.parent / "shared" / "seeds")
RULEBOOKS = {
    "mokochaka": "000_9830e89139480d03.txt",
    "momojan": "001_315adac61c000767.txt",
    "mancala": "003_a478a870473cd6e1.txt",
    "michikake": "004_0308559b5a8cdcf5.txt",
}
LANGS = ("ja", "en")
RUN = {"ja": 16, "en": 32}
"""The longest run of characters a page may share with its rulebook, less one: Japanese is
compared with all whitespace removed (the rulebooks wrap lines anywhere), English line by line."""


def _page(game: str, lang: str) -> str:
    return (ROOT / "asobiba" / "games" / game / f"rules.{lang}.md").read_text(encoding="utf-8")


def _rulebook(game: str) -> str:
    path = SEEDS / RULEBOOKS[game]
    if not path.exists():
        pytest.skip(f"rulebook not found at {path}")
    return path.read_text(encoding="utf-8")


def test_every_engine_has_its_rulebook_named() -> None:
    assert set(RULEBOOKS) == set(engine_names())


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(RULEBOOKS))
def test_page_repeats_no_line_of_the_rulebook(game: str, lang: str) -> None:
    rulebook = _rulebook(game)
    copied = [
        line.strip()
        for line in _page(game, lang).splitlines()
        if len(line.strip()) >= 20 and line.strip() in rulebook
    ]
    assert not copied, f"{game} rules.{lang}.md repeats the rulebook verbatim: {copied}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(RULEBOOKS))
def test_page_shares_no_long_phrase_with_the_rulebook(game: str, lang: str) -> None:
    """Stricter than whole lines: no run of RUN[lang] characters appears in the rulebook."""
    n = RUN[lang]
    if lang == "ja":
        rulebook = re.sub(r"\s+", "", _rulebook(game))
        texts = [re.sub(r"\s+", "", _page(game, lang))]
    else:
        rulebook = _rulebook(game)
        texts = [line.strip() for line in _page(game, lang).splitlines()]
    shared = {
        text[i : i + n]
        for text in texts
        for i in range(len(text) - n + 1)
        if text[i : i + n] in rulebook
    }
    assert not shared, f"{game} rules.{lang}.md copies {sorted(shared)[:5]}"
