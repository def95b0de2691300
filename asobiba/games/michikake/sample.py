"""Hidden-card sampling: a full state consistent with one seat's observation.

A searching bot cannot see the state; it samples the cards it cannot see (other hands, the pile,
other bonus cards) from what its observation leaves possible, and searches those samples. A
sampled state gives back exactly the observation it came from (tested), so the observation is
all a bot needs.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.rng import SEED_BITS
from asobiba.games.michikake.cards import deck, sort_cards
from asobiba.games.michikake.data import BONUS_CARDS, BREAK_SECONDS, CLAIM_SECONDS
from asobiba.games.michikake.state import (
    DISCARD,
    OVER,
    Event,
    MichikakeState,
    Window,
    compact_json,
)


def sample_state(observation: dict[str, Any], rng: random.Random) -> MichikakeState:
    """A state that ``observation`` (a seat's, during a running session) could have come from,
    the hidden cards drawn at random. Other seats' secret claim answers (and readiness between
    deals) are taken as not given."""
    seat = observation.get("seat")
    if type(seat) is not int or observation.get("phase") == OVER:
        raise IllegalAction("only a seat's observation of a running session can be sampled")
    players: int = observation["players"]
    hand = tuple(observation["hand"])
    shown = tuple(tuple(cards) for cards in observation["shown"])
    rows = tuple(
        tuple((entry["card"], entry["taken_by"]) for entry in row)
        for row in observation["discards"]
    )
    known = Counter(hand)
    for s in range(players):
        if s != seat:
            known.update(shown[s])
    known.update(card for row in rows for card, taker in row if taker is None)
    unseen = list((Counter(deck(players)) - known).elements())
    rng.shuffle(unseen)
    hands: list[tuple[str, ...]] = []
    for s in range(players):
        if s == seat:
            hands.append(hand)
            continue
        count = observation["hand_sizes"][s] - len(shown[s])
        hands.append(sort_cards([*shown[s], *unseen[:count]]))
        unseen = unseen[count:]
    pile = tuple(unseen[: observation["pile"]])
    aside = tuple(unseen[observation["pile"] :])
    turn: int = observation["turn"]
    drawn = observation["drawn"]
    stole = any(event["type"] == "steal" for event in observation["last"])
    if observation["phase"] == DISCARD and turn != seat and not stole:
        concealed = Counter(hands[turn]) - Counter(shown[turn])
        drawn = rng.choice(sorted(concealed.elements()))
    spare = [b for b in BONUS_CARDS if b != observation["bonus"]]
    rng.shuffle(spare)
    bonus = tuple(observation["bonus"] if s == seat else spare.pop() for s in range(players))
    window = None
    now = 0.0
    if observation["window"] is not None:
        w = observation["window"]
        answers = ((seat, w["answer"]),) if w["answer"] is not None else ()
        window = Window(w["discarder"], w["card"], w["closes_at"], answers)
        now = w["closes_at"] - CLAIM_SECONDS
    pause = observation["break"]
    if pause is not None:  # between deals: only this seat's readiness is known
        now = pause["resumes_at"] - BREAK_SECONDS
    return MichikakeState(
        players=players,
        options=tuple(sorted(observation["options"].items())),
        seed=rng.getrandbits(SEED_BITS),
        points=tuple(observation["points"]),
        deal=observation["deal"],
        passes=observation["passes"],
        dealer=observation["dealer"],
        crests=tuple(observation["crests"]),
        bonus=bonus,
        pile=pile,
        aside=aside,
        hands=tuple(hands),
        shown=shown,
        discards=rows,
        barred=tuple(frozenset(card for card, _ in row) for row in rows),
        steals=tuple(observation["steals"]),
        turn=turn,
        phase=observation["phase"],
        drawn=drawn,
        window=window,
        now=now,
        ply=observation["ply"],
        last=tuple(_event(event, seat) for event in observation["last"]),
        results=tuple(compact_json(result) for result in observation["results"]),
        ready=frozenset((seat,)) if pause is not None and pause["ready"] else frozenset(),
        resume_at=pause["resumes_at"] if pause is not None else None,
    )


def _event(view: dict[str, Any], seat: int) -> Event:
    data = {k: v for k, v in view.items() if k != "type"}
    secret = None
    if view["type"] == "draw" and "card" in data:
        secret = data.pop("card")
    return Event(view["type"], compact_json(data), data.get("seat"), secret)
