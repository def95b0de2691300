"""The pools shared by every process of a site, in Redis (``REDIS_URL``): ``pools.Pools``.

Keys, under ``<prefix>:pairing:``: ``pools`` (a set: the pools anyone waits in), ``pool:<pool>``
(a hash: person → their seek's token), ``seek:<person>`` (a hash: ``token``, ``pool``,
``rating``, ``since``, ``seen``, ``rules``, ``watched``; it expires ``STALE_SECONDS`` after the
last refresh, so a dead process's seeks vanish by themselves), ``outcome:<person>`` (``pending``
while their table is made, then the news of it, or of a cancel, for ``OUTCOME_SECONDS``). News
goes out on the channel ``<prefix>:pairing`` to every process.

Every change is one Lua script, so it is atomic: ``TAKE`` removes a whole table's seeks only if
each is still there with the token it was formed from, so two processes forming tables from one
pool at once seat each person once at most. Times come from Redis's own clock (``TIME``), one for
every process. A script reads the keys of the seeks it names besides those it declares: the site
runs on one Redis (not a Redis Cluster), as its leases do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

from asobiba.server.cluster.leases import Unavailable
from asobiba.server.pairing.pools import (
    OUTCOME_SECONDS,
    PENDING_SECONDS,
    STALE_SECONDS,
    Busy,
    Ended,
    Entry,
    News,
    Paired,
    Placement,
    new_token,
    news_from_json,
    news_json,
)
from asobiba.server.social.pairing import PoolRules, Seeker

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5
"""How long the listener waits before subscribing again after Redis dropped it."""

NOW = """
local t = redis.call('TIME')
local now = string.format('%.6f', tonumber(t[1]) + tonumber(t[2]) / 1000000)
"""

ENTER = (
    NOW
    + """
if redis.call('GET', KEYS[2]) == 'pending' then return {'busy'} end
redis.call('DEL', KEYS[2])
local seek = redis.call('HMGET', KEYS[1], 'token', 'pool', 'rating', 'since')
if seek[1] and seek[2] == ARGV[2] and redis.call('HGET', KEYS[3], ARGV[1]) == seek[1] then
  redis.call('HSET', KEYS[1], 'seen', now)
  redis.call('PEXPIRE', KEYS[1], ARGV[6])
  return {'same', seek[1], seek[3], seek[4], ''}
end
local moved = ''
if seek[2] then
  local old = ARGV[7] .. seek[2]
  if redis.call('HGET', old, ARGV[1]) == seek[1] then
    redis.call('HDEL', old, ARGV[1])
    if redis.call('HLEN', old) == 0 then redis.call('SREM', KEYS[4], seek[2]) end
  end
  if seek[2] ~= ARGV[2] then moved = seek[2] end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'token', ARGV[5], 'pool', ARGV[2], 'rating', ARGV[3],
           'since', now, 'seen', now, 'rules', ARGV[4], 'watched', '0')
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5])
redis.call('SADD', KEYS[4], ARGV[2])
return {'new', ARGV[5], ARGV[3], now, moved}
"""
)
"""Seek a game: KEYS seek, outcome, the new pool, the pools' set; ARGV person, pool, rating,
rules, a new token, the seek's life in ms, the pools' key prefix."""

SEEK_OF = (
    NOW
    + """
local seek = redis.call('HMGET', KEYS[1], 'token', 'pool', 'rating', 'since', 'rules')
if not seek[1] or redis.call('HGET', ARGV[1] .. seek[2], ARGV[2]) ~= seek[1] then
  return {now}
end
return {now, seek[1], seek[2], seek[3], seek[4], seek[5]}
"""
)
"""KEYS seek; ARGV the pools' key prefix, person."""

LEAVE = """
local seek = redis.call('HMGET', KEYS[1], 'token', 'pool')
if seek[2] ~= ARGV[2] then return 0 end
local pool = ARGV[3] .. ARGV[2]
if redis.call('HGET', pool, ARGV[1]) == seek[1] then redis.call('HDEL', pool, ARGV[1]) end
if redis.call('HLEN', pool) == 0 then redis.call('SREM', KEYS[2], ARGV[2]) end
redis.call('DEL', KEYS[1])
return 1
"""
"""KEYS seek, the pools' set; ARGV person, pool, the pools' key prefix."""

