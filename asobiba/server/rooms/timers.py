"""A room's timers: the game's own deadline, the turn clock's next limit, the retry after a
change that could not be stored, and the pause after the last seated person left.

At most one of each is armed. A timer never changes the game itself: when it fires it takes the
room's lock and goes through ``Room._commit`` (or ``Room.schedule``) like everything else.
"""

from __future__ import annotations

import asyncio
import logging

from asobiba.server.metrics import TIMER_LATENESS_SECONDS
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.people import People
from asobiba.server.rooms.room_core import RoomCore

log = logging.getLogger(__name__)

RETRY_SECONDS = 1.0
"""How long a bot's move or a timed event that could not be stored waits before trying again."""


class Timers:
    def __init__(self, room: RoomCore, people: People, pause_seconds: float) -> None:
        """``people``: the room's, told when a person's time ran out. ``pause_seconds``: how
        long the clock and the bots go on after the last seated person's socket closed (a
        reload must not pause the game)."""
        self.room = room
        self.people = people
        self.pause_seconds = pause_seconds
        self.deadline: asyncio.TimerHandle | None = None
        """The game's own next timed event (``game.deadline``)."""
        self.turn: asyncio.TimerHandle | None = None
        """The turn clock's limit of the person to move who runs out first."""
        self.retry: asyncio.TimerHandle | None = None
        self.pause: asyncio.TimerHandle | None = None

    @property
    def armed(self) -> bool:
        """A timer that drives the game is armed (the pause's does not: it only stops it)."""
        return self.deadline is not None or self.turn is not None or self.retry is not None

    def cancel(self) -> None:
        """Disarm the game's deadline and the turn clock's limit (``Room.schedule`` arms them
        again for the state as it is)."""
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        if self.turn is not None:
            self.turn.cancel()
            self.turn = None

    def arm(self) -> None:
        """Arm the next timed event of the live state: the game's deadline, else the turn clock's
        nearest limit among the people on it."""
        room = self.room
        loop = asyncio.get_running_loop()
        due = room.game.deadline(room.state)
        if due is not None:
            wait = room.clock.wall_seconds_until(due)
            fire_at = loop.time() + wait
            self.deadline = loop.call_later(wait, lambda: room._spawn(self._fire_deadline(fire_at)))
        elif room.turn_clock is not None:
            clock = room.turn_clock
            on_clock = [
                seat
                for seat in room.game.to_move(room.state)
                if room._clocked(room.state, seat) and room.acting_level(seat) is None
            ]
            if on_clock:
                seat = min(on_clock, key=clock.limit)
                seq = room.seq
                wait = room.clock.wall_seconds_until(clock.limit(seat))
                fire_at = loop.time() + wait
                self.turn = loop.call_later(
                    wait, lambda: room._spawn(self._time_up(seat, seq, fire_at))
                )

    def stop(self) -> None:
        """Disarm every timer for good (the room is given up here)."""
        self.cancel_pause()
        for handle in (self.deadline, self.turn, self.retry):
            if handle is not None:
                handle.cancel()
        self.deadline = self.turn = self.retry = None

    async def _fire_deadline(self, fire_at: float) -> None:
        """The game's timed event, due at the loop's time ``fire_at``."""
        room = self.room
        async with room.lock:
            self.deadline = None  # fired: the room is idle again unless something re-arms it
            due = room.game.deadline(room.state)
            if due is None:
                return
            if due <= room.clock.now():
                _late("deadline", fire_at)
                try:
                    await room._commit(None, None)
                    log.debug("a timed event (event %d)", room.seq)
                except RoomError:
                    self.retry_later()
            else:
                # Early: the loop's clock (monotonic) ran ahead of the wall clock the game time
                # follows. Arm it again, or the room would wait for ever.
                room.schedule()

    async def _time_up(self, seat: int, seq: int, fire_at: float) -> None:
        """``seat``'s time for this move ran out (due at the loop's time ``fire_at``): its
        stand-in plays the move, and everyone's ``players`` entries show it (``standin``); that
        move counts toward ``AWAY_AFTER``."""
        room = self.room
        async with room.lock:
            self.turn = None
            if room.seq != seq or room.over or room.turn_clock is None:
                return
            if room.turn_clock.limit(seat) > room.clock.now():
                room.schedule()  # early (see _fire_deadline): arm it again
                return
            _late("turn_clock", fire_at)
            log.info("room %s: seat %s ran out of time", room.id, seat)
            self.people.out_of_time = (seq, seat)
            room.schedule()
            self.people.send_players()

    def retry_later(self) -> None:
        """A change could not be stored: ask the bots and arm the timers again in a moment."""
        room = self.room
        if self.retry is None and not room.lost:
            loop = asyncio.get_running_loop()
            self.retry = loop.call_later(RETRY_SECONDS, lambda: room._spawn(room.resume()))

    def arm_pause(self) -> None:
        """Stop the clock ``pause_seconds`` from now unless a seated person comes back."""
        self.cancel_pause()
        loop = asyncio.get_running_loop()
        room = self.room
        self.pause = loop.call_later(self.pause_seconds, lambda: room._spawn(room.pause()))

    def cancel_pause(self) -> None:
        if self.pause is not None:
            self.pause.cancel()
            self.pause = None


def _late(kind: str, fire_at: float) -> None:
    """A timer of ``kind`` acts now, holding its room's lock: how late (``fire_at``: when it was
    due, on the loop's clock)."""
    late = asyncio.get_running_loop().time() - fire_at
    TIMER_LATENESS_SECONDS.labels(kind).observe(max(0.0, late))
