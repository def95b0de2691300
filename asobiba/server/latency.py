"""How late a client's messages arrive: round trips measured by the server's own pings.

A real-time race (who grabbed first) is decided by when an action left the player, not when it
reached a busy server: the room dates an action at its arrival minus the sender's one-way delay.
The estimate never trusts the client's clock: the server times its pings and their pongs. It is
the smallest of the recent round trips, halved (queueing only ever adds delay), and capped at
``MAX_ONE_WAY_SECONDS``, which bounds what delaying pongs on purpose can gain a cheat.
"""

from __future__ import annotations

import time
from collections import deque

MAX_ONE_WAY_SECONDS = 0.1
"""The most an action is dated back: a line slower than a 200 ms round trip is not compensated
beyond it, and a client that holds back its pongs gains at most this much."""
SAMPLES = 8
"""Round trips kept: the estimate follows a line that got slower within ~16 s."""


class Latency:
    """One connection's pings in flight and recent round trips."""

    def __init__(self) -> None:
        self._sent: dict[int, float] = {}
        self._next = 0
        self.round_trips: deque[float] = deque(maxlen=SAMPLES)

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

    def one_way(self) -> float:
        """Seconds to date this client's actions back: 0 until a round trip is known."""
        if not self.round_trips:
            return 0.0
        return min(min(self.round_trips) / 2, MAX_ONE_WAY_SECONDS)