CANCEL = """
if redis.call('GET', KEYS[2]) == 'pending' then return false end
local seek = redis.call('HMGET', KEYS[1], 'token', 'pool')
if not seek[1] then return false end
local pool = ARGV[2] .. seek[2]
if redis.call('HGET', pool, ARGV[1]) == seek[1] then redis.call('HDEL', pool, ARGV[1]) end
if redis.call('HLEN', pool) == 0 then redis.call('SREM', KEYS[3], seek[2]) end
redis.call('DEL', KEYS[1])
local news = cjson.encode({k = 'ended', player = ARGV[1], pool = seek[2], reason = 'cancelled'})
redis.call('SET', KEYS[2], news, 'PX', ARGV[3])
return seek[2]
"""
"""KEYS seek, outcome, the pools' set; ARGV person, the pools' key prefix, the outcome's life in
ms. Answers the pool left, or nil."""

SEEKERS = (
    NOW
    + """
local out = {now}
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  local player, token = held[i], held[i + 1]
  local seek = redis.call('HMGET', ARGV[2] .. player, 'token', 'pool', 'rating', 'since', 'rules',
                          'watched')
  if seek[1] == token and seek[2] == ARGV[1] then
    if seek[6] == '1' then
      for _, value in ipairs({player, token, seek[3], seek[4], seek[5]}) do
        out[#out + 1] = value
      end
    end
  else
    redis.call('HDEL', KEYS[1], player)
  end
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return out
"""
)
"""KEYS the pool, the pools' set; ARGV pool, the seeks' key prefix. Answers the watched seeks;
drops those that lapsed."""

TAKE = """
local n = (#ARGV - 2) / 2
for i = 1, n do
  local player, token = ARGV[1 + 2 * i], ARGV[2 + 2 * i]
  if redis.call('HGET', KEYS[1], player) ~= token then return 0 end
  if redis.call('HGET', KEYS[1 + 2 * i], 'token') ~= token then return 0 end
end
for i = 1, n do
  redis.call('HDEL', KEYS[1], ARGV[1 + 2 * i])
  redis.call('DEL', KEYS[1 + 2 * i])
  redis.call('SET', KEYS[2 + 2 * i], 'pending', 'PX', ARGV[1])
end
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[2]) end
return 1
"""
"""KEYS the pool, the pools' set, then per person their seek and outcome; ARGV the pending
mark's life in ms, pool, then per person their id and token. All or nothing."""

PUT_BACK = """
redis.call('HSET', seekkey, 'token', token, 'pool', pool, 'rating', rating, 'since', since,
           'seen', now, 'rules', rules, 'watched', '1')
redis.call('PEXPIRE', seekkey, stale)
redis.call('HSET', poolkey, player, token)
redis.call('SADD', KEYS[1], pool)
"""

RESTORE = (
    NOW
    + """
local stale = ARGV[1]
for i = 1, (#KEYS - 1) / 3 do
  local seekkey, outkey, poolkey = KEYS[3 * i - 1], KEYS[3 * i], KEYS[3 * i + 1]
  local b = 1 + 6 * (i - 1)
  local player, token, pool = ARGV[b + 1], ARGV[b + 2], ARGV[b + 3]
  local rating, since, rules = ARGV[b + 4], ARGV[b + 5], ARGV[b + 6]
  if redis.call('GET', outkey) == 'pending' then redis.call('DEL', outkey) end
  if redis.call('EXISTS', seekkey) == 0 then
"""
    + PUT_BACK
    + """
  end
end
return 1
"""
)
"""KEYS the pools' set, then per person seek, outcome, pool; ARGV the seek's life in ms, then per
person id, token, pool, rating, since, rules."""

