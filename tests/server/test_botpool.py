"""The bot pool: a level whose every decision is quick is asked in the event loop, every other
level in a worker process, and both give the same move for the same seed and view."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from asobiba.core.game import slowest_of
from asobiba.games import engine_names, get_game
from asobiba.server.rooms.botpool import INLINE_SECONDS, BotPool, choose


@pytest.fixture(scope="module")
def pool() -> Iterator[BotPool]:
    bots = BotPool(1)
    yield bots
    bots.close()


def test_only_levels_measured_quick_are_asked_in_the_loop(pool: BotPool) -> None:
    assert pool.quick("mancala", "beginner")
    assert not pool.quick("mancala", "expert")  # searches for most of a second
    assert not pool.quick("momojan", "expert")
    for level in get_game("mokochaka").levels:  # a real-time game says no slowest decision
        assert not pool.quick("mokochaka", level)
    for game in engine_names():
        for level in get_game(game).levels:
            slowest = slowest_of(get_game(game), level)
            assert pool.quick(game, level) == (slowest is not None and slowest <= INLINE_SECONDS)


def test_a_quick_level_plays_in_the_loop_as_it_would_in_a_worker(pool: BotPool) -> None:
    """A whole game of Mancala's beginner against itself, each move asked both ways with the
    room's seed for the seat: the same move every time (replays stay reproducible)."""
    game = get_game("mancala")
    state = game.new_state(game.resolve_options({}), 2, 11)
    moves = 0

    async def play() -> None:
        nonlocal state, moves
        while game.outcome(state) is None:
            seat = min(game.to_move(state))
            view, legal = game.observe(state, seat), game.legal_actions(state, seat)
            here = await pool.choose("mancala", "beginner", 40 + seat, view, legal)
            loop = asyncio.get_running_loop()
            there = await loop.run_in_executor(
                pool._executor, choose, "mancala", "beginner", 40 + seat, view, legal
            )
            assert here == there
            assert here.action is not None
            state = game.apply(state, seat, here.action, 0.0)
            moves += 1

    asyncio.run(play())
    assert moves > 10
