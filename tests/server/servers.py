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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from fastapi import FastAPI
from websockets.sync.client import ClientConnection, connect

from asobiba.server.main import SWITCH_INTERVAL
from asobiba.server.settings import MAX_MESSAGE_BYTES
from asobiba.server.sockets.uvicorn_protocol import RoomSocketProtocol

T = TypeVar("T")


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
        self.launch()
        try:
            wait_until_up(self.base, self.process)
        except RuntimeError:
            self.stop()  # a server that never answered is not left running after the test
            raise

    def launch(self) -> None:
        """Start the process without waiting for it to answer. Its lines are plain text, as
        the tests read them, unless ``env`` says ``ASOBIBA_LOG_FORMAT=json``."""
        env = {
            **os.environ,
            "ASOBIBA_DATA_DIR": str(self.data),
            "SECRET_KEY": "live-secret",
            "ASOBIBA_LOG_FORMAT": "text",
        }
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

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop_by(self, signum: int, timeout: float = 60.0) -> int:
        """Send ``signum`` (SIGTERM, SIGINT) and wait for the process to end: its exit status."""
        assert self.process is not None
        self.process.send_signal(signum)
        return self.process.wait(timeout=timeout)

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


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``, read from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (state, parent, ...); none for a
    process that is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return []


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return bool(fields) and fields[0] != "Z"


def grandchildren(pid: int) -> set[int]:
    """The processes more than one level below ``pid``: the workers of its process pools (its
    forkserver forks them; the forkserver and the resource tracker are its own children)."""
    below = descendants(pid)
    return {process for process in below if _stat(process)[1:2] != [str(pid)]}


def outliving(pids: set[int], seconds: float = 20.0) -> list[int]:
    """Those of ``pids`` still running once all have ended or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(pid) for pid in pids):
        time.sleep(0.1)
    return [pid for pid in pids if alive(pid)]


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

    def __init__(self, base: str, headers: dict[str, str] | None = None) -> None:
        """``headers``: sent with every request and handshake (``X-Forwarded-For``, as a proxy
        on this machine would add it)."""
        self.base = base
        self.headers = headers or {}
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"content-type": "application/json", **self.headers},
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
        headers = {**self.headers, **({"Cookie": cookie} if cookie else {})}
        return connect(
            (base or self.base).replace("http", "ws", 1) + ws_path,
            additional_headers=headers or None,
            proxy=None,
            **options,
        )

    def socket_from(self, address: str, ws_path: str, base: str | None = None) -> ClientConnection:
        """A socket whose client address is ``address``: any 127.x.y.z reaches this machine, so
        one machine's tests can be several network addresses."""
        sock = socket.socket()
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", int((base or self.base).rsplit(":", 1)[1])))
        return self.socket(ws_path, base, sock=sock)


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


def eventually(check: Callable[[], T | None], what: str, seconds: float = 30.0) -> T:
    """``check()``'s first truthy answer, asked every 50 ms; fails after ``seconds`` (a bound
    for a stuck server, not a measure of a fast one)."""
    deadline = time.monotonic() + seconds
    while True:
        answer = check()
        if answer:
            return answer
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.05)


def next_message(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any]:
    """The next message that is not a ping (pings are answered)."""
    deadline = time.monotonic() + timeout
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "ping":
            ws.send(json.dumps({"type": "pong", "id": message["id"]}))
            continue
        return dict(message)


def says(ws: ClientConnection, text: str) -> str | None:
    """Send a chat line; None once the table shows it, else the error's code."""
    ws.send(json.dumps({"type": "chat", "text": text}))
    while True:
        message = next_message(ws, 10)
        if message["type"] == "chat" and message["entry"]["text"] == text:
            return None
        if message["type"] == "error":
            return str(message["code"])