REFRESH = (
    NOW
    + """
local stale = ARGV[1]
local out = {}
for i = 1, (#KEYS - 1) / 3 do
  local seekkey, outkey, poolkey = KEYS[3 * i - 1], KEYS[3 * i], KEYS[3 * i + 1]
  local b = 1 + 6 * (i - 1)
  local player, token, pool = ARGV[b + 1], ARGV[b + 2], ARGV[b + 3]
  local rating, since, rules = ARGV[b + 4], ARGV[b + 5], ARGV[b + 6]
  local seek = redis.call('HMGET', seekkey, 'token', 'pool')
  local result = ''
  if seek[1] and seek[2] == pool and redis.call('HGET', poolkey, player) == seek[1] then
    redis.call('HSET', seekkey, 'seen', now, 'watched', '1')
    redis.call('PEXPIRE', seekkey, stale)
  else
    local outcome = redis.call('GET', outkey)
    if outcome then
      if outcome ~= 'pending' then result = outcome end
    elseif seek[1] and seek[2] ~= pool then
      result = 'elsewhere'
    else
"""
    + PUT_BACK
    + """
    end
  end
  out[i] = result
end
return out
"""
)
"""Same keys and arguments as ``RESTORE``; answers per person '' (still waiting, or pending),
'elsewhere', or the news kept for them."""


