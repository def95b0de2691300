"""The pools of people waiting for a game, behind one interface (``Pools``): in this process's
memory (``MemoryPools``, one process) or in Redis, shared by every process
(``redis_pools.RedisPools``, with ``REDIS_URL``).

A pool keeps one seek per person (``Entry``), whatever tabs they have open: a second tab's seek
of the same rule set is the same seek, its wait kept; a seek of another rule set moves the person
there (the first tab is told ``elsewhere``). Making a table takes its people out of their pool
at once and all together, or not at all (``take``): two processes pairing one pool never seat a
person twice. Until the table's room exists its people are marked ``pending`` (a new seek of
theirs waits); if it cannot be made they go back as they were (``restore``); if the process
making it dies, the mark lapses and their pages put them back (``refresh``).

A seek lives while a page watches it: every process refreshes the seeks its sockets watch
(``refresh``, at once when a page connects, then every ``REFRESH_SECONDS``); one nobody
refreshed for ``STALE_SECONDS`` (its process died, or the page never connected) is dropped. A
seek is paired only once a page has refreshed it, so a table is never made for someone whose
page is not there yet to take them to it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from asobiba.server.social.pairing import PoolRules, Seeker

STALE_SECONDS = 10.0
"""A seek no page refreshed for this long is dropped (its process died; its page never came)."""
REFRESH_SECONDS = 2.0
"""How often a process refreshes the seeks its sockets watch."""
PENDING_SECONDS = 30.0
"""How long people taken for a table stay marked while its room is made; if the process making
it died, they are free to wait again after this."""
OUTCOME_SECONDS = 60.0
"""How long a person's outcome (their table, or a cancel) is kept for their tabs that missed the
news (a broken subscription): each refresh reads it."""


@dataclass(frozen=True)
class Entry:
    """One person's seek as their pool keeps it."""

    seeker: Seeker
    rules: PoolRules
    token: str
    """This seek's own mark: a table is taken only from the seeks it was formed from (a person
    who cancelled and sought again is a new seek)."""

    @property
    def player(self) -> str:
        return self.seeker.player

    @property
    def pool(self) -> str:
        return self.rules.key


