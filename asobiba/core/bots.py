"""The bot protocol: a bot sees one seat's observation and its legal actions, nothing else."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


class Bot(Protocol):
    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        """Return one element of ``legal``."""
        ...


@dataclass(frozen=True)
class Timed:
    """A bot's decision as the room carries it out: ``action`` (an element of ``legal``, or None
    to do nothing until something changes) ``after`` seconds from when it was shown the
    observation. The room drops the action if anything happened first."""

    action: dict[str, Any] | None
    after: float = 0.0


@runtime_checkable
class RealTimeBot(Bot, Protocol):
    """A bot of a real-time game, which also decides when to act (its reaction time)."""

    def decide(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> Timed: ...


def decide(bot: Bot, observation: dict[str, Any], legal: list[dict[str, Any]]) -> Timed:
    """What the room does for ``bot``: a real-time bot's own timing, any other bot's choice at
    once."""
    if isinstance(bot, RealTimeBot):
        return bot.decide(observation, legal)
    return Timed(bot.choose(observation, legal))


class RandomBot:
    """Plays a uniformly random legal action; the floor every other bot must beat."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self._rng.choice(legal)
