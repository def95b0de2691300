"""This process's part in a site of several processes on one database (``REDIS_URL``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import redis.asyncio as redis

from asobiba.server.cluster.leases import RedisLeases
from asobiba.server.cluster.relay import Relay
from asobiba.server.cluster.switchboard import Switchboard
from asobiba.server.logs import say, set_process
from asobiba.server.settings import GuestLimits, Settings

if TYPE_CHECKING:
    from asobiba.server.rooms.hub import Hub

COMMAND_SECONDS = 1.0
"""How long one Redis command may take before it counts as failed (a hung Redis must not hold
a room: its lease then lapses and it refuses actions with a clear error)."""
SUBSCRIBE_SECONDS = 10.0
"""How long start-up waits for the relay's subscription."""


class Cluster:
    def __init__(self, settings: Settings, limits: GuestLimits) -> None:
        assert settings.redis_url is not None, "a cluster needs Redis"
        self.settings = settings
        self.limits = limits
        url, connect = settings.redis_url, COMMAND_SECONDS
        self._client = redis.Redis.from_url(
            url, socket_timeout=COMMAND_SECONDS, socket_connect_timeout=connect
        )
        # The subscription waits for messages as long as it likes: no read timeout.
        self._listener = redis.Redis.from_url(url, socket_connect_timeout=connect)
        self.ownership = RedisLeases(self._client, settings.redis_prefix, settings.lease_seconds)

    @classmethod
    def connect(cls, settings: Settings, limits: GuestLimits) -> Cluster | None:
        """The cluster to join, or None without ``REDIS_URL`` (one process owns every room)."""
        return None if settings.redis_url is None else cls(settings, limits)

    @property
    def clients(self) -> tuple[redis.Redis, redis.Redis]:
        """Its Redis clients, for other state the processes share (``pairing/redis_pools.py``):
        one for commands, each within ``COMMAND_SECONDS``, and one for a subscription. Closed
        when the cluster stops."""
        return self._client, self._listener

    async def ping(self) -> None:
        """Ask Redis for an answer (``/readyz``); raises ``RedisError`` when it gives none."""
        await self._client.ping()

    @asynccontextmanager
    async def running(
        self, hub: Hub, signed_out: Callable[[str], object] | None = None
    ) -> AsyncIterator[None]:
        """Renew ``hub``'s leases and relay its sockets until the site stops; ``signed_out`` is
        told of every account session another process signed out."""
        prefix, me = self.settings.redis_prefix, self.ownership.me

        def relay(board: Switchboard) -> Relay:
            calls = board.receive, board.broken, board.unheard
            return Relay(self._listener, prefix, me, *calls, publisher=self._client)

        board = Switchboard(hub, self.ownership, relay, self.limits, signed_out)
        hub.switchboard = board
        await self.ownership.renew([])  # alive, and its leases valid, before any claim
        set_process(me)
        say(f"asobiba: process {me} of the site {prefix!r} (rooms shared through Redis)")
        relaying = asyncio.create_task(board.relay.run())
        leases = asyncio.create_task(hub.keep_leases(self.settings.lease_seconds / 3))
        try:
            await asyncio.wait_for(board.relay.subscribed.wait(), SUBSCRIBE_SECONDS)
            yield
        finally:
            await board.close()
            await board.relay.drain(COMMAND_SECONDS)
            for task in (relaying, leases):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await self._client.aclose()
            await self._listener.aclose()
