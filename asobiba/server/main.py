"""``asobiba serve``: run the site with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType

import uvicorn
from sqlalchemy.engine import make_url
from uvicorn.main import STARTUP_FAILURE

from asobiba.server.app import create_app
from asobiba.server.http.service import Readiness
from asobiba.server.logs import say
from asobiba.server.settings import MAX_MESSAGE_BYTES, Settings
from asobiba.server.sockets.uvicorn_protocol import RoomSocketProtocol
from asobiba.server.startup import prepare

SWITCH_INTERVAL = 0.001
"""Seconds a thread holds the GIL before another that waits for it may take it over."""
GC_THRESHOLDS = (50_000, 50, 100)
"""The cyclic garbage collector's thresholds (Python's: 700, 10, 10). A server with many games
in play holds many objects, and a collection of the older generations walks them all while every
room waits. Under bench/load.py --games 1000 --pace 2 the bot reply p99 was 495 and 592 ms with
Python's thresholds, 250 and 382 ms with these (two runs each, a shared machine). Rooms make few
reference cycles, so collecting less often costs little memory."""


def startup_line(host: str, port: int, database_url: str) -> str:
    """What ``make run`` prints first: where to point the browser and where the games are kept
    (an SQLite file's path, or the database URL without its password).

    >>> startup_line("127.0.0.1", 8000, "sqlite:////data/asobiba.sqlite3")
    'asobiba: open http://127.0.0.1:8000 (database: SQLite file /data/asobiba.sqlite3)'
    """
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        where = f"SQLite file {Path(url.database or ':memory:')}"
    else:
        where = url.render_as_string(hide_password=True)
    return f"asobiba: open http://{host}:{port} (database: {where})"


def stopped(signum: int, frame: FrameType | None) -> None:
    """SIGTERM's handler outside uvicorn's own: a normal exit, status 0. While it serves,
    uvicorn takes SIGTERM itself (a graceful shutdown: sockets closed, rooms and worker pools
    stopped) and then raises it again with the handler it found; with the default one the
    process would die by the signal after all went well, and Python's exit handlers would not
    run."""
    raise SystemExit(0)


HAND_OVER_SECONDS = 5.0
"""How long a stopping process gives its rooms to be handed over (``Hub.hand_over``: a write
in flight, a clock stored and a lease released each, in parallel; a few tens of milliseconds
for a hundred rooms) before it closes their sockets anyway."""
GRACEFUL_SECONDS = 5
"""How long uvicorn then waits for its connections to close (a request being answered)
before it cancels them: with the drain and the hand-over, what bounds a stop."""


class DrainingServer(uvicorn.Server):
    """Uvicorn's server, draining first on SIGTERM: ``/readyz`` answers 503 at once, the
    process serves on for ``drain_seconds`` (a balancer polling ``/readyz`` moves away
    meanwhile) and then stops: no new connection, every room handed over (``hand_over``:
    stored, its lease released, its sockets closed with 1012 so their pages reconnect to
    another process), the other connections closed as uvicorn does, then the worker pools. A
    second SIGTERM, or SIGINT (Ctrl-C), ends the drain at once."""

    def __init__(
        self,
        config: uvicorn.Config,
        readiness: Readiness,
        drain_seconds: float,
        hand_over: Callable[[], Awaitable[None]] | None = None,
    ):
        super().__init__(config)
        self.readiness = readiness
        self.drain_seconds = drain_seconds
        self.drain_until: float | None = None
        self.hand_over = hand_over

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        first = not self.readiness.draining
        self.readiness.draining = True
        if sig == signal.SIGTERM and first and self.drain_seconds > 0:
            say(f"asobiba: draining for {self.drain_seconds:g} s, then stopping")
            self.drain_until = time.monotonic() + self.drain_seconds
            return
        super().handle_exit(sig, frame)

    async def on_tick(self, counter: int) -> bool:
        if self.drain_until is not None and time.monotonic() >= self.drain_until:
            self.drain_until = None
            super().handle_exit(signal.SIGTERM, None)  # as if it came now
        return await super().on_tick(counter)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()  # no new connection while the rooms are handed over
        if self.hand_over is not None and self.started:
            try:
                await asyncio.wait_for(self.hand_over(), HAND_OVER_SECONDS)
            except Exception:  # a stop must go on: the rooms' leases then expire
                logging.getLogger(__name__).exception("the rooms were not all handed over")
        await super().shutdown(sockets)


def serve(host: str, port: int, database_url: str | None) -> None:
    signal.signal(signal.SIGTERM, stopped)
    # The event loop holds the GIL most of the time under load; the threads that hand it
    # results (the event writer, the bot pool's) wait for it up to the switch interval each
    # time: 1 ms instead of Python's 5 ms keeps a move's durable write and a bot's answer from
    # queueing behind it.
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.set_threshold(*GC_THRESHOLDS)
    settings = Settings.load(database_url)
    url = settings.database_url
    say(startup_line(host, port, url))
    prepare(settings)  # waits for the database and Redis; raises Misconfigured
    app = create_app(database_url=url)
    # Frames far beyond the message limit are refused by uvicorn itself (close 1009); smaller
    # oversized ones reach the room socket, which answers "too_large". RoomSocketProtocol gives
    # the room socket the kernel's round trip to its player (server/sockets/latency.py).
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws=RoomSocketProtocol,
        ws_max_size=16 * MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        log_config=None,  # every line goes through asobiba's own (``logs.py``), from cli.py
        # Never below INFO: at DEBUG uvicorn writes every WebSocket frame, a seat's cards too.
        log_level=max(logging.INFO, logging.getLogger().getEffectiveLevel()),
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )

    async def hand_over() -> None:
        await app.state.hub.hand_over()  # the hub exists once the app has started

    server = DrainingServer(config, app.state.readiness, settings.drain_seconds, hand_over)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)  # as uvicorn.run does: the port was taken, or start-up failed
