"""MOMOJAN's searching level: its pure helpers checked against the engine by brute force, and
the decisions they drive on hand-built positions.

The helpers value hands by what the engine would score (``score`` of a described ``Win``) and
by the engine's own waits; the brute force here goes through every card of the deck with the
public helpers (``complete``, ``waits``, ``score``), so a helper that skipped a card, counted a
copy twice or scored a win the engine would not, fails.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from asobiba.games import get_game
from asobiba.games.momojan import DECK, Meld, Win, complete, parse, score, waits
from asobiba.games.momojan.bot_levels import make_bot
from asobiba.games.momojan.bots import GreedyBot, shanten
from asobiba.games.momojan.cards import KINDS, is_peach, sort_cards
from asobiba.games.momojan.data import LEVEL_BY_ID
from asobiba.games.momojan.search import (
    Reach,
    deal_in_chances,
    near_value,
    ready_value,
    win_points,
)
from tests.games.momojan.momojan_positions import melds, position, river
from tests.games.momojan.test_momojan_bots import full

GAME = get_game("momojan")
OPEN = melds("pon: dog dog dog", "kai: O4 O5 O6", "chi: M7 O8 O9")


def brute_points(hand: list[str], open_sets: tuple[Meld, ...], card: str, dora: str) -> float:
    """The mean of the ツモ and ロン totals, straight from the engine's scoring."""
    full_hand = tuple(sort_cards([*hand, card]))
    totals = [score(Win(full_hand, open_sets, card, ron, dora, True)) for ron in (False, True)]
    return sum(t.total if t else 0 for t in totals) / 2


def brute_ready(hand: list[str], open_sets: tuple[Meld, ...], pool: Counter[str]) -> float:
    """Every card of the deck: its unseen copies × the points if it completes the hand."""
    total = 0.0
    for card in KINDS:
        if pool[card] and complete([*hand, card], len(open_sets)):
            total += pool[card] * brute_points(hand, open_sets, card, "L3")
    return total


def pool_without(*seen: list[str] | tuple[str, ...]) -> Counter[str]:
    pool = Counter(DECK)
    for cards in seen:
        pool.subtract(cards)
    return +pool


def test_win_points_are_the_engines_totals_for_tsumo_and_ron() -> None:
    # The scoring module's worked example: riichi, dog, ittsu, one dora, 旅; ロン reaches 7
    # and doubles (14), ツモ stays at 6: the mean is 10.
    hand = tuple(parse("O2 O3 sun sun"))
    assert win_points(hand, OPEN, "O1", "L3", True) == (6 + 14) / 2
    # Without riichi the ツモ is 5 and the ロン 6.
    assert win_points(hand, OPEN, "O1", "L3", False) == (5 + 6) / 2
    # A shape with no yaku scores nothing: runs only, no riichi, no dora.
    plain = melds("kai: L1 L2 L3")
    assert win_points(tuple(parse("O2 O3 S5 S6 S7 L9 S9")), plain, "O1", "dog", False) == 0


def test_ready_value_is_the_brute_force_sum_over_the_deck() -> None:
    rng = random.Random(3)
    checked = 0
    while checked < 40:
        size, opened = rng.choice(((4, OPEN[:2]), (7, OPEN[:1]), (1, OPEN)))
        hand = sort_cards(rng.sample(DECK, size))
        if Counter(hand) & Counter(c for m in opened for c in m.cards) or not waits(
            hand, [m.cards for m in opened]
        ):
            continue
        seen = rng.sample([c for c in DECK if c not in hand], 10)
        pool = pool_without(hand, seen, [c for m in opened for c in m.cards], ["L3"])
        got = ready_value(tuple(hand), Reach(opened, pool, "L3", True))
        assert got == brute_ready(hand, opened, pool), hand
        checked += 1
    # A hand that is not ready is worth nothing here.
    assert (
        ready_value(tuple(parse("L1 L5 O9 sun")), Reach(OPEN[:2], pool_without(), "L3", True)) == 0
    )


