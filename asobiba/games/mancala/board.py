"""The sowing kernel: plain lists of ints, shared by the rules, the search and the benchmarks.

Board layout for ``n`` pits a side (``2n + 2`` cells): player 0's pits are indexes ``0..n-1`` in
sowing order, their store is ``n``; player 1's pits are ``n+1..2n``, their store ``2n+1``. Sowing
moves to the next index (counter-clockwise on the real board). The pit opposite index ``k`` is
``2n - k``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KALAH = "kalah"
BASIC = "basic"


@dataclass(frozen=True, slots=True)
class Rules:
    """One resolved rule set."""

    variant: str = KALAH
    seeds: int = 4
    capture: str = "standard"
    """"standard", "empty" (last stone alone is stored when the opposite pit is empty) or "none"."""
    count_leftovers: bool = True
    pits: int = 6

    @classmethod
    def from_options(cls, resolved: dict[str, Any]) -> Rules:
        basic = resolved["variant"] == BASIC
        return cls(
            variant=resolved["variant"],
            seeds=resolved["seeds"],
            capture="none" if basic else resolved["capture"],
            count_leftovers=False if basic else resolved["count_leftovers"],
            pits=resolved["pits"],
        )

    @property
    def basic(self) -> bool:
        return self.variant == BASIC


def store(n: int, player: int) -> int:
    return player * (n + 1) + n


def pit_index(n: int, player: int, pit: int) -> int:
    return player * (n + 1) + pit


def initial_board(rules: Rules) -> list[int]:
    n = rules.pits
    board = [rules.seeds] * (2 * n + 2)
    board[n] = board[2 * n + 1] = 0
    return board


def side_total(board: list[int], n: int, player: int) -> int:
    start = player * (n + 1)
    return sum(board[start : start + n])


def sow(board: list[int], rules: Rules, player: int, pit: int) -> tuple[int, bool, int]:
    """Play ``pit`` (0..n-1 in the mover's sowing order) on ``board`` in place.

    Returns ``(last, extra_turn, captured)``: the index the last stone fell in, whether the mover
    goes again, and how many stones a capture moved to the mover's store (0 when none; a lone
    last stone stored under the "empty" capture rule counts 1).
    """
    n = rules.pits
    size = 2 * n + 2
    idx = player * (n + 1) + pit
    stones = board[idx]
    board[idx] = 0
    own_store = player * (n + 1) + n
    skip = -1 if rules.basic else (1 - player) * (n + 1) + n
    while stones:
        idx += 1
        if idx == size:
            idx = 0
        if idx == skip:
            continue
        board[idx] += 1
        stones -= 1
    if idx == n or idx == size - 1:
        return idx, rules.basic or idx == own_store, 0
    captured = 0
    if rules.capture != "none" and board[idx] == 1 and player * (n + 1) <= idx < own_store:
        opposite = 2 * n - idx
        if board[opposite]:
            captured = board[opposite] + 1
            board[opposite] = 0
            board[idx] = 0
        elif rules.capture == "empty":
            captured = 1
            board[idx] = 0
        board[own_store] += captured
    return idx, False, captured


def finish(board: list[int], rules: Rules) -> bool:
    """End the game if either side is empty; sweep leftovers into stores when they count."""
    n = rules.pits
    left0 = side_total(board, n, 0)
    left1 = side_total(board, n, 1)
    if left0 and left1:
        return False
    if rules.count_leftovers:
        for player, left in ((0, left0), (1, left1)):
            start = player * (n + 1)
            board[start : start + n] = [0] * n
            board[start + n] += left
    return True
