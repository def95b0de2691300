"""The Mokochaka course and call trainer through the real UI in headless Chromium.

- A new guest is offered the course on the game's settings page, follows it and completes every
  lesson by keyboard (piles 1-3, animals 1-4 and Enter, specials 7-9, W to let a call go by, a
  CPU's number to give it a card), one lesson after a wrong try; on a phone and a desktop.
- Another new guest completes every lesson by touch (a `has_touch` context, every move a tap on
  the table's piles, seats and pad), on a phone and a desktop.
- A worked example plays, pauses and steps back on the lesson's table, in Japanese and English.
- The call trainer scores a whole session answered by keyboard (one call wrong on purpose).

The lessons' answers come from lessons.toml (the engine tests check them); the page only shows
what the server's engine answers. The pages run with ``?speed=instant``.
"""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.games.mokochaka import judge, parse_card
from asobiba.games.mokochaka.cards import SPECIALS
from asobiba.games.mokochaka.data import TRAINER
from asobiba.games.mokochaka.lessons import LESSON_BY_ID, LESSONS
from asobiba.games.mokochaka.trainer import KINDS
from asobiba.server.http.pages import strings

JA = strings("ja")
EN = strings("en")
KEYS = {"moko": "1", "paka": "2", "pome": "3", "gabu": "4"}
GRAB_KEYS = {"mokochaka": "7", "chakamoko": "8", "chakamokochaka": "9"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def syllables(word: str) -> list[str]:
    return [word[i : i + 4] for i in range(0, len(word), 4)]


def press_move(page: Any, move: dict[str, Any]) -> None:
    """Make a lesson's move with the keys the page lists."""
    ((kind, value),) = move.items()
    if kind == "flip":
        page.keyboard.press(str(value + 1))
    elif kind == "take":
        for pile in value:
            page.keyboard.press(str(pile + 1))
    elif kind == "give":
        page.keyboard.press(str(value + 1))  # CPU n sits at seat n - 1
    elif kind == "wait":
        page.keyboard.press("w")
    elif kind == "grab":
        page.keyboard.press(GRAB_KEYS[value])
    else:
        for animal in syllables(value):
            page.keyboard.press(KEYS[animal])
        page.keyboard.press("Enter")


def tap_move(page: Any, move: dict[str, Any]) -> None:
    """Make a lesson's move by tapping the table and its prompts."""
    board = page.locator("#lesson-board")
    ((kind, value),) = move.items()
    if kind == "flip":
        board.locator(f"button.mk-pile[data-pile='{value}']").tap()
    elif kind == "take":
        for pile in value:
            board.locator(f"button.mk-pile[data-pile='{pile}']").tap()
    elif kind == "give":
        board.locator(f"button[data-give='{value}']").tap()
    elif kind == "wait":
        board.locator("button[data-wait]").tap()
    elif kind == "grab":
        board.locator(f"button[data-grab='{value}']").tap()
    else:
        for animal in syllables(value):
            board.locator(f"button[data-animal='{animal}']").tap()
        board.locator("button.mk-send").tap()


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def play_lesson(page: Any, lesson_id: str, move: Any, *, wrong_first: bool = False) -> None:
    """Solve the lesson on show with ``move`` (press or tap), after a wrong try if asked."""
    page.wait_for_selector(f"#lesson[data-lesson='{lesson_id}'][data-status=ready]")
    data = LESSON_BY_ID[lesson_id]
    if wrong_first:
        for step in data.wrong[:-1]:
            move(page, step)
            page.wait_for_selector("#lesson[data-status=continue]")
        move(page, data.wrong[-1])
        page.wait_for_selector("#lesson[data-status=wrong]")
        said = page.text_content("#lesson-said")
        lang = "ja" if page.evaluate("document.documentElement.lang") == "ja" else "en"
        assert said.endswith(data.say("hint")[lang])
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
    assert (
        page.get_attribute(f"button.learn-chip[data-lesson='{lesson_id}']", "data-done") == "true"
    )


def complete_course(page: Any, move: Any, lang: str) -> None:
    words = JA if lang == "ja" else EN
    for number, data in enumerate(LESSONS):
        play_lesson(page, data.id, move, wrong_first=number == 1)
        if number < len(LESSONS) - 1:
            following = page.locator("#lesson-next")
            if move is press_move:
                page.wait_for_function("() => document.activeElement?.id === 'lesson-next'")
                page.keyboard.press("Enter")
            else:
                following.tap()
    page.wait_for_selector("#lesson-play:not([hidden])")
    assert words["learn.all_done"] in page.text_content("#lesson-said")
    assert page.text_content("#learn-progress") == words["learn.progress"].format(
        done=len(LESSONS), total=len(LESSONS)
    )
    no_sideways_scroll(page)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_guest_is_offered_the_course_and_completes_it_by_keyboard(
    new_page: Any, size: str
) -> None:
    lang = "en" if size == "desktop" else "ja"
    page = new_page(lang=lang, **SIZES[size])
    page.goto("/games/mokochaka?speed=instant")
    page.wait_for_selector("#learn-offer")
    page.focus("#learn-offer-go")
    page.keyboard.press("Enter")
    page.wait_for_url("**/learn/mokochaka")
    page.goto("/learn/mokochaka?speed=instant")
    page.wait_for_selector("#lesson[data-status=ready]")
    assert page.get_attribute("#lesson", "data-lesson") == LESSONS[0].id
    complete_course(page, press_move, lang)
    page.reload()
    page.wait_for_selector("#lesson[data-status=ready]")
    chips = page.locator("button.learn-chip[data-done=true]")
    assert chips.count() == len(LESSONS), "the done marks are kept for this guest"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_guest_completes_every_lesson_by_touch(new_page: Any, size: str) -> None:
    lang = "ja" if size == "desktop" else "en"
    page = new_page(lang=lang, has_touch=True, is_mobile=size == "phone", **SIZES[size])
    page.goto("/learn/mokochaka?speed=instant")
    page.wait_for_selector("#lesson[data-status=ready]")
    complete_course(page, tap_move, lang)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_worked_example_plays_pauses_and_steps_back_on_the_table(
    new_page: Any, lang: str
) -> None:
    words = JA if lang == "ja" else EN
    page = new_page(lang=lang)
    page.goto("/learn/mokochaka?speed=instant&lesson=mokochaka")
    page.wait_for_selector("#lesson-demo:not([hidden])[data-frame='0']")
    lesson = next(lesson for lesson in LESSONS if lesson.id == "mokochaka")
    assert lesson.demo is not None
    assert page.text_content("#demo-title") == lesson.demo.title[lang]
    covers = page.text_content("#lesson-covers")
    assert "ex-mokochaka" not in covers and lesson.covers and covers.strip()
    frames = int(page.text_content("#demo-count").split("/")[1])
    page.click("#demo-play")
    assert page.text_content("#demo-play") == words["learn.demo.pause"]
    page.wait_for_selector(f"#lesson-demo[data-frame='{frames - 1}']")
    page.wait_for_function(
        "(play) => document.querySelector('#demo-play').textContent === play",
        arg=words["learn.demo.play"],
    )
    # The last frame: the token won and the piles taken, in words and on the table.
    lines = page.text_content("#demo-lines")
    assert lines and page.locator("#demo-stage .mk-pile").count() == 3
    page.click("#demo-back")  # to the moment the race is judged
    assert page.get_attribute("#lesson-demo", "data-frame") == str(frames - 2)
    page.wait_for_selector("#demo-stage .mk-judge:not([hidden])")
    note = page.text_content("#demo-note")
    assert ("モコ4匹" if lang == "ja" else "4 Moko") in note  # the count behind the call
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


def answer_card(page: Any, wrong: bool) -> None:
    cards = page.evaluate(
        "[...document.querySelectorAll('#trainer-stage .mk-pile')].map((p) => p.dataset.card)"
    )
    right = sorted(judge([parse_card(card) for card in cards if card]))
    word = right[0]
    if wrong:
        word = next(w for w in ("moko", "paka", "pome") if w not in right)
    if word in SPECIALS:
        page.keyboard.press(GRAB_KEYS[word])
        return
    for animal in syllables(word):
        page.keyboard.press(KEYS[animal])
    page.keyboard.press("Enter")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_call_trainer_scores_a_session(new_page: Any, size: str) -> None:
    lang = "en" if size == "desktop" else "ja"
    words = EN if lang == "en" else JA
    page = new_page(lang=lang, **SIZES[size])
    page.goto("/learn/mokochaka/trainer?speed=instant")
    page.wait_for_selector("#trainer[data-state=ready]")
    page.click("#trainer-start")
    for n in range(1, TRAINER.flips + 1):
        page.wait_for_selector(f"#trainer[data-state=card][data-card='{n}']")
        answer_card(page, wrong=n == 2)
        page.wait_for_selector(
            f"#trainer[data-card='{n}']:is([data-state=waiting], [data-state=done])"
        )
        assert page.get_attribute("#trainer-verdict", "data-right") == str(n != 2).lower()
    page.wait_for_selector("#trainer[data-state=done]")
    rows = page.locator("#trainer-kinds tbody tr")
    assert rows.count() == len(KINDS)
    assert page.locator("#trainer-levels tbody tr").count() == 5  # you and the four levels
    level = page.get_attribute("#trainer", "data-level")
    match = page.text_content("#trainer-match")
    if level:
        assert words["trainer.match"].split("{level}")[0] in match
    else:
        assert match.startswith(words["trainer.no_match"].split("{accuracy}")[0])
    best = page.locator("#trainer-best-table tbody tr[data-kind=all] td").first
    assert best.text_content() == "1"  # one session kept for this guest
    no_sideways_scroll(page)
    page.reload()
    page.wait_for_selector("#trainer[data-state=ready]")
    assert page.locator("#trainer-best-table tbody tr").count() == len(KINDS) + 1
