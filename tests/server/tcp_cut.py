"""A TCP line that can be cut: a relay in front of real servers that, while cut, drops every
connection through it and refuses new ones, as a network partition would (the servers keep
running for the other tests). In front of several servers it is a round-robin load balancer
with no sticky sessions: each new connection goes to the next server that accepts it."""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class CuttableLine:
    def __init__(self, *targets: tuple[str, int]) -> None:
        self.targets = list(targets)
        self._next = 0
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._cut = threading.Event()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cut(self) -> None:
        """Drop every connection through the line; refuse new ones until ``mend``."""
        self._cut.set()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def mend(self) -> None:
        self._cut.clear()

    def close(self) -> None:
        self._stop.set()
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._cut.is_set():
                client.close()
                continue
            upstream = self._connect()
            if upstream is None:
                client.close()
                continue
            with self._lock:
                self._open |= {client, upstream}
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    def _connect(self) -> socket.socket | None:
        """A connection to the next target that accepts one (a dead server is skipped)."""
        for _ in self.targets:
            target = self.targets[self._next % len(self.targets)]
            self._next += 1
            try:
                upstream = socket.create_connection(target, timeout=5)
            except OSError:
                continue
            upstream.settimeout(None)
            return upstream
        return None

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        selector = selectors.DefaultSelector()
        selector.register(a, selectors.EVENT_READ, b)
        selector.register(b, selectors.EVENT_READ, a)
        try:
            while not self._cut.is_set():
                for key, _ in selector.select(timeout=0.2):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            selector.close()
            with self._lock:
                self._open -= {a, b}
            a.close()
            b.close()


@contextmanager
def cuttable(*targets: tuple[str, int]) -> Iterator[CuttableLine]:
    line = CuttableLine(*targets)
    line.start()
    try:
        yield line
    finally:
        line.close()
