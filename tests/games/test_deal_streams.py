"""Which generator deals each card game: a plain seed deals from its keyed stream
(``deal/<n>`` under the seed, core/rng.py); a ``LegacySeed`` (a room stored before keyed
streams) deals exactly as Mersenne Twister did from the game's old key, in every round.

Each expected deal is rebuilt here from the generator, as the game's rules deal: the shuffle
and the cutting of the deck are written out again rather than read from the engine.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.core.game import Game
from asobiba.core.rng import LegacySeed, stream
from asobiba.games import get_game
from asobiba.games.michikake import deck
from asobiba.games.michikake.cards import sort_cards as michikake_sorted
from asobiba.games.michikake.data import BONUS_CARDS, HAND_SIZE
from asobiba.games.mokochaka.data import NUMBERS as MOKOCHAKA
from asobiba.games.mokochaka.rules import new_deck
from asobiba.games.momojan import DECK
from asobiba.games.momojan.cards import sort_cards as momojan_sorted
from asobiba.games.momojan.data import NUMBERS as MOMOJAN

SEEDS = [0, 1, 58, 2**31 - 1]
"""Seeds as old rooms had them (31 bits at most)."""


def momojan_deal(rng: random.Random, dealer: int) -> Any:
    cards = list(DECK)
    rng.shuffle(cards)
    size, dead = MOMOJAN.hand_size, MOMOJAN.dead_wall
    hands = [tuple(momojan_sorted(cards[size : 2 * size]))] * 2
    hands[dealer] = tuple(momojan_sorted(cards[:size]))
    return tuple(hands), tuple(cards[2 * size : 2 * size + dead]), cards[2 * size + dead :]


def momojan_dealt(state: Any) -> Any:
    return state.hands, state.dead, [card for pile in state.piles for card in pile]


def michikake_deal(rng: random.Random, players: int, dealer: int, short: int) -> Any:
    cards = deck(players)
    rng.shuffle(cards)
    kinds = sorted(BONUS_CARDS)
    rng.shuffle(kinds)
    hands: list[list[str]] = [[] for _ in range(players)]
    for i in range(HAND_SIZE * players):
        hands[(dealer + i) % players].append(cards[i])
    rest = cards[HAND_SIZE * players :]
    pile, aside = rest[: short or len(rest)], rest[short or len(rest) :]
    hands[dealer].append(pile[0])  # the dealer's first draw
    return (
        tuple(michikake_sorted(hand) for hand in hands),
        tuple(kinds[:players]),
        tuple(pile[1:]),
        tuple(aside),
    )


def michikake_dealt(state: Any) -> Any:
    return state.hands, state.bonus, state.pile, state.aside


def mokochaka_deal(rng: random.Random, seats: int) -> Any:
    cards = new_deck()
    rng.shuffle(cards)
    piles = [[card] for card in cards[: MOKOCHAKA.piles]]
    rest = cards[MOKOCHAKA.piles :]
    each = len(rest) // seats
    hands = tuple(tuple(rest[i * each : (i + 1) * each]) for i in range(seats))
    for i, card in enumerate(rest[seats * each :]):
        piles[i % MOKOCHAKA.piles].append(card)
    return hands, tuple(tuple(pile) for pile in piles), rng.randrange(seats)


def mokochaka_dealt(state: Any) -> Any:
    return state.hands, state.piles, state.start_player


@pytest.mark.parametrize("seed", SEEDS)
def test_momojan_deals_a_legacy_seed_as_before_and_a_plain_seed_from_its_stream(
    seed: int,
) -> None:
    game = get_game("momojan")
    old = momojan_deal(random.Random(f"momojan/{seed}/1"), 0)
    assert momojan_dealt(game.new_state({}, 2, LegacySeed(seed))) == old
    dealt = momojan_dealt(game.new_state({}, 2, seed))
    assert dealt == momojan_deal(stream(seed, "deal/1"), 0)
    assert dealt != old


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("players", "short"), [(4, 0), (3, 8)])
def test_michikake_deals_a_legacy_seed_as_before_and_a_plain_seed_from_its_stream(
    seed: int, players: int, short: int
) -> None:
    game = get_game("michikake")
    options = {"short_pile": short}
    old = michikake_deal(random.Random(f"michikake/{seed}/0"), players, 0, short)
    assert michikake_dealt(game.new_state(options, players, LegacySeed(seed))) == old
    dealt = michikake_dealt(game.new_state(options, players, seed))
    assert dealt == michikake_deal(stream(seed, "deal/0"), players, 0, short)
    assert dealt != old


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("seats", [2, 6])
def test_mokochaka_deals_a_legacy_seed_as_before_and_a_plain_seed_from_its_stream(
    seed: int, seats: int
) -> None:
    game = get_game("mokochaka")
    old = mokochaka_deal(random.Random(seed), seats)
    assert mokochaka_dealt(game.new_state({}, seats, LegacySeed(seed))) == old
    dealt = mokochaka_dealt(game.new_state({}, seats, seed))
    assert dealt == mokochaka_deal(stream(seed, "deal/0"), seats)
    assert dealt != old


def played(game: Game[Any], state: Any, rng: random.Random) -> Iterator[Any]:
    """Every state of a random game from ``state``: 0.5 s an action, timers let run out when
    nobody may act."""
    at = 0.0
    while game.outcome(state) is None:
        movers = sorted(game.to_move(state))
        if movers:
            seat = movers[0]
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)), at)
            at += 0.5
        else:
            due = game.deadline(state)
            assert due is not None
            at = max(at, due)
            state = game.advance(state, at)
        yield state


@pytest.mark.parametrize("seed", [3, 2**31 - 2])
def test_a_legacy_momojan_match_deals_every_round_as_before(seed: int) -> None:
    """The seed keeps its kind through every state of a match (and through a pickle, as to a
    worker process), so each later round still deals from its old key."""
    game = get_game("momojan")
    start = game.new_state({"dealerships": 1}, 2, LegacySeed(seed))
    state, rounds = start, 1
    for state in played(game, start, random.Random(seed)):
        assert type(state.seed) is LegacySeed
        if state.round_no > rounds and state.hands[0]:
            rounds = state.round_no
            old = momojan_deal(random.Random(f"momojan/{seed}/{rounds}"), state.dealer)
            assert momojan_dealt(state) == old
    assert rounds > 1
    assert type(pickle.loads(pickle.dumps(state)).seed) is LegacySeed


@pytest.mark.parametrize("seed", [3, 2**31 - 2])
def test_a_legacy_michikake_session_deals_every_deal_as_before(seed: int) -> None:
    game = get_game("michikake")
    start = game.new_state({"short_pile": 8}, 3, LegacySeed(seed))
    state, deals = start, 0
    for state in played(game, start, random.Random(seed)):
        assert type(state.seed) is LegacySeed
        if state.deal > deals:
            deals = state.deal
            old = michikake_deal(random.Random(f"michikake/{seed}/{deals}"), 3, state.dealer, 8)
            assert michikake_dealt(state) == old
    assert deals > 1
    assert type(pickle.loads(pickle.dumps(state)).seed) is LegacySeed
