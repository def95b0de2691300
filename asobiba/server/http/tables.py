"""JSON API and socket of tables between people: taking and leaving seats, the host's start and
seats, guests' names, codes and the lobby (docs/ARCHITECTURE.md, "Tables between people")."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from asobiba.server.http.identity import ensure_player_id, identity
from asobiba.server.http.sharing import lets_see
from asobiba.server.http.throttle import throttle
from asobiba.server.limits import OpenCap, TokenBucket
from asobiba.server.metrics import count_refusal
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.settings import MAX_MESSAGE_BYTES, SocketLimits
from asobiba.server.social.names import InvalidName, clean_name, default_name
from asobiba.server.sockets.capped import serve_capped
from asobiba.server.sockets.messages import (
    CLOSE_RATE_LIMITED,
    encode,
    error_message,
)
from asobiba.server.sockets.room_socket import Close, same_origin
from asobiba.server.store.store import RoomBrief

router = APIRouter()

CODE = re.compile(r"[A-Za-z0-9]{4,8}")
STATUS = {
    "not_host": 403,
    "no_seat": 404,
    "invalid_level": 400,
    "not_seated": 409,
    "table_full": 409,
    "started": 409,
    "seat_taken": 409,
    "too_few_seats": 409,
    "game_over": 409,
    "unknown_room": 404,
    "unavailable": 503,
}
"""The HTTP status of each ``RoomError`` a table's routes raise."""


class Name(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=200)


class Start(BaseModel):
    model_config = ConfigDict(extra="forbid")
    fill: str = Field(max_length=32)


class SpectatorChat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    on: StrictBool


def _refused(error: RoomError) -> HTTPException:
    detail = {"code": error.code, "message": error.message}
    return HTTPException(STATUS.get(error.code, 400), detail=detail)


def _clean(raw: str) -> str:
    try:
        return clean_name(raw)
    except InvalidName as error:
        raise HTTPException(400, detail={"code": "invalid_name", "message": str(error)}) from None


async def _command(
    request: Request, room_id: str, person: str, name: str, args: dict[str, Any]
) -> dict[str, Any]:
    """Run a table command on the room, wherever it is owned (``Hub.command``)."""
    hub: Hub = request.app.state.hub
    if not re.fullmatch(r"[0-9a-f]{1,32}", room_id):
        message = f"no table {room_id!r}"
        raise HTTPException(404, detail={"code": "unknown_room", "message": message})
    try:
        return await hub.command(room_id, person, name, args)
    except RoomError as error:
        raise _refused(error) from None


def _commander(request: Request) -> str:
    """The guest sending a table command, counted against their rate and their address's: each
    command is a database write and a change every lobby watcher may see, so past the rate it is
    429 ``too_many_commands`` before anything is read or written."""
    person = ensure_player_id(request)
    state = request.app.state
    limits = state.commands_per_guest, state.commands_per_address
    throttle(request, person, limits, "too_many_commands", "table commands")
    return person


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """The visitor's display name (null before they chose one), ``default``, what they are
    called until then ("Guest 1306"), ``id``, their public id (``Player.public_id``), and
    ``account``: ``{"username"}`` when this browser is signed in to an account, else null;
    all null for a visitor without a player id (a socket's scope never asks)."""
    who = identity(request)
    account = None if who.username is None else {"username": who.username}
    if who.player is None:
        return {"name": None, "default": None, "id": None, "account": None}
    store = request.app.state.hub.store
    public = await asyncio.to_thread(store.public_id, who.player)
    name = await asyncio.to_thread(store.player_name, who.player)
    return {"name": name, "default": default_name(who.player), "id": public, "account": account}


@router.put("/api/me")
async def set_me(body: Name, request: Request) -> dict[str, Any]:
    """Choose the name shown at the tables the guest joins from now on."""
    name = _clean(body.name)
    person = ensure_player_id(request)
    await asyncio.to_thread(request.app.state.hub.store.set_player_name, person, name)
    return {"name": name}


@router.post("/api/rooms/{room_id}/join")
async def join(room_id: str, body: Join, request: Request) -> dict[str, Any]:
    """Take a seat at a table (the one already held, if any); a name given becomes the guest's
    name. The last open seat taken starts the game."""
    person = _commander(request)
    store = request.app.state.hub.store
    if body.name is not None:
        name = _clean(body.name)
        await asyncio.to_thread(store.set_player_name, person, name)
    else:
        await asyncio.to_thread(store.ensure_player, person)
        name = await asyncio.to_thread(store.player_name, person) or default_name(person)
    return await _command(request, room_id, person, "join", {"name": name})


@router.post("/api/rooms/{room_id}/leave")
async def leave(room_id: str, request: Request) -> dict[str, Any]:
    """Leave a table before its game starts (the host leaving closes it)."""
    person = _commander(request)
    return await _command(request, room_id, person, "leave", {})


