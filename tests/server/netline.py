"""A slow line for tests: real kernel TCP between two network namespaces, each packet held for a
fixed delay on its way.

``tc qdisc ... netem delay`` would be the usual tool, but not every kernel has netem (this
machine's has not), while TUN devices are everywhere network namespaces are. So each namespace
gets a TUN device with one end of a point-to-point link, and a relay process (``python -m
tests.server.netline``) reads every packet leaving one device and writes it into the other
``one_way`` seconds later. The kernels at both ends see an ordinary link with that delay: their
own TCP round-trip estimates, acknowledgements and all, are what a real slow line gives.

Needs root (namespaces, ``/dev/net/tun``); run ``python -m tests.server.netline FD FD SECONDS``
only as ``delayed_line`` starts it.
"""

from __future__ import annotations

import ctypes
import fcntl
import heapq
import itertools
import os
import selectors
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

SERVER_IP = "10.231.0.1"
CLIENT_IP = "10.231.0.2"
_DEVICE = "asobiba0"
_CLONE_NEWNET = 0x40000000
_TUNSETIFF = 0x400454CA
_IFF_TUN = 0x0001
_IFF_NO_PI = 0x1000
_SPIN_SECONDS = 0.002
_names = itertools.count()

T = TypeVar("T")


def in_namespace(name: str, make: Callable[[], T]) -> T:
    """``make()`` run in network namespace ``name``. ``setns`` moves only the calling thread, so
    a short-lived thread does it; a socket or device it makes stays in that namespace."""
    made: list[T] = []
    failed: list[BaseException] = []

    def run() -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
        try:
            if libc.setns(fd, _CLONE_NEWNET) != 0:
                errno = ctypes.get_errno()
                raise OSError(errno, f"setns {name}: {os.strerror(errno)}")
            made.append(make())
        except BaseException as error:
            failed.append(error)
        finally:
            os.close(fd)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return made[0]


def _tun_device() -> int:
    fd = os.open("/dev/net/tun", os.O_RDWR)
    request = struct.pack("16sH", _DEVICE.encode(), _IFF_TUN | _IFF_NO_PI)
    fcntl.ioctl(fd, _TUNSETIFF, request)
    return fd


@dataclass(frozen=True)
class Line:
    """The two ends: the server's namespace (``SERVER_IP``) and the client's (``CLIENT_IP``)."""

    server_namespace: str
    client_namespace: str

    def listener(self) -> socket.socket:
        """A listening socket at ``SERVER_IP`` on a free port, in the server's namespace."""
        return in_namespace(self.server_namespace, lambda: socket.create_server((SERVER_IP, 0)))

    def connect(self, port: int) -> socket.socket:
        """A TCP socket from the client's namespace, connected to ``SERVER_IP:port``."""
        sock = in_namespace(self.client_namespace, socket.socket)
        sock.connect((SERVER_IP, port))
        return sock


@contextmanager
def delayed_line(one_way: float) -> Iterator[Line]:
    """Two fresh namespaces joined by a line with ``one_way`` seconds each way; all removed
    afterwards. Raises ``OSError`` or ``CalledProcessError`` where it cannot be made."""
    _remove_stale()
    stem = f"asobiba-{os.getpid()}-{next(_names)}"
    line = Line(f"{stem}-server", f"{stem}-client")
    made: list[str] = []
    relay: subprocess.Popen[bytes] | None = None
    try:
        for namespace in (line.server_namespace, line.client_namespace):
            subprocess.run(["ip", "netns", "add", namespace], check=True, capture_output=True)
            made.append(namespace)
        ends = (
            (line.server_namespace, SERVER_IP, CLIENT_IP),
            (line.client_namespace, CLIENT_IP, SERVER_IP),
        )
        devices = [in_namespace(namespace, _tun_device) for namespace, _, _ in ends]
        try:
            for namespace, address, peer in ends:
                for command in (
                    ["link", "set", "lo", "up"],
                    ["addr", "add", address, "peer", peer, "dev", _DEVICE],
                    ["link", "set", _DEVICE, "up"],
                ):
                    subprocess.run(
                        ["ip", "-n", namespace, *command], check=True, capture_output=True
                    )
            relay = subprocess.Popen(
                [sys.executable, "-m", "tests.server.netline", *map(str, devices), str(one_way)],
                pass_fds=devices,
                stdin=subprocess.PIPE,
                cwd=Path(__file__).resolve().parents[2],
            )
        finally:
            for fd in devices:
                os.close(fd)
        yield line
    finally:
        if relay is not None:
            assert relay.stdin is not None
            relay.stdin.close()  # the relay's signal to stop
            try:
                relay.wait(timeout=10)
            except subprocess.TimeoutExpired:
                relay.kill()
                relay.wait()
        for namespace in made:
            subprocess.run(["ip", "netns", "del", namespace], check=False, capture_output=True)


def _remove_stale() -> None:
    """Delete the namespaces of test runs that were killed before they could (their relays
    stop by themselves when the run's end of their stdin closes)."""
    listed = subprocess.run(["ip", "netns", "list"], check=True, capture_output=True, text=True)
    for name in (line.split()[0] for line in listed.stdout.splitlines() if line.strip()):
        parts = name.split("-")
        ours = len(parts) == 4 and parts[0] == "asobiba" and parts[1].isdigit()
        if ours and not os.path.exists(f"/proc/{parts[1]}"):
            subprocess.run(["ip", "netns", "del", name], check=False, capture_output=True)


def relay(first: int, second: int, one_way: float) -> None:
    """Move packets between two TUN devices, each ``one_way`` seconds after it was read, until
    standard input closes (the test is done, or gone)."""
    selector = selectors.DefaultSelector()
    selector.register(first, selectors.EVENT_READ, second)
    selector.register(second, selectors.EVENT_READ, first)
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, None)
    held: list[tuple[float, int, int, bytes]] = []  # (due, order, device to write, packet)
    order = itertools.count()
    while True:
        timeout = None if not held else held[0][0] - time.monotonic()
        if timeout is not None and timeout < _SPIN_SECONDS:
            timeout = 0.0  # epoll waits whole milliseconds, rounded up: poll until it is due
        for key, _ in selector.select(timeout):
            if key.data is None:
                if not os.read(key.fd, 1):
                    return
                continue
            packet = os.read(key.fd, 65536)
            heapq.heappush(held, (time.monotonic() + one_way, next(order), key.data, packet))
        now = time.monotonic()
        while held and held[0][0] <= now:
            _, _, device, packet = heapq.heappop(held)
            os.write(device, packet)


if __name__ == "__main__":
    relay(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]))
