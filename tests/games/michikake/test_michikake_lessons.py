"""The MICHIKAKE course: every part of the rulebook has a lesson that names it, the rulebook's
worked examples are scored as the rulebook says and played out by the engine, every lesson's
right line is accepted and its wrong one refused, the clock never runs out on the learner, and
nothing a lesson shows is hidden."""

from __future__ import annotations

import doctest
import itertools
import re
from collections import Counter
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import teaches
from asobiba.games import get_game
from asobiba.games.michikake import win_breakdown
from asobiba.games.michikake import words as words_module
from asobiba.games.michikake.cards import deck
from asobiba.games.michikake.data import CLAIM_SECONDS
from asobiba.games.michikake.lessons import (
    LEARNER_AFTER,
    LESSON_BY_ID,
    LESSONS,
    PARTS,
    learner_acts,
    learner_time,
    position,
    run,
)
from tests.games import test_rule_page_copying as copying

GAME: Any = get_game("michikake")
LESSON_IDS = [lesson.id for lesson in LESSONS]
TEXTS = ("title", "text", "task", "right", "hint")
SECTIONS = {
    "about",
    "turn",
    "sets",
    "reading",
    "payment",
    "cards",
    "barred",
    "steal",
    "crest",
    "yaku",
    "scoring",
    "bonus",
    "dealer",
    "exhausted",
    "session-end",
}
"""The rulebook's sections, from its summary at the top to the end of a session."""
EXAMPLES = {"ex-kiwami", "ex-tooshi"}
"""Its two worked payments: a Pure Pair on one's own draw and the dealer's Straight on a
discard."""


def test_michikake_teaches() -> None:
    assert teaches(GAME)


def test_the_rulebook_list_names_each_section_and_worked_example_once() -> None:
    sections = {part.id for part in PARTS.values() if part.section is None}
    examples = {part.id for part in PARTS.values() if part.section is not None}
    assert sections == SECTIONS
    assert examples == EXAMPLES
    for part in PARTS.values():
        assert part.title["ja"] and part.title["en"], part.id
        if part.section is not None:
            assert part.section in sections, part.id
        if not part.applies:
            assert part.reason and part.reason["ja"] and part.reason["en"], part.id


def test_every_section_and_worked_example_of_the_rulebook_has_a_lesson_that_names_it() -> None:
    taught = {part for lesson in LESSONS for part in lesson.covers}
    missing = [part.id for part in PARTS.values() if part.applies and part.id not in taught]
    assert not missing, f"no lesson covers {missing}"
    for lesson in GAME.lessons():
        for covered in lesson.covers:
            assert covered.title == PARTS[covered.id].title


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_each_worked_example_is_scored_as_the_rulebook_says(example: str) -> None:
    worked = PARTS[example].example
    assert worked is not None
    win = win_breakdown(
        worked["cards"],
        worked["crest"],
        None,
        worked["dealer"],
        worked["self_draw"],
        worked["players"],
    )
    figures = {key: win[key] for key in ("hand_points", "total", "each", "gain")}
    assert figures == {key: worked[key] for key in figures}


def test_each_worked_example_is_played_out_move_by_move_on_the_table() -> None:
    """A demo that names an example ends with the example's win as the rulebook works it out,
    after at least a discard and the win itself, with its figures in the last note in both
    languages."""
    shown = set()
    for data, lesson in zip(LESSONS, GAME.lessons(), strict=True):
        if data.demo is None or data.demo.example is None:
            continue
        worked = PARTS[data.demo.example].example
        assert worked is not None and data.demo.example in data.covers, data.id
        assert lesson.demo is not None
        frames = lesson.demo.frames
        last = frames[-1].view
        assert last["players"] == worked["players"], data.id
        win = last["results"][-1]["win"]
        assert sorted(win["hand"]) == sorted(worked["cards"]), data.id
        assert win["dealer"] == worked["dealer"] and win["self_draw"] == worked["self_draw"]
        for key in ("hand_points", "total", "each", "gain"):
            assert win[key] == worked[key], (data.id, key)
        assert win["seat"] == lesson.demo.seat == 0, "the example is won by the viewer"
        assert frames[-1].note is not None
        for lang in ("ja", "en"):
            for figure in (worked["total"], worked["each"]):
                assert str(figure) in frames[-1].note[lang], (data.id, lang, figure)
        shown.add(data.demo.example)
    assert shown == EXAMPLES


