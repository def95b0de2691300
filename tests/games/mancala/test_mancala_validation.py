"""Mancala's option validation and illegal actions: each bad input is refused by name.

A refused action raises ``IllegalAction`` and leaves the state exactly as it was.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

import pytest

from asobiba.core.errors import GameError, IllegalAction, InvalidOptions
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.games.mancala import MancalaState

GAME = get_game("mancala")
DEFAULTS = {
    "variant": "kalah",
    "seeds": 4,
    "capture": "standard",
    "count_leftovers": True,
    "pits": 6,
}


# --- options -------------------------------------------------------------------------------------


def test_options_default_to_kalah_four_stones_standard_capture_leftovers_counted() -> None:
    resolved = GAME.resolve_options({})
    assert resolved == DEFAULTS
    assert (
        rule_key(resolved) == "capture=standard,count_leftovers=true,pits=6,seeds=4,variant=kalah"
    )


def test_options_resolved_form_is_what_the_state_and_observation_carry() -> None:
    options = {"capture": "empty", "seeds": 5}
    observed = GAME.observe(GAME.new_state(options, 2, 0), None)["options"]
    assert observed == GAME.resolve_options(options) == {**DEFAULTS, **options}


def test_options_basic_drops_the_kalah_only_options() -> None:
    assert GAME.resolve_options({"variant": "basic"}) == {"variant": "basic", "seeds": 4, "pits": 6}


def test_options_basic_given_kalah_only_options_at_their_defaults_resolves_the_same() -> None:
    """A form that always sends every key still names one rule set."""
    given = {"variant": "basic", "capture": "standard", "count_leftovers": True}
    assert GAME.resolve_options(given) == GAME.resolve_options({"variant": "basic"})


@pytest.mark.parametrize(("key", "value"), [("capture", "none"), ("count_leftovers", False)])
def test_options_kalah_only_option_changed_under_basic_is_refused(key: str, value: Any) -> None:
    with pytest.raises(InvalidOptions, match=f"{key}.*variant is 'kalah'"):
        GAME.resolve_options({"variant": "basic", key: value})


def test_options_unknown_key_is_refused_by_name() -> None:
    with pytest.raises(InvalidOptions, match="unknown option 'stones'"):
        GAME.resolve_options({"stones": 4})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("variant", "oware"),
        ("variant", "Kalah"),
        ("seeds", 2),
        ("seeds", 7),
        ("capture", "always"),
        ("count_leftovers", "yes"),
        ("pits", 7),
        ("seeds", None),
    ],
)
def test_options_value_outside_the_declared_set_is_refused_by_name(key: str, value: Any) -> None:
    with pytest.raises(InvalidOptions, match=f"option '{key}' cannot be {value!r}"):
        GAME.resolve_options({key: value})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("count_leftovers", 1),
        ("count_leftovers", 0),
        ("seeds", 4.0),
        ("seeds", "4"),
        ("pits", 6.0),
        ("variant", b"kalah"),
    ],
)
def test_options_equal_looking_value_of_another_type_is_refused(key: str, value: Any) -> None:
    """``True`` is not ``1`` and ``4.0`` is not ``4``: values must have the declared type."""
    with pytest.raises(InvalidOptions, match=key):
        GAME.resolve_options({key: value})


@pytest.mark.parametrize("options", [None, [], "kalah", [("variant", "kalah")]])
def test_options_that_are_not_an_object_are_refused(options: Any) -> None:
    with pytest.raises(InvalidOptions, match="options must be an object"):
        GAME.new_state(options, 2, 0)


@pytest.mark.parametrize("seats", [0, 1, 3, True, 2.0, "2", None])
def test_mancala_needs_exactly_two_seats(seats: Any) -> None:
    with pytest.raises(InvalidOptions, match="exactly 2 seats"):
        GAME.new_state({}, seats, 0)


def test_invalid_options_is_a_game_error_with_a_stable_code() -> None:
    assert issubclass(InvalidOptions, GameError)
    assert issubclass(GameError, ValueError)
    assert InvalidOptions.code == "invalid_options"
    assert IllegalAction.code == "illegal_action"


def test_same_options_seats_and_seed_give_the_same_game() -> None:
    assert GAME.new_state({"seeds": 5}, 2, 7) == GAME.new_state({"seeds": 5}, 2, 7)


# --- illegal actions -----------------------------------------------------------------------------


def refused(state: MancalaState, seat: Any, action: Any, match: str) -> None:
    """``apply`` raises ``IllegalAction`` matching ``match`` and leaves ``state`` as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(state, seat, action)
    assert state == before


@pytest.mark.parametrize(
    "action",
    [
        None,
        2,
        "2",
        [2],
        {},
        {"Pit": 2},
        {"pit": 2, "extra": 1},
        {"pit": 2, "seat": 0},
    ],
)
def test_malformed_action_is_refused_and_changes_nothing(action: Any) -> None:
    refused(GAME.new_state({}, 2, 0), 0, action, "an action is")


@pytest.mark.parametrize("pit", [True, False, "2", 2.0, None, [2], -1, 6, 99])
def test_pit_must_be_an_int_in_the_movers_range(pit: Any) -> None:
    refused(GAME.new_state({}, 2, 0), 0, {"pit": pit}, "pit must be an integer 0..5")


def test_pit_range_follows_the_pits_option() -> None:
    state = GAME.new_state({"pits": 3, "seeds": 3}, 2, 0)
    refused(state, 0, {"pit": 3}, "pit must be an integer 0..2")


def test_empty_pit_is_refused_and_changes_nothing() -> None:
    state = GAME.apply(GAME.new_state({}, 2, 0), 0, {"pit": 2})
    refused(state, 0, {"pit": 2}, "pit 2 is empty")


@pytest.mark.parametrize("seat", [1, 2, -1, None, "0"])
def test_seat_not_to_move_is_refused_and_changes_nothing(seat: Any) -> None:
    refused(GAME.new_state({}, 2, 0), seat, {"pit": 0}, "may not move now; seat 0 is to move")


@pytest.mark.parametrize("seat", [True, 1.0])
def test_seat_equal_to_the_mover_but_not_an_int_is_refused(seat: Any) -> None:
    """``True`` and ``1.0`` are not seat 1."""
    state = GAME.apply(GAME.new_state({}, 2, 0), 0, {"pit": 0})
    assert GAME.to_move(state) == {1}
    refused(state, seat, {"pit": 0}, "may not move now")
    assert GAME.legal_actions(state, seat) == []


def test_any_move_after_the_game_is_over_is_refused() -> None:
    start = GAME.new_state({}, 2, 0)
    last_stone = replace(start, board=(0, 0, 0, 0, 0, 1, 23, 0, 0, 0, 0, 0, 1, 23))
    over = GAME.apply(last_stone, 0, {"pit": 5})
    assert GAME.outcome(over) is not None
    for seat in (0, 1):
        refused(over, seat, {"pit": 0}, "the game is over")


def test_refused_action_leaves_the_state_playable() -> None:
    state = GAME.new_state({}, 2, 0)
    with pytest.raises(IllegalAction):
        GAME.apply(state, 1, {"pit": 0})
    assert GAME.apply(state, 0, {"pit": 2}).ply == 1


@pytest.mark.parametrize("seat", [2, -1, True, 1.0, "0"])
def test_observing_for_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    with pytest.raises(IllegalAction):
        GAME.observe(GAME.new_state({}, 2, 0), seat)  # type: ignore[arg-type]
