"""Invariants of the MICHIKAKE engine over random sessions: cards are conserved, random legal
play ends, replaying the history (actions and timed events) reproduces the game, apply never
mutates, and no observation holds a card its viewer may not know.

A session is drawn as ``(seats, short_pile, seed)``; ``seed`` seeds both the game and the
player. The player is "keen": it takes most wins and many steals it is offered and discards
cards without partners first, so wins, steals and shown cards are common (uniformly random
play almost never wins). Time moves 0.5 s per action, and while a claim window is open the
player sometimes lets it run out instead (``advance``).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from asobiba.games import get_game
from asobiba.games.michikake import MichikakeState, deck, hand_points, payments, winning_cards
from asobiba.games.michikake.cards import sort_cards, stage_of, suit_of
from asobiba.games.michikake.data import BONUS_CARDS
from asobiba.games.michikake.rules import DISCARD

GAME = get_game("michikake")
MAX_STEPS = 20_000
"""Far above any real session; a random session still running here means the engine loops."""
STEP = 0.5
WAIT = 0.2

Event = tuple[int | None, dict[str, Any] | None, float]
"""``(seat, action, at)``; a timed event has seat and action None."""

sessions = st.tuples(
    st.sampled_from([3, 4]), st.sampled_from([0, 8, 16]), st.integers(0, 2**32 - 1)
)
fast = settings(max_examples=15, deadline=None)


def _lonely(card: str, hand: tuple[str, ...]) -> bool:
    """No partner in ``hand``: no other copy and no card of its suit within two stages."""
    if hand.count(card) > 1:
        return False
    suit, stage = suit_of(card), stage_of(card)
    if suit is None or stage is None:
        return True
    return not any(
        suit_of(other) == suit and 0 < abs((stage_of(other) or 0) - stage) <= 2 for other in hand
    )


def keen_choice(state: MichikakeState, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = GAME.legal_actions(state, seat)
    if {"win": True} in legal and (state.phase == DISCARD or rng.random() < 0.9):
        return {"win": True}
    if {"steal": True} in legal and rng.random() < 0.6:
        return {"steal": True}
    if state.phase == DISCARD:
        hand = state.hands[seat]
        lonely = [a for a in legal if "discard" in a and _lonely(a["discard"], hand)]
        if lonely and rng.random() < 0.8:
            return rng.choice(lonely)
        return rng.choice([a for a in legal if "discard" in a])
    return rng.choice(legal)


def playout(seats: int, short: int, seed: int) -> tuple[list[MichikakeState], list[Event]]:
    """A random legal session: every state it passed through and its history."""
    rng = random.Random(seed)
    states = [GAME.new_state({"short_pile": short}, seats, seed)]
    history: list[Event] = []
    at = 0.0
    for _ in range(MAX_STEPS):
        state = states[-1]
        if GAME.outcome(state) is not None:
            return states, history
        movers = sorted(GAME.to_move(state))
        due = GAME.deadline(state)
        if due is not None and (not movers or rng.random() < WAIT):
            at = max(at, due)
            history.append((None, None, at))
            states.append(GAME.advance(state, at))
            continue
        seat = rng.choice(movers)
        action = keen_choice(state, seat, rng)
        history.append((seat, action, at))
        states.append(GAME.apply(state, seat, action, at))
        at += STEP
    raise AssertionError(f"no end after {MAX_STEPS} steps: {seats} seats, seed {seed}")


def replay(seats: int, short: int, seed: int, history: list[Event]) -> list[MichikakeState]:
    states = [GAME.new_state({"short_pile": short}, seats, seed)]
    for seat, action, at in history:
        if seat is None or action is None:
            states.append(GAME.advance(states[-1], at))
        else:
            states.append(GAME.apply(states[-1], seat, action, at))
    return states


def cards_in_play(state: MichikakeState) -> Counter[str]:
    held = [card for hand in state.hands for card in hand]
    lying = [card for row in state.discards for card, taker in row if taker is None]
    return Counter([*state.pile, *state.aside, *held, *lying])


# --- conservation, termination, replay -----------------------------------------------------------


@fast
@given(sessions)
def test_cards_are_conserved_in_every_state(session: tuple[int, int, int]) -> None:
    states, _ = playout(*session)
    whole = Counter(deck(session[0]))
    for state in states[::3] + states[-1:]:
        assert cards_in_play(state) == whole
        for hand, shown in zip(state.hands, state.shown, strict=True):
            assert not Counter(shown) - Counter(hand), "shown cards are held"
        assert len(set(state.bonus)) == session[0], "one distinct bonus card per seat"


@fast
@given(sessions)
def test_random_legal_play_always_ends_with_a_ranking(session: tuple[int, int, int]) -> None:
    states, _ = playout(*session)
    outcome = GAME.outcome(states[-1])
    assert outcome is not None and outcome["end"] in ("round", "bust")
    assert len(outcome["scores"]) == session[0]
    top = max(outcome["scores"])
    assert outcome["winners"] == [s for s, p in enumerate(outcome["scores"]) if p == top]
    assert GAME.to_move(states[-1]) == frozenset() and GAME.deadline(states[-1]) is None
    if outcome["end"] == "round":
        assert min(outcome["scores"]) > 0


@fast
@given(sessions)
def test_replaying_the_history_reproduces_every_state_and_observation(
    session: tuple[int, int, int],
) -> None:
    states, history = playout(*session)
    again = replay(*session, history)
    assert again == states
    for state in states[:: max(1, len(states) // 20)]:
        for viewer in [*range(session[0]), None]:
            assert GAME.observe(state, viewer) == GAME.observe(state, viewer)


@fast
@given(sessions)
def test_apply_and_advance_never_mutate_their_input(session: tuple[int, int, int]) -> None:
    states, history = playout(*session)
    for state, (seat, action, at) in list(zip(states, history, strict=False))[::7]:
        before = copy.deepcopy(state)
        seen = GAME.observe(state, None)
        if seat is None or action is None:
            GAME.advance(state, at)
        else:
            kept = copy.deepcopy(action)
            GAME.apply(state, seat, action, at)
            assert action == kept
        assert state == before and GAME.observe(state, None) == seen


@fast
@given(sessions)
def test_legal_actions_are_nonempty_exactly_for_the_seats_to_move(
    session: tuple[int, int, int],
) -> None:
    states, _ = playout(*session)
    for state in states:
        movers = GAME.to_move(state)
        for seat in range(session[0]):
            legal = GAME.legal_actions(state, seat)
            assert bool(legal) == (seat in movers)
            assert json.loads(json.dumps(legal)) == legal
        if state.window is not None:
            assert all({"pass": True} in GAME.legal_actions(state, s) for s in movers)


# --- hidden information --------------------------------------------------------------------------


def reshuffle_hidden(
    state: MichikakeState, viewer: int | None, rng: random.Random
) -> MichikakeState:
    """The same state but for what ``viewer`` may not know: the pile order, the cards set
    aside, every other seat's concealed cards (its unshown cards) and other bonus cards."""
    others = [s for s in range(state.players) if s != viewer]
    concealed = {
        s: list((Counter(state.hands[s]) - Counter(state.shown[s])).elements()) for s in others
    }
    pool = [*state.pile, *state.aside, *(c for s in others for c in concealed[s])]
    rng.shuffle(pool)
    hands = list(state.hands)
    drawn = state.drawn
    cursor = 0
    for s in others:
        count = len(concealed[s])
        mine = pool[cursor : cursor + count]
        cursor += count
        hands[s] = tuple(sorted([*state.shown[s], *mine]))
        if s == state.turn and state.drawn is not None and mine:
            drawn = mine[0]
    pile = tuple(pool[cursor : cursor + len(state.pile)])
    aside = tuple(pool[cursor + len(state.pile) :])
    mine_bonus = state.bonus[viewer] if viewer is not None else None
    spare = [b for b in BONUS_CARDS if b != mine_bonus]
    bonus = tuple(
        state.bonus[s] if s == viewer else rng.choice(spare) for s in range(state.players)
    )
    return replace(
        state,
        hands=tuple(sort_cards(h) for h in hands),
        pile=pile,
        aside=aside,
        drawn=drawn,
        bonus=bonus,
        seed=rng.randrange(2**32),
    )


