"""A game's end is one transaction, and games an older crash left half-finished are repaired."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from asobiba.core.bots import Timed
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.app import create_app
from asobiba.server.rooms.hub import Hub
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store
from tests.server.servers import eventually

GUEST = "guest-1"
SEATS: list[dict[str, Any]] = [{"player": GUEST}, {"bot": "casual"}]
OPTIONS = {"variant": "kalah", "seeds": 3}
MakeStore = Callable[[str], Store]
GAME = get_game("mancala")
OUTCOME = {"scores": [20, 16], "winners": [0], "win_by": "more_stones", "margin": 4}


@pytest.fixture
def make_store() -> Iterator[Callable[[str], Store]]:
    """``make_store(url)``: a migrated store; its engine is disposed after the test."""
    engines: list[Engine] = []

    def make(url: str) -> Store:
        engine = make_engine(url)
        engines.append(engine)
        migrate(engine)
        return Store(session_factory(engine))

    yield make
    for engine in engines:
        engine.dispose()


def replay_of(client: TestClient, room_id: str) -> dict[str, Any] | None:
    """The room's replay, or None while it has none."""
    response = client.get(f"/api/rooms/{room_id}/replay")
    return dict(response.json()) if response.status_code == 200 else None


def random_game(seed: int) -> list[tuple[int, dict[str, Any]]]:
    """The moves of a complete game of random legal play."""
    rng = random.Random(seed)
    state = GAME.new_state(GAME.resolve_options(OPTIONS), 2, seed)
    moves = []
    while GAME.outcome(state) is None:
        seat = next(iter(GAME.to_move(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        moves.append((seat, action))
        state = GAME.apply(state, seat, action, 0.0)
    return moves


def create_room(store: Store, room_id: str, seed: int) -> None:
    """A guest's room against the casual bot, as ``POST /api/rooms`` stores it."""
    resolved = GAME.resolve_options(OPTIONS)
    store.ensure_player(GUEST)
    store.create_room(room_id, "mancala", resolved, rule_key(resolved), seed, SEATS)


def store_crashed_game(store: Store, room_id: str, seed: int) -> None:
    """What a crash between the last event and the finish left with the two-step writes: every
    event of a finished game logged, the room never marked finished, no result row."""
    create_room(store, room_id, seed)
    for seq, (seat, action) in enumerate(random_game(seed), start=1):
        store.append_event(room_id, seq, seat, action, float(seq))


def test_the_final_event_is_not_kept_when_its_finish_cannot_be_written(
    sqlite_url: str, make_store: MakeStore
) -> None:
    store = make_store(sqlite_url)
    create_room(store, "r1", seed=1)
    ghost = [{"player": "nobody"}, {"bot": "casual"}]
    results = results_for("r1", GAME, GAME.resolve_options(OPTIONS), ghost, OUTCOME)
    with pytest.raises(IntegrityError):  # the result names a player that does not exist
        store.append_event("r1", 1, 0, {"pit": 0}, 1.0, Finish(OUTCOME, results))
    stored = store.load_room("r1")
    assert stored is not None
    assert stored.events == [], "the event was rolled back with its finish"
    assert not stored.finished


def test_the_final_event_the_finish_and_the_results_are_written_together(
    sqlite_url: str, make_store: MakeStore
) -> None:
    store = make_store(sqlite_url)
    create_room(store, "r1", seed=1)
    finish = Finish(OUTCOME, results_for("r1", GAME, GAME.resolve_options(OPTIONS), SEATS, OUTCOME))
    store.append_event("r1", 1, 0, {"pit": 0}, 1.0, finish)
    stored = store.load_room("r1")
    assert stored is not None and stored.finished and stored.outcome == OUTCOME
    assert [r.result for r in store.results(GUEST, "mancala")] == ["win"]
    assert not store.finish_room("r1", finish), "a second finish writes nothing"
    assert len(store.results(GUEST, "mancala")) == 1


def test_games_a_crash_left_unfinished_are_finished_at_start_up(
    sqlite_url: str, make_store: MakeStore
) -> None:
    """Rebuilt beside serving (``Hub.recover`` runs as a task): the replays appear soon after
    the server answers."""
    store = make_store(sqlite_url)
    for n in range(3):
        store_crashed_game(store, f"crashed{n}", seed=n)
    create_room(store, "running", seed=9)
    store.append_event("running", 1, 0, {"pit": 0}, 1.0)

    with TestClient(create_app(sqlite_url, secret_key="s", bot_workers=1)) as client:
        for n in range(3):
            replay = eventually(partial(replay_of, client, f"crashed{n}"), "the repair")
            assert replay["outcome"] is not None
        assert client.get("/api/rooms/running/replay").status_code == 404
    results = store.results(GUEST, "mancala")
    assert sorted(r.room_id for r in results) == ["crashed0", "crashed1", "crashed2"]
    running = store.load_room("running")
    assert running is not None and not running.finished


def test_a_room_rebuilt_from_a_log_that_ends_the_game_is_finished(
    sqlite_url: str, make_store: MakeStore
) -> None:
    store = make_store(sqlite_url)
    store_crashed_game(store, "crashed", seed=4)

    async def rebuild() -> None:
        async def no_bot(*_: Any) -> Timed:
            raise AssertionError("a finished game asks no bot")

        hub = Hub(store, no_bot)
        room = await hub.get("crashed")
        assert room is not None and room.over
        await hub.close()

    asyncio.run(rebuild())
    stored = store.load_room("crashed")
    assert stored is not None and stored.finished
    [result] = store.results(GUEST, "mancala")
    assert result.room_id == "crashed"


def test_repair_works_on_postgresql(postgres_url: str, make_store: MakeStore) -> None:
    store = make_store(postgres_url)
    store_crashed_game(store, "crashed", seed=5)
    with TestClient(create_app(postgres_url, secret_key="s", bot_workers=1)) as client:
        eventually(lambda: replay_of(client, "crashed"), "the repair")
    assert len(store.results(GUEST, "mancala")) == 1
