"""The pools of "Play someone now" keep one contract in memory and in Redis (``server/pairing/
pools.py``, ``redis_pools.py``): one seek per person, the same seek from a second tab, a seek
elsewhere moves it, tables taken all or nothing and never twice, cancel, leave, refresh, stale
seeks dropped. The Redis pools run on the machine's real Redis, under a prefix of their own."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
import redis
import redis.asyncio as aredis

from asobiba.server.pairing.pools import (
    Busy,
    Ended,
    Entry,
    MemoryPools,
    News,
    Paired,
    Placement,
    Pools,
)
from asobiba.server.pairing.redis_pools import RedisPools
from asobiba.server.social.pairing import PoolRules
from tests.server.cluster import REDIS_URL

KALAH = PoolRules("mancala", {"variant": "kalah"}, 2)
BASIC = PoolRules("mancala", {"variant": "basic"}, 2)
STALE = 0.5


class Heard:
    """The news a pool's listener handed on."""

    def __init__(self) -> None:
        self.news: list[News] = []
        self.arrived = asyncio.Event()

    def __call__(self, news: News) -> None:
        self.news.append(news)
        self.arrived.set()

    async def wait_for(self, wanted: News) -> None:
        while wanted not in self.news:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 10)


@asynccontextmanager
async def memory_pools() -> AsyncIterator[tuple[Pools, Heard]]:
    pools = MemoryPools(stale_seconds=STALE)
    heard = Heard()
    listening = asyncio.create_task(pools.listen(heard))
    await asyncio.sleep(0)
    try:
        yield pools, heard
    finally:
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)


@asynccontextmanager
async def redis_pools() -> AsyncIterator[tuple[Pools, Heard]]:
    prefix = f"asobiba-test-{uuid.uuid4().hex[:10]}"
    client = aredis.Redis.from_url(REDIS_URL, socket_timeout=2)
    listener = aredis.Redis.from_url(REDIS_URL)
    pools = RedisPools(client, listener, prefix, stale_seconds=STALE)
    heard = Heard()
    listening = asyncio.create_task(pools.listen(heard))
    try:
        await asyncio.wait_for(pools.subscribed.wait(), 10)
        yield pools, heard
    finally:
        listening.cancel()
        await asyncio.gather(listening, return_exceptions=True)
        await client.aclose()
        await listener.aclose()
        with redis.Redis.from_url(REDIS_URL) as sync:
            keys = list(sync.scan_iter(f"{prefix}:*"))
            if keys:
                sync.delete(*keys)


Scenario = Callable[[Pools, Heard], Awaitable[None]]


@pytest.fixture(params=["memory", "redis"])
def run(request: pytest.FixtureRequest) -> Callable[[Scenario], None]:
    opened = memory_pools if request.param == "memory" else redis_pools

    def go(scenario: Scenario) -> None:
        async def main() -> None:
            async with opened() as (pools, heard):
                await scenario(pools, heard)

        asyncio.run(main())

    return go


async def watched(pools: Pools, player: str, rules: PoolRules, rating: float = 1500) -> Entry:
    """A seek its page watches (as ``Matchmaker.watch`` makes it): one that may be paired."""
    entry, _ = await pools.enter(player, rules, rating)
    assert await pools.refresh([entry]) == {}
    return entry


async def players_in(pools: Pools, pool: str) -> list[str]:
    return sorted(entry.player for entry in (await pools.seekers(pool))[1])


def place(room: str, seat: int) -> Placement:
    return Placement(room, "mancala", seat, 2, None)


def test_a_second_tab_is_the_same_seek(run: Callable[[Scenario], None]) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        first, moved = await pools.enter("aki", KALAH, 1500)
        assert await players_in(pools, KALAH.key) == [], "not paired before a page watches it"
        assert await pools.refresh([first]) == {}
        again, moved_again = await pools.enter("aki", KALAH, 1700)
        assert moved is None and moved_again is None
        assert again == first, "the same token, since and rating: one seek per person"
        assert await players_in(pools, KALAH.key) == ["aki"]
        now, found = await pools.seek_of("aki")
        assert found == first and now >= first.seeker.since
        assert await pools.pools() == [KALAH.key]

    run(scenario)


def test_a_seek_of_another_rule_set_moves_the_person(run: Callable[[Scenario], None]) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        await watched(pools, "aki", KALAH)
        entry, moved = await pools.enter("aki", BASIC, 1500)
        await pools.refresh([entry])
        assert moved == KALAH.key
        await heard.wait_for(Ended("aki", KALAH.key, "elsewhere"))
        assert await players_in(pools, KALAH.key) == []
        assert await players_in(pools, BASIC.key) == ["aki"]
        assert await pools.pools() == [BASIC.key]
        # A page still watching the Kalah seek learns it ended there.
        watched_kalah = entry.__class__(entry.seeker, KALAH, entry.token)
        news = await pools.refresh([watched_kalah])
        assert news == {"aki": Ended("aki", KALAH.key, "elsewhere")}

    run(scenario)


