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
from asobiba.core.game import Game, analyses, pace_of
from asobiba.core.rng import derive, stream
from asobiba.server.analysis.hints import HINT_SECONDS, Hint, Hinter, in_thread
from asobiba.server.rooms.clock import GameClock
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.recovery import replay
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store, StoredHint, StoredRoom

log = logging.getLogger(__name__)

PACE_MARGIN = 0.25
"""Seconds before the rules' own deadline by which a paced bot's answer is shown at the latest."""

BotChooser = Callable[[str, str, int, dict[str, Any], list[dict[str, Any]]], Awaitable[Timed]]
"""``(game, level, seed, observation, legal) -> Timed``: a bot's decision, computed off-loop."""


def bot_seed_for(room_seed: int, seat: int) -> int:
    """The seed of every bot asked for ``seat``: secret, the same all game (a bot keeps its plan
    through a race however often it is asked; its choices vary with what it sees, which every
    bot mixes in), and one-way, so nothing a bot does can lead back to the room's seed."""
    return derive(room_seed, f"bot/{seat}")


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
        *,
        running: bool = False,
        pause_seconds: float = 10.0,
        pace_scale: float = 1.0,
    ) -> None:
        """``running``: a new room's clock runs at once; a rebuilt one stands still until a
        seated person is connected. ``pause_seconds``: how long the clock and the bots go on
        after the last seated person's socket closed (a reload must not pause the game).
        ``pace_scale``: multiplies the bots' human pace (0: bots act as soon as they decide,
        for tests and load benches only)."""
        self.id = stored.id
        self.game = game
        self.options = stored.options
        self.seed = stored.seed
        self.seats = stored.seats
        self.abandoned = stored.abandoned
        self.store = store
        self._choose = choose
        self.lock = asyncio.Lock()
        self.connections: dict[Connection, tuple[int, dict[str, Any]]] = {}
        """Each watcher's view as last sent, and how many changes of it it has been sent."""
        self.state = replay(game, stored)
        self.seq = len(stored.events)
        self._tasks: set[asyncio.Task[None]] = set()
        self._asked: dict[int, tuple[dict[str, Any], asyncio.Task[None]]] = {}
        """Bot seats deciding or waiting to act: the view they were shown, and their task. A
        change that leaves a bot's view as it was (another seat's secret answer in a claim
        window) keeps its answer and its time."""
        self._passed: dict[int, dict[str, Any]] = {}
        """Bot seats that chose to do nothing, and the view they chose it on."""
        self._timer: asyncio.TimerHandle | None = None
        self._hinter = hinter
        self.hints = stored.hints_per_seat()
        """How many hints each seat took (its results carry it)."""
        self._hint: tuple[int, int, Hint] | None = None
        """The last hint given, ``(seq, seat, hint)``: asked again in the same position, the
        same answer, neither worked out nor counted twice."""
        self._hinting = False
        self.clock = GameClock(stored.resume_at(), running=running)
        self.pause_seconds = pause_seconds
        self.pace_scale = pace_scale
        self._pause: asyncio.TimerHandle | None = None
        if running:
            self._arm_pause()

    # --- reading -------------------------------------------------------------------------------

    def seat_of(self, player_id: str | None) -> int | None:
        for seat, spec in enumerate(self.seats):
            if player_id is not None and spec.get("player") == player_id:
                return seat
        return None

    @property
    def over(self) -> bool:
        return self.abandoned or self.game.outcome(self.state) is not None

    @property
    def idle(self) -> bool:
        """Nothing in flight: over, or no bot thinking and no timer armed. The log alone can then
        rebuild the room exactly as it is."""
        quiet = not self._asked and self._timer is None and not self._hinting
        return self.over or (quiet and not self.lock.locked())  # locked: a change in flight

    def present(self) -> bool:
        """Whether a seated person has a socket open here: only then does the clock run."""
        return any(
            connection.seat is not None and "player" in self.seats[connection.seat]
            for connection in self.connections
        )

    def crowded(self, seat: int | None, per_seat: int, per_room: int) -> str | None:
        """Why one more socket for ``seat`` may not join (too many already), or None. A seat's
        own sockets count only against ``per_seat``, so spectators can never fill a room
        against its players."""
        if seat is not None:
            if sum(c.seat == seat for c in self.connections) >= per_seat:
                return f"your seat has {per_seat} sockets open already; close a tab"
            return None
        if len(self.connections) >= per_room:
            return f"this room has {per_room} sockets open already"
        return None

    def join(self, connection: Connection) -> None:
        """Watch the room: its sync, then every event. Synchronous on purpose: no event can fall
        between the two, and the hub cannot drop the room between ``Hub.get`` and this call. A
        seated person's arrival starts a stopped clock (and the bots) again."""
        self.connections[connection] = (0, {})
        if self.present():
            self._cancel_pause()
            if not self.clock.running:
                self.clock.start()
                self.schedule()
        connection.send(self.sync_message(connection))

    def leave(self, connection: Connection) -> None:
        self.connections.pop(connection, None)
        if not self.present() and self.clock.running:
            self._arm_pause()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now: its observation and its legal actions."""
        playing = seat is not None and not self.abandoned
        legal = self.game.legal_actions(self.state, seat) if playing and seat is not None else []
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
            message["deadline_in"] = round(self.clock.wall_seconds_until(due), 3)
        return message

    def finish(self, outcome: dict[str, Any]) -> Finish:
        """What the game's end writes beside its last event."""
        results = results_for(self.id, self.game, self.options, self.seats, outcome, self.hints)
        return Finish(outcome, results)

    # --- acting --------------------------------------------------------------------------------

    async def act(self, seat: int | None, action: Any, at: float | None = None) -> None:
        """A person's action, dated ``at`` (wall-clock seconds: its arrival less its sender's
        round trip, so a reaction counts from when the card reached them; default now).
        Raises ``RoomError`` or ``GameError``; the state is then unchanged."""
        at = None if at is None else self.clock.game_time(at)
        async with self.lock:
            if self.over:
                raise RoomError("game_over", "the game is over")
            if seat is None:
                raise RoomError("not_seated", "you have no seat in this room")
            if seat not in self.game.to_move(self.state):
                raise RoomError("not_your_turn", f"seat {seat} may not act now")
            if not self.clock.running:  # whoever acts is here, socket or not
                self.clock.start()
                if not self.present():
                    self._arm_pause()
            await self._commit(seat, action, at)

    async def _commit(
        self, seat: int | None, action: dict[str, Any] | None, at: float | None = None
    ) -> None:
        """Apply, log, show. ``at`` (game time, default now) may lie a little before the last
        event when the action was dated back by its sender's delay: the game decides what that
        means (a race orders grabs by it; other actions count at the latest time seen)."""
        at = self.clock.now() if at is None else at
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
            logged = StoredHint(seq, seat, hint.action, self.clock.now())
            await asyncio.to_thread(self.store.add_hint, self.id, logged)
            self.hints[seat] += 1
            self._hint = (seq, seat, hint)
        return hint

    # --- bots and timers -----------------------------------------------------------------------

    def schedule(self) -> None:
        """Ask every bot seat that may act now (once per state), forget answers the state has
        moved past, and arm the next timed event: only while the clock runs."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        live = self.clock.running and not self.over
        for seat, (seen, task) in list(self._asked.items()):
            if not live or self.view(seat) != seen:
                task.cancel()
                del self._asked[seat]
        if not live:
            return
        for seat in self.game.to_move(self.state):
            spec = self.seats[seat]
            if "bot" in spec and seat not in self._asked:
                view = self.view(seat)
                if self._passed.get(seat) != view:
                    task = self._spawn(self._bot_turn(seat, spec["bot"], view))
                    self._asked[seat] = (view, task)
        due = self.game.deadline(self.state)
        if due is not None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(
                self.clock.wall_seconds_until(due), lambda: self._spawn(self._fire_timer())
            )

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _paced(self, seat: int, level: str, draw: str = "") -> float | None:
        """Seconds from now at which the bot's move is shown, drawn from its level's human pace
        (``core.game.pace_of``) with the room's secret stream: how long the bot computed, and
        so its cards, never show. Kept inside the rules' own wait (a claim window) so the pace
        alone never makes a bot miss it. None: the bot times itself (a real-time game).
        ``draw`` names a further draw for the same move (one that came back too late)."""
        pace = pace_of(self.game, level)
        if pace is None or self.pace_scale == 0:
            return None
        delay = pace.draw(stream(self.seed, f"pace/{seat}/{self.seq}{draw}")) * self.pace_scale
        due = self.game.deadline(self.state)
        if due is not None:
            delay = min(delay, max(0.0, self.clock.wall_seconds_until(due) - PACE_MARGIN))
        return delay

    async def _bot_turn(self, seat: int, level: str, view: dict[str, Any]) -> None:
        """Ask the bot, wait until the time it (or its pace) chose, and act if its view is still
        the same (a change of it cancels this task: see ``schedule``). A bot that passes, or
        fails, is not asked again until its view changes."""
        try:
            asked_at = time.time()
            paced = self._paced(seat, level)
            bot_seed = bot_seed_for(self.seed, seat)
            answer = await self._choose(self.game.name, level, bot_seed, view["obs"], view["legal"])
            if answer.action is not None:
                after = answer.after if paced is None else max(answer.after, paced)
                if paced is not None and time.time() > asked_at + after:
                    # The answer came back after its moment (busy workers): showing it now would
                    # show when its computing ended, so it waits a fresh draw of the pace.
                    log.info("bot %s in room %s answered after its pace", level, self.id)
                    after = time.time() - asked_at + (self._paced(seat, level, "/late") or 0.0)
                await asyncio.sleep(max(0.0, asked_at + after - time.time()))
                async with self.lock:
                    if self.view(seat) == view:
                        del self._asked[seat]  # this commit's schedule must not cancel us
                        await self._commit(seat, answer.action)
                        return
        except (GameError, RoomError):
            log.exception("bot %s in room %s chose an illegal action", level, self.id)
        except Exception:
            log.exception("bot %s in room %s failed", level, self.id)
        # Passed, or failed, with its view unchanged: not asked again until it changes.
        self._passed[seat] = view
        if seat in self._asked and self._asked[seat][0] is view:
            del self._asked[seat]

    async def _fire_timer(self) -> None:
        async with self.lock:
            self._timer = None  # fired: the room is idle again unless something re-arms it
            due = self.game.deadline(self.state)
            if due is None:
                return
            if due <= self.clock.now():
                await self._commit(None, None)
            else:
                # Early: the loop's clock (monotonic) ran ahead of the wall clock the game time
                # follows. Arm it again, or the room would wait for ever.
                self.schedule()

    # --- pausing -------------------------------------------------------------------------------

    def _arm_pause(self) -> None:
        """Stop the clock ``pause_seconds`` from now unless a seated person comes back."""
        self._cancel_pause()
        loop = asyncio.get_running_loop()
        self._pause = loop.call_later(self.pause_seconds, lambda: self._spawn(self.pause()))

    def _cancel_pause(self) -> None:
        if self._pause is not None:
            self._pause.cancel()
            self._pause = None

    async def pause(self) -> None:
        """Stand the room still: the clock stops, no timer is armed, no bot thinks. The game time
        it stopped at is stored, so a rebuilt room resumes from exactly there."""
        async with self.lock:
            self._pause = None
            if not self.clock.running or self.present():
                return
            stopped_at = self.clock.stop()
            self.schedule()  # cancels the timer and every bot's answer, asks nobody
            await asyncio.to_thread(self.store.stop_clock, self.id, stopped_at)

    async def abandon(self) -> None:
        """The game was ended unplayed (its guest holds too many): nothing more happens here."""
        async with self.lock:
            self.abandoned = True
            self.schedule()  # over: cancels the timer and the bots
            for connection in list(self.connections):  # a spectator sees it end
                connection.send(self.sync_message(connection))
        await self.close()

    async def close(self) -> None:
        """Forget the room in this process (the server stops, or nobody needs it): a running
        clock is stopped and stored first, so the room resumes with what its waits had left."""
        self._cancel_pause()
        if self.clock.running and not self.over:
            await asyncio.to_thread(self.store.stop_clock, self.id, self.clock.stop())
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
