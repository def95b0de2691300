"""Table chat: plain text or a stamp, from a guest who may write, within limits.

The server adds nothing to a line but the writer's name and seat: no game data ever travels in
chat, so no card reaches a seat through it.
"""

from __future__ import annotations

import time
import unicodedata

MAX_CHAT = 200
"""Characters a chat line may have after trimming."""
KEPT = 50
"""Lines a sync carries (the replay has them all)."""
STAMPS = ("hello", "nice", "thanks", "oops", "gg", "wait")
"""The stamps a player may send; the pages draw and name them."""
BURST = 5
"""Lines a guest may send at once..."""
EVERY = 2.0
"""...then one per this many seconds."""


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


class ChatLimiter:
    """``BURST`` lines at once per guest, then one per ``EVERY`` seconds (per room)."""

    def __init__(self, burst: int = BURST, every: float = EVERY) -> None:
        self.burst = burst
        self.every = every
        self._tokens: dict[str, tuple[float, float]] = {}

    def take(self, player: str) -> None:
        """Spend one line or raise ``ChatRefused("chat_rate_limited")``."""
        now = time.monotonic()
        tokens, checked = self._tokens.get(player, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - checked) / self.every)
        if tokens < 1:
            wait = (1 - tokens) * self.every
            raise ChatRefused("chat_rate_limited", f"too many messages; wait {wait:.0f} s")
        self._tokens[player] = (tokens - 1, now)
