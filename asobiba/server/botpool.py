"""Bot moves are computed in worker processes so a thinking bot never stalls the event loop."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from asobiba.games import get_game


def choose(
    game: str, level: str, seed: int, observation: dict[str, Any], legal: list[dict[str, Any]]
) -> dict[str, Any]:
    """Runs in a worker: a fresh bot per move, seeded by the room, so replays are reproducible."""
    return get_game(game).make_bot(level, seed).choose(observation, legal)


class BotPool:
    def __init__(self, workers: int) -> None:
        # forkserver: forking the multi-threaded server process itself is not safe.
        context = multiprocessing.get_context("forkserver")
        self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    async def choose(
        self,
        game: str,
        level: str,
        seed: int,
        observation: dict[str, Any],
        legal: list[dict[str, Any]],
    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._executor, choose, game, level, seed, observation, legal
        )

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
