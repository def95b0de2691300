"""Mokochaka's card notation and the call judge: pure functions, no state.

Notation: a card is its animal's romaji name followed by how many animals it shows, e.g.
``"moko3"`` (three Moko) or ``"gabu1"``. In code a card is a :class:`Card`, a named
``(animal, count)`` pair, so a list of cards is also what :func:`judge` takes.

>>> parse_card("paka4")
Card(animal='paka', number=4)
>>> str(Card("pome", 2))
'pome2'
>>> sorted(judge([("moko", 2), ("paka", 3), ("gabu", 2)]))
['paka']
>>> sorted(judge([("moko", 4), ("paka", 3), ("gabu", 1)]))
['mokochaka']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

ANIMALS: tuple[str, ...] = ("moko", "paka", "pome", "gabu")
"""Every animal on the cards, in the notation's spelling."""
KINDS: tuple[str, ...] = ("moko", "paka", "pome")
"""The animals that are counted for the special calls (every animal but Gabu)."""
COUNTS: tuple[int, ...] = (1, 2, 3, 4)
"""How many animals one card can show."""

SPECIALS: tuple[str, ...] = ("mokochaka", "chakamoko", "chakamokochaka")
"""The special calls, made while grabbing the token."""
NORMAL_CALLS: tuple[str, ...] = (
    "moko",
    "paka",
    "pome",
    "gabu",
    "mokopaka",
    "pakamoko",
    "pomemoko",
    "pomepaka",
    "mokomoko",
    "pakapaka",
    "pomepome",
    "gabugabu",
)
"""Every normal call that can ever be correct (Pome leads any pair, so "mokopome" never is)."""
CALLS: tuple[str, ...] = NORMAL_CALLS + SPECIALS
"""The whole call vocabulary: every word :func:`judge` can return."""


class Card(NamedTuple):
    """One card: an animal and how many of it the card shows."""

    animal: str
    """"moko", "paka", "pome" or "gabu"."""
    number: int
    """How many animals it shows, 1 to 4 (``count`` would shadow ``tuple.count``)."""

    def __str__(self) -> str:
        return f"{self.animal}{self.number}"


def parse_card(text: str) -> Card:
    """The card a notation string names; ``ValueError`` naming the input if it names none."""
    if isinstance(text, str):
        animal, digit = text[:-1], text[-1:]
        if animal in ANIMALS and digit in {"1", "2", "3", "4"}:
            return Card(animal, int(digit))
    raise ValueError(f"not a card: {text!r}; a card is an animal and a count 1-4, e.g. 'moko3'")


def _checked(top: Iterable[tuple[str, int]]) -> list[Card]:
    cards: list[Card] = []
    for item in top:
        if not isinstance(item, tuple | list) or len(item) != 2:
            raise ValueError(f"a showing card is an (animal, count) pair, got {item!r}")
        animal, count = item
        if animal not in ANIMALS:
            raise ValueError(f"unknown animal {animal!r}; animals: {list(ANIMALS)}")
        if type(count) is not int or count not in COUNTS:
            raise ValueError(f"a card shows 1 to 4 animals, got {count!r}")
        cards.append(Card(animal, count))
    if not 1 <= len(cards) <= 3:
        raise ValueError(f"between 1 and 3 cards show at a time, got {len(cards)}")
    return cards


def animal_counts(top: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The animals present after Gabu has eaten, as the call counts them.

    Each Gabu removes one Moko; an animal at 0 or below is absent (left out). Gabu itself is
    present only when no other animal is.

    >>> animal_counts([("moko", 4), ("gabu", 4)])
    {'gabu': 4}
    """
    cards = _checked(top)
    totals = dict.fromkeys(ANIMALS, 0)
    for card in cards:
        totals[card.animal] += card.number
    totals["moko"] -= totals["gabu"]
    present = {kind: totals[kind] for kind in KINDS if totals[kind] > 0}
    return present or {"gabu": totals["gabu"]}


def judge(top: Sequence[tuple[str, int]]) -> frozenset[str]:
    """Every correct call for the showing cards ``top`` (1 to 3 ``(animal, count)`` pairs).

    A special call holds first (exactly two non-Gabu kinds with equal counts: "mokochaka"; all
    three kinds present: "chakamoko", or "chakamokochaka" when their counts are all equal, which
    then is the only right call); otherwise the one normal call: three showing cards of one
    animal give its name twice, else the animals present, Pome first, the rest most first.

    >>> sorted(judge([("pome", 2), ("paka", 3), ("moko", 1)]))
    ['chakamoko']
    >>> sorted(judge([("moko", 3), ("moko", 4), ("moko", 1)]))
    ['mokomoko']
    """
    cards = _checked(top)
    present = animal_counts(cards)
    kinds = {kind: n for kind, n in present.items() if kind != "gabu"}
    counts = sorted(kinds.values())
    if len(kinds) == 3:
        if counts[0] == counts[2]:
            return frozenset({"chakamokochaka"})
        if counts[0] == counts[1] or counts[1] == counts[2]:
            return frozenset({"chakamoko", "mokochaka"})
        return frozenset({"chakamoko"})
    if len(kinds) == 2 and counts[0] == counts[1]:
        return frozenset({"mokochaka"})
    if len(cards) == 3 and len({card.animal for card in cards}) == 1:
        return frozenset({cards[0].animal * 2})
    order = sorted(present, key=lambda kind: (kind != "pome", -present[kind]))
    return frozenset({"".join(order)})
