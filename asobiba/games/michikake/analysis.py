"""Hints and reviews for MICHIKAKE: every choice of one seat valued in points, from its view.

Honest by construction: ``analyse`` and ``explain`` call ``observe(state, seat)`` first and
never read the state again. The hidden cards (the other hands, the pile, the other bonus cards)
are dealt again from that view (``sample.py``) with a generator seeded by the view itself
(``core.rng.seed_of``), so a position whose hidden cards lie otherwise but looks the same to the
seat gets the same values and the same words (tests/games/test_card_analysis.py).

A choice's value is the change in the seat's points it can expect by the end of the deal: in
each dealt world the choice is made and the deal played out by every seat with the rollout
policy of the expert's search (``bots.Sim``: the discard leaving the best shape, a win taken
whenever it comes, no steals), and the values are the means over the worlds. Every choice is
played in the same worlds with the same tie-breaks, so two choices differ by the choice alone.
A claim window's answers are played too: a win by a seat nearer the discarder beats the seat's
own win or steal, as the rules settle them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import Action, Analysis, Grade, MoveValue, Observation, view_of
from asobiba.core.rng import seed_of, stream
from asobiba.games.michikake import rules
from asobiba.games.michikake.bots import CODE, View, improvers, waits
from asobiba.games.michikake.bots import _win_points as win_points
from asobiba.games.michikake.cards import stage_of, suit_of
from asobiba.games.michikake.data import REVIEW, STEAL_COSTS
from asobiba.games.michikake.sample import sample_state
from asobiba.games.michikake.scoring import payments, win_breakdown
from asobiba.games.michikake.state import BREAK, CLAIM, DISCARD, MichikakeState

ROLLOUTS_PER_SECOND = 750.0
"""Played-out deals a second of the budget buys: the number of worlds is the budget times this,
shared among the choices. Measured on the 2-core development machine (bench/card_review.py), so
a hint's 1 s budget takes well under a second; the count, not a clock, sets the work, so the
values never depend on how busy the machine is."""
FEWEST_WORLDS = 1
"""Worlds dealt however small the budget (a review's and a hint's budget deal dozens)."""
MOST_WORLDS = 400
"""Worlds dealt however large the budget."""


GAME = rules.Michikake()
"""The rules, for the legal actions of the seat deciding in a dealt world."""


class Michikake(rules.Michikake):
    """MICHIKAKE with hints and reviews (``core.game.analyses``, ``reviews``): the registry's
    game. The rules module knows nothing of this one, which reads the rules and the bots'
    rollout helpers."""

    def analyse(self, state: MichikakeState, seconds: float, seat: int | None = None) -> Analysis:
        return analyse(view_of(self, state, seat), seconds)

    def explain(
        self, state: MichikakeState, action: Any, seat: int | None = None
    ) -> dict[str, str]:
        return explain(view_of(self, state, seat), action)

    def grades(self, options: Mapping[str, Any]) -> tuple[Grade, ...]:
        return REVIEW.grades

    def review_seconds(self, options: Mapping[str, Any]) -> float:
        return REVIEW.seconds


def worlds_for(seconds: float, choices: int) -> int:
    """How many worlds a budget of ``seconds`` deals for ``choices`` choices."""
    wanted = round(seconds * ROLLOUTS_PER_SECOND / max(choices, 1))
    return max(FEWEST_WORLDS, min(MOST_WORLDS, wanted))


def analyse(view: Observation, seconds: float) -> Analysis:
    """Every legal action of the view's seat, valued in points (module docstring), best
    first. ``view`` must be a seat's observation of a running session where the seat decides."""
    seat = _deciding(view)
    rng = stream(seed_of(view), "analysis/michikake")
    first = sample_state(view, rng)
    legal = GAME.legal_actions(first, seat)
    totals = [0.0] * len(legal)
    count = worlds_for(seconds, len(legal))
    for n in range(count):
        world = first if n == 0 else sample_state(view, rng)
        base = Table(world)
        ties = rng.getrandbits(128)
        for i, action in enumerate(legal):
            totals[i] += base.copy().play(world, seat, action, stream(ties, "analysis/ties"))
    moves = [
        MoveValue(action, round(total / count, 2), False)
        for action, total in zip(legal, totals, strict=True)
    ]
    moves.sort(key=lambda move: -move.value)
    return Analysis(seat, tuple(moves))


