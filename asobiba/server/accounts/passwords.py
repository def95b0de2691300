"""Passwords: what one may be, and Argon2id hashes made and checked off the event loop.

Parameters (``HASHER``): Argon2id with m = 19 MiB (19456 KiB), t = 2, p = 1, a 16-byte salt
and a 32-byte hash: the first of the OWASP Password Storage Cheat Sheet's Argon2id
configurations, its minimum. One hash costs about 40 ms of one core and 19 MiB here: a
sign-in should not cost more, and a flood of them (past which the attempts' limits answer
429 anyway) must not take the memory of a small server. Raising them later is safe: a hash
made with older parameters is remade at the next sign-in (``Passwords.verify``,
``check_needs_rehash``).

Hashing runs in a pool of its own (``WORKERS`` threads; argon2-cffi releases the GIL), so
sign-ins never take the threads the store's reads run in, and at most that many hashes cost
memory at once.
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

MIN_CHARACTERS = 8
"""The shortest password taken (NIST SP 800-63B's minimum for a chosen one)."""
MAX_BYTES = 1024
"""The longest, in UTF-8 bytes: more is no safer, and hashing megabytes would be a cheap way
to cost the server."""
WORKERS = 2
"""Hashes made or checked at once."""

R = TypeVar("R")

HASHER = PasswordHasher(
    time_cost=2, memory_cost=19456, parallelism=1, hash_len=32, salt_len=16, type=Type.ID
)


class BadPassword(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def normal(raw: str) -> str:
    """The password as hashed: NFKC, so the same characters typed on any keyboard (a
    full-width "Ａ" in a Japanese input mode, accents composed or not) are the same password
    (NIST SP 800-63B asks for a normalisation). Raises ``BadPassword`` past ``MAX_BYTES``."""
    if len(raw.encode()) > MAX_BYTES:
        raise BadPassword("password_too_long", f"a password has at most {MAX_BYTES} bytes")
    return unicodedata.normalize("NFKC", raw)


def new_password(raw: str) -> str:
    """A password chosen for an account, as hashed. Raises ``BadPassword``."""
    text = normal(raw)
    if len(text) < MIN_CHARACTERS:
        message = f"a password has at least {MIN_CHARACTERS} characters"
        raise BadPassword("password_too_short", message)
    return text


@dataclass(frozen=True)
class Verdict:
    right: bool
    rehashed: str | None = None
    """A new hash of the right password, when the stored one was made with other parameters:
    the caller stores it."""


class Passwords:
    def __init__(self, hasher: PasswordHasher = HASHER, workers: int = WORKERS) -> None:
        self._hasher = hasher
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="argon2")
        self._dummy = hasher.hash(secrets.token_urlsafe(16))
        """A hash of a random password, made at start-up (not at the first unknown name, which
        would then take two hashes' time)."""

    async def hash(self, password: str) -> str:
        """The Argon2id hash of ``password`` (already ``new_password``'s)."""
        return await self._run(self._hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> Verdict:
        """Whether ``password`` is the one ``stored`` was made from. With no hash (the name is
        nobody's, or the account has passkeys only) a hash of a random password is checked
        instead, so an unknown name takes as long to refuse as a wrong password."""
        if stored is None:
            await self._run(self._check, self._dummy, password)
            return Verdict(False)
        if not await self._run(self._check, stored, password):
            return Verdict(False)
        if self._hasher.check_needs_rehash(stored):
            return Verdict(True, await self.hash(password))
        return Verdict(True)

    def _check(self, stored: str, password: str) -> bool:
        try:
            return self._hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    async def _run(self, work: Callable[..., R], *args: str) -> R:
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        """Stop the pool once the hashes it was given are made."""
        self._pool.shutdown()
