"""The room sockets this process serves for signed-in sessions, by session: a session signed
out or revoked (here, or on another process of the site: ``Switchboard.signed_out``) closes
its sockets at once, so a browser that lost the account stops acting for it, not only at its
next request."""

from __future__ import annotations

from typing import Protocol

from asobiba.server.sockets.messages import CLOSE_SIGNED_OUT


class Closable(Protocol):
    def end(self, code: int, reason: str) -> None: ...


class SignedSockets:
    def __init__(self) -> None:
        self._open: dict[str, set[Closable]] = {}

    def add(self, session: str, socket: Closable) -> None:
        self._open.setdefault(session, set()).add(socket)

    def discard(self, session: str, socket: Closable) -> None:
        sockets = self._open.get(session)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self._open[session]

    def end(self, session: str) -> int:
        """Close every socket of ``session`` (with ``CLOSE_SIGNED_OUT``); how many."""
        sockets = self._open.pop(session, set())
        for socket in sockets:
            socket.end(CLOSE_SIGNED_OUT, "signed out")
        return len(sockets)
