"""The expert's opening book for default Kalah: book.json, made by bench/mancala_book.py.

Positions of the first moves of either seat, each with the best move of a search deeper than a
move's one second reaches (the file says how deep). A few positions were also solved offline
(every move's exact final margin, minutes of the solver each): there the book plays the solved
best move, since a fixed-depth search can misjudge an opening by many stones (docs/STRENGTH.md).
The top level plays the book's move when it has one; any other position, or any other rule set,
is searched as usual.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from asobiba.games.mancala.board import Rules

PATH = Path(str(resources.files(__package__).joinpath("book.json")))
BOOKED = Rules()
"""The rule set the book is for: default Kalah (6 pits, 4 stones, standard capture, leftovers)."""
TOLERANCE = 2
"""Stones a searched move may lose against a solved position's best and still be played.

The second seat's opening is lost with best play, so the game is decided by the lines the other
side misplays more than by the exact margin; a searched move within a couple of stones of the
best stays (replacing such moves lost games to MCTS, docs/STRENGTH.md), a worse one gives way."""


def key(board: list[int], player: int) -> str:
    """A position's key in the book: the 14 cells and the player to move."""
    return f"{','.join(map(str, board))}/{player}"


@cache
def _book() -> dict[str, Any]:
    """book.json, read once per process (an empty book where the file is missing)."""
    if not PATH.exists():
        return {"depth": 0, "moves": {}}
    book: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return book


@cache
def _moves() -> dict[str, int]:
    return dict(_book()["moves"])


@cache
def solved() -> dict[str, dict[int, int]]:
    """The solved positions: every legal move's exact final margin for the mover, by pit."""
    entries = _book().get("solved", {})
    return {
        key: {int(pit): margin for pit, margin in moves.items()} for key, moves in entries.items()
    }


def depth() -> int:
    """How deep the book's search looked (0: no book)."""
    return int(_book()["depth"])


def choose(searched: int | None, margins: dict[int, int] | None) -> int | None:
    """A position's book move from its searched move and, where it was solved, its margins:
    the searched move unless it loses more than ``TOLERANCE`` stones against the best."""
    if margins is None:
        return searched
    best = max(margins.values())
    if searched in margins and margins[searched] >= best - TOLERANCE:
        return searched
    return min(pit for pit, margin in margins.items() if margin == best)


def move(rules: Rules, board: list[int], player: int) -> int | None:
    """The book's pit for this position, or None when it has none (see ``choose``)."""
    if rules != BOOKED:
        return None
    position = key(board, player)
    return choose(_moves().get(position), solved().get(position))