@router.post("/api/rooms/{room_id}/start")
async def start(room_id: str, body: Start, request: Request) -> dict[str, Any]:
    """The host starts now, bots of ``fill`` in the open seats."""
    person = _commander(request)
    return await _command(request, room_id, person, "start", {"fill": body.fill})


@router.delete("/api/rooms/{room_id}/seats/{seat}")
async def remove_seat(room_id: str, seat: int, request: Request) -> dict[str, Any]:
    """The host removes an open seat before the start."""
    person = _commander(request)
    return await _command(request, room_id, person, "remove_seat", {"seat": seat})


@router.put("/api/rooms/{room_id}/spectator_chat")
async def spectator_chat(room_id: str, body: SpectatorChat, request: Request) -> dict[str, Any]:
    """The host lets the table's spectators write in its chat, or mutes them, at any time
    before the end."""
    person = _commander(request)
    return await _command(request, room_id, person, "spectator_chat", {"on": body.on})


@router.get("/api/tables")
def tables(request: Request) -> dict[str, Any]:
    """The lobby: public tables waiting for people, and games between people to watch."""
    snapshot: dict[str, Any] = request.app.state.hub.lobby.snapshot()
    return snapshot


async def table_of_code(request: Request, code: str) -> RoomBrief | None:
    """The table a code leads this visitor to: one being played (anyone may watch it), or one
    over that they may see (``http/sharing.py``); None for any other code. Every look-up, found
    or not, counts against the guest and the address, past which 429 ``too_many_lookups``: a
    code is a private table's only key, so it must not be guessed at speed."""
    state = request.app.state
    limits = state.lookups_per_guest, state.lookups_per_address
    throttle(request, ensure_player_id(request), limits, "too_many_lookups", "table code look-ups")
    code = code.strip()
    if not CODE.fullmatch(code):
        return None
    brief: RoomBrief | None = await asyncio.to_thread(
        request.app.state.hub.store.room_by_code, code
    )
    if brief is None or not (brief.playing or brief.finished):  # a closed table leads nowhere
        return None
    return brief if lets_see(request, brief) else None


@router.get("/api/tables/{code}")
async def table_by_code(code: str, request: Request) -> dict[str, Any]:
    brief = await table_of_code(request, code)
    if brief is None:
        message = f"no table with the code {code!r}"
        raise HTTPException(404, detail={"code": "unknown_table", "message": message})
    return {"room_id": brief.id, "game": brief.game, "url": f"/games/{brief.game}/{brief.id}"}


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, live: the whole list on connect and again whenever it changed. At most
    ``GuestLimits.lobby_sockets_per_address`` open per address (one more: 4409)."""
    if not same_origin(websocket):
        await websocket.close(code=1008)
        return
    cap: OpenCap = websocket.app.state.lobby_sockets
    await serve_capped(websocket, "lobby", cap, lambda: _watch(websocket), "; close a tab")


async def _watch(websocket: WebSocket) -> None:
    """Send the lobby whenever it changed, and read what the client sends: it has nothing to
    say, so a frame over ``MAX_MESSAGE_BYTES`` or more than a few frames close the socket."""
    lobby = websocket.app.state.hub.lobby
    limits: SocketLimits = websocket.app.state.socket_limits
    bucket = TokenBucket(limits.lobby_per_minute / 60, limits.lobby_burst)
    queue = lobby.watch()
    frame = asyncio.ensure_future(websocket.receive())
    listed = asyncio.ensure_future(queue.get())
    try:
        while True:
            await asyncio.wait({frame, listed}, return_when=asyncio.FIRST_COMPLETED)
            if listed.done():
                await websocket.send_text(encode({"type": "lobby", **listed.result()}))
                listed = asyncio.ensure_future(queue.get())
            if frame.done():
                if frame.result()["type"] == "websocket.disconnect":
                    return
                error, close = _refusal(frame.result(), bucket)
                await websocket.send_text(encode(error))
                if close is not None:
                    await websocket.close(*close)
                    return
                frame = asyncio.ensure_future(websocket.receive())
    finally:
        frame.cancel()
        listed.cancel()
        lobby.unwatch(queue)


def _refusal(frame: Mapping[str, Any], bucket: TokenBucket) -> tuple[dict[str, Any], Close | None]:
    """What a frame from a lobby client gets: an error, and the close it earned (or None)."""
    text = frame.get("text")
    size = len(text.encode()) if text is not None else len(frame.get("bytes") or b"")
    if size > MAX_MESSAGE_BYTES:
        message = f"messages are limited to {MAX_MESSAGE_BYTES} bytes; closing"
        return error_message("too_large", message), (1009, "too large")
    if not bucket.take():
        count_refusal("lobby_messages")
        message = "the lobby takes no messages; closing"
        return error_message("rate_limited", message), (CLOSE_RATE_LIMITED, "rate limited")
    return error_message("bad_message", "the lobby takes no messages"), None
