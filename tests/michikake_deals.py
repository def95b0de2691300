"""Fixed MICHIKAKE deals for tests that need a claim window the person can use: since a person
who cannot claim is never asked (issue 31), random play rarely asks them, so these tests pick a
seed whose first discard the person can claim."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asobiba.games import get_game
from asobiba.server.rooms.bot_turns import bot_seed_for


def first_discard(seed: int, level: str) -> tuple[Any, dict[str, Any]]:
    """A 3-player room of ``seed`` after the dealer (seat 0, a bot of ``level`` seeded as the
    room seeds it) has made its first discard."""
    game = get_game("michikake")
    state = game.new_state({}, 3, seed)
    bot = game.make_bot(level, bot_seed_for(seed, 0))
    action = bot.choose(game.observe(state, 0), game.legal_actions(state, 0))
    return game.apply(state, 0, action), action


def find_seed(test: Callable[[int], bool], limit: int = 20_000) -> int:
    seed = next((seed for seed in range(limit) if test(seed)), None)
    assert seed is not None, f"no seed under {limit} makes the deal this test needs"
    return seed


def claimable_first_discard(level: str) -> int:
    """A seed whose dealer's first discard seat 1 may steal."""
    game = get_game("michikake")
    return find_seed(
        lambda seed: {"steal": True} in game.legal_actions(first_discard(seed, level)[0], 1)
    )
