"""Review time: how long the server takes to review a finished 40-move Kalah game.

A default-Kalah game between two levels (``--levels``) is played by the server's own rooms and
bot pool from successive seeds until one lasts ``--moves`` moves (± 2), and reviewed by the
server's own ``Reviewer`` (its review pool, ``--workers`` worker processes, ``--seconds`` of
engine time per position), timed from the start until the review is stored. Prints a markdown
table: moves, seconds per position, workers, wall time, the share of moves valued exactly, and
each seat's accuracy.

    .venv/bin/python bench/review_time.py            # --seconds 0.5 --workers 1 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from asobiba.server.analysis.reviews import Reviewer
from asobiba.server.rooms.botpool import BotPool
from asobiba.server.rooms.hub import Hub
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store


async def bot_game(store: Store, levels: tuple[str, str], moves: int) -> str:
    """A default-Kalah game of about ``moves`` moves between the two levels, played by the
    server's own rooms and bot pool from successive seeds, so it is logged as any room logs it;
    returns its room id."""
    pool = BotPool(1)
    hub = Hub(store, pool.choose)
    try:
        for seed in range(1000):
            seats: list[dict[str, Any]] = [{"bot": level} for level in levels]
            room = await hub.create("mancala", {}, seats, seed)
            brief = None
            while brief is None or not brief.finished:
                await asyncio.sleep(0.05)
                brief = await asyncio.to_thread(store.room_brief, room.id)
            stored = await asyncio.to_thread(store.load_room, room.id)
            assert stored is not None
            if abs(len(stored.events) - moves) <= 2:
                return room.id
        raise SystemExit(f"no game of about {moves} moves in 1000 seeds")
    finally:
        await hub.close()
        pool.close()


async def review(store: Store, room_id: str, seconds: float, workers: int) -> float:
    """Wall-clock seconds from the start of the review until it is stored."""
    reviewer = Reviewer(store, seconds, workers)
    try:
        stored = store.load_room(room_id)
        assert stored is not None
        began = time.perf_counter()
        reviewer.start(stored)
        while reviewer.job(room_id) is not None:
            await asyncio.sleep(0.05)
        return time.perf_counter() - began
    finally:
        await reviewer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="engine time per position")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--levels", default="casual,strong")
    args = parser.parse_args()
    a, b = args.levels.split(",")
    levels = (a, b)
    with tempfile.TemporaryDirectory() as directory:
        engine = make_engine(f"sqlite:///{Path(directory) / 'bench.sqlite3'}")
        migrate(engine)
        store = Store(session_factory(engine))
        room_id = asyncio.run(bot_game(store, levels, args.moves))
        wall = asyncio.run(review(store, room_id, args.seconds, args.workers))
        done = store.load_review(room_id)
        stored = store.load_room(room_id)
        assert done is not None and stored is not None, "the review failed; see the log"
        engine.dispose()
    exact = sum(move["exact"] for move in done.moves) / len(done.moves)
    accuracy = " / ".join(f"{p['accuracy']:.0%}" for p in done.players)
    print(
        f"| moves | s per position | workers | review wall time | exact | accuracy "
        f"({a} / {b}) |\n|---|---|---|---|---|---|\n"
        f"| {len(stored.events)} (seed {stored.seed}) | {args.seconds:g} | {args.workers} "
        f"| {wall:.1f} s | {exact:.0%} | {accuracy} |"
    )


if __name__ == "__main__":
    main()
