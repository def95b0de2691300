"""Hints and reviews for MOMOJAN: every choice of one seat valued in points, from its view.

Honest by construction: ``analyse`` and ``explain`` call ``observe(state, seat)`` first and
never read the state again. The hidden cards (the opponent's hand, the dead wall under the dora
indicator, the piles) are dealt again from that view (``sample.py``, which builds a ready hand
for an opponent in riichi) with a generator seeded by the view itself (``core.rng.seed_of``), so
a position whose hidden cards lie otherwise but looks the same to the seat gets the same values
and the same words (tests/games/test_card_analysis.py).

A choice's value is the change in the seat's points it can expect by the end of the round: in
each dealt world the engine makes the choice, and the round is played out by both seats with a
quick policy (``Round``): win whenever the rules allow, open a set (開, or ポン/チー on a discard)
while none is open, since a hand of seven needs one to win, draw three after it, throw the card
with the fewest partners in the hand, declare riichi once ready. The values are the means over
the worlds; every choice is played in the same worlds with the same tie-breaks, so two choices
differ by the choice alone. Dealing into a riichi is priced exactly over the opponent's dealt
hands, and a win by the points it scores (yaku, dora, bonuses, the doubling).

Drawing from one pile or another is one choice (``choices``): the seat knows nothing of the
piles' order, so every draw gets the value of the first.
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import Action, Analysis, Grade, MoveValue, Observation, view_of
from asobiba.core.rng import seed_of, stream
from asobiba.games.momojan import rules
from asobiba.games.momojan.bots import NEAR, shanten, ukeire, unseen
from asobiba.games.momojan.cards import (
    KINDS,
    NAMES,
    Card,
    is_dora,
    is_fruit,
    is_peach,
    number,
    sort_key,
)
from asobiba.games.momojan.data import NUMBERS, REVIEW
from asobiba.games.momojan.hand import hand_waits, is_complete, sets_in, sets_with
from asobiba.games.momojan.rules import CALLED, DRAWN, DRAWN3, OVER, START, MomojanState
from asobiba.games.momojan.sample import sample_state
from asobiba.games.momojan.scoring import Meld, Win, score

ROLLOUTS_PER_SECOND = 450.0
"""Played-out rounds a second of the budget buys: the number of worlds is the budget times this,
shared among the choices. Measured on the 2-core development machine (bench/card_review.py), so
a hint's 1 s budget takes well under a second; the count, not a clock, sets the work, so the
values never depend on how busy the machine is."""
FEWEST_WORLDS = 1
"""Worlds dealt however small the budget (a review's and a hint's budget deal dozens)."""
MOST_WORLDS = 400
"""Worlds dealt however large the budget."""

GAME = rules.Momojan()
"""The rules, for the legal actions and the first step of every choice in a dealt world."""

Step = tuple[str, Any]
"""What a rollout does next: ``("start", offer)`` (the seat to move begins its turn, the other
seat's discard on offer), ``("drawn", cards)`` or ``("called", None)``."""


class Momojan(rules.Momojan):
    """MOMOJAN with hints and reviews (``core.game.analyses``, ``reviews``): the registry's
    game. The rules module knows nothing of this one, which reads the rules and the sampler."""

    def analyse(self, state: MomojanState, seconds: float, seat: int | None = None) -> Analysis:
        return analyse(view_of(self, state, seat), seconds)

    def explain(self, state: MomojanState, action: Any, seat: int | None = None) -> dict[str, str]:
        return explain(view_of(self, state, seat), action)

    def choices(self, state: MomojanState, seat: int) -> list[Action]:
        """The legal actions with one draw for all three piles (``core.game.choices``)."""
        return choices(self.legal_actions(state, seat))

    def grades(self, options: Mapping[str, Any]) -> tuple[Grade, ...]:
        return REVIEW.grades

    def review_seconds(self, options: Mapping[str, Any]) -> float:
        return REVIEW.seconds


def worlds_for(seconds: float, choices: int) -> int:
    """How many worlds a budget of ``seconds`` deals for ``choices`` choices."""
    wanted = round(seconds * ROLLOUTS_PER_SECOND / max(choices, 1))
    return max(FEWEST_WORLDS, min(MOST_WORLDS, wanted))


def choices(legal: list[Action]) -> list[Action]:
    """``legal`` with every draw but the first left out: which pile is one choice."""
    first = next((i for i, a in enumerate(legal) if a["type"] == "draw"), None)
    return [a for i, a in enumerate(legal) if a["type"] != "draw" or i == first]


def analyse(view: Observation, seconds: float) -> Analysis:
    """Every legal action of the view's seat, valued in points (module docstring), best
    first. ``view`` must be a seated player's observation of a running game, on its turn."""
    seat = _deciding(view)
    rng = stream(seed_of(view), "analysis/momojan")
    first = sample_state(view, rng)
    legal = GAME.legal_actions(first, seat)
    distinct = choices(legal)
    totals = [0.0] * len(distinct)
    count = worlds_for(seconds, len(distinct))
    for n in range(count):
        world = first if n == 0 else sample_state(view, rng)
        ties = rng.getrandbits(128)
        for i, action in enumerate(distinct):
            after = GAME.apply(world, seat, action)
            totals[i] += play_out(world, after, seat, stream(ties, "analysis/ties"))
    value = {
        _key(action): round(total / count, 2)
        for action, total in zip(distinct, totals, strict=True)
    }
    moves = [MoveValue(action, value[_key(action)], False) for action in legal]
    moves.sort(key=lambda move: -move.value)
    return Analysis(seat, tuple(moves))


def _key(action: Action) -> str:
    """Every draw is valued as one; any other action by itself."""
    return "draw" if action["type"] == "draw" else repr(sorted(action.items()))


def _deciding(view: Observation) -> int:
    """The view's seat, if it is to move; else ``IllegalAction``."""
    seat = view.get("seat")
    if seat not in (0, 1) or view.get("hand") is None:
        raise IllegalAction("only a seated player's view of a running game can be analysed")
    if view["phase"] == OVER or view["to_move"] != seat:
        raise IllegalAction(f"seat {seat} is not to move")
    return int(seat)


def play_out(before: MomojanState, after: MomojanState, seat: int, rng: random.Random) -> float:
    """``seat``'s points at the end of the round ``after`` is in (a choice made in ``before``),
    less its points in ``before``: the round is played out by ``Round`` unless the choice
    ended it."""
    if len(after.results) > len(before.results):
        return float(after.results[len(before.results)].points[seat] - before.points[seat])
    table = Round(after)
    table.run(after, rng)
    return float(table.points[seat] - before.points[seat])


_READY: dict[tuple[tuple[Card, ...], int], bool] = {}
"""(sorted hand, open sets) → one card from a win: the rollouts' cache (the same hands come back
in every choice's rollout of a world), emptied when it grows past ``_MOST_READY``."""
_MOST_READY = 200_000


def _ready(hand: list[Card], opened: int) -> bool:
    key = (tuple(hand), opened)
    known = _READY.get(key)
    if known is None:
        if len(_READY) >= _MOST_READY:
            _READY.clear()
        known = _READY[key] = shanten(key[0], opened) <= 0
    return known


@lru_cache(maxsize=64)
def _dora(indicator: Card) -> frozenset[Card]:
    """Every card the indicator makes dora."""
    return frozenset(card for card in KINDS if is_dora(card, indicator))


class Round:
    """One dealt world of a round, as the rollouts play it (module docstring)."""

    __slots__ = (
        "dora",
        "hands",
        "indicator",
        "loners",
        "melds",
        "middle",
        "pile",
        "points",
        "ready",
        "riichi",
        "rivers",
    )

    def __init__(self, state: MomojanState) -> None:
        self.hands = [sorted(hand, key=sort_key) for hand in state.hands]
        self.melds = [list(melds) for melds in state.melds]
        self.rivers = [{d.card for d in river if not is_peach(d.card)} for river in state.rivers]
        self.riichi = list(state.riichi)
        self.pile = [card for pile in state.piles for card in pile]
        self.indicator = state.dead[0]
        self.dora = _dora(self.indicator)
        self.points = list(state.points)
        self.middle = state.middle
        self.ready = [_ready(h, len(m)) for h, m in zip(self.hands, self.melds, strict=True)]
        """Per seat: its hand may win with one more card (none can unless it is ready)."""
        self.loners = 0
        """Cards without a partner in the hand ``_choose`` last looked at."""

    def run(self, state: MomojanState, rng: random.Random) -> None:
        """Play the round on from ``state``'s phase to its settlement."""
        turn = state.turn
        step: Step = {
            START: ("start", state.offer),
            DRAWN: ("drawn", state.drawn),
            DRAWN3: ("drawn", state.drawn),
            CALLED: ("called", None),
        }[state.phase]
        while True:
            kind, data = step
            if kind == "start":
                next_step = self._start(turn, data, rng)
            elif kind == "drawn":
                next_step = self._drawn(turn, data, rng)
            else:
                next_step = self._called(turn, rng)
            if next_step is None:
                return
            step = next_step
            if step[0] == "start":  # only a discard leads there: the other seat's turn
                turn = 1 - turn

    def _start(self, seat: int, offer: Card | None, rng: random.Random) -> Step | None:
        hand = self.hands[seat]
        if offer is not None:
            if self.ready[seat] and self._wins(
                seat, sorted((*hand, offer), key=sort_key), offer, ron=True
            ):
                return None
            if not self.riichi[seat] and not self.melds[seat]:
                calls = sets_with(offer, tuple(hand))
                if calls:
                    kind, pair = calls[0]
                    for card in pair:
                        hand.remove(card)
                    cards = tuple(sorted((offer, *pair), key=sort_key))
                    self.melds[seat].append(Meld("chi" if kind == "run" else "pon", cards, offer))
                    self.ready[seat] = False
                    return self._called(seat, rng)
        if not self.pile:
            self._wall()
            return None
        card = self.pile.pop()
        insort(hand, card, key=sort_key)
        return "drawn", (card,)

    def _drawn(self, seat: int, drawn: tuple[Card, ...], rng: random.Random) -> Step | None:
        hand = self.hands[seat]
        if (self.ready[seat] or len(drawn) == 3) and self._wins(seat, hand, drawn[-1], ron=False):
            return None
        if self.riichi[seat]:
            return self._discard(seat, drawn[-1])
        if not self.melds[seat]:
            found = sets_in(tuple(hand))
            if found:
                trio = found[0]
                for card in trio:
                    hand.remove(card)
                self.melds[seat].append(Meld("kai", tuple(trio)))
                self.ready[seat] = False
                return self._called(seat, rng)
        return self._discard(seat, self._choose(seat, rng))

    def _called(self, seat: int, rng: random.Random) -> Step | None:
        if len(self.pile) >= 3:
            drawn = (self.pile.pop(), self.pile.pop(), self.pile.pop())
            hand = self.hands[seat]
            hand.extend(drawn)
            hand.sort(key=sort_key)
            return "drawn", drawn
        return self._discard(seat, self._choose(seat, rng))

    def _choose(self, seat: int, rng: random.Random) -> Card:
        """The card with the fewest partners (cards of the hand it shares a set, a partial set
        or a head with); a モモ or a dora counts as a little more; ties at random."""
        hand = self.hands[seat]
        best: list[Card] = []
        low = 1e9
        seen: set[Card] = set()
        self.loners = 0
        kinds = set(hand)
        for card in hand:
            # Kinds of the hand it goes with (a picture's own copies as one): quick, and near
            # enough for a rollout.
            partners = len(NEAR[card] & kinds) - (card in NEAR[card] and hand.count(card) < 2)
            if not partners:
                self.loners += 1
            if card in seen:
                continue
            seen.add(card)
            worth = partners + 0.5 * is_peach(card) + 0.3 * (card in self.dora)
            if worth < low:
                low, best = worth, [card]
            elif worth == low:
                best.append(card)
        return best[0] if len(best) == 1 else rng.choice(best)

    def _discard(self, seat: int, card: Card) -> Step:
        """``seat`` throws ``card`` (``loners`` counted by ``_choose`` on the hand with it, or
        0 when the hand was not looked at: a riichi's draw goes out unchosen)."""
        hand = self.hands[seat]
        hand.remove(card)
        if not is_peach(card):
            self.rivers[seat].add(card)
        if self.riichi[seat]:
            return "start", card
        # A ready hand has one card without a partner at most: the others sit in its sets and
        # in the shape that waits, so a hand with more is not worth the count.
        lone = self.loners - (self.loners > 0 and _lone(card, hand))
        self.ready[seat] = lone <= 1 and _ready(hand, len(self.melds[seat]))
        if self.ready[seat] and len(self.pile) >= NUMBERS.riichi_min_pile:
            self.riichi[seat] = True
        return "start", card

    def _waits(self, seat: int) -> frozenset[Card]:
        hand = tuple(self.hands[seat])
        return hand_waits(hand, [m.cards for m in self.melds[seat]])

    def _wins(self, seat: int, full: list[Card], card: Card, ron: bool) -> bool:
        """Settle a win of ``seat`` with ``full`` (its hand and ``card``) if it is one."""
        if not is_complete(tuple(full), len(self.melds[seat])):
            return False
        if ron and not is_peach(card) and self.rivers[seat] & self._waits(seat):
            return False  # furiten: no ロン but on a モモ
        won = score(
            Win(
                tuple(full),
                tuple(self.melds[seat]),
                card,
                ron,
                self.indicator,
                self.riichi[seat],
                last_card=not self.pile,
            )
        )
        if won is None:
            return False
        self.points[1 - seat] -= won.total
        self.points[seat] += won.total + self.middle
        return True

    def _wall(self) -> None:
        """The piles are empty and the last discard let go: both ready hands are paid by the
        sets they show (as ``rules._settle_wall``)."""
        value = []
        for seat in (0, 1):
            shown = sum(
                NUMBERS.kai_points if m.kind == "kai" else NUMBERS.call_points
                for m in self.melds[seat]
            )
            value.append(shown if self._waits(seat) else 0)
        if value[0] != value[1]:
            winner = 0 if value[0] > value[1] else 1
            paid = -(-abs(value[0] - value[1]) // 2)
            self.points[1 - winner] -= paid
            self.points[winner] += paid + self.middle


def _lone(card: Card, rest: list[Card]) -> bool:
    """Whether ``card`` had no partner among ``rest`` (the hand without it)."""
    near = NEAR[card]
    return not any(other in near for other in rest)


# --- why ------------------------------------------------------------------------------------


def card_name(card: Card) -> dict[str, str]:
    """A card in words ("Lemon 3", "レモン3", "Dog")."""
    if is_fruit(card):
        fruit = NAMES[card[0]]
        return {"ja": f"{fruit['ja']}{number(card)}", "en": f"{fruit['en'].title()} {number(card)}"}
    return {"ja": NAMES[card]["ja"], "en": NAMES[card]["en"].title()}


def cards_named(cards: list[Card] | tuple[Card, ...]) -> dict[str, str]:
    return {
        "ja": "・".join(card_name(c)["ja"] for c in cards),
        "en": ", ".join(card_name(c)["en"] for c in cards),
    }


def explain(view: Observation, action: Action) -> dict[str, str]:
    """Why ``action`` is worth taking for the view's seat, in one line of each language: the
    points of a win, what a call completes, and for a discard whether the opponent's riichi
    can take it and how far the hand it keeps is from ready, counted over the unseen cards."""
    seat = _deciding(view)
    kind = action["type"]
    if kind in ("tsumo", "ron"):
        world = sample_state(view, stream(seed_of(view), "analysis/momojan/why"))
        after = GAME.apply(world, seat, action)
        paid = after.results[len(world.results)].paid
        name = "ツモ" if kind == "tsumo" else "ロン"
        return {
            "ja": f"{name}：アガリで{paid}点です。",
            "en": f"{name}: a win worth {paid} points.",
        }
    if kind in ("pon", "chi"):
        offer = view["offer"]
        trio = cards_named(sorted((offer, *action["cards"]), key=sort_key))
        return {
            "ja": f"鳴く：{card_name(offer)['ja']}で{trio['ja']}のセットができます。",
            "en": f"Claim: {card_name(offer)['en']} completes your set {trio['en']}.",
        }
    if kind == "kai":
        trio = cards_named(action["cards"])
        return {
            "ja": f"開：{trio['ja']}を公開して、アガリに必要なセットを場に出します。",
            "en": f"開: show {trio['en']}; a hand needs open sets to reach three.",
        }
    if kind == "draw3":
        return {
            "ja": "3枚引く：公開したセットのあとで手札を増やし、アガリの道を広げます。",
            "en": "Draw three: after your open set, more cards mean more ways to win.",
        }
    if kind == "draw":
        offer = view["offer"]
        if offer is not None and sets_with(offer, tuple(view["hand"])):
            return {
                "ja": "山から引く：この捨て札を鳴いても手は進みません。",
                "en": "Draw: taking this discard would not move your hand on.",
            }
        return {"ja": "山から1枚引きます。", "en": "Draw a card."}
    if kind == "pass":
        return {
            "ja": "流局にします：この捨て札では得になりません。",
            "en": "End the round: this discard brings you nothing.",
        }
    return _discard_words(view, seat, action["card"], bool(action["riichi"]))


def _discard_words(view: Observation, seat: int, card: Card, riichi: bool) -> dict[str, str]:
    hand = list(view["hand"])
    hand.remove(card)
    left = tuple(sorted(hand, key=sort_key))
    melds = [m["cards"] for m in view["open_sets"][seat]]
    pool = unseen(view)
    waiting = sorted(hand_waits(left, melds), key=sort_key)
    if waiting:
        live = sum(pool[c] for c in waiting)
        named = cards_named(waiting)
        keeps = {
            "ja": f"テンパイを保ちます（待ち：{named['ja']}、見えていないのは{live}枚）。",
            "en": f"Keeps your hand ready, waiting on {named['en']} ({live} unseen).",
        }
        if riichi:
            keeps = {
                "ja": f"リーチ。{named['ja']}待ちです（見えていないのは{live}枚）。",
                "en": f"Riichi, waiting on {named['en']} ({live} unseen).",
            }
    else:
        steps = shanten(left, len(melds))
        helping = ukeire(left, len(melds), Counter(pool))
        keeps = {
            "ja": f"テンパイまであと{steps}枚。見えていない{helping}枚が手を進めます。",
            "en": f"{steps} cards from ready; {helping} unseen cards improve your hand.",
        }
    other = 1 - seat
    theirs = {d["card"] for d in view["rivers"][other]}
    if view["riichi"][other] and card in theirs and not is_peach(card):
        return {
            "ja": f"安全：相手が自分で{card_name(card)['ja']}を捨てているので、ロンされません。"
            f"{keeps['ja']}",
            "en": f"Safe: your opponent discarded {card_name(card)['en']} themselves, so it "
            f"cannot be won on. {keeps['en']}",
        }
    if riichi and waiting:
        return {
            "ja": f"{card_name(card)['ja']}を捨てて{keeps['ja']}",
            "en": f"Throw {card_name(card)['en']} and declare {keeps['en'][0].lower()}"
            f"{keeps['en'][1:]}",
        }
    return {
        "ja": f"{card_name(card)['ja']}を捨てて、{keeps['ja']}",
        "en": f"Throw {card_name(card)['en']}: {keeps['en'][0].lower()}{keeps['en'][1:]}",
    }
