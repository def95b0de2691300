"""MICHIKAKE speed: hand evaluations a second, random playouts a second, each level's pace.

- Hand evaluations: ``hand_points`` (the rules' scoring of a winning six, best split) and
  ``waits`` (the bots' cached "which cards complete these five"; uncached and cached) on random
  hands.
- Random playouts: whole deals through the game protocol (uniformly random legal actions, every
  claim window answered), and the expert's rollouts (``Sim``: a deal from a sampled state to its
  end, the greedy policy at every seat).
- Decision times: every level at a 4-seat table (one of each level) for whole sessions; the
  median and max of each level's discard decisions and claim answers. The expert must stay
  under a second.

    .venv/bin/python bench/michikake_speed.py [--sessions 2] [--players 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from asobiba.core.arena import play
from asobiba.core.rng import stream
from asobiba.games import get_game
from asobiba.games.michikake import deck, hand_points
from asobiba.games.michikake.bots import CODE, Sim, make_bot, waits
from asobiba.games.michikake.data import LEVELS
from asobiba.games.michikake.sample import sample_state

GAME = get_game("michikake")


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:,.0f}/s"


def hand_evaluations(rng: random.Random) -> None:
    cards = deck(4)
    kinds = sorted(set(cards))
    winning: list[list[str]] = []
    while len(winning) < 2000:
        triplet = [rng.choice(kinds)] * 3
        suit, stage = rng.choice("CWRH"), rng.randint(1, 7)
        run = [f"{suit}{stage + i}" for i in range(3)]
        if triplet[0] not in run:
            winning.append(triplet + run)
    started = time.perf_counter()
    for six in winning:
        hand_points(six, "C")
    print(f"hand_points on winning sixes: {rate(len(winning), time.perf_counter() - started)}")
    fives = [tuple(sorted(CODE[c] for c in rng.sample(cards, 5))) for _ in range(20_000)]
    waits.cache_clear()
    started = time.perf_counter()
    for five in fives:
        waits(five)
    print(f"waits on random fives, uncached: {rate(len(fives), time.perf_counter() - started)}")
    started = time.perf_counter()
    for five in fives:
        waits(five)
    print(f"waits on random fives, cached: {rate(len(fives), time.perf_counter() - started)}")


def protocol_playouts(count: int, rng: random.Random) -> None:
    """Random deals through the game protocol: ``short_pile`` 0, stopped at the deal's end."""
    started = time.perf_counter()
    actions = 0
    for k in range(count):
        state = GAME.new_state({}, 4, k)
        while not state.results:
            movers = sorted(GAME.to_move(state))
            seat = movers[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            actions += 1
    seconds = time.perf_counter() - started
    print(
        f"random deals through the protocol: {rate(count, seconds)} "
        f"({rate(actions, seconds)} actions)"
    )


def rollouts(count: int, rng: random.Random) -> None:
    """The expert's rollouts from sampled states early in a deal (caches warm after the first)."""
    state = GAME.new_state({}, 4, 1)
    seat = state.turn
    obs = GAME.observe(state, seat)
    sims = [Sim.from_state(sample_state(obs, rng)) for _ in range(count)]
    codes = sorted({CODE[c] for c in state.hands[seat]})
    started = time.perf_counter()
    for k, sim in enumerate(sims):
        sim.copy().play_discard(seat, codes[k % len(codes)], stream(k, "bot/michikake/rollout"))
    print(f"expert rollouts (a deal to its end): {rate(count, time.perf_counter() - started)}")


class Clocked:
    """A bot that keeps its own decision times, discards and claim answers apart."""

    def __init__(self, level: str, seed: int) -> None:
        self.bot = make_bot(level, seed)
        self.discards: list[float] = []
        self.claims: list[float] = []

    def choose(self, observation: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        started = time.perf_counter()
        action = self.bot.choose(observation, legal)
        spent = time.perf_counter() - started
        (self.claims if observation["phase"] == "claim" else self.discards).append(spent)
        return action


def decision_times(sessions: int, players: int) -> None:
    levels = [level.id for level in LEVELS]
    clocked: dict[str, list[Clocked]] = {level: [] for level in levels}
    for k in range(sessions):
        seating = (levels * 2)[k % len(levels) : k % len(levels) + players]
        bots = [Clocked(level, 100 * k + seat) for seat, level in enumerate(seating)]
        for level, bot in zip(seating, bots, strict=True):
            clocked[level].append(bot)
        play(GAME, {}, bots, 5000 + k, random.Random(k), 0)  # type: ignore[arg-type]
    print()
    print("| level | discards | median | max | claim answers | median | max |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for level in levels:
        d = [t for bot in clocked[level] for t in bot.discards]
        c = [t for bot in clocked[level] for t in bot.claims]
        if not d:
            continue
        print(
            f"| {level} | {len(d)} | {statistics.median(d):.4f} s | {max(d):.4f} s | "
            f"{len(c)} | {statistics.median(c):.5f} s | {max(c):.4f} s |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=2)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hand_evaluations(rng)
    protocol_playouts(50, rng)
    rollouts(2000, rng)
    decision_times(args.sessions, args.players)


if __name__ == "__main__":
    main()
