"""Hints and reviews of the card games in headless Chromium: a hint asked and shown in MOMOJAN
and in MICHIKAKE against the computer, and after a finished MICHIKAKE session the review,
opened from the result screen, whose costliest decision leads to its position and steps on.

The site runs with the bots' pace off (a whole 3-player session through the UI then takes
seconds, not a minute) and a tiny engine time per decision, so the review is quick. Screenshots
of the hints and the review go to /tmp/cardassist-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import serve
from tests.e2e.test_michikake_ui import play
from tests.e2e.test_michikake_ui import start as start_michikake
from tests.e2e.test_momojan_ui import start as start_momojan
from tests.e2e.test_review_ui import wait_for_the_review


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    settings = {"ASOBIBA_BOT_PACE": "0", "ASOBIBA_REVIEW_SECONDS": "0.03"}
    with serve(tmp_path_factory.mktemp("card-assist"), settings) as base:
        yield base


def ask_hint(page: Any, shot: str) -> str:
    """Wait until the person has a choice, ask for a hint and return what it said."""
    page.wait_for_selector("#assist:not([hidden]) #hint-button:not([disabled])")
    page.click("#hint-button")
    said = page.locator("#hint-said")
    page.wait_for_function("() => document.getElementById('hint-said').textContent.length > 0")
    assert page.locator(".is-hint-mark").count() == 1, "the hinted card or button is ringed"
    page.locator("#assist").scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/cardassist-{shot}.png")
    assert page.locator("#assist").get_attribute("data-used") == "1"
    text: str = said.inner_text()
    return text


def test_a_momojan_hint_names_the_move_why_and_the_points_it_expects(
    new_page: Any, quick_site: str
) -> None:
    page = new_page(lang="en", site_url=quick_site)
    start_momojan(page)
    # Which pile to draw from is no choice (nobody knows their order): no hint for it.
    page.wait_for_selector(".mj-pile.is-legal")
    assert page.locator("#hint-button").is_disabled()
    page.locator(".mj-pile.is-legal").first.click()
    said = ask_hint(page, "momojan-hint")
    assert said.startswith("Hint: ")
    assert re.search(r"Expected by the end of the round: [+−]?[\d.]+ points\.", said), said
    assert "counted apart" in said
    # The hinted action is one the person may take now.
    action = page.evaluate("() => JSON.parse(document.getElementById('assist').dataset.action)")
    assert action["type"] in ("discard", "kai", "tsumo", "draw3")


def test_a_michikake_hint_then_a_finished_session_is_reviewed_and_stepped_through(
    new_page: Any, quick_site: str
) -> None:
    page = new_page(lang="ja", site_url=quick_site)
    room = start_michikake(page, 3)
    said = ask_hint(page, "michikake-hint")
    assert said.startswith("ヒント：") and "点です。" in said, said
    play(page)
    assert page.locator("#result").is_visible()
    link = page.locator("#review-game")
    assert link.get_attribute("href") == f"/replay/{room}?review=1"
    link.click()
    page.wait_for_url(re.compile(rf"/replay/{room}\?review=1$"))
    wait_for_the_review(page)
    review: dict[str, Any] = page.evaluate(
        f"async () => (await fetch('/api/rooms/{room}/review')).json()"
    )
    assert review["state"] == "done" and review["total"] == len(review["moves"]) > 0
    seat = page.evaluate(
        f"async () => (await (await fetch('/api/rooms/{room}/replay')).json()).seat"
    )
    assert {move["seat"] for move in review["moves"]} == {seat}, "the person's decisions only"
    assert page.locator(".review-player").count() == 1, "one summary: the person's"
    caption = page.locator("#review-caption").inner_text()
    assert "見込める点" in caption, caption
    you = review["players"][seat]
    costly = page.locator(".review-costly")
    assert costly.count() == len(you["costliest"])
    if not you["costliest"]:
        pytest.skip("a flawless session: nothing costly to step to")
    worst = next(m for m in review["moves"] if m["event"] == you["costliest"][0])
    costly.first.click()
    scrub = page.locator("#scrub")
    page.wait_for_function("() => document.querySelector('#review-now [data-part=best]') !== null")
    before = int(scrub.input_value())
    line = page.locator("#review-now [data-part=best]").inner_text()
    assert "あなたの最善手" in line, line
    page.locator(".review-players").screenshot(path="/tmp/cardassist-review-summary.png")
    page.locator("#review-list").screenshot(path="/tmp/cardassist-review-list.png")
    page.locator("#stage").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/cardassist-review.png")
    # One step on: the decision itself, with its class and what it lost.
    page.click("#next")
    page.wait_for_function(f"() => document.querySelector('#scrub').value !== '{before}'")
    arrived = page.locator("#review-now [data-part=arrived]")
    arrived.wait_for()
    assert arrived.locator(".grade").get_attribute("data-grade") == worst["grade"]
    if worst["loss"] >= 0.05:  # the page rounds to a tenth
        assert "点損しました" in arrived.inner_text()
    # The hidden cards are shown only now the game is over: the replay may reveal every hand.
    assert page.locator("#reveal").is_visible()
    page.screenshot(path="/tmp/cardassist-review-step.png")
