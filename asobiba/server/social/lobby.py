"""The lobby: public tables waiting for people and games being played, live.

Kept in memory by the hub (loaded from the store at start-up, updated by the rooms as they
change), so listing it costs no query. Watchers of ``/ws/lobby`` get the whole list again when
it changed, at most every ``FLUSH_SECONDS``: a busy site sends each watcher two messages a
second however many tables change, and a watcher is sent a list only when it differs from the
one it was sent last, so a seat taken and left again between two flushes costs nobody a message.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from datetime import datetime
from typing import Any

SHOWN = 100
"""Tables listed per section (newest first)."""
FLUSH_SECONDS = 0.5


def entry(
    room_id: str,
    game: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    host: str | None,
    status: str,
    created_at: datetime | None,
) -> dict[str, Any]:
    """A table's line in the lobby: what anyone may know of it (names, never ids)."""
    host_name = next((s.get("name") for s in seats if host and s.get("player") == host), None)
    return {
        "room_id": room_id,
        "game": game,
        "url": f"/games/{game}/{room_id}",
        "status": status,
        "options": options,
        "seats": len(seats),
        "free": sum(1 for s in seats if s.get("open")),
        "host": host_name,
        "names": [s.get("name") for s in seats if "player" in s],
        "created_at": None if created_at is None else created_at.isoformat(),
    }


class Lobby:
    def __init__(self) -> None:
        self._tables: dict[str, dict[str, Any]] = {}
        self._watchers: dict[asyncio.Queue[dict[str, Any]], dict[str, Any]] = {}
        """Each watcher's queue, and the list it was last handed."""
        self._flush: asyncio.TimerHandle | None = None

    def put(self, line: dict[str, Any]) -> None:
        if self._tables.get(line["room_id"]) != line:
            self._tables[line["room_id"]] = line
            self._changed()

    def replace(self, lines: Iterable[dict[str, Any]]) -> None:
        """The whole list, read from the store (another process changed it)."""
        tables = {line["room_id"]: line for line in lines}
        if tables != self._tables:
            self._tables = tables
            self._changed()

    def drop(self, room_id: str) -> None:
        if self._tables.pop(room_id, None) is not None:
            self._changed()

    def playing(self) -> list[str]:
        """The ids of the games listed as being played."""
        return [room_id for room_id, t in self._tables.items() if t["status"] == "playing"]

    def snapshot(self) -> dict[str, Any]:
        newest = sorted(self._tables.values(), key=lambda t: t["created_at"] or "", reverse=True)
        return {
            "waiting": [t for t in newest if t["status"] == "waiting"][:SHOWN],
            "playing": [t for t in newest if t["status"] == "playing"][:SHOWN],
        }

    def watch(self) -> asyncio.Queue[dict[str, Any]]:
        """A queue that gets the whole list now and whenever it changes (only the latest kept:
        a slow watcher skips lists, never falls behind)."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        snapshot = self.snapshot()
        queue.put_nowait(snapshot)
        self._watchers[queue] = snapshot
        return queue

    def unwatch(self, queue: asyncio.Queue[dict[str, Any]]) -> None:
        self._watchers.pop(queue, None)

    def _changed(self) -> None:
        if self._flush is None and self._watchers:
            loop = asyncio.get_running_loop()
            self._flush = loop.call_later(FLUSH_SECONDS, self._send)

    def _send(self) -> None:
        self._flush = None
        snapshot = self.snapshot()
        # Per list handed before (most watchers share one): the list, and whether it says what
        # this one does. Compared once each, kept alive so that no id is reused meanwhile.
        same: dict[int, tuple[dict[str, Any], bool]] = {}
        for queue, last in self._watchers.items():
            if id(last) not in same:
                same[id(last)] = last, last == snapshot
            if same[id(last)][1]:
                continue
            with contextlib.suppress(asyncio.QueueEmpty):
                queue.get_nowait()  # an unread older list: the new one replaces it
            queue.put_nowait(snapshot)
            self._watchers[queue] = snapshot
