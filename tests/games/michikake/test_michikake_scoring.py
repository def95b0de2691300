"""The card notation, sets, and scoring: one test per rule sentence and worked example.

Hands are written in the notation (``"W7"``, ``"star"``); crests default to a suit the hand
does not use, so the crest hand only counts where a test asks for it.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

import pytest

from asobiba.games.michikake import (
    best_split,
    bonus_points,
    deck,
    hand_points,
    payments,
    splits,
    win_breakdown,
    winning_cards,
)
from asobiba.games.michikake.cards import set_kind
from asobiba.games.michikake.data import BONUS_CARDS, YAKU


def h(text: str) -> list[str]:
    return text.split()


# --- the deck -----------------------------------------------------------------------------------


def test_four_players_use_114_cards_four_suits_of_nine_stages_three_copies_and_six_specials() -> (
    None
):
    cards = deck(4)
    assert len(cards) == 114
    assert {c[0] for c in cards if c not in ("star", "ring")} == {"C", "W", "R", "H"}
    assert cards.count("star") == cards.count("ring") == 3
    assert all(cards.count(c) == 3 for c in set(cards))


def test_three_players_use_87_cards_without_the_hexagon_suit() -> None:
    cards = deck(3)
    assert len(cards) == 87
    assert not any(c.startswith("H") for c in cards)


# --- sets -----------------------------------------------------------------------------------


def test_a_run_is_three_consecutive_stages_of_one_suit() -> None:
    assert set_kind(["W3", "W5", "W4"]) == "run"


def test_a_run_may_not_mix_suits() -> None:
    assert set_kind(["W3", "C4", "W5"]) is None


def test_stage_nine_does_not_wrap_to_one() -> None:
    assert set_kind(["C8", "C9", "C1"]) is None
    assert set_kind(["C9", "C1", "C2"]) is None


def test_three_identical_cards_are_a_triplet() -> None:
    assert set_kind(["R6", "R6", "R6"]) == "triplet"


def test_stars_and_rings_form_sets_only_as_three_identical_cards() -> None:
    assert set_kind(["star", "star", "star"]) == "triplet"
    assert set_kind(["ring", "ring", "ring"]) == "triplet"
    assert set_kind(["star", "ring", "star"]) is None


def test_splits_lists_every_way_to_make_two_sets() -> None:
    six = h("W1 W1 W2 W2 W3 W3")
    assert splits(six) == [(("W1", "W2", "W3"), ("W1", "W2", "W3"))]
    both = splits(h("C1 C1 C1 C2 C3 C4"))  # 1-1-1 + 2-3-4 only: 1-2-3 leaves 1-1-4
    assert both == [(("C1", "C1", "C1"), ("C2", "C3", "C4"))]
    many = splits(h("C2 C2 C2 C3 C3 C3"))
    assert many == [(("C2", "C2", "C2"), ("C3", "C3", "C3"))]
    assert splits(h("C1 C2 C3 W5 W6 W8")) == []


def test_splits_and_helpers_refuse_what_is_not_the_notation() -> None:
    for bad in (["W0", "W1", "W2", "C1", "C2", "C3"], ["w1"] * 6, h("C1 C1 C1 C1 C2 C3"), "C1C2"):
        with pytest.raises(ValueError):
            splits(bad)
    with pytest.raises(ValueError):
        splits(h("C1 C2 C3"))


def test_winning_cards_lists_what_completes_five_cards() -> None:
    assert winning_cards(h("W4 W5 C7 C7 C7")) == ["W3", "W6"]
    assert winning_cards(h("W4 W5 C7 C7 C7"), barred=["W3"]) == ["W6"]
    assert winning_cards(h("star star ring ring ring")) == ["star"]
    assert winning_cards(h("C1 C2 C3 H5 H5")) == ["H5"]
    assert winning_cards(h("C1 C2 C3 H5 H5"), players=3) == []  # no hexagons with 3


def test_winning_cards_never_offers_a_fourth_copy() -> None:
    assert "C7" not in winning_cards(h("C7 C7 C7 C8 C9"))


# --- base hands ----------------------------------------------------------------------------------


def test_two_runs_score_50() -> None:
    assert hand_points(h("C2 C3 C4 W5 W6 W7"), "R") == 50


def test_two_triplets_score_80() -> None:
    assert hand_points(h("C2 C2 C2 W5 W5 W5"), "R") == 80


def test_one_run_and_one_triplet_score_60() -> None:
    assert hand_points(h("C2 C3 C4 W5 W5 W5"), "R") == 60


def test_the_two_sets_may_be_of_different_suits() -> None:
    assert hand_points(h("C4 C5 C6 R4 R5 R6"), "W") == 50


def test_six_cards_that_are_not_two_sets_score_none() -> None:
    assert hand_points(h("C1 C2 C4 W5 W6 W7"), "R") is None
    assert hand_points(h("C8 C9 C1 W5 W6 W7"), "R") is None  # no wrap from 9 to 1


# --- added hands ---------------------------------------------------------------------------------


def test_all_six_at_stage_seven_or_more_adds_40() -> None:
    assert hand_points(h("C7 C8 C9 W7 W7 W7"), "R") == 60 + 40


def test_all_six_at_stage_three_or_less_adds_40() -> None:
    assert hand_points(h("C1 C2 C3 W2 W2 W2"), "R") == 60 + 40


def test_all_six_of_your_crest_adds_50() -> None:
    assert hand_points(h("W2 W3 W4 W6 W6 W6"), "W") == 60 + 50
    assert hand_points(h("W2 W3 W4 W6 W6 W6"), "C") == 60


def test_one_suit_six_consecutive_stages_adds_60() -> None:
    assert hand_points(h("R2 R3 R4 R5 R6 R7"), "C") == 50 + 60


def test_one_suit_one_two_three_and_seven_eight_nine_adds_150() -> None:
    assert hand_points(h("H1 H2 H3 H7 H8 H9"), "C") == 50 + 150


def test_one_suit_two_triplets_adds_180() -> None:
    assert hand_points(h("C4 C4 C4 C6 C6 C6"), "W") == 80 + 180


def test_added_hands_stack() -> None:
    # crest + pure pair + the triplets' base; stages 7+ as well
    assert hand_points(h("W7 W7 W7 W8 W8 W8"), "W") == 80 + 180 + 50 + 40


def test_a_hand_that_splits_several_ways_scores_its_best_split() -> None:
    """With three copies of each card, no six cards split two different ways (checked over
    every hand of one suit plus the specials, which is where a second split could hide), so the
    best split is the only one; ``best_split`` still takes the highest if there were several."""
    kinds = [f"C{stage}" for stage in range(1, 10)] + ["star", "ring"]
    for six in combinations_with_replacement(kinds, 6):
        if max(Counter(six).values()) > 3:
            continue
        ways = splits(six)
        assert len(ways) <= 1, six
        if ways:
            found = best_split(six, "W")
            assert found is not None and found[0] == ways[0]


# --- top hands -----------------------------------------------------------------------------------


def test_six_stage_one_cards_score_400_alone() -> None:
    assert hand_points(h("C1 C1 C1 W1 W1 W1"), "C") == 400  # not + low, + base, + crest


def test_six_stage_nine_cards_score_400_alone() -> None:
    assert hand_points(h("R9 R9 R9 H9 H9 H9"), "C") == 400


def test_one_suit_three_ones_with_seven_eight_nine_scores_450() -> None:
    assert hand_points(h("C1 C1 C1 C7 C8 C9"), "W") == 450
    assert hand_points(h("C1 C1 C1 C7 C8 C9"), "C") == 450  # the crest adds nothing


def test_one_suit_three_nines_with_one_two_three_scores_450() -> None:
    assert hand_points(h("W1 W2 W3 W9 W9 W9"), "C") == 450


def test_three_ones_and_three_nines_of_your_crest_score_500() -> None:
    assert hand_points(h("H1 H1 H1 H9 H9 H9"), "H") == 500
    # not your crest: just triplets + pure pair
    assert hand_points(h("H1 H1 H1 H9 H9 H9"), "C") == 80 + 180


def test_three_stars_and_three_rings_score_500() -> None:
    assert hand_points(h("star star star ring ring ring"), "C") == 500


def test_stars_and_rings_never_satisfy_a_stage_or_suit_condition() -> None:
    assert hand_points(h("star star star W7 W8 W9"), "W") == 60  # not high, not crest
    assert hand_points(h("ring ring ring C1 C2 C3"), "C") == 60  # not low, not crest
    assert hand_points(h("star star star W1 W1 W1"), "W") == 80  # not pure, not six ones


def test_every_hand_of_the_table_is_in_data_with_the_rulebook_points() -> None:
    points = {y.id: y.points for y in YAKU.values()}
    assert points == {
        "runs": 50, "triplets": 80, "mixed": 60, "high": 40, "low": 40, "crest": 50,
        "straight": 60, "ends": 150, "pure": 180, "six_ones": 400, "six_nines": 400,
        "edge_run": 450, "crest_edges": 500, "stars_rings": 500,
    }  # fmt: skip


# --- bonus cards ---------------------------------------------------------------------------------


def test_there_are_eleven_bonus_cards_worth_at_most_60_to_90() -> None:
    assert len(BONUS_CARDS) == 11
    for card in BONUS_CARDS.values():
        assert 60 <= 6 * card.each <= 90, card.id
        assert card.name_ja and card.name_en


@pytest.mark.parametrize("bonus", sorted(BONUS_CARDS))
def test_stars_and_rings_never_satisfy_a_bonus_card(bonus: str) -> None:
    assert bonus_points(bonus, h("star star star ring ring ring"), "C") == 0


def test_bonus_cards_count_each_matching_card() -> None:
    six = h("C1 C1 C1 W7 W8 W9")
    assert bonus_points("new_moon", six, "R") == 45
    assert bonus_points("thick_moon", six, "R") == 30
    assert bonus_points("full_moon", six, "R") == 15
    assert bonus_points("odd", six, "R") == 50
    assert bonus_points("even", six, "R") == 10
    assert bonus_points("crescent", six, "R") == 45
    assert bonus_points("water", six, "R") == 45
    assert bonus_points("sweep", six, "R") == 0
    assert bonus_points("off_crest", six, "C") == 30
    assert bonus_points("half_moon", h("W4 W5 W6 R5 R5 R5"), "C") == 60
    assert bonus_points("thin_moon", h("W2 W2 W2 R3 R3 R3"), "C") == 90


# --- payments and the worked examples ----------------------------------------------------------


def test_the_dealer_total_is_one_and_a_half_times_rounded_up() -> None:
    assert payments(50, dealer=True, self_draw=False, players=4)["total"] == 75
    assert payments(85, dealer=True, self_draw=False, players=4)["total"] == 128


def test_own_draw_every_other_player_pays_the_total_divided_rounded_up() -> None:
    assert payments(100, dealer=False, self_draw=True, players=3) == {
        "total": 100, "each": 50, "payers": 2, "gain": 100,
    }  # fmt: skip
    assert payments(110, dealer=False, self_draw=True, players=4)["each"] == 37


def test_on_a_discard_the_discarder_pays_the_whole_total() -> None:
    assert payments(110, dealer=False, self_draw=False, players=4) == {
        "total": 110, "each": 110, "payers": 1, "gain": 110,
    }  # fmt: skip


def test_worked_example_pure_pair_on_own_draw_not_dealer_four_players() -> None:
    """Triplets 80 + pure pair 180 = 260; 260 / 3 rounds up to 87 from each; the winner +261."""
    six = h("W4 W4 W4 W6 W6 W6")
    assert hand_points(six, "C") == 260
    assert payments(260, dealer=False, self_draw=True, players=4) == {
        "total": 260, "each": 87, "payers": 3, "gain": 261,
    }  # fmt: skip
    full = win_breakdown(six, "C", None, dealer=False, self_draw=True, players=4)
    assert full["yaku"] == [{"id": "triplets", "points": 80}, {"id": "pure", "points": 180}]
    assert (full["hand_points"], full["each"], full["gain"]) == (260, 87, 261)


def test_worked_example_straight_won_on_a_discard_by_the_dealer() -> None:
    """Runs 50 + straight 60 = 110; × 1.5 = 165, all paid by the discarder."""
    six = h("R2 R3 R4 R5 R6 R7")
    assert hand_points(six, "C") == 110
    assert payments(110, dealer=True, self_draw=False, players=4) == {
        "total": 165, "each": 165, "payers": 1, "gain": 165,
    }  # fmt: skip
    full = win_breakdown(six, "C", None, dealer=True, self_draw=False, players=4)
    assert full["yaku"] == [{"id": "runs", "points": 50}, {"id": "straight", "points": 60}]
    assert full["split"] == [["R2", "R3", "R4"], ["R5", "R6", "R7"]]


def test_the_bonus_card_is_added_before_the_dealer_and_the_split() -> None:
    full = win_breakdown(
        h("R2 R3 R4 R5 R6 R7"), "C", "half_moon", dealer=True, self_draw=True, players=4
    )
    assert full["bonus"] == {"id": "half_moon", "points": 30}
    assert full["points"] == 140 and full["total"] == 210 and full["each"] == 70


def test_a_top_hand_still_adds_the_bonus_card() -> None:
    full = win_breakdown(h("C1 C1 C1 W1 W1 W1"), "R", "new_moon", False, False, 4)
    assert full["top"] is True
    assert full["yaku"] == [{"id": "six_ones", "points": 400}]
    assert full["points"] == 400 + 90


def test_payments_refuse_nonsense() -> None:
    for bad in (-1, 1.5, True):
        with pytest.raises(ValueError):
            payments(bad, False, True, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        payments(10, False, True, 5)
    with pytest.raises(ValueError):
        win_breakdown(h("C1 C2 C4 W5 W6 W7"), "R", None, False, True, 4)
    with pytest.raises(ValueError):
        hand_points(h("C1 C2 C3 W5 W6 W7"), "X")


def test_a_hand_is_worth_the_same_on_own_draw_and_on_a_discard_only_the_payers_differ() -> None:
    six = h("C2 C3 C4 W5 W5 W5")
    drawn = win_breakdown(six, "R", "odd", dealer=False, self_draw=True, players=3)
    claimed = win_breakdown(six, "R", "odd", dealer=False, self_draw=False, players=3)
    assert drawn["total"] == claimed["total"] == 60 + 40
    assert (drawn["payers"], drawn["each"]) == (2, 50)
    assert (claimed["payers"], claimed["each"]) == (1, 100)
