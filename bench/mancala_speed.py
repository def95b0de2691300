"""Mancala speed: random playouts a second, ours against OpenSpiel's C++, and the expert's pace.

Three engines play uniformly random default-Kalah games, in alternating rounds so a busy machine
slows them alike: our kernel as the bots drive it (``sow``/``finish`` on a plain list), our game
protocol as the server drives it (immutable states, JSON-safe actions), and OpenSpiel's C++
``mancala`` driven from Python (``legal_actions``/``apply_action``/``is_terminal``). Every loop
draws its move with the same ``random.choice``. The figures are medians over the rounds.

Then the expert plays a whole game from each seat against a middle level, and we report its
nodes a second and seconds a move: the max must stay under a second.

    .venv/bin/python bench/mancala_speed.py
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from itertools import compress

import pyspiel

from asobiba.games import get_game
from asobiba.games.mancala.board import Rules, finish, initial_board, sow
from asobiba.games.mancala.bots import SearchBot


def kernel_playouts(count: int, rng: random.Random) -> None:
    """Random games on the kernel as the search drives it: a plain list sown in place, the pits
    with stones are legal, and ``finish`` runs only when a side may have emptied (the mover's
    side, or the opponent's after a capture)."""
    rules = Rules()
    n = rules.pits
    pits = range(n)
    choice = rng.choice
    play, over = sow, finish  # local names, as the search's closure holds them
    for _ in range(count):
        board = initial_board(rules)
        player = 0
        while True:
            start = player * (n + 1)
            legal = list(compress(pits, board[start : start + n]))
            _, extra, captured = play(board, rules, player, choice(legal))
            if (captured or not any(board[start : start + n])) and over(board, rules):
                break
            if not extra:
                player = 1 - player


def protocol_playouts(count: int, rng: random.Random) -> None:
    """Random games through the game protocol, as the server and the arena drive a game."""
    game = get_game("mancala")
    choice = rng.choice
    for seed in range(count):
        state = game.new_state({}, 2, seed)
        while game.outcome(state) is None:
            (seat,) = game.to_move(state)
            state = game.apply(state, seat, choice(game.legal_actions(state, seat)))


def spiel_playouts(count: int, rng: random.Random) -> None:
    """Random games of OpenSpiel's C++ mancala, stepped from Python."""
    game = pyspiel.load_game("mancala")
    choice = rng.choice
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))


def rate(run: Callable[[int, random.Random], None], count: int, seed: int) -> float:
    started = time.perf_counter()
    run(count, random.Random(seed))
    return count / (time.perf_counter() - started)


def expert_pace(opponent: str) -> tuple[list[float], list[float]]:
    """Seconds and nodes a second of each expert move over two games, one from each seat."""
    game = get_game("mancala")
    seconds: list[float] = []
    speeds: list[float] = []
    for seat in (0, 1):
        expert = game.make_bot("expert", seat)
        assert isinstance(expert, SearchBot)
        other = game.make_bot(opponent, seat)
        state = game.new_state({}, 2, seat)
        while game.outcome(state) is None:
            (mover,) = game.to_move(state)
            legal = game.legal_actions(state, mover)
            seen = game.observe(state, mover)
            if mover == seat:
                started = time.perf_counter()
                action = expert.choose(seen, legal)
                took = time.perf_counter() - started
                seconds.append(took)
                if expert.last is not None:
                    speeds.append(expert.last.nodes / took)
            else:
                action = other.choose(seen, legal)
            state = game.apply(state, mover, action)
    return seconds, speeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=2000, help="games per engine per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--opponent", default="strong", help="the expert's opponent level")
    args = parser.parse_args()
    engines = {
        "our kernel (sow/finish on a list, as the bots use it)": kernel_playouts,
        "our game protocol (new_state/legal_actions/apply/outcome)": protocol_playouts,
        "OpenSpiel C++ mancala from Python": spiel_playouts,
    }
    rates: dict[str, list[float]] = {name: [] for name in engines}
    for r in range(args.rounds):
        for name, run in engines.items():
            count = args.playouts if run is not protocol_playouts else args.playouts // 10
            rates[name].append(rate(run, count, r))
    medians = {name: statistics.median(values) for name, values in rates.items()}
    kernel, protocol, spiel = medians.values()
    seconds, speeds = expert_pace(args.opponent)

    print("Command: `.venv/bin/python bench/mancala_speed.py` (default Kalah, 6 pits, 4 seeds)")
    print()
    print("| measure | figure |")
    print("|---|---:|")
    for name, value in medians.items():
        print(f"| random playouts/s, {name} | {value:,.0f} |")
    print(f"| ratio our kernel / OpenSpiel | {kernel / spiel:.2f} |")
    print(f"| ratio our protocol / OpenSpiel | {protocol / spiel:.3f} |")
    versus = f"over two games vs {args.opponent}"
    print(f"| expert nodes/s, median {versus} | {statistics.median(speeds):,.0f} |")
    print(f"| expert s/move, median {versus} | {statistics.median(seconds):.3f} |")
    print(f"| expert s/move, max {versus} ({len(seconds)} moves) | {max(seconds):.3f} |")


if __name__ == "__main__":
    main()
