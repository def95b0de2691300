"""The MOMOJAN course through the real UI in headless Chromium.

- A new guest is offered the course on the game's settings page, follows it and completes every
  lesson by keyboard (D draws, 1-8 discard, K/P/C/T/R/N the prompts, L riichi), one lesson after a
  wrong try; on a phone in Japanese and a desktop in English.
- Another new guest completes every lesson by touch (a `has_touch` context, every move a tap on
  the table's piles, cards and prompts), on a phone in English and a desktop in Japanese.
- A worked example plays, pauses and steps back on the lesson's table and ends on the round's
  account, in Japanese and English.

The lessons' answers come from lessons.toml (the engine tests check them); the page only shows
what the server's engine answers. The pages run with ``?speed=instant``.
"""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.games.momojan.lessons import LESSON_BY_ID, LESSONS, PARTS
from asobiba.server.http.pages import strings

JA = strings("ja")
EN = strings("en")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
PROMPT_KEYS = {"kai": "k", "pon": "p", "chi": "c", "tsumo": "t", "ron": "r", "pass": "n"}
HAND = "#lesson-board .mj-hand--mine .mj-hand-card"


def _prompt(move: dict[str, Any]) -> str:
    selector = f"#lesson-board button.mj-prompt[data-action='{move['type']}']"
    if "cards" in move:
        selector += f"[data-cards^='{' '.join(move['cards'])}']"
    return selector


def press_move(page: Any, move: dict[str, Any]) -> None:
    """Make a lesson's move with the keys the page lists."""
    kind = move["type"]
    if kind in ("draw", "draw3"):
        if kind == "draw":  # D draws from the tallest pile (the engine tests keep it so)
            piles = page.evaluate(
                "() => [...document.querySelectorAll('#lesson-board .mj-pile')]"
                ".map((pile) => Number(pile.querySelector('.mj-pile-count').textContent))"
            )
            assert piles.index(max(piles)) == move["pile"]
        page.keyboard.press("d")
    elif kind == "discard":
        if move["riichi"]:
            page.keyboard.press("l")
            page.wait_for_selector("#lesson-board .mj-hand--mine.is-riichi-mode")
        cards = page.eval_on_selector_all(HAND, "(buttons) => buttons.map((b) => b.dataset.card)")
        page.keyboard.press(str(cards.index(move["card"]) + 1))
    elif "cards" in move:
        # With several prompts of one kind the key moves the focus along them; Enter takes one.
        wanted = page.locator(_prompt(move))
        others = page.locator(f"#lesson-board button.mj-prompt[data-action='{kind}']").count()
        if others == 1:
            page.keyboard.press(PROMPT_KEYS[kind])
        else:
            for _ in range(others):
                page.keyboard.press(PROMPT_KEYS[kind])
                if wanted.evaluate("(button) => button === document.activeElement"):
                    break
            page.keyboard.press("Enter")
    else:
        page.keyboard.press(PROMPT_KEYS[kind])


def tap_move(page: Any, move: dict[str, Any]) -> None:
    """Make a lesson's move by tapping the table and its prompts."""
    kind = move["type"]
    board = page.locator("#lesson-board")
    if kind == "draw":
        board.locator(f"button.mj-pile[data-pile='{move['pile']}']").tap()
    elif kind == "discard":
        if move["riichi"]:
            board.locator("button.mj-prompt[data-action='riichi']").tap()
            page.wait_for_selector("#lesson-board .mj-hand--mine.is-riichi-mode")
        board.locator(
            f".mj-hand--mine .mj-hand-card.is-legal[data-card='{move['card']}']"
        ).first.tap()
    else:
        page.locator(_prompt(move)).tap()


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def play_lesson(page: Any, lesson_id: str, move: Any, *, wrong_first: bool = False) -> None:
    """Solve the lesson on show with ``move`` (press or tap), after a wrong try if asked."""
    page.wait_for_selector(f"#lesson[data-lesson='{lesson_id}'][data-status=ready]")
    page.wait_for_selector("#lesson-board .mj-lesson[data-act='you']")
    data = LESSON_BY_ID[lesson_id]
    lang = "ja" if page.evaluate("document.documentElement.lang") == "ja" else "en"
    assert page.text_content("#lesson-task") == data.say("task")[lang]
    if wrong_first:
        for step in data.wrong[:-1]:
            move(page, step)
            page.wait_for_selector("#lesson[data-status=continue]")
            page.wait_for_selector("#lesson-board .mj-lesson[data-act='you']")
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
        page.wait_for_selector("#lesson-board .mj-lesson[data-act='you']")
    # Another try goes on from the last move accepted: the wrong line's start is the right one's.
    done = len(data.wrong) - 1 if wrong_first else 0
    assert data.answer[:done] == data.wrong[:done]
    for index, step in enumerate(data.answer):
        if index < done:
            continue
        move(page, step)
        last = index == len(data.answer) - 1
        page.wait_for_selector(f"#lesson[data-status={'right' if last else 'continue'}]")
        if not last:
            page.wait_for_selector("#lesson-board .mj-lesson[data-act='you']")
    assert page.text_content("#lesson-said").startswith(data.say("right")[lang])
    assert (
        page.get_attribute(f"button.learn-chip[data-lesson='{lesson_id}']", "data-done") == "true"
    )


