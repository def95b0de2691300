"""MOMOJAN refuses bad options, bad seats and malformed or illegal actions, naming what was
wrong, and leaves the state unchanged."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.games.momojan import MomojanState
from tests.games.momojan.momojan_positions import GAME, draw, play, position


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rounds": 4}, "unknown option 'rounds'"),
        ({"dealerships": 3}, "cannot be 3"),
        ({"dealerships": True}, "cannot be True"),
        ({"dealerships": "2"}, "cannot be '2'"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new_state(options, 2, 0)


@pytest.mark.parametrize("seats", [1, 3, True, "2"])
def test_momojan_is_for_exactly_two_seats(seats: Any) -> None:
    with pytest.raises(InvalidOptions, match="exactly 2 seats"):
        GAME.new_state({}, seats, 0)


def test_options_resolve_to_one_form_and_dealerships_is_engine_only() -> None:
    assert GAME.resolve_options({}) == {"dealerships": 2}
    (spec,) = GAME.options_spec()
    assert spec.key == "dealerships" and not spec.ui


START = GAME.new_state({}, 2, 11)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (None, "an action is an object"),
        ([], "an action is an object"),
        ({}, "unknown action type None"),
        ({"type": "chow"}, "unknown action type 'chow'"),
        ({"type": 3}, "unknown action type 3"),
        ({"type": "draw"}, "keys"),
        ({"type": "draw", "pile": 0, "card": "L1"}, "keys"),
        ({"type": "draw", "pile": True}, "pile must be an integer"),
        ({"type": "draw", "pile": 3}, "pile must be an integer"),
        ({"type": "draw", "pile": -1}, "pile must be an integer"),
        ({"type": "draw", "pile": 1.0}, "pile must be an integer"),
        ({"type": "pon", "cards": "L1 L2"}, "list of 2 cards"),
        ({"type": "pon", "cards": ["L1"]}, "list of 2 cards"),
        ({"type": "chi", "cards": ["L1", "X9"]}, "list of 2 cards"),
        ({"type": "kai", "cards": ["L1", "L2"]}, "list of 3 cards"),
        ({"type": "discard", "card": "L10"}, "not a MOMOJAN card"),
        ({"type": "discard", "card": 5}, "not a MOMOJAN card"),
        ({"type": "discard", "card": "L1", "riichi": 1}, "riichi must be true or false"),
        ({"type": "ron", "extra": 1}, "keys"),
    ],
)
def test_malformed_actions_are_refused_naming_the_fault(action: Any, message: str) -> None:
    before = replace(START)
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(START, 0, action)
    assert before == START


def test_out_of_turn_and_non_seats_are_refused() -> None:
    for seat in (1, True, None, "0", 2):
        with pytest.raises(IllegalAction, match="may not act now"):
            GAME.apply(START, seat, draw(0))  # type: ignore[arg-type]
    assert GAME.legal_actions(START, 1) == []
    assert GAME.legal_actions(START, True) == []


def test_observe_refuses_what_is_not_a_seat() -> None:
    for seat in (2, -1, True, "0"):
        with pytest.raises(IllegalAction, match="seat must be 0, 1 or None"):
            GAME.observe(START, seat)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("state", "action", "message"),
    [
        (START, {"type": "ron"}, "no discard of the opponent's"),
        (START, {"type": "tsumo"}, "not a winning hand"),
        (START, {"type": "draw3"}, "not allowed before drawing or calling"),
        (START, {"type": "pass"}, "not allowed before drawing or calling"),
        (START, {"type": "discard", "card": START.hands[0][0]}, "not allowed before drawing"),
        (START, {"type": "discard", "card": START.hands[1][0]}, "not in your hand"),
    ],
)
def test_illegal_actions_are_refused_naming_the_rule(
    state: MomojanState, action: dict[str, Any], message: str
) -> None:
    with pytest.raises(IllegalAction, match=message):
        GAME.apply(state, 0, action)


def test_illegal_moves_in_a_position_name_what_is_wrong() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="L5")
    with pytest.raises(IllegalAction, match="L3 L4 not in your hand"):
        GAME.apply(state, 1, {"type": "chi", "cards": ["L3", "L4"]})
    with pytest.raises(IllegalAction, match="not a set of that kind"):
        GAME.apply(state, 1, {"type": "chi", "cards": ["O5", "S5"]})
    drawn = play(state, draw(0))
    with pytest.raises(IllegalAction, match="draw3 is not allowed after drawing one card"):
        GAME.apply(drawn, 1, {"type": "draw3"})
    with pytest.raises(IllegalAction, match="riichi: your hand without S9 is not ready"):
        GAME.apply(drawn, 1, {"type": "discard", "card": "S9", "riichi": True})


def test_a_discard_without_riichi_may_leave_the_key_out() -> None:
    drawn = play(START, draw(0))
    card = drawn.hands[0][0]
    assert GAME.apply(drawn, 0, {"type": "discard", "card": card}) == GAME.apply(
        drawn, 0, {"type": "discard", "card": card, "riichi": False}
    )


def test_cards_of_a_call_may_come_in_any_order() -> None:
    state = position("L1 L2 L3 O5 O6 dog moon", "O5 S5 S7 S8 S9 sun sun", turn=1, offer="L5")
    a = GAME.apply(state, 1, {"type": "pon", "cards": ["S5", "O5"]})
    assert a == GAME.apply(state, 1, {"type": "pon", "cards": ["O5", "S5"]})


def test_a_finished_game_refuses_every_action() -> None:
    over = replace(START, phase="over", winner=0, end="dealerships")
    with pytest.raises(IllegalAction, match="the game is over"):
        GAME.apply(over, 0, draw(0))
    assert GAME.to_move(over) == frozenset()
    assert json.loads(json.dumps(GAME.outcome(over))) == GAME.outcome(over)