def test_near_value_is_the_brute_force_search_of_the_next_draw() -> None:
    """Every unseen card drawn, every discard after it, the best ready hand's brute-force
    value (the drawn copy out of the pool), weighted by the drawn card's copies."""
    rng = random.Random(4)
    checked = 0
    while checked < 12:
        hand = sort_cards(rng.sample(DECK, 4))
        opened = OPEN[:2]
        if shanten(hand, 2) != 1 or Counter(hand) & Counter(c for m in opened for c in m.cards):
            continue
        pool = pool_without(hand, [c for m in opened for c in m.cards], ["L3"])
        expected = 0.0
        for card in KINDS:
            if not pool[card]:
                continue
            grown = [*hand, card]
            rest = pool.copy()
            rest[card] -= 1
            best = 0.0
            for out in set(grown):
                left = list(grown)
                left.remove(out)
                if waits(left, [m.cards for m in opened]):
                    best = max(best, brute_ready(left, opened, +rest))
            expected += pool[card] * best
        assert near_value(tuple(hand), Reach(opened, pool, "L3", True)) == expected, hand
        checked += 1


def test_deal_in_chances_of_a_one_card_riichi_are_exact() -> None:
    """A riichi player holding one card waits for its pair: the chance a card wins is the
    unseen copies of the cards it pairs with (those whose waits the engine says include it),
    over the unseen cards, less the shapes made furiten by the river (モモ still wins). The
    player's own open sets take their cards out of every wait (issue 31, point 1): a single
    pheasant beside their pheasant ポン, or a single 5 beside their other three 5s, is not
    ready, so it is never the hand."""
    open_sets = [parse("pheasant pheasant pheasant"), parse("M5 O5 S5"), parse("L1 L2 L3")]
    opened = [c for s in open_sets for c in s]
    pool = pool_without(parse("O1 dog dog M2 S9"), opened)
    river_cards = parse("S1 L7")
    chances = deal_in_chances(pool, river_cards, 1, opened)
    ready = [single for single in pool if waits([single], open_sets)]
    total = sum(pool[single] for single in ready)
    for card in KINDS:
        expected = 0
        for single in ready:
            shape = waits([single], open_sets)
            furiten = any(c in river_cards for c in shape if not is_peach(c))
            if card in shape and (not furiten or is_peach(card)):
                expected += pool[single]
        assert abs(chances[card] - expected / total) < 1e-12, card
    # Only a single pheasant, or a single L5, could wait on the last pheasant or on M5: neither
    # is ready, so neither card can win.
    assert chances["pheasant"] == chances["M5"] == 0.0 and pool["pheasant"] == pool["L5"] == 1
    # S1 lies in the river: any single waiting on it is furiten, so it is safe; M1 is not.
    assert chances["S1"] == 0 < chances["M1"]


def test_deal_in_chances_mark_the_river_safe_and_the_partnerless_card_safe() -> None:
    pool = pool_without(parse("L1 L2 L3 O1 O2 O3 S1 S2 S3 M2 M3"))
    chances = deal_in_chances(pool, parse("sun L7 M4"), 4, [])
    assert chances["sun"] == chances["L7"] == 0.0  # in the river: those waits are furiten
    assert chances["M4"] > 0  # モモ is never furiten
    assert chances["M1"] == 0.0  # every card it pairs or makes a set with is in sight
    assert chances["S5"] > 0


def test_the_expert_keeps_the_wait_worth_more_points() -> None:
    """Two discards leave the hand ready; the dora are the suns, the dogs are open. Throwing L5
    waits on four cards (S3, S6, M3, M6) worth 4 points each (riichi, dog, the two dora suns;
    5 on ロン); throwing S4 waits on three (O5 is in sight): M5, worth the same, or one of the
    two unseen suns (the sun yaku and three dora: 6, and 7 on ロン, doubled to 14). The
    strong level counts cards and keeps the four; the expert weighs them by points (4.5 + 2 ×
    10 against 4 × 4.5) and keeps the three."""
    state = full(
        position(
            "S4 S5 sun sun L5",
            "O1 O2 O3 L7 L8 pheasant pheasant",
            melds0=melds("kai: L1 L2 L3", "kai: dog dog dog"),
            rivers=((), river("O5")),
            phase="drawn",
            drawn="L5",
        ),
        dora="moon",
    )
    obs = GAME.observe(state, 0)
    legal = GAME.legal_actions(state, 0)
    assert make_bot("expert", 1).choose(obs, legal) == {
        "type": "discard",
        "card": "S4",
        "riichi": True,
    }
    careful_strong = GreedyBot(replace(LEVEL_BY_ID["strong"], slip=0.0), 1)  # no careless moment
    assert careful_strong.choose(obs, legal)["card"] == "L5"
