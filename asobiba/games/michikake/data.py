"""Loads data.toml: MICHIKAKE's numbers, hands and bonus cards, each marked with its source."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any


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
STEAL_COSTS: tuple[int, ...] = tuple(VALUES["steal_costs"].value)
MAX_STEALS: int = VALUES["max_steals"].value
