"""Who a request or a socket is: a guest, or a browser signed in to an account.

Starlette's signed session cookie ("asobiba": HttpOnly, SameSite=Lax, Secure behind TLS) holds
one of two things:

- ``{"player": id}``: a guest, made on the first visit. The id is the guest's secret (others
  see the public id). Once that guest has become an account its id is no longer taken from a
  guest cookie: a copy of the old cookie would otherwise be a session nobody can sign out.
- ``{"session": token}``: a browser signed in to an account. The token is random; the store
  keeps only its SHA-256 (``account_sessions.id``), which names the account's player id. A
  token signed out or revoked makes the browser a new guest at its next request; a socket
  opened with it is nobody's (it watches, and sits nowhere).

``Identify`` (middleware inside the session's) reads the cookie once per request and socket,
with one indexed read of the store (for a guest, only every ``GUEST_SECONDS``: ``KnownGuests``),
and leaves the answer in the scope, where ``player_id`` and ``identity`` find it for every
route. Static files are served without it.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import OrderedDict
from dataclasses import dataclass

from fastapi import HTTPException
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from asobiba.server.store.accounts import Accounts, token_hash

GUEST_KEY = "player"
"""The cookie's guest id."""
TOKEN_KEY = "session"
"""The cookie's session token."""
SCOPE_KEY = "asobiba.identity"

log = logging.getLogger(__name__)
UNIDENTIFIED = ("/static/",)
"""Paths served without reading who asks (the site's files are the same for everyone)."""
GUEST_SECONDS = 30.0
"""How long a guest id found to be no account's is taken without asking the store again
(``KnownGuests``)."""
GUESTS_KEPT = 100_000


@dataclass(frozen=True)
class Identity:
    player: str | None
    """The player id: a guest's, or the signed-in account's; None before a guest is made
    (and on a socket whose cookie holds nobody)."""
    session: str | None = None
    """The signed-in session's key (the token's SHA-256); None for a guest."""
    username: str | None = None
    """The account's username; None for a guest."""
    unknown: bool = False
    """The cookie holds a session the store could not be asked about (it is unreachable):
    nobody for this request, and the cookie is left as it is (a database outage must not sign
    everyone out)."""


NOBODY = Identity(None)


def identity(connection: HTTPConnection) -> Identity:
    found = connection.scope.get(SCOPE_KEY)
    return found if isinstance(found, Identity) else NOBODY


def player_id(connection: HTTPConnection) -> str | None:
    return identity(connection).player


def ensure_player_id(connection: HTTPConnection) -> str:
    """The visitor's player id, making a guest if they have none (the cookie is set on the
    response). A session the store could not be asked about is not replaced by a guest: 503
    ``unavailable``."""
    who = identity(connection)
    if who.unknown:
        message = "the site cannot tell who you are just now; try again in a moment"
        raise HTTPException(503, detail={"code": "unavailable", "message": message})
    current = who.player
    if current is None:
        current = str(uuid.uuid4())
        connection.session.clear()
        connection.session[GUEST_KEY] = current
        connection.scope[SCOPE_KEY] = Identity(current)
    return current


def sign_in(connection: HTTPConnection, token: str, player: str, username: str) -> None:
    """The response carries a cookie of the session ``token`` (already stored) instead of
    whatever the browser had; this request is the account's from here on."""
    connection.session.clear()
    connection.session[TOKEN_KEY] = token
    connection.scope[SCOPE_KEY] = Identity(player, token_hash(token), username)


def sign_out(connection: HTTPConnection) -> str:
    """The browser forgets its session (already revoked in the store) and is a new guest:
    its new id."""
    connection.scope[SCOPE_KEY] = NOBODY
    return ensure_player_id(connection)


class KnownGuests:
    """Guest ids this process found lately to be no account's: a guest's requests are most of
    the site's, and asking the store at each cost 0.5 ms (SQLite) to 1.5 ms (PostgreSQL) of
    every request's time. A guest that becomes an account here is forgotten at once
    (``forget``); on another process of the site an old copy of its guest cookie may still pass
    for ``GUEST_SECONDS``, never a session: sessions are read from the store every time, so a
    revoked one is a stranger at once. At most ``GUESTS_KEPT`` ids, the oldest dropped first."""

    def __init__(self, seconds: float = GUEST_SECONDS, most: int = GUESTS_KEPT) -> None:
        self.seconds = seconds
        self.most = most
        self._until: OrderedDict[str, float] = OrderedDict()

    def known(self, guest: str) -> bool:
        until = self._until.get(guest)
        if until is None:
            return False
        if until < time.monotonic():
            del self._until[guest]
            return False
        return True

    def add(self, guest: str) -> None:
        self._until[guest] = time.monotonic() + self.seconds
        self._until.move_to_end(guest)
        while len(self._until) > self.most:
            self._until.popitem(last=False)

    def forget(self, guest: str) -> None:
        self._until.pop(guest, None)


class Identify:
    """Middleware (inside the session middleware): every request and socket knows who it is,
    and every request has a player id from the first on, so the cookie is set by whatever page
    comes first."""

    def __init__(self, app: ASGIApp, accounts: Accounts, guests: KnownGuests) -> None:
        self.app = app
        self.accounts = accounts
        self.guests = guests

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not scope["path"].startswith(UNIDENTIFIED):
            connection = HTTPConnection(scope)
            who = scope[SCOPE_KEY] = await self._read(connection)
            if scope["type"] == "http" and not who.unknown:
                ensure_player_id(connection)
        await self.app(scope, receive, send)

    async def _read(self, connection: HTTPConnection) -> Identity:
        session = connection.session
        token, guest = session.get(TOKEN_KEY), session.get(GUEST_KEY)
        try:
            if isinstance(token, str):
                found = await asyncio.to_thread(self.accounts.signed_in, token_hash(token))
                if found is not None:
                    return Identity(found.player, found.session, found.username)
            elif isinstance(guest, str):
                if self.guests.known(guest):
                    return Identity(guest)
                if not await asyncio.to_thread(self.accounts.is_account, guest):
                    self.guests.add(guest)
                    return Identity(guest)
            else:
                return NOBODY
        except SQLAlchemyError as error:
            log.warning("who a request is could not be read (%s)", type(error).__name__)
            # A guest stays the guest (whatever it does needs the store, which will say no);
            # a session is nobody for now, its cookie kept.
            return Identity(guest) if isinstance(guest, str) else Identity(None, unknown=True)
        session.clear()  # signed out, revoked, or a guest cookie of an account: a stranger
        return NOBODY
