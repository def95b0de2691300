"""A full MOMOJAN state consistent with one seat's observation: what a searching bot imagines.

Everything the seat sees is kept as it is: its own hand, both rivers, the open sets, the dora
indicator, the pile heights, the points, the last event and the finished rounds. The cards it
cannot see (the deck less all of that) are shuffled into the opponent's hand, the 3 cards under
the dora indicator and the piles. Nothing else is read: ``sample_state`` takes the observation
and a generator, never a state, so it cannot leak what the seat does not know.

Two things the observation does not say are filled in: the seed (drawn from ``rng``; it decides
only later deals) and 一発 (taken as "the riichi discard is the declarer's last and was not
called"; whether the riichi's own turn had a 開, ポン or チー, which rules it out, is not
read). An opponent in riichi is always ready, so when the shuffle does not give a ready hand,
one is built from random sets and a head of the unseen cards, less one card.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

from asobiba.core.rng import SEED_BITS
from asobiba.games.momojan.cards import DECK, Card, sort_cards
from asobiba.games.momojan.hand import Decomposition, hand_waits, head_ok, set_kind
from asobiba.games.momojan.scoring import Meld, Score
from asobiba.games.momojan.state import (
    DRAWN,
    DRAWN3,
    OVER,
    Discard,
    Event,
    MomojanState,
    RoundResult,
)

READY_TRIES = 20
"""Attempts at building a ready hand for an opponent in riichi."""
_SETS = sorted({tuple(sort_cards(t)) for t in combinations(DECK, 3) if set_kind(t)})
_HEADS = sorted({tuple(sort_cards(p)) for p in combinations(DECK, 2) if head_ok(*p)})
_NEEDS = {group: tuple(Counter(group).items()) for group in (*_SETS, *_HEADS)}
"""Each set's and head's cards with their copies: whether the pool still holds a group is a
few look-ups (hints sample hundreds of hands for an opponent in riichi)."""


def _held(group: tuple[Card, ...], left: Counter[Card]) -> bool:
    return all(left[card] >= count for card, count in _NEEDS[group])


def unseen_cards(observation: dict[str, Any]) -> list[Card]:
    """The cards the observing seat cannot see, as a sorted list (copies repeated)."""
    left = Counter(DECK)
    left.subtract(observation["hand"])
    for river in observation["rivers"]:
        left.subtract(d["card"] for d in river if not d["called"])
    for melds in observation["open_sets"]:
        for meld in melds:
            left.subtract(meld["cards"])
    left.subtract([observation["dora_indicator"]])
    if any(count < 0 for count in left.values()):
        raise ValueError("the observation shows more copies of a card than the deck holds")
    return sort_cards(left.elements())


def _meld(data: dict[str, Any]) -> Meld:
    return Meld(data["kind"], tuple(data["cards"]), data["claimed"])


def _score(data: dict[str, Any] | None) -> Score | None:
    if data is None:
        return None
    return Score(
        yaku=tuple((name, points) for name, points in data["yaku"]),
        dora=data["dora"],
        bonus=None if data["bonus"] is None else (data["bonus"][0], data["bonus"][1]),
        ron=data["ron"],
        sets=data["sets"],
        subtotal=data["subtotal"],
        doubled=data["doubled"],
        total=data["total"],
        ends_game=data["ends_game"],
        split=Decomposition(
            (data["head"][0], data["head"][1]),
            tuple((s[0], s[1], s[2]) for s in data["hand_sets"]),
        ),
    )


def _pair(values: list[Any]) -> Any:
    return (values[0], values[1])


def _result(data: dict[str, Any]) -> RoundResult:
    hands = data["hands"]
    return RoundResult(
        number=data["round"],
        dealer=data["dealer"],
        stake=data["stake"],
        end=data["end"],
        winner=data["winner"],
        score=_score(data["score"]),
        hands=_pair([None if h is None else tuple(h) for h in hands]),
        melds=_pair([tuple(_meld(m) for m in ms) for ms in data["open_sets"]]),
        tenpai=None if data["tenpai"] is None else _pair(data["tenpai"]),
        open_points=None if data["open_points"] is None else _pair(data["open_points"]),
        paid=data["paid"],
        middle=data["middle"],
        points=_pair(data["points"]),
    )


def _event(data: dict[str, Any] | None, secret: tuple[Card, ...]) -> Event | None:
    if data is None:
        return None
    return Event(
        round=data["round"],
        seat=data["seat"],
        type=data["type"],
        pile=data.get("pile"),
        piles=tuple(data.get("piles", ())),
        card=data.get("claimed", data.get("card")),
        cards=tuple(data.get("cards", ())),
        riichi=data.get("riichi", False),
        secret=secret,
    )


def _ready_hand(
    pool: list[Card], size: int, opened: list[list[Card]], rng: random.Random
) -> list[Card] | None:
    """A ready hand of ``size`` cards from ``pool`` beside the ``opened`` sets: random sets and
    a head from the pool, one card taken out; None when ``READY_TRIES`` attempts find none."""
    sets_needed = (size - 1) // 3
    for _ in range(READY_TRIES):
        left = Counter(pool)
        hand: list[Card] = []
        for _ in range(sets_needed):
            choices = [t for t in _SETS if _held(t, left)]
            if not choices:
                break
            trio = rng.choice(choices)
            left.subtract(trio)
            hand += trio
        heads = [h for h in _HEADS if _held(h, left)]
        if len(hand) != 3 * sets_needed or not heads:
            continue
        hand += rng.choice(heads)
        hand.remove(rng.choice(hand))
        if hand_waits(tuple(sort_cards(hand)), opened):
            return hand
    return None


def sample_state(observation: dict[str, Any], rng: random.Random) -> MomojanState:
    """A state that ``observe(state, seat)`` turns back into ``observation`` exactly, with the
    unseen cards dealt at random; only for a seated player's observation of a running game."""
    seat = observation["seat"]
    if seat not in (0, 1) or observation["hand"] is None:
        raise ValueError("sample_state needs a seated player's observation")
    if observation["phase"] == OVER:
        raise ValueError("the game is over: nothing is hidden any more")
    other = 1 - seat
    pool = unseen_cards(observation)
    size = observation["hand_sizes"][other]
    piles = observation["piles"]
    if len(pool) != size + observation["dead_wall"] + sum(piles):
        raise ValueError("the observation's card counts do not add up")
    opened = [meld["cards"] for meld in observation["open_sets"][other]]
    riichi = observation["riichi"]
    rng.shuffle(pool)
    theirs = tuple(sort_cards(pool[:size]))
    if riichi[other] and not hand_waits(theirs, opened):
        ready = _ready_hand(pool, size, opened, rng)
        if ready is not None:
            left = Counter(pool)
            left.subtract(ready)
            rest = list(left.elements())
            rng.shuffle(rest)
            pool = [*ready, *rest]
            theirs = tuple(sort_cards(ready))
    rest = pool[size:]
    dead: tuple[Card, ...] = (observation["dora_indicator"], *rest[: observation["dead_wall"]])
    rest = rest[observation["dead_wall"] :]
    pile_cards = []
    for n in piles:
        pile_cards.append(tuple(rest[:n]))
        rest = rest[n:]
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[seat] = tuple(observation["hand"])
    hands[other] = theirs

    last = observation["last"]
    phase = observation["phase"]
    to_move = observation["to_move"]
    drawn: tuple[Card, ...] = ()
    secret: tuple[Card, ...] = ()
    if last is not None and last["type"] in ("draw", "draw3"):
        if last["seat"] == seat:
            secret = tuple(last["drew"])
        else:
            count = 1 if last["type"] == "draw" else 3
            secret = tuple(rng.sample(list(theirs), min(count, len(theirs))))
    if phase in (DRAWN, DRAWN3):
        drawn = secret

    rivers = tuple(
        tuple(Discard(d["card"], d["riichi"], d["called"]) for d in river)
        for river in observation["rivers"]
    )
    ippatsu = tuple(
        bool(riichi[p] and rivers[p] and rivers[p][-1].riichi and not rivers[p][-1].called)
        for p in (0, 1)
    )
    return MomojanState(
        options=tuple(sorted(observation["options"].items())),
        seed=rng.getrandbits(SEED_BITS),
        points=_pair(observation["points"]),
        middle=observation["middle"],
        dealer=observation["dealer"],
        streak=observation["streak"],
        terms=observation["dealerships"],
        round_no=observation["round"],
        stake=observation["stake"],
        hands=_pair(hands),
        melds=_pair([tuple(_meld(m) for m in ms) for ms in observation["open_sets"]]),
        rivers=_pair(list(rivers)),
        riichi=_pair(riichi),
        ippatsu=_pair(list(ippatsu)),
        piles=tuple(pile_cards),
        dead=dead,
        turn=to_move,
        phase=phase,
        drawn=drawn,
        offer=observation["offer"],
        last=_event(last, secret),
        results=tuple(_result(r) for r in observation["results"]),
    )
