"""The bot protocol: a bot sees one seat's observation and its legal actions, nothing else."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, Protocol, runtime_checkable

from asobiba.core.rng import stream


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


_NORMAL = NormalDist()


@dataclass(frozen=True)
class Pace:
    """How long a computer opponent of one level seems to take before its move shows.

    Why: a bot's computing time depends on what it holds. A MOMOJAN expert one card from ready
    searches its waits and answers in 16 ms where it otherwise takes 2 ms; a MICHIKAKE bot
    weighing a legal steal answers a claim window a moment later than one that can only pass.
    A room that showed each move as soon as the bot's worker answered would tell the table
    about hidden cards. So the room shows a turn-based bot's move ``draw(rng)`` seconds after
    it asked the bot, whatever the bot computed and however long that took: the delay's
    distribution depends on the pace alone (a level's pace is public, like the level), and
    ``draw`` reads exactly one number from ``rng`` and never sees the observation.

    ``floor`` lies above the level's slowest decision on the development machine with room
    for a busy server (each game's data.toml gives the measured figure), so the decision is
    always ready before its time comes. Real-time games (Mokochaka) have no pace: their bots
    return their own human reaction time (``Timed.after``).

    Shape: a shifted log-normal, the usual model of human response times (a hard minimum
    plus a right-skewed spread): ``floor`` plus a log-normal whose median puts the delay's
    median at ``median``, with log-standard deviation ``spread``. The upper half of the
    quantiles is squeezed so that the longest possible delay is ``ceiling``: the median stays
    exact, and no bot sits for ever. It costs one uniform number and two closed-form
    functions, nothing a room would notice.
    """

    floor: float
    """Seconds: no move shows sooner (above the level's slowest decision)."""
    median: float
    """Seconds: half of the moves show sooner than this."""
    ceiling: float
    """Seconds: no move shows later (well inside any window the game gives, e.g. MICHIKAKE's
    5-second claim window)."""
    spread: float = 0.5
    """The log-standard deviation of the delay above ``floor``: larger, more varied."""

    def __post_init__(self) -> None:
        numbers = (self.floor, self.median, self.ceiling, self.spread)
        if not all(math.isfinite(x) for x in numbers):
            raise ValueError(f"a pace's numbers must be finite: {self}")
        if not 0.0 <= self.floor < self.median < self.ceiling:
            raise ValueError(f"a pace needs 0 <= floor < median < ceiling: {self}")
        if self.spread <= 0.0:
            raise ValueError(f"a pace's spread must be positive: {self}")

    def quantile(self, p: float) -> float:
        """The delay that a share ``p`` (0 <= p < 1) of draws stays under: ``floor`` at 0,
        ``median`` at 0.5, approaching ``ceiling`` as ``p`` nears 1."""
        if not 0.0 <= p < 1.0:
            raise ValueError(f"a quantile's share must be in [0, 1), got {p!r}")
        if p == 0.0:
            return self.floor
        scale = self.median - self.floor
        if p > 0.5:  # squeeze the upper half into what lies below the ceiling
            top = _NORMAL.cdf(math.log((self.ceiling - self.floor) / scale) / self.spread)
            p = 0.5 + (p - 0.5) * (top - 0.5) / 0.5
        seconds = self.floor + scale * math.exp(self.spread * _NORMAL.inv_cdf(p))
        return min(self.ceiling, max(self.floor, seconds))

    def draw(self, rng: random.Random) -> float:
        """Seconds from asking the bot to showing its move, in [floor, ceiling]: one number
        from ``rng`` and nothing else, so the delay tells nothing about what the bot saw or
        chose. The room's ``rng`` should be its own (not the bot's, whose numbers may follow
        the bot's cards) and unpredictable to players."""
        return self.quantile(rng.random())


@runtime_checkable
class RealTimeBot(Bot, Protocol):
    """A bot of a real-time game, which also decides when to act (its reaction time)."""

    def decide(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> Timed: ...


def decide(bot: Bot, observation: dict[str, Any], legal: list[dict[str, Any]]) -> Timed:
    """What the room does for ``bot``: a real-time bot's own timing, any other bot's choice at
    once."""
    # Not ``isinstance(bot, RealTimeBot)``: a runtime-checkable protocol inspects the class's
    # members on every check, 4% of the server's time under bench/load.py.
    timed: Callable[[dict[str, Any], list[dict[str, Any]]], Timed] | None = getattr(
        bot, "decide", None
    )
    if timed is not None:
        return timed(observation, legal)
    return Timed(bot.choose(observation, legal))


class RandomBot:
    """Plays a uniformly random legal action; the floor every other bot must beat."""

    def __init__(self, seed: int) -> None:
        self._rng = stream(seed, "random-bot")

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self._rng.choice(legal)
