"""Play someone now, the pure rules (``server/social/pairing.py``): the designed widening, and
which seekers form a table, in which order (docs/ARCHITECTURE.md, "Play someone now")."""

from __future__ import annotations

import math
import random

import pytest

from asobiba.server.social.pairing import (
    PoolRules,
    Schedule,
    Seeker,
    Step,
    form_tables,
    load_schedule,
)

REASON = {"en": "why", "ja": "なぜ"}


def schedule(*steps: tuple[float, float], offer: float = 20.0) -> Schedule:
    return Schedule(
        tuple(Step(after, gap, REASON) for after, gap in steps), offer, REASON, 30.0, 120.0
    )


WIDENING = schedule((0, 100), (5, 200), (10, 300), (20, 500), (45, math.inf))


def players(table: tuple[Seeker, ...]) -> list[str]:
    return [seeker.player for seeker in table]


def test_the_data_file_widens_step_by_step_and_says_why() -> None:
    designed = load_schedule()
    assert designed.steps[0].after == 0
    assert [step.after for step in designed.steps] == sorted(step.after for step in designed.steps)
    assert [step.gap for step in designed.steps] == sorted(step.gap for step in designed.steps)
    assert math.isinf(designed.steps[-1].gap), "in the end anyone waiting is accepted"
    assert designed.offer_seconds == 20
    assert all(step.reason["en"] and step.reason["ja"] for step in designed.steps)
    shown = designed.to_json()
    assert shown["steps"][-1]["gap"] is None  # JSON has no infinity: null is "anyone"
    assert shown["offer_seconds"] == 20


def test_the_accepted_gap_widens_with_the_wait() -> None:
    assert [WIDENING.gap(waited) for waited in (0, 4.9, 5, 12, 20, 44, 45, 600)] == [
        100,
        100,
        200,
        300,
        500,
        500,
        math.inf,
        math.inf,
    ]


@pytest.mark.parametrize(
    "text",
    [
        '[[widening]]\nafter = 5\ngap = 100\nsource = "designed"\nreason = "x"\nreason_ja = "x"',
        '[[widening]]\nafter = 0\ngap = 100\nsource = "rulebook"\nreason = "x"\nreason_ja = "x"',
        '[[widening]]\nafter = 0\ngap = 100\nsource = "designed"\nreason = "x"\nreason_ja = "x"\n'
        '[[widening]]\nafter = 5\ngap = 50\nsource = "designed"\nreason = "x"\nreason_ja = "x"',
    ],
)
def test_a_schedule_that_does_not_start_at_once_widen_or_say_why_is_refused(text: str) -> None:
    tail = (
        '\n[offer]\nseconds = 20\nsource = "designed"\nreason = "x"\nreason_ja = "x"\n'
        '[table]\nmove = 30\nreserve = 120\nsource = "designed"\nreason = "x"\nreason_ja = "x"\n'
    )
    with pytest.raises(ValueError):
        load_schedule(text + tail)


def test_a_pool_is_one_game_rule_set_and_number_of_players() -> None:
    kalah = PoolRules("mancala", {"variant": "kalah", "seeds": 4}, 2)
    assert kalah.key == "mancala/2/seeds=4,variant=kalah"
    assert PoolRules("mancala", {"seeds": 4, "variant": "kalah"}, 2).key == kalah.key
    assert PoolRules("mokochaka", {}, 4).key != PoolRules("mokochaka", {}, 3).key
    assert PoolRules.from_json(kalah.to_json()) == kalah


def test_two_close_people_pair_at_once_and_far_ones_wait() -> None:
    seekers = [Seeker("a", 1500, 0), Seeker("b", 1580, 1), Seeker("c", 1900, 1)]
    assert [players(t) for t in form_tables(seekers, 2, now=1, schedule=WIDENING)] == [["a", "b"]]
    assert form_tables([Seeker("a", 1500, 0), Seeker("c", 1900, 0)], 2, 1, WIDENING) == []


