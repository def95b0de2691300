"""MOMOJAN card notation: fruit cards are a letter and a number, picture cards are words.

``M1``-``M9`` モモ (peach, wild), ``L1``-``L9`` レモン, ``O1``-``O9`` ミカン, ``S1``-``S9``
イチゴ: one card each. ``dog`` 犬, ``monkey`` 猿, ``pheasant`` 雉, ``sun`` 太陽, ``moon`` 月:
four identical copies each. A hand in text is its cards separated by spaces.

>>> parse("L3 M4 dog")
['L3', 'M4', 'dog']
>>> format(["dog", "L3", "M4"])
'M4 L3 dog'
>>> dora_of("L9"), dora_of("pheasant"), dora_of("sun")
('1', 'dog', 'moon')
"""

from __future__ import annotations

from collections.abc import Iterable

Card = str
"""One card in the notation, e.g. ``"L3"`` or ``"dog"``."""

PEACH = "M"
"""The wild fruit: a モモ stands in for any fruit and keeps its number."""
FRUITS = ("M", "L", "O", "S")
"""モモ, レモン, ミカン, イチゴ in the order hands are sorted."""
PICTURES = ("dog", "monkey", "pheasant", "sun", "moon")
"""犬, 猿, 雉, 太陽, 月: four copies of each."""
PICTURE_COPIES = 4

FRUIT_CARDS: tuple[Card, ...] = tuple(f"{fruit}{n}" for fruit in FRUITS for n in range(1, 10))
KINDS: tuple[Card, ...] = FRUIT_CARDS + PICTURES
"""Every distinct card, in sorting order."""
DECK: tuple[Card, ...] = FRUIT_CARDS + tuple(p for p in PICTURES for _ in range(PICTURE_COPIES))
"""The 56 cards of the game (36 fruit cards, 20 picture cards)."""

_ORDER = {card: i for i, card in enumerate(KINDS)}

NAMES = {
    "M": {"ja": "モモ", "en": "peach"},
    "L": {"ja": "レモン", "en": "lemon"},
    "O": {"ja": "ミカン", "en": "orange"},
    "S": {"ja": "イチゴ", "en": "strawberry"},
    "dog": {"ja": "犬", "en": "dog"},
    "monkey": {"ja": "猿", "en": "monkey"},
    "pheasant": {"ja": "雉", "en": "pheasant"},
    "sun": {"ja": "太陽", "en": "sun"},
    "moon": {"ja": "月", "en": "moon"},
}

_NEXT_PICTURE = {
    "dog": "monkey",
    "monkey": "pheasant",
    "pheasant": "dog",
    "sun": "moon",
    "moon": "sun",
}


def is_card(value: object) -> bool:
    """True for a string naming a card of the deck."""
    return type(value) is str and value in _ORDER


def is_fruit(card: Card) -> bool:
    return card[0] in FRUITS and len(card) == 2


def is_peach(card: Card) -> bool:
    return card[0] == PEACH and len(card) == 2


def number(card: Card) -> int:
    """The number of a fruit card (1-9); 0 for a picture card."""
    return int(card[1]) if is_fruit(card) else 0


def fruit(card: Card) -> str:
    """The fruit letter of a fruit card; the picture's word for a picture card."""
    return card[0] if is_fruit(card) else card


def sort_key(card: Card) -> int:
    return _ORDER[card]


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order hands are shown: peach, lemon, orange, strawberry by number, then
    dog, monkey, pheasant, sun, moon."""
    return sorted(cards, key=sort_key)


def parse(text: str) -> list[Card]:
    """A hand from its text, in the order written; ``ValueError`` names the first bad card."""
    if type(text) is not str:
        raise ValueError(f"a hand is text, got {text!r}")
    cards = text.split()
    for card in cards:
        if card not in _ORDER:
            raise ValueError(f"not a MOMOJAN card: {card!r} in {text!r}")
    return cards


def format(cards: Iterable[Card]) -> str:
    """A hand as text, sorted."""
    cards = list(cards)
    for card in cards:
        if not is_card(card):
            raise ValueError(f"not a MOMOJAN card: {card!r}")
    return " ".join(sort_cards(cards))


def dora_of(indicator: Card) -> str:
    """What the indicator makes dora: a number (as text, any fruit) or a picture word.

    The number after the indicator's (9 is followed by 1), whatever the fruit; for pictures
    犬 → 猿 → 雉 → 犬, and 太陽 ↔ 月.
    """
    if is_fruit(indicator):
        return str(number(indicator) % 9 + 1)
    return _NEXT_PICTURE[indicator]


def is_dora(card: Card, indicator: Card) -> bool:
    target = dora_of(indicator)
    return str(number(card)) == target if is_fruit(card) else card == target


def copies(card: Card) -> int:
    """How many copies of ``card`` the deck holds."""
    return 1 if is_fruit(card) else PICTURE_COPIES
