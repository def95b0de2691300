"""The FastAPI application: wiring of settings, database, hub, routers and static files."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware

from asobiba.games import get_game
from asobiba.server import api, learn, pages, sockets
from asobiba.server.botpool import BotPool
from asobiba.server.db import make_engine, migrate, session_factory
from asobiba.server.hub import Hub
from asobiba.server.identity import GuestId
from asobiba.server.middleware import BodyLimit, SecurityHeaders
from asobiba.server.recovery import finish_interrupted
from asobiba.server.reviews import Reviewer
from asobiba.server.settings import MAX_BODY_BYTES, Settings, SocketLimits
from asobiba.server.store import Store

TEN_YEARS = 10 * 365 * 24 * 3600


def create_app(
    database_url: str | None = None,
    secret_key: str | None = None,
    bot_workers: int | None = None,
    socket_limits: SocketLimits | None = None,
    review_seconds: float | None = None,
) -> FastAPI:
    settings = Settings.load(database_url, secret_key)
    engine = make_engine(settings.database_url)
    migrate(engine)
    store = Store(session_factory(engine))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(finish_interrupted, store, get_game)
        pool = BotPool(bot_workers or settings.bot_workers)
        app.state.hub = Hub(store, pool.choose, hinter=pool.hint)
        app.state.reviewer = Reviewer(
            store, review_seconds or settings.review_seconds, settings.review_workers
        )
        sweeper = asyncio.create_task(app.state.hub.sweep_forever())
        try:
            yield
        finally:
            sweeper.cancel()
            with suppress(asyncio.CancelledError):
                await sweeper
            await app.state.hub.close()
            await app.state.reviewer.close()
            pool.close()
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
    app.include_router(api.router)
    app.include_router(learn.router)
    app.include_router(sockets.router)
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

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        if isinstance(error.detail, dict):
            return JSONResponse({"error": error.detail}, status_code=error.status_code)
        if error.status_code == 404 and not request.url.path.startswith("/api/"):
            return pages.not_found_page(request)
        return _error(error.status_code, "http_error", str(error.detail))

    return app


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
