"""Each Mokochaka rule, and each corner the rulebook leaves open, one test apiece, named for it.

Tables are built by hand in card notation (``mokochaka_helpers.table``): hands top card first,
piles bottom card first (the last card shows). Times are seconds; the flip happens at 0 unless
a test says otherwise, so the call is due before 3.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.games.mokochaka import judge
from asobiba.games.mokochaka.bots import showing
from asobiba.games.mokochaka.data import DECK, FACES, NUMBERS, TABLE_IDS, designed_values
from asobiba.games.mokochaka.rules import new_deck
from tests.games.mokochaka.mokochaka_helpers import (
    GAME,
    call,
    cards,
    events,
    flip,
    grab,
    hand,
    penalties,
    pile,
    table,
    total_cards,
)

W = NUMBERS.grab_window
PAGES = Path(__file__).resolve().parents[3] / "asobiba" / "games" / "mokochaka"

# A table where seat 0 flips moko4 onto pile 2: showing paka3, gabu1, moko4 -> Moko 3 = Paka 3.
MOKOCHAKA = table(["moko4 pome1 paka2", "paka1 moko2", "gabu2 pome3"], ["paka3", "gabu1", "pome1"])
# Seat 0 flips moko3 onto pile 0: showing moko3, moko1, gabu1 -> Moko 3: the call is "moko".
PLAIN = table(["moko3 pome1 paka2", "paka1 moko2", "gabu2 pome3"], ["paka2", "moko1", "gabu1"])


# --- set-up --------------------------------------------------------------------------------------


def test_setup_deck_is_32_cards_10_moko_10_paka_6_pome_6_gabu() -> None:
    deck = new_deck()
    assert len(deck) == 32
    assert Counter(card.animal for card in deck) == {"moko": 10, "paka": 10, "pome": 6, "gabu": 6}
    assert DECK == {"moko": 10, "paka": 10, "pome": 6, "gabu": 6}


def test_setup_each_card_shows_one_to_four_animals_as_the_designed_faces_say() -> None:
    deck = new_deck()
    for animal, faces in FACES.items():
        counts = Counter(card.number for card in deck if card.animal == animal)
        assert [counts[n] for n in (1, 2, 3, 4)] == list(faces)
        assert all(faces), f"{animal} lacks a face, so some rulebook example could never occur"


@pytest.mark.parametrize("seats", range(2, 7))
def test_setup_three_piles_the_rest_dealt_evenly_leftovers_onto_the_piles(seats: int) -> None:
    state = GAME.new_state({}, seats, 7)
    each = (32 - 3) // seats
    assert [len(h) for h in state.hands] == [each] * seats
    sizes = [len(p) for p in state.piles]
    assert sum(sizes) == 3 + (32 - 3) % seats
    assert min(sizes) >= 1 and max(sizes) - min(sizes) <= 1, "leftovers go round the piles"
    everything = [c for h in state.hands for c in h] + [c for p in state.piles for c in p]
    assert sorted(everything) == sorted(new_deck())


def test_setup_is_the_same_for_the_same_seed_and_shuffled_by_it() -> None:
    assert GAME.new_state({}, 4, 11) == GAME.new_state({}, 4, 11)
    assert GAME.new_state({}, 4, 11).hands != GAME.new_state({}, 4, 12).hands


def test_setup_start_player_is_drawn_by_lot_and_announced() -> None:
    starts = {GAME.new_state({}, 4, seed).start_player for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    state = GAME.new_state({}, 4, 5)
    assert GAME.to_move(state) == {state.start_player} == {state.turn}
    assert events(state, "start") == [{"type": "start", "n": 1, "seat": state.start_player}]


def test_setup_has_no_timer_before_anyone_acts() -> None:
    """The engine does not know when the room starts the game; the first flip is not timed."""
    assert GAME.deadline(GAME.new_state({}, 3, 1)) is None


# --- a turn: flipping ----------------------------------------------------------------------------


def test_flip_puts_the_top_card_of_the_hand_face_up_on_the_chosen_pile() -> None:
    after = flip(PLAIN, 0, at=5.0)
    assert hand(after, 0) == "pome1 paka2"
    assert pile(after, 0) == "paka2 moko3"
    view = GAME.observe(after, None)
    assert view["piles"][0] == {"top": "moko3", "size": 2}
    assert (view["phase"], view["flip_at"], view["call_deadline"]) == ("call", 5.0, 8.0)
    assert events(after, "flip")[-1] | {"n": 0} == {
        "type": "flip", "n": 0, "seat": 0, "pile": 0, "card": "moko3", "at": 5.0, "auto": False
    }  # fmt: skip


def test_flip_card_shows_to_every_seat_at_once_and_never_before() -> None:
    before = [json.dumps(GAME.observe(PLAIN, v)) for v in (0, 1, 2, None)]
    assert not any("moko3" in text for text in before), "nobody, the flipper included, sees it"
    after = flip(PLAIN, 0)
    views = [GAME.observe(after, v) for v in (0, 1, 2, None)]
    assert all(view["piles"][0]["top"] == "moko3" for view in views)
    assert len({json.dumps({**view, "seat": None}) for view in views}) == 1


def test_flip_may_go_onto_any_of_the_three_piles() -> None:
    assert GAME.legal_actions(PLAIN, 0) == [{"flip": 0}, {"flip": 1}, {"flip": 2}]


def test_flip_with_fewer_than_three_piles_must_start_a_new_pile() -> None:
    state = replace(PLAIN, piles=(cards("paka2"), (), cards("gabu1")))
    assert GAME.legal_actions(state, 0) == [{"flip": 1}]
    with pytest.raises(IllegalAction, match="piles allowed: \\[1\\]"):
        flip(state, 0)
    assert pile(flip(state, 1), 1) == "moko3"


def test_flip_is_only_for_the_seat_whose_turn_it_is() -> None:
    assert GAME.legal_actions(PLAIN, 1) == []
    with pytest.raises(IllegalAction, match="may not act now"):
        GAME.apply(PLAIN, 1, {"flip": 0}, 0.0)


# --- a turn: the call ----------------------------------------------------------------------------


def test_call_the_flipper_may_say_any_word_of_the_vocabulary_and_others_may_only_grab() -> None:
    flipped = flip(PLAIN, 0)
    flipper = GAME.legal_actions(flipped, 0)
    assert len(flipper) == 15 + 3
    assert GAME.legal_actions(flipped, 1) == [
        {"grab": "mokochaka"}, {"grab": "chakamoko"}, {"grab": "chakamokochaka"}
    ]  # fmt: skip
    assert GAME.to_move(flipped) == {0, 1, 2}


def test_call_right_and_in_time_ends_the_turn_and_play_goes_clockwise() -> None:
    after = call(flip(PLAIN, 0), "moko", 1.2)
    assert penalties(after) == []
    assert (after.phase, after.turn) == ("flip", 1)
    assert events(after, "judgement")[-1]["correct"] == ["moko"]


def test_call_just_under_three_seconds_is_in_time() -> None:
    after = call(flip(PLAIN, 0), "moko", 2.999)
    assert penalties(after) == []


def test_call_taking_three_seconds_or_more_is_a_penalty() -> None:
    after = call(flip(PLAIN, 0), "moko", 3.0)
    assert penalties(after) == [(0, "too_slow")]


def test_call_missing_when_the_three_seconds_run_out_is_a_penalty() -> None:
    flipped = flip(PLAIN, 0)
    assert GAME.deadline(flipped) == 3.0
    assert GAME.advance(flipped, 2.99) == flipped
    assert penalties(GAME.advance(flipped, 3.0)) == [(0, "too_slow")]


def test_call_wrong_word_is_a_penalty() -> None:
    after = call(flip(PLAIN, 0), "mokomoko", 0.8)
    assert penalties(after) == [(0, "wrong_call")]


def test_call_is_made_once() -> None:
    flipped = flip(MOKOCHAKA, 2)
    called = call(flipped, "mokopaka", 0.5)  # a special holds, so the phase stays open
    assert called.phase == "call" and 0 not in GAME.to_move(called)
    with pytest.raises(IllegalAction, match="may not act now"):
        call(called, "mokochaka", 0.6)


def test_call_normal_when_a_special_holds_is_wrong_because_specials_take_priority() -> None:
    called = call(flip(MOKOCHAKA, 2), "pakamoko", 0.5)
    assert GAME.to_move(called) == {1, 2}, "the race stays open to the others"
    settled = GAME.advance(called, 3.0)
    assert penalties(settled) == [(0, "wrong_call")]


# --- special calls and the token -----------------------------------------------------------------


def test_special_any_seat_may_grab_while_calling_and_the_first_right_grab_wins() -> None:
    raced = grab(flip(MOKOCHAKA, 2), 2, "mokochaka", 0.5)
    assert raced.window_end == 0.5 + W and GAME.deadline(raced) == 0.5 + W
    won = GAME.advance(raced, 0.5 + W)
    assert events(won, "token")[-1] | {"n": 0} == {
        "type": "token", "n": 0, "seat": 2, "word": "mokochaka", "at": 0.5
    }  # fmt: skip
    assert penalties(won) == [], "the flipper owes no call once someone has the token"
    assert won.phase == "take" and GAME.to_move(won) == {2}


def test_special_the_flipper_may_grab_too() -> None:
    won = GAME.advance(grab(flip(MOKOCHAKA, 2), 0, "mokochaka", 0.4), 1.0)
    assert events(won, "token")[-1]["seat"] == 0


def test_token_winner_takes_two_piles_to_the_bottom_of_their_hand() -> None:
    won = GAME.advance(grab(flip(MOKOCHAKA, 2), 2, "mokochaka", 0.5), 1.0)
    assert GAME.legal_actions(won, 2) == [{"take": [0, 1]}, {"take": [0, 2]}, {"take": [1, 2]}]
    taken = GAME.apply(won, 2, {"take": [2, 0]}, 1.5)
    assert hand(taken, 2) == "gabu2 pome3 paka3 pome1 moko4"
    assert [pile(taken, i) for i in range(3)] == ["", "gabu1", ""]
    assert events(taken, "take")[-1]["cards"] == 3


def test_token_play_resumes_with_the_winner() -> None:
    won = GAME.advance(grab(flip(MOKOCHAKA, 2), 2, "mokochaka", 0.5), 1.0)
    taken = GAME.apply(won, 2, {"take": [0, 1]}, 1.5)
    assert (taken.phase, taken.turn) == ("flip", 2)


def test_token_with_two_players_takes_one_pile() -> None:
    two = table(["moko4 pome1", "gabu2 pome3"], ["paka3", "gabu1", "pome1"])
    won = GAME.advance(grab(flip(two, 2), 1, "mokochaka", 0.5), 1.0)
    assert GAME.legal_actions(won, 1) == [{"take": [0]}, {"take": [1]}, {"take": [2]}]
    assert hand(GAME.apply(won, 1, {"take": [1]}, 1.2), 1) == "gabu2 pome3 gabu1"


def test_token_chakamokochaka_also_takes_the_top_card_of_every_other_hand() -> None:
    # Showing pome2, paka2, moko2: two of each.
    state = table(
        ["moko2 gabu1", "paka1 moko3", "pome4 gabu3", "paka4"], ["pome2", "paka2", "gabu4"]
    )
    flipped = flip(state, 2)
    assert events(GAME.advance(flipped, 3.0), "judgement")[-1]["correct"] == ["chakamokochaka"]
    won = GAME.advance(grab(flipped, 1, "chakamokochaka", 0.5), 1.0)
    taken = GAME.apply(won, 1, {"take": [0, 1]}, 1.2)
    assert hand(taken, 1) == "paka1 moko3 pome2 paka2 pome4 paka4 gabu1"
    assert [hand(taken, s) for s in (0, 2, 3)] == ["", "gabu3", ""]
    assert events(taken, "bonus")[-1] | {"n": 0} == {
        "type": "bonus", "n": 0, "seat": 1, "donors": [2, 3, 0], "cards": 3, "at": 1.2
    }  # fmt: skip


def test_token_either_special_wins_when_mokochaka_and_chakamoko_both_hold() -> None:
    # Showing pome2, paka2, moko1: both specials.
    state = table(["moko1 gabu1", "paka1", "pome4"], ["pome2", "paka2", "gabu4"])
    for word in ("mokochaka", "chakamoko"):
        won = GAME.advance(grab(flip(state, 2), 1, word, 0.5), 1.0)
        assert events(won, "token")[-1]["seat"] == 1 and penalties(won) == []


def test_token_goes_to_the_earliest_grab_by_time_not_by_arrival() -> None:
    flipped = flip(MOKOCHAKA, 2)
    raced = grab(grab(flipped, 1, "mokochaka", 0.6), 2, "mokochaka", 0.5)
    won = GAME.advance(raced, 1.0)
    assert events(won, "token")[-1]["seat"] == 2


def test_token_tie_in_time_goes_to_the_grab_that_arrived_first() -> None:
    raced = grab(grab(flip(MOKOCHAKA, 2), 2, "mokochaka", 0.5), 1, "mokochaka", 0.5)
    assert events(GAME.advance(raced, 1.0), "token")[-1]["seat"] == 2


def test_grab_when_no_special_holds_is_a_penalty() -> None:
    settled = GAME.advance(grab(flip(PLAIN, 0), 1, "mokochaka", 0.5), 1.0)
    assert penalties(settled) == [(1, "false_grab")]


def test_grab_with_a_special_word_that_does_not_hold_is_a_penalty() -> None:
    settled = GAME.advance(grab(flip(MOKOCHAKA, 2), 1, "chakamoko", 0.5), 1.0)
    assert penalties(settled) == [(1, "wrong_special")]
    assert events(settled, "token") == []


def test_grab_always_carries_its_call() -> None:
    """Grabbing before calling cannot happen: a grab with no special word is refused."""
    flipped = flip(MOKOCHAKA, 2)
    for bad in (None, "", "moko", "MOKOCHAKA"):
        with pytest.raises(IllegalAction, match="grab must be one of"):
            GAME.apply(flipped, 1, {"grab": bad}, 0.5)


def test_grab_latency_compensated_earlier_than_the_latest_time_is_accepted() -> None:
    raced = grab(flip(MOKOCHAKA, 2, at=10.0), 1, "mokochaka", 10.9)
    late_arrival = grab(raced, 2, "mokochaka", 10.7)
    assert events(GAME.advance(late_arrival, 12.0), "token")[-1]["seat"] == 2


def test_grab_timed_before_the_flip_is_refused() -> None:
    flipped = flip(MOKOCHAKA, 2, at=10.0)
    with pytest.raises(IllegalAction, match="before the flip"):
        grab(flipped, 1, "mokochaka", 9.9)


# --- penalties -----------------------------------------------------------------------------------


def test_penalty_gives_the_top_card_to_a_chosen_player_who_puts_it_at_the_bottom() -> None:
    wrong = call(flip(PLAIN, 0), "paka", 0.5)
    assert wrong.phase == "give" and GAME.to_move(wrong) == {0}
    assert GAME.legal_actions(wrong, 0) == [{"give": 1}, {"give": 2}]
    paid = GAME.apply(wrong, 0, {"give": 2}, 1.0)
    assert (hand(paid, 0), hand(paid, 2)) == ("paka2", "gabu2 pome3 pome1")


def test_penalty_play_resumes_left_of_the_penalized_player() -> None:
    paid = GAME.apply(call(flip(PLAIN, 0), "paka", 0.5), 0, {"give": 2}, 1.0)
    assert (paid.phase, paid.turn) == ("flip", 1)
    grabbed = GAME.advance(grab(flip(PLAIN, 0), 2, "mokochaka", 0.5), 1.0)
    paid = GAME.apply(grabbed, 2, {"give": 1}, 1.5)
    assert paid.turn == 0


def test_penalty_with_two_players_gives_two_cards_without_asking() -> None:
    two = table(["moko3 pome1 paka2", "gabu2"], ["paka2", "moko1", "gabu1"])
    paid = call(flip(two, 0), "paka", 0.5)
    assert (hand(paid, 0), hand(paid, 1)) == ("", "gabu2 pome1 paka2")
    assert events(paid, "give")[-1]["how"] == "forced"


def test_corner_penalty_with_too_few_cards_gives_what_is_left() -> None:
    two = table(["moko3 pome1", "gabu2"], ["paka2", "moko1", "gabu1"])
    paid = call(flip(two, 0), "paka", 0.5)
    assert (hand(paid, 0), hand(paid, 1)) == ("", "gabu2 pome1")
    assert events(paid, "give")[-1]["cards"] == 1


def test_corner_penalty_with_no_cards_gives_nothing() -> None:
    state = table(["moko3", "gabu2", "paka1"], ["paka2", "moko1", "gabu1"])
    paid = call(flip(state, 0), "paka", 0.5)
    give = events(paid, "give")[-1]
    assert (give["cards"], give["to"], paid.phase) == (0, None, "over")


# --- corners the rulebook leaves open ------------------------------------------------------------


def test_corner_special_that_nobody_grabs_in_time_penalizes_the_flipper() -> None:
    settled = GAME.advance(flip(MOKOCHAKA, 2), 3.0)
    assert penalties(settled) == [(0, "too_slow")]


def test_corner_wrong_and_right_grab_in_one_race_right_wins_wrong_is_penalized() -> None:
    raced = grab(grab(flip(MOKOCHAKA, 2), 1, "chakamoko", 0.3), 2, "mokochaka", 0.4)
    won = GAME.advance(raced, 1.0)
    assert events(won, "token")[-1]["seat"] == 2
    assert penalties(won) == [(1, "wrong_special")]
    assert won.phase == "take", "the bonus comes before the penalty"
    taken = GAME.apply(won, 2, {"take": [0, 1]}, 1.1)
    assert taken.phase == "give" and GAME.to_move(taken) == {1}
    paid = GAME.apply(taken, 1, {"give": 0}, 1.2)
    assert (paid.phase, paid.turn) == ("flip", 2), "play resumes with the token winner"


def test_corner_a_special_word_said_without_grabbing_is_a_wrong_call() -> None:
    called = call(flip(MOKOCHAKA, 2), "mokochaka", 0.5)
    assert penalties(GAME.advance(called, 3.0)) == [(0, "wrong_call")]


def test_corner_false_grab_ends_the_turn_and_the_flipper_owes_no_call() -> None:
    settled = GAME.advance(grab(flip(PLAIN, 0), 1, "chakamoko", 0.5), 0.5 + W)
    assert penalties(settled) == [(1, "false_grab")]


def test_corner_the_flippers_call_in_an_open_race_is_judged_when_it_closes() -> None:
    raced = grab(flip(PLAIN, 0), 1, "chakamoko", 0.5)
    wrong = call(raced, "paka", 0.6)
    assert wrong.phase == "call", "the race is still open"
    settled = GAME.advance(wrong, 1.0)
    assert penalties(settled) == [(1, "false_grab"), (0, "wrong_call")]
    right = GAME.advance(call(raced, "moko", 0.6), 1.0)
    assert penalties(right) == [(1, "false_grab")]


def test_corner_several_penalties_are_paid_in_time_order_and_play_resumes_left_of_the_first() -> (
    None
):
    raced = grab(grab(flip(PLAIN, 0), 2, "mokochaka", 0.5), 1, "chakamoko", 0.45)
    settled = GAME.advance(raced, 1.0)
    assert penalties(settled) == [(1, "false_grab"), (2, "false_grab")]
    assert GAME.to_move(settled) == {1}
    paid = GAME.apply(GAME.apply(settled, 1, {"give": 0}, 1.1), 2, {"give": 0}, 1.2)
    assert (paid.phase, paid.turn) == ("flip", 2)


def test_corner_grab_at_three_seconds_or_more_is_too_slow_and_cannot_win() -> None:
    raced = grab(flip(MOKOCHAKA, 2), 1, "mokochaka", 3.0)
    settled = GAME.advance(raced, 4.0)
    assert events(settled, "token") == []
    assert penalties(settled) == [(1, "too_slow")]


def test_corner_grab_applied_after_the_window_but_before_it_was_closed_joins_by_its_time() -> None:
    raced = grab(flip(MOKOCHAKA, 2), 1, "mokochaka", 0.5)
    joined = grab(raced, 2, "mokochaka", 0.5 + W + 0.5)
    assert events(GAME.advance(joined, 2.0), "token")[-1]["seat"] == 1


def test_corner_fewer_than_three_piles_the_call_counts_the_cards_showing() -> None:
    state = table(["moko2 paka1", "gabu1", "pome1"], ["paka2", "", ""])
    flipped = flip(state, 1)
    assert GAME.observe(flipped, None)["piles"][2] == {"top": None, "size": 0}
    won = GAME.advance(grab(flipped, 1, "mokochaka", 0.5), 1.0)
    assert events(won, "token")[-1]["seat"] == 1


def test_corner_token_winner_takes_every_pile_when_there_are_no_more_than_the_rule_says() -> None:
    state = table(["moko2 paka1", "gabu1", "pome1"], ["paka2", "", ""])
    won = GAME.advance(grab(flip(state, 1), 1, "mokochaka", 0.5), 1.0)
    assert won.phase == "flip" and won.turn == 1, "no choice to ask"
    assert hand(won, 1) == "gabu1 paka2 moko2"
    assert [pile(won, i) for i in range(3)] == ["", "", ""]
    assert GAME.legal_actions(won, 1) == [{"flip": 0}]
    assert events(won, "take")[-1]["how"] == "forced"


# --- the end -------------------------------------------------------------------------------------


def test_end_when_a_player_flips_their_last_card_and_the_turn_is_over() -> None:
    state = table(["moko3", "paka1 moko2", "gabu2 pome3"], ["paka2", "moko1", "gabu1"])
    flipped = flip(state, 0)
    assert GAME.outcome(flipped) is None, "the turn is not over before the call"
    over = call(flipped, "moko", 0.7)
    assert over.phase == "over" and GAME.to_move(over) == frozenset()
    assert GAME.deadline(over) is None and GAME.legal_actions(over, 1) == []
    assert events(over, "end")[-1]["emptied"] == [0]


def test_end_cards_won_back_in_the_same_turn_keep_the_player_in() -> None:
    state = table(["moko4", "paka1 moko2", "gabu2 pome3"], ["paka3", "gabu1", "pome1"])
    won = GAME.advance(grab(flip(state, 2), 0, "mokochaka", 0.5), 1.0)
    taken = GAME.apply(won, 0, {"take": [0, 2]}, 1.1)
    assert taken.phase == "flip" and hand(taken, 0) == "paka3 pome1 moko4"


def test_end_most_cards_without_counting_gabu_wins() -> None:
    state = table(["moko3", "gabu1 gabu2 gabu3 paka1", "pome1 moko2"], ["paka2", "moko1", "gabu1"])
    outcome = GAME.outcome(call(flip(state, 0), "moko", 0.7))
    assert outcome is not None
    assert outcome["scores"] == [0, 1, 2] and outcome["winners"] == [2]
    assert outcome["cards"] == [0, 4, 2] and outcome["gabu"] == [0, 3, 0]


def test_end_ties_share_the_win() -> None:
    state = table(["moko3", "paka1 gabu1", "pome1"], ["paka2", "moko1", "gabu1"])
    outcome = GAME.outcome(call(flip(state, 0), "moko", 0.7))
    assert outcome is not None and outcome["winners"] == [1, 2]


def test_end_outcome_keeps_each_seats_fastest_correct_call() -> None:
    state = table(["moko3 paka4", "paka1 moko2", "gabu2"], ["paka2", "moko1", "gabu1"])
    first = call(flip(state, 0, at=0.0), "moko", 1.25)
    assert first.turn == 1
    # Seat 1 flips paka1 onto pile 2: showing moko3, moko1, paka1 -> Moko 4, Paka 1.
    second = call(flip(first, 2, at=2.0), "mokopaka", 2.5)
    # Seat 2 flips its last card and calls late: a penalty with nothing to give, then the end.
    over = call(flip(second, 0, at=3.0), "paka", 6.5)
    outcome = GAME.outcome(over)
    assert outcome is not None
    assert outcome["fastest_call"] == [1.25, 0.5, None]


def test_end_a_hand_emptied_by_a_penalty_ends_the_game_when_the_turn_is_over() -> None:
    state = table(["moko3 pome2", "paka1", "gabu2 pome3"], ["paka2", "moko1", "gabu1"])
    settled = GAME.advance(grab(flip(state, 0), 1, "mokochaka", 0.5), 1.0)
    paid = GAME.apply(settled, 1, {"give": 2}, 1.5)
    assert paid.phase == "over" and events(paid, "end")[-1]["emptied"] == [1]


# --- timers that keep an idle player from stalling the table -------------------------------------


def test_timer_an_idle_flipper_flips_onto_the_first_allowed_pile() -> None:
    state = replace(PLAIN, piles=(cards("paka2"), (), cards("gabu1")), since=4.0, now=4.0)
    assert GAME.deadline(state) == 4.0 + NUMBERS.flip_seconds
    flipped = GAME.advance(state, 4.0 + NUMBERS.flip_seconds)
    assert pile(flipped, 1) == "moko3" and flipped.phase == "call"
    assert events(flipped, "flip")[-1]["auto"] is True


def test_timer_an_idle_token_winner_takes_the_lowest_numbered_piles() -> None:
    won = GAME.advance(grab(flip(MOKOCHAKA, 2), 2, "mokochaka", 0.5), 1.0)
    taken = GAME.advance(won, 0.5 + W + NUMBERS.choice_seconds)
    assert events(taken, "take")[-1]["piles"] == [0, 1]
    assert events(taken, "take")[-1]["how"] == "timeout"


def test_timer_an_idle_penalized_player_gives_to_the_left_neighbour() -> None:
    wrong = call(flip(PLAIN, 0), "paka", 0.5)
    assert GAME.deadline(wrong) == 0.5 + NUMBERS.choice_seconds
    paid = GAME.advance(wrong, 0.5 + NUMBERS.choice_seconds)
    assert events(paid, "give")[-1]["to"] == 1 and hand(paid, 1) == "paka1 moko2 pome1"


def test_timer_advance_applies_every_due_event_in_order() -> None:
    state = replace(PLAIN, since=0.0, now=0.0)
    later = GAME.advance(state, 23.0)
    kinds = [(e["type"], e["at"]) for e in GAME.observe(later, None)["events"][1:]]
    flip_at, call_due = NUMBERS.flip_seconds, NUMBERS.flip_seconds + NUMBERS.call_seconds
    assert kinds == [
        ("flip", flip_at), ("judgement", call_due), ("penalty", call_due),
        ("give", call_due + NUMBERS.choice_seconds),
    ]  # fmt: skip
    assert (later.phase, later.turn) == ("flip", 1)
    assert GAME.deadline(later) == call_due + NUMBERS.choice_seconds + NUMBERS.flip_seconds
    assert total_cards(later) == total_cards(state)


def test_timer_advance_before_anything_is_due_changes_nothing() -> None:
    flipped = flip(PLAIN, 0)
    assert GAME.advance(flipped, 1.0) is flipped


def test_corner_a_race_closing_with_only_wrong_grabs_settles_the_turn_and_excuses_the_flipper() -> (
    None
):
    settled = GAME.advance(grab(flip(MOKOCHAKA, 2), 1, "chakamoko", 0.5), 0.5 + W)
    assert penalties(settled) == [(1, "wrong_special")], "no too_slow for the silent flipper"
    assert events(settled, "token") == [] and settled.phase == "give"
    paid = GAME.apply(settled, 1, {"give": 2}, 1.0)
    assert (paid.phase, paid.turn) == ("flip", 2)


def test_all_three_kinds_equal_only_chakamokochaka_is_right_a_designed_ruling() -> None:
    """Issue 20: with Moko, Paka and Pome all showing in equal numbers, Chakamoko's own
    condition holds too, and the rulebook is silent. asobiba's ruling (data.toml
    ``all_three_equal``, both rule pages): only Chakamokochaka is right; Chakamoko and
    Mokochaka grabs are penalized."""
    state = table(["moko2 gabu1", "paka1 moko3", "pome4 gabu3"], ["pome2", "paka2", "gabu4"])
    flipped = flip(state, 2)
    assert judge(showing(GAME.observe(flipped, None))) == {"chakamokochaka"}
    settled = GAME.advance(grab(grab(flipped, 1, "chakamoko", 0.5), 2, "mokochaka", 0.6), 1.0)
    assert penalties(settled) == [(1, "wrong_special"), (2, "wrong_special")]
    row = designed_values()[TABLE_IDS.index("all_three_equal")]
    assert row.source == "designed" and "Chakamokochaka" in row.value["en"] and row.reason["en"]
    for lang, words in (("en", "only Chakamokochaka is right"), ("ja", "チャカモコチャカだけ")):
        page = (PAGES / f"rules.{lang}.md").read_text(encoding="utf-8")
        decisions = page.split("\n## ")[-1]
        assert words in page and words in decisions, lang
