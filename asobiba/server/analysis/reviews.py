"""Reviews of finished games: every decision of the people who played valued against the best
one by the game's engine.

The engine's work runs in the review pool's own worker processes, never on the event loop and
never in the bots' pool, so a review cannot make a bot late. One job per game at a time (a
second request joins it), at most a few jobs at once, and a finished review is stored and
reused: each game is reviewed once.

A decision is a move a person made (a bot's moves, a stand-in's included, are the engine's own;
a game between bots has every seat's) with more than one choice (``core.game.choices``): a
forced move, or MOMOJAN's draw from one pile rather than another, teaches nothing. The log is
replayed once, off the event loop, and each decision's position goes to a worker with the seat
that decided, so a claim window where several seats answer at once values each answer from its
own seat's view.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from typing import Any

from asobiba.core.errors import IllegalAction
from asobiba.core.game import (
    GRADE_KEYS,
    Action,
    Analysis,
    Game,
    MoveValue,
    analysis_of,
    choices,
    explanation,
    grade,
    grades_of,
    review_seconds,
)
from asobiba.games import get_game
from asobiba.server.rooms.botpool import stop_pool, worker_pool
from asobiba.server.rooms.recovery import states
from asobiba.server.store.store import Store, StoredRoom

log = logging.getLogger(__name__)

COSTLIEST = 3
"""How many of a player's costliest decisions the summary names."""


def moves_of(stored: StoredRoom) -> list[int]:
    """The indices of the stored events that are moves (a timed event is nobody's move)."""
    return [k for k, (seat, action, _) in enumerate(stored.events) if action is not None]


@dataclass(frozen=True)
class Decision:
    """One decision to value: the position before the ``event``-th event, who made it and
    what they played."""

    event: int
    """Events applied after it (the replay's ``frame_events`` count them the same way)."""
    seat: int
    action: Action
    state: Any


def decisions(stored: StoredRoom) -> list[Decision]:
    """The decisions a review values, in order (module docstring); replays the log once."""
    game = get_game(stored.game)
    people = {seat for seat, spec in enumerate(stored.seats) if "bot" not in spec}
    reviewed = people or set(range(len(stored.seats)))
    found = []
    # ``states`` gives the start and then one state per event: each event meets the one before.
    before = zip(stored.events, states(game, stored), strict=False)
    for k, ((seat, action, _), state) in enumerate(before):
        stood_in = k < len(stored.standins) and stored.standins[k] is not None
        if action is None or seat not in reviewed or (people and stood_in):
            continue
        if len(choices(game, state, seat)) > 1:
            found.append(Decision(k + 1, seat, action, state))
    return found


def review_move(
    game_name: str, options: dict[str, Any], decision: Decision, seconds: float
) -> dict[str, Any]:
    """Runs in a review worker: the decision's move against the best move of its position,
    both valued from the deciding seat's side."""
    game: Any = get_game(game_name)  # one that ``reviews``: it has analyse and explain
    state, seat = decision.state, decision.seat
    analysis = analysis_of(game, state, seconds, seat)
    played = _played(game, state, analysis, seat, decision.action)
    loss = max(0.0, analysis.best.value - played.value)
    best = played if loss == 0 else analysis.best  # a move as good as the best one is a best move
    return {
        "event": decision.event,
        "seat": seat,
        "played": played.action,
        "best": best.action,
        "value": played.value,
        "best_value": best.value,
        "loss": loss,
        "grade": grade(grades_of(game, options), loss),
        "exact": played.exact and best.exact,
        "why": explanation(game, state, best.action, seat),
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
    """Per seat: decisions reviewed, how many fell in each class, the accuracy (the share of
    best moves; None for a seat with no reviewed decision) and its ``costliest`` few decisions
    (their ``event``, the costliest first; none that lost nothing)."""
    players = []
    for seat in range(seats):
        own = [move for move in moves if move["seat"] == seat]
        counts = {key: sum(move["grade"] == key for move in own) for key in GRADE_KEYS}
        accuracy = round(counts["best"] / len(own), 4) if own else None
        costly = sorted((m for m in own if m["loss"] > 0), key=lambda m: (-m["loss"], m["event"]))
        players.append(
            {
                "seat": seat,
                "moves": len(own),
                "grades": counts,
                "accuracy": accuracy,
                "costliest": [move["event"] for move in costly[:COSTLIEST]],
            }
        )
    return players


class ReviewBusy(Exception):
    """Too many reviews are running; the request changes nothing and may be made again."""


@dataclass
class Job:
    total: int
    """Decisions to value: at first every move of the log, then (once the log is replayed)
    the decisions the review values (``decisions``)."""
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

    def seconds_for(self, stored: StoredRoom) -> float:
        """The engine's time per decision of this game (``core.game.review_seconds``)."""
        return review_seconds(get_game(stored.game), stored.options, self.seconds)

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
        futures: list[asyncio.Future[dict[str, Any]]] = []

        async def settle(most: int) -> None:
            """Wait until at most ``most`` of this job's decisions are still being valued; the
            job shows each one valued, and the decisions valued from the start on."""
            while (running := [f for f in futures if not f.done()]) and len(running) > most:
                await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            job.done = sum(f.done() for f in futures)
            valued = itertools.takewhile(asyncio.Future.done, futures)
            job.moves = [future.result() for future in valued]

        try:
            if await asyncio.to_thread(self.store.load_review, stored.id) is None:
                seconds = self.seconds_for(stored)
                found = await asyncio.to_thread(decisions, stored)
                job.total = len(found)
                # A job keeps no more decisions in the pool than it has workers, so jobs that
                # run at once take turns instead of the last one waiting for all the others.
                for decision in found:
                    await settle(self.workers - 1)
                    futures.append(
                        loop.run_in_executor(
                            self._pool, review_move, stored.game, stored.options, decision, seconds
                        )
                    )
                await settle(0)
                players = summarize(job.moves, job.seats)
                await asyncio.to_thread(
                    self.store.save_review, stored.id, seconds, job.moves, players
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
