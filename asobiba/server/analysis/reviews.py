"""Reviews of finished games: every move valued against the best one by the game's engine.

The engine's work runs in the review pool's own worker processes, never on the event loop and
never in the bots' pool, so a review cannot make a bot late. One job per game at a time (a
second request joins it), at most a few jobs at once, and a finished review is stored and
reused: each game is reviewed once.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import GRADE_KEYS, Analysis, Game, MoveValue, grade, grades_of
from asobiba.games import get_game
from asobiba.server.rooms.botpool import stop_pool, worker_pool
from asobiba.server.rooms.recovery import states
from asobiba.server.store.store import Store, StoredRoom

log = logging.getLogger(__name__)


def moves_of(stored: StoredRoom) -> list[int]:
    """The indices of the stored events that are moves (a timed event is nobody's move)."""
    return [k for k, (seat, action, _) in enumerate(stored.events) if action is not None]


def review_move(stored: StoredRoom, k: int, seconds: float) -> dict[str, Any] | None:
    """Runs in a review worker: the ``k``-th event's move against the best move of the position
    it was made in. None when the engine values another seat's moves there (a game where
    several seats may act at once)."""
    game: Any = get_game(stored.game)  # one that ``reviews``: it has analyse and explain
    state = next(itertools.islice(states(game, stored), k, None))
    seat, action, _ = stored.events[k]
    assert seat is not None and action is not None, "only moves are reviewed"
    analysis = game.analyse(state, seconds)
    if analysis.seat != seat:
        return None
    played = _played(game, state, analysis, seat, action)
    loss = max(0.0, analysis.best.value - played.value)
    best = played if loss == 0 else analysis.best  # a move as good as the best one is a best move
    return {
        "event": k + 1,
        "seat": seat,
        "played": played.action,
        "best": best.action,
        "value": played.value,
        "best_value": best.value,
        "loss": loss,
        "grade": grade(grades_of(game, stored.options), loss),
        "exact": played.exact and best.exact,
        "why": game.explain(state, best.action),
    }


def _played(game: Game[Any], state: Any, analysis: Analysis, seat: int, action: Any) -> MoveValue:
    """The analysed move the log's ``action`` is. The log keeps an action as it was sent, and a
    game may accept more than one spelling of a legal move, so an unmatched one is found by the
    position it leads to."""
    try:
        return analysis.value_of(action)
    except IllegalAction:
        after = game.observe(game.apply(state, seat, action), None)
        return next(
            move
            for move in analysis.moves
            if game.observe(game.apply(state, seat, move.action), None) == after
        )


def summarize(moves: list[dict[str, Any]], seats: int) -> list[dict[str, Any]]:
    """Per seat: moves reviewed, how many fell in each class, and the accuracy, the share of
    best moves (None for a seat that made no reviewed move)."""
    players = []
    for seat in range(seats):
        own = [move["grade"] for move in moves if move["seat"] == seat]
        counts = {key: own.count(key) for key in GRADE_KEYS}
        accuracy = round(counts["best"] / len(own), 4) if own else None
        players.append({"seat": seat, "moves": len(own), "grades": counts, "accuracy": accuracy})
    return players


class ReviewBusy(Exception):
    """Too many reviews are running; the request changes nothing and may be made again."""


@dataclass
class Job:
    total: int
    seats: int
    done: int = 0
    error: str | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    """The moves valued so far from the start of the game on, in order: the review's first
    part, which a page draws while the rest is being valued."""

    def to_json(self) -> dict[str, Any]:
        state = "running" if self.error is None else "failed"
        return {
            "state": state,
            "done": self.done,
            "total": self.total,
            "error": self.error,
            "moves": self.moves,
            "players": summarize(self.moves, self.seats),
        }


class Reviewer:
    """The running review jobs and the pool they run in."""

    def __init__(
        self, store: Store, seconds: float, workers: int = 1, most_running: int = 4
    ) -> None:
        self.store = store
        self.seconds = seconds
        """The engine's time per position."""
        self.most_running = most_running
        self.workers = workers
        self._pool = worker_pool(workers)
        self._jobs: dict[str, Job] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def job(self, room_id: str) -> Job | None:
        """The game's running (or failed) job; None when none runs, then the store tells."""
        return self._jobs.get(room_id)

    def start(self, stored: StoredRoom) -> Job:
        """Start reviewing a finished game, or join the job already running for it. Never
        awaits, so two requests for the same game cannot both start one."""
        job = self._jobs.get(stored.id)
        if job is not None and job.error is None:
            return job
        running = sum(1 for other in self._jobs.values() if other.error is None)
        if running >= self.most_running:
            raise ReviewBusy(f"{running} reviews are running; ask again in a minute")
        job = Job(total=len(moves_of(stored)), seats=len(stored.seats))
        self._jobs[stored.id] = job
        task = asyncio.create_task(self._run(stored, job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(self, stored: StoredRoom, job: Job) -> None:
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[dict[str, Any] | None]] = []

        async def settle(most: int) -> None:
            """Wait until at most ``most`` of this job's positions are still being valued; the
            job shows each one valued, and the moves valued from the start on."""
            while (running := [f for f in futures if not f.done()]) and len(running) > most:
                await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            job.done = sum(f.done() for f in futures)
            valued = itertools.takewhile(asyncio.Future.done, futures)
            job.moves = [move for future in valued if (move := future.result()) is not None]

        try:
            if await asyncio.to_thread(self.store.load_review, stored.id) is None:
                # A job keeps no more positions in the pool than it has workers, so jobs that
                # run at once take turns instead of the last one waiting for all the others.
                for k in moves_of(stored):
                    await settle(self.workers - 1)
                    futures.append(
                        loop.run_in_executor(self._pool, review_move, stored, k, self.seconds)
                    )
                await settle(0)
                players = summarize(job.moves, job.seats)
                await asyncio.to_thread(
                    self.store.save_review, stored.id, self.seconds, job.moves, players
                )
            del self._jobs[stored.id]  # from now on the store has it
        except Exception as error:  # a bug in a game's engine: say so, keep serving
            log.exception("review of room %s failed", stored.id)
            job.error = str(error) or type(error).__name__
            for future in futures:
                future.cancel()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await asyncio.to_thread(stop_pool, self._pool)
