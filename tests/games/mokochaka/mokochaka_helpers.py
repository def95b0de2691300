"""Shared helpers for the Mokochaka tests: hand-built tables in card notation, and playouts."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from asobiba.games import get_game
from asobiba.games.mokochaka import Card, MokochakaState, parse_card
from asobiba.games.mokochaka.rules import Mokochaka

GAME = get_game("mokochaka")
assert isinstance(GAME, Mokochaka)


def cards(text: str) -> tuple[Card, ...]:
    """``"moko3 paka1"`` as cards, in the order written."""
    return tuple(parse_card(word) for word in text.split())


def table(
    hands: list[str], piles: list[str], turn: int = 0, at: float | None = None
) -> MokochakaState:
    """A game at the start of ``turn``'s flip: ``hands`` top card first, ``piles`` bottom card
    first (the last one shows; "" is an empty slot). ``at``: when that flip phase began."""
    start = GAME.new_state({}, len(hands), 0)
    assert len(piles) == 3
    return replace(
        start,
        hands=tuple(cards(hand) for hand in hands),
        piles=tuple(cards(pile) for pile in piles),
        turn=turn,
        resume=turn,
        since=at,
        now=at,
    )


def hand(state: MokochakaState, seat: int) -> str:
    return " ".join(str(card) for card in state.hands[seat])


def pile(state: MokochakaState, index: int) -> str:
    return " ".join(str(card) for card in state.piles[index])


def events(state: MokochakaState, kind: str) -> list[dict[str, Any]]:
    """The retained public events of one type, as the observation shows them."""
    return [e for e in GAME.observe(state, None)["events"] if e["type"] == kind]


def penalties(state: MokochakaState) -> list[tuple[int, str]]:
    return [(e["seat"], e["reason"]) for e in events(state, "penalty")]


def flip(state: MokochakaState, pile_index: int, at: float = 0.0) -> MokochakaState:
    return GAME.apply(state, state.turn, {"flip": pile_index}, at)


def call(state: MokochakaState, word: str, at: float) -> MokochakaState:
    return GAME.apply(state, state.turn, {"call": word}, at)


def grab(state: MokochakaState, seat: int, word: str, at: float) -> MokochakaState:
    return GAME.apply(state, seat, {"grab": word}, at)


def total_cards(state: MokochakaState) -> int:
    return sum(map(len, state.hands)) + sum(map(len, state.piles))


History = list[tuple[int | None, dict[str, Any] | None, float]]
"""``(seat, action, at)`` for an action; ``(None, None, at)`` for ``advance(at)``."""


@dataclass
class Playout:
    seats: int
    seed: int
    states: list[MokochakaState]
    history: History


def playout(seats: int, seed: int, wait: float = 0.2, max_steps: int = 20_000) -> Playout:
    """A random legal game with time: actions 0.5 s apart, timers sometimes left to fall due."""
    rng = random.Random(seed)
    state = GAME.new_state({}, seats, seed)
    states = [state]
    history: History = []
    at = 0.0
    for _ in range(max_steps):
        if GAME.outcome(state) is not None:
            return Playout(seats, seed, states, history)
        movers = sorted(GAME.to_move(state))
        due = GAME.deadline(state)
        if due is not None and (not movers or rng.random() < wait):
            at = max(at, due + rng.choice((0.0, 0.1, 4.0)))
            state = GAME.advance(state, at)
            history.append((None, None, at))
        else:
            seat = rng.choice(movers)
            action = rng.choice(GAME.legal_actions(state, seat))
            # Calls and grabs sometimes arrive latency-compensated: earlier than the latest time.
            if "grab" in action and state.since is not None and rng.random() < 0.3:
                when = max(state.since, at - rng.random() * 0.3)
            else:
                when = at
            state = GAME.apply(state, seat, action, when)
            history.append((seat, action, when))
            at += rng.choice((0.05, 0.5, 1.5))
        states.append(state)
    raise AssertionError(f"no end after {max_steps} steps: {seats} seats, seed {seed}")


def replay(seats: int, seed: int, history: History) -> list[MokochakaState]:
    state = GAME.new_state({}, seats, seed)
    states = [state]
    for seat, action, at in history:
        if seat is None or action is None:
            state = GAME.advance(state, at)
        else:
            state = GAME.apply(state, seat, action, at)
        states.append(state)
    return states
