"""MOMOJAN 桃雀: the two-player calling mahjong (rules of the 2025.11 edition).

The pure helpers take the card notation (``L3``, ``M7``, ``dog``...): ``parse``/``format`` of
hands, ``decompositions``, ``waits``.
"""

from asobiba.games.momojan.cards import DECK, dora_of, format, parse
from asobiba.games.momojan.hand import Decomposition, complete, decompositions, waits

__all__ = [
    "DECK",
    "Decomposition",
    "complete",
    "decompositions",
    "dora_of",
    "format",
    "parse",
    "waits",
]
