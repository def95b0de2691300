"""The FastAPI application: wiring of settings, database, hub, routers and static files."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager, suppress

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware

from asobiba.server.analysis.reviews import Reviewer
from asobiba.server.cluster.cluster import Cluster
from asobiba.server.cluster.leases import Unavailable
from asobiba.server.http import api, learn, pages, tables
from asobiba.server.http.identity import GuestId
from asobiba.server.http.limits import RateLimit
from asobiba.server.http.middleware import BodyLimit, SecurityHeaders
from asobiba.server.rooms.botpool import BotPool
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import MAX_BODY_BYTES, GuestLimits, Settings, SocketLimits
from asobiba.server.sockets import room_socket
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store

TEN_YEARS = 10 * 365 * 24 * 3600


def create_app(
    database_url: str | None = None,
    secret_key: str | None = None,
    bot_workers: int | None = None,
    socket_limits: SocketLimits | None = None,
    review_seconds: float | None = None,
    guest_limits: GuestLimits | None = None,
    bot_pace: float | None = None,
) -> FastAPI:
    settings = Settings.load(database_url, secret_key)
    limits = guest_limits or settings.guest_limits
    engine = make_engine(settings.database_url)
    migrate(engine)
    store = Store(session_factory(engine))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pool = BotPool(bot_workers or settings.bot_workers)
        cluster = Cluster.connect(settings, limits)
        app.state.hub = hub = Hub(
            store,
            pool.choose,
            hinter=pool.hint,
            pause_seconds=limits.pause_seconds,
            pace_scale=settings.bot_pace if bot_pace is None else bot_pace,
            standin_seconds=settings.standin_seconds,
            ownership=None if cluster is None else cluster.ownership,
        )
        app.state.reviewer = Reviewer(
            store, review_seconds or settings.review_seconds, settings.review_workers
        )
        async with AsyncExitStack() as stack:
            if cluster is not None:
                await stack.enter_async_context(cluster.running(hub))
            stack.push_async_callback(hub.close)  # before the cluster stops: leases released
            await hub.recover()
            await hub.load_lobby()
            sweeper = asyncio.create_task(hub.sweep_forever())
            try:
                yield
            finally:
                sweeper.cancel()
                with suppress(asyncio.CancelledError):
                    await sweeper
        await app.state.reviewer.close()
        pool.close()
        store.close()
        engine.dispose()

    app = FastAPI(
        title="asobiba",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json" if settings.openapi else None,
    )
    app.state.socket_limits = socket_limits or SocketLimits()
    app.state.dev_seeds = settings.dev_seeds
    app.state.guest_limits = limits
    app.state.rooms_per_guest = RateLimit(limits.rooms_burst, limits.rooms_per_minute)
    app.state.rooms_per_address = RateLimit(limits.address_burst, limits.address_per_minute)
    app.include_router(api.router)
    app.include_router(learn.router)
    app.include_router(tables.router)
    app.include_router(room_socket.router)
    app.include_router(pages.router)
    pages.mount_static(app)

    app.add_middleware(GuestId)
    app.add_middleware(
        SessionMiddleware,
        secret_key=settings.secret_key,
        session_cookie="asobiba",
        max_age=TEN_YEARS,
        same_site="lax",
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(SecurityHeaders)

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


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
