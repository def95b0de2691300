"""A person's own data, self-service: download it (``GET /api/players/{id}/export``) and delete
it (``DELETE /api/account``). The page that offers both is ``/me/data`` (``pages.py``).

What either covers is the store's registry (``store/personal.py``); how a game with other
people goes on without the person is the rooms' (``rooms/departures.py``).
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, StrictBool

from asobiba.server.http.identity import ensure_player_id, player_id, sign_out
from asobiba.server.http.throttle import throttle
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub

router = APIRouter(prefix="/api")

EXPORT_FORMAT = "asobiba-export/1"
"""The export's ``format``: a later change of its shape gets a new number."""
_PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def from_this_site(request: Request) -> bool:
    """Whether a state-changing request comes from one of the site's own pages, not from
    another site's page acting with this visitor's cookie (CSRF). A browser says where a
    request comes from: ``Sec-Fetch-Site`` (every current browser) must be ``same-origin``, and
    ``Origin`` (sent with every request that is not a GET) must be this site, scheme included
    (a page over plain HTTP may not act on a site served over TLS). A request with neither
    header is no browser's: it holds no visitor's cookie but its own."""
    fetched = request.headers.get("sec-fetch-site")
    if fetched is not None and fetched != "same-origin":
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    page = urlsplit(origin)
    return page.scheme == request.url.scheme and page.netloc == request.headers.get("host")


def _refuse(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


def _spend(request: Request, person: str) -> None:
    """Count an export or a deletion against the guest and its address (each reads or writes
    every game the person sat in): 429 ``too_many_requests`` past the limits."""
    state = request.app.state
    limits = state.data_per_guest, state.data_per_address
    throttle(request, person, limits, "too_many_requests", "exports or deletions")


@router.get("/players/{public_id}/export")
async def export(public_id: str, request: Request) -> Response:
    """Everything the site holds about the player whose public id this is, as a JSON file to
    download: only to that player (their cookie), 403 ``not_yours`` to anyone else, 404
    ``unknown_player`` for an id nobody has. Sections: ``store/personal.py``."""
    hub: Hub = request.app.state.hub
    owner = None
    if _PUBLIC_ID.fullmatch(public_id):
        owner = await asyncio.to_thread(hub.store.player_of, public_id)
    if owner is None:
        raise _refuse(404, "unknown_player", "no player has that id")
    if owner != player_id(request):
        raise _refuse(403, "not_yours", "only its player may download a player's data")
    _spend(request, owner)
    sections = await asyncio.to_thread(hub.store.export_player, owner)
    if sections is None:  # deleted meanwhile
        raise _refuse(404, "unknown_player", "no player has that id")
    document: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "exported_at": datetime.now(UTC).isoformat(),
        **sections,
    }
    return Response(
        json.dumps(document, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="asobiba-{public_id}.json"',
            "Cache-Control": "no-store",
        },
    )


class Deletion(BaseModel):
    """``{"confirm": true}``: a request without it deletes nothing (a stray or replayed request
    must say what it wants)."""

    model_config = ConfigDict(extra="forbid")
    confirm: StrictBool = False


@router.delete("/account")
async def delete_account(request: Request, body: Deletion | None = None) -> dict[str, Any]:
    """Delete the caller's data now, guest or not (``Hub.forget``, ``Store.erase_player``),
    and make their cookie a fresh guest's. Only from the site's own pages (403
    ``cross_site``) and with ``{"confirm": true}`` (400 ``confirm_required``); 503
    ``unavailable`` (nothing erased) when one of their games cannot be reached now."""
    if not from_this_site(request):
        raise _refuse(403, "cross_site", "data can only be deleted from the site's own pages")
    if body is None or not body.confirm:
        raise _refuse(400, "confirm_required", 'send {"confirm": true} to delete your data')
    person = ensure_player_id(request)
    _spend(request, person)
    hub: Hub = request.app.state.hub
    try:
        erased = await hub.forget(person)
    except RoomError as error:
        raise _refuse(503, "unavailable", error.message) from None
    sign_out(request)  # a new guest from this answer on (its sessions went with its row)
    return {
        "deleted": True,
        "rooms_deleted": erased.rooms_deleted,
        "rooms_kept": erased.rooms_kept,
        "chat_lines": erased.chat_lines,
    }
