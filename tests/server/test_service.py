"""``/healthz`` and ``/readyz`` on real ``asobiba serve`` processes, on PostgreSQL and Redis: up
and ready; not ready, naming Redis, while its Redis is down; not ready while it drains after
SIGTERM, before it exits; and never a cookie (server/http/service.py)."""

from __future__ import annotations

import json
import signal
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.cluster import REDIS_URL, own_redis
from tests.server.servers import Guest, ServerProcess, eventually


def probe(base: str, path: str, cookie: str | None = None) -> tuple[int, Any, list[str]]:
    """GET ``path``: its status, its JSON and the cookies it set."""
    headers = {} if cookie is None else {"Cookie": cookie}
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return (
                response.status,
                json.loads(response.read()),
                response.headers.get_all("set-cookie") or [],
            )
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read()), error.headers.get_all("set-cookie") or []


def unready(base: str) -> dict[str, Any]:
    """``/readyz``'s answer once it is 503 (asked every 50 ms)."""

    def answer() -> dict[str, Any] | None:
        status, body, cookies = probe(base, "/readyz")
        assert cookies == []
        return dict(body) if status == 503 else None

    return eventually(answer, "readyz answers 503")


@pytest.fixture
def live(tmp_path: Path, postgres_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(
        tmp_path, postgres_url, {"REDIS_URL": REDIS_URL, "ASOBIBA_REDIS_PREFIX": tmp_path.name}
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def test_a_live_server_is_healthy_and_ready_and_sets_no_cookie(live: ServerProcess) -> None:
    guest = Guest(live.base)
    guest.new_room()  # a guest with a cookie, who then probes with it
    cookie = "; ".join(f"{c.name}={c.value}" for c in guest.cookies)
    assert cookie
    for sent in (None, cookie):
        status, body, cookies = probe(live.base, "/healthz", sent)
        assert (status, body, cookies) == (200, {"status": "ok"}, [])
        status, body, cookies = probe(live.base, "/readyz", sent)
        assert status == 200, body
        assert body == {
            "status": "ready",
            "failed": [],
            "checks": {"database": "ok", "redis": "ok", "draining": "ok"},
        }
        assert cookies == [], "a probe gets no cookie, and mints no guest"


def test_readyz_names_redis_while_its_redis_is_down(tmp_path: Path, postgres_url: str) -> None:
    with own_redis() as redis_server:
        server = ServerProcess(tmp_path, postgres_url, {"REDIS_URL": redis_server.url})
        server.start()
        try:
            assert probe(server.base, "/readyz")[0] == 200
            redis_server.stop()
            body = unready(server.base)
            assert body["failed"] == ["redis"], body
            assert body["checks"]["database"] == "ok"
            assert body["checks"]["redis"] != "ok"
            assert probe(server.base, "/healthz")[0] == 200, "the process itself is up"
            redis_server.start()
            eventually(lambda: probe(server.base, "/readyz")[0] == 200, "ready again")
        finally:
            server.stop()


def test_readyz_fails_while_the_process_drains_after_sigterm(
    tmp_path: Path, postgres_url: str
) -> None:
    """SIGTERM: readyz answers 503 (draining) while the process still serves, for the drain
    time (long here, so the test waits on the answer, not on a clock); a second SIGTERM stops it
    at once, with status 0."""
    server = ServerProcess(tmp_path, postgres_url, {"ASOBIBA_DRAIN_SECONDS": "600"})
    server.start()
    try:
        assert probe(server.base, "/readyz")[0] == 200
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        body = unready(server.base)
        assert body["failed"] == ["draining"], body
        assert body["checks"]["database"] == "ok"
        assert server.process.poll() is None, "still running: the balancer moves away first"
        assert probe(server.base, "/healthz")[0] == 200
        assert Guest(server.base).request("GET", "/api/games")[0] == 200, "it still serves"
        assert server.stop_by(signal.SIGTERM) == 0
    finally:
        server.stop()
    assert "draining for 600 s" in server.log()


def test_a_draining_process_stops_by_itself_after_its_drain(tmp_path: Path) -> None:
    server = ServerProcess(
        tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}", {"ASOBIBA_DRAIN_SECONDS": "0.5"}
    )
    server.start()
    try:
        assert server.stop_by(signal.SIGTERM) == 0
    finally:
        server.stop()
    log = server.log()
    assert log.index("draining for 0.5 s") < log.index("Application shutdown complete"), log
