"""The call trainer's engine side: sessions drawn from a seed with every kind of call equally
often, one card turned at a time; each answer judged as the rules say; the session scored per
kind and against the bots' designed figures (data.toml) on the same cards."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import DrillAnswer, DrillPrompt, drills
from asobiba.games import get_game
from asobiba.games.mokochaka import judge, parse_card
from asobiba.games.mokochaka.cards import CALLS, SPECIALS
from asobiba.games.mokochaka.data import LEVELS, NUMBERS, TRAINER
from asobiba.games.mokochaka.trainer import KINDS, call_kind, level_seconds
from tests.games.mokochaka.test_mokochaka_rule_pages import PAGES

GAME: Any = get_game("mokochaka")


def top(prompt: DrillPrompt) -> list[Any]:
    return [parse_card(pile["top"]) for pile in prompt.view["piles"] if pile["top"]]


def right_answer(prompt: DrillPrompt) -> dict[str, str]:
    word = min(judge(top(prompt)))
    return {"grab" if word in SPECIALS else "call": word}


def wrong_answer(prompt: DrillPrompt) -> dict[str, str]:
    right = judge(top(prompt))
    return {"call": next(word for word in CALLS if word not in right and word not in SPECIALS)}


def session(seconds: float, wrong: int = 0, seed: int = 7) -> list[DrillAnswer]:
    """A session answered right in ``seconds`` each, but its first ``wrong`` cards."""
    answers = []
    for n, prompt in enumerate(GAME.drill(seed)):
        action = wrong_answer(prompt) if n < wrong else right_answer(prompt)
        answers.append(DrillAnswer(prompt, GAME.judge_drill(prompt, action, seconds), seconds))
    return answers


def test_mokochaka_has_a_trainer() -> None:
    assert drills(GAME)
    assert GAME.drill_kinds() == KINDS


def test_a_session_is_drawn_from_its_seed() -> None:
    assert GAME.drill(12) == GAME.drill(12)
    assert GAME.drill(12) != GAME.drill(13)


@pytest.mark.parametrize("seed", range(0, 400, 7))
def test_every_kind_of_call_comes_up_equally_often_one_turned_card_at_a_time(seed: int) -> None:
    prompts = GAME.drill(seed)
    assert len(prompts) == TRAINER.flips
    kinds = Counter(call_kind(top(prompt)) for prompt in prompts)
    assert kinds == dict.fromkeys(KINDS, TRAINER.flips // len(KINDS))
    before: list[str] | None = None
    for n, prompt in enumerate(prompts, 1):
        piles = prompt.view["piles"]
        tops = [pile["top"] for pile in piles]
        assert prompt.view["flips"] == n
        assert sum(pile["size"] for pile in piles) == NUMBERS.piles + n
        flip = prompt.view["events"][-1]
        assert flip["type"] == "flip" and tops[flip["pile"]] == flip["card"]
        if before is not None:
            changed = [i for i in range(3) if tops[i] != before[i]]
            assert changed in ([], [flip["pile"]])
        before = tops
        assert TRAINER.pause_min <= prompt.pause <= TRAINER.pause_max
        assert prompt.limit == NUMBERS.call_seconds


def test_a_card_shows_the_table_and_never_its_answer() -> None:
    for prompt in GAME.drill(3):
        text = repr(prompt.view)
        assert "correct" not in prompt.view and "kind" not in text
        assert prompt.legal == [{"call": w} for w in CALLS] + [{"grab": w} for w in SPECIALS]


def test_a_right_call_is_right_and_says_the_count() -> None:
    for prompt in GAME.drill(5):
        verdict = GAME.judge_drill(prompt, right_answer(prompt), 1.0)
        assert verdict.right
        assert verdict.kind == call_kind(top(prompt))
        assert right_answer(prompt) in verdict.correct
        assert verdict.feedback["en"].startswith("Right!")
        assert verdict.feedback["ja"].startswith("正解")


def test_a_wrong_word_a_plain_special_or_a_late_call_is_wrong() -> None:
    prompts = GAME.drill(5)
    for prompt in prompts:
        assert not GAME.judge_drill(prompt, wrong_answer(prompt), 1.0).right
        assert not GAME.judge_drill(prompt, right_answer(prompt), NUMBERS.call_seconds).right
        late = GAME.judge_drill(prompt, None, None)
        assert not late.right and "3 seconds" in late.feedback["en"]
    special = next(p for p in prompts if call_kind(top(p)) in SPECIALS)
    said = {"call": right_answer(special)["grab"]}
    assert not GAME.judge_drill(special, said, 1.0).right, "a special is made while grabbing"


@pytest.mark.parametrize("action", [{"grab": "moko"}, {"call": "mokopome"}, {"say": "moko"}])
def test_an_answer_outside_the_vocabulary_is_refused(action: dict[str, str]) -> None:
    with pytest.raises(IllegalAction):
        GAME.judge_drill(GAME.drill(1)[0], action, 1.0)


def test_the_summary_scores_each_kind_and_the_whole_session() -> None:
    summary = GAME.drill_summary(session(0.8, wrong=2))
    assert summary["tries"] == TRAINER.flips
    assert summary["right"] == TRAINER.flips - 2
    assert summary["accuracy"] == round((TRAINER.flips - 2) / TRAINER.flips, 4)
    assert summary["seconds"] == 0.8
    assert [kind["kind"] for kind in summary["kinds"]] == list(KINDS)
    assert sum(kind["tries"] for kind in summary["kinds"]) == TRAINER.flips
    assert [level["id"] for level in summary["levels"]] == [level.id for level in LEVELS]


def test_the_levels_figures_come_from_the_human_model_on_the_same_cards() -> None:
    answers = session(0.8)
    summary = GAME.drill_summary(answers)
    for level, figures in zip(LEVELS, summary["levels"], strict=True):
        animals = [sum(card.number for card in top(a.prompt)) for a in answers]
        mean = sum(level.mu + level.tau + level.hick * math.log2(n + 1) for n in animals)
        assert figures["seconds"] == pytest.approx(mean / len(animals), abs=1e-3)
        assert figures["seconds"] == pytest.approx(
            sum(level_seconds(level, n) for n in animals) / len(animals), abs=1e-3
        )
        assert 0 < figures["accuracy"] < 1


@pytest.mark.parametrize(
    ("seconds", "wrong", "level"),
    [
        (0.3, 0, "expert"),  # every call right and quicker than anyone
        (1.0, 0, "strong"),  # right, but slower than the expert's 0.8-0.9 s
        (1.5, 0, "casual"),
        (2.0, 0, "beginner"),
        (2.9, 0, None),  # right but slower than the beginner
        (0.3, 7, None),  # quick, but half wrong
        (0.3, 1, "strong"),  # 13 of 14: quick, but less accurate than the expert
    ],
)
def test_the_level_matched_is_the_strongest_no_better_than_the_learner(
    seconds: float, wrong: int, level: str | None
) -> None:
    assert GAME.drill_summary(session(seconds, wrong))["level"] == level


def test_a_session_with_nothing_right_matches_no_level() -> None:
    answers = [DrillAnswer(p, GAME.judge_drill(p, None, None), None) for p in GAME.drill(2)]
    summary = GAME.drill_summary(answers)
    assert summary["right"] == 0 and summary["seconds"] is None and summary["level"] is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_rule_page_links_the_course_and_the_trainer_and_gives_its_numbers(lang: str) -> None:
    page = (PAGES / f"rules.{lang}.md").read_text(encoding="utf-8")
    assert "](/learn/mokochaka)" in page and "](/learn/mokochaka/trainer)" in page
    for number in (TRAINER.flips, len(KINDS), TRAINER.pause_min, TRAINER.pause_max):
        assert f"{number:g}" in page, number
