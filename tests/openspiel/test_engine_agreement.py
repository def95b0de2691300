"""The adapters agree with the engines: the same actions played through OpenSpiel and through
the game protocol give the same observations, the same legal moves and the same final points.

Each test plays random OpenSpiel ids and the engine action each stands for on a state of its
own, made with ``new_state(options, seats, seed)`` for the seed the chance node named, so an
adapter that dealt, decoded or scored differently could not agree to the end. The random player
takes a MICHIKAKE win when it is offered (nine times in ten), so sessions end in scored wins."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

import asobiba.openspiel  # noqa: F401  (registers the games)
from asobiba.games import get_game
from asobiba.openspiel.game import view_text

CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], int, int]] = [
    # OpenSpiel name, engine, OpenSpiel parameters, engine options, seats, games
    ("asobiba_mancala", "mancala", {}, {}, 2, 60),
    ("asobiba_mancala", "mancala", {"variant": "basic"}, {"variant": "basic"}, 2, 30),
    ("asobiba_momojan", "momojan", {"dealerships": 1}, {"dealerships": 1}, 2, 20),
    ("asobiba_michikake", "michikake", {"players": 3}, {}, 3, 6),
    ("asobiba_michikake", "michikake", {"players": 4}, {}, 4, 4),
]


def _through_protocol_breaks(engine: Any, state: Any) -> Any:
    """What a room does in MICHIKAKE's break between deals: every seat asks for the next."""
    while engine.to_move(state) and all(
        engine.legal_actions(state, seat) == [{"next": True}] for seat in engine.to_move(state)
    ):
        state = engine.apply(state, min(engine.to_move(state)), {"next": True})
    return state


@pytest.mark.parametrize(("name", "engine_name", "params", "options", "seats", "games"), CASES)
def test_same_actions_same_game(
    name: str,
    engine_name: str,
    params: dict[str, Any],
    options: dict[str, Any],
    seats: int,
    games: int,
) -> None:
    game = pyspiel.load_game(name, params)
    engine = get_game(engine_name)
    spec = game.spec
    rng = random.Random(name)
    points: set[tuple[float, ...]] = set()
    for _ in range(games):
        state = game.new_initial_state()
        seed = 0
        if state.is_chance_node():
            seed = rng.randrange(game.max_chance_outcomes())
            state.apply_action(seed)
        ours = _through_protocol_breaks(engine, engine.new_state(options, seats, seed))
        while not state.is_terminal():
            seat = state.current_player()
            assert seat in engine.to_move(ours)
            for viewer in range(seats):
                assert state.observation_string(viewer) == view_text(engine.observe(ours, viewer))
            legal = engine.legal_actions(ours, seat)
            ids = state.legal_actions()
            decoded = [spec.action(ours, seat, action_id) for action_id in ids]
            assert sorted(map(view_text, decoded)) == sorted(map(view_text, legal))
            wins = [i for i, action in enumerate(decoded) if action.get("win") is True]
            pick = wins[0] if wins and rng.random() < 0.9 else rng.randrange(len(ids))
            state.apply_action(ids[pick])
            ours = _through_protocol_breaks(engine, engine.apply(ours, seat, decoded[pick]))
        outcome = engine.outcome(ours)
        assert outcome is not None
        assert state.returns() == spec.returns(outcome, game.setup)
        points.add(tuple(state.returns()))
    assert len(points) > 1, "every game ended alike: the sample shows nothing"


def test_returns_are_the_points_won() -> None:
    """MOMOJAN and MICHIKAKE return final points less the starting points; Mancala the signed
    margin in stones."""
    game = pyspiel.load_game("asobiba_momojan", {"dealerships": 1})
    outcome = {"scores": [52, 28], "winners": [0]}
    assert game.spec.returns(outcome, game.setup) == [12.0, -12.0]
    mancala = pyspiel.load_game("asobiba_mancala")
    assert mancala.spec.returns({"winners": [1], "margin": 6}, mancala.setup) == [-6.0, 6.0]
    assert mancala.spec.returns({"winners": [], "margin": 0}, mancala.setup) == [0.0, 0.0]
    michikake = pyspiel.load_game("asobiba_michikake", {"players": 3})
    outcome = {"scores": [1200, 900, 880], "winners": [0]}
    assert michikake.spec.returns(outcome, michikake.setup) == [200.0, -100.0, -120.0]
