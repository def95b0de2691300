"""Bot moves and hints are computed in worker processes, so a thinking engine never stalls the
event loop; only a level whose every decision is known to be quick is asked in the loop."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from asobiba.core.bots import Timed, decide
from asobiba.core.game import slowest_of
from asobiba.games import get_game
from asobiba.server.analysis.hints import Hint, work_out
from asobiba.server.metrics import BOT_DECISION_SECONDS

INLINE_SECONDS = 0.002
"""A level whose slowest measured decision (``core.game.slowest_of``) is at most this is asked
in the event loop: its typical decision (Mancala's beginner: 0.05 ms) costs the loop less than
handing it to a worker does (pickling, two pipes, the pool's threads waking and the loop's own
wake-up), and its worst case holds the loop no longer than a garbage collection. Every other
level, and any game that does not say, thinks in a worker."""


def choose(
    game: str, level: str, seed: int, observation: dict[str, Any], legal: list[dict[str, Any]]
) -> Timed:
    """Runs in a worker: a fresh bot per move, seeded by the room, so replays are reproducible."""
    return decide(get_game(game).make_bot(level, seed), observation, legal)


def exit_with(server_pid: int) -> None:
    """Worker initializer: end this worker when the server process ends, however it ended.

    A worker's parent is the forkserver, not the server, and a server killed with SIGKILL runs
    no shutdown code, so without this the workers would wait for work forever; and since each
    worker holds the forkserver's and the resource tracker's pipes, those would stay too.
    """

    def watch() -> None:
        if hasattr(os, "pidfd_open"):  # Linux: told by the kernel the moment the server ends
            with contextlib.suppress(ProcessLookupError):  # already gone
                select.select([os.pidfd_open(server_pid)], [], [])
        else:
            while _running(server_pid):
                time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-server", daemon=True).start()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for engine work (bots, reviews) that end with the server."""
    # forkserver: forking the multi-threaded server process itself is not safe.
    context = multiprocessing.get_context("forkserver")
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=exit_with, initargs=(os.getpid(),)
    )


class BotPool:
    """Bots' moves in ``workers`` processes, hints in one of their own: a hint (a second of
    engine time) must never hold up a bot, whose move would then show when the queue frees up
    instead of at its pace."""

    def __init__(self, workers: int) -> None:
        self._executor = worker_pool(workers)
        self._hints = worker_pool(1)
        self._quick: dict[tuple[str, str], bool] = {}

    async def choose(
        self,
        game: str,
        level: str,
        seed: int,
        observation: dict[str, Any],
        legal: list[dict[str, Any]],
    ) -> Timed:
        """A bot's decision; its time, waiting for a worker included, is
        ``asobiba_bot_decision_seconds``."""
        started = time.perf_counter()
        if self.quick(game, level):
            answer = choose(game, level, seed, observation, legal)
        else:
            loop = asyncio.get_running_loop()
            answer = await loop.run_in_executor(
                self._executor, choose, game, level, seed, observation, legal
            )
        BOT_DECISION_SECONDS.labels(game, level).observe(time.perf_counter() - started)
        return answer

    def quick(self, game: str, level: str) -> bool:
        """Whether ``game``'s bot of ``level`` is asked in the loop (``INLINE_SECONDS``)."""
        key = game, level
        if key not in self._quick:
            slowest = slowest_of(get_game(game), level)
            self._quick[key] = slowest is not None and slowest <= INLINE_SECONDS
        return self._quick[key]

    async def hint(self, game: str, state: Any, seat: int, seconds: float) -> Hint:
        """A hint for ``seat``, worked out by a worker like a bot's move (``hints.work_out``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hints, work_out, game, state, seat, seconds)

    def close(self) -> None:
        """Stop both pools (blocks: call it off the event loop)."""
        for executor in (self._executor, self._hints):
            stop_pool(executor)


def stop_pool(executor: ProcessPoolExecutor) -> None:
    """Drop the work still waiting and wait for what runs (a bot's move, a hint or a review's
    position: a second or so) and for the pool's own threads. A pool left running at exit holds
    its queues' semaphores, and the resource tracker reports them leaked when the process ends
    without running its exit handlers (as a death by a signal does)."""
    executor.shutdown(wait=True, cancel_futures=True)
