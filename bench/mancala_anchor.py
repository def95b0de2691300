"""Anchor match: our Mancala expert against OpenSpiel's C++ MCTS, on default Kalah.

Elo from our own arena only says how our levels compare with each other; an outside opponent
pins the top of the ladder to something anyone can rerun. OpenSpiel's ``MCTSBot`` with 10,000
simulations of one random rollout each (UCT constant 2, solver on) is the anchor; the expert
must score at least 95% (a win 1, a draw 0.5) over 200 games (two runs of 100, one per core),
seats alternating.

OpenSpiel's board: player 0's pits are actions 1..6 and player 1's 8..13, each in sowing order,
so our ``{"pit": p}`` is action ``p + 1`` for seat 0 and ``p + 8`` for seat 1. Both engines play
every move and the boards are compared after each one, so a rule difference cannot hide.

    .venv/bin/python bench/mancala_anchor.py --games 100 --seed 1
    .venv/bin/python bench/mancala_anchor.py --games 100 --seed 2

``--seat 1`` plays only the second seat (the games of the same seeds), ``--uct-c`` changes
MCTS's exploration constant (a differently tuned opponent, for checking that a change is not
fitted to this one), and ``--record FILE`` writes every game's moves as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import pyspiel

from asobiba.games import get_game


def _spiel_board(state: pyspiel.State) -> list[int]:
    """OpenSpiel's board in our layout (its cell 0 is player 1's store, 1..7 player 0's side)."""
    cells = [int(x) for x in state.observation_tensor(0)[:14]]
    return [*cells[1:14], cells[0]]


def play(
    level: str, seat: int, seed: int, simulations: int, uct_c: float, times: list[float]
) -> tuple[float, list[tuple[int, int]]]:
    """One game with our ``level`` in ``seat``: our score (1, 0.5 or 0) and the moves played,
    each as (mover, pit)."""
    game = get_game("mancala")
    spiel_game = pyspiel.load_game("mancala")
    state = game.new_state({}, 2, seed)
    spiel = spiel_game.new_initial_state()
    ours = game.make_bot(level, seed)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    mcts = pyspiel.MCTSBot(spiel_game, evaluator, uct_c, simulations, 1000, True, seed, False)
    moves: list[tuple[int, int]] = []
    while (outcome := game.outcome(state)) is None:
        (mover,) = game.to_move(state)
        if spiel.current_player() != mover:
            raise AssertionError(f"engines disagree on the mover: {spiel} vs {state}")
        offset = 1 if mover == 0 else 8
        if mover == seat:
            started = time.perf_counter()
            action = ours.choose(game.observe(state, mover), game.legal_actions(state, mover))
            times.append(time.perf_counter() - started)
            spiel_action = action["pit"] + offset
        else:
            spiel_action = mcts.step(spiel)
            action = {"pit": spiel_action - offset}
        moves.append((mover, action["pit"]))
        state = game.apply(state, mover, action)
        spiel.apply_action(spiel_action)
        seen = game.observe(state, None)
        board = [*seen["pits"][0], seen["stores"][0], *seen["pits"][1], seen["stores"][1]]
        if not spiel.is_terminal() and board != _spiel_board(spiel):
            raise AssertionError(f"boards differ: ours {board}, OpenSpiel\n{spiel}")
    if not spiel.is_terminal():
        raise AssertionError(f"our game ended, OpenSpiel's did not:\n{spiel}")
    winners = outcome["winners"]
    return (0.5 if len(winners) != 1 else float(winners[0] == seat)), moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--simulations", type=int, default=10_000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seat", type=int, choices=(0, 1), help="play only this seat")
    parser.add_argument("--record", help="append every game's moves to this file (JSON lines)")
    args = parser.parse_args()
    scores: list[float] = []
    times: list[float] = []
    numbers = range(args.games) if args.seat is None else range(args.seat, 2 * args.games, 2)
    for k in numbers:
        seat = k % 2
        seed = args.seed * 100_000 + k
        score, moves = play(args.level, seat, seed, args.simulations, args.uct_c, times)
        scores.append(score)
        if args.record:
            with open(args.record, "a", encoding="utf-8") as out:
                line = {"seed": seed, "seat": seat, "score": score, "moves": moves}
                out.write(json.dumps(line) + "\n")
        print(
            f"game {k + 1}: {args.level} in seat {seat} scores {score}"
            f" (running {sum(scores)}/{len(scores)})",
            flush=True,
        )
    wins = scores.count(1.0)
    draws = scores.count(0.5)
    losses = scores.count(0.0)
    share = sum(scores) / len(scores)
    seats = "seats alternating" if args.seat is None else f"seat {args.seat} only"
    print()
    print(
        f"| {args.level} vs OpenSpiel MCTSBot({args.simulations} simulations, "
        f"uct_c={args.uct_c:g}, 1 random rollout) | games | W-D-L | score |"
    )
    print("|---|---:|---:|---:|")
    print(
        f"| default Kalah, {seats} | {len(scores)} | {wins}-{draws}-{losses} | {100 * share:.1f}% |"
    )
    print()
    print(
        f"{args.level} time per move: median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s over {len(times)} moves"
    )
    print(f"score {100 * share:.1f}% -> {'meets' if share >= 0.95 else 'BELOW'} the 95% bar")


if __name__ == "__main__":
    main()
