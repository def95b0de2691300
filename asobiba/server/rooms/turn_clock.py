"""The turn clock of a table between people: seconds per move, then a reserve for the game.

It runs only while the game waits on a person's seat with no timer of its own (claim windows
and call timers keep the rules' own times), from the event before. What a move uses beyond
``move`` comes off the seat's reserve; when both are gone the table's stand-in plays that move.
A person whose time runs out ``AWAY_AFTER`` moves in a row is marked idle: the stand-in plays
every move of theirs, at its own pace, until they act or say they are back (``Room.back``).
Everything is game time (``server/rooms/clock.py``), so the clock never runs while the server is
down, and the reserves and the runs of timeouts are rebuilt from the event log after a restart.
"""

from __future__ import annotations

from asobiba.server.social.tables import TurnClockSetting

AWAY_AFTER = 2
"""Timeouts in a row that mark a person idle. One can be a long think or a glance away, and the
stand-in's one move costs nobody much; a second in a row says nobody is watching the page, and
every further move would make the others wait a whole clock for a move the stand-in then plays.
A design value, not a setting: the rule pages state it (rules.*.md, "Tables with people")."""


class TurnClock:
    def __init__(self, setting: TurnClockSetting, seats: int, started_at: float) -> None:
        self.move = setting.move
        self.reserve = [setting.reserve] * seats
        self.since = started_at
        """The game time the current wait began (the last event, or the start)."""
        self.missed = [0] * seats
        """How many of each seat's moves in a row the stand-in played because its time ran out."""

    def limit(self, seat: int) -> float:
        """The game time at which ``seat``'s time for this wait runs out."""
        return self.since + self.move + self.reserve[seat]

    def away(self, seat: int) -> bool:
        """Whether ``seat``'s person is marked idle: the stand-in plays all its moves."""
        return self.missed[seat] >= AWAY_AFTER

    def back(self, seat: int) -> bool:
        """``seat``'s person says they are back: their run of timeouts ends (a seat marked idle
        is theirs again). Returns whether there was one. Not in the log: a restart before a move
        of their own counts the run again."""
        had = self.missed[seat] > 0
        self.missed[seat] = 0
        return had

    def record(self, seat: int | None, at: float, *, clocked: bool, standin: bool) -> None:
        """An event at ``at``: a move of ``seat`` (None: a timed event), played by its stand-in
        or not, in a wait on its clock (``clocked``) or not. The same reading live and when the
        log is replayed, so the reserves and the runs of timeouts come back as they were.

        A person's own move takes what it used past ``move`` off the reserve (in a wait on its
        clock) and ends its run of timeouts; a stand-in's move made once the seat's time was
        gone is one more timeout, up to ``AWAY_AFTER`` (once idle, the stand-in plays at its
        own pace and a slow move of its own is not the person's). The next wait counts from
        ``at``."""
        if seat is not None:
            if not standin:
                if clocked:
                    used = max(0.0, at - self.since)
                    self.reserve[seat] = max(0.0, self.reserve[seat] - max(0.0, used - self.move))
                self.missed[seat] = 0
            elif clocked and not self.away(seat) and at >= self.limit(seat):
                self.missed[seat] += 1
        # Never back in time: an action dated back by its sender's line may lie a little
        # before the previous event.
        self.since = max(self.since, at)
