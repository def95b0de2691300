"""MOMOJAN's computer opponents, tuned by the levels in data.toml.

A bot sees one seat's observation and its legal actions, nothing else: the unseen cards are the
deck less its own hand, both rivers, every open set and the dora indicator. Its random choices
come from a keyed stream (core/rng.py) of the bot's seed labelled by the observation, so a
decision is a pure function of (seed, observation): a replay, a restarted server or another
worker process gets the same one (the searching level also stops on its clock on a slow machine).

The hand measure is a shanten for this game: a win needs at least 3 sets (open ones count) and a
head, and every card in the hand must be used, so a hand of ``n`` cards holds ``(n - 1) // 3``
sets and a head at the win. When the open sets and those cannot reach 3 (7 cards and nothing
open), the hand must grow by a 開, ポン or チー and a draw of three, and is measured as if it had
to hold the missing set too. ``shanten`` is 0 when one card wins, -1 for a winning shape.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from typing import Any

from asobiba.core.rng import stream
from asobiba.games.momojan.cards import DECK, KINDS, Card, is_dora, is_fruit, is_peach, sort_cards
from asobiba.games.momojan.data import Level
from asobiba.games.momojan.hand import SETS_TO_WIN, hand_waits, head_ok, set_kind
from asobiba.games.momojan.scoring import Meld

Action = dict[str, Any]

KAI_TIE = 0.001
"""Added to a 開's value: on a tie the hand stays closed and flexible."""
KEEP = 0.05
"""Added to a discard's value for throwing a dora, and again for a モモ (wild, so flexible),
while the hand left is not ready: a tie-break worth five unseen cards that help."""

_SETS: frozenset[tuple[Card, Card, Card]] = frozenset(
    (a, b, c) for a, b, c in combinations(sort_cards(DECK), 3) if set_kind((a, b, c)) is not None
)
"""Every set as its three cards in sorting order (pictures repeat)."""
_PARTIALS: frozenset[tuple[Card, Card]] = frozenset(
    pair for trio in _SETS for pair in ((trio[0], trio[1]), (trio[0], trio[2]), (trio[1], trio[2]))
)
"""Every two cards (sorted) that a third card makes a set."""
_PAIRS_WITH: dict[Card, tuple[tuple[Card, Card], ...]] = {
    card: tuple(
        sorted(
            {
                tuple(x for i, x in enumerate(trio) if i != trio.index(card))  # type: ignore[misc]
                for trio in _SETS
                if card in trio
            }
        )
    )
    for card in KINDS
}
"""For each card, every two cards that make a set with it."""
_HEAD_WITH: dict[Card, tuple[Card, ...]] = {
    card: tuple(k for k in KINDS if head_ok(card, k)) for card in KINDS
}
_HEADS: frozenset[tuple[Card, Card]] = frozenset(
    (a, b) for a in KINDS for b in _HEAD_WITH[a] if KINDS.index(a) <= KINDS.index(b)
)
"""Every head as its two cards in sorting order."""
NEAR: dict[Card, frozenset[Card]] = {
    card: frozenset(x for pair in _PAIRS_WITH[card] for x in pair) | frozenset(_HEAD_WITH[card])
    for card in KINDS
}
"""For each card, every card that shares a set, a partial set or a head with it."""


# --- hand measures -----------------------------------------------------------------------------


def hand_capacity(size: int) -> int:
    """Sets a hand of ``size`` cards holds at the win (a head beside them)."""
    return (size - 1) // 3 if size % 3 == 1 else (size - 2) // 3


def shanten(cards: Iterable[Card], opened: int) -> int:
    """Cards away from a winning shape: 0 ready (a hand of 3k+1), -1 complete (3k+2).

    The standard count 2k - 2·sets - partials - head over the best split, where ``k`` is the
    sets the hand must hold: its capacity, or more when the open sets fall short of three.
    """
    hand = tuple(sort_cards(cards))
    need = max(hand_capacity(len(hand)), SETS_TO_WIN - opened, 0)
    return 2 * need - _best(hand, need)


def _best(hand: tuple[Card, ...], need: int) -> int:
    """The best 2·sets + partials (at most ``need`` blocks) + head over every split."""
    return max(
        2 * min(sets, need) + min(partials, max(need - sets, 0)) + head
        for sets, partials, head in _splits(hand, False)
    )


