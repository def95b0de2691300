"""The room WebSocket: one per player; translates frames to room calls and back."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from asobiba.core.errors import GameError
from asobiba.server.identity import player_id
from asobiba.server.protocol import Act, RoomError, error_message, parse_client_message

router = APIRouter()


class SocketConnection:
    """A seat's socket with its own outbox, so a slow client never holds the room's lock."""

    def __init__(self, websocket: WebSocket, seat: int | None) -> None:
        self.websocket = websocket
        self.seat = seat
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(message)

    async def pump(self) -> None:
        while True:
            message = await self.outbox.get()
            await self.websocket.send_json(message)


def same_origin(websocket: WebSocket) -> bool:
    """Browsers always send Origin on a WebSocket handshake; another site's page may not connect
    with this visitor's cookie (cross-site WebSocket hijacking)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: it holds no visitor's cookie but its own
    return urlsplit(origin).netloc == websocket.headers.get("host")


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    if not same_origin(websocket):
        await websocket.close(code=4403, reason="cross-origin socket refused")
        return
    hub = websocket.app.state.hub
    room = await hub.get(room_id)
    if room is None:
        await websocket.accept()
        await websocket.send_json(error_message("unknown_room", f"no room {room_id!r}"))
        await websocket.close(code=4404)
        return
    connection = SocketConnection(websocket, room.seat_of(player_id(websocket)))
    room.join(connection)  # before any await: see Hub.release
    pump: asyncio.Task[None] | None = None
    try:
        await websocket.accept()
        pump = asyncio.create_task(connection.pump())
        while True:
            text = await websocket.receive_text()
            try:
                message = parse_client_message(text)
                if isinstance(message, Act):
                    await room.act(connection.seat, message.action)
                else:
                    async with room.lock:
                        connection.send(room.sync_message(connection.seat))
            except RoomError as error:
                connection.send(error_message(error.code, error.message))
            except GameError as error:
                connection.send(error_message(error.code, str(error)))
    except WebSocketDisconnect:
        pass
    finally:
        room.connections.discard(connection)
        if pump is not None:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pump
        await hub.release(room)
