"""The turn clock of a table between people: seconds per move, then a reserve for the game.

It runs only while the game waits on a person's seat with no timer of its own (claim windows
and call timers keep the rules' own times), from the event before. What a move uses beyond
``move`` comes off the seat's reserve; when both are gone the table's stand-in plays that move.
Everything is game time (``server/rooms/clock.py``), so the clock never runs while the server is
down, and the reserves are rebuilt from the event log after a restart.
"""

from __future__ import annotations

from asobiba.server.social.tables import TurnClockSetting


class TurnClock:
    def __init__(self, setting: TurnClockSetting, seats: int, started_at: float) -> None:
        self.move = setting.move
        self.reserve = [setting.reserve] * seats
        self.since = started_at
        """The game time the current wait began (the last event, or the start)."""

    def limit(self, seat: int) -> float:
        """The game time at which ``seat``'s time for this wait runs out."""
        return self.since + self.move + self.reserve[seat]

    def charge(self, seat: int, at: float) -> None:
        """``seat`` acted at ``at`` in a wait on its clock: take what it used past ``move``."""
        used = max(0.0, at - self.since)
        self.reserve[seat] = max(0.0, self.reserve[seat] - max(0.0, used - self.move))

    def next_wait(self, at: float) -> None:
        """An event happened at ``at``: the next wait counts from there (never back in time: an
        action dated back by its sender's line may lie a little before the previous event)."""
        self.since = max(self.since, at)
