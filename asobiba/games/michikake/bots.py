"""MICHIKAKE's computer opponents, one class per way of choosing, tuned by the levels in data.toml.

Every bot sees only its seat's observation and the legal actions. It reads the cards it knows
from the observation (its hand and, if its level ``watch``es the table, every discard row and
the shown steals), works out how many copies of each card it has not seen (``live``), and
chooses:

- ``beginner``: keeps cards that have a partner (a copy, or a card of the suit within two
  stages) and throws away one of the loneliest at random; wins whenever it can, never steals.
- ``greedy``: keeps the five that leave the most winning cards it can still get (a card it has
  discarded only by drawing it), or, not yet one card from winning, the most draws that would
  make it so; steals when the triplet brings it closer and it can afford it; always wins. A
  level with ``value`` weighs each winning card by what that win would score.
- ``reader``: the greedy hand-building, less the points each discard may feed: for every
  opponent it reads what they can no longer take (their own discards), their crest and their
  shown steals, estimates how likely they are to wait on the card, and weighs that by what a
  win on a discard costs the discarder (all of it, the dealer's × 1.5 included).
- ``search``: samples the hidden cards consistent with its observation (``sample_state``) and
  plays the reader's best discards (those as close to winning as its best) out to the end of
  the deal with a greedy policy at every seat, leaving the reader's choice only for a clearly
  better average change in its points.

Every level may ``slip``: a share of its discards thrown at random, the careless moments that
space the levels (docs/STRENGTH.md measures why). Random choices come from a keyed stream
(core/rng.py) of the bot's seed labelled by what the seat sees, so a decision is a pure function
of (seed, observation).
The search stops early only when its clock runs out (``time`` in data.toml), which on a quiet
machine it never does (bench/michikake_speed.py).
"""

from __future__ import annotations

import math
import random
import time as _time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import Any

from asobiba.core.bots import Bot
from asobiba.core.errors import InvalidOptions
from asobiba.core.rng import stream
from asobiba.games.michikake.cards import _ORDER, kinds_for
from asobiba.games.michikake.data import LEVEL_BY_ID, STEAL_COSTS, Level
from asobiba.games.michikake.sample import sample_state
from asobiba.games.michikake.scoring import bonus_points, hand_points, payments

CODE: dict[str, int] = dict(_ORDER)
"""Card → integer code: suit index × 10 + stage (C 1-9, W 11-19, R 21-29, H 31-39), star 100,
ring 101; a run is three consecutive codes below 100."""
CARD: dict[int, str] = {code: card for card, code in CODE.items()}
Hand = tuple[int, ...]
"""Card codes in ascending order."""


# --- hand shape (pure, cached on the sorted codes) -------------------------------------------


def _is_set(a: int, b: int, c: int) -> bool:
    return a == b == c or (c < 100 and b == a + 1 and c == b + 1)


@lru_cache(maxsize=1 << 16)
def two_sets(six: Hand) -> bool:
    """Whether six sorted codes split into two sets."""
    first, rest = six[0], list(six[1:])
    for second, third in ((first, first), (first + 1, first + 2)):
        if not _is_set(first, second, third) or second not in rest:
            continue
        left = list(rest)
        left.remove(second)
        if third not in left:
            continue
        left.remove(third)
        if _is_set(*left):
            return True
    return False


def _near(code: int) -> tuple[int, ...]:
    if code >= 100:
        return (code,)
    return tuple(c for c in range(code - 2, code + 3) if c % 10)


_TRIOS = tuple(combinations(range(5), 3))
_REST = tuple(tuple(i for i in range(5) if i not in trio) for trio in _TRIOS)


