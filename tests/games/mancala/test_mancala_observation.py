"""The Mancala observation and outcome formats documented in docs/ARCHITECTURE.md."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest

from asobiba.games import get_game
from asobiba.games.mancala import MancalaState

GAME = get_game("mancala")


def finished(variant: str) -> MancalaState:
    """A game one stone from its end (seat 0 empties its side with pit 5), then played out."""
    start = GAME.new_state({"variant": variant}, 2, 0)
    near_end = replace(start, board=(0, 0, 0, 0, 0, 1, 20, 1, 2, 3, 0, 0, 0, 21))
    return GAME.apply(near_end, 0, {"pit": 5})


def test_initial_observation_has_the_documented_fields_and_values() -> None:
    assert GAME.observe(GAME.new_state({}, 2, 0), 0) == {
        "game": "mancala",
        "options": {
            "variant": "kalah",
            "seeds": 4,
            "capture": "standard",
            "count_leftovers": True,
            "pits": 6,
        },
        "pits": [[4] * 6, [4] * 6],
        "stores": [0, 0],
        "to_move": 0,
        "ply": 0,
        "seat": 0,
        "last": None,
        "outcome": None,
    }


def test_last_move_matches_the_documented_example() -> None:
    after = GAME.apply(GAME.new_state({}, 2, 0), 0, {"pit": 2})
    assert GAME.observe(after, 0)["last"] == {
        "seat": 0,
        "pit": 2,
        "path": [[0, 3], [0, 4], [0, 5], [0, 6]],
        "extra_turn": True,
        "captured": 0,
        "capture_from": None,
    }


def test_pits_of_seat_1_are_listed_in_its_own_sowing_order() -> None:
    """Seat 1's pit 5 is next to its store: its first stone lands there."""
    state = GAME.apply(GAME.new_state({}, 2, 0), 0, {"pit": 0})
    obs = GAME.observe(GAME.apply(state, 1, {"pit": 5}), None)
    assert obs["pits"][1] == [4, 4, 4, 4, 4, 0]
    assert obs["stores"] == [0, 1]
    assert obs["last"]["path"] == [[1, 6], [0, 0], [0, 1], [0, 2]]
    assert obs["pits"][0] == [1, 6, 6, 5, 5, 4]


def test_capture_is_reported_with_its_size_and_the_emptied_pit() -> None:
    start = GAME.new_state({}, 2, 0)
    state = replace(start, board=(1, 0, 4, 4, 4, 4, 0, 4, 4, 4, 4, 7, 4, 0))
    last = GAME.observe(GAME.apply(state, 0, {"pit": 0}), None)["last"]
    assert (last["captured"], last["capture_from"]) == (8, [1, 4])


def test_ply_counts_every_move_extra_turns_included() -> None:
    state = GAME.new_state({}, 2, 0)
    for ply, (seat, pit) in enumerate([(0, 2), (0, 5), (1, 0)], start=1):
        state = GAME.apply(state, seat, {"pit": pit})
        assert GAME.observe(state, None)["ply"] == ply


@pytest.mark.parametrize("seat", [0, 1, None])
def test_seat_field_names_the_viewer_and_nothing_else_differs(seat: int | None) -> None:
    """Mancala hides nothing: every seat and a spectator see the same board."""
    state = GAME.apply(GAME.new_state({}, 2, 0), 0, {"pit": 3})
    obs = GAME.observe(state, seat)
    assert obs["seat"] == seat
    assert {**obs, "seat": None} == GAME.observe(state, None)


def test_to_move_is_null_and_outcome_present_once_the_game_is_over() -> None:
    obs = GAME.observe(finished("kalah"), 1)
    assert obs["to_move"] is None
    assert obs["outcome"] == GAME.outcome(finished("kalah"))
    assert obs["outcome"] is not None


def test_kalah_outcome_has_scores_winners_win_by_and_margin() -> None:
    assert GAME.outcome(finished("kalah")) == {
        "scores": [21, 27],
        "winners": [1],
        "win_by": "more_stones",
        "margin": 6,
    }


def test_kalah_observation_at_the_end_shows_leftovers_swept_into_the_stores() -> None:
    obs = GAME.observe(finished("kalah"), None)
    assert obs["pits"] == [[0] * 6, [0] * 6]
    assert obs["stores"] == [21, 27]


def test_basic_outcome_says_the_winner_emptied_their_side() -> None:
    assert GAME.outcome(finished("basic")) == {
        "scores": [21, 21],
        "winners": [0],
        "win_by": "emptied_side",
        "left": [0, 6],
        "margin": 6,
    }


def round_trip(obs: dict[str, Any]) -> dict[str, Any]:
    decoded: dict[str, Any] = json.loads(json.dumps(obs, allow_nan=False))
    return decoded


@pytest.mark.parametrize(
    "options",
    [{}, {"variant": "basic", "seeds": 3}, {"capture": "empty", "count_leftovers": False}],
)
def test_every_observation_of_a_game_survives_a_json_round_trip(options: dict[str, Any]) -> None:
    rng = random.Random(5)
    state = GAME.new_state(options, 2, 5)
    while True:
        for seat in (0, 1, None):
            obs = GAME.observe(state, seat)
            assert round_trip(obs) == obs
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        assert round_trip({"legal": legal}) == {"legal": legal}
        state = GAME.apply(state, seat, rng.choice(legal))
