"""The seats a room stores (``rooms.seats``, JSON) and who sits in them.

A seat is ``{"player": id, "name": name}`` for a person (a game against bots stores no name),
``{"bot": level}`` for a bot, ``{"open": true}`` for a seat a waiting table keeps for a person,
or ``DELETED_SEAT`` for a person who deleted their data (``DELETE /api/account``): a person
sat there, so the table still counts them (its results' ``people``, the people a game was
dealt for), but who it was is gone. Pages call it "Deleted player"; at a table still being
played the table's stand-in plays it to the end; it gets no result.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import ColumnElement, String, true
from sqlalchemy import cast as cast_sql

from asobiba.server.store.db import RoomRow

DELETED_SEAT: dict[str, Any] = {"player": None, "deleted": True}
"""The seat of a person who deleted their data. ``player`` stays a key (with no id), so every
rule that asks whether a person sat at a seat still says yes."""


def is_deleted(spec: dict[str, Any]) -> bool:
    """The seat of a person who deleted their data."""
    return spec.get("deleted") is True


def is_person(spec: dict[str, Any]) -> bool:
    """The seat of a person who is still known (not a bot, an open seat or a deleted player)."""
    return "player" in spec and not is_deleted(spec)


def seated(seats: list[dict[str, Any]], player_id: str) -> bool:
    return any(seat.get("player") == player_id for seat in seats)


def alone(seats: list[dict[str, Any]], player_id: str) -> bool:
    """No person but ``player_id`` sits at these seats (the others are bots, open, or people
    who deleted their data)."""
    return all(seat.get("player") in (None, player_id) for seat in seats)


def forget(seats: list[dict[str, Any]], player_id: str) -> list[dict[str, Any]]:
    """The seats with each of ``player_id``'s made a deleted player's."""
    return [dict(DELETED_SEAT) if spec.get("player") == player_id else spec for spec in seats]


def mentions(player_id: str) -> ColumnElement[bool]:
    """Rooms whose stored seats mention ``player_id`` anywhere (a cheap filter in SQL on the
    JSON's text; ``seated`` then matches exactly). An id that JSON would escape is not looked
    for in the text: then every room passes."""
    if json.dumps(player_id) != f'"{player_id}"':
        return true()
    return cast_sql(RoomRow.seats, String).contains(player_id, autoescape=True)
