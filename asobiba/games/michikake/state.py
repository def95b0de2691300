"""The state of a MICHIKAKE session and the small pure facts read from it.

Everything here is immutable; ``evolve`` is the one way a new state is made from an old one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from asobiba.games.michikake.cards import Card, is_two_sets
from asobiba.games.michikake.data import MAX_STEALS, STEAL_COSTS

DISCARD = "discard"
"""Phase: the seat whose turn it is holds six cards and must discard (or win on its draw)."""
CLAIM = "claim"
"""Phase: a claim window is open on the last discard."""
BREAK = "break"
"""Phase: a deal has ended and the next waits until every seat is ready or ``resume_at``."""
OVER = "over"
"""Phase: the session has ended."""

ANSWERS = ("pass", "win", "steal")


@dataclass(frozen=True, slots=True)
class Window:
    """An open claim window on one discard."""

    discarder: int
    card: Card
    closes_at: float
    answers: tuple[tuple[int, str], ...] = ()
    """``(seat, "pass" | "win" | "steal")`` sorted by seat; secret until the window closes."""


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening of the last transition; ``secret`` only ``seat`` may see."""

    kind: str
    """"deal", "draw", "discard", "steal", "win", "exhausted", "end"."""
    data: str
    """The public fields, as compact JSON (kept as text so the state stays immutable)."""
    seat: int | None = None
    secret: str | None = None
    """The drawn card, shown only in ``seat``'s own observation."""


@dataclass(frozen=True, slots=True)
class MichikakeState:
    """The whole truth of a session. Only ``observe`` reads it for the players."""

    players: int
    options: tuple[tuple[str, Any], ...]
    seed: int
    points: tuple[int, ...]
    deal: int
    """Index of the current deal (0 first); crests move one seat each deal."""
    passes: int
    """How many times the deal has passed to the next seat; the session ends at ``players``."""
    dealer: int
    crests: tuple[str, ...]
    bonus: tuple[str, ...]
    """Each seat's face-down bonus card (an id from data.toml)."""
    pile: tuple[Card, ...]
    """The draw pile; the next card drawn is ``pile[0]``."""
    aside: tuple[Card, ...]
    """Cards set aside unseen by the ``short_pile`` test option (empty in the real game)."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards in canonical order, shown ones included (5, or 6 while discarding)."""
    shown: tuple[tuple[Card, ...], ...]
    """The cards each seat has shown by stealing and still holds."""
    discards: tuple[tuple[tuple[Card, int | None], ...], ...]
    """Each seat's discard row: ``(card, seat that took it or None)``, oldest first."""
    barred: tuple[frozenset[Card], ...]
    """The distinct cards in each seat's discard row: what it may never take from a discard."""
    steals: tuple[int, ...]
    """Steals each seat made this deal."""
    turn: int
    """The seat whose turn it is (the discarder while a window is open)."""
    phase: str
    drawn: Card | None
    """The card the seat to move just drew (None after a steal)."""
    window: Window | None
    now: float
    """The latest time seen (seconds)."""
    ply: int
    """Public transitions so far (every action or timed event but a secret claim answer)."""
    last: tuple[Event, ...]
    results: tuple[str, ...]
    """Each finished deal's public summary, as compact JSON."""
    end: str | None = None
    """Once over: "round" (the deal went round once per player) or "bust" (someone ≤ 0)."""
    ready: frozenset[int] = frozenset()
    """In a break: the seats that asked for the next deal (secret, like claim answers)."""
    resume_at: float | None = None
    """In a break: when the next deal is dealt even if some seat is not ready."""
    full_windows: bool = False
    """Two or more people sit at the table (``Michikake.new_table``): a claim window runs to
    its deadline whoever has answered, so its length tells no one what another person holds
    (a seat that cannot claim is never asked, so an early close would show who could)."""


FIELDS: tuple[str, ...] = MichikakeState.__slots__
_FIELD_SET = frozenset(FIELDS)
_set = object.__setattr__


def evolve(state: MichikakeState, **changes: Any) -> MichikakeState:
    """``dataclasses.replace`` without its checks: the engine's hot path builds every state
    through here (the fields are fixed, so nothing is lost)."""
    assert changes.keys() <= _FIELD_SET, f"no such field: {changes.keys() - _FIELD_SET}"
    new = object.__new__(MichikakeState)
    for name in FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def compact_json(value: Any) -> str:
    """Sorted, compact JSON: how events and deal results are kept inside the immutable state."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def remove_one(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    items = list(cards)
    items.remove(card)
    return tuple(items)


def set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def steal_cost(steals_made: int) -> int | None:
    """What the next steal costs after ``steals_made`` steals this deal; None if no more."""
    if steals_made >= MAX_STEALS:
        return None
    return STEAL_COSTS[steals_made]


def barred_cards(state: MichikakeState, seat: int) -> frozenset[Card]:
    """Cards ``seat`` may never take from a discard this deal: every card it has discarded."""
    return state.barred[seat]


def can_win_on(state: MichikakeState, seat: int, card: Card) -> bool:
    return card not in barred_cards(state, seat) and is_two_sets([*state.hands[seat], card])


def can_steal(state: MichikakeState, seat: int, card: Card) -> bool:
    cost = steal_cost(state.steals[seat])
    return (
        cost is not None
        and state.points[seat] > cost
        and card not in barred_cards(state, seat)
        and state.hands[seat].count(card) >= 2
    )
