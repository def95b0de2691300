"""The review's classes of a move (``Mancala.grades``, data.toml) by the stones it lost against
the best move, and the rule pages' tables that state them."""

from __future__ import annotations

from pathlib import Path

import pytest

from asobiba.core.game import GRADE_KEYS, Grade, grade, grades_of, reviews
from asobiba.games import get_game
from asobiba.games.mancala.data import GRADES

GAME = get_game("mancala")
RULES = Path(__file__).resolve().parents[3] / "asobiba" / "games" / "mancala"


@pytest.mark.parametrize(
    ("variant", "loss", "expected"),
    [
        ("kalah", 0, "best"),
        ("kalah", 0.5, "good"),
        ("kalah", 1, "good"),
        ("kalah", 1.5, "inaccuracy"),
        ("kalah", 3, "inaccuracy"),
        ("kalah", 4, "mistake"),
        ("kalah", 6, "mistake"),
        ("kalah", 7, "blunder"),
        ("kalah", 40, "blunder"),
        ("basic", 0, "best"),
        ("basic", 0.5, "good"),
        ("basic", 1, "inaccuracy"),
        ("basic", 2, "mistake"),
        ("basic", 3, "blunder"),
    ],
)
def test_a_move_is_classed_by_the_stones_it_lost(variant: str, loss: float, expected: str) -> None:
    assert grade(grades_of(GAME, {"variant": variant}), loss) == expected


def test_the_classes_are_in_order_and_the_last_takes_any_loss() -> None:
    assert reviews(GAME)
    for variant in ("kalah", "basic"):
        grades = grades_of(GAME, {"variant": variant})
        assert tuple(g.key for g in grades) == GRADE_KEYS
        bounds = [g.most for g in grades[:-1] if g.most is not None]
        assert len(bounds) == len(grades) - 1, "only the last class takes any loss"
        assert bounds[0] == 0 and bounds == sorted(bounds) and grades[-1].most is None
    with pytest.raises(ValueError, match="any loss"):
        grade((Grade("best", 0.0),), 2.0)


def test_the_rule_pages_state_the_thresholds_of_the_data_file() -> None:
    kalah, basic = GRADES["kalah"], GRADES["basic"]
    en = (RULES / "rules.en.md").read_text(encoding="utf-8")
    ja = (RULES / "rules.ja.md").read_text(encoding="utf-8")
    for name, ja_name, key in (
        ("Good", "好手", "good"),
        ("Inaccuracy", "緩手", "inaccuracy"),
        ("Mistake", "悪手", "mistake"),
    ):
        k, b = getattr(kalah, key), getattr(basic, key)
        assert f"| {name} | {k:g} or less | {b:g} or less |" in en
        assert f"| {ja_name} | {k:g}個まで | {b:g}個まで |" in ja
    assert f"| Blunder | more than {kalah.mistake:g} | more than {basic.mistake:g} |" in en
    assert f"| 大悪手 | {kalah.mistake:g}個より多い | {basic.mistake:g}個より多い |" in ja
