"""A searching level, not offered yet: determinized rollouts over deals sampled from the bot's
own observation.

The ukeire player (bots.GreedyBot) names its best few actions; each is tried on the same sampled
deals (``sample.sample_state``: the unseen cards shuffled into the opponent's hand, the piles and
the cards aside) and the round is played out by a quick shanten player for both seats. The
action with the best mean point gain for the round wins; ties, and decisions with one sensible
candidate, go to the ukeire player's choice. Every playout draws from a generator seeded by the
bot's seed and the observation, so the decision is deterministic unless the clock cuts the
playouts short on a slow or busy machine.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable
from dataclasses import replace

from asobiba.games.momojan.bots import Action, GreedyBot, _rng, _View, _without, shanten
from asobiba.games.momojan.cards import Card, sort_cards
from asobiba.games.momojan.data import NUMBERS, Level
from asobiba.games.momojan.hand import hand_waits, sets_in, sets_with
from asobiba.games.momojan.rules import (
    CALLED,
    OVER,
    START,
    Event,
    Momojan,
    MomojanState,
    _call,
    _discard,
    _draw,
    _draw3,
    _kai,
    _ron_score,
    _settle_wall,
    _settle_win,
    _tsumo_score,
)
from asobiba.games.momojan.sample import sample_state

_GAME = Momojan()
EXPERT = Level(
    id="expert",
    name_ja="すごい",
    name_en="Expert",
    style="search",
    slip=0.0,
    call=1.0,
    samples=16,
    rollouts=24,
    time=0.6,
    source="designed",
    reason="Not offered: in 100 duplicate games it scored 51-49 against Strong.",
    reason_ja="未公開：「つよい」との100局で51勝49敗でした。",
)
"""The searching level as measured (docs/STRENGTH.md); not in data.toml, so not offered,
until it beats the strong level. Tests and bench/ build it from here."""
CANDIDATES = 3
"""Actions the search compares: the ukeire player's best few."""
MARGIN = 1.0
"""Candidates valued this much worse (in shanten) than the best are not tried."""
CONFIDENCE = 1.0
"""Standard errors by which another candidate must beat the ukeire player's choice."""
PLAYOUT_PLIES = 400
"""A safety cap on one playout's length (a round takes well under 100 plies)."""


class SearchBot(GreedyBot):
    """Determinized rollouts over the ukeire player's best candidates (module docstring)."""

    def __init__(
        self,
        level: Level,
        seed: int,
        *,
        time: float | None = None,
        clock: Callable[[], float] = _time.perf_counter,
    ) -> None:
        super().__init__(level, seed)
        self.budget = level.time if time is None else time
        self.clock = clock
        self.playouts = 0
        """Playouts run by the last decision (for benchmarks)."""

    def _choose(self, view: _View, legal: list[Action], rng: random.Random) -> Action:
        self.playouts = 0
        started = self.clock()
        candidates = self._candidates(view, legal, rng)
        if len(candidates) < 2:
            return candidates[0] if candidates else super()._choose(view, legal, rng)
        seat = view.seat
        before = view.observation["points"][seat]
        gains: list[list[int]] = [[] for _ in candidates]
        done = 0
        play_rng = _rng(self.seed, view.observation, "search")
        while done < self.level.rollouts:
            world = sample_state(view.observation, play_rng)
            seed = play_rng.randrange(1 << 30)
            for i, action in enumerate(candidates):
                after = _GAME.apply(world, seat, action)
                gains[i].append(_playout(after, seat, random.Random(seed)) - before)
                self.playouts += 1
            done += 1
            # Stop before a further deal would overrun the clock (each takes about as long).
            spent = self.clock() - started
            if self.budget and spent + spent / done > self.budget:
                break
        return candidates[_confident_best(gains)]

    def _candidates(self, view: _View, legal: list[Action], rng: random.Random) -> list[Action]:
        """The ukeire player's choice first, then its next best within ``MARGIN``."""
        first = super()._choose(view, legal, random.Random(rng.random()))
        kinds = {a["type"] for a in legal}
        valued: list[tuple[float, Action]] = []
        if kinds & {"draw", "pass"}:
            # Calling or not: the first draw (or pass) stands for every pile.
            plain = next(a for a in legal if a["type"] in ("draw", "pass"))
            calls = [a for a in legal if a["type"] in ("pon", "chi")]
            if first["type"] in ("draw", "pass"):
                first = plain
            options = [first] + [a for a in [plain, *calls] if a != first]
            return options[: CANDIDATES + 1] if calls else [first]
        for action in legal:
            if action["type"] == "discard":
                left = _without(view.hand, [action["card"]])
                value = self._discard_value(view, left, action["card"])
                valued.append((value - (0.01 if action["riichi"] else 0), action))
            elif action["type"] == "kai":
                value = self._called_value(view, _without(view.hand, action["cards"]), rng)
                valued.append((value, action))
            elif action["type"] == "draw3":
                valued.append((self._draw3_value(view, view.hand, view.opened, rng), action))
        valued.sort(key=lambda v: v[0])
        top = valued[0][0] if valued else 0.0
        out = [first]
        for value, action in valued:
            if len(out) > CANDIDATES or value > top + MARGIN:
                break
            if action not in out:
                out.append(action)
        return out


