"""The in-process hub: the rooms this process owns, loaded from the event log on demand.

With several processes (``REDIS_URL``), a room is loaded only by the process that holds its
lease (``server/cluster/leases.py``); ``locate`` answers where a room is, and the switchboard
(``server/cluster/switchboard.py``) plays the rooms of other processes through this one.

A room whose process died is rebuilt by replaying its stored events (``Room.__init__``), so a
restart loses nothing. A rebuilt room's clock stands still until a seated person is back
(``server/rooms/clock.py``); rooms waiting on their clock are rebuilt at start-up (``recover``),
beside serving. Rooms nobody came back to for days are ended as abandoned (``reap``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from asobiba.core.game import Game, standin_seconds
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.analysis.hints import Hinter, in_thread
from asobiba.server.cluster.leases import Ownership, Solo, Unavailable
from asobiba.server.cluster.switchboard import Elsewhere, Switchboard
from asobiba.server.logs import name_game, room_context
from asobiba.server.metrics import ROOMS_LIVE
from asobiba.server.rooms.bot_turns import BotChooser
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.loading import Loading
from asobiba.server.rooms.recovery import finish_if_over
from asobiba.server.rooms.room import Room
from asobiba.server.settings import GuestLimits
from asobiba.server.social import lobby
from asobiba.server.social.tables import TableSettings, new_code
from asobiba.server.store.personal import Erased
from asobiba.server.store.store import IdleRoom, Store, StoredRoom

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0
"""How often the hub looks for unwatched idle rooms to drop."""
REAP_SECONDS = 60.0
"""How often the hub looks for games nobody came back to (``reap``)."""
REAP_BATCH = 100
"""Rooms ended at most per round of ``reap``."""
RECOVER_ROOMS = 500
"""Rooms waiting on their clock rebuilt at most at start-up (``recover``), the latest first."""
RECOVER_SECONDS = 30.0
"""How long start-up rebuilds rooms at most; the rest load when asked for."""
ADOPT_SECONDS = 15.0
"""How long a sign-in looks for the owner of a room its guest sits at (``Hub.adopt``): longer
than a dead owner's lease (``ASOBIBA_LEASE_SECONDS``, 5 s) and a table command's wait."""
ADOPT_RETRY_SECONDS = 0.5
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
        limits: GuestLimits | None = None,
    ) -> None:
        """``pause_seconds``: how long a room plays on after its last seated person left;
        ``pace_scale``: multiplies the bots' human pace (0 only for tests and benches);
        ``standin_seconds``: the grace before a stand-in plays for an absent person, for every
        game (``ASOBIBA_STANDIN_SECONDS``; default: each game's own). ``ownership``: who owns
        each room (default: this process owns them all). ``limits``: what a room's spectators
        may write (``GuestLimits.spectator_*``)."""
        self.store = store
        self.pause_seconds = pause_seconds
        self.pace_scale = pace_scale
        self.standin_seconds = standin_seconds
        self.limits = limits or GuestLimits()
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
        self.stopping = False
        """The process is stopping (``hand_over``): it takes no room any more."""
        ROOMS_LIVE.watch(self)

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
        first = game.new_state(resolved, len(seats), seed)  # validates the seat count first
        room_id = secrets.token_hex(8)
        # Taken before it is stored, so no other process can load it meanwhile; a fresh id is
        # nobody's (raises ``Unavailable`` when ownership cannot be known now).
        await self.ownership.claim(room_id)
        waiting = any(spec.get("open") for spec in seats)
        status = "waiting" if waiting else "playing"
        timed = not waiting and game.deadline(first) is not None
        if table is not None and not waiting:  # every seat taken at once: it starts now
            table = table.started(time.time(), seats)  # a new room's game time
        settings = None if table is None else table.to_json()
        created_at = datetime.now(UTC)
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
                    created_at=created_at,
                    timed=timed,
                )
                break
            except IntegrityError:
                if code is None:
                    raise
                log.info("a table code was taken; drawing another")  # a code is a key
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
            created_at=created_at,
        )
        room = self._room(stored, game, running=True)
        self._rooms[room_id] = room
        with room_context(room_id, game_name):
            log.info("room made: %d seats, %s", len(seats), "a table" if table else "with bots")
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
            limits=self.limits,
            standin_grace=standin_seconds(game) if grace is None else grace,
            on_change=self.table_changed,
            fence=self.ownership.valid,
            on_lost=self._lost,
        )

    def table_changed(self, room: Room) -> None:
        """What the lobby shows of ``room`` changed: list it (public tables between people
        that are not over, and once started only while someone is at them, ``Room.attended``)
        or take it off. The other processes read the list again from the store, so whatever
        changed there is written first."""
        if self.switchboard is not None and room.table is not None and room.public:
            self.switchboard.relay.announce_lobby()
        nobody = room.status == "playing" and not room.attended
        if room.table is None or not room.public or room.over or nobody:
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

    def game_of(self, room_id: str) -> str | None:
        """The game of ``room_id`` if this process holds it now (for its log lines)."""
        room = self._rooms.get(room_id)
        return None if room is None else room.game.name

    async def locate(self, room_id: str) -> Room | Elsewhere | None:
        """Where ``room_id`` is played: here (loaded from its log if nobody held it), on another
        process, or nowhere (no such room). Raises ``Unavailable``."""
        room = self._rooms.get(room_id)
        if room is not None:
            return room
        if self.stopping:
            raise Unavailable("this process is stopping")
        async with self._loading.room(room_id):
            if room_id in self._rooms:
                return self._rooms[room_id]
            if self.stopping:
                raise Unavailable("this process is stopping")
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

    async def adopt(self, guest: str, account: str) -> tuple[int, frozenset[str]]:
        """``guest`` signed in to ``account``: every room the guest sits at that a process
        may hold in memory is moved by that process, under the room's lock (``Room.adopt``),
        so a game still being played ends with the account's result and its sockets find
        their seat. A room held here is moved here; one held by another process is moved
        there (``command``, through the switchboard); an unfinished one nobody holds is moved
        in the store under its lease, so no process loads it meanwhile. Finished rooms nobody
        holds are left to ``Accounts.merge``, which moves them and the rest in one
        transaction. Answers how many rooms were moved, and the rooms left to the guest: the
        account sits there too, or the room was being played where no owner answered for
        ``ADOPT_SECONDS`` (then its game stays the guest's; docs/ARCHITECTURE.md, "Accounts").
        Raises ``Unavailable``."""
        rooms = await asyncio.to_thread(self.store.accounts.rooms_naming, guest)
        held = await self.ownership.held_elsewhere([room_id for room_id, _ in rooms])
        left: set[str] = set()
        moved = 0
        remote: list[tuple[str, bool]] = []
        for room_id, finished in rooms:
            if room_id in held:
                remote.append((room_id, finished))
                continue
            async with self._loading.room(room_id):
                room = self._rooms.get(room_id)
                if room is not None:
                    try:
                        if await room.adopt(guest, account):
                            moved += 1
                        else:
                            left.add(room_id)
                    except RoomError:  # given up meanwhile: ask wherever it is now
                        remote.append((room_id, finished))
                    continue
                if finished:
                    continue
                if await self.ownership.claim(room_id) != self.ownership.me:
                    remote.append((room_id, finished))
                    continue
                try:
                    adopted = await asyncio.to_thread(
                        self.store.accounts.adopt_room, room_id, guest, account
                    )
                finally:
                    await self.ownership.release(room_id)
                if adopted:
                    moved += 1
                else:
                    left.add(room_id)
        for room_id, finished in remote:
            outcome = await self._adopt_elsewhere(room_id, guest, account)
            if outcome:
                moved += 1
            elif outcome is False or not finished:  # a finished room moves in the store anyway
                left.add(room_id)
        return moved, frozenset(left)

    async def _adopt_elsewhere(self, room_id: str, guest: str, account: str) -> bool | None:
        """``Room.adopt`` on the room's owner, wherever it is (``command``): whether it moved,
        or None when no owner answered within ``ADOPT_SECONDS``. An owner that died (or froze)
        holds its lease a few seconds more; then the room is taken here and moved here."""
        deadline = time.monotonic() + ADOPT_SECONDS
        while True:
            try:
                answer = await self.command(room_id, guest, "adopt", {"account": account})
                return bool(answer["adopted"])
            except RoomError as error:
                if error.code != "unavailable" or time.monotonic() > deadline:
                    with room_context(room_id):
                        log.warning("room %s not moved to an account (%s)", room_id, error.code)
                    return None
            await asyncio.sleep(ADOPT_RETRY_SECONDS)

    async def command_on(
        self, room: Room | None, room_id: str, player: str, name: str, args: dict[str, Any]
    ) -> dict[str, Any]:
        """Run a table command on ``room``, held here (None: there is no such room)."""
        if room is None:
            raise RoomError("unknown_room", f"no table {room_id!r}")
        name_game(room.game.name)
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
        with room_context(room_id, stored.game):
            room = await asyncio.to_thread(self._room, stored, game)
            if room.state is not None and await asyncio.to_thread(
                finish_if_over, self.store, room.game, stored, room.state
            ):
                log.warning("room %s: finished a game a crash had left unfinished", room_id)
            elif room.table is not None and room.public and not stored.paused and not room.over:
                # Its process died with people at it (a clean stop or a pause would have said
                # paused): nobody is at it until a person's socket joins and starts its clock.
                await asyncio.to_thread(self.store.set_paused, room_id, True)
                self.table_changed(room)
        return room

    async def recover(
        self, limit: int = RECOVER_ROOMS, seconds: float = RECOVER_SECONDS
    ) -> list[str]:
        """At start-up, beside serving (``app.py`` runs it as a task): rebuild the unfinished
        rooms whose game waits on its clock, so they are ready when their people come back
        (their clocks stand still until then). Returns the ids of the rooms kept.

        Only rooms marked ``rooms.timed`` are read: the mark is written with each event, in its
        transaction (``Store._mark``), so one query finds them and no other room's log is
        replayed (every unfinished room's, as before, took 13.5 s at 3,000 rooms, during which
        the site answered nothing). At most ``limit`` rooms, the latest touched first, for at
        most ``seconds``: the rest are rebuilt when someone asks for them (``locate``, under
        the same per-room lock, so nothing is built twice). A marked room found not waiting
        loses its mark (rooms stored before the mark existed are all marked: the first start-up
        looks at each once, and finishes any whose log ends the game, ``recovery.py``)."""
        started = time.monotonic()
        kept: list[str] = []
        looked = 0
        for room_id in await asyncio.to_thread(self.store.timed_rooms, limit):
            if time.monotonic() - started > seconds:
                break
            looked += 1
            async with self._loading.room(room_id):
                if self.stopping:
                    break
                if room_id in self._rooms:
                    continue
                if await self.ownership.claim(room_id) != self.ownership.me:
                    continue  # another process holds it
                room = await self._rebuild(room_id)
                if room is not None and not room.over and room.state is not None:
                    if room.game.deadline(room.state) is not None:
                        self._rooms[room_id] = room
                        kept.append(room_id)
                        continue
                    await self.store.writing(self.store.untime, room_id)
                await self.ownership.release(room_id)
        log.info(
            "start-up: %d rooms waiting on their clock rebuilt (%d looked at) in %.1f s",
            len(kept),
            looked,
            time.monotonic() - started,
        )
        return kept

    async def reap(
        self, games_seconds: float, tables_seconds: float, batch: int = REAP_BATCH
    ) -> list[str]:
        """End as abandoned (no result, no replay, like ``abandon_oldest``) up to ``batch``
        unfinished rooms nobody came back to: for ``tables_seconds`` (a started table with two
        or more people), else ``games_seconds`` (``Store.idle_rooms``). Returns their ids.

        Never one someone is at: a room held here with a socket open, or its clock still running
        (someone left it less than ``pause_seconds`` ago), or a change in flight; nor one held by
        another process (only its owner knows who is at it): the lease is taken first, so no
        process can load the room while it ends. Each room is ended under its own loading lock
        (no copy is being built meanwhile; other rooms load as usual) and only if it is still
        untouched in the store. A room held here is ended through ``Room.abandon`` (spectators
        see it end); public tables leave the lobby, on every process."""
        now = datetime.now(UTC)
        idle = await asyncio.to_thread(
            self.store.idle_rooms,
            now - timedelta(seconds=games_seconds),
            now - timedelta(seconds=tables_seconds),
            batch,
        )
        ended = []
        for candidate in idle:
            async with self._loading.room(candidate.id):
                if await self._reap_one(candidate):
                    ended.append(candidate.id)
        if ended:
            log.info("%d rooms nobody came back to ended as abandoned", len(ended))
        return ended

    async def _reap_one(self, candidate: IdleRoom) -> bool:
        """End ``candidate`` unless someone is at it (``reap``, under its loading lock);
        whether it was ended."""
        room = self._rooms.get(candidate.id)
        if room is None:
            if await self.ownership.claim(candidate.id) != self.ownership.me:
                return False  # held by another process: only it knows who is at it
            try:
                ended = await self.store.writing(self.store.reap, candidate)
            finally:
                await self.ownership.release(candidate.id)
            if ended and candidate.public:
                self.lobby.drop(candidate.id)
                if self.switchboard is not None:
                    self.switchboard.relay.announce_lobby()
            return ended
        if room.connections or room.clock.running or not room.idle:
            return False  # someone is at it, or left it a moment ago
        # A socket joins a room in memory without the loading lock: out of memory while the
        # store answers, a socket asking for it waits for the lock held here.
        del self._rooms[candidate.id]
        ended = False
        try:
            ended = await self.store.writing(self.store.reap, candidate)
        finally:
            if not ended:
                self._rooms[candidate.id] = room
        if ended:
            await room.abandon()  # its watchers see it end; a public table leaves the lobby
            await self.ownership.release(candidate.id)
        return ended

    async def reap_forever(self, games_seconds: float, tables_seconds: float) -> None:
        """``reap`` every ``REAP_SECONDS`` (more often when the times are shorter: tests), one
        batch a round, so a backlog (the rooms an upgrade found, idle together a week later) is
        ended over a few rounds rather than in one long stall. A round that cannot reach the
        store or Redis is logged and tried again next time."""
        every = min(REAP_SECONDS, games_seconds / 4, tables_seconds / 4)
        while True:
            await asyncio.sleep(every)
            try:
                await self.reap(games_seconds, tables_seconds)
            except (Unavailable, SQLAlchemyError) as error:
                log.warning("abandoned rooms not reaped this round (%s)", error)

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
        person connected here) and no other person sits at (``Store.abandon_oldest``), and
        forget them if they are in memory. No room is loaded
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

    async def forget(self, player: str) -> Erased:
        """A person deleted their data (``DELETE /api/account``): take them out of each of
        their unfinished games, on whichever process owns it (the room command ``forget``,
        ``rooms/departures.py``: a game of theirs alone ends, a started table with others goes
        on with a stand-in in their seat, a waiting table loses them), and out of every room
        this process holds in memory that names them (a finished game's seats, a spectator's
        chat lines); then erase them from the store (``Store.erase_player``). Raises
        ``RoomError`` ``unavailable`` when one of their games cannot be reached now: nothing is
        erased then, and asking again finishes the work (what was done stays done)."""
        going_on = 0  # tables that go on with a stand-in: the erasure finds them forgotten
        for room_id in await asyncio.to_thread(self.store.unfinished_of, player):
            try:
                answer = await self.command(room_id, player, "forget", {})
            except RoomError as error:
                if error.code != "unknown_room":
                    raise
            else:
                going_on += answer["room"] == "standin"
        for room in list(self._rooms.values()):
            mentioned = room.seat_of(player) is not None or room.host == player
            if mentioned or any(line.player == player for line in room.chat.lines):
                await room.command(player, "forget", {})
        erased = await self.store.writing(self.store.erase_player, player)
        erased = dataclasses.replace(erased, rooms_kept=erased.rooms_kept + going_on)
        log.info(
            "a player's data was deleted: %d rooms deleted, %d kept with a deleted seat",
            erased.rooms_deleted,
            erased.rooms_kept,
        )
        return erased

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
                        with room_context(room_id, room.game.name):
                            log.warning("room %s: its lease is another process's now", room_id)
                            room.forsake()
                if failing:
                    log.info("room leases renewed again")
                    for room in list(self._rooms.values()):
                        await room.resume()
                failing = False
            await asyncio.sleep(every)

    async def sweep(self) -> None:
        """Release every room that became idle after its last watcher left (a bot moved last),
        and take games nobody is at off the lobby (``unlist_unattended``)."""
        for room in list(self._rooms.values()):
            await self.release(room)
        try:
            await self.unlist_unattended()
        except (Unavailable, SQLAlchemyError) as error:
            log.warning("the lobby's games were not checked this round (%s)", error)

    async def unlist_unattended(self) -> list[str]:
        """Games the lobby lists as being played that no process holds, so nobody is at them
        (a person's socket holds its room in memory on its owner): their process died with
        people at them, before it could store them paused (``Room.pause``, ``Room.close``).
        Store them paused and take them off, on every process; returns their ids. Each is
        done holding its lease and its loading lock (``reap``'s way), so a person arriving
        meanwhile loads it after and lists it again as their clock starts."""
        candidates = [room_id for room_id in self.lobby.playing() if room_id not in self._rooms]
        if not candidates:
            return []
        held = await self.ownership.held_elsewhere(candidates)
        unlisted = []
        for room_id in candidates:
            if room_id in held:
                continue  # its owner knows who is at it, and stores it paused when nobody is
            async with self._loading.room(room_id):
                if room_id in self._rooms:
                    continue
                if await self.ownership.claim(room_id) != self.ownership.me:
                    continue
                try:
                    await asyncio.to_thread(self.store.set_paused, room_id, True)
                finally:
                    await self.ownership.release(room_id)
            unlisted.append(room_id)
            self.lobby.drop(room_id)
        if unlisted:
            log.info("%d games nobody is at taken off the lobby", len(unlisted))
            if self.switchboard is not None:
                self.switchboard.relay.announce_lobby()
        return unlisted

    async def sweep_forever(self, every: float = SWEEP_SECONDS) -> None:
        while True:
            await asyncio.sleep(every)
            await self.sweep()

    def rooms_by_game(self) -> Counter[str]:
        """The rooms held here, counted by game (``asobiba_rooms_live``)."""
        return Counter(room.game.name for room in self._rooms.values())

    def __contains__(self, room_id: str) -> bool:
        return room_id in self._rooms

    async def hand_over(self) -> None:
        """The process stops (SIGTERM, ``server/main.py``, before uvicorn closes the sockets):
        give up every room at once so that another process can take each over as its people
        reconnect, not a lease later. Each room writes the change in flight and stores where
        its clock stood (``Room.hand_over``), its lease is released, and only then are its
        sockets closed with 1012 (local ones and those relayed from other processes): a page's
        reconnect, to whichever process, finds the room free and loads it from its log. The
        rooms go in parallel; no room is taken here meanwhile (``locate`` refuses)."""
        self.stopping = True
        async with self._loading.alone():  # a load under way ends first; none starts after
            rooms = list(self._rooms.values())
            self._rooms.clear()
        started = time.monotonic()
        await asyncio.gather(*(self._hand_over(room) for room in rooms))
        log.info("%d rooms handed over in %.2f s", len(rooms), time.monotonic() - started)

    async def _hand_over(self, room: Room) -> None:
        with room_context(room.id, room.game.name):
            try:
                await room.hand_over()
            except Exception:  # the database is down: the next owner resumes from the log
                log.warning("room %s: its clock was not stored as it was handed over", room.id)
            await self.ownership.release(room.id)
            if self.switchboard is not None:
                self.switchboard.forsake(room)  # its relayed sockets are ended just below
            room.send_off("the server is restarting; reconnecting")

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
