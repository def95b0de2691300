"""Mokochaka's round robin between bot levels (the table ``asobiba arena mokochaka`` prints),
then each level's reaction times: how long after the flip its flipper calls.

    .venv/bin/python -m bench.mokochaka_arena --players 3 --games 300 --seed 1
"""

from __future__ import annotations

import argparse
import statistics
import time

from asobiba.core import arena
from asobiba.games import get_game
from asobiba.games.mokochaka.bots import MokochakaBot, make_bot


def reaction_times(level: str, flips: int, seed: int) -> list[float]:
    """The flipper's planned seconds from the flip to its call, over random first flips."""
    game = get_game("mokochaka")
    bot = make_bot(level, seed)
    assert isinstance(bot, MokochakaBot)
    seconds = []
    for k in range(flips):
        state = game.new_state({}, 2 + k % 5, seed * 1_000_003 + k)
        state = game.apply(state, state.turn, {"flip": k % 3}, 0.0)
        seconds.append(bot.plan(game.observe(state, state.turn)).at)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="beginner,casual,strong,expert")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    levels = args.levels.split(",")
    game = get_game("mokochaka")
    print(
        f"mokochaka arena (bench/mokochaka_arena.py): levels {args.levels}, "
        f"{args.players} players, {args.games} games a lineup, seed {args.seed}",
        flush=True,
    )
    started = time.perf_counter()
    table = arena.round_robin(
        game, levels, args.games, args.seed, report=print, players=args.players
    )
    print()
    print(arena.format_table(table))
    print(f"\n{time.perf_counter() - started:.1f} s")
    print("\n| level | call after the flip: median | p10 | p90 | max |")
    print("|---|---:|---:|---:|---:|")
    for level in levels:
        seconds = sorted(reaction_times(level, 2000, args.seed))
        deciles = statistics.quantiles(seconds, n=10)
        print(
            f"| {level} | {statistics.median(seconds):.2f} s | {deciles[0]:.2f} s "
            f"| {deciles[-1]:.2f} s | {seconds[-1]:.2f} s |"
        )


if __name__ == "__main__":
    main()