def test_the_gap_widens_until_far_people_are_paired() -> None:
    seekers = [Seeker("a", 1500, 0), Seeker("c", 1900, 0)]
    waits = [now for now in range(0, 60) if form_tables(seekers, 2, now, WIDENING)]
    assert waits[0] == 20, "400 points apart: paired once both accept 500"


def test_both_must_accept_a_newcomer_is_not_stretched_by_someone_who_waited_long() -> None:
    """An old seeker accepts anyone; a newcomer 400 points away accepts 100 at first."""
    old, newcomer = Seeker("old", 1500, 0), Seeker("new", 1900, 100)
    assert form_tables([old, newcomer], 2, now=100, schedule=WIDENING) == []
    assert form_tables([old, newcomer], 2, now=120, schedule=WIDENING) != []


def test_whoever_waited_longest_is_placed_first_with_the_closest_rating() -> None:
    # "b" waits longest: it gets the closest of "a" and "c" ("c", 10 away), not "a" (40).
    seekers = [
        Seeker("a", 1540, 2),
        Seeker("b", 1500, 0),
        Seeker("c", 1490, 3),
        Seeker("d", 1700, 1),
    ]
    tables = form_tables(seekers, 2, now=3, schedule=WIDENING)
    assert [players(t) for t in tables] == [["b", "c"]]
    # A tie in rating goes to the one who waited longer.
    tied = [Seeker("x", 1500, 0), Seeker("y", 1550, 2), Seeker("z", 1450, 1)]
    assert [players(t) for t in form_tables(tied, 2, 2, WIDENING)] == [["x", "z"]]


def test_a_table_lists_its_people_in_order_of_arrival() -> None:
    seekers = [Seeker("late", 1400, 5), Seeker("early", 1450, 0)]
    assert [players(t) for t in form_tables(seekers, 2, 5, WIDENING)] == [["early", "late"]]


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_three_to_six_players_gather_a_whole_table_within_every_members_gap(size: int) -> None:
    close = [Seeker(f"p{k}", 1500 + 15 * k, k * 0.1) for k in range(size - 1)]
    far = Seeker("far", 2400, 0)
    # One short: no table, however long anyone waited.
    assert form_tables([*close, far], size, now=1, schedule=WIDENING) == []
    last = Seeker("last", 1480, 1)
    tables = form_tables([*close, far, last], size, now=1, schedule=WIDENING)
    assert [sorted(players(t)) for t in tables] == [sorted([*players(tuple(close)), "last"])]
    spread = [s.rating for s in tables[0]]
    assert max(spread) - min(spread) <= 100


def test_a_group_forms_only_when_its_whole_spread_is_accepted() -> None:
    """Three people each within 100 of the middle one, but 160 apart end to end."""
    seekers = [Seeker("low", 1420, 0), Seeker("mid", 1500, 0), Seeker("high", 1580, 0)]
    assert form_tables(seekers, 3, now=0, schedule=WIDENING) == []
    assert len(form_tables(seekers, 3, now=5, schedule=WIDENING)) == 1


def test_many_seekers_form_disjoint_tables_each_within_its_gaps() -> None:
    rng = random.Random(7)
    seekers = [Seeker(f"p{k}", rng.gauss(1500, 300), rng.uniform(0, 60)) for k in range(200)]
    for size in (2, 4):
        tables = form_tables(seekers, size, now=60, schedule=WIDENING)
        seated = [seeker.player for table in tables for seeker in table]
        assert len(seated) == len(set(seated)), "nobody at two tables"
        for table in tables:
            assert len(table) == size
            ratings = [seeker.rating for seeker in table]
            accepted = min(WIDENING.gap(60 - seeker.since) for seeker in table)
            assert max(ratings) - min(ratings) <= accepted


def test_one_seeker_per_person() -> None:
    with pytest.raises(ValueError):
        form_tables([Seeker("a", 1500, 0), Seeker("a", 1500, 1)], 2, 1, WIDENING)
