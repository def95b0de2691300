"""A private table's replay in headless Chromium: once the game is over, its player finds the
replay's share link on the replay page and copies it; another guest (a second browser context)
finds nothing at the replay's own address, and the whole replay, names, chat and review
included, through the link (docs/OPERATIONS.md, "What it promises"). The lobby's code box
says so when a guest tries codes faster than the look-up limit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import serve
from tests.e2e.test_processes_ui import move
from tests.e2e.test_tables_ui import join, set_table


@pytest.fixture(scope="module")
def quick_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # Bots at once; and one code a guest's look-ups regain only every two minutes, so the
    # look-up limit is met however slowly the machine types.
    env = {"ASOBIBA_BOT_PACE": "0", "ASOBIBA_LIMIT_LOOKUPS_PER_MINUTE": "0.5"}
    with serve(tmp_path_factory.mktemp("share"), env) as base:
        yield base


def play_to_the_end(pages: list[Any]) -> None:
    """Whoever's move it is clicks a legal pit, until the result shows on every page."""
    deadline = time.monotonic() + 180
    while not all(page.locator("#result[open]").count() for page in pages):
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1 if move(pages) else 0.05)


def test_a_player_shares_a_private_tables_replay_with_a_link(
    new_page: Any, quick_site: str
) -> None:
    clipboard = ["clipboard-read", "clipboard-write"]
    host = new_page(lang="en", site_url=quick_site, permissions=clipboard)
    url = set_table(host, "mancala", name="Aki", seats=["me", "open"])
    room = url.rsplit("/", 1)[1]
    friend = new_page(lang="en", site_url=quick_site)
    join(friend, url, "Ben")
    for page in (host, friend):
        page.wait_for_selector("#play:not([data-table]) .mancala-board")
    host.fill("#chat-input", "only for us")
    host.press("#chat-input", "Enter")
    friend.locator("#chat-list li").filter(has_text="only for us").wait_for()
    play_to_the_end([host, friend])

    host.goto(f"/replay/{room}")
    host.wait_for_selector("#replay-share:not([hidden])")
    link = host.locator("#replay-share-link").input_value()
    assert link.startswith(f"{quick_site}/replay/{room}?share="), link
    host.click("#replay-share-copy")
    host.locator(".toast").filter(has_text="Copied.").wait_for()
    assert host.evaluate("navigator.clipboard.readText()") == link

    other = new_page(lang="en", site_url=quick_site)
    for path in (f"/replay/{room}", f"/api/rooms/{room}/replay", f"/games/mancala/{room}"):
        assert other.request.get(path).status == 404, path
    other.goto(link)
    other.wait_for_selector("#replay:not([hidden])")
    other.wait_for_selector("#replay-chat:not([hidden])")
    assert "only for us" in other.locator("#replay-chat").inner_text()
    names = other.locator("#replay-players .replay-player-name").all_inner_texts()
    assert names == ["Aki", "Ben"], names
    assert other.locator("#replay-share").is_hidden(), "only its people hand the link out"
    other.click("#last")
    assert other.locator("#review-error").is_hidden(), "the review is asked with the link too"
    tampered = link[:-1] + ("A" if link[-1] != "A" else "B")
    assert other.request.get(tampered).status == 404


def test_the_code_box_says_so_when_codes_are_tried_too_fast(browser: Any, quick_site: str) -> None:
    # Not a new_page: the browser logs each 404 and 429 of the box's look-ups as a console
    # error; uncaught errors are still checked.
    context = browser.new_context(base_url=quick_site, locale="en-US")
    context.add_cookies([{"name": "lang", "value": "en", "url": quick_site}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/tables")
        error = page.locator("#code-error")
        shown = []
        for n in range(8):  # a guest may look up 5 codes at once (GuestLimits.lookups_burst)
            page.fill("#code", f"ZZ{n:02d}ZZ")
            page.click("#code-go")
            error.filter(has_text=f"ZZ{n:02d}ZZ").or_(error.filter(has_text="Too many")).wait_for()
            shown.append(error.inner_text())
    finally:
        context.close()
    assert errors == []
    assert shown[:5] == [f"No table has the code ZZ{n:02d}ZZ." for n in range(5)]
    assert shown[5:] == ["Too many codes were tried just now. Wait a moment and try again."] * 3
