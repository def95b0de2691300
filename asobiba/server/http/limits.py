"""Rate limits keyed by who asks: token buckets that say how long to wait when empty.

Kept per process, in memory: a limit is a defence against a flood, not an account, so losing the
buckets on a restart costs nothing. The table of keys is pruned of full buckets, so a flood of
fresh keys (a new cookie per request) cannot grow it without bound.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass


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


@dataclass
class _Bucket:
    tokens: float
    checked: float


class RateLimit:
    """``burst`` at once per key, then ``per_minute`` a minute on average."""

    PRUNE_AT = 10_000
    """Keys kept before full buckets (keys that have waited long enough) are forgotten."""

    def __init__(self, burst: int, per_minute: float) -> None:
        self.burst = burst
        self.per_second = per_minute / 60.0
        self._buckets: dict[str, _Bucket] = {}

    def _refill(self, key: str, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.checked) * self.per_second)
        bucket.checked = now
        return bucket

    def wait(self, key: str) -> int:
        """Seconds ``key`` must wait before it may go (0: it may now), without taking."""
        bucket = self._refill(key, time.monotonic())
        if bucket.tokens >= 1:
            return 0
        return max(1, math.ceil((1 - bucket.tokens) / self.per_second))

    def take(self, key: str) -> None:
        """Spend one of ``key``'s tokens (call after ``wait`` said 0)."""
        self._refill(key, time.monotonic()).tokens -= 1

    def _prune(self, now: float) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.checked) * self.per_second >= self.burst:
                del self._buckets[key]
