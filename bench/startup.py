"""Start-up with many unfinished games: seconds from starting ``asobiba serve`` to its first
answered request.

For each ``--rooms`` count, builds an SQLite database of that many unfinished games in a
temporary directory (the four games in turn, one person against bots, each played at random
for 0 to ``--events`` events, some left in a claim or call window, as the store writes them),
then starts ``asobiba serve`` on it ``--runs`` times and times its first answer to
``GET /api/games``. Where the code has the start-up mark (``rooms.timed``, migration 0008),
each room is marked as its room would have marked it. 0 rooms is the bare start.

``--against TREE`` times another version too, in turn with this one (its own database, built by
its own code), so a busy machine slows both alike; a copy of main, for instance, with its
compiled Mancala kernel:

    git archive main | tar -x -C /tmp/main && cp asobiba/games/mancala/_kernel*.so \\
        /tmp/main/asobiba/games/mancala/
    .venv/bin/python bench/startup.py --against /tmp/main   # --rooms 0 263 3000 --runs 5
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import asobiba
from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.store.db import make_engine, migrate, session_factory
from asobiba.server.store.store import Event, Store

GAMES = [("mancala", 2), ("mokochaka", 2), ("momojan", 2), ("michikake", 3)]
MARKS = "timed" in {field.name for field in dataclasses.fields(Event)}
"""This version marks rooms waiting on their clock."""


def played(name: str, seats: int, seed: int, length: int) -> tuple[list[Event], bool]:
    """Up to ``length`` events of random legal play (timed events when the game waits on its
    clock), never the last one of the game; and whether the game then waits on its clock."""
    game = get_game(name)
    rng = random.Random(seed)
    state = game.new_state(game.resolve_options({}), seats, seed)
    at = 1_000_000.0
    events: list[Event] = []
    while len(events) < length:
        due = game.deadline(state)
        choices = [(seat, game.legal_actions(state, seat)) for seat in game.to_move(state)]
        choices = [(seat, legal) for seat, legal in choices if legal]
        if due is not None and (not choices or rng.random() < 0.3):
            after, seat, action = game.advance(state, due), None, None
            at = max(at, due)
        elif choices:
            seat, legal = rng.choice(choices)
            action = rng.choice(legal)
            at += 1.0
            after = game.apply(state, seat, action, at)
        else:
            break
        if game.outcome(after) is not None:
            break
        timed = game.deadline(after) is not None
        mark: dict[str, Any] = {"timed": timed} if MARKS else {}
        events.append(Event(f"r{seed}", len(events) + 1, seat, action, at, **mark))
        state = after
    return events, game.deadline(state) is not None


def build(path: Path, rooms: int, longest: int) -> int:
    """The database of ``rooms`` unfinished games; how many wait on their clock."""
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    store = Store(session_factory(engine))
    waiting = 0
    for seed in range(rooms):
        name, seats = GAMES[seed % len(GAMES)]
        game = get_game(name)
        options = game.resolve_options({})
        people = [{"player": f"guest-{seed}"}] + [{"bot": game.levels[0]}] * (seats - 1)
        store.create_room(f"r{seed}", name, options, rule_key(options), seed, people)
        events, timed = played(name, seats, seed, random.Random(seed).randint(0, longest))
        if events:
            store.write_events(events)
        waiting += timed
    store.close()
    engine.dispose()
    return waiting


def first_answer(tree: Path, database: Path, data: Path) -> float:
    """Seconds from starting the server of ``tree`` to its first answer; it is stopped after."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(tree), "ASOBIBA_DATA_DIR": str(data)}
    command = [sys.executable, "-m", "asobiba.cli", "serve", "--port", str(port)]
    started = time.monotonic()
    server = subprocess.Popen(
        [*command, "--database-url", f"sqlite:///{database}"],
        env={**env, "SECRET_KEY": "bench"},
        cwd=data,  # not the checkout it was started from: ``-m`` would import that one first
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while time.monotonic() - started < 300:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5):
                    return time.monotonic() - started
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("the server did not answer within 300 s")
    finally:
        server.terminate()
        server.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[0, 263, 3000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--events", type=int, default=40, help="the longest game, in events")
    parser.add_argument(
        "--against", type=Path, help="another version's tree, timed in turn with this one"
    )
    parser.add_argument("--build", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build is not None:  # asked by the parent for one tree: build, print the waiting
        print(build(args.build, args.rooms[0], args.events))
        return
    trees = [Path(asobiba.__file__).parent.parent, *([args.against] if args.against else [])]
    print("| code | unfinished rooms | waiting on their clock | first answer, s (median) | runs |")
    print("|---|---:|---:|---:|---|")
    for rooms in args.rooms:
        with tempfile.TemporaryDirectory() as directory:
            databases, waiting = [], []
            for n, tree in enumerate(trees):
                database = Path(directory) / f"bench{n}.sqlite3"
                asked = ["--build", str(database), "--rooms", str(rooms), "--events"]
                built = subprocess.run(
                    [sys.executable, __file__, *asked, str(args.events)],
                    env={**os.environ, "PYTHONPATH": str(tree)},
                    capture_output=True,
                    text=True,
                    check=True,
                )
                databases.append(database)
                waiting.append(int(built.stdout.split()[-1]))
            times: list[list[float]] = [[] for _ in trees]
            for _ in range(args.runs):  # in turn, so a busy machine slows both alike
                for n, tree in enumerate(trees):
                    times[n].append(first_answer(tree, databases[n], Path(directory)))
        for n, tree in enumerate(trees):
            runs = ", ".join(f"{seconds:.2f}" for seconds in times[n])
            median = statistics.median(times[n])
            print(f"| {tree} | {rooms:,} | {waiting[n]:,} | {median:.2f} | {runs} |")


if __name__ == "__main__":
    main()
