"""The room WebSocket: one per player; translates frames to room calls and back.

Whatever a client sends or fails to read, it costs the server a bounded amount: every frame but a
pong gets an answer or an error (never a traceback), messages past ``SocketLimits`` get
``rate_limited`` and a close, and a client that stops reading is closed once its outbox is full.
An action is dated back by the sender's round trip (``server/sockets/latency.py``).

A socket plays its room where the room is: in this process, or through the switchboard on the
process that owns it (``server/cluster/switchboard.py``); either way the same ``dispatch`` judges
each frame, on the owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol
from urllib.parse import urlsplit

import anyio
import anyio.abc
from fastapi import APIRouter, WebSocket
from starlette.responses import PlainTextResponse
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

from asobiba.server.cluster.leases import Unavailable
from asobiba.server.cluster.switchboard import (
    CLOSE_MOVED,
    CLOSE_UNAVAILABLE,
    JOIN_SECONDS,
    Elsewhere,
    Link,
    Switchboard,
)
from asobiba.server.http.identity import identity
from asobiba.server.limits import TokenBucket, client_address
from asobiba.server.logs import room_context
from asobiba.server.metrics import SOCKETS_OPEN, count_refusal
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.rooms.room import Room
from asobiba.server.settings import GuestLimits, SocketLimits
from asobiba.server.sockets.dispatch import dispatch
from asobiba.server.sockets.latency import Latency
from asobiba.server.sockets.messages import (
    CLOSE_NOT_READING,
    CLOSE_RATE_LIMITED,
    CLOSE_TOO_MANY_SOCKETS,
    ClientMessage,
    Pong,
    Sync,
    encode,
    error_message,
    parse_client_message,
)
from asobiba.server.sockets.signed import SignedSockets
from asobiba.server.sockets.uvicorn_protocol import KERNEL_ROUND_TRIP

router = APIRouter()
log = logging.getLogger(__name__)

CLOSE_WAIT_SECONDS = 5.0
"""How long a close may wait for a client to take its last messages before it is dropped."""

ROUTE_SECONDS = 30.0
"""How long a socket looks for its room's owner (one that died holds its lease a few seconds
more) before it is closed with 1013 and its page tries again."""

Close = tuple[int, str]


class Target(Protocol):
    """Where a socket's frames go: its room here, or the room's owner elsewhere."""

    async def handle(
        self, connection: SocketConnection, text: str, message: ClientMessage, at: float
    ) -> None: ...


class Here:
    def __init__(self, room: Room) -> None:
        self.room = room

    async def handle(
        self, connection: SocketConnection, text: str, message: ClientMessage, at: float
    ) -> None:
        await dispatch(self.room, connection, message, at)


class Relayed:
    def __init__(self, board: Switchboard, link: Link) -> None:
        self.board = board
        self.link = link

    async def handle(
        self, connection: SocketConnection, text: str, message: ClientMessage, at: float
    ) -> None:
        self.board.forward(self.link, text, at)


class SocketConnection:
    """A seat's socket with its own bounded outbox, so a slow client never holds the room."""

    def __init__(
        self, websocket: WebSocket, player: str | None, seat: int | None, limits: SocketLimits
    ) -> None:
        self.websocket = websocket
        self.player = player
        self.seat = seat
        self.address: str | None = client_address(websocket)
        self.outbox: asyncio.Queue[dict[str, Any] | Close] = asyncio.Queue(limits.outbox)
        self.bucket = TokenBucket(limits.per_second, limits.burst)
        self.sync_queued = False
        """A sync waits in the outbox: a further request adds nothing it would not say."""
        self.stalled: Close | None = None
        self.latency = Latency(kernel_reader(websocket))
        self.ping_seconds = limits.ping_seconds
        self._group: anyio.abc.TaskGroup | None = None
        self._pumped = anyio.Event()

    def send(self, message: dict[str, Any] | Close) -> None:
        """Queue a message (or, last, the close to send); never blocks the room."""
        if self.stalled is not None:
            return
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:
            self.stalled = CLOSE_NOT_READING, f"not reading: {self.outbox.maxsize} messages unread"
            if self._group is not None:
                self._group.cancel_scope.cancel()
            return
        if isinstance(message, dict) and message["type"] == "sync":
            self.sync_queued = True

    def end(self, code: int, reason: str) -> None:
        self.send((code, reason))

    async def serve(self, target: Target) -> None:
        """Read and write until the client leaves or breaks a limit, then close."""
        async with anyio.create_task_group() as group:
            self._group = group
            group.start_soon(self._pump)
            if self.ping_seconds is not None and self.latency.needs_pings:
                group.start_soon(self._ping, self.ping_seconds)
            limited = await self._read(target)
            if limited is not None:
                # The pump sends the rate_limited error already queued, then this close.
                self.send(limited)
                with anyio.move_on_after(CLOSE_WAIT_SECONDS):
                    await self._pumped.wait()
            group.cancel_scope.cancel()
        if self.stalled is not None:
            await self._close(*self.stalled)

    async def _close(self, code: int, reason: str) -> None:
        with anyio.move_on_after(CLOSE_WAIT_SECONDS), contextlib.suppress(WebSocketDisconnected):
            await self.websocket.close(code, reason)

    async def _pump(self) -> None:
        try:
            while True:
                message = await self.outbox.get()
                if isinstance(message, tuple):
                    await self._close(*message)
                    return
                if message["type"] == "sync":
                    self.sync_queued = False
                elif message["type"] == "ping":  # timed from the moment it goes out
                    message = {"type": "ping", "id": self.latency.ping()}
                await self.websocket.send_text(encode(message))
        except (WebSocketDisconnect, WebSocketDisconnected):
            assert self._group is not None
            self._group.cancel_scope.cancel()  # the client is gone: stop reading too
        finally:
            self._pumped.set()

    async def _ping(self, every: float) -> None:
        while True:
            self.send({"type": "ping"})
            await anyio.sleep(every)

    async def _read(self, target: Target) -> Close | None:
        """Handle frames until the client leaves (None) or sends too fast (the close to send)."""
        while True:
            frame = await self.websocket.receive()
            arrived = time.time()
            if frame["type"] == "websocket.disconnect":
                return None
            if not self.bucket.take():
                count_refusal("socket_messages")
                self.send(
                    error_message(
                        "rate_limited",
                        f"more than {self.bucket.per_second:g} messages a second; closing",
                    )
                )
                return CLOSE_RATE_LIMITED, "rate limited"
            await self._handle(target, frame, arrived)

    async def _handle(self, target: Target, frame: Mapping[str, Any], arrived: float) -> None:
        try:
            text = frame.get("text")
            if text is None:
                raise RoomError("bad_message", "messages are JSON text frames, not binary")
            message = parse_client_message(text)
        except RoomError as error:
            self.send(error_message(error.code, error.message))
            return
        if isinstance(message, Pong):  # the answer to a ping: nothing to answer back
            self.latency.pong(message.id)
        elif not (isinstance(message, Sync) and self.sync_queued):
            await target.handle(self, text, message, arrived - self.latency.round_trip())


