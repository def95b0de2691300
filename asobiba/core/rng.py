"""Keyed random streams: deals and bot choices nobody can work out from what they see.

A room's seed is secret and 256 bits wide. Mersenne Twister seeded with a small number is not
enough: a player who knows the code can try every seed until one deals the hand they hold, and
then knows every hidden card. Here every number comes from BLAKE2b keyed with the seed, in
counter mode, so seeing any amount of output tells nothing about the seed or the rest of the
stream. Each purpose draws from its own stream, named by a label (``deal/3``, a bot's view of a
position), so one stream's output says nothing about another's either.

A stream is a :class:`random.Random`, so ``shuffle``, ``choice``, ``randrange``, ``gauss``...
work as usual, and the same seed and label give the same numbers on every machine and in every
process, as replays need.

Rooms stored before this change were dealt by Mersenne Twister from a 31-bit seed; the store
hands their seeds over as :class:`LegacySeed`, and :func:`deal_rng` deals them as before.
"""

from __future__ import annotations

import json
import random
import secrets
from hashlib import blake2b
from typing import Any

SEED_BITS = 256
"""The width of a room's seed: far beyond any search over seeds."""

_BLOCK_BITS = blake2b().digest_size * 8
_STREAM = b"asobiba.stream"
_DERIVE = b"asobiba.derive"
_WIDE = b"asobiba.wide"
_VIEW = b"asobiba.view"
_STATE_VERSION = "asobiba.rng/1"


def new_seed() -> int:
    """A fresh secret seed of ``SEED_BITS`` bits from the operating system's randomness."""
    return secrets.randbits(SEED_BITS)


def is_seed(value: object) -> bool:
    """Whether ``value`` may seed a game: an int (a :class:`LegacySeed` too), not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


class LegacySeed(int):
    """The seed of a room stored before keyed streams, whose deals came from Mersenne Twister.

    Games pass it to :func:`deal_rng`, which deals it exactly as before, so old rooms still
    replay. It behaves as the int it holds (``str`` and f-strings give the digits, so old
    generator keys come out the same); only arithmetic on it gives a plain int, which deals
    with the keyed stream.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"LegacySeed({int(self)})"

    def __str__(self) -> str:
        return int.__repr__(self)


def _key(seed: int) -> bytes:
    """The BLAKE2b key of ``seed``: its minimal two's-complement bytes (different ints give
    different keys), hashed down to 64 bytes when wider than BLAKE2b takes."""
    if not isinstance(seed, int):
        raise TypeError(f"a seed must be an int, got {seed!r}")
    raw = seed.to_bytes(seed.bit_length() // 8 + 1, "little", signed=True)
    if len(raw) <= blake2b.MAX_KEY_SIZE:
        return raw
    return blake2b(raw, person=_WIDE).digest()


def _labelled(key: bytes, person: bytes, label: str) -> blake2b:
    """BLAKE2b keyed with ``key`` that has read ``label``, its length first (so no label is the
    start of another's input)."""
    data = label.encode()
    h = blake2b(key=key, person=person)
    h.update(len(data).to_bytes(8, "little"))
    h.update(data)
    return h


class KeyedStream(random.Random):
    """A :class:`random.Random` whose bits are BLAKE2b(key, label, block counter) blocks.

    Overriding ``getrandbits`` makes ``random.Random`` draw integers (``randrange``,
    ``shuffle``, ``choice``, ``sample``) from it, and ``random`` (53 bits, as CPython's) feeds
    the float methods; Mersenne Twister is never used. Bits are taken from a 512-bit block at a
    time, so a shuffle of 90 cards hashes a handful of blocks. Make one with :func:`stream`.
    """

    def __init__(self, key: bytes, label: str) -> None:
        self._start(key, label, 0, 0, 0)
        self.gauss_next: float | None = None

    def _start(self, key: bytes, label: str, counter: int, bits: int, left: int) -> None:
        self._key = key
        self._label = label
        self._prefix = _labelled(key, _STREAM, label)
        self._counter = counter
        # Drawn but not yet used: ``left`` bits, handed out from the low end.
        self._bits = bits
        self._left = left

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        while self._left < k:
            block = self._prefix.copy()
            block.update(self._counter.to_bytes(8, "little"))
            self._counter += 1
            self._bits |= int.from_bytes(block.digest(), "little") << self._left
            self._left += _BLOCK_BITS
        out = self._bits & ((1 << k) - 1)
        self._bits >>= k
        self._left -= k
        return out

    def random(self) -> float:
        return self.getrandbits(53) * 2.0**-53

    def seed(self, a: Any = None, version: int = 2) -> None:
        raise TypeError("a keyed stream cannot be reseeded: make another with stream(seed, label)")

    def getstate(self) -> tuple[Any, ...]:
        """Where the stream stands (its key included), for ``setstate``, copies and pickles."""
        return (
            _STATE_VERSION,
            self._key,
            self._label,
            self._counter,
            self._bits,
            self._left,
            self.gauss_next,
        )

    def setstate(self, state: tuple[Any, ...]) -> None:
        if not state or state[0] != _STATE_VERSION:
            raise ValueError("not the state of a keyed stream")
        _, key, label, counter, bits, left, gauss_next = state
        self._start(key, label, counter, bits, left)
        self.gauss_next = gauss_next

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._key, self._label), self.getstate())


def stream(seed: int, label: str) -> KeyedStream:
    """The generator of ``label`` (what it is for: ``deal/1``, ``random-bot``...) under
    ``seed``: the same numbers for the same pair everywhere, unrelated ones for another label
    or seed, and nothing in them gives the seed away."""
    return KeyedStream(_key(seed), label)


def seed_of(data: Any) -> int:
    """A ``SEED_BITS``-wide seed that is a function of JSON-safe ``data`` alone (its canonical
    JSON, keys sorted): a card game's analysis seeds its sampling of the hidden cards with the
    seat's view, so the same view gets the same advice whatever the hidden cards are."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = blake2b(text.encode(), person=_VIEW).digest()
    return int.from_bytes(digest[: SEED_BITS // 8], "little")


def derive(seed: int, label: str) -> int:
    """A new ``SEED_BITS``-wide seed for ``label`` under ``seed`` (a bot's, from the room's).
    It is one-way: whoever holds the derived seed, or anything drawn with it, learns nothing
    of ``seed``."""
    digest = _labelled(_key(seed), _DERIVE, label)
    return int.from_bytes(digest.digest()[: SEED_BITS // 8], "little")


def deal_rng(seed: int, label: str, legacy_key: int | str) -> random.Random:
    """The generator a game deals with: ``stream(seed, label)``, or for a :class:`LegacySeed`
    the Mersenne Twister the game used before, ``random.Random(legacy_key)``, so a stored room
    deals exactly as it always has."""
    if isinstance(seed, LegacySeed):
        return random.Random(legacy_key)
    return stream(seed, label)
