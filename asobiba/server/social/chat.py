"""Table chat: plain text or a stamp, from a guest who may write, within limits.

The server adds nothing to a line but the writer's name and seat: no game data ever travels in
chat, so no card reaches a seat through it.
"""

from __future__ import annotations

import unicodedata

MAX_CHAT = 200
"""Characters a chat line may have after trimming."""
KEPT = 50
"""Lines a sync carries (the replay has them all)."""
STAMPS = ("hello", "nice", "thanks", "oops", "gg", "wait")
"""The stamps a player may send; the pages draw and name them."""
BURST = 5
"""Lines a guest may send at once at a table..."""
EVERY = 2.0
"""...then one per this many seconds (``Room.say``; spectators' lines also count against their
address and against all the table's spectators together, ``GuestLimits.spectator_*``)."""


class ChatRefused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_text(raw: object) -> str:
    """A chat line as kept: NFC, trimmed, line breaks and control characters made spaces.
    Raises ``ChatRefused``."""
    if not isinstance(raw, str):
        raise ChatRefused("bad_message", "'text' must be a string")
    text = unicodedata.normalize("NFC", raw)
    text = "".join(
        " " if unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp"} else ch for ch in text
    )
    text = " ".join(text.split())
    if not text:
        raise ChatRefused("chat_empty", "an empty message was not sent")
    if len(text) > MAX_CHAT:
        raise ChatRefused("chat_too_long", f"a message has at most {MAX_CHAT} characters")
    return text


def check_stamp(raw: object) -> str:
    if raw not in STAMPS:
        raise ChatRefused("bad_message", f"unknown stamp; known: {list(STAMPS)}")
    assert isinstance(raw, str)
    return raw
