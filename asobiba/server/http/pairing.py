"""Play someone now: a person's seek (``POST``/``GET``/``DELETE /api/pairing``) and the socket
its page watches it on (``/ws/pairing``) until a table is made for them (docs/ARCHITECTURE.md,
"Play someone now")."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import orjson
from fastapi import APIRouter, HTTPException, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field, StrictFloat, StrictInt

from asobiba.server.cluster.leases import Unavailable
from asobiba.server.http.api import offered_game, offered_options, seat_count
from asobiba.server.http.identity import ensure_player_id, player_id
from asobiba.server.http.throttle import throttle
from asobiba.server.limits import OpenCap, TokenBucket
from asobiba.server.metrics import count_refusal
from asobiba.server.pairing.matchmaker import Matchmaker, PairingError, Watch
from asobiba.server.pairing.pools import Busy, Entry
from asobiba.server.settings import MAX_MESSAGE_BYTES, SocketLimits
from asobiba.server.social.pairing import PoolRules
from asobiba.server.sockets.capped import serve_capped
from asobiba.server.sockets.messages import (
    CLOSE_RATE_LIMITED,
    encode,
    error_message,
)
from asobiba.server.sockets.room_socket import same_origin

router = APIRouter()

CLOSE_UNAVAILABLE = 1013
"""The pools cannot be reached now: the page seeks again."""


class Seek(BaseModel):
    """A seek: the game, its options (as a game against the computer takes them) and the number
    of players where the game takes several. ``rating`` only on a development server."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    players: StrictInt | None = Field(default=None, ge=1, le=16)
    rating: StrictInt | StrictFloat | None = Field(default=None, ge=0, le=5000)


def _matchmaker(request: Request | WebSocket) -> Matchmaker:
    matchmaker: Matchmaker = request.app.state.matchmaker
    return matchmaker


def _seek_json(matchmaker: Matchmaker, entry: Entry, now: float | None = None) -> dict[str, Any]:
    rating = entry.seeker.rating
    answer = {
        "pool": entry.pool,
        "rules": entry.rules.to_json(),
        "rating": round(rating),
        "bots": matchmaker.bots(entry.rules, rating),
        "schedule": matchmaker.schedule.to_json(),
        "ws": f"/ws/pairing?pool={quote(entry.pool, safe='')}",
    }
    if now is not None:
        answer["waited"] = round(max(0.0, now - entry.seeker.since), 2)
    return answer


@router.post("/api/pairing", status_code=201)
async def seek(body: Seek, request: Request) -> dict[str, Any]:
    """Wait for people to play ``game`` with: the seek (the same one again if the person waits
    in that pool already, its wait kept; a seek elsewhere moves there). Nothing is queued for
    an unknown game, options or number of players (4xx)."""
    person = ensure_player_id(request)
    state = request.app.state
    throttle(
        request,
        person,
        (state.commands_per_guest, state.commands_per_address),
        "too_many_commands",
        "seeks",
    )
    game = offered_game(body.game)
    options = offered_options(game, body.options)
    players = seat_count(game, body.players)
    rules = PoolRules(game.name, options, players)
    matchmaker = _matchmaker(request)
    if body.rating is not None and not getattr(state, "dev_ratings", False):
        message = "a rating is only taken by a development server (ASOBIBA_DEV_RATINGS=1)"
        raise HTTPException(400, detail={"code": "rating_refused", "message": message})
    rating = (
        float(body.rating) if body.rating is not None else await matchmaker.rating(person, rules)
    )
    try:
        entry = await matchmaker.seek(person, rules, rating)
    except Busy:
        message = "a table is being made for you just now; a moment"
        raise HTTPException(409, detail={"code": "pairing_busy", "message": message}) from None
    return _seek_json(matchmaker, entry)


@router.get("/api/pairing")
async def seeking(request: Request) -> dict[str, Any]:
    """The person's seek (with how long they have waited), or null."""
    person = player_id(request)
    if person is None:
        return {"seeking": None}
    matchmaker = _matchmaker(request)
    now, entry = await matchmaker.pools.seek_of(person)
    return {"seeking": None if entry is None else _seek_json(matchmaker, entry, now)}


