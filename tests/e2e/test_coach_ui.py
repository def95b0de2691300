"""The coach of a newcomer's first games (coach.js) in the three card games: a new guest's game
against the computer shows the game's cue for the first new thing at their seat, in the site's
words; "Got it" puts it away, a cue once shown is not shown again, "Turn the coach off" is
remembered across games, and the table bar's button turns it back on."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from asobiba.server.http.pages import strings

CUE_FILES = {
    "momojan": "asobiba/web/static/js/momojan/coach.js",
    "michikake": "asobiba/web/static/js/michikake/coach.js",
    "mokochaka": "asobiba/web/static/js/mokochaka/coach.js",
}


def cue_ids(game: str) -> list[str]:
    with open(CUE_FILES[game], encoding="utf-8") as file:
        return re.findall(r'\{ id: "(\w+)"', file.read())


def start(page: Any, game: str) -> None:
    page.goto(f"/games/{game}?speed=instant")
    page.click("#start")
    page.wait_for_selector("#play[data-state=playing]")
    page.wait_for_url(f"**/games/{game}/*")


def saved(page: Any, game: str) -> dict[str, Any]:
    value = page.evaluate(f"() => localStorage.getItem('asobiba.{game}.coach')")
    assert value is not None, "the coach remembers nothing"
    data: dict[str, Any] = json.loads(value)
    return data


@pytest.mark.parametrize("game", ["momojan", "michikake", "mokochaka"])
def test_every_cue_has_words_in_both_languages(game: str) -> None:
    ids = cue_ids(game)
    assert len(ids) >= 4, ids
    for lang in ("ja", "en"):
        words = strings(lang)
        for cue in ids:
            assert words.get(f"coach.{game}.{cue}"), f"{lang}: coach.{game}.{cue} has no words"


@pytest.mark.parametrize(
    ("game", "lang"), [("momojan", "en"), ("michikake", "ja"), ("mokochaka", "en")]
)
def test_a_new_guest_is_coached_once_per_thing_and_can_turn_it_off(
    new_page: Any, game: str, lang: str
) -> None:
    page = new_page(lang=lang)
    start(page, game)
    panel = page.locator("#coach")
    # A cue stays while its moment lasts (a call window closes by itself): read what was shown.
    page.wait_for_selector("#coach[data-cue]", state="attached")
    cue = panel.get_attribute("data-cue")
    assert cue in cue_ids(game)
    words = strings(lang)
    assert page.locator("#coach-text").text_content() == words[f"coach.{game}.{cue}"]
    assert page.locator("#coach-toggle").get_attribute("aria-pressed") == "true"
    assert cue in saved(page, game)["seen"]
    with contextlib.suppress(PlaywrightError):  # unless its moment passed first
        page.click("#coach-ok", timeout=1000)
    panel.wait_for(state="hidden")

    # A new game: the cue already shown is not shown again.
    start(page, game)
    page.wait_for_selector("#coach-toggle:visible")
    if panel.is_visible():
        assert panel.get_attribute("data-cue") != cue

    page.click("#coach-toggle")
    assert page.locator("#coach-toggle").get_attribute("aria-pressed") == "false"
    assert page.locator("#coach-toggle").inner_text() == words["coach.toggle_off"]
    panel.wait_for(state="hidden")
    assert saved(page, game)["on"] is False

    # Off stays off in the next game, whatever turns up; the button turns it on again.
    seen_before = saved(page, game)["seen"]
    start(page, game)
    page.wait_for_selector("#coach-toggle:visible")
    assert page.locator("#coach-toggle").get_attribute("aria-pressed") == "false"
    assert not panel.is_visible()
    assert saved(page, game)["seen"] == seen_before
    page.click("#coach-toggle")
    assert saved(page, game)["on"] is True


def test_the_coach_off_button_in_the_panel_is_remembered(new_page: Any) -> None:
    page = new_page(lang="ja")
    # The dealer's first move waits for the person: the draw cue stays until they draw.
    page.goto("/games/momojan?speed=instant")
    page.check("input[name=order][value=first]", force=True)
    page.click("#start")
    page.locator("#coach").wait_for(state="visible")
    assert page.locator("#coach").get_attribute("data-cue") == "draw"
    page.click("#coach-off")
    page.locator("#coach").wait_for(state="hidden")
    assert page.locator("#coach-toggle").inner_text() == strings("ja")["coach.toggle_off"]
    page.reload()
    page.wait_for_selector("#coach-toggle:visible")
    assert page.locator("#coach-toggle").get_attribute("aria-pressed") == "false"
