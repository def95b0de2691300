"""``judge(top)``: the call rules and every worked example of the rulebook, one test apiece.

Each example test builds showing cards that match the rulebook's animal totals with this site's
card faces (data.toml), then checks the set of correct calls.
"""

from __future__ import annotations

import doctest
from itertools import product

import pytest

from asobiba.games.mokochaka import (
    ANIMALS,
    CALLS,
    NORMAL_CALLS,
    SPECIALS,
    Card,
    animal_counts,
    judge,
    parse_card,
)
from asobiba.games.mokochaka import cards as cards_module
from asobiba.games.mokochaka.cards import COUNTS

EVERY_CARD = [(animal, n) for animal in ANIMALS for n in COUNTS]
EVERY_TOP = [list(top) for k in (1, 2, 3) for top in product(EVERY_CARD, repeat=k)]


def top(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


# --- worked examples of the rulebook -------------------------------------------------------------


def test_example_two_moko_five_paka_calls_the_bigger_count_first() -> None:
    """The first worked example: 2 Moko and 5 Paka are called Paka then Moko."""
    assert judge(top("moko2 paka4 paka1")) == {"pakamoko"}


def test_example_one_pome_four_paka_calls_pome_first_though_fewer() -> None:
    """Pome is named first even when outnumbered (1 Pome, 4 Paka)."""
    assert judge(top("pome1 paka3 paka1")) == {"pomepaka"}


def test_example_two_gabu_eat_both_moko_leaving_only_paka() -> None:
    """2 Moko, 3 Paka, 2 Gabu: the Moko drop to 0 and only Paka is called."""
    assert judge(top("moko2 paka3 gabu2")) == {"paka"}


def test_example_four_gabu_eat_four_moko_so_gabu_is_called() -> None:
    """4 Moko and 4 Gabu: nothing but Gabu is left, so Gabu is called."""
    assert judge(top("moko4 gabu3 gabu1")) == {"gabu"}


def test_example_eight_moko_on_three_cards_is_mokomoko() -> None:
    """Three showing cards of Moko (8 in all) double the name."""
    assert judge(top("moko4 moko3 moko1")) == {"mokomoko"}


@pytest.mark.parametrize("animal", ANIMALS)
def test_example_three_cards_of_one_animal_double_its_name(animal: str) -> None:
    """The note under the doubling example: Pakapaka, Pomepome, Gabugabu likewise."""
    assert judge(top(f"{animal}1 {animal}2 {animal}4")) == {animal * 2}


def test_example_gabu_brings_moko_level_with_paka_for_mokochaka() -> None:
    """4 Moko, 3 Paka, 1 Gabu: Moko falls to 3, level with Paka: Mokochaka."""
    assert judge(top("moko4 paka3 gabu1")) == {"mokochaka"}


def test_example_pome_paka_and_moko_all_present_is_chakamoko() -> None:
    """2 Pome, 3 Paka, 1 Moko: all three kinds other than Gabu: Chakamoko."""
    assert judge(top("pome2 paka3 moko1")) == {"chakamoko"}


def test_example_two_of_each_of_the_three_kinds_is_chakamokochaka() -> None:
    """All three kinds other than Gabu, two of each: Chakamokochaka."""
    assert judge(top("pome2 paka2 moko2")) == {"chakamokochaka"}


def test_example_mokochaka_and_chakamoko_together_accept_either() -> None:
    """The note (and the Q&A): when both specials hold, either call is right."""
    assert judge(top("pome2 paka2 moko1")) == {"mokochaka", "chakamoko"}


def test_qa_moko_below_zero_is_absent_and_not_called() -> None:
    """Q&A: Moko pushed below 0 by Gabu counts as absent."""
    assert judge(top("moko1 gabu3 paka2")) == {"paka"}
    assert animal_counts(top("moko1 gabu3 paka2")) == {"paka": 2}


# --- the call rules ------------------------------------------------------------------------------


def test_call_names_the_animals_from_most_to_fewest() -> None:
    """The call orders the animals by their counts, the most first."""
    assert judge(top("moko3 paka1")) == {"mokopaka"}
    assert judge(top("moko1 paka3")) == {"pakamoko"}


def test_call_names_pome_first_whatever_its_count() -> None:
    """Pome always leads, even against a bigger count of Moko."""
    assert judge(top("pome1 moko4")) == {"pomemoko"}


def test_call_each_gabu_removes_one_moko() -> None:
    """Each Gabu takes one Moko away before anything is compared."""
    assert animal_counts(top("moko4 gabu1 paka1")) == {"moko": 3, "paka": 1}
    assert judge(top("moko4 gabu1 paka1")) == {"mokopaka"}
    assert judge(top("moko3 gabu1 paka3")) == {"pakamoko"}


def test_call_gabu_is_not_named_when_another_animal_remains() -> None:
    """Gabu's own name is said only when it is the only animal left."""
    assert judge(top("moko3 gabu1")) == {"moko"}
    assert judge(top("pome1 gabu4")) == {"pome"}
    assert judge(top("gabu2 paka1")) == {"paka"}


def test_call_gabu_alone_on_one_or_two_cards_is_gabu() -> None:
    """Only Gabu showing (fewer than 3 cards, so not doubled) is called Gabu."""
    assert judge(top("gabu2")) == {"gabu"}
    assert judge(top("gabu2 gabu1")) == {"gabu"}


def test_call_animals_at_zero_are_not_equal_counts() -> None:
    """Two absent animals (both at 0) are not "two kinds with the same number"."""
    assert judge(top("moko2 gabu2 paka3")) == {"paka"}
    assert judge(top("moko1 gabu1 pome2")) == {"pome"}


def test_mokochaka_needs_exactly_two_kinds_with_equal_counts() -> None:
    """Exactly two non-Gabu kinds level: Mokochaka (on two cards too)."""
    assert judge(top("moko2 paka2")) == {"mokochaka"}
    assert judge(top("pome3 paka3 gabu4")) == {"mokochaka"}
    assert judge(top("moko1 pome1 moko4")) != {"mokochaka"}


def test_mokochaka_counts_gabu_out_of_the_equal_kinds() -> None:
    """Gabu level with another animal is not Mokochaka: only non-Gabu kinds count."""
    assert judge(top("paka2 gabu2")) == {"paka"}


def test_chakamoko_holds_whenever_all_three_kinds_are_present() -> None:
    """Moko, Paka and Pome all present (after Gabu) is Chakamoko."""
    assert judge(top("moko4 paka1 pome3")) == {"chakamoko"}
    assert "chakamoko" not in judge(top("moko1 gabu1 paka3"))


def test_chakamoko_fails_when_gabu_eats_every_moko() -> None:
    """Three kinds on the cards, but Gabu ate the Moko: only two kinds remain."""
    three = [Card("moko", 1), Card("paka", 3), Card("pome", 2)]
    assert "chakamoko" in judge(three)
    assert judge([Card("moko", 1), Card("paka", 3), Card("gabu", 2)]) == {"paka"}


def test_chakamokochaka_is_the_only_right_call_when_all_three_are_equal() -> None:
    """Designed: three equal kinds are not also Chakamoko or Mokochaka (exactly two are not)."""
    assert judge(top("moko3 paka3 pome3")) == {"chakamokochaka"}


def test_special_calls_take_priority_over_the_normal_call() -> None:
    """Whenever a special holds, no normal call is right (checked on every possible top)."""
    for cards in EVERY_TOP:
        calls = judge(cards)
        if calls & set(SPECIALS):
            assert calls <= set(SPECIALS), cards
        else:
            assert len(calls) == 1, cards


def test_name_twice_needs_three_showing_cards() -> None:
    """Designed: with only 1 or 2 piles showing, one animal is named once."""
    assert judge(top("moko2 moko3")) == {"moko"}
    assert judge(top("pome4")) == {"pome"}


def test_vocabulary_is_exactly_every_word_judge_can_return() -> None:
    """CALLS lists every normal call that can be right, the doubled names and the specials."""
    seen: set[str] = set()
    for cards in EVERY_TOP:
        seen |= judge(cards)
    assert seen == set(CALLS) == set(NORMAL_CALLS) | set(SPECIALS)
    assert len(CALLS) == len(set(CALLS)) == 15
    assert all(word == word.lower() and word.isascii() for word in CALLS)


def test_judge_takes_plain_pairs_as_well_as_cards() -> None:
    assert judge([("moko", 2), ("paka", 3), ("gabu", 2)]) == {"paka"}
    assert judge((["pome", 1], ["paka", 4])) == {"pomepaka"}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "bad",
    [
        [],
        [("moko", 1)] * 4,
        [("cat", 1)],
        [("moko", 0)],
        [("moko", 5)],
        [("moko", True)],
        [("moko", 1.0)],
        [("moko",)],
        ["moko1"],
    ],
)
def test_judge_refuses_anything_but_one_to_three_cards(bad: list[object]) -> None:
    with pytest.raises(ValueError):
        judge(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["", "moko", "moko0", "moko5", "Moko1", "cat1", "moko12", 3])
def test_parse_card_refuses_what_is_not_a_card(bad: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)  # type: ignore[arg-type]


def test_notation_round_trips_every_card() -> None:
    for animal, n in EVERY_CARD:
        assert parse_card(str(Card(animal, n))) == (animal, n)


def test_docstring_examples_hold() -> None:
    failed, tried = doctest.testmod(cards_module)
    assert tried > 0 and failed == 0
