"""Invariants of the MOMOJAN engine over random legal games (hypothesis and a bigger loop).

A game is ``(options, seed)``: ``seed`` seeds both the deal and the random player, so
``(options, seed, [(seat, action, at), ...])`` is the whole history. Games here use the
engine-only option ``dealerships: 1`` (each player deals once) to stay quick; the full match is
in the golden files.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asobiba.core.errors import IllegalAction
from asobiba.games.momojan import DECK, MomojanState
from asobiba.games.momojan.cards import is_fruit, sort_cards
from tests.games.momojan.momojan_positions import GAME

SHORT = {"dealerships": 1}
MAX_STEPS = 20_000
"""Far above any real game; a random game still running here means the engine loops."""
LEAK_GAMES = int(os.environ.get("MOMOJAN_LEAK_GAMES", "150"))
"""Random games of the hidden-information loop; MOMOJAN_LEAK_GAMES=2000 for the long run."""

seed_st = st.integers(min_value=0, max_value=2**32 - 1)
quick = settings(max_examples=15, deadline=None)

History = list[tuple[int, dict[str, Any], float]]


def playout(seed: int, options: dict[str, Any] = SHORT) -> tuple[list[MomojanState], History]:
    """A random legal game: every state it passed through, and its history with times."""
    rng = random.Random(seed)
    states = [GAME.new_state(options, 2, seed)]
    history: History = []
    for step in range(MAX_STEPS):
        state = states[-1]
        if GAME.outcome(state) is not None:
            return states, history
        (seat,) = GAME.to_move(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        at = step * 0.5
        history.append((seat, action, at))
        states.append(GAME.apply(state, seat, action, at))
    raise AssertionError(f"no end after {MAX_STEPS} steps: seed {seed}")


def all_cards(state: MomojanState) -> Counter[str]:
    cards: Counter[str] = Counter()
    for seat in (0, 1):
        cards.update(state.hands[seat])
        cards.update(c for meld in state.melds[seat] for c in meld.cards)
        cards.update(d.card for d in state.rivers[seat] if not d.called)
    cards.update(c for pile in state.piles for c in pile)
    cards.update(state.dead)
    return cards


@quick
@given(seed_st)
def test_cards_are_conserved_in_every_state(seed: int) -> None:
    states, _ = playout(seed)
    deck = Counter(DECK)
    for state in states:
        assert all_cards(state) == deck


@quick
@given(seed_st)
def test_hands_hold_7_4_or_1_cards_between_turns(seed: int) -> None:
    states, _ = playout(seed)
    for state in states:
        if state.phase == "start":
            assert {len(state.hands[0]), len(state.hands[1])} <= {7, 4, 1}, state.hands


@quick
@given(seed_st)
def test_random_legal_play_always_ends_with_a_full_outcome(seed: int) -> None:
    states, _ = playout(seed)
    outcome = GAME.outcome(states[-1])
    assert outcome is not None and json.loads(json.dumps(outcome)) == outcome
    assert len(outcome["scores"]) == 2 and outcome["winners"] in ([0], [1])
    assert sum(outcome["scores"]) == 80  # points only change hands
    assert GAME.to_move(states[-1]) == frozenset()
    assert GAME.legal_actions(states[-1], 0) == GAME.legal_actions(states[-1], 1) == []


@quick
@given(seed_st)
def test_replaying_the_history_reproduces_the_game_exactly(seed: int) -> None:
    states, history = playout(seed)
    state = GAME.new_state(SHORT, 2, seed)
    assert state == states[0]
    for index, (seat, action, at) in enumerate(history, start=1):
        state = GAME.apply(state, seat, json.loads(json.dumps(action)), at)
        assert state == states[index]
    assert GAME.deadline(state) is None and GAME.advance(state, 1e9) == state


@quick
@given(seed_st)
def test_apply_accepts_every_listed_action_and_refuses_others_leaving_the_state(seed: int) -> None:
    states, _ = playout(seed)
    rng = random.Random(seed)
    for state in rng.sample(states[:-1], min(12, len(states) - 1)):
        (seat,) = GAME.to_move(state)
        legal = GAME.legal_actions(state, seat)
        for action in legal:
            GAME.apply(state, seat, action)
        candidates = [
            {"type": "draw", "pile": p} for p in range(3)
        ] + [{"type": t} for t in ("ron", "tsumo", "draw3", "pass")] + [
            {"type": "discard", "card": c, "riichi": r} for c in sorted(set(DECK)) for r in (0, 1)
        ]  # fmt: skip
        for action in candidates:
            action = {k: (bool(v) if k == "riichi" else v) for k, v in action.items()}
            if action in legal:
                continue
            before = replace(state)
            with pytest.raises(IllegalAction):
                GAME.apply(state, seat, action)
            assert state == before
        assert GAME.legal_actions(state, 1 - seat) == []


# --- hidden information --------------------------------------------------------------------


def reshuffled(state: MomojanState, viewer: int | None, rng: random.Random) -> MomojanState:
    """The same state with every card ``viewer`` may not see dealt again at random, and another
    seed: the opponent's hand (both hands for a spectator), the piles, the dead wall's 3."""
    hidden_seats = [s for s in (0, 1) if s != viewer]
    pool = [c for s in hidden_seats for c in state.hands[s]]
    pool += [c for pile in state.piles for c in pile] + list(state.dead[1:])
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in hidden_seats:
        size = len(hands[s])
        hands[s], pool = tuple(sort_cards(pool[:size])), pool[size:]
    piles = []
    for pile in state.piles:
        piles.append(tuple(pool[: len(pile)]))
        pool = pool[len(pile) :]
    return replace(
        state,
        hands=(hands[0], hands[1]),
        piles=tuple(piles),
        dead=(state.dead[0], *pool),
        seed=state.seed + 1,
    )


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) | set(value)
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value))
    return set()


def check_no_leak(state: MomojanState, viewer: int | None, rng: random.Random) -> None:
    obs = GAME.observe(state, viewer)
    assert json.loads(json.dumps(obs)) == obs
    assert "seed" not in strings(obs)
    assert all(type(n) is int for n in obs["piles"]) and type(obs["dead_wall"]) is int
    # Unique fruit cards the viewer may not know never appear (earlier rounds' reveals aside).
    current = {k: v for k, v in obs.items() if k not in ("results", "last")}
    if obs["last"] is not None and obs["last"]["round"] == obs["round"]:
        current["last"] = obs["last"]
    hidden = [c for s in (0, 1) if s != viewer for c in state.hands[s]]
    hidden += [c for pile in state.piles for c in pile] + list(state.dead[1:])
    leaked = {c for c in hidden if is_fruit(c)} & strings(current)
    assert not leaked, f"seat {viewer} sees {leaked}"
    if viewer is None:
        assert obs["hand"] is None
    # Two states that differ only in what the viewer may not know look the same to it.
    assert GAME.observe(reshuffled(state, viewer, rng), viewer) == obs


def test_no_observation_holds_a_card_its_viewer_may_not_know_over_many_random_games() -> None:
    """Every viewer at every step of a few games, then a sample of the steps of many more."""
    rng = random.Random(9)
    for seed in range(LEAK_GAMES):
        states, _ = playout(10_000 + seed)
        every = seed < 5
        for index, state in enumerate(states):
            if every or index % 9 == seed % 9 or index == len(states) - 1:
                for viewer in (0, 1, None):
                    check_no_leak(state, viewer, rng)
