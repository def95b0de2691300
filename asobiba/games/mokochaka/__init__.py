"""Mokochaka: flip, count the animals showing, call them within 3 seconds, race for the token."""

from asobiba.games.mokochaka.cards import (
    ANIMALS,
    CALLS,
    KINDS,
    NORMAL_CALLS,
    SPECIALS,
    Card,
    animal_counts,
    judge,
    parse_card,
)
from asobiba.games.mokochaka.rules import Mokochaka, MokochakaState

__all__ = [
    "ANIMALS",
    "CALLS",
    "KINDS",
    "NORMAL_CALLS",
    "SPECIALS",
    "Card",
    "Mokochaka",
    "MokochakaState",
    "animal_counts",
    "judge",
    "parse_card",
]
