"""Who is at a table, and the stand-ins playing for the people who are not.

A person whose sockets have all closed keeps their seat. After the grace time (the game's
``standin_seconds``, or ``ASOBIBA_STANDIN_SECONDS``) a stand-in bot of the table's level plays
for them until a socket of theirs is back. The grace runs only while the room's clock runs, so
a paused room or a server that is down puts nobody's seat in a stand-in's hands.

A person who is here but lets their turn clock run out too often in a row is handed over too
(``turn_clock.AWAY_AFTER``); everyone's ``players`` entries say which of the two it is (``why``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class Standins:
    def __init__(self, grace: float, fire: Callable[[int], None]) -> None:
        """``fire(seat)``: the grace of ``seat`` ran out (the room then hands it over)."""
        self.grace = grace
        self.playing: dict[int, str] = {}
        """Person seats a stand-in plays now, and its level."""
        self._fire = fire
        self._timers: dict[int, asyncio.TimerHandle] = {}

    def update(self, away: set[int], running: bool) -> bool:
        """Arm the grace of every seat newly away (while ``running``), cancel it for seats back
        (or all, when stopped), and end the stand-in of seats back. Returns True when a
        stand-in ended (the room must ask its bots again)."""
        for seat in list(self._timers):
            if seat not in away or not running:
                self._timers.pop(seat).cancel()
        if running:
            loop = asyncio.get_running_loop()
            for seat in away - set(self._timers) - set(self.playing):
                self._timers[seat] = loop.call_later(self.grace, self._expire, seat)
        back = [seat for seat in self.playing if seat not in away]
        for seat in back:
            del self.playing[seat]
        return bool(back)

    def why(self, seat: int, idle: bool) -> str | None:
        """Why a stand-in plays all of ``seat``'s moves, as the players' entries say it:
        ``"idle"`` (its person's time ran out too often in a row, ``turn_clock.AWAY_AFTER``:
        only an action of theirs hands it back), ``"disconnected"`` (no socket of theirs past
        the grace), or None (the seat is its person's)."""
        if idle:
            return "idle"
        return "disconnected" if seat in self.playing else None

    def starts_in(self, seat: int) -> float | None:
        """Seconds until the stand-in takes ``seat`` over, while its person's grace runs (their
        sockets are gone and the clock runs); None otherwise. The others see it count down, so
        an absent person's chip says "away" from the moment they left, not only once the
        stand-in plays."""
        timer = self._timers.get(seat)
        if timer is None:
            return None
        return max(0.0, timer.when() - asyncio.get_running_loop().time())

    @property
    def pending(self) -> bool:
        """A grace is running: the room must stay in memory for it."""
        return bool(self._timers)

    def _expire(self, seat: int) -> None:
        self._timers.pop(seat, None)
        self._fire(seat)

    def cancel(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
