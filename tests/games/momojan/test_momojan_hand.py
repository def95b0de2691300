"""MOMOJAN notation and hand helpers: the cards, sets, heads, dora, decompositions and waits.

Each test names the rule (rulebook or issue 9) it checks; the rulebook's example waits are here.
"""

from __future__ import annotations

import doctest
from collections import Counter

import pytest

from asobiba.games.momojan import DECK, complete, decompositions, dora_of, format, parse, waits
from asobiba.games.momojan import cards as cards_module
from asobiba.games.momojan import hand as hand_module
from asobiba.games.momojan.hand import head_ok, set_kind


def w(text: str, *open_sets: str) -> set[str]:
    """The waits of the hand ``text`` beside ``open_sets``, each written as its three cards."""
    return waits(parse(text), [parse(s) for s in open_sets])


TWO_SETS = ("S1 S2 S3", "pheasant pheasant pheasant")
"""Two open sets sharing no card with the hands beside them in these tests."""


# --- notation ------------------------------------------------------------------------------


def test_deck_has_36_fruit_cards_one_each_and_five_pictures_four_copies_each() -> None:
    counts = Counter(DECK)
    assert len(DECK) == 56
    fruit = [c for c in counts if len(c) == 2]
    assert len(fruit) == 36 and all(counts[c] == 1 for c in fruit)
    assert {c for c in counts if len(c) > 2} == {"dog", "monkey", "pheasant", "sun", "moon"}
    assert all(counts[p] == 4 for p in ("dog", "monkey", "pheasant", "sun", "moon"))


def test_notation_fruit_letter_and_number_pictures_as_words() -> None:
    assert parse("M1 L9 O5 S3 dog monkey pheasant sun moon") == [
        "M1", "L9", "O5", "S3", "dog", "monkey", "pheasant", "sun", "moon",
    ]  # fmt: skip


def test_a_hand_in_text_is_cards_separated_by_spaces_and_format_round_trips() -> None:
    hand = parse("dog  L3\tM4 S9")
    assert parse(format(hand)) == ["M4", "L3", "S9", "dog"]
    assert format(parse(format(hand))) == format(hand)


@pytest.mark.parametrize("bad", ["L0", "L10", "X3", "Dog", "m1", "cat"])
def test_parse_refuses_what_is_not_a_card(bad: str) -> None:
    with pytest.raises(ValueError, match="not a MOMOJAN card"):
        parse(f"L1 {bad}")


def test_doctests_of_the_helper_modules_pass() -> None:
    for module in (cards_module, hand_module):
        assert doctest.testmod(module).failed == 0, module.__name__


# --- dora ----------------------------------------------------------------------------------


def test_dora_is_the_next_number_of_any_fruit_indicator_lemon_4_makes_every_5_dora() -> None:
    assert dora_of("L4") == "5"
    from asobiba.games.momojan.cards import is_dora

    assert all(is_dora(c, "L4") for c in ("M5", "L5", "O5", "S5"))
    assert not is_dora("L4", "L4")


def test_dora_after_9_is_1() -> None:
    assert dora_of("S9") == "1"


def test_dora_pictures_cycle_dog_monkey_pheasant_dog_monkey_indicator_makes_pheasant_dora() -> None:
    assert [dora_of(p) for p in ("dog", "monkey", "pheasant")] == ["monkey", "pheasant", "dog"]


def test_dora_sun_and_moon_point_at_each_other() -> None:
    assert dora_of("sun") == "moon" and dora_of("moon") == "sun"


# --- sets and heads ------------------------------------------------------------------------


def test_set_run_is_three_consecutive_numbers_of_one_fruit() -> None:
    assert set_kind(parse("L3 L4 L5")) == "run"
    assert set_kind(parse("O7 O8 O9")) == "run"
    assert set_kind(parse("L3 O4 L5")) is None
    assert set_kind(parse("L8 L9 L1")) is None


def test_set_run_peach_stands_in_for_any_fruit_keeping_its_number() -> None:
    assert set_kind(parse("L3 M4 L5")) == "run"
    assert set_kind(parse("M1 M2 S3")) == "run"
    assert set_kind(parse("M1 M2 M3")) == "run"
    assert set_kind(parse("L3 M5 L5")) is None  # the peach keeps its number


def test_set_equal_numbers_of_different_fruits() -> None:
    assert set_kind(parse("L2 O2 S2")) == "same"
    assert set_kind(parse("M6 O6 S6")) == "same"
    assert set_kind(parse("L2 O2 S3")) is None


def test_set_three_equal_pictures() -> None:
    assert set_kind(parse("dog dog dog")) == "picture"
    assert set_kind(parse("sun sun moon")) is None


def test_head_is_two_equal_numbers_or_two_equal_pictures() -> None:
    assert head_ok("L5", "M5") and head_ok("O2", "S2")
    assert head_ok("moon", "moon")
    assert not head_ok("L5", "L6") and not head_ok("sun", "moon")


# --- decompositions ------------------------------------------------------------------------


def test_decompositions_lists_every_split_into_sets_and_one_head() -> None:
    splits = decompositions(parse("L1 L2 L3 O1 S1"))
    assert [str(d) for d in splits] == ["L1 L2 L3 + O1 S1"]
    readings = {(d.head, d.sets) for d in splits}
    assert (("O1", "S1"), (("L1", "L2", "L3"),)) in readings
    # L1 with O1 (or S1) as head leaves L2 L3 + the other 1: no set, so those are not splits.
    assert len(readings) == 1


