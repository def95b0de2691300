"""The lessons: every expected line is accepted by the engine, every other move is refused with
feedback in both languages, and bad input is refused clearly."""

from __future__ import annotations

from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import teaches
from asobiba.games import get_game
from asobiba.games.mancala import analysis
from asobiba.games.mancala.lessons import LESSON_BY_ID, LESSONS, SECONDS, start

GAME: Any = get_game("mancala")


def test_mancala_teaches() -> None:
    assert teaches(GAME)


def test_there_are_eight_to_ten_lessons_each_with_both_languages() -> None:
    listed = GAME.lessons()
    assert 8 <= len(listed) <= 10
    assert len({lesson.id for lesson in listed}) == len(listed)
    for lesson in listed:
        for text in (lesson.title, lesson.text, lesson.task):
            assert text["ja"] and text["en"], lesson.id
        assert lesson.view["to_move"] == lesson.seat == 0
        assert sum(map(sum, lesson.view["pits"])) + sum(lesson.view["stores"]) == 48


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
def test_the_expected_line_is_value_optimal_and_accepted(lesson_id: str) -> None:
    data = LESSON_BY_ID[lesson_id]
    state = start(GAME, data)
    moves: list[dict[str, int]] = []
    for step, pit in enumerate(data.answer, 1):
        # The engine's own view, independently of the lesson's judge: read to the end, and
        # the expected move is worth as much as the best.
        values = analysis.analyse(state.rules, list(state.board), 0, SECONDS)
        assert all(move.exact for move in values.moves), f"{lesson_id}: step {step} not exact"
        action = {"pit": pit - 1}
        assert values.value_of(action).value == values.best.value, f"{lesson_id}: step {step}"
        moves.append(action)
        verdict = GAME.check_lesson(lesson_id, moves)
        last = step == len(data.answer)
        assert verdict.status == ("right" if last else "continue"), (lesson_id, step)
        assert verdict.feedback["ja"] and verdict.feedback["en"]
        assert (verdict.legal == []) == last
        state = GAME.apply(state, 0, action)
        assert verdict.view == GAME.observe(state, 0)


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in LESSONS])
def test_every_other_first_move_is_refused_with_what_it_did_and_a_hint(lesson_id: str) -> None:
    data = LESSON_BY_ID[lesson_id]
    state = start(GAME, data)
    expected = {"pit": data.answer[0] - 1}
    others = [action for action in GAME.legal_actions(state, 0) if action != expected]
    assert {"pit": data.wrong - 1} in others
    for action in others:
        verdict = GAME.check_lesson(lesson_id, [action])
        assert verdict.status == "wrong", (lesson_id, action)
        assert verdict.legal == []
        assert verdict.view == GAME.observe(GAME.apply(state, 0, action), 0)
        for lang in ("ja", "en"):
            assert data.say("hint")[lang] in verdict.feedback[lang]


def test_a_chain_is_judged_move_by_move() -> None:
    # Right first move, then a pit that breaks the chain: refused at the second move.
    verdict = GAME.check_lesson("chain", [{"pit": 5}, {"pit": 3}])
    assert verdict.status == "wrong"
    assert "another turn" in verdict.feedback["en"]


@pytest.mark.parametrize(
    ("moves", "says"),
    [
        ([], "at least one move"),
        ([{"pit": 6}], "pit must be an integer"),
        ([{"pit": 0}], "empty"),
        ([{"pit": "5"}], "pit must be an integer"),
        ([{"pit": 5, "x": 1}], "an action is"),
        (["5"], "an action is"),
        ([{"pit": 1}, {"pit": 3}], "your turn is over"),
    ],
)
def test_bad_moves_raise_a_clear_error(moves: list[Any], says: str) -> None:
    with pytest.raises(IllegalAction, match=says):
        GAME.check_lesson("capture", moves)


def test_an_unknown_lesson_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        GAME.check_lesson("no-such-lesson", [{"pit": 0}])