@lru_cache(maxsize=1 << 16)
def waits(five: Hand) -> frozenset[int]:
    """The codes that make five sorted codes two sets (whatever the deck or copies hold): a set
    among the five, and the other two waiting on one card."""
    found = set()
    for (i, j, k), (x, y) in zip(_TRIOS, _REST, strict=True):
        if not _is_set(five[i], five[j], five[k]):
            continue
        a, b = five[x], five[y]
        if a == b:
            found.add(a)
        elif b < 100 and b - a == 1:
            if a % 10 > 1:
                found.add(a - 1)
            if b % 10 < 9:
                found.add(b + 1)
        elif b < 100 and b - a == 2 and a // 10 == b // 10:
            found.add(a + 1)
    return frozenset(c for c in found if five.count(c) < 3)


@lru_cache(maxsize=1 << 16)
def improvers(five: Hand) -> frozenset[int]:
    """For five codes not yet one card from winning: the codes whose draw lets some discard
    leave a hand that is (so the hand is two cards away when this is not empty)."""
    found = set()
    for code in {c for card in five for c in _near(card)}:
        if five.count(code) >= 3:
            continue
        six = tuple(sorted((*five, code)))
        if any(waits(six[:i] + six[i + 1 :]) for i in range(6) if i == 0 or six[i] != six[i - 1]):
            found.add(code)
    return frozenset(found)


def partners(code: int, hand: Hand) -> int:
    """How many other cards of ``hand`` go with ``code``: copies, or its suit within two
    stages (stars and rings only by copies)."""
    count = hand.count(code) - 1
    if code < 100:
        count += sum(1 for c in hand if c != code and abs(c - code) <= 2)
    return count


def drop(six: Hand, code: int) -> Hand:
    i = six.index(code)
    return six[:i] + six[i + 1 :]


Worth = Callable[[Hand, int], float]
"""What winning with five codes plus a code scores, in hundreds of points (a value-aware level's
own hand and bonus card; the dealer's share is the same for every discard, so it is left out)."""

READY_NORM = 4.0
"""A typical ready hand's weighted winning cards, so that a hand two cards away scores its best
ready hands in about the units of the plain count."""


def shape(
    five: Hand, live: dict[int, int], barred: Iterable[int] = (), worth: Worth | None = None
) -> float:
    """How good five cards are to hold, in draws: a hand one card from winning is worth 1000
    plus its winning cards still unseen (a card its holder can still take from a discard counts
    twice: it may be drawn or thrown by someone); else (or when every winning card is seen)
    the unseen draws that would make it one card from winning; else how many cards have a
    partner. With ``worth`` each winning card also counts by what the win would score, and a
    draw that makes the hand ready by the best ready hand it allows: a triplet-pair or crest
    hand is worth more than a plain run pair with as many cards."""
    barred = set(barred)
    ready = _ready(five, live, barred, worth)
    if ready:
        return 1000.0 + ready
    better = improvers(five)
    if better:
        if worth is None:
            return 100.0 + sum(live.get(c, 0) for c in better)
        return 100.0 + sum(
            live[c] * _best_ready(tuple(sorted((*five, c))), live, barred, worth) / READY_NORM
            for c in better
            if live.get(c, 0)
        )
    return float(sum(partners(c, five) > 0 for c in five))


def _ready(five: Hand, live: dict[int, int], barred: set[int], worth: Worth | None) -> float:
    """The unseen winning cards of five codes (0 when they are not one card from winning),
    each counted twice when its holder may still take it from a discard, and by ``worth``."""
    total = 0.0
    for c in waits(five):
        if live.get(c, 0):
            total += live[c] * (1 if c in barred else 2) * (worth(five, c) if worth else 1.0)
    return total


def _best_ready(six: Hand, live: dict[int, int], barred: set[int], worth: Worth) -> float:
    """The best ``_ready`` among the fives six codes leave."""
    return max(_ready(drop(six, c), live, barred, worth) for c in set(six))


# --- what a seat knows -----------------------------------------------------------------------


