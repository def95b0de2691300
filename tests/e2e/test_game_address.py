"""A game's own address (/games/mancala/<room>): kept in the address bar while playing, resumed
by a reload or a new tab of the same guest, listed on the records page while unfinished, and a
spectator's view for anyone else."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from asobiba.server.http.pages import strings
from tests.e2e.test_mancala_ui import YOUR_MOVE_OR_OVER, counts, start

EN = strings("en")
ADDRESS = re.compile(r"^/games/mancala/[0-9a-f]{16}$")


def test_a_game_keeps_its_address_and_its_guest_can_come_back(new_page: Any) -> None:
    page = new_page(lang="en")
    start(page)
    path = urlsplit(page.url).path
    assert ADDRESS.match(path), page.url
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("1")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert urlsplit(page.url).path == path, "the address stays while playing"
    before = counts(page)

    page.reload()
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert counts(page) == before

    # A new tab of the same browser (the same guest) at that address: the seated game again.
    tab = page.context.new_page()
    tab.goto(f"{path}?speed=instant")
    tab.wait_for_function(YOUR_MOVE_OR_OVER)
    assert counts(tab) == before
    assert tab.locator("#watching").count() == 0

    # The records page lists the unfinished game with a link to it.
    tab.goto("/records/mancala")
    link = tab.locator(".unfinished-games a")
    link.wait_for()
    assert link.get_attribute("href") == path
    assert tab.locator(".unfinished-games tbody tr").count() == 1
    link.click()
    tab.wait_for_function(YOUR_MOVE_OR_OVER)
    assert urlsplit(tab.url).path == path
    tab.close()

    # Back: the settings, at their own address.
    page.goto("/games/mancala")
    page.go_back()
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert urlsplit(page.url).path == path
    page.go_back()
    page.wait_for_selector("#play[data-state=setup]")
    assert urlsplit(page.url).path == "/games/mancala"


def test_another_guest_at_the_address_watches_and_cannot_act(new_page: Any) -> None:
    player = new_page(lang="en")
    start(player)
    path = urlsplit(player.url).path
    player.wait_for_function(YOUR_MOVE_OR_OVER)
    player.keyboard.press("1")
    player.wait_for_function(YOUR_MOVE_OR_OVER)
    position = counts(player)

    watcher = new_page(lang="en")  # another browser context: another guest
    watcher.goto(f"{path}?speed=instant")
    watcher.wait_for_selector("#watching")
    assert watcher.text_content("#watching") == EN["play.watching"]
    watcher.wait_for_function(
        "() => document.querySelector('#turn').dataset.turn === 'bottom'", timeout=20_000
    )
    assert counts(watcher) == position, "the spectator sees the same board"
    # One name per seat for every viewer (issue 31, point 11): the person at seat 1, the
    # computer at seat 2.
    assert watcher.text_content("#name-you") == EN["seat.player"].replace("{n}", "1")
    assert watcher.text_content("#name-them") == "CPU 2 (Beginner)"
    assert watcher.text_content("#turn-text") == "Player 1 to move"
    assert watcher.locator("button.mb-hit--pit[data-legal]").count() == 0
    assert watcher.locator("#new-game").count() == 0
    watcher.keyboard.press("2")
    watcher.locator("button.mb-hit--pit").nth(1).click(force=True)
    assert counts(watcher) == position, "nothing moved"

    # The player's move reaches the spectator.
    player.keyboard.press("2")
    watcher.wait_for_function(
        "(before) => [...document.querySelectorAll('.mb-count text')]"
        ".map((t) => Number(t.textContent)).join() !== before.join()",
        arg=position,
    )
    watcher.goto("/records/mancala")
    watcher.wait_for_selector(".empty-state")
    assert watcher.locator(".unfinished-games").count() == 0, "not the spectator's game"


def test_switching_language_comes_back_to_the_same_game(new_page: Any) -> None:
    """The play page pushes its game's address after the server drew it: the language switch
    must still come back there, query and all, and the game goes on in the other language."""
    page = new_page(lang="en")
    start(page)
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("1")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    address = urlsplit(page.url)
    assert ADDRESS.match(address.path) and address.query == "speed=instant", page.url
    position = counts(page)

    page.click(".lang-switch a[data-lang=ja]")
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    back = urlsplit(page.url)
    assert (back.path, back.query) == (address.path, address.query)
    assert counts(page) == position, "the same game, where it was"
    assert page.locator("#watching").count() == 0, "still its player"

    # Elsewhere too: the records page with a query of its own.
    page.goto("/records/mancala?from=test")
    page.click(".lang-switch a[data-lang=en]")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert urlsplit(page.url)[2:4] == ("/records/mancala", "from=test")
