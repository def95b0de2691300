"""The in-process hub: the rooms this process owns, loaded from the event log on demand.

A room whose process died is rebuilt by replaying its stored events (``Room.__init__``), so a
restart loses nothing. A rebuilt room's clock stands still until a seated person is back
(``server/rooms/clock.py``); rooms waiting on their clock are rebuilt at start-up (``recover``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from asobiba.core.game import Game
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.analysis.hints import Hinter, in_thread
from asobiba.server.rooms.recovery import finish_if_over
from asobiba.server.rooms.room import BotChooser, Room
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
    ) -> None:
        """``pause_seconds``: how long a room plays on after its last seated person left;
        ``pace_scale``: multiplies the bots' human pace (0 only for tests and benches)."""
        self.store = store
        self.pause_seconds = pause_seconds
        self.pace_scale = pace_scale
        self._choose = choose
        self._hinter = hinter
        self._games = games
        self._rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def create(
        self, game_name: str, options: dict[str, Any], seats: list[dict[str, Any]], seed: int
    ) -> Room:
        """Validate, store and start a room. Raises ``InvalidOptions`` for a bad set-up."""
        game = self._games(game_name)
        resolved = game.resolve_options(options)
        game.new_state(resolved, len(seats), seed)  # validates the seat count before storing
        room_id = secrets.token_hex(8)
        await asyncio.to_thread(
            self.store.create_room, room_id, game_name, resolved, rule_key(resolved), seed, seats
        )
        stored = StoredRoom(room_id, game_name, resolved, seed, seats, [], False, None)
        room = Room(
            stored,
            game,
            self.store,
            self._choose,
            self._hinter,
            running=True,
            pause_seconds=self.pause_seconds,
            pace_scale=self.pace_scale,
        )
        self._rooms[room_id] = room
        room.schedule()
        return room

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
        room = await asyncio.to_thread(
            Room,
            stored,
            game,
            self.store,
            self._choose,
            self._hinter,
            pause_seconds=self.pause_seconds,
            pace_scale=self.pace_scale,
        )
        if await asyncio.to_thread(finish_if_over, self.store, room.game, stored, room.state):
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
                if room is None or room.over or room.game.deadline(room.state) is None:
                    continue
                self._rooms[room_id] = room
                kept.append(room_id)
        return kept

    async def abandon_oldest(self, player_id: str, keep: int) -> None:
        """End the guest's oldest unfinished games beyond ``keep`` that nobody is at (no seated
        person connected here), and forget them if they are in memory. Under the loading lock, so
        no copy of one is being rebuilt meanwhile (a later load finds it abandoned)."""
        async with self._loading:
            busy = {room_id for room_id, room in self._rooms.items() if room.present()}
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
