"""How the server's log lines are written: plain text on a terminal, JSON lines elsewhere.

Every module logs through the standard library (``logging.getLogger(__name__)``), uvicorn too;
one handler on the root logger renders each record with structlog's ``ProcessorFormatter``:

- ``ASOBIBA_LOG_FORMAT``: ``text`` (a line a person reads, colours on a terminal) or ``json`` (one
  JSON object a line, for a log shipper); unset, text when standard error is a terminal and JSON
  when it is not (under systemd, a container, a file).
- ``ASOBIBA_LOG_LEVEL``: ``DEBUG``, ``INFO`` (the default), ``WARNING``, ``ERROR``.

A JSON line carries ``timestamp``, ``level``, ``logger``, ``event`` (the message), ``pid`` and,
with ``REDIS_URL``, ``process`` (the id this process has in the site). A line about a room also
carries ``room_id`` and ``game``: they are bound in a context variable wherever a room's work
runs (``room_context``: its socket, its writer's callers, its bots, its timers), so the call
sites log as they always did.

No line holds a cookie, a seed, a card or a full network address: nothing logs the first three,
and a client's address is cut to what one address is for the per-address limits
(``limits.address_key``: an IPv4 address, an IPv6 /64, no port), uvicorn's lines included.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any, TextIO

import structlog
from structlog.contextvars import bind_contextvars, bound_contextvars
from structlog.stdlib import ProcessorFormatter
from structlog.typing import Processor

from asobiba.server.limits import address_key

FORMATS = ("text", "json")
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

_process: str | None = None
"""This process's id in a site of several (``Cluster``), once it has joined."""
_format: str | None = None
"""The format ``configure`` chose (None: logging is not configured by asobiba)."""


class Misconfigured(Exception):
    """A setting is wrong: the process says so in one line and exits with status 2."""


def chosen_format(stream: TextIO | None = None) -> str:
    """``ASOBIBA_LOG_FORMAT`` if set, else text on a terminal and JSON elsewhere."""
    chosen = (os.environ.get("ASOBIBA_LOG_FORMAT") or "").strip().lower()
    if chosen:
        if chosen not in FORMATS:
            raise Misconfigured(f"ASOBIBA_LOG_FORMAT={chosen!r}: say text or json")
        return chosen
    stream = stream or sys.stderr
    return "text" if stream.isatty() else "json"


def chosen_level() -> str:
    """``ASOBIBA_LOG_LEVEL`` if set, else INFO."""
    level = (os.environ.get("ASOBIBA_LOG_LEVEL") or "INFO").strip().upper()
    if level not in LEVELS:
        raise Misconfigured(f"ASOBIBA_LOG_LEVEL={level!r}: say one of {', '.join(LEVELS)}")
    return level


def set_process(process: str) -> None:
    """Name this process's site id on every line from now on."""
    global _process
    _process = process


def _add_process(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> Any:
    event["pid"] = os.getpid()
    if _process is not None:
        event.setdefault("process", _process)
    return event


def _upper_level(_logger: Any, _name: str, event: MutableMapping[str, Any]) -> Any:
    event["level"] = str(event.get("level", "")).upper()
    return event


class CutAddresses(logging.Filter):
    """uvicorn names a client ``host:port`` first in its request and WebSocket lines, then the
    path with its query: the address is cut to the limits' ``address_key`` (no port, an IPv6
    /64), the query string is left out (a share link's token) and a table's code too (the only
    key of a private table)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("uvicorn") or not isinstance(record.args, tuple):
            return True
        args = list(record.args)
        if args and isinstance(args[0], str):
            cut = cut_address(args[0])
            if cut is not None:
                args[0] = cut
                for index, value in enumerate(args[1:3], 1):  # the path (after the method)
                    if isinstance(value, str):
                        args[index] = cut_path(value)
                record.args = tuple(args)
        return True


TABLE_CODE = re.compile(r"^(/t|/api/tables)/[^/?]+")


def cut_path(path: str) -> str:
    """A request's path as a log line shows it: no query, no table code.

    >>> cut_path("/replay/0123456789abcdef?share=token"), cut_path("/t/ABCDEF")
    ('/replay/0123456789abcdef?...', '/t/...')
    """
    path, query, _ = path.partition("?")
    return TABLE_CODE.sub(r"\1/...", path) + ("?..." if query else "")


def cut_address(text: str) -> str | None:
    """``host:port`` as ``address_key(host)``; None if ``text`` is not an address and port.

    >>> cut_address("2001:db8:1:2:3:4:5:6:0")
    '2001:db8:1:2::/64'
    >>> cut_address("192.0.2.7:51234"), cut_address("http")
    ('192.0.2.7', None)
    """
    host, _, port = text.rpartition(":")
    if not port.isdigit():
        return None
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    return address_key(host.strip("[]"))


def configure(format: str | None = None, level: str | None = None) -> str:
    """Send every log record of the process to standard error, as ``format`` (default: the
    environment's, ``chosen_format``) from ``level`` up; answer the format. Raises
    ``Misconfigured``."""
    global _format
    chosen = format or chosen_format()
    level = level or chosen_level()
    _format = chosen
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    rendering: list[Processor]
    if chosen == "json":
        shared.append(_add_process)
        rendering = [
            ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(sort_keys=False),
        ]
    else:
        colors = sys.stderr.isatty()
        styles = structlog.dev.ConsoleRenderer.get_default_level_styles(colors)
        console = structlog.dev.ConsoleRenderer(
            colors=colors,
            level_styles={name.upper(): style for name, style in styles.items()},
            pad_event_to=0,
        )
        # "time [LEVEL] [logger] message key=value": the message where a reader looks first.
        first = ["", "timestamp", "level", "logger", "logger_name"]
        console.columns = sorted(
            console.columns,
            key=lambda column: first.index(column.key) if column.key in first else len(first),
        )
        rendering = [ProcessorFormatter.remove_processors_meta, _upper_level, console]
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(CutAddresses())
    handler.setFormatter(ProcessorFormatter(foreign_pre_chain=shared, processors=rendering))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    # At DEBUG the websockets library writes every frame, a seat's cards with it: never.
    logging.getLogger("websockets").setLevel(
        max(logging.INFO, logging.getLevelNamesMapping()[level])
    )
    structlog.configure(
        processors=[*shared, ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    return chosen


def configured_format() -> str | None:
    """``text`` or ``json`` once ``configure`` ran, else None."""
    return _format


def say(text: str) -> None:
    """A line for whoever started the process (where to point the browser, the process's id):
    printed as it is in text, an INFO record of the ``asobiba`` logger in JSON."""
    if _format == "json":
        logging.getLogger("asobiba").info(text)
    else:
        print(text, flush=True)


@contextmanager
def room_context(room_id: str, game: str | None = None) -> Iterator[None]:
    """Every line logged inside (and in the tasks started inside) names the room and its game."""
    names = {"room_id": room_id} if game is None else {"room_id": room_id, "game": game}
    with bound_contextvars(**names):
        yield


def bind_room(room_id: str, game: str) -> None:
    """Name the room and its game on every line logged in the current context from now on (for
    a context made to run a room's task in: ``Room._spawn``)."""
    bind_contextvars(room_id=room_id, game=game)


def name_game(game: str) -> None:
    """A request about a room whose game its address does not say names it once known: the
    rest of the request's lines (uvicorn's request line too) carry it."""
    bind_contextvars(game=game)
