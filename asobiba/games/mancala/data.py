"""Loads data.toml: the bot levels (designed values, each marked with its source)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources


@dataclass(frozen=True)
class Level:
    id: str
    name_ja: str
    name_en: str
    depth: int
    """Search depth in moves (extra turns count as moves)."""
    temperature: float
    """Softmax temperature over root move values, in stones; 0 plays the best move."""
    blunder: float
    """Chance of choosing by the softmax instead of the best move."""
    time: float
    """Seconds a move may take; 0 means search to ``depth`` without a clock."""
    source: str
    reason: str


def _load() -> list[Level]:
    text = resources.files(__package__).joinpath("data.toml").read_text(encoding="utf-8")
    return [Level(**entry) for entry in tomllib.loads(text)["levels"]]


LEVELS: list[Level] = _load()
LEVEL_BY_ID: dict[str, Level] = {level.id: level for level in LEVELS}
