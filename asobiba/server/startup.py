"""Before a process serves: its settings make sense, its database and Redis answer (it waits for
them), and in a site of several processes it signs cookies with the site's key.

The HTTP port opens only once all of this holds: until then a balancer finds nothing listening
and sends its requests to the other processes (docs/OPERATIONS.md, "Starting")."""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from typing import TypeVar

import redis
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from asobiba.server.logs import Misconfigured
from asobiba.server.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")

FIRST_WAIT = 0.5
"""Seconds before the second attempt to reach a service that did not answer; doubled after each
failure up to ``WAIT_CAP``."""
WAIT_CAP = 10.0
"""The longest wait between two attempts."""
CONNECT_SECONDS = 5
"""How long one attempt to reach the database or Redis may take."""
FINGERPRINT_LABEL = b"asobiba: the key that signs the guest cookie"
"""What the key's fingerprint is the HMAC of (under the key): the same label everywhere, so two
processes with one key store one fingerprint, and the key is never stored."""


def fingerprint(secret_key: str) -> str:
    """A keyed fingerprint of ``secret_key``: says whether two processes hold the same key, and
    nothing about the key.

    >>> fingerprint("a") == fingerprint("a") != fingerprint("b")
    True
    """
    return hmac.new(secret_key.encode(), FINGERPRINT_LABEL, hashlib.sha256).hexdigest()


def fingerprint_key(prefix: str) -> str:
    """Where the site's key fingerprint is kept in Redis."""
    return f"{prefix}:secret-key-fingerprint"


def require_shared_key(settings: Settings) -> None:
    """In a site of several processes (``REDIS_URL``), ``SECRET_KEY`` must be given: a key each
    process made for itself would turn every guest who lands on another process into a
    stranger. Raises ``Misconfigured``."""
    if settings.redis_url is not None and not settings.secret_key_given:
        raise Misconfigured(
            "REDIS_URL is set but SECRET_KEY is not: every process of a site must sign "
            "cookies with the same key; set SECRET_KEY to one secret in every process"
        )


def prove_shared_key(client: redis.Redis, settings: Settings) -> None:
    """Store the key's fingerprint if the site has none yet, else check that it is ours.
    Raises ``Misconfigured`` when another process of the site holds another key."""
    where = fingerprint_key(settings.redis_prefix)
    mine = fingerprint(settings.secret_key)
    if client.set(where, mine, nx=True):
        log.info("the site's key fingerprint stored (%s...)", mine[:8])
        return
    stored = client.get(where)
    theirs = stored.decode() if isinstance(stored, bytes) else stored
    if theirs is not None and theirs != mine:
        raise Misconfigured(
            f"SECRET_KEY differs from the key the site's other processes use (fingerprint "
            f"{mine[:8]}... here, {theirs[:8]}... in Redis at {where!r}): give every process "
            f"the same SECRET_KEY (to change the key, stop every process and delete {where!r})"
        )
    if theirs is None:  # deleted meanwhile
        client.set(where, mine, nx=True)


def database_answers(url: str) -> None:
    """Connect to the database once and ask it something; raises when it does not answer."""
    args = {} if make_url(url).get_backend_name() == "sqlite" else {"connect_timeout": 5}
    engine = create_engine(url, poolclass=NullPool, connect_args=args)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    finally:
        engine.dispose()


def redis_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(
        url, socket_timeout=CONNECT_SECONDS, socket_connect_timeout=CONNECT_SECONDS
    )


def wait_for(what: str, attempt: Callable[[], T], cap: float = WAIT_CAP) -> T:
    """``attempt()``'s answer, trying again after each failure (a warning each time, waits
    doubling up to ``cap``) until it answers."""
    wait = FIRST_WAIT
    tries = 1
    while True:
        try:
            answer = attempt()
        except Exception as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
            log.warning(
                "%s does not answer (%s); attempt %d failed, trying again in %.1f s",
                what,
                reason,
                tries,
                wait,
            )
            time.sleep(wait)
            wait = min(cap, wait * 2)
            tries += 1
            continue
        if tries > 1:
            log.info("%s answers (after %d attempts)", what, tries)
        return answer


def prepare(settings: Settings) -> None:
    """Everything a process checks before it serves: the key is shared where it must be, the
    database answers, and with ``REDIS_URL`` Redis answers and holds the site's key (waits for
    the services; raises ``Misconfigured``)."""
    require_shared_key(settings)
    wait_for("the database", lambda: database_answers(settings.database_url))
    if settings.redis_url is not None:
        client = redis_client(settings.redis_url)
        try:
            wait_for("Redis", client.ping)
            prove_shared_key(client, settings)
        finally:
            client.close()
