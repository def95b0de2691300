"""HTTP guards: body limits whatever the framing, security headers, no schema for visitors, plain
error messages and only the options the site offers."""

from __future__ import annotations

import contextlib
import socket
import time
import urllib.request
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import InvalidStatus

from asobiba.games import game_names, get_game
from asobiba.server.app import create_app
from asobiba.server.http.middleware import CONTENT_SECURITY_POLICY
from asobiba.server.settings import MAX_BODY_BYTES
from tests.server.servers import Guest, thread_server


def test_a_chunked_body_over_the_limit_is_refused(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "mancala", "level": "beginner", "options": {"x": "'
        for _ in range(40):
            yield b"y" * 1024
        yield b'"}}'

    response = client.post(
        "/api/rooms", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.request.headers.get("transfer-encoding") == "chunked"
    assert response.status_code == 413
    assert response.json()["error"] == {
        "code": "too_large",
        "message": f"request bodies are limited to {MAX_BODY_BYTES} bytes",
    }


def test_a_chunked_body_within_the_limit_is_read(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"game": "mancala", '
        yield b'"level": "beginner"}'

    response = client.post(
        "/api/rooms", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 201, response.text


def test_a_huge_chunked_upload_is_refused_long_before_its_end(sqlite_url: str) -> None:
    """Over real TCP: the 413 arrives while the client is still sending, not after 30 MB."""
    app = create_app(sqlite_url, secret_key="s", bot_workers=1)
    with thread_server(app) as base:
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(
                b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            )
            chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
            sent = 0
            sock.settimeout(0.0)
            answer = b""
            while sent < 30 * 1024 * 1024 and not answer:
                try:
                    sock.send(chunk)
                    sent += 65536
                except (BlockingIOError, ConnectionError):
                    time.sleep(0.01)
                with contextlib.suppress(BlockingIOError):
                    answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
        assert sent < 30 * 1024 * 1024
        with urllib.request.urlopen(f"{base}/api/games", timeout=10) as after:
            assert after.status == 200, "the server goes on serving"


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    for path in ["/", "/games/mancala", "/api/games", "/static/js/dom.js", "/no-such-page"]:
        response = client.get(path)
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert response.headers["x-content-type-options"] == "nosniff", path
        assert response.headers["referrer-policy"] == "same-origin", path
    assert "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY
    assert "style-src 'self'" in CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_cookies_are_secure_over_https_and_plain_over_http(sqlite_url: str) -> None:
    """Issue 30, point 10: behind TLS (the scope's scheme, from the proxy's X-Forwarded-Proto)
    the guest and language cookies never travel over plain HTTP; on a developer's
    http://127.0.0.1 they still work."""
    app = create_app(sqlite_url, secret_key="s", bot_workers=1)
    for base, secure in [("https://testserver", True), ("http://testserver", False)]:
        with TestClient(app, base_url=base, follow_redirects=False) as client:
            guest = client.get("/").headers.get_list("set-cookie")
            lang = client.get("/lang/en?next=/").headers.get_list("set-cookie")
        assert [c.split("=")[0] for c in guest] == ["asobiba"]
        for cookie in guest + lang:
            attributes = [part.strip().lower() for part in cookie.split(";")[1:]]
            assert ("secure" in attributes) is secure, (base, cookie)


def test_the_api_schema_is_not_served_unless_configured(
    client: TestClient, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert client.get("/openapi.json").status_code == 404
    monkeypatch.setenv("ASOBIBA_OPENAPI", "1")
    with TestClient(create_app(sqlite_url, secret_key="s", bot_workers=1)) as configured:
        assert configured.get("/openapi.json").json()["info"]["title"] == "asobiba"


def test_error_messages_are_plain_text(client: TestClient) -> None:
    response = client.post("/api/rooms", json={"game": "chess", "level": "beginner"})
    assert response.status_code == 404
    assert response.json()["error"]["message"] == f"unknown game 'chess'; known: {game_names()}"


def test_options_the_site_does_not_offer_are_refused(client: TestClient) -> None:
    response = client.post(
        "/api/rooms", json={"game": "mancala", "level": "beginner", "options": {"pits": 3}}
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid_options",
        "message": "option 'pits' is not offered on this site",
    }
    empty: dict[str, object] = {"fields": [], "rows": [], "games": [], "accuracy": []}
    # A new guest has done none of the course, which a game with one still counts.
    lessons = get_game("mancala").lessons()  # type: ignore[attr-defined]
    empty["learning"] = {"lessons": {"done": 0, "total": len(lessons)}}
    assert client.get("/api/records/mancala").json() == empty


def test_a_cross_origin_handshake_gets_http_403_over_real_tcp(sqlite_url: str) -> None:
    app = create_app(sqlite_url, secret_key="s", bot_workers=1)
    with thread_server(app) as base:
        guest = Guest(base)
        room = guest.new_room()
        with pytest.raises(InvalidStatus) as refused:
            guest.socket(room["ws"], origin="https://evil.example")
        assert refused.value.response.status_code == 403
        assert refused.value.response.body == b"cross-origin socket refused"
