"""A table between people: its seats as the host set them, its settings and its short code.

A table is a room (``server/rooms/room.py``) that waits for people before its game starts; this
module holds what the host chooses and checks it, so the room and the API share one reading.
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from typing import Any

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Letters and digits nobody mistakes for another when reading a code aloud (no I/1, O/0)."""
CODE_LENGTH = 6
"""32^6, about a billion codes: a guessed code finds a table about never while few are open."""
MOVE_SECONDS = (5.0, 600.0)
"""The fewest and most seconds a move may be given on the turn clock."""
RESERVE_SECONDS = (0.0, 3600.0)


class InvalidTable(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass(frozen=True)
class TurnClockSetting:
    """Per move, then a reserve for the whole game (time past ``move`` comes off it)."""

    move: float
    reserve: float

    def to_json(self) -> dict[str, float]:
        return {"move": self.move, "reserve": self.reserve}


@dataclass(frozen=True)
class TableSettings:
    """What the host chose beyond the rules: stored with the room (``rooms.settings``)."""

    standin: str
    """The level of the bot that plays for an absent (or out-of-time) person."""
    clock: TurnClockSetting | None = None
    spectator_chat: bool = False
    started_at: float | None = None
    """The game time the game started at (the first turn's clock counts from it)."""
    people: int | None = None
    """How many seats people took when the game started (``core.game.first_state``); None: a
    table started before the games were told, replayed as it was played (as by bots)."""
    paired: bool = False
    """Made by "Play someone now" (``server/pairing/``): nobody hosts it, and its people look
    for someone again after it rather than set a table."""
    rated: bool = True
    """Its game changes its people's ratings (``server/store/ratings.py``); a casual table's
    changes nothing. A table stored before the setting existed is rated, the default."""

    def started(self, at: float, seats: list[dict[str, Any]]) -> TableSettings:
        """These settings for a game starting at game time ``at`` on its final ``seats``."""
        people = sum("player" in spec for spec in seats)
        return dataclasses.replace(self, started_at=at, people=people)

    def to_json(self) -> dict[str, Any]:
        return {
            "standin": self.standin,
            "clock": None if self.clock is None else self.clock.to_json(),
            "spectator_chat": self.spectator_chat,
            "started_at": self.started_at,
            "people": self.people,
            "paired": self.paired,
            "rated": self.rated,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        clock = data.get("clock")
        return cls(
            standin=data["standin"],
            clock=None if clock is None else TurnClockSetting(clock["move"], clock["reserve"]),
            spectator_chat=bool(data.get("spectator_chat")),
            started_at=data.get("started_at"),
            people=data.get("people"),
            paired=bool(data.get("paired")),
            rated=bool(data.get("rated", True)),
        )


def check_clock(clock: dict[str, Any] | None) -> TurnClockSetting | None:
    if clock is None:
        return None
    move, reserve = clock.get("move"), clock.get("reserve")
    if set(clock) != {"move", "reserve"} or not all(
        isinstance(v, int | float) and not isinstance(v, bool) for v in (move, reserve)
    ):
        raise InvalidTable("invalid_clock", 'a clock is {"move": seconds, "reserve": seconds}')
    assert isinstance(move, int | float) and isinstance(reserve, int | float)
    if not MOVE_SECONDS[0] <= move <= MOVE_SECONDS[1]:
        raise InvalidTable("invalid_clock", f"a move may have {MOVE_SECONDS} seconds")
    if not RESERVE_SECONDS[0] <= reserve <= RESERVE_SECONDS[1]:
        raise InvalidTable("invalid_clock", f"a reserve may have {RESERVE_SECONDS} seconds")
    return TurnClockSetting(float(move), float(reserve))


def seat_table(
    kinds: list[dict[str, Any]],
    host: str,
    host_name: str,
    levels: list[str],
    seat_counts: tuple[int, int],
) -> tuple[list[dict[str, Any]], int]:
    """The stored seats for the host's choice (``{"kind": "me" | "open" | "bot", "level"?}``
    per seat) and the host's seat. Raises ``InvalidTable``."""
    fewest, most = seat_counts
    if not fewest <= len(kinds) <= most:
        span = f"{fewest}" if fewest == most else f"{fewest} to {most}"
        raise InvalidTable("invalid_seats", f"this game seats {span}, not {len(kinds)}")
    mine = [k for k, kind in enumerate(kinds) if kind["kind"] == "me"]
    if len(mine) != 1:
        raise InvalidTable("invalid_seats", 'exactly one seat is {"kind": "me"}')
    if any(kind["kind"] != "bot" and kind.get("level") is not None for kind in kinds):
        raise InvalidTable("invalid_seats", "only a bot's seat has a level")
    seats: list[dict[str, Any]] = []
    for kind in kinds:
        if kind["kind"] == "me":
            seats.append({"player": host, "name": host_name})
        elif kind["kind"] == "open":
            seats.append({"open": True})
        else:
            level = kind.get("level")
            if level not in levels:
                raise InvalidTable("invalid_level", f"unknown level {level!r}; known: {levels}")
            seats.append({"bot": level})
    return seats, mine[0]
