"""Makes asobiba/games/mancala/book.json: the expert's opening moves for both seats, from a deep
fixed-depth search (C kernel) that a move's one second could not afford.

For each seat, the positions the expert can meet in the first ``--plies`` moves of default Kalah
(its own moves taken from the book itself, every reply of the opponent's) get the best move of a
``--depth``-move search. The depth, not a clock, decides, and the search reads no endgame table
(its lines rarely get that far), so the book is the same on every machine and a test can check
a sample against the search at the book's depth.

    nice -n 10 .venv/bin/python bench/mancala_book.py --plies 4 --depth 22

``--solve KEY ...`` instead solves those positions exactly (the solver with the endgame table,
minutes each) and stores every move's margin in the book's ``solved`` part, which a rebuild of
the searched moves keeps; book.py says when a solved position overrides the searched move.

    nice -n 10 .venv/bin/python bench/mancala_book.py --solve "4,4,4,4,4,0,1,5,5,5,4,4,4,0/1"
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from asobiba.games.mancala import book, endgame, native
from asobiba.games.mancala.board import Rules, finish, initial_board, sow


def book_positions(rules: Rules, seat: int, plies: int, depth: int, moves: dict[str, int]) -> None:
    """Fill ``moves`` with the book move of every position ``seat`` meets within ``plies``."""
    frontier = [(initial_board(rules), 0)]
    seen: set[str] = set()
    for _ in range(plies + 1):
        following: list[tuple[list[int], int]] = []
        for board, player in frontier:
            key = book.key(board, player)
            if key in seen:
                continue
            seen.add(key)
            base = player * (rules.pits + 1)
            if player == seat:
                if key not in moves:
                    started = time.perf_counter()
                    found = native.best(rules, board, player, depth, 0, 0.0)
                    moves[key] = found.pit
                    print(
                        f"seat {seat}: {key} -> pit {found.pit} (value {found.value}, "
                        f"{found.nodes:,} nodes, {time.perf_counter() - started:.1f} s)",
                        flush=True,
                    )
                booked = book.choose(moves[key], book.solved().get(key))
                assert booked is not None, "a searched move is always there to choose"
                pits = [booked]
            else:
                pits = [pit for pit in range(rules.pits) if board[base + pit]]
            for pit in pits:
                child = board[:]
                extra = sow(child, rules, player, pit)[1]
                if not finish(child, rules):
                    following.append((child, player if extra else 1 - player))
        frontier = following


def solve(rules: Rules, keys: list[str], seconds: float, solved: dict[str, dict[str, int]]) -> None:
    """Add every move's exact margin of the positions ``keys`` to ``solved``."""
    tabled = endgame.ensure(rules)
    for key in keys:
        cells, player = key.split("/")
        started = time.perf_counter()
        margins = native.solve(
            rules,
            [int(cell) for cell in cells.split(",")],
            int(player),
            seconds=seconds,
            table_bits=26,
            endgame=tabled,
        )
        if margins is None:
            raise SystemExit(f"{key}: not solved within {seconds} s")
        solved[key] = {str(pit): margin for pit, margin in sorted(margins.items())}
        print(f"{key}: {margins} ({time.perf_counter() - started:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--depth", type=int, default=22)
    parser.add_argument("--solve", nargs="+", metavar="KEY", help="positions to solve exactly")
    parser.add_argument("--seconds", type=float, default=3600.0, help="solver budget a position")
    args = parser.parse_args()
    rules = Rules()
    if not native.available(rules):
        raise SystemExit("the C kernel is needed (pip install -e .)")
    out: Path = book.PATH
    kept = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    solved: dict[str, dict[str, int]] = kept.get("solved", {})
    if args.solve:
        solve(rules, args.solve, args.seconds, solved)
        depth, plies, moves = kept["depth"], kept["plies"], kept["moves"]
    else:
        depth, plies, moves = args.depth, args.plies, {}
        for seat in (0, 1):
            book_positions(rules, seat, plies, depth, moves)
    out.write_text(
        json.dumps(
            {
                "rules": "default Kalah: 6 pits, 4 stones, standard capture, leftovers counted",
                "depth": depth,
                "plies": plies,
                "moves": dict(sorted(moves.items())),
                "solved": dict(sorted(solved.items())),
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {len(moves)} positions to {out}")


if __name__ == "__main__":
    main()
