"""Makes asobiba/games/mancala/book.json: the expert's opening moves for both seats, searched
deeper than a move's one second allows.

First player: the positions it can meet in the first ``--plies`` moves of default Kalah (its
own moves taken from the book itself, every reply of the opponent's) get the best move of a
``--depth``-move search. The depth, not a clock, decides, and the search reads no endgame table
(its lines rarely get that far), so these moves are the same on every machine and a test can
check a sample against the search at the book's depth.

Second player: its first move, after each first turn the first player can play, is solved
exactly (the C solver with the endgame table; one to three minutes a position, ``--jobs`` at
once). Kalah 6x4 is a first-player win, so the second player's first move decides how much a
strong first player can be held to; a 22-move search chose a move 8 stones worse than the best
there, and the expert's own search reaches that depth anyway, so the book keeps no other
second-player moves.

    nice -n 10 .venv/bin/python bench/mancala_book.py --plies 4 --depth 22 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from asobiba.games.mancala import book, endgame, native
from asobiba.games.mancala.board import Rules, finish, initial_board, sow


def first_player_moves(rules: Rules, plies: int, depth: int) -> dict[str, int]:
    """The first player's book move for every position it meets within ``plies``."""
    moves: dict[str, int] = {}
    frontier = [(initial_board(rules), 0)]
    seen: set[str] = set()
    for _ in range(plies + 1):
        following: list[tuple[list[int], int]] = []
        for board, player in frontier:
            key = book.key(board, player)
            if key in seen:
                continue
            seen.add(key)
            if player == 0:
                started = time.perf_counter()
                found = native.best(rules, board, player, depth, 0, 0.0)
                moves[key] = found.pit
                print(
                    f"seat 0: {key} -> pit {found.pit} (value {found.value}, "
                    f"{found.nodes:,} nodes, {time.perf_counter() - started:.1f} s)",
                    flush=True,
                )
                pits = [found.pit]
            else:
                base = rules.pits + 1
                pits = [pit for pit in range(rules.pits) if board[base + pit]]
            following.extend(children(rules, board, player, pits))
        frontier = following
    return moves


def children(
    rules: Rules, board: list[int], player: int, pits: list[int]
) -> list[tuple[list[int], int]]:
    out = []
    for pit in pits:
        child = board[:]
        extra = sow(child, rules, player, pit)[1]
        if not finish(child, rules):
            out.append((child, player if extra else 1 - player))
    return out


def second_player_first_moves(rules: Rules) -> list[list[int]]:
    """Every board the second player can face on its first move."""
    boards: list[list[int]] = []
    turn = [(initial_board(rules), 0)]
    while turn:
        board, player = turn.pop()
        if player == 1:
            if board not in boards:
                boards.append(board)
            continue
        turn.extend(children(rules, board, 0, [p for p in range(rules.pits) if board[p]]))
    return boards


def solve(board: list[int]) -> tuple[list[int], dict[int, int], float]:
    rules = Rules()
    endgame.ensure(rules)
    started = time.perf_counter()
    values = native.solve(rules, board, 1, table_bits=25, endgame=True)
    assert values is not None
    return board, values, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=4)
    parser.add_argument("--depth", type=int, default=22)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    rules = Rules()
    if not endgame.ensure(rules):
        raise SystemExit("the C kernel is needed (pip install -e .)")
    exact: dict[str, dict[str, int]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        solving = pool.map(solve, second_player_first_moves(rules))
        moves = first_player_moves(rules, args.plies, args.depth)
        for board, values, seconds in solving:
            key = book.key(board, 1)
            exact[key] = {str(pit): value for pit, value in sorted(values.items())}
            print(f"seat 1: {key} -> {exact[key]} ({seconds:.0f} s)", flush=True)
    out: Path = book.PATH
    out.write_text(
        json.dumps(
            {
                "rules": "default Kalah: 6 pits, 4 stones, standard capture, leftovers counted",
                "depth": args.depth,
                "plies": args.plies,
                "moves": dict(sorted(moves.items())),
                "exact": dict(sorted(exact.items())),
            },
            indent=1,
        )
        + "\n"
    )
    print(f"wrote {len(moves)} searched and {len(exact)} solved positions to {out}")


if __name__ == "__main__":
    main()
