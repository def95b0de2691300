"""MICHIKAKE bots: legal, deterministic, built only from their seat's observation, and each
level doing what its description says.

The expert is tested with a few samples and no clock, so the tests are fast and do not depend on
the machine's speed (one position, whose fault showed only over the level's 40 samples, uses
them, still without the clock); the level's own budget and decision times are measured in
bench/michikake_speed.py (tests time nothing).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asobiba.core.errors import InvalidOptions
from asobiba.games import get_game
from asobiba.games.michikake import bonus_points, deck, hand_points, winning_cards
from asobiba.games.michikake.bots import (
    CARD,
    CODE,
    BeginnerBot,
    GreedyBot,
    ReaderBot,
    SearchBot,
    Sim,
    View,
    _better,
    expected_loss,
    make_bot,
    shape,
    waits,
)
from asobiba.games.michikake.data import LEVEL_BY_ID, LEVELS
from asobiba.games.michikake.rules import CLAIM, DISCARD, MichikakeState
from asobiba.games.michikake.sample import sample_state
from tests.games.michikake.test_michikake_rules import table

GAME = get_game("michikake")
LEVEL_IDS = [level.id for level in LEVELS]
FAST_SAMPLES = 2


def bot(level: str, seed: int) -> Any:
    """A level's bot; the expert on a few samples and no clock."""
    if LEVEL_BY_ID[level].kind == "search":
        return make_bot(level, seed, samples=FAST_SAMPLES, time=0.0)
    return make_bot(level, seed)


def positions(seats: int, short: int, seed: int, every: int = 3) -> list[MichikakeState]:
    """States along a session played by the casual level at every seat (its wins, steals and
    shown cards make varied positions), every ``every``-th state while someone may act."""
    rng = random.Random(seed)
    state = GAME.new_state({"short_pile": short}, seats, seed)
    players = [make_bot("casual", seed * 10 + s) for s in range(seats)]
    seen: list[MichikakeState] = []
    at = 0.0
    step = 0
    while GAME.outcome(state) is None:
        movers = sorted(GAME.to_move(state))
        if step % every == 0:
            seen.append(state)
        step += 1
        seat = rng.choice(movers)
        legal = GAME.legal_actions(state, seat)
        action = (
            rng.choice(legal)
            if rng.random() < 0.2
            else players[seat].choose(GAME.observe(state, seat), legal)
        )
        state = GAME.apply(state, seat, action, at)
        at += 0.5
    return seen


@pytest.mark.parametrize("level", LEVEL_IDS)
@pytest.mark.parametrize(("seats", "short"), [(3, 8), (4, 16)])
def test_every_level_plays_a_legal_action_in_every_position(
    level: str, seats: int, short: int
) -> None:
    states = positions(seats, short, seed=seats * 7 + short, every=5 if level == "expert" else 1)
    assert any(s.phase == CLAIM for s in states) and any(s.phase == DISCARD for s in states)
    for state in states:
        for seat in GAME.to_move(state):
            legal = GAME.legal_actions(state, seat)
            action = bot(level, seat).choose(GAME.observe(state, seat), legal)
            assert action in legal, (level, action, legal)


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_a_level_is_deterministic_for_its_seed(level: str) -> None:
    states = positions(4, 16, seed=5, every=5)
    for state in states:
        for seat in GAME.to_move(state):
            obs = GAME.observe(state, seat)
            legal = GAME.legal_actions(state, seat)
            assert bot(level, 3).choose(obs, legal) == bot(level, 3).choose(obs, legal)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(LEVEL_IDS), st.sampled_from([3, 4]), st.integers(0, 2**16))
