"""Room ownership: one process at a time holds a room in memory and writes its log.

With ``REDIS_URL`` set, ownership is a Redis key per room holding the owner's process id, with an
expiry the owner renews while it keeps the room (``RedisLeases``). A process that dies stops
renewing, so its rooms are free for another process a few seconds later. The lease alone cannot
make a paused owner harmless (its lease may expire while it is stopped and another takes the
room over); the event log's ``(room_id, seq)`` key does: a stale owner's next event is a seq the
new owner wrote already, its write fails, and it gives the room up (``Room._commit``).

Without Redis, one process owns everything (``Solo``): the embedded set-up is unchanged.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Iterable
from typing import Protocol

import redis.asyncio as redis
from redis.exceptions import RedisError

from asobiba.server.metrics import LEASE_TAKEOVERS

log = logging.getLogger(__name__)

VALIDITY = 0.8
"""The share of a lease's time for which its owner trusts it after a renewal without asking
again: the rest covers the renewal's own delay and clock drift between processes."""

HELD_SECONDS = 7 * 24 * 3600
"""How long a room's ``held`` mark (its last claimer, until it releases the room) outlives its
lease: a room whose owner died is still counted as taken over when its people come back days
later."""

CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then
  return {owner, ''}
end
local previous = ''
if not owner then
  previous = redis.call('GET', KEYS[2]) or ''
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return {ARGV[1], previous}
"""
"""Take the room if nobody holds it (or extend it if we do); answer its owner, and the process
that held it last and never released it (its lease lapsed: a takeover), or ''."""

RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if not owner or owner == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    table.insert(lost, i - 1)
  end
end
redis.call('SET', ARGV[3], '1', 'PX', ARGV[2])
return lost
"""
"""Extend every lease we hold, take back any that vanished (a restarted Redis keeps nothing) and
mark this process alive; answer the indexes of the leases another process holds now."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
  return redis.call('DEL', KEYS[1])
end
return 0
"""
"""Give the room up if we hold it, and its ``held`` mark with it: a clean hand-over."""


class Ownership(Protocol):
    """Which process owns each room."""

    me: str
    """This process's id."""

    async def claim(self, room_id: str) -> str:
        """Take ``room_id`` if it is free; answer its owner (``me`` if it is ours now).
        Raises ``Unavailable`` when ownership cannot be known."""
        ...

    async def owner(self, room_id: str) -> str | None:
        """Who owns ``room_id`` now (None: nobody). Raises ``Unavailable``."""
        ...

    async def renew(self, room_ids: Iterable[str]) -> set[str]:
        """Extend our leases on ``room_ids``; answer those another process holds now (we lost
        them). Raises ``Unavailable``."""
        ...

    async def release(self, room_id: str) -> None:
        """Give ``room_id`` up if we hold it (never raises: an unreleased lease just expires)."""
        ...

    async def alive(self, processes: Iterable[str]) -> set[str]:
        """Which of ``processes`` are running (renewed lately). Raises ``Unavailable``."""
        ...

    async def held_elsewhere(self, room_ids: Iterable[str]) -> set[str]:
        """Which of ``room_ids`` another process holds now. Raises ``Unavailable``."""
        ...

    def valid(self) -> bool:
        """Whether our leases are known to be held now: false once renewals have failed for
        longer than a lease lasts (Redis unreachable), so nothing is written that another
        owner may be writing too."""
        ...


class Unavailable(Exception):
    """Room ownership cannot be known now (Redis unreachable)."""


class Solo:
    """One process owns every room."""

    def __init__(self) -> None:
        self.me = "solo"

    async def claim(self, room_id: str) -> str:
        return self.me

    async def owner(self, room_id: str) -> str | None:
        return self.me

    async def renew(self, room_ids: Iterable[str]) -> set[str]:
        return set()

    async def release(self, room_id: str) -> None:
        return None

    async def alive(self, processes: Iterable[str]) -> set[str]:
        return {self.me} & set(processes)

    async def held_elsewhere(self, room_ids: Iterable[str]) -> set[str]:
        return set()

    def valid(self) -> bool:
        return True


class RedisLeases:
    """Leases of ``seconds`` in Redis under ``prefix``."""

    def __init__(self, client: redis.Redis, prefix: str, seconds: float) -> None:
        self.me = secrets.token_hex(6)
        self.seconds = seconds
        self._client = client
        self._prefix = prefix
        self._ms = str(int(seconds * 1000))
        self._claim = client.register_script(CLAIM)
        self._renew = client.register_script(RENEW)
        self._release = client.register_script(RELEASE)
        self._valid_until = 0.0

    def key(self, room_id: str) -> str:
        return f"{self._prefix}:lease:{room_id}"

    def _held_key(self, room_id: str) -> str:
        return f"{self._prefix}:held:{room_id}"

    def _alive_key(self, process: str) -> str:
        return f"{self._prefix}:alive:{process}"

    async def claim(self, room_id: str) -> str:
        keys = [self.key(room_id), self._held_key(room_id)]
        try:
            owner, previous = await self._claim(
                keys=keys, args=[self.me, self._ms, HELD_SECONDS * 1000]
            )
        except RedisError as error:
            raise Unavailable(str(error)) from error
        previous = _text(previous)
        if previous and previous != self.me:
            LEASE_TAKEOVERS.inc()
            log.info(
                "room %s: taken over from process %s (its lease had lapsed)", room_id, previous
            )
        return _text(owner)

    async def owner(self, room_id: str) -> str | None:
        try:
            owner = await self._client.get(self.key(room_id))
        except RedisError as error:
            raise Unavailable(str(error)) from error
        return None if owner is None else _text(owner)

    async def renew(self, room_ids: Iterable[str]) -> set[str]:
        ids = list(room_ids)
        asked = time.monotonic()
        try:
            lost = await self._renew(
                keys=[self.key(room_id) for room_id in ids],
                args=[self.me, self._ms, self._alive_key(self.me)],
            )
        except RedisError as error:
            raise Unavailable(str(error)) from error
        self._valid_until = asked + self.seconds * VALIDITY
        return {ids[int(index)] for index in lost}

    async def release(self, room_id: str) -> None:
        try:
            await self._release(keys=[self.key(room_id), self._held_key(room_id)], args=[self.me])
        except RedisError as error:
            log.warning("room %s: lease not released (%s); it expires by itself", room_id, error)

    async def alive(self, processes: Iterable[str]) -> set[str]:
        names = sorted(set(processes))
        if not names:
            return set()
        try:
            found = await self._client.mget([self._alive_key(name) for name in names])
        except RedisError as error:
            raise Unavailable(str(error)) from error
        return {name for name, value in zip(names, found, strict=True) if value is not None}

    async def held_elsewhere(self, room_ids: Iterable[str]) -> set[str]:
        ids = list(room_ids)
        if not ids:
            return set()
        try:
            owners = await self._client.mget([self.key(room_id) for room_id in ids])
        except RedisError as error:
            raise Unavailable(str(error)) from error
        mine = self.me.encode()
        return {
            room_id for room_id, owner in zip(ids, owners, strict=True) if owner not in (None, mine)
        }

    def valid(self) -> bool:
        """Only renewals make the leases valid (the hub renews at start-up, before any room is
        claimed): a claim after an outage says nothing of the leases held before it."""
        return time.monotonic() < self._valid_until


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
