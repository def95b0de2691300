"""The protocol every game keeps, and the errors it raises.

The server, the bots, the arena and the tests drive a game only through this surface, so a new
game plugs in by implementing it and adding a registry line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from asobiba.core.bots import Bot
from asobiba.core.errors import GameError, IllegalAction, InvalidOptions
from asobiba.core.options import OptionSpec

Action = dict[str, Any]
"""A JSON-safe move, e.g. ``{"pit": 2}``."""
Observation = dict[str, Any]
"""A JSON-safe view of a state: exactly what one seat (or a spectator) may know."""
Outcome = dict[str, Any]
"""A finished game's result: at least ``scores`` (one per seat) and ``winners`` (seat numbers)."""

S = TypeVar("S")


@dataclass(frozen=True)
class DesignedValue:
    """One row of a game's designed-values table (read from the game's one data file)."""

    name: dict[str, str]
    """``{"ja", "en"}``: what the value is for."""
    value: dict[str, str]
    """``{"ja", "en"}``: the value, in words."""
    source: str
    """"rulebook" or "designed"."""
    reason: dict[str, str]
    """``{"ja", "en"}``: one line on why."""


__all__ = [
    "Action",
    "DesignedValue",
    "Game",
    "GameError",
    "IllegalAction",
    "InvalidOptions",
    "Observation",
    "Outcome",
]


class Game(Protocol[S]):
    """What every game module exposes (see docs/ARCHITECTURE.md, "The game protocol")."""

    name: str
    min_seats: int
    max_seats: int
    levels: list[str]

    def options_spec(self) -> list[OptionSpec]: ...

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate ``options`` and fill in defaults; the result names one rule set exactly."""
        ...

    def new_state(self, options: Mapping[str, Any], seats: int, seed: int) -> S: ...

    def to_move(self, state: S) -> frozenset[int]: ...

    def legal_actions(self, state: S, seat: int) -> list[Action]: ...

    def apply(self, state: S, seat: int, action: Action, at: float | None = None) -> S: ...

    def observe(self, state: S, seat: int | None) -> Observation: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def deadline(self, state: S) -> float | None: ...

    def advance(self, state: S, at: float) -> S: ...

    def make_bot(self, level: str, seed: int) -> Bot: ...

    def level_names(self) -> dict[str, dict[str, str]]:
        """Display names of the bot levels: ``{level: {"ja": ..., "en": ...}}``."""
        ...

    def designed_values(self) -> list[DesignedValue]:
        """The values the rulebook leaves open and asobiba chose, as the rule page shows them."""
        ...
