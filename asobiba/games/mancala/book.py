"""The expert's opening book for default Kalah: book.json, made by bench/mancala_book.py.

Positions of the first moves of either seat, each with the best move of a search deeper than a
move's one second reaches (the file says how deep). The top level plays the book's move when it
has one; any other position, or any other rule set, is searched as usual.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path

from asobiba.games.mancala.board import Rules

PATH = Path(str(resources.files(__package__).joinpath("book.json")))
BOOKED = Rules()
"""The rule set the book is for: default Kalah (6 pits, 4 stones, standard capture, leftovers)."""


def key(board: list[int], player: int) -> str:
    """A position's key in the book: the 14 cells and the player to move."""
    return f"{','.join(map(str, board))}/{player}"


@cache
def _moves() -> dict[str, int]:
    if not PATH.exists():
        return {}
    return dict(json.loads(PATH.read_text(encoding="utf-8"))["moves"])


def depth() -> int:
    """How deep the book's search looked (0: no book)."""
    return int(json.loads(PATH.read_text(encoding="utf-8"))["depth"]) if PATH.exists() else 0


def move(rules: Rules, board: list[int], player: int) -> int | None:
    """The book's pit for this position, or None when it has none."""
    if rules != BOOKED:
        return None
    return _moves().get(key(board, player))
