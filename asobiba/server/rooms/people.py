"""The people at a table as a room sees them: who is here, who is away and for how long, whose
seat a stand-in plays and why (away past the grace, marked idle by the turn clock, or out of
time for this one move), and the ``players`` entries that tell everyone.

Games against bots have no table: nothing here applies to them.
"""

from __future__ import annotations

import logging
from typing import Any

from asobiba.server.rooms.presence import Standins
from asobiba.server.rooms.room_core import RoomCore
from asobiba.server.store.seats import is_deleted, is_person

log = logging.getLogger(__name__)


class People:
    def __init__(self, room: RoomCore, standin_grace: float) -> None:
        """``standin_grace``: how long a table waits for an absent person before a stand-in
        plays for them."""
        self.room = room
        self.standins = Standins(standin_grace, self._standin_due)
        self.out_of_time: tuple[int, int] | None = None
        """``(seq, seat)``: the person at ``seat`` ran out of time in this position; the
        stand-in plays this one move for them."""

    def here(self) -> set[int | None]:
        """The seats with a socket open here (None: a spectator's)."""
        return {connection.seat for connection in self.room.connections}

    def marked_idle(self, seat: int) -> bool:
        """Whether the person at ``seat`` is marked idle by the turn clock (``AWAY_AFTER``)."""
        turn_clock = self.room.turn_clock
        return turn_clock is not None and turn_clock.away(seat)

    def standin_level(self, seat: int) -> str | None:
        """The level of the stand-in playing the person at ``seat`` now, or None. A deleted
        player's seat (``seats.DELETED_SEAT``) is the stand-in's to the end of the game."""
        room = self.room
        if seat in self.standins.playing:
            return self.standins.playing[seat]
        if room.table is not None and (
            is_deleted(room.seats[seat])
            or self.marked_idle(seat)
            or self.out_of_time == (room.seq, seat)
        ):
            return room.table.standin
        return None

    def presence(self) -> None:
        """A socket came or went: start or stop the grace of the people away, hand seats back
        to those who returned, and tell everyone who is here (tables only)."""
        room = self.room
        if room.table is None:
            return
        here = self.here()
        people = {seat for seat, spec in enumerate(room.seats) if is_person(spec)}
        away = people - here
        live = room.state is not None and room.clock.running and not room.over
        if self.standins.update(away, live):
            room.schedule()
        self.send_players()

    def _standin_due(self, seat: int) -> None:
        self.room._spawn(self._stand_in(seat))

    async def _stand_in(self, seat: int) -> None:
        room = self.room
        async with room.lock:
            back = seat in self.here()
            if room.table is None or room.over or not room.clock.running or back:
                return
            log.info("room %s: a stand-in plays seat %s", room.id, seat)
            self.standins.playing[seat] = room.table.standin
            room.schedule()
            self.send_players()

    def send_players(self) -> None:
        """Tell every watcher who sits where and how the table stands (tables only)."""
        room = self.room
        if room.table is None:
            return
        players = self.players_json()
        for connection in list(room.connections):
            table = room.table_json(connection)
            connection.send({"type": "players", "players": players, "table": table})

    def players_json(self) -> list[dict[str, Any]]:
        """Who sits where, as every watcher may know it: names, never guest ids."""
        room = self.room
        players: list[dict[str, Any]] = []
        connected = self.here()
        for seat, spec in enumerate(room.seats):
            if "bot" in spec:
                players.append(
                    {"kind": "bot", "level": spec["bot"], "name": None, "connected": True}
                    | {"standin": None, "away": None, "standin_in": None}
                    | {"host": False, "clock": None}
                )
            elif is_deleted(spec):
                players.append(
                    {"kind": "deleted", "name": None, "connected": False}
                    | {"standin": room.acting_level(seat), "away": None, "standin_in": None}
                    | {"host": False, "clock": None}
                )
            elif spec.get("open"):
                players.append(
                    {"kind": "open", "name": None, "connected": False, "standin": None}
                    | {"away": None, "standin_in": None, "host": False, "clock": None}
                )
            else:
                players.append(
                    {
                        "kind": "human",
                        "name": spec.get("name"),
                        "connected": seat in connected,
                        "standin": room.acting_level(seat),
                        "away": self.standins.why(seat, self.marked_idle(seat)),
                        "standin_in": _rounded(self.standins.starts_in(seat)),
                        "host": room.host is not None and spec["player"] == room.host,
                        "clock": self._clock_json(seat),
                    }
                )
        return players

    def _clock_json(self, seat: int) -> dict[str, Any] | None:
        room = self.room
        clock = room.turn_clock
        if clock is None or room.state is None:
            return None
        ticking = (
            room.clock.running
            and not room.over
            and seat in room.game.to_move(room.state)
            and room._clocked(room.state, seat)
            and room.acting_level(seat) is None
        )
        left = room.clock.wall_seconds_until(clock.limit(seat)) if ticking else None
        return {
            "reserve": round(clock.reserve[seat], 1),
            "deadline_in": None if left is None else round(left, 3),
            "timeouts": clock.missed[seat],
        }


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 1)