def test_a_decision_depends_only_on_what_the_seat_sees(level: str, seats: int, seed: int) -> None:
    """Two states that look the same to a seat (the second sampled from its observation, so
    every hand, the pile and the bonus cards it cannot see are different) get the same
    decision."""
    states = positions(seats, 8, seed, every=7)
    rng = random.Random(seed)
    for state in states[:: max(1, len(states) // 6)]:
        for seat in GAME.to_move(state):
            obs = GAME.observe(state, seat)
            other = sample_state(obs, rng)
            assert GAME.observe(other, seat) == obs
            legal = GAME.legal_actions(state, seat)
            assert GAME.legal_actions(other, seat) == legal
            assert bot(level, seed).choose(obs, legal) == bot(level, seed).choose(
                GAME.observe(other, seat), legal
            )


def test_the_engine_serves_the_levels_of_data_toml() -> None:
    assert GAME.levels == LEVEL_IDS == ["beginner", "casual", "strong", "expert"]
    assert set(GAME.level_names()) == set(LEVEL_IDS)
    kinds = {level: type(GAME.make_bot(level, 1)) for level in LEVEL_IDS}
    assert kinds == {
        "beginner": BeginnerBot,
        "casual": GreedyBot,
        "strong": ReaderBot,
        "expert": SearchBot,
    }
    strengths = [row for row in GAME.designed_values() if row.name["en"].startswith("Strength")]
    assert len(strengths) == len(LEVELS)
    for row in strengths:
        assert row.source == "designed"
        assert all(row.value.values()) and all(row.reason.values())
    with pytest.raises(InvalidOptions):
        GAME.make_bot("random", 1)


def test_waits_match_the_rules_helper() -> None:
    rng = random.Random(1)
    cards = deck(4)
    ready = 0
    for _ in range(1000):
        five = rng.sample(cards, 5)
        mine = sorted(CARD[c] for c in waits(tuple(sorted(CODE[c] for c in five))))
        assert mine == sorted(winning_cards(five, 4))
        ready += bool(mine)
    hand = tuple(sorted(CODE[c] for c in ["W1", "W2", "W3", "C5", "C6"]))
    assert {CARD[c] for c in waits(hand)} == {"C4", "C7"}


# --- what each level does ----------------------------------------------------------------------


def observation(hand: list[str], **changes: Any) -> dict[str, Any]:
    """A 4-seat observation of seat 0 holding ``hand`` (6 cards: its turn to discard)."""
    obs: dict[str, Any] = {
        "game": "michikake",
        "options": {"short_pile": 0},
        "players": 4,
        "seat": 0,
        "points": [1000, 1000, 1000, 1000],
        "deal": 0,
        "passes": 0,
        "dealer": 1,
        "crests": ["C", "W", "R", "H"],
        "pile": 60,
        "hand": hand,
        "drawn": hand[-1],
        "bonus": "odd",
        "hand_sizes": [len(hand), 5, 5, 5],
        "shown": [[], [], [], []],
        "discards": [[], [], [], []],
        "steals": [0, 0, 0, 0],
        "phase": DISCARD,
        "turn": 0,
        "window": None,
        "last": [],
        "results": [],
        "ply": 30,
        "outcome": None,
    }
    obs.update(changes)
    return obs


def discards_of(hand: list[str]) -> list[dict[str, Any]]:
    return [{"discard": card} for card in sorted(set(hand))]


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_every_level_wins_when_it_can(level: str) -> None:
    hand = ["W1", "W2", "W3", "C5", "C5", "C5"]
    legal = [*discards_of(hand), {"win": True}]
    assert bot(level, 1).choose(observation(hand), legal) == {"win": True}
    claim = observation(
        ["W1", "W2", "W3", "C5", "C5"],
        phase=CLAIM,
        turn=2,
        drawn=None,
        window={"discarder": 2, "card": "C5", "closes_at": 9.0, "answer": None},
    )
    legal = [{"pass": True}, {"win": True}, {"steal": True}]
    assert bot(level, 1).choose(claim, legal) == {"win": True}


def test_the_greedy_level_keeps_the_most_winning_cards() -> None:
    # Keeping W1-W2-W3 and R5-R6 waits on R4 and R7 (six copies); keeping R5-R7 waits on R6
    # only: the greedy level throws the lonely star.
    hand = ["W1", "W2", "W3", "R5", "R6", "star"]
    steady = replace(LEVEL_BY_ID["casual"], slip=0.0)
    assert GreedyBot(steady, 1, float).choose(observation(hand), discards_of(hand)) == {
        "discard": "star"
    }


def test_a_watching_level_counts_only_winning_cards_it_can_still_get() -> None:
    # W1-W2-W3 + R5 R6 R6: throwing an R6 waits on R4 and R7 (six copies), throwing R5 waits on
    # the last R6. A level that watches the table keeps the bigger wait unless all of R4 and R7
    # are seen; the casual level looks only at its own hand and keeps the dead wait.
    hand = ["W1", "W2", "W3", "R5", "R6", "R6"]
    casual = replace(LEVEL_BY_ID["casual"], slip=0.0)
    assert not casual.watch and LEVEL_BY_ID["strong"].watch
    watching = GreedyBot(replace(casual, watch=True), 1, float)
    blind = GreedyBot(casual, 1, float)
    assert watching.choose(observation(hand), discards_of(hand)) == {"discard": "R6"}
    dead = [{"card": card, "taken_by": None} for card in ("R4", "R7") for _ in range(3)]
    obs = observation(hand, discards=[[], dead, [], []])
    assert View(obs).live.get(CODE["R4"], 0) == 0
    assert View(obs, watch=False).live[CODE["R4"]] == 3
    assert watching.choose(obs, discards_of(hand)) == {"discard": "R5"}
    assert blind.choose(obs, discards_of(hand)) == {"discard": "R6"}


def test_a_valued_shape_counts_each_winning_card_by_what_its_win_scores() -> None:
    """Checked against the rules' own helpers: for ready fives, the valued shape is 1000 plus,
    over ``winning_cards``, the unseen copies (twice when the holder may still take it from a
    discard) times the hand's points and the bonus card's, in hundreds."""
    rng = random.Random(4)
    cards = deck(4)
    checked = 0
    while checked < 200:
        five = rng.sample(cards, 5)
        wins = winning_cards(five, 4)
        if not wins:
            continue
        codes = tuple(sorted(CODE[c] for c in five))
        live = {CODE[k]: rng.randint(0, 3) for k in set(cards)}
        barred = {CODE[c] for c in rng.sample(wins, rng.randint(0, len(wins)))}
        crest = rng.choice("CWRH")

        def worth(hand: tuple[int, ...], code: int, crest: str = crest) -> float:
            six = [CARD[c] for c in (*hand, code)]
            return ((hand_points(six, crest) or 0) + bonus_points("odd", six, crest)) / 100

        expected = 0.0
        for card in wins:
            code = CODE[card]
            if live[code]:
                expected += live[code] * (1 if code in barred else 2) * worth(codes, code)
        value = shape(codes, live, barred, worth)
        if expected:
            assert value == pytest.approx(1000 + expected)
            checked += 1
        else:
            assert value < 1000


def test_the_valued_shape_prefers_the_richer_of_two_equal_waits() -> None:
    # Both fives wait on two stages of a run (six copies unseen). With crest C, C4 would give
    # C1 to C6 (six in a row, +60) all in the crest (+50); the R run gives the base 50 only.
    crest_run = tuple(sorted(CODE[c] for c in ["C1", "C2", "C3", "C5", "C6"]))
    plain_run = tuple(sorted(CODE[c] for c in ["C1", "C2", "C3", "R5", "R6"]))
    live = {CODE[c]: 3 for c in ["C4", "C7", "R4", "R7"]}
    assert shape(crest_run, live) == shape(plain_run, live)
    view = View(observation(["C1", "C2", "C3", "C5", "C6", "R5"]), valued=True)
    assert view.worth is not None
    assert shape(crest_run, live, (), view.worth) > shape(plain_run, live, (), view.worth)


def test_a_slip_is_a_random_legal_discard_at_the_rate_for_the_seat_count() -> None:
    hand = ["W1", "W2", "W3", "R5", "R6", "star"]
    casual = LEVEL_BY_ID["casual"]
    steady = {
        GreedyBot(replace(casual, slip=0.0), seed, float).choose(
            observation(hand), discards_of(hand)
        )["discard"]
        for seed in range(40)
    }
    careless = {
        GreedyBot(replace(casual, slip=1.0), seed, float).choose(
            observation(hand), discards_of(hand)
        )["discard"]
        for seed in range(40)
    }
    careless_at_three = {
        GreedyBot(replace(casual, slip=0.0, slip_three=1.0), seed, float).choose(
            observation(hand, players=3), discards_of(hand)
        )["discard"]
        for seed in range(40)
    }
    assert steady == {"star"}
    assert careless == careless_at_three == set(hand)


def test_the_reader_counts_a_card_an_opponent_has_discarded_as_safe_from_them() -> None:
    hand = ["W1", "W2", "W3", "R5", "R6", "C5"]
    risky = expected_loss(View(observation(hand)), CODE["C5"])
    thrown = [{"card": "C5", "taken_by": None}, {"card": "H2", "taken_by": None}]
    safe = View(observation(hand, discards=[[], thrown, thrown, thrown]))
    assert risky > 0 and expected_loss(safe, CODE["C5"]) == 0


def test_the_reader_fears_a_seat_that_shows_a_steal_most() -> None:
    hand = ["W1", "W2", "W3", "R6", "H9", "W9"]
    quiet = View(observation(hand))
    stealer = View(observation(hand, shown=[[], ["C7", "C7", "C7"], [], []], steals=[0, 1, 0, 0]))
    assert expected_loss(stealer, CODE["W9"]) > expected_loss(quiet, CODE["W9"])
    # ... and a card the stealer has thrown is safe from it.
    rows = [[], [{"card": "H9", "taken_by": None}], [], []]
    reads = View(
        observation(
            hand, shown=[[], ["C7", "C7", "C7"], [], []], steals=[0, 1, 0, 0], discards=rows
        )
    )
    assert expected_loss(reads, CODE["H9"]) < expected_loss(reads, CODE["W9"])


def test_the_beginner_never_steals_and_the_greedy_steals_a_helpful_triplet() -> None:
    claim = observation(
        ["W1", "W2", "W3", "C5", "C5"],
        phase=CLAIM,
        turn=2,
        drawn=None,
        window={"discarder": 2, "card": "C5", "closes_at": 9.0, "answer": None},
    )
    legal = [{"pass": True}, {"steal": True}]
    assert BeginnerBot(LEVEL_BY_ID["beginner"], 1, float).choose(claim, legal) == {"pass": True}
    # Holding W1-W3 and a C5 pair, the stolen triplet makes the hand ready (throw R8, wait W2).
    claim["hand"] = ["W1", "W3", "R8", "C5", "C5"]
    assert GreedyBot(LEVEL_BY_ID["casual"], 1, float).choose(claim, legal) == {"steal": True}
    poor = {**claim, "points": [45, 1000, 1000, 1000]}
    assert GreedyBot(LEVEL_BY_ID["casual"], 1, float).choose(poor, legal) == {"pass": True}


def test_a_rollout_plays_a_deal_to_its_end_and_conserves_points() -> None:
    state = GAME.new_state({}, 4, 11)
    sim = Sim.from_state(state)
    seat = state.turn
    hand = sorted(sim.hands[seat])
    total = sum(sim.points)
    for code in set(hand):
        copy = sim.copy()
        copy.play_discard(seat, code, random.Random(code))
        # A win moves points between seats only (rounding up on a self-draw may add a point
        # or two).
        assert 0 <= sum(copy.points) - total <= 3
    assert sim.hands[seat] == hand, "rollouts work on copies"


def test_the_search_leaves_the_readers_choice_only_for_a_clear_gain() -> None:
    clear = {7: [10.0, 12.0, 11.0, 9.0], 8: [30.0, -25.0, 40.0, -30.0]}
    assert _better(5, clear, 1.5) == 7
    noisy = {8: [30.0, -25.0, 40.0, -30.0]}
    assert _better(5, noisy, 1.5) == 5
    assert _better(5, {7: [-1.0, -2.0, -1.5]}, 1.5) == 5


def test_the_expert_keeps_a_ready_hand_whatever_its_rollouts_say() -> None:
    """Issue 31, point 3, a position built through the engine: three seats, the R crest and
    the Sweep bonus card, 45 cards in the pile. Holding C3 C4 R1 R1 R2 R3, throwing an R1
    leaves C3 C4 R1 R2 R3, ready on C2 or C5 with all six copies unseen. With its full 40
    samples, seed 2 threw C4 instead: its rollouts, lucky with all-R crest hands, beat the
    cheap ready line by more than their bar. The search now only weighs discards as close to
    winning as the reader's best, so every seed keeps the ready hand."""
    hands = ["C3 C4 R1 R1 R2 R3", "C5 R5 R8 C4 W6", "W2 C6 R8 W2 C3"]
    rows = ["R5 W9", "C9 W1", "R6 C8"]
    rest = Counter(deck(3))
    rest.subtract(card for text in hands + rows for card in text.split())
    pile = sorted(rest.elements())[:45]
    state = replace(
        table(hands, " ".join(pile), drawn="C4", discards=rows),
        crests=("R", "C", "W"),
        bonus=("sweep", "odd", "even"),
    )
    obs, legal = GAME.observe(state, 0), GAME.legal_actions(state, 0)
    ready = tuple(sorted(CODE[c] for c in ["C3", "C4", "R1", "R2", "R3"]))
    assert {CARD[c] for c in waits(ready)} == {"C2", "C5"}
    for seed in range(3):
        assert make_bot("expert", seed, time=0.0).choose(obs, legal) == {"discard": "R1"}, seed
