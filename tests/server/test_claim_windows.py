"""A claim window (MICHIKAKE) in a room: a person who cannot claim is never asked to press
anything; against the computer the window ends without them, between people it runs its full
length whatever anyone holds (``core.game.automatic``, ``core.game.first_state``).

The room runs on a fake wall clock that only these tests move, so a window's deadline comes
only when a test says so: a window that closed is one the answers closed, in no real time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.bots import Timed
from asobiba.server.rooms.botpool import choose
from asobiba.server.rooms.hub import Hub
from asobiba.server.rooms.room import Room
from asobiba.server.social.tables import TableSettings
from tests.server.test_rooms import Watcher, make_store

OPTIONS = {"short_pile": 16}


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The wall clock the rooms read, moved only by the test."""
    fake = Clock()
    monkeypatch.setattr(time, "time", fake.time)
    return fake


async def real_bots(
    game: str, level: str, seed: int, obs: dict[str, Any], legal: list[dict[str, Any]]
) -> Timed:
    return choose(game, level, seed, obs, legal)


async def settled(room: Room) -> None:
    """Until the room has nothing in flight (its bots and its own answers are in)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while loop.time() < deadline:
        if not room._asked and not room.lock.locked():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the room kept working")


async def waits(room: Room) -> AsyncIterator[Any]:
    """Each state the room waits in for the test's people, until the game is over."""
    while True:
        await settled(room)
        if room.over:
            return
        yield room.state


def last_view(watcher: Watcher) -> dict[str, Any]:
    """The view the watcher was sent last (a table also sends who sits where)."""
    return next(m for m in reversed(watcher.sent) if "legal" in m)


def in_window(room: Room, seat: int) -> bool:
    return room.state.phase == "claim" and seat in room.game.to_move(room.state)


def test_against_the_computer_a_window_nobody_can_use_ends_without_the_person(
    tmp_path: Path, clock: Clock
) -> None:
    async def scenario() -> dict[str, int]:
        hub = Hub(make_store(tmp_path), real_bots, pace_scale=0)
        seats: list[dict[str, Any]] = [{"player": "p"}] + [{"bot": "casual"}] * 3
        room = await hub.create("michikake", OPTIONS, seats, seed=4)
        me = Watcher(0, "p")
        room.join(me)
        seen = {"unasked": 0, "asked": 0}
        async for state in waits(room):
            if state.phase == "claim":
                # Nobody moves the clock: a window still open now waits on the person.
                assert in_window(room, 0), "a window the person cannot use has ended"
                assert me.sent[-1]["legal"][0] == {"pass": True} and len(me.sent[-1]["legal"]) > 1
                seen["asked"] += 1
                await room.act(0, {"pass": True})
            elif state.phase == "discard" and state.turn == 0:
                legal = me.sent[-1]["legal"]
                await room.act(0, legal[-1])
            elif state.phase == "break":
                await room.act(0, {"next": True})
            else:
                raise AssertionError(f"the room waits in {state.phase} with nobody asked")
            seen["unasked"] = sum(
                m["obs"]["phase"] == "claim"
                and m["obs"]["window"]["discarder"] != 0
                and not m["legal"]
                for m in me.sent
            )
        await hub.close()
        return seen

    seen = asyncio.run(scenario())
    assert seen["unasked"] > 10, "the person saw windows with nothing to press"
    assert seen["asked"] > 0, "and was asked when it could claim"


def test_between_people_a_window_lasts_its_full_length_and_asks_only_who_can_claim(
    tmp_path: Path, clock: Clock
) -> None:
    async def scenario() -> dict[str, int]:
        hub = Hub(make_store(tmp_path), real_bots, pace_scale=0)
        people = [{"player": f"p{seat}", "name": f"N{seat}"} for seat in range(3)]
        seats: list[dict[str, Any]] = [*people, {"bot": "casual"}]
        table = TableSettings("beginner")
        room = await hub.create("michikake", OPTIONS, seats, 5, table=table, host="p0")
        watchers = [Watcher(seat, f"p{seat}") for seat in range(3)]
        for watcher in watchers:
            room.join(watcher)
        seen = {"nobody": 0, "somebody": 0}
        async for state in waits(room):
            if state.phase == "claim":
                window = state.window
                able = set()
                for seat in range(3):
                    legal = last_view(watchers[seat])["legal"]
                    if seat == window.discarder or not in_window(room, seat):
                        assert legal == [], "nothing to press when one cannot claim"
                    else:
                        assert len(legal) > 1 and {"pass": True} in legal
                        able.add(seat)
                for seat in able:  # everyone who can claim passes at once
                    await room.act(seat, {"pass": True})
                await settled(room)
                still = room.state.window
                assert still is not None and still.closes_at == window.closes_at, (
                    "no answer closes it before its time"
                )
                seen["somebody" if able else "nobody"] += 1
                clock.now = window.closes_at - room.clock.now() + clock.now  # game time
                async with room.lock:
                    await room._commit(None, None)  # the room's timer: the window's deadline
                assert room.state.window is None or room.state.window.closes_at > window.closes_at
            elif state.phase == "discard" and "player" in room.seats[state.turn]:
                await room.act(state.turn, last_view(watchers[state.turn])["legal"][-1])
            elif state.phase == "break":
                for seat in range(3):
                    if seat in room.game.to_move(room.state):
                        await room.act(seat, {"next": True})
                await settled(room)
            else:
                raise AssertionError(f"the room waits in {state.phase} with nobody asked")
        await hub.close()
        return seen

    seen = asyncio.run(scenario())
    assert seen["nobody"] > 5 and seen["somebody"] > 0, seen


def test_a_table_keeps_how_many_people_it_started_with_and_old_tables_replay_as_played() -> None:
    seats: list[dict[str, Any]] = [{"player": "p0"}, {"player": "p1"}, {"bot": "casual"}]
    started = TableSettings("beginner").started(12.0, seats)
    assert TableSettings.from_json(started.to_json()) == started
    assert started.people == 2 and started.started_at == 12.0
    stored_before = {"standin": "beginner", "clock": None, "started_at": 12.0}
    assert TableSettings.from_json(stored_before).people is None, "replayed as by bots"
