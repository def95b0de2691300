"""Mancala's computer opponents, one class per way of choosing, tuned by the levels in data.toml.

A bot rebuilds the board from its observation alone (the observation is the whole truth in
Mancala, but going through it keeps bots honest by construction) and plays the kernel's moves.
Its random choices come from a keyed stream (core/rng.py) of the bot's seed labelled by the
position, so a bot's move is a pure function of (seed, observation): a replay, a restarted server
or another worker process gets the same move. The one exception is a search stopped by its
clock rather than its node budget (the expert on a slow or busy machine): how far it got depends
on the machine.
"""

from __future__ import annotations

import math
import random
import time as _time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from asobiba.core.bots import Bot
from asobiba.core.errors import InvalidOptions
from asobiba.core.rng import stream
from asobiba.games.mancala import book, endgame, native
from asobiba.games.mancala.board import Rules, finish, sow
from asobiba.games.mancala.data import LEVEL_BY_ID, Level
from asobiba.games.mancala.search import SCALE, Result, Search


def make_bot(
    level: str,
    seed: int,
    *,
    nodes: int | None = None,
    time: float | None = None,
    clock: Callable[[], float] = _time.perf_counter,
    endgame: bool | None = None,
) -> Bot:
    """The bot of ``level`` (an id from data.toml); ``nodes``/``time``/``endgame`` override its
    budget and whether it reads the endgame table.

    The overrides exist for tests and benchmarks that need a fast or a fixed-size expert. The
    clock is read only by levels with a time budget, and only by the pure-Python search (the C
    kernel reads its own monotonic clock).
    """
    try:
        spec = LEVEL_BY_ID[level]
    except KeyError:
        raise InvalidOptions(
            f"unknown mancala bot level {level!r}; known: {list(LEVEL_BY_ID)}"
        ) from None
    if nodes is not None or time is not None:
        spec = _with_budget(spec, nodes, time)
    if endgame is not None:
        spec = replace(spec, endgame=endgame)
    if spec.depth == 0:
        return NoviceBot(spec, seed)
    return SearchBot(spec, seed, clock)


def _with_budget(spec: Level, nodes: int | None, time: float | None) -> Level:
    return replace(
        spec,
        nodes=spec.nodes if nodes is None else nodes,
        time=spec.time if time is None else time,
    )


def position(observation: dict[str, Any]) -> tuple[Rules, list[int], int]:
    """``(rules, board, player to move)`` rebuilt from an observation, in the kernel's layout."""
    rules = Rules.from_options(observation["options"])
    pits = observation["pits"]
    stores = observation["stores"]
    player = observation["to_move"]
    if player not in (0, 1):
        raise ValueError(f"no one is to move in this observation (to_move={player!r})")
    return rules, [*pits[0], stores[0], *pits[1], stores[1]], player


class _MancalaBot(ABC):
    """What every level shares: the position, the per-move generator, the answer from ``legal``."""

    def __init__(self, level: Level, seed: int) -> None:
        self.level = level
        self.seed = seed

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        rules, board, player = position(observation)
        rng = stream(self.seed, f"bot/mancala/{observation.get('ply')}/{player}/{board}")
        by_pit = {action["pit"]: action for action in legal}
        pit = self._pit(rules, board, player, rng)
        if pit not in by_pit:
            raise ValueError(f"bot chose pit {pit}, not among the legal actions {legal!r}")
        return by_pit[pit]

    @abstractmethod
    def _pit(self, rules: Rules, board: list[int], player: int, rng: random.Random) -> int:
        """The pit to play, 0..n-1 in the mover's sowing order."""

    def _softmax(self, values: dict[int, float], rng: random.Random) -> int:
        """Draw a move with probability growing with its value; ``temperature`` sets how fast."""
        top = max(values.values())
        scale = max(self.level.temperature, 1e-9)
        pits = list(values)
        weights = [math.exp((values[p] - top) / scale) for p in pits]
        return rng.choices(pits, weights)[0]


class NoviceBot(_MancalaBot):
    """A new player's reading: only its own move, never the opponent's reply.

    It takes an extra turn whenever it has one (the pit nearest the store first, as the rulebook's
    tips teach), notices each capture with chance ``sight`` and takes the biggest it noticed;
    otherwise, and on a ``blunder``, it picks by softmax over the stones the move puts in its
    store (Basic: the stones that leave its side).
    """

    def _pit(self, rules: Rules, board: list[int], player: int, rng: random.Random) -> int:
        n = rules.pits
        base = player * (n + 1)
        gains: dict[int, float] = {}
        extra_turns: list[int] = []
        captures: dict[int, int] = {}
        for pit in range(n - 1, -1, -1):
            if not board[base + pit]:
                continue
            after = board[:]
            _, extra, captured = sow(after, rules, player, pit)
            finish(after, rules)
            if rules.basic:
                gains[pit] = sum(board[base : base + n]) - sum(after[base : base + n])
            else:
                gains[pit] = after[base + n] - board[base + n] - captured
            if extra:
                extra_turns.append(pit)
            elif captured > 1 and rng.random() < self.level.sight:
                captures[pit] = captured
        if rng.random() < self.level.blunder:
            return self._softmax(gains, rng)
        if extra_turns:
            return extra_turns[0]
        if captures:
            return max(captures, key=lambda pit: (captures[pit], pit))
        return self._softmax(gains, rng)


class SearchBot(_MancalaBot):
    """Negamax alpha-beta (search.py, or the same in C: native.py) to ``depth`` moves, or as deep
    as the budget allows.

    On a slip (chance ``blunder``) every move is valued ``depth`` moves deep with a full window
    and the softmax draws one, maybe a lesser one; otherwise iterative deepening finds the best
    move within ``nodes`` and ``time``. Kalah runs on the C kernel where it was built: the same
    values and moves, so the levels without a budget play as they did, and the expert's node
    budget is counted in the kernel's positions (on the pure-Python fallback its clock stops it
    first). A level with ``endgame`` loads the endgame table first (built once, endgame.py); one
    with ``book`` plays the opening book's move where it has one (book.py).
    """

    def __init__(self, level: Level, seed: int, clock: Callable[[], float]) -> None:
        super().__init__(level, seed)
        self._clock = clock
        self.last: Result | None = None
        """The last best-move search (depth, nodes, exactness), for benchmarks and logs."""

    def _pit(self, rules: Rules, board: list[int], player: int, rng: random.Random) -> int:
        level = self.level
        self.last = None
        if level.blunder and rng.random() < level.blunder:
            values = Search(rules).values(board, player, level.depth)
            return self._softmax({p: v / SCALE for p, v in values.items()}, rng)
        booked = book.move(rules, board, player) if level.book else None
        if booked is not None:
            return booked
        if native.available(rules):
            tabled = level.endgame and endgame.ensure(rules)
            self.last = native.best(
                rules, board, player, level.depth, level.nodes, level.time, endgame=tabled
            )
            return self.last.pit
        clock = self._clock if level.time else None
        search = Search(rules, nodes=level.nodes, time=level.time, clock=clock)
        self.last = search.best(board, player, level.depth)
        return self.last.pit
