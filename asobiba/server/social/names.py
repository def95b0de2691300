"""Guests' display names: what a person is called at a table, in chat and in replays.

A name is data, never markup: it is stored as typed (normalised) and every page sets it as text.
"""

from __future__ import annotations

import hashlib
import unicodedata

MAX_NAME = 16
"""Characters a name may have (after trimming): enough for a nickname, short on a phone."""


class InvalidName(ValueError):
    """A name that cannot be shown: empty, too long, or holding control characters."""


def clean_name(raw: object) -> str:
    """The name as shown: NFC, trimmed, inner runs of spaces made one. Raises ``InvalidName``.

    >>> clean_name("  Aki   Sato ")
    'Aki Sato'
    """
    if not isinstance(raw, str):
        raise InvalidName("a name is a string")
    text = unicodedata.normalize("NFC", raw)
    # Control and format characters (newlines, bidi overrides, zero-width joiners) could make a
    # name look like another's or break a line; a name never needs them.
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"} for ch in text):
        raise InvalidName("a name may not hold control or invisible characters")
    name = " ".join(text.split())
    if not name:
        raise InvalidName("a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise InvalidName(f"a name has at most {MAX_NAME} characters")
    return name


def default_name(player_id: str) -> str:
    """What a guest who never chose a name is called: the same for them at every table, and
    says nothing of their id."""
    digits = int(hashlib.sha256(player_id.encode()).hexdigest(), 16) % 10000
    return f"Guest {digits:04d}"
