"""A room's clock stands still while nobody can play: with no seated person connected (after a
short grace) and while its server is down. Every wait resumes with at least what it had left.

Driven with the tiny "Grab" game of test_realtime_room.py: once the bell rings, the timer ends
the game after ``WINDOW`` seconds unless someone grabs.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.bots import Timed
from asobiba.server.rooms.clock import GameClock
from asobiba.server.rooms.hub import Hub
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.test_realtime_room import WINDOW, games, wait_until
from tests.server.test_rooms import Watcher

# It measures time to the millisecond: `make test` runs it alone, after the parallel run.
pytestmark = pytest.mark.serial

PEOPLE: list[dict[str, Any]] = [{"player": "p"}, {"player": "q"}]
PAUSE = 0.1


async def never(*_: Any) -> Timed:
    raise AssertionError("no bot sits here")


def make_store(tmp_path: Path) -> Store:
    engine = make_engine(f"sqlite:///{tmp_path / 'clock.sqlite3'}")
    migrate(engine)
    store = Store(session_factory(engine))
    for spec in PEOPLE:
        store.ensure_player(spec["player"])
    return store


def make_hub(store: Store) -> Hub:
    return Hub(store, never, games, pause_seconds=PAUSE)


def left(watcher: Watcher) -> float:
    """The wait left, as the last sync the watcher was sent said."""
    sync = [message for message in watcher.sent if message["type"] == "sync"][-1]
    return float(sync["deadline_in"])


def test_the_game_clock_stands_still_while_stopped() -> None:
    clock = GameClock(100.0, running=False)
    assert clock.now() == 100.0
    time.sleep(0.02)
    assert clock.now() == 100.0, "stopped: no time passes"
    clock.start()
    time.sleep(0.02)
    assert 100.02 <= clock.now() < 101.0
    stopped = clock.stop()
    time.sleep(0.02)
    assert clock.now() == stopped
    assert clock.wall_seconds_until(stopped + 1.5) == 1.5


def test_the_game_clock_stands_still_while_a_change_is_written() -> None:
    """Held (``Room._commit`` while its event is written), no game time passes: an action that
    arrives meanwhile is dated when the hold began, one dated back to before it keeps its time,
    and afterwards the clock runs on from the hold, the write's time charged to nobody."""
    clock = GameClock(100.0, running=True)
    clock.hold()
    held = clock.now()
    before = time.time() - 0.05
    time.sleep(0.02)
    assert clock.now() == held
    assert clock.game_time(time.time()) == held, "an arrival during the write"
    assert clock.game_time(before) < held, "dated back to before the write: its own time"
    clock.let_go()
    assert held <= clock.now() < held + 0.01, "the write's 20 ms went to nobody"
    time.sleep(0.02)
    assert held + 0.02 <= clock.now() < held + 0.5


def test_a_room_nobody_is_at_pauses_its_wait_and_resumes_it_when_a_person_returns(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        hub = make_hub(make_store(tmp_path))
        room = await hub.create("grab", {}, PEOPLE, seed=1)
        person = Watcher(0)
        room.join(person)
        await room.act(0, {"ring": True})
        room.leave(person)
        assert not room.idle, "the bell's wait still runs during the grace"
        await wait_until(lambda: not room.clock.running)
        stopped_at = room.clock.now()
        await asyncio.sleep(WINDOW * 2)
        assert not room.over, "nobody was there: the wait did not run out"
        assert room.idle, "paused: no timer armed, nothing in flight"

        back = Watcher(1)
        room.join(back)
        rung_at = room.state.rung_at
        # What the wait had left when the clock stopped, less the moment between the clock
        # starting again on this join and its sync being built.
        had_left = rung_at + WINDOW - stopped_at
        assert had_left - 0.05 <= left(back) <= had_left + 0.001
        assert WINDOW - PAUSE - 0.1 < left(back) <= WINDOW - PAUSE + 0.01
        await wait_until(lambda: room.over)
        assert room.game.outcome(room.state)["winners"] == [], "then it ran out as usual"
        await hub.close()

    asyncio.run(scenario())


def test_a_spectator_does_not_keep_the_clock_running(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = make_hub(make_store(tmp_path))
        room = await hub.create("grab", {}, PEOPLE, seed=2)
        person, spectator = Watcher(0), Watcher(None)
        room.join(person)
        room.join(spectator)
        await room.act(0, {"ring": True})
        room.leave(person)
        await wait_until(lambda: not room.clock.running)
        await asyncio.sleep(WINDOW * 2)
        assert not room.over
        await hub.close()

    asyncio.run(scenario())


def test_a_room_rebuilt_after_its_server_stopped_resumes_with_what_its_wait_had_left(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path)
        hub = make_hub(store)
        room = await hub.create("grab", {}, PEOPLE, seed=3)
        room.join(Watcher(0))
        await room.act(0, {"ring": True})
        await asyncio.sleep(WINDOW / 2)
        had_left = room.state.rung_at + WINDOW - room.clock.now()
        await hub.close()  # a clean stop stores where the clock stood
        await asyncio.sleep(WINDOW * 2)

        again = make_hub(store)
        kept = await again.recover()
        assert kept == [room.id], "a room waiting on its clock is rebuilt at start-up"
        rebuilt = await again.get(room.id)
        assert rebuilt is not None and not rebuilt.over
        assert not rebuilt.clock.running, "stopped until its person is back"
        person = Watcher(0)
        rebuilt.join(person)
        assert had_left - 0.05 <= left(person) <= had_left + 0.001  # sync rounds to ms
        await wait_until(lambda: rebuilt.over)
        await again.close()

    asyncio.run(scenario())


def test_after_a_crash_a_wait_resumes_from_the_last_event(tmp_path: Path) -> None:
    """SIGKILL writes nothing: the room resumes from its last event, so the wait gets back at
    least what it had left (here, all of it)."""

    async def scenario() -> None:
        store = make_store(tmp_path)
        hub = make_hub(store)
        room = await hub.create("grab", {}, PEOPLE, seed=4)
        room.join(Watcher(0))
        await room.act(0, {"ring": True})
        room_id = room.id
        # The process "dies": its timer never fires and it stores nothing more.
        room.schedule = lambda: None  # type: ignore[method-assign]
        room._timer.cancel()  # type: ignore[union-attr]
        await asyncio.sleep(WINDOW * 2)

        rebuilt = await make_hub(store).get(room_id)
        assert rebuilt is not None and not rebuilt.over
        person = Watcher(1)
        rebuilt.join(person)
        # All of it but the instant between the clock's start at the join and the sync's reading.
        assert WINDOW - 0.01 <= left(person) <= WINDOW
        await wait_until(lambda: rebuilt.over)

    asyncio.run(scenario())


def test_a_room_waiting_on_nothing_is_not_kept_at_start_up(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path)
        hub = make_hub(store)
        room = await hub.create("grab", {}, PEOPLE, seed=5)  # nobody rang: no clock
        await hub.close()
        again = make_hub(store)
        assert await again.recover() == []
        assert room.id not in again

    asyncio.run(scenario())
