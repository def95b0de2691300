"""Mancala through the real UI in headless Chromium: settings, a whole game against the weakest
bot, the result dialog, the records page and the replay viewer, in Japanese and in English.

The pages run with ``?speed=instant`` so the stones land at once and a game takes seconds.
"""

from __future__ import annotations

import re
from typing import Any

from asobiba.games import get_game
from asobiba.server.pages import strings

JA = strings("ja")
EN = strings("en")
BEGINNER = get_game("mancala").level_names()["beginner"]

YOUR_MOVE_OR_OVER = """() => document.querySelector('#result[open]') !== null ||
  (document.querySelector('#play').dataset.turn === 'you' &&
   document.querySelector('button.mb-hit--pit[data-legal]') !== null)"""

BOARD_CONSISTENCY = """() => {
  // Every drawn stone lies in a pit or store, and each one holds as many as its label says.
  const holes = [...document.querySelectorAll('.mb-pit, .mb-store')].map((g) => {
    const box = g.querySelector('.mb-pit-hole, .mb-store-hole').getBBox();
    return {x0: box.x - 4, y0: box.y - 4, x1: box.x + box.width + 4, y1: box.y + box.height + 4,
            n: 0};
  });
  let outside = 0;
  for (const stone of document.querySelectorAll('.mb-stone')) {
    const m = stone.style.transform.match(/translate\\(([-\\d.]+)px, ([-\\d.]+)px\\)/);
    const [x, y] = [Number(m[1]), Number(m[2])];
    const hole = holes.find((h) => x >= h.x0 && x <= h.x1 && y >= h.y0 && y <= h.y1);
    if (hole) hole.n += 1; else outside += 1;
  }
  const labels = [...document.querySelectorAll('.mb-count text')].map((t) => Number(t.textContent));
  return {outside, drawn: holes.map((h) => h.n), labels};
}"""


def counts(page: Any) -> list[int]:
    return [int(text) for text in page.locator(".mb-count text").all_text_contents()]


def assert_board_consistent(page: Any) -> None:
    check = page.evaluate(BOARD_CONSISTENCY)
    assert check["outside"] == 0
    assert check["drawn"] == check["labels"]


def start(page: Any, *, variant: str = "kalah", seeds: int = 4, order: str = "first") -> None:
    page.goto("/games/mancala?speed=instant")
    page.check(f"input[name=variant][value={variant}]")
    page.check(f"input[name=seeds][value='{seeds}']")
    page.check("input[name=level][value=beginner]")
    page.check(f"input[name=order][value={order}]")
    page.click("#start")
    page.wait_for_selector("#play[data-state=playing]")


def play_to_the_end(page: Any, *, keys: bool = False) -> int:
    """Sow from the first legal pit each turn (by click or by its number key); return moves."""
    moves = 0
    while True:
        page.wait_for_function(YOUR_MOVE_OR_OVER)
        if page.locator("#result[open]").count():
            return moves
        pit = int(page.locator("button.mb-hit--pit[data-legal]").first.get_attribute("data-pit"))
        if keys:
            page.keyboard.press(str(pit + 1))
        else:
            page.click(f"button.mb-hit--pit[data-pit='{pit}']")
        moves += 1
        assert moves < 200, "a game of Mancala ends long before this"