class View:
    """One seat's observation, read once: the facts every level uses."""

    def __init__(
        self, observation: dict[str, Any], *, watch: bool = True, valued: bool = False
    ) -> None:
        """``watch``: count the cards on the table (discard rows, shown steals) as seen, not
        only its own hand; ``valued``: weigh winning cards by what the win scores."""
        self.obs = observation
        self.seat: int = observation["seat"]
        self.players: int = observation["players"]
        self.hand: Hand = tuple(sorted(CODE[c] for c in observation["hand"]))
        rows = observation["discards"]
        self.barred: list[set[int]] = [{CODE[e["card"]] for e in row} for row in rows]
        self.shown: list[Hand] = [tuple(sorted(CODE[c] for c in s)) for s in observation["shown"]]
        seen: Counter[int] = Counter(self.hand)
        if watch:
            for row in rows:
                seen.update(CODE[e["card"]] for e in row if e["taken_by"] is None)
            for seat, cards in enumerate(self.shown):
                if seat != self.seat:
                    seen.update(cards)
        self.live: dict[int, int] = {
            CODE[k]: 3 - seen[CODE[k]] for k in kinds_for(self.players) if seen[CODE[k]] < 3
        }
        self.unseen: int = sum(self.live.values())
        self.crest: str = observation["crests"][self.seat]
        self.bonus: str = observation["bonus"]
        self.worth: Worth | None = self._worth if valued else None

    def _worth(self, five: Hand, code: int) -> float:
        return _win_points(tuple(sorted((*five, code))), self.crest, self.bonus) / 100

    def shape(self, five: Hand) -> float:
        return shape(five, self.live, self.barred[self.seat], self.worth)

    def discards(self) -> list[int]:
        """The distinct codes this seat may discard, ascending."""
        return sorted(set(self.hand))


def _rng(seed: int, observation: dict[str, Any]) -> random.Random:
    window = observation["window"]
    key = (
        f"{observation['seat']}:{observation['deal']}:{observation['ply']}:"
        f"{observation['phase']}:{','.join(observation['hand'] or [])}:"
        f"{window['card'] if window else ''}"
    )
    return stream(seed, f"bot/michikake/{key}")


def make_bot(
    level: str,
    seed: int,
    *,
    samples: int | None = None,
    time: float | None = None,
    clock: Callable[[], float] = _time.perf_counter,
) -> Bot:
    """The bot of ``level`` (an id from data.toml); ``samples``/``time`` override a search
    level's budget (for tests and benchmarks)."""
    try:
        spec = LEVEL_BY_ID[level]
    except KeyError:
        raise InvalidOptions(
            f"unknown michikake bot level {level!r}; known: {list(LEVEL_BY_ID)}"
        ) from None
    if samples is not None or time is not None:
        spec = replace(
            spec,
            samples=spec.samples if samples is None else samples,
            time=spec.time if time is None else time,
        )
    kinds: dict[str, type[MichikakeBot]] = {
        "beginner": BeginnerBot,
        "greedy": GreedyBot,
        "reader": ReaderBot,
        "search": SearchBot,
    }
    return kinds[spec.kind](spec, seed, clock)


class MichikakeBot:
    """What every level shares: reading the observation, always answering a claim window,
    always winning when it can, and picking its answer from ``legal``."""

    def __init__(self, level: Level, seed: int, clock: Callable[[], float]) -> None:
        self.level = level
        self.seed = seed
        self._clock = clock

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        if not legal:
            raise ValueError("a bot was asked to move with no legal action")
        if {"win": True} in legal:
            return {"win": True}
        if observation["phase"] == "break":
            return {"next": True}  # a bot reads the last deal's result at once
        rng = _rng(self.seed, observation)
        view = View(observation, watch=self.level.watch, valued=self.level.value)
        if observation["phase"] == "claim":
            if {"steal": True} in legal and self._steal(view, observation["window"]["card"], rng):
                return {"steal": True}
            return {"pass": True}
        options = view.discards()
        slip = self.level.slip_three if view.players == 3 else self.level.slip
        slipped = rng.random() < slip
        card = CARD[rng.choice(options) if slipped else self._discard(view, rng)]
        action = {"discard": card}
        if action not in legal:
            raise ValueError(f"bot chose {action}, not among the legal actions {legal!r}")
        return action

    def _discard(self, view: View, rng: random.Random) -> int:
        raise NotImplementedError

    def _steal(self, view: View, card: str, rng: random.Random) -> bool:
        """Steal when the triplet brings the hand closer to winning than it is, the bot has
        points to spare (``steal_margin`` above the cost) and the level steals at all."""
        if not self.level.steal:
            return False
        obs = view.obs
        made = obs["steals"][view.seat]
        cost = STEAL_COSTS[made] if made < len(STEAL_COSTS) else None
        if cost is None or obs["points"][view.seat] <= cost + self.level.steal_margin:
            return False
        code = CODE[card]
        six = tuple(sorted((*view.hand, code)))
        after = max(view.shape(drop(six, c)) for c in set(six))
        now = view.shape(view.hand)
        return _band(after) > _band(now) or (_band(after) == 2 and after >= now + 2)


