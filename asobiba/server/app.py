"""The FastAPI application: wiring of settings, database, hub, routers and static files."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Coroutine
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware

from asobiba.server.accounts.attempts import attempts
from asobiba.server.accounts.ceremonies import ceremonies
from asobiba.server.accounts.passkeys import RelyingParty
from asobiba.server.accounts.passwords import Passwords
from asobiba.server.analysis.reviews import Reviewer
from asobiba.server.cluster.cluster import Cluster
from asobiba.server.cluster.leases import Unavailable
from asobiba.server.http import (
    account,
    api,
    learn,
    pages,
    pairing,
    passkeys,
    personal,
    players,
    tables,
)
from asobiba.server.http.identity import Identify, KnownGuests
from asobiba.server.http.middleware import BodyLimit, RoomLogContext, SecurityHeaders
from asobiba.server.http.service import Readiness, ServiceEndpoints
from asobiba.server.http.sharing import ShareLinks
from asobiba.server.limits import OpenCap, RateLimit
from asobiba.server.pairing.matchmaker import Matchmaker
from asobiba.server.pairing.pools import MemoryPools
from asobiba.server.pairing.ratings import StoredRatings, level_near
from asobiba.server.pairing.redis_pools import RedisPools
from asobiba.server.rooms.botpool import BotPool
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import MAX_BODY_BYTES, GuestLimits, Settings, SocketLimits
from asobiba.server.social.pairing import Schedule, designed_schedule
from asobiba.server.sockets import room_socket, trainer_socket
from asobiba.server.sockets.signed import SignedSockets
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.passkeys import Passkeys
from asobiba.server.store.store import Store

TEN_YEARS = 10 * 365 * 24 * 3600

log = logging.getLogger(__name__)


def create_app(
    database_url: str | None = None,
    secret_key: str | None = None,
    bot_workers: int | None = None,
    socket_limits: SocketLimits | None = None,
    review_seconds: float | None = None,
    guest_limits: GuestLimits | None = None,
    bot_pace: float | None = None,
    pairing_schedule: Schedule | None = None,
    trainer_pause: float | None = None,
) -> FastAPI:
    """``pairing_schedule``: the widening and the computers' offer of "Play someone now"
    (default: ``social/pairing.toml``; tests shorten the offer)."""
    settings = Settings.load(database_url, secret_key)
    schedule = pairing_schedule or designed_schedule()
    limits = guest_limits or settings.guest_limits
    engine = make_engine(settings.database_url)
    migrate(engine)
    store = Store(session_factory(engine), limits.touch_seconds)
    readiness = Readiness(engine)
    passwords = Passwords()
    signed_sockets = SignedSockets()
    known_guests = KnownGuests()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = BotPool(bot_workers or settings.bot_workers)
        cluster = Cluster.connect(settings, limits)
        app.state.hub = hub = Hub(
            store,
            pool.choose,
            hinter=pool.hint,
            pause_seconds=limits.pause_seconds,
            limits=limits,
            pace_scale=settings.bot_pace if bot_pace is None else bot_pace,
            standin_seconds=settings.standin_seconds,
            ownership=None if cluster is None else cluster.ownership,
        )
        app.state.reviewer = Reviewer(
            store, review_seconds or settings.review_seconds, settings.review_workers
        )
        async with AsyncExitStack() as stack:
            if cluster is not None:
                await stack.enter_async_context(cluster.running(hub, signed_sockets.end))
                readiness.redis = cluster.ping
            stack.push_async_callback(hub.close)  # before the cluster stops: leases released
            await hub.load_lobby()
            app.state.matchmaker = matchmaker = Matchmaker(
                hub,
                (
                    MemoryPools()
                    if cluster is None
                    else RedisPools(*cluster.clients, settings.redis_prefix)
                ),
                schedule,
                StoredRatings(store),
                level_near,
                keep=limits.unfinished - 1,
            )
            # Serving starts at once: rooms are rebuilt beside it (a room asked for meanwhile
            # loads on demand, under the same per-room lock).
            tasks = [
                _background(hub.recover(), "start-up recovery"),
                _background(hub.sweep_forever(), "the sweep"),
                _background(
                    hub.reap_forever(limits.abandon_seconds, limits.abandon_table_seconds),
                    "the reaper",
                ),
                _background(matchmaker.run(), "play someone now"),
            ]
            try:
                yield
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)  # failures were logged
        # The rooms are closed (nothing asks for a bot's move or a hint any more): the pools
        # stop, each waiting for the work it runs, and then the storage.
        await app.state.reviewer.close()
        await app.state.attempts.close()
        await app.state.ceremonies.close()
        await asyncio.to_thread(passwords.close)
        await asyncio.to_thread(pool.close)
        # Every thread that may still hold one of the engine's connections (a write a closing
        # socket started, a group-commit batch) finishes first: a connection checked out while
        # the engine is disposed is never closed, only dropped with its pool.
        await asyncio.get_running_loop().shutdown_default_executor()
        store.close()
        engine.dispose()

    app = FastAPI(
        title="asobiba",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if settings.openapi else None,
    )
    app.state.readiness = readiness
    app.state.socket_limits = socket_limits or SocketLimits()
    app.state.dev_seeds = settings.dev_seeds
    app.state.dev_ratings = settings.dev_ratings
    app.state.pairing_schedule = schedule
    app.state.guest_limits = limits
    app.state.rooms_per_guest = RateLimit(limits.rooms_burst, limits.rooms_per_minute)
    app.state.rooms_per_address = RateLimit(limits.address_burst, limits.address_per_minute)
    app.state.commands_per_guest = RateLimit(limits.commands_burst, limits.commands_per_minute)
    app.state.commands_per_address = RateLimit(
        limits.commands_address_burst, limits.commands_address_per_minute
    )
    app.state.lobby_sockets = OpenCap(limits.lobby_sockets_per_address)
    app.state.pairing_sockets = OpenCap(limits.pairing_sockets_per_address)
    app.state.trainer_sockets = OpenCap(limits.trainer_sockets_per_address)
    app.state.trainer_pause = settings.trainer_pause if trainer_pause is None else trainer_pause
    app.state.lookups_per_guest = RateLimit(limits.lookups_burst, limits.lookups_per_minute)
    app.state.lookups_per_address = RateLimit(
        limits.lookups_address_burst, limits.lookups_address_per_minute
    )
    app.state.data_per_guest = RateLimit(limits.data_burst, limits.data_per_minute)
    app.state.data_per_address = RateLimit(
        limits.data_address_burst, limits.data_address_per_minute
    )
    app.state.share_links = ShareLinks(settings.secret_key)
    app.state.passwords = passwords
    app.state.signed_sockets = signed_sockets
    app.state.known_guests = known_guests
    app.state.attempts = attempts(settings.redis_url, settings.redis_prefix, limits)
    app.state.passkeys = Passkeys(engine)
    app.state.ceremonies = ceremonies(settings.redis_url, settings.redis_prefix)
    app.state.relying_party = (
        None if settings.passkey_origin is None else RelyingParty.of(settings.passkey_origin)
    )
    app.include_router(api.router)
    app.include_router(account.router)
    app.include_router(passkeys.router)
    app.include_router(learn.router)
    app.include_router(players.router)
    app.include_router(tables.router)
    app.include_router(personal.router)
    app.include_router(pairing.router)
    app.include_router(room_socket.router)
    app.include_router(trainer_socket.router)
    app.include_router(pages.router)
    pages.mount_static(app)

    app.add_middleware(Identify, accounts=store.accounts, guests=known_guests)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret_key,
        session_cookie="asobiba",
        max_age=TEN_YEARS,
        same_site="lax",
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    # Outside the session: a probe or a scrape gets no cookie and mints no guest.
    app.add_middleware(ServiceEndpoints, readiness=readiness, metrics_from=settings.metrics_from)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RoomLogContext)  # outermost: uvicorn's request line names the room too

    @app.exception_handler(RequestValidationError)
    async def invalid_body(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()))
        return _error(400, "bad_request", f"{where}: {first.get('msg', 'invalid request')}")

    @app.exception_handler(Unavailable)
    async def unavailable(_request: Request, error: Unavailable) -> JSONResponse:
        return _error(503, "unavailable", "the site cannot reach its coordinator; try again")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if isinstance(error.detail, dict):
            return JSONResponse(
                {"error": error.detail}, status_code=error.status_code, headers=error.headers
            )
        if error.status_code == 404 and not request.url.path.startswith("/api/"):
            return pages.not_found_page(request)
        return _error(error.status_code, "http_error", str(error.detail))

    return app


def _background(work: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
    """``work`` as a task beside serving; its failure, if any, is logged when it happens."""

    def done(task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("%s failed", what, exc_info=task.exception())

    task = asyncio.create_task(work)
    task.add_done_callback(done)
    return task


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
