"""Real-time referee: how late the server's timers fire and what a person's action costs,
with many Mokochaka rooms playing at once in one process.

Each room seats one "person" (driven by this bench as a socket would: it acts at a random
moment of its turn, or says nothing so the 3-second call timer has to fire) and bots that
answer after a human-like pause or pass. The rooms run in a real Hub with the real SQLite store,
so every event is written before it is shown, as on the site. The bots' choices are made in
this process (their thinking is not what is measured here).

Printed, from the stored logs and the person's calls:
- timer lateness: for every timed event, its logged time minus the deadline it served
  (``game.deadline`` of the state before it), p50 / p99 / max, and how many fired;
- referee latency: how long ``Room.act`` takes for the person's actions (validate, log, send),
  p50 / p99.

    .venv/bin/python bench/realtime.py            # --rooms 50 --seconds 30 --players 3
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from asobiba.core.bots import Timed
from asobiba.core.errors import GameError
from asobiba.games import get_game
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.hub import Hub
from asobiba.server.rooms.recovery import states
from asobiba.server.rooms.room import Room
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Store

PERSON = "bench-person"


async def bot(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
    """Acts after 0.3-2.5 s, or passes one time in three (then a timer must settle things)."""
    rng = random.Random(seed)
    if rng.random() < 1 / 3:
        return Timed(None)
    return Timed(rng.choice(legal), rng.uniform(0.3, 2.5))


async def person(room: Room, rng: random.Random, until: float, costs: list[float]) -> None:
    """Acts like a player at the table: on its turn, after a pause, or not at all."""
    while time.time() < until and not room.over:
        legal = room.game.legal_actions(room.state, 0)
        if not legal or rng.random() < 0.3:
            await asyncio.sleep(0.25)
            continue
        await asyncio.sleep(rng.uniform(0.2, 2.0))
        legal = room.game.legal_actions(room.state, 0)
        if not legal:
            continue
        started = time.perf_counter()
        try:
            await room.act(0, rng.choice(legal), time.time())
        except (GameError, RoomError):
            continue  # the state moved on meanwhile: a real client gets an error too
        costs.append(time.perf_counter() - started)


def lateness(store: Store, room_ids: list[str]) -> list[float]:
    """Seconds between each timed event's deadline and the moment it was logged."""
    game = get_game("mokochaka")
    late = []
    for room_id in room_ids:
        stored = store.load_room(room_id)
        assert stored is not None
        for before, (_, action, at) in zip(states(game, stored), stored.events, strict=False):
            if action is None:
                due = game.deadline(before)
                assert due is not None
                late.append(at - due)
    return late


async def run(rooms: int, seconds: float, players: int, seed: int, data: Path) -> None:
    engine = make_engine(f"sqlite:///{data / 'bench.sqlite3'}")
    migrate(engine)
    store = Store(session_factory(engine))
    store.ensure_player(PERSON)
    hub = Hub(store, bot)
    rng = random.Random(seed)
    until = time.time() + seconds
    seats = [{"player": PERSON}] + [{"bot": "random"}] * (players - 1)
    costs: list[float] = []
    made: list[str] = []

    async def table(k: int) -> None:
        while time.time() < until:
            room = await hub.create("mokochaka", {}, seats, rng.randrange(2**31))
            made.append(room.id)
            await person(room, random.Random(f"{seed}:{k}:{room.id}"), until, costs)

    await asyncio.gather(*(table(k) for k in range(rooms)))
    await hub.close()
    late = sorted(lateness(store, made))
    engine.dispose()
    print(f"| measure ({rooms} Mokochaka rooms of {players} at once, {seconds:.0f} s) | figure |")
    print("|---|---:|")
    print(f"| games started | {len(made)} |")
    if late:
        p99 = late[min(len(late) - 1, int(0.99 * len(late)))]
        figures = f"{statistics.median(late) * 1000:.1f} / {p99 * 1000:.1f} / {late[-1] * 1000:.1f}"
        print(f"| timed events fired | {len(late)} |")
        print(f"| timer lateness p50 / p99 / max (ms; target p99 < 20) | {figures} |")
    if costs:
        costs.sort()
        p99 = costs[min(len(costs) - 1, int(0.99 * len(costs)))]
        print(f"| person's actions | {len(costs)} |")
        print(
            f"| referee latency per action p50 / p99 (ms) | "
            f"{statistics.median(costs) * 1000:.1f} / {p99 * 1000:.1f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        asyncio.run(run(args.rooms, args.seconds, args.players, args.seed, Path(data)))


if __name__ == "__main__":
    main()
