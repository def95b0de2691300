"""Every message a seat (or a spectator) receives from a room is its own view and nothing else,
over many random games of every hidden-hand game between people: together with each engine's
property that an observation holds nothing its seat may not know, no message leaks another hand,
the deck or the seed. People come and go (stand-ins play for them, and see only their seat's
view) and chat; what the table says of its seats and its chat holds no game data and no id.

The room runs on a fake wall clock that only this test moves, so timers (Mokochaka's 3-second
call, MICHIKAKE's claim window) fall due when the random players let them, in no real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.bots import Timed
from asobiba.core.errors import GameError
from asobiba.core.game import automatic
from asobiba.games import get_game
from asobiba.server.http import api
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.rooms.recovery import states
from asobiba.server.social.tables import TableSettings
from tests.server.test_rooms import Watcher, make_store

CASES = [
    ("mokochaka", {}, 3, 40),
    ("mokochaka", {}, 5, 20),
    ("momojan", {"dealerships": 1}, 2, 20),
    ("michikake", {"short_pile": 8}, 3, 20),
    ("michikake", {"short_pile": 8}, 4, 20),
]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def time(self) -> float:
        return self.now


async def no_bots(*_: Any) -> Timed:
    raise AssertionError("every seat is a person here")


PLAYER_KEYS = {"kind", "level", "name", "connected", "standin", "away", "standin_in"} | {
    "host",
    "clock",
}
TABLE_KEYS = {"status", "code", "public", "host", "clock", "standin", "spectator_chat"} | {
    "paired",
    "rated",
    "min_seats",
    "max_seats",
    "you",
}
CHAT_KEYS = {"n", "seat", "name", "text", "stamp", "at"}


def guest(seat: int) -> str:
    return f"guest-id-{seat:03d}"


@pytest.mark.parametrize(("name", "options", "seats", "games"), CASES)
def test_every_message_is_the_receivers_own_view(
    name: str,
    options: dict[str, Any],
    seats: int,
    games: int,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "time", clock.time)

    timed = {"steps": 0, "syncs": 0}  # steps with a timer running; syncs that said its time

    asked: list[int] = []

    class Sent(Watcher):
        """A watcher that also notes, per message, what a sync's ``deadline_in`` must be."""

        def __init__(self, seat: int | None, player: str) -> None:
            super().__init__(seat, player)
            self.due: list[float | None] = []
            self.room: Any = None

        def send(self, message: dict[str, Any]) -> None:
            super().send(message)
            due = self.room.game.deadline(self.room.state) if self.room.state else None
            # Against the room's game time: it stood still during writes (``GameClock.hold``).
            now = self.room.clock.now()
            self.due.append(None if due is None else round(max(0.0, due - now), 3))

    async def one_game(hub: Hub, seed: int) -> int:
        rng = random.Random(seed)
        people = [{"player": guest(seat), "name": f"N{seat}"} for seat in range(seats)]
        for spec in people:
            hub.store.ensure_player(spec["player"])
        table = TableSettings("beginner", spectator_chat=True)
        room = await hub.create(name, options, people, seed, table=table, host=guest(0))
        watchers = [Sent(seat, guest(seat)) for seat in range(seats)] + [
            Sent(None, "guest-id-watching")
        ]
        for watcher in watchers:
            watcher.room = room
        shown: dict[int, dict[str, Any]] = {}
        checked = 0

        async def stand_in(
            game: str, level: str, bot_seed: int, obs: dict[str, Any], legal: list[Any]
        ) -> Timed:
            """A stand-in is asked with its seat's own view, never more."""
            seat = obs["seat"]
            assert room.acting_level(seat) == level == "beginner"
            assert obs == room.game.observe(room.state, seat)
            assert legal == room.game.legal_actions(room.state, seat)
            asked.append(seat)
            return Timed(random.Random(bot_seed + len(asked)).choice(legal), 0.0)

        room._choose = stand_in

        def check() -> None:
            """Each message holds nothing but a view, and each watcher's latest view is its
            view now (a view that did not change may send nothing at all)."""
            nonlocal checked
            for k, watcher in enumerate(watchers):
                for message, due_then in zip(watcher.sent, watcher.due, strict=True):
                    text = json.dumps(message)
                    assert "guest-id" not in text, "a guest id is never shown"
                    if message["type"] == "players":
                        assert set(message) == {"type", "players", "table"}
                        assert all(set(p) <= PLAYER_KEYS for p in message["players"])
                        assert set(message["table"]) == TABLE_KEYS
                        continue
                    if message["type"] == "chat":
                        assert set(message) == {"type", "entry"}
                        assert set(message["entry"]) <= CHAT_KEYS
                        continue
                    allowed = {"type", "seq", "obs", "legal"}
                    if message["type"] == "sync":
                        allowed |= {"seat", "players", "table", "chat"}
                        # Against the deadline and the time when it was sent (a stand-in may
                        # have moved since).
                        if due_then is not None:
                            allowed.add("deadline_in")
                            timed["syncs"] += 1
                            assert message["deadline_in"] == due_then
                    assert set(message) == allowed, message.keys()
                    shown[k] = {"obs": message["obs"], "legal": message["legal"]}
                seat = watcher.seat
                legal = room.game.legal_actions(room.state, seat) if seat is not None else []
                if seat is not None and automatic(room.game, room.state, seat) is not None:
                    legal = []  # the room answers for a person who has no choice
                if watcher not in room.connections:  # away: sent nothing since it left
                    watcher.sent.clear()
                    watcher.due.clear()
                    continue
                assert shown[k] == {"obs": room.game.observe(room.state, seat), "legal": legal}
                checked += len(watcher.sent)
                watcher.sent.clear()
                watcher.due.clear()

        for watcher in watchers:
            room.join(watcher)
        check()
        steps = 0
        while not room.over:
            steps += 1
            assert steps < 5_000, "a random game ends"
            movers = sorted(room.game.to_move(room.state))
            due = room.game.deadline(room.state)
            timed["steps"] += due is not None
            if due is not None and (not movers or rng.random() < 0.2):
                clock.now = max(clock.now, due + clock.now - room.clock.now())  # game time
                async with room.lock:
                    await room._commit(None, None)
            else:
                seat = rng.choice(movers)
                # The room's own timer may go first, as it may for a real client.
                with contextlib.suppress(GameError, RoomError):
                    await room.act(seat, rng.choice(room.game.legal_actions(room.state, seat)))
                clock.now += 0.5
            if rng.random() < 0.1:  # a page reloads or resyncs: its whole view again
                room.join(rng.choice(watchers))
            if rng.random() < 0.05:  # a person leaves (a stand-in plays on) or comes back
                gone = rng.choice(watchers[:-1])
                if gone in room.connections:
                    room.leave(gone)
                else:
                    room.join(gone)
            if rng.random() < 0.05:
                with contextlib.suppress(RoomError):  # a chat line (the rate limit may refuse)
                    await room.say(rng.choice(watchers), "hi <b>", None)
            await asyncio.sleep(0)  # a stand-in's grace (none here) may run out
            check()
        await room.close()
        return checked

    async def scenario() -> int:
        hub = Hub(make_store(tmp_path), no_bots, standin_seconds=0.0)
        total = 0
        for k in range(games):
            total += await one_game(hub, 1_000 * seats + k)
        await hub.close()
        return total

    assert asyncio.run(scenario()) > games * seats
    assert asked, "stand-ins played and were checked"
    assert timed["syncs"] > 0 or timed["steps"] == 0, "resyncs in timed waits were checked"


