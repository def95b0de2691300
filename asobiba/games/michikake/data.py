"""Loads data.toml: MICHIKAKE's numbers, hands and bonus cards, each marked with its source."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.game import DesignedPace, ReviewDesign, paces_from, review_design
from asobiba.core.ratings import Ladder, ladders_from


@dataclass(frozen=True)
class Value:
    """One number or choice the engine plays by (the rulebook's or a designed one)."""

    key: str
    value: Any
    name_ja: str
    name_en: str
    text_ja: str
    """The value in words, for the rule page."""
    text_en: str
    source: str
    """"rulebook" or "designed"."""
    reason_ja: str
    reason_en: str


@dataclass(frozen=True)
class Yaku:
    """A hand: a base hand (one always applies), an added hand, or a top hand (scores alone)."""

    id: str
    kind: str
    """"base", "added" or "top"."""
    points: int
    name_ja: str
    name_en: str
    text_ja: str
    text_en: str
    source: str
    reason_ja: str
    reason_en: str


@dataclass(frozen=True)
class BonusCard:
    """A bonus card: ``each`` points for every winning card meeting its condition."""

    id: str
    name_ja: str
    name_en: str
    each: int
    stages: tuple[int, ...]
    """Stages that count; empty: any stage."""
    suits: tuple[str, ...]
    """Suits that count; empty: any suit."""
    off_crest: bool
    """Only cards of a suit other than the winner's crest count."""
    source: str
    """"designed": the rulebook gives only how many there are and what they may add."""
    text_ja: str
    text_en: str
    reason_ja: str
    reason_en: str


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_DATA = _load()
VALUES: dict[str, Value] = {entry["key"]: Value(**entry) for entry in _DATA["values"]}
YAKU: dict[str, Yaku] = {entry["id"]: Yaku(**entry) for entry in _DATA["yaku"]}
BONUS_CARDS: dict[str, BonusCard] = {
    entry["id"]: BonusCard(
        **{**entry, "stages": tuple(entry["stages"]), "suits": tuple(entry["suits"])}
    )
    for entry in _DATA["bonus"]
}

START_POINTS: int = VALUES["start_points"].value
HAND_SIZE: int = VALUES["hand_size"].value
FIRST_DEALER: int = VALUES["first_dealer"].value
CREST_SHIFT: int = VALUES["crest_shift"].value
CLAIM_SECONDS: float = VALUES["claim_seconds"].value
BREAK_SECONDS: float = VALUES["break_seconds"].value
STEAL_COSTS: tuple[int, ...] = tuple(VALUES["steal_costs"].value)
MAX_STEALS: int = VALUES["max_steals"].value


@dataclass(frozen=True)
class Level:
    """A computer opponent's level (bots.py): the way it chooses and its designed numbers."""

    id: str
    name_ja: str
    name_en: str
    kind: str
    """"beginner", "greedy", "reader" or "search" (the class in bots.py)."""
    slip: float
    """The share of discards thrown at random (a careless moment), whatever the level."""
    slip_three: float
    """The same with three players (where the levels' other differences weigh otherwise)."""
    watch: bool
    """Whether it counts the cards on the table as seen when it judges which winning cards are
    left (else only its own hand)."""
    value: bool
    """Whether it weighs a winning card by what the win would score (else every card alike)."""
    steal: bool
    """Whether it ever steals."""
    steal_margin: int
    """It steals only with more than the cost plus this many points."""
    caution: float
    """Reader and search: how much the points a discard may feed count against it (0: not)."""
    samples: int
    """Search: deals sampled from the observation per discard."""
    width: int
    """Search: how many of the best discards (by the reader's score) it plays out."""
    time: float
    """Search: seconds after which it stops sampling (0: no clock)."""
    confidence: float
    """Search: how many standard errors a discard's rollouts must beat the reader's choice by."""
    source: str
    reason_ja: str
    reason_en: str


LEVELS: list[Level] = [Level(**entry) for entry in _DATA["levels"]]
LEVEL_BY_ID: dict[str, Level] = {level.id: level for level in LEVELS}

PACES: dict[str, DesignedPace] = paces_from(
    _DATA["pace"], [level.id for level in LEVELS], "michikake"
)
"""Each level's pace, weakest first: the room shows that bot's moves ``pace.draw(rng)`` seconds
after asking it, never when its computation happens to finish (core.bots.Pace says why)."""

LADDERS: dict[str, Ladder] = ladders_from(
    _DATA["ladders"], [level.id for level in LEVELS], "michikake"
)
"""Each rule family's arena ladder of the bot levels (data.toml ``[[ladders]]``): the fixed
ratings games against the computer are rated against (``core.ratings.anchors``)."""

REVIEW: ReviewDesign = review_design(_DATA["review"], "michikake")
"""The review's classes and the engine's time per decision (data.toml ``[review]``)."""
