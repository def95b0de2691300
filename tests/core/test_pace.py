"""core.bots.Pace and core.game.pace_of: a bot's delay comes from its level's pace and the
room's generator alone, never from what the bot saw or chose."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asobiba.core.bots import Pace
from asobiba.core.errors import InvalidOptions
from asobiba.core.game import DesignedPace, pace_of, pace_value, paces_from, slowest_of
from asobiba.games import engine_names, get_game

PACE = Pace(floor=0.5, median=0.9, ceiling=2.0)


@st.composite
def paces(draw: st.DrawFn) -> Pace:
    floor = draw(st.floats(0.0, 5.0))
    median = floor + draw(st.floats(0.01, 5.0))
    ceiling = median + draw(st.floats(0.01, 5.0))
    return Pace(floor, median, ceiling, draw(st.floats(0.05, 2.0)))


@given(paces(), st.integers(0, 2**64))
def test_a_draw_lies_between_floor_and_ceiling(pace: Pace, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20):
        assert pace.floor <= pace.draw(rng) <= pace.ceiling


@given(paces(), st.floats(0.0, 1.0, exclude_max=True))
def test_every_quantile_lies_between_floor_and_ceiling(pace: Pace, p: float) -> None:
    assert pace.floor <= pace.quantile(p) <= pace.ceiling


def test_quantiles_rise_from_floor_through_median_towards_ceiling() -> None:
    shares = [i / 1000 for i in range(1000)]
    values = [PACE.quantile(p) for p in shares]
    assert values == sorted(values)
    assert values[0] == PACE.floor
    assert PACE.quantile(0.5) == pytest.approx(PACE.median)
    assert PACE.quantile(0.999999) == pytest.approx(PACE.ceiling, abs=0.01)


def test_about_half_of_the_draws_fall_under_the_median() -> None:
    rng = random.Random(1)
    draws = [PACE.draw(rng) for _ in range(4000)]
    assert 0.46 < sum(d < PACE.median for d in draws) / len(draws) < 0.54
    assert len({round(d, 3) for d in draws}) > 500, "a spread, not a fixed delay"


class Counting(random.Random):
    """A generator that counts what is drawn from it."""

    def __init__(self, seed: int) -> None:
        self.calls: list[str] = []
        super().__init__(seed)

    def random(self) -> float:
        self.calls.append("random")
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.calls.append("getrandbits")
        return super().getrandbits(k)


@pytest.mark.parametrize("seed", [0, 1, 2**40])
def test_a_draw_reads_one_number_from_the_generator_and_nothing_else(seed: int) -> None:
    """The delay is a function of the pace and the next number of the room's generator: the
    same generator state gives the same delay, and the generator moves on by exactly one
    number, whoever asks and whatever the bot decided."""
    rng = Counting(seed)
    delay = PACE.draw(rng)
    assert rng.calls == ["random"]
    reference = random.Random(seed)
    assert delay == PACE.quantile(reference.random())
    assert rng.getstate() == reference.getstate()


def test_draw_takes_only_the_generator() -> None:
    """Nothing about the position can reach the delay: ``draw`` has no other argument."""
    import inspect

    assert list(inspect.signature(Pace.draw).parameters) == ["self", "rng"]


@pytest.mark.parametrize(
    ("floor", "median", "ceiling", "spread"),
    [
        (-0.1, 0.5, 1.0, 0.5),
        (0.5, 0.5, 1.0, 0.5),
        (0.5, 1.0, 1.0, 0.5),
        (0.5, 1.2, 1.0, 0.5),
        (0.5, 0.9, 2.0, 0.0),
        (0.5, 0.9, float("inf"), 0.5),
        (float("nan"), 0.9, 2.0, 0.5),
    ],
)
def test_a_pace_out_of_order_is_refused(
    floor: float, median: float, ceiling: float, spread: float
) -> None:
    with pytest.raises(ValueError):
        Pace(floor, median, ceiling, spread)


@pytest.mark.parametrize("p", [-0.1, 1.0, 1.5])
def test_a_quantile_outside_zero_to_one_is_refused(p: float) -> None:
    with pytest.raises(ValueError):
        PACE.quantile(p)


# --- pace_of ---------------------------------------------------------------------------------


class _Game:
    name = "fake"


class _Paced(_Game):
    def pace(self, level: str) -> Any:
        return {"slow": PACE, "none": None, "bad": 1.5}[level]


def test_pace_of_a_game_without_the_capability_is_none() -> None:
    assert pace_of(_Game(), "any") is None  # type: ignore[arg-type]


def test_pace_of_reads_the_games_pace_and_lets_it_answer_none() -> None:
    assert pace_of(_Paced(), "slow") is PACE  # type: ignore[arg-type]
    assert pace_of(_Paced(), "none") is None  # type: ignore[arg-type]


def test_pace_of_refuses_what_is_not_a_pace() -> None:
    with pytest.raises(TypeError):
        pace_of(_Paced(), "bad")  # type: ignore[arg-type]


@pytest.mark.parametrize("game", engine_names())
def test_every_engine_answers_pace_of_for_its_levels_and_refuses_others(game: str) -> None:
    engine = get_game(game)
    for level in engine.levels:
        pace = pace_of(engine, level)
        assert pace is None or isinstance(pace, Pace)
    with pytest.raises(InvalidOptions):
        pace_of(engine, "grandmaster")


# --- slowest_of ------------------------------------------------------------------------------


class _Timed(_Game):
    def slowest(self, level: str) -> Any:
        return {"quick": 0.001, "unsaid": None, "bad": "fast"}[level]


def test_slowest_of_a_game_that_does_not_say_is_none() -> None:
    assert slowest_of(_Game(), "any") is None  # type: ignore[arg-type]
    assert slowest_of(_Timed(), "unsaid") is None  # type: ignore[arg-type]
    assert slowest_of(_Timed(), "quick") == 0.001  # type: ignore[arg-type]


def test_slowest_of_refuses_what_is_not_seconds() -> None:
    with pytest.raises(TypeError):
        slowest_of(_Timed(), "bad")  # type: ignore[arg-type]


@pytest.mark.parametrize("game", engine_names())
def test_every_paced_level_says_its_slowest_decision_below_its_floor(game: str) -> None:
    """The floor of a level's pace lies above its slowest decision (``Pace``); a game with no
    pace (a real-time game) need not say either."""
    engine = get_game(game)
    for level in engine.levels:
        pace, slowest = pace_of(engine, level), slowest_of(engine, level)
        if pace is not None:
            assert slowest is not None and 0.0 < slowest < pace.floor
    if slowest_of(engine, engine.levels[0]) is not None:
        with pytest.raises(InvalidOptions):
            slowest_of(engine, "grandmaster")


# --- the data files' [[pace]] entries -------------------------------------------------------


def _entry(level: str, **changes: Any) -> dict[str, Any]:
    entry = {
        "level": level,
        "floor": 0.5,
        "median": 0.9,
        "ceiling": 2.0,
        "spread": 0.5,
        "slowest": 0.01,
        "source": "designed",
        "reason": "why",
        "reason_ja": "なぜ",
    }
    return entry | changes


def test_paces_from_reads_one_entry_per_level_in_the_levels_order() -> None:
    paces = paces_from([_entry("b"), _entry("a", floor=0.6)], ["a", "b"], "fake")
    assert list(paces) == ["a", "b"]
    assert paces["a"] == DesignedPace(
        "a", Pace(0.6, 0.9, 2.0, 0.5), 0.01, "designed", {"ja": "なぜ", "en": "why"}
    )


@pytest.mark.parametrize(
    "entries",
    [
        [_entry("a")],  # b has none
        [_entry("a"), _entry("b"), _entry("b")],
        [_entry("a"), _entry("b"), _entry("c")],
        [_entry("a"), _entry("b", source="guessed")],
        [_entry("a"), _entry("b", flor=0.4)],
        [_entry("a"), _entry("b", median=3.0)],
    ],
)
def test_paces_from_refuses_a_faulty_file(entries: list[dict[str, Any]]) -> None:
    with pytest.raises(ValueError):
        paces_from(entries, ["a", "b"], "fake")


def test_a_pace_row_says_the_range_and_median_in_both_languages() -> None:
    (designed,) = paces_from([_entry("a")], ["a"], "fake").values()
    row = pace_value({"ja": "はじめて", "en": "Beginner"}, designed)
    assert row.name == {"ja": "動くまでの時間：はじめて", "en": "Time to move: Beginner"}
    for lang in ("ja", "en"):
        assert "0.5" in row.value[lang] and "2.0" in row.value[lang]
        assert "0.9" in row.value[lang]
    assert row.source == "designed" and row.reason == {"ja": "なぜ", "en": "why"}
