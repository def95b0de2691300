"""Limits on what one client may cost: token buckets (one, or one per key), what counts as one
network address, and a cap on what one key holds open. Every layer uses them (the HTTP routes,
the sockets, a room's chat), so they live beside ``settings.py``, below all of them.

Kept per process, in memory: a limit is a defence against a flood, not an account, so losing the
buckets on a restart costs nothing. The table of keys is pruned of full buckets, so a flood of
fresh keys (a new cookie per request) cannot grow it without bound.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter

from starlette.requests import HTTPConnection


def address_key(host: str) -> str:
    """What one network address is, for a limit: an IPv4 address, or an IPv6 /64 (one customer's
    network: a client may hold billions of its addresses)."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def client_address(connection: HTTPConnection) -> str:
    """The ``address_key`` of whoever sent a request or opened a socket."""
    return address_key(connection.client.host if connection.client is not None else "unknown")


class TokenBucket:
    """``burst`` at once, then ``per_second`` on average."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = float(burst)
        self.checked = time.monotonic()

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.checked) * self.per_second)
        self.checked = now

    def full(self, now: float) -> bool:
        """Whether it has waited long enough to hold its whole burst again (a forgettable key)."""
        return self.tokens + (now - self.checked) * self.per_second >= self.burst

    def wait(self) -> float:
        """Seconds until one may go (0: one may now), without taking."""
        self._refill(time.monotonic())
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.per_second

    def take(self) -> bool:
        """Spend one if there is one; whether there was."""
        if self.wait():
            return False
        self.tokens -= 1
        return True


class RateLimit:
    """``burst`` at once per key, then ``per_minute`` a minute on average."""

    PRUNE_AT = 10_000
    """Keys kept before full buckets (keys that have waited long enough) are forgotten."""

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst = burst
        self.per_second = per_minute / 60.0
        self._buckets: dict[str, TokenBucket] = {}

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.PRUNE_AT:
                self._prune()
            bucket = self._buckets[key] = TokenBucket(self.per_second, self.burst)
        return bucket

    def wait(self, key: str) -> int:
        """Whole seconds ``key`` must wait before it may go (0: it may now), without taking."""
        return math.ceil(self._bucket(key).wait())

    def take(self, key: str) -> None:
        """Spend one of ``key``'s tokens (call after ``wait`` said 0)."""
        self._bucket(key).tokens -= 1

    def _prune(self) -> None:
        now = time.monotonic()
        for key, bucket in list(self._buckets.items()):
            if bucket.full(now):
                del self._buckets[key]


def spend(*asks: tuple[RateLimit, str]) -> int:
    """Take one token from each ``(limit, key)``, or none at all: the seconds to wait before all
    of them would give one (0: taken). A request refused by one limit costs no other."""
    wait = max((limit.wait(key) for limit, key in asks), default=0)
    if not wait:
        for limit, key in asks:
            limit.take(key)
    return wait


class OpenCap:
    """At most ``most`` things (sockets) open at once per key."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._open: Counter[str] = Counter()

    def open(self, key: str) -> bool:
        """Count one more for ``key``, or refuse (False) when it holds ``most`` already."""
        if self._open[key] >= self.most:
            return False
        self._open[key] += 1
        return True

    def close(self, key: str) -> None:
        """One that ``open`` counted has closed."""
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]
