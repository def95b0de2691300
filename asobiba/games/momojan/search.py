"""The searching level (expert): the ukeire player whose last steps to a win are searched
exactly over the unseen cards and valued in points, with a defence computed from them.

Close to a win the ukeire player only counts cards; this level asks what they are worth. A ready
hand is valued by its waits, each weighted by its unseen copies and by the points the win
would score (yaku, dora, the set bonus, the doubling at 7; riichi counted, since it always
declares). A hand one step from ready is valued by searching its own next draw: every unseen
card that makes it ready, weighted by its copies, and after it the best discard's ready value.
Against a riichi each discard costs its chance of dealing in, computed from the unseen cards
(``deal_in_chances``). Far from ready, and between shanten steps, it plays like the ukeire
player. The unseen cards are the deck less everything the seat sees, so nothing beyond the
observation is read, and every decision is a pure function of (bot seed, observation).

On its own the search gains little over the ukeire player (54% over 600 arena games); the
offered strong level is that player with a careless discard now and then (``slip``), which
this level never makes (docs/STRENGTH.md).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from asobiba.games.momojan.bots import (
    NEAR,
    Action,
    GreedyBot,
    View,
    shanten,
    waits_beside,
    without,
)
from asobiba.games.momojan.cards import DECK, KINDS, Card, copies, is_peach, sort_cards, sort_key
from asobiba.games.momojan.data import NUMBERS, Level
from asobiba.games.momojan.hand import head_ok, set_kind
from asobiba.games.momojan.scoring import Meld, Win, score

READY_SCALE = 20.0
"""Weighted waits (copies × points) at which a ready hand's bonus is half of one step."""
NEAR_SCALE = 150.0
"""The same for a hand one step from ready (copies of each card that readies it × the value
of the ready hand it makes)."""
FURITEN = 0.5
"""A furiten hand can only win by ツモ: its waits count this much."""
GUARD = (0.3, 1.0, 5.0)
"""Against a riichi: what a discard's chance of dealing in costs, in shanten steps, when the hand
left is ready, one step from ready, or further."""
_ALL_SETS = sorted({tuple(sort_cards(t)) for t in combinations(DECK, 3) if set_kind(t)})
_ALL_HEADS = sorted({tuple(sort_cards(p)) for p in combinations(DECK, 2) if head_ok(*p)})
_HEAD_PARTNERS: dict[Card, frozenset[Card]] = {
    card: frozenset(x for x in KINDS if head_ok(card, x)) for card in KINDS
}
_SET_THIRDS: dict[tuple[Card, Card], frozenset[Card]] = {}
for _trio in _ALL_SETS:
    for _i in range(3):
        _pair = (_trio[(_i + 1) % 3], _trio[(_i + 2) % 3])
        _key = (min(_pair, key=sort_key), max(_pair, key=sort_key))
        _SET_THIRDS[_key] = _SET_THIRDS.get(_key, frozenset()) | {_trio[_i]}


def _ways(pool: Counter[Card], cards: tuple[Card, ...]) -> int:
    """Ways to take ``cards`` (a multiset) from the unseen ``pool``."""
    ways = 1
    for card, n in Counter(cards).items():
        ways *= math.comb(pool[card], n)
    return ways


def deal_in_chances(
    pool: Counter[Card], river: Iterable[Card], hand_size: int, opened: Iterable[Card]
) -> dict[Card, float]:
    """For each card, the chance that it wins the hand of a player in riichi, whose ``hand_size``
    cards are unseen (``pool``), who discarded ``river`` and whose open sets hold ``opened``.

    The ready hand is one of two local shapes beside complete sets and a head: a single card
    waiting for its head (every card that pairs with it), or two cards of a set waiting for its
    third. Each shape is weighted by the ways the unseen cards deal it with the rest complete
    (a 1-card hand is always a single). A wait whose every copy is in the shape or the open
    sets is none, and a shape left with none is not ready, so it is not dealt (the engine
    refuses such a riichi). A shape with a card of the river among its waits is furiten: it
    can ロン only a モモ. The chance is the weight of the shapes a card wins, over the weight of
    all.
    """
    thrown = {c for c in river if not is_peach(c)}
    held = Counter(opened)

    def live(waits: frozenset[Card], shape: tuple[Card, ...]) -> frozenset[Card]:
        return frozenset(c for c in waits if held[c] + shape.count(c) < copies(c))

    sets = float(sum(_ways(pool, trio) for trio in _ALL_SETS))
    heads = sum(_ways(pool, pair) for pair in _ALL_HEADS)
    shapes: list[tuple[float, frozenset[Card]]] = [
        (pool[x] * (sets if hand_size > 1 else 1), live(_HEAD_PARTNERS[x], (x,)))
        for x in pool
        if pool[x]
    ]
    if hand_size > 1:
        shapes += [
            (_ways(pool, pair) * heads, live(thirds, pair))
            for pair, thirds in _SET_THIRDS.items()
            if _ways(pool, pair)
        ]
    shapes = [(weight, waits) for weight, waits in shapes if waits]
    total = sum(weight for weight, _ in shapes) or 1.0
    chance: dict[Card, float] = dict.fromkeys(KINDS, 0.0)
    for weight, waits in shapes:
        furiten = not waits.isdisjoint(thrown)
        for card in waits:
            if not furiten or is_peach(card):
                chance[card] += weight
    return {card: chance[card] / total for card in KINDS}


