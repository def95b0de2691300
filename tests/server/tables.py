"""Friends at one table through the real app: each guest with their own cookie, one client."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from fastapi.testclient import TestClient
from httpx2 import Response
from starlette.testclient import WebSocketTestSession

from asobiba.server.app import create_app
from asobiba.server.settings import SocketLimits

COOKIE = "asobiba"
COOKIE_DOMAIN = "testserver.local"


@contextlib.contextmanager
def serving(url: str) -> Iterator[TestClient]:
    """The app on ``url`` with real bot workers, for one test (leaving it stops the app as a
    restart does). No pings: these tests read every message in order (tests/server/
    test_latency.py has them)."""
    quiet = SocketLimits(ping_seconds=None)
    app = create_app(url, secret_key="test-secret", bot_workers=1, socket_limits=quiet)
    with TestClient(app) as client:
        yield client


class Guest:
    """One person's browser: their signed guest cookie, swapped into the shared client for
    each request (every socket stays on the client's one event loop)."""

    def __init__(self, client: TestClient, name: str | None = None) -> None:
        self.client = client
        self.cookie: str | None = None
        self.get("/api/me")
        if name is not None:
            assert self.put("/api/me", json={"name": name}).status_code == 200

    def _wear(self) -> None:
        self.client.cookies.clear()
        if self.cookie is not None:
            # Where the server's own Set-Cookie lands (the cookie jar names the test client's
            # host so), so a new cookie it sends (signing in, a new guest) replaces this one.
            self.client.cookies.set(COOKIE, self.cookie, domain=COOKIE_DOMAIN)

    def _keep(self, response: Response | None = None) -> None:
        """The cookie ``response`` set, if it set one (a new one replaces the one worn: the
        client's jar would hold both), else the one in the client's jar."""
        if response is None:
            self.cookie = self.client.cookies.get(COOKIE) or self.cookie
        else:
            self.cookie = response.cookies.get(COOKIE) or self.cookie

    def request(self, method: str, url: str, **kwargs: Any) -> Response:
        self._wear()
        response = self.client.request(method, url, **kwargs)
        self._keep(response)
        return response

    def get(self, url: str, **kwargs: Any) -> Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Response:
        return self.request("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Any) -> Response:
        return self.request("PUT", url, **kwargs)

    def delete(self, url: str, **kwargs: Any) -> Response:
        return self.request("DELETE", url, **kwargs)

    @contextlib.contextmanager
    def socket(self, room_id: str) -> Iterator[WebSocketTestSession]:
        self._wear()
        with self.client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            yield ws


def host_table(
    guest: Guest, game: str, seats: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    body = {"game": game, "options": extra.pop("options", {}), "seats": seats, **extra}
    response = guest.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def until(
    ws: WebSocketTestSession, wanted: Callable[[dict[str, Any]], bool], most: int = 500
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read messages until one is ``wanted``; return it and every message read."""
    seen = []
    for _ in range(most):
        message: dict[str, Any] = ws.receive_json()
        seen.append(message)
        if wanted(message):
            return message, seen
    raise AssertionError(f"no wanted message in {most}: {seen[-5:]}")
