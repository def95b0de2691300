"""The Mokochaka course: every part of the rulebook has a lesson that names it, the rulebook's
worked examples are judged as the rulebook says and played out by the engine, every lesson's
right line is accepted and its wrong one refused, and nothing a lesson shows is hidden."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import teaches
from asobiba.games import get_game
from asobiba.games.mokochaka import judge
from asobiba.games.mokochaka.lessons import (
    LESSON_BY_ID,
    LESSONS,
    LONGEST,
    PARTS,
    WAIT,
    position,
)
from asobiba.games.mokochaka.state import new_deck
from tests.games import test_rule_page_copying as copying

GAME: Any = get_game("mokochaka")
LESSON_IDS = [lesson.id for lesson in LESSONS]
TEXTS = ("title", "text", "task", "right", "hint")


def test_mokochaka_teaches() -> None:
    assert teaches(GAME)


def test_the_rulebook_list_names_each_section_and_worked_example_once() -> None:
    """rulebook.toml is the list the coverage test reads: the web edition's sections, its
    rule-bearing questions and its eight call examples, each once."""
    sections = [part for part in PARTS.values() if part.section is None]
    examples = [part for part in PARTS.values() if part.section is not None]
    assert {part.id for part in sections} >= {
        "about",
        "contents",
        "names",
        "setup",
        "turn",
        "placing",
        "calling",
        "specials",
        "bonus",
        "penalties",
        "end",
        "qa",
    }
    assert len(examples) == 8
    for part in examples:
        assert part.section in {"calling", "specials"}, part.id
    for part in PARTS.values():
        assert part.title["ja"] and part.title["en"], part.id
        if not part.applies:
            assert part.reason and part.reason["ja"] and part.reason["en"], part.id


def test_every_section_and_worked_example_of_the_rulebook_has_a_lesson_that_names_it() -> None:
    taught = {part for lesson in LESSONS for part in lesson.covers}
    missing = [part.id for part in PARTS.values() if part.applies and part.id not in taught]
    assert not missing, f"no lesson covers {missing}"
    listed = GAME.lessons()
    for lesson in listed:
        for covered in lesson.covers:
            assert covered.title == PARTS[covered.id].title


@pytest.mark.parametrize("example", [p.id for p in PARTS.values() if p.section is not None])
def test_each_worked_example_is_judged_as_the_rulebook_says(example: str) -> None:
    part = PARTS[example]
    assert judge(part.cards) == part.calls


def test_each_worked_example_is_played_out_on_the_table_by_the_engine() -> None:
    """A demo that names an example shows the example's cards once its card is turned, and its
    call is judged right on the table."""
    shown = set()
    for data, lesson in zip(LESSONS, GAME.lessons(), strict=True):
        if data.demo is None or data.demo.example is None:
            continue
        example = PARTS[data.demo.example]
        assert data.demo.example in data.covers, data.id
        assert lesson.demo is not None
        tops = [
            [pile["top"] for pile in frame.view["piles"] if pile["top"]]
            for frame in lesson.demo.frames
        ]
        assert Counter(map(str, example.cards)) in [Counter(top) for top in tops], data.id
        judged = [
            event for event in lesson.demo.frames[-1].view["events"] if event["type"] == "judgement"
        ]
        assert judged and set(judged[-1]["correct"]) == set(example.calls), data.id
        shown.add(data.demo.example)
    assert shown == {p.id for p in PARTS.values() if p.section is not None}


def test_demos_play_a_whole_turn_frame_by_frame_in_both_languages() -> None:
    for lesson in GAME.lessons():
        if lesson.demo is None:
            continue
        frames = lesson.demo.frames
        assert lesson.demo.title["ja"] and lesson.demo.title["en"]
        assert 3 <= len(frames) <= 8, lesson.id
        assert frames[0].view["flips"] == 0 and frames[-1].view["flips"] == 1, lesson.id
        assert frames[-1].view["phase"] in ("flip", "over"), lesson.id
        numbers = [max([0, *(e["n"] for e in frame.view["events"])]) for frame in frames]
        assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers), lesson.id
        notes = [frame.note for frame in frames if frame.note]
        assert notes and all(note["ja"] and note["en"] for note in notes), lesson.id


def test_every_lesson_has_its_texts_in_both_languages_and_a_position_of_the_real_deck() -> None:
    assert len(LESSON_IDS) == len(set(LESSON_IDS)) >= 18
    for data in LESSONS:
        for key in TEXTS:
            assert data.say(key)["ja"] and data.say(key)["en"], (data.id, key)
        state = position(data.table)
        held = Counter(
            [*(c for hand in state.hands for c in hand), *(c for p in state.piles for c in p)]
        )
        assert not held - Counter(new_deck()), data.id


def test_a_lesson_shows_only_what_its_seat_may_know() -> None:
    for lesson in GAME.lessons():
        assert lesson.seat == 0
        assert lesson.view["seat"] == 0
        assert all(isinstance(size, int) for size in lesson.view["hands"]), lesson.id
        assert "deck" not in lesson.view and "seed" not in lesson.view
        assert lesson.legal, lesson.id


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_the_right_line_is_accepted_move_by_move(lesson_id: str) -> None:
    data = LESSON_BY_ID[lesson_id]
    for step in range(1, len(data.answer) + 1):
        verdict = GAME.check_lesson(lesson_id, list(data.answer[:step]))
        last = step == len(data.answer)
        assert verdict.status == ("right" if last else "continue"), (lesson_id, step)
        assert verdict.feedback["ja"] and verdict.feedback["en"]
        assert (verdict.legal == []) == last
        if not last:
            assert data.answer[step] in verdict.legal, (lesson_id, step)


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_the_wrong_line_is_refused_with_why_and_the_hint(lesson_id: str) -> None:
    data = LESSON_BY_ID[lesson_id]
    verdict = GAME.check_lesson(lesson_id, list(data.wrong))
    assert verdict.status == "wrong"
    assert verdict.legal == []
    for lang in ("ja", "en"):
        assert verdict.feedback[lang].endswith(data.say("hint")[lang])
        assert len(verdict.feedback[lang]) > len(data.say("hint")[lang])


def test_a_penalty_says_its_reason_and_the_right_call() -> None:
    verdict = GAME.check_lesson("calling", [{"call": "pakamoko"}])
    assert "wrong call" in verdict.feedback["en"]
    assert "“Mokopaka”" in verdict.feedback["en"]
    assert "「モコパカ」" in verdict.feedback["ja"]


def test_letting_a_special_call_go_by_is_refused() -> None:
    verdict = GAME.check_lesson("chakamoko", [dict(WAIT)])
    assert verdict.status == "wrong"
    assert "anyone may grab" in verdict.feedback["en"]
    events = [event["type"] for event in verdict.view["events"]]
    assert "token" in events, "CPU 2, who turned the card, took it"


def test_either_special_word_is_right_when_both_hold() -> None:
    for word in ("mokochaka", "chakamoko"):
        assert GAME.check_lesson("either", [{"grab": word}]).status == "right"


def test_a_wrong_grab_that_came_first_does_not_win_the_race() -> None:
    verdict = GAME.check_lesson("race", [{"grab": "chakamoko"}])
    penalties = [e for e in verdict.view["events"] if e["type"] == "penalty"]
    assert [(p["seat"], p["reason"]) for p in penalties] == [(1, "wrong_special")]


def test_the_end_lesson_counts_cards_without_gabu() -> None:
    right = GAME.check_lesson("the-end", [{"grab": "mokochaka"}, {"take": [0, 2]}])
    assert right.view["outcome"]["scores"] == [9, 0, 8]
    tie = GAME.check_lesson("the-end", [{"grab": "mokochaka"}, {"take": [1, 2]}])
    assert tie.status == "wrong", "a shared win is not the win the task asks for"
    assert tie.view["outcome"]["winners"] == [0, 2]


def test_a_lesson_replays_the_same_from_its_moves() -> None:
    data = LESSON_BY_ID["first-game"]
    first = GAME.check_lesson(data.id, list(data.answer))
    again = GAME.check_lesson(data.id, list(data.answer))
    assert first == again


def test_the_flipper_cannot_let_the_call_go_by() -> None:
    with pytest.raises(IllegalAction, match="someone else"):
        GAME.check_lesson("calling", [dict(WAIT)])


def test_a_move_after_the_lesson_is_done_is_refused() -> None:
    data = LESSON_BY_ID["calling"]
    with pytest.raises(IllegalAction, match="no move 2"):
        GAME.check_lesson("calling", [*data.answer, {"call": "moko"}])


@pytest.mark.parametrize(
    "moves",
    [
        [{"flip": 0}],  # the card is already down
        [{"call": "mokopome"}],  # not a word
        [{"grab": "moko"}],  # not a special
        [{"call": "moko", "grab": "mokochaka"}],
        ["moko"],
        [{"wait": False}],
    ],
)
def test_a_move_that_is_not_legal_in_the_lesson_is_refused(moves: list[Any]) -> None:
    with pytest.raises(IllegalAction):
        GAME.check_lesson("calling", moves)


def test_an_unknown_lesson_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        GAME.check_lesson("no-such-lesson", [{"call": "moko"}])


@pytest.mark.parametrize("lang", copying.LANGS)
def test_the_course_is_written_in_our_own_words(lang: str) -> None:
    """No run of the rule-page check's length is shared with the rulebook, in any lesson text
    or rulebook part's title."""
    rulebook = copying._rulebook("mokochaka")
    texts = [text[lang] for data in LESSONS for text in data.texts.values()]
    texts += [part.title[lang] for part in PARTS.values()]
    texts += [data.demo.title[lang] for data in LESSONS if data.demo]
    n = copying.RUN[lang]
    if lang == "ja":
        rulebook = re.sub(r"\s+", "", rulebook)
        texts = [re.sub(r"\s+", "", text) for text in texts]
    shared = {
        t[i : i + n] for t in texts for i in range(len(t) - n + 1) if t[i : i + n] in rulebook
    }
    assert not shared, sorted(shared)[:5]


