"""The MICHIKAKE course through the real UI in headless Chromium.

- A new guest is offered the course on the game's settings page, follows it and completes every
  lesson by keyboard (1-6 discard the n-th card of the hand, W wins, S steals, P passes), one
  lesson after a wrong try.
- Another new guest completes every lesson by touch (a `has_touch` context, every move a tap on
  the hand's cards and the prompts), on a phone.
- A worked example (a payment) plays, pauses and steps back on the lesson's table, in Japanese
  and English, and ends on the play page's deal screen with the rulebook's figures.

Both languages are used: the keyboard run in English on a desktop, the touch run in Japanese on
a phone. The lessons' answers come from lessons.toml (the engine tests check them); the page
only shows what the server's engine answers. The pages run with ``?speed=instant``.
"""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.games.michikake.lessons import LESSON_BY_ID, LESSONS, PARTS
from asobiba.server.http.pages import strings

JA = strings("ja")
EN = strings("en")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
KEYS = {"win": "w", "steal": "s", "pass": "p"}


def press_move(page: Any, move: dict[str, Any]) -> None:
    """Make a lesson's move with the keys the page lists."""
    ((kind, value),) = move.items()
    if kind == "discard":
        cards = page.eval_on_selector_all(
            "#lesson-board .mk-hand .mk-hand-card", "nodes => nodes.map((n) => n.dataset.card)"
        )
        page.keyboard.press(str(cards.index(value) + 1))
    else:
        page.keyboard.press(KEYS[kind])


def tap_move(page: Any, move: dict[str, Any]) -> None:
    """Make a lesson's move by tapping the hand and the prompts."""
    board = page.locator("#lesson-board")
    ((kind, value),) = move.items()
    if kind == "discard":
        board.locator(f".mk-hand .mk-hand-card.is-legal[data-card='{value}']").first.tap()
    else:
        board.locator(f".mk-prompt[data-action='{kind}']").tap()


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def play_lesson(page: Any, lesson_id: str, move: Any, *, wrong_first: bool = False) -> None:
    """Solve the lesson on show with ``move`` (press or tap), after a wrong try if asked."""
    page.wait_for_selector(f"#lesson[data-lesson='{lesson_id}'][data-status=ready]")
    data = LESSON_BY_ID[lesson_id]
    lang = "ja" if page.evaluate("document.documentElement.lang") == "ja" else "en"
    if wrong_first:
        for step in data.wrong[:-1]:
            move(page, step)
            page.wait_for_selector("#lesson[data-status=continue]")
            page.wait_for_selector("#lesson-board .mk-lesson:not([data-act=''])")
        move(page, data.wrong[-1])
        page.wait_for_selector("#lesson[data-status=wrong]")
        assert page.text_content("#lesson-said").endswith(data.say("hint")[lang])
        retry = page.locator("#lesson-retry")
        if move is press_move:
            retry.focus()
            page.keyboard.press("Enter")
        else:
            retry.tap()
        page.wait_for_selector("#lesson[data-status=ready]")
    for index, step in enumerate(data.answer):
        move(page, step)
        last = index == len(data.answer) - 1
        page.wait_for_selector(f"#lesson[data-status={'right' if last else 'continue'}]")
        if not last:
            page.wait_for_selector("#lesson-board .mk-lesson:not([data-act=''])")
    assert data.say("right")[lang] in page.text_content("#lesson-said")
    assert (
        page.get_attribute(f"button.learn-chip[data-lesson='{lesson_id}']", "data-done") == "true"
    )
    if data.goal in ("win", "deal"):
        # The deal's screen under the table, as on the play page: the win broken down.
        result = page.locator("#lesson-board .mk-lesson-result[data-kind=win]")
        assert result.is_visible() and result.locator(".mk-breakdown tr").count() >= 3
    if data.goal == "session":
        assert page.locator("#lesson-board .mk-ranking tbody tr").count() == 3


def complete_course(page: Any, move: Any, lang: str) -> None:
    words = JA if lang == "ja" else EN
    for number, data in enumerate(LESSONS):
        play_lesson(page, data.id, move, wrong_first=number == 1)
        if number < len(LESSONS) - 1:
            if move is press_move:
                page.wait_for_function("() => document.activeElement?.id === 'lesson-next'")
                page.keyboard.press("Enter")
            else:
                page.locator("#lesson-next").tap()
    page.wait_for_selector("#lesson-play:not([hidden])")
    assert words["learn.all_done"] in page.text_content("#lesson-said")
    assert page.text_content("#learn-progress") == words["learn.progress"].format(
        done=len(LESSONS), total=len(LESSONS)
    )
    no_sideways_scroll(page)


