"""The per-key rate limit and what counts as one network address."""

from __future__ import annotations

from asobiba.server.limits import RateLimit, address_key


def test_an_ipv6_client_is_one_address_per_64_and_a_mapped_ipv4_is_its_ipv4() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7" == address_key("203.0.113.7")
    assert address_key("testclient") == "testclient"


def test_a_bucket_gives_its_burst_then_says_how_long_to_wait() -> None:
    limit = RateLimit(burst=2, per_minute=6)
    for _ in range(2):
        assert limit.wait("k") == 0
        limit.take("k")
    assert 1 <= limit.wait("k") <= 10
    assert limit.wait("other") == 0, "each key has its own bucket"
