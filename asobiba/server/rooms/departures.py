"""A person who deleted their data (``DELETE /api/account``) leaves a room for good.

What becomes of a game they are in (``Departures.forget``, under the room's lock like every
change, on whichever process owns the room: it is carried there as the command ``forget``):

- a game against the computer, or a table no other person sits at: it is ended unplayed, as
  an abandoned game is (no result, no replay); the store then deletes it with their data;
- a table still taking its seats: they leave it as ``leave`` does (their seat opens again; the
  host leaving closes the table, as ever);
- a started table with other people: their seat becomes a deleted player's
  (``seats.DELETED_SEAT``), which the table's stand-in plays from this move to the end, as it
  plays for a person who went away; the game goes on for the others, whose results count as
  they would have, and the deleted seat gets no result.

In every case their chat lines leave the room's memory (the store deletes them), they stop
being its host, their own sockets are watchers without a seat, and every watcher gets a fresh
``sync`` (seats, names, chat). A finished game held in memory forgets them the same way
without writing anything: the store's erasure writes its seats.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asobiba.server.rooms.chat import RoomChat
from asobiba.server.rooms.room_core import RoomCore
from asobiba.server.rooms.table_commands import TableCommands
from asobiba.server.store.seats import alone, forget


class Departures:
    def __init__(self, room: RoomCore, tables: TableCommands, chat: RoomChat) -> None:
        self.room = room
        self.tables = tables
        self.chat = chat

    async def forget(self, player: str) -> dict[str, Any]:
        """Take ``player`` out of the room (see the module's note); the JSON answer says what
        became of the game: ``ended``, ``left`` (a waiting table), ``standin`` (a started
        table goes on without them) or ``unchanged`` (not seated here, or over)."""
        room = self.room
        what = "unchanged"
        if room.status == "waiting" and not room.over and room.seat_of(player) is not None:
            await self.tables.leave_seat(player)
            what = "left"
        ended = False
        async with room.lock:
            seat = room.seat_of(player)
            if seat is not None and not room.over:
                if room.table is None or alone(room.seats, player):
                    await asyncio.to_thread(room.store.abandon_room, room.id)
                    room.abandoned = ended = True  # from here no bot of its acts
                    what = "ended"
                else:
                    seats = forget(room.seats, player)
                    host = None if room.host == player else room.host
                    await asyncio.to_thread(room.store.forget_seat, room.id, seats, host)
                    what = "standin"
            changed = self.chat.forget(player) or seat is not None or room.host == player
            room.seats[:] = forget(room.seats, player)
            if room.host == player:
                room.host = None
            if changed and not ended:
                room._reseat()  # every watcher's seat, sync and players; the stand-in is asked
        if ended:
            await room.abandon()  # its watchers see it end; a public table leaves the lobby
        return {"room": what}
