"""How late a client's actions arrive, measured where the client cannot fake it.

A real-time race (who grabbed first) is decided by each player's reaction: from when the card
reached them to when their action left them. The server sees neither moment, only when it wrote
the card and when the action arrived, so it dates an action back by the whole round trip:

    arrival = written + down + reaction + up,  so  arrival - round_trip = written + reaction.

So dated, an action lies after the moment the server wrote what the player saw by exactly
their reaction, as a bot's does (the room times a bot from when it asked it, right after handing
the event to every socket). Dating back by half the round trip would leave one leg in every
reaction: a player on a 60 ms line would be recorded 60 ms slower than they were. Recording when
each event went out to each connection and subtracting gives the same reaction (arrival - sent -
round trip), but the room wants a time, and the socket cannot know which event the player
reacted to; dating back gives that time without guessing. ``Room.act`` takes it as a wall-clock
``at``.

Where the round trip comes from decides what a cheat can gain by delaying:

- The kernel's TCP estimate of the socket the server holds (``getsockopt(TCP_INFO)``): its
  samples are the client kernel's acknowledgements, which a page or a script cannot hold back,
  so delaying pongs buys nothing at all. The smallest estimate seen is kept: queueing and
  delayed acknowledgements only ever add to a sample. ``RoomSocketProtocol``
  (``sockets/uvicorn_protocol.py``) hands the reader to the app; the socket uses it only when the
  socket's peer is the player (not a proxy: uvicorn's proxy headers named another client).
- Otherwise (a proxy in front, Starlette's TestClient, a system without ``TCP_INFO``), the
  server's own pings, timed from when each ping was written to when its pong arrived: the
  smallest recent round trip, trusted only up to ``MAX_PING_ROUND_TRIP_SECONDS``, because the
  client answers those pings itself and may answer late on purpose.

The client's clock is never read.
"""

from __future__ import annotations

import socket
import struct
import time
from collections import deque
from collections.abc import Callable

MAX_ROUND_TRIP_SECONDS = 0.2
"""The most an action is dated back: a line slower than a 200 ms round trip (100 ms each way) is
compensated up to it and no further. It also bounds what a client could gain by holding back
its own TCP acknowledgements (which takes control of its kernel's TCP, not of a page)."""
MAX_PING_ROUND_TRIP_SECONDS = 0.005
"""The most an action is dated back when only the app's pings time the line: the most holding
back pongs can ever buy. With the kernel's estimate pongs are not used, and buy nothing."""
SAMPLES = 8
"""Ping round trips kept: the estimate follows a line that got slower within ~16 s."""

_TCPI_RTT = 68
"""Offset of ``__u32 tcpi_rtt`` in linux/tcp.h's ``struct tcp_info``: the smoothed round trip,
in microseconds, 0 before the first sample."""
_TCPI_MIN_RTT = 148
"""Offset of ``__u32 tcpi_min_rtt``: the smallest round trip of the last 5 minutes
(``net.ipv4.tcp_min_rtt_wlen``), in microseconds, ``~0`` before the first sample. Older kernels'
structs end before it; the length ``getsockopt`` returns tells."""
_NO_SAMPLE = 0xFFFFFFFF
_TCP_INFO_BYTES = 256
"""Bytes asked for: more than both offsets need; the kernel fills what its struct has."""
_U32 = struct.Struct("=I")


def tcp_info_round_trip(info: bytes) -> float | None:
    """Seconds of round trip from a ``struct tcp_info`` as ``getsockopt`` returned it: its
    minimum where the struct has one, else the smoothed round trip; None before any sample."""
    if len(info) >= _TCPI_MIN_RTT + _U32.size:
        (micros,) = _U32.unpack_from(info, _TCPI_MIN_RTT)
    elif len(info) >= _TCPI_RTT + _U32.size:
        (micros,) = _U32.unpack_from(info, _TCPI_RTT)
    else:
        return None
    if micros in (0, _NO_SAMPLE):
        return None
    return micros / 1_000_000


def kernel_round_trip(sock: socket.socket) -> float | None:
    """The kernel's round-trip estimate of a TCP socket; None where there is none (not Linux,
    not TCP, closed)."""
    option = getattr(socket, "TCP_INFO", None)
    if option is None:
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, option, _TCP_INFO_BYTES)
    except OSError:
        return None
    return tcp_info_round_trip(info)


class Latency:
    """One connection's round trip: the kernel's estimate when ``kernel`` reads one, else the
    server's pings in flight and their recent round trips."""

    def __init__(self, kernel: Callable[[], float | None] | None = None) -> None:
        self._kernel = kernel
        self._kernel_best: float | None = None
        self._sent: dict[int, float] = {}
        self._next = 0
        self.round_trips: deque[float] = deque(maxlen=SAMPLES)
        self._read_kernel()  # the handshake's sample, before any delayed acknowledgement

    @property
    def needs_pings(self) -> bool:
        """Whether the server's pings time this line (no kernel estimate to read): with one,
        pings would only cost two messages a socket every few seconds (uvicorn's own protocol
        pings still find dead sockets)."""
        return self._kernel is None

    def ping(self) -> int:
        """A new ping id, timed from now (call it as the ping is written to the socket)."""
        self._next += 1
        self._sent[self._next] = time.monotonic()
        while len(self._sent) > SAMPLES:  # pongs never answered
            del self._sent[min(self._sent)]
        return self._next

    def pong(self, ping_id: int) -> None:
        """Record the round trip of ``ping_id``; unknown or repeated ids are ignored."""
        sent = self._sent.pop(ping_id, None)
        if sent is not None:
            self.round_trips.append(time.monotonic() - sent)

    def round_trip(self) -> float:
        """Seconds to date this client's action back (see the module's docstring): 0 until a
        round trip is known."""
        self._read_kernel()
        if self._kernel_best is not None:
            return min(self._kernel_best, MAX_ROUND_TRIP_SECONDS)
        if not self.round_trips:
            return 0.0
        return min(min(self.round_trips), MAX_PING_ROUND_TRIP_SECONDS)

    def _read_kernel(self) -> None:
        seen = None if self._kernel is None else self._kernel()
        if seen is not None and (self._kernel_best is None or seen < self._kernel_best):
            self._kernel_best = seen
