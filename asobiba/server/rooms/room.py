"""A room: one authoritative game state, its seats, its event log, its bots and timers.

One writer per room: every change goes through ``Room._commit`` under the room's lock, is written
to the event log before it becomes visible, and is then sent to each connection built from that
connection's own seat's observation.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import anyio
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from asobiba.core.bots import Timed
from asobiba.core.errors import GameError
from asobiba.core.game import Game, analyses, pace_of
from asobiba.core.rng import derive, stream
from asobiba.server.analysis.hints import HINT_SECONDS, Hint, Hinter, in_thread
from asobiba.server.rooms.clock import GameClock
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.presence import Standins
from asobiba.server.rooms.recovery import states
from asobiba.server.rooms.turn_clock import TurnClock
from asobiba.server.social.chat import KEPT, ChatLimiter, ChatRefused, check_stamp, clean_text
from asobiba.server.social.names import default_name
from asobiba.server.social.tables import TableSettings
from asobiba.server.store.records import results_for
from asobiba.server.store.store import ChatLine, Event, Finish, Store, StoredHint, StoredRoom

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How long a bot's move or a timed event that could not be stored waits before trying again."""
CLOSE_MOVED = 1012
"""Close code for the sockets of a room this process gave up: their pages reconnect and find
the room where it is now."""

PACE_MARGIN = 0.25
"""Seconds before the rules' own deadline by which a paced bot's answer is shown at the latest."""

UNAVAILABLE = "the game could not be saved just now: nothing changed; try again in a moment"

BotChooser = Callable[[str, str, int, dict[str, Any], list[dict[str, Any]]], Awaitable[Timed]]
"""``(game, level, seed, observation, legal) -> Timed``: a bot's decision, computed off-loop."""


def bot_seed_for(room_seed: int, seat: int) -> int:
    """The seed of every bot asked for ``seat``: secret, the same all game (a bot keeps its plan
    through a race however often it is asked; its choices vary with what it sees, which every
    bot mixes in), and one-way, so nothing a bot does can lead back to the room's seed."""
    return derive(room_seed, f"bot/{seat}")


