"""Rooms: one writer, the log written before a move is visible, rebuilt from the log."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any, cast

import pytest

from asobiba.core.bots import Timed
from asobiba.core.errors import IllegalAction
from asobiba.core.game import Game
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store


class HeldBot:
    """A bot seat whose move the test releases, to look at the room while the bot thinks."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()
        self.release = asyncio.Event()
        self.answer: dict[str, Any] | None = None

    async def choose(
        self, game: str, level: str, seed: int, obs: dict[str, Any], legal: list[dict[str, Any]]
    ) -> Timed:
        self.asked.set()
        await self.release.wait()
        return Timed(self.answer or legal[0])


TEST_PEOPLE = ("p", "q", *(f"p{seat}" for seat in range(8)))
"""The guest ids these tests seat: known to the store, as every seated guest is."""


def make_store(tmp_path: Path) -> Store:
    engine = make_engine(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
    migrate(engine)
    store = Store(session_factory(engine))
    for person in TEST_PEOPLE:
        store.ensure_player(person)
    return store


SEATS = [{"player": "p"}, {"bot": "beginner"}]


def test_moving_while_the_bot_is_to_move_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = HeldBot()
        hub = Hub(make_store(tmp_path), bot.choose)
        room = await hub.create("mancala", {}, SEATS, seed=1)
        await room.act(0, {"pit": 0})
        await asyncio.wait_for(bot.asked.wait(), 5)
        with pytest.raises(RoomError) as refused:
            await room.act(0, {"pit": 1})
        assert refused.value.code == "not_your_turn"
        assert room.seq == 1
        bot.release.set()
        await hub.close()

    asyncio.run(scenario())


def test_an_illegal_move_changes_nothing_and_is_not_logged(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path)
        hub = Hub(store, HeldBot().choose)
        room = await hub.create("mancala", {"seeds": 3}, SEATS, seed=1)
        before = room.state
        with pytest.raises(IllegalAction):
            await room.act(0, {"pit": 9})
        assert room.state == before
        assert room.seq == 0
        stored = store.load_room(room.id)
        assert stored is not None
        assert stored.events == []
        await hub.close()

    asyncio.run(scenario())


def test_a_room_is_rebuilt_from_its_log_after_a_restart(tmp_path: Path) -> None:
    async def play_then_restart() -> None:
        store = make_store(tmp_path)
        bot = HeldBot()
        hub = Hub(store, bot.choose)
        room = await hub.create("mancala", {}, SEATS, seed=7)
        await room.act(0, {"pit": 2})  # extra turn
        await room.act(0, {"pit": 5})
        await asyncio.wait_for(bot.asked.wait(), 5)
        state, seq, room_id = room.state, room.seq, room.id
        await hub.close()  # the process "dies" while the bot thinks

        bot_after = HeldBot()
        bot_after.answer = {"pit": 3}
        revived = await Hub(store, bot_after.choose).get(room_id)
        assert revived is not None
        assert (revived.state, revived.seq) == (state, seq)
        await asyncio.sleep(0.05)
        assert not bot_after.asked.is_set(), "nobody is back: the room stands still"
        revived.join(Watcher(0))  # the person comes back
        await asyncio.wait_for(bot_after.asked.wait(), 5)  # the bot resumes its turn
        bot_after.release.set()
        for _ in range(1000):  # up to 10 s on a busy machine; usually a few ms
            if revived.seq == seq + 1:
                break
            await asyncio.sleep(0.01)
        assert revived.seq == seq + 1
        assert revived.state.last.seat == 1
        assert revived.state.last.pit == 3
        await revived.close()

    asyncio.run(play_then_restart())


def test_a_finished_game_stores_its_outcome_and_one_result(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = make_store(tmp_path)
        store.ensure_player("p")
        hub = Hub(store, HeldBot().choose)
        # The test plays the bot's seat itself through the room's one writer.
        room = await hub.create("mancala", {"pits": 3, "seeds": 3}, SEATS, seed=3)
        while not room.over:
            seat = next(iter(room.game.to_move(room.state)))
            if seat == 1:
                await room._commit(1, room.game.legal_actions(room.state, 1)[0])
            else:
                await room.act(0, room.game.legal_actions(room.state, 0)[-1])
        stored = store.load_room(room.id)
        assert stored is not None and stored.finished
        outcome = room.game.outcome(room.state)
        assert outcome is not None and stored.outcome == outcome
        [result] = store.results("p", "mancala")
        assert (result.score, result.opponent_score) == tuple(outcome["scores"])
        assert result.level == "beginner"
        assert result.seat == 0
        expected = "win" if outcome["winners"] == [0] else "loss" if outcome["winners"] else "draw"
        assert result.result == expected
        await hub.close()

    asyncio.run(scenario())


class Watcher:
    """A connection as the room sees one: a seat, its guest and the messages it was sent."""

    def __init__(self, seat: int | None, player: str | None = None) -> None:
        self.seat = seat
        self.player = player
        self.address: str | None = None
        self.sent: list[dict[str, Any]] = []
        self.ended: tuple[int, str] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def end(self, code: int, reason: str) -> None:
        self.ended = code, reason


class CountingGame:
    """A game that counts the observations a room asks it for, per seat."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.observed: Counter[int | None] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def observe(self, state: Any, seat: int | None = None) -> dict[str, Any]:
        self.observed[seat] += 1
        return self.game.observe(state, seat)


def test_each_seats_view_is_built_once_per_change_however_many_watch_it(tmp_path: Path) -> None:
    async def scenario() -> None:
        hub = Hub(make_store(tmp_path), HeldBot().choose)
        room = await hub.create("mancala", {}, SEATS, seed=2)
        counting = CountingGame(room.game)
        room.game = cast(Game[Any], counting)
        tabs = [Watcher(0, "p") for _ in range(3)]
        spectators = [Watcher(None) for _ in range(4)]
        for watcher in [*tabs, *spectators]:
            room.join(watcher)
        assert counting.observed == {0: 1, None: 1}, "one sync view per seat"
        counting.observed.clear()
        await room.act(0, {"pit": 0})
        # The person's seat, the spectators' and the bot's (asked with its own view).
        assert counting.observed == {0: 1, None: 1, 1: 1}
        for watcher in [*tabs, *spectators]:
            [sync, event] = watcher.sent
            assert (sync["type"], event["type"], event["seq"]) == ("sync", "event", 1)
            assert event["obs"] == room.game.observe(room.state, watcher.seat)
            assert event["legal"] == (
                room.game.legal_actions(room.state, 0) if watcher.seat == 0 else []
            )
        await hub.close()

    asyncio.run(scenario())


def test_an_abandoned_room_leaves_memory_and_comes_back_from_its_log(tmp_path: Path) -> None:
    async def scenario() -> None:
        bot = HeldBot()
        hub = Hub(make_store(tmp_path), bot.choose)
        room = await hub.create("mancala", {}, SEATS, seed=5)
        watcher = Watcher(0)
        room.join(watcher)
        assert watcher.sent[0]["type"] == "sync"
        await room.act(0, {"pit": 0})
        await asyncio.wait_for(bot.asked.wait(), 5)
        room.leave(watcher)
        await hub.release(room)
        assert room.id in hub, "kept while its bot thinks"

        bot.release.set()
        for _ in range(1000):  # up to 10 s on a busy machine; usually a few ms
            if room.idle:
                break
            await asyncio.sleep(0.01)
        assert room.seq == 2 and room.idle
        await hub.sweep()
        assert room.id not in hub, "nobody watches and nothing is in flight"

        revived = await hub.get(room.id)
        assert revived is not None and revived is not room
        assert (revived.state, revived.seq) == (room.state, room.seq)
        await revived.act(0, revived.game.legal_actions(revived.state, 0)[0])
        assert revived.seq == 3
        await hub.close()

    asyncio.run(scenario())


def test_a_secret_pass_sends_nothing_to_the_other_seats(tmp_path: Path) -> None:
    """A MICHIKAKE claim window: one seat's pass (its own, or the one the room gives for a
    person who cannot claim) changes only that seat's view, so only it is sent an event; the
    others cannot even tell that someone answered. Between people the window then runs to its
    deadline."""

    async def scenario() -> None:
        hub = Hub(make_store(tmp_path), HeldBot().choose)
        seats: list[dict[str, Any]] = [{"player": f"p{seat}"} for seat in range(3)]
        room = await hub.create("michikake", {}, seats, seed=4)
        watchers = [Watcher(seat) for seat in range(3)]
        for watcher in watchers:
            room.join(watcher)
        [mover] = room.game.to_move(room.state)
        discard = next(a for a in room.game.legal_actions(room.state, mover) if "discard" in a)
        await room.act(mover, discard)
        assert [len(w.sent) for w in watchers] == [2, 2, 2], "everyone sees the discard"
        for seat in sorted(room.game.to_move(room.state)):
            if room.view(seat)["legal"]:
                await room.act(seat, {"pass": True})
        for _ in range(500):  # the room's own answers for seats with no choice
            if not room.game.to_move(room.state) and not room._asked:
                break
            await asyncio.sleep(0.01)
        sent = [2 if seat == mover else 3 for seat in range(3)]
        assert [len(w.sent) for w in watchers] == sent, "only the seat that passed is told"
        window = room.state.window
        assert window is not None, "between people the window runs to its deadline"
        async with room.lock:
            await room._commit(None, None, window.closes_at)  # the room's timer
        assert all(len(watchers[seat].sent) == sent[seat] + 1 for seat in range(3))
        assert [w.sent[-1]["seq"] for w in watchers] == sent, (
            "each watcher's seq counts only what it was sent"
        )
        await hub.close()

    asyncio.run(scenario())
