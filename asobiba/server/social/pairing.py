"""Play someone now, pure: which people waiting for one rule set form a table, and when.

A person waiting is a ``Seeker`` in the pool of one rule set (``PoolRules``: the game, its
resolved options and the number of players). How far apart in rating a seeker accepts the others
grows with their wait (``Schedule``, designed in ``pairing.toml``), and a table forms only when
every person at it accepts it: the spread of its ratings is within each member's accepted gap.
The pools themselves (in memory, or shared through Redis) and the tables they make live in
``server/pairing/``; this module knows no clock, no storage and no room.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from asobiba.core.options import rule_key

DATA_FILE = "pairing.toml"


@dataclass(frozen=True)
class Step:
    """From ``after`` seconds of waiting on, a seeker accepts a spread of ``gap`` points."""

    after: float
    gap: float
    reason: Mapping[str, str]
    """Why, in the words shown to players: ``{"en", "ja"}``."""


@dataclass(frozen=True)
class Schedule:
    """The designed widening and the computer's offer (``pairing.toml``)."""

    steps: tuple[Step, ...]
    offer_seconds: float
    offer_reason: Mapping[str, str]
    clock_move: float
    clock_reserve: float

    def __post_init__(self) -> None:
        if not self.steps or self.steps[0].after != 0:
            raise ValueError("the widening starts at 0 seconds")
        afters = [step.after for step in self.steps]
        gaps = [step.gap for step in self.steps]
        if afters != sorted(set(afters)) or gaps != sorted(gaps) or gaps[0] < 0:
            raise ValueError("the widening's steps come later and wider, one after another")
        if self.offer_seconds < 0:
            raise ValueError("the computer's offer comes after a wait of 0 seconds or more")

    def gap(self, waited: float) -> float:
        """The widest spread of ratings a seeker who has waited ``waited`` seconds accepts."""
        accepted = self.steps[0].gap
        for step in self.steps:
            if waited >= step.after:
                accepted = step.gap
        return accepted

    def to_json(self) -> dict[str, Any]:
        """What the page shows: each step (``gap`` null: anyone) and the offer's wait."""
        return {
            "steps": [
                {
                    "after": step.after,
                    "gap": None if math.isinf(step.gap) else step.gap,
                    "reason": dict(step.reason),
                }
                for step in self.steps
            ],
            "offer_seconds": self.offer_seconds,
            "offer_reason": dict(self.offer_reason),
        }


def _reason(entry: Mapping[str, Any], where: str) -> dict[str, str]:
    if entry.get("source") != "designed" or not entry.get("reason") or not entry.get("reason_ja"):
        raise ValueError(f"{DATA_FILE}: {where} needs source = 'designed', reason and reason_ja")
    return {"en": str(entry["reason"]), "ja": str(entry["reason_ja"])}


def load_schedule(text: str | None = None) -> Schedule:
    """The schedule of ``pairing.toml`` (or of ``text``, the same format). Raises ``ValueError``
    for a file that does not say where a value comes from or whose steps do not widen."""
    if text is None:
        text = resources.files(__package__).joinpath(DATA_FILE).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    steps = tuple(
        Step(float(entry["after"]), float(entry["gap"]), _reason(entry, f"widening {n}"))
        for n, entry in enumerate(data["widening"])
    )
    offer, table = data["offer"], data["table"]
    _reason(table, "table")
    return Schedule(
        steps,
        float(offer["seconds"]),
        _reason(offer, "offer"),
        float(table["move"]),
        float(table["reserve"]),
    )


@cache
def designed_schedule() -> Schedule:
    """The schedule of ``pairing.toml``, read once."""
    return load_schedule()


@dataclass(frozen=True)
class PoolRules:
    """What a pool is for: one game, one resolved rule set, one number of players."""

    game: str
    options: Mapping[str, Any]
    """Resolved (``Game.resolve_options``): one rule set has one form, so one pool."""
    players: int

    @property
    def key(self) -> str:
        """The pool's name, the same on every process: ``mancala/2/capture=standard,...``."""
        return f"{self.game}/{self.players}/{rule_key(self.options)}"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": dict(self.options), "players": self.players}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PoolRules:
        return cls(str(data["game"]), dict(data["options"]), int(data["players"]))


@dataclass(frozen=True)
class Seeker:
    """One person waiting in a pool (one per person: a second tab is the same seeker)."""

    player: str
    rating: float
    since: float
    """When they started waiting, in the pool's seconds (one clock for every process)."""


def form_tables(
    seekers: Iterable[Seeker], size: int, now: float, schedule: Schedule
) -> list[tuple[Seeker, ...]]:
    """The tables of ``size`` people to make now from the seekers of one pool.

    Whoever has waited longest comes first: in order of arrival, each seeker not yet placed gets
    the table with the smallest spread of ratings it can be part of (ties: the one whose people
    have waited longest), if any. A table is possible when its spread is within every member's
    accepted gap (``Schedule.gap`` of their own wait), so nobody is placed with someone further
    from them than they accept yet. For more than two players the tables looked at are runs of
    seekers next to one another in rating among those near enough to the first: the closest
    tables containing it."""
    if size < 1:
        raise ValueError("a table has at least one seat")
    left = sorted(seekers, key=lambda seeker: (seeker.since, seeker.player))
    if len({seeker.player for seeker in left}) != len(left):
        raise ValueError("one seeker per person")
    gaps = {seeker.player: schedule.gap(now - seeker.since) for seeker in left}
    tables: list[tuple[Seeker, ...]] = []
    placed: set[str] = set()
    for first in left:
        if first.player in placed:
            continue
        free = [seeker for seeker in left if seeker.player not in placed]
        table = _closest_table(first, free, size, gaps)
        if table is not None:
            tables.append(table)
            placed.update(seeker.player for seeker in table)
    return tables


def _closest_table(
    first: Seeker, free: Sequence[Seeker], size: int, gaps: Mapping[str, float]
) -> tuple[Seeker, ...] | None:
    """The possible table of ``size`` with ``first`` of smallest spread, or None."""
    near = [
        seeker
        for seeker in free
        if seeker is first
        or abs(seeker.rating - first.rating) <= min(gaps[first.player], gaps[seeker.player])
    ]
    if len(near) < size:
        return None
    ranked = sorted(near, key=lambda seeker: (seeker.rating, seeker.since, seeker.player))
    at = ranked.index(first)
    best: tuple[tuple[float, float], tuple[Seeker, ...]] | None = None
    for start in range(max(0, at - size + 1), min(at, len(ranked) - size) + 1):
        run = tuple(ranked[start : start + size])
        spread = run[-1].rating - run[0].rating
        if spread > min(gaps[seeker.player] for seeker in run):
            continue
        score = (spread, sum(seeker.since for seeker in run))
        if best is None or score < best[0]:
            best = (score, run)
    if best is None:
        return None
    return tuple(sorted(best[1], key=lambda seeker: (seeker.since, seeker.player)))
