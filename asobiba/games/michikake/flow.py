"""The transitions of a MICHIKAKE session: deal, draw, discard, settle a claim window, settle a
win, pass the deal, end the session. Each takes a state and returns a new one; none mutates.
``events`` collects the public events of the transition, which become the new state's ``last``.
"""

from __future__ import annotations

from typing import Any

from asobiba.core.rng import deal_rng
from asobiba.games.michikake.cards import SUITS, Card, deck, sort_cards
from asobiba.games.michikake.data import (
    BONUS_CARDS,
    BREAK_SECONDS,
    CLAIM_SECONDS,
    CREST_SHIFT,
    HAND_SIZE,
)
from asobiba.games.michikake.scoring import win_breakdown
from asobiba.games.michikake.state import (
    BREAK,
    CLAIM,
    DISCARD,
    OVER,
    Event,
    MichikakeState,
    Window,
    compact_json,
    evolve,
    remove_one,
    set_at,
    steal_cost,
)


def tick(state: MichikakeState, now: float) -> MichikakeState:
    """The state at time ``now``, one public transition later."""
    return evolve(state, now=now, ply=state.ply + 1)


def start_deal(state: MichikakeState, events: list[Event]) -> MichikakeState:
    n = state.players
    rng = deal_rng(state.seed, f"deal/{state.deal}", f"michikake/{state.seed}/{state.deal}")
    cards = deck(n)
    rng.shuffle(cards)
    kinds = sorted(BONUS_CARDS)
    rng.shuffle(kinds)
    suits = SUITS[:n]
    crests = tuple(suits[(seat - state.deal * CREST_SHIFT) % n] for seat in range(n))
    hands: list[list[Card]] = [[] for _ in range(n)]
    for i in range(HAND_SIZE * n):
        hands[(state.dealer + i) % n].append(cards[i])
    short = dict(state.options)["short_pile"] or len(cards)
    empty: tuple[tuple[Any, ...], ...] = ((),) * n
    dealt = evolve(
        state,
        crests=crests,
        bonus=tuple(kinds[:n]),
        pile=tuple(cards[HAND_SIZE * n : HAND_SIZE * n + short]),
        aside=tuple(cards[HAND_SIZE * n + short :]),
        hands=tuple(sort_cards(hand) for hand in hands),
        shown=empty,
        discards=empty,
        barred=(frozenset(),) * n,
        steals=(0,) * n,
        window=None,
    )
    events.append(
        Event(
            "deal",
            compact_json({"deal": state.deal, "dealer": state.dealer, "crests": list(crests)}),
        )
    )
    return draw(dealt, state.dealer, events)


def draw(state: MichikakeState, seat: int, events: list[Event]) -> MichikakeState:
    """``seat`` draws the next card, or the deal ends if the pile is empty."""
    if not state.pile:
        events.append(Event("exhausted", compact_json({"deal": state.deal})))
        result = {"deal": state.deal, "dealer": state.dealer, "end": "exhausted"}
        return next_deal(state, (state.dealer + 1) % state.players, result, events)
    card, pile = state.pile[0], state.pile[1:]
    events.append(Event("draw", compact_json({"seat": seat, "pile": len(pile)}), seat, card))
    return evolve(
        state,
        pile=pile,
        hands=set_at(state.hands, seat, sort_cards((*state.hands[seat], card))),
        turn=seat,
        phase=DISCARD,
        drawn=card,
        window=None,
        last=tuple(events),
    )


def discard(state: MichikakeState, seat: int, card: Card, now: float) -> MichikakeState:
    hand = state.hands[seat]
    left = remove_one(hand, card)
    shown = state.shown[seat]
    if left.count(card) < shown.count(card):
        shown = remove_one(shown, card)
    row = (*state.discards[seat], (card, None))
    return evolve(
        tick(state, now),
        hands=set_at(state.hands, seat, left),
        shown=set_at(state.shown, seat, shown),
        discards=set_at(state.discards, seat, row),
        barred=set_at(state.barred, seat, state.barred[seat] | {card}),
        phase=CLAIM,
        drawn=None,
        window=Window(seat, card, now + CLAIM_SECONDS),
        last=(Event("discard", compact_json({"seat": seat, "card": card}), seat),),
    )


