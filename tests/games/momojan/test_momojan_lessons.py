"""The MOMOJAN course: every part of the rulebook has a lesson that names it, the rulebook's worked
examples are played out by the engine and come to what the rulebook says, every lesson's right
line is accepted and its wrong one refused, every position holds the real deck, and nothing a
lesson shows is hidden from its seat."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import teaches
from asobiba.games import get_game
from asobiba.games.momojan import DECK
from asobiba.games.momojan.lessons import (
    LEARNER,
    LESSON_BY_ID,
    LESSONS,
    PARTS,
    Script,
    demo_states,
    start,
)
from asobiba.games.momojan.state import MomojanState
from tests.games import test_rule_page_copying as copying

GAME: Any = get_game("momojan")
LESSON_IDS = [lesson.id for lesson in LESSONS]
TEXTS = ("title", "text", "task", "right", "hint")
EXAMPLES = [part for part in PARTS.values() if part.section is not None]


def test_momojan_teaches() -> None:
    assert teaches(GAME)


def test_the_rulebook_list_names_each_section_and_worked_example_once() -> None:
    """rulebook.toml is the list the coverage test reads: the new edition's sections, its
    questions and its worked examples (the three scoring examples among them), each once."""
    sections = {part.id for part in PARTS.values() if part.section is None}
    assert sections >= {
        "about", "contents", "goal", "setup", "terms-set", "terms-peach", "terms-tenpai",
        "terms-yaku", "terms-dora", "terms-kai", "terms-call", "flow", "turn", "hand-sizes",
        "riichi-declare", "riichi-after", "win-conditions", "win-how", "furiten", "scoring",
        "set-bonus", "yaku-table", "exhausted", "exhausted-dealer", "next-round", "game-end",
    }  # fmt: skip
    assert len([part for part in sections if part.startswith("qa-")]) >= 20
    assert {part.id for part in EXAMPLES} == {
        "ex-dora-number", "ex-dora-picture", "ex-one-card", "ex-furiten", "ex-score-1",
        "ex-score-2", "ex-score-3", "ex-wall", "ex-seven-cards",
    }  # fmt: skip
    for part in EXAMPLES:
        assert part.section in sections, part.id
    for part in PARTS.values():
        assert part.title["ja"] and part.title["en"], part.id
        if not part.applies:
            assert part.reason and part.reason["ja"] and part.reason["en"], part.id


def test_every_section_and_worked_example_of_the_rulebook_has_a_lesson_that_names_it() -> None:
    taught = {part for lesson in LESSONS for part in lesson.covers}
    missing = [part.id for part in PARTS.values() if part.applies and part.id not in taught]
    assert not missing, f"no lesson covers {missing}"
    assert not [part for part in taught if not PARTS[part].applies], "a part that does not apply"
    for lesson in GAME.lessons():
        for covered in lesson.covers:
            assert covered.title == PARTS[covered.id].title


def _demo_of(example: str) -> tuple[str, list[MomojanState]]:
    (data,) = [data for data in LESSONS if data.demo and data.demo.example == example]
    assert example in data.covers, data.id
    assert data.demo is not None
    return data.id, demo_states(GAME, data.demo)


@pytest.mark.parametrize("example", [part.id for part in EXAMPLES if part.played])
def test_each_worked_example_is_played_out_and_ends_as_the_rulebook_says(example: str) -> None:
    expect = PARTS[example].expect
    _, states = _demo_of(example)
    result = states[-1].results[-1]
    assert len(states[-2].results) < len(states[-1].results), "the last move ends the round"
    if "total" in expect:
        assert result.winner == LEARNER and result.end == expect["how"]
        assert result.score is not None
        assert [name for name, _ in result.score.yaku] == expect["yaku"]
        assert result.score.dora == expect["dora"]
        assert result.score.bonus is not None and result.score.bonus[0] == expect["bonus"]
        assert result.score.total == expect["total"]
    elif "paid" in expect:
        assert result.end == "exhausted" and result.winner == LEARNER
        assert list(result.open_points or ()) == expect["open_points"]
        assert result.paid == expect["paid"]
    else:
        assert result.winner == LEARNER


def test_the_scoring_examples_are_all_played() -> None:
    played = {part.id for part in EXAMPLES if part.played}
    assert {"ex-score-1", "ex-score-2", "ex-score-3", "ex-furiten", "ex-wall"} <= played


def test_the_furiten_example_refuses_ron_on_the_lemon_and_allows_it_on_the_peach() -> None:
    """The rulebook's furiten example: lemon 2 in the river, no ロン on the dealer's lemon 5;
    the peach 5 the dealer throws later is won on."""
    _, states = _demo_of("ex-furiten")
    on_lemon = [s for s in states if s.turn == LEARNER and s.offer == "L5"]
    assert on_lemon and {"type": "ron"} not in GAME.legal_actions(on_lemon[0], LEARNER)
    assert any(d.card == "L2" for d in on_lemon[0].rivers[LEARNER])
    assert states[-1].results[-1].hands[LEARNER] is not None
    assert "M5" in (states[-1].results[-1].hands[LEARNER] or ())


def test_demos_play_frame_by_frame_in_both_languages() -> None:
    for lesson in GAME.lessons():
        if lesson.demo is None:
            continue
        frames = lesson.demo.frames
        assert lesson.demo.title["ja"] and lesson.demo.title["en"]
        assert 3 <= len(frames) <= 9, lesson.id
        assert lesson.demo.seat == LEARNER
        assert len(frames[-1].view["results"]) == len(frames[0].view["results"]) + 1, lesson.id
        notes = [frame.note for frame in frames if frame.note]
        assert frames[0].note and frames[-1].note, lesson.id
        assert all(note["ja"] and note["en"] for note in notes), lesson.id
        for frame in frames:
            assert "hands" not in frame.view and frame.view["seat"] == LEARNER


def _cards(state: MomojanState) -> Counter[str]:
    held = [c for hand in state.hands for c in hand] + [c for pile in state.piles for c in pile]
    held += [c for seat in state.melds for meld in seat for c in meld.cards]
    held += [d.card for river in state.rivers for d in river if not d.called]
    return Counter(held + list(state.dead))


def test_every_lesson_has_its_texts_in_both_languages_and_a_position_of_the_real_deck() -> None:
    assert 10 <= len(LESSON_IDS) == len(set(LESSON_IDS)) <= 16
    for data in LESSONS:
        for key in TEXTS:
            assert data.say(key)["ja"] and data.say(key)["en"], (data.id, key)
        tables = [data.table] + ([data.demo.table] if data.demo else [])
        for table in tables:
            assert _cards(table.state) == Counter(DECK), data.id
            assert sum(table.state.points) + table.state.middle == 80, data.id
            hand = len(table.state.hands[LEARNER])
            assert hand % 3 == (1 if table.state.phase == "start" else 2), data.id


def test_a_lesson_shows_only_what_its_seat_may_know() -> None:
    for data, lesson in zip(LESSONS, GAME.lessons(), strict=True):
        state = start(GAME, data, Script(list(data.table.cpu)))
        assert lesson.seat == LEARNER and lesson.view == GAME.observe(state, LEARNER)
        assert "hands" not in lesson.view and "seed" not in lesson.view
        assert lesson.view["hand"] == list(state.hands[LEARNER])
        assert lesson.legal == GAME.legal_actions(state, LEARNER) and lesson.legal, lesson.id


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_the_right_line_is_accepted_move_by_move(lesson_id: str) -> None:
    """Move by move, with the computer player's script followed exactly as written."""
    from asobiba.games.momojan.lessons import check

    data = LESSON_BY_ID[lesson_id]
    for step in range(1, len(data.answer) + 1):
        verdict = check(GAME, lesson_id, list(data.answer[:step]), strict=True)
        last = step == len(data.answer)
        assert verdict.status == ("right" if last else "continue"), (lesson_id, step, verdict)
        assert verdict.feedback["ja"] and verdict.feedback["en"]
        assert (verdict.legal == []) == last
        if not last:
            assert data.answer[step] in verdict.legal, (lesson_id, step)
    assert GAME.check_lesson(lesson_id, list(data.answer)).status == "right"


