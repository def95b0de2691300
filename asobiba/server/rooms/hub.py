"""The in-process hub: the rooms this process owns, loaded from the event log on demand.

With several processes (``REDIS_URL``), a room is loaded only by the process that holds its
lease (``server/cluster/leases.py``); ``locate`` answers where a room is, and the switchboard
(``server/cluster/switchboard.py``) plays the rooms of other processes through this one.

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
from asobiba.server.cluster.leases import Ownership, Solo, Unavailable
from asobiba.server.cluster.switchboard import Elsewhere, Switchboard
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.loading import Loading
from asobiba.server.rooms.recovery import finish_if_over
from asobiba.server.rooms.room import BotChooser, Room
from asobiba.server.social import lobby
from asobiba.server.social.tables import TableSettings, new_code
from asobiba.server.store.store import Store, StoredRoom

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0
"""How often the hub looks for unwatched idle rooms to drop."""
LOBBY_RELOAD_SECONDS = 0.25
"""How long the lobby waits after another process said it changed before reading it again
(changes arriving meanwhile are read together)."""


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
        ownership: Ownership | None = None,
    ) -> None:
        """``pause_seconds``: how long a room plays on after its last seated person left;
        ``pace_scale``: multiplies the bots' human pace (0 only for tests and benches);
        ``standin_seconds``: the grace before a stand-in plays for an absent person, for every
        game (``ASOBIBA_STANDIN_SECONDS``; default: each game's own). ``ownership``: who owns
        each room (default: this process owns them all)."""
        self.store = store
        self.pause_seconds = pause_seconds
        self.pace_scale = pace_scale
        self.standin_seconds = standin_seconds
        self.lobby = lobby.Lobby()
        self._choose = choose
        self._hinter = hinter
        self._games = games
        self._rooms: dict[str, Room] = {}
        self._loading = Loading()
        self.ownership: Ownership = ownership or Solo()
        self.switchboard: Switchboard | None = None
        """Set when other processes share the rooms (``app.py``)."""
        self._lobby_reload: asyncio.TimerHandle | None = None

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
        # Taken before it is stored, so no other process can load it meanwhile; a fresh id is
        # nobody's (raises ``Unavailable`` when ownership cannot be known now).
        await self.ownership.claim(room_id)
        waiting = any(spec.get("open") for spec in seats)
        status = "waiting" if waiting else "playing"
        if table is not None and not waiting:  # every seat taken at once: it starts now
            table = dataclasses.replace(table, started_at=time.time())  # a new room's game time
        settings = None if table is None else table.to_json()
        while True:
            code = None if table is None else new_code()
            try:
                await self.store.writing(
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
            fence=self.ownership.valid,
            on_lost=self._lost,
        )

    def table_changed(self, room: Room) -> None:
        """What the lobby shows of ``room`` changed: list it (public tables between people
        that are not over) or take it off."""
        if self.switchboard is not None and room.table is not None and room.public:
            self.switchboard.relay.announce_lobby()
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
        """List the public tables the store holds unfinished (at start-up, and whenever another
        process changed one)."""
        rows = await asyncio.to_thread(self.store.public_tables)
        self.lobby.replace(
            lobby.entry(
                row.id, row.game, row.options, row.seats, row.host, row.status, row.created_at
            )
            for row in rows
        )

    def lobby_changed_elsewhere(self) -> None:
        """Another process changed a public table: read the lobby again soon."""
        if self._lobby_reload is None:
            loop = asyncio.get_running_loop()
            self._lobby_reload = loop.call_later(LOBBY_RELOAD_SECONDS, self._reload_lobby)

    def _reload_lobby(self) -> None:
        self._lobby_reload = None
        task = asyncio.ensure_future(self.load_lobby())
        task.add_done_callback(_log_failure)

    async def get(self, room_id: str) -> Room | None:
        """The room if this process holds it (loading it if it is free), else None."""
        place = await self.locate(room_id)
        return place if isinstance(place, Room) else None

    async def locate(self, room_id: str) -> Room | Elsewhere | None:
        """Where ``room_id`` is played: here (loaded from its log if nobody held it), on another
        process, or nowhere (no such room). Raises ``Unavailable``."""
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        async with self._loading.room(room_id):
            if room_id in self._rooms:
                return self._rooms[room_id]
            owner = await self.ownership.claim(room_id)
            if owner != self.ownership.me:
                return Elsewhere(owner)
            room = await self._rebuild(room_id)
            if room is None:
                await self.ownership.release(room_id)
                return None
            self._rooms[room_id] = room
            return room

    async def command(
        self, room_id: str, player: str, name: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Run a table command (``Room.command``) wherever the room is owned. Raises
        ``RoomError``."""
        for _ in range(3):  # a room that moves while asked is looked for again
            try:
                place = await self.locate(room_id)
                if not isinstance(place, Elsewhere):
                    return await self.command_on(place, room_id, player, name, args)
                assert self.switchboard is not None, "only a shared room can be elsewhere"
                return await self.switchboard.call(place.owner, room_id, player, name, args)
            except RoomError as error:
                if error.code != "moved":
                    raise
            except Unavailable:
                break
        raise RoomError("unavailable", "the table cannot be reached just now; try again")

    async def command_on(
        self, room: Room | None, room_id: str, player: str, name: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Run a table command on ``room``, held here (None: there is no such room)."""
        if room is None:
            raise RoomError("unknown_room", f"no table {room_id!r}")
        try:
            return await room.command(player, name, args)
        finally:
            await self.release(room)  # the call may have loaded it

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
            async with self._loading.room(room_id):
                if room_id in self._rooms:
                    continue
                if await self.ownership.claim(room_id) != self.ownership.me:
                    continue  # another process holds it
                room = await self._rebuild(room_id)
                keep = room is not None and not room.over and room.state is not None
                if room is None or not keep or room.game.deadline(room.state) is None:
                    await self.ownership.release(room_id)
                    continue
                self._rooms[room_id] = room
                kept.append(room_id)
        return kept

    async def make_room_for(self, player_id: str, keep: int) -> None:
        """Know the guest and end their oldest unfinished games beyond ``keep``
        (``abandon_oldest``), before they start another. Most new games find nothing to end:
        one short transaction, without closing the hub's loading gate or looking at every room
        in memory (at a thousand rooms, that look was a sixth of the server's time while they
        were starting)."""
        unfinished = await self.store.writing(self.store.arrive, player_id)
        if len(unfinished) > keep:
            await self.abandon_oldest(player_id, keep)

    async def abandon_oldest(self, player_id: str, keep: int) -> None:
        """End the guest's oldest unfinished games beyond ``keep`` that nobody is at (no seated
        person connected here), and forget them if they are in memory. No room is loaded
        meanwhile, so no copy of one is being rebuilt (a later load finds it abandoned)."""
        async with self._loading.alone():
            busy = {
                room_id
                for room_id, room in self._rooms.items()
                if room.seat_of(player_id) is not None and room.present()
            }  # only the guest's own rooms can be ended: the others' presence is not asked
            if self.switchboard is not None:
                # Held by another process: whether someone is at it is known only there.
                mine = await asyncio.to_thread(self.store.unfinished_of, player_id)
                busy |= await self.ownership.held_elsewhere(mine)
            ended = await self.store.writing(self.store.abandon_oldest, player_id, keep, busy)
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
            async with self._loading.room(room.id):  # not while this process loads it again
                if room.id not in self._rooms:
                    await self.ownership.release(room.id)

    def _lost(self, room: Room) -> None:
        """Another process wrote ``room``'s log (``Room.forsake``): forget it here."""
        if self._rooms.get(room.id) is room:
            del self._rooms[room.id]
        if self.switchboard is not None:
            self.switchboard.forsake(room)

    async def keep_leases(self, every: float) -> None:
        """Renew the leases of the rooms held here every ``every`` seconds; give up those
        another process took, and once renewals work again after an outage, let every room
        go on (its bots and timers waited on storage)."""
        failing = False
        while True:
            try:
                lost = await self.ownership.renew(list(self._rooms))
                if self.switchboard is not None:
                    await self.switchboard.check_peers()
            except Unavailable as error:
                if not failing:
                    log.warning("room leases not renewed (%s); retrying", error)
                failing = True
            else:
                for room_id in lost:
                    room = self._rooms.get(room_id)
                    if room is not None:
                        log.warning("room %s: its lease is another process's now", room_id)
                        room.forsake()
                if failing:
                    log.info("room leases renewed again")
                    for room in list(self._rooms.values()):
                        await room.resume()
                failing = False
            await asyncio.sleep(every)

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
        if self._lobby_reload is not None:
            self._lobby_reload.cancel()
        for room in list(self._rooms.values()):
            await room.close()
            await self.ownership.release(room.id)
        self._rooms.clear()


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("the lobby could not be read again: %s", task.exception())
