"""MICHIKAKE behind the game protocol: one state holds the whole session (every deal).

A deal: each seat holds five cards and a face-down bonus card; the dealer draws first. On its
turn a seat draws from the pile (the engine does it for them), then wins on its own draw if the
six cards are two sets, or discards one. After every discard a claim window opens for every
other seat (``data.toml`` ``claim_seconds``): each answers ``{"pass": true}``, ``{"win": true}``
or ``{"steal": true}``; the answers stay secret and are settled together by the rules when the
window closes (a win beats a steal; among wins the nearest clockwise from the discarder), at its
deadline or as soon as everyone has answered. Then the next seat draws, or the stealer shows
its three cards and discards, and play goes on from the stealer's left.

Time enters only as ``at`` (seconds); ``at=None`` means "no later than the last time seen".
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from asobiba.core.bots import Bot, RandomBot
from asobiba.core.errors import IllegalAction, InvalidOptions
from asobiba.core.game import DesignedValue
from asobiba.core.options import OptionSpec, resolve_options
from asobiba.games.michikake.cards import SUITS, Card, deck, is_card, is_two_sets, sort_cards
from asobiba.games.michikake.data import (
    BONUS_CARDS,
    CLAIM_SECONDS,
    CREST_SHIFT,
    FIRST_DEALER,
    HAND_SIZE,
    MAX_STEALS,
    START_POINTS,
    STEAL_COSTS,
    VALUES,
    YAKU,
)
from asobiba.games.michikake.scoring import win_breakdown

OPTIONS: list[OptionSpec] = [
    OptionSpec(
        "short_pile",
        (0, 4, 8, 16),
        0,
        {"ja": "山札を短く（試験用）", "en": "Short pile (test games)"},
        ui=False,
    ),
]
"""MICHIKAKE has no option rules for players; every number it plays by is in data.toml.
``short_pile`` (engine only, like Mancala's small boards) puts only that many cards in the pile
after the deal and sets the rest aside unseen, so test and golden games stay short; 0 is the
real game."""

DISCARD = "discard"
"""Phase: the seat whose turn it is holds six cards and must discard (or win on its draw)."""
CLAIM = "claim"
"""Phase: a claim window is open on the last discard."""
OVER = "over"
"""Phase: the session has ended."""

ANSWERS = ("pass", "win", "steal")


@dataclass(frozen=True, slots=True)
class Window:
    """An open claim window on one discard."""

    discarder: int
    card: Card
    closes_at: float
    answers: tuple[tuple[int, str], ...] = ()
    """``(seat, "pass" | "win" | "steal")`` sorted by seat; secret until the window closes."""


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening of the last transition; ``secret`` only ``seat`` may see."""

    kind: str
    """"deal", "draw", "discard", "steal", "win", "exhausted", "end"."""
    data: str
    """The public fields, as compact JSON (kept as text so the state stays immutable)."""
    seat: int | None = None
    secret: str | None = None
    """The drawn card, shown only in ``seat``'s own observation."""


@dataclass(frozen=True, slots=True)
class MichikakeState:
    """The whole truth of a session. Only ``observe`` reads it for the players."""

    players: int
    options: tuple[tuple[str, Any], ...]
    seed: int
    points: tuple[int, ...]
    deal: int
    """Index of the current deal (0 first); crests move one seat each deal."""
    passes: int
    """How many times the deal has passed to the next seat; the session ends at ``players``."""
    dealer: int
    crests: tuple[str, ...]
    bonus: tuple[str, ...]
    """Each seat's face-down bonus card (an id from data.toml)."""
    pile: tuple[Card, ...]
    """The draw pile; the next card drawn is ``pile[0]``."""
    aside: tuple[Card, ...]
    """Cards set aside unseen by the ``short_pile`` test option (empty in the real game)."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's cards in canonical order, shown ones included (5, or 6 while discarding)."""
    shown: tuple[tuple[Card, ...], ...]
    """The cards each seat has shown by stealing and still holds."""
    discards: tuple[tuple[tuple[Card, int | None], ...], ...]
    """Each seat's discard row: ``(card, seat that took it or None)``, oldest first."""
    barred: tuple[frozenset[Card], ...]
    """The distinct cards in each seat's discard row: what it may never take from a discard."""
    steals: tuple[int, ...]
    """Steals each seat made this deal."""
    turn: int
    """The seat whose turn it is (the discarder while a window is open)."""
    phase: str
    drawn: Card | None
    """The card the seat to move just drew (None after a steal)."""
    window: Window | None
    now: float
    """The latest time seen (seconds)."""
    ply: int
    """Public transitions so far (every action or timed event but a secret claim answer)."""
    last: tuple[Event, ...]
    results: tuple[str, ...]
    """Each finished deal's public summary, as compact JSON."""
    end: str | None = None
    """Once over: "round" (the deal went round once per player) or "bust" (someone ≤ 0)."""


_FIELDS: tuple[str, ...] = MichikakeState.__slots__
_set = object.__setattr__


def _with(state: MichikakeState, **changes: Any) -> MichikakeState:
    """``dataclasses.replace`` without its checks: the engine's hot path builds every state
    through here (the fields are fixed, so nothing is lost)."""
    new = object.__new__(MichikakeState)
    for name in _FIELDS:
        _set(new, name, changes[name] if name in changes else getattr(state, name))
    return new


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _remove(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    items = list(cards)
    items.remove(card)
    return tuple(items)


def _set_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def steal_cost(steals_made: int) -> int | None:
    """What the next steal costs after ``steals_made`` steals this deal; None if no more."""
    if steals_made >= MAX_STEALS:
        return None
    return STEAL_COSTS[steals_made]


def barred_cards(state: MichikakeState, seat: int) -> frozenset[Card]:
    """Cards ``seat`` may never take from a discard this deal: every card it has discarded."""
    return state.barred[seat]


def can_win_on(state: MichikakeState, seat: int, card: Card) -> bool:
    return card not in barred_cards(state, seat) and is_two_sets([*state.hands[seat], card])


def can_steal(state: MichikakeState, seat: int, card: Card) -> bool:
    cost = steal_cost(state.steals[seat])
    return (
        cost is not None
        and state.points[seat] > cost
        and card not in barred_cards(state, seat)
        and state.hands[seat].count(card) >= 2
    )


class Michikake:
    """The MICHIKAKE game module (docs/ARCHITECTURE.md, "MICHIKAKE specifics")."""

    name = "michikake"
    min_seats = 3
    max_seats = 4

    def __init__(self) -> None:
        # Bots are a later task: "random" is the one honest level for now (RandomBot).
        self.levels: list[str] = ["random"]

    # --- metadata ------------------------------------------------------------------------------

    def options_spec(self) -> list[OptionSpec]:
        return OPTIONS

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(OPTIONS, options)

    def level_names(self) -> dict[str, dict[str, str]]:
        return {"random": {"ja": "ランダム", "en": "Random"}}

    def make_bot(self, level: str, seed: int) -> Bot:
        if level != "random":
            raise ValueError(f"unknown michikake level {level!r}; known: {self.levels}")
        return RandomBot(seed)

    def designed_values(self) -> list[DesignedValue]:
        rows = [
            DesignedValue(
                name={"ja": v.name_ja, "en": v.name_en},
                value={"ja": v.text_ja, "en": v.text_en},
                source=v.source,
                reason={"ja": v.reason_ja, "en": v.reason_en},
            )
            for v in VALUES.values()
        ]
        rows += [
            DesignedValue(
                name={"ja": f"役：{y.name_ja}", "en": f"Hand: {y.name_en}"},
                value={
                    "ja": f"{y.text_ja}：{y.points}点",
                    "en": f"{y.text_en}: {y.points} points",
                },
                source=y.source,
                reason={"ja": y.reason_ja, "en": y.reason_en},
            )
            for y in YAKU.values()
        ]
        rows += [
            DesignedValue(
                name={"ja": f"加点カード：{b.name_ja}", "en": f"Bonus card: {b.name_en}"},
                value={"ja": b.text_ja, "en": b.text_en},
                source="designed",
                reason={"ja": b.reason_ja, "en": b.reason_en},
            )
            for b in BONUS_CARDS.values()
        ]
        return rows

    # --- the session ---------------------------------------------------------------------------

    def new_state(
        self, options: Mapping[str, Any], seats: int = 4, seed: int = 0
    ) -> MichikakeState:
        if type(seats) is not int or seats not in (3, 4):
            raise InvalidOptions(f"michikake is played by 3 or 4 seats, not {seats!r}")
        if type(seed) is not int:
            raise InvalidOptions(f"seed must be an int, got {seed!r}")
        resolved = self.resolve_options(options)
        empty: tuple[tuple[Any, ...], ...] = ((),) * seats
        blank = MichikakeState(
            players=seats,
            options=tuple(sorted(resolved.items())),
            seed=seed,
            points=(START_POINTS,) * seats,
            deal=0,
            passes=0,
            dealer=FIRST_DEALER,
            crests=(),
            bonus=(),
            pile=(),
            aside=(),
            hands=empty,
            shown=empty,
            discards=empty,
            barred=(frozenset(),) * seats,
            steals=(0,) * seats,
            turn=FIRST_DEALER,
            phase=DISCARD,
            drawn=None,
            window=None,
            now=0.0,
            ply=0,
            last=(),
            results=(),
        )
        return _start_deal(blank, [])

    def to_move(self, state: MichikakeState) -> frozenset[int]:
        if state.phase == DISCARD:
            return frozenset((state.turn,))
        if state.phase == CLAIM:
            assert state.window is not None
            answered = {seat for seat, _ in state.window.answers}
            return frozenset(
                seat
                for seat in range(state.players)
                if seat != state.window.discarder and seat not in answered
            )
        return frozenset()

    def legal_actions(self, state: MichikakeState, seat: int) -> list[dict[str, Any]]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        if state.phase == DISCARD:
            hand = state.hands[seat]
            actions: list[dict[str, Any]] = [{"discard": card} for card in sort_cards(set(hand))]
            if state.drawn is not None and is_two_sets(hand):
                actions.append({"win": True})
            return actions
        assert state.window is not None
        card = state.window.card
        actions = [{"pass": True}]
        if can_win_on(state, seat, card):
            actions.append({"win": True})
        if can_steal(state, seat, card):
            actions.append({"steal": True})
        return actions

    def apply(
        self, state: MichikakeState, seat: int, action: Any, at: float | None = None
    ) -> MichikakeState:
        now = _time(state, at)
        if state.phase == OVER:
            raise IllegalAction("the session is over")
        if type(seat) is not int or not 0 <= seat < state.players:
            raise IllegalAction(f"seat must be an int 0..{state.players - 1}, got {seat!r}")
        key = _action_key(action)
        if state.phase == DISCARD:
            if seat != state.turn:
                raise IllegalAction(f"seat {seat} may not act now; seat {state.turn} is to move")
            if key == "discard":
                return _discard(state, seat, action["discard"], now)
            if key == "win":
                if state.drawn is None:
                    raise IllegalAction("a stealer must discard; only a drawn card wins here")
                if not is_two_sets(state.hands[seat]):
                    raise IllegalAction(f"{list(state.hands[seat])} are not two sets")
                hand = state.hands[seat]
                return _settle_win(_tick(state, now), seat, hand, None, [])
            raise IllegalAction(f'seat {seat} must discard a card ({{"discard": "W7"}}) or win')
        window = state.window
        assert window is not None
        if now >= window.closes_at:
            raise IllegalAction(f"the claim window closed at {window.closes_at:g}")
        if seat == window.discarder:
            raise IllegalAction(f"seat {seat} discarded {window.card} and may not claim it")
        if any(s == seat for s, _ in window.answers):
            raise IllegalAction(f"seat {seat} has already answered this discard")
        if key not in ANSWERS:
            raise IllegalAction(f'a claim window takes {{"pass"|"win"|"steal": true}}, not {key!r}')
        if key == "win" and not can_win_on(state, seat, window.card):
            raise IllegalAction(f"seat {seat} cannot win on {window.card}: {_why_not(state, seat)}")
        if key == "steal" and not can_steal(state, seat, window.card):
            raise IllegalAction(f"seat {seat} cannot steal {window.card}: {_why_not(state, seat)}")
        answers = tuple(sorted((*window.answers, (seat, key))))
        if len(answers) == state.players - 1:
            return _close_window(_tick(_with(state, window=replace(window, answers=answers)), now))
        # An answer is secret: nothing another seat observes changes (not even ``ply``).
        return _with(state, now=now, window=replace(window, answers=answers))

    def deadline(self, state: MichikakeState) -> float | None:
        return state.window.closes_at if state.window is not None else None

    def advance(self, state: MichikakeState, at: float) -> MichikakeState:
        now = _time(state, at)
        if state.window is None or now < state.window.closes_at:
            return state
        return _close_window(_tick(state, now))

    def outcome(self, state: MichikakeState) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        scores = list(state.points)
        ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        return {
            "scores": scores,
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
            "ranks": ranks,
            "end": state.end,
            "deals": len(state.results),
        }

    # --- what a seat may know ------------------------------------------------------------------

    def observe(self, state: MichikakeState, seat: int | None = None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
            raise IllegalAction(
                f"seat must be 0..{state.players - 1} or None (a spectator), got {seat!r}"
            )
        window = state.window
        own = seat is not None and state.phase != OVER
        mine = None
        if window is not None and seat is not None:
            mine = next((answer for s, answer in window.answers if s == seat), None)
        return {
            "game": self.name,
            "options": dict(state.options),
            "players": state.players,
            "seat": seat,
            "points": list(state.points),
            "deal": state.deal,
            "passes": state.passes,
            "dealer": state.dealer,
            "crests": list(state.crests),
            "pile": len(state.pile),
            "hand": list(state.hands[seat]) if own and seat is not None else None,
            "drawn": state.drawn if own and seat == state.turn else None,
            "bonus": state.bonus[seat] if own and seat is not None else None,
            "hand_sizes": [len(hand) for hand in state.hands],
            "shown": [list(cards) for cards in state.shown],
            "discards": [
                [{"card": card, "taken_by": taker} for card, taker in row] for row in state.discards
            ],
            "steals": list(state.steals),
            "phase": state.phase,
            "turn": state.turn if state.phase != OVER else None,
            "window": None
            if window is None
            else {
                "discarder": window.discarder,
                "card": window.card,
                "closes_at": window.closes_at,
                "answer": mine,
            },
            "last": [_event_view(event, seat) for event in state.last],
            "results": [json.loads(result) for result in state.results],
            "ply": state.ply,
            "outcome": self.outcome(state),
        }


# --- transitions (each returns a new state; none mutates) ------------------------------------


def _time(state: MichikakeState, at: float | None) -> float:
    if at is None:
        return state.now
    if type(at) not in (int, float) or not math.isfinite(at):
        raise IllegalAction(f"at must be a finite number of seconds, got {at!r}")
    return max(state.now, float(at))


def _tick(state: MichikakeState, now: float) -> MichikakeState:
    return _with(state, now=now, ply=state.ply + 1)


def _action_key(action: Any) -> str:
    if not isinstance(action, dict) or len(action) != 1:
        raise IllegalAction(
            'an action is one of {"discard": card}, {"win": true}, {"steal": true}, '
            f'{{"pass": true}}; got {action!r}'
        )
    ((key, value),) = action.items()
    if key == "discard":
        if not is_card(value):
            raise IllegalAction(f"discard takes a card like 'W7', 'star' or 'ring', not {value!r}")
        return key
    if key in ANSWERS:
        if value is not True:
            raise IllegalAction(f"{key!r} takes the value true, not {value!r}")
        return key
    raise IllegalAction(f"unknown action {key!r}; known: discard, win, steal, pass")


def _why_not(state: MichikakeState, seat: int) -> str:
    assert state.window is not None
    card = state.window.card
    if card in barred_cards(state, seat):
        return f"it has discarded {card} this game"
    cost = steal_cost(state.steals[seat])
    if state.hands[seat].count(card) >= 2:
        if cost is None:
            return f"it has already stolen {MAX_STEALS} times this game"
        return f"a steal costs {cost} and it has {state.points[seat]} points"
    return "its hand does not allow it"


def _start_deal(state: MichikakeState, events: list[Event]) -> MichikakeState:
    n = state.players
    rng = random.Random(f"michikake/{state.seed}/{state.deal}")
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
    dealt = _with(
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
        Event("deal", _json({"deal": state.deal, "dealer": state.dealer, "crests": list(crests)}))
    )
    return _draw(dealt, state.dealer, events)


def _draw(state: MichikakeState, seat: int, events: list[Event]) -> MichikakeState:
    """``seat`` draws the next card, or the deal ends if the pile is empty."""
    if not state.pile:
        events.append(Event("exhausted", _json({"deal": state.deal})))
        result = {"deal": state.deal, "dealer": state.dealer, "end": "exhausted"}
        return _next_deal(state, (state.dealer + 1) % state.players, result, events)
    card, pile = state.pile[0], state.pile[1:]
    events.append(Event("draw", _json({"seat": seat, "pile": len(pile)}), seat, card))
    return _with(
        state,
        pile=pile,
        hands=_set_at(state.hands, seat, sort_cards((*state.hands[seat], card))),
        turn=seat,
        phase=DISCARD,
        drawn=card,
        window=None,
        last=tuple(events),
    )


def _discard(state: MichikakeState, seat: int, card: Card, now: float) -> MichikakeState:
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(f"seat {seat} holds no {card}")
    left = _remove(hand, card)
    shown = state.shown[seat]
    if left.count(card) < shown.count(card):
        shown = _remove(shown, card)
    row = (*state.discards[seat], (card, None))
    return _with(
        _tick(state, now),
        hands=_set_at(state.hands, seat, left),
        shown=_set_at(state.shown, seat, shown),
        discards=_set_at(state.discards, seat, row),
        barred=_set_at(state.barred, seat, state.barred[seat] | {card}),
        phase=CLAIM,
        drawn=None,
        window=Window(seat, card, now + CLAIM_SECONDS),
        last=(Event("discard", _json({"seat": seat, "card": card}), seat),),
    )


def _nearest(claimants: list[int], discarder: int, players: int) -> int:
    return min(claimants, key=lambda seat: (seat - discarder) % players)


def _close_window(state: MichikakeState) -> MichikakeState:
    """Settle the claims on the open window (the state's time and ply already moved on)."""
    window = state.window
    assert window is not None
    n, d, card = state.players, window.discarder, window.card
    wins = [seat for seat, answer in window.answers if answer == "win"]
    steals = [seat for seat, answer in window.answers if answer == "steal"]
    row = state.discards[d]
    events: list[Event] = []
    if wins:
        winner = _nearest(wins, d, n)
        six = sort_cards((*state.hands[winner], card))
        state = _with(
            state,
            discards=_set_at(state.discards, d, (*row[:-1], (card, winner))),
            hands=_set_at(state.hands, winner, six),
            window=None,
        )
        return _settle_win(state, winner, six, d, events)
    if steals:
        seat = _nearest(steals, d, n)
        cost = steal_cost(state.steals[seat])
        assert cost is not None
        events.append(
            Event("steal", _json({"seat": seat, "card": card, "from": d, "cost": cost}), seat)
        )
        return _with(
            state,
            points=_set_at(state.points, seat, state.points[seat] - cost),
            steals=_set_at(state.steals, seat, state.steals[seat] + 1),
            hands=_set_at(state.hands, seat, sort_cards((*state.hands[seat], card))),
            shown=_set_at(state.shown, seat, sort_cards((*state.shown[seat], card, card, card))),
            discards=_set_at(state.discards, d, (*row[:-1], (card, seat))),
            turn=seat,
            phase=DISCARD,
            drawn=None,
            window=None,
            last=tuple(events),
        )
    return _draw(_with(state, window=None), (d + 1) % n, events)


def _settle_win(
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
    events.append(Event("win", _json(win), winner))
    result = {"deal": state.deal, "dealer": state.dealer, "end": "win", "win": win}
    state = _with(state, points=tuple(points), window=None)
    next_dealer = state.dealer if winner == state.dealer else (state.dealer + 1) % n
    return _next_deal(state, next_dealer, result, events)


def _next_deal(
    state: MichikakeState, dealer: int, result: dict[str, Any], events: list[Event]
) -> MichikakeState:
    """Record the finished deal; end the session or deal the next one."""
    passes = state.passes + (dealer != state.dealer)
    state = _with(
        state,
        passes=passes,
        dealer=dealer,
        results=(*state.results, _json(result)),
        window=None,
        drawn=None,
    )
    end = "bust" if min(state.points) <= 0 else "round" if passes >= state.players else None
    if end is not None:
        events.append(Event("end", _json({"end": end, "points": list(state.points)})))
        return _with(state, phase=OVER, end=end, last=tuple(events))
    return _start_deal(_with(state, deal=state.deal + 1), events)


def _event_view(event: Event, seat: int | None) -> dict[str, Any]:
    view: dict[str, Any] = {"type": event.kind, **json.loads(event.data)}
    if event.secret is not None and seat is not None and seat == event.seat:
        view["card"] = event.secret
    return view