def _deciding(view: Observation) -> int:
    """The view's seat, if it has a choice to make now; else ``IllegalAction``."""
    seat = view.get("seat")
    if type(seat) is not int or view.get("hand") is None:
        raise IllegalAction("only a seat's view of a running session can be analysed")
    phase = view["phase"]
    window = view["window"]
    if phase == DISCARD and view["turn"] == seat:
        return seat
    if phase == CLAIM and window["discarder"] != seat and window["answer"] is None:
        return seat
    if phase == BREAK and not view["break"]["ready"]:
        return seat
    raise IllegalAction(f"seat {seat} has nothing to decide now")


_TRIOS = tuple(combinations(range(5), 3))
_REST = tuple(tuple(i for i in range(5) if i not in trio) for trio in _TRIOS)
_PAIRS = tuple((i, j) for i in range(5) for j in range(i + 1, 5))
_SHAPES: dict[tuple[int, ...], tuple[float, frozenset[int]]] = {}
"""Five codes → (their rollout shape, their winning codes): the rollouts' one cache, emptied
when it grows past ``_MOST_SHAPES`` (a worker process keeps it between decisions)."""
_MOST_SHAPES = 300_000


def _is_set(a: int, b: int, c: int) -> bool:
    return a == b == c or (c < 100 and b == a + 1 and c == b + 1)


