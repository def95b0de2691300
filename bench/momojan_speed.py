"""MOMOJAN speed: hand evaluations, random playouts and each bot level's time a decision.

1. Hand evaluations a second: random hands of 7 cards (one set open) and of 4 cards (two open),
   each checked for a win with a drawn card (``complete``) and for its waits (``waits``), the
   public helpers the engine uses; the helpers' caches are cleared before each round, so the
   figure is for hands never seen before. Also the bots' ``shanten`` on the same hands.
2. Random playouts a second: whole games of one deal each (``dealerships=1``) through the game
   protocol (``legal_actions``/``apply``, uniformly random legal actions).
3. Each level's seconds a decision over whole games against the strong level, both seats:
   the median, the median of the decisions after a draw or a call, and the max (the searching
   expert's must stay under a second).

    .venv/bin/python bench/momojan_speed.py [--games 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from asobiba.games import get_game
from asobiba.games.momojan import DECK, complete, waits
from asobiba.games.momojan import hand as hand_module
from asobiba.games.momojan.bot_levels import make_bot
from asobiba.games.momojan.bots import _splits, shanten

GAME = get_game("momojan")
ROUNDS = 3


OPEN_SETS = (("dog", "dog", "dog"), ("S1", "S2", "S3"))
"""The open sets beside the random hands (``waits`` asks which cards they hold)."""
REST = sorted((Counter(DECK) - Counter(card for s in OPEN_SETS for card in s)).elements())
"""The deck less those sets' cards: the random hands are dealt from it."""


def hands(count: int, rng: random.Random) -> list[tuple[list[str], str, int]]:
    out = []
    for k in range(count):
        size, opened = (7, 1) if k % 2 == 0 else (4, 2)
        cards = rng.sample(REST, size + 1)
        out.append((cards[:size], cards[size], opened))
    return out


def clear_caches() -> None:
    for cached in (hand_module._splits, hand_module._waits, _splits):
        cached.cache_clear()


def hand_evaluations(count: int, seed: int) -> tuple[float, float]:
    """(ready checks + waits a second, bots' shanten a second), medians over rounds."""
    engine, bots = [], []
    for r in range(ROUNDS):
        sample = hands(count, random.Random(seed * 100 + r))
        clear_caches()
        started = time.perf_counter()
        for cards, drawn, opened in sample:
            complete([*cards, drawn], opened)
            waits(cards, OPEN_SETS[:opened])
        engine.append(count / (time.perf_counter() - started))
        clear_caches()
        started = time.perf_counter()
        for cards, _, opened in sample:
            shanten(cards, opened)
        bots.append(count / (time.perf_counter() - started))
    return statistics.median(engine), statistics.median(bots)


def random_playouts(games: int, seed: int) -> tuple[float, float]:
    """(games a second, rounds a second) of uniformly random legal play, one deal each."""
    rng = random.Random(seed)
    rounds = 0
    started = time.perf_counter()
    for k in range(games):
        state = GAME.new_state({"dealerships": 1}, 2, seed * 1000 + k)
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_move(state)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        rounds += len(state.results)
    spent = time.perf_counter() - started
    return games / spent, rounds / spent


def decision_times(level: str, games: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds of each of ``level``'s decisions over ``games`` games a seat against strong: all
    of them, and those after a draw or a call (what to discard, 開, draw three, riichi)."""
    times: list[float] = []
    after: list[float] = []
    for k in range(2 * games):
        mine = k % 2
        bots = [make_bot("strong", seed + k), make_bot("strong", seed + k)]
        bots[mine] = make_bot(level, seed + k)
        state = GAME.new_state({"dealerships": 1}, 2, seed * 1000 + k // 2)
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_move(state)
            obs = GAME.observe(state, seat)
            legal = GAME.legal_actions(state, seat)
            started = time.perf_counter()
            action = bots[seat].choose(obs, legal)
            if seat == mine:
                times.append(time.perf_counter() - started)
                if obs["phase"] != "start":
                    after.append(times[-1])
            state = GAME.apply(state, seat, action)
    return times, after


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games a seat for each level")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    engine, bots = hand_evaluations(4000, args.seed)
    print(f"hand evaluations (complete + waits, fresh hands): {engine:,.0f}/s")
    print(f"bots' shanten (fresh hands):                       {bots:,.0f}/s")
    games, rounds = random_playouts(100, args.seed)
    print(
        f"random playouts (protocol, one deal each): {games:,.1f} games/s, {rounds:,.1f} rounds/s"
    )
    print()
    print("| level | decisions | median s | median s after a draw | max s |")
    print("|---|---:|---:|---:|---:|")
    for level in GAME.levels:
        times, after = decision_times(level, args.games, args.seed)
        print(
            f"| {level} | {len(times)} | {statistics.median(times):.4f} "
            f"| {statistics.median(after):.4f} | {max(times):.3f} |"
        )


if __name__ == "__main__":
    main()
