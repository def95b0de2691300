"""OpenSpiel's own checks on our games: its random simulation test (legal actions sorted and
unique in text, clones equal, serialization round trips, observations and information states
for every player, returns within the bounds and summing as the game type says), over many
random games of each game and rule set."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

import asobiba.openspiel  # noqa: F401  (registers the games)

CASES: list[tuple[str, dict[str, Any], int]] = [
    ("asobiba_mancala", {}, 200),
    ("asobiba_mancala", {"variant": "basic", "seeds": 3}, 100),
    ("asobiba_mancala", {"pits": 3, "capture": "empty", "count_leftovers": False}, 100),
    ("asobiba_momojan", {"dealerships": 1}, 25),
    ("asobiba_momojan", {}, 6),
    ("asobiba_michikake", {"players": 3}, 8),
    ("asobiba_michikake", {"players": 4}, 4),
    ("asobiba_michikake", {"players": 4, "short_pile": 16}, 25),
]


@pytest.mark.parametrize(("name", "params", "games"), CASES)
def test_openspiel_random_simulation_passes(name: str, params: dict[str, Any], games: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=games, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["asobiba_momojan", "asobiba_michikake"])
def test_a_serialized_state_plays_on_as_the_original(name: str) -> None:
    """``serialize_game_and_state`` keeps the engine state itself (OpenSpiel pickles a Python
    state's attributes), so the copy continues exactly as the original does."""
    rng = random.Random(3)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    state.apply_action(1234)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    copy_game, copy = pyspiel.deserialize_game_and_state(text)
    assert str(copy_game) == str(game)
    assert copy.history() == state.history()
    for _ in range(60):
        if state.is_terminal():
            break
        assert copy.legal_actions() == state.legal_actions()
        for seat in range(game.num_players()):
            assert copy.information_state_string(seat) == state.information_state_string(seat)
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
    assert str(copy) == str(state)


@pytest.mark.parametrize("name", ["asobiba_momojan", "asobiba_michikake"])
def test_a_history_rebuilds_its_state(name: str) -> None:
    """The chance outcome is the deals' seed, so a history alone fixes the state: OpenSpiel's
    history-based tools (replays, ``build_state_from_history_string``) work."""
    rng = random.Random(5)
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    state.apply_action(77)
    for _ in range(50):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert str(again) == str(state)
    assert again.information_state_string(0) == state.information_state_string(0)


def test_the_chance_node_deals_the_engine_seed_it_names() -> None:
    game = pyspiel.load_game("asobiba_momojan", {"first_seed": 100, "sessions": 10})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(i, 0.1) for i in range(10)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "deal seed 107"
    state.apply_action(7)
    assert state.now.engine.seed == 107