def shape5(five: tuple[int, ...]) -> tuple[float, frozenset[int]]:
    """The rollout policy's measure of five sorted codes and their winning codes: as
    ``bots._quick_shape`` and ``bots.waits`` (a hand one card from winning is 1000 plus the
    copies of its winning cards not in it; else 100 for a set it holds plus its pairs of cards
    that go together), computed together and cached."""
    known = _SHAPES.get(five)
    if known is not None:
        return known
    found: set[int] = set()
    has_set = False
    for (i, j, k), (x, y) in zip(_TRIOS, _REST, strict=True):
        if not _is_set(five[i], five[j], five[k]):
            continue
        has_set = True
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
    ready = frozenset(c for c in found if five.count(c) < 3)
    if ready:
        value = 1000.0 + sum(3 - five.count(c) for c in ready)
    else:
        value = 100.0 if has_set else 0.0
        for i, j in _PAIRS:
            a, b = five[i], five[j]
            if a == b or (b < 100 and b - a <= 2 and a // 10 == b // 10):
                value += 1
    if len(_SHAPES) >= _MOST_SHAPES:
        _SHAPES.clear()
    _SHAPES[five] = (value, ready)
    return value, ready


def rollout_discard(six: list[int], rng: random.Random) -> int:
    """The rollout policy (``bots.policy_discard``'s): the discard leaving the best shape, ties
    at random."""
    best: list[int] = []
    top = -1.0
    for i, code in enumerate(six):
        if i and six[i - 1] == code:
            continue
        value = shape5(tuple(six[:i] + six[i + 1 :]))[0]
        if value > top:
            top, best = value, [code]
        elif value == top:
            best.append(code)
    return best[0] if len(best) == 1 else rng.choice(best)


class Table:
    """One dealt world of the deal, as the rollouts play it: hands as sorted codes (each
    seat's winning codes kept beside), the pile, what each seat may not take, the points."""

    __slots__ = (
        "barred",
        "bonus",
        "crests",
        "dealer",
        "hands",
        "pile",
        "players",
        "points",
        "ready",
    )

    def __init__(self, state: MichikakeState) -> None:
        self.players = state.players
        self.hands = [sorted(CODE[c] for c in hand) for hand in state.hands]
        self.pile = [CODE[c] for c in state.pile]
        self.barred = [{CODE[c] for c in b} for b in state.barred]
        self.points = list(state.points)
        self.dealer = state.dealer
        self.crests = state.crests
        self.bonus = state.bonus
        self.ready = [
            shape5(tuple(hand))[1] if len(hand) == 5 else frozenset() for hand in self.hands
        ]

    def copy(self) -> Table:
        table = Table.__new__(Table)
        table.players = self.players
        table.hands = [list(h) for h in self.hands]
        table.pile = self.pile  # never changed: play reads it by index
        table.barred = [set(b) for b in self.barred]
        table.points = list(self.points)
        table.dealer = self.dealer
        table.crests = self.crests
        table.bonus = self.bonus
        table.ready = list(self.ready)
        return table

    def play(self, state: MichikakeState, seat: int, action: Action, rng: random.Random) -> float:
        """``seat`` takes ``action`` in ``state`` (this table's world); the deal is played out;
        the change in ``seat``'s points."""
        before = self.points[seat]
        if "discard" in action:
            self._play_from(seat, CODE[action["discard"]], 0, rng)
        elif state.phase == DISCARD and "win" in action:
            self._win(seat, tuple(self.hands[seat]), None)
        elif state.phase == CLAIM:
            self._claim(seat, next(iter(action)), state, rng)
        return float(self.points[seat] - before)

    def _claim(self, seat: int, answer: str, state: MichikakeState, rng: random.Random) -> None:
        """Settle the window with ``seat``'s ``answer`` and every other seat winning when it
        can (nearest the discarder first), then play on."""
        assert state.window is not None
        n = self.players
        discarder = state.window.discarder
        code = CODE[state.window.card]
        for step in range(1, n):
            other = (discarder + step) % n
            mine = other == seat
            if (mine and answer == "win") or (
                not mine and code not in self.barred[other] and code in self.ready[other]
            ):
                self._win(other, tuple(sorted((*self.hands[other], code))), discarder)
                return
        if answer == "steal":
            self.points[seat] -= STEAL_COSTS[state.steals[seat]]
            hand = self.hands[seat]
            hand.append(code)
            hand.sort()
            self._play_from(seat, rollout_discard(hand, rng), 0, rng)
            return
        drawn = self._draw_on(discarder, 0, rng)
        if drawn is not None:
            self._play_from(*drawn, rng)

    def _play_from(self, mover: int, code: int, at: int, rng: random.Random) -> None:
        """``mover`` discards ``code``; play to the end of the deal from pile card ``at``."""
        n = self.players
        while True:
            hand = self.hands[mover]
            hand.remove(code)
            self.barred[mover].add(code)
            self.ready[mover] = shape5(tuple(hand))[1]
            for step in range(1, n):
                other = (mover + step) % n
                if code in self.ready[other] and code not in self.barred[other]:
                    self._win(other, tuple(sorted((*self.hands[other], code))), mover)
                    return
            drawn = self._draw_on(mover, at, rng)
            if drawn is None:
                return
            mover, code, at = drawn

    def _draw_on(self, last: int, at: int, rng: random.Random) -> tuple[int, int, int] | None:
        """The seat after ``last`` draws pile card ``at``: it wins (None, the deal is over) or
        chooses a discard (returned as the next mover, its card and the next pile card). An
        empty pile ends the deal (None)."""
        if at >= len(self.pile):
            return None
        mover = (last + 1) % self.players
        card = self.pile[at]
        if card in self.ready[mover]:
            self._win(mover, tuple(sorted((*self.hands[mover], card))), None)
            return None
        hand = self.hands[mover]
        hand.append(card)
        hand.sort()
        return mover, rollout_discard(hand, rng), at + 1

    def _win(self, winner: int, six: tuple[int, ...], discarder: int | None) -> None:
        points = win_points(six, self.crests[winner], self.bonus[winner])
        pay = payments(points, winner == self.dealer, discarder is None, self.players)
        if discarder is None:
            for s in range(self.players):
                if s != winner:
                    self.points[s] -= pay["each"]
        else:
            self.points[discarder] -= pay["each"]
        self.points[winner] += pay["gain"]


# --- why ------------------------------------------------------------------------------------

SUIT_NAMES = {
    "C": {"ja": "三日月", "en": "Crescent"},
    "W": {"ja": "水位", "en": "Water"},
    "R": {"ja": "左から右", "en": "Sweep"},
    "H": {"ja": "六角", "en": "Hexagon"},
}
SPECIAL_NAMES = {"star": {"ja": "星", "en": "Star"}, "ring": {"ja": "環", "en": "Ring"}}


def card_name(card: str) -> dict[str, str]:
    """A card in words, as the table names it ("Water 7", "水位7", "Star")."""
    suit = suit_of(card)
    if suit is None:
        return SPECIAL_NAMES[card]
    stage = stage_of(card)
    return {"ja": f"{SUIT_NAMES[suit]['ja']}{stage}", "en": f"{SUIT_NAMES[suit]['en']} {stage}"}


def explain(view: Observation, action: Action) -> dict[str, str]:
    """Why ``action`` is worth taking for the view's seat, in one line of each language:
    the points of a win, what a steal brings, why a pass, and for a discard whether nobody
    can take it and how close the hand it keeps is to winning."""
    seat = _deciding(view)
    known = View(view)
    if "win" in action:
        return _win_words(view, seat)
    if "steal" in action:
        return _steal_words(view, known, seat)
    if "pass" in action:
        return {
            "ja": "見送り：この札を取っても上がりに近づきません。",
            "en": "Pass: taking this card would not bring you closer to winning.",
        }
    if "next" in action:
        return {"ja": "次の局へ進みます。", "en": "On to the next deal."}
    card = action["discard"]
    five = list(known.hand)
    five.remove(CODE[card])
    keeps = _shape_words(known, tuple(five))
    others = [s for s in range(known.players) if s != seat]
    if all(CODE[card] in known.barred[s] for s in others):
        return {
            "ja": f"安全：ほかの全員が{card_name(card)['ja']}を捨てているので、"
            f"だれも取れません。{keeps['ja']}",
            "en": f"Safe: every other player has discarded {card_name(card)['en']}, so "
            f"nobody can take it. {keeps['en']}",
        }
    return {
        "ja": f"{card_name(card)['ja']}を捨てて、{keeps['ja']}",
        "en": f"Throw {card_name(card)['en']}: {keeps['en'][0].lower()}{keeps['en'][1:]}",
    }


def _shape_words(known: View, five: tuple[int, ...]) -> dict[str, str]:
    """How close the five kept cards are to winning, counted over the cards not yet seen."""
    ready = waits(five)
    if ready:
        live = sum(known.live.get(code, 0) for code in ready)
        return {
            "ja": f"あと1枚で上がれる形を残します（上がれる札はまだ{live}枚見えていません）。",
            "en": f"Keeps your hand one card from winning ({live} winning cards still unseen).",
        }
    better = improvers(five)
    if better:
        live = sum(known.live.get(code, 0) for code in better)
        return {
            "ja": f"まだ見えていない{live}枚が、あと1枚で上がれる形に近づけます。",
            "en": f"{live} unseen cards would bring you one card from winning.",
        }
    return {
        "ja": "組になりそうな札を残します。",
        "en": "Keeps the cards that go together.",
    }


def _win_words(view: Observation, seat: int) -> dict[str, str]:
    own_draw = view["phase"] == DISCARD
    card: str = "" if own_draw else view["window"]["card"]
    six = [*view["hand"], *([card] if card else [])]
    breakdown = win_breakdown(
        six,
        view["crests"][seat],
        view["bonus"],
        seat == view["dealer"],
        own_draw,
        view["players"],
    )
    gain = breakdown["gain"]
    if own_draw:
        return {
            "ja": f"上がり：引いた札で組がふたつ揃います（+{gain}点）。",
            "en": f"Win: your draw completes your six (+{gain} points).",
        }
    return {
        "ja": f"上がり：{card_name(card)['ja']}で組がふたつ揃います（+{gain}点）。",
        "en": f"Claim: {card_name(card)['en']} completes your six (+{gain} points).",
    }


def _steal_words(view: Observation, known: View, seat: int) -> dict[str, str]:
    card = view["window"]["card"]
    cost = STEAL_COSTS[view["steals"][seat]]
    six = tuple(sorted((*known.hand, CODE[card])))
    ready = any(waits(six[:i] + six[i + 1 :]) for i in range(6))
    if ready:
        return {
            "ja": f"奪取：{card_name(card)['ja']}の三枚組で、あと1枚で上がれる形になります"
            f"（{cost}点）。",
            "en": f"Steal: the {card_name(card)['en']} triplet leaves you one card from "
            f"winning (costs {cost}).",
        }
    return {
        "ja": f"奪取：{card_name(card)['ja']}の三枚組で手が進みます（{cost}点）。",
        "en": f"Steal: the {card_name(card)['en']} triplet moves your hand on (costs {cost}).",
    }
