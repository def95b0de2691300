"""Time to analyse every position of a 40-move default-Kalah game, as the post-game review does.

The review calls ``game.analyse(state, seconds)`` once per position. One game between two levels
(casual in seat 0, the expert on a fixed node budget in seat 1, so the game is the same on every
machine; the first seed from ``--seed`` whose game lasts 40 moves) is replayed, its first 40
moves analysed with each ``--seconds``: we print the total and
worst time, and how many positions got exact values for every move.

    .venv/bin/python bench/mancala_review_time.py --seconds 0.25,0.5,1
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from asobiba.games import get_game
from asobiba.games.mancala import endgame
from asobiba.games.mancala.board import Rules
from asobiba.games.mancala.bots import make_bot

MOVES = 40


def game_states(seed: int) -> list[Any]:
    """The first ``MOVES`` positions of the first game from ``seed`` on that lasts as long."""
    while len(states := one_game(seed)) < MOVES:
        seed += 1
    return states


def one_game(seed: int) -> list[Any]:
    game = get_game("mancala")
    state = game.new_state({}, 2, seed)
    bots = [make_bot("casual", seed), make_bot("expert", seed, nodes=300_000, time=0.0)]
    states: list[Any] = []
    while game.outcome(state) is None and len(states) < MOVES:
        states.append(state)
        (seat,) = game.to_move(state)
        action = bots[seat].choose(game.observe(state, seat), game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", default="0.25,0.5,1")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    game: Any = get_game("mancala")
    started = time.perf_counter()
    endgame.ensure(Rules())  # built once per data directory; not part of a review's time
    print(f"endgame table ready in {time.perf_counter() - started:.1f} s")
    states = game_states(args.seed)
    print(f"{len(states)} positions (a {len(states)}-move game)")
    print()
    print("| seconds per position | review total | slowest position | all moves exact |")
    print("|---:|---:|---:|---:|")
    for seconds in (float(x) for x in args.seconds.split(",")):
        times = []
        exact = 0
        for state in states:
            t = time.perf_counter()
            analysis = game.analyse(state, seconds)
            times.append(time.perf_counter() - t)
            exact += all(move.exact for move in analysis.moves)
        print(
            f"| {seconds} | {sum(times):.1f} s | {max(times):.2f} s | {exact}/{len(states)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
