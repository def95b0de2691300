"""Hints against the computer: only the seat to move, only in games against bots, one at a
time; sent to the asking connection alone, logged beside the events and kept apart in records."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.core.bots import Timed
from asobiba.games import get_game
from asobiba.server.analysis.hints import Hint, work_out
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.stored_games import store_of

Start = Callable[..., dict[str, Any]]


def make_store(tmp_path: Path) -> Store:
    engine = make_engine(f"sqlite:///{tmp_path / 'hints.sqlite3'}")
    migrate(engine)
    return Store(session_factory(engine))


async def never(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
    """A bot seat that never answers: the tests look at the room while it is to move."""
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


def test_the_seat_to_move_gets_the_best_move_and_why_and_nobody_else_hears_of_it(
    client: TestClient, start: Start
) -> None:
    room = start(client, options={"seeds": 3})
    with (
        client.websocket_connect(room["ws"]) as ws,
        TestClient(client.app) as stranger,
        stranger.websocket_connect(room["ws"]) as watcher,
    ):
        sync = ws.receive_json()
        watched = watcher.receive_json()
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint", hint
        assert hint["action"] in sync["legal"]
        assert hint["why"]["ja"] and hint["why"]["en"]
        assert isinstance(hint["value"], float)
        # Asked again in the same position: the same hint, not worked out or counted twice.
        ws.send_json({"type": "hint"})
        assert ws.receive_json() == hint
        # The watcher's next message is the answer to its own sync: no hint, no event.
        watcher.send_json({"type": "sync"})
        after = watcher.receive_json()
        assert after["type"] == "sync" and after["seq"] == watched["seq"]
        watcher.send_json({"type": "hint"})
        refused = watcher.receive_json()
        assert (refused["type"], refused["code"]) == ("error", "not_seated")
    stored = store_of(client).load_room(room["room_id"])
    assert stored is not None
    assert [(h.seq, h.seat, h.action) for h in stored.hints] == [(0, 0, hint["action"])]
    assert stored.events == [], "a hint changes no state: the event log holds moves only"


def test_a_hint_is_refused_when_it_is_not_your_turn_in_games_between_people_and_without_analysis(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        hub = Hub(make_store(tmp_path), never)
        room = await hub.create("mancala", {}, [{"player": "p"}, {"bot": "beginner"}], seed=1)
        await room.act(0, {"pit": 0})  # no extra turn: the bot is to move and never answers
        refusals = []
        for seat in (0, None):
            with pytest.raises(RoomError) as refused:
                await room.hint(seat)
            refusals.append(refused.value.code)
        people = await hub.create("mancala", {}, [{"player": "p"}, {"player": "q"}], seed=1)
        with pytest.raises(RoomError) as between_people:
            await people.hint(0)
        cards = await hub.create("mokochaka", {}, [{"player": "p"}, {"bot": "beginner"}], seed=1)
        with pytest.raises(RoomError) as no_engine:
            await cards.hint(0)
        assert refusals == ["not_your_turn", "not_seated"]
        assert between_people.value.code == "hints_bots_only"
        assert no_engine.value.code == "no_hints"
        assert room.hints == [0, 0] and people.hints == [0, 0]
        await hub.close()

    asyncio.run(scenario())


def test_one_hint_at_a_time_and_a_move_meanwhile_makes_it_stale(tmp_path: Path) -> None:
    async def scenario() -> None:
        gate = asyncio.Event()
        asked = asyncio.Event()

        async def slow_hinter(game: str, state: Any, seat: int, seconds: float) -> Hint:
            asked.set()
            await gate.wait()
            return await asyncio.to_thread(work_out, game, state, seat, 0.05)

        store = make_store(tmp_path)
        hub = Hub(store, never, hinter=slow_hinter)
        room = await hub.create("mancala", {}, [{"player": "p"}, {"bot": "beginner"}], seed=1)
        first = asyncio.ensure_future(room.hint(0))
        await asked.wait()
        assert not room.idle, "a hint in the works keeps the room in memory"
        with pytest.raises(RoomError) as busy:
            await room.hint(0)
        assert busy.value.code == "hint_busy"
        await room.act(0, {"pit": 2})  # 4 stones from the third pit: an extra turn
        gate.set()
        with pytest.raises(RoomError) as stale:
            await first
        assert stale.value.code == "hint_stale"
        stored = store.load_room(room.id)
        assert stored is not None and stored.hints == ()
        assert room.hints == [0, 0]
        await hub.close()

    asyncio.run(scenario())


def test_hints_survive_a_restart_and_mark_the_result(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path)
        hub = Hub(store, never)
        room = await hub.create(
            "mancala", {"seeds": 3}, [{"player": "p"}, {"bot": "beginner"}], seed=1
        )
        hint = await room.hint(0)
        await hub.close()
        rebuilt = await Hub(store, never).get(room.id)
        assert rebuilt is not None
        assert rebuilt.hints == [1, 0]
        game = get_game("mancala")
        outcome = {"scores": [20, 16], "winners": [0], "win_by": "more_stones", "margin": 4}
        [result] = rebuilt.finish(outcome).results
        assert result.hints == 1
        assert hint.action in game.legal_actions(rebuilt.state, 0)
        await rebuilt.close()

    asyncio.run(scenario())


def test_a_finished_game_with_a_hint_is_kept_apart_in_the_records_and_marked_in_the_replay(
    client: TestClient, start: Start
) -> None:
    plain = start(client, options={"seeds": 3})
    hinted = start(client, options={"seeds": 3})
    for room, ask in ((plain, False), (hinted, True)):
        with client.websocket_connect(room["ws"]) as ws:
            message = ws.receive_json()
            if ask:
                ws.send_json({"type": "hint"})
                assert ws.receive_json()["type"] == "hint"
            while message["obs"]["outcome"] is None:
                if message["legal"]:
                    ws.send_json({"type": "act", "action": message["legal"][-1]})
                message = ws.receive_json()
                assert message["type"] == "event", message
    records = client.get("/api/records/mancala").json()
    assert [(row["hinted"], row["games"]) for row in records["rows"]] == [(False, 1), (True, 1)]
    listed = {game["room_id"]: game["hints"] for game in records["games"]}
    assert listed == {plain["room_id"]: 0, hinted["room_id"]: 1}
    replay = client.get(f"/api/rooms/{hinted['room_id']}/replay").json()
    [mark] = replay["hints"]
    assert mark["frame"] == 0 and mark["seat"] == 0
    assert set(mark["action"]) == {"pit"}
    with TestClient(client.app) as stranger:
        seen = stranger.get(f"/api/rooms/{hinted['room_id']}/replay").json()["hints"]
    assert seen == [{"frame": 0, "seat": 0}], "only the asker sees which move was hinted"
    assert client.get(f"/api/rooms/{plain['room_id']}/replay").json()["hints"] == []
