"""Loads data.toml: the bot levels and the review classes (designed values, each marked with its
source)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.game import DesignedPace, paces_from
from asobiba.core.ratings import Ladder, ladders_from


@dataclass(frozen=True)
class Level:
    """One bot strength; data.toml explains each field and why it has its value."""

    id: str
    name_ja: str
    name_en: str
    depth: int
    """Moves read ahead (extra turns count as moves); 0 is the novice's reading, no search."""
    nodes: int
    """Positions a move may visit, 0 for no limit: the budget that keeps a bot deterministic."""
    time: float
    """Seconds a move may take, 0 for no clock: the cap on a slow or busy machine."""
    blunder: float
    """Chance that a move is drawn by softmax over the move values instead of the best."""
    temperature: float
    """That softmax's temperature, in stones."""
    sight: float
    """Novice only: chance of noticing each capture it could make."""
    source: str
    reason: str
    reason_ja: str
    endgame: bool = False
    """Reads the endgame table (endgame.py) where the rules have one: exact once few stones
    remain. Only the top level: the table plays perfectly, which no human-like level should."""
    book: bool = False
    """Plays the opening book's move (book.py) where it has one: the top level only, too."""


@dataclass(frozen=True)
class Grades:
    """The most stones of final margin a move may lose and still count as each class of a
    review, for one variant (a best move loses nothing; past ``mistake`` is a blunder)."""

    variant: str
    good: float
    inaccuracy: float
    mistake: float
    source: str
    reason: str
    reason_ja: str


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_DATA = _load()
LEVELS: list[Level] = [Level(**entry) for entry in _DATA["levels"]]
GRADES: dict[str, Grades] = {entry["variant"]: Grades(**entry) for entry in _DATA["grades"]}
LEVEL_BY_ID: dict[str, Level] = {level.id: level for level in LEVELS}

PACES: dict[str, DesignedPace] = paces_from(
    _DATA["pace"], [level.id for level in LEVELS], "mancala"
)
"""Each level's pace, weakest first: the room shows that bot's moves ``pace.draw(rng)`` seconds
after asking it, never when its computation happens to finish (core.bots.Pace says why)."""

LADDERS: dict[str, Ladder] = ladders_from(
    _DATA["ladders"], [level.id for level in LEVELS], "mancala"
)
"""Each rule family's arena ladder of the bot levels (data.toml ``[[ladders]]``): the fixed
ratings games against the computer are rated against (``core.ratings.anchors``)."""