class Connection(Protocol):
    seat: int | None
    player: str | None
    """The watcher's guest id (None: no cookie): the room seats it again when seats change."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; never blocks the room."""
        ...

    def end(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` after the messages already queued."""
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
        standin_grace: float = 30.0,
        on_change: Callable[[Room], None] | None = None,
        fence: Callable[[], bool] = lambda: True,
        on_lost: Callable[[Room], None] | None = None,
    ) -> None:
        """``running``: a new room's clock runs at once; a rebuilt one stands still until a
        seated person is connected. ``pause_seconds``: how long the clock and the bots go on
        after the last seated person's socket closed (a reload must not pause the game).
        ``pace_scale``: multiplies the bots' human pace (0: bots act as soon as they decide,
        for tests and load benches only). ``standin_grace``: how long a table waits for an
        absent person before a stand-in plays for them. ``on_change``: told when what the
        lobby shows of a table changed (seats taken, started, over). ``fence``: whether this
        process may write the room's log now (it holds the room's lease,
        ``server/cluster/leases.py``); ``on_lost``: told when the log showed that another
        process wrote it (the room is then given up here)."""
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
        self.status = stored.status
        self.code = stored.code
        self.public = stored.public
        self.host = stored.host
        self.created_at = stored.created_at
        self.table = None if stored.settings is None else TableSettings.from_json(stored.settings)
        """A table between people's settings; None for a game against bots."""
        self.turn_clock: TurnClock | None = None
        self._views: dict[int | None, dict[str, Any]] = {}
        self._views_of: Any = None
        self._views_abandoned = self.abandoned
        """``view``'s answers for the state ``_views_of`` (and ``abandoned`` as it was)."""
        self.state: Any = None
        """None while a table waits for its people: its game starts with its final seats."""
        if self.status == "playing":
            self.state = self._rebuild(stored)
        self.seq = len(stored.events)
        self.standin_played = stored.stood_in
        self.chat = list(stored.chat)
        self._chat_limiter = ChatLimiter()
        self.standins = Standins(standin_grace, self._standin_due)
        self._on_change = on_change
        self._fence = fence
        self._on_lost = on_lost
        self.lost = False
        """Another process owns the room now: nothing more happens here."""
        self._retry: asyncio.TimerHandle | None = None
        self._turn_timer: asyncio.TimerHandle | None = None
        self._out_of_time: tuple[int, int] | None = None
        """``(seq, seat)``: the person at ``seat`` ran out of time in this position; the
        stand-in plays this one move for them."""
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

    def _rebuild(self, stored: StoredRoom) -> Any:
        """The state after every stored event; for a table with a turn clock, the reserves as
        the log leaves them."""
        clock = None
        if self.table is not None and self.table.clock is not None:
            started = self.table.started_at or 0.0
            clock = TurnClock(self.table.clock, len(self.seats), started)
        walk = states(self.game, stored)
        state = next(walk)
        marks = stored.standins or (None,) * len(stored.events)
        for (seat, action, at), standin, after in zip(stored.events, marks, walk, strict=True):
            if clock is not None:
                person = action is not None and seat is not None and standin is None
                if person and seat is not None and self._clocked(state, seat):
                    clock.charge(seat, at)
                clock.next_wait(at)
            state = after
        self.turn_clock = clock
        return state

    # --- reading -------------------------------------------------------------------------------

    def seat_of(self, player_id: str | None) -> int | None:
        for seat, spec in enumerate(self.seats):
            if player_id is not None and spec.get("player") == player_id:
                return seat
        return None

    @property
    def over(self) -> bool:
        if self.abandoned:
            return True
        return self.state is not None and self.game.outcome(self.state) is not None

    def _clocked(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` is on the turn clock in ``state``: a person's seat, in a wait
        with no timer of the rules' own."""
        return "player" in self.seats[seat] and self.game.deadline(state) is None

    def acting_level(self, seat: int) -> str | None:
        """The level of the bot that acts for ``seat`` now: its own bot, the stand-in of an
        absent person, or of a person whose time for this move ran out; None: the person."""
        spec = self.seats[seat]
        if "bot" in spec:
            level: str = spec["bot"]
            return level
        if seat in self.standins.playing:
            return self.standins.playing[seat]
        if self.table is not None and self._out_of_time == (self.seq, seat):
            return self.table.standin
        return None

    @property
    def idle(self) -> bool:
        """Nothing in flight: over, or no bot thinking and no timer armed. The log alone can then
        rebuild the room exactly as it is."""
        quiet = (
            not self._asked
            and self._timer is None
            and self._turn_timer is None
            and self._retry is None
            and not self.standins.pending
            and not self._hinting
        )
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
        self._presence()

    def leave(self, connection: Connection) -> None:
        self.connections.pop(connection, None)
        if not self.present() and self.clock.running:
            self._arm_pause()
        self._presence()

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know now: its observation and its legal actions.

        Built once per seat and state: every watcher of a seat (its tabs; every spectator) and
        its bot share one view until the state changes (states are immutable: a change is a
        new state), so the answer must be read, never changed."""
        if self._views_of is not self.state or self._views_abandoned != self.abandoned:
            self._views = {}
            self._views_of, self._views_abandoned = self.state, self.abandoned
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._build_view(seat)
        return view

    def _build_view(self, seat: int | None) -> dict[str, Any]:
        if self.state is None:
            return {"obs": None, "legal": []}
        playing = seat is not None and not self.abandoned
        legal = self.game.legal_actions(self.state, seat) if playing and seat is not None else []
        return {"obs": self.game.observe(self.state, seat), "legal": legal}

    def players_json(self) -> list[dict[str, Any]]:
        """Who sits where, as every watcher may know it: names, never guest ids."""
        players: list[dict[str, Any]] = []
        connected = self._here()
        for seat, spec in enumerate(self.seats):
            if "bot" in spec:
                players.append(
                    {"kind": "bot", "level": spec["bot"], "name": None, "connected": True}
                    | {"standin": None, "host": False, "clock": None}
                )
            elif spec.get("open"):
                players.append(
                    {"kind": "open", "name": None, "connected": False, "standin": None}
                    | {"host": False, "clock": None}
                )
            else:
                players.append(
                    {
                        "kind": "human",
                        "name": spec.get("name"),
                        "connected": seat in connected,
                        "standin": self.standins.playing.get(seat),
                        "host": self.host is not None and spec["player"] == self.host,
                        "clock": self._clock_json(seat),
                    }
                )
        return players

    def _clock_json(self, seat: int) -> dict[str, Any] | None:
        clock = self.turn_clock
        if clock is None or self.state is None:
            return None
        ticking = (
            self.clock.running
            and not self.over
            and seat in self.game.to_move(self.state)
            and self._clocked(self.state, seat)
            and self.acting_level(seat) is None
        )
        left = self.clock.wall_seconds_until(clock.limit(seat)) if ticking else None
        return {
            "reserve": round(clock.reserve[seat], 1),
            "deadline_in": None if left is None else round(left, 3),
        }

    def may_chat(self, connection: Connection) -> bool:
        """Players write at a table; spectators too where the host allowed it."""
        if self.table is None or connection.player is None:
            return False
        return connection.seat is not None or self.table.spectator_chat

    def table_json(self, connection: Connection) -> dict[str, Any]:
        """The table as ``connection`` sees it (a game against bots is a table of one)."""
        table = self.table
        host = None if self.host is None else self.seat_of(self.host)
        return {
            "status": "over" if self.over else self.status,
            "code": self.code,
            "public": self.public,
            "host": host,
            "clock": None if table is None or table.clock is None else table.clock.to_json(),
            "standin": None if table is None else table.standin,
            "spectator_chat": table is not None and table.spectator_chat,
            "min_seats": self.game.min_seats,
            "max_seats": self.game.max_seats,
            "you": {
                "seat": connection.seat,
                "host": host is not None and connection.seat == host,
                "may_chat": self.may_chat(connection),
            },
        }

    def sync_message(self, connection: Connection) -> dict[str, Any]:
        """The watcher's whole view now; ``seq`` is how many changes of it it has been sent, and
        ``deadline_in`` (only while the game waits on its clock) the seconds until the server's
        timer acts."""
        version, _ = self.connections.get(connection, (0, {}))
        view = self.view(connection.seat)
        self.connections[connection] = (version, view)
        message = {
            "type": "sync",
            "seq": version,
            "seat": connection.seat,
            "players": self.players_json(),
            "table": self.table_json(connection),
            "chat": [line.to_json() for line in self.chat[-KEPT:]],
            **view,
        }
        due = None if self.state is None else self.game.deadline(self.state)
        if due is not None:
            # Seconds, not a time: the browser's clock is not the server's. A page that joins
            # (or comes back) in the middle of a timed wait shows what is left of it, not all.
            message["deadline_in"] = round(self.clock.wall_seconds_until(due), 3)
        return message

    def finish(self, outcome: dict[str, Any], standin: bool = False) -> Finish:
        """What the game's end writes beside its last event (``standin``: a stand-in played)."""
        results = results_for(
            self.id, self.game, self.options, self.seats, outcome, self.hints, standin=standin
        )
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
            if self.state is None:
                raise RoomError("not_started", "the game starts when every seat is taken")
            if seat not in self.game.to_move(self.state):
                raise RoomError("not_your_turn", f"seat {seat} may not act now")
            if not self.clock.running:  # whoever acts is here, socket or not
                self.clock.start()
                if not self.present():
                    self._arm_pause()
            await self._commit(seat, action, at)

    async def _commit(
        self,
        seat: int | None,
        action: dict[str, Any] | None,
        at: float | None = None,
        standin: str | None = None,
    ) -> None:
        """Apply, log, show. ``at`` (game time, default now) may lie a little before the last
        event when the action was dated back by its sender's delay: the game decides what that
        means (a race orders grabs by it; other actions count at the latest time seen)."""
        if self.lost:
            raise RoomError("moved", "this game moved to another server; reconnecting")
        if not self._fence():
            raise RoomError("unavailable", UNAVAILABLE)
        at = self.clock.now() if at is None else at
        before = self.state
        if action is None:
            new = self.game.advance(self.state, at)
        else:
            assert seat is not None, "only timed events have no seat"
            new = self.game.apply(self.state, seat, action, at)  # raises on illegal: no change
        outcome = self.game.outcome(new)
        played = self.standin_played or standin is not None
        finish = None if outcome is None else self.finish(outcome, played)
        write = self.store.append(Event(self.id, self.seq + 1, seat, action, at, finish, standin))
        self.clock.hold()  # nobody's time runs until they can see the change (``clock.py``)
        with anyio.CancelScope(shield=True):
            # A socket closing mid-write cancels its task group: the event is written whatever
            # happens, so the room takes it in before that cancellation goes on, or its memory
            # would fall behind its log. (The server stopping cancels natively; its rooms are
            # then rebuilt from the log.)
            try:
                await asyncio.shield(write)  # a failed write raises here: nothing changed
            except IntegrityError:
                # Another process wrote this seq: it owns the room now (``leases.py``).
                log.warning(
                    "room %s: event %d was written elsewhere; giving it up", self.id, self.seq + 1
                )
                self.forsake()
                raise RoomError(
                    "moved", "this game moved to another server; reconnecting"
                ) from None
            except SQLAlchemyError as error:
                log.warning("room %s: event %d not stored (%s)", self.id, self.seq + 1, error)
                raise RoomError("unavailable", UNAVAILABLE) from None
            finally:
                self.clock.let_go()
        self.state = new
        self.seq += 1
        self.standin_played = played
        if self.turn_clock is not None:
            person = action is not None and standin is None
            if person and seat is not None and self._clocked(before, seat):
                self.turn_clock.charge(seat, at)
            self.turn_clock.next_wait(at)
        changed: dict[tuple[int | None, int], bool] = {}
        for connection, (version, seen) in list(self.connections.items()):
            # Default-deny: nothing but the receiving seat's own view, not even who acted or
            # how; and nothing at all when that view did not change (a secret pass in a claim
            # window must not show that someone answered). Each seat's view is built once
            # (``view``), and compared once with each view its watchers were last sent.
            view = self.view(connection.seat)
            key = (connection.seat, id(seen))
            differs = changed.get(key)
            if differs is None:
                differs = changed[key] = view != seen
            if differs:
                self.connections[connection] = (version + 1, view)
                connection.send({"type": "event", "seq": version + 1, **view})
        self.schedule()
        if self.turn_clock is not None or self.standins.playing:
            self._send_players()
        if outcome is not None:
            self._changed()

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
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        live = self.clock.running and not self.over and self.state is not None
        for seat, (seen, task) in list(self._asked.items()):
            if not live or self.view(seat) != seen or self.acting_level(seat) is None:
                task.cancel()
                del self._asked[seat]
        if not live:
            return
        for seat in self.game.to_move(self.state):
            level = self.acting_level(seat)
            if level is not None and seat not in self._asked:
                view = self.view(seat)
                if self._passed.get(seat) != view:
                    task = self._spawn(self._bot_turn(seat, level, view))
                    self._asked[seat] = (view, task)
        loop = asyncio.get_running_loop()
        due = self.game.deadline(self.state)
        if due is not None:
            self._timer = loop.call_later(
                self.clock.wall_seconds_until(due), lambda: self._spawn(self._fire_timer())
            )
        elif self.turn_clock is not None:
            on_clock = [
                seat
                for seat in self.game.to_move(self.state)
                if self._clocked(self.state, seat) and self.acting_level(seat) is None
            ]
            if on_clock:
                seat = min(on_clock, key=self.turn_clock.limit)
                seq = self.seq
                self._turn_timer = loop.call_later(
                    self.clock.wall_seconds_until(self.turn_clock.limit(seat)),
                    lambda: self._spawn(self._time_up(seat, seq)),
                )

    def _retry_later(self) -> None:
        """A change could not be stored: ask the bots and arm the timers again in a moment."""
        if self._retry is None and not self.lost:
            loop = asyncio.get_running_loop()
            self._retry = loop.call_later(RETRY_SECONDS, lambda: self._spawn(self.resume()))

    async def resume(self) -> None:
        """Ask the bots and arm the timers again (storage or ownership is back after an
        outage, or a retry is due)."""
        self._retry = None
        async with self.lock:
            if not self.lost:
                self.schedule()

    def forsake(self) -> None:
        """Another process owns the room now: stop everything here without writing a thing
        (the owner's log is the game), and send every watcher off to reconnect to it."""
        if self.lost:
            return
        self.lost = True
        self._cancel_pause()
        for handle in (self._timer, self._turn_timer, self._retry):
            if handle is not None:
                handle.cancel()
        self._timer = self._turn_timer = self._retry = None
        self.standins.cancel()
        for task in list(self._tasks):
            if task is not asyncio.current_task():
                task.cancel()
        # Next round of the loop: the refusal of the action that found the room lost (raised
        # after this) reaches its socket before the close does.
        loop = asyncio.get_running_loop()
        for connection in list(self.connections):
            loop.call_soon(connection.end, CLOSE_MOVED, "this game moved to another server")
        if self._on_lost is not None:
            self._on_lost(self)

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
                    if self.view(seat) == view and self.acting_level(seat) == level:
                        del self._asked[seat]  # this commit's schedule must not cancel us
                        standin = None if "bot" in self.seats[seat] else level
                        await self._commit(seat, answer.action, standin=standin)
                        return
        except RoomError as error:
            if error.code in {"unavailable", "moved"}:
                self._retry_later()  # not stored: asked again once storage answers
                return
            log.exception("bot %s in room %s chose an illegal action", level, self.id)
        except GameError:
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
                try:
                    await self._commit(None, None)
                except RoomError:
                    self._retry_later()
            else:
                # Early: the loop's clock (monotonic) ran ahead of the wall clock the game time
                # follows. Arm it again, or the room would wait for ever.
                self.schedule()

    async def _time_up(self, seat: int, seq: int) -> None:
        """``seat``'s time for this move ran out: its stand-in plays the move."""
        async with self.lock:
            self._turn_timer = None
            if self.seq != seq or self.over or self.turn_clock is None:
                return
            if self.turn_clock.limit(seat) > self.clock.now():
                self.schedule()  # early (see _fire_timer): arm it again
                return
            log.info("room %s: seat %s ran out of time", self.id, seat)
            self._out_of_time = (seq, seat)
            self.schedule()
            self._send_players()

    # --- people at a table -----------------------------------------------------------------------

    def _here(self) -> set[int | None]:
        """The seats with a socket open here (None: a spectator's)."""
        return {connection.seat for connection in self.connections}

    def _presence(self) -> None:
        """A socket came or went: start or stop the grace of the people away, hand seats back
        to those who returned, and tell everyone who is here (tables only)."""
        if self.table is None:
            return
        here = self._here()
        people = {seat for seat, spec in enumerate(self.seats) if "player" in spec}
        away = people - here
        live = self.state is not None and self.clock.running and not self.over
        if self.standins.update(away, live):
            self.schedule()
        self._send_players()

    def _standin_due(self, seat: int) -> None:
        self._spawn(self._stand_in(seat))

    async def _stand_in(self, seat: int) -> None:
        async with self.lock:
            back = seat in self._here()
            if self.table is None or self.over or not self.clock.running or back:
                return
            log.info("room %s: a stand-in plays seat %s", self.id, seat)
            self.standins.playing[seat] = self.table.standin
            self.schedule()
            self._send_players()

    def _send_players(self) -> None:
        if self.table is None:
            return
        players = self.players_json()
        for connection in list(self.connections):
            table = self.table_json(connection)
            connection.send({"type": "players", "players": players, "table": table})

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)

    def _reseat(self) -> None:
        """Seats changed: every watcher sits where its guest now does, the clock runs if a
        seated person is here, and everyone gets the whole table again."""
        for connection in self.connections:
            connection.seat = self.seat_of(connection.player)
        if self.present():
            self._cancel_pause()
            if not self.clock.running:
                self.clock.start()
        elif self.clock.running and not self.over:
            self._arm_pause()
        for connection in list(self.connections):
            connection.send(self.sync_message(connection))
        self._presence()
        self.schedule()
        self._changed()

    def _waiting(self) -> None:
        if self.over:
            raise RoomError("game_over", "this table is closed")
        if self.status != "waiting":
            raise RoomError("started", "the game has started")

    def _hosted_by(self, player: str) -> None:
        if self.host is None or player != self.host:
            raise RoomError("not_host", "only the table's host may do that")

    async def _store_seats(self, seats: list[dict[str, Any]], start: bool) -> None:
        """Keep the waiting table's new seats; with ``start``, start its game on them."""
        assert self.table is not None, "only tables wait for people"
        table = self.table
        state = None
        if start:
            state = self.game.new_state(self.options, len(seats), self.seed)
            table = dataclasses.replace(table, started_at=self.clock.now())
        status = "playing" if start else "waiting"
        await asyncio.to_thread(self.store.update_table, self.id, seats, status, table.to_json())
        self.seats[:] = seats
        if start:
            self.status, self.state, self.table = status, state, table
            if table.clock is not None and table.started_at is not None:
                self.turn_clock = TurnClock(table.clock, len(seats), table.started_at)
        self._reseat()

    async def take_seat(self, player: str, name: str) -> int:
        """Seat ``player`` (as ``name``) at the first open seat, or answer the seat they hold;
        the last open seat taken starts the game. Raises ``RoomError``."""
        async with self.lock:
            held = self.seat_of(player)
            if held is not None:
                return held
            self._waiting()
            free = next((k for k, spec in enumerate(self.seats) if spec.get("open")), None)
            if free is None:
                raise RoomError("table_full", "every seat at this table is taken")
            seats = [dict(spec) for spec in self.seats]
            seats[free] = {"player": player, "name": name}
            await self._store_seats(seats, start=not any(s.get("open") for s in seats))
            return free

    async def leave_seat(self, player: str) -> None:
        """Before the start: ``player``'s seat opens again; the host leaving closes the table."""
        async with self.lock:
            self._waiting()
            seat = self.seat_of(player)
            if seat is None:
                raise RoomError("not_seated", "you have no seat at this table")
            if player == self.host:
                await asyncio.to_thread(self.store.close_table, self.id)
                self.abandoned = True
                self._reseat()
                return
            seats = [dict(spec) for spec in self.seats]
            seats[seat] = {"open": True}
            await self._store_seats(seats, start=False)

    async def remove_seat(self, player: str, seat: int) -> None:
        """The host takes an open seat away (within the game's seat counts)."""
        async with self.lock:
            self._hosted_by(player)
            self._waiting()
            if not 0 <= seat < len(self.seats):
                raise RoomError("no_seat", f"this table has no seat {seat}")
            if not self.seats[seat].get("open"):
                raise RoomError("seat_taken", "only an open seat can be removed")
            if len(self.seats) <= self.game.min_seats:
                message = f"{self.game.name} needs at least {self.game.min_seats} seats"
                raise RoomError("too_few_seats", message)
            seats = [dict(spec) for k, spec in enumerate(self.seats) if k != seat]
            await self._store_seats(seats, start=not any(s.get("open") for s in seats))

    async def start_table(self, player: str, fill: str) -> None:
        """The host starts now: bots of ``fill`` take the open seats."""
        async with self.lock:
            self._hosted_by(player)
            self._waiting()
            if fill not in self.game.levels:
                raise RoomError(
                    "invalid_level", f"unknown level {fill!r}; known: {self.game.levels}"
                )
            seats = [{"bot": fill} if spec.get("open") else dict(spec) for spec in self.seats]
            await self._store_seats(seats, start=True)

    async def command(self, player: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """A table command of ``player`` (the routes of ``http/tables.py``, carried to whichever
        process owns the room): its JSON answer. Raises ``RoomError``."""
        if self.table is None:
            raise RoomError("unknown_room", f"no table {self.id!r}")
        if name == "join":
            return {"seat": await self.take_seat(player, str(args["name"]))}
        if name == "leave":
            await self.leave_seat(player)
            return {"left": True}
        if name == "start":
            await self.start_table(player, str(args["fill"]))
            return {"started": True, "seats": len(self.seats)}
        if name == "remove_seat":
            await self.remove_seat(player, int(args["seat"]))
            return {"seats": len(self.seats)}
        raise RoomError("bad_command", f"no table command {name!r}")

    async def say(self, connection: Connection, text: str | None, stamp: str | None) -> None:
        """A chat line from ``connection``'s guest to everyone at the table. Raises
        ``RoomError``; the line is kept before anyone sees it."""
        player = connection.player
        if player is None or not self.may_chat(connection):
            raise RoomError("chat_closed", "you may read this table's chat but not write in it")
        try:
            cleaned = None if text is None else clean_text(text)
            stamped = None if stamp is None else check_stamp(stamp)
            self._chat_limiter.take(player)
        except ChatRefused as refused:
            raise RoomError(refused.code, refused.message) from None
        seat = connection.seat
        if seat is not None:
            name = self.seats[seat].get("name") or default_name(player)
        else:
            name = await asyncio.to_thread(self.store.player_name, player) or default_name(player)
        async with self.lock:
            n = self.chat[-1].n + 1 if self.chat else 1
            line = ChatLine(n, seat, player, name, cleaned, stamped, time.time())
            await asyncio.to_thread(self.store.add_chat, self.id, line)
            self.chat.append(line)
            del self.chat[: -2 * KEPT]
            for watcher in list(self.connections):
                watcher.send({"type": "chat", "entry": line.to_json()})

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
            self._presence()  # and every grace: nobody's seat is handed over while stopped
            await asyncio.to_thread(self.store.stop_clock, self.id, stopped_at)

    async def abandon(self) -> None:
        """The game was ended unplayed (its guest holds too many): nothing more happens here."""
        async with self.lock:
            self.abandoned = True
            self.schedule()  # over: cancels the timer and the bots
            for connection in list(self.connections):  # a spectator sees it end
                connection.send(self.sync_message(connection))
            self._changed()
        await self.close()

    async def close(self) -> None:
        """Forget the room in this process (the server stops, or nobody needs it): a running
        clock is stopped and stored first, so the room resumes with what its waits had left."""
        self._cancel_pause()
        if self.clock.running and not self.over and not self.lost:
            await asyncio.to_thread(self.store.stop_clock, self.id, self.clock.stop())
        if self._timer is not None:
            self._timer.cancel()
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self.standins.cancel()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
