"""MOMOJAN's and MICHIKAKE's hints and reviews see one seat's view only, and value legal moves.

The view-only property: positions are taken from random games, the hidden cards are dealt
again consistently with the deciding seat's view (each game's ``sample.py`` builds a state from
an observation), and the analysis and every explanation must come out the same, values and all.
An analysis that read anything the seat cannot see (the opponent's hand, the pile's order, the
room's seed) would differ in some of these thousands of positions. They run on the smallest
budget (one dealt world a position), so the whole run stays quick.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import analysis_of, choices, explanation, view_of
from asobiba.games import get_game
from asobiba.games.michikake.sample import sample_state as michikake_sample
from asobiba.games.momojan.sample import sample_state as momojan_sample

TINY = 0.0001
"""An analysis budget of one dealt world: enough to see whether a hidden card was read."""

SAMPLERS = {"momojan": momojan_sample, "michikake": michikake_sample}
TABLES = {"momojan": (2,), "michikake": (3, 4)}


def decisions(game_name: str, seats: int, seed: int) -> Iterator[tuple[Any, int]]:
    """Every (state, seat) of one random game where the seat has more than one choice: the
    moves are random legal actions (a claim window's answers too), timed waits run out."""
    game = get_game(game_name)
    options = {"dealerships": 1} if game_name == "momojan" else {"short_pile": 16}
    state = game.new_state(options, seats, seed)
    rng = random.Random(seed)
    while game.outcome(state) is None:
        movers = sorted(game.to_move(state))
        if not movers:
            deadline = game.deadline(state)
            assert deadline is not None, "nobody may act: a timed wait runs"
            state = game.advance(state, deadline)
            continue
        seat = rng.choice(movers)
        if len(choices(game, state, seat)) > 1:
            yield state, seat
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


def positions(game_name: str, count: int) -> list[tuple[Any, int]]:
    """``count`` decisions from random games of every table size, spread over the games."""
    found: list[tuple[Any, int]] = []
    seed = 0
    while len(found) < count:
        for seats in TABLES[game_name]:
            found += list(decisions(game_name, seats, seed))[::3]
        seed += 1
    return found[:count]


@pytest.mark.parametrize(("game_name", "count"), [("momojan", 700), ("michikake", 1300)])
def test_a_hint_is_the_same_whatever_the_hidden_cards_the_view_allows(
    game_name: str, count: int
) -> None:
    game = get_game(game_name)
    rng = random.Random(f"redeal/{game_name}")
    for state, seat in positions(game_name, count):
        view = view_of(game, state, seat)
        redealt = SAMPLERS[game_name](view, rng)
        assert game.observe(redealt, seat) == view, "the re-deal looks the same to the seat"
        analysis = analysis_of(game, state, TINY, seat)
        assert analysis_of(game, redealt, TINY, seat) == analysis, (game_name, view)
        for move in analysis.moves:
            words = explanation(game, state, move.action, seat)
            assert explanation(game, redealt, move.action, seat) == words, move.action


@pytest.mark.parametrize("game_name", ["momojan", "michikake"])
def test_the_analysis_values_every_legal_move_best_first(game_name: str) -> None:
    game = get_game(game_name)
    for state, seat in positions(game_name, 40):
        analysis = analysis_of(game, state, 0.02, seat)
        legal = game.legal_actions(state, seat)
        assert analysis.seat == seat
        assert sorted(map(repr, (m.action for m in analysis.moves))) == sorted(map(repr, legal))
        values = [move.value for move in analysis.moves]
        assert values == sorted(values, reverse=True), values
        words = explanation(game, state, analysis.best.action, seat)
        assert words["ja"] and words["en"]


def test_every_draw_is_one_choice_with_one_value() -> None:
    """The seat knows nothing of the piles' order: drawing from one or another is the same
    choice, valued alike (a review never grades it; ``core.game.choices``)."""
    game = get_game("momojan")
    for state, seat in positions("momojan", 60):
        legal = game.legal_actions(state, seat)
        draws = [a for a in legal if a["type"] == "draw"]
        assert len([a for a in choices(game, state, seat) if a["type"] == "draw"]) == min(
            len(draws), 1
        )
        if len(draws) > 1:
            values = {
                m.value for m in analysis_of(game, state, TINY, seat).moves if m.action in draws
            }
            assert len(values) == 1


def test_a_claim_window_is_valued_for_the_seat_that_answers() -> None:
    """Several seats answer a MICHIKAKE discard at once: each one's analysis is its own, and
    one cannot be asked for without saying whose."""
    game = get_game("michikake")
    for seed in range(200):
        state = game.new_state({"short_pile": 16}, 4, seed)
        rng = random.Random(seed)
        while game.outcome(state) is None:
            movers = sorted(game.to_move(state))
            if not movers:
                break
            deciding = [s for s in movers if len(game.legal_actions(state, s)) > 1]
            if state.phase == "claim" and len(movers) > 1 and deciding:
                seat = deciding[0]
                analysis = analysis_of(game, state, TINY, seat)
                assert analysis.seat == seat
                assert {m.action["pass"] for m in analysis.moves if "pass" in m.action} == {True}
                assert len(analysis.moves) == len(game.legal_actions(state, seat))
                with pytest.raises(IllegalAction, match="seats may act"):
                    analysis_of(game, state, TINY)
                return
            seat = rng.choice(movers)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    pytest.fail("no claim window with a choice in 200 random sessions")