@dataclass(frozen=True)
class Placement:
    """Where a paired person sits: their table and seat."""

    room_id: str
    game: str
    seat: int
    people: int
    """How many people the table seats (the rest are computers)."""
    bots: str | None
    """The computers' level when there are any."""

    def to_json(self) -> dict[str, Any]:
        return {
            "room_id": self.room_id,
            "game": self.game,
            "seat": self.seat,
            "people": self.people,
            "bots": self.bots,
            "url": f"/games/{self.game}/{self.room_id}",
            "ws": f"/ws/rooms/{self.room_id}",
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Placement:
        return cls(
            str(data["room_id"]),
            str(data["game"]),
            int(data["seat"]),
            int(data["people"]),
            None if data["bots"] is None else str(data["bots"]),
        )


@dataclass(frozen=True)
class Paired:
    """News: ``player``'s table is made."""

    player: str
    placement: Placement


@dataclass(frozen=True)
class Ended:
    """News: ``player`` no longer waits in ``pool``: they ``cancelled`` (every tab stops), or
    sought ``elsewhere`` (another rule set, in another tab)."""

    player: str
    pool: str
    reason: str


News = Paired | Ended


def news_json(news: News) -> dict[str, Any]:
    """News as it crosses processes (``redis_pools``)."""
    if isinstance(news, Paired):
        return {"k": "paired", "player": news.player, "placement": news.placement.to_json()}
    return {"k": "ended", "player": news.player, "pool": news.pool, "reason": news.reason}


def news_from_json(data: Mapping[str, Any]) -> News:
    if data["k"] == "paired":
        return Paired(str(data["player"]), Placement.from_json(data["placement"]))
    return Ended(str(data["player"]), str(data["pool"]), str(data["reason"]))


class Busy(Exception):
    """A table is being made for this person right now: their new seek waits for it."""


class Pools(Protocol):
    """Every pool of the site. ``now`` values are the pools' own clock (seconds; one clock for
    every process), which seeks' ``since`` are read on."""

    async def enter(self, player: str, rules: PoolRules, rating: float) -> tuple[Entry, str | None]:
        """Seek a game of ``rules``: the seek the person has there already (its wait kept), or a
        new one; and the pool they left for it (told ``Ended(elsewhere)``), if any. Raises
        ``Busy``; ``Unavailable`` when the pools cannot be reached."""
        ...

    async def seek_of(self, player: str) -> tuple[float, Entry | None]:
        """Now, and the person's seek (None: they wait nowhere)."""
        ...

    async def leave(self, player: str, pool: str) -> None:
        """The person's last page watching their seek in ``pool`` here is gone: drop it (a page
        of theirs on another process puts it back at its next refresh)."""
        ...

    async def cancel(self, player: str) -> str | None:
        """The person stops waiting, in every tab (told ``Ended(cancelled)``): the pool they left,
        or None. A table already being made for them is made still."""
        ...

    async def pools(self) -> list[str]:
        """The pools anyone waits in."""
        ...

    async def seekers(self, pool: str) -> tuple[float, list[Entry]]:
        """Now, and the seeks of ``pool`` a page watches (stale ones dropped): a seek is
        paired only once its page listens, so nobody is seated while their page is not
        there to take them to the table."""
        ...

    async def take(self, pool: str, entries: Iterable[Entry]) -> bool:
        """Take these seeks out of ``pool`` for a table, all of them or (when one is gone or
        changed meanwhile) none; their people are marked pending until ``settle``."""
        ...

    async def restore(self, entries: Iterable[Entry]) -> None:
        """Their table could not be made: put the seeks back as they were."""
        ...

    async def settle(self, placements: Mapping[str, Placement]) -> None:
        """Their table is made: tell each person (``Paired``) where they sit."""
        ...

    async def refresh(self, watched: Iterable[Entry]) -> dict[str, News]:
        """Mark the seeks this process's pages watch as watched and alive (one that vanished
        meanwhile is put back as it was); answer the news of those that ended (a table made, a
        cancel, a seek elsewhere), for pages that missed it."""
        ...

    async def listen(self, deliver: Callable[[News], None]) -> None:
        """Hand every piece of news, from any process, to ``deliver`` until cancelled."""
        ...


@dataclass
class _Held:
    entry: Entry
    seen: float
    watched: bool


class MemoryPools:
    """The pools of one process, in its memory."""

    def __init__(
        self, clock: Callable[[], float] = time.time, stale_seconds: float = STALE_SECONDS
    ) -> None:
        self._clock = clock
        self._stale = stale_seconds
        self._pools: dict[str, dict[str, _Held]] = {}
        self._seeks: dict[str, _Held] = {}
        """Each person's one seek, wherever it is."""
        self._outcomes: dict[str, tuple[News | None, float]] = {}
        """Per person: their news (None: pending) and until when it is kept."""
        self._deliver: Callable[[News], None] | None = None

    def _tell(self, news: News) -> None:
        if self._deliver is not None:
            self._deliver(news)

    def _outcome(self, player: str, now: float) -> tuple[bool, News | None]:
        """Whether the person has an outcome still kept, and the news (None: pending)."""
        kept = self._outcomes.get(player)
        if kept is None or kept[1] <= now:
            self._outcomes.pop(player, None)
            return False, None
        return True, kept[0]

    def _drop(self, player: str) -> None:
        held = self._seeks.pop(player, None)
        if held is None:
            return
        pool = self._pools.get(held.entry.pool, {})
        pool.pop(player, None)
        if not pool:
            self._pools.pop(held.entry.pool, None)

    def _put(self, entry: Entry, now: float, watched: bool) -> None:
        held = _Held(entry, now, watched)
        self._seeks[entry.player] = held
        self._pools.setdefault(entry.pool, {})[entry.player] = held

    def _fresh(self, player: str, now: float) -> _Held | None:
        held = self._seeks.get(player)
        if held is not None and held.seen < now - self._stale:
            self._drop(player)
            return None
        return held

    async def enter(self, player: str, rules: PoolRules, rating: float) -> tuple[Entry, str | None]:
        now = self._clock()
        kept, news = self._outcome(player, now)
        if kept and news is None:
            raise Busy(player)
        self._outcomes.pop(player, None)
        held = self._fresh(player, now)
        if held is not None and held.entry.pool == rules.key:
            held.seen = now
            return held.entry, None
        moved = None if held is None else held.entry.pool
        self._drop(player)
        entry = Entry(Seeker(player, rating, now), rules, new_token())
        self._put(entry, now, watched=False)
        if moved is not None:
            self._tell(Ended(player, moved, "elsewhere"))
        return entry, moved

    async def seek_of(self, player: str) -> tuple[float, Entry | None]:
        now = self._clock()
        held = self._fresh(player, now)
        return now, None if held is None else held.entry

    async def leave(self, player: str, pool: str) -> None:
        held = self._seeks.get(player)
        if held is not None and held.entry.pool == pool:
            self._drop(player)

    async def cancel(self, player: str) -> str | None:
        now = self._clock()
        held = self._seeks.get(player)
        kept, news = self._outcome(player, now)
        if held is None or (kept and news is None):
            return None
        self._drop(player)
        ended = Ended(player, held.entry.pool, "cancelled")
        self._outcomes[player] = (ended, now + OUTCOME_SECONDS)
        self._tell(ended)
        return held.entry.pool

    async def pools(self) -> list[str]:
        return list(self._pools)

    async def seekers(self, pool: str) -> tuple[float, list[Entry]]:
        now = self._clock()
        for player in list(self._pools.get(pool, {})):
            self._fresh(player, now)
        return now, [held.entry for held in self._pools.get(pool, {}).values() if held.watched]

    async def take(self, pool: str, entries: Iterable[Entry]) -> bool:
        now = self._clock()
        taken = list(entries)
        held = self._pools.get(pool, {})
        if not all(
            entry.pool == pool and entry.player in held and held[entry.player].entry == entry
            for entry in taken
        ):
            return False
        for entry in taken:
            self._drop(entry.player)
            self._outcomes[entry.player] = (None, now + PENDING_SECONDS)
        return True

    async def restore(self, entries: Iterable[Entry]) -> None:
        now = self._clock()
        for entry in entries:
            kept, news = self._outcome(entry.player, now)
            if kept and news is None:
                self._outcomes.pop(entry.player)
            if entry.player not in self._seeks:
                self._put(entry, now, watched=True)

    async def settle(self, placements: Mapping[str, Placement]) -> None:
        now = self._clock()
        for player, placement in placements.items():
            news = Paired(player, placement)
            self._outcomes[player] = (news, now + OUTCOME_SECONDS)
            self._tell(news)

    async def refresh(self, watched: Iterable[Entry]) -> dict[str, News]:
        now = self._clock()
        ended: dict[str, News] = {}
        for entry in watched:
            held = self._fresh(entry.player, now)
            if held is not None and held.entry.pool == entry.pool:
                held.seen = now
                held.watched = True
                continue
            kept, news = self._outcome(entry.player, now)
            if kept:
                if news is not None:
                    ended[entry.player] = news
            elif held is not None:
                ended[entry.player] = Ended(entry.player, entry.pool, "elsewhere")
            else:
                self._put(entry, now, watched=True)  # another tab's page left: this one waits
        return ended

    async def listen(self, deliver: Callable[[News], None]) -> None:
        self._deliver = deliver
        try:
            await asyncio.Event().wait()
        finally:
            self._deliver = None


def new_token() -> str:
    return secrets.token_hex(8)