class RedisPools:
    """The pools of every process of a site, under ``prefix``."""

    def __init__(
        self,
        client: redis.Redis,
        listener: redis.Redis,
        prefix: str,
        stale_seconds: float = STALE_SECONDS,
    ) -> None:
        """``client`` runs the commands (with a short timeout); ``listener`` subscribes."""
        self._client = client
        self._listener = listener
        self._prefix = f"{prefix}:pairing"
        self.channel = self._prefix
        self._enter = client.register_script(ENTER)
        self._seek_of = client.register_script(SEEK_OF)
        self._leave = client.register_script(LEAVE)
        self._cancel = client.register_script(CANCEL)
        self._seekers = client.register_script(SEEKERS)
        self._take = client.register_script(TAKE)
        self._restore = client.register_script(RESTORE)
        self._refresh = client.register_script(REFRESH)
        self._stale_ms = str(int(stale_seconds * 1000))
        self.subscribed = asyncio.Event()

    @property
    def _pools_key(self) -> str:
        return f"{self._prefix}:pools"

    def _pool_key(self, pool: str) -> str:
        return f"{self._prefix}:pool:{pool}"

    def _seek_key(self, player: str) -> str:
        return f"{self._prefix}:seek:{player}"

    def _outcome_key(self, player: str) -> str:
        return f"{self._prefix}:outcome:{player}"

    async def _run(self, script: Any, keys: list[str], args: list[Any]) -> Any:
        try:
            return await script(keys=keys, args=args)
        except RedisError as error:
            raise Unavailable(str(error)) from error

    async def _publish(self, news: News) -> None:
        try:
            await self._client.publish(self.channel, orjson.dumps(news_json(news)))
        except RedisError as error:
            # Its people's pages read the outcome at their next refresh instead.
            log.warning("pairing: news not published (%s)", error)

    async def enter(self, player: str, rules: PoolRules, rating: float) -> tuple[Entry, str | None]:
        keys = [
            self._seek_key(player),
            self._outcome_key(player),
            self._pool_key(rules.key),
            self._pools_key,
        ]
        args = [
            player,
            rules.key,
            repr(float(rating)),
            orjson.dumps(rules.to_json()).decode(),
            new_token(),
            self._stale_ms,
            f"{self._prefix}:pool:",
        ]
        answer = [_text(part) for part in await self._run(self._enter, keys, args)]
        if answer[0] == "busy":
            raise Busy(player)
        _, token, held_rating, since, moved = answer
        entry = Entry(Seeker(player, float(held_rating), float(since)), rules, token)
        if moved:
            await self._publish(Ended(player, moved, "elsewhere"))
        return entry, moved or None

    async def seek_of(self, player: str) -> tuple[float, Entry | None]:
        keys = [self._seek_key(player)]
        args = [f"{self._prefix}:pool:", player]
        answer = [_text(part) for part in await self._run(self._seek_of, keys, args)]
        now = float(answer[0])
        if len(answer) == 1:
            return now, None
        _, token, _pool, rating, since, rules = answer
        return now, _entry(player, token, rating, since, rules)

    async def leave(self, player: str, pool: str) -> None:
        keys = [self._seek_key(player), self._pools_key]
        await self._run(self._leave, keys, [player, pool, f"{self._prefix}:pool:"])

    async def cancel(self, player: str) -> str | None:
        keys = [self._seek_key(player), self._outcome_key(player), self._pools_key]
        args = [player, f"{self._prefix}:pool:", str(int(OUTCOME_SECONDS * 1000))]
        left = await self._run(self._cancel, keys, args)
        if left is None:
            return None
        pool = _text(left)
        await self._publish(Ended(player, pool, "cancelled"))
        return pool

    async def pools(self) -> list[str]:
        try:
            members = await self._client.smembers(self._pools_key)
        except RedisError as error:
            raise Unavailable(str(error)) from error
        return sorted(_text(member) for member in members)

    async def seekers(self, pool: str) -> tuple[float, list[Entry]]:
        keys = [self._pool_key(pool), self._pools_key]
        answer = [
            _text(part)
            for part in await self._run(self._seekers, keys, [pool, f"{self._prefix}:seek:"])
        ]
        entries = [_entry(*answer[k : k + 5]) for k in range(1, len(answer), 5)]
        return float(answer[0]), entries

    async def take(self, pool: str, entries: Iterable[Entry]) -> bool:
        taken = list(entries)
        keys = [self._pool_key(pool), self._pools_key]
        args: list[Any] = [str(int(PENDING_SECONDS * 1000)), pool]
        for entry in taken:
            keys += [self._seek_key(entry.player), self._outcome_key(entry.player)]
            args += [entry.player, entry.token]
        return bool(await self._run(self._take, keys, args))

    def _each(self, entries: Iterable[Entry]) -> tuple[list[str], list[Any]]:
        """The keys and arguments ``RESTORE`` and ``REFRESH`` take for ``entries``."""
        keys = [self._pools_key]
        args: list[Any] = [self._stale_ms]
        for entry in entries:
            keys += [
                self._seek_key(entry.player),
                self._outcome_key(entry.player),
                self._pool_key(entry.pool),
            ]
            args += [
                entry.player,
                entry.token,
                entry.pool,
                repr(entry.seeker.rating),
                f"{entry.seeker.since:.6f}",
                orjson.dumps(entry.rules.to_json()).decode(),
            ]
        return keys, args

    async def restore(self, entries: Iterable[Entry]) -> None:
        keys, args = self._each(entries)
        await self._run(self._restore, keys, args)

    async def settle(self, placements: Mapping[str, Placement]) -> None:
        try:
            async with self._client.pipeline(transaction=True) as pipe:
                for player, placement in placements.items():
                    news = orjson.dumps(news_json(Paired(player, placement)))
                    pipe.set(self._outcome_key(player), news, px=int(OUTCOME_SECONDS * 1000))
                await pipe.execute()
        except RedisError as error:
            raise Unavailable(str(error)) from error
        for player, placement in placements.items():
            await self._publish(Paired(player, placement))

    async def refresh(self, watched: Iterable[Entry]) -> dict[str, News]:
        entries = list(watched)
        if not entries:
            return {}
        keys, args = self._each(entries)
        answer = await self._run(self._refresh, keys, args)
        ended: dict[str, News] = {}
        for entry, result in zip(entries, answer, strict=True):
            text = _text(result)
            if text == "elsewhere":
                ended[entry.player] = Ended(entry.player, entry.pool, "elsewhere")
            elif text:
                ended[entry.player] = news_from_json(orjson.loads(text))
        return ended

    async def listen(self, deliver: Callable[[News], None]) -> None:
        while True:
            try:
                async with self._listener.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        try:
                            deliver(news_from_json(orjson.loads(message["data"])))
                        except Exception:
                            log.exception("pairing: news could not be handled")
            except (RedisError, OSError) as error:
                self.subscribed.clear()
                # News missed meanwhile is read by each page's next refresh (its outcome).
                log.warning("pairing: subscription lost (%s); subscribing again", error)
                await asyncio.sleep(RETRY_SECONDS)


def _entry(player: str, token: str, rating: str, since: str, rules: str) -> Entry:
    return Entry(
        Seeker(player, float(rating), float(since)),
        PoolRules.from_json(orjson.loads(rules)),
        token,
    )


def _text(value: bytes | str | int) -> str:
    if isinstance(value, bytes):
        return value.decode()
    return str(value)
