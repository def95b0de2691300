"""The PettingZoo AEC wrapper passes PettingZoo's own API test on every game."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from pettingzoo.test import api_test

from asobiba.pettingzoo import env

ADVISORY = {
    # Every environment with an action mask has a dictionary observation; PettingZoo's own
    # classic games are exempt from these two by name.
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(
    ("game", "params"),
    [
        ("asobiba_mancala", {}),
        ("asobiba_momojan", {"dealerships": 1}),
        ("asobiba_michikake", {"players": 3}),
        ("asobiba_michikake", {"players": 4, "short_pile": 16}),
    ],
)
def test_api_test_passes(game: str, params: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game, **params), num_cycles=2000, verbose_progress=False)
    assert {str(w.message) for w in caught} <= ADVISORY


def test_a_whole_game_ends_with_the_returns_as_rewards() -> None:
    table = env("asobiba_momojan", dealerships=1)
    table.reset(seed=4)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        assert observation["action_mask"].sum() >= 1
        table.step(int(observation["action_mask"].nonzero()[0][-1]))
    assert sum(totals.values()) == 0
    assert any(totals.values())


def test_the_same_seed_deals_the_same_game() -> None:
    tables = [env("asobiba_michikake", players=3), env("asobiba_michikake", players=3)]
    for table in tables:
        table.reset(seed=11)
    first, second = (table.observe("player_0")["observation"] for table in tables)
    assert (first == second).all()
