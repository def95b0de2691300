"""JSON API and socket of tables between people: taking and leaving seats, the host's start and
seats, guests' names, codes and the lobby (docs/ARCHITECTURE.md, "Tables between people")."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import APIRouter, HTTPException, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from asobiba.server.http.identity import ensure_player_id, player_id
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.social.names import InvalidName, clean_name, default_name
from asobiba.server.sockets.room_socket import same_origin

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


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """The guest's display name (null before they chose one)."""
    person = player_id(request)
    if person is None:
        return {"name": None}
    return {"name": await asyncio.to_thread(request.app.state.hub.store.player_name, person)}


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
    person = ensure_player_id(request)
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
    person = ensure_player_id(request)
    return await _command(request, room_id, person, "leave", {})


@router.post("/api/rooms/{room_id}/start")
async def start(room_id: str, body: Start, request: Request) -> dict[str, Any]:
    """The host starts now, bots of ``fill`` in the open seats."""
    person = ensure_player_id(request)
    return await _command(request, room_id, person, "start", {"fill": body.fill})


@router.delete("/api/rooms/{room_id}/seats/{seat}")
async def remove_seat(room_id: str, seat: int, request: Request) -> dict[str, Any]:
    """The host removes an open seat before the start."""
    person = ensure_player_id(request)
    return await _command(request, room_id, person, "remove_seat", {"seat": seat})


@router.get("/api/tables")
def tables(request: Request) -> dict[str, Any]:
    """The lobby: public tables waiting for people, and games between people to watch."""
    snapshot: dict[str, Any] = request.app.state.hub.lobby.snapshot()
    return snapshot


@router.get("/api/tables/{code}")
async def table_by_code(code: str, request: Request) -> dict[str, Any]:
    brief = None
    if CODE.fullmatch(code):
        brief = await asyncio.to_thread(request.app.state.hub.store.room_by_code, code)
    if brief is None or not (brief.playing or brief.finished):  # a closed table leads nowhere
        message = f"no table with the code {code!r}"
        raise HTTPException(404, detail={"code": "unknown_table", "message": message})
    return {"room_id": brief.id, "game": brief.game, "url": f"/games/{brief.game}/{brief.id}"}


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, live: the whole list on connect and again whenever it changed."""
    if not same_origin(websocket):
        await websocket.close(code=1008)
        return
    lobby = websocket.app.state.hub.lobby
    await websocket.accept()
    queue = lobby.watch()
    try:
        async with asyncio.TaskGroup() as group:
            reader = group.create_task(_until_closed(websocket))
            while not reader.done():
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, reader}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    break
                await websocket.send_json({"type": "lobby", **getter.result()})
    except (WebSocketDisconnect, ExceptionGroup):
        pass
    finally:
        lobby.unwatch(queue)


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends until it leaves."""
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect":
            return
