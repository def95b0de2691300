"""Mokochaka's state and the pure helpers the referee (rules.py) and the course (lessons.py)
share: the whole truth of a game as a frozen value, the public events it keeps, and what the
piles allow (where a card may go, which piles a token winner may take)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from asobiba.games.mokochaka import data
from asobiba.games.mokochaka.cards import ANIMALS, COUNTS, Card
from asobiba.games.mokochaka.data import NUMBERS

Event = tuple[tuple[str, Any], ...]
"""A public event as sorted ``(field, value)`` pairs (tuples for lists), to keep states frozen."""


@dataclass(frozen=True, slots=True)
class Said:
    """A call or a grab (a grab carries its call) made in the current call phase."""

    seat: int
    word: str
    at: float
    grab: bool
    order: int
    """Arrival order in this phase: breaks ties between equal times."""


@dataclass(frozen=True, slots=True)
class Step:
    """Something still owed after a call phase is settled: a token bonus or a penalty."""

    kind: str
    """"take" (the token winner chooses piles) or "give" (a penalized player pays)."""
    seat: int
    reason: str
    """For "take" the special word that won; for "give" the penalty reason."""


@dataclass(frozen=True, slots=True)
class MokochakaState:
    """The whole truth of a game, hidden cards included; only ``observe`` may show it."""

    options: tuple[tuple[str, Any], ...]
    seats: int
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's face-down hand, top card first."""
    piles: tuple[tuple[Card, ...], ...]
    """The play area's pile slots, each bottom card first (the last card shows); may be empty."""
    start_player: int
    turn: int
    """The seat whose turn it is (the flipper, or who flips next)."""
    phase: str
    since: float | None
    """When the current phase began (the flip time in the call phase); None before any action."""
    now: float | None
    """The latest time seen; None before any action."""
    said: tuple[Said, ...] = ()
    window_end: float | None = None
    steps: tuple[Step, ...] = ()
    resume: int = 0
    """Who flips once the owed steps are done."""
    fastest: tuple[float | None, ...] = ()
    events: tuple[Event, ...] = ()
    serial: int = 0
    """How many events ever happened (the last one's number)."""
    flips: int = 0


def make_event(kind: str, serial: int, fields: Mapping[str, Any]) -> Event:
    items: dict[str, Any] = {"type": kind, "n": serial}
    for key, value in fields.items():
        items[key] = tuple(value) if isinstance(value, list) else value
    return tuple(sorted(items.items()))


def event_json(event: Event) -> dict[str, Any]:
    return {key: list(value) if isinstance(value, tuple) else value for key, value in event}


def showing(piles: tuple[tuple[Card, ...], ...] | list[list[Card]]) -> list[Card]:
    """The cards showing on the piles (each non-empty pile's last card), in pile order."""
    return [pile[-1] for pile in piles if pile]


def take_choices(
    piles: tuple[tuple[Card, ...], ...] | list[list[Card]], seats: int
) -> list[tuple[int, ...]]:
    """The pile sets a token winner may take; one set (every pile) when there are no more."""
    present = [i for i, pile in enumerate(piles) if pile]
    count = NUMBERS.take(seats)
    if len(present) <= count:
        return [tuple(present)]
    return list(combinations(present, count))


def flip_choices(piles: tuple[tuple[Card, ...], ...]) -> list[int]:
    """Where the flipper may put the card: the first empty slot while one exists, else any."""
    empty = [i for i, pile in enumerate(piles) if not pile]
    return empty[:1] if empty else list(range(len(piles)))


def new_deck() -> list[Card]:
    """All 32 cards, in a fixed order (animal, then count)."""
    return [
        Card(animal, count)
        for animal in ANIMALS
        for count, cards in zip(COUNTS, data.FACES[animal], strict=True)
        for _ in range(cards)
    ]
