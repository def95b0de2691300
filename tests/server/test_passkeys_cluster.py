"""Passkeys on a site of several ``asobiba serve`` processes (one PostgreSQL database, one
Redis): a ceremony's options come from one process and its answer may reach another, once.
Real processes, PostgreSQL and Redis, the site under a key prefix of its own, at the origin
``ASOBIBA_PASSKEY_ORIGIN`` names (the processes listen on 127.0.0.1, which no browser makes
passkeys for)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from asobiba.server.accounts.ceremonies import CEREMONY_SECONDS
from tests.server.authenticator import Authenticator
from tests.server.cluster import Site
from tests.server.servers import Guest
from tests.server.test_accounts_cluster import on

ORIGIN = "https://asobiba.test"


@pytest.fixture
def site(tmp_path: Path, postgres_url: str) -> Iterator[Site]:
    site = Site(tmp_path, postgres_url, env={"ASOBIBA_PASSKEY_ORIGIN": ORIGIN})
    try:
        yield site
    finally:
        site.stop()
        site.forget()


def ceremony_keys(site: Site) -> dict[str, int]:
    """The site's ceremonies in Redis, with the milliseconds each has left."""
    with redis.Redis.from_url(site.redis_url) as client:
        return {
            key.decode(): int(client.pttl(key))
            for key in client.scan_iter(f"{site.prefix}:passkey:*")
        }


def options(guest: Guest, path: str, body: Any = None) -> dict[str, Any]:
    status, answer = guest.request("POST", path, body if body is not None else {})
    assert status == 200, answer
    return dict(answer)


def test_a_ceremony_answers_on_any_process_once(site: Site) -> None:
    one, two = site.start(2)
    device = Authenticator(ORIGIN)
    home = Guest(one.base)
    made = options(home, "/api/passkeys/register/options", {"username": "Aki"})
    assert made["rp"]["id"] == "asobiba.test"
    [(key, left)] = ceremony_keys(site).items()
    assert key == f"{site.prefix}:passkey:{made['challenge']}"
    assert 0 < left <= CEREMONY_SECONDS * 1000
    answer = device.create(made)
    status, kept = on(home, two.base).request(
        "POST", "/api/passkeys/register/verify", {"credential": answer}
    )
    assert status == 201 and kept["account"] == {"username": "Aki"}
    assert ceremony_keys(site) == {}, "taken as it was read"
    status, again = home.request("POST", "/api/passkeys/register/verify", {"credential": answer})
    assert (status, again["error"]["code"]) == (400, "passkey_expired")

    laptop = Guest(two.base)
    answer = device.get(options(laptop, "/api/passkeys/sign-in/options"))
    status, signed = on(laptop, one.base).request(
        "POST", "/api/passkeys/sign-in/verify", {"credential": answer}
    )
    assert status == 200 and signed["account"] == {"username": "Aki"}
    status, replayed = laptop.request(
        "POST", "/api/passkeys/sign-in/verify", {"credential": answer}
    )
    assert (status, replayed["error"]["code"]) == (400, "passkey_expired")
    status, me = on(laptop, one.base).request("GET", "/api/me")
    assert status == 200 and me["account"] == {"username": "Aki"}
