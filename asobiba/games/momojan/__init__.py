"""MOMOJAN 桃雀: the two-player calling mahjong (rules of the 2025.11 edition).

The pure helpers take the card notation (``L3``, ``M7``, ``dog``...): ``parse``/``format`` of
hands, ``decompositions``, ``waits``, and ``score`` of a described ``Win``.
"""

from asobiba.games.momojan.analysis import Momojan
from asobiba.games.momojan.cards import DECK, dora_of, format, parse
from asobiba.games.momojan.hand import Decomposition, complete, decompositions, waits
from asobiba.games.momojan.rules import MomojanState
from asobiba.games.momojan.scoring import Meld, Score, Win, score

__all__ = [
    "DECK",
    "Decomposition",
    "Meld",
    "Momojan",
    "MomojanState",
    "Score",
    "Win",
    "complete",
    "decompositions",
    "dora_of",
    "format",
    "parse",
    "score",
    "waits",
]
