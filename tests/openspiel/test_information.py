"""What each seat knows in the OpenSpiel games: secret claim answers stay secret, information
states have perfect recall, observers and tensors show no more than ``observe`` does, and
resampling for a seat keeps everything that seat knows."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation

import asobiba.openspiel

SAMPLER = pyspiel.UniformProbabilitySampler(0.0, 1.0)


def _dealt(name: str, params: dict[str, Any], outcome: int) -> Any:
    state = pyspiel.load_game(name, params).new_initial_state()
    state.apply_action(outcome)
    return state


def _open_choices(rng: random.Random) -> Any:
    """A MICHIKAKE state in a claim window whose first seat to answer has more than ``pass``
    and at least one more seat still to answer."""
    for outcome in range(200):
        state = _dealt("asobiba_michikake", {"players": 4}, outcome)
        while not state.is_terminal():
            waiting = state.get_game().spec.engine.to_move(state.now.engine)
            if len(waiting) > 1 and len(state.legal_actions()) > 1:
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no claim window with a choice in 200 sessions")


def test_a_claim_answer_changes_no_other_seats_information() -> None:
    state = _open_choices(random.Random(1))
    seat = state.current_player()
    before = [state.information_state_string(s) for s in range(4)]
    after = {}
    for action in state.legal_actions():
        child = state.child(action)
        after[action] = [child.information_state_string(s) for s in range(4)]
        assert child.current_player() != seat
    for action, strings in after.items():
        for other in range(4):
            if other != seat:
                assert strings[other] == before[other], (action, other)
        assert strings[seat] != before[seat]
    answers = list(after)
    assert after[answers[0]][seat] != after[answers[-1]][seat]


def test_information_states_at_a_seats_decisions_never_repeat() -> None:
    """Perfect recall: every decision a seat makes in a game is at a new information state
    (its own moves and everything it saw are in it)."""
    rng = random.Random(2)
    for name, params in [
        ("asobiba_momojan", {"dealerships": 1}),
        ("asobiba_michikake", {"players": 3}),
    ]:
        state = _dealt(name, params, 5)
        seen: set[str] = set()
        while not state.is_terminal():
            key = f"{state.current_player()} {state.information_state_string()}"
            assert key not in seen
            seen.add(key)
            state.apply_action(rng.choice(state.legal_actions()))


def test_resampled_states_keep_what_the_seat_knows() -> None:
    rng = random.Random(4)
    for name, params in [
        ("asobiba_momojan", {"dealerships": 1}),
        ("asobiba_michikake", {"players": 4}),
    ]:
        state = _dealt(name, params, 11)
        hidden_differs = 0
        checked = 0
        while not state.is_terminal():
            seat = state.current_player()
            if rng.random() < 0.1:
                sample = state.resample_from_infostate(seat, SAMPLER)
                assert sample.current_player() == seat
                assert sample.information_state_string(seat) == state.information_state_string(seat)
                assert sample.observation_tensor(seat) == state.observation_tensor(seat)
                assert sample.legal_actions() == state.legal_actions()
                hidden_differs += str(sample) != str(state)
                checked += 1
                sample.apply_action(rng.choice(sample.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
        assert checked > 3
        # Nearly always something is still hidden and a resample draws it otherwise; where a
        # deal is almost over (a MICHIKAKE draw that must win at once) little may be left to draw.
        assert hidden_differs >= 0.9 * checked, "resamples drew the hidden cards as they were"


def test_a_public_observer_sees_what_a_spectator_sees() -> None:
    game = pyspiel.load_game("asobiba_momojan")
    state = game.new_initial_state()
    state.apply_action(3)
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    private = make_observation(game)
    assert '"hand":null' in public.string_from(state, 0)
    assert public.string_from(state, 0) == public.string_from(state, 1)
    assert private.string_from(state, 0) != private.string_from(state, 1)
    public.set_from(state, 0)
    assert not np.any(public.tensor[:41])  # no hand
    private.set_from(state, 0)
    assert private.tensor[:41].sum() == 7  # the seat's own seven cards


def test_the_observation_tensor_has_the_declared_shape_before_and_after_the_deal() -> None:
    for name in asobiba.openspiel.GAMES:
        game = pyspiel.load_game(name)
        state = game.new_initial_state()
        size = game.observation_tensor_size()
        assert len(state.observation_tensor(0)) == size
        if state.is_chance_node():
            assert not any(state.observation_tensor(0))
            state.apply_action(0)
        assert len(state.observation_tensor(0)) == size
        assert any(state.observation_tensor(0))
