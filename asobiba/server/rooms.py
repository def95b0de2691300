"""A room: one authoritative game state, its seats, its event log, its bots and timers.

One writer per room: every change goes through ``Room._commit`` under the room's lock, is written
to the event log before it becomes visible, and is then sent to each connection built from that
connection's own seat's observation.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from asobiba.core.bots import Timed
from asobiba.core.errors import GameError
from asobiba.core.game import Game, analyses
from asobiba.server.hints import HINT_SECONDS, Hint, Hinter, in_thread
from asobiba.server.protocol import RoomError
from asobiba.server.records import results_for
from asobiba.server.recovery import replay
from asobiba.server.store import Finish, Store, StoredHint, StoredRoom

log = logging.getLogger(__name__)

BotChooser = Callable[[str, str, int, dict[str, Any], list[dict[str, Any]]], Awaitable[Timed]]
"""``(game, level, seed, observation, legal) -> Timed``: a bot's decision, computed off-loop."""


def bot_seed_for(room_seed: int, seat: int, seq: int) -> int:
    """The seed of the fresh bot asked for ``seat`` at event ``seq``: a game replays alike."""
    return (room_seed * 1_000_003 + seat * 7_919 + seq) & 0x7FFFFFFF


class Connection(Protocol):
    seat: int | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; never blocks the room."""
        ...


class Room:
    def __init__(
        self,
        stored: StoredRoom,
        game: Game[Any],
        store: Store,
        choose: BotChooser,
        hinter: Hinter = in_thread,
    ) -> None:
        self.id = stored.id
        self.game = game
        self.options = stored.options
        self.seed = stored.seed
        self.seats = stored.seats
        self.store = store
        self._choose = choose
        self.lock = asyncio.Lock()
        self.connections: dict[Connection, tuple[int, dict[str, Any]]] = {}
        """Each watcher's view as last sent, and how many changes of it it has been sent."""
        self.state = replay(game, stored)
        self.seq = len(stored.events)
        self._tasks: set[asyncio.Task[None]] = set()
        self._asked: dict[int, tuple[int, asyncio.Task[None]]] = {}
        """Bot seats deciding or waiting to act: the seq they were shown, and their task."""
        self._passed: dict[int, int] = {}
        """Bot seats that chose to do nothing, and the seq they chose it at."""
        self._timer: asyncio.TimerHandle | None = None
        self._hinter = hinter
        self.hints = stored.hints_per_seat()
        """How many hints each seat took (its results carry it)."""
        self._hint: tuple[int, int, Hint] | None = None
        """The last hint given, ``(seq, seat, hint)``: asked again in the same position, the
        same answer, neither worked out nor counted twice."""
        self._hinting = False

    # --- reading -------------------------------------------------------------------------------

    def seat_of(self, player_id: str | None) -> int | None:
        for seat, spec in enumerate(self.seats):
            if player_id is not None and spec.get("player") == player_id:
                return seat
        return None

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def idle(self) -> bool:
        """Nothing in flight: over, or no bot thinking and no timer armed. The log alone can then
        rebuild the room exactly as it is."""
        return self.over or (not self._asked and self._timer is None and not self._hinting)

    def join(self, connection: Connection) -> None:
        """Watch the room: its sync, then every event. Synchronous on purpose: no event can fall
        between the two, and the hub cannot drop the room between ``Hub.get`` and this call."""
        self.connections[connection] = (0, {})
        connection.send(self.sync_message(connection))

    def leave(self, connection: Connection) -> None:
        self.connections.pop(connection, None)

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now: its observation and its legal actions."""
        legal = self.game.legal_actions(self.state, seat) if seat is not None else []
        return {"obs": self.game.observe(self.state, seat), "legal": legal}

    def sync_message(self, connection: Connection) -> dict[str, Any]:
        """The watcher's whole view now; ``seq`` is how many changes of it it has been sent, and
        ``deadline_in`` (only while the game waits on its clock) the seconds until the server's
        timer acts."""
        players = [
            {"kind": "bot", "level": spec["bot"]} if "bot" in spec else {"kind": "human"}
            for spec in self.seats
        ]
        version, _ = self.connections.get(connection, (0, {}))
        view = self.view(connection.seat)
        self.connections[connection] = (version, view)
        message = {
            "type": "sync",
            "seq": version,
            "seat": connection.seat,
            "players": players,
            **view,
        }
        due = self.game.deadline(self.state)
        if due is not None:
            # Seconds, not a time: the browser's clock is not the server's. A page that joins
            # (or comes back) in the middle of a timed wait shows what is left of it, not all.
            message["deadline_in"] = round(max(0.0, due - time.time()), 3)
        return message

    def finish(self, outcome: dict[str, Any]) -> Finish:
        """What the game's end writes beside its last event."""
        results = results_for(self.id, self.game, self.options, self.seats, outcome, self.hints)
        return Finish(outcome, results)

    # --- acting --------------------------------------------------------------------------------

    async def act(self, seat: int | None, action: Any, at: float | None = None) -> None:
        """A person's action, dated ``at`` (when it left them; default now). Raises
        ``RoomError`` or ``GameError``; the state is then unchanged."""
        async with self.lock:
            if self.over:
                raise RoomError("game_over", "the game is over")
            if seat is None:
                raise RoomError("not_seated", "you have no seat in this room")
            if seat not in self.game.to_move(self.state):
                raise RoomError("not_your_turn", f"seat {seat} may not act now")
            await self._commit(seat, action, at)

    async def _commit(
        self, seat: int | None, action: dict[str, Any] | None, at: float | None = None
    ) -> None:
        """Apply, log, show. ``at`` (default now) may lie a little before the last event when
        the action was dated back by its sender's delay: the game decides what that means (a
        race orders grabs by it; other actions count at the latest time seen)."""
        at = time.time() if at is None else at
        if action is None:
            new = self.game.advance(self.state, at)
        else:
            assert seat is not None, "only timed events have no seat"
            new = self.game.apply(self.state, seat, action, at)  # raises on illegal: no change
        outcome = self.game.outcome(new)
        finish = None if outcome is None else self.finish(outcome)
        await asyncio.to_thread(
            self.store.append_event, self.id, self.seq + 1, seat, action, at, finish
        )
        self.state = new
        self.seq += 1
        for connection, (version, seen) in list(self.connections.items()):
            # Default-deny: nothing but the receiving seat's own view, not even who acted or
            # how; and nothing at all when that view did not change (a secret pass in a claim
            # window must not show that someone answered).
            view = self.view(connection.seat)
            if view != seen:
                self.connections[connection] = (version + 1, view)
                connection.send({"type": "event", "seq": version + 1, **view})
        self.schedule()

    async def hint(self, seat: int | None) -> Hint:
        """The best move for ``seat`` now, and why: only for the seat to move, only in a game
        where every other seat is a bot, one at a time. The hint is logged (``room_hints``) and
        counted in the seat's result before it is returned. Raises ``RoomError``."""
        if not analyses(self.game):
            raise RoomError("no_hints", f"{self.game.name} offers no hints")
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        if any("bot" not in spec for other, spec in enumerate(self.seats) if other != seat):
            raise RoomError("hints_bots_only", "hints are given only in games against the computer")
        if self.over:
            raise RoomError("game_over", "the game is over")
        if seat not in self.game.to_move(self.state):
            raise RoomError("not_your_turn", "a hint is for your own turn")
        if self._hint is not None and self._hint[:2] == (self.seq, seat):
            return self._hint[2]
        if self._hinting:
            raise RoomError("hint_busy", "a hint is already being worked out")
        self._hinting = True
        seq = self.seq
        try:
            hint = await self._hinter(self.game.name, self.state, HINT_SECONDS)
        finally:
            self._hinting = False
        async with self.lock:
            if self.seq != seq:
                raise RoomError("hint_stale", "the position changed before the hint was ready")
            logged = StoredHint(seq, seat, hint.action, time.time())
            await asyncio.to_thread(self.store.add_hint, self.id, logged)
            self.hints[seat] += 1
            self._hint = (seq, seat, hint)
        return hint

    # --- bots and timers -----------------------------------------------------------------------

    def schedule(self) -> None:
        """Ask every bot seat that may act now (once per state), forget answers the state has
        moved past, and arm the next timed event."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for seat, (seq, task) in list(self._asked.items()):
            if seq != self.seq:
                task.cancel()
                del self._asked[seat]
        if self.over:
            return
        for seat in self.game.to_move(self.state):
            spec = self.seats[seat]
            if "bot" in spec and seat not in self._asked and self._passed.get(seat) != self.seq:
                task = self._spawn(self._bot_turn(seat, spec["bot"], self.seq))
                self._asked[seat] = (self.seq, task)
        due = self.game.deadline(self.state)
        if due is not None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(
                max(0.0, due - time.time()), lambda: self._spawn(self._fire_timer())
            )

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _bot_turn(self, seat: int, level: str, seq: int) -> None:
        """Ask the bot, wait until the time it chose, and act if nothing happened meanwhile (a
        change of state cancels this task: see ``schedule``). A bot that passes, or fails, is
        not asked again until the state changes."""
        try:
            asked_at = time.time()
            view = self.view(seat)
            bot_seed = bot_seed_for(self.seed, seat, seq)
            answer = await self._choose(self.game.name, level, bot_seed, view["obs"], view["legal"])
            if answer.action is not None:
                await asyncio.sleep(max(0.0, asked_at + answer.after - time.time()))
                async with self.lock:
                    if self.seq == seq:
                        del self._asked[seat]  # this commit's schedule must not cancel us
                        await self._commit(seat, answer.action)
                        return
        except (GameError, RoomError):
            log.exception("bot %s in room %s chose an illegal action", level, self.id)
        except Exception:
            log.exception("bot %s in room %s failed", level, self.id)
        # Passed, or failed, with the state unchanged: not asked again until it changes.
        self._passed[seat] = seq
        if seat in self._asked and self._asked[seat][0] == seq:
            del self._asked[seat]

    async def _fire_timer(self) -> None:
        async with self.lock:
            self._timer = None  # fired: the room is idle again unless something re-arms it
            due = self.game.deadline(self.state)
            if due is None:
                return
            if due <= time.time():
                await self._commit(None, None)
            else:
                # Early: the loop's clock (monotonic) ran ahead of the wall clock the deadline
                # is in. Arm it again, or the room would wait for ever.
                self.schedule()

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
