"""Messages between processes: Redis pub/sub, one channel per process, one for the lobby and one
for the whole site.

Pub/sub rather than streams: what crosses here is live traffic (a socket's frames to the room's
owner, the owner's messages back to the socket), never the record. The record is the event log,
written by the owner before anyone is told. A message lost while a subscription is broken is
repaired the way a dropped socket is: every socket relayed through the broken subscription is
closed with 1012, and its page reconnects and starts again from a ``sync``. Streams would keep
messages nobody needs once the socket they were for has gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

from asobiba.server.metrics import relay_message

log = logging.getLogger(__name__)

RETRY_SECONDS = 0.5
"""How long the listener waits before subscribing again after Redis dropped it."""
OUTBOX = 100_000
"""Messages waiting to be published; past this the process is cut off from Redis in all but
name, and further messages are dropped (their sockets resync when they reconnect)."""


class Relay:
    """Publishes to other processes in order (one publisher, batched in pipelines) and hands
    what arrives on this process's channels to ``receive``; ``broken`` is called whenever
    messages may have been lost: the subscription was lost and taken up again, or a batch could
    not be published. ``unheard`` is called with a process none of whose messages reached
    anyone: nobody is subscribed to its channel (it died, and Redis saw its connection close;
    or it lost its subscription, and then ends its pairings itself when it subscribes again)."""

    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        me: str,
        receive: Callable[[dict[str, Any]], None],
        broken: Callable[[], None],
        unheard: Callable[[str], None],
        publisher: redis.Redis | None = None,
    ) -> None:
        """``client`` subscribes; ``publisher`` (default: ``client``) publishes."""
        self._client = client
        self._publisher = publisher or client
        self._prefix = prefix
        self.me = me
        self._receive = receive
        self._broken = broken
        self._unheard = unheard
        self._outbox: asyncio.Queue[tuple[str, str | None, str]] = asyncio.Queue(OUTBOX)
        """``(channel, process, text)``; process None for the lobby's and the site's channels."""
        self.subscribed = asyncio.Event()

    def channel(self, process: str) -> str:
        return f"{self._prefix}:proc:{process}"

    @property
    def lobby_channel(self) -> str:
        return f"{self._prefix}:lobby"

    @property
    def site_channel(self) -> str:
        """Every process's: what all of them must hear (an account's session signed out)."""
        return f"{self._prefix}:site"

    def push(self, process: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``process``; never blocks."""
        relay_message(message.get("k"), "sent")
        self._queue(self.channel(process), process, orjson.dumps(message).decode())

    def announce_lobby(self) -> None:
        """Tell every process that the lobby changed."""
        relay_message("lobby", "sent")
        self._queue(self.lobby_channel, None, self.me)

    def broadcast(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every other process of the site."""
        relay_message(message.get("k"), "sent")
        self._queue(self.site_channel, None, orjson.dumps({**message, "from": self.me}).decode())

    def _queue(self, channel: str, process: str | None, text: str) -> None:
        try:
            self._outbox.put_nowait((channel, process, text))
        except asyncio.QueueFull:
            log.warning("relay outbox full: a message to %s is dropped", channel)

    async def run(self) -> None:
        """Publish and listen until cancelled."""
        async with asyncio.TaskGroup() as group:
            group.create_task(self._publish())
            group.create_task(self._listen())

    async def _publish(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self._publisher.pipeline(transaction=False) as pipe:
                    for channel, _, text in batch:
                        pipe.publish(channel, text)
                    receivers = await pipe.execute()
            except RedisError as error:
                # Lost messages are repaired as a broken subscription's are: every pairing ends
                # and its socket starts again from a sync (an action must not vanish unanswered).
                log.warning("relay: %d messages not published (%s)", len(batch), error)
                self._broken()
            else:
                # PUBLISH answers how many subscribers got the message.
                unheard = {
                    process
                    for (_, process, _), count in zip(batch, receivers, strict=True)
                    if process is not None and count == 0
                }
                for process in unheard:
                    self._unheard(process)
            finally:
                for _ in batch:
                    self._outbox.task_done()

    async def drain(self, seconds: float) -> None:
        """Wait (up to ``seconds``) until everything queued has been published."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._outbox.join(), seconds)

    async def _listen(self) -> None:
        first = True
        while True:
            try:
                async with self._client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(
                        self.channel(self.me), self.lobby_channel, self.site_channel
                    )
                    if not first:
                        self._broken()
                    first = False
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        self._hand_over(message)
            except (RedisError, OSError) as error:
                self.subscribed.clear()
                log.warning("relay: subscription lost (%s); subscribing again", error)
                await asyncio.sleep(RETRY_SECONDS)

    def _hand_over(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode()
        data = message["data"].decode()
        if channel == self.lobby_channel:
            if data != self.me:
                relay_message("lobby", "received")
                self._receive({"k": "lobby"})
            return
        try:
            message = orjson.loads(data)
            if channel == self.site_channel and message.get("from") == self.me:
                return  # its own broadcast: done here already
            relay_message(message.get("k"), "received")
            self._receive(message)
        except Exception:
            log.exception("relay: a message could not be handled")
