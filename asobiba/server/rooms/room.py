"""A room: one authoritative game state, its seats, its event log, and what each seat sees.

One writer per room: every change goes through ``Room._commit`` under the room's lock, is written
to the event log before it becomes visible, and is then sent to each connection built from that
connection's own seat's observation. The room owns the collaborators that hold its other
concerns, each in a module of its own, and each changes the game only through the lock and
``_commit``: ``bot_turns.py`` (bots and their pace), ``timers.py`` (the game's deadline, the turn
clock's limit, retries, the pause), ``people.py`` (presence, stand-ins, idle marks, the
``players`` entries), ``table_commands.py`` (seats, start, spectators' chat setting),
``chat.py``, ``hints.py`` and ``departures.py`` (a person who deleted their data leaves).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import anyio
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from asobiba.core.game import Game, automatic
from asobiba.server.analysis.hints import Hint, Hinter, in_thread
from asobiba.server.logs import bind_room
from asobiba.server.metrics import ACTION_SECONDS, FENCING_REFUSALS, MOVES_APPLIED
from asobiba.server.rooms.bot_turns import BotChooser, BotTurns
from asobiba.server.rooms.chat import RoomChat
from asobiba.server.rooms.clock import GameClock
from asobiba.server.rooms.departures import Departures
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hints import Hints
from asobiba.server.rooms.people import People
from asobiba.server.rooms.recovery import states
from asobiba.server.rooms.room_core import Connection
from asobiba.server.rooms.table_commands import TableCommands
from asobiba.server.rooms.timers import Timers
from asobiba.server.rooms.turn_clock import TurnClock
from asobiba.server.settings import GuestLimits
from asobiba.server.social.tables import TableSettings
from asobiba.server.store.ratings import rated_game
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Event, Finish, Store, StoredRoom

log = logging.getLogger(__name__)

CLOSE_MOVED = 1012
"""Close code for the sockets of a room this process gave up: their pages reconnect and find
the room where it is now."""

UNAVAILABLE = "the game could not be saved just now: nothing changed; try again in a moment"


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
        limits: GuestLimits | None = None,
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
        process wrote it (the room is then given up here). ``limits``: what its spectators may
        write (``GuestLimits.spectator_*``)."""
        self.id = stored.id
        self.game = game
        self.options = stored.options
        self.seed = stored.seed
        self.seats = stored.seats
        self.abandoned = stored.abandoned
        self.store = store
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
        self.stood_in = stored.stood_in
        """The seats a stand-in has played for (their results carry the mark)."""
        self.chat = RoomChat(self, list(stored.chat), limits or GuestLimits())
        self._on_change = on_change
        self._fence = fence
        self._on_lost = on_lost
        self.lost = False
        """Another process owns the room now: nothing more happens here."""
        self.handed_over = False
        """This process is stopping and gave the room up (``hand_over``): nothing more is
        written here; its watchers are sent off to reconnect to the room's next owner."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.people = People(self, standin_grace)
        self.timers = Timers(self, self.people, pause_seconds)
        self.bots = BotTurns(self, self.timers, choose, pace_scale)
        self.hints = stored.hints_per_seat()
        """How many hints each seat took (its results carry it)."""
        self._hints = Hints(self, hinter)
        self.tables = TableCommands(self, self.people)
        self.departures = Departures(self, self.tables, self.chat)
        self.clock = GameClock(stored.resume_at(), running=running)
        if running:
            self.timers.arm_pause()

    @property
    def _choose(self) -> BotChooser:
        """The bots' chooser (``BotTurns.choose``; tests put a bot of their own in its place)."""
        return self.bots.choose

    @_choose.setter
    def _choose(self, choose: BotChooser) -> None:
        self.bots.choose = choose

    @property
    def _asked(self) -> dict[int, tuple[dict[str, Any], asyncio.Task[None]]]:
        """The bot seats deciding now (``BotTurns.asked``; tests wait until it is empty)."""
        return self.bots.asked

    @property
    def _timer(self) -> asyncio.TimerHandle | None:
        """The game's own next timed event (``Timers.deadline``; tests cancel it)."""
        return self.timers.deadline

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
        for (seat, _, at), standin, after in zip(stored.events, marks, walk, strict=True):
            if clock is not None:
                self._record(clock, state, seat, at, standin)
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
    def kept_private(self) -> bool:
        """A private table no longer being played: seen only by its people (``http/sharing.py``)."""
        return self.table is not None and not self.public and self.over

    @property
    def over(self) -> bool:
        if self.abandoned:
            return True
        return self.state is not None and self.game.outcome(self.state) is not None

    def _clocked(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` is on the turn clock in ``state``: a person's seat, in a wait
        with no timer of the rules' own."""
        return "player" in self.seats[seat] and self.game.deadline(state) is None

    def _automatic(self, seat: int) -> dict[str, Any] | None:
        """The answer the room gives at once for a person's ``seat`` that has no choice
        (``core.game.automatic``); None for a bot's seat, which answers at its pace like any
        other, so how soon it answers never shows that it could not claim."""
        if "player" not in self.seats[seat] or self.state is None:
            return None
        return automatic(self.game, self.state, seat)

    def _record(
        self, clock: TurnClock, before: Any, seat: int | None, at: float, standin: str | None
    ) -> None:
        """Tell the turn clock of an event made in ``before`` (live, and replaying the log)."""
        clocked = seat is not None and self._clocked(before, seat)
        clock.record(seat, at, clocked=clocked, standin=standin is not None)

    def acting_level(self, seat: int) -> str | None:
        """The level of the bot that acts for ``seat`` now: its own bot, the stand-in of an
        absent person, of a person marked idle, or of a person whose time for this move ran
        out (``People.standin_level``); None: the person."""
        spec = self.seats[seat]
        if "bot" in spec:
            level: str = spec["bot"]
            return level
        return self.people.standin_level(seat)

    @property
    def idle(self) -> bool:
        """Nothing in flight: over, or no bot thinking and no timer armed. The log alone can then
        rebuild the room exactly as it is."""
        quiet = (
            not self.bots.asked
            and not self.timers.armed
            and not self.people.standins.pending
            and not self._hints.busy
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
            self.timers.cancel_pause()
            if not self.clock.running:
                self._start_clock()
                self.schedule()
        connection.send(self.sync_message(connection))
        self.people.presence()

    def leave(self, connection: Connection) -> None:
        self.connections.pop(connection, None)
        if not self.present() and self.clock.running:
            self.timers.arm_pause()
        self.people.presence()

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
        if seat is not None and self._automatic(seat) is not None:
            legal = []  # the room answers for them (``schedule``): nothing to press
        return {"obs": self.game.observe(self.state, seat), "legal": legal}

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
            "paired": table is not None and table.paired,
            "rated": table is None or table.rated,
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
            "chat": [line.to_json() for line in self.chat.recent()],
            **view,
        }
        due = None if self.state is None else self.game.deadline(self.state)
        if due is not None:
            # Seconds, not a time: the browser's clock is not the server's. A page that joins
            # (or comes back) in the middle of a timed wait shows what is left of it, not all.
            message["deadline_in"] = round(self.clock.wall_seconds_until(due), 3)
        return message

    def finish(self, outcome: dict[str, Any], stood_in: frozenset[int] = frozenset()) -> Finish:
        """What the game's end writes beside its last event (``stood_in``: the seats a stand-in
        played for)."""
        results = results_for(
            self.id, self.game, self.options, self.seats, outcome, self.hints, stood_in
        )
        rated = self.table is None or self.table.rated
        rating = rated_game(
            self.game, self.options, self.seats, outcome, rated=rated, hints=self.hints
        )
        return Finish(outcome, results, rating)

    def players_json(self) -> list[dict[str, Any]]:
        """Who sits where, as every watcher may know it (``People.players_json``)."""
        return self.people.players_json()

    def may_chat(self, connection: Connection) -> bool:
        """Whether ``connection`` may write in the chat (``RoomChat.may_chat``)."""
        return self.chat.may_chat(connection)

    # --- acting --------------------------------------------------------------------------------

    async def act(self, seat: int | None, action: Any, at: float | None = None) -> None:
        """A person's action, dated ``at`` (wall-clock seconds: its arrival less its sender's
        round trip, so a reaction counts from when the card reached them; default now).
        Raises ``RoomError`` or ``GameError``; the state is then unchanged. Its time from here
        to its broadcast is ``asobiba_action_seconds``."""
        received = time.perf_counter()
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
                self._start_clock()
                if not self.present():
                    self.timers.arm_pause()
            await self._commit(seat, action, at)
        ACTION_SECONDS.labels(self.game.name).observe(time.perf_counter() - received)

    async def back(self, seat: int | None) -> None:
        """The person at ``seat`` is at the table again (the page's "take my seat back", sent
        before any action of a person marked idle): their run of timeouts ends, so a seat the
        stand-in played is theirs again and everyone is told. Raises ``RoomError``."""
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        async with self.lock:
            if self.turn_clock is not None and self.turn_clock.back(seat):
                self.schedule()
                self.people.send_players()

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
        if self.lost or self.handed_over:
            raise RoomError("moved", "this game moved to another server; reconnecting")
        if not self._fence():
            FENCING_REFUSALS.labels("lease").inc()
            raise RoomError("unavailable", UNAVAILABLE)
        at = self.clock.now() if at is None else at
        before = self.state
        if action is None:
            new = self.game.advance(self.state, at)
        else:
            assert seat is not None, "only timed events have no seat"
            new = self.game.apply(self.state, seat, action, at)  # raises on illegal: no change
        outcome = self.game.outcome(new)
        played = self.stood_in | ({seat} if standin is not None and seat is not None else set())
        finish = None if outcome is None else self.finish(outcome, played)
        timed = self.game.deadline(new) is not None
        event = Event(self.id, self.seq + 1, seat, action, at, finish, standin, timed)
        write = self.store.append(event)
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
                FENCING_REFUSALS.labels("log").inc()
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
        self.stood_in = played
        MOVES_APPLIED.labels(self.game.name).inc()
        if self.turn_clock is not None:
            self._record(self.turn_clock, before, seat, at, standin)
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
        if self.turn_clock is not None or self.people.standins.playing:
            self.people.send_players()
        if outcome is not None:
            log.info("game over after %d events", self.seq)
            self._changed()

    async def hint(self, seat: int | None) -> Hint:
        """The best move for ``seat`` now, and why: only for the seat to move, only in a game
        where every other seat is a bot, one at a time. The hint is logged (``room_hints``) and
        counted in the seat's result before it is returned (``hints.py``). Raises
        ``RoomError``."""
        return await self._hints.hint(seat)

    async def say(self, connection: Connection, text: str | None, stamp: str | None) -> None:
        """A chat line from ``connection``'s guest to everyone at the table (``chat.py``).
        Raises ``RoomError``; the line is kept before anyone sees it."""
        await self.chat.say(connection, text, stamp)

    async def command(self, player: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """A table command of ``player`` (the routes of ``http/tables.py``, carried to whichever
        process owns the room; ``table_commands.py``), ``forget`` (the person deleted their
        data, ``departures.py``) or ``adopt`` (``Hub.adopt``): its JSON answer. Raises
        ``RoomError``."""
        if name == "forget":
            return await self.departures.forget(player)
        if name == "adopt":
            return {"adopted": await self.adopt(player, str(args["account"]))}
        return await self.tables.command(player, name, args)

    async def adopt(self, guest: str, account: str) -> bool:
        """``guest`` signed in to ``account``: the guest's seat here, its hosting and its chat
        lines are the account's from now on, in the store first (``Accounts.adopt_room``) and
        then here, under the lock, so the game's end writes the account's result. The guest's
        sockets (the browser that signed in) keep their seat. Not where the account sits
        already (a person holds one seat at a table): False, nothing changes."""
        async with self.lock:
            if self.lost or self.handed_over:
                raise RoomError("moved", "this game moved to another server")
            if self.seat_of(account) is not None:
                return False
            accounts = self.store.accounts
            if not await asyncio.to_thread(accounts.adopt_room, self.id, guest, account):
                return False
            self.seats[:] = [
                {**spec, "player": account} if spec.get("player") == guest else spec
                for spec in self.seats
            ]
            if self.host == guest:
                self.host = account
            self.chat.adopt(guest, account)
            for connection in self.connections:
                if connection.player == guest:
                    connection.player = account
        return True

    async def take_seat(self, player: str, name: str) -> int:
        """Seat ``player`` (as ``name``) at the first open seat, or answer the seat they hold;
        the last open seat taken starts the game. Raises ``RoomError``."""
        return await self.tables.take_seat(player, name)

    # --- driving: bots, timers, ownership ------------------------------------------------------

    def schedule(self) -> None:
        """Ask every bot seat that may act now (once per state), forget answers the state has
        moved past, and arm the next timed event: only while the clock runs."""
        self.timers.cancel()
        live = self.clock.running and not self.over and self.state is not None
        self.bots.schedule(live)
        if live:
            self.timers.arm()

    async def resume(self) -> None:
        """Ask the bots and arm the timers again (storage or ownership is back after an
        outage, or a retry is due)."""
        self.timers.retry = None
        async with self.lock:
            if not self.lost and not self.handed_over:
                self.schedule()

    def forsake(self) -> None:
        """Another process owns the room now: stop everything here without writing a thing
        (the owner's log is the game), and send every watcher off to reconnect to it."""
        if self.lost:
            return
        self.lost = True
        self.timers.stop()
        self.people.standins.cancel()
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

    async def hand_over(self) -> None:
        """This process stops (SIGTERM): give the room up so that another process can take it
        at once. The change in flight, if any, is written first (it holds the lock); from then
        on nothing is written here (``_commit`` refuses), where its clock stood is stored (the
        next owner resumes from there: nobody's time runs during the hand-over) and its timers,
        bots and stand-ins stop. The caller then releases its lease and sends its watchers off
        to reconnect (``send_off``), in that order, so that their reconnect finds it free."""
        async with self.lock:
            self.handed_over = True
        try:
            await self.close()
        finally:
            self.timers.stop()  # a retry armed by a refused bot move too

    def send_off(self, reason: str) -> None:
        """Close every watcher's socket with 1012: its page reconnects, to any process."""
        for connection in list(self.connections):
            connection.end(CLOSE_MOVED, reason)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``coroutine`` as one of the room's tasks (its bots, timers, stand-ins, pause):
        every line it logs names the room and its game (``logs.room_context``)."""
        context = contextvars.copy_context()
        context.run(bind_room, self.id, self.game.name)
        task = asyncio.get_running_loop().create_task(coroutine, context=context)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- seats changing ------------------------------------------------------------------------

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)

    def _reseat(self) -> None:
        """Seats changed: every watcher sits where its guest now does, the clock runs if a
        seated person is here, and everyone gets the whole table again."""
        for connection in self.connections:
            connection.seat = self.seat_of(connection.player)
        if self.present():
            self.timers.cancel_pause()
            if not self.clock.running:
                self._start_clock()
        elif self.clock.running and not self.over:
            self.timers.arm_pause()
        for connection in list(self.connections):
            connection.send(self.sync_message(connection))
        self.people.presence()
        self.schedule()
        self._changed()

    # --- pausing -------------------------------------------------------------------------------

    @property
    def attended(self) -> bool:
        """Someone is at the game: its clock runs (a seated person is connected, or left less
        than ``pause_seconds`` ago). A started public table is listed as being played only
        then (``Hub.table_changed``; ``rooms.paused`` says it to the other processes)."""
        return self.clock.running

    def _start_clock(self) -> None:
        """A seated person is here: the clock runs again, and a public table is listed again
        once the store says so (``_attended``)."""
        self.clock.start()
        if self.table is not None and self.public:
            self._spawn(self._attended())

    async def _attended(self) -> None:
        """Store that the table is attended (``rooms.paused`` false), then list it: under the
        lock, so it is written in turn with a ``pause`` that stops the clock again."""
        async with self.lock:
            if not self.clock.running or self.lost or self.over:
                return  # paused or ended meanwhile: what that wrote stands
            write = asyncio.ensure_future(asyncio.to_thread(self.store.set_paused, self.id, False))
            try:
                await asyncio.shield(write)
            except asyncio.CancelledError:
                # The room closes: its thread holds a pooled connection and goes on, so the
                # close waits for it (the engine is not disposed under it, and the close's own
                # ``paused`` is written after this one).
                with contextlib.suppress(SQLAlchemyError):
                    await write
                raise
            except SQLAlchemyError as error:
                log.warning("room %s: not stored as attended (%s)", self.id, error)
            self._changed()

    async def pause(self) -> None:
        """Stand the room still: the clock stops, no timer is armed, no bot thinks. The game time
        it stopped at is stored, so a rebuilt room resumes from exactly there, and nobody is at
        it: a public table leaves the lobby's games being played, on every process."""
        async with self.lock:
            self.timers.pause = None
            if not self.clock.running or self.present():
                return
            stopped_at = self.clock.stop()
            self.schedule()  # cancels the timer and every bot's answer, asks nobody
            self.people.presence()  # and every grace: nobody's seat is handed over while stopped
            await asyncio.to_thread(self.store.stop_clock, self.id, stopped_at)
            self._changed()

    async def abandon(self) -> None:
        """The game was ended unplayed (its guest holds too many, or nobody came back to it:
        ``Hub.reap``): nothing more happens here."""
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
        self.timers.cancel_pause()
        self.timers.cancel()
        self.people.standins.cancel()
        # The room's tasks end first: a write one of them has under way is waited for (see
        # ``_attended``), so what the close stores below comes after it.
        for task in list(self._tasks - {asyncio.current_task()}):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.clock.running and not self.over and not self.lost:
            await asyncio.to_thread(self.store.stop_clock, self.id, self.clock.stop())
            if self.table is not None and self.status == "playing":
                self._changed()  # nobody is at the game here any more
