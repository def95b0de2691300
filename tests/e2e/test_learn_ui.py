"""Lessons and hints through the real UI in headless Chromium: a lesson solved on the board
after a wrong try (the engine's feedback shown, the done mark kept across a reload), the chain
lesson move by move on a phone, and the hint button in a game against the computer."""

from __future__ import annotations

from typing import Any

from asobiba.games.mancala.lessons import LESSON_BY_ID, LESSONS
from asobiba.server.http.pages import strings
from tests.e2e.test_mancala_ui import start

JA = strings("ja")
EN = strings("en")


def press(page: Any, pit: int) -> None:
    """Press the learner's pit ``pit`` (numbered from 1, as the lessons write it)."""
    page.click(f"#lesson-board button[data-pit='{pit - 1}'][data-legal]")


def test_a_lesson_is_solved_on_the_board_and_stays_done(new_page: Any) -> None:
    page = new_page(lang="en")
    page.goto("/learn/mancala?speed=instant&lesson=capture")
    page.wait_for_selector("#lesson[data-lesson=capture][data-status=ready]")
    lesson = LESSON_BY_ID["capture"]
    assert page.text_content("#lesson-title") == lesson.say("title")["en"]
    press(page, lesson.wrong)
    page.wait_for_selector("#lesson[data-status=wrong]")
    assert page.text_content("#lesson-verdict") == EN["learn.wrong"]
    assert lesson.say("hint")["en"] in page.text_content("#lesson-said")
    page.click("#lesson-retry")
    press(page, lesson.answer[0])
    page.wait_for_selector("#lesson[data-status=right]")
    assert page.text_content("#lesson-said") == lesson.say("right")["en"]
    assert page.get_attribute("button.learn-chip[data-lesson=capture]", "data-done") == "true"
    page.click("#lesson-next")
    page.wait_for_selector("#lesson[data-status=ready]:not([data-lesson=capture])")
    page.reload()
    page.wait_for_selector("#lesson[data-status=ready]")
    assert page.get_attribute("button.learn-chip[data-lesson=capture]", "data-done") == "true"
    assert page.text_content("#learn-progress") == EN["learn.progress"].format(
        done=1, total=len(LESSONS)
    )


def test_the_chain_lesson_goes_move_by_move_on_a_phone_in_japanese(new_page: Any) -> None:
    page = new_page(lang="ja", width=360, height=780)
    page.goto("/learn/mancala?speed=instant&lesson=chain")
    page.wait_for_selector("#lesson[data-lesson=chain][data-status=ready]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    line = LESSON_BY_ID["chain"].answer
    for pit in line[:-1]:
        press(page, pit)
        page.wait_for_selector("#lesson[data-status=continue]")
        assert page.text_content("#lesson-verdict") == JA["learn.more"]
        page.wait_for_selector("#lesson-board button[data-legal]")
    press(page, line[-1])
    page.wait_for_selector("#lesson[data-status=right]")
    assert page.text_content("#lesson-verdict") == JA["learn.right"]


def test_the_hint_button_rings_the_best_pit_in_a_game_against_the_computer(new_page: Any) -> None:
    page = new_page(lang="en")
    start(page)
    page.wait_for_selector("#hint-button:not([disabled])")
    page.click("#hint-button")
    page.wait_for_selector("#board button.mb-hit--pit[data-hinted]")
    pit = int(page.get_attribute("#board button.mb-hit--pit[data-hinted]", "data-pit"))
    said = page.text_content("#hint-said")
    assert said.startswith(EN["assist.said"].split("{n}")[0] + str(pit + 1))
    assert EN["assist.apart"] in said
    # Playing on clears the ring: it belongs to the position it was asked in.
    page.click(f"#board button.mb-hit--pit[data-pit='{pit}']")
    page.wait_for_selector("#board button.mb-hit--pit[data-hinted]", state="detached")
