"""The board's call-outs and the status line in a real browser: a call-out says whose move it
was, hides no count and lives only as long as its move; the status says whose stones are being
sown until they land."""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.server.http.pages import strings
from tests.e2e.test_mancala_ui import YOUR_MOVE_OR_OVER, start

CALLOUT_LIFETIME = """async () => {
  const { MancalaBoard } = await import('/static/js/mancala/board.js');
  const root = document.createElement('div');
  root.style.width = '800px';
  document.querySelector('main').append(root);
  const board = new MancalaBoard(root, { seat: 0 });
  board.setSpeed('slow');
  const move = (seat, pit, path, extra) =>
    ({ seat, pit, path, extra_turn: extra, captured: 0, capture_from: null });
  board.show({ pits: [[4, 4, 4, 4, 4, 4], [4, 4, 4, 4, 4, 4]], stores: [0, 0], last: null });
  // The computer (seat 1, "CPU 2") sows its third pit into its store: another turn.
  await board.play({ pits: [[4, 4, 4, 4, 4, 4], [4, 4, 0, 5, 5, 5]], stores: [0, 1],
                     last: move(1, 2, [[1, 3], [1, 4], [1, 5], [1, 6]], true) },
                   { whose: 'CPU 2' });
  const callout = root.querySelector('.mb-callout');
  const said = callout?.textContent;
  const hit = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const covers = [...root.querySelectorAll('.mb-count')]
    .filter((count) => hit(count.getBoundingClientRect(), callout.getBoundingClientRect())).length;
  // Its next move starts: the call-out of the move before is gone at once.
  const next = board.play({ pits: [[4, 4, 4, 4, 4, 4], [0, 5, 1, 6, 6, 5]], stores: [0, 1],
                            last: move(1, 0, [[1, 1], [1, 2], [1, 3], [1, 4]], false) },
                          { whose: 'CPU 2' });
  const during = root.querySelectorAll('.mb-callout').length;
  await next;
  return { said, covers, during, after: root.querySelectorAll('.mb-callout').length };
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_callout_belongs_to_one_move_and_says_whose(new_page: Any, lang: str) -> None:
    page = new_page(lang=lang)
    page.goto("/")
    result = page.evaluate(CALLOUT_LIFETIME)
    assert result["said"] == strings(lang)["call.extra.seat"].replace("{name}", "CPU 2")
    assert result["covers"] == 0, "a call-out hides no count"
    assert result["during"] == 0 and result["after"] == 0


def test_on_the_play_page_the_computers_callout_is_gone_on_your_turn(new_page: Any) -> None:
    page = new_page(lang="en")
    start(page)
    en = strings("en")
    yours = {en["call.extra.you"], en["call.capture.you"]}
    for _ in range(6):
        page.wait_for_function(YOUR_MOVE_OR_OVER)
        if page.locator("#result[open]").count():
            break
        # Whatever the computer did before your turn, its call-out is not over the board now.
        assert set(page.locator(".mb-callout").all_text_contents()) <= yours
        page.locator("button.mb-hit--pit[data-legal]").last.click()


def test_the_status_says_whose_stones_are_sown(new_page: Any) -> None:
    page = new_page(lang="en")
    page.goto("/games/mancala?speed=slow")
    page.check("input[name=level][value=beginner]")
    page.check("input[name=order][value=first]")
    page.click("#start")
    page.wait_for_function(YOUR_MOVE_OR_OVER)
    page.keyboard.press("1")
    assert page.get_attribute("#turn", "data-turn") == "sowing"
    assert page.text_content("#turn-text") == strings("en")["play.turn.sowing_you"]
