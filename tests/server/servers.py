"""Real servers for the tests that need real TCP: ``asobiba serve`` in its own process (to kill it)
or uvicorn in a thread (to give it small limits), and a guest that talks to them over loopback."""

from __future__ import annotations

import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from websockets.sync.client import ClientConnection, connect

from asobiba.server.main import SWITCH_INTERVAL
from asobiba.server.settings import MAX_MESSAGE_BYTES
from asobiba.server.sockets.uvicorn_protocol import RoomSocketProtocol


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(base: str, process: subprocess.Popen[bytes] | None = None) -> None:
    for _ in range(300):
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{base}/api/games", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer within 30 s")


class ServerProcess:
    """``asobiba serve`` on a free port with its own data directory and database; ``env``: more
    environment (``REDIS_URL`` and the like)."""

    def __init__(self, data: Path, database_url: str, env: dict[str, str] | None = None) -> None:
        self.data = data
        self.database_url = database_url
        self.env = env or {}
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {**os.environ, "ASOBIBA_DATA_DIR": str(self.data), "SECRET_KEY": "live-secret"}
        env.update(self.env)
        log = (self.data / "server.log").open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "asobiba.cli",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        wait_until_up(self.base, self.process)

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def log(self) -> str:
        return (self.data / "server.log").read_text(errors="replace")


@contextmanager
def thread_server(app: FastAPI, keepalive: bool = True) -> Iterator[str]:
    """Uvicorn serving ``app`` in a thread, as ``asobiba serve`` configures it; yields its URL.
    ``keepalive=False`` turns off uvicorn's own pings (every 20 s, closing with 1011 when no
    pong comes within 20 s), for tests of a client that deliberately reads nothing."""
    listener = socket.create_server(("127.0.0.1", 0))
    with served_on(app, [listener], keepalive):
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


@contextmanager
def served_on(
    app: FastAPI, listeners: list[socket.socket], keepalive: bool = True
) -> Iterator[None]:
    """Uvicorn serving ``app`` in a thread on listening sockets made by the caller (one may lie
    in another network namespace: ``tests/server/netline.py``), as ``asobiba serve`` configures
    it; the sockets are closed afterwards."""
    config = uvicorn.Config(
        app,
        ws=RoomSocketProtocol,
        ws_max_size=16 * MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0 if keepalive else None,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": listeners}, daemon=True)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)  # as asobiba serve sets it (asobiba/server/main.py)
    thread.start()
    try:
        for _ in range(300):
            if server.started:
                break
            if not thread.is_alive():
                raise RuntimeError("the server stopped while starting")
            time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start within 30 s")
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sys.setswitchinterval(interval)
        for listener in listeners:
            listener.close()


class Guest:
    """A visitor with their own cookie, talking to a live server."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method, headers={"content-type": "application/json"}
        )
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            with error:
                return error.code, json.loads(error.read() or b"null")

    def new_room(self, level: str = "beginner", **options: Any) -> dict[str, Any]:
        status, room = self.request(
            "POST", "/api/rooms", {"game": "mancala", "options": options, "level": level}
        )
        assert status == 201, room
        return dict(room)

    def socket(self, ws_path: str, base: str | None = None, **options: Any) -> ClientConnection:
        """A room socket, on ``base`` (another process of the same site) if given."""
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.cookies)
        return connect(
            (base or self.base).replace("http", "ws", 1) + ws_path,
            additional_headers={"Cookie": cookie} if cookie else None,
            proxy=None,
            **options,
        )


def play_to_the_end(ws: ClientConnection, timeout: float = 60.0) -> dict[str, Any]:
    """Play the first legal move whenever it is our turn; return the final observation."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if message["type"] == "ping":
            ws.send(json.dumps({"type": "pong", "id": message["id"]}))
            continue
        if message["type"] == "error":
            raise AssertionError(message)
        if message["obs"]["outcome"] is not None:
            return dict(message["obs"])
        if message["legal"]:
            ws.send(json.dumps({"type": "act", "action": message["legal"][0]}))
    raise AssertionError("the game did not end in time")


def next_message(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    """The next message that is not a ping (pings are answered)."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "ping":
            ws.send(json.dumps({"type": "pong", "id": message["id"]}))
            continue
        return dict(message)