def assert_structurally_private(
    obs: dict[str, Any], state: MichikakeState, viewer: int | None
) -> None:
    if viewer is None or state.phase == "over":
        assert obs["hand"] is None and obs["drawn"] is None and obs["bonus"] is None
    else:
        assert obs["hand"] == list(state.hands[viewer])
        assert obs["bonus"] == state.bonus[viewer]
    assert isinstance(obs["pile"], int), "only the pile's size, never its cards"
    for event in obs["last"]:
        if "card" in event and event["type"] == "draw":
            assert event["seat"] == viewer, "a drawn card is shown to its drawer only"
    text = json.dumps(obs, allow_nan=False)
    assert json.loads(text) == obs, "observations are JSON-safe"
    assert "aside" not in text and "seed" not in text


def check_hidden(states: list[MichikakeState], rng: random.Random) -> None:
    for state in states:
        for viewer in [*range(state.players), None]:
            obs = GAME.observe(state, viewer)
            assert_structurally_private(obs, state, viewer)
            twin = reshuffle_hidden(state, viewer, rng)
            assert GAME.observe(twin, viewer) == obs, f"seat {viewer} sees a hidden card"


@fast
@given(sessions)
def test_no_observation_depends_on_a_card_its_viewer_may_not_know(
    session: tuple[int, int, int],
) -> None:
    states, _ = playout(*session)
    check_hidden(states[:: max(1, len(states) // 60)], random.Random(session[2]))


def test_hidden_information_holds_over_thousands_of_random_games() -> None:
    """1,000 random sessions with short piles, 3 and 4 seats: over 3,000 deals, which the
    rulebook calls games. In each session four states drawn at random are checked from every
    seat and the spectator; the sample must hold wins, steals and exhausted piles."""
    rng = random.Random(2026)
    seen: Counter[str] = Counter()
    for game in range(1_000):
        seats, short = (3, 4)[game % 2], (4, 8)[game // 2 % 2]
        states, _ = playout(seats, short, game)
        check_hidden(rng.sample(states, min(4, len(states))), rng)
        for result in GAME.observe(states[-1], None)["results"]:
            seen[result["end"]] += 1
        seen["steal"] += sum(1 for state in states if state.last and state.last[0].kind == "steal")
    assert seen["win"] + seen["exhausted"] > 3_000, seen
    assert seen["win"] >= 20 and seen["steal"] >= 10, seen


@fast
@given(sessions)
def test_the_engine_agrees_with_the_pure_helpers(session: tuple[int, int, int]) -> None:
    """Claims offered = ``winning_cards`` of the five less the barred cards; every win's score is
    ``hand_points`` and ``payments`` of the same cards."""
    states, _ = playout(*session)
    for state in states:
        if state.window is None:
            continue
        for seat in GAME.to_move(state):
            offered = {"win": True} in GAME.legal_actions(state, seat)
            waits = winning_cards(state.hands[seat], session[0], state.barred[seat])
            assert offered == (state.window.card in waits)
    for result in GAME.observe(states[-1], None)["results"]:
        if result["end"] != "win":
            continue
        win = result["win"]
        assert win["hand_points"] == hand_points(win["hand"], win["crest"])
        bonus = win["bonus"]["points"]
        pay = payments(win["hand_points"] + bonus, win["dealer"], win["self_draw"], session[0])
        assert {k: win[k] for k in pay} == pay


@fast
@given(sessions)
def test_a_sampled_state_gives_back_the_observation_it_was_sampled_from(
    session: tuple[int, int, int],
) -> None:
    """``sample_state`` (for searching bots) fills in the hidden cards consistently: the sample
    conserves the cards and looks exactly the same from the seat that observed it."""
    states, _ = playout(*session)
    rng = random.Random(session[2])
    whole = Counter(deck(session[0]))
    for state in states[:: max(1, len(states) // 40)]:
        if GAME.outcome(state) is not None:
            continue
        for seat in range(session[0]):
            obs = GAME.observe(state, seat)
            sampled = GAME.sample_state(obs, rng)  # type: ignore[attr-defined]
            assert GAME.observe(sampled, seat) == obs
            assert cards_in_play(sampled) == whole
            assert GAME.legal_actions(sampled, seat) == GAME.legal_actions(state, seat)
