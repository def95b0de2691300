"""What the people at a waiting table, and its host, may ask of it: take or leave a seat, take
an open seat away, start, and let spectators write in the chat (the routes of
``http/tables.py``, carried to whichever process owns the room).

Each command takes the room's lock and stores what it changes before anyone sees it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

from asobiba.core.game import first_state
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.people import People
from asobiba.server.rooms.room_core import RoomCore
from asobiba.server.rooms.turn_clock import TurnClock
from asobiba.server.social.names import unique_name


class TableCommands:
    def __init__(self, room: RoomCore, people: People) -> None:
        """``people``: the room's, which tell everyone how the table stands."""
        self.room = room
        self.people = people

    async def command(self, player: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """A table command of ``player``: its JSON answer. Raises ``RoomError``."""
        room = self.room
        if room.table is None:
            raise RoomError("unknown_room", f"no table {room.id!r}")
        if name == "join":
            return {"seat": await self.take_seat(player, str(args["name"]))}
        if name == "leave":
            await self.leave_seat(player)
            return {"left": True}
        if name == "start":
            await self.start_table(player, str(args["fill"]))
            return {"started": True, "seats": len(room.seats)}
        if name == "remove_seat":
            await self.remove_seat(player, int(args["seat"]))
            return {"seats": len(room.seats)}
        if name == "spectator_chat":
            await self.allow_spectator_chat(player, bool(args["on"]))
            return {"spectator_chat": bool(args["on"])}
        raise RoomError("bad_command", f"no table command {name!r}")

    def _waiting(self) -> None:
        if self.room.over:
            raise RoomError("game_over", "this table is closed")
        if self.room.status != "waiting":
            raise RoomError("started", "the game has started")

    def _hosted_by(self, player: str) -> None:
        if self.room.host is None or player != self.room.host:
            raise RoomError("not_host", "only the table's host may do that")

    async def _store_seats(self, seats: list[dict[str, Any]], start: bool) -> None:
        """Keep the waiting table's new seats; with ``start``, start its game on them."""
        room = self.room
        assert room.table is not None, "only tables wait for people"
        table = room.table
        state = None
        if start:
            table = table.started(room.clock.now(), seats)
            state = first_state(room.game, room.options, len(seats), room.seed, table.people or 0)
        status = "playing" if start else "waiting"
        timed = state is not None and room.game.deadline(state) is not None
        await asyncio.to_thread(
            room.store.update_table, room.id, seats, status, table.to_json(), timed
        )
        room.seats[:] = seats
        if start:
            room.status, room.state, room.table = status, state, table
            if table.clock is not None and table.started_at is not None:
                room.turn_clock = TurnClock(table.clock, len(seats), table.started_at)
        room._reseat()

    async def take_seat(self, player: str, name: str) -> int:
        """Seat ``player`` (as ``name``) at the first open seat, or answer the seat they hold;
        the last open seat taken starts the game. Raises ``RoomError``.

        A name someone at the table has already is given the first free number ("Aki 2",
        ``names.unique_name``): the seat keeps it, so every page, the chat, the records and
        the replays tell the two apart."""
        room = self.room
        async with room.lock:
            held = room.seat_of(player)
            if held is not None:
                return held
            self._waiting()
            free = next((k for k, spec in enumerate(room.seats) if spec.get("open")), None)
            if free is None:
                raise RoomError("table_full", "every seat at this table is taken")
            seats = [dict(spec) for spec in room.seats]
            taken = [str(spec["name"]) for spec in seats if spec.get("name")]
            seats[free] = {"player": player, "name": unique_name(name, taken)}
            await self._store_seats(seats, start=not any(s.get("open") for s in seats))
            return free

    async def leave_seat(self, player: str) -> None:
        """Before the start: ``player``'s seat opens again; the host leaving closes the table."""
        room = self.room
        async with room.lock:
            self._waiting()
            seat = room.seat_of(player)
            if seat is None:
                raise RoomError("not_seated", "you have no seat at this table")
            if player == room.host:
                await asyncio.to_thread(room.store.close_table, room.id)
                room.abandoned = True
                room._reseat()
                return
            seats = [dict(spec) for spec in room.seats]
            seats[seat] = {"open": True}
            await self._store_seats(seats, start=False)

    async def remove_seat(self, player: str, seat: int) -> None:
        """The host takes an open seat away (within the game's seat counts)."""
        room = self.room
        async with room.lock:
            self._hosted_by(player)
            self._waiting()
            if not 0 <= seat < len(room.seats):
                raise RoomError("no_seat", f"this table has no seat {seat}")
            if not room.seats[seat].get("open"):
                raise RoomError("seat_taken", "only an open seat can be removed")
            if len(room.seats) <= room.game.min_seats:
                message = f"{room.game.name} needs at least {room.game.min_seats} seats"
                raise RoomError("too_few_seats", message)
            seats = [dict(spec) for k, spec in enumerate(room.seats) if k != seat]
            await self._store_seats(seats, start=not any(s.get("open") for s in seats))

    async def start_table(self, player: str, fill: str) -> None:
        """The host starts now: bots of ``fill`` take the open seats."""
        room = self.room
        async with room.lock:
            self._hosted_by(player)
            self._waiting()
            if fill not in room.game.levels:
                raise RoomError(
                    "invalid_level", f"unknown level {fill!r}; known: {room.game.levels}"
                )
            seats = [{"bot": fill} if spec.get("open") else dict(spec) for spec in room.seats]
            await self._store_seats(seats, start=True)

    async def allow_spectator_chat(self, player: str, on: bool) -> None:
        """The host lets spectators write in the chat, or mutes them, at any time before the
        end; every watcher is told at once (``may_chat`` in its ``table``)."""
        room = self.room
        async with room.lock:
            self._hosted_by(player)
            if room.over:
                raise RoomError("game_over", "this table is closed")
            assert room.table is not None, "only tables have a host"
            table = dataclasses.replace(room.table, spectator_chat=on)
            if table != room.table:
                await asyncio.to_thread(room.store.set_table_settings, room.id, table.to_json())
                room.table = table
                self.people.send_players()
