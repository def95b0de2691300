"""How many sign-ins one account name and one network address may try: a password guessed at
speed is a password found.

Every attempt counts, right or wrong and whether the name is anyone's or not (so a refusal
says nothing about the name), against both the name (folded: "Aki" and "ＡＫＩ" are one) and
the address; past either, nothing is checked and the answer is 429. Making an account counts
against the address (each costs a hash).

One process keeps the counts in memory (``limits.RateLimit``: a burst of the limit, then the
limit per window); with ``REDIS_URL`` they live in Redis (``RedisAttempts``: a fixed window
per key), so a guesser spreading attempts over every process of the site meets one limit.
"""

from __future__ import annotations

import hashlib
import math
from typing import Protocol

import redis.asyncio as redis

from asobiba.server.limits import RateLimit, spend
from asobiba.server.settings import GuestLimits

COMMAND_SECONDS = 1.0
"""How long Redis may take to answer before the attempt is refused as unavailable."""


def name_key(folded: str) -> str:
    """The key a name is counted under: a digest, so the counts' store (Redis) holds no name."""
    return hashlib.sha256(folded.encode()).hexdigest()[:32]


class Attempts(Protocol):
    async def spend(self, name: str | None, address: str) -> int:
        """Count one attempt against ``name`` (a ``name_key``; None: an account being made,
        counted against the address only) and ``address``, or none when either is spent: the
        whole seconds to wait (0: counted, go on). Raises ``redis.RedisError`` when the
        counts cannot be reached."""
        ...

    async def close(self) -> None: ...


class MemoryAttempts:
    """The counts of one process."""

    def __init__(self, limits: GuestLimits) -> None:
        minutes = limits.signin_window_seconds / 60
        self._names = RateLimit(limits.signin_per_name, limits.signin_per_name / minutes)
        self._addresses = RateLimit(limits.signin_per_address, limits.signin_per_address / minutes)

    async def spend(self, name: str | None, address: str) -> int:
        asks = [(self._addresses, address)]
        if name is not None:
            asks.append((self._names, name))
        return spend(*asks)

    async def close(self) -> None:
        return None


SPEND = """
local wait = 0
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0')
  if n >= tonumber(ARGV[i + 1]) then
    local left = redis.call('PTTL', key)
    if left < 0 then left = tonumber(ARGV[1]) end
    if left > wait then wait = left end
  end
end
if wait > 0 then
  return wait
end
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then
    redis.call('PEXPIRE', key, ARGV[1])
  end
end
return 0
"""
"""A fixed window per key (``INCR``, and ``PEXPIRE`` when the window opens): count one attempt
against every key, or none when any key is at its limit; answer the milliseconds until the
fullest of those windows closes (0: counted). One script, so two processes counting at once
never both slip under a limit."""


class RedisAttempts:
    """The counts of the whole site, in Redis (``<prefix>:signin:name:<digest>``,
    ``<prefix>:signin:address:<address>``)."""

    def __init__(self, url: str, prefix: str, limits: GuestLimits) -> None:
        self._client = redis.Redis.from_url(
            url, socket_timeout=COMMAND_SECONDS, socket_connect_timeout=COMMAND_SECONDS
        )
        self._script = self._client.register_script(SPEND)
        self._prefix = prefix
        self._window_ms = int(limits.signin_window_seconds * 1000)
        self._per_name = limits.signin_per_name
        self._per_address = limits.signin_per_address

    async def spend(self, name: str | None, address: str) -> int:
        keys = [f"{self._prefix}:signin:address:{address}"]
        most = [self._per_address]
        if name is not None:
            keys.append(f"{self._prefix}:signin:name:{name}")
            most.append(self._per_name)
        wait = await self._script(keys=keys, args=[self._window_ms, *most])
        return math.ceil(int(wait) / 1000)

    async def close(self) -> None:
        await self._client.aclose()


def attempts(redis_url: str | None, prefix: str, limits: GuestLimits) -> Attempts:
    """The site's counts: in Redis when it has one, else in this process."""
    if redis_url is None:
        return MemoryAttempts(limits)
    return RedisAttempts(redis_url, prefix, limits)