@pytest.mark.parametrize("lesson_id", LESSON_IDS)
def test_the_wrong_line_is_refused_with_why_and_the_hint(lesson_id: str) -> None:
    data = LESSON_BY_ID[lesson_id]
    for step in range(1, len(data.wrong)):
        assert GAME.check_lesson(lesson_id, list(data.wrong[:step])).status == "continue"
    verdict = GAME.check_lesson(lesson_id, list(data.wrong))
    assert verdict.status == "wrong"
    assert verdict.legal == []
    for lang in ("ja", "en"):
        assert verdict.feedback[lang].endswith(data.say("hint")[lang])
        assert len(verdict.feedback[lang]) > len(data.say("hint")[lang])


def test_every_draw_of_the_lines_is_from_the_tallest_pile() -> None:
    """The keyboard's D draws from the tallest pile (the first of the tallest): the lines the
    browser tests play by keyboard draw where D does."""
    for data in LESSONS:
        for line in (data.answer, data.wrong):
            for step, move in enumerate(line):
                if move["type"] != "draw":
                    continue
                view = (
                    GAME.lessons()[LESSON_IDS.index(data.id)].view
                    if step == 0
                    else GAME.check_lesson(data.id, list(line[:step])).view
                )
                assert view["piles"].index(max(view["piles"])) == move["pile"], data.id


def test_a_discard_that_deals_in_is_refused_with_the_opponents_win() -> None:
    verdict = GAME.check_lesson("safe", [{"type": "discard", "card": "S6"}])
    result = verdict.view["results"][-1]
    assert (result["winner"], result["end"]) == (1, "ron")
    assert "CPU 2" in verdict.feedback["en"] and "Ron" in verdict.feedback["en"]
    safe = GAME.check_lesson("safe", [{"type": "discard", "card": "sun"}])
    assert safe.status == "right" and safe.view["results"] == []


