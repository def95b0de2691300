"""Makes bench/mancala_positions.json: default-Kalah positions from real play between the levels,
each with the exact final margin of every legal move from the C kernel's solver.

Games between every pair of levels (both seats; the expert on a fixed node budget and no clock,
so the set is the same on every machine) give the positions with 14 to 40 stones left in the
pits; a few per game are kept, spread over that range, until there are ``--positions``. Each is
solved exactly (with the endgame table); a 40-stone position takes a few seconds, so the whole
set takes minutes: run it under ``nice`` on one core. bench/mancala_accuracy.py reads the file.

    nice -n 10 .venv/bin/python bench/mancala_positions.py --positions 520
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import time
from pathlib import Path
from typing import Any

from asobiba.games import get_game
from asobiba.games.mancala import endgame, native
from asobiba.games.mancala.board import Rules
from asobiba.games.mancala.bots import make_bot, position

OUT = Path(__file__).with_name("mancala_positions.json")
LEVELS = ("beginner", "casual", "strong", "expert")
LOW, HIGH = 14, 40
PER_GAME = 3
GENERATION_EXPERT_NODES = 200_000


def in_pits(board: list[int], n: int) -> int:
    return sum(board) - board[n] - board[2 * n + 1]


def game_positions(first: str, second: str, seed: int) -> list[dict[str, Any]]:
    """Every position of one game, between ``first`` (seat 0) and ``second``, in range."""
    game = get_game("mancala")
    state = game.new_state({}, 2, seed)
    bots = [
        make_bot(level, seed * 2 + seat, nodes=GENERATION_EXPERT_NODES, time=0.0)
        if level == "expert"
        else make_bot(level, seed * 2 + seat)
        for seat, level in enumerate((first, second))
    ]
    found = []
    while game.outcome(state) is None:
        (seat,) = game.to_move(state)
        observation = game.observe(state, seat)
        _, board, player = position(observation)
        if LOW <= in_pits(board, 6) <= HIGH:
            found.append(
                {
                    "board": board,
                    "player": player,
                    "ply": observation["ply"],
                    "game": f"{first} vs {second}, seed {seed}",
                }
            )
        action = bots[seat].choose(observation, game.legal_actions(state, seat))
        state = game.apply(state, seat, action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=520)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    rules = Rules()
    if not endgame.ensure(rules):
        raise SystemExit("the C kernel is needed to solve the positions (pip install -e .)")
    rng = random.Random(args.seed)
    pairs = [(a, b) for a, b in itertools.product(LEVELS, LEVELS) if a != b]
    chosen: list[dict[str, Any]] = []
    seen: set[tuple[int, ...]] = set()
    for k in itertools.count():
        if len(chosen) >= args.positions:
            break
        first, second = pairs[k % len(pairs)]
        candidates = game_positions(first, second, args.seed * 10_000 + k)
        rng.shuffle(candidates)
        kept = 0
        for candidate in candidates:
            key = (*candidate["board"], candidate["player"])
            if key in seen or kept == PER_GAME:
                continue
            seen.add(key)
            chosen.append(candidate)
            kept += 1
    chosen = chosen[: args.positions]
    started = time.perf_counter()
    for i, entry in enumerate(chosen):
        t = time.perf_counter()
        values = native.solve(rules, entry["board"], entry["player"], table_bits=24, endgame=True)
        assert values is not None
        entry["stones"] = in_pits(entry["board"], 6)
        entry["values"] = {str(pit): value for pit, value in sorted(values.items())}
        entry["seconds"] = round(time.perf_counter() - t, 3)
        print(f"{i + 1}/{len(chosen)}: {entry['stones']} stones, {entry['seconds']} s", flush=True)
    chosen.sort(key=lambda e: (e["stones"], e["board"], e["player"]))
    OUT.write_text(
        json.dumps(
            {
                "rules": "default Kalah: 6 pits, 4 stones, standard capture, leftovers counted",
                "values": "each legal pit's final margin (mover's store minus opponent's) with "
                "perfect play after it",
                "solve_seconds": round(time.perf_counter() - started, 1),
                "positions": chosen,
            },
            indent=None,
            separators=(",", ":"),
        )
        + "\n"
    )
    print(f"wrote {len(chosen)} positions to {OUT} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
