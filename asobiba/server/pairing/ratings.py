"""What pairing asks of the ratings: a person's rating in a pool's rules (``StoredRatings``,
read from the store's ``ratings``), and the computer level whose anchor (``core.ratings``, the
arena ladder) is nearest a rating (for the seats a person fills with computers, and the
stand-in of a table)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from asobiba.core.game import Game, rating_anchors, rating_family, rating_key
from asobiba.games import get_game
from asobiba.server.social.pairing import PoolRules
from asobiba.server.store.store import Store

UNKNOWN = 1500.0
"""The rating of a person the ratings know nothing of yet (Glicko-2's and lichess's start)."""

UNANCHORED_STEP = 250.0
"""Points between two neighbouring levels of a rule family the arena never measured (so it has
no anchors): the levels weakest first with the second at ``UNKNOWN``, so a newcomer meets the
level the settings suggest after the first games."""


class Ratings(Protocol):
    def rating_of(self, player_id: str, rules: PoolRules) -> float | None:
        """The person's rating for games of ``rules`` (its game and rule family), or None when
        they have none yet. Called off the event loop (it may read the database)."""
        ...


class StoredRatings:
    """The ratings the store keeps (``ratings``, written as rated games finish)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def rating_of(self, player_id: str, rules: PoolRules) -> float | None:
        key = rating_key(get_game(rules.game), rules.options, rules.players)
        for rating in self.store.player_ratings(player_id):
            if rating.key == key:
                return float(rating.rating)
        return None


LevelNear = Callable[[Game[Any], PoolRules, float], str]
"""``level_near(game, rules, rating)``: the game's bot level whose rating is nearest
``rating`` in the rule family of ``rules``."""


def level_anchors(game: Game[Any], rules: PoolRules) -> dict[str, float]:
    """Each level's rating in the family of ``rules``: its arena anchor, or, for a family no
    arena run measured, the levels ``UNANCHORED_STEP`` apart."""
    family = rating_family(game, rules.options, rules.players)
    anchors = rating_anchors(game, family)
    if anchors:
        return {level: anchor.rating for level, anchor in anchors.items()}
    return {
        level: UNKNOWN + UNANCHORED_STEP * (order - 1) for order, level in enumerate(game.levels)
    }


def nearest_level(anchors: Mapping[str, float], rating: float) -> str:
    """The level whose anchor is nearest ``rating`` (the weaker on a tie)."""
    if not anchors:
        raise ValueError("no levels to choose from")
    return min(anchors, key=lambda level: (abs(anchors[level] - rating), anchors[level]))


def level_near(game: Game[Any], rules: PoolRules, rating: float) -> str:
    """The game's level nearest ``rating`` in the family of ``rules``."""
    return nearest_level(level_anchors(game, rules), rating)
