"""Hand shapes: sets, heads, every split of a hand, completeness and waits.

A set is three cards: a run (three consecutive numbers of one fruit, モモ standing in for any
fruit and keeping its number), three equal numbers (necessarily of different fruits, each fruit
card being unique) or three equal pictures. A head is two equal numbers or two equal pictures.

>>> sorted(waits("sun sun O2 O3".split(), [["dog"] * 3, ["L4", "L5", "L6"]]))
['M1', 'M4', 'O1', 'O4']
>>> [str(d) for d in decompositions("L1 L2 M3 dog dog".split())]
['M3 L1 L2 + dog dog']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement

from asobiba.games.momojan.cards import (
    KINDS,
    PEACH,
    Card,
    copies,
    format,
    is_card,
    is_fruit,
    number,
    sort_cards,
    sort_key,
)

__all__ = [
    "Decomposition",
    "complete",
    "decompositions",
    "hand_waits",
    "head_ok",
    "is_complete",
    "set_kind",
    "sets_in",
    "sets_with",
    "sorted_waits",
    "waits",
]

SETS_TO_WIN = 3
"""At least this many sets, open and in hand together, plus a head."""


@dataclass(frozen=True)
class Decomposition:
    """One way to split a hand into sets and one head."""

    head: tuple[Card, Card]
    sets: tuple[tuple[Card, Card, Card], ...]

    def __str__(self) -> str:
        return " | ".join(format(s) for s in self.sets) + " + " + format(self.head)


def _classify(trio: tuple[Card, ...]) -> str | None:
    a, b, c = trio
    if not all(is_fruit(x) for x in trio):
        return "picture" if a == b == c and not is_fruit(a) else None
    if len(set(trio)) < 3:
        return None
    n = sorted(number(x) for x in trio)
    if n[0] == n[1] == n[2]:
        return "same"
    if n[1] == n[0] + 1 and n[2] == n[0] + 2 and len({x[0] for x in trio} - {PEACH}) <= 1:
        return "run"
    return None


_SET_KINDS: dict[tuple[Card, ...], str] = {
    trio: kind
    for trio in combinations_with_replacement(KINDS, 3)
    if (kind := _classify(trio)) is not None
}
"""Every set, as its cards in sorting order, with its kind."""
_SETS_FROM: dict[Card, tuple[tuple[Card, Card], ...]] = {
    first: tuple((t[1], t[2]) for t in _SET_KINDS if t[0] == first) for first in KINDS
}
"""For each card, the other two cards of every set in which it sorts first."""
_HEADS_FROM: dict[Card, tuple[Card, ...]] = {
    first: tuple(
        other
        for other in KINDS
        if sort_key(other) >= sort_key(first)
        and (
            (is_fruit(first) and is_fruit(other) and other != first and first[1] == other[1])
            or (not is_fruit(first) and other == first)
        )
    )
    for first in KINDS
}
"""For each card, every card that makes a head with it and sorts after it (or equal)."""
_NEAR: dict[Card, frozenset[Card]] = {
    card: frozenset(k for trio in _SET_KINDS if card in trio for k in trio)
    | frozenset(k for k in KINDS if k in _HEADS_FROM[card] or card in _HEADS_FROM[k])
    for card in KINDS
}
"""For each card, every card that can share a set or a head with it: the only possible waits."""


def _others(trio: tuple[Card, ...], card: Card) -> tuple[Card, Card]:
    rest = list(trio)
    rest.remove(card)
    return rest[0], rest[1]


_PAIRS_WITH: dict[Card, tuple[tuple[tuple[Card, Card], str], ...]] = {
    card: tuple((_others(trio, card), kind) for trio, kind in _SET_KINDS.items() if card in trio)
    for card in KINDS
}
"""For each card, every (other two cards, kind) that makes a set with it."""


def sets_in(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Every distinct set of three among sorted ``cards``, sorted (the engine's 開 choices)."""
    counts = Counter(cards)
    found = []
    for first in counts:
        for b, c in _SETS_FROM[first]:
            # A set is three equal pictures or three different fruit cards.
            if (counts[first] >= 3) if b == first else (b in counts and c in counts):
                found.append((first, b, c))
    return sorted(found)


def sets_with(card: Card, cards: tuple[Card, ...]) -> list[tuple[str, tuple[Card, Card]]]:
    """Every (kind, pair) where ``pair`` from ``cards`` makes a set with ``card`` (ポン/チー)."""
    counts = Counter(cards)
    found = []
    for (b, c), kind in _PAIRS_WITH[card]:
        if (counts[b] >= 2) if b == c else (counts[b] and counts[c]):
            found.append((kind, (b, c)))
    return sorted(set(found))


def set_kind(cards: Iterable[Card]) -> str | None:
    """``"run"``, ``"same"`` (equal numbers), ``"picture"`` (equal pictures) or None."""
    return _SET_KINDS.get(tuple(sort_cards(cards)))


def sorted_set_kind(trio: tuple[Card, ...]) -> str | None:
    """``set_kind`` of three cards already in sorting order (the engine's fast path)."""
    return _SET_KINDS.get(trio)


def head_ok(a: Card, b: Card) -> bool:
    """Two equal numbers (any fruits) or two equal pictures."""
    if is_fruit(a) and is_fruit(b):
        return a != b and number(a) == number(b)
    return a == b and not is_fruit(a)