def _confident_best(gains: list[list[int]]) -> int:
    """The candidate to play: the first (the ukeire player's choice) unless another gains more
    on the same deals by more than ``CONFIDENCE`` standard errors of the paired difference."""
    best, best_mean = 0, 0.0
    base = gains[0]
    for i in range(1, len(gains)):
        diffs = [a - b for a, b in zip(gains[i], base, strict=True)]
        n = len(diffs)
        if n < 2:
            continue
        mean = sum(diffs) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean > best_mean and mean > CONFIDENCE * spread:
            best, best_mean = i, mean
    return best


def _playout(state: MomojanState, seat: int, rng: random.Random) -> int:
    """Play the round out with the quick player in both seats; ``seat``'s points after it."""
    number = state.round_no
    for _ in range(PLAYOUT_PLIES):
        if state.phase == OVER or state.round_no != number:
            break
        state = _quick(state, rng)
    for result in reversed(state.results):
        if result.number == number:
            return result.points[seat]
    return state.points[seat]


def _quick(state: MomojanState, rng: random.Random) -> MomojanState:
    """One step of a fast shanten player on the sampled world, through the engine's own moves
    (the legal list is not built: every move made here is one the engine offers). It wins when
    it can, calls when that brings it closer, 開 whenever it can and then draws three, and
    declares riichi when ready."""
    seat = state.turn
    hand = state.hands[seat]
    opened = len(state.melds[seat])
    left = sum(map(len, state.piles))
    if state.phase == START:
        offer = state.offer
        if offer is not None:
            won = _ron_score(state, seat)
            if won is not None:
                return _settle_win(state, seat, won, ron=True)
            if not state.riichi[seat]:
                now = shanten(hand, opened)
                for kind, pair in sets_with(offer, hand):
                    rest = _without(hand, pair)
                    after = min(shanten(_without(rest, [c]), opened + 1) for c in set(rest))
                    if after < now:
                        return _call(state, seat, "chi" if kind == "run" else "pon", pair)
        if not left:
            return _settle_wall(replace(state, last=Event(state.round_no, seat, "pass")))
        return _draw(state, seat, rng.choice([p for p, pile in enumerate(state.piles) if pile]))
    if state.phase != CALLED:
        won = _tsumo_score(state, seat)
        if won is not None:
            return _settle_win(state, seat, won, ron=False)
        if state.riichi[seat]:
            return _discard(state, seat, state.drawn[0], False)
        trios = sets_in(hand)
        if trios:
            return _kai(state, seat, trios[0])
    elif left >= 3:
        return _draw3(state, seat)
    best: list[Card] = []
    value = 99
    for card in set(hand):
        v = shanten(_without(hand, [card]), opened)
        if v < value:
            value, best = v, [card]
        elif v == value:
            best.append(card)
    card = rng.choice(sort_cards(best))
    riichi = (
        value == 0
        and left >= NUMBERS.riichi_min_pile
        and bool(hand_waits(_without(hand, [card]), opened))
    )
    return _discard(state, seat, card, riichi)