def test_decompositions_of_a_hand_that_splits_two_ways() -> None:
    splits = decompositions(parse("M1 M2 M3 L1 L2 L3 O1 S1"))
    heads = sorted(d.head for d in splits)
    assert ("O1", "S1") in heads and ("M1", "S1") in heads
    assert all(len(d.sets) == 2 for d in splits)


def test_decompositions_of_a_hand_of_the_wrong_size_or_shape_is_empty() -> None:
    assert decompositions(parse("L1 L2 L3 O1")) == []
    assert decompositions(parse("L1 L2 L4 O1 S1")) == []


def test_helpers_refuse_a_hand_the_deck_cannot_hold() -> None:
    with pytest.raises(ValueError, match="holds 1 of L1"):
        decompositions(parse("L1 L1 L2 L3 O1"))
    with pytest.raises(ValueError, match="holds 4 of dog"):
        waits(parse("dog dog dog dog dog"), [])
    with pytest.raises(ValueError, match="holds 4 of dog, not 5"):
        w("dog dog", "dog dog dog")
    with pytest.raises(ValueError, match="not an open set: L1 L2 L4"):
        w("dog", "L1 L2 L4")


def test_win_needs_at_least_three_sets_counting_open_ones_plus_a_head() -> None:
    hand = parse("L1 L2 L3 S6 S7 S8 dog dog")
    assert not complete(hand, 0)  # two sets in hand, none open
    assert complete(hand, 1)


# --- the rulebook's example waits ----------------------------------------------------------


def test_waits_furiten_example_moon_head_and_lemon_3_4_wait_on_lemon_or_peach_2_or_5() -> None:
    assert w("moon moon L3 L4", *TWO_SETS) == {"L2", "L5", "M2", "M5"}


def test_waits_scoring_example_one_two_suns_and_orange_2_3_wait_on_orange_or_peach_1_or_4() -> None:
    assert w("sun sun O2 O3", "dog dog dog", "L4 L5 L6", "M7 O8 O9") == {"O1", "O4", "M1", "M4"}


def test_waits_scoring_example_two_lemon_2_strawberry_2_two_moons_wait_on_a_2_or_moon() -> None:
    open_sets = ("pheasant pheasant pheasant", "L4 L5 L6", "O7 O8 O9", "S5 S6 S7")
    assert w("L2 S2 moon moon", *open_sets) == {"M2", "O2", "moon"}


EXAMPLE_THREE_SETS = (
    "dog dog dog",
    "monkey monkey monkey",
    "pheasant pheasant pheasant",
    "O1 O2 O3",
    "L5 O5 S5",
    "S1 S2 S3",
    "L7 M8 L9",
)
"""Example ③'s seven open sets, the チー of the peach 8 last (the rule page's reading)."""


def test_waits_scoring_example_three_single_strawberry_8_waits_on_orange_or_lemon_8() -> None:
    """The rulebook names the waits: orange 8 or lemon 8. The peach 8 is not one, for it lies
    in the player's own チー: no copy of it is left to win on (issue 31, point 1)."""
    assert w("S8", *EXAMPLE_THREE_SETS) == {"L8", "O8"}


def test_waits_qa_one_set_open_seven_in_hand_waits_on_the_dog_for_the_head() -> None:
    assert w("L1 L2 L3 S6 S7 S8 dog", "O4 O5 O6") == {"dog"}


def test_waits_qa_seven_dealt_cards_and_nothing_open_can_never_win() -> None:
    assert w("L1 L2 L3 S6 S7 S8 dog") == set()


def test_waits_never_name_a_card_whose_every_copy_is_in_the_hand() -> None:
    assert "dog" not in w("dog dog dog dog L1 L2 L3", "O4 O5 O6")
    assert "L5" not in w("L5", *TWO_SETS, "O7 O8 O9")
    assert w("L5", *TWO_SETS, "O7 O8 O9") == {"M5", "O5", "S5"}


# --- issue 31, point 1: a wait must have a copy the player does not hold ---------------------


def test_tenpai_a_single_dog_beside_an_open_dog_pon_is_not_ready_no_fifth_dog() -> None:
    assert w("dog", "dog dog dog", *TWO_SETS) == set()
    assert w("dog", "monkey monkey monkey", *TWO_SETS) == {"dog"}


def test_tenpai_a_single_lemon_5_beside_an_open_kai_of_the_other_three_5s_is_not_ready() -> None:
    assert w("L5", "M5 O5 S5", *TWO_SETS) == set()


def test_tenpai_only_the_copies_in_your_own_open_sets_are_gone_the_rest_still_wait() -> None:
    # O5 in the player's own run is gone; M5 and S5 may still come (from the wall, or be
    # held or thrown by the opponent: a dead wait is still a wait).
    assert w("L5", "O4 O5 O6", *TWO_SETS) == {"M5", "S5"}


def test_tenpai_a_peach_in_an_open_set_is_gone_as_itself_not_as_the_fruit_it_stands_for() -> None:
    # M4 stands in for the lemon 4 in L3 M4 L5: the peach 4 is gone, the lemon 4 is not (it is
    # the hand's), and the orange and strawberry 4s can still come.
    assert w("L4", "L3 M4 L5", *TWO_SETS) == {"O4", "S4"}
    assert w("O4", "L3 M4 L5", *TWO_SETS) == {"L4", "S4"}


def test_waits_of_a_hand_of_the_wrong_size_are_empty() -> None:
    assert w("L1 L2", *TWO_SETS, "O7 O8 O9") == set()
