"""The in-process hub: the rooms this process owns, loaded from the event log on demand.

A room whose process died is rebuilt by replaying its stored events (``Room.__init__``), so a
restart loses nothing. A rebuilt room's clock stands still until a seated person is back
(``server/rooms/clock.py``); rooms waiting on their clock are rebuilt at start-up (``recover``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from asobiba.core.game import Game, standin_seconds
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.analysis.hints import Hinter, in_thread
from asobiba.server.rooms.recovery import finish_if_over
from asobiba.server.rooms.room import BotChooser, Room
from asobiba.server.social import lobby
from asobiba.server.social.tables import TableSettings, new_code
from asobiba.server.store.store import Store, StoredRoom

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0
"""How often the hub looks for unwatched idle rooms to drop."""


class Hub:
    def __init__(
        self,
        store: Store,
        choose: BotChooser,
        games: Callable[[str], Game[Any]] = get_game,
        hinter: Hinter = in_thread,
        pause_seconds: float = 10.0,
        pace_scale: float = 1.0,
        standin_seconds: float | None = None,
    ) -> None:
        """``pause_seconds``: how long a room plays on after its last seated person left;
        ``pace_scale``: multiplies the bots' human pace (0 only for tests and benches);
        ``standin_seconds``: the grace before a stand-in plays for an absent person, for every
        game (``ASOBIBA_STANDIN_SECONDS``; default: each game's own)."""
        self.store = store
        self.pause_seconds = pause_seconds
        self.pace_scale = pace_scale
        self.standin_seconds = standin_seconds
        self.lobby = lobby.Lobby()
        self._choose = choose
        self._hinter = hinter
        self._games = games
        self._rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int,
        *,
        table: TableSettings | None = None,
        host: str | None = None,
        public: bool = False,
    ) -> Room:
        """Validate, store and start a room; with ``table``, a table between people set by
        ``host``, which waits while a seat is open. Raises ``InvalidOptions`` for a bad
        set-up."""
        game = self._games(game_name)
        resolved = game.resolve_options(options)
        game.new_state(resolved, len(seats), seed)  # validates the seat count before storing
        room_id = secrets.token_hex(8)
        waiting = any(spec.get("open") for spec in seats)
        status = "waiting" if waiting else "playing"
        if table is not None and not waiting:  # every seat taken at once: it starts now
            table = dataclasses.replace(table, started_at=time.time())  # a new room's game time
        settings = None if table is None else table.to_json()
        while True:
            code = None if table is None else new_code()
            try:
                await asyncio.to_thread(
                    self.store.create_room,
                    room_id,
                    game_name,
                    resolved,
                    rule_key(resolved),
                    seed,
                    seats,
                    status=status,
                    code=code,
                    public=public,
                    host=host,
                    settings=settings,
                )
                break
            except IntegrityError:
                if code is None:
                    raise
                log.info("table code %s taken; drawing another", code)
        stored = StoredRoom(
            room_id,
            game_name,
            resolved,
            seed,
            seats,
            [],
            False,
            None,
            status=status,
            code=code,
            public=public,
            host=host,
            settings=settings,
            created_at=datetime.now(UTC),
        )
        room = self._room(stored, game, running=True)
        self._rooms[room_id] = room
        room.schedule()
        self.table_changed(room)
        return room

    def _room(self, stored: StoredRoom, game: Game[Any], running: bool = False) -> Room:
        grace = self.standin_seconds
        return Room(
            stored,
            game,
            self.store,
            self._choose,
            self._hinter,
            running=running,
            pause_seconds=self.pause_seconds,
            pace_scale=self.pace_scale,
            standin_grace=standin_seconds(game) if grace is None else grace,
            on_change=self.table_changed,
        )

    def table_changed(self, room: Room) -> None:
        """What the lobby shows of ``room`` changed: list it (public tables between people
        that are not over) or take it off."""
        if room.table is None or not room.public or room.over:
            self.lobby.drop(room.id)
            return
        self.lobby.put(
            lobby.entry(
                room.id,
                room.game.name,
                room.options,
                room.seats,
                room.host,
                room.status,
                room.created_at,
            )
        )

    async def load_lobby(self) -> None:
        """At start-up: list the public tables the store holds unfinished."""
        for row in await asyncio.to_thread(self.store.public_tables):
            line = lobby.entry(
                row.id, row.game, row.options, row.seats, row.host, row.status, row.created_at
            )
            self.lobby.put(line)

    async def get(self, room_id: str) -> Room | None:
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        async with self._loading:
            if room_id in self._rooms:
                return self._rooms[room_id]
            room = await self._rebuild(room_id)
            if room is not None:
                self._rooms[room_id] = room
            return room

    async def _rebuild(self, room_id: str) -> Room | None:
        """The room from its stored log, its clock stopped (finished there if the log ends the
        game: an older version's crash may have left it unmarked)."""
        stored = await asyncio.to_thread(self.store.load_room, room_id)
        if stored is None:
            return None
        # Replaying a long log is CPU work: off the event loop, like the store's reads.
        game = self._games(stored.game)
        room = await asyncio.to_thread(self._room, stored, game)
        if room.state is not None and await asyncio.to_thread(
            finish_if_over, self.store, room.game, stored, room.state
        ):
            log.warning("room %s: finished a game a crash had left unfinished", room_id)
        return room

    async def recover(self) -> list[str]:
        """At start-up: rebuild every unfinished room whose game waits on its clock, so it is
        ready when its people come back (its clock stands still until then), and finish rooms
        whose log ends the game. Returns the ids of the rooms kept."""
        kept = []
        for room_id in await asyncio.to_thread(self.store.unfinished_room_ids):
            async with self._loading:
                if room_id in self._rooms:
                    continue
                room = await self._rebuild(room_id)
                if room is None or room.over or room.state is None:
                    continue
                if room.game.deadline(room.state) is None:
                    continue
                self._rooms[room_id] = room
                kept.append(room_id)
        return kept

    async def abandon_oldest(self, player_id: str, keep: int) -> None:
        """End the guest's oldest unfinished games beyond ``keep`` that nobody is at (no seated
        person connected here), and forget them if they are in memory. Under the loading lock, so
        no copy of one is being rebuilt meanwhile (a later load finds it abandoned)."""
        async with self._loading:
            busy = {
                room_id
                for room_id, room in self._rooms.items()
                if room.seat_of(player_id) is not None and room.present()
            }  # only the guest's own rooms can be ended: the others' presence is not asked
            ended = await asyncio.to_thread(self.store.abandon_oldest, player_id, keep, busy)
            for room_id in ended:
                room = self._rooms.pop(room_id, None)
                if room is not None:
                    await room.abandon()

    async def release(self, room: Room) -> None:
        """Forget ``room`` if nobody watches it and nothing drives it (``Room.idle``).

        Its log rebuilds it on the next ``get``, so a finished or abandoned game costs no memory.
        A watcher joins synchronously right after ``get`` returns (``Room.join``), and nothing
        here awaits before the room leaves ``_rooms``, so no socket can attach to a dropped room
        while a second copy is built from the log.
        """
        if not room.connections and room.idle and self._rooms.get(room.id) is room:
            del self._rooms[room.id]
            await room.close()

    async def sweep(self) -> None:
        """Release every room that became idle after its last watcher left (a bot moved last)."""
        for room in list(self._rooms.values()):
            await self.release(room)

    async def sweep_forever(self, every: float = SWEEP_SECONDS) -> None:
        while True:
            await asyncio.sleep(every)
            await self.sweep()

    def __contains__(self, room_id: str) -> bool:
        return room_id in self._rooms

    async def close(self) -> None:
        for room in list(self._rooms.values()):
            await room.close()
        self._rooms.clear()
