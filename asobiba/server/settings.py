"""Run-time settings, from arguments first and the environment second."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from asobiba.core.data_dir import data_dir

MAX_MESSAGE_BYTES = 4096
"""Largest WebSocket text message a client may send; longer ones get ``too_large``."""
MAX_BODY_BYTES = 16 * 1024
"""Largest HTTP request body accepted, however it is framed; longer ones get 413."""


@dataclass(frozen=True)
class SocketLimits:
    """What one room socket may cost the server, whatever its client does."""

    outbox: int = 128
    """Messages waiting for a client that does not read; one more closes the socket."""
    per_second: float = 10.0
    """Messages a client may send per second, sustained (a person sends far fewer)."""
    burst: int = 30
    """Messages a client may send at once before the sustained rate applies."""
    ping_seconds: float | None = 2.0
    """How often the server pings to time the line (``server/sockets/latency.py``); None: never (for
    tests that read every message in order)."""


@dataclass(frozen=True)
class GuestLimits:
    """What one guest (and one address) may hold and start: a flood of rooms costs the server
    a refusal, not a room."""

    rooms_burst: int = 10
    """Rooms a guest may start at once."""
    rooms_per_minute: float = 6.0
    """Rooms a guest may start a minute after that burst; more get 429 ``too_many_rooms``."""
    address_burst: int = 30
    """Rooms one network address may start at once, whatever cookies it sends (a new cookie
    makes a new guest)."""
    address_per_minute: float = 20.0
    """Rooms one address may start a minute after its burst."""
    unfinished: int = 20
    """Unfinished games a guest holds at once: starting one more ends the oldest that nobody is
    playing (abandoned: no result, no replay)."""
    sockets_per_seat: int = 4
    """Sockets one seat may have open in its room (a few tabs); one more is closed with 4409."""
    sockets_per_room: int = 64
    """Sockets one room may have open (players and spectators); one more is closed with 4409."""
    pause_seconds: float = 10.0
    """How long a room plays on after its last seated person's socket closed (a reload or a
    short drop costs nothing); then its clock and bots stop until someone is back."""

    @classmethod
    def from_environment(cls) -> GuestLimits:
        """Each field from ``ASOBIBA_LIMIT_<FIELD>`` where set (``ASOBIBA_LIMIT_ROOMS_BURST``),
        else its default."""
        values: dict[str, Any] = {}
        for field in fields(cls):
            text = os.environ.get(f"ASOBIBA_LIMIT_{field.name.upper()}")
            if text:
                values[field.name] = float(text) if field.type == "float" else int(text)
        return cls(**values)


@dataclass(frozen=True)
class Settings:
    database_url: str
    secret_key: str
    bot_workers: int = 2
    review_seconds: float = 0.5
    """The engine's time per position of a review (``ASOBIBA_REVIEW_SECONDS``)."""
    review_workers: int = 1
    """Worker processes for reviews, apart from the bots' (``ASOBIBA_REVIEW_WORKERS``)."""
    guest_limits: GuestLimits = GuestLimits()
    bot_pace: float = 1.0
    """Multiplies the bots' human pace (``ASOBIBA_BOT_PACE``). 0 makes a bot act the moment it
    has decided, which shows how long it thought and so something of its cards: for tests and
    load benches only, never on a public site."""
    standin_seconds: float | None = None
    """The grace before a stand-in plays for a person absent from a table between people, for
    every game (``ASOBIBA_STANDIN_SECONDS``; tests set it low). None: each game's own
    (``core.game.standin_seconds``: 30 s for turn games, 10 s for Mokochaka)."""
    redis_url: str | None = None
    """Redis shared by several processes on one database (``REDIS_URL``): room leases and the
    relay between processes (``server/cluster/``). None: one process owns every room."""
    redis_prefix: str = "asobiba"
    """The prefix of every Redis key and channel (``ASOBIBA_REDIS_PREFIX``): one per site, so
    two sites (or test runs) can share a Redis."""
    lease_seconds: float = 5.0
    """How long a room's lease lasts unrenewed (``ASOBIBA_LEASE_SECONDS``): how soon another
    process takes over the rooms of one that died. Renewed every third of it."""
    openapi: bool = False
    """Serve the API's schema at /openapi.json (``ASOBIBA_OPENAPI=1``); off for visitors."""
    dev_seeds: bool = False
    """Let ``POST /api/rooms`` take a ``seed`` (``ASOBIBA_DEV_SEEDS=1``), for end-to-end tests
    that need a fixed deal. Unsafe on a public site: whoever knows the seed knows every hidden
    card, so it is off unless set, and a ``seed`` is refused while it is off."""

    @classmethod
    def load(cls, database_url: str | None = None, secret_key: str | None = None) -> Settings:
        url = database_url or os.environ.get("DATABASE_URL")
        key = secret_key or os.environ.get("SECRET_KEY")
        if not url or not key:
            directory = data_dir()
            url = url or f"sqlite:///{directory / 'asobiba.sqlite3'}"
            key = key or _stored_secret(directory / "secret_key")
        openapi = os.environ.get("ASOBIBA_OPENAPI", "") in {"1", "true", "yes"}
        dev_seeds = os.environ.get("ASOBIBA_DEV_SEEDS", "") in {"1", "true", "yes"}
        return cls(
            database_url=url,
            secret_key=key,
            openapi=openapi,
            dev_seeds=dev_seeds,
            review_seconds=float(os.environ.get("ASOBIBA_REVIEW_SECONDS") or 0.5),
            review_workers=int(os.environ.get("ASOBIBA_REVIEW_WORKERS") or 1),
            guest_limits=GuestLimits.from_environment(),
            bot_pace=float(os.environ.get("ASOBIBA_BOT_PACE") or 1.0),
            standin_seconds=_seconds(os.environ.get("ASOBIBA_STANDIN_SECONDS")),
            redis_url=os.environ.get("REDIS_URL") or None,
            redis_prefix=os.environ.get("ASOBIBA_REDIS_PREFIX") or "asobiba",
            lease_seconds=float(os.environ.get("ASOBIBA_LEASE_SECONDS") or 5.0),
        )


def _seconds(text: str | None) -> float | None:
    return None if not text else float(text)


def _stored_secret(path: Path) -> str:
    """A random signing key made once per data directory, so guest cookies survive restarts."""
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(32)
    path.write_text(key)
    path.chmod(0o600)
    return key
