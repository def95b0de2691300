"""Words and pictures a new player trips on (issue 31, point 17), in headless Chromium: one name
for playing with other people on every page that offers it, game cards that say you can play
with people too, a menu whose Rules link opens the rules of the game the page is about (or the
index of every game's rules), and chat stamps drawn as SVG, never emoji characters, which show
as empty boxes where no emoji font is installed.
"""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.games import game_names
from asobiba.server.http.pages import strings
from asobiba.server.social.chat import STAMPS
from tests.e2e.test_tables_ui import join, set_table

PEOPLE = {"ja": "人とも", "en": "people"}
"""What each game card's players line says beside the computer, in each language."""
PICTOGRAPHIC = "(text) => /\\p{Extended_Pictographic}/u.test(text)"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_playing_with_people_has_one_name_everywhere(new_page: Any, lang: str) -> None:
    words = strings(lang)
    name = words["lobby.home_link"]
    page = new_page(lang=lang)
    page.goto("/")
    assert page.locator(".hero a[href='/tables']").inner_text() == name
    metas = page.locator(".game-card--playable .game-card-meta").all_inner_texts()
    assert metas and all(PEOPLE[lang] in meta for meta in metas), metas
    page.goto("/tables")
    assert page.locator("#set-table").inner_text() == name
    page.goto("/games/mancala")
    assert page.locator("#friends").inner_text() == name


@pytest.mark.parametrize(
    ("path", "rules"),
    [
        ("/games/momojan", "/games/momojan/rules"),
        ("/games/michikake/rules", "/games/michikake/rules"),
        ("/records/mokochaka", "/games/mokochaka/rules"),
        ("/learn/mancala", "/games/mancala/rules"),
        ("/", "/rules"),
        ("/games", "/rules"),
        ("/tables", "/rules"),
        ("/records", "/rules"),
    ],
)
def test_the_menus_rules_link_opens_the_pages_own_games_rules(
    new_page: Any, path: str, rules: str
) -> None:
    page = new_page(lang="en")
    page.goto(path)
    link = page.locator(".site-nav a", has_text=strings("en")["nav.rules"])
    assert link.get_attribute("href") == rules
    if rules == "/rules":
        link.click()
        page.wait_for_url("**/rules")
        listed = page.locator("main a[href$='/rules']").evaluate_all(
            "links => links.map((a) => a.getAttribute('href'))"
        )
        assert listed == [f"/games/{name}/rules" for name in game_names()]


def test_chat_stamps_are_drawn_not_emoji(new_page: Any) -> None:
    host = new_page(lang="en")
    url = set_table(host, "mancala", name="Aiko", seats=["me", "open"])
    friend = new_page(lang="ja")
    join(friend, url, "Ben")
    for page in (host, friend):
        page.wait_for_selector("#chat:not([hidden]) #chat-stamps button")
        buttons = page.locator("#chat-stamps button")
        for n in range(buttons.count()):
            button = buttons.nth(n)
            assert not button.evaluate(f"b => ({PICTOGRAPHIC})(b.textContent)"), button.inner_text()
            icon = button.locator("svg.stamp-icon use")
            assert icon.count() == 1
            box = button.locator("svg.stamp-icon").bounding_box()
            assert box is not None and 12 <= box["width"] <= 32, box
    sprite = host.request.get("/static/svg/stamps.svg")
    assert sprite.ok
    for stamp in STAMPS:
        assert f'id="{stamp}"' in sprite.text()
    friend.click("#chat-stamps [data-stamp=thanks]")
    line = host.locator("#chat-list .chat-stamp[data-stamp=thanks]")
    line.wait_for()
    assert line.locator("svg.stamp-icon use").count() == 1
    assert line.inner_text().strip() == strings("en")["chat.stamp.thanks"]
    assert not line.evaluate(f"node => ({PICTOGRAPHIC})(node.textContent)")
