"""What a room's collaborators (``bot_turns.py``, ``timers.py``, ``people.py``,
``table_commands.py``, ``chat.py``, ``hints.py``, ``departures.py``) may use of their room, and
what a watcher of a room is.

Named apart from ``room.py`` so that the room imports its collaborators and none of them imports
the room back (``tests/test_import_graph.py``). ``Room`` fits ``RoomCore`` as it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol

from asobiba.core.game import Game
from asobiba.server.rooms.clock import GameClock
from asobiba.server.rooms.turn_clock import TurnClock
from asobiba.server.social.tables import TableSettings
from asobiba.server.store.store import Store


class Connection(Protocol):
    seat: int | None
    player: str | None
    """The watcher's guest id (None: no cookie): the room seats it again when seats change."""
    address: str | None
    """The network address its socket came from (``limits.address_key``; None: not a socket),
    which a spectator's chat lines count against."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; never blocks the room."""
        ...

    def end(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` after the messages already queued."""
        ...


class RoomCore(Protocol):
    """The room as its collaborators see it: its state and seats, its lock, and the one
    writer (``_commit``) every change goes through."""

    id: str
    game: Game[Any]
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    status: str
    host: str | None
    abandoned: bool
    table: TableSettings | None
    state: Any
    seq: int
    hints: list[int]
    store: Store
    lock: asyncio.Lock
    clock: GameClock
    turn_clock: TurnClock | None
    connections: dict[Connection, tuple[int, dict[str, Any]]]
    lost: bool

    @property
    def over(self) -> bool: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def seat_of(self, player_id: str | None) -> int | None: ...

    def acting_level(self, seat: int) -> str | None: ...

    def table_json(self, connection: Connection) -> dict[str, Any]: ...

    def schedule(self) -> None: ...

    async def resume(self) -> None: ...

    async def pause(self) -> None: ...

    async def abandon(self) -> None: ...

    async def _commit(
        self,
        seat: int | None,
        action: dict[str, Any] | None,
        at: float | None = None,
        standin: str | None = None,
    ) -> None: ...

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]: ...

    def _automatic(self, seat: int) -> dict[str, Any] | None: ...

    def _clocked(self, state: Any, seat: int) -> bool: ...

    def _reseat(self) -> None: ...
