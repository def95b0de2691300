"""The sockets a network address may hold only so many of at once (the lobby's, a seek's, a
trainer's): each is accepted, counted open while it lives, refused with 4409 past its cap, and
quiet when the client goes."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from asobiba.server.limits import OpenCap, client_address
from asobiba.server.metrics import SOCKETS_OPEN, count_refusal
from asobiba.server.sockets.messages import CLOSE_TOO_MANY_SOCKETS, error_message
from asobiba.server.sockets.room_socket import refuse


async def serve_capped(
    websocket: WebSocket,
    kind: str,
    cap: OpenCap,
    serve: Callable[[], Awaitable[None]],
    hint: str = "",
) -> None:
    """Accept ``websocket`` (a socket of ``kind``: the metrics' label and the refusal's) and
    run ``serve`` while its address holds no more than ``cap`` allows; one more is told why
    (``hint`` ends the message) and closed with 4409."""
    address = client_address(websocket)
    await websocket.accept()
    with (
        SOCKETS_OPEN.labels(kind).track_inprogress(),
        contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected),
    ):
        if not cap.open(address):
            count_refusal(f"{kind}_sockets")
            message = f"this address has {cap.most} {kind} sockets open already{hint}"
            await refuse(
                websocket, error_message("too_many_sockets", message), CLOSE_TOO_MANY_SOCKETS
            )
            return
        try:
            await serve()
        finally:
            cap.close(address)
