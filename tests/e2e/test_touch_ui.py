"""Phones against desktops (issue 31, point 16): a touch screen shows no keyboard hints or key
badges, the chat at a table sits above the key list, and when a table's game starts a phone
shows the person's own hand between the site's header and the game's sticky dock.

A phone is a 375 × 812 context with touch (`has_touch`, `is_mobile`: the primary pointer is
coarse and cannot hover); a desktop is 1280 × 800 with a mouse.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e import test_mancala_ui, test_michikake_ui, test_mokochaka_ui, test_momojan_ui
from tests.e2e.test_tables_ui import join, set_table

PHONE = {"width": 375, "height": 812, "has_touch": True, "is_mobile": True}
DESKTOP = {"width": 1280, "height": 800}

# A game against the computer on each game page, up to the moment its keys would show: the
# person's own turn (MICHIKAKE badges the cards the person may discard), the call pad (Mokochaka).
STARTS = {
    "mancala": lambda page: test_mancala_ui.start(page),
    "momojan": test_momojan_ui.start,
    "michikake": lambda page: test_michikake_ui.start(page, 3),
    "mokochaka": lambda page: test_mokochaka_ui.start(page),
}
READY = {
    "mancala": "#board",
    "momojan": ".mj-hand--mine .mj-hand-card",
    "michikake": ".mk-hand-card.is-legal",
    "mokochaka": "#pad",
}

# Key badges (`kbd`) and key hints on show, and the visible words of the game's table.
KEYS_SHOWN = """() => {
  const shown = (node) => node.checkVisibility();
  return {badges: [...document.querySelectorAll('kbd')].filter(shown).map((n) => n.textContent),
          hints: [...document.querySelectorAll('.hint-keys')].filter(shown).length,
          text: document.getElementById('table').innerText};
}"""
KEY_WORDS = re.compile(r"\bkeys?\b", re.IGNORECASE)  # not "Monkey"


@pytest.mark.parametrize("game", list(STARTS))
def test_key_hints_and_badges_show_only_where_there_is_a_keyboard(new_page: Any, game: str) -> None:
    """Issue 31: a phone showed MOMOJAN's list of keys, Mokochaka's "Enter" and "⌫" on its pad
    and MICHIKAKE's numbers on the cards. On a touch screen none is shown; on a desktop they
    are."""
    for device, options in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(lang="en", **options)
        STARTS[game](page)
        page.wait_for_selector(READY[game])
        shown = page.evaluate(KEYS_SHOWN)
        words = KEY_WORDS.findall(shown["text"])
        if device == "phone":
            assert not shown["badges"] and not shown["hints"] and not words, (game, shown)
            assert page.locator("#hint").is_visible(), "how to play stays, by touch"
        else:
            assert shown["hints"] and words, (game, shown)
            if game in ("michikake", "mokochaka"):
                assert shown["badges"], (game, shown)


# The boxes that matter at a table's start: the site's header, the person's own hand, what
# sticks at the foot of the screen (MOMOJAN's dock; MICHIKAKE's prompt bar when it holds
# buttons), the chat and the hint with its keys, in the viewport's coordinates.
BOXES = """() => {
  const box = (node) => node ? node.getBoundingClientRect().toJSON() : null;
  const prompts = document.getElementById('prompts');
  const dock = document.getElementById('dock') ??
    (prompts && prompts.childElementCount ? prompts : null);
  return {header: box(document.querySelector('.site-header')),
          hand: box(document.querySelector('.mj-hand--mine, .mk-seat--mine .mk-hand')),
          dock: box(dock), chat: box(document.getElementById('chat')),
          hint: box(document.getElementById('hint')), height: window.innerHeight,
          chatShown: !document.getElementById('chat').hidden};
}"""

HAND_IN_SIGHT = f"""() => {{
  const got = ({BOXES})();
  if (!got.hand || got.hand.height === 0) return false;
  const floor = Math.min(got.height, got.dock ? got.dock.top : got.height);
  return got.hand.top >= got.header.bottom && got.hand.bottom <= floor;
}}"""

SEATS = {"momojan": ["me", "open"], "michikake": ["me", "open", "bot:beginner", "bot:beginner"]}


@pytest.mark.parametrize("game", list(SEATS))
def test_at_a_tables_start_a_phone_shows_the_hand_and_the_chat_above_the_keys(
    new_page: Any, game: str
) -> None:
    """Issue 31: when the guest's seat filled the table and the game started, the guest's hand
    on a phone lay under the sticky turn bar, and the chat came only after a long list of keys.
    The host sets the table on a desktop, the guest joins it on a phone: the guest's hand lies
    between the header's bottom and the dock's top, and on both screens the chat comes before
    the key list."""
    host = new_page(lang="ja", **DESKTOP)
    guest = new_page(lang="ja", **PHONE)
    link = set_table(host, game, name="Aki", seats=SEATS[game])
    join(guest, link, "Ben")  # the last open seat: the game starts
    for page in (guest, host):
        page.wait_for_selector("#chat:not([hidden])")
        boxes = page.evaluate(BOXES)
        assert boxes["chat"]["top"] < boxes["hint"]["top"], ("the chat under the keys", boxes)
    try:
        guest.wait_for_function(HAND_IN_SIGHT, timeout=15_000)
    except PlaywrightTimeout:
        pytest.fail(f"the hand is out of sight: {guest.evaluate(BOXES)}")