def test_a_table_is_taken_all_or_nothing_and_never_twice(run: Callable[[Scenario], None]) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        aki = await watched(pools, "aki", KALAH, 1500)
        ben = await watched(pools, "ben", KALAH, 1510)
        cho = await watched(pools, "cho", KALAH, 1520)
        await pools.leave("cho", KALAH.key)
        assert not await pools.take(KALAH.key, [aki, cho]), "cho is gone: nobody is taken"
        assert await players_in(pools, KALAH.key) == ["aki", "ben"]
        results = await asyncio.gather(
            *(pools.take(KALAH.key, [aki, ben]) for _ in range(8)),
            pools.take(KALAH.key, [ben]),
        )
        assert sum(results) == 1, results
        taken = [aki, ben] if any(results[:8]) else [ben]
        left = sorted({"aki", "ben"} - {entry.player for entry in taken})
        assert await players_in(pools, KALAH.key) == left
        for entry in taken:
            with pytest.raises(Busy):  # their table is being made: a new seek waits
                await pools.enter(entry.player, KALAH, 1500)
            assert (await pools.seek_of(entry.player))[1] is None
        await pools.settle({entry.player: place("r1", k) for k, entry in enumerate(taken)})
        for k, entry in enumerate(taken):
            await heard.wait_for(Paired(entry.player, place("r1", k)))
            # A page that missed the news reads it at its refresh.
            news = await pools.refresh([entry])
            assert news == {entry.player: Paired(entry.player, place("r1", k))}
        again, _ = await pools.enter(taken[0].player, KALAH, 1500)
        assert again.token != taken[0].token, "a new seek after the game"

    run(scenario)


def test_a_table_that_could_not_be_made_puts_its_people_back(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        aki = await watched(pools, "aki", KALAH, 1500)
        ben, _ = await pools.enter("ben", KALAH, 1500)
        assert await pools.take(KALAH.key, [aki, ben])
        await pools.restore([aki, ben])
        _, entries = await pools.seekers(KALAH.key)
        assert sorted(entries, key=lambda e: e.player) == [aki, ben], "as they were: same wait"
        assert (await pools.enter("aki", KALAH, 1500))[0] == aki, "no longer pending"

    run(scenario)


def test_cancel_ends_every_tab_and_is_not_undone_by_a_refresh(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        aki = await watched(pools, "aki", KALAH, 1500)
        assert await pools.cancel("aki") == KALAH.key
        await heard.wait_for(Ended("aki", KALAH.key, "cancelled"))
        assert (await pools.seek_of("aki"))[1] is None
        assert await pools.refresh([aki]) == {"aki": Ended("aki", KALAH.key, "cancelled")}
        assert await players_in(pools, KALAH.key) == []
        assert await pools.cancel("aki") is None
        assert await pools.pools() == []

    run(scenario)


def test_a_page_left_while_another_tab_watches_the_seek_comes_back(
    run: Callable[[Scenario], None],
) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        aki = await watched(pools, "aki", KALAH, 1500)
        await pools.leave("aki", KALAH.key)
        assert await players_in(pools, KALAH.key) == []
        assert await pools.refresh([aki]) == {}
        _, entries = await pools.seekers(KALAH.key)
        assert entries == [aki], "back with its wait"
        await pools.leave("aki", BASIC.key)  # another pool's page: nothing to leave here
        assert await players_in(pools, KALAH.key) == ["aki"]

    run(scenario)


def test_a_seek_nobody_refreshes_lapses(run: Callable[[Scenario], None]) -> None:
    async def scenario(pools: Pools, heard: Heard) -> None:
        aki = await watched(pools, "aki", KALAH, 1500)
        await watched(pools, "ben", KALAH)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while await players_in(pools, KALAH.key) != ["aki"]:
            assert loop.time() < deadline, "ben's seek never lapsed"
            await pools.refresh([aki])  # aki's page is there; ben's never came
            await asyncio.sleep(STALE / 5)
        assert (await pools.seek_of("ben"))[1] is None

    run(scenario)


def test_many_takes_at_once_seat_each_person_once(run: Callable[[Scenario], None]) -> None:
    """Overlapping tables formed at the same moment (as by two processes): each person is in
    one taken table at most."""

    async def scenario(pools: Pools, heard: Heard) -> None:
        entries = [await watched(pools, f"p{k}", KALAH) for k in range(12)]
        tables = [[entries[k], entries[(k + 1) % 12]] for k in range(12)]
        tables += [[entries[k], entries[(k + 5) % 12]] for k in range(12)]
        results: list[Any] = await asyncio.gather(*(pools.take(KALAH.key, t) for t in tables))
        seated = [e.player for table, ok in zip(tables, results, strict=True) if ok for e in table]
        assert len(seated) == len(set(seated))
        assert seated, "some table was taken"
        left = await players_in(pools, KALAH.key)
        assert sorted(left + seated) == sorted(e.player for e in entries)

    run(scenario)
