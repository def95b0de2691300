"""Who may see a private table once it is over: the people who sat at it, and whoever holds a
share link one of them passed on (as lichess shares a game). A private table's code and room id
are known to everyone it was shared with to be watched; after the end its names, chat and hands
are its people's, so neither opens it by itself, and anyone else finds nothing (404: not even
that it exists). Public tables and games against bots are anyone's, as before.

A share link carries an HMAC of the room id keyed by the site's secret key: nothing is stored,
any process of the site checks it, and it cannot be made for another room without the key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Any, Protocol

from starlette.requests import HTTPConnection

from asobiba.server.http.identity import player_id

PURPOSE = b"asobiba replay share\x00"
"""Keeps a share token apart from anything else the secret key signs (the guest cookie)."""


class Kept(Protocol):
    """A room as the rule needs it (``RoomBrief``, ``StoredRoom``, a live ``Room``)."""

    @property
    def id(self) -> str: ...

    @property
    def seats(self) -> list[dict[str, Any]]: ...

    @property
    def kept_private(self) -> bool:
        """A private table no longer being played."""
        ...


class ShareLinks:
    """Makes and checks the share tokens of one site (its secret key)."""

    def __init__(self, secret_key: str) -> None:
        self._key = secret_key.encode()

    def token(self, room_id: str) -> str:
        digest = hmac.new(self._key, PURPOSE + room_id.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()

    def valid(self, room_id: str, token: str | None) -> bool:
        """Whether ``token`` is ``room_id``'s (compared as bytes: any text a visitor sends is
        merely wrong, and in constant time)."""
        given = (token or "").encode()
        return hmac.compare_digest(self.token(room_id).encode(), given)


def _seated(room: Kept, connection: HTTPConnection) -> bool:
    person = player_id(connection)
    return person is not None and any(spec.get("player") == person for spec in room.seats)


def lets_see(connection: HTTPConnection, room: Kept, share: str | None = None) -> bool:
    """Whether the visitor may see ``room``: anyone, unless it is a private table that is over;
    then one of its people, or the holder of its share token ``share``."""
    if not room.kept_private or _seated(room, connection):
        return True
    links: ShareLinks = connection.app.state.share_links
    return links.valid(room.id, share)


def share_link(connection: HTTPConnection, room: Kept) -> str | None:
    """The replay's share link, for one of the people of a private table that is over (nobody
    else may pass it on); None for everyone and everything else."""
    if not room.kept_private or not _seated(room, connection):
        return None
    links: ShareLinks = connection.app.state.share_links
    return f"/replay/{room.id}?share={links.token(room.id)}"
