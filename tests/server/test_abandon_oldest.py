"""``Store.abandon_oldest`` (asked on every new game) ends exactly the guest's oldest unfinished
games beyond what they may hold, never another guest's, never one someone is at; on SQLite and
PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import PLAYERS, Store

OPTIONS = get_game("mancala").resolve_options({})
ME = "2f1c0d5e-0b7a-4c59-9a57-8f0e8a7b1c11"
OTHERS = [
    "2f1c0d5e-0b7a-4c59-9a57-8f0e8a7b1c1",  # a prefix of mine: the text filter finds it too
    'odd"id\\with%_',  # JSON escapes it, LIKE would read % and _ as patterns
]


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest) -> Iterator[Store]:
    engine = make_engine(request.getfixturevalue(f"{request.param}_url"))
    migrate(engine)
    store = Store(session_factory(engine))
    yield store
    engine.dispose()


def room(store: Store, room_id: str, seats: list[dict[str, Any]]) -> None:
    store.create_room(room_id, "mancala", OPTIONS, rule_key(OPTIONS), 1, seats)


def test_only_the_guests_own_oldest_games_nobody_is_at_are_ended(store: Store) -> None:
    for person in [ME, *OTHERS]:
        store.ensure_player(person)
    mine = [f"mine{n}" for n in range(5)]
    for n, room_id in enumerate(mine):
        room(store, room_id, [{"player": ME}, {"bot": "beginner"}])
        for k, other in enumerate(OTHERS):
            # Another guest's games, one of them naming me: a table whose seat's name is my id.
            room(store, f"other{k}-{n}", [{"player": other, "name": ME[:16]}, {"bot": "casual"}])
    store.append_event("mine4", 1, 0, {"pit": 0}, 1.0)

    ended = store.abandon_oldest(ME, keep=2, busy={"mine0"})
    assert ended == ["mine1", "mine2", "mine3"], "the oldest beyond two, not one someone is at"
    assert store.abandon_oldest(ME, keep=2, busy=set()) == [], "two left"
    for room_id in ["mine1", "mine2", "mine3"]:
        stored = store.load_room(room_id)
        assert stored is not None and stored.abandoned and stored.finished
    for room_id in ["mine0", "mine4"]:
        stored = store.load_room(room_id)
        assert stored is not None and not stored.finished

    assert store.abandon_oldest(OTHERS[1], keep=1, busy=set()) == [f"other1-{n}" for n in range(4)]
    assert store.abandon_oldest(OTHERS[0], keep=5, busy=set()) == []


def test_a_table_another_person_sits_at_is_never_ended(store: Store) -> None:
    """Issue 30, point 2: starting games ends only the guest's own games against the
    computer; a table they share with another person (started or waiting) stays."""
    for person in [ME, *OTHERS]:
        store.ensure_player(person)
    room(store, "shared", [{"player": ME, "name": "Aki"}, {"player": OTHERS[0], "name": "Bea"}])
    room(store, "waiting", [{"player": ME, "name": "Aki"}, {"open": True}])
    for n in range(3):
        room(store, f"bots{n}", [{"player": ME}, {"bot": "beginner"}])

    assert store.abandon_oldest(ME, keep=0, busy=set()) == ["waiting", "bots0", "bots1", "bots2"]
    stored = store.load_room("shared")
    assert stored is not None and not stored.finished
    assert store.unfinished_of(OTHERS[0]) == ["shared"]


def test_arriving_knows_the_guest_once_and_lists_their_unfinished_games_newest_first(
    store: Store,
) -> None:
    """``Store.arrive``: a new game's first question, which decides whether any must end."""
    assert store.arrive(ME) == [], "a new guest holds nothing"
    assert store.arrive(ME) == [], "known already: arriving again adds no second row"
    with store.engine.connect() as connection:
        rows = connection.execute(select(PLAYERS.c.id).where(PLAYERS.c.id == ME)).all()
    assert len(rows) == 1, "the guest is known"
    for n in range(3):
        room(store, f"mine{n}", [{"bot": "beginner"}, {"player": ME}])
    room(store, "other", [{"player": OTHERS[0], "name": ME[:16]}, {"bot": "casual"}])
    store.abandon_oldest(ME, keep=2, busy=set())
    assert store.arrive(ME) == ["mine2", "mine1"], "unfinished only, newest first, only mine"