def _band(value: float) -> int:
    """0: two or more cards from winning; 1: two away but improvable; 2: one card away."""
    return 2 if value >= 1000 else 1 if value >= 100 else 0


class BeginnerBot(MichikakeBot):
    """Throws away a card without partners, at random among the loneliest."""

    def _discard(self, view: View, rng: random.Random) -> int:
        options = view.discards()
        lonely = {c: partners(c, view.hand) for c in options}
        least = min(lonely.values())
        return rng.choice([c for c in options if lonely[c] == least])


class GreedyBot(MichikakeBot):
    """Keeps the five whose ``shape`` is best (ties at random)."""

    def _values(self, view: View) -> dict[int, float]:
        return {c: view.shape(drop(view.hand, c)) for c in view.discards()}

    def _discard(self, view: View, rng: random.Random) -> int:
        values = self._values(view)
        best = max(values.values())
        return rng.choice([c for c in values if values[c] == best])


AVERAGE_WIN = 110
"""About what a win is worth before the dealer's share (hand plus bonus card), for weighing
what a discard may feed."""


class ReaderBot(GreedyBot):
    """The greedy hand, less ``caution`` × the points each discard is expected to feed."""

    def _discard(self, view: View, rng: random.Random) -> int:
        values = self._values(view)
        scored = {c: values[c] - self.level.caution * expected_loss(view, c) for c in values}
        best = max(scored.values())
        return rng.choice([c for c in scored if scored[c] >= best - 1e-9])


def readiness(view: View, seat: int) -> float:
    """How likely ``seat`` is one card from winning: it grows with the cards it has thrown this
    deal (each a draw it kept the better of), and a seat that stole shows a set already."""
    thrown = len(view.obs["discards"][seat])
    chance = min(0.85, 0.15 + 0.1 * thrown)
    if view.obs["steals"][seat]:
        chance = max(chance, 0.7)
    return chance


