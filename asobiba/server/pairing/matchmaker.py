"""The matchmaker: seats the people of each pool at tables, and tells their pages.

Every process runs one. Each tick it reads every pool (``Pools.seekers``), forms the tables the
pure rules allow (``social/pairing.py`` ``form_tables``), takes each table's seeks out of the
pool at once (``Pools.take``: a process that formed the same table a moment later finds them
gone and makes nothing) and makes its room as a table between people is made
(``Hub.create``: the same room, seats, stand-ins and sockets). Then every process tells the
pages of those people that it holds (``Watch``: one per socket), wherever the table was made.

A person may instead fill the empty seats with computers once they have waited
``Schedule.offer_seconds`` (``fill``): the same table, made at once with bots of about their
rating (``level_near``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from statistics import fmean
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from asobiba.core.game import Game
from asobiba.core.rng import new_seed
from asobiba.games import get_game
from asobiba.server.cluster.leases import Unavailable
from asobiba.server.pairing.pools import (
    REFRESH_SECONDS,
    Entry,
    News,
    Paired,
    Placement,
    Pools,
)
from asobiba.server.pairing.ratings import UNKNOWN, LevelNear, Ratings
from asobiba.server.rooms.hub import Hub
from asobiba.server.social.names import default_name, unique_name
from asobiba.server.social.pairing import PoolRules, Schedule, form_tables
from asobiba.server.social.tables import TableSettings, TurnClockSetting

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
"""How often each process forms tables (and at once after a new seek)."""
OUTBOX = 32
"""Messages waiting for one page; a page that reads none of them is sent no more."""


class PairingError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Watch:
    """One page (socket) watching its person's seek on this process."""

    def __init__(self, entry: Entry) -> None:
        self.entry = entry
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(OUTBOX)
        self.offered = False
        self.others: int | None = None
        self.over = False
        """Its last message (paired, ended) is queued: the socket closes after it."""

    def send(self, message: dict[str, Any]) -> None:
        if self.over:
            return
        if message["type"] in {"paired", "ended"}:
            self.over = True
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            log.warning("pairing: a page reads nothing; a message to it is dropped")


