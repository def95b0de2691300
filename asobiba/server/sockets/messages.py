"""The room socket's messages: parsing what clients send, building what each seat receives.

Socket handlers translate; they never judge a move. Every outgoing game payload is built from
``observe(state, seat)`` for the receiving seat (default-deny redaction at the send boundary).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from asobiba.server.rooms.errors import RoomError
from asobiba.server.settings import MAX_MESSAGE_BYTES

CLOSE_NOT_READING = 4408
"""Close code for a client whose unread messages filled its outbox."""
CLOSE_RATE_LIMITED = 4429
"""Close code for a client that sent faster than ``SocketLimits`` allow."""
CLOSE_TOO_MANY_SOCKETS = 4409
"""Close code for a socket past ``GuestLimits.sockets_per_seat`` or ``sockets_per_room``."""
CLOSE_SIGNED_OUT = 4401
"""Close code for a socket opened by an account's session that was signed out or revoked
(``sockets/signed.py``): it must not act for the account any more."""


@dataclass(frozen=True)
class Act:
    action: dict[str, Any]


@dataclass(frozen=True)
class Sync:
    pass


@dataclass(frozen=True)
class Pong:
    """The answer to the server's ``{"type": "ping", "id"}``: how the server times the line."""

    id: int


@dataclass(frozen=True)
class AskHint:
    """``{"type": "hint"}``: the best move now, for the asking seat only (``Room.hint``)."""


@dataclass(frozen=True)
class Say:
    """``{"type": "chat", "text": ...}`` or ``{"type": "chat", "stamp": key}``: a chat line to
    the table (``Room.say``)."""

    text: str | None = None
    stamp: str | None = None


@dataclass(frozen=True)
class Back:
    """``{"type": "back"}``: the sender is at the table again; a seat the stand-in plays because
    its person was idle is theirs again (``Room.back``)."""


ClientMessage = Act | Sync | Pong | AskHint | Say | Back


def parse_client_message(text: str) -> ClientMessage:
    """Parse one text frame; raise ``RoomError`` with a precise code for anything malformed."""
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise RoomError("too_large", f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise RoomError("bad_json", f"not JSON: {error}") from None
    except RecursionError:
        raise RoomError("bad_json", "not JSON this server reads: nested too deep") from None
    if not isinstance(data, dict):
        raise RoomError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if kind == "sync" and set(data) == {"type"}:
        return Sync()
    if kind == "hint" and set(data) == {"type"}:
        return AskHint()
    if kind == "back" and set(data) == {"type"}:
        return Back()
    if kind == "pong" and set(data) == {"type", "id"}:
        if type(data["id"]) is not int:
            raise RoomError("bad_message", "'id' must be the ping's integer id")
        return Pong(data["id"])
    if kind == "chat" and set(data) in ({"type", "text"}, {"type", "stamp"}):
        if not all(isinstance(data.get(key, ""), str) for key in ("text", "stamp")):
            raise RoomError("bad_message", "a chat line's 'text' or 'stamp' is a string")
        return Say(data.get("text"), data.get("stamp"))
    if kind == "act" and set(data) == {"type", "action"}:
        if not isinstance(data["action"], dict):
            raise RoomError("bad_message", "'action' must be an object")
        return Act(data["action"])
    raise RoomError(
        "bad_message",
        'expected {"type": "act", "action": {...}}, {"type": "sync"}, {"type": "hint"}, '
        '{"type": "chat", "text": "..."}, {"type": "back"} or {"type": "pong", "id": n}',
    )


def error_message(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def encode(message: dict[str, Any]) -> str:
    """A message as the text frame that carries it. orjson, not ``json``: every event goes out
    once per watcher, and the standard encoder was the socket path's largest cost after the
    send itself (docs/OPERATIONS.md, "Profile of one process under load"). Keys that are not
    strings are written as strings, as ``json`` does."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
