"""MOMOJAN bots: legal, deterministic, built from the observation alone; the hand measure agrees
with the engine; ``sample_state`` keeps everything the seat sees and invents only what it cannot.

The searching level (expert) plays here like every other level, with its whole budget: it has
no clock, so a decision is the same on any machine (bench/momojan_speed.py
measures its time); its helpers are checked by brute force in test_momojan_search.py.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from asobiba.core.errors import InvalidOptions
from asobiba.games import get_game
from asobiba.games.momojan import DECK, parse
from asobiba.games.momojan.bot_levels import make_bot
from asobiba.games.momojan.bots import GreedyBot, shanten, ukeire, unseen
from asobiba.games.momojan.data import LEVEL_BY_ID, LEVELS
from asobiba.games.momojan.hand import complete, waits
from asobiba.games.momojan.rules import MomojanState
from asobiba.games.momojan.sample import sample_state, unseen_cards
from tests.games.momojan.momojan_positions import melds, position, river

GAME = get_game("momojan")
LEVEL_IDS = [level.id for level in LEVELS]


def random_states(seed: int, count: int) -> list[MomojanState]:
    """Positions along one random game of one deal each (never over), spread over its length."""
    rng = random.Random(seed)
    state = GAME.new_state({"dealerships": 1}, 2, seed)
    seen = []
    while GAME.outcome(state) is None:
        seen.append(state)
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return [seen[len(seen) * (k + 1) // (count + 1)] for k in range(count)]


def full(state: MomojanState, dora: str = "monkey") -> MomojanState:
    """A hand-built position with the rest of the deck in the piles and aside, so that every
    card of the deck is somewhere (as in a dealt game)."""
    rest = Counter(DECK)
    rest.subtract(card for hand in state.hands for card in hand)
    rest.subtract(card for ms in state.melds for meld in ms for card in meld.cards)
    rest.subtract(d.card for r in state.rivers for d in r if not d.called)
    rest.subtract([dora])
    assert all(count >= 0 for count in rest.values()), rest
    cards = sorted(rest.elements())
    random.Random(0).shuffle(cards)
    third = (len(cards) - 3) // 3
    piles = (cards[3 : 3 + third], cards[3 + third : 3 + 2 * third], cards[3 + 2 * third :])
    return replace(state, dead=(dora, *cards[:3]), piles=tuple(tuple(p) for p in piles))


def mover(state: MomojanState) -> int:
    (seat,) = GAME.to_move(state)
    return seat


def test_the_engine_serves_the_levels_of_data_toml() -> None:
    assert GAME.levels == LEVEL_IDS == ["beginner", "casual", "strong", "expert"]
    assert GAME.level_names()["strong"] == {"ja": "つよい", "en": "Strong"}
    shown = [row.name["en"] for row in GAME.designed_values()]
    for level in LEVELS:
        assert level.source == "designed" and level.reason and level.reason_ja
        assert f"Strength: {level.name_en}" in shown
    assert isinstance(GAME.make_bot("beginner", 1), type(make_bot("beginner", 1)))
    with pytest.raises(InvalidOptions, match="unknown momojan bot level"):
        GAME.make_bot("random", 1)


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_every_level_plays_only_legal_actions_over_random_positions(level: str) -> None:
    games = 6
    for seed in range(games):
        for state in random_states(seed, 8):
            seat = mover(state)
            legal = GAME.legal_actions(state, seat)
            assert make_bot(level, seed).choose(GAME.observe(state, seat), legal) in legal


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_a_whole_game_between_bots_is_legal_and_the_same_for_the_same_seeds(level: str) -> None:
    def game() -> list[dict[str, Any]]:
        bots = [make_bot(level, 11), make_bot("casual", 12)]
        state = GAME.new_state({"dealerships": 1}, 2, 3)
        actions = []
        while GAME.outcome(state) is None:
            seat = mover(state)
            action = bots[seat].choose(GAME.observe(state, seat), GAME.legal_actions(state, seat))
            state = GAME.apply(state, seat, action)  # raises on an illegal action
            actions.append(action)
        return actions

    assert game() == game()


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_a_decision_is_a_function_of_the_seed_and_the_observation(level: str) -> None:
    """Two states that look the same to the seat (the hidden cards dealt anew by sample_state)
    get the same decision; a fresh bot with the same seed decides the same again."""
    for seed in range(4):
        for state in random_states(100 + seed, 6):
            seat = mover(state)
            obs = GAME.observe(state, seat)
            twin = sample_state(obs, random.Random(seed))
            assert twin.hands[1 - seat] != state.hands[1 - seat] or twin.piles != state.piles
            assert GAME.observe(twin, seat) == obs
            legal = GAME.legal_actions(state, seat)
            assert GAME.legal_actions(twin, seat) == legal
            first = make_bot(level, seed).choose(obs, legal)
            assert make_bot(level, seed).choose(GAME.observe(twin, seat), legal) == first


def test_sample_state_is_consistent_with_the_observation_over_many_positions() -> None:
    for seed in range(8):
        for state in random_states(200 + seed, 10):
            for seat in (0, 1):
                obs = GAME.observe(state, seat)
                sampled = sample_state(obs, random.Random(seed))
                assert GAME.observe(sampled, seat) == obs
                # The cards are the deck's: the seat's own and the public ones kept, the rest
                # the unseen cards, each once.
                hidden = [*sampled.hands[1 - seat], *sampled.dead[1:]]
                hidden += [card for pile in sampled.piles for card in pile]
                assert Counter(hidden) == Counter(unseen_cards(obs))
                assert sampled.hands[seat] == state.hands[seat]


def test_sample_state_never_reads_hidden_information() -> None:
    """Two true states with the same observation give the same sample: what differs between
    them (the opponent's hand, the piles, the cards aside, the seed) cannot reach it."""
    for seed in range(8):
        for state in random_states(300 + seed, 6):
            seat = mover(state)
            obs = GAME.observe(state, seat)
            other = sample_state(obs, random.Random(seed + 1000))
            assert other != state and GAME.observe(other, seat) == obs
            again = sample_state(GAME.observe(other, seat), random.Random(7))
            assert again == sample_state(obs, random.Random(7))


def riichi_opponent(hand0: str, *open0: str, open1: tuple[str, ...] = ()) -> MomojanState:
    """Seat 0 in riichi on ``hand0`` beside ``open0``; seat 1 starts its turn on the riichi
    discard, a pheasant, with the rest of the deck out of its sight."""
    return full(
        position(
            hand0,
            "O1 O2 O3 sun sun moon L9",
            melds0=melds(*open0),
            melds1=melds(*open1),
            riichi=(True, False),
            rivers=(river("pheasant", riichi_at=0), ()),
            turn=1,
            phase="start",
            offer="pheasant",
        )
    )


def test_sample_state_gives_a_riichi_opponent_a_ready_hand() -> None:
    state = riichi_opponent("L1 L2 L3 O5 S5 dog dog", "kai: S7 S8 S9", open1=("kai: L4 L5 L6",))
    obs = GAME.observe(state, 1)
    for k in range(10):
        sampled = sample_state(obs, random.Random(k))
        assert waits(sampled.hands[0], [m.cards for m in sampled.melds[0]])


def test_sample_state_never_gives_a_riichi_opponent_a_wait_whose_copies_it_holds() -> None:
    """Issue 31, point 1: a single dog beside the player's own dog ポン waits on no dog (all
    four are theirs), so it is not ready and a sampled riichi hand is never that one."""
    state = riichi_opponent("M1", "pon: dog dog dog", "kai: S7 S8 S9", "chi: L4 L5 L6")
    obs = GAME.observe(state, 1)
    singles = Counter(sample_state(obs, random.Random(k)).hands[0] for k in range(300))
    assert ("dog",) not in singles and len(singles) > 20
    assert all(waits(hand, [m.cards for m in state.melds[0]]) for hand in singles)


@pytest.mark.parametrize(
    ("hand", "opened", "expected"),
    [
        ("L1 L2 L3 O5 S5 dog dog", 1, 0),  # a set, a head, a partial set: ready
        ("L1 L2 L3 O5 S5 dog dog", 0, 2),  # nothing open: a third set is still missing
        ("L1 L2 L3 O5 S5 dog dog sun", 1, 0),
        ("L1 L2 L3 L5 O5 S5 dog dog", 1, -1),  # two sets and a head, one set open: a win
        ("L1 L2 L3 L5 O5 S5 dog dog", 0, 1),  # the same with nothing open: 開 and draw first
        ("dog", 3, 0),  # きびだんご: one card, waiting for its pair
        ("M1 M5 L9 O3 S7 sun moon", 1, 2),  # M1-O3 and M5-S7 are partial runs (peaches)
    ],
)
def test_shanten_examples(hand: str, opened: int, expected: int) -> None:
    assert shanten(parse(hand), opened) == expected


def test_shanten_agrees_with_the_engine_on_ready_and_complete_hands() -> None:
    rng = random.Random(5)
    open_sets = [parse("dog dog dog"), parse("S1 S2 S3"), parse("L7 M8 L9")]
    deck = sorted((Counter(DECK) - Counter(c for s in open_sets for c in s)).elements())
    for _ in range(1500):
        opened = rng.choice((0, 1, 2, 3))
        size = rng.choice((1, 4, 7))
        hand = rng.sample(deck, size)
        if waits(hand, open_sets[:opened]):
            assert shanten(hand, opened) == 0, hand
        full = rng.sample(deck, size + 1)
        assert (shanten(full, opened) == -1) == complete(full, opened), full


def test_ukeire_counts_the_unseen_cards_that_help() -> None:
    # L1 L2 L3 dog dog + O5 S5 is ready: L5 or M5 make O5 S5 a set, a dog makes dog dog dog
    # beside the head O5 S5; every other card is in sight, so 4 cards win.
    cards = tuple(parse("L1 L2 L3 O5 S5 dog dog"))
    pool = Counter(DECK)
    pool.subtract(cards)
    assert shanten(cards, 1) == 0
    assert ukeire(cards, 1, +pool) == 4
    far = tuple(parse("L1 L2 L3 O5 S6 dog sun"))
    assert ukeire(far, 1, +pool) > 0


def test_unseen_is_the_deck_less_everything_in_sight() -> None:
    state = GAME.new_state({}, 2, 4)
    obs = GAME.observe(state, 0)
    assert sum(unseen(obs).values()) == len(DECK) - 7 - 1
    assert Counter(unseen_cards(obs)) == unseen(obs)


def test_the_shanten_players_declare_riichi_when_a_discard_makes_them_ready() -> None:
    state = full(
        position(
            "L1 L2 L3 O5 S5 dog dog moon",
            "O1 O2 O3 sun sun L9 O9",
            melds0=melds("kai: S7 S8 S9"),
            phase="drawn",
            drawn="moon",
        )
    )
    legal = GAME.legal_actions(state, 0)
    for level in ("casual", "strong"):
        action = make_bot(level, 1).choose(GAME.observe(state, 0), legal)
        assert action == {"type": "discard", "card": "moon", "riichi": True}, level


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_the_defending_levels_throw_a_safe_card_against_a_riichi_when_far_from_ready(
    level: str,
) -> None:
    # The opponent declared riichi and has discarded a sun; our hand is far from ready.
    state = full(
        position(
            "M1 L5 O9 S3 dog sun pheasant moon",
            "O1 O2 O3 L7 L8 moon moon",
            melds1=melds("kai: O4 O5 O6"),
            rivers=((), river("sun", riichi_at=0)),
            riichi=(False, True),
            phase="drawn",
            drawn="moon",
        )
    )
    legal = GAME.legal_actions(state, 0)
    action = make_bot(level, 2).choose(GAME.observe(state, 0), legal)
    assert action["type"] == "discard" and action["card"] == "sun"


def test_a_slip_throws_any_card_of_the_hand_at_the_levels_rate() -> None:
    """The strong level's careless moments (``slip``): now and then a discard is any card of
    the hand instead of the best; without slips the same position always gets the same card."""
    strong = next(level for level in LEVELS if level.id == "strong")
    assert 0 < strong.slip < 0.5
    checked = differed = 0
    for state in random_states(7, 60):
        if state.phase != "drawn":
            continue
        (seat,) = GAME.to_move(state)
        obs, legal = GAME.observe(state, seat), GAME.legal_actions(state, seat)
        careful = [GreedyBot(replace(strong, slip=0.0), s).choose(obs, legal) for s in range(4)]
        if careful[0]["type"] != "discard":
            continue
        checked += 1
        assert all(action == careful[0] for action in careful), "no slip, no chance"
        for s in range(4):
            slipped = GreedyBot(replace(strong, slip=1.0), s).choose(obs, legal)
            assert slipped in legal and slipped["type"] == "discard"
            differed += slipped["card"] != careful[0]["card"]
    assert checked >= 5 and differed > 0, (checked, differed)


def _observe(state: MomojanState) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    seat = mover(state)
    return GAME.observe(state, seat), GAME.legal_actions(state, seat)


def dead_wait() -> MomojanState:
    """Seat 0 drew O9 to moon moon L3 L4 (two sets open): ready on L2, L5, M2 or M5 without
    it, and riichi is legal; but every one of those cards is already in sight."""
    return position(
        "moon moon L3 L4 O9",
        "S5 S6 S7 S8",
        melds0=melds("kai: S1 S2 S3", "pon: dog dog dog"),
        melds1=melds("kai: M1 M2 M3", "kai: M4 M5 M6"),
        rivers=(river("L9"), river("L2 L5")),
        piles=("L8 O1", "O8 O2", "S9 O5"),
        phase="drawn",
        drawn="O9",
    )


@pytest.mark.parametrize("level", LEVEL_IDS)
def test_no_level_declares_riichi_on_a_wait_with_no_live_card(level: str) -> None:
    """Bots point of issue 20: a riichi on a dead wait can never win and must throw every draw;
    no level declares one (the wait is judged from the seat's own observation)."""
    obs, legal = _observe(dead_wait())
    assert {"type": "discard", "card": "O9", "riichi": True} in legal
    for seed in range(12):
        assert not make_bot(level, seed).choose(obs, legal).get("riichi"), seed


@pytest.mark.parametrize("level", ["casual", "strong", "expert"])
def test_the_same_wait_with_a_live_card_is_declared(level: str) -> None:
    live = replace(dead_wait(), rivers=(river("L9"), river("L2")))  # L5 not yet in sight
    obs, legal = _observe(live)
    chosen = [make_bot(level, seed).choose(obs, legal) for seed in range(6)]
    assert any(a == {"type": "discard", "card": "O9", "riichi": True} for a in chosen), chosen


def test_strong_keeps_the_wait_it_can_ron_on_when_the_live_cards_are_as_many() -> None:
    """Discarding L3 leaves moon moon O3 O4, waiting on O2, O5, M2 or M5: furiten (O2 is in
    its own river), 3 live cards. Discarding O4 leaves moon moon L3 O3, waiting on M3, S3 or
    the last unseen moon: 3 live cards too, and a ロン stays possible. The strong level (its
    careless slip set aside) keeps the second."""
    state = position(
        "moon moon L3 O3 O4",
        "S5 S6 S7 S8",
        melds0=melds("pon: pheasant pheasant pheasant", "pon: dog dog dog"),
        rivers=(river("O2"), river("moon L9")),
        piles=("L8 O1", "O8 L1", "S9 L7"),
        phase="drawn",
        drawn="O4",
    )
    obs, legal = _observe(state)
    open_sets = [m.cards for m in state.melds[0]]
    assert waits(["moon", "moon", "O3", "O4"], open_sets) == {"O2", "O5", "M2", "M5"}
    assert waits(["moon", "moon", "L3", "O3"], open_sets) == {"M3", "S3", "moon"}
    careful = replace(LEVEL_BY_ID["strong"], slip=0.0)
    for seed in range(6):
        assert GreedyBot(careful, seed).choose(obs, legal)["card"] == "O4"


def test_strong_keeps_the_wait_it_can_ron_on_over_keeping_a_peach() -> None:
    """Issue 31, point 3: holding M1 and a drawn L6, three sets open. Throwing L6 leaves M1
    waiting on L1, O1 or S1, furiten (L1 is in its own river), 2 live cards; throwing M1
    leaves L6 waiting on O6 or S6 (M6 is in sight), 2 live cards and a ロン possible. The
    strong level used to keep the モモ for its wildness, worthless in a ready hand, and
    declared a furiten riichi; without its careless slip it now throws M1 and declares."""
    state = full(
        position(
            "M1 L6",
            "S5 S6 S7 S8",
            melds0=melds("kai: L3 L4 L5", "pon: dog dog dog", "chi: O7 O8 O9"),
            melds1=melds("kai: M4 M5 M6"),
            rivers=(river("L1 L9"), river("L2")),
            phase="drawn",
            drawn="L6",
        )
    )
    obs, legal = _observe(state)
    pool = unseen(obs)
    assert [pool[c] for c in ("L1", "O1", "S1")] == [0, 1, 1]
    assert [pool[c] for c in ("M6", "O6", "S6")] == [0, 1, 1]
    careful = replace(LEVEL_BY_ID["strong"], slip=0.0)
    for seed in range(6):
        chosen = GreedyBot(careful, seed).choose(obs, legal)
        assert chosen == {"type": "discard", "card": "M1", "riichi": True}, seed
