"""MOMOJAN through the real UI in a headless Chromium: a whole game against the weakest bot, a
round at phone width, and a spectator's read-only view."""

from __future__ import annotations

import re
import time
from typing import Any

# One step of a simple player: close a finished round's screen, win whenever a prompt offers it,
# else draw from the first pile that may be drawn, else discard the card just drawn (the last
# legal card of the hand), else let the last discard go when the piles are empty.
STEP = """() => {
  if (document.getElementById('result').open) return 'over';
  const round = document.getElementById('round-result');
  if (round.open) {
    const kind = round.dataset.kind;
    const shown = kind === 'win'
      ? document.querySelectorAll('#round-body .mj-breakdown tr').length > 0
      : document.querySelectorAll('#round-body .mj-wall-seat').length === 2;
    document.getElementById('round-next').click();
    return shown ? 'round-' + kind : 'round-empty';
  }
  const q = (s) => document.querySelector(s);
  for (const a of ['ron', 'tsumo']) {
    const b = q(`#prompts [data-action=${a}]`);
    if (b) { b.click(); return a; }
  }
  const pile = q('.mj-pile.is-legal');
  if (pile) { pile.click(); return 'draw'; }
  const cards = [...document.querySelectorAll('.mj-hand--mine .mj-hand-card.is-legal')];
  if (cards.length) { cards[cards.length - 1].click(); return 'discard'; }
  const pass = q('#prompts [data-action=pass]');
  if (pass) { pass.click(); return 'pass'; }
  return 'wait';
}"""


def start(page: Any) -> str:
    """Start a game with the default (weakest) level; returns the room id from the address."""
    page.goto("/games/momojan?speed=instant")
    weakest = page.evaluate(
        "() => JSON.parse(document.getElementById('page-data').textContent).levels[0].id"
    )
    assert page.locator(f'input[name="level"][value="{weakest}"]').is_checked()
    page.click("#start")
    page.wait_for_selector(".mj-hand--mine .mj-hand-card")
    match = re.search(r"/games/momojan/([\w-]+)", page.url)
    assert match, page.url
    return match.group(1)


def play(page: Any, *, until: str = "over", limit: float = 150.0) -> dict[str, int]:
    """Play through the UI until the game-end screen (or the first round screen)."""
    seen: dict[str, int] = {}
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        step = page.evaluate(STEP)
        seen[step] = seen.get(step, 0) + 1
        if step == until or (until == "round" and step.startswith("round-")):
            return seen
        # A person's pace: the room allows 10 messages a second.
        time.sleep(0.05 if step in ("wait", "round-win", "round-wall") else 0.13)
    raise AssertionError(f"no {until} within {limit} s: {seen}")


def test_a_whole_game_against_the_weakest_bot_ends_with_the_rounds_and_points(
    new_page: Any,
) -> None:
    page = new_page(lang="ja")
    room = start(page)
    assert page.url.endswith(f"/games/momojan/{room}?speed=instant")
    # The table shows what the rulebook puts on it.
    for selector in (".mj-dora .mj-card", ".mj-pile", ".mj-middle", ".mj-points", ".mj-round"):
        assert page.locator(selector).count() >= 1, selector
    assert page.locator(".mj-pile").count() == 3
    assert page.locator(".mj-hand--hidden .mj-card").count() == 7
    seen = play(page)
    rounds = seen.get("round-win", 0) + seen.get("round-wall", 0)
    assert "round-empty" not in seen, seen
    assert rounds >= 1, seen
    dialog = page.locator("#result")
    assert dialog.is_visible()
    title = page.locator("#result-title").inner_text()
    assert title in ("あなたの勝ち!", "あなたの負け")
    assert re.search(r"あなた -?\d+点", page.locator("#result-score").inner_text())
    assert page.locator("#result-detail").inner_text()
    assert page.locator("#result-rounds tbody tr").count() == rounds
    # Closing the screen leaves the final table and the way to a rematch.
    page.click("#close-result")
    assert page.locator("#result-bar").is_visible()
    # The stored game replays on the same table, as this seat saw it.
    page.goto(f"/replay/{room}?speed=instant")
    page.wait_for_selector("#replay:not([hidden]) .mj-pile")
    assert page.locator(".mj-hand--mine .mj-hand-card").count() == 7
    page.click("#last")
    page.wait_for_function(
        "() => /第\\d+局/.test(document.getElementById('move-text').textContent)"
    )
    # Back at the game's address, the finished game opens on its result.
    page.go_back()
    page.wait_for_selector("#result[open] #result-rounds tbody tr")
    page.click("#close-result")
    page.click("#show-final")
    page.click("#rematch")
    page.wait_for_function(f"() => !location.pathname.endsWith('/{room}')")
    page.wait_for_selector(".mj-hand--mine .mj-hand-card")


def test_a_round_at_phone_width_fits_the_screen(new_page: Any) -> None:
    page = new_page(lang="en", width=375, height=812)
    start(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    hand = page.locator(".mj-hand--mine").bounding_box()
    assert hand and hand["x"] >= 0 and hand["x"] + hand["width"] <= 375
    seen = play(page, until="draw")
    assert seen["draw"] == 1 or seen.get("discard")
    page.wait_for_selector(".mj-hand-drawn .mj-hand-card")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    seen = play(page, until="round")
    assert "round-empty" not in seen, seen
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


def test_a_spectator_sees_the_table_without_any_hand(new_page: Any) -> None:
    player = new_page(lang="ja")
    room = start(player)
    watcher = new_page(lang="ja")
    watcher.goto(f"/games/momojan/{room}?speed=instant")
    watcher.wait_for_selector("#play[data-mode='watch'] .mj-pile")
    watcher.wait_for_function("() => document.querySelectorAll('.mj-hand--hidden').length === 2")
    assert watcher.locator(".mj-hand--mine").count() == 0
    assert watcher.locator("#prompts button").count() == 0
    assert watcher.locator(".mj-pile.is-legal").count() == 0