@lru_cache(maxsize=1 << 18)
def _splits(rest: tuple[Card, ...], head: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partials, head) that sorted ``rest`` splits into, dominated ones dropped;
    ``head`` when a head is already taken. Cached on the suffix, so hands share the work."""
    if not rest:
        return frozenset({(0, 0, 0)})
    first, tail = rest[0], rest[1:]
    found: set[tuple[int, int, int]] = set(_splits(tail, head))
    for i in range(len(tail)):
        b = tail[i]
        if i and tail[i - 1] == b:
            continue
        rem = tail[:i] + tail[i + 1 :]
        if (first, b) in _PARTIALS:
            found |= {(s, p + 1, h) for s, p, h in _splits(rem, head)}
        if not head and (first, b) in _HEADS:
            found |= {(s, p, 1) for s, p, _ in _splits(rem, True)}
        for j in range(i + 1, len(tail)):
            c = tail[j]
            if tail[j - 1] == c and j - 1 > i:
                continue
            if (first, b, c) in _SETS:
                rem3 = tail[:i] + tail[i + 1 : j] + tail[j + 1 :]
                found |= {(s + 1, p, h) for s, p, h in _splits(rem3, head)}
    return frozenset(
        x
        for x in found
        if not any(y != x and y[0] >= x[0] and y[1] >= x[1] and y[2] >= x[2] for y in found)
    )


def unseen(observation: dict[str, Any]) -> Counter[Card]:
    """The cards this seat cannot see: the deck less its hand, both rivers (a called discard is
    counted in the set that took it), every open set and the dora indicator."""
    left = Counter(DECK)
    seen: list[Card] = list(observation["hand"] or [])
    for river in observation["rivers"]:
        seen += [d["card"] for d in river if not d["called"]]
    for melds in observation["open_sets"]:
        for meld in melds:
            seen += meld["cards"]
    seen.append(observation["dora_indicator"])
    left.subtract(seen)
    return +left


def ukeire(cards: tuple[Card, ...], opened: int, pool: Counter[Card]) -> int:
    """Unseen cards (copies counted) that bring a hand of 3k+1 cards one step closer."""
    now = shanten(cards, opened)
    near: set[Card] = set()
    for card in cards:
        near |= NEAR[card]
    return sum(pool[kind] for kind in near if pool[kind] and shanten((*cards, kind), opened) < now)


def waits_beside(hand: tuple[Card, ...], melds: tuple[Meld, ...]) -> frozenset[Card]:
    """The waits of sorted ``hand`` beside the open ``melds`` (``hand_waits``): a card whose
    every copy is in the hand or those sets is none."""
    return hand_waits(hand, [m.cards for m in melds])


def without(cards: Iterable[Card], gone: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` less one copy of each of ``gone``."""
    left = list(cards)
    for card in gone:
        left.remove(card)
    return tuple(left)


# --- the bots ----------------------------------------------------------------------------------


class View:
    """What a decision needs from the observation, computed once."""

    def __init__(self, observation: dict[str, Any]) -> None:
        seat = observation["seat"]
        if seat not in (0, 1) or observation["hand"] is None:
            raise ValueError("a bot needs a seated player's observation")
        self.seat: int = seat
        self.hand: tuple[Card, ...] = tuple(observation["hand"])
        self.melds: tuple[Meld, ...] = tuple(
            Meld(m["kind"], tuple(m["cards"]), m["claimed"]) for m in observation["open_sets"][seat]
        )
        self.opened: int = len(self.melds)
        self.pool: Counter[Card] = unseen(observation)
        self.left: int = sum(observation["piles"])
        self.indicator: Card = observation["dora_indicator"]
        self.riichi: bool = observation["riichi"][seat]
        self.opponent_riichi: bool = observation["riichi"][1 - seat]
        self.river: frozenset[Card] = frozenset(
            d["card"] for d in observation["rivers"][seat] if not is_peach(d["card"])
        )
        """Own discards but モモ: the cards that make a wait furiten."""
        self.observation = observation

    def furiten(self, hand: tuple[Card, ...], melds: tuple[Meld, ...]) -> bool:
        """Whether ``hand`` (ready beside ``melds``) waits on a card of its own river."""
        return bool(self.river) and any(c in self.river for c in waits_beside(hand, melds))

    def live(self, hand: tuple[Card, ...]) -> int:
        """Unseen copies of the cards that would complete ``hand`` with the open sets now: 0
        is a dead wait, which riichi would freeze into a hand that can never win."""
        return sum(self.pool[card] for card in waits_beside(hand, self.melds))

    def riichi_or(self, legal: list[Action], card: Card) -> Action:
        """The discard of ``card``, declaring riichi when that is legal and the wait it freezes
        still has a live card; else the plain discard."""
        riichi = {"type": "discard", "card": card, "riichi": True}
        if riichi in legal and self.live(without(self.hand, [card])):
            return riichi
        return {"type": "discard", "card": card, "riichi": False}


