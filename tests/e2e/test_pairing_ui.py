"""Play someone now through the real UI (docs/ARCHITECTURE.md, "Play someone now"): two
strangers in two browser contexts press "Play someone now" on Mancala's page, are paired and
play a whole game at the table made for them; on a phone the wait fits the screen and "Stop
looking" leaves the pool.

The server runs with ``ASOBIBA_BOT_PACE=0``; pages use ``?speed=instant``. Nothing waits on a
fixed sleep: each step waits for what it checks (a short pause between moves only keeps a
person's pace under the room's rate limit).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import serve

LEGAL = "button.mb-hit--pit[data-legal]"


@pytest.fixture(scope="module")
def pairing_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("pairing"), {"ASOBIBA_BOT_PACE": "0"}) as base:
        yield base


def seeking(page: Any) -> Any:
    return page.evaluate("() => fetch('/api/pairing').then((r) => r.json())")["seeking"]


def left_the_pool(page: Any) -> None:
    """Wait until the server no longer holds the page's seek (the cancel is on its way)."""
    deadline = time.monotonic() + 10
    while seeking(page) is not None:
        assert time.monotonic() < deadline, "the seek outlived 'Stop looking'"
        time.sleep(0.05)


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def test_two_strangers_are_paired_on_mancala_and_play_a_whole_game(
    new_page: Any, pairing_site: str
) -> None:
    aki = new_page(lang="en", site_url=pairing_site)
    bea = new_page(lang="ja", site_url=pairing_site)
    for page in (aki, bea):
        page.goto("/games/mancala?speed=instant")
    aki.click("#seek")
    aki.wait_for_selector("#seek-panel:not([hidden])")
    assert aki.locator("#settings").is_hidden(), "the wait replaces the form"
    assert aki.locator("#seek-rating").inner_text() == "1500"
    assert "Kalah" in aki.locator("#seek-rules").inner_text()
    aki.wait_for_selector("#seek-others:has-text('Nobody else')")
    bea.click("#seek")
    for page in (aki, bea):
        page.wait_for_selector("#play[data-state='playing'] .mancala-board")
        page.wait_for_selector("#players:not([hidden])")
    assert aki.url.split("?")[0] == bea.url.split("?")[0], "one table, at its own address"
    assert "/games/mancala/" in aki.url
    assert aki.locator("#seek-panel").is_hidden()
    # Whoever's move it is clicks a glowing pit, until the game ends on both pages.
    moves = 0
    deadline = time.monotonic() + 180
    while not (aki.locator("#result[open]").count() and bea.locator("#result[open]").count()):
        assert time.monotonic() < deadline, f"the game did not end ({moves} moves)"
        clicked = False
        for page in (aki, bea):
            if page.locator("#result[open]").count() == 0 and page.locator(LEGAL).count():
                try:
                    page.click(LEGAL, timeout=2_000)
                except PlaywrightTimeout:
                    continue  # the board moved on meanwhile
                clicked = True
                moves += 1
        time.sleep(0.1 if clicked else 0.05)
    assert moves >= 6
    assert aki.locator("#result-title").inner_text() in ("You win!", "You lose", "It's a draw")
    results = ("あなたの勝ち!", "あなたの負け", "引き分け")
    assert bea.locator("#result-title").inner_text() in results
    # Each sees their new rating on their profile (a paired table is rated): one game, moved
    # off the 1500 everyone starts at.
    for person in (aki, bea):
        profile = person.context.new_page()
        profile.goto(f"{pairing_site}/records")
        profile.wait_for_selector("#profile-link:not([hidden])")
        profile.click("#profile-link")
        card = profile.locator(".rating-card[data-key='mancala/kalah']")
        card.locator("svg.rating-chart-svg").wait_for()
        assert card.locator("circle.rating-chart-dot").count() == 1
        assert card.locator(".rating-value").inner_text().strip() not in ("1500", "1500?")
        profile.close()
    # After a game found this way, the rematch looks for someone again.
    assert aki.locator("#rematch").inner_text() == "Look for someone again"
    aki.click("#rematch")
    aki.wait_for_selector("#seek-panel:not([hidden])")
    aki.click("#seek-cancel")
    aki.wait_for_selector("#settings:not([hidden]) #seek")
    left_the_pool(aki)


def test_on_a_phone_the_wait_fits_and_stop_looking_leaves_the_pool(
    new_page: Any, pairing_site: str
) -> None:
    phone = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True}
    page = new_page(lang="ja", site_url=pairing_site, **phone)
    page.goto("/games/mokochaka?speed=instant")
    page.tap("#settings [data-option='players'] label:has-text('4人')")
    page.tap("#seek")
    page.wait_for_selector("#seek-panel:not([hidden])")
    assert "4人" in page.locator("#seek-rules").inner_text()
    page.tap("#seek-schedule summary")
    page.wait_for_selector("#seek-steps li[aria-current='step']")
    no_sideways_scroll(page)
    assert seeking(page)["rules"]["players"] == 4
    page.tap("#seek-cancel")
    page.wait_for_selector("#seek-panel[hidden]", state="attached")
    assert page.locator("#seek").is_visible()
    left_the_pool(page)
