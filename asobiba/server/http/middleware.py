"""Plain ASGI middleware every HTTP response passes: a body limit that counts bytes as they
arrive, the security headers of every page, and the room a request is about named on its log
lines."""

from __future__ import annotations

import re

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from asobiba.server.logs import room_context

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""Scripts, styles and sockets from this site only (no inline code or style attributes), and no
page of ours inside another site's frame."""

SECURITY_HEADERS = {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
}


def too_large(limit: int) -> dict[str, str]:
    return {"code": "too_large", "message": f"request bodies are limited to {limit} bytes"}


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, however they are framed.

    A declared Content-Length over the limit is refused before a byte is read; otherwise the
    bytes are counted as the application reads them (chunked bodies declare no length), and
    reading past the limit raises a 413 ``HTTPException`` instead of buffering the rest.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            response = JSONResponse({"error": too_large(self.limit)}, status_code=413)
            await response(scope, receive, send)
            return
        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise HTTPException(413, detail=too_large(self.limit))  # type: ignore[arg-type]
            return message

        await self.app(scope, counting_receive, send)


class SecurityHeaders:
    """Add ``SECURITY_HEADERS`` to every HTTP response that does not set them itself, and over
    HTTPS mark every cookie ``Secure``.

    The site is served over plain HTTP on a developer's machine and over TLS (usually ended by a
    proxy that says so in ``X-Forwarded-Proto``, which uvicorn turns into the scope's scheme) on
    a public one: a cookie set in answer to an HTTPS request must never travel over plain HTTP,
    where anyone on the line could read the guest id it carries."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                if secure:
                    message["headers"] = [_secure_cookie(item) for item in message["headers"]]
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _secure_cookie(header: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
    """A ``Set-Cookie`` header with the ``Secure`` attribute (others as they are)."""
    name, value = header
    if name.lower() != b"set-cookie":
        return header
    attributes = [part.strip().lower() for part in value.split(b";")[1:]]
    return header if b"secure" in attributes else (name, value + b"; Secure")


ROOM_PATH = re.compile(
    r"^/(?:api/rooms|ws/rooms|replay|games/(?P<game>[a-z_]+))/(?P<room>[0-9a-f]{16})(?:/|$)"
)
"""The addresses that name one room (its id: 16 hex digits, ``Hub.create``)."""


class RoomLogContext:
    """A request or socket whose address names a room logs its lines (uvicorn's request line
    too) with the room's id and game: the game from the address, else from the room if this
    process holds it (``logs.room_context``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = ROOM_PATH.match(scope.get("path", "")) if scope["type"] != "lifespan" else None
        if match is None:
            await self.app(scope, receive, send)
            return
        room_id, game = match["room"], match["game"]
        if game is None:
            hub = getattr(scope["app"].state, "hub", None)
            game = None if hub is None else hub.game_of(room_id)
        with room_context(room_id, game):
            await self.app(scope, receive, send)