def kernel_reader(websocket: WebSocket) -> Callable[[], float | None] | None:
    """The kernel's round-trip reader for this socket (``RoomSocketProtocol``), when the socket
    leads to the player: behind a proxy, whose address uvicorn's proxy headers replaced with the
    player's, it would time the proxy's line instead."""
    extension = websocket.scope.get("extensions", {}).get(KERNEL_ROUND_TRIP)
    if extension is None or extension["peer"] != websocket.scope.get("client"):
        return None
    read: Callable[[], float | None] = extension["read"]
    return read


def same_origin(websocket: WebSocket) -> bool:
    """Browsers always send Origin on a WebSocket handshake; another site's page may not connect
    with this visitor's cookie (cross-site WebSocket hijacking). The scheme counts too: a page
    served over plain HTTP on the same host (anyone on the line can write one) may not open the
    socket of a site served over TLS (``wss``, or ``ws`` behind a proxy whose
    ``X-Forwarded-Proto`` uvicorn trusts)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True  # not a browser: it holds no visitor's cookie but its own
    page = urlsplit(origin)
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return page.scheme == scheme and page.netloc == websocket.headers.get("host")


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(websocket: WebSocket, room_id: str) -> None:
    if not same_origin(websocket):
        log.warning(
            "room socket refused: Origin %r is not this site (Host %r)",
            websocket.headers.get("origin"),
            websocket.headers.get("host"),
        )
        refusal = PlainTextResponse("cross-origin socket refused", status_code=403)
        await websocket.send_denial_response(refusal)
        return
    hub: Hub = websocket.app.state.hub
    who = identity(websocket)
    limits: SocketLimits = websocket.app.state.socket_limits
    connection = SocketConnection(websocket, who.player, None, limits)
    signed: SignedSockets = websocket.app.state.signed_sockets
    await websocket.accept()
    if who.session is not None:
        signed.add(who.session, connection)
    try:
        with (
            SOCKETS_OPEN.labels("room").track_inprogress(),
            contextlib.suppress(WebSocketDisconnect),
            room_context(room_id),
        ):
            await _route(websocket, hub, room_id, connection)
    finally:
        if who.session is not None:
            signed.discard(who.session, connection)


async def _route(
    websocket: WebSocket, hub: Hub, room_id: str, connection: SocketConnection
) -> None:
    """Serve the socket where its room is, here or through its owner; while an owner that died
    still holds its lease, ask again until the lease runs out."""
    deadline = time.monotonic() + ROUTE_SECONDS
    while True:
        try:
            place = await hub.locate(room_id)
        except Unavailable:
            place = None if time.monotonic() > deadline else Elsewhere("")
        if isinstance(place, Room):
            await _serve_here(websocket, hub, place, connection)
            return
        if place is None:
            await refuse(websocket, _unknown(room_id), 4404)
            return
        if place.owner and hub.switchboard is not None:
            board = hub.switchboard
            link, refused = await board.join(place.owner, room_id, connection)
            if link is not None:
                try:
                    await connection.serve(Relayed(board, link))
                finally:
                    board.unlink(link)
                return
            if refused is not None and refused["close"] != CLOSE_MOVED:
                error = refused.get("error")
                if error is not None:
                    await websocket.send_text(encode(error))
                await websocket.close(code=refused["close"])
                return
        if time.monotonic() > deadline:
            await refuse(websocket, error_message("unavailable", "try again"), CLOSE_UNAVAILABLE)
            return
        await asyncio.sleep(JOIN_SECONDS / 4)


async def _serve_here(
    websocket: WebSocket, hub: Hub, room: Room, connection: SocketConnection
) -> None:
    connection.seat = room.seat_of(connection.player)
    if room.kept_private and connection.seat is None:  # only its people see it now
        await hub.release(room)
        await refuse(websocket, _unknown(room.id), 4404)
        return
    guests: GuestLimits = websocket.app.state.guest_limits
    crowded = room.crowded(connection.seat, guests.sockets_per_seat, guests.sockets_per_room)
    if crowded is not None:
        count_refusal("room_sockets")
        await hub.release(room)
        await refuse(websocket, error_message("too_many_sockets", crowded), CLOSE_TOO_MANY_SOCKETS)
        return
    room.join(connection)  # before any await: see Hub.release
    try:
        with room_context(room.id, room.game.name):
            await connection.serve(Here(room))
    finally:
        room.leave(connection)
        await hub.release(room)


def _unknown(room_id: str) -> dict[str, Any]:
    return error_message("unknown_room", f"no room {room_id!r}")


async def refuse(websocket: WebSocket, error: dict[str, Any], code: int) -> None:
    """Say why an accepted socket may not stay (``error``), then close it with ``code``."""
    await websocket.send_text(encode(error))
    await websocket.close(code=code)
