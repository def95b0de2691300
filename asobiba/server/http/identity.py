"""Guest identity: an id kept in Starlette's signed session cookie, made on the first visit."""

from __future__ import annotations

import uuid

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

SESSION_KEY = "player"


def player_id(connection: HTTPConnection) -> str | None:
    value = connection.session.get(SESSION_KEY)
    return value if isinstance(value, str) else None


def ensure_player_id(connection: HTTPConnection) -> str:
    """The visitor's guest id, making one if they have none (the cookie is set on the response)."""
    current = player_id(connection)
    if current is None:
        current = str(uuid.uuid4())
        connection.session[SESSION_KEY] = current
    return current


class GuestId:
    """Middleware (inside the session middleware): every visit has a guest id from its first
    request on, so the cookie is set by whatever page comes first."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            ensure_player_id(HTTPConnection(scope))
        await self.app(scope, receive, send)
