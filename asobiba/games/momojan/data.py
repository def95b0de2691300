"""Loads data.toml: MOMOJAN's numbers, the yaku table, the set bonuses, the designed rules, the
option rules and the bot levels."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from asobiba.core.game import DesignedPace, ReviewDesign, paces_from, review_design
from asobiba.core.ratings import Ladder, ladders_from


@dataclass(frozen=True)
class Numbers:
    """The game's numbers; data.toml says where each comes from."""

    start_points: int
    hand_size: int
    dead_wall: int
    piles: int
    stake: int
    stake_per_repeat: int
    ron_bonus: int
    dora_points: int
    double_at: int
    kai_points: int
    call_points: int
    dealer_streak: int
    riichi_min_pile: int


@dataclass(frozen=True)
class Yaku:
    """One row of the yaku table; the condition itself is coded in scoring.py under ``id``."""

    id: str
    ja: str
    en: str
    points: int
    source: str
    condition_ja: str
    condition: str
    reason_ja: str
    reason: str


@dataclass(frozen=True)
class Bonus:
    """A set bonus: not a yaku; only the one for the win's number of sets counts."""

    id: str
    ja: str
    en: str
    sets: int
    points: int
    source: str
    reason_ja: str
    reason: str


@dataclass(frozen=True)
class Rule:
    """A corner the rulebook leaves open, and how asobiba plays it."""

    id: str
    ja: str
    en: str
    value_ja: str
    value: str
    source: str
    reason_ja: str
    reason: str


@dataclass(frozen=True)
class Option:
    """An option rule the engine takes (rules.py makes its ``OptionSpec``), with why it exists."""

    key: str
    ja: str
    en: str
    values: tuple[Any, ...]
    """Every allowed value, the default first."""
    default: Any
    ui: bool
    """False: the engine takes it, the site never offers it."""
    value_ja: str
    value: str
    source: str
    reason_ja: str
    reason: str


@dataclass(frozen=True)
class Level:
    """One computer opponent; data.toml explains each field and why it has its value."""

    id: str
    name_ja: str
    name_en: str
    style: str
    """``"beginner"``, ``"greedy"``, ``"ukeire"`` or ``"search"`` (the class in bots.py)."""
    slip: float
    """Chance of a careless discard: the beginner's any card instead of a loose one, the
    others' any card instead of the best."""
    call: float
    """Chance of taking a ポン/チー or 開 the level judges worth taking."""
    samples: int
    """Random draws of three that judge "draw three" against discarding."""
    source: str
    reason: str
    reason_ja: str


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_DATA = _load()
NUMBERS = Numbers(**_DATA["numbers"])
YAKU: tuple[Yaku, ...] = tuple(Yaku(**entry) for entry in _DATA["yaku"])
YAKU_BY_ID: dict[str, Yaku] = {yaku.id: yaku for yaku in YAKU}
BONUSES: tuple[Bonus, ...] = tuple(Bonus(**entry) for entry in _DATA["bonus"])
RULES: tuple[Rule, ...] = tuple(Rule(**entry) for entry in _DATA["rule"])
OPTIONS: tuple[Option, ...] = tuple(
    Option(**{**entry, "values": tuple(entry["values"])}) for entry in _DATA["options"]
)
LEVELS: tuple[Level, ...] = tuple(Level(**entry) for entry in _DATA["levels"])
LEVEL_BY_ID: dict[str, Level] = {level.id: level for level in LEVELS}

PACES: dict[str, DesignedPace] = paces_from(
    _DATA["pace"], [level.id for level in LEVELS], "momojan"
)
"""Each level's pace, weakest first: the room shows that bot's moves ``pace.draw(rng)`` seconds
after asking it, never when its computation happens to finish (core.bots.Pace says why)."""

LADDERS: dict[str, Ladder] = ladders_from(
    _DATA["ladders"], [level.id for level in LEVELS], "momojan"
)
"""Each rule family's arena ladder of the bot levels (data.toml ``[[ladders]]``): the fixed
ratings games against the computer are rated against (``core.ratings.anchors``)."""

REVIEW: ReviewDesign = review_design(_DATA["review"], "momojan")
"""The review's classes and the engine's time per decision (data.toml ``[review]``)."""