def test_a_new_guest_is_offered_the_course_and_completes_it_by_keyboard(new_page: Any) -> None:
    page = new_page(lang="en", **DESKTOP)
    page.goto("/games/michikake?speed=instant")
    page.wait_for_selector("#learn-offer")
    page.focus("#learn-offer-go")
    page.keyboard.press("Enter")
    page.wait_for_url("**/learn/michikake")
    page.goto("/learn/michikake?speed=instant")
    page.wait_for_selector("#lesson[data-status=ready]")
    assert page.get_attribute("#lesson", "data-lesson") == LESSONS[0].id
    # The lesson's table is the play page's: three seats, crests, the hand of six with the
    # drawn card set apart, and the rulebook parts the step teaches under its title.
    board = page.locator("#lesson-board")
    assert board.locator(".mk-seat").count() == 3 and board.locator(".mk-crest").count() == 3
    assert board.locator(".mk-hand .mk-hand-card").count() == 6
    assert board.locator(".mk-hand .mk-hand-card.is-drawn").get_attribute("data-card") == "R9"
    assert PARTS["cards"].title["en"] in page.text_content("#lesson-covers")
    complete_course(page, press_move, "en")
    page.reload()
    page.wait_for_selector("#lesson[data-status=ready]")
    chips = page.locator("button.learn-chip[data-done=true]")
    assert chips.count() == len(LESSONS), "the done marks are kept for this guest"


def test_a_new_guest_completes_every_lesson_by_touch_on_a_phone(new_page: Any) -> None:
    page = new_page(lang="ja", has_touch=True, is_mobile=True, **PHONE)
    page.goto("/learn/michikake?speed=instant")
    page.wait_for_selector("#lesson[data-status=ready]")
    complete_course(page, tap_move, "ja")


def test_a_claim_window_in_a_lesson_waits_for_the_learner(new_page: Any) -> None:
    """The bar of an open claim window stands full and says the clock waits: the page runs no
    countdown (the server dates the learner's answer inside the window, the engine tests say)."""
    page = new_page(lang="en", **DESKTOP)
    page.goto("/learn/michikake?speed=instant&lesson=triplets")
    page.wait_for_selector("#lesson[data-lesson=triplets][data-status=ready]")
    claim = page.locator("#lesson-board .mk-claim")
    assert claim.locator(".mk-countdown-text").text_content() == EN["michikake.lesson.clock"]
    bar = claim.locator(".mk-countdown-bar").get_attribute("style") or ""
    assert "scaleX(1)" in bar
    prompts = page.eval_on_selector_all(
        "#lesson-board .mk-prompt", "nodes => nodes.map((n) => n.dataset.action)"
    )
    assert prompts == ["win", "steal", "pass"]
    page.keyboard.press("w")
    page.wait_for_selector("#lesson[data-status=right]")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_worked_example_plays_pauses_and_steps_back_on_the_table(
    new_page: Any, lang: str
) -> None:
    words = JA if lang == "ja" else EN
    page = new_page(lang=lang, **(PHONE if lang == "ja" else DESKTOP))
    page.goto("/learn/michikake?speed=instant&lesson=own-draw")
    page.wait_for_selector("#lesson-demo:not([hidden])[data-frame='0']")
    data = LESSON_BY_ID["own-draw"]
    assert data.demo is not None
    assert page.text_content("#demo-title") == data.demo.title[lang]
    assert page.locator("#demo-stage .mk-seat").count() == 4
    frames = int(page.text_content("#demo-count").split("/")[1])
    page.click("#demo-play")
    page.wait_for_selector(f"#lesson-demo[data-frame='{frames - 1}']")
    page.wait_for_function(
        "(play) => document.querySelector('#demo-play').textContent === play",
        arg=words["learn.demo.play"],
    )
    # The last frame: the win broken down on the play page's deal screen, the rulebook's 87.
    result = page.locator("#demo-stage .mk-lesson-result[data-kind=win]")
    assert result.is_visible()
    assert "87" in (result.locator(".mk-pay-row").text_content() or "")
    assert "87" in (page.text_content("#demo-note") or "")
    page.click("#demo-back")  # the draw that makes the two sets
    assert page.get_attribute("#lesson-demo", "data-frame") == str(frames - 2)
    assert not result.is_visible()
    hand = page.eval_on_selector_all(
        "#demo-stage .mk-hand .mk-hand-card", "nodes => nodes.map((n) => n.dataset.card)"
    )
    assert sorted(hand) == ["W4", "W4", "W4", "W6", "W6", "W6"]
    page.click("#demo-back")
    assert page.get_attribute("#lesson-demo", "data-frame") == str(frames - 3)
    page.focus("#demo-next")
    page.keyboard.press("Enter")
    assert page.get_attribute("#lesson-demo", "data-frame") == str(frames - 2)
    page.click("#demo-play")
    page.click("#demo-play")  # pause at once: the frame stays
    shown = page.get_attribute("#lesson-demo", "data-frame")
    assert page.text_content("#demo-play") == words["learn.demo.play"]
    assert page.get_attribute("#lesson-demo", "data-frame") == shown
    no_sideways_scroll(page)