def test_demos_play_a_deal_frame_by_frame_in_both_languages() -> None:
    for lesson in GAME.lessons():
        if lesson.demo is None:
            continue
        frames = lesson.demo.frames
        assert lesson.demo.title["ja"] and lesson.demo.title["en"]
        assert 3 <= len(frames) <= 8, lesson.id
        assert frames[0].view["phase"] == "discard" and frames[-1].view["phase"] == "break"
        plies = [frame.view["ply"] for frame in frames]
        assert plies == sorted(plies), lesson.id
        assert all(a != b for a, b in itertools.pairwise(frames)), "no frame twice"
        for frame in frames:
            assert frame.note is not None and frame.note["ja"] and frame.note["en"], lesson.id
            assert frame.view["seat"] == 0 and "hands" not in frame.view, "nothing hidden shown"


def test_every_lesson_has_its_texts_in_both_languages_and_a_position_of_the_real_deck() -> None:
    assert len(LESSON_IDS) == len(set(LESSON_IDS)) and 10 <= len(LESSON_IDS) <= 16
    for data in LESSONS:
        for key in TEXTS:
            assert data.say(key)["ja"] and data.say(key)["en"], (data.id, key)
        tables = [data.table] + ([data.demo.table] if data.demo else [])
        for table in tables:
            state = position(table)
            lying = [card for row in state.discards for card, taker in row if taker is None]
            cards = Counter(
                [*(c for hand in state.hands for c in hand), *lying, *state.pile, *state.aside]
            )
            assert cards == Counter(deck(state.players)), data.id
            assert all(len(hand) == 5 for s, hand in enumerate(state.hands) if s != state.turn)


def test_a_lesson_shows_only_what_its_seat_may_know() -> None:
    for lesson in GAME.lessons():
        assert lesson.seat == 0 and lesson.view["seat"] == 0
        assert lesson.view["hand"] is not None and "hands" not in lesson.view
        assert "bonuses" not in lesson.view and "seed" not in lesson.view
        assert lesson.legal, lesson.id
        assert lesson.legal == GAME.legal_actions(_start_state(lesson.id), 0), (
            "the learner's moves are the engine's"
        )


def _start_state(lesson_id: str) -> Any:
    data = LESSON_BY_ID[lesson_id]
    return run(GAME, position(data.table), data.table, 0)[-1]


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
    for lang in ("ja", "en"):
        assert verdict.feedback[lang].endswith(data.say("right")[lang])


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_the_wrong_line_is_refused_with_why_and_the_hint(lesson_id: str) -> None:
    data = LESSON_BY_ID[lesson_id]
    verdict = GAME.check_lesson(lesson_id, list(data.wrong))
    assert verdict.status == "wrong"
    assert verdict.legal == []
    for lang in ("ja", "en"):
        assert verdict.feedback[lang].endswith(data.say("hint")[lang])
        assert len(verdict.feedback[lang]) > len(data.say("hint")[lang])


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_the_clock_never_runs_out_on_the_learner(lesson_id: str) -> None:
    """Wherever the table waits for the learner, their move is dated inside the claim window,
    and the table never reached a window's end while the learner could still answer."""
    data = LESSON_BY_ID[lesson_id]
    state = _start_state(lesson_id)
    for action in data.answer:
        assert learner_acts(GAME, state)
        if state.window is not None:
            opened = state.window.closes_at - CLAIM_SECONDS
            assert state.now <= opened + LEARNER_AFTER < state.window.closes_at
        after = GAME.apply(state, 0, action, at=learner_time(state))
        states = run(GAME, after, data.table, 0)
        for passed in states:
            if passed.window is not None:
                assert passed.now < passed.window.closes_at, "a window ran out"
        state = states[-1]


def test_a_lesson_replays_the_same_from_its_moves() -> None:
    data = LESSON_BY_ID["first-deal"]
    assert GAME.check_lesson(data.id, list(data.answer)) == GAME.check_lesson(
        data.id, list(data.answer)
    )


def test_the_words_module_examples_hold() -> None:
    failed, tried = doctest.testmod(words_module)
    assert tried and not failed


