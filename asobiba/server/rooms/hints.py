"""Hints in a room: who may ask (the seat to move, in a game against bots only), one worked out
at a time, the same answer asked twice in one position, and each logged and counted in the
seat's result (``Room.hints``) before it is given.
"""

from __future__ import annotations

import asyncio

from asobiba.core.game import analyses
from asobiba.server.analysis.hints import HINT_SECONDS, Hint, Hinter
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.room_core import RoomCore
from asobiba.server.store.store import StoredHint


class Hints:
    def __init__(self, room: RoomCore, hinter: Hinter) -> None:
        self.room = room
        self._hinter = hinter
        self._last: tuple[int, int, Hint] | None = None
        """The last hint given, ``(seq, seat, hint)``: asked again in the same position, the
        same answer, neither worked out nor counted twice."""
        self.busy = False
        """A hint is being worked out (the room must stay in memory for it)."""

    async def hint(self, seat: int | None) -> Hint:
        """The best move for ``seat`` now, and why. Raises ``RoomError``."""
        room = self.room
        if not analyses(room.game):
            raise RoomError("no_hints", f"{room.game.name} offers no hints")
        if seat is None:
            raise RoomError("not_seated", "you have no seat in this room")
        if any("bot" not in spec for other, spec in enumerate(room.seats) if other != seat):
            raise RoomError("hints_bots_only", "hints are given only in games against the computer")
        if room.over:
            raise RoomError("game_over", "the game is over")
        if seat not in room.game.to_move(room.state):
            raise RoomError("not_your_turn", "a hint is for your own turn")
        if self._last is not None and self._last[:2] == (room.seq, seat):
            return self._last[2]
        if self.busy:
            raise RoomError("hint_busy", "a hint is already being worked out")
        self.busy = True
        seq = room.seq
        try:
            hint = await self._hinter(room.game.name, room.state, seat, HINT_SECONDS)
        finally:
            self.busy = False
        async with room.lock:
            if room.seq != seq:
                raise RoomError("hint_stale", "the position changed before the hint was ready")
            logged = StoredHint(seq, seat, hint.action, room.clock.now())
            await asyncio.to_thread(room.store.add_hint, room.id, logged)
            room.hints[seat] += 1
            self._last = (seq, seat, hint)
        return hint
