"""Review time: how long the server takes to review a finished 40-move Kalah game.

A default-Kalah game between two levels (``--levels``) is played from successive seeds until one
lasts ``--moves`` moves (± 2), stored as a room logs it, and reviewed by the server's own
``Reviewer`` (its review pool, ``--workers`` worker processes, ``--seconds`` of engine time per
position), timed from the start until the review is stored. Prints a markdown table: moves,
seconds per position, workers, wall time, the share of moves valued exactly, and each seat's
accuracy.

    .venv/bin/python bench/review_time.py            # --seconds 1.0 --workers 1 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from asobiba.core.options import rule_key
from asobiba.games import get_game
from asobiba.server.db import make_engine, migrate, session_factory
from asobiba.server.records import results_for
from asobiba.server.reviews import Reviewer
from asobiba.server.store import Finish, Store


def play(levels: tuple[str, str], seed: int) -> tuple[list[tuple[int, dict[str, Any]]], Any]:
    """One default-Kalah game between the two levels: the moves and the final state."""
    game = get_game("mancala")
    state = game.new_state({}, 2, seed)
    bots = [game.make_bot(level, seed * 2 + seat) for seat, level in enumerate(levels)]
    moves = []
    while game.outcome(state) is None:
        [seat] = game.to_move(state)
        action = bots[seat].choose(game.observe(state, seat), game.legal_actions(state, seat))
        moves.append((seat, action))
        state = game.apply(state, seat, action)
    return moves, state


def store_game(store: Store, room_id: str, levels: tuple[str, str], moves: list[Any]) -> None:
    game = get_game("mancala")
    options = game.resolve_options({})
    seats: list[dict[str, Any]] = [{"bot": level} for level in levels]
    store.create_room(room_id, "mancala", options, rule_key(options), 0, seats)
    state = game.new_state(options, 2, 0)
    for seq, (seat, action) in enumerate(moves):
        state = game.apply(state, seat, action)
        outcome = game.outcome(state)
        finish = None
        if outcome is not None:
            finish = Finish(outcome, results_for(room_id, game, options, seats, outcome))
        store.append_event(room_id, seq, seat, action, float(seq), finish=finish)


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
    parser.add_argument("--seconds", type=float, default=1.0, help="engine time per position")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--levels", default="casual,strong")
    args = parser.parse_args()
    a, b = args.levels.split(",")
    levels = (a, b)
    for seed in range(1000):
        moves, _ = play(levels, seed)
        if abs(len(moves) - args.moves) <= 2:
            break
    else:
        raise SystemExit(f"no game of about {args.moves} moves in 1000 seeds")
    with tempfile.TemporaryDirectory() as directory:
        engine = make_engine(f"sqlite:///{Path(directory) / 'bench.sqlite3'}")
        migrate(engine)
        store = Store(session_factory(engine))
        store_game(store, "bench", levels, moves)
        wall = asyncio.run(review(store, "bench", args.seconds, args.workers))
        done = store.load_review("bench")
        assert done is not None, "the review failed; see the log"
        engine.dispose()
    exact = sum(move["exact"] for move in done.moves) / len(done.moves)
    accuracy = " / ".join(f"{p['accuracy']:.0%}" for p in done.players)
    print(
        f"| moves | s per position | workers | review wall time | exact | accuracy "
        f"({a} / {b}) |\n|---|---|---|---|---|---|\n"
        f"| {len(moves)} (seed {seed}) | {args.seconds:g} | {args.workers} | {wall:.1f} s "
        f"| {exact:.0%} | {accuracy} |"
    )


if __name__ == "__main__":
    main()
