"""Group commit (``Store.append``): the events of many rooms share one transaction, each is
durable when its waiter hears so, and one event that cannot be written fails alone; on SQLite
and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Event, Finish, Store

GAME = get_game("mancala")
OPTIONS = GAME.resolve_options({})
GUEST = "guest-1"
SEATS: list[dict[str, Any]] = [{"player": GUEST}, {"bot": "beginner"}]
OUTCOME = {"scores": [30, 18], "winners": [0], "win_by": "more_stones", "margin": 12}


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    engine = make_engine(request.getfixturevalue(f"{request.param}_url"))
    migrate(engine)
    store = Store(session_factory(engine))
    store.ensure_player(GUEST)
    yield store
    store.close()
    engine.dispose()


def rooms(store: Store, count: int) -> list[str]:
    ids = [f"room{n:03d}" for n in range(count)]
    for n, room_id in enumerate(ids):
        store.create_room(room_id, "mancala", OPTIONS, rule_key(OPTIONS), n, SEATS)
    return ids


def move(room_id: str, seq: int, finish: Finish | None = None) -> Event:
    return Event(room_id, seq, seq % 2, {"pit": seq % 6}, float(seq), finish)


def finish(room_id: str, seats: list[dict[str, Any]] = SEATS) -> Finish:
    return Finish(OUTCOME, results_for(room_id, GAME, OPTIONS, seats, OUTCOME))


def test_events_of_many_rooms_share_a_commit(store: Store) -> None:
    ids = rooms(store, 40)

    async def scenario() -> None:
        for seq in (1, 2, 3):
            await asyncio.gather(*(store.append(move(room_id, seq)) for room_id in ids))

    asyncio.run(scenario())
    for room_id in ids:
        stored = store.load_room(room_id)
        assert stored is not None
        assert [(seat, action) for seat, action, _ in stored.events] == [
            (1, {"pit": 1}),
            (0, {"pit": 2}),
            (1, {"pit": 3}),
        ]
    # Per round of moves: the first event is written at once, the 39 that came meanwhile
    # together.
    assert store.events.batches == 6, "120 events in 6 commits"


def test_the_last_event_and_the_games_end_share_the_batch_transaction(store: Store) -> None:
    ids = rooms(store, 5)

    async def scenario() -> None:
        busy = store.append(move(ids[0], 1))  # the writer is busy: what follows is one batch
        ends = [store.append(move(room_id, 1, finish(room_id))) for room_id in ids[1:]]
        await asyncio.gather(busy, *ends)

    asyncio.run(scenario())
    for room_id in ids[1:]:
        stored = store.load_room(room_id)
        assert stored is not None and stored.finished and stored.outcome == OUTCOME
        assert len(stored.events) == 1
    results = store.results(GUEST, "mancala")
    assert sorted(r.room_id for r in results) == ids[1:], "one result per finished game"
    assert {r.result for r in results} == {"win"}
    assert store.events.batches == 2


def test_an_event_that_cannot_be_written_fails_alone(store: Store) -> None:
    ids = rooms(store, 6)
    store.append_event(ids[1], 1, 0, {"pit": 0}, 1.0)  # seq 1 of this room is taken
    ghost = [{"player": "nobody"}, {"bot": "beginner"}]  # a result for a player never stored

    async def scenario() -> list[BaseException | None]:
        busy = store.append(move(ids[0], 1))
        batch = [
            store.append(move(ids[1], 1)),  # a second writer of the same seq
            store.append(move(ids[2], 1)),
            store.append(move(ids[3], 1, finish(ids[3], ghost))),
            store.append(move(ids[4], 1, finish(ids[4]))),
            store.append(move(ids[5], 1)),
        ]
        await busy
        answers = await asyncio.gather(*batch, return_exceptions=True)
        return [answer if isinstance(answer, BaseException) else None for answer in answers]

    errors = asyncio.run(scenario())
    assert [error and type(error) for error in errors] == [
        IntegrityError,
        None,
        IntegrityError,
        None,
        None,
    ]
    events = {room_id: store.load_room(room_id) for room_id in ids}
    assert all(stored is not None for stored in events.values())
    assert [len(stored.events) for stored in events.values() if stored] == [1, 1, 1, 0, 1, 1]
    ghost_room, finished_room = events[ids[3]], events[ids[4]]
    assert ghost_room is not None and not ghost_room.finished, "rolled back with its finish"
    assert finished_room is not None and finished_room.finished
    assert [r.room_id for r in store.results(GUEST, "mancala")] == [ids[4]]


def test_a_waiter_cancelled_mid_write_leaves_its_event_and_the_others_written(
    store: Store,
) -> None:
    ids = rooms(store, 3)

    async def scenario() -> None:
        busy = store.append(move(ids[0], 1))
        waiters = [
            asyncio.ensure_future(asyncio.shield(store.append(move(room_id, 1))))
            for room_id in ids[1:]
        ]
        await asyncio.sleep(0)
        waiters[0].cancel()
        await busy
        await waiters[1]
        with pytest.raises(asyncio.CancelledError):
            await waiters[0]
        # The writer is free again: a later event gets its own commit.
        await store.append(move(ids[0], 2))

    asyncio.run(scenario())
    counts = []
    for room_id in ids:
        stored = store.load_room(room_id)
        assert stored is not None
        counts.append(len(stored.events))
    assert counts == [2, 1, 1]


def test_events_after_the_writer_shut_down_fail_and_write_nothing(store: Store) -> None:
    """At shut-down: the store's own writer (SQLite) or the loop's executor (PostgreSQL)."""
    ids = rooms(store, 2)

    async def scenario() -> list[BaseException | None]:
        await store.append(move(ids[0], 1))
        store.close()
        await asyncio.get_running_loop().shutdown_default_executor()
        answers = await asyncio.gather(
            store.append(move(ids[1], 1)), store.append(move(ids[0], 2)), return_exceptions=True
        )
        return [answer if isinstance(answer, BaseException) else None for answer in answers]

    errors = asyncio.run(scenario())
    assert [type(error) for error in errors] == [RuntimeError, RuntimeError]
    counts = []
    for room_id in ids:
        stored = store.load_room(room_id)
        assert stored is not None
        counts.append(len(stored.events))
    assert counts == [1, 0]


def test_new_games_and_events_written_at_once_all_land(store: Store) -> None:
    """Guests starting games while other rooms' moves are logged, all at once: every row lands;
    on SQLite one writer thread does them all, so no transaction polls for SQLite's lock."""
    ids = rooms(store, 20)
    threads: set[int] = set()

    def start(n: int) -> list[str]:
        threads.add(threading.get_ident())
        held = store.arrive(f"new-{n}")
        seats = [{"player": f"new-{n}"}, {"bot": "beginner"}]
        store.create_room(f"new{n:03d}", "mancala", OPTIONS, rule_key(OPTIONS), n, seats)
        return held

    async def scenario() -> list[list[str]]:
        starts = [store.writing(start, n) for n in range(30)]
        moves = [store.append(move(room_id, 1)) for room_id in ids]
        held = await asyncio.gather(*starts, *moves)
        return [h for h in held if h is not None]

    assert asyncio.run(scenario()) == [[]] * 30, "new guests hold no games"
    for room_id in ids:
        stored = store.load_room(room_id)
        assert stored is not None and len(stored.events) == 1
    assert all(store.arrive(f"new-{n}") == [f"new{n:03d}"] for n in range(30))
    if store.engine.dialect.name == "sqlite":
        assert len(threads) == 1, "one writer"
