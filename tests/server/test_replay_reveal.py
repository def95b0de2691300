"""The replay's "show every hand" view (``Game.reveal``, ``?reveal=true``): only a finished game
has it, and then it shows what the seats hid from each other; the live room never sends it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from asobiba.core.game import revealed
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.store import Finish
from tests.server.stored_games import store_of, stored_game


def test_the_full_view_is_refused_while_a_game_is_played_and_shown_once_it_is_over(
    client: TestClient,
) -> None:
    live = client.post(
        "/api/rooms", json={"game": "momojan", "level": "beginner", "order": "first"}
    ).json()
    for query in ("", "?reveal=true"):
        refused = client.get(f"/api/rooms/{live['room_id']}/replay{query}")
        assert refused.status_code == 404, "no view at all, full or not, of an unfinished game"
    # The live seat's own messages never carry the other hand.
    with client.websocket_connect(live["ws"]) as ws:
        sync = ws.receive_json()
        assert "hands" not in sync["obs"]
        ws.send_json({"type": "act", "action": {"type": "draw", "pile": 0}})
        event = ws.receive_json()
        assert event["type"] == "event" and "hands" not in event["obs"]

    store = store_of(client)
    live_room = store.load_room(live["room_id"])
    assert live_room is not None
    final = stored_game(store, "over", live_room.seats, seed=11)
    plain = client.get("/api/rooms/over/replay").json()
    full = client.get("/api/rooms/over/replay?reveal=true").json()
    assert plain["can_reveal"] and full["can_reveal"]
    assert (plain["revealed"], full["revealed"]) == (False, True)
    assert plain["seat"] == full["seat"] == 0
    assert len(full["frames"]) == len(plain["frames"]), "the two views step alike"
    assert all("hands" not in frame for frame in plain["frames"])
    # Each full frame is the seat's own frame plus both hands, the opponent's included.
    for mine, everything in zip(plain["frames"], full["frames"], strict=True):
        assert {k: v for k, v in everything.items() if k != "hands"} == mine
        assert everything["hands"][0] == mine["hand"]
        assert len(everything["hands"][1]) == mine["hand_sizes"][1]
    assert full["frames"][-1]["hands"][1] == list(final.hands[1])
    game = get_game("momojan")
    start = revealed(game, game.new_state({"dealerships": 1}, 2, 11), 0)
    assert full["frames"][0]["hands"] == start["hands"]


def test_a_game_that_hides_nothing_has_no_full_view_but_the_plain_one(
    client: TestClient,
) -> None:
    store = store_of(client)
    game = get_game("mancala")
    options = game.resolve_options({"seeds": 3})
    seats: list[dict[str, Any]] = [{"player": "someone"}, {"bot": "beginner"}]
    store.ensure_player("someone")
    store.create_room("kalah", "mancala", options, rule_key(options), 1, seats)
    state = game.new_state(options, 2, 1)
    seq = 0
    while game.outcome(state) is None:
        [seat] = game.to_move(state)
        action = game.legal_actions(state, seat)[0]
        state = game.apply(state, seat, action)
        outcome = game.outcome(state)
        finish = None if outcome is None else Finish(outcome, [])
        store.append_event("kalah", seq, seat, action, float(seq), finish=finish)
        seq += 1
    plain = client.get("/api/rooms/kalah/replay").json()
    full = client.get("/api/rooms/kalah/replay?reveal=true").json()
    assert not plain["can_reveal"] and not full["revealed"]
    assert full["frames"] == plain["frames"]
