"""Plain ASGI middleware every HTTP response passes: a body limit that counts bytes as they
arrive, and the security headers of every page."""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    """Add ``SECURITY_HEADERS`` to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