def _check(hand: Iterable[Card], beside: Iterable[Card] = ()) -> tuple[Card, ...]:
    """``hand`` sorted, after checking its cards and that with ``beside`` (the same player's
    open cards) no card has more copies than the deck."""
    cards = tuple(hand)
    for card in cards:
        if not is_card(card):
            raise ValueError(f"not a MOMOJAN card: {card!r}")
    for card, count in (Counter(cards) + Counter(beside)).items():
        if count > copies(card):
            raise ValueError(f"the deck holds {copies(card)} of {card}, not {count}")
    return tuple(sort_cards(cards))


@lru_cache(maxsize=1 << 16)
def _splits(cards: tuple[Card, ...], head: bool) -> tuple[Decomposition, ...]:
    """Every split of sorted ``cards`` into sets, plus one head if ``head``. Pure, so cached."""
    if not cards:
        return (Decomposition(("", ""), ()),) if not head else ()
    first, rest = cards[0], cards[1:]
    found: set[Decomposition] = set()
    if head:
        for other in _HEADS_FROM[first]:
            if other in rest:
                i = rest.index(other)
                for sub in _splits(rest[:i] + rest[i + 1 :], False):
                    found.add(Decomposition((first, other), sub.sets))
    for b, c in _SETS_FROM[first]:
        remaining = list(rest)
        if b not in remaining:
            continue
        remaining.remove(b)
        if c not in remaining:
            continue
        remaining.remove(c)
        for sub in _splits(tuple(remaining), head):
            found.add(Decomposition(sub.head, tuple(sorted(((first, b, c), *sub.sets)))))
    return tuple(sorted(found, key=lambda d: (d.sets, d.head)))


def decompositions(hand: Iterable[Card]) -> list[Decomposition]:
    """Every split of ``hand`` into sets and exactly one head (none if it has no such split).

    >>> [str(d) for d in decompositions(["L2", "S2", "moon", "moon", "moon"])]
    ['moon moon moon + L2 S2']
    """
    cards = _check(hand)
    if len(cards) % 3 != 2:
        return []
    return list(_splits(cards, True))


def complete(hand: Iterable[Card], open_sets: int) -> bool:
    """True when ``hand`` splits into sets and a head with enough sets counting ``open_sets``."""
    cards = _check(hand)
    return _complete(cards, open_sets)


def _complete(cards: tuple[Card, ...], open_sets: int) -> bool:
    if len(cards) % 3 != 2 or open_sets + len(cards) // 3 < SETS_TO_WIN:
        return False
    return bool(_splits(cards, True))


def hand_waits(cards: tuple[Card, ...], open_sets: Sequence[Sequence[Card]]) -> frozenset[Card]:
    """``waits`` for a hand already known to be valid and sorted (the engine's fast path)."""
    shape = _waits(cards, len(open_sets))
    if not shape or not open_sets:
        return shape
    return frozenset(card for card in shape if _left(card, cards, open_sets))


def _left(card: Card, cards: tuple[Card, ...], open_sets: Sequence[Sequence[Card]]) -> bool:
    """Whether a copy of ``card`` is outside the player's hand and open sets (モモ in a set is
    the モモ card itself, whatever fruit it stands for)."""
    return cards.count(card) + sum(s.count(card) for s in open_sets) < copies(card)


def is_complete(cards: tuple[Card, ...], open_sets: int) -> bool:
    """``complete`` for a hand already known to be valid and sorted (the engine's fast path)."""
    return _complete(cards, open_sets)


def waits(hand: Iterable[Card], open_sets: Sequence[Iterable[Card]]) -> set[Card]:
    """The cards that would complete ``hand`` beside the player's own ``open_sets`` (each
    given by its three cards).

    A wait must be a card that can still come: one whose every copy is in the hand or in the
    player's own open sets can never be drawn nor won on, so a hand waiting only on such cards
    is not ready (the rulebook's テンパイ is one card from a win). Copies anywhere else, in the
    opponent's hand, a river or the wall, still count, as in mahjong: whether a copy is in
    sight is not asked, nor whether a yaku comes with the win.
    """
    sets = [tuple(s) for s in open_sets]
    for trio in sets:
        if set_kind(trio) is None:
            raise ValueError(f"not an open set: {format(trio)}")
    return set(hand_waits(_check(hand, (c for s in sets for c in s)), sets))


@lru_cache(maxsize=1 << 15)
def _waits(cards: tuple[Card, ...], open_sets: int) -> frozenset[Card]:
    """The waits of the shape: every card but those all of whose copies are in ``cards``.
    Keyed on the hand and the count of open sets only: which cards those sets hold is asked
    afterwards of the few waits found (``hand_waits``), so hands share the cache whatever
    sets they opened."""
    if len(cards) % 3 != 1 or open_sets + (len(cards) + 1) // 3 < SETS_TO_WIN:
        return frozenset()
    counts = Counter(cards)
    near = frozenset().union(*(_NEAR[card] for card in counts))
    found = set()
    for kind in near:
        if counts[kind] >= copies(kind):
            continue
        if _complete(tuple(sort_cards((*cards, kind))), open_sets):
            found.add(kind)
    return frozenset(found)


def sorted_waits(hand: Iterable[Card], open_sets: Sequence[Iterable[Card]]) -> list[Card]:
    """``waits`` in hand order, for observations and golden files."""
    return sort_cards(waits(hand, open_sets))