def scores_in(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def test_kalah_against_the_beginner_in_japanese(new_page: Any) -> None:
    page = new_page(lang="ja")
    start(page)
    assert page.locator("html").get_attribute("lang") == "ja"
    # The third pit from the left ends in the store: もう1回!
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("3")
    page.wait_for_selector(".mb-callout--extra")
    assert page.text_content(".mb-callout--extra") == JA["call.extra"]
    moves = play_to_the_end(page, keys=True) + 1
    assert moves >= 3

    title = page.text_content("#result-title")
    assert title in {JA["result.win"], JA["result.loss"], JA["result.draw"]}
    you, them = scores_in(page.text_content("#result-score"))
    assert you + them == 48
    assert page.get_attribute("#turn", "data-turn") == "over"
    assert_board_consistent(page)

    page.click("#to-records")
    page.wait_for_selector("#stored-games")
    rule = "カラハ・石の数 4・横取りあり・残った石を数える"
    assert rule in page.text_content(".record-set-title")
    row = page.locator(".record-set tbody tr").first
    assert row.locator("th").text_content() == BEGINNER["ja"]
    assert row.locator("td").nth(0).text_content() == JA["seat.first"]
    result = {JA["result.win"]: "wins", JA["result.loss"]: "losses", JA["result.draw"]: "draws"}
    column = {"wins": 2, "draws": 3, "losses": 4}[result[title]]
    assert row.locator("td").nth(1).text_content() == "1"
    assert row.locator("td").nth(column).text_content() == "1"
    games = page.locator("#stored-games tbody tr")
    assert games.count() == 1
    assert f"{you} – {them}" in games.first.text_content()

    games.first.locator("a").click()
    page.wait_for_selector("#replay:not([hidden])")
    assert "/replay/" in page.url
    assert page.text_content("#move-text") == JA["replay.start"]
    assert counts(page) == [4] * 6 + [0] + [4] * 6 + [0]
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => !document.querySelector('.is-animating')")
    assert "1 /" in page.text_content("#position")
    assert page.text_content("#move-text").startswith(JA["play.you"])
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#next').disabled")
    board = counts(page)
    assert (board[6], board[13]) == (you, them), "stores of seat 0 (you) and seat 1"
    assert_board_consistent(page)
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#first').disabled")
    assert counts(page) == [4] * 6 + [0] + [4] * 6 + [0]


def test_kalah_against_the_beginner_in_english_moving_second(new_page: Any) -> None:
    page = new_page(lang="en")
    start(page, order="second")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.text_content("#rule-chip") == (
        "Kalah · Stones per pit: 4 · Standard capture · Leftover stones count"
    )
    assert page.text_content("#name-them") == "Computer (Beginner)"
    play_to_the_end(page)
    assert page.text_content("#result-title") in {
        EN["result.win"],
        EN["result.loss"],
        EN["result.draw"],
    }
    assert page.text_content("#result-score").startswith("Stones in stores: you ")
    page.click("#to-records")
    page.wait_for_selector("#stored-games")
    assert page.locator(".record-set tbody tr th").first.text_content() == BEGINNER["en"]
    assert page.locator(".record-set tbody tr td").first.text_content() == "Second"
    page.locator("#stored-games tbody tr a").first.click()
    page.wait_for_selector("#replay:not([hidden])")
    assert "You played Second" in page.text_content("#replay-meta")
    page.click("#next")
    page.wait_for_function("() => !document.querySelector('.is-animating')")
    assert page.text_content("#move-text").startswith("Computer (Beginner): pit ")
    page.click("#last")
    assert page.locator("#next").is_disabled()


def test_basic_with_three_stones_on_a_phone(new_page: Any) -> None:
    page = new_page(lang="en", width=375, height=740)
    page.goto("/games/mancala?speed=instant")
    page.check("input[name=variant][value=basic]")
    assert page.locator("fieldset[data-option=capture]").is_hidden()
    assert page.locator("fieldset[data-option=count_leftovers]").is_hidden()
    page.check("input[name=seeds][value='3']")
    assert counts(page) == [3] * 6 + [0] + [3] * 6 + [0], "the preview follows the settings"
    page.check("input[name=level][value=beginner]")
    page.click("#start")
    page.wait_for_selector("#play[data-state=playing]")
    assert page.text_content("#rule-chip") == "Basic · Stones per pit: 3"
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    play_to_the_end(page)
    score = page.text_content("#result-score")
    assert score in {EN["result.basic_you"], EN["result.basic_them"]}
    assert page.text_content("#result-detail").startswith("Stones left on each side:")
    won = score == EN["result.basic_you"]
    assert page.text_content("#result-title") == EN["result.win" if won else "result.loss"]
    assert_board_consistent(page)

    # Rematch: the same settings again, a new room.
    page.click("#rematch")
    page.wait_for_function("() => !document.querySelector('#result[open]')")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert page.text_content("#rule-chip") == "Basic · Stones per pit: 3"

    page.goto("/records/mancala")
    page.wait_for_selector("#stored-games")
    assert "Basic · Stones per pit: 3" in page.text_content(".record-set-title")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375


def test_settings_are_remembered_and_a_reload_resumes_the_game(new_page: Any) -> None:
    page = new_page(lang="ja")
    start(page, variant="kalah", seeds=5)
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("1")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    before = counts(page)
    page.reload()
    page.wait_for_selector("#play[data-state=playing]")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    assert counts(page) == before, "the socket's sync restores the same position"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#new-game")
    page.wait_for_selector("#play[data-state=setup]")
    assert page.is_checked("input[name=seeds][value='5']")