def test_a_card_not_known_to_be_safe_is_refused_even_when_it_does_not_deal_in() -> None:
    verdict = GAME.check_lesson("safe", [{"type": "discard", "card": "L7"}])
    assert verdict.status == "wrong" and verdict.view["results"] == []


def test_passing_up_a_win_is_refused_at_once() -> None:
    verdict = GAME.check_lesson("ron", [{"type": "chi", "cards": ["S5", "S6"]}])
    assert verdict.status == "wrong"
    assert verdict.feedback["en"].startswith("You could have won here with Ron.")


def test_a_discard_before_the_kai_is_refused() -> None:
    moves = [{"type": "draw", "pile": 1}, {"type": "discard", "card": "sun"}]
    assert GAME.check_lesson("sets", moves).status == "wrong"


def test_the_riichi_lesson_wants_the_sideways_discard() -> None:
    right = GAME.check_lesson("riichi", [{"type": "discard", "card": "sun", "riichi": True}])
    assert right.view["riichi"] == [True, False]
    assert right.view["rivers"][LEARNER][-1] == {"card": "sun", "riichi": True, "called": False}


def test_the_wall_lesson_pays_the_learner_half_the_difference_and_the_middle() -> None:
    data = LESSON_BY_ID["wall"]
    result = GAME.check_lesson("wall", list(data.answer)).view["results"][-1]
    assert result["end"] == "exhausted" and result["tenpai"] == [True, True]
    assert result["open_points"] == [5, 3] and result["paid"] == 1 and result["middle"] == 1
    passed = GAME.check_lesson("wall", [{"type": "pass"}]).view["results"][-1]
    assert passed["tenpai"] == [False, True] and passed["winner"] == 1 and passed["paid"] == 2


def test_the_last_round_ends_the_game_won_by_the_learner_thanks_to_the_middle() -> None:
    data = LESSON_BY_ID["match"]
    verdict = GAME.check_lesson("match", list(data.answer))
    outcome = verdict.view["outcome"]
    assert outcome["winners"] == [LEARNER] and outcome["end"] == "dealerships"
    assert outcome["scores"] == [36 + 4 + 3, 41 - 4]
    assert "kibidango" in [name for name, _ in verdict.view["results"][-1]["score"]["yaku"]]


def test_a_win_with_too_few_sets_is_refused_in_the_set_bonus_lesson() -> None:
    """The lesson asks for 鬼ヶ島: a win at four sets is refused (none is offered before the
    second draw of three, so the lesson's own line is the way)."""
    data = LESSON_BY_ID["set-bonus"]
    assert data.params["sets"] == 5
    first = GAME.check_lesson("set-bonus", [{"type": "draw3"}])
    assert {"type": "tsumo"} not in first.legal


def test_a_lesson_replays_the_same_from_its_moves() -> None:
    data = LESSON_BY_ID["set-bonus"]
    assert GAME.check_lesson(data.id, list(data.answer)) == GAME.check_lesson(
        data.id, list(data.answer)
    )


def test_a_move_after_the_lesson_is_done_is_refused() -> None:
    data = LESSON_BY_ID["chi"]
    with pytest.raises(IllegalAction, match="no move 2"):
        GAME.check_lesson("chi", [*data.answer, {"type": "discard", "card": "moon"}])


@pytest.mark.parametrize(
    "moves",
    [
        [{"type": "discard", "card": "L2"}],  # a draw comes first
        [{"type": "kai", "cards": ["L4", "M5", "L6"]}],  # no 開 before the draw
        [{"type": "draw", "pile": 3}],
        [{"type": "draw", "pile": True}],
        [{"type": "pon", "cards": ["L2", "O2"]}],  # nothing to call
        [{"type": "kai", "cards": ["zz", "L1", "L2"]}],
        [{"type": "draw", "pile": 1, "seat": 1}],
        ["draw"],
        [],
    ],
)
def test_a_move_that_is_not_legal_in_the_lesson_is_refused(moves: list[Any]) -> None:
    with pytest.raises(IllegalAction):
        GAME.check_lesson("sets", moves)


def test_an_unknown_lesson_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        GAME.check_lesson("no-such-lesson", [{"type": "draw", "pile": 0}])


@pytest.mark.parametrize("lang", copying.LANGS)
def test_the_course_is_written_in_our_own_words(lang: str) -> None:
    """No run of the rule-page check's length is shared with the rulebook, in any lesson text,
    demo title or note, or rulebook part's title."""
    rulebook = copying._rulebook("momojan")
    texts = [text[lang] for data in LESSONS for text in data.texts.values()]
    texts += [part.title[lang] for part in PARTS.values()]
    texts += [part.reason[lang] for part in PARTS.values() if part.reason]
    for data in LESSONS:
        if data.demo:
            texts += [data.demo.title[lang], *(note[lang] for note in data.demo.notes.values())]
    n = copying.RUN[lang]
    if lang == "ja":
        rulebook = re.sub(r"\s+", "", rulebook)
        texts = [re.sub(r"\s+", "", text) for text in texts]
    shared = {
        t[i : i + n] for t in texts for i in range(len(t) - n + 1) if t[i : i + n] in rulebook
    }
    assert not shared, sorted(shared)[:5]
