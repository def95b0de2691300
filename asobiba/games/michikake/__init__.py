"""MICHIKAKE 満ち欠け: the 3-4 player moon-phase draw-discard game.

The card notation and the pure helpers (``splits``, ``winning_cards``, ``hand_points``,
``payments``, ``win_breakdown``) take cards like ``"W7"``, ``"star"``, ``"ring"``.
"""

from asobiba.games.michikake.analysis import Michikake
from asobiba.games.michikake.cards import (
    SPECIALS,
    SUITS,
    deck,
    is_card,
    set_kind,
    sort_cards,
    splits,
    winning_cards,
)
from asobiba.games.michikake.rules import MichikakeState
from asobiba.games.michikake.scoring import (
    best_split,
    bonus_points,
    hand_points,
    payments,
    win_breakdown,
)

__all__ = [
    "SPECIALS",
    "SUITS",
    "Michikake",
    "MichikakeState",
    "best_split",
    "bonus_points",
    "deck",
    "hand_points",
    "is_card",
    "payments",
    "set_kind",
    "sort_cards",
    "splits",
    "win_breakdown",
    "winning_cards",
]