def _rng(seed: int, observation: dict[str, Any]) -> random.Random:
    """A generator that depends only on the seed and what the seat sees."""
    o = observation
    key = (
        o["round"],
        o["seat"],
        o["phase"],
        o["offer"],
        tuple(o["hand"]),
        tuple(len(r) for r in o["rivers"]),
        tuple(len(m) for m in o["open_sets"]),
        tuple(o["piles"]),
        tuple(o["points"]),
    )
    return stream(seed, f"bot/momojan/{key!r}")


def _first(legal: list[Action], kind: str) -> Action | None:
    return next((a for a in legal if a["type"] == kind), None)


class _MomojanBot:
    def __init__(self, level: Level, seed: int) -> None:
        self.level = level
        self.seed = seed

    def choose(self, observation: dict[str, Any], legal: list[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        for kind in ("tsumo", "ron"):
            win = _first(legal, kind)
            if win is not None:
                return win
        if len(legal) == 1:
            return legal[0]
        action = self._choose(View(observation), legal, _rng(self.seed, observation))
        if action not in legal:
            raise ValueError(f"bot chose {action!r}, not among the legal actions")
        return action

    def _choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        raise NotImplementedError


class BeginnerBot(_MomojanBot):
    """Keeps pairs, partial sets and sets; throws a loose card at random (or, on a slip, any
    card); takes a call or a 開 with chance ``call``; draws three whenever it may; declares
    riichi when its discard leaves it ready on a wait with a live card."""

    def _choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        calls = [a for a in legal if a["type"] in ("pon", "chi", "kai")]
        if calls and rng.random() < self.level.call:
            return rng.choice(calls)
        for kind in ("draw", "pass"):
            options = [a for a in legal if a["type"] == kind]
            if options:
                return rng.choice(options)
        draw3 = _first(legal, "draw3")
        if draw3 is not None:
            return draw3
        discards = [a for a in legal if a["type"] == "discard" and not a["riichi"]]
        hand = view.hand
        loose = [
            a
            for a in discards
            if not any(
                (min(a["card"], x, key=KINDS.index), max(a["card"], x, key=KINDS.index))
                in _PARTIALS
                or head_ok(a["card"], x)
                for x in without(hand, [a["card"]])
            )
        ]
        pool = discards if not loose or rng.random() < self.level.slip else loose
        return view.riichi_or(legal, rng.choice(pool)["card"])


class GreedyBot(_MomojanBot):
    """Minimises shanten; the ``ukeire`` style also counts the unseen cards that help, keeps
    dora, and after the opponent's riichi throws safe cards when far from ready.

    After a draw: each discard and each 開 is valued; a 開 (like a ポン or チー) is valued by
    the better of discarding at once and drawing three, the draw judged over ``samples`` random
    draws from the unseen cards. Riichi whenever the chosen discard allows it and leaves a
    live wait. The ``ukeire`` style counts a furiten wait's cards at half (only its own draws
    can win it), so of two waits with as many live cards it keeps the one it can ロン on.
    """

    def _choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        kinds = {a["type"] for a in legal}
        if kinds & {"draw", "pass"}:
            return self._start(view, legal, rng)
        options: list[tuple[float, int, Action]] = []
        for i, action in enumerate(legal):
            if action["type"] == "discard" and not action["riichi"]:
                left = without(view.hand, [action["card"]])
                value = self._discard_value(view, left, action["card"], view.melds)
                options.append((value, i, action))
            elif action["type"] == "kai":
                meld = Meld("kai", tuple(action["cards"]))
                value = self._called_value(view, without(view.hand, action["cards"]), meld, rng)
                options.append((value + KAI_TIE, i, action))
            elif action["type"] == "draw3":
                options.append((self._draw3_value(view, view.hand, view.melds, rng), i, action))
        best = min(options, key=lambda o: (o[0], o[1]))
        if best[2]["type"] == "kai" and rng.random() >= self.level.call:
            best = min((o for o in options if o[2]["type"] != "kai"), key=lambda o: (o[0], o[1]))
        action = best[2]
        if action["type"] == "discard" and self.level.slip and rng.random() < self.level.slip:
            # A careless moment: any card of the hand instead (the level's ``slip``).
            action = rng.choice([a for a in legal if a["type"] == "discard" and not a["riichi"]])
        if action["type"] == "discard":
            return view.riichi_or(legal, action["card"])
        return action

    def _start(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        now = shanten(view.hand, view.opened)
        best: tuple[float, Action] | None = None
        for action in legal:
            if action["type"] in ("pon", "chi"):
                value = self._called_value(
                    view, without(view.hand, action["cards"]), called_meld(view, action), rng
                )
                if best is None or value < best[0]:
                    best = (value, action)
        # A call replaces this turn's draw: take it when it brings the hand closer than now.
        if best is not None and best[0] < now and rng.random() < self.level.call:
            return best[1]
        draws = [a for a in legal if a["type"] == "draw"]
        return rng.choice(draws) if draws else legal[-1]

    def _discard_value(
        self, view: View, left: tuple[Card, ...], card: Card, melds: tuple[Meld, ...]
    ) -> float:
        """The hand ``left`` after discarding ``card`` (lower is better), ``melds`` open.

        Keeping a dora or a モモ is worth ``KEEP`` while the hand is still being built; a hand
        left ready is judged by its waits alone (their live cards, a furiten wait's at half,
        and for the expert their points, dora included): a keep bonus there, five live cards'
        worth, chose a furiten riichi over a wait as live it could ロン on."""
        value = self._hand_value(view, left, melds)
        if self.level.style == "greedy":
            return value
        if shanten(left, len(melds)) > 0:
            value += KEEP * (is_dora(card, view.indicator) + is_peach(card))
        return value + self._guard(view, card, value)

    def _guard(self, view: View, card: Card, value: float) -> float:
        """What discarding ``card`` risks against a riichi, in shanten steps, for a hand left
        at ``value``: far from ready, the safest card first."""
        if view.opponent_riichi and value >= 1:
            return (3.0 if value >= 2 else 0.6) * _danger(view, card)
        return 0.0

    def _hand_value(self, view: View, left: tuple[Card, ...], melds: tuple[Meld, ...]) -> float:
        """Shanten, less 0.01 for each unseen card that helps (at most 60) in the ukeire style;
        a ready hand's furiten wait counts half."""
        opened = len(melds)
        value = float(shanten(left, opened))
        if self.level.style == "greedy":
            return value
        helping = float(min(ukeire(left, opened, view.pool), 60))
        if value == 0 and view.furiten(left, melds):
            helping /= 2
        return value - helping / 100

    def _called_value(
        self, view: View, cards: tuple[Card, ...], meld: Meld, rng: random.Random
    ) -> float:
        """A hand of 3k+2 cards right after opening ``meld``: discard now, or draw three."""
        melds = (*view.melds, meld)
        best = min(self._discard_value(view, without(cards, [c]), c, melds) for c in set(cards))
        if view.left >= 3:
            best = min(best, self._draw3_value(view, cards, melds, rng))
        return best

    def _draw3_value(
        self, view: View, cards: tuple[Card, ...], melds: tuple[Meld, ...], rng: random.Random
    ) -> float:
        """The mean shanten after drawing three unseen cards and the best discard."""
        pool = list(view.pool.elements())
        if len(pool) < 3 or self.level.samples <= 0:
            return math.inf
        total = 0.0
        for _ in range(self.level.samples):
            hand = (*cards, *rng.sample(pool, 3))
            total += min(shanten(without(hand, [c]), len(melds)) for c in set(hand))
        return total / self.level.samples


def called_meld(view: View, action: Action) -> Meld:
    """The open set a ポン/チー ``action`` makes with the opponent's discard on offer."""
    offer = view.observation["offer"]
    kind = "pon" if action["type"] == "pon" else "chi"
    return Meld(kind, tuple(sort_cards((offer, *action["cards"]))), offer)


def _danger(view: View, card: Card) -> float:
    """How likely ``card`` is to win the riichi player's hand, 0 (safe) to about 1.

    Safe: a picture the opponent has discarded (were it a wait, the opponent would be furiten
    and could not ロン any card but a モモ), or a card whose every partner is in sight. Else the
    more unseen cards could pair with it or form a set with it, the more dangerous; モモ (never
    furiten) the most.
    """
    river = {d["card"] for d in view.observation["rivers"][1 - view.seat]}
    if not is_peach(card) and card in river:
        return 0.0
    pool = view.pool
    ways = sum(pool[a] * (pool[b] - (a == b)) for a, b in _PAIRS_WITH[card] if pool[a] and pool[b])
    ways += sum(pool[x] for x in _HEAD_WITH[card]) * 2
    danger = min(ways / 40.0, 1.0)
    if is_peach(card):
        danger = min(1.0, danger * 1.5 + 0.2)
    return danger if is_fruit(card) or ways else 0.0
