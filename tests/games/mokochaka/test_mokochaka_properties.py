"""Invariants of the Mokochaka engine over random games with time (hypothesis and a big loop).

A random game acts 0.05-1.5 s apart, sometimes lets pending timers fall due (``advance``), and
sends some grabs latency-compensated (earlier than the latest time seen). Its whole history is
``(seats, seed, [(seat, action, at) or (None, None, at) for advance])``.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from asobiba.games.mokochaka import MokochakaState
from asobiba.games.mokochaka.rules import PENALTY_REASONS, PHASES, new_deck
from tests.games.mokochaka.mokochaka_helpers import GAME, playout, replay, total_cards

seats_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
property_settings = settings(max_examples=150, deadline=None)

CARD = re.compile(r"(moko|paka|pome|gabu)[1-4]")


@property_settings
@given(seats_st, seed_st)
def test_cards_are_conserved_through_every_state_and_every_phase_and_reason_is_known(
    seats: int, seed: int
) -> None:
    game = playout(seats, seed)
    deck = sorted(new_deck())
    for state in game.states:
        assert total_cards(state) == 32
        assert state.phase in PHASES
        assert all(step.reason in PENALTY_REASONS for step in state.steps if step.kind == "give")
        assert (
            sorted([*(c for h in state.hands for c in h), *(c for p in state.piles for c in p)])
            == deck
        )


@property_settings
@given(seats_st, seed_st)
def test_random_legal_play_with_time_advancing_always_ends(seats: int, seed: int) -> None:
    game = playout(seats, seed)
    final = game.states[-1]
    outcome = GAME.outcome(final)
    assert outcome is not None and GAME.to_move(final) == frozenset()
    assert len(outcome["scores"]) == seats and outcome["winners"]
    assert any(n == 0 for n in outcome["cards"])
    assert json.loads(json.dumps(outcome, allow_nan=False)) == outcome


@property_settings
@given(seats_st, seed_st)
def test_replaying_the_history_reproduces_every_state_and_timed_event(
    seats: int, seed: int
) -> None:
    game = playout(seats, seed)
    assert replay(seats, seed, game.history) == game.states


@property_settings
@given(seats_st, seed_st)
def test_apply_never_mutates_and_every_listed_action_is_accepted(seats: int, seed: int) -> None:
    rng = random.Random(seed)
    game = playout(seats, seed)
    for state in game.states[:-1]:
        frozen = replace(state)
        for seat in GAME.to_move(state):
            legal = GAME.legal_actions(state, seat)
            assert legal, "a seat to move always has an action"
            GAME.apply(state, seat, rng.choice(legal), state.now)
        assert state == frozen
        for seat in set(range(seats)) - GAME.to_move(state):
            assert GAME.legal_actions(state, seat) == []
        assert GAME.deadline(state) is not None or state.since is None


# --- hidden information ----------------------------------------------------------------------


def _without_public_cards(view: dict[str, Any]) -> dict[str, Any]:
    """The view minus the only places a card may appear: the showing cards, each flip's card
    and each judgement's showing cards."""
    return {
        **view,
        "piles": [pile["size"] for pile in view["piles"]],
        "events": [
            {k: v for k, v in e.items() if k not in ("card", "top")} for e in view["events"]
        ],
    }


def _twin(state: MokochakaState, rng: random.Random) -> MokochakaState:
    """The same public table with every hidden card moved: hands reshuffled among themselves
    (sizes kept) and each pile's buried cards reshuffled among the piles (showing cards kept)."""
    hidden = [card for hand in state.hands for card in hand]
    buried = [card for pile in state.piles for card in pile[:-1]]
    rng.shuffle(hidden)
    rng.shuffle(buried)
    hands = []
    for hand in state.hands:
        hands.append(tuple(hidden[: len(hand)]))
        del hidden[: len(hand)]
    piles = []
    for pile in state.piles:
        under = buried[: max(len(pile) - 1, 0)]
        del buried[: len(under)]
        piles.append((*under, pile[-1]) if pile else ())
    return replace(state, hands=tuple(hands), piles=tuple(piles))


def test_hidden_information_never_reaches_any_seat_over_thousands_of_random_games() -> None:
    """Nobody sees a hand (their own included) or a buried pile card, in 2,000 random games.

    Structurally, on random states of each game and its final state: card strings appear only
    as showing cards, flips and judgements; every seat sees exactly the spectator's view; and a
    twin state with every hidden card moved looks identical to every viewer, legal actions,
    timers and whose move it is included.
    """
    rng = random.Random(2026)
    checked = 0
    for game_number in range(2000):
        seats = 2 + game_number % 5
        game = playout(seats, game_number, wait=0.3)
        sample = rng.sample(game.states[:-1], min(5, len(game.states) - 1)) + game.states[-1:]
        for state in sample:
            view = GAME.observe(state, None)
            assert not CARD.search(json.dumps(_without_public_cards(view))), view
            assert [p["top"] for p in view["piles"]] == [
                str(pile[-1]) if pile else None for pile in state.piles
            ]
            seat = rng.randrange(seats)
            assert GAME.observe(state, seat) == {**view, "seat": seat}
            if GAME.outcome(state) is None:
                twin = _twin(state, rng)
                assert GAME.observe(twin, None) == view
                assert GAME.to_move(twin) == GAME.to_move(state)
                assert GAME.legal_actions(twin, seat) == GAME.legal_actions(state, seat)
                assert GAME.deadline(twin) == GAME.deadline(state)
                checked += 1
    assert checked >= 5 * 2000 - 100
