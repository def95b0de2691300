"""Kalah's compiled kernel (_kernel.c) behind the pure-Python search's own results.

The C kernel sows, evaluates and orders moves exactly as board.py and search.py do (the tests
compare them), searches about fifty times more positions a second, and adds an exact solver and
the endgame tables (endgame.py). It is an optional extension: an install without a C compiler
has no ``_kernel`` and every caller falls back to search.py, as it does for Basic (not in C) and
when ``ASOBIBA_PURE_PYTHON=1`` forces it.
"""

from __future__ import annotations

import os
from types import ModuleType

from asobiba.games.mancala.board import Rules
from asobiba.games.mancala.search import Result


def _load() -> ModuleType | None:
    if os.environ.get("ASOBIBA_PURE_PYTHON", "") in {"1", "true", "yes"}:
        return None
    try:
        from asobiba.games.mancala import _kernel
    except ImportError:
        return None
    return _kernel


KERNEL = _load()
"""The compiled kernel, or None where it was not built or is switched off."""

CAPTURES = {"standard": 0, "empty": 1, "none": 2}
"""The kernel's numbers for ``Rules.capture``."""


def available(rules: Rules) -> bool:
    """True when the compiled kernel plays ``rules`` (every Kalah rule set, not Basic)."""
    return KERNEL is not None and not rules.basic


def _rules(rules: Rules) -> tuple[int, int, bool]:
    return rules.pits, CAPTURES[rules.capture], rules.count_leftovers


def best(
    rules: Rules,
    board: list[int],
    player: int,
    depth: int,
    nodes: int,
    seconds: float,
    *,
    endgame: bool = False,
) -> Result:
    """``Search.best`` in C: iterative deepening within ``nodes`` (0: none) and ``seconds``;
    ``endgame``: lines end at the endgame table, if one is loaded for ``rules``."""
    assert KERNEL is not None
    pit, value, reached, exact, visited = KERNEL.best(
        board, player, *_rules(rules), depth, nodes, seconds, endgame
    )
    return Result(pit, value, reached, exact, visited)


def analyse(
    rules: Rules,
    board: list[int],
    player: int,
    depth: int,
    nodes: int,
    seconds: float,
    *,
    endgame: bool = False,
) -> dict[int, tuple[int, bool]]:
    """``Search.analyse`` in C: each move's ``(value, exact)`` from the deepest finished
    iteration, in ``SCALE`` units."""
    assert KERNEL is not None
    graded = KERNEL.analyse(board, player, *_rules(rules), depth, nodes, seconds, endgame)
    return {pit: (value, exact) for pit, value, exact in graded}


def solve(
    rules: Rules,
    board: list[int],
    player: int,
    *,
    nodes: int = 0,
    seconds: float = 0.0,
    table_bits: int = 22,
    endgame: bool = False,
) -> dict[int, int] | None:
    """Every legal move's exact final margin in stones from the mover's side, or None when the
    budget ran out first. ``table_bits`` sizes the solver's table (16 bytes an entry)."""
    assert KERNEL is not None
    solved = KERNEL.solve(board, player, *_rules(rules), nodes, seconds, table_bits, endgame)
    return None if solved is None else dict(solved)
