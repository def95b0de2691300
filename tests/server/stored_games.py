"""Finished games written straight into a test app's store, as a room would have logged them:
for the replay and records APIs, without playing a whole game through the socket."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store


def store_of(client: TestClient) -> Store:
    app = client.app
    assert isinstance(app, FastAPI)
    store: Store = app.state.hub.store
    return store


def stored_game(
    store: Store,
    room_id: str,
    seats: list[dict[str, Any]],
    seed: int,
    play: str = "beginner",
    game_name: str = "momojan",
    options: dict[str, Any] | None = None,
) -> Any:
    """A finished game (by default a short MOMOJAN, one deal each) with both seats played by
    bots of level ``play``, logged as the room logs it and finished with its results; returns
    the final state."""
    game = get_game(game_name)
    options = game.resolve_options({"dealerships": 1} if options is None else options)
    store.create_room(room_id, game_name, options, rule_key(options), seed, seats)
    state = game.new_state(options, 2, seed)
    bots = [game.make_bot(play, seed + seat) for seat in (0, 1)]
    seq = 0
    while game.outcome(state) is None:
        [seat] = game.to_move(state)
        action = bots[seat].choose(game.observe(state, seat), game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
        outcome = game.outcome(state)
        finish = None
        if outcome is not None:
            finish = Finish(outcome, results_for(room_id, game, options, seats, outcome))
        store.append_event(room_id, seq, seat, action, float(seq), finish=finish)
        seq += 1
    return state
