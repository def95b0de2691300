"""Card review time: how long the server takes to review a whole MOMOJAN match and a whole
MICHIKAKE session of one person against the computer.

Each game is played engine-side by the strong level at every seat (seat 0 stands for the
person) from successive seeds and logged as a room logs it, then reviewed by the server's own
``Reviewer`` (its review pool, ``--workers`` worker processes, each game's own engine time per
decision, ``[review] seconds`` in its data.toml, capped by ``--seconds`` as
ASOBIBA_REVIEW_SECONDS caps it), timed from the start until the review is stored. One Reviewer
serves every game, as the server keeps its pool: the first review also starts the pool's
processes (the slowest figure of the first table shows it). Prints a markdown table per game and
number of players: decisions valued, the median and the slowest wall time over ``--games``
games, and the person's median accuracy. The target: 10 s at most.

    .venv/bin/python bench/card_review.py            # --games 3 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from asobiba.core.game import first_state
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.analysis.reviews import Reviewer
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.records import results_for
from asobiba.server.store.store import Finish, Store

TABLES = (("momojan", 2), ("michikake", 3), ("michikake", 4))


def logged_game(store: Store, room_id: str, game_name: str, seats: int, seed: int) -> None:
    """A whole game (the site's rules: two dealerships, the full pile) with a person at seat 0
    and computers at the others, every seat played by the strong level (quick to play; the
    review's cost depends on the decisions, not on who made them), logged event by event."""
    game = get_game(game_name)
    options = game.resolve_options({})
    specs: list[dict[str, Any]] = [{"player": "p"}, *({"bot": "expert"} for _ in range(seats - 1))]
    store.ensure_player("p")
    store.create_room(room_id, game_name, options, rule_key(options), seed, specs)
    state = first_state(game, options, seats, seed, 1)
    bots = [game.make_bot("strong", seed * 10 + s) for s in range(seats)]
    seq = 0
    while game.outcome(state) is None:
        seat = min(game.to_move(state))
        action = bots[seat].choose(game.observe(state, seat), game.legal_actions(state, seat))
        state = game.apply(state, seat, action, float(seq))
        outcome = game.outcome(state)
        finish = None
        if outcome is not None:
            finish = Finish(outcome, results_for(room_id, game, options, specs, outcome))
        store.append_event(room_id, seq, seat, action, float(seq), finish=finish)
        seq += 1


async def review(reviewer: Reviewer, store: Store, room_id: str) -> float:
    """Wall-clock seconds from the start of the review until it is stored."""
    stored = store.load_room(room_id)
    assert stored is not None
    began = time.perf_counter()
    reviewer.start(stored)
    while reviewer.job(room_id) is not None:
        await asyncio.sleep(0.02)
    return time.perf_counter() - began


async def review_all(store: Store, rooms: list[str], seconds: float, workers: int) -> list[float]:
    """Each game's review time, one after another through one Reviewer."""
    reviewer = Reviewer(store, seconds, workers)
    try:
        return [await review(reviewer, store, room_id) for room_id in rooms]
    finally:
        await reviewer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per game and player count")
    parser.add_argument("--workers", type=int, default=2, help="review worker processes")
    parser.add_argument("--seconds", type=float, default=0.5, help="the server's cap per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        "| game | players | s per decision | workers | decisions (median) "
        "| review wall time, median / slowest | accuracy (median) |\n|---|---|---|---|---|---|---|"
    )
    with tempfile.TemporaryDirectory() as directory:
        engine = make_engine(f"sqlite:///{Path(directory) / 'bench.sqlite3'}")
        migrate(engine)
        store = Store(session_factory(engine))
        rooms = {
            table: [f"{table[0]}-{table[1]}-{k}" for k in range(args.games)] for table in TABLES
        }
        for (game_name, seats), ids in rooms.items():
            for k, room_id in enumerate(ids):
                logged_game(store, room_id, game_name, seats, args.seed + k)
        every = [room_id for ids in rooms.values() for room_id in ids]
        timed = asyncio.run(review_all(store, every, args.seconds, args.workers))
        walls = dict(zip(every, timed, strict=True))
        for (game_name, seats), ids in rooms.items():
            done = [store.load_review(room_id) for room_id in ids]
            assert all(done), "a review failed; see the log"
            counts = [len(d.moves) for d in done if d]
            accuracies = [d.players[0]["accuracy"] or 0.0 for d in done if d]
            times = [walls[room_id] for room_id in ids]
            per_decision = done[0].seconds if done[0] else 0.0
            print(
                f"| {game_name} | {seats} | {per_decision:g} | {args.workers} "
                f"| {statistics.median(counts):g} "
                f"| {statistics.median(times):.1f} s / {max(times):.1f} s "
                f"| {statistics.median(accuracies):.0%} |",
                flush=True,
            )
        engine.dispose()


if __name__ == "__main__":
    main()
