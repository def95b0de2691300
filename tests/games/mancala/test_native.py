"""The compiled kernel (native.py, _kernel.c) against the pure-Python search it stands in for.

The C search must be search.py move for move: the same best move, value, depth, exactness and
node count, and the same analysis, on positions of every Kalah rule set; its exact solver must
give the values the Python search proves. The fallback must really run without the kernel.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from asobiba.games import get_game
from asobiba.games.mancala import endgame, native
from asobiba.games.mancala.board import Rules
from asobiba.games.mancala.bots import make_bot, position
from asobiba.games.mancala.search import SCALE, Search

pytestmark = pytest.mark.skipif(native.KERNEL is None, reason="the C kernel was not built")
GAME: Any = get_game("mancala")

RULE_SETS = [
    {"pits": p, "seeds": s, "capture": c, "count_leftovers": lo}
    for p, s, c, lo in [
        (6, 4, "standard", True),
        (6, 6, "standard", True),
        (6, 3, "empty", False),
        (5, 5, "none", True),
        (4, 4, "empty", True),
        (3, 6, "standard", False),
    ]
]


def positions(options: dict[str, Any], count: int, seed: int) -> list[tuple[Rules, list[int], int]]:
    """Positions along random games of ``options``, in the kernel's layout."""
    rng = random.Random(seed)
    found: list[tuple[Rules, list[int], int]] = []
    while len(found) < count:
        state = GAME.new_state(options, 2, seed)
        while GAME.outcome(state) is None and len(found) < count:
            if rng.random() < 0.3:
                found.append(position(GAME.observe(state, None)))
            (seat,) = GAME.to_move(state)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_the_c_search_is_the_python_search(options: dict[str, Any]) -> None:
    for k, (rules, board, player) in enumerate(positions(options, 12, seed=len(str(options)))):
        depth = 1 + k % 7
        assert native.best(rules, board, player, depth, 0, 0.0) == Search(rules).best(
            board, player, depth
        )
        budget = 2000 + 100 * k
        assert native.best(rules, board, player, 64, budget, 0.0) == Search(
            rules, nodes=budget
        ).best(board, player, 64)
        assert native.analyse(rules, board, player, depth, 0, 0.0) == Search(rules).analyse(
            board, player, depth
        )


def endings(options: dict[str, Any], count: int, stones: int) -> list[tuple[Rules, list[int], int]]:
    """The first position with at most ``stones`` stones in the pits of each of ``count`` random
    games of ``options``."""
    rng = random.Random(stones)
    found: list[tuple[Rules, list[int], int]] = []
    for seed in range(count):
        state = GAME.new_state(options, 2, seed)
        while GAME.outcome(state) is None:
            rules, board, player = position(GAME.observe(state, None))
            if sum(board) - board[rules.pits] - board[-1] <= stones:
                found.append((rules, board, player))
                break
            (seat,) = GAME.to_move(state)
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_the_solver_agrees_with_the_exact_python_search(options: dict[str, Any]) -> None:
    cases = endings(options, 8, stones=12)
    assert len(cases) >= 5
    for rules, board, player in cases:
        python = Search(rules).best(board, player, 64)
        assert python.exact
        solved = native.solve(rules, board, player)
        assert solved is not None
        assert max(solved.values()) * SCALE == python.value
        assert solved[python.pit] == max(solved.values())


def test_an_endgame_table_agrees_with_the_solver(tmp_path: Path) -> None:
    """A small table (at most 10 stones in the pits) is built, cached, reloaded, and gives the
    solver's values; searches read it only when asked to."""
    rules = Rules()
    cases = endings({}, 12, stones=10)
    endgame.unload()  # a table an earlier test loaded would stand in for this one
    try:
        assert endgame.ensure(rules, tmp_path, stones=10)
        (cached,) = tmp_path.iterdir()
        assert cached.stat().st_size == native.KERNEL.endgame_size(6, 10)  # type: ignore[union-attr]
        endgame.unload()
        assert endgame.ensure(rules, tmp_path, stones=10)  # read from the file this time
        for _, board, player in cases:
            tabled = native.solve(rules, board, player, endgame=True)
            assert tabled == native.solve(rules, board, player)
            with_table = native.best(rules, board, player, 64, 0, 0.0, endgame=True)
            assert with_table.exact and with_table.nodes <= 1 + len(tabled or ())
            assert with_table.value == max((tabled or {}).values()) * SCALE
    finally:
        endgame.unload()


def test_a_budget_that_runs_out_leaves_the_solver_without_an_answer() -> None:
    assert native.solve(Rules(), [4] * 6 + [0] + [4] * 6 + [0], 0, nodes=5000) is None


def test_the_levels_play_the_same_moves_on_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Levels without a clock pick the same move with or without the kernel (the fallback is
    search.py itself, switched on by taking the kernel away)."""
    cases = positions({}, 25, seed=5)
    bots = {
        level: make_bot(level, 7, nodes=3000, time=0.0, endgame=False)
        for level in ("casual", "strong", "expert")
    }

    def moves() -> list[int]:
        return [
            bot._pit(rules, board[:], player, random.Random(k))  # type: ignore[attr-defined]
            for k, (rules, board, player) in enumerate(cases)
            for bot in bots.values()
        ]

    compiled = moves()
    monkeypatch.setattr(native, "KERNEL", None)
    assert not native.available(Rules())
    assert moves() == compiled


def test_the_environment_switch_forces_the_fallback() -> None:
    env = {**os.environ, "ASOBIBA_PURE_PYTHON": "1"}
    code = "from asobiba.games.mancala import native; print(native.KERNEL is None)"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "True"