@lru_cache(maxsize=1 << 16)
def win_points(
    hand: tuple[Card, ...], melds: tuple[Meld, ...], card: Card, indicator: Card, riichi: bool
) -> float:
    """The mean of the ツモ and ロン totals when ``card`` completes ``hand`` (3k+1 cards,
    ``melds`` open), 0 when it is no win (no shape, too few sets or no yaku)."""
    full = tuple(sort_cards((*hand, card)))
    totals = []
    for ron in (False, True):
        won = score(Win(full, melds, card, ron, indicator, riichi))
        totals.append(won.total if won else 0)
    return sum(totals) / 2


@dataclass
class Reach:
    """What valuing a hand within reach of a win needs beside the hand."""

    melds: tuple[Meld, ...]
    pool: Counter[Card]
    """The unseen cards."""
    indicator: Card
    riichi: bool
    """Whether the win will have riichi (declared, or to be declared when ready)."""


def ready_value(hand: tuple[Card, ...], reach: Reach) -> float:
    """Σ over the waits of a ready hand of (unseen copies × points the win scores); 0 when the
    hand is not ready."""
    pool = reach.pool
    return sum(
        pool[card] * win_points(hand, reach.melds, card, reach.indicator, reach.riichi)
        for card in waits_beside(hand, reach.melds)
        if pool[card]
    )


def near_value(hand: tuple[Card, ...], reach: Reach) -> float:
    """Σ over the unseen cards that make ``hand`` (3k+1 cards, one step from ready) ready with
    the best discard after them, of (unseen copies × that ready hand's ``ready_value``, with
    the drawn card's copy taken out of the pool)."""
    opened = len(reach.melds)
    pool = reach.pool
    total = 0.0
    for card in frozenset().union(*(NEAR[c] for c in hand)):
        if not pool[card]:
            continue
        grown = tuple(sort_cards((*hand, card)))
        if shanten(grown, opened) > 0:
            continue
        pool[card] -= 1
        best = 0.0
        for out in set(grown):
            left = without(grown, [out])
            if shanten(left, opened) == 0:
                best = max(best, ready_value(left, reach))
        pool[card] += 1
        total += pool[card] * best
    return total


class SearchBot(GreedyBot):
    """The ukeire player whose hands within one step of ready are valued by the search above
    (module docstring)."""

    def __init__(self, level: Level, seed: int) -> None:
        super().__init__(level, seed)
        self._deal_in: dict[Card, float] = {}
        """This decision's ``deal_in_chances`` against a riichi (empty without one)."""

    def _choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        self._deal_in = {}
        if view.opponent_riichi:
            other = 1 - view.seat
            river = [d["card"] for d in view.observation["rivers"][other]]
            size = view.observation["hand_sizes"][other]
            opened = [c for m in view.observation["open_sets"][other] for c in m["cards"]]
            self._deal_in = deal_in_chances(view.pool, river, size, opened)
        return super()._choose(view, legal, rng)

    def _guard(self, view: View, card: Card, value: float) -> float:
        """The chance ``card`` deals in (``deal_in_chances``) at the price ``GUARD`` sets for
        the hand left at ``value``."""
        if not self._deal_in:
            return 0.0
        return GUARD[min(max(math.ceil(value), 0), 2)] * self._deal_in[card]

    def _hand_value(self, view: View, left: tuple[Card, ...], melds: tuple[Meld, ...]) -> float:
        """The ukeire player's value, less a fraction (0 to 1) for the points within reach of
        a hand ready or one step from it (so a ready hand whose waits are all in sight can
        rank below a rich hand one step away)."""
        value = super()._hand_value(view, left, melds)
        steps = shanten(left, len(melds))
        riichi = view.riichi or view.left >= NUMBERS.riichi_min_pile
        reach = Reach(melds, view.pool, view.indicator, riichi)
        if steps == 0:
            points = ready_value(left, reach)
            if view.furiten(left, melds):
                points *= FURITEN
            return value - points / (points + READY_SCALE)
        if steps == 1:
            points = near_value(left, reach)
            return value - points / (points + NEAR_SCALE)
        return value