def test_a_first_game_that_goes_on_and_on_is_done_within_the_servers_moves() -> None:
    """Won tokens bring cards back, so a game can last: the whole-game lesson is done after
    LONGEST moves without a mistake, within the 32 the server takes."""
    loop = [
        {"flip": 1}, {"call": "pomepaka"}, {"grab": "chakamoko"}, {"take": [2]},
        {"flip": 2}, {"grab": "mokochaka"}, {"take": [2]}, {"flip": 2}, {"grab": "chakamoko"},
        {"take": [2]}, {"flip": 2}, {"grab": "chakamoko"}, {"take": [2]}, {"flip": 2},
        {"grab": "mokochaka"}, {"take": [2]}, {"flip": 2}, {"grab": "chakamoko"}, {"take": [1]},
        {"flip": 1}, {"call": "pakamoko"}, {"wait": True}, {"flip": 1}, {"grab": "mokochaka"},
        {"take": [1]}, {"flip": 1}, {"grab": "chakamoko"}, {"take": [0]}, {"flip": 0},
        {"grab": "chakamoko"},
    ]  # fmt: skip
    assert len(loop) == LONGEST < 32
    assert GAME.check_lesson("first-game", loop[:-1]).status == "continue"
    done = GAME.check_lesson("first-game", loop)
    assert done.status == "right" and done.view["outcome"] is None
    assert "until someone's hand runs out" in done.feedback["en"]