def test_a_win_is_broken_down_in_words_by_the_engine() -> None:
    verdict = GAME.check_lesson("bonus", [{"discard": "R8"}, {"win": True}])
    en = verdict.feedback["en"]
    assert "Mixed 60 + bonus card Odd Stages 50 = 110" in en
    assert "the other 3 pay 37 each, +111" in en
    assert verdict.view["points"] == [1111, 963, 963, 963]
    ja = verdict.feedback["ja"]
    assert "混在60＋加点カード「奇数」50＝110" in ja and "37ずつ" in ja


def test_a_steal_costs_ten_and_skips_the_players_in_between() -> None:
    verdict = GAME.check_lesson("steal", [{"steal": True}, {"discard": "R9"}])
    view = verdict.view
    assert view["points"][0] == 990 and view["steals"][0] == 1
    assert view["shown"][0] == ["C5", "C5", "C5"]
    # After your discard CPU 2, the discarder, played next: CPU 3 and CPU 4 lost the turns they
    # would have had before yours, and everyone has discarded twice.
    assert verdict.feedback["en"].startswith("CPU 2 discarded")
    assert [len(row) for row in view["discards"]] == [2, 2, 2, 2]


def test_several_claims_go_to_the_nearest_win() -> None:
    mine = GAME.check_lesson("claim-order", [{"win": True}]).view["results"][-1]["win"]
    assert mine["seat"] == 0 and mine["from"] == 3
    passed = GAME.check_lesson("claim-order", [{"pass": True}]).view["results"][-1]["win"]
    assert passed["seat"] == 1, "CPU 2's win beats CPU 3's steal"


def test_a_barred_card_cannot_be_claimed_by_the_seat_that_threw_it() -> None:
    right = GAME.check_lesson("barred", [{"discard": "W3"}])
    assert right.view["discards"][0][-1] == {"card": "W3", "taken_by": None}
    wrong = GAME.check_lesson("barred", [{"discard": "W6"}])
    assert wrong.view["results"][-1]["win"]["seat"] == 1


def test_the_last_deal_ends_the_session_when_the_pile_runs_out() -> None:
    verdict = GAME.check_lesson("last-deal", [{"discard": "W9"}])
    outcome = verdict.view["outcome"]
    assert outcome["end"] == "round" and outcome["scores"] == [1080, 1010, 910]
    assert verdict.view["results"][-1]["end"] == "exhausted"


def test_stealing_where_a_win_was_offered_is_refused() -> None:
    verdict = GAME.check_lesson("triplets", [{"steal": True}])
    assert verdict.status == "wrong"
    assert "cannot win" in verdict.feedback["en"]


def test_a_discard_the_lesson_does_not_ask_for_is_refused_saying_which() -> None:
    verdict = GAME.check_lesson("runs", [{"discard": "R2"}])
    assert verdict.status == "wrong"
    assert verdict.feedback["en"].startswith("You discarded Sweep 2.")


def test_a_move_after_the_lesson_is_decided_is_refused() -> None:
    with pytest.raises(IllegalAction, match="no move 2"):
        GAME.check_lesson("triplets", [{"win": True}, {"discard": "C8"}])
    with pytest.raises(IllegalAction, match="no move 2"):
        GAME.check_lesson("triplets", [{"pass": True}, {"discard": "C8"}])


@pytest.mark.parametrize(
    "moves",
    [
        [{"discard": "C9"}],  # not in the hand
        [{"discard": "r9"}],  # not a card
        [{"win": True}],  # the draw made no two sets
        [{"steal": True}],  # no window is open
        [{"pass": True}],
        [{"discard": "R9", "win": True}],
        [{"win": 1}],
        ["R9"],
        [{"next": True}],
    ],
)
def test_a_move_that_is_not_legal_in_the_lesson_is_refused(moves: list[Any]) -> None:
    with pytest.raises(IllegalAction):
        GAME.check_lesson("first-turn", moves)


def test_an_unknown_lesson_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        GAME.check_lesson("no-such-lesson", [{"discard": "R9"}])


@pytest.mark.parametrize("lang", copying.LANGS)
def test_the_course_is_written_in_our_own_words(lang: str) -> None:
    """No run of the rule-page check's length is shared with the rulebook, in any lesson text
    or rulebook part's title."""
    rulebook = copying._rulebook("michikake")
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
