"""What a room refuses, and why: typed errors with stable codes the socket forwards."""

from __future__ import annotations


class RoomError(Exception):
    """A request the room refuses; ``code`` is stable and sent to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
