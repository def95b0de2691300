"""Refusing a request past a rate limit: 429 with ``Retry-After``, nothing done."""

from __future__ import annotations

from fastapi import HTTPException, Request

from asobiba.server.limits import RateLimit, client_address, spend
from asobiba.server.metrics import count_refusal


def throttle(
    request: Request,
    person: str,
    limits: tuple[RateLimit, RateLimit],
    code: str,
    what: str,
) -> None:
    """Count one request against the guest and its network address (``limits``: per guest, per
    address; a new cookie makes a new guest, the address stays), or refuse it: 429 ``code`` with
    ``Retry-After`` (whole seconds until both would let one more through)."""
    by_guest, by_address = limits
    wait = spend((by_guest, person), (by_address, client_address(request)))
    if wait:
        count_refusal(code.removeprefix("too_many_"))
        raise HTTPException(
            429,
            detail={"code": code, "message": f"too many {what} at once; try again in {wait} s"},
            headers={"Retry-After": str(wait)},
        )
