"""The bot protocol: a bot sees one seat's observation and its legal actions, nothing else."""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Return one element of ``legal``."""
        ...


class RandomBot:
    """Plays a uniformly random legal action; the floor every other bot must beat."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self._rng.choice(legal)
