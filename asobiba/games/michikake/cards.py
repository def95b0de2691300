"""MICHIKAKE's card notation and the sets cards form.

A card is a string: a suit letter and a stage, ``"W7"`` (``C`` crescent, ``W`` water, ``R``
left to right, ``H`` hexagon; stages 1-9), or one of the specials ``"star"`` and ``"ring"``,
which have neither suit nor stage. Three identical copies of every card exist. With three
players the ``H`` suit is left out.

>>> sorted(splits(["W1", "W2", "W3", "C5", "C5", "C5"]))
[(('C5', 'C5', 'C5'), ('W1', 'W2', 'W3'))]
>>> winning_cards(["W1", "W2", "W3", "C5", "C5"])
['C5']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

Card = str
"""A card in the notation, e.g. ``"W7"`` or ``"star"``."""
Set3 = tuple[Card, Card, Card]
"""Three cards forming a set, in canonical order."""

SUITS: tuple[str, ...] = ("C", "W", "R", "H")
"""Every suit, in the order crests are first handed out; ``H`` only with 4 players."""
SPECIALS: tuple[str, ...] = ("star", "ring")
STAGES = range(1, 10)
COPIES = 3

_ORDER: dict[Card, int] = {
    f"{suit}{stage}": index * 10 + stage for index, suit in enumerate(SUITS) for stage in STAGES
} | {special: 100 + index for index, special in enumerate(SPECIALS)}
ALL_CARDS: tuple[Card, ...] = tuple(sorted(_ORDER, key=_ORDER.__getitem__))
"""Every distinct card, in canonical order (suits C W R H, stages up, then star and ring)."""


def suits_for(players: int) -> tuple[str, ...]:
    """The suits in play: C W R with 3 players, C W R H with 4."""
    if players == 3:
        return SUITS[:3]
    if players == 4:
        return SUITS
    raise ValueError(f"MICHIKAKE is played by 3 or 4 players, not {players!r}")


def kinds_for(players: int) -> tuple[Card, ...]:
    """Every distinct card in a deck for ``players``."""
    suits = suits_for(players)
    return tuple(card for card in ALL_CARDS if card in SPECIALS or card[0] in suits)


def deck(players: int) -> list[Card]:
    """The whole deck in canonical order: 114 cards with 4 players, 87 with 3."""
    return [card for card in kinds_for(players) for _ in range(COPIES)]


def is_card(value: object) -> bool:
    """Whether ``value`` is a card in the notation."""
    return type(value) is str and value in _ORDER


def check_cards(cards: Iterable[object], count: int | None = None) -> list[Card]:
    """The cards as a list; ValueError naming the problem if one is not a card, there are not
    ``count`` of them, or a card appears more than three times."""
    if isinstance(cards, str):
        raise ValueError(f"expected a list of cards, got the string {cards!r}")
    result = list(cards)
    for card in result:
        if not is_card(card):
            raise ValueError(f"not a card: {card!r} (cards are like 'W7', 'star', 'ring')")
    if count is not None and len(result) != count:
        raise ValueError(f"expected {count} cards, got {len(result)}: {result}")
    for card, copies in Counter(result).items():
        if copies > COPIES:
            raise ValueError(f"only {COPIES} copies of {card} exist, got {copies}")
    return result  # type: ignore[return-value]


def suit_of(card: Card) -> str | None:
    """The suit letter, or None for a star or ring."""
    return None if card in SPECIALS else card[0]


def stage_of(card: Card) -> int | None:
    """The stage 1-9, or None for a star or ring."""
    return None if card in SPECIALS else int(card[1])


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The cards in canonical order."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))


def set_kind(three: Sequence[Card]) -> str | None:
    """``"triplet"`` (three identical cards), ``"run"`` (three consecutive stages of one suit;
    9 does not wrap to 1) or None."""
    a, b, c = sort_cards(three)
    if a == b == c:
        return "triplet"
    if a in SPECIALS or c in SPECIALS or a[0] != b[0] or b[0] != c[0]:
        return None
    x, y, z = int(a[1]), int(b[1]), int(c[1])
    return "run" if y == x + 1 and z == y + 1 else None


def _splits(six: tuple[Card, ...]) -> list[tuple[Set3, Set3]]:
    first, rest = six[0], six[1:]
    found: set[tuple[Set3, Set3]] = set()
    for i, j in combinations(range(5), 2):
        one: Set3 = (first, rest[i], rest[j])
        if set_kind(one) is None:
            continue
        other = tuple(card for k, card in enumerate(rest) if k not in (i, j))
        if set_kind(other) is None:
            continue
        a, b = sort_cards(one), sort_cards(other)
        pair = (a, b) if _ORDER[a[0]] <= _ORDER[b[0]] else (b, a)
        found.add(pair)  # type: ignore[arg-type]
    return sorted(found, key=lambda pair: [_ORDER[card] for part in pair for card in part])


def splits(six: Iterable[Card]) -> list[tuple[Set3, Set3]]:
    """Every way to split six cards into two sets, each set and the pair in canonical order
    (empty when the six are not two sets)."""
    return _splits(sort_cards(check_cards(six, 6)))


def _is_set_codes(a: int, b: int, c: int) -> bool:
    """Whether three sorted card codes form a set (codes: suit index × 10 + stage, specials
    100 and up, so a run is three consecutive codes below 100)."""
    return a == b == c or (c < 100 and b == a + 1 and c == b + 1)


def is_two_sets(six: Iterable[Card]) -> bool:
    """Whether the six cards split into two sets at least one way (the fast check the engine
    uses; ``splits`` lists the ways)."""
    codes = sorted(_ORDER[card] for card in six)
    if len(codes) != 6:
        return False
    first, rest = codes[0], codes[1:]
    # The lowest card is the lowest of its set: a triplet of it or the run it starts.
    for second, third in ((first, first), (first + 1, first + 2)):
        if not _is_set_codes(first, second, third):
            continue
        left = list(rest)
        if second not in left:
            continue
        left.remove(second)
        if third not in left:
            continue
        left.remove(third)
        if _is_set_codes(*left):
            return True
    return False


def winning_cards(
    five: Iterable[Card], players: int = 4, barred: Iterable[Card] = ()
) -> list[Card]:
    """Every card that would make ``five`` two sets, in canonical order.

    Only cards in a ``players``-player deck count, never a card the five already hold all three
    copies of, and never one in ``barred`` (e.g. the cards this player has discarded, when
    asking what a discard could complete).
    """
    hand = check_cards(five, 5)
    held = Counter(hand)
    skip = set(check_cards(barred))
    return [
        card
        for card in kinds_for(players)
        if held[card] < COPIES and card not in skip and is_two_sets([*hand, card])
    ]