def complete_course(page: Any, move: Any, lang: str) -> None:
    words = JA if lang == "ja" else EN
    for number, data in enumerate(LESSONS):
        play_lesson(page, data.id, move, wrong_first=number == 1)
        if data.goal in ("win", "wall", "match"):
            # The round's account, as the play page's round dialog gives it.
            page.wait_for_selector("#lesson-board .mj-lesson-round:not([hidden]) .mj-round-result")
        no_sideways_scroll(page)
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


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_guest_is_offered_the_course_and_completes_it_by_keyboard(
    new_page: Any, size: str
) -> None:
    lang = "ja" if size == "phone" else "en"
    page = new_page(lang=lang, **SIZES[size])
    page.goto("/games/momojan?speed=instant")
    page.wait_for_selector("#learn-offer")
    page.focus("#learn-offer-go")
    page.keyboard.press("Enter")
    page.wait_for_url("**/learn/momojan")
    page.goto("/learn/momojan?speed=instant")
    page.wait_for_selector("#lesson[data-status=ready]")
    assert page.get_attribute("#lesson", "data-lesson") == LESSONS[0].id
    covers = page.text_content("#lesson-covers")
    assert PARTS["about"].title[lang] in covers
    complete_course(page, press_move, lang)
    page.reload()
    page.wait_for_selector("#lesson[data-status=ready]")
    chips = page.locator("button.learn-chip[data-done=true]")
    assert chips.count() == len(LESSONS), "the done marks are kept for this guest"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_guest_completes_every_lesson_by_touch(new_page: Any, size: str) -> None:
    lang = "en" if size == "phone" else "ja"
    page = new_page(lang=lang, has_touch=True, is_mobile=size == "phone", **SIZES[size])
    page.goto("/learn/momojan?speed=instant")
    page.wait_for_selector("#lesson[data-status=ready]")
    complete_course(page, tap_move, lang)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_worked_example_plays_pauses_and_steps_back_on_the_table(
    new_page: Any, lang: str
) -> None:
    words = JA if lang == "ja" else EN
    page = new_page(lang=lang)
    page.goto("/learn/momojan?speed=instant&lesson=set-bonus")
    page.wait_for_selector("#lesson-demo:not([hidden])[data-frame='0']")
    data = LESSON_BY_ID["set-bonus"]
    assert data.demo is not None and data.demo.example == "ex-score-3"
    assert page.text_content("#demo-title") == data.demo.title[lang]
    assert page.text_content("#demo-note") == data.demo.notes[0][lang]
    assert page.locator("#demo-stage .mj-meld").count() >= 6
    frames = int(page.text_content("#demo-count").split("/")[1])
    page.click("#demo-play")
    assert page.text_content("#demo-play") == words["learn.demo.pause"]
    page.wait_for_selector(f"#lesson-demo[data-frame='{frames - 1}']")
    page.wait_for_function(
        "(play) => document.querySelector('#demo-play').textContent === play",
        arg=words["learn.demo.play"],
    )
    # The last frame: the round's account (the winning hand, the yaku, the 38 points).
    account = page.locator("#demo-stage .mj-demo-round:not([hidden])")
    assert "38" in account.locator(".mj-breakdown .is-total").text_content()
    assert page.locator("#demo-stage .mj-demo-table").is_hidden()
    assert "38" in page.text_content("#demo-note")
    page.click("#demo-back")  # the dealer's lemon 8 on the table
    assert page.get_attribute("#lesson-demo", "data-frame") == str(frames - 2)
    page.wait_for_selector("#demo-stage .mj-demo-table:not([hidden]) .mj-discard.is-last")
    assert page.text_content("#demo-note") == data.demo.notes[frames - 2][lang]
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
