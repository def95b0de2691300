"""How often each Mancala level picks a value-optimal move on bench/mancala_positions.json.

Each position of the set (default Kalah, 14 to 40 stones in the pits, from real play between the
levels) carries the exact final margin of every legal move. A level's bot, with its real budget
(the expert's 1 s a move included), chooses once per position; we print the share of positions
where its move is worth as much as the best one, the mean stones it loses against the best, and
its seconds a move. Run it with nothing else busy: the expert's clock is part of its budget.

    .venv/bin/python bench/mancala_accuracy.py
    .venv/bin/python bench/mancala_accuracy.py --levels expert --nodes 3000000
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from asobiba.games import get_game
from asobiba.games.mancala import endgame
from asobiba.games.mancala.board import Rules
from asobiba.games.mancala.bots import make_bot

SET = Path(__file__).with_name("mancala_positions.json")


def measure(level: str, positions: list[dict[str, Any]], nodes: int | None) -> dict[str, Any]:
    game: Any = get_game("mancala")
    start = game.new_state({}, 2, 0)
    bot = make_bot(level, 1, nodes=nodes)
    endgame.ensure(Rules())  # a process reads the table once (built once per data directory)
    lost: list[int] = []
    times: list[float] = []
    by_stones: dict[str, list[int]] = {"14-20": [], "21-30": [], "31-40": []}
    for entry in positions:
        state = replace(
            start, board=tuple(entry["board"]), player=entry["player"], ply=entry["ply"]
        )
        seat = entry["player"]
        started = time.perf_counter()
        action = bot.choose(game.observe(state, seat), game.legal_actions(state, seat))
        times.append(time.perf_counter() - started)
        values = entry["values"]
        loss = max(values.values()) - values[str(action["pit"])]
        lost.append(loss)
        stones = entry["stones"]
        band = "14-20" if stones <= 20 else "21-30" if stones <= 30 else "31-40"
        by_stones[band].append(loss)
    return {
        "level": level,
        "optimal": sum(1 for x in lost if x == 0) / len(lost),
        "lost": statistics.mean(lost),
        "bands": {
            band: sum(1 for x in xs if x == 0) / len(xs) for band, xs in by_stones.items() if xs
        },
        "mean_s": statistics.mean(times),
        "max_s": max(times),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="beginner,casual,strong,expert")
    parser.add_argument("--nodes", type=int, default=None, help="override the expert's budget")
    parser.add_argument("--limit", type=int, default=0, help="only the first N positions")
    args = parser.parse_args()
    data = json.loads(SET.read_text())
    positions = data["positions"]
    if args.limit:
        positions = positions[:: max(1, len(positions) // args.limit)][: args.limit]
    print(f"{len(positions)} positions, default Kalah, 14-40 stones in the pits")
    print()
    print(
        "| level | value-optimal | 14-20 | 21-30 | 31-40 | mean stones lost | s/move mean"
        " | s/move max |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for level in args.levels.split(","):
        nodes = args.nodes if level == "expert" else None
        m = measure(level, positions, nodes)
        bands = " | ".join(
            f"{100 * m['bands'].get(b, 0):.1f}%" for b in ("14-20", "21-30", "31-40")
        )
        print(
            f"| {level} | {100 * m['optimal']:.1f}% | {bands} | {m['lost']:.2f} | "
            f"{m['mean_s']:.3f} | {m['max_s']:.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
