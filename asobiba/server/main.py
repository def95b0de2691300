"""``asobiba serve``: run the site with uvicorn."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import uvicorn
from sqlalchemy.engine import make_url

from asobiba.server.app import create_app
from asobiba.server.settings import MAX_MESSAGE_BYTES, Settings
from asobiba.server.sockets.uvicorn_protocol import RoomSocketProtocol

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


def serve(host: str, port: int, database_url: str | None) -> None:
    # The event loop holds the GIL most of the time under load; the threads that hand it
    # results (the event writer, the bot pool's) wait for it up to the switch interval each
    # time: 1 ms instead of Python's 5 ms keeps a move's durable write and a bot's answer from
    # queueing behind it.
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.set_threshold(*GC_THRESHOLDS)
    url = Settings.load(database_url).database_url
    print(startup_line(host, port, url), flush=True)
    app = create_app(database_url=url)
    # Frames far beyond the message limit are refused by uvicorn itself (close 1009); smaller
    # oversized ones reach the room socket, which answers "too_large". RoomSocketProtocol gives
    # the room socket the kernel's round trip to its player (server/sockets/latency.py).
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws=RoomSocketProtocol,
        ws_max_size=16 * MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        log_level="info",
    )
