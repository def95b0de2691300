"""Our default Kalah against OpenSpiel's ``mancala``, move by move, over 10,000 random games.

OpenSpiel's board has 14 cells: 0 is player 1's store, 1..6 player 0's pits, 7 player 0's store,
8..13 player 1's pits. An action is the cell sown from, so our ``{"pit": p}`` is ``p + 1`` for seat
0 and ``p + 8`` for seat 1. Its ``observation_tensor`` starts with those 14 cells. It leaves the
leftover stones on the board at the end, but counts them in its returns.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pyspiel

from asobiba.games import get_game
from asobiba.games.mancala import MancalaState

GAME = get_game("mancala")
GAMES = 10_000
OFFSET = (1, 8)
"""OpenSpiel action of our pit 0, per seat."""


def spiel_board(state: Any) -> list[int]:
    return [int(x) for x in state.observation_tensor(0)[:14]]


def our_board(obs: dict[str, Any]) -> list[int]:
    """Our observation laid out as OpenSpiel's 14 cells."""
    return [obs["stores"][1], *obs["pits"][0], obs["stores"][0], *obs["pits"][1]]


def swept(cells: list[int]) -> list[int]:
    """OpenSpiel's final board with each side's leftovers moved into its owner's store."""
    return [cells[0] + sum(cells[8:]), *[0] * 6, cells[7] + sum(cells[1:7]), *[0] * 6]


def play_both(seed: int, spiel_game: Any, seen: Counter[str]) -> None:
    """One random game through both engines, compared before every move and at the end."""
    rng = random.Random(seed)
    ours: MancalaState = GAME.new_state({}, 2, seed)
    theirs = spiel_game.new_initial_state()
    while not theirs.is_terminal():
        obs = GAME.observe(ours, None)
        where = f"seed {seed}, ply {obs['ply']}"
        assert our_board(obs) == spiel_board(theirs), where
        seat = theirs.current_player()
        assert GAME.to_move(ours) == {seat}, where
        legal = [action["pit"] + OFFSET[seat] for action in GAME.legal_actions(ours, seat)]
        assert legal == theirs.legal_actions(), where
        action = rng.choice(legal)
        theirs.apply_action(action)
        ours = GAME.apply(ours, seat, {"pit": action - OFFSET[seat]})
        last = GAME.observe(ours, None)["last"]
        seen["extra turns"] += last["extra_turn"]
        seen["captures"] += last["captured"] > 0
        seen["laps"] += len(last["path"]) >= 13
    outcome = GAME.outcome(ours)
    assert outcome is not None, f"seed {seed}: OpenSpiel ended, we did not"
    obs = GAME.observe(ours, None)
    cells = spiel_board(theirs)
    assert our_board(obs) == swept(cells), f"seed {seed}, end"
    returns = theirs.returns()
    assert outcome["winners"] == [p for p in (0, 1) if returns[p] > 0], f"seed {seed}, winner"
    seen["draws"] += outcome["winners"] == []
    by_stores_only = [] if cells[7] == cells[0] else [0 if cells[7] > cells[0] else 1]
    seen["leftovers decided"] += outcome["winners"] != by_stores_only
    seen["ended by a capture"] += obs["last"]["captured"] > 0


def test_kalah_agrees_with_openspiel_mancala_on_10000_random_games() -> None:
    spiel_game = pyspiel.load_game("mancala")
    seen: Counter[str] = Counter()
    for seed in range(GAMES):
        play_both(seed, spiel_game, seen)
    # The sample must have exercised every rule, or the agreement proves little.
    events = ("extra turns", "captures", "laps", "draws", "ended by a capture", "leftovers decided")
    for event in events:
        assert seen[event] > 0, f"no {event} in {GAMES} games: {seen}"
