"""The hub's locks around loading rooms: one per room, and one the whole hub can be stopped by.

Loading a room awaits the store (and, with several processes, Redis): under one lock for the
whole hub, every new game's first socket waited for every other's load, and a site starting
hundreds of games a second did little else. So each room has its own lock (two sockets of one
room still load it once), and loads share a hub-wide gate that ``Hub.abandon_oldest`` closes
while it ends a guest's games, so no copy of one of them is being rebuilt meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Loading:
    def __init__(self) -> None:
        self._rooms: dict[str, tuple[asyncio.Lock, int]] = {}
        self._gate = asyncio.Condition()
        self._loads = 0
        self._closing = 0
        """Callers waiting to close the gate: new loads wait behind them."""
        self._closed = False

    def busy(self) -> set[str]:
        """The rooms being loaded now."""
        return set(self._rooms)

    @asynccontextmanager
    async def room(self, room_id: str) -> AsyncIterator[None]:
        """Load ``room_id``: alone for that room, beside the loads of others."""
        async with self._gate:
            await self._gate.wait_for(lambda: not self._closed and not self._closing)
            self._loads += 1
        lock, users = self._rooms.get(room_id, (asyncio.Lock(), 0))
        self._rooms[room_id] = lock, users + 1
        try:
            async with lock:
                yield
        finally:
            lock, users = self._rooms[room_id]
            if users == 1:
                del self._rooms[room_id]
            else:
                self._rooms[room_id] = lock, users - 1
            async with self._gate:
                self._loads -= 1
                self._gate.notify_all()

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[None]:
        """No load runs meanwhile (those under way finish first; new ones wait)."""
        async with self._gate:
            self._closing += 1
            try:
                await self._gate.wait_for(lambda: not self._closed and self._loads == 0)
            finally:
                self._closing -= 1
            self._closed = True
        try:
            yield
        finally:
            async with self._gate:
                self._closed = False
                self._gate.notify_all()
