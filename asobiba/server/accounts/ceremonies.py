"""Passkey ceremonies under way: the challenge the server gave a browser, kept on the server
until the browser answers it, once.

A WebAuthn ceremony is two requests: options (with a random challenge) and the browser's
answer, signed over that challenge. The challenge is kept here, keyed by itself, with what it
was given for (``Ceremony``: making an account, adding a passkey, signing in) and to which
browser (its player id): an answer is taken only against a challenge this store still holds,
which ``take`` removes as it reads it, so no answer is ever taken twice. Each lives
``CEREMONY_SECONDS``, the time the browser is told it has.

One process keeps them in memory (``MemoryCeremonies``, at most ``MAX_OPEN`` at once); with
``REDIS_URL`` they live in Redis (``RedisCeremonies``: ``SET`` with an expiry, ``GETDEL``), so
the answer may reach another process than the options did. Not in the signed cookie: a copy
of a cookie would be a challenge answered twice, and the cookie stays what ``http/identity.py``
says it holds.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import asdict, dataclass
from typing import Literal, Protocol

import redis.asyncio as redis

CEREMONY_SECONDS = 300
"""How long a browser has to answer (the options' ``timeout``): five minutes, the WebAuthn
recommendation's lower end, time enough to find a phone."""
MAX_OPEN = 10_000
"""Ceremonies one process holds in memory at most; a newer one pushes out the oldest."""
COMMAND_SECONDS = 1.0
"""How long Redis may take to answer before the ceremony is refused as unavailable."""

Purpose = Literal["create", "add", "sign_in"]
"""``create``: a guest keeps their games with a passkey (an account is made); ``add``: a
signed-in account adds a passkey; ``sign_in``: a browser signs in with one."""


@dataclass(frozen=True)
class Ceremony:
    challenge: str
    """base64url, as in the options."""
    purpose: Purpose
    player: str
    """The player id of the browser that asked: only it may answer."""
    username: str | None = None
    """The account's username: chosen (``create``) or the account's (``add``)."""
    user_handle: str | None = None
    """The WebAuthn user handle the options gave (``create``, ``add``), base64url."""


class Ceremonies(Protocol):
    async def put(self, ceremony: Ceremony) -> None:
        """Keep ``ceremony`` for ``CEREMONY_SECONDS``. Raises ``redis.RedisError`` when the
        store cannot be reached."""
        ...

    async def take(self, challenge: str) -> Ceremony | None:
        """The ceremony of ``challenge``, removed as it is read; None when there is none (never
        given, answered already, or expired). Raises ``redis.RedisError``."""
        ...

    async def close(self) -> None: ...


class MemoryCeremonies:
    """The ceremonies of one process."""

    def __init__(self, seconds: float = CEREMONY_SECONDS, most: int = MAX_OPEN) -> None:
        self._seconds = seconds
        self._most = most
        self._open: OrderedDict[str, tuple[float, Ceremony]] = OrderedDict()

    async def put(self, ceremony: Ceremony) -> None:
        at = time.monotonic()
        # Every ceremony lives as long, so the oldest expires first: drop from the front.
        while self._open and (
            len(self._open) >= self._most or next(iter(self._open.values()))[0] <= at
        ):
            self._open.popitem(last=False)
        self._open[ceremony.challenge] = (at + self._seconds, ceremony)

    async def take(self, challenge: str) -> Ceremony | None:
        found = self._open.pop(challenge, None)
        if found is None or found[0] <= time.monotonic():
            return None
        return found[1]

    async def close(self) -> None:
        self._open.clear()


class RedisCeremonies:
    """The ceremonies of the whole site, in Redis (``<prefix>:passkey:<challenge>``)."""

    def __init__(self, url: str, prefix: str, seconds: float = CEREMONY_SECONDS) -> None:
        self._client = redis.Redis.from_url(
            url, socket_timeout=COMMAND_SECONDS, socket_connect_timeout=COMMAND_SECONDS
        )
        self._prefix = prefix
        self._ms = int(seconds * 1000)

    def _key(self, challenge: str) -> str:
        return f"{self._prefix}:passkey:{challenge}"

    async def put(self, ceremony: Ceremony) -> None:
        value = json.dumps(asdict(ceremony))
        await self._client.set(self._key(ceremony.challenge), value, px=self._ms)

    async def take(self, challenge: str) -> Ceremony | None:
        found = await self._client.getdel(self._key(challenge))
        if found is None:
            return None
        return Ceremony(**json.loads(found))

    async def close(self) -> None:
        await self._client.aclose()


def ceremonies(redis_url: str | None, prefix: str) -> Ceremonies:
    """The site's ceremonies: in Redis when it has one, else in this process."""
    if redis_url is None:
        return MemoryCeremonies()
    return RedisCeremonies(redis_url, prefix)
