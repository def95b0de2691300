"""A room's game clock: wall-clock seconds that stand still while nobody can play.

Games keep their timers as times (``deadline``, ``at``). If those were plain wall-clock times, a
server that was down for 40 s would, once back, fire every wait that fell due meanwhile: a claim
window would close, a turn would be played for an absent person. Instead each room keeps its own
game time, which runs with the wall clock while the room is live and stands still while it is
stopped: from the moment its process dies (the room resumes from its last event or from where
its clock was stopped, whichever is later) and while no seated person is connected. Every ``at``
in the log is game time, so replays and restarts see the same times as the game did.

It also stands still while a change is being made durable (``hold``): an event is dated when
the room makes it, but its players see it only once it is written, so a reaction measured from
the event would include the write (tens of milliseconds on a busy server), and a wait would lose
it. Held, the write costs nobody: an action that arrives meanwhile is dated at the moment the
hold began (it cannot be a reaction to the change being written).
"""

from __future__ import annotations

import time


class GameClock:
    """Game time = wall time - ``offset``; stopped, it reads the time it was stopped at."""

    def __init__(self, resume_at: float | None = None, *, running: bool) -> None:
        """Start at ``resume_at`` (game time; default: now on the wall clock), running or not."""
        now = time.time()
        start = now if resume_at is None else resume_at
        self._offset = now - start  # exactly 0 for a new room: its game time is the wall's
        self._stopped_at: float | None = None if running else start
        self._held_at: float | None = None

    @property
    def running(self) -> bool:
        return self._stopped_at is None

    def now(self) -> float:
        if self._stopped_at is not None:
            return self._stopped_at
        if self._held_at is not None:
            return self._held_at
        return time.time() - self._offset

    def game_time(self, wall: float) -> float:
        """The game time of a wall-clock moment while running (an action's arrival, dated back
        by its sender's delay); while stopped, the time it stopped at."""
        if self._stopped_at is not None:
            return self._stopped_at
        if self._held_at is not None:
            return min(self._held_at, wall - self._offset)
        return wall - self._offset

    def hold(self) -> None:
        """Stand still until ``let_go`` (a change is being written)."""
        if self._held_at is None:
            self._held_at = time.time() - self._offset

    def let_go(self) -> None:
        """Run again from where ``hold`` stood still."""
        if self._held_at is not None:
            self._offset = time.time() - self._held_at
            self._held_at = None

    def wall_seconds_until(self, at: float) -> float:
        """Wall-clock seconds until game time ``at`` (never negative)."""
        return max(0.0, at - self.now())

    def stop(self) -> float:
        """Stand still from now; returns the game time it stopped at."""
        if self._stopped_at is None:
            self._stopped_at = self.now()
        return self._stopped_at

    def start(self) -> None:
        """Run again from the time it stopped at."""
        if self._stopped_at is not None:
            self._held_at = None
            self._offset = time.time() - self._stopped_at
            self._stopped_at = None
