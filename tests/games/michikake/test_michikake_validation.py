"""Bad input to the MICHIKAKE engine: every malformed or illegal action, option, seat count and
time is refused with a typed error naming what was wrong, and the state is left unchanged."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.games import get_game
from asobiba.games.michikake import MichikakeState

GAME = get_game("michikake")


def start() -> MichikakeState:
    return GAME.new_state({}, 4, 11)


def in_window() -> MichikakeState:
    state = start()
    card = GAME.observe(state, 0)["hand"][0]
    return GAME.apply(state, 0, {"discard": card}, at=1.0)


def refused(state: MichikakeState, seat: Any, action: Any, match: str, at: Any = None) -> None:
    before = copy.deepcopy(state)
    views = [GAME.observe(state, v) for v in (0, 1, 2, 3, None)]
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(state, seat, action, at)
    assert state == before
    assert [GAME.observe(state, v) for v in (0, 1, 2, 3, None)] == views


@pytest.mark.parametrize("seats", [2, 5, 0, True, "4", 3.0, None])
def test_only_three_or_four_seats(seats: Any) -> None:
    with pytest.raises(InvalidOptions, match="3 or 4 seats"):
        GAME.new_state({}, seats, 0)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"seeds": 4}, "unknown option 'seeds'"),
        ({"short_pile": 3}, "cannot be 3"),
        ({"short_pile": True}, "cannot be True"),
        ({"short_pile": "8"}, "cannot be '8'"),
        ([], "options must be an object"),
    ],
)
def test_unknown_or_bad_options_are_refused(options: Any, match: str) -> None:
    with pytest.raises(InvalidOptions, match=match):
        GAME.new_state(options, 4, 0)


def test_the_seed_must_be_an_int() -> None:
    with pytest.raises(InvalidOptions, match="seed"):
        GAME.new_state({}, 4, "1")  # type: ignore[arg-type]


def test_same_arguments_same_session() -> None:
    assert GAME.new_state({}, 4, 9) == GAME.new_state({}, 4, 9)
    assert GAME.new_state({}, 4, 9) != GAME.new_state({}, 4, 10)


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (None, "an action is one of"),
        ([], "an action is one of"),
        ("discard", "an action is one of"),
        ({}, "an action is one of"),
        ({"discard": "W7", "win": True}, "an action is one of"),
        ({"play": "W7"}, "unknown action 'play'"),
        ({"discard": 7}, "discard takes a card"),
        ({"discard": "X1"}, "discard takes a card"),
        ({"discard": "w1"}, "discard takes a card"),
        ({"discard": ["W7"]}, "discard takes a card"),
        ({"win": 1}, "takes the value true"),
        ({"win": "true"}, "takes the value true"),
        ({"pass": False}, "takes the value true"),
        ({"pass": True}, "must discard a card"),
        ({"steal": True}, "must discard a card"),
    ],
)
def test_malformed_or_wrong_actions_on_a_turn_are_refused(action: Any, match: str) -> None:
    refused(start(), 0, action, match)


def test_discarding_a_card_not_held_is_refused() -> None:
    state = start()
    missing = next(c for c in ("C1", "C2", "C3", "C4", "W1") if c not in state.hands[0])
    refused(state, 0, {"discard": missing}, f"holds no {missing}")


@pytest.mark.parametrize(
    ("seat", "match"),
    [(1, "seat 1 may not act now"), (4, "seat must be an int"), (-1, "seat must be an int"),
     (True, "seat must be an int"), ("0", "seat must be an int"), (None, "seat must be an int")],
)  # fmt: skip
def test_out_of_turn_or_unknown_seats_are_refused(seat: Any, match: str) -> None:
    refused(start(), seat, {"discard": start().hands[0][0]}, match)


@pytest.mark.parametrize("at", [True, "1", float("nan"), float("inf"), [1]])
def test_bad_times_are_refused(at: Any) -> None:
    refused(start(), 0, {"discard": start().hands[0][0]}, "at must be a finite number", at)


def test_window_answers_must_be_pass_win_or_steal_from_a_seat_that_has_not_answered() -> None:
    state = in_window()
    refused(state, 1, {"discard": "W7"}, "claim window takes")
    refused(state, 0, {"pass": True}, "may not claim it")
    answered = GAME.apply(state, 1, {"pass": True}, at=1.5)
    refused(answered, 1, {"pass": True}, "already answered")
    refused(state, 1, {"pass": True}, "window closed", at=100.0)


def test_a_win_or_steal_the_hand_does_not_allow_is_refused() -> None:
    state = in_window()
    seat = next(s for s in (1, 2, 3) if GAME.legal_actions(state, s) == [{"pass": True}])
    refused(state, seat, {"win": True}, f"seat {seat} cannot win")
    refused(state, seat, {"steal": True}, f"seat {seat} cannot steal")


def test_nothing_is_accepted_once_the_session_is_over() -> None:
    from dataclasses import replace

    over = replace(start(), phase="over", end="round")
    assert GAME.to_move(over) == frozenset() and GAME.legal_actions(over, 0) == []
    refused(over, 0, {"discard": over.hands[0][0]}, "session is over")


def test_observe_refuses_unknown_viewers_and_legal_actions_are_empty_for_them() -> None:
    for seat in (4, -1, True, "0"):
        with pytest.raises(IllegalAction):
            GAME.observe(start(), seat)  # type: ignore[arg-type]
        assert GAME.legal_actions(start(), seat) == []  # type: ignore[arg-type]


def test_the_bot_levels_are_served_and_others_are_refused() -> None:
    assert GAME.levels == ["beginner", "casual", "strong", "expert"]
    assert GAME.level_names()["beginner"] == {"ja": "はじめて", "en": "Beginner"}
    state = start()
    legal = GAME.legal_actions(state, 0)
    assert GAME.make_bot("beginner", 1).choose(GAME.observe(state, 0), legal) in legal
    with pytest.raises(InvalidOptions, match="unknown michikake bot level"):
        GAME.make_bot("random", 1)


def test_advance_with_nothing_due_changes_nothing() -> None:
    assert GAME.advance(start(), 50.0) == start()
    state = in_window()
    assert GAME.advance(state, 1.0) == state
