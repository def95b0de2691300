"""Mokochaka's refusals: bad options, seat counts, actions, times and seats, each named in the
error, and a refused action leaves the state exactly as it was."""

from __future__ import annotations

import copy
import math
from typing import Any

import pytest

from asobiba.core.errors import GameError, IllegalAction, InvalidOptions
from asobiba.games.mokochaka import MokochakaState
from tests.games.mokochaka.mokochaka_helpers import GAME, call, flip, grab, table

PLAIN = table(["moko3 pome1 paka2", "paka1 moko2", "gabu2 pome3"], ["paka2", "moko1", "gabu1"])
CALLING = flip(PLAIN, 0)
MOKOCHAKA = table(["moko4 pome1", "paka1 moko2", "gabu2 pome3"], ["paka3", "gabu1", "pome1"])
TAKING = GAME.advance(grab(flip(MOKOCHAKA, 2), 2, "mokochaka", 0.5), 1.0)
GIVING = call(CALLING, "paka", 0.5)


def refused(state: MokochakaState, seat: Any, action: Any, match: str, at: Any = 0.5) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(state, seat, action, at)
    assert state == before


# --- options and set-up --------------------------------------------------------------------------


def test_options_there_are_none_and_the_resolved_form_is_empty() -> None:
    assert GAME.options_spec() == [] and GAME.resolve_options({}) == {}
    assert GAME.observe(GAME.new_state({}, 3, 0), None)["options"] == {}


def test_options_unknown_key_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="unknown option 'speed'"):
        GAME.new_state({"speed": 2}, 3, 0)


@pytest.mark.parametrize("seats", [0, 1, 7, True, 2.0, "3", None])
def test_seat_count_outside_two_to_six_is_refused(seats: Any) -> None:
    with pytest.raises(InvalidOptions, match="2 to 6 seats"):
        GAME.new_state({}, seats, 0)


@pytest.mark.parametrize("seed", [1.5, "1", None, True])
def test_seed_must_be_an_integer(seed: Any) -> None:
    with pytest.raises(InvalidOptions, match="seed must be an integer"):
        GAME.new_state({}, 3, seed)


def test_errors_carry_stable_codes() -> None:
    assert issubclass(IllegalAction, GameError) and IllegalAction.code == "illegal_action"
    assert InvalidOptions.code == "invalid_options"


# --- malformed actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [None, [], "flip", {}, {"flip": 0, "call": "moko"}],
)
def test_action_that_is_not_an_object_with_one_key_is_refused(action: Any) -> None:
    refused(PLAIN, 0, action, "an action is an object with one key")


def test_action_with_an_unknown_key_is_refused() -> None:
    refused(PLAIN, 0, {"pass": True}, "'pass' is not an action seat 0 may take")


@pytest.mark.parametrize("value", [True, False, 1.0, "0", None, 3, -1, [0]])
def test_flip_pile_must_be_an_allowed_integer(value: Any) -> None:
    refused(PLAIN, 0, {"flip": value}, "cannot flip onto pile")


def test_action_of_another_phase_is_refused() -> None:
    refused(PLAIN, 0, {"call": "moko"}, "not an action seat 0 may take in the flip phase")
    refused(CALLING, 1, {"call": "moko"}, "not an action seat 1 may take")
    refused(CALLING, 0, {"flip": 1}, "not an action")
    refused(TAKING, 2, {"give": 0}, "not an action")


@pytest.mark.parametrize("word", [None, 1, "", "Moko", "mokopome", "pakapakapaka", ["moko"]])
def test_call_must_be_a_word_of_the_vocabulary(word: Any) -> None:
    refused(CALLING, 0, {"call": word}, "call must be one of")


@pytest.mark.parametrize(
    "value", [[0], [0, 0], [0, 1, 2], [True, False], [0.0, 1.0], "0,1", None, 1, [0, 3]]
)
def test_take_must_list_an_allowed_set_of_piles(value: Any) -> None:
    refused(TAKING, 2, {"take": value}, "take must list piles")


def test_take_accepts_the_piles_in_any_order() -> None:
    assert GAME.apply(TAKING, 2, {"take": [1, 0]}, 1.5) == GAME.apply(
        TAKING, 2, {"take": [0, 1]}, 1.5
    )


@pytest.mark.parametrize("value", [0, 3, -1, True, 1.0, "1", None])
def test_give_must_name_another_seat(value: Any) -> None:
    refused(GIVING, 0, {"give": value}, "give must name another seat")


# --- who and when --------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, True, None, "0", 1.0])
def test_seat_that_does_not_exist_is_refused(seat: Any) -> None:
    refused(PLAIN, seat, {"flip": 0}, "no seat")


def test_out_of_turn_is_refused() -> None:
    refused(PLAIN, 2, {"flip": 0}, "seat 2 may not act now")
    refused(TAKING, 0, {"take": [0, 1]}, "seat 0 may not act now")
    refused(grab(CALLING, 1, "mokochaka", 0.5), 1, {"grab": "mokochaka"}, "may not act now")


@pytest.mark.parametrize("at", [math.nan, math.inf, -math.inf, "1", True, [1]])
def test_time_must_be_a_finite_number(at: Any) -> None:
    refused(PLAIN, 0, {"flip": 0}, "at must be a finite number", at=at)
    with pytest.raises(IllegalAction, match="at must be a finite number"):
        GAME.advance(CALLING, at)


def test_call_timed_before_the_flip_is_refused() -> None:
    refused(flip(PLAIN, 0, at=5.0), 0, {"call": "moko"}, "before the flip", at=4.0)


def test_a_choice_timed_before_the_latest_time_counts_at_the_latest_time() -> None:
    later = flip(PLAIN, 0, at=5.0)
    assert flip(PLAIN, 0, at=5.0) == later
    assert GAME.apply(later, 0, {"call": "moko"}, None).now == 5.0


def test_the_game_over_refuses_everything() -> None:
    over = call(flip(table(["moko3", "paka1", "pome1"], ["paka2", "moko1", "gabu1"]), 0), "moko", 1)
    assert GAME.outcome(over) is not None
    refused(over, 1, {"flip": 0}, "the game is over")


# --- observation and bots ------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_observe_refuses_a_seat_that_does_not_exist(seat: Any) -> None:
    with pytest.raises(IllegalAction, match="or None"):
        GAME.observe(PLAIN, seat)


@pytest.mark.parametrize("seat", [-1, 3, True, "0", None])
def test_legal_actions_of_a_seat_that_does_not_exist_are_empty(seat: Any) -> None:
    assert GAME.legal_actions(PLAIN, seat) == []


def test_the_bot_levels_are_served_and_an_unknown_one_is_refused() -> None:
    assert GAME.levels == ["beginner", "casual", "strong", "expert"]
    assert GAME.level_names()["beginner"] == {"ja": "はじめて", "en": "Beginner"}
    bot = GAME.make_bot("expert", 3)
    legal = GAME.legal_actions(CALLING, 1)
    assert bot.choose(GAME.observe(CALLING, 1), legal) in legal
    with pytest.raises(InvalidOptions, match="unknown level"):
        GAME.make_bot("random", 3)
