"""MOMOJAN's round set-up, the wall settlement and the match (dealer, stakes, the end), one test
per rule, each named for it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from asobiba.games.momojan import DECK, MomojanState
from tests.games.momojan.momojan_positions import (
    GAME,
    READY_ON_L5,
    dealer_ron,
    melds,
    play,
    position,
)

# --- set-up --------------------------------------------------------------------------------


def test_setup_points_40_each_and_the_child_puts_1_in_the_middle() -> None:
    state = GAME.new_state({}, 2, 7)
    assert state.points == (40, 39) and state.middle == 1 and state.dealer == 0


def test_setup_deal_7_each_4_aside_with_the_top_face_up_the_rest_in_3_piles() -> None:
    state = GAME.new_state({}, 2, 7)
    obs = GAME.observe(state, 0)
    assert obs["hand_sizes"] == [7, 7] and len(obs["hand"]) == 7
    assert obs["dora_indicator"] == state.dead[0] and obs["dead_wall"] == 3
    assert obs["piles"] == [13, 13, 12]
    everything = [
        *state.hands[0],
        *state.hands[1],
        *state.dead,
        *(c for p in state.piles for c in p),
    ]
    assert Counter(everything) == Counter(DECK)


def test_setup_is_deterministic_per_seed_and_differs_between_seeds() -> None:
    assert GAME.new_state({}, 2, 3) == GAME.new_state({}, 2, 3)
    assert GAME.new_state({}, 2, 3).hands != GAME.new_state({}, 2, 4).hands


def test_the_dealer_plays_first() -> None:
    assert GAME.to_move(GAME.new_state({}, 2, 1)) == frozenset({0})


# --- the wall settlement -------------------------------------------------------------------


def wall(
    hand0: str, hand1: str, melds0: tuple[str, ...], melds1: tuple[str, ...], **fields: object
) -> MomojanState:
    """The piles are out; seat 1 lets seat 0's last discard (dog) go."""
    state = position(
        hand0,
        hand1,
        melds0=melds(*melds0),
        melds1=melds(*melds1),
        piles=("", "", ""),
        turn=1,
        offer="sun",
        **fields,  # type: ignore[arg-type]
    )
    return play(state, {"type": "pass"})


def test_wall_both_ready_example_a_5_b_8_b_takes_half_the_difference_rounded_up() -> None:
    a = ("kai: L1 L2 L3", "kai: O1 O2 O3", "pon: dog dog dog")  # 2 + 2 + 1 = 5
    b = ("kai: S1 S2 S3", "kai: L7 L8 L9", "kai: O7 O8 O9", "pon: L6 O6 S6", "chi: S4 S5 M6")  # 8
    after = wall("moon", "monkey", a, b)
    result = after.results[-1]
    assert result.tenpai == (True, True) and result.open_points == (5, 8)
    assert result.winner == 1 and result.paid == 2
    assert result.points == (40 - 2, 39 + 2 + 1)  # the middle goes to the taker


def test_wall_open_sets_in_hand_do_not_count_only_open_ones() -> None:
    after = wall("moon L1 L2 L3", "S5 S6 S7 sun", ("kai: O1 O2 O3", "pon: dog dog dog"), ())
    assert after.results[-1].open_points == (3, 0)


def test_wall_a_player_not_ready_scores_0_however_many_sets_are_open() -> None:
    after = wall("moon", "L1 L5 O9 sun", ("kai: L2 L3 L4", "pon: dog dog dog", "chi: O1 O2 O3"),
                 ("kai: S1 S2 S3",))  # fmt: skip
    result = after.results[-1]
    assert result.tenpai == (True, False) and result.open_points == (4, 0)
    assert result.winner == 0 and result.paid == 2


def test_wall_ready_needs_a_wait_with_a_copy_outside_your_own_hand_and_sets() -> None:
    """Issue 31, point 1: seat 0's single L5 beside its own 開 of M5 O5 S5 waits on nothing
    (every other 5 is in that 開), so it is not ready and its 5 open points count 0. Seat 1's
    single L9 waits on M9, O9 and S9, all in seat 0's open sets: a dead wait, but ready, as in
    mahjong (the copies are the opponent's, not its own)."""
    after = wall(
        "L5",
        "L9",
        ("kai: M5 O5 S5", "kai: M9 O9 S9", "pon: dog dog dog"),
        ("kai: S1 S2 S3", "chi: L1 L2 L3", "pon: moon moon moon"),
    )
    result = after.results[-1]
    assert result.tenpai == (False, True) and result.open_points == (0, 4)
    assert result.winner == 1 and result.paid == 2


def test_wall_no_doubling_even_when_the_difference_is_7_or_more() -> None:
    seven_kai = tuple(f"kai: {f}1 {f}2 {f}3" for f in "LOS") + tuple(
        f"kai: {f}7 {f}8 {f}9" for f in "LOS"
    )
    after = wall("moon", "L5 O9 sun dog", (*seven_kai, "kai: M4 M5 M6"), ())
    result = after.results[-1]
    assert result.open_points == (14, 0) and result.paid == 7