def wait_weight(view: View, seat: int, code: int) -> float:
    """How likely ``seat``'s hidden cards hold two cards that ``code`` completes to a set
    (relative: the unseen copies of each pair, less for a pair it has thrown a card of, more
    in its crest suit, all of it if its shown steal leaves only two hidden cards)."""
    live = view.live
    n = view.unseen or 1
    crest = view.obs["crests"][seat]
    thrown = view.barred[seat]
    pairs: list[tuple[int, int]] = [(code, code)]
    if code < 100:
        pairs += [(code - 2, code - 1), (code - 1, code + 1), (code + 1, code + 2)]
    total = 0.0
    for a, b in pairs:
        if a == b:
            k = live.get(a, 0) + (1 if a == code else 0)  # the discard itself is no longer live
            weight = k * (k - 1) / 2
        else:
            if a % 10 == 0 or b % 10 == 0 or a < 1 or b > 99 or a // 10 != b // 10:
                continue
            weight = live.get(a, 0) * live.get(b, 0)
        if not weight:
            continue
        if a in thrown or b in thrown:
            weight *= 0.3
        if code < 100 and "CWRH"[code // 10] == crest:
            weight *= 1.5
        total += weight
    # The chance that a given pair sits among five unknown cards of `n` unseen; a seat showing
    # a steal hides only two cards, but they are the ones it kept to win with, so no fewer.
    return min(1.0, total * 20 / (n * n))


def expected_loss(view: View, code: int) -> float:
    """The points a discard of ``code`` is expected to feed: for every opponent that may take
    it (never one that has discarded it), how likely it wins on it times what the discarder
    pays (the whole total; the dealer's × 1.5)."""
    obs = view.obs
    loss = 0.0
    for seat in range(view.players):
        if seat == view.seat or code in view.barred[seat]:
            continue
        chance = readiness(view, seat) * min(1.0, 3.0 * wait_weight(view, seat, code))
        worth = AVERAGE_WIN * (1.5 if seat == obs["dealer"] else 1.0)
        loss += chance * worth
    return loss


# --- search ----------------------------------------------------------------------------------


class SearchBot(ReaderBot):
    """Determinized rollouts: ``samples`` deals consistent with the observation, each candidate
    discard played out in every one of them (the same samples for every candidate), all seats
    playing the greedy policy to the end of the deal. Only the ``width`` best discards by the
    reader's own score are searched, and only those as close to winning as the best (``_band``);
    the reader's best is kept unless another one's mean change in points beats it clearly
    (``_better``).

    The rollouts cannot judge a ready hand against a broken one: their policy never steals,
    never defends and never weighs what a win scores, so a ready hand's line stops at its first
    cheap win while a broken hand's line, drawing on, now and then completes a crest hand. Over
    40 samples that luck crossed the bar: holding C3 C4 R1 R1 R2 R3, ready on C2 or C5 with six
    copies unseen, the expert threw C4 for the R crest."""

    def _discard(self, view: View, rng: random.Random) -> int:
        values = self._values(view)
        scored = {c: values[c] - self.level.caution * expected_loss(view, c) for c in values}
        ranked = sorted(scored, key=lambda c: (-scored[c], c))
        band = _band(values[ranked[0]])
        candidates = [c for c in ranked[: self.level.width] if _band(values[c]) == band]
        if len(candidates) == 1:
            return candidates[0]
        top = candidates[0]
        diffs: dict[int, list[float]] = {c: [] for c in candidates[1:]}
        started = self._clock()
        limit = self.level.time
        for _ in range(self.level.samples):
            sim = Sim.from_state(sample_state(view.obs, rng))
            tie_breaks = rng.getrandbits(128)
            results = []
            for c in candidates:
                # The same ties for every candidate (a fresh stream of one key): the rollouts
                # of one sample then differ by the discard alone.
                ties = stream(tie_breaks, "bot/michikake/rollout")
                results.append(sim.copy().play_discard(view.seat, c, ties))
                if limit and self._clock() - started > limit:
                    break
            else:
                for c, value in zip(candidates[1:], results[1:], strict=True):
                    diffs[c].append(value - results[0])
                continue
            break
        return _better(top, diffs, self.level.confidence)


def _better(top: int, diffs: dict[int, list[float]], confidence: float) -> int:
    """The candidate whose rollouts beat ``top``'s (paired, sample by sample) by the most, if it
    does so by more than ``confidence`` standard errors; else ``top``. Rollouts are noisy (a
    win is worth 50 to 500 points): without the bar the search would trade the reader's sound
    choice for luck."""
    best, best_mean = top, 0.0
    for c, values in diffs.items():
        if len(values) < 2:
            continue
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        if mean > best_mean and mean > confidence * spread / math.sqrt(len(values)):
            best, best_mean = c, mean
    return best


class Sim:
    """A fast copy of one deal for rollouts: hands as sorted codes, the pile, what each seat
    may not take, the points. No steals; every seat plays ``policy_discard``."""

    __slots__ = ("barred", "bonus", "crests", "dealer", "hands", "pile", "players", "points")

    def __init__(self) -> None:
        self.players = 0
        self.hands: list[list[int]] = []
        self.pile: list[int] = []
        self.barred: list[set[int]] = []
        self.points: list[int] = []
        self.dealer = 0
        self.crests: tuple[str, ...] = ()
        self.bonus: tuple[str, ...] = ()

    @classmethod
    def from_state(cls, state: Any) -> Sim:
        sim = cls()
        sim.players = state.players
        sim.hands = [sorted(CODE[c] for c in hand) for hand in state.hands]
        sim.pile = [CODE[c] for c in state.pile]
        sim.barred = [{CODE[c] for c in b} for b in state.barred]
        sim.points = list(state.points)
        sim.dealer = state.dealer
        sim.crests = state.crests
        sim.bonus = state.bonus
        return sim

    def copy(self) -> Sim:
        sim = Sim()
        sim.players = self.players
        sim.hands = [list(h) for h in self.hands]
        sim.pile = self.pile  # never mutated: play reads it by index
        sim.barred = [set(b) for b in self.barred]
        sim.points = list(self.points)
        sim.dealer = self.dealer
        sim.crests = self.crests
        sim.bonus = self.bonus
        return sim

    def play_discard(self, seat: int, code: int, rng: random.Random) -> float:
        """``seat`` discards ``code``; play to the end of the deal; ``seat``'s change in
        points."""
        before = self.points[seat]
        mover, card, at = seat, code, 0
        n = self.players
        while True:
            self.hands[mover].remove(card)
            self.barred[mover].add(card)
            for step in range(1, n):
                other = (mover + step) % n
                five = tuple(self.hands[other])
                if card not in self.barred[other] and card in waits(five):
                    self._win(other, tuple(sorted((*five, card))), mover)
                    return self.points[seat] - before
            if at >= len(self.pile):
                return self.points[seat] - before
            mover = (mover + 1) % n
            drawn = self.pile[at]
            at += 1
            hand = self.hands[mover]
            hand.append(drawn)
            hand.sort()
            six = tuple(hand)
            if two_sets(six):
                self._win(mover, six, None)
                return self.points[seat] - before
            card = policy_discard(six, self.barred[mover], rng)

    def _win(self, winner: int, six: Hand, discarder: int | None) -> None:
        points = _win_points(six, self.crests[winner], self.bonus[winner])
        pay = payments(points, winner == self.dealer, discarder is None, self.players)
        if discarder is None:
            for s in range(self.players):
                if s != winner:
                    self.points[s] -= pay["each"]
        else:
            self.points[discarder] -= pay["each"]
        self.points[winner] += pay["gain"]


@lru_cache(maxsize=1 << 16)
def _win_points(six: Hand, crest: str, bonus: str) -> int:
    cards = [CARD[c] for c in six]
    return (hand_points(cards, crest) or 0) + bonus_points(bonus, cards, crest)


def policy_discard(six: Hand, barred: set[int], rng: random.Random) -> int:
    """The rollout policy: the discard leaving the best ``shape`` (live copies unknown: every
    card counts 3 less the copies held), ties at random."""
    best: list[int] = []
    top = -math.inf
    for i, code in enumerate(six):
        if i and six[i - 1] == code:
            continue
        value = _quick_shape(six[:i] + six[i + 1 :])
        if value > top:
            top, best = value, [code]
        elif value == top:
            best.append(code)
    return best[0] if len(best) == 1 else rng.choice(best)


@lru_cache(maxsize=1 << 16)
def _quick_shape(five: Hand) -> float:
    """A cheap ``shape``: a ready hand 1000 plus its winning cards' copies not in hand; else
    100 for a set it holds plus the pairs of cards that go together."""
    found = waits(five)
    if found:
        return 1000.0 + sum(3 - five.count(c) for c in found)
    value = 0.0
    for i, j, k in _TRIOS:
        if _is_set(five[i], five[j], five[k]):
            value = 100.0
            break
    for i in range(5):
        for j in range(i + 1, 5):
            a, b = five[i], five[j]
            if a == b or (b < 100 and b - a <= 2 and a // 10 == b // 10):
                value += 1
    return value