def nearest(claimants: list[int], discarder: int, players: int) -> int:
    return min(claimants, key=lambda seat: (seat - discarder) % players)


def close_window(state: MichikakeState) -> MichikakeState:
    """Settle the claims on the open window (the state's time and ply already moved on)."""
    window = state.window
    assert window is not None
    n, d, card = state.players, window.discarder, window.card
    wins = [seat for seat, answer in window.answers if answer == "win"]
    steals = [seat for seat, answer in window.answers if answer == "steal"]
    row = state.discards[d]
    events: list[Event] = []
    if wins:
        winner = nearest(wins, d, n)
        six = sort_cards((*state.hands[winner], card))
        state = evolve(
            state,
            discards=set_at(state.discards, d, (*row[:-1], (card, winner))),
            hands=set_at(state.hands, winner, six),
            window=None,
        )
        return settle_win(state, winner, six, d, events)
    if steals:
        seat = nearest(steals, d, n)
        cost = steal_cost(state.steals[seat])
        assert cost is not None
        events.append(
            Event(
                "steal", compact_json({"seat": seat, "card": card, "from": d, "cost": cost}), seat
            )
        )
        return evolve(
            state,
            points=set_at(state.points, seat, state.points[seat] - cost),
            steals=set_at(state.steals, seat, state.steals[seat] + 1),
            hands=set_at(state.hands, seat, sort_cards((*state.hands[seat], card))),
            shown=set_at(state.shown, seat, sort_cards((*state.shown[seat], card, card, card))),
            discards=set_at(state.discards, d, (*row[:-1], (card, seat))),
            turn=seat,
            phase=DISCARD,
            drawn=None,
            window=None,
            last=tuple(events),
        )
    return draw(evolve(state, window=None), (d + 1) % n, events)


def settle_win(
    state: MichikakeState,
    winner: int,
    six: tuple[Card, ...],
    discarder: int | None,
    events: list[Event],
) -> MichikakeState:
    n = state.players
    self_draw = discarder is None
    breakdown = win_breakdown(
        six, state.crests[winner], state.bonus[winner], winner == state.dealer, self_draw, n
    )
    payers = [s for s in range(n) if s != winner] if self_draw else [discarder]
    points = list(state.points)
    paid = [0] * n
    for payer in payers:
        assert payer is not None
        points[payer] -= breakdown["each"]
        paid[payer] = breakdown["each"]
    points[winner] += breakdown["gain"]
    win = {
        "seat": winner,
        "from": discarder,
        "hand": list(sort_cards(six)),
        "crest": state.crests[winner],
        "paid": paid,
        **breakdown,
    }
    events.append(Event("win", compact_json(win), winner))
    result = {"deal": state.deal, "dealer": state.dealer, "end": "win", "win": win}
    state = evolve(state, points=tuple(points), window=None)
    next_dealer = state.dealer if winner == state.dealer else (state.dealer + 1) % n
    return next_deal(state, next_dealer, result, events)


def next_deal(
    state: MichikakeState, dealer: int, result: dict[str, Any], events: list[Event]
) -> MichikakeState:
    """Record the finished deal; end the session, or break until the next deal (``resume``)."""
    passes = state.passes + (dealer != state.dealer)
    state = evolve(
        state,
        passes=passes,
        dealer=dealer,
        results=(*state.results, compact_json(result)),
        window=None,
        drawn=None,
    )
    end = "bust" if min(state.points) <= 0 else "round" if passes >= state.players else None
    if end is not None:
        events.append(Event("end", compact_json({"end": end, "points": list(state.points)})))
        return evolve(state, phase=OVER, end=end, last=tuple(events))
    return evolve(
        state,
        phase=BREAK,
        ready=frozenset(),
        resume_at=state.now + BREAK_SECONDS,
        last=tuple(events),
    )


def resume(state: MichikakeState) -> MichikakeState:
    """End the break: deal the next deal (the state's time and ply already moved on)."""
    return start_deal(evolve(state, deal=state.deal + 1, ready=frozenset(), resume_at=None), [])
