"""Invariants of the Mancala engine, checked by hypothesis on random games of every rule set.

A game is drawn as ``(options, seed)``: ``seed`` seeds both the game and the random player, so
``(options, seed, [(seat, action), ...])`` is the whole history, the saved-game format.
"""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from asobiba.games import get_game
from asobiba.games.mancala import MancalaState

GAME = get_game("mancala")
MAX_PLIES = 5_000
"""Far above any real game; a random game still running here means the engine loops."""

ALL_OPTIONS: list[dict[str, Any]] = [
    {"variant": "kalah", "seeds": s, "capture": c, "count_leftovers": lo, "pits": p}
    for s, c, lo, p in itertools.product(
        (3, 4, 5, 6), ("standard", "empty", "none"), (True, False), (3, 4, 5, 6)
    )
] + [{"variant": "basic", "seeds": s, "pits": p} for s in (3, 4, 5, 6) for p in (3, 4, 5, 6)]

options_st = st.sampled_from(ALL_OPTIONS)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
property_settings = settings(max_examples=100, deadline=None)

History = list[tuple[int, dict[str, Any]]]


def playout(options: dict[str, Any], seed: int) -> tuple[list[MancalaState], History]:
    """A random legal game: every state it passed through, and its history."""
    rng = random.Random(seed)
    states = [GAME.new_state(options, 2, seed)]
    history: History = []
    for _ in range(MAX_PLIES):
        state = states[-1]
        if GAME.outcome(state) is not None:
            return states, history
        (seat,) = GAME.to_move(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        history.append((seat, action))
        states.append(GAME.apply(state, seat, action))
    raise AssertionError(f"no end after {MAX_PLIES} plies: {options}, seed {seed}")


def total(state: MancalaState) -> int:
    obs = GAME.observe(state, None)
    return sum(map(sum, obs["pits"])) + sum(obs["stores"])


@property_settings
@given(options_st, seed_st)
def test_stones_are_conserved_under_every_option_combination(
    options: dict[str, Any], seed: int
) -> None:
    states, _ = playout(options, seed)
    assert {total(state) for state in states} == {2 * options["pits"] * options["seeds"]}


@property_settings
@given(options_st, seed_st)
def test_random_legal_play_always_ends(options: dict[str, Any], seed: int) -> None:
    states, history = playout(options, seed)
    assert GAME.outcome(states[-1]) is not None
    assert len(history) == len(states) - 1 == GAME.observe(states[-1], None)["ply"]


@property_settings
@given(options_st, seed_st)
def test_replaying_a_history_reproduces_every_state_and_observation(
    options: dict[str, Any], seed: int
) -> None:
    states, history = playout(options, seed)
    replayed = GAME.new_state(options, 2, seed)
    assert replayed == states[0]
    for (seat, action), expected in zip(history, states[1:], strict=True):
        replayed = GAME.apply(replayed, seat, action)
        assert replayed == expected
        for viewer in (0, 1, None):
            assert GAME.observe(replayed, viewer) == GAME.observe(expected, viewer)


@property_settings
@given(options_st, seed_st)
def test_apply_never_mutates_its_input(options: dict[str, Any], seed: int) -> None:
    states, history = playout(options, seed)
    for state, (seat, action) in zip(states[:-1], history, strict=True):
        before = copy.deepcopy(state)
        seen_before = GAME.observe(state, None)
        action_before = copy.deepcopy(action)
        GAME.apply(state, seat, action)
        assert state == before
        assert GAME.observe(state, None) == seen_before
        assert action == action_before


@property_settings
@given(options_st, seed_st)
def test_legal_actions_are_nonempty_exactly_for_the_seat_to_move_while_the_game_runs(
    options: dict[str, Any], seed: int
) -> None:
    states, _ = playout(options, seed)
    for state in states:
        running = GAME.outcome(state) is None
        for seat in (0, 1):
            assert bool(GAME.legal_actions(state, seat)) == (
                running and seat in GAME.to_move(state)
            )


@property_settings
@given(options_st, seed_st)
def test_outcome_is_present_exactly_when_no_seat_is_to_move(
    options: dict[str, Any], seed: int
) -> None:
    states, _ = playout(options, seed)
    for state in states:
        obs = GAME.observe(state, None)
        assert (GAME.outcome(state) is None) == bool(GAME.to_move(state))
        assert (obs["outcome"] is None) == (obs["to_move"] is not None)


@property_settings
@given(options_st, seed_st)
def test_extra_turn_is_reported_exactly_when_the_mover_moves_again(
    options: dict[str, Any], seed: int
) -> None:
    states, history = playout(options, seed)
    for (seat, _), after in zip(history, states[1:], strict=True):
        last = GAME.observe(after, None)["last"]
        assert last["extra_turn"] == (GAME.to_move(after) == {seat})


@property_settings
@given(options_st, seed_st)
def test_path_holds_one_landing_per_stone_taken_and_kalah_never_feeds_the_opponents_store(
    options: dict[str, Any], seed: int
) -> None:
    states, history = playout(options, seed)
    n = options["pits"]
    for state, (seat, action), after in zip(states[:-1], history, states[1:], strict=True):
        taken = GAME.observe(state, None)["pits"][seat][action["pit"]]
        path = GAME.observe(after, None)["last"]["path"]
        assert len(path) == taken
        if options["variant"] == "kalah":
            assert [1 - seat, n] not in path


@property_settings
@given(options_st, seed_st)
def test_outcome_agrees_with_the_final_board(options: dict[str, Any], seed: int) -> None:
    states, _ = playout(options, seed)
    obs = GAME.observe(states[-1], None)
    outcome, stores = obs["outcome"], obs["stores"]
    left = [sum(pits) for pits in obs["pits"]]
    assert outcome["scores"] == stores
    if options["variant"] == "basic":
        (winner,) = outcome["winners"]
        assert left[winner] == 0 < left[1 - winner]
        assert (outcome["left"], outcome["margin"]) == (left, left[1 - winner])
    else:
        assert 0 in left
        if options["count_leftovers"]:
            assert left == [0, 0]
        assert outcome["winners"] == [p for p in (0, 1) if stores[p] > stores[1 - p]]
        assert outcome["margin"] == abs(stores[0] - stores[1])


@property_settings
@given(options_st.filter(lambda options: options["variant"] == "kalah"), seed_st)
def test_kalah_a_store_holding_more_than_half_the_stones_has_already_won(
    options: dict[str, Any], seed: int
) -> None:
    """With 48 stones, 25 in a store decide the game (stores never give stones back)."""
    states, _ = playout(options, seed)
    half = options["pits"] * options["seeds"]
    outcome = GAME.outcome(states[-1])
    assert outcome is not None
    winners = outcome["winners"]
    for state in states:
        for seat, stones in enumerate(GAME.observe(state, None)["stores"]):
            if stones > half:
                assert winners == [seat]
