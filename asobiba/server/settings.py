"""Run-time settings, from arguments first and the environment second."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

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
    """How often the server pings to time the line (``server/latency.py``); None: never (for
    tests that read every message in order)."""


@dataclass(frozen=True)
class Settings:
    database_url: str
    secret_key: str
    bot_workers: int = 2
    review_seconds: float = 0.5
    """The engine's time per position of a review (``ASOBIBA_REVIEW_SECONDS``)."""
    review_workers: int = 1
    """Worker processes for reviews, apart from the bots' (``ASOBIBA_REVIEW_WORKERS``)."""
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
        )


def _stored_secret(path: Path) -> str:
    """A random signing key made once per data directory, so guest cookies survive restarts."""
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_urlsafe(32)
    path.write_text(key)
    path.chmod(0o600)
    return key