def test_wall_equal_or_nobody_ready_nobody_takes_and_the_middle_stays() -> None:
    after = wall("L1 L5 O9 moon", "L2 L6 O8 sun", (), ())
    result = after.results[-1]
    assert result.tenpai == (False, False) and result.winner is None and result.paid == 0
    assert after.middle == 1 + 1  # left in the middle, plus the next round's stake


def test_wall_the_next_taker_collects_the_middle_left_over() -> None:
    after = wall("L1 L5 O9 moon", "L2 L6 O8 sun", (), ())
    assert after.dealer == 1 and after.middle == 2
    child_ron = replace(
        position(READY_ON_L5, "S5 S6 S7 S8", melds0=melds("kai: S1 S2 S3", "pon: dog dog dog"),
                 offer="L5", riichi=(True, False)),
        dealer=1, middle=after.middle, points=after.points, terms=after.terms,
    )  # fmt: skip
    won = play(child_ron, {"type": "ron"})
    assert won.results[-1].middle == 2


def test_wall_the_dealer_passes_even_when_ready() -> None:
    after = wall("moon", "monkey", ("kai: L1 L2 L3", "kai: O1 O2 O3", "kai: S1 S2 S3"), ())
    assert after.dealer == 1 and after.streak == 0


# --- dealer and stakes ---------------------------------------------------------------------


def test_dealer_win_keeps_the_deal_and_the_child_puts_in_one_more_per_repeat() -> None:
    won = dealer_ron()
    assert won.results[-1].paid == 3
    assert won.dealer == 0 and won.streak == 1 and won.stake == 2
    again = dealer_ron(streak=1, stake=2, middle=2)
    assert again.stake == 3


def test_a_child_win_passes_the_deal() -> None:
    won = play(
        position("S5 S6 S7 S8", READY_ON_L5, melds1=melds("kai: S1 S2 S3", "pon: dog dog dog"),
                 turn=1, offer="L5", riichi=(False, True)),
        {"type": "ron"},
    )  # fmt: skip
    assert won.dealer == 1 and won.streak == 0 and won.stake == 1


def test_game_ends_when_each_player_has_dealt_twice() -> None:
    after = wall("L1 L5 O9 moon", "L2 L6 O8 sun", (), (), terms=4, dealer=1)
    assert GAME.outcome(after) is not None and after.end == "dealerships"
    assert after.round_no == 1  # no new deal


def test_more_points_wins_and_a_tie_goes_to_the_first_dealer() -> None:
    tie = wall(
        "L1 L5 O9 moon", "L2 L6 O8 sun", (), (), terms=4, dealer=1, points=(30, 30), middle=0
    )
    assert GAME.outcome(tie) == {
        "scores": [30, 30], "winners": [0], "end": "dealerships", "rounds": 1, "margin": 0,
        "best_win": [None, None], "yaku": [[], []],
    }  # fmt: skip
    lead = wall("L1 L5 O9 moon", "L2 L6 O8 sun", (), (), terms=4, dealer=1, points=(29, 31))
    assert GAME.outcome(lead)["winners"] == [1]  # type: ignore[index]


def test_leftover_middle_points_go_to_the_winner_at_the_end() -> None:
    after = wall("L1 L5 O9 moon", "L2 L6 O8 sun", (), (), terms=4, dealer=1, points=(30, 20),
                 middle=3)  # fmt: skip
    assert GAME.outcome(after)["scores"] == [33, 20]  # type: ignore[index]


def test_a_dealer_who_wins_five_rounds_in_a_row_wins_the_game_at_once() -> None:
    won = dealer_ron(streak=4, stake=5, middle=5, points=(10, 60))
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome["end"] == "dealer_streak" and outcome["winners"] == [0]


def test_four_dealer_wins_in_a_row_play_on() -> None:
    won = dealer_ron(streak=3, stake=4, middle=4)
    assert GAME.outcome(won) is None and won.streak == 4 and won.stake == 5


def test_a_player_below_0_ends_the_game() -> None:
    below = dealer_ron(points=(40, 2))  # pays 3
    assert below.end == "below_zero" and GAME.outcome(below)["winners"] == [0]  # type: ignore[index]


def test_exactly_0_plays_on() -> None:
    won = dealer_ron(points=(40, 5))  # pays 3, then puts in the stake of 2
    assert won.points[1] == 0 and GAME.outcome(won) is None


def test_a_child_who_cannot_put_in_the_stake_loses() -> None:
    won = dealer_ron(points=(40, 4))  # pays 3, left with 1, owes 2
    assert won.end == "no_stake" and GAME.outcome(won)["winners"] == [0]  # type: ignore[index]


def test_designed_the_end_yaku_ends_the_game_won_by_its_maker() -> None:
    state = position(
        "sun sun moon moon",
        "L1 L2 L3 L4",
        melds0=melds(
            "pon: dog dog dog", "pon: monkey monkey monkey", "pon: pheasant pheasant pheasant"
        ),
        offer="moon",
        points=(10, 60),
    )  # fmt: skip
    won = play(state, {"type": "ron"})
    outcome = GAME.outcome(won)
    assert outcome is not None and outcome["end"] == "oshimai" and outcome["winners"] == [0]
