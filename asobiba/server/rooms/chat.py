"""A table's chat in its room: who may write, how often (a guest's own limit, and the
spectators' together and per address), and the lines kept for the watchers' syncs.

A line is stored under the room's lock before anyone sees it (``social/chat.py`` holds what a
line may say).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time

from asobiba.server.limits import RateLimit, spend
from asobiba.server.metrics import count_refusal
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.room_core import Connection, RoomCore
from asobiba.server.settings import GuestLimits
from asobiba.server.social.chat import BURST, EVERY, KEPT, ChatRefused, check_stamp, clean_text
from asobiba.server.social.names import default_name, unique_name
from asobiba.server.store.store import ChatLine


class RoomChat:
    def __init__(self, room: RoomCore, lines: list[ChatLine], limits: GuestLimits) -> None:
        """``lines``: the chat as stored; ``limits``: what the room's spectators may write
        (``GuestLimits.spectator_*``)."""
        self.room = room
        self.lines = lines
        self._per_guest = RateLimit(BURST, 60 / EVERY)
        self._spectators = RateLimit(
            limits.spectator_lines_burst, limits.spectator_lines_per_minute
        )
        """All spectators together (one key): fresh cookies from many addresses cannot fill the
        players' chat either."""
        self._spectators_per_address = RateLimit(
            limits.spectator_address_burst, limits.spectator_address_per_minute
        )

    def recent(self) -> list[ChatLine]:
        """The lines a watcher's sync carries."""
        return self.lines[-KEPT:]

    def forget(self, player: str) -> bool:
        """Drop the lines ``player`` wrote (they deleted their data; the store deletes them
        too); whether there were any."""
        kept = [line for line in self.lines if line.player != player]
        dropped = len(kept) != len(self.lines)
        self.lines[:] = kept
        return dropped

    def adopt(self, guest: str, account: str) -> None:
        """The guest's lines are the account's (``Room.adopt``, which stored it)."""
        self.lines[:] = [
            dataclasses.replace(line, player=account) if line.player == guest else line
            for line in self.lines
        ]

    def may_chat(self, connection: Connection) -> bool:
        """Players write at a table; spectators too where the host allowed it."""
        table = self.room.table
        if table is None or connection.player is None:
            return False
        return connection.seat is not None or table.spectator_chat

    def spectator_name(self, player: str, name: str) -> str:
        """What a spectator's line is signed with: their own name, numbered ("Aki 2") when a
        seated person has it or another spectator signed lines with it first, as a second
        "Aki" taking a seat would be (``names.unique_name``)."""
        taken = [str(spec["name"]) for spec in self.room.seats if spec.get("name")]
        taken += [line.name for line in self.lines if line.seat is None and line.player != player]
        return unique_name(name, taken)

    async def say(self, connection: Connection, text: str | None, stamp: str | None) -> None:
        """A chat line from ``connection``'s guest to everyone at the table. Raises
        ``RoomError``; the line is kept before anyone sees it."""
        room = self.room
        player = connection.player
        if player is None or not self.may_chat(connection):
            raise RoomError("chat_closed", "you may read this table's chat but not write in it")
        try:
            cleaned = None if text is None else clean_text(text)
            stamped = None if stamp is None else check_stamp(stamp)
        except ChatRefused as refused:
            raise RoomError(refused.code, refused.message) from None
        limits = [(self._per_guest, player)]
        if connection.seat is None:  # a spectator: fresh cookies are new guests, not new people
            address = connection.address or "unknown"
            limits += [(self._spectators_per_address, address), (self._spectators, "")]
        wait = spend(*limits)
        if wait:
            count_refusal("chat")
            raise RoomError("chat_rate_limited", f"too many messages; wait {wait} s")
        seat = connection.seat
        if seat is not None:
            name = room.seats[seat].get("name") or default_name(player)
        else:
            chosen = await asyncio.to_thread(room.store.player_name, player)
            name = self.spectator_name(player, chosen or default_name(player))
        async with room.lock:
            n = self.lines[-1].n + 1 if self.lines else 1
            line = ChatLine(n, seat, player, name, cleaned, stamped, time.time())
            await asyncio.to_thread(room.store.add_chat, room.id, line)
            self.lines.append(line)
            del self.lines[: -2 * KEPT]
            for watcher in list(room.connections):
                watcher.send({"type": "chat", "entry": line.to_json()})
