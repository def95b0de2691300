"""Run-time settings, from arguments first and the environment second."""

from __future__ import annotations

import ipaddress
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
DAY = 24 * 3600.0

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


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
    lobby_burst: int = 4
    """Frames a lobby socket's client may send at once. It has nothing to say (the lobby only
    talks), so one more than a few closes it with 4429."""
    lobby_per_minute: float = 2.0
    """Frames a lobby client may send a minute after that burst."""
    pairing_burst: int = 4
    """Frames a "Play someone now" socket's client may send at once (it has two things to say:
    start with computers, or stop waiting); one more than that closes it with 4429."""
    pairing_per_minute: float = 6.0
    """Frames a pairing client may send a minute after that burst."""


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
    lookups_burst: int = 5
    """Table codes a guest may look up at once (``/api/tables/{code}``, ``/t/{code}``), found
    or not: a code is a table's only key, so it must not be guessed at speed."""
    lookups_per_minute: float = 12.0
    """Codes a guest may look up a minute after that burst; more get 429 ``too_many_lookups``."""
    lookups_address_burst: int = 20
    """Codes one network address may look up at once, whatever cookies it sends."""
    lookups_address_per_minute: float = 60.0
    """Codes one address may look up a minute after its burst."""
    unfinished: int = 20
    """Unfinished games a guest holds at once: starting one more ends the oldest that nobody is
    playing (abandoned: no result, no replay)."""
    sockets_per_seat: int = 4
    """Sockets one seat may have open in its room (a few tabs); one more is closed with 4409."""
    sockets_per_room: int = 64
    """Sockets one room may have open (players and spectators); one more is closed with 4409."""
    lobby_sockets_per_address: int = 8
    """Lobby sockets (``/ws/lobby``) one network address may have open; one more is closed with
    4409."""
    pairing_sockets_per_address: int = 8
    """The "Play someone now" sockets (``/ws/pairing``) one network address may have open (a
    few tabs of a few people behind one router); one more is closed with 4409."""
    trainer_sockets_per_address: int = 4
    """Trainer sockets (``/ws/learn/{game}/trainer``) one network address may have open (a
    session keeps a server task and a timer busy); one more is closed with 4409."""
    commands_burst: int = 20
    """Table commands (join, leave, start, remove a seat, spectator chat) a guest may send at
    once: each is a database write and a change every lobby watcher may see."""
    commands_per_minute: float = 30.0
    """Table commands a guest may send a minute after that burst; more get 429
    ``too_many_commands``."""
    commands_address_burst: int = 60
    """Table commands one network address may send at once, whatever cookies it sends."""
    commands_address_per_minute: float = 120.0
    """Table commands one address may send a minute after its burst."""
    spectator_lines_burst: int = 5
    """Chat lines the spectators of one table may write at once, all of them together (the
    players' own lines count only against each player's limit, ``social/chat.py``)."""
    spectator_lines_per_minute: float = 60.0
    """Chat lines a table's spectators may write a minute after that burst, together; more get
    ``chat_rate_limited``."""
    spectator_address_burst: int = 3
    """Chat lines the spectators of one table on one network address may write at once."""
    spectator_address_per_minute: float = 12.0
    """Chat lines a table's spectators on one address may write a minute after that burst."""
    data_burst: int = 5
    """Exports and deletions of their own data a guest may ask for at once
    (``GET /api/players/{id}/export``, ``DELETE /api/account``): each reads or writes every
    game the person sat in."""
    data_per_minute: float = 2.0
    """Exports and deletions a guest may ask for a minute after that burst; more get 429
    ``too_many_requests``."""
    data_address_burst: int = 20
    """Exports and deletions one network address may ask for at once (a deletion makes a new
    guest, so only this limit holds a run of them back)."""
    data_address_per_minute: float = 10.0
    """Exports and deletions one address may ask for a minute after its burst."""
    signin_per_name: int = 10
    """Sign-ins one account name may try in ``signin_window_seconds``, right or wrong, from
    anywhere (``accounts/attempts.py``); more get 429 ``too_many_attempts``."""
    signin_per_address: int = 30
    """Sign-ins (and accounts made) one network address may try in that window, whatever
    names it tries."""
    signin_window_seconds: float = 900.0
    """The window of the sign-in limits: fifteen minutes."""
    pause_seconds: float = 10.0
    """How long a room plays on after its last seated person's socket closed (a reload or a
    short drop costs nothing); then its clock and bots stop until someone is back."""
    abandon_seconds: float = 7 * DAY
    """How long a game against the computer, or a table not yet started, waits for someone to
    come back (no move, no visit, no seat taken) before it is ended as abandoned in the
    background (``Hub.reap``): a week, so a game left for a few days is still there, while the
    rooms of visitors who never return do not pile up for every start-up and every guest's
    list of games."""
    abandon_table_seconds: float = 30 * DAY
    """The same for a started table with two or more people: a month. Ending it ends the game of
    everyone at it, and people may well agree to go on next week (a weekly game night that
    skips a week still finds its table)."""

    @property
    def touch_seconds(self) -> float:
        """How stale a room's last-activity time may grow before another move writes it again
        (``Store``): a minute, or less when the abandon times are shorter (tests), so a room
        is never ended more than a tenth of its time early."""
        return min(60.0, self.abandon_seconds / 10, self.abandon_table_seconds / 10)

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
    """The engine's time per decision of a review, at most (``ASOBIBA_REVIEW_SECONDS``; a game
    may ask for less: ``core.game.review_seconds``)."""
    review_workers: int = 2
    """Worker processes for reviews, apart from the bots' (``ASOBIBA_REVIEW_WORKERS``)."""
    guest_limits: GuestLimits = GuestLimits()
    bot_pace: float = 1.0
    """Multiplies the bots' human pace (``ASOBIBA_BOT_PACE``). 0 makes a bot act the moment it
    has decided, which shows how long it thought and so something of its cards: for tests and
    load benches only, never on a public site."""
    trainer_pause: float = 1.0
    """Multiplies the pause before each card of a trainer session (``ASOBIBA_TRAINER_PAUSE``).
    0 turns the next card at once: for tests only, since a learner could then time their
    answer to the card's moment."""
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
    metrics_from: tuple[Network, ...] = ()
    """Clients besides loopback that ``GET /metrics`` answers (``ASOBIBA_METRICS_FROM``: a
    comma-separated list of addresses or CIDR networks, ``10.0.0.5,10.1.0.0/16``); anyone else
    gets the site's 404."""
    drain_seconds: float = 0.0
    """How long a process keeps serving after SIGTERM with ``/readyz`` answering 503, so a
    balancer polling it moves away first (``ASOBIBA_DRAIN_SECONDS``); then it stops as it
    always did. 0: it stops at once. A second SIGTERM, or SIGINT, stops it at once."""
    secret_key_given: bool = True
    """Whether ``SECRET_KEY`` (or the caller) gave the key; False: it was made once in the data
    directory, which one process alone may do (``startup.require_shared_key``)."""
    dev_ratings: bool = False
    """Let ``POST /api/pairing`` take a ``rating`` (``ASOBIBA_DEV_RATINGS=1``), for tests and
    ``bench/pairing.py`` that need people of spread ratings before any game was rated. Off
    unless set (a ``rating`` is refused while it is off): on a public site anyone could claim
    any strength."""
    passkey_origin: str | None = None
    """The site's origin as people's browsers see it (``ASOBIBA_PASSKEY_ORIGIN``:
    ``https://asobiba.example``): passkeys are made for its host name and answered only from
    pages of it (``accounts/passkeys.py``). None: each request's own scheme and ``Host``, which
    serves one site at one name (``make run`` at ``http://localhost:8000``); set it in
    production, so no request can name another site."""
    dev_seeds: bool = False
    """Let ``POST /api/rooms`` take a ``seed`` (``ASOBIBA_DEV_SEEDS=1``), for end-to-end tests
    that need a fixed deal. Unsafe on a public site: whoever knows the seed knows every hidden
    card, so it is off unless set, and a ``seed`` is refused while it is off."""

    @classmethod
    def load(cls, database_url: str | None = None, secret_key: str | None = None) -> Settings:
        url = database_url or os.environ.get("DATABASE_URL")
        key = secret_key or os.environ.get("SECRET_KEY")
        given = bool(key)
        if not url or not key:
            directory = data_dir()
            url = url or f"sqlite:///{directory / 'asobiba.sqlite3'}"
            key = key or _stored_secret(directory / "secret_key")
        openapi = os.environ.get("ASOBIBA_OPENAPI", "") in {"1", "true", "yes"}
        dev_seeds = os.environ.get("ASOBIBA_DEV_SEEDS", "") in {"1", "true", "yes"}
        dev_ratings = os.environ.get("ASOBIBA_DEV_RATINGS", "") in {"1", "true", "yes"}
        return cls(
            database_url=url,
            secret_key=key,
            secret_key_given=given,
            openapi=openapi,
            dev_seeds=dev_seeds,
            dev_ratings=dev_ratings,
            review_seconds=float(os.environ.get("ASOBIBA_REVIEW_SECONDS") or 0.5),
            review_workers=int(os.environ.get("ASOBIBA_REVIEW_WORKERS") or 2),
            guest_limits=GuestLimits.from_environment(),
            bot_pace=float(os.environ.get("ASOBIBA_BOT_PACE") or 1.0),
            trainer_pause=float(os.environ.get("ASOBIBA_TRAINER_PAUSE") or 1.0),
            standin_seconds=_seconds(os.environ.get("ASOBIBA_STANDIN_SECONDS")),
            redis_url=os.environ.get("REDIS_URL") or None,
            redis_prefix=os.environ.get("ASOBIBA_REDIS_PREFIX") or "asobiba",
            lease_seconds=float(os.environ.get("ASOBIBA_LEASE_SECONDS") or 5.0),
            metrics_from=networks(os.environ.get("ASOBIBA_METRICS_FROM") or ""),
            drain_seconds=float(os.environ.get("ASOBIBA_DRAIN_SECONDS") or 0.0),
            passkey_origin=os.environ.get("ASOBIBA_PASSKEY_ORIGIN") or None,
        )


def networks(text: str) -> tuple[Network, ...]:
    """The addresses and networks of a comma-separated list (an address is a network of one).

    >>> networks("10.0.0.5, 192.168.0.0/24")
    (IPv4Network('10.0.0.5/32'), IPv4Network('192.168.0.0/24'))
    """
    found = []
    for part in text.split(","):
        if part.strip():
            try:
                found.append(ipaddress.ip_network(part.strip(), strict=False))
            except ValueError:
                raise ValueError(f"not an address or a network: {part.strip()!r}") from None
    return tuple(found)


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