def test_a_replay_has_one_frame_per_view_so_it_counts_no_secret_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A MICHIKAKE claim window's passes change no spectator's view: the replay shows each view
    once, so its length does not tell how many answers came in."""
    clock = Clock()
    monkeypatch.setattr(time, "time", clock.time)
    store = make_store(tmp_path)

    async def scenario() -> str:
        hub = Hub(store, no_bots)
        people = [{"player": f"p{seat}"} for seat in range(3)]
        room = await hub.create("michikake", {"short_pile": 8}, people, 7)
        rng = random.Random(7)
        while not room.over:
            movers = sorted(room.game.to_move(room.state))
            due = room.game.deadline(room.state)
            if not movers and due is not None:
                clock.now = max(clock.now, due + clock.now - room.clock.now())  # game time
                async with room.lock:
                    await room._commit(None, None)
                continue
            seat = rng.choice(movers)
            with contextlib.suppress(GameError, RoomError):
                await room.act(seat, rng.choice(room.game.legal_actions(room.state, seat)))
            clock.now += 0.5
        await hub.close()
        return room.id

    room_id = asyncio.run(scenario())
    stored = store.load_room(room_id)
    assert stored is not None
    game = get_game("michikake")
    views = [game.observe(state, None) for state in states(game, stored)]
    frames, _, shown = api._frames(game, stored, None)
    assert all(a != b for a, b in itertools.pairwise(frames))
    assert frames == [v for k, v in enumerate(views) if k == 0 or v != views[k - 1]]
    assert len(frames) < len(views), "some events (passes) changed nothing a spectator sees"
    assert shown[-1] == len(frames) - 1 and len(shown) == len(views)