class Matchmaker:
    def __init__(
        self,
        hub: Hub,
        pools: Pools,
        schedule: Schedule,
        ratings: Ratings,
        level_near: LevelNear,
        *,
        keep: int,
        games: Callable[[str], Game[Any]] = get_game,
        tick_seconds: float = TICK_SECONDS,
    ) -> None:
        """``keep``: the unfinished games a person keeps when a table is made for them (their
        oldest beyond it that nobody is at end, as when they start one: ``Hub.make_room_for``)."""
        self.hub = hub
        self.pools = pools
        self.schedule = schedule
        self.ratings = ratings
        self.level_near = level_near
        self.keep = keep
        self._games = games
        self._tick_seconds = tick_seconds
        self._watches: dict[str, list[Watch]] = {}
        self._poked = asyncio.Event()

    # --- a person's seek -------------------------------------------------------------------

    async def rating(self, player: str, rules: PoolRules) -> float:
        """The person's rating for ``rules`` (``UNKNOWN`` when they have none yet)."""
        found = await asyncio.to_thread(self.ratings.rating_of, player, rules)
        return UNKNOWN if found is None else float(found)

    def bots(self, rules: PoolRules, rating: float) -> str:
        """The level of the computers offered to a person of ``rating``."""
        return self.level_near(self._games(rules.game), rules, rating)

    async def seek(self, player: str, rules: PoolRules, rating: float) -> Entry:
        """Wait for a game of ``rules`` (the same seek again if the person waits there already).
        Raises ``Busy``, ``Unavailable``."""
        entry, _ = await self.pools.enter(player, rules, rating)
        self._poked.set()
        return entry

    async def cancel(self, player: str) -> bool:
        """The person stops waiting (every page of theirs is told); whether they were."""
        return await self.pools.cancel(player) is not None

    async def fill(self, player: str) -> None:
        """Start now with computers of about the person's rating in the empty seats, once they
        have waited ``offer_seconds``. Raises ``PairingError``, ``Unavailable``."""
        now, entry = await self.pools.seek_of(player)
        if entry is None:
            raise PairingError("not_seeking", "you are not waiting for a game")
        waited = now - entry.seeker.since
        if waited < self.schedule.offer_seconds:
            seconds = self.schedule.offer_seconds
            message = f"the computers are offered after {seconds:g} s of waiting"
            raise PairingError("too_soon", message)
        if not await self.pools.take(entry.pool, [entry]):
            # Paired with people a moment ago (their news is on its way), or gone.
            raise PairingError("not_seeking", "you are not waiting for a game any more")
        if not await self._make([entry], fill=True):
            raise PairingError("unavailable", "the table could not be made; try again")

    # --- pages -----------------------------------------------------------------------------

    async def watch(self, player: str, pool: str) -> Watch | None:
        """A page of ``player`` watches their seek in ``pool`` (None: they wait there no more);
        its first message says how the seek stands."""
        now, entry = await self.pools.seek_of(player)
        if entry is None or entry.pool != pool:
            return None
        watch = Watch(entry)
        self._watches.setdefault(player, []).append(watch)
        watch.send(self._seeking(entry, now))
        self._offer(watch, now)
        # Watched from now on: the seek may be paired (news it missed meanwhile comes back).
        for news in (await self.pools.refresh([entry])).values():
            self.deliver(news)
        self._poked.set()
        return watch

    async def unwatch(self, watch: Watch) -> None:
        """The page is gone. The person's last page here watching that seek leaves it: closing
        the page (or going elsewhere) is leaving the pool."""
        player = watch.entry.player
        mine = self._watches.get(player, [])
        if watch in mine:
            mine.remove(watch)
        if not mine:
            self._watches.pop(player, None)
        if watch.over or any(other.entry.pool == watch.entry.pool for other in mine):
            return
        try:
            await self.pools.leave(player, watch.entry.pool)
        except Unavailable as error:
            log.warning("pairing: a seek was not left (%s); it lapses by itself", error)

    def deliver(self, news: News) -> None:
        """News from any process: a person's table is made, or their seek ended."""
        for watch in list(self._watches.get(news.player, [])):
            if isinstance(news, Paired):
                watch.send({"type": "paired", **news.placement.to_json()})
            elif news.reason != "elsewhere" or watch.entry.pool == news.pool:
                watch.send({"type": "ended", "reason": news.reason})

    def _seeking(self, entry: Entry, now: float) -> dict[str, Any]:
        waited = max(0.0, now - entry.seeker.since)
        return {
            "type": "seeking",
            "pool": entry.pool,
            "rules": entry.rules.to_json(),
            "rating": round(entry.seeker.rating),
            "waited": round(waited, 2),
            "bots": self.bots(entry.rules, entry.seeker.rating),
        }

    def _offer(self, watch: Watch, now: float) -> None:
        if not watch.offered and now - watch.entry.seeker.since >= self.schedule.offer_seconds:
            watch.offered = True
            level = self.bots(watch.entry.rules, watch.entry.seeker.rating)
            watch.send({"type": "offer", "bots": level})

    def _waiting(self, pool: str, now: float, entries: list[Entry]) -> None:
        """Tell this process's pages of ``pool`` how many others wait, and offer the
        computers to those who have waited long enough."""
        here = {entry.player for entry in entries}
        for player in here:
            for watch in self._watches.get(player, []):
                if watch.entry.pool != pool:
                    continue
                others = len(here) - 1
                if others != watch.others:
                    watch.others = others
                    watch.send({"type": "others", "others": others})
                self._offer(watch, now)

    # --- forming tables --------------------------------------------------------------------

    async def run(self) -> None:
        """Form tables, refresh this process's seeks and hand on news, until cancelled."""
        async with asyncio.TaskGroup() as group:
            group.create_task(self.pools.listen(self.deliver))
            group.create_task(self._tick_forever())
            group.create_task(self._refresh_forever())

    async def _tick_forever(self) -> None:
        while True:
            self._poked.clear()
            try:
                await self.tick()
            except (Unavailable, SQLAlchemyError) as error:
                log.warning("pairing: no tables formed this round (%s)", error)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), self._tick_seconds)

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.refresh()
            except Unavailable as error:
                log.warning("pairing: seeks not refreshed (%s)", error)

    async def refresh(self) -> None:
        """Keep the seeks this process's pages watch alive, and hand on news they missed."""
        watched = {
            (watch.entry.player, watch.entry.pool): watch.entry
            for watches in self._watches.values()
            for watch in watches
            if not watch.over
        }
        for news in (await self.pools.refresh(watched.values())).values():
            self.deliver(news)

    async def tick(self) -> int:
        """Form and make every table the pools allow now; how many were made."""
        made = 0
        for pool in await self.pools.pools():
            now, entries = await self.pools.seekers(pool)
            if not entries:
                continue
            size = entries[0].rules.players
            by_player = {entry.player: entry for entry in entries}
            seekers = [entry.seeker for entry in entries]
            placed: set[str] = set()
            for table in form_tables(seekers, size, now, self.schedule):
                chosen = [by_player[seeker.player] for seeker in table]
                if await self.pools.take(pool, chosen) and await self._make(chosen):
                    made += 1
                    placed.update(entry.player for entry in chosen)
            self._waiting(pool, now, [entry for entry in entries if entry.player not in placed])
        return made

    async def _make(self, entries: list[Entry], fill: bool = False) -> bool:
        """Make the room of a table whose seeks were taken, and tell its people; if it cannot
        be made, put them back in their pool. Whether it was made."""
        try:
            placements = await self._table(entries, fill)
        except (Unavailable, SQLAlchemyError) as error:
            log.warning("pairing: a table could not be made (%s); its people wait on", error)
            await self.pools.restore(entries)
            return False
        except Exception:
            log.exception("pairing: a table could not be made; its people wait on")
            await self.pools.restore(entries)
            return False
        await self.pools.settle(placements)
        return True

    async def _table(self, entries: list[Entry], fill: bool) -> dict[str, Placement]:
        """The table's room, made as a table between people is (``Hub.create``): its people at
        seats drawn at random, computers in the rest (only when ``fill``), a stand-in and a turn
        clock. Where each person sits."""
        rules = entries[0].rules
        game = self._games(rules.game)
        rating = fmean(entry.seeker.rating for entry in entries)
        level = self.level_near(game, rules, rating)
        store = self.hub.store
        seats: list[dict[str, Any]] = []
        for entry in entries:
            await self.hub.make_room_for(entry.player, self.keep)
            name = await asyncio.to_thread(store.player_name, entry.player)
            name = unique_name(name or default_name(entry.player), [seat["name"] for seat in seats])
            seats.append({"player": entry.player, "name": name})
        bots = rules.players - len(entries)
        assert fill or bots == 0, "a table of people only is made full"
        seats += [{"bot": level} for _ in range(bots)]
        secrets.SystemRandom().shuffle(seats)
        clock = (
            None
            if len(entries) == 1
            else TurnClockSetting(self.schedule.clock_move, self.schedule.clock_reserve)
        )
        table = TableSettings(level, clock, paired=True, rated=True)
        room = await self.hub.create(
            rules.game, dict(rules.options), seats, new_seed(), table=table, host=None
        )
        log.info(
            "pairing: a table of %d people%s made",
            len(entries),
            f" and {bots} computers" if bots else "",
        )
        return {
            seat["player"]: Placement(room.id, rules.game, k, len(entries), level if bots else None)
            for k, seat in enumerate(seats)
            if "player" in seat
        }