@router.delete("/api/pairing")
async def cancel(request: Request) -> dict[str, Any]:
    """Stop waiting, in every tab."""
    person = player_id(request)
    cancelled = person is not None and await _matchmaker(request).cancel(person)
    return {"cancelled": cancelled}


@router.websocket("/ws/pairing")
async def pairing_socket(websocket: WebSocket) -> None:
    """The person's seek in ``?pool=``, live: how it stands, the computers' offer once due, and
    the table made for them (then the socket closes). Closing it leaves the pool."""
    if not same_origin(websocket):
        await websocket.close(code=1008)
        return
    cap: OpenCap = websocket.app.state.pairing_sockets
    await serve_capped(websocket, "pairing", cap, lambda: _seek_on(websocket), "; close a tab")


async def _seek_on(websocket: WebSocket) -> None:
    matchmaker = _matchmaker(websocket)
    person = player_id(websocket)
    pool = websocket.query_params.get("pool")
    try:
        watch = None if person is None or not pool else await matchmaker.watch(person, pool)
    except Unavailable:
        await websocket.close(code=CLOSE_UNAVAILABLE)
        return
    if watch is None:
        await websocket.send_text(encode({"type": "ended", "reason": "not_seeking"}))
        await websocket.close(code=1000)
        return
    try:
        await _serve(websocket, matchmaker, watch)
    finally:
        await matchmaker.unwatch(watch)


async def _serve(websocket: WebSocket, matchmaker: Matchmaker, watch: Watch) -> None:
    """Send what the seek's watch is told, and do what the page asks, until the last message
    (a table made, the seek ended) or the page goes."""
    limits: SocketLimits = websocket.app.state.socket_limits
    bucket = TokenBucket(limits.pairing_per_minute / 60, limits.pairing_burst)
    frame = asyncio.ensure_future(websocket.receive())
    told = asyncio.ensure_future(watch.queue.get())
    try:
        while True:
            await asyncio.wait({frame, told}, return_when=asyncio.FIRST_COMPLETED)
            if told.done():
                message = told.result()
                await websocket.send_text(encode(message))
                if message["type"] in {"paired", "ended"}:
                    await websocket.close(code=1000)
                    return
                told = asyncio.ensure_future(watch.queue.get())
            if frame.done():
                received = frame.result()
                if received["type"] == "websocket.disconnect":
                    return
                answer, close = await _handle(received, bucket, matchmaker, watch)
                if answer is not None:
                    await websocket.send_text(encode(answer))
                if close is not None:
                    await websocket.close(*close)
                    return
                frame = asyncio.ensure_future(websocket.receive())
    finally:
        frame.cancel()
        told.cancel()


async def _handle(
    received: Mapping[str, Any], bucket: TokenBucket, matchmaker: Matchmaker, watch: Watch
) -> tuple[dict[str, Any] | None, tuple[int, str] | None]:
    """What one frame from the page does: ``{"type": "bots"}`` starts now with computers,
    ``{"type": "cancel"}`` stops waiting. The answer (an error) and the close it earned."""
    text = received.get("text")
    size = len(text.encode()) if text is not None else len(received.get("bytes") or b"")
    if size > MAX_MESSAGE_BYTES:
        message = f"messages are limited to {MAX_MESSAGE_BYTES} bytes; closing"
        return error_message("too_large", message), (1009, "too large")
    if not bucket.take():
        count_refusal("pairing_messages")
        message = "too many messages; closing"
        return error_message("rate_limited", message), (CLOSE_RATE_LIMITED, "rate limited")
    try:
        kind = orjson.loads(text)["type"] if text is not None else None
    except (orjson.JSONDecodeError, TypeError, KeyError):
        kind = None
    player = watch.entry.player
    try:
        if kind == "bots":
            await matchmaker.fill(player)
        elif kind == "cancel":
            await matchmaker.cancel(player)
        else:
            message = 'the pairing socket takes {"type": "bots"} or {"type": "cancel"}'
            return error_message("bad_message", message), None
    except PairingError as error:
        return error_message(error.code, error.message), None
    except Unavailable:
        message = "the site cannot reach its coordinator; try again"
        return error_message("unavailable", message), None
    return None, None  # the news (paired, ended) arrives through the watch
