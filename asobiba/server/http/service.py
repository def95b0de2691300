"""What a balancer, a process manager and Prometheus ask of one process: ``GET /healthz`` (it is
up: its event loop answers), ``GET /readyz`` (it can reach its database and, with ``REDIS_URL``,
Redis, and it is not draining) and ``GET /metrics`` (``server/metrics.py``, to loopback and the
addresses of ``ASOBIBA_METRICS_FROM``).

Answered by an ASGI middleware outside the session and guest-id middleware, so a probe polled
every second never mints a guest nor gets a cookie, and nothing of a request but its method,
path and client address is read (its headers are not: a header cannot make a process look
ready or open its metrics). The client address is the one uvicorn gives: the socket's peer, or
the ``X-Forwarded-For`` of a proxy that uvicorn's ``FORWARDED_ALLOW_IPS`` trusts (127.0.0.1 by
default), so a request relayed by the site's own proxy counts as its real client's, never as
loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.engine import Engine
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from asobiba.server.metrics import CONTENT_TYPE, exposition
from asobiba.server.settings import Network

log = logging.getLogger(__name__)

CHECK_SECONDS = 1.0
"""How long ``/readyz`` waits for its database or Redis before it counts it as failed."""
NO_STORE = {"cache-control": "no-store"}


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


def _in_thread(call: Callable[[], object]) -> asyncio.Future[None]:
    """``call`` in a daemon thread of its own: a database that never answers holds that thread,
    not the loop's executor (the store's) nor the process's exit."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[None] = loop.create_future()

    def run() -> None:
        error: BaseException | None = None
        try:
            call()
        except BaseException as failure:
            error = failure
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(_settle, future, error)

    threading.Thread(target=run, name="readiness", daemon=True).start()
    return future


class Readiness:
    """Whether this process should be sent new visitors now."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.redis: Callable[[], Awaitable[object]] | None = None
        """Pings Redis (set while the site's cluster runs: ``app.py``)."""
        self.draining = False
        """The process got SIGTERM and is stopping (``main.py``)."""
        self._database: asyncio.Future[None] | None = None
        self._failing: dict[str, str] = {}

    def _select_one(self) -> None:
        # A connection from the engine's pool (no new connection per call while one is idle).
        with self.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")

    async def _check_database(self) -> str:
        # One probe at a time: a database that hangs holds one thread, and every poll meanwhile
        # waits on that same probe.
        if self._database is None or self._database.done():
            self._database = _in_thread(self._select_one)
        return await _answer(asyncio.shield(self._database))

    async def _check_redis(self) -> str:
        assert self.redis is not None
        return await _answer(self.redis())

    async def checks(self) -> dict[str, str]:
        """Each check's answer: "ok", or why it failed."""
        names = ["database"]
        probes = [self._check_database()]
        if self.redis is not None:
            names.append("redis")
            probes.append(self._check_redis())
        answers = dict(zip(names, await asyncio.gather(*probes), strict=True))
        answers["draining"] = "the process is stopping" if self.draining else "ok"
        for name, answer in answers.items():
            was = self._failing.get(name)
            if answer != "ok" and was != answer:
                log.warning("not ready: %s: %s", name, answer)
                self._failing[name] = answer
            elif answer == "ok" and was is not None:
                log.info("ready again: %s answers", name)
                del self._failing[name]
        return answers


async def _answer(probe: Awaitable[object]) -> str:
    """ "ok", or what went wrong: the kind of error only (its text may name hosts and users)."""
    try:
        await asyncio.wait_for(probe, CHECK_SECONDS)
    except TimeoutError:
        return f"no answer within {CHECK_SECONDS:g} s"
    except Exception as error:
        return f"unreachable ({type(error).__name__})"
    return "ok"


def metrics_allowed(host: str | None, allowed: tuple[Network, ...]) -> bool:
    """Whether a client at ``host`` may read ``/metrics``: loopback, or within ``allowed``.

    >>> metrics_allowed("127.0.0.1", ())
    True
    >>> metrics_allowed("10.0.0.5", ())
    False
    >>> from asobiba.server.settings import networks
    >>> metrics_allowed("10.0.0.5", networks("10.0.0.0/24"))
    True
    >>> metrics_allowed("::ffff:10.0.0.5", networks("10.0.0.0/24"))
    True
    """
    try:
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host or "")
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or any(ip in network for network in allowed)


class ServiceEndpoints:
    """``/healthz``, ``/readyz`` and ``/metrics`` (GET or HEAD), before the session and the
    guest cookie. ``/metrics`` to a client not allowed goes on to the site, which answers its
    404 as for any unknown address."""

    def __init__(self, app: ASGIApp, readiness: Readiness, metrics_from: tuple[Network, ...]):
        self.app = app
        self.readiness = readiness
        self.metrics_from = metrics_from

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = None
        if scope["type"] == "http" and scope["method"] in {"GET", "HEAD"}:
            response = await self._respond(scope)
        if response is None:
            await self.app(scope, receive, send)
        else:
            await response(scope, receive, send)

    async def _respond(self, scope: Scope) -> Response | None:
        path = scope["path"]
        if path == "/healthz":
            return JSONResponse({"status": "ok"}, headers=NO_STORE)
        if path == "/readyz":
            checks = await self.readiness.checks()
            failed = [name for name, answer in checks.items() if answer != "ok"]
            body: dict[str, Any] = {
                "status": "unready" if failed else "ready",
                "failed": failed,
                "checks": checks,
            }
            return JSONResponse(body, status_code=503 if failed else 200, headers=NO_STORE)
        if path == "/metrics":
            client = scope.get("client")
            if metrics_allowed(client[0] if client else None, self.metrics_from):
                return Response(exposition(), media_type=CONTENT_TYPE, headers=NO_STORE)
        return None
