"""uvicorn's WebSocket protocol as ``asobiba serve`` runs it (``uvicorn.Config(ws=...)``).

uvicorn keeps its transport to itself, so an app cannot ask the kernel how long a round trip to
its client takes; and its sans-I/O protocol (the one ``ws="auto"`` picks with ``websockets``
installed) logs errors and tracebacks for ordinary events a client causes. This subclass
changes only that:

- ``scope["extensions"][KERNEL_ROUND_TRIP]`` = ``{"read": () -> seconds | None, "peer": (host,
  port)}``: the kernel's estimate for this TCP connection (``latency.kernel_round_trip``) and
  the socket's own peer, so the app can tell a player's socket from a proxy's (uvicorn's proxy
  headers rewrite ``scope["client"]``, not the peer).
- A frame the protocol refuses (over ``ws_max_size``, a text message that is not UTF-8, any
  other protocol error) closes the connection as before (1009, 1007, 1002) and logs one plain
  warning line, not a traceback; an app's send after that raises ``ClientDisconnected`` (an
  ``OSError``, which ASGI asks for on a closed connection and Starlette turns into
  ``WebSocketDisconnect``) instead of a ``RuntimeError`` the app could not tell from its own
  mistake.
- A denial response (``websocket.send_denial_response``) completes the handshake, so the app
  returning after it is not logged as "ASGI callable returned without completing handshake"
  (the fix proposed upstream in uvicorn pull request 3138).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Final

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from asobiba.server.limits import address_key
from asobiba.server.sockets.latency import kernel_round_trip

KERNEL_ROUND_TRIP: Final = "asobiba.kernel_round_trip"
"""The scope extension this protocol adds (see the module's docstring)."""

log = logging.getLogger(__name__)


class RoomSocketProtocol(WebSocketsSansIOProtocol):
    """``WebSocketsSansIOProtocol`` with the kernel's round trip in the scope and quiet closes."""

    async def run_asgi(self) -> None:
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            self.scope["extensions"][KERNEL_ROUND_TRIP] = {
                "read": partial(kernel_round_trip, sock),
                "peer": self.client,
            }
        await super().run_asgi()

    async def send(self, message: ASGISendEvent) -> None:
        if self.close_sent:
            raise ClientDisconnected  # the protocol closed it itself (a refused frame)
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            self.handshake_complete = True

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                # uvicorn closes just so, after logging the client's mistake as a traceback.
                self.frames = []
                self.conn.send_close(1007, "a text message that is not UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def handle_parser_exception(self) -> None:
        super().handle_parser_exception()
        assert self.conn.close_sent is not None
        host = address_key(self.client[0]) if self.client else "-"  # as the limits count it
        log.warning(
            '%s - "WebSocket %s" closed %d: %s',
            host,
            self.scope["path"] if self.handshake_complete else "(handshake)",
            self.conn.close_sent.code,
            self.conn.close_sent.reason,
        )
