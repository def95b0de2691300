"""The room server with a real-time shape: several seats acting at once and a server-side timer.

"Grab" is a tiny game defined here with the same protocol as the real games: seat 0 rings a
bell, then every seat may grab the token at once; the first grab wins; if nobody grabs before
the bell's deadline, the timer ends the game with no winner. The card games to come (a 3-second
call timer, a race for a token) rely on exactly these room mechanics.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from asobiba.core.bots import Bot, Timed
from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.core.game import RecordField
from asobiba.core.options import OptionSpec, resolve_options
from asobiba.server.rooms.hub import Hub
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store
from tests.server.test_rooms import Watcher

WINDOW = 0.5


@dataclass(frozen=True)
class GrabState:
    seats: int
    rung_at: float | None = None
    winner: int | None = None
    timed_out: bool = False


class Grab:
    name = "grab"
    min_seats = 2
    max_seats = 6
    levels: ClassVar[list[str]] = ["quick"]

    def options_spec(self) -> list[OptionSpec]:
        return []

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options([], options)

    def level_names(self) -> dict[str, dict[str, str]]:
        return {"quick": {"ja": "はやい", "en": "Quick"}}

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> GrabState:
        if not 2 <= seats <= 6:
            raise InvalidOptions("grab takes 2 to 6 seats")
        return GrabState(seats)

    def to_move(self, state: GrabState) -> frozenset[int]:
        if self.outcome(state) is not None:
            return frozenset()
        return frozenset(range(state.seats)) if state.rung_at is not None else frozenset({0})

    def legal_actions(self, state: GrabState, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_move(state):
            return []
        return [{"grab": True}] if state.rung_at is not None else [{"ring": True}]

    def apply(self, state: GrabState, seat: int, action: Any, at: float | None = None) -> GrabState:
        if action not in self.legal_actions(state, seat) or at is None:
            raise IllegalAction(f"{action!r} is not legal for seat {seat}")
        if state.rung_at is None:
            return replace(state, rung_at=at)
        return replace(state, winner=seat)

    def observe(self, state: GrabState, seat: int | None) -> dict[str, Any]:
        return {"rung": state.rung_at is not None, "outcome": self.outcome(state)}

    def outcome(self, state: GrabState) -> dict[str, Any] | None:
        if state.winner is not None:
            scores = [int(s == state.winner) for s in range(state.seats)]
            return {"scores": scores, "winners": [state.winner], "margin": 1}
        if state.timed_out:
            return {"scores": [0] * state.seats, "winners": [], "margin": 0}
        return None

    def deadline(self, state: GrabState) -> float | None:
        if state.rung_at is None or self.outcome(state) is not None:
            return None
        return state.rung_at + WINDOW

    def advance(self, state: GrabState, at: float) -> GrabState:
        due = self.deadline(state)
        return replace(state, timed_out=True) if due is not None and at >= due else state

    def make_bot(self, level: str, seed: int) -> Bot:
        raise NotImplementedError("bots are supplied by the test's chooser")

    def record_fields(self) -> list[RecordField]:
        return [RecordField("won", {"ja": "勝ち", "en": "Won"}, "max")]

    def record(self, outcome: dict[str, Any], seat: int) -> dict[str, float | None]:
        return {"won": outcome["scores"][seat]}


def games(name: str) -> Any:
    return Grab()


def make_hub(tmp_path: Path, choose: Any) -> tuple[Hub, Store]:
    engine = make_engine(f"sqlite:///{tmp_path / 'grab.sqlite3'}")
    migrate(engine)
    store = Store(session_factory(engine))
    store.ensure_player("p")
    return Hub(store, choose, games), store


async def wait_until(condition: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached")


def test_several_bot_seats_race_and_exactly_one_grab_is_applied(tmp_path: Path) -> None:
    asked: list[int] = []

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        asked.append(seed)
        await asyncio.sleep(0.01)
        return Timed(legal[0])

    async def scenario() -> None:
        hub, store = make_hub(tmp_path, choose)
        seats = [{"player": "p"}] + [{"bot": "quick"}] * 3
        room = await hub.create("grab", {}, seats, seed=5)
        await room.act(0, {"ring": True})
        await wait_until(lambda: room.over)
        outcome = room.game.outcome(room.state)
        assert outcome is not None and outcome["winners"][0] in (1, 2, 3)
        assert len(asked) == 3  # every bot seat was asked at once
        assert room.seq == 2  # the ring and one grab; the slower grabs were dropped
        stored = store.load_room(room.id)
        assert stored is not None and len(stored.events) == 2 and stored.finished
        [result] = store.results("p", "grab")
        assert result.result == "loss"
        assert result.stats == {"won": 0}, "the game's own figure is stored with the result"
        await hub.close()

    asyncio.run(scenario())


def test_the_server_timer_ends_the_window_when_nobody_grabs(tmp_path: Path) -> None:
    never = asyncio.Event()

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        await never.wait()
        return Timed(legal[0])

    async def scenario() -> None:
        hub, store = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        await room.act(0, {"ring": True})
        await wait_until(lambda: room.over)
        outcome = room.game.outcome(room.state)
        assert outcome is not None and outcome["winners"] == []
        stored = store.load_room(room.id)
        assert stored is not None
        timed = stored.events[-1]
        assert timed[0] is None and timed[1] is None  # a timed event: no seat, no action
        assert timed[2] - stored.events[0][2] >= WINDOW
        [result] = store.results("p", "grab")
        assert result.result == "draw"
        await hub.close()

        revived = await Hub(store, choose, games).get(room.id)  # replays the timed event too
        assert revived is not None and revived.over
        await revived.close()

    asyncio.run(scenario())


def test_a_bot_acts_at_the_time_it_chose_not_when_it_finished_thinking(tmp_path: Path) -> None:
    delay = 0.1

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        return Timed(legal[0], after=delay)  # decided at once, acts after its reaction time

    async def scenario() -> None:
        hub, store = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        await room.act(0, {"ring": True})
        await asyncio.sleep(0.01)
        assert room.seq == 1, "the bot waits for its moment"
        await wait_until(lambda: room.over)
        stored = store.load_room(room.id)
        assert stored is not None
        (_, _, rung), (seat, _, grabbed) = stored.events
        assert seat == 1
        assert grabbed - rung >= delay
        await hub.close()

    asyncio.run(scenario())


def test_a_bot_action_is_dropped_when_something_happened_first(tmp_path: Path) -> None:
    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        return Timed(legal[0], after=0.2)  # slower than the person below

    async def scenario() -> None:
        hub, store = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        await room.act(0, {"ring": True})
        await room.act(0, {"grab": True})  # the person grabs before the bot's moment
        await asyncio.sleep(0.4)
        outcome = room.game.outcome(room.state)
        assert outcome is not None and outcome["winners"] == [0]
        stored = store.load_room(room.id)
        assert stored is not None and len(stored.events) == 2, "the bot's grab was dropped"
        assert room.idle
        await hub.close()

    asyncio.run(scenario())


def test_a_bot_that_passes_is_asked_again_only_when_the_state_changes(tmp_path: Path) -> None:
    asked: list[int] = []

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        asked.append(seed)
        return Timed(None)  # not this time

    async def scenario() -> None:
        hub, _ = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        await room.act(0, {"ring": True})
        await wait_until(lambda: room.over)  # nobody grabs: the timer ends the window
        assert len(asked) == 1, "asked once for the ring, not again while nothing changed"
        await hub.close()

    asyncio.run(scenario())


def test_a_sync_in_a_timed_wait_says_how_long_is_left_and_only_then(tmp_path: Path) -> None:
    """A page that joins or resyncs mid-window shows what is left of it, not the whole window."""
    never = asyncio.Event()

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        await never.wait()
        return Timed(legal[0])

    async def scenario() -> None:
        hub, _ = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        before = Watcher(0)
        room.join(before)
        assert "deadline_in" not in before.sent[0], "no clock runs before the bell"
        await room.act(0, {"ring": True})
        await asyncio.sleep(0.2)
        late = Watcher(None)
        room.join(late)
        left = late.sent[0]["deadline_in"]
        assert 0 < left <= WINDOW - 0.2, left
        await wait_until(lambda: room.over)
        after = Watcher(0)
        room.join(after)
        assert "deadline_in" not in after.sent[0], "the clock stopped with the game"
        await hub.close()

    asyncio.run(scenario())
